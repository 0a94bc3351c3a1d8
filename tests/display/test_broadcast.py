"""The broadcast view: its payload (every hole card, nothing else private), the delay line that
holds every state back by exactly the delay (an injected clock: no timed assertion), the
Publisher's fan-out per namespace (the dealer misses nothing, the public views skip only to a
newer state), and real Socket.IO clients on /table and /broadcast."""

from __future__ import annotations

import contextlib
import copy
import json
import queue
import threading
from typing import Any

import pytest
import socketio

from display.delay import DelayLine
from display.payloads import broadcast_payload, dealer_payload, table_payload
from display.server import BROADCAST, DEALER, TABLE, Publisher, create_app, run_server
from tests.display.snapshots import BURNS, HOLE, short_hand

WAIT = 10.0


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


# -- the payload ----------------------------------------------------------------------------


def test_the_broadcast_shows_every_hole_card_and_otherwise_only_what_the_public_sees() -> None:
    for snap in short_hand():
        # with the findings on air (off by default: tests/display/test_broadcast_words.py)
        public, broadcast = table_payload(snap), broadcast_payload(snap, 1800, findings=True)
        assert broadcast["role"] == "broadcast" and broadcast["delay_s"] == 1800.0
        # the public payload, key for key, but for the hole cards
        assert set(broadcast) == set(public) | {"delay_s"}
        for key in ("table", "hand", "findings", "results", "last_seq"):
            assert broadcast[key] == public[key]
        for pub, seat, raw in zip(public["seats"], broadcast["seats"], snap["seats"],
                                  strict=True):
            assert set(seat) == set(pub)
            assert seat["hole"] == raw["hole"]
            assert {k: v for k, v in seat.items() if k != "hole"} == \
                {k: v for k, v in pub.items() if k != "hole"}
        text = json.dumps(broadcast)
        # never a finding's message, remedy or cards, the burns, or the monitor's expectation
        for finding in snap["findings"]:
            assert finding["message"] not in text
        for burn in BURNS:
            if all(burn not in s["hole"] for s in snap["seats"]) and burn not in \
                    snap["hand"]["board"]:
                assert burn not in text
        assert "expect" not in broadcast["hand"] and "devices" not in broadcast


def test_a_broadcast_built_from_the_public_view_is_the_same_and_leaves_it_unchanged() -> None:
    # the Publisher builds a state's /table payload once and the broadcast's from it
    for snap in short_hand():
        public = table_payload(snap)
        kept = copy.deepcopy(public)
        assert broadcast_payload(snap, 60, public) == broadcast_payload(snap, 60)
        assert public == kept


def test_the_broadcast_payload_fails_closed_like_the_others() -> None:
    assert broadcast_payload({})["seats"] == []
    odd = {"seats": [{"seat": 1, "hole": "As"}, {"seat": "x", "hole": ["Kd"]}, "junk"]}
    assert broadcast_payload(odd)["seats"][0]["hole"] == []
    with pytest.raises(TypeError):
        broadcast_payload(["not", "a", "dict"])  # type: ignore[arg-type]


# -- the delay line -------------------------------------------------------------------------


def test_each_item_comes_out_exactly_the_delay_after_it_went_in_in_order() -> None:
    clock, out = Clock(), []
    line = DelayLine[str](30.0, out.append, clock=clock)
    line.push("a")           # in at 100
    clock.now = 110.0
    line.push("b")           # in at 110
    line.push("c", at=110.5)
    assert line.next_due() == 130.0
    assert line.release(129.999) == 0 and out == []
    assert line.release(130.0) == 1 and out == ["a"]          # to the instant, not before
    assert line.release(140.4) == 1 and out == ["a", "b"]
    assert line.release(10_000.0) == 1 and out == ["a", "b", "c"]
    assert len(line) == 0 and line.next_due() is None


def test_the_delay_line_is_bounded_and_drops_only_the_oldest() -> None:
    clock, out = Clock(), []
    line = DelayLine[int](5.0, out.append, clock=clock, max_items=3)
    for i in range(5):
        line.push(i)
    assert len(line) == 3 and line.dropped == 2
    line.release(105.0)
    assert out == [2, 3, 4]


def test_a_failing_emit_is_counted_and_the_line_goes_on() -> None:
    clock, out = Clock(), []

    def emit(item: int) -> None:
        if item == 1:
            raise RuntimeError("a broken client")
        out.append(item)

    line = DelayLine[int](0.0, emit, clock=clock)
    for i in range(3):
        line.push(i)
    line.release(clock.now)
    assert out == [0, 2] and line.emit_errors == 1


def test_the_delay_line_refuses_a_negative_delay() -> None:
    with pytest.raises(ValueError, match="delay_s"):
        DelayLine[int](-1.0, print)
    with pytest.raises(ValueError, match="delay_s"):
        DelayLine[int](float("nan"), print)


def test_the_delay_lines_thread_releases_everything_in_order() -> None:
    got: queue.Queue[int] = queue.Queue()
    line = DelayLine[int](0.01, got.put)
    line.start()
    try:
        for i in range(50):
            line.push(i)
        assert [got.get(timeout=WAIT) for _ in range(50)] == list(range(50))
    finally:
        line.stop()


# -- the Publisher's fan-out ----------------------------------------------------------------


class Recorder:
    """Stands in for the live server's loop: records each emit, and keeps what the Publisher
    asks the loop to run until the test runs it (``run``), so that snapshots can queue up
    behind a loop that is busy (the fan-out falling behind)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.asked: list[tuple[Any, tuple[Any, ...]]] = []
        self.lock = threading.Lock()

    def call_soon(self, fn: Any, *args: Any) -> bool:
        with self.lock:
            self.asked.append((fn, args))
        return True

    def run(self) -> int:
        """Run what was asked of the loop, in order; how many."""
        with self.lock:
            asked, self.asked = self.asked, []
        for fn, args in asked:
            fn(*args)
        return len(asked)

    def emit(self, event: str, payload: dict[str, Any], namespace: str,
             to: str | None = None) -> None:
        self.sent.append((namespace, payload))

    def on(self, namespace: str) -> list[dict[str, Any]]:
        return [p for ns, p in self.sent if ns == namespace]


def test_a_publisher_behind_sends_the_dealer_every_state_and_the_table_the_latest() -> None:
    loop, clock = Recorder(), Clock()
    publisher = Publisher(loop, broadcast_delay_s=60, clock=clock)
    snaps = short_hand()
    publisher.publish(snaps[0])
    assert loop.run() == 1  # the first state goes out at once...
    for snap in snaps[1:]:
        publisher.publish(snap)  # ...the rest queue up while the loop is busy elsewhere
    assert not publisher.flush(0.01)  # nothing has taken them yet; publish returned at once
    assert loop.run() == 1  # one fan-out for the whole queue
    assert publisher.flush(WAIT)
    # the dealer: every state, in order
    assert loop.on(DEALER) == [dealer_payload(s) for s in snaps]
    # the table: a state view; skipped ahead, never an older state after a newer one, and the
    # final state last
    table_seqs = [p["last_seq"] for p in loop.on(TABLE)]
    assert table_seqs == sorted(set(table_seqs)) and len(table_seqs) == 2
    assert loop.on(TABLE)[-1] == table_payload(snaps[-1]) == publisher.latest(TABLE)
    assert publisher.coalesced == len(snaps) - len(table_seqs)
    # the broadcast: nothing yet (the clock has not moved), then every state, once due
    assert loop.on(BROADCAST) == []
    assert publisher.latest(BROADCAST)["last_seq"] is None  # "waiting for a hand"
    publisher.broadcast.release(clock.now + 60)
    assert loop.run() == len(snaps)  # the delay line hands each to the loop, in order
    assert loop.on(BROADCAST) == [broadcast_payload(s, 60) for s in snaps]
    assert publisher.latest(BROADCAST) == broadcast_payload(snaps[-1], 60)
    publisher.close()


def test_at_delay_0_the_broadcast_goes_out_with_the_live_views() -> None:
    loop = Recorder()
    publisher = Publisher(loop, broadcast_delay_s=0)
    snaps = short_hand()[:3]
    for snap in snaps:
        publisher.publish(snap)
    loop.run()
    assert loop.on(BROADCAST) == [broadcast_payload(s, 0) for s in snaps]
    assert len(publisher.broadcast) == 0  # no delay line in between


def test_the_broadcast_delay_counts_from_the_moment_of_publish() -> None:
    loop, clock = Recorder(), Clock()
    publisher = Publisher(loop, broadcast_delay_s=60, clock=clock)
    first, second = short_hand()[1:3]
    publisher.publish(first)   # at 100
    clock.now = 130.0
    publisher.publish(second)  # at 130
    loop.run()
    assert publisher.flush(WAIT)
    clock.now = 1000.0  # the line's own thread would release everything: release by hand first
    assert publisher.broadcast.release(159.9) == 0
    assert publisher.broadcast.release(160.0) == 1
    loop.run()
    assert loop.on(BROADCAST) == [broadcast_payload(first, 60)]
    assert publisher.broadcast.release(190.0) == 1
    loop.run()
    assert loop.on(BROADCAST)[-1]["last_seq"] == second["last_seq"]
    publisher.close()


# -- real clients ---------------------------------------------------------------------------


class Listener:
    def __init__(self, url: str, namespace: str) -> None:
        self.got: queue.Queue[dict[str, Any]] = queue.Queue()
        self.client = socketio.Client(reconnection=False)
        self.client.on("state", self.got.put, namespace=namespace)
        # polling, as most of tests/display/test_server.py's clients (WebSocket is tested there)
        self.client.connect(url, namespaces=[namespace], transports=["polling"],
                            wait_timeout=WAIT)

    def until(self, last_seq: int) -> list[dict[str, Any]]:
        """Every state up to ``last_seq`` and what is still on its way: the Python client runs
        each handler on a thread of its own, so two states that arrive together may swap (the
        order on the wire is proved with the Recorder above)."""
        got = [self.got.get(timeout=WAIT)]
        while got[-1]["last_seq"] != last_seq:
            got.append(self.got.get(timeout=WAIT))
        with contextlib.suppress(queue.Empty):
            while True:
                got.append(self.got.get(timeout=0.5))
        return got


def test_every_client_on_table_and_broadcast_gets_the_final_state() -> None:
    app, live, publisher = create_app(dealer_token="t", broadcast_delay_s=0.2)
    handle = run_server(app, live, "127.0.0.1", 0)
    snaps = short_hand()
    final = snaps[-1]["last_seq"]
    tables = [Listener(handle.url, TABLE) for _ in range(4)]
    broadcast = Listener(handle.url, BROADCAST)
    try:
        assert broadcast.got.get(timeout=WAIT)["last_seq"] is None  # waiting: nothing old enough
        t = threading.Thread(target=lambda: [publisher.publish(s) for s in snaps])
        t.start()
        t.join(WAIT)
        by_seq = {s["last_seq"]: s for s in snaps}
        for listener in tables:
            got = [p for p in listener.until(final) if p["last_seq"] is not None]
            seqs = [p["last_seq"] for p in got]
            assert len(seqs) == len(set(seqs)) and final in seqs  # never twice; the final one
            assert all(p == table_payload(by_seq[p["last_seq"]]) for p in got)
        got = broadcast.until(final)
        # every state, once, each with every hole card
        assert sorted(p["last_seq"] for p in got) == [s["last_seq"] for s in snaps]
        dealt = max(got, key=lambda p: p["last_seq"])["seats"]
        assert {s["seat"]: s["hole"] for s in dealt} == HOLE
    finally:
        for listener in [*tables, broadcast]:
            listener.client.disconnect()
        handle.stop()
