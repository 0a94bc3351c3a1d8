"""The live table view: a Socket.IO server with one namespace per role, the pages, and the logins.

- `/table` (public, no auth): the broadcast / table screen; gets `payloads.table_payload`.
- `/broadcast` (public, no auth): the broadcast screen; gets `payloads.broadcast_payload`, hole
  cards included, each state only `broadcast_delay_s` after it was published (display/delay.py),
  and the findings only when `broadcast_findings` puts them on air.
- `/dealer` (login when configured): the dealer's screen; gets `payloads.dealer_payload`. The
  dealer's touch console (`/dealer/console`) joins it too and sends its taps back as `input`
  events (display/console_inputs.py: only a dealer socket may, a ruling or a tournament
  entry needs the floor's token).

Namespaces, not rooms, separate the roles: a connect handler guards each namespace's door, and an
emit that forgot its `namespace=` goes to `/`, which no page joins, instead of to the public
(research/ecosystem.md §3.3).

No secret travels in a URL or reaches a log. The dealer page without a session is a login form
that POSTs the token; the answer is a session cookie (HttpOnly, SameSite=Strict, a signed random
login id, display/access.py) that the `/dealer` namespace admits at the Socket.IO handshake.
Non-browser clients send the token as Socket.IO auth instead (the handshake payload). A `?token=`
is never accepted, and the request log is written without query strings.

The daemon pushes every new snapshot with `Publisher.publish(snapshot)` from whatever thread
applied the event (usually the card reader's); the live server's event loop builds and emits
(display/live.py: python-socketio's AsyncServer on a loop thread of its own, served by uvicorn
with the Flask app's pages). Each client gets the latest payload as a `state` event when it
connects, then the published ones in order (`/table` skips to the latest when it falls behind;
see Publisher).

The Flask app serves the pages and the logins; the namespaces' handlers are python-socketio's
own, on the loop. What they decide with the Flask app's helpers (the session cookie, the
client's address) runs in a Flask request context made from the handshake, on the loop's
executor: a password hash or the daemon's submit path never blocks the loop.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import ssl
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any, Protocol

from flask import Flask, Response, jsonify, redirect, render_template, request
from flask.typing import ResponseReturnValue
from socketio.exceptions import ConnectionRefusedError

from controller.security.accounts import (
    SEND_INPUT,
    VIEW_DEALER,
    Accounts,
    may,
)
from controller.security.audit import AuditLog
from display.access import (
    DEALER_IDENTITY,
    DEFAULT_SESSION_LIFETIME,
    FLOOR_IDENTITY,
    Authenticator,
    Identity,
    Login,
    LoginLimiter,
    add_security_headers,
    token_authenticator,
)
from display.console_inputs import ChooseHook, ConsoleInputs, Submit
from display.delay import DelayLine
from display.fan_out import orjson_json
from display.live import LiveServer, ServerHandle, serve
from display.login import AUDIT, SESSION_COOKIE, LoginDesk, client_address
from display.payloads import (
    Payload,
    PayloadMemo,
    broadcast_payload,
    dealer_payload,
    devices,
    table_payload,
)

__all__ = [
    "AUDIT",
    "BROADCAST",
    "BROADCAST_DELAY_S",
    "DEALER",
    "SESSION_COOKIE",
    "TABLE",
    "LiveServer",
    "Publisher",
    "ServerHandle",
    "create_app",
    "run_server",
]

log = logging.getLogger(__name__)

TABLE = "/table"
DEALER = "/dealer"
BROADCAST = "/broadcast"
# The broadcast's secure delay unless told otherwise: 30 minutes, the order of a live stream's
# delay (docs/security.md, The broadcast shows hole cards only after the delay).
BROADCAST_DELAY_S = 1800.0
CONSOLE = "/dealer/console"
# Where a login may send the browser back to: the page that showed the form, or a hand's
# export of the review.
_BACK = re.compile(r"/dealer|/dealer/console|/audit|/review(?:/hand/[0-9]{1,9}\.(?:phh|jsonl))?")
EVENT = "state"
# Reader states in which cards go unseen: /healthz says the table is down
# (controller/sensing/health.py).
DEVICE_DOWN = ("offline", "silent", "fault")

# A dead screen shows "offline" within ping_interval + ping_timeout seconds (engineio's defaults,
# 25 + 20, are too slow for a table display).
PING_INTERVAL = 5
PING_TIMEOUT = 5


class Loop(Protocol):
    """What the Publisher needs of the live server (LiveServer; a test's stand-in)."""

    def call_soon(self, fn: Callable[..., Any], *args: Any) -> bool: ...

    def emit(self, event: str, data: Any, namespace: str, to: str | None = None) -> None: ...


class OddsSource(Protocol):
    """The broadcast's odds (controller/daemon/odds_worker.py ``OddsWorker``; a test's stand-in):
    ``request`` names a snapshot's spot (None: nothing to value) and asks for its figure without
    waiting; ``figure`` is the best figure of a spot so far; a subscriber hears of each new one
    (on any thread)."""

    def request(self, snapshot: Mapping[str, Any]) -> Any: ...

    def figure(self, spot: Any) -> dict[str, Any] | None: ...

    def subscribe(self, listener: Callable[[Any], None]) -> None: ...

    def close(self) -> None: ...


class Publisher:
    """Builds the role payloads of each snapshot and emits them on the live server's loop; keeps
    the latest for new clients.

    `publish` may be called from any thread and only queues the snapshot: the card reader's
    thread (which sets the LEDs) never waits on the display. The loop then builds and emits,
    per namespace as its role allows when it falls behind:

    - `/dealer`: every snapshot, in order (a finding raised in an event the fan-out was behind
      on must still reach the dealer, and the next hand's snapshot no longer lists it);
    - `/table`: only the latest queued snapshot (a state view: a newer state replaces an older
      one, and an older one is never sent after a newer one);
    - `/broadcast`: every snapshot, into the secure delay line (display/delay.py), stamped with
      the time `publish` was called, each emitted exactly `broadcast_delay_s` later (at 0, a
      table that is not public, each at once, with the live views).

    The odds (``odds``, docs/display.md "The odds"): each snapshot's spot is asked of the odds
    worker as the snapshot is fanned out; the figure travels only in `/broadcast`'s payload
    (`equity`), attached when the delayed state is sent, and sent again with it when a better
    figure of the state on air arrives. `/table` and `/dealer` never carry it: odds computed
    from every hole card would tell the room who holds what.

    python-socketio encodes an emit to a namespace once for all its clients (its manager's
    `emit`). Payloads, emits and a new client's greeting all happen on the loop's one thread,
    in order: a client that connects mid-stream gets the latest state, then only newer ones.
    """

    def __init__(self, live: Loop, broadcast_delay_s: float = BROADCAST_DELAY_S,
                 clock: Callable[[], float] = time.monotonic, *,
                 broadcast_findings: bool = False, odds: OddsSource | None = None) -> None:
        self._live = live
        self.odds = odds
        self._on_air: Any = None  # the spot of the state /broadcast shows now
        self._clock = clock
        self._snapshot: Mapping[str, Any] = {}
        self._last_seq: int | None = None
        self.broadcast_delay_s = float(broadcast_delay_s)
        # whether /broadcast carries the findings ([broadcast] findings; off: not at all)
        self.broadcast_findings = bool(broadcast_findings)
        self._payloads: dict[str, Payload] = {
            TABLE: table_payload({}),
            DEALER: dealer_payload({}),
            # before the first state is old enough: an idle table ("waiting for a hand")
            BROADCAST: broadcast_payload({}, self.broadcast_delay_s,
                                         findings=self.broadcast_findings),
        }
        # the queue between publish and the loop: (publish time, snapshot)
        self._pending: deque[tuple[float, Mapping[str, Any]]] = deque()
        self._cond = threading.Condition()
        self._scheduled = False  # a fan-out is asked of the loop and has not taken the queue
        self._done = 0  # snapshots the fan-out has finished with
        # each delayed state as (its compact JSON text, its odds spot)
        self.broadcast = DelayLine[tuple[str, Any]](self.broadcast_delay_s,
                                                    self._from_delay_line, clock=clock)
        self.published = 0
        self.emit_errors = 0
        self.coalesced = 0  # /table states skipped because a newer one was already queued
        # each payload's parts built again only where the snapshot's changed (the loop's own)
        self._memo = PayloadMemo()
        if self.broadcast_delay_s > 0:
            self.broadcast.start()
        if odds is not None:
            odds.subscribe(self._odds_arrived)

    def publish(self, snapshot: Mapping[str, Any]) -> None:
        """Queue `snapshot` for `/table`, `/dealer` and `/broadcast` and return at once.

        Raises TypeError (before changing anything) if `snapshot` is not a dict. A failing emit
        is logged and counted, never raised: the caller is the card reader's thread.

        The snapshot and its parts must not be changed once published, as the core's never are:
        the fan-out reads it later on the loop, and the payload memo reuses what it built from
        a part that is still the same object.
        """
        if not isinstance(snapshot, Mapping):
            kind = type(snapshot).__name__
            raise TypeError(f"a snapshot must be a dict (docs/snapshot.md), got {kind}")
        at = self._clock()  # the broadcast's delay counts from here
        with self._cond:
            self._snapshot = snapshot
            seq = snapshot.get("last_seq")
            self._last_seq = seq if isinstance(seq, int) and not isinstance(seq, bool) else None
            self.published += 1
            self._pending.append((at, snapshot))
            ask, self._scheduled = not self._scheduled, True
        if ask and not self._live.call_soon(self._fan_out):
            log.debug("a snapshot published after the live view closed")

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every snapshot published so far has been emitted (the broadcast's: put
        into its delay line). False on timeout."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._done < self.published:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def close(self) -> None:
        """Stop the broadcast's delay line (what it holds is dropped: never sent early) and the
        odds given to it."""
        self.broadcast.stop()
        if self.odds is not None:
            self.odds.close()

    @property
    def snapshot(self) -> Mapping[str, Any]:
        """The latest snapshot published ({} before the first). Treat it as read-only."""
        return self._snapshot

    @property
    def last_seq(self) -> int | None:
        return self._last_seq

    def latest(self, namespace: str) -> Payload:
        """The latest payload sent on a namespace (`TABLE`, `DEALER` or `BROADCAST`)."""
        return self._payloads[namespace]

    def send_latest(self, namespace: str, sid: str) -> None:
        """On the loop: send the latest payload to one client (its greeting)."""
        self._live.emit(EVENT, self._payloads[namespace], namespace, to=sid)

    def _fan_out(self) -> None:
        """On the loop: everything queued since the last fan-out."""
        with self._cond:
            batch = list(self._pending)
            self._pending.clear()
            self._scheduled = False
        try:
            dealer = [dealer_payload(snap, self._memo) for _, snap in batch]
            for payload in dealer:
                self._send(DEALER, payload)
            table = table_payload(batch[-1][1], self._memo)
            self._send(TABLE, table)
            self.coalesced += len(batch) - 1
            for at, snap in batch:  # after the live views
                # the latest snapshot's public view is built: the broadcast's starts from it
                public = table if snap is batch[-1][1] else None
                broadcast = broadcast_payload(snap, self.broadcast_delay_s, public,
                                              findings=self.broadcast_findings)
                spot = self._ask_odds(snap)
                if self.broadcast_delay_s == 0:
                    self._send_broadcast(broadcast, spot)
                else:  # kept as compact JSON text: a few KB each for the whole delay
                    self.broadcast.push((orjson_json.dumps(broadcast), spot), at)
        except Exception:  # never let one bad snapshot stop the live views
            self.emit_errors += 1
            log.exception("publishing a snapshot failed")
        with self._cond:
            self._done += len(batch)
            self._cond.notify_all()

    def _send(self, namespace: str, payload: Payload) -> None:
        self._payloads[namespace] = payload
        try:
            self._live.emit(EVENT, payload, namespace)
        except Exception:  # a broken client must not take the fan-out down
            self.emit_errors += 1
            log.exception("emit of %r on %s failed", EVENT, namespace)

    def _from_delay_line(self, item: tuple[str, Any]) -> None:
        # the delay line's thread: the emit happens on the loop, in the line's order
        text, spot = item
        self._live.call_soon(self._send_broadcast_text, text, spot)

    def _ask_odds(self, snap: Mapping[str, Any]) -> Any:
        if self.odds is None:
            return None
        try:
            return self.odds.request(snap)
        except Exception:  # the odds are an extra: never let them stop the views
            log.exception("asking for the odds failed")
            return None

    def _send_broadcast_text(self, text: str, spot: Any) -> None:
        self._send_broadcast(orjson_json.loads(text), spot)

    def _send_broadcast(self, payload: Payload, spot: Any) -> None:
        """On the loop: a state on air, with the best odds of its spot so far."""
        self._on_air = spot
        if self.odds is not None:
            payload["equity"] = self.odds.figure(spot) if spot is not None else None
        self._send(BROADCAST, payload)

    def _odds_arrived(self, spot: Any) -> None:
        # the odds reader's thread: the rest on the loop, in order with the states
        self._live.call_soon(self._odds_on_loop, spot)

    def _odds_on_loop(self, spot: Any) -> None:
        """A better figure: the state on air is sent again with it, if it is that spot's."""
        if spot is None or spot != self._on_air or self.odds is None:
            return
        current = self._payloads[BROADCAST]
        figure = self.odds.figure(spot)
        if figure is not None and current.get("equity") != figure:
            self._send(BROADCAST, {**current, "equity": figure})


class _DealerSockets:
    """The `/dealer` sockets admitted by a login, so logout and expiry can close them.

    A socket admitted by its cookie holds the dealer view only as long as the login: a timer on
    the loop disconnects it when the login expires, and logout disconnects it at once. Sockets
    admitted by a Socket.IO auth token carry the secret itself and are not tracked. ``admit``
    and ``forget`` run on the loop (the namespace's handlers); ``close_login`` from any thread.
    """

    def __init__(self, live: LiveServer) -> None:
        self._live = live
        self._by_sid: dict[str, tuple[str, asyncio.TimerHandle]] = {}

    def admit(self, sid: str, login: Login, remaining: float) -> None:
        timer = self._live.loop.call_later(max(remaining, 0.0), self._expire, sid)
        self._by_sid[sid] = (login.id, timer)

    def forget(self, sid: str) -> None:
        entry = self._by_sid.pop(sid, None)
        if entry is not None:
            entry[1].cancel()

    def close_login(self, login_id: str) -> None:
        self._live.call_soon(self._close_login, login_id)

    def _close_login(self, login_id: str) -> None:
        for sid in [sid for sid, (lid, _) in self._by_sid.items() if lid == login_id]:
            self._disconnect(sid)

    def _expire(self, sid: str) -> None:
        log.info("a dealer session expired: closing its socket")
        self._disconnect(sid)

    def _disconnect(self, sid: str) -> None:
        self.forget(sid)
        self._live.disconnect(sid, DEALER)


def _handshake(environ: Mapping[str, Any]) -> dict[str, Any]:
    """The Socket.IO handshake's environ as a WSGI environ for a Flask request context.

    python-engineio's ASGI environ says every client is 127.0.0.1 and has no URL scheme; the
    ASGI scope it carries has both (the login limit's key is the address)."""
    scope = environ.get("asgi.scope") or {}
    client = scope.get("client")
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", ""), scope.get("scheme"))
    return {**environ,
            "REMOTE_ADDR": client[0] if client else "unknown",
            "wsgi.url_scheme": scheme or "http"}


def create_app(
    *,
    dealer_token: str | None = None,
    authenticate: Authenticator | None = None,
    session_lifetime: timedelta = DEFAULT_SESSION_LIFETIME,
    login_limiter: LoginLimiter | None = None,
    submit: Submit | None = None,
    floor_token: str | None = None,
    on_choose: ChooseHook | None = None,
    journal_health: Callable[[], Mapping[str, Any]] | None = None,
    accounts: Accounts | None = None,
    audit: AuditLog | None = None,
    review_journal: str | os.PathLike[str] | None = None,
    broadcast_delay_s: float = BROADCAST_DELAY_S,
    broadcast_findings: bool = False,
    tls_status: Callable[[], Mapping[str, Any]] | None = None,
    odds: OddsSource | None = None,
) -> tuple[Flask, LiveServer, Publisher]:
    """A fresh app (the pages), its live Socket.IO server (display/live.py: on an event loop
    thread of its own from now on; ``run_server`` serves both) and the Publisher that feeds it.

    Who may see the dealer view is decided by one `authenticate` function (display/access.py):
    given the login form's fields, or a Socket.IO auth dict, it returns an Identity or None.
    `dealer_token` builds the default one (`token_authenticator`: the field `token` must equal
    it). With neither, `/dealer` is open (development only; a warning is logged). An empty
    `dealer_token` is refused with ValueError: it would look configured and accept an empty token.

    A browser logs in at `/dealer` (form POST to `/dealer/login`) and gets a session cookie that
    lasts `session_lifetime` (default 12 hours) from the login; `login_limiter` (default: 5
    failures a minute per client address) guards both the form and Socket.IO auth. The signing
    key is random per call, so a restart logs every screen out.

    The touch console's inputs go to `submit` (the daemon's one submit path; None: the server
    refuses inputs), rulings and tournament entries only with the floor's login (`floor_token`)
    in the same message, and the card the dealer chooses to `on_choose`
    (display/console_inputs.py).
    `accounts` (controller/security/accounts.py): each person logs in with their own name and
    password and their role decides what they may open (``may``); the shared `dealer_token` and
    `floor_token` are then not accepted. `audit` records logins, failed and rate-limited logins,
    logouts and refusals (controller/security/audit.py).
    `review_journal`: the surveillance review of this journal at `/review` (display/review.py;
    `close_app(app)` stops its worker process).
    `/healthz` (public) says whether the table can be trusted now: each card reader's state
    from the latest snapshot's `devices`, and the journal's from `journal_health` (the daemon's
    `{"ok": bool, "last_seq": int}`; docs/display.md).
    `/broadcast` (public, page and namespace) gets every state `broadcast_delay_s` seconds after
    it was published, hole cards included (`payloads.broadcast_payload`; ValueError if negative).
    Whether 0 is allowed (a table that is not public) is the config's decision, not this one's.
    `broadcast_findings`: whether `/broadcast` shows the irregularity findings (default off: its
    payload then carries none, `[broadcast] findings`).
    `odds`: the broadcast's odds (``OddsSource``; None: `/broadcast` carries no `equity` key).
    Started by its maker; the Publisher closes it (``close_app``).
    """
    floor: Authenticator | None = None
    if accounts is not None:
        authenticate = floor = accounts.authenticate
    elif floor_token:
        floor = token_authenticator(floor_token, FLOOR_IDENTITY)
    if authenticate is None and dealer_token is not None:
        authenticate = token_authenticator(dealer_token)
    if authenticate is None:
        log.warning("the /dealer namespace has no login: anyone on the network sees hole cards")
    limiter = login_limiter or LoginLimiter()

    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = 16 * 1024  # the login form is one short field
    live = LiveServer(
        ping_interval=PING_INTERVAL,
        ping_timeout=PING_TIMEOUT,
        # Off (their default), said out loud: at DEBUG they would log every packet.
        logger=False,
        engineio_logger=False,
    )
    sio = live.sio
    publisher = Publisher(live, broadcast_delay_s, broadcast_findings=broadcast_findings,
                          odds=odds)
    dealer_sockets = _DealerSockets(live)
    desk = LoginDesk(authenticate=authenticate, accounts=accounts, audit=audit, limiter=limiter,
                     session_lifetime=session_lifetime, back=_BACK, home=DEALER,
                     on_close=lambda login: dealer_sockets.close_login(login.id))
    desk.install(app, aliases=(DEALER,))
    logins = desk.logins
    inputs = ConsoleInputs(submit, floor=floor, limiter=limiter, on_choose=on_choose)
    # Who each admitted /dealer socket is, and from where: inputs are judged by role, never by
    # the page's word. Kept on the loop's thread (the handlers).
    identities: dict[str, Identity] = {}
    addresses: dict[str, str] = {}

    def greet(namespace: str, sid: str) -> None:
        # After the connect handler has returned and python-socketio has sent the client its
        # CONNECT: the state is the first event the client sees on the namespace.
        live.loop.call_soon(publisher.send_latest, namespace, sid)

    async def table_connect(sid: str, environ: Any, auth: Any = None) -> None:
        greet(TABLE, sid)

    async def broadcast_connect(sid: str, environ: Any, auth: Any = None) -> None:
        greet(BROADCAST, sid)

    def admit_dealer(environ: Mapping[str, Any], auth: Any
                     ) -> tuple[Identity | None, Login | None, float, str]:
        """Who this /dealer handshake is (in a request context, off the loop). Raises
        ConnectionRefusedError."""
        with app.request_context(_handshake(environ)):
            address = client_address(request)
            identity: Identity | None = DEALER_IDENTITY  # an open /dealer (development only)
            login: Login | None = None
            if authenticate is not None:
                login = desk.current()
                if login is not None:
                    identity = login.identity
                elif auth is None:
                    log.warning("refused a /dealer client without a login")
                    raise ConnectionRefusedError("unauthorized")
                else:
                    got = desk.check(auth if isinstance(auth, Mapping) else {})
                    if not isinstance(got, Identity):
                        raise ConnectionRefusedError("unauthorized")
                    identity = got
            if not may(identity, VIEW_DEALER):  # e.g. an admin: the accounts, never the cards
                assert identity is not None
                log.warning("refused /dealer to a %s login from %s", identity.role, address)
                desk.record(identity.name, identity.role, "refused", DEALER)
                raise ConnectionRefusedError("forbidden")
            remaining = logins.remaining(login) if login is not None else 0.0
            return identity, login, remaining, address

    async def dealer_connect(sid: str, environ: Any, auth: Any = None) -> None:
        identity, login, remaining, address = await live.in_thread(admit_dealer, environ, auth)
        if login is not None:
            dealer_sockets.admit(sid, login, remaining)
        if identity is not None:
            identities[sid] = identity
        addresses[sid] = address
        greet(DEALER, sid)

    async def dealer_disconnect(sid: str, *_reason: Any) -> None:
        dealer_sockets.forget(sid)
        identities.pop(sid, None)
        addresses.pop(sid, None)

    async def dealer_input(sid: str, data: Any = None) -> dict[str, Any]:
        # the returned dict is the Socket.IO acknowledgement the page shows
        answer: dict[str, Any] = await live.in_thread(
            inputs.input, identities.get(sid), data, addresses.get(sid, "unknown"))
        return answer

    async def dealer_choose(sid: str, data: Any = None) -> dict[str, Any]:
        answer: dict[str, Any] = await live.in_thread(inputs.choose, identities.get(sid), data)
        return answer

    async def public_input(sid: str, data: Any = None) -> dict[str, Any]:
        # said out loud: the public namespaces send nothing to the table
        log.warning("refused an input on a public namespace")
        return {"ok": False, "reason": "the public view cannot send inputs", "findings": []}

    sio.on("connect", table_connect, namespace=TABLE)
    sio.on("connect", broadcast_connect, namespace=BROADCAST)
    sio.on("connect", dealer_connect, namespace=DEALER)
    sio.on("disconnect", dealer_disconnect, namespace=DEALER)
    sio.on("input", dealer_input, namespace=DEALER)
    sio.on("choose", dealer_choose, namespace=DEALER)
    sio.on("input", public_input, namespace=TABLE)
    sio.on("input", public_input, namespace=BROADCAST)

    @app.get("/")
    def table_page() -> str:
        return render_template("view.html", role="table", findings=True)

    @app.get(BROADCAST)
    def broadcast_page() -> str:
        # the delay is known before the first state: the badge says it from the start
        return render_template("view.html", role="broadcast",
                               delay_s=publisher.broadcast_delay_s,
                               findings=publisher.broadcast_findings)

    @app.get(BROADCAST + "/overlay")
    def broadcast_overlay_page() -> str:
        # the stream's graphics over the cameras (an OBS or vMix browser source, 1920x1080,
        # transparent): the same /broadcast namespace, so the same delay governs all of it
        return render_template("overlay.html", delay_s=publisher.broadcast_delay_s)

    @app.get("/dealer")
    def dealer_page() -> ResponseReturnValue:
        if request.query_string:
            # A secret in a URL is never accepted: drop the query so it leaves the address bar
            # and the history (a redirect replaces the entry), and show the login form.
            return redirect(DEALER, code=303)
        return desk.gate(DEALER, VIEW_DEALER) or app.send_static_file("dealer.html")

    @app.get(CONSOLE)
    def console_page() -> ResponseReturnValue:
        if request.query_string:
            return redirect(CONSOLE, code=303)
        return desk.gate(CONSOLE, SEND_INPUT) or app.send_static_file("console.html")

    @app.get("/healthz")
    def healthz() -> Response:
        readers = [{k: d[k] for k in ("reader", "name", "state", "since")}
                   for d in devices(publisher.snapshot.get("devices"))]
        journal = None
        if journal_health is not None:
            got = journal_health()  # whitelisted: no path, no error text (a public page)
            journal = {"ok": got.get("ok") is True, "last_seq": got.get("last_seq")}
            restart = got.get("restart")
            if isinstance(restart, Mapping):  # how the table started: checkpoint or replay
                journal["restart"] = {k: restart.get(k) for k in (
                    "from", "checkpoint_seq", "replayed", "checkpoints_passed_over")}
                for k in ("gaps", "damaged"):  # a run's missing seqs; a live segment's damage
                    if k in restart:  # (seq ranges, and a few fixed words: docs/segments.md)
                        journal["restart"][k] = restart[k]
        states = {r["state"] for r in readers}
        down = bool(states & set(DEVICE_DOWN)) or (journal is not None and not journal["ok"])
        # the served certificate (controller/security/tls.py ServedCert.status: no path)
        tls = dict(tls_status()) if tls_status is not None else None
        expired = tls is not None and int(tls["days_left"]) <= 0
        degraded = bool(states & {"noisy", "unresolved"}) or expired
        return jsonify(
            status="down" if down else "degraded" if degraded else "ok",
            readers=readers,
            journal=journal,
            tls=tls,
            async_mode=live.async_mode,
            published=publisher.published,
            last_seq=publisher.last_seq,
            emit_errors=publisher.emit_errors + live.emit_errors,
            fan_out=live.fan_out,
        )

    @app.after_request
    def security_headers(response: Response) -> Response:
        return add_security_headers(response, request.is_secure)  # type: ignore[no-any-return]

    if review_journal is not None:
        from display.review import review_blueprint  # it imports this module's headers

        app.register_blueprint(review_blueprint(
            Path(review_journal), identity=desk.identity, audit=audit, login_form=desk.form))
    app.extensions["feltguard.publisher"] = publisher
    app.extensions["feltguard.console"] = inputs
    app.extensions["feltguard.live"] = live
    return app, live, publisher


def close_app(app: Flask) -> None:
    """Stop what an app runs beside its server (after ``ServerHandle.stop``): the review's
    worker process, the broadcast's delay line and the live server's loop thread."""
    review = app.extensions.get("feltguard.review")
    if review is not None:
        review.close()
    publisher = app.extensions.get("feltguard.publisher")
    if publisher is not None:
        publisher.close()
    live = app.extensions.get("feltguard.live")
    if live is not None:
        live.close()


def run_server(app: Flask, live: LiveServer, host: str = "127.0.0.1", port: int = 5000,
               tls: ssl.SSLContext | None = None) -> ServerHandle:
    """Serve `app`'s pages and `live`'s namespaces on one port (display/live.py: uvicorn on the
    live server's loop) and return once it listens; port 0 picks a free one. OSError if the
    port cannot be bound. ``handle.stop()`` closes the screens and stops serving. ``tls``: serve
    HTTPS (controller/security/tls.py ``server_context``; display/tls_port.py)."""
    return serve(live, app, host, port, tls=tls)
