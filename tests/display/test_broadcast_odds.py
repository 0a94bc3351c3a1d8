"""The broadcast's odds through the Publisher: each state's spot is asked of the odds as it is
fanned out; the figure rides only on `/broadcast` (never `/table` or `/dealer`), attached when
the delayed state goes on air, and the state on air is sent again when a better figure of it
arrives. Then the real worker process (controller/daemon/odds_worker.py) behind a real server
and a real Socket.IO client."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
import socketio

from controller.daemon.odds_worker import OddsWorker
from controller.poker.odds import Spot, figure, spot_of
from display.server import BROADCAST, DEALER, TABLE, Publisher, create_app, run_server
from tests.display.snapshots import HOLE, short_hand
from tests.display.test_broadcast import Clock, Recorder

WAIT = 30.0


class HandOdds:
    """The odds as the Publisher sees them, valued by hand: ``value`` makes a spot's figure
    arrive when the test says (the worker's reader thread would call the listeners)."""

    def __init__(self) -> None:
        self.asked: list[Any] = []
        self.figures: dict[Any, dict[str, Any]] = {}
        self.listeners: list[Callable[[Any], None]] = []
        self.closed = False

    def request(self, snapshot: Mapping[str, Any]) -> Spot | None:
        spot = spot_of(snapshot)
        if spot is not None:
            self.asked.append(spot)
        return spot

    def figure(self, spot: Any) -> dict[str, Any] | None:
        return self.figures.get(spot)

    def subscribe(self, listener: Callable[[Any], None]) -> None:
        self.listeners.append(listener)

    def close(self) -> None:
        self.closed = True

    def value(self, spot: Spot, *, first: bool) -> dict[str, Any]:
        self.figures[spot] = figure(spot, first=first)[0]
        for listener in self.listeners:
            listener(spot)
        return self.figures[spot]


def _dealt_states() -> list[dict[str, Any]]:
    return [s for s in short_hand() if spot_of(s) is not None]


def test_the_spot_of_a_snapshot_is_its_live_hands_board_and_dead_cards() -> None:
    states = _dealt_states()
    assert states, "the short hand has states with two live hands"
    for snap in states:
        spot = spot_of(snap)
        assert spot is not None and spot.game == "nlhe"
        live = [s for s in snap["seats"] if s["in_hand"] and not s["folded"] and s["hole"]]
        assert spot.seats == tuple(s["seat"] for s in live)
        assert spot.hands == tuple(tuple(HOLE[s["seat"]]) for s in live)
        assert spot.board == tuple(snap["hand"]["board"])
        folded = {c for s in snap["seats"] if s["folded"] for c in s["hole"]}
        assert folded <= set(spot.dead)
    # a flop half turned is no spot (the next state has all of it); nor is an idle table
    half = json.loads(json.dumps(states[-1]))
    half["hand"]["board"] = half["hand"]["board"][:4]
    assert spot_of(half) is not None  # the turn
    half["hand"]["board"] = half["hand"]["board"][:2]
    assert spot_of(half) is None
    assert spot_of({}) is None and spot_of({"table": {"game": "nlhe"}, "hand": {}}) is None


def test_burns_and_the_muck_are_dead_cards_burns_only_where_the_house_says() -> None:
    snap = json.loads(json.dumps(_dealt_states()[-1]))
    snap["hand"]["muck"] = ["2d"]
    snap["hand"]["burned"] = ["5s", "6d"]
    assert set(spot_of(snap).dead) >= {"2d"}  # type: ignore[union-attr]
    assert not {"5s", "6d"} & set(spot_of(snap).dead)  # type: ignore[union-attr]
    assert {"2d", "5s", "6d"} <= set(spot_of(snap, burns_known=True).dead)  # type: ignore[union-attr]


def test_the_odds_ride_only_the_broadcast_and_only_once_it_is_due() -> None:
    loop, clock, odds = Recorder(), Clock(), HandOdds()
    publisher = Publisher(loop, broadcast_delay_s=60, clock=clock, odds=odds)
    states = _dealt_states()
    for snap in states:
        publisher.publish(snap)
        loop.run()
    assert publisher.flush(WAIT)
    assert odds.asked == [spot_of(s) for s in states]
    # figures arrive long before the delay is over: nothing goes on air for them
    for spot in dict.fromkeys(odds.asked):
        odds.value(spot, first=True)
    loop.run()
    assert loop.on(BROADCAST) == []
    publisher.broadcast.release(clock.now + 60)
    loop.run()
    on_air = loop.on(BROADCAST)
    assert [p["last_seq"] for p in on_air] == [s["last_seq"] for s in states]
    for payload, snap in zip(on_air, states, strict=True):
        got = payload["equity"]
        assert got == odds.figures[spot_of(snap)]
        assert [row["seat"] for row in got["seats"]] == list(spot_of(snap).seats)  # type: ignore[union-attr]
        assert abs(sum(row["equity"] for row in got["seats"]) - 1.0) < 1e-9
    # never on the live views, not even a key
    for namespace in (TABLE, DEALER):
        assert loop.on(namespace) and all("equity" not in p for p in loop.on(namespace))
    publisher.close()
    assert odds.closed


def test_a_figure_that_arrives_after_its_state_went_on_air_is_sent_with_it_again() -> None:
    loop, odds = Recorder(), HandOdds()
    publisher = Publisher(loop, broadcast_delay_s=0, odds=odds)
    first, second = _dealt_states()[0], _dealt_states()[-1]
    publisher.publish(first)
    loop.run()
    assert loop.on(BROADCAST)[-1]["equity"] is None  # on air before its figure: "computing"
    odds.value(spot_of(first), first=True)  # type: ignore[arg-type]
    loop.run()
    again = loop.on(BROADCAST)[-1]
    assert again["last_seq"] == first["last_seq"] and again["equity"] is not None
    sent = len(loop.on(BROADCAST))
    publisher.publish(second)
    loop.run()
    # a late figure of a state no longer on air changes nothing on air
    odds.figures.pop(spot_of(first))  # type: ignore[arg-type]
    odds.value(spot_of(first), first=False)  # type: ignore[arg-type]
    loop.run()
    assert len(loop.on(BROADCAST)) == sent + 1
    assert loop.on(BROADCAST)[-1]["last_seq"] == second["last_seq"]
    # the same figure again is not sent again
    odds.value(spot_of(second), first=True)  # type: ignore[arg-type]
    loop.run()
    n = len(loop.on(BROADCAST))
    odds.value(spot_of(second), first=True)  # type: ignore[arg-type]
    loop.run()
    assert len(loop.on(BROADCAST)) == n
    assert all("equity" not in p for p in loop.on(TABLE) + loop.on(DEALER))
    publisher.close()


def test_a_failing_odds_source_never_stops_the_views() -> None:
    class Broken(HandOdds):
        def request(self, snapshot: Mapping[str, Any]) -> Spot | None:
            raise RuntimeError("no odds today")

    loop = Recorder()
    publisher = Publisher(loop, broadcast_delay_s=0, odds=Broken())
    for snap in _dealt_states():
        publisher.publish(snap)
        loop.run()
    assert [p["last_seq"] for p in loop.on(BROADCAST)] == [
        s["last_seq"] for s in _dealt_states()]
    assert all(p["equity"] is None for p in loop.on(BROADCAST))
    assert publisher.emit_errors == 0
    publisher.close()


def test_the_worker_process_values_states_behind_a_real_server() -> None:
    """The real worker, a real server and a real client on /broadcast and /table: every dealt
    state reaches the broadcast with its figure (sent again once valued); /table never has one."""
    odds = OddsWorker().start()
    app, live, publisher = create_app(dealer_token="t", broadcast_delay_s=0, odds=odds)
    handle = run_server(app, live, "127.0.0.1", 0)
    got: dict[str, queue.Queue[dict[str, Any]]] = {TABLE: queue.Queue(), BROADCAST: queue.Queue()}
    client = socketio.Client(reconnection=False)
    for ns, q in got.items():
        client.on("state", q.put, namespace=ns)
    try:
        client.connect(handle.url, namespaces=list(got), transports=["websocket"],
                       wait_timeout=10)
        states = _dealt_states()
        for snap in states:
            threading.Thread(target=publisher.publish, args=(snap,)).start()
            publisher.flush(WAIT)
        want = {s["last_seq"]: spot_of(s) for s in states}
        last = states[-1]["last_seq"]
        valued: dict[int, dict[str, Any]] = {}
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline and last not in valued:
            try:
                p = got[BROADCAST].get(timeout=1)
            except queue.Empty:
                continue
            if p.get("equity"):
                valued[p["last_seq"]] = p["equity"]
        assert last in valued, "the last state never went on air with its figure"
        expected = figure(want[last], first=True)[0]  # type: ignore[arg-type]
        assert valued[last]["seats"] == expected["seats"]
        assert valued[last]["method"] == "exact" and valued[last]["shown"]
        tables = []
        while not got[TABLE].empty():
            tables.append(got[TABLE].get())
        assert tables and all("equity" not in p for p in tables)
    finally:
        client.disconnect()
        handle.stop()
        publisher.close()
    assert odds.valued >= 1


def test_the_odds_are_on_unless_the_config_says_so() -> None:
    from controller.config import ConfigError, from_mapping

    assert from_mapping({}).broadcast_odds is True
    assert from_mapping({}).broadcast_odds_burns is False
    got = from_mapping({"broadcast": {"odds": False, "odds_burns": True}})
    assert got.broadcast_odds is False and got.broadcast_odds_burns is True
    with pytest.raises(ConfigError, match=r"^broadcast\.odds: must be bool, got 'on'$"):
        from_mapping({"broadcast": {"odds": "on"}})
    with pytest.raises(ConfigError, match=r"^broadcast\.odds_burns: must be bool, got 1$"):
        from_mapping({"broadcast": {"odds_burns": 1}})


def test_feltguard_sim_has_odds_unless_told(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    import controller.processes.sim as sim
    from controller.cli.main import build_parser

    got: list[Any] = []
    monkeypatch.setattr(sim, "run_simulation", lambda opts: got.append(opts) or 0)
    for argv, odds in ((["sim", "--no-web"], True), (["sim", "--no-web", "--no-odds"], False)):
        args = build_parser().parse_args([*argv, "--journal", str(tmp_path / "j.sqlite")])
        assert args.func(args) == 0
        assert got.pop().odds is odds


def test_closing_stops_the_worker_even_in_the_middle_of_a_figure() -> None:
    """A table's stop never waits on the odds: the child, busy with a fine figure, is gone."""
    worker = OddsWorker().start()
    snap = {"table": {"game": "omaha8"}, "hand": {"phase": "preflop", "board": [], "muck": []},
            "seats": [{"seat": 1, "in_hand": True, "folded": False,
                       "hole": ["Ah", "2h", "3c", "Kd"]},
                      {"seat": 2, "in_hand": True, "folded": False,
                       "hole": ["Ks", "Kc", "Qd", "Jd"]},
                      {"seat": 3, "in_hand": True, "folded": False,
                       "hole": ["9s", "8s", "7d", "6d"]}]}
    assert worker.request(snap) is not None
    time.sleep(0.3)
    worker.close()
    assert not worker._proc.is_alive() and not worker._reader.is_alive()
    worker.close()  # twice is harmless
