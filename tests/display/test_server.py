"""The Socket.IO server against real clients over the live server (display/live.py, uvicorn as
`feltguard run` serves) on 127.0.0.1:0.

A fresh app per test, real python-socketio clients (no test client). Clients use the polling
transport, except the WebSocket test.
"""

from __future__ import annotations

import contextlib
import json
import queue
import re
import threading
from typing import Any

import pytest
import socketio

from display.access import SECURITY_HEADERS
from display.fan_out import FanOutManager, JsonPacket
from display.payloads import dealer_payload, table_payload
from display.server import (
    DEALER,
    TABLE,
    Publisher,
    ServerHandle,
    close_app,
    create_app,
    run_server,
)
from tests.display.snapshots import HOLE, TABLED, hole_cards_hidden_at, short_hand

TOKEN = "s3cret-token"
WAIT = 10.0  # deadline for any one message; generous for a loaded CI machine



class Listener:
    """A real Socket.IO client on one namespace that queues every `state` it receives."""

    def __init__(self, url: str, namespace: str, transport: str = "polling", **connect: Any):
        self.got: queue.Queue[dict[str, Any]] = queue.Queue()
        self.client = socketio.Client(reconnection=False)
        self.client.on("state", self.got.put, namespace=namespace)
        self.client.connect(
            url, namespaces=[namespace], transports=[transport], wait_timeout=WAIT, **connect
        )

    def next(self) -> dict[str, Any]:
        return self.got.get(timeout=WAIT)

    def take(self, n: int) -> list[dict[str, Any]]:
        return [self.next() for _ in range(n)]

    def until(self, last_seq: int) -> list[dict[str, Any]]:
        """Every state up to the one of ``last_seq`` (a public view may skip to the latest), and
        any still on its way (each handler runs on a thread of its own: two states arriving
        together may swap here)."""
        got = [self.next()]
        while got[-1]["last_seq"] != last_seq:
            got.append(self.next())
        with contextlib.suppress(queue.Empty):
            while True:
                got.append(self.got.get(timeout=0.3))
        return got

    def close(self) -> None:
        self.client.disconnect()


def publish_from_thread(publisher: Publisher, snaps: list[dict[str, Any]]) -> None:
    # The daemon publishes from the card reader's thread, never from a request handler.
    t = threading.Thread(target=lambda: [publisher.publish(s) for s in snaps])
    t.start()
    t.join(WAIT)
    assert not t.is_alive()


def test_both_roles_receive_every_state_in_order(live: tuple[ServerHandle, Publisher]) -> None:
    handle, publisher = live
    public = Listener(handle.url, TABLE)
    dealer = Listener(handle.url, DEALER, auth={"token": TOKEN})
    try:
        assert public.next() == table_payload({})  # the greeting: nothing published yet
        assert dealer.next() == dealer_payload({})
        snaps = short_hand()
        publish_from_thread(publisher, snaps)
        got_public, got_dealer = public.until(snaps[-1]["last_seq"]), dealer.take(len(snaps))
    finally:
        public.close()
        dealer.close()
    # /table shows state: when the fan-out falls behind it skips to the latest, in order,
    # never an older state after a newer one, always ending at the final one
    by_seq = {s["last_seq"]: s for s in snaps}
    seqs = [p["last_seq"] for p in got_public]
    assert len(seqs) == len(set(seqs)) and snaps[-1]["last_seq"] in seqs
    assert got_public == [table_payload(by_seq[q]) for q in seqs]
    # /dealer never misses one
    assert got_dealer == [dealer_payload(s) for s in snaps]
    assert got_dealer[2]["seats"][3]["hole"] == HOLE[4]
    assert got_dealer[2]["findings"][0]["message"].startswith("Seat 4's 9c")


def test_public_client_never_sees_a_hole_card_before_showdown(
    live: tuple[ServerHandle, Publisher],
) -> None:
    handle, publisher = live
    public = Listener(handle.url, TABLE)
    try:
        public.next()
        snaps = short_hand()
        publish_from_thread(publisher, snaps)
        received = public.until(snaps[-1]["last_seq"])
    finally:
        public.close()
    by_seq = {s["last_seq"]: s for s in snaps}
    for payload in received:
        snap = by_seq[payload["last_seq"]]
        assert payload["role"] == "table"
        text = json.dumps(payload)
        for card in hole_cards_hidden_at(snap):
            assert not re.search(rf"\b{card}\b", text), f"{card} leaked at seq {snap['last_seq']}"
    tabled = {s["seat"]: s["hole"] for s in received[-1]["seats"] if s["shown"]}
    assert tabled == {seat: HOLE[seat] for seat in TABLED}


def test_a_new_client_gets_the_latest_state(live: tuple[ServerHandle, Publisher]) -> None:
    handle, publisher = live
    snaps = short_hand()
    publish_from_thread(publisher, snaps[:5])
    public = Listener(handle.url, TABLE)
    dealer = Listener(handle.url, DEALER, auth={"token": TOKEN})
    try:
        assert public.next() == table_payload(snaps[4])
        assert dealer.next() == dealer_payload(snaps[4])
        publisher.publish(snaps[5])
        assert public.next()["last_seq"] == snaps[5]["last_seq"]
    finally:
        public.close()
        dealer.close()


@pytest.mark.parametrize(
    "auth",
    [None, {}, {"token": "wrong"}, {"token": ""}, {"token": 42}, {"token": "s3cret-tokén"},
     {"token": "\ud800"}, "s3cret-token", ["s3cret-token"]],
)
def test_dealer_refuses_a_client_without_the_token(
    live: tuple[ServerHandle, Publisher], auth: Any
) -> None:
    handle, publisher = live
    publisher.publish(short_hand()[2])
    client = socketio.Client(reconnection=False)
    got: queue.Queue[Any] = queue.Queue()
    client.on("state", got.put, namespace=DEALER)
    # refused by the server ("failed to connect"), not given up on after WAIT ("Unexpected
    # connection error"): a lone surrogate's packet, which orjson cannot read, is answered too
    with pytest.raises(socketio.exceptions.ConnectionError, match="failed to connect: /dealer"):
        client.connect(
            handle.url, namespaces=[DEALER], transports=["polling"], auth=auth, wait_timeout=WAIT
        )
    client.disconnect()
    assert got.empty()  # not even the greeting went out


def test_dealer_is_open_without_a_configured_token() -> None:
    app, live, publisher = create_app()
    handle = run_server(app, live, "127.0.0.1", 0)
    try:
        publisher.publish(short_hand()[2])
        dealer = Listener(handle.url, DEALER)
        try:
            assert dealer.next()["seats"][0]["hole"] == HOLE[1]
        finally:
            dealer.close()
    finally:
        handle.stop()


def test_an_empty_token_is_refused_at_set_up() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        create_app(dealer_token="")


def test_websocket_transport(live: tuple[ServerHandle, Publisher]) -> None:
    handle, publisher = live
    public = Listener(handle.url, TABLE, transport="websocket")
    try:
        assert public.client.transport() == "websocket"
        public.next()
        snaps = short_hand()
        publish_from_thread(publisher, snaps[:3])
        assert table_payload(snaps[2]) in public.until(snaps[2]["last_seq"])
    finally:
        public.close()


def test_a_state_goes_out_as_one_json_event_packet() -> None:
    # The server's packets skip python-socketio's scan for binary attachments (JsonPacket): a
    # state must still be a single plain EVENT packet of JSON text, which the pages parse.
    _, live, _ = create_app(dealer_token=TOKEN)
    assert live.sio.packet_class is JsonPacket
    assert isinstance(live.sio.manager, FanOutManager)
    payload = dealer_payload(short_hand()[2])
    encoded = JsonPacket(data=["state", payload], namespace=DEALER).encode()
    assert isinstance(encoded, str) and encoded.startswith("2/dealer,")
    assert json.loads(encoded[len("2/dealer,"):]) == ["state", payload]


def test_publish_refuses_a_non_dict_and_keeps_the_latest(
    live: tuple[ServerHandle, Publisher],
) -> None:
    _, publisher = live
    snap = short_hand()[3]
    publisher.publish(snap)
    with pytest.raises(TypeError, match="snapshot must be a dict"):
        publisher.publish(["not", "a", "snapshot"])  # type: ignore[arg-type]
    assert publisher.flush()
    assert publisher.latest(TABLE) == table_payload(snap)
    assert publisher.last_seq == snap["last_seq"]
    assert publisher.published == 1


def test_pages_health_and_headers() -> None:
    app, _, publisher = create_app(dealer_token=TOKEN)
    http = app.test_client()  # Flask's HTTP test client; it does not touch the Socket.IO server
    publisher.publish(short_hand()[1])

    health = http.get("/healthz")
    assert health.status_code == 200
    assert health.get_json() == {
        "status": "ok", "async_mode": "asgi", "published": 1, "last_seq": 8, "emit_errors": 0,
        "tls": None,
        "readers": [], "journal": None,
        # no screen connected: nothing written either way (display/direct_frames.py)
        "fan_out": {"direct": 0, "queued": 0},
    }

    table = http.get("/")
    assert table.status_code == 200
    assert b'data-role="table"' in table.data
    login = http.get("/dealer")  # no session: the login form (tests/display/test_login.py)
    assert b'<form id="login"' in login.data
    http.post("/dealer/login", data={"token": TOKEN})
    dealer = http.get("/dealer")
    assert b'data-role="dealer"' in dealer.data
    assert TOKEN.encode() not in dealer.data  # the page never holds the token
    for response in (table, login, dealer, health):
        for name, value in SECURITY_HEADERS.items():
            assert response.headers[name] == value
    for name in ("socket.io.min.js", "feltguard.js", "feltguard.css"):
        assert http.get(f"/static/{name}").status_code == 200
    assert http.get("/static/nope.js").status_code == 404


def test_a_port_in_use_is_an_oserror_and_the_server_stops_clean() -> None:
    # feltguard run turns the OSError into one line (controller/processes/table.py); nothing is left
    # running behind it, and a stopped server's handle can be stopped again
    app, live, _ = create_app(dealer_token=TOKEN)
    handle = run_server(app, live, "127.0.0.1", 0)
    try:
        other, other_live, _ = create_app(dealer_token=TOKEN)
        with pytest.raises(OSError):
            run_server(other, other_live, "127.0.0.1", handle.port)
        close_app(other)
    finally:
        handle.stop()
        handle.stop()
        close_app(app)
    assert live.loop.is_closed()


def test_a_polling_client_leaves_at_once() -> None:
    # python-engineio's asyncio socket left a closed polling client's long-poll waiting for the
    # ping time-out (10 s); display.live wakes it, so a disconnect is prompt (5 s here, loose
    # for a loaded machine, and still half the time-out)
    import time

    app, live, _ = create_app(dealer_token=TOKEN)
    handle = run_server(app, live, "127.0.0.1", 0)
    try:
        client = socketio.Client(reconnection=False)
        client.connect(handle.url, namespaces=[TABLE], transports=["polling"], wait_timeout=WAIT)
        started = time.monotonic()
        client.disconnect()
        assert time.monotonic() - started < 5
    finally:
        handle.stop()
        close_app(app)
