"""The live server's python-socketio extensions (display/fan_out.py): the room emit that makes
no task per client, against python-socketio's own emit, and the packets' JSON."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

import pytest
import socketio
from engineio import packet as eio_packet

from display.fan_out import FanOutManager, JsonPacket, orjson_json
from display.live import LiveServer
from display.payloads import dealer_payload, table_payload
from tests.display.snapshots import short_hand


class Engine:
    """What a manager needs of python-engineio's server: ids, and each client's packets."""

    def __init__(self, broken: tuple[str, ...] = ()) -> None:
        self.sent: list[tuple[str, str]] = []
        self.broken = set(broken)
        self._ids = itertools.count(1)

    def generate_id(self) -> str:
        return f"sid{next(self._ids)}"

    async def send_packet(self, eio_sid: str, pkt: Any) -> None:
        if eio_sid in self.broken:
            raise ConnectionResetError(f"{eio_sid} is gone")
        self.sent.append((eio_sid, pkt.encode()))


class Server:
    """What a manager needs of python-socketio's server (python-socketio's own emit sends
    through the server's two send methods, which hand Engine.IO packets to the engine)."""

    packet_class = JsonPacket

    def __init__(self, engine: Engine) -> None:
        self.eio = engine

    async def _send_eio_packet(self, eio_sid: str, pkt: Any) -> None:
        await self.eio.send_packet(eio_sid, pkt)

    async def _send_packet(self, eio_sid: str, pkt: Any) -> None:
        await self.eio.send_packet(eio_sid, eio_packet.Packet(eio_packet.MESSAGE, pkt.encode()))


async def _room(manager: socketio.AsyncManager, engine: Engine,
                clients: dict[str, str]) -> dict[str, str]:
    """Connect each eio sid to its namespace; their Socket.IO sids by eio sid."""
    manager.set_server(Server(engine))
    manager.initialize()
    return {eio: await manager.connect(eio, ns) for eio, ns in clients.items()}


CLIENTS = {"e1": "/table", "e2": "/table", "e3": "/table", "e4": "/dealer"}


def _sent(manager: socketio.AsyncManager, broken: tuple[str, ...] = (),
          **emit: Any) -> tuple[list[tuple[str, str]], dict[str, str]]:
    async def go() -> tuple[list[tuple[str, str]], dict[str, str]]:
        engine = Engine(broken)
        sids = await _room(manager, engine, CLIENTS)
        if "skip_eio" in emit:
            emit["skip_sid"] = sids[emit.pop("skip_eio")]
        await manager.emit("state", emit.pop("data"), emit.pop("namespace"), **emit)
        return engine.sent, sids
    return asyncio.run(go())


@pytest.mark.parametrize("snap", short_hand()[::3])
def test_a_room_emit_sends_what_python_socketios_own_emit_sends(snap: dict[str, Any]) -> None:
    for namespace, payload in (("/table", table_payload(snap)), ("/dealer", dealer_payload(snap))):
        ours, _ = _sent(FanOutManager(), data=payload, namespace=namespace)
        theirs, _ = _sent(socketio.AsyncManager(), data=payload, namespace=namespace)
        assert sorted(ours) == sorted(theirs)  # upstream's tasks may finish in any order
        assert [eio for eio, _ in ours] == [e for e, ns in CLIENTS.items() if ns == namespace]
        # one Engine.IO MESSAGE of one Socket.IO EVENT: "4" "2" namespace "," JSON
        for _, text in ours:
            head, _, body = text.partition(",")
            assert head == f"42{namespace}" and json.loads(body) == ["state", payload]


def test_skipped_and_failing_clients() -> None:
    manager = FanOutManager()
    sent, _ = _sent(manager, broken=("e2",), data={"n": 1}, namespace="/table", skip_eio="e3")
    assert [eio for eio, _ in sent] == ["e1"]  # e2 failed, e3 was skipped
    assert manager.send_errors == 1  # counted; the clients after it still got theirs
    sent, _ = _sent(FanOutManager(), data={"n": 1}, namespace="/table", to=None)
    assert len(sent) == 3
    sent, _ = _sent(FanOutManager(), data={"n": 1}, namespace="/nobody")
    assert sent == []


def test_a_skipped_client_counts_among_the_live_servers_emit_errors() -> None:
    # what /healthz reports as emit_errors (with the Publisher's)
    live = LiveServer()
    try:
        assert live.emit_errors == 0
        live.manager.send_errors += 2
        assert live.emit_errors == 2
    finally:
        live.close()


def test_a_room_emit_never_gives_the_loop_up_between_clients() -> None:
    # Every client's queue has the state within the emit's own turn of the loop: driven by
    # hand, the coroutine finishes at its first step instead of waiting on tasks.
    async def go() -> None:
        engine = Engine()
        manager = FanOutManager()
        await _room(manager, engine, {f"e{i}": "/table" for i in range(20)})
        step = manager.emit("state", {"n": 1}, "/table")
        with pytest.raises(StopIteration):
            step.send(None)
        assert len(engine.sent) == 20
    asyncio.run(go())


def test_an_emit_with_a_callback_takes_python_socketios_path() -> None:
    # an acknowledgement needs an id per client (each client's first is 1), so each gets a
    # packet of its own, with its id before the JSON
    sent, _ = _sent(FanOutManager(), data={"n": 1}, namespace="/table", callback=lambda: None)
    assert sorted(sent) == [(eio, '42/table,1["state",{"n":1}]') for eio in ("e1", "e2", "e3")]


def test_the_packets_json_reads_back_as_the_standard_librarys() -> None:
    for snap in short_hand():
        for payload in (table_payload(snap), dealer_payload(snap)):
            text = orjson_json.dumps(payload, separators=(",", ":"))
            assert json.loads(text) == payload
            assert text == json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
    # keys that are not strings become strings, as json.dumps makes them
    assert orjson_json.dumps({1: "a"}) == '{"1":"a"}'
    assert orjson_json.loads('{"1":"a"}') == {"1": "a"}
    packet = JsonPacket(data=["state", {"seat": 1}], namespace="/table")
    assert packet.encode() == '2/table,["state",{"seat":1}]'
