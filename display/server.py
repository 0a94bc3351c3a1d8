"""The live table view: a Flask-SocketIO server with one namespace per role.

- `/table` (public, no auth): the broadcast / table screen; gets `payloads.table_payload`.
- `/dealer` (token when configured): the dealer's screen; gets `payloads.dealer_payload`.

Namespaces, not rooms, separate the roles: a connect handler guards each namespace's door, and an
emit that forgot its `namespace=` goes to `/`, which no page joins, instead of to the public
(research/ecosystem.md §3.3).

The daemon pushes every new snapshot with `Publisher.publish(snapshot)` from whatever thread
applied the event (usually the card reader's). Each client gets the latest payload as a `state`
event when it connects, then every published one in order.

Threading mode is set explicitly: auto-detection would prefer a transitively installed eventlet
or gevent, which turn the hardware threads into greenlets (ecosystem.md §3.1).
"""

from __future__ import annotations

import contextlib
import hmac
import logging
import socket
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, Response, jsonify, request
from flask_socketio import ConnectionRefusedError, SocketIO
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from display.payloads import Payload, dealer_payload, table_payload

__all__ = ["DEALER", "TABLE", "Publisher", "ServerHandle", "create_app", "run_server"]

log = logging.getLogger(__name__)

TABLE = "/table"
DEALER = "/dealer"
EVENT = "state"

# A dead screen shows "offline" within ping_interval + ping_timeout seconds (engineio's defaults,
# 25 + 20, are too slow for a table display).
PING_INTERVAL = 5
PING_TIMEOUT = 5

# The pages hold no secrets but the dealer page's URL carries its token: never send it on as a
# referrer, never cache the page, never let another site frame it. The pages load only their own
# files (no CDN), so 'self' is the whole policy; connect-src 'self' covers same-origin WebSockets.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


class Publisher:
    """Builds the role payloads of each snapshot and emits them; keeps the latest for new clients.

    `publish` may be called from any thread. The lock makes the stored latest payloads and the
    emitted sequence agree, so a client that connects mid-stream gets the latest state once
    (possibly twice, never an older one after a newer one).
    """

    def __init__(self, socketio: SocketIO) -> None:
        self._socketio = socketio
        self._lock = threading.Lock()
        self._snapshot: Mapping[str, Any] = {}
        self._payloads: dict[str, Payload] = {
            TABLE: table_payload({}),
            DEALER: dealer_payload({}),
        }
        self.published = 0
        self.emit_errors = 0

    def publish(self, snapshot: Mapping[str, Any]) -> None:
        """Emit `snapshot`'s payloads on `/table` and `/dealer` and keep them for new clients.

        Raises TypeError (before changing anything) if `snapshot` is not a dict. A failing emit
        is logged and counted, never raised: the caller is the card reader's thread.
        """
        # Built outside the lock: pure, and it keeps the critical section to the emits.
        payloads = {TABLE: table_payload(snapshot), DEALER: dealer_payload(snapshot)}
        with self._lock:
            self._snapshot = snapshot
            self._payloads = payloads
            self.published += 1
            for namespace, payload in payloads.items():
                self._emit(payload, namespace, to=None)

    @property
    def snapshot(self) -> Mapping[str, Any]:
        """The latest snapshot published ({} before the first). Treat it as read-only."""
        return self._snapshot

    @property
    def last_seq(self) -> int | None:
        seq: int | None = self._payloads[TABLE]["last_seq"]
        return seq

    def latest(self, namespace: str) -> Payload:
        """The latest payload of a namespace (`TABLE` or `DEALER`)."""
        return self._payloads[namespace]

    def send_latest(self, namespace: str, sid: str) -> None:
        """Send the latest payload to one client (a connect handler's greeting)."""
        with self._lock:
            self._emit(self._payloads[namespace], namespace, to=sid)

    def _emit(self, payload: Payload, namespace: str, to: str | None) -> None:
        try:
            self._socketio.emit(EVENT, payload, namespace=namespace, to=to)
        except Exception:  # a broken client must not take the publishing thread down
            self.emit_errors += 1
            log.exception("emit of %r on %s failed", EVENT, namespace)


def _token_ok(auth: Any, expected: bytes) -> bool:
    given = auth.get("token") if isinstance(auth, Mapping) else None
    if not isinstance(given, str):
        return False
    # Bytes, because compare_digest refuses non-ASCII str; constant time either way.
    return hmac.compare_digest(given.encode("utf-8"), expected)


def create_app(*, dealer_token: str | None = None) -> tuple[Flask, SocketIO, Publisher]:
    """A fresh app, its SocketIO server in threading mode, and the Publisher that feeds it.

    `dealer_token`: the secret a `/dealer` client must send as Socket.IO auth `{"token": ...}`.
    None leaves `/dealer` open (development only; a warning is logged). An empty string is
    refused: it would look configured and accept an empty token.
    """
    if dealer_token is not None and not dealer_token:
        raise ValueError("dealer_token must be a non-empty string, or None for an open /dealer")
    if dealer_token is None:
        log.warning("the /dealer namespace has no token: anyone on the network sees hole cards")
    expected = dealer_token.encode("utf-8") if dealer_token is not None else None

    app = Flask(__name__)
    socketio = SocketIO(
        app,
        async_mode="threading",
        ping_interval=PING_INTERVAL,
        ping_timeout=PING_TIMEOUT,
    )
    publisher = Publisher(socketio)

    @socketio.on("connect", namespace=TABLE)
    def table_connect(auth: Any = None) -> None:
        publisher.send_latest(TABLE, request.sid)  # type: ignore[attr-defined]

    @socketio.on("connect", namespace=DEALER)
    def dealer_connect(auth: Any = None) -> None:
        if expected is not None and not _token_ok(auth, expected):
            log.warning("refused a /dealer client without a valid token")
            raise ConnectionRefusedError("unauthorized")
        publisher.send_latest(DEALER, request.sid)  # type: ignore[attr-defined]

    @app.get("/")
    def table_page() -> Response:
        return app.send_static_file("table.html")

    @app.get("/dealer")
    def dealer_page() -> Response:
        # The page holds no secret; its script reads ?token= and passes it as Socket.IO auth.
        return app.send_static_file("dealer.html")

    @app.get("/healthz")
    def healthz() -> Response:
        return jsonify(
            status="ok",
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

    app.extensions["feltguard.publisher"] = publisher
    return app, socketio, publisher


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


class _NoDelayHandler(WSGIRequestHandler):
    """Werkzeug's handler with Nagle's algorithm off on each connection.

    A table update is one small WebSocket frame; with Nagle on, a second update written before
    the client ACKs the first waits for the client's delayed ACK (about 40 ms on Linux), which
    put the frame -> browser p99 at ~46 ms in bench/latency.py. With TCP_NODELAY it is sent at once.
    """

    def setup(self) -> None:
        super().setup()
        with contextlib.suppress(OSError):
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


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
    server = make_server(host, port, app, threaded=True, request_handler=_NoDelayHandler)
    # A short poll interval only bounds how long stop() waits; the loop itself is idle select().
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.1}, name="feltguard-display",
        daemon=True,
    )
    thread.start()
    handle = ServerHandle(server, thread)
    log.info("display serving on %s", handle.url)
    return handle
