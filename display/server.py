"""The live table view: a Flask-SocketIO server with one namespace per role, and the dealer's login.

- `/table` (public, no auth): the broadcast / table screen; gets `payloads.table_payload`.
- `/broadcast` (public, no auth): the broadcast screen; gets `payloads.broadcast_payload`, hole
  cards included, each state only `broadcast_delay_s` after it was published (display/delay.py).
- `/dealer` (login when configured): the dealer's screen; gets `payloads.dealer_payload`. The
  dealer's touch console (`/dealer/console`) joins it too and sends its taps back as `input`
  events (display/console_inputs.py: only a dealer socket may, a ruling needs the floor's token).

Namespaces, not rooms, separate the roles: a connect handler guards each namespace's door, and an
emit that forgot its `namespace=` goes to `/`, which no page joins, instead of to the public
(research/ecosystem.md §3.3).

No secret travels in a URL or reaches a log. The dealer page without a session is a login form
that POSTs the token; the answer is a session cookie (HttpOnly, SameSite=Strict, a signed random
login id, display/access.py) that the `/dealer` namespace admits at the Socket.IO handshake.
Non-browser clients send the token as Socket.IO auth instead (the handshake payload). A `?token=`
is never accepted, and the request log is written without query strings.

The daemon pushes every new snapshot with `Publisher.publish(snapshot)` from whatever thread
applied the event (usually the card reader's); the Publisher's own thread builds and emits. Each
client gets the latest payload as a `state` event when it connects, then the published ones in
order (`/table` skips to the latest when it falls behind; see Publisher).

Threading mode is set explicitly: auto-detection would prefer a transitively installed eventlet
or gevent, which turn the hardware threads into greenlets (ecosystem.md §3.1).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, redirect, render_template, request
from flask.typing import ResponseReturnValue
from flask_socketio import ConnectionRefusedError, SocketIO
from socketio.packet import Packet
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from controller.accounts import (
    SEND_INPUT,
    VIEW_DEALER,
    Accounts,
    may,
)
from controller.audit import AuditLog
from display.access import (
    DEALER_IDENTITY,
    DEFAULT_SESSION_LIFETIME,
    FLOOR_IDENTITY,
    Authenticator,
    Identity,
    Login,
    LoginLimiter,
    token_authenticator,
)
from display.console_inputs import ChooseHook, ConsoleInputs, Submit
from display.delay import DelayLine
from display.login import AUDIT, SESSION_COOKIE, LoginDesk, client_address
from display.payloads import (
    Payload,
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
    "Publisher",
    "ServerHandle",
    "create_app",
    "run_server",
    "tune_for_live_view",
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
# Reader states in which cards go unseen: /healthz says the table is down (controller/health.py).
DEVICE_DOWN = ("offline", "silent", "fault")

# The GIL switch interval of a process that serves the live view (CPython's default: 5 ms). Each
# WebSocket client has a writer thread of its own (python-engineio, threading mode); a state wakes
# all of them, and each waits for the GIL while another thread runs Python: up to the whole
# interval. At 0.5 ms the slowest of 20 /table clients got a state at p99 18-27 ms instead of
# 34-61 ms in the same machine state (docs/display.md, The fan-out).
SWITCH_INTERVAL_S = 0.0005


def tune_for_live_view() -> None:
    """Set this process's GIL switch interval for the live view's many writer threads
    (``SWITCH_INTERVAL_S``). Called by the processes that serve it (``feltguard run``'s
    Werkzeug or gunicorn worker, ``feltguard sim``), not by ``create_app``: a library call does
    not change its caller's interpreter."""
    sys.setswitchinterval(SWITCH_INTERVAL_S)


# A dead screen shows "offline" within ping_interval + ping_timeout seconds (engineio's defaults,
# 25 + 20, are too slow for a table display).
PING_INTERVAL = 5
PING_TIMEOUT = 5

# The dealer page shows hole cards: never cache it, never let another site frame it, send no
# referrer. The pages load only their own files (no CDN), so 'self' is the whole policy;
# connect-src 'self' covers same-origin WebSockets, form-action 'self' the login and logout forms.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


class JsonPacket(Packet):  # type: ignore[misc]
    """Socket.IO packets that never carry binary attachments (python-socketio's ``serializer``).

    A payload is built from a JSON snapshot and never holds bytes, so the scan that the default
    packet makes of every emitted payload, looking for bytes to send as attachments, is skipped:
    it walked each value of the payload in Python and was a third of an emit's time, on the card
    reader's thread, before the state could leave (bench/latency.py)."""

    uses_binary_events = False


class Publisher:
    """Builds the role payloads of each snapshot and emits them off the caller's thread; keeps
    the latest for new clients.

    `publish` may be called from any thread and only queues the snapshot: the card reader's
    thread (which sets the LEDs) never waits on the display. One fan-out thread then builds and
    emits, per namespace as its role allows when it falls behind:

    - `/dealer`: every snapshot, in order (a finding raised in an event the fan-out was behind
      on must still reach the dealer, and the next hand's snapshot no longer lists it);
    - `/table`: only the latest queued snapshot (a state view: a newer state replaces an older
      one, and an older one is never sent after a newer one);
    - `/broadcast`: every snapshot, into the secure delay line (display/delay.py), stamped with
      the time `publish` was called, each emitted exactly `broadcast_delay_s` later.

    python-socketio encodes an emit to a namespace once for all its clients (its manager's
    `emit`); each client's WebSocket then has its own Engine.IO queue and writer thread.

    The lock makes the stored latest payloads and the emitted sequence agree, so a client that
    connects mid-stream gets the latest state once (possibly twice, never an older one after a
    newer one).
    """

    def __init__(self, socketio: SocketIO, broadcast_delay_s: float = BROADCAST_DELAY_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._socketio = socketio
        self._clock = clock
        self._lock = threading.Lock()
        self._snapshot: Mapping[str, Any] = {}
        self._last_seq: int | None = None
        self.broadcast_delay_s = float(broadcast_delay_s)
        self._payloads: dict[str, Payload] = {
            TABLE: table_payload({}),
            DEALER: dealer_payload({}),
            # before the first state is old enough: an idle table ("waiting for a hand")
            BROADCAST: broadcast_payload({}, self.broadcast_delay_s),
        }
        # the queue between publish and the fan-out thread: (publish time, snapshot)
        self._pending: deque[tuple[float, Mapping[str, Any]]] = deque()
        self._cond = threading.Condition()
        self._done = 0  # snapshots the fan-out has finished with
        self.broadcast = DelayLine[str](self.broadcast_delay_s, self._emit_broadcast,
                                        clock=clock)
        self.published = 0
        self.emit_errors = 0
        self.coalesced = 0  # /table states skipped because a newer one was already queued
        self._thread = threading.Thread(target=self._fan_out, name="feltguard-publisher",
                                        daemon=True)
        self._thread.start()
        self.broadcast.start()

    def publish(self, snapshot: Mapping[str, Any]) -> None:
        """Queue `snapshot` for `/table`, `/dealer` and `/broadcast` and return at once.

        Raises TypeError (before changing anything) if `snapshot` is not a dict. A failing emit
        is logged and counted, never raised: the caller is the card reader's thread.
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
            self._cond.notify()

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
        """Send the latest payload to one client (a connect handler's greeting)."""
        with self._lock:
            self._emit(self._payloads[namespace], namespace, to=sid)

    def _fan_out(self) -> None:
        while True:
            with self._cond:
                while not self._pending:
                    self._cond.wait()
                batch = list(self._pending)
                self._pending.clear()
            try:
                # every live payload built before the first emit: once an emit has woken the
                # clients' writer threads, any Python work here holds the GIL they wait for
                dealer = [dealer_payload(snap) for _, snap in batch]
                table = table_payload(batch[-1][1])
                for payload in dealer:
                    self._send(DEALER, payload)
                self._send(TABLE, table)
                self.coalesced += len(batch) - 1
                for at, snap in batch:  # not live: after the live emits
                    # kept as compact JSON text: a few KB each for the whole delay
                    self.broadcast.push(json.dumps(
                        broadcast_payload(snap, self.broadcast_delay_s),
                        separators=(",", ":")), at)
            except Exception:  # never let one bad snapshot stop the live views
                self.emit_errors += 1
                log.exception("publishing a snapshot failed")
            with self._cond:
                self._done += len(batch)
                self._cond.notify_all()

    def _send(self, namespace: str, payload: Payload) -> None:
        with self._lock:
            self._payloads[namespace] = payload
            self._emit(payload, namespace, to=None)

    def _emit_broadcast(self, text: str) -> None:
        self._send(BROADCAST, json.loads(text))

    def _emit(self, payload: Payload, namespace: str, to: str | None) -> None:
        try:
            self._socketio.emit(EVENT, payload, namespace=namespace, to=to)
        except Exception:  # a broken client must not take the publishing thread down
            self.emit_errors += 1
            log.exception("emit of %r on %s failed", EVENT, namespace)


class _DealerSockets:
    """The `/dealer` sockets admitted by a login, so logout and expiry can close them.

    A socket admitted by its cookie holds the dealer view only as long as the login: a timer
    disconnects it when the login expires, and logout disconnects it at once. Sockets admitted by
    a Socket.IO auth token carry the secret itself and are not tracked.
    """

    def __init__(self, socketio: SocketIO) -> None:
        self._socketio = socketio
        self._lock = threading.Lock()
        self._by_sid: dict[str, tuple[str, threading.Timer]] = {}

    def admit(self, sid: str, login: Login, remaining: float) -> None:
        timer = threading.Timer(max(remaining, 0.0), self._expire, args=(sid,))
        timer.daemon = True
        with self._lock:
            self._by_sid[sid] = (login.id, timer)
        timer.start()

    def forget(self, sid: str) -> None:
        with self._lock:
            entry = self._by_sid.pop(sid, None)
        if entry is not None:
            entry[1].cancel()

    def close_login(self, login_id: str) -> None:
        with self._lock:
            sids = [sid for sid, (lid, _) in self._by_sid.items() if lid == login_id]
        for sid in sids:
            self._disconnect(sid)

    def _expire(self, sid: str) -> None:
        log.info("a dealer session expired: closing its socket")
        self._disconnect(sid)

    def _disconnect(self, sid: str) -> None:
        self.forget(sid)
        try:
            self._socketio.server.disconnect(sid, namespace=DEALER)
        except Exception:  # already gone; the disconnect handler has forgotten it too
            log.debug("closing a dealer socket that was already closed", exc_info=True)


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
) -> tuple[Flask, SocketIO, Publisher]:
    """A fresh app, its SocketIO server in threading mode, and the Publisher that feeds it.

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
    refuses inputs), rulings only with `floor_token` given in the same message, and the card the
    dealer chooses to `on_choose` (display/console_inputs.py).
    `accounts` (controller/accounts.py): each person logs in with their own name and password
    and their role decides what they may open (``may``); the shared `dealer_token` and
    `floor_token` are then not accepted. `audit` records logins, failed and rate-limited logins,
    logouts and refusals (controller/audit.py).
    `review_journal`: the surveillance review of this journal at `/review` (display/review.py;
    `close_app(app)` stops its worker process).
    `/healthz` (public) says whether the table can be trusted now: each card reader's state
    from the latest snapshot's `devices`, and the journal's from `journal_health` (the daemon's
    `{"ok": bool, "last_seq": int}`; docs/display.md).
    `/broadcast` (public, page and namespace) gets every state `broadcast_delay_s` seconds after
    it was published, hole cards included (`payloads.broadcast_payload`; ValueError if negative).
    Whether 0 is allowed (a table that is not public) is the config's decision, not this one's.
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
    socketio = SocketIO(
        app,
        async_mode="threading",
        serializer=JsonPacket,
        ping_interval=PING_INTERVAL,
        ping_timeout=PING_TIMEOUT,
        # Off (their default), said out loud: at DEBUG they would log every packet.
        logger=False,
        engineio_logger=False,
    )
    publisher = Publisher(socketio, broadcast_delay_s)
    dealer_sockets = _DealerSockets(socketio)
    desk = LoginDesk(authenticate=authenticate, accounts=accounts, audit=audit, limiter=limiter,
                     session_lifetime=session_lifetime, back=_BACK, home=DEALER,
                     on_close=lambda login: dealer_sockets.close_login(login.id))
    desk.install(app, aliases=(DEALER,))
    logins = desk.logins
    inputs = ConsoleInputs(submit, floor=floor, limiter=limiter, on_choose=on_choose)
    # Who each admitted /dealer socket is: inputs are judged by role, never by the page's word.
    identities: dict[str, Identity] = {}

    @socketio.on("connect", namespace=TABLE)
    def table_connect(auth: Any = None) -> None:
        publisher.send_latest(TABLE, request.sid)  # type: ignore[attr-defined]

    @socketio.on("connect", namespace=BROADCAST)
    def broadcast_connect(auth: Any = None) -> None:
        publisher.send_latest(BROADCAST, request.sid)  # type: ignore[attr-defined]

    @socketio.on("connect", namespace=DEALER)
    def dealer_connect(auth: Any = None) -> None:
        sid: str = request.sid  # type: ignore[attr-defined]
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
            log.warning("refused /dealer to a %s login from %s", identity.role,
                        client_address(request))
            desk.record(identity.name, identity.role, "refused", DEALER)
            raise ConnectionRefusedError("forbidden")
        if login is not None:
            dealer_sockets.admit(sid, login, logins.remaining(login))
        if identity is not None:
            identities[sid] = identity
        publisher.send_latest(DEALER, sid)

    @socketio.on("disconnect", namespace=DEALER)
    def dealer_disconnect(*_reason: Any) -> None:
        dealer_sockets.forget(request.sid)  # type: ignore[attr-defined]
        identities.pop(request.sid, None)  # type: ignore[attr-defined]

    @socketio.on("input", namespace=DEALER)
    def dealer_input(data: Any = None) -> dict[str, Any]:
        # the returned dict is the Socket.IO acknowledgement the page shows
        sid: str = request.sid  # type: ignore[attr-defined]
        return inputs.input(identities.get(sid), data, client_address(request))

    @socketio.on("choose", namespace=DEALER)
    def dealer_choose(data: Any = None) -> dict[str, Any]:
        return inputs.choose(identities.get(request.sid), data)  # type: ignore[attr-defined]

    @socketio.on("input", namespace=TABLE)
    @socketio.on("input", namespace=BROADCAST)
    def table_input(data: Any = None) -> dict[str, Any]:
        # said out loud: the public namespaces send nothing to the table
        log.warning("refused an input on a public namespace from %s", client_address(request))
        return {"ok": False, "reason": "the public view cannot send inputs", "findings": []}

    @app.get("/")
    def table_page() -> str:
        return render_template("view.html", role="table")

    @app.get(BROADCAST)
    def broadcast_page() -> str:
        return render_template("view.html", role="broadcast")

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
        states = {r["state"] for r in readers}
        down = bool(states & set(DEVICE_DOWN)) or (journal is not None and not journal["ok"])
        return jsonify(
            status="down" if down else "degraded" if "noisy" in states else "ok",
            readers=readers,
            journal=journal,
            async_mode=socketio.async_mode,
            published=publisher.published,
            last_seq=publisher.last_seq,
            emit_errors=publisher.emit_errors,
        )

    @app.after_request
    def security_headers(response: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            response.headers[name] = value  # replaces send_static_file's "no-cache"
        return response

    if review_journal is not None:
        from display.review import review_blueprint  # it imports this module's headers

        app.register_blueprint(review_blueprint(
            Path(review_journal), identity=desk.identity, audit=audit, login_form=desk.form))
    app.extensions["feltguard.publisher"] = publisher
    app.extensions["feltguard.console"] = inputs
    return app, socketio, publisher


def close_app(app: Flask) -> None:
    """Stop what an app runs beside its server: the review's worker process."""
    review = app.extensions.get("feltguard.review")
    if review is not None:
        review.close()


@dataclass
class ServerHandle:
    """A running server: where it listens, and how to stop it."""

    server: BaseWSGIServer
    thread: threading.Thread
    host: str = field(init=False)
    port: int = field(init=False)

    def __post_init__(self) -> None:
        self.host = self.server.host
        self.port = self.server.server_port

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def stop(self, timeout: float = 5.0) -> None:
        self.server.shutdown()
        self.thread.join(timeout)
        self.server.server_close()


# From a "?" to the end of the URL: the query string. Engine.IO's polling URLs carry the sid
# (whoever has it can poll that client's packets), and a mistaken ?token= would carry a secret.
_QUERY = re.compile(r"\?[^\s\"'\x1b]*")


def _without_query(value: Any) -> Any:
    return _QUERY.sub("?", value) if isinstance(value, str) else value


class _Handler(WSGIRequestHandler):
    """Werkzeug's handler with Nagle's algorithm off, logging request lines without queries.

    A table update is one small WebSocket frame; with Nagle on, a second update written before
    the client ACKs the first waits for the client's delayed ACK (about 40 ms on Linux), which
    put the frame -> browser p99 at ~46 ms in bench/latency.py. With TCP_NODELAY it is sent at once.

    Every line Werkzeug logs for a request (the access line, and errors that quote a bad request
    line) passes through `log`, which cuts each query string down to its "?": what `feltguard -v`
    shows and journald keeps holds no sid, token or other query value. Headers (the session
    cookie) are never logged by Werkzeug.
    """

    def setup(self) -> None:
        super().setup()
        with contextlib.suppress(OSError):
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log(self, type: str, message: str, *args: Any) -> None:
        super().log(type, _without_query(message), *(_without_query(a) for a in args))


def run_server(
    app: Flask, socketio: SocketIO, host: str = "127.0.0.1", port: int = 5000
) -> ServerHandle:
    """Serve `app` with Werkzeug's threaded server in a daemon thread and return at once.

    This is what `socketio.run(app, allow_unsafe_werkzeug=True)` runs in threading mode, minus
    its refusal to start without a TTY (under systemd) and its blocking: the daemon keeps its
    main thread, gets the bound port (port 0 picks a free one) and can stop the server. WebSocket
    works through simple-websocket. For gunicorn instead, see docs/display.md.
    """
    if socketio.async_mode != "threading":
        raise ValueError(f"run_server needs async_mode='threading', got {socketio.async_mode!r}")
    server = make_server(host, port, app, threaded=True, request_handler=_Handler)
    # A short poll interval only bounds how long stop() waits; the loop itself is idle select().
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.1}, name="feltguard-display",
        daemon=True,
    )
    thread.start()
    handle = ServerHandle(server, thread)
    log.info("display serving on %s", handle.url)
    return handle
