"""The fan-out's direct path (display/direct_frames.py), on a real uvicorn server with real
WebSocket and long-polling clients: every client gets every packet once and in the order
emitted, whichever way each went; the frame is the one uvicorn's own path writes; a slow reader
or a client that stopped answering pings is python-engineio's to deal with, as before."""

from __future__ import annotations

import json
import logging
import socket
import time
from collections.abc import Iterator
from typing import Any

import engineio
import pytest
import socketio
import websocket
from engineio import packet as eio_packet
from websockets.protocol import State
from websockets.server import ServerProtocol

from display.direct_frames import DirectFrames
from display.live import LiveServer, ServerHandle, serve

NS = "/t"


def _app(environ: dict[str, Any], start: Any) -> list[bytes]:  # no pages: a WSGI stub
    start("404 Not Found", [("Content-Type", "text/plain")])
    return [b""]


@pytest.fixture
def server() -> Iterator[tuple[LiveServer, ServerHandle]]:
    live = LiveServer(ping_interval=0.05, ping_timeout=5)
    live.sio.on("connect", lambda sid, environ, auth=None: True, namespace=NS)
    handle = serve(live, _app, "127.0.0.1", 0)
    try:
        yield live, handle
    finally:
        handle.stop()
        live.close()


def _ws_client(handle: ServerHandle, rcvbuf: int | None = None) -> websocket.WebSocket:
    """A WebSocket-only Engine.IO client connected to the namespace (as the pages' clients
    after their upgrade, and as bench.latency's)."""
    options = [] if rcvbuf is None else [(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)]
    ws = websocket.create_connection(
        handle.url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket",
        timeout=10, sockopt=options)
    assert ws.recv().startswith("0")  # Engine.IO open
    ws.send(f"40{NS},")
    while not (got := ws.recv()).startswith(f"40{NS},"):  # the namespace's connect
        assert got == "2"
        ws.send("3")
    return ws


def _states(ws: websocket.WebSocket, count: int) -> list[int]:
    """The next ``count`` states' numbers as they arrive, answering pings."""
    got: list[int] = []
    while len(got) < count:
        data = ws.recv()
        if data == "2":
            ws.send("3")
        elif data.startswith(f"42{NS},"):
            got.append(json.loads(data[len(NS) + 3:])[1]["n"])
        else:
            raise AssertionError(f"not a state: {data[:40]!r}")
    return got


def _emit_in_one_turn(live: LiveServer, *emits: tuple[str, Any]) -> None:
    """Run the emits on the loop in one turn, as the Publisher's fan-out does, and wait."""
    async def go() -> None:
        for kind, n in emits:
            if kind == "state":
                await live.sio.emit("state", {"n": n}, namespace=NS)
            else:  # the state put in each client's queue as python-engineio sends packets
                text = f'2{NS},["state",{{"n":{n}}}]'
                for sock in list(live.sio.eio.sockets.values()):
                    await sock.send(eio_packet.Packet(eio_packet.MESSAGE, text))
    live.run(go())


def test_the_installed_libraries_have_the_seams_the_direct_path_needs() -> None:
    # without them the live server still works, through python-engineio's writer: this test is
    # what says the fan-out lost its direct path after an upgrade
    live = LiveServer()
    try:
        assert live.manager.direct is not None
        assert live.fan_out == {"direct": 0, "queued": 0}
    finally:
        live.close()


def test_a_server_without_the_seams_keeps_python_engineios_path(
        caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="display.direct_frames"):
        assert DirectFrames.install(engineio.Server()) is None  # the threading driver
    assert "python-engineio's writer" in caplog.text
    assert "not python-engineio's ASGI driver" in caplog.text


@pytest.mark.parametrize("length", [17, 125, 126, 65535, 65536, 200_001])
def test_the_frame_is_the_one_uvicorns_websocket_protocol_writes(length: int) -> None:
    # A message of ``length`` bytes at each edge of the length's three encodings (RFC 6455
    # §5.2: 7 bits up to 125, 16 bits up to 65535, 64 bits above), with text outside ASCII:
    # the protocol uvicorn serves with (websockets' sans-I/O server side) frames it the same.
    head, tail = '2/t,["state","', '"]'
    room = length - len(("4" + head + tail).encode())
    text = head + "é" * (room // 2) + "x" * (room % 2) + tail
    message = ("4" + text).encode()
    assert len(message) == length
    proto = ServerProtocol()
    proto.state = State.OPEN
    proto.send_text(message)
    assert DirectFrames.frame(text) == b"".join(proto.data_to_send())


def test_every_client_gets_every_state_once_in_order_by_either_path(
        server: tuple[LiveServer, ServerHandle]) -> None:
    live, handle = server
    clients = [_ws_client(handle) for _ in range(6)]
    poller = socketio.Client(reconnection=False)  # long-polling only: never idle for direct
    polled: list[int] = []
    poller.on("state", lambda data: polled.append(data["n"]), namespace=NS)
    poller.connect(handle.url, namespaces=[NS], transports=["polling"], wait_timeout=10)
    try:
        n = 0
        for turn in range(40):
            # direct while a client's writer is idle; after a queued packet, through the queue
            # until the writer has written it: the states must still arrive in order
            emits: list[tuple[str, int]] = []
            for i in range(turn % 4 + 1):
                n += 1
                emits.append(("queued" if i == turn % 3 else "state", n))
            _emit_in_one_turn(live, *emits)
            if turn % 5 == 0:
                time.sleep(0.06)  # a ping interval: the pings' packets interleave too
        for ws in clients:
            assert _states(ws, n) == list(range(1, n + 1))
        deadline = time.monotonic() + 10
        while len(polled) < n and time.monotonic() < deadline:
            time.sleep(0.02)
        assert polled == list(range(1, n + 1))
        fan_out = live.fan_out
        assert fan_out["direct"] > 0 and fan_out["queued"] > 0  # both paths were taken
        assert live.emit_errors == 0
    finally:
        poller.disconnect()
        for ws in clients:
            ws.close()


@pytest.mark.parametrize("busy", ["writer sending", "transport paused", "upgrading"])
def test_a_connection_that_is_not_idle_gets_the_state_through_its_queue(
        server: tuple[LiveServer, ServerHandle], busy: str) -> None:
    # The moments a test cannot time: the writer waiting inside a send for a paused transport
    # (and, once the transport resumes, not yet woken), the upgrade's handshake. Each is set
    # by hand; the state waits in the queue and arrives once the moment has passed.
    live, handle = server
    ws = _ws_client(handle)
    direct = live.manager.direct
    assert direct is not None
    try:
        (sid,) = live.sio.eio.sockets
        tracked = direct._connections[sid]
        proto = tracked.asgi_send.__self__

        def hold(on: bool) -> None:
            if busy == "writer sending":
                tracked.sending = on
            elif busy == "transport paused":
                proto.writable.clear() if on else proto.writable.set()
            else:
                tracked.socket.upgrading = on

        live.call_soon(hold, True)
        written, queued = direct.written, direct.queued
        live.run(live.sio.emit("state", {"n": 1}, namespace=NS))
        assert (direct.written, direct.queued) == (written, queued + 1)
        live.call_soon(hold, False)
        assert _states(ws, 1) == [1]
        live.run(live.sio.emit("state", {"n": 2}, namespace=NS))
        assert _states(ws, 1) == [2]
        assert direct.written == written + 1  # idle again: straight to it
    finally:
        ws.close()


def test_a_slow_reader_is_queued_and_the_others_stay_direct(
        server: tuple[LiveServer, ServerHandle]) -> None:
    # A screen that stops reading: once its socket is full, uvicorn pauses its transport and
    # its packets wait in its queue; the other screens keep getting theirs straight away. When
    # it reads again it gets everything, in order.
    live, handle = server
    slow = _ws_client(handle, rcvbuf=4096)
    fast = _ws_client(handle)
    big = "x" * 60_000
    try:
        async def flood(count: int) -> None:
            for n in range(1, count + 1):
                await live.sio.emit("state", {"n": n, "pad": big}, namespace=NS)
        live.run(flood(60), timeout=20)
        direct = live.manager.direct
        assert direct is not None
        assert direct.queued > 0  # the slow reader's, once its transport paused
        assert _states(fast, 60) == list(range(1, 61))
        written_before = direct.written
        live.run(flood(1))
        assert direct.written == written_before + 1  # the fast client: still direct
        assert _states(slow, 61) == [*range(1, 61), 1]
    finally:
        slow.close()
        fast.close()


def test_a_client_that_stopped_answering_pings_is_closed_not_written_to(
        server: tuple[LiveServer, ServerHandle]) -> None:
    live, handle = server
    silent = _ws_client(handle)  # never reads again: its pings go unanswered
    try:
        (sock,) = live.sio.eio.sockets.values()
        sock.last_ping = time.time() - 60  # as if its pong were a minute late
        written = live.manager.direct.written  # type: ignore[union-attr]
        live.run(live.sio.emit("state", {"n": 1}, namespace=NS))
        assert live.manager.direct.written == written  # type: ignore[union-attr]
        assert sock.closed  # python-engineio's own check closed it, as its send would
    finally:
        silent.close()
