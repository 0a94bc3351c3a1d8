"""One prepared WebSocket frame written straight to each idle screen's connection.

python-engineio gives every WebSocket connection a writer task. An emit puts the packet into
the client's queue; the task wakes (on Python 3.11 ``asyncio.wait_for`` costs it a task and
three turns of the loop), encodes the Engine.IO packet and hands it through ASGI to uvicorn,
which frames it for that one client and writes it. That is about 30 µs of Python a client for
every state, half the fan-out's time on the 2-core target (docs/display.md, "The fan-out").

``DirectFrames`` lets the fan-out (display/fan_out.py) take that last step itself. The
Engine.IO message is framed once per emit, as a server's unmasked WebSocket text frame (RFC 6455
§5.2, by websockets' own ``Frame``), and written to the transport of every connection that is
idle:

- Engine.IO's side: upgraded to WebSocket (not long-polling, not mid-upgrade), not closing,
  its pings answered (python-engineio's own ``check_ping_timeout``, as its ``send`` does);
- its writer holds nothing: no packet queued, or taken from the queue and not yet written
  (the queue's unfinished count: the writer marks a packet done just before it writes it,
  without yielding), and it is not inside a send waiting for the transport;
- uvicorn's side: the handshake done, no close sent or received, the transport not paused by
  a slow reader (``writable``) and not closing.

Any other connection gets the packet through its queue, exactly as python-engineio sends it.
Since that packet stays queued, or in the writer's hands, until it is written, every later emit
to that client goes the same way until the writer is idle again; and a direct write is
synchronous, in the transport's buffer before any later packet can be. So each client sees every
packet in the order it was emitted, whichever way each went.

The seams used (python-engineio's async driver table and its ASGI ``WebSocket`` class, built
with the socket's own handler; ``asyncio.Queue``'s unfinished count; uvicorn's websockets-sansio
protocol behind ASGI ``send``) are checked when the server is made. Without any of them
``DirectFrames.install`` returns None and logs why, and python-engineio's path carries every
packet. tests/display/test_direct_frames.py holds the installed versions to them.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from engineio.async_drivers import asgi as eio_asgi
from engineio.async_socket import AsyncSocket
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State

__all__ = ["DirectFrames"]

log = logging.getLogger(__name__)

_MESSAGE = "4"  # Engine.IO v4's message packet type


class _TrackedWebSocket(eio_asgi.WebSocket):  # type: ignore[misc]
    """python-engineio's ASGI WebSocket, known to ``direct`` for as long as its handler runs,
    noting when the Engine.IO writer is inside a send."""

    direct: DirectFrames  # set on the subclass ``install`` makes for one server

    def __init__(self, handler: Any, server: Any) -> None:
        super().__init__(handler, server)
        owner = getattr(handler, "__self__", None)  # the Engine.IO socket whose handler runs
        self.socket: AsyncSocket | None = owner if isinstance(owner, AsyncSocket) else None
        self.sending = False
        # uvicorn's protocol behind the ASGI send, once the handshake has it (``_idle``)
        self.protocol: WebSocketsSansIOProtocol | None = None

    async def __call__(self, environ: dict[str, Any]) -> Any:
        sock = self.socket
        if sock is None:
            return await super().__call__(environ)
        self.direct._connections[sock.sid] = self
        try:
            return await super().__call__(environ)
        finally:
            if self.direct._connections.get(sock.sid) is self:
                del self.direct._connections[sock.sid]

    async def send(self, message: Any) -> None:
        self.sending = True  # the writer may wait here for a paused transport
        try:
            await super().send(message)
        finally:
            self.sending = False


class DirectFrames:
    """The direct path for one python-engineio ``AsyncServer`` (module docstring)."""

    def __init__(self) -> None:
        self._connections: dict[str, _TrackedWebSocket] = {}
        self.written = 0  # packets written straight to a connection
        self.queued = 0  # packets sent through a client's queue instead (it was not idle)
        self._other_protocol_logged = False

    @classmethod
    def install(cls, eio: Any) -> DirectFrames | None:
        """Have ``eio`` (a python-engineio ``AsyncServer`` in ASGI mode) build its WebSockets
        so that idle ones can be written to directly. None, with the reason logged, where a
        seam is missing: python-engineio's own path then carries everything."""
        missing = _missing_seams(eio)
        if missing:
            log.warning("screens get every packet through python-engineio's writer: %s",
                        missing)
            return None
        direct = cls()
        tracked = type("TrackedWebSocket", (_TrackedWebSocket,), {"direct": direct})
        eio._async = {**eio._async, "websocket": tracked}  # this server's driver table only
        return direct

    @staticmethod
    def frame(text: str) -> bytes:
        """An Engine.IO message carrying ``text`` (an encoded Socket.IO packet), as one
        server-to-client WebSocket text frame."""
        return Frame(Opcode.TEXT, (_MESSAGE + text).encode()).serialize(mask=False)

    def write_now(self, eio_sid: str, frame: bytes, now: float) -> bool | None:
        """``write`` without a coroutine, for the fan-out's loop over every screen: True when
        written to an idle connection whose pings are answered (``now``: ``time.time()``, read
        once per emit), False when the client is not idle (its queue's path then), None when
        its pings may have stopped: ``write`` must decide, as python-engineio's send does (it
        may close the client). Two coroutines fewer per screen and state: a tenth of the
        fan-out's CPU with 22 screens (bench.latency --stages)."""
        idle = self._idle(eio_sid)
        if idle is None:
            self.queued += 1
            return False
        sock, transport = idle
        last_ping = sock.last_ping
        if last_ping and now - last_ping > sock.server.ping_timeout:
            return None  # (python-engineio's check_ping_timeout: the same test)
        try:
            transport.write(frame)
        except Exception:  # pragma: no cover - the queue's path then says why, in order
            self.queued += 1
            return False
        self.written += 1
        return True

    async def write(self, eio_sid: str, frame: bytes) -> bool:
        """Write ``frame`` to the client's connection if it is idle (module docstring). True if
        the packet is dealt with: written, or dropped because the client stopped answering
        pings (python-engineio's ``send`` drops it then, and closes the client). False: send it
        through the client's queue (counted in ``queued``)."""
        idle = self._idle(eio_sid)
        if idle is not None:
            sock, transport = idle
            # python-engineio's check, as in its send; it yields only to close a silent client
            if not await sock.check_ping_timeout():
                return True
            try:
                transport.write(frame)
            except Exception:  # pragma: no cover - the queue's path then says why, in order
                pass
            else:
                self.written += 1
                return True
        self.queued += 1
        return False

    def _idle(self, eio_sid: str) -> tuple[AsyncSocket, asyncio.WriteTransport] | None:
        """The client's Engine.IO socket and transport if its connection is idle, else None."""
        ws = self._connections.get(eio_sid)
        if ws is None or ws.sending:
            return None
        sock = ws.socket  # never None here: only sockets' own WebSockets are tracked
        if (sock is None or not sock.upgraded or sock.upgrading or sock.closing or sock.closed
                or sock.queue._unfinished_tasks):
            return None
        proto = ws.protocol
        if proto is None:  # found once per connection: its protocol does not change
            found = getattr(ws.asgi_send, "__self__", None)  # ASGI send is the protocol's method
            if not isinstance(found, WebSocketsSansIOProtocol):
                if found is not None and not self._other_protocol_logged:
                    self._other_protocol_logged = True
                    log.warning("screens get every packet through python-engineio's writer: "
                                "the WebSocket is served by %s", type(found).__name__)
                return None
            proto = ws.protocol = found
        if (not proto.handshake_complete or proto.close_sent or proto.disconnected
                or not proto.writable.is_set() or proto.conn.state is not State.OPEN
                or proto.transport.is_closing()):
            return None
        return sock, proto.transport


def _missing_seams(eio: Any) -> str:
    """What of the seams this path needs ``eio`` lacks ("" if none)."""
    table = getattr(eio, "_async", None)
    if not isinstance(table, dict) or table.get("websocket") is not eio_asgi.WebSocket:
        return "the Engine.IO server is not python-engineio's ASGI driver"
    queue = eio.create_queue()
    if not isinstance(queue, asyncio.Queue) or not isinstance(
            getattr(queue, "_unfinished_tasks", None), int):
        return "the Engine.IO queue has no unfinished count"
    # the protocol's state is made in its __init__, whose code names each attribute it sets
    needed = ("handshake_complete", "close_sent", "disconnected", "writable", "conn")
    made = WebSocketsSansIOProtocol.__init__.__code__.co_names
    absent = [name for name in needed if name not in made]
    if absent:
        return f"uvicorn's websockets-sansio protocol has no {', '.join(absent)}"
    return ""
