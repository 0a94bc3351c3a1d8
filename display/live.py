"""The live views' Socket.IO server on an asyncio event loop of its own, and the ASGI server
(uvicorn) that serves it beside the Flask app's pages on one port.

Why an event loop: a state goes to every screen at once. In python-engineio's threading mode
each WebSocket had a writer thread (and a reader thread, and a request thread), so a state woke
60 threads for 20 screens, each waiting its turn for a CPU and the GIL: the slowest of 20
``/table`` clients had a state at p99 21 ms. Here one loop thread writes every screen's frame in
turn with no thread in between (docs/display.md, "The fan-out", has the figures).

The loop runs on a daemon thread from the moment the server is made, so the Publisher can hand
it states before the port is served and after (``call_soon`` from any thread). Everything that
touches python-socketio runs on that thread: its AsyncServer is not thread-safe. Work that may
block (a password hash, the daemon's submit path) goes to the loop's executor, never runs on it.

``serve`` binds the port itself (port 0 picks a free one, and a port in use is an OSError the
caller can name), then runs uvicorn's ``Server.serve`` on the same loop: python-socketio's
``ASGIApp`` takes ``/socket.io/``, everything else goes to the Flask app through a2wsgi's
thread pool (each request on a worker thread, as under a WSGI server).
``serve_pages`` serves an app with no live view (the cardroom's) the same way, on a loop
thread of its own: one way to serve pages, one request log.

No secret reaches a log: uvicorn logs each request's path with its query (the access line, and
the WebSocket's "[accepted]" line); a filter on its two loggers cuts each query down to its "?"
(Engine.IO's sid is in the query, and a mistaken ``?token=`` would be a secret). Their DEBUG
records are dropped: they would hold each handshake's headers, the session cookie among them.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import re
import socket
import ssl
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import socketio
import uvicorn
from a2wsgi import WSGIMiddleware

from display.direct_frames import DirectFrames
from display.fan_out import FanOutManager, JsonPacket
from display.tls_port import TlsPortServer

__all__ = ["LiveServer", "LoopThread", "ServerHandle", "serve", "serve_pages", "without_query"]

log = logging.getLogger(__name__)

# Threads that run the Flask app's requests (pages, logins, the review's exports): the WebSockets
# never hold one, so a few cover a table's browsers; a slow review page holds one, not the rest.
WSGI_THREADS = 16
# How long a stop waits for uvicorn to close its connections.
STOP_GRACE_S = 2.0

# From a "?" to the end of the URL: the query string. Engine.IO's polling URLs carry the sid
# (whoever has it can poll that client's packets), and a mistaken ?token= would carry a secret.
_QUERY = re.compile(r"\?[^\s\"'\x1b]*")


def without_query(value: Any) -> Any:
    """A string with each query string cut down to its "?"; anything else as it is."""
    return _QUERY.sub("?", value) if isinstance(value, str) else value


class _Scrubbed(logging.Filter):
    """Each query string cut to its "?"; no DEBUG record at all, even under ``feltguard -v``:
    there the WebSocket implementation logs each handshake's headers (the session cookie) and
    every frame (hole cards). A filter, not a level: the level stays the process's to set
    (``feltguard`` without ``-v`` holds these loggers at WARNING)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.INFO:
            return False
        record.msg = without_query(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(without_query(a) for a in record.args)
        return True


for _name in ("uvicorn.access", "uvicorn.error", "websockets", "websockets.server",
              "websockets.protocol"):
    logging.getLogger(_name).addFilter(_Scrubbed())


def _new_loop() -> asyncio.AbstractEventLoop:
    try:  # libuv's loop where it is installed (Linux): cheaper wake-ups and writes
        import uvloop
    except ImportError:  # pragma: no cover - uvloop is a dependency on Linux
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


class _AsyncServer(socketio.AsyncServer):  # type: ignore[misc]
    """python-socketio's AsyncServer, waking a closed client's pending long-poll.

    When a polling client closes, python-engineio's threading socket puts a wake-up in the
    client's queue and its pending GET answers at once; its asyncio socket does not, and the GET
    (and a Python client's ``disconnect()``, which waits for it) hangs until the ping time-out,
    10 s here. Browsers drop the GET themselves; this answers it for everyone else."""

    async def _handle_eio_disconnect(self, eio_sid: str, reason: Any = None) -> None:
        await super()._handle_eio_disconnect(eio_sid, reason)
        client = self.eio.sockets.get(eio_sid)
        if client is not None:
            client.queue.put_nowait(None)  # poll() answers [] to a None, as in threading mode


class LoopThread:
    """An asyncio event loop (uvloop where installed) running on a daemon thread of its own.

    ``call_soon``, ``run`` and ``spawn`` are for other threads; ``close`` cancels what is left
    on the loop and stops it.
    """

    def __init__(self, name: str) -> None:
        self.loop = _new_loop()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def call_soon(self, fn: Callable[..., Any], *args: Any) -> bool:
        """Run ``fn(*args)`` on the loop, from any thread, in the order asked. False when the
        loop has stopped (the server is closing): nothing will run."""
        try:
            self.loop.call_soon_threadsafe(fn, *args)
        except RuntimeError:  # the loop is closed
            return False
        return True

    def run(self, coro: Coroutine[Any, Any, Any], timeout: float = 5.0) -> Any:
        """Run ``coro`` on the loop from another thread and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> concurrent.futures.Future[Any]:
        """Run ``coro`` on the loop from another thread without waiting."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def close(self, timeout: float = 5.0) -> None:
        """Stop the loop and its thread (after ``ServerHandle.stop``). Idempotent."""
        if self.loop.is_closed():
            return

        async def finish() -> None:  # Engine.IO's ping timers and the like: cancelled, awaited
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        if self.loop.is_running():
            with contextlib.suppress(Exception):
                self.run(finish(), timeout)
        self.call_soon(self.loop.stop)
        self._thread.join(timeout)
        if not self._thread.is_alive():
            self.loop.close()


class LiveServer(LoopThread):
    """A python-socketio ``AsyncServer`` and the loop thread it lives on.

    ``emit`` is for code already on the loop (handlers, and what ``call_soon`` runs).
    """

    def __init__(self, **options: Any) -> None:
        # one encoded state into every client's queue, packets of JSON text by orjson
        # (display/fan_out.py)
        self.manager = FanOutManager()
        self.secure = False  # served over HTTPS (``serve`` sets it)
        options.setdefault("cors_allowed_origins", self._same_origin)
        self.sio = _AsyncServer(async_mode="asgi", client_manager=self.manager,
                                serializer=JsonPacket, **options)
        # ... framed once and written straight to every idle WebSocket
        # (display/direct_frames.py)
        self.manager.direct = DirectFrames.install(self.sio.eio)
        self._failed_emits = 0
        super().__init__("feltguard-live")

    @property
    def async_mode(self) -> str:
        return "asgi"

    def _same_origin(self, origin: str | None, environ: dict[str, Any]) -> bool:
        """A browser's socket is admitted only from the table's own pages: its Origin must be
        this server's scheme and Host. (python-engineio's own default takes the scheme as
        "http" under ASGI whatever the connection, and would refuse every HTTPS page.)"""
        scheme = "https" if self.secure else "http"
        return origin == f"{scheme}://{environ.get('HTTP_HOST', '')}"

    def emit(self, event: str, data: Any, namespace: str, to: str | None = None) -> None:
        """On the loop: send ``event`` to a namespace (or one client). python-socketio encodes
        it once for every client of the namespace; each client's queue then has it at once."""
        task = self.loop.create_task(self.sio.emit(event, data, namespace=namespace, to=to))
        task.add_done_callback(self._emitted)

    @property
    def fan_out(self) -> dict[str, Any]:
        """How the states reached the screens (``/healthz``): ``direct`` packets written straight
        to an idle WebSocket, ``queued`` through python-engineio's writer (``direct`` None: the
        direct path is not installed, display/direct_frames.py says why in the log)."""
        direct = self.manager.direct
        return {"direct": None if direct is None else direct.written,
                "queued": None if direct is None else direct.queued}

    @property
    def emit_errors(self) -> int:
        """Emits that failed, and clients an emit had to skip (``FanOutManager.send_errors``)."""
        return self._failed_emits + self.manager.send_errors

    def _emitted(self, task: asyncio.Task[Any]) -> None:
        if not task.cancelled() and task.exception() is not None:
            self._failed_emits += 1  # a broken client must not take the live views down
            log.error("emit failed: %s", task.exception())

    def in_thread(self, fn: Callable[..., Any], *args: Any) -> Awaitable[Any]:
        """On the loop: ``await`` this to run a call that may block on the executor's thread."""
        return self.loop.run_in_executor(None, fn, *args)

    def disconnect(self, sid: str, namespace: str) -> None:
        """On the loop: close one client's namespace."""
        self.loop.create_task(self.sio.disconnect(sid, namespace=namespace))

    def close_screens(self, timeout: float = STOP_GRACE_S) -> None:
        """Close every client's connection without waiting for each close packet to be written
        (a client that stopped reading would hold the stop)."""
        async def close_all() -> None:
            eio = self.sio.eio
            for client in list(eio.sockets.values()):
                with contextlib.suppress(Exception):
                    await client.close(wait=False, reason=eio.reason.SERVER_DISCONNECT)
            eio.sockets = {}
            await self.sio.shutdown()  # Engine.IO's service task

        if self.loop.is_running():
            with contextlib.suppress(Exception):
                self.run(close_all(), timeout)


@dataclass
class ServerHandle:
    """A running server: where it listens, and how to stop it."""

    server: uvicorn.Server
    serving: concurrent.futures.Future[Any]
    host: str
    port: int
    # before uvicorn is told to exit (closing the live screens), and after it has (a loop of
    # the server's own, stopped)
    before_stop: Callable[[], None] | None = None
    after_stop: Callable[[], None] | None = None
    tls: bool = False  # HTTPS (display/tls_port.py), else plain HTTP
    stopped: bool = field(default=False, init=False)

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'https' if self.tls else 'http'}://{host}:{self.port}"

    def stop(self, timeout: float = 5.0) -> None:
        """Close every screen, stop serving and wait for the server to end. Idempotent."""
        if self.stopped:
            return
        self.stopped = True
        if self.before_stop is not None:
            self.before_stop()
        self.server.should_exit = True
        with contextlib.suppress(Exception):
            self.serving.result(timeout)
        if self.after_stop is not None:
            self.after_stop()


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


def serve(live: LiveServer, wsgi_app: Any, host: str = "127.0.0.1", port: int = 5000,
          *, start_timeout: float = 10.0, tls: ssl.SSLContext | None = None) -> ServerHandle:
    """Serve ``live``'s Socket.IO and ``wsgi_app``'s pages on ``host:port`` from ``live``'s
    loop; return once it listens. OSError if the port cannot be bound (in use, no such address).
    The handle's ``stop`` closes every screen first. With ``tls`` (controller/security/tls.py
    ``server_context``) the port speaks HTTPS and answers plain HTTP with a redirect or a
    refusal (display/tls_port.py)."""
    asgi = socketio.ASGIApp(live.sio, other_asgi_app=_pages(wsgi_app))
    live.secure = tls is not None
    return _serve(live, asgi, host, port, start_timeout, tls, before_stop=live.close_screens)


def serve_pages(wsgi_app: Any, host: str = "127.0.0.1", port: int = 5000,
                *, start_timeout: float = 10.0, tls: ssl.SSLContext | None = None
                ) -> ServerHandle:
    """Serve a WSGI app with no live view (the cardroom's) the same way, on a loop thread of its
    own that the handle's ``stop`` ends. OSError as ``serve``."""
    loop = LoopThread("feltguard-pages")
    try:
        return _serve(loop, _pages(wsgi_app), host, port, start_timeout, tls,
                      after_stop=loop.close)
    except BaseException:
        loop.close()
        raise


def _pages(wsgi_app: Any) -> Any:
    # each request on one of a2wsgi's threads, as under any WSGI server
    return WSGIMiddleware(wsgi_app, workers=WSGI_THREADS)


def _serve(loop: LoopThread, asgi: Any, host: str, port: int, start_timeout: float,
           tls: ssl.SSLContext | None, **hooks: Callable[[], None]) -> ServerHandle:
    sock = _bind(host, port)
    config = uvicorn.Config(
        asgi,
        lifespan="off",
        log_config=None,  # the process's own logging (feltguard -v), through the filter above
        access_log=True,
        # X-Forwarded-For from anyone on the machine would pick the login limit's key
        proxy_headers=False,
        server_header=False,
        http="h11",
        ws="websockets-sansio",
        # A state is 2.5 KB on a LAN: compressing it again for each screen would cost the Pi
        # more than it saves the network.
        ws_per_message_deflate=False,
        ws_ping_interval=None,  # Engine.IO pings (display/server.py: PING_INTERVAL)
        timeout_graceful_shutdown=STOP_GRACE_S,
    )
    server = uvicorn.Server(config) if tls is None else TlsPortServer(config, tls)
    serving = loop.spawn(server.serve(sockets=[sock]))
    deadline = time.monotonic() + start_timeout
    while not server.started:
        if serving.done():
            sock.close()
            serving.result()  # its error
            raise OSError("the server stopped as it started")
        if time.monotonic() > deadline:
            server.should_exit = True
            sock.close()
            raise OSError(f"the server did not start in {start_timeout:.0f} s")
        time.sleep(0.01)
    handle = ServerHandle(server, serving, host, sock.getsockname()[1], tls=tls is not None,
                          **hooks)
    log.info("serving on %s", handle.url)
    return handle
