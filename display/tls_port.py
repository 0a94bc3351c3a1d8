"""One port that speaks HTTPS, and answers a plain-HTTP request on it with a redirect or a
refusal rather than garbage.

A tablet's owner types ``table.local:5000``; the browser tries plain HTTP. A TLS-only port
would answer with a handshake failure the browser shows as "this page isn't working". So each
connection's first byte is read without taking it off the socket (``MSG_PEEK``): a TLS record
opens with 0x16 (a handshake), and that connection is served over TLS by uvicorn's own HTTP
protocol, exactly as ``uvicorn.Config(ssl_...)`` would; anything else is a plain request and
gets one short answer, then the connection is closed:

- ``GET`` or ``HEAD`` of a page, carrying no cookie and no credentials: ``307`` to the same
  path on ``https://`` (the query dropped: it has already crossed in clear, and repeating it
  would carry it again). The browser follows it, and from then on HSTS keeps it on HTTPS.
- anything else (a form POST, which may have carried a password; a request with a cookie; a
  Socket.IO request): ``403`` with one line saying the table serves HTTPS only. Redirecting
  would have the browser send it all again, and a password that crossed in clear should be
  changed, not reused, so the answer says so.

Nothing is read from a plain connection beyond its request head (8 KB at most, 5 s at most),
and nothing of it is logged but the method and the path without its query.

``TlsPortServer`` is uvicorn's ``Server`` with its ``startup`` for given sockets replaced by
this routing accept loop (the rest of uvicorn, the protocols, the connection tracking and the
graceful shutdown, is its own); tests/display/test_tls_port.py holds it to the installed
uvicorn.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import socket
import ssl
from typing import Any

import h11
import uvicorn

__all__ = ["TlsPortServer", "plain_answer"]

log = logging.getLogger(__name__)

TLS_HANDSHAKE = 0x16  # the content type of a TLS handshake record (RFC 8446 §5.1)
FIRST_BYTE_S = 10.0  # a connection that says nothing is closed
HANDSHAKE_S = 10.0
PLAIN_HEAD_S = 5.0
PLAIN_HEAD_MAX = 8192
_HOST = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$")


def plain_answer(method: str, target: str,
                 headers: list[tuple[bytes, bytes]]) -> tuple[int, dict[str, str], str]:
    """The answer to a plain-HTTP request on the HTTPS port: (status, headers, body)."""
    names = {name.lower() for name, _ in headers}
    host = next((value.decode("latin-1") for name, value in headers if name.lower() == b"host"),
                "")
    path = target.split("?", 1)[0] or "/"
    if not _HOST.match(host) or not path.startswith("/"):
        return 400, {}, "This table serves HTTPS only.\n"
    https = f"https://{host}{path}"
    carries = names & {b"cookie", b"authorization"}
    if method in ("GET", "HEAD") and not carries and not path.startswith("/socket.io"):
        return 307, {"Location": https}, f"This table serves HTTPS only: {https}\n"
    return 403, {}, (f"This table serves HTTPS only: open https://{host}/. What this request "
                     "carried crossed the network in clear: if it held a password, change it.\n")


class _PlainAnswer(asyncio.Protocol):
    """Reads one plain request head and answers it (module docstring)."""

    def __init__(self) -> None:
        self._conn = h11.Connection(h11.SERVER, max_incomplete_event_size=PLAIN_HEAD_MAX)
        self._transport: asyncio.Transport | None = None
        self._timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport  # type: ignore[assignment]  # (uvloop's is no subclass)
        self._timer = asyncio.get_running_loop().call_later(PLAIN_HEAD_S, transport.close)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()

    def data_received(self, data: bytes) -> None:
        transport = self._transport
        if transport is None or transport.is_closing():
            return
        self._conn.receive_data(data)
        try:
            event = self._conn.next_event()
        except h11.RemoteProtocolError:
            transport.close()
            return
        if event is h11.NEED_DATA:
            return
        if not isinstance(event, h11.Request):
            transport.close()
            return
        method = event.method.decode("ascii", "replace")
        target = event.target.decode("ascii", "replace")
        status, headers, body = plain_answer(method, target, list(event.headers))
        log.info("plain HTTP %s %s on the HTTPS port: %s", method, target.split("?", 1)[0],
                 "redirected" if status == 307 else "refused")
        payload = b"" if method == "HEAD" else body.encode()
        head = [f"HTTP/1.1 {status} {_REASONS[status]}",
                "Content-Type: text/plain; charset=utf-8",
                f"Content-Length: {len(payload)}", "Cache-Control: no-store",
                "Connection: close", *(f"{k}: {v}" for k, v in headers.items())]
        transport.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + payload)
        transport.close()


_REASONS = {307: "Temporary Redirect", 400: "Bad Request", 403: "Forbidden"}


class _Listener:
    """Accepts on one listening socket and routes each connection by its first byte. Has the
    ``close`` / ``wait_closed`` uvicorn's shutdown calls on its servers."""

    def __init__(self, sock: socket.socket, protocol: Any, context: ssl.SSLContext) -> None:
        self._sock = sock
        self._protocol = protocol
        self._context = context
        self._loop = asyncio.get_running_loop()
        self._tasks: set[asyncio.Task[None]] = set()
        self._accepting = self._loop.create_task(self._accept())

    async def _accept(self) -> None:
        while True:
            try:
                conn, _ = await self._loop.sock_accept(self._sock)
            except asyncio.CancelledError:
                raise
            except OSError as exc:  # out of descriptors, a reset before accept: go on
                log.warning("accept on the HTTPS port: %s", exc)
                await asyncio.sleep(0.1)
                continue
            conn.setblocking(False)
            task = self._loop.create_task(self._route(conn))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _first_byte(self, conn: socket.socket) -> bytes:
        while True:
            try:
                return conn.recv(1, socket.MSG_PEEK)
            except BlockingIOError:
                readable = self._loop.create_future()
                self._loop.add_reader(conn.fileno(), readable.set_result, None)
                try:
                    await readable
                finally:
                    self._loop.remove_reader(conn.fileno())

    async def _route(self, conn: socket.socket) -> None:
        try:
            first = await asyncio.wait_for(self._first_byte(conn), FIRST_BYTE_S)
            if not first:
                conn.close()
            elif first[0] == TLS_HANDSHAKE:
                await self._loop.connect_accepted_socket(
                    self._protocol, conn, ssl=self._context, ssl_handshake_timeout=HANDSHAKE_S)
            else:
                await self._loop.connect_accepted_socket(_PlainAnswer, conn)
        except (OSError, TimeoutError, ssl.SSLError) as exc:
            # a client that does not trust the certificate, a port scan, a dropped link
            log.debug("a connection on the HTTPS port ended before its request: %s", exc)
            conn.close()

    def close(self) -> None:
        self._accepting.cancel()
        for task in list(self._tasks):
            task.cancel()

    async def wait_closed(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            await self._accepting
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)


class TlsPortServer(uvicorn.Server):
    """uvicorn's server, serving its sockets over TLS with ``context``, a plain request on the
    same port answered as the module docstring says."""

    def __init__(self, config: uvicorn.Config, context: ssl.SSLContext) -> None:
        super().__init__(config)
        self.context = context

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        if not sockets:
            raise ValueError("TlsPortServer serves the sockets it is given")
        await self.lifespan.startup()
        config = self.config

        def protocol(_loop: asyncio.AbstractEventLoop | None = None) -> asyncio.Protocol:
            return config.http_protocol_class(  # type: ignore[call-arg]
                config=config, server_state=self.server_state,
                app_state=self.lifespan.state, _loop=_loop)

        self.servers = [_Listener(sock, protocol, self.context)  # type: ignore[misc]
                        for sock in sockets]
        self.started = True
