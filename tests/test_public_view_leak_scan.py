"""Security: whole simulated sessions, scanned for hole-card leaks on the public namespaces.

`/table` never carries a hole card before it is tabled. `/broadcast` carries every hole card,
and everything it sends comes only after the secure delay: a session with a short delay records
each payload of both namespaces with its arrival time and holds each to the moment its
snapshot was published and the moment each card it names was dealt
(`test_the_broadcast_is_delayed_as_a_whole_in_a_simulated_session`).

The simulated table deals hands (mistakes on) through the real driver path and publishes every
snapshot through the real display server. A public Socket.IO client records every payload it
receives; each is checked against the snapshot it was built from: no hole card of a seat that is
not tabled at a showdown may appear anywhere in it (DESIGN.md, Security).

For stud and draw games the truth is how the simulated dealer laid each card on the felt, not
the snapshot's own `up` lists: a card it dealt face up into a seat (a stud upcard, an exposed
card) may be public, every other card held by a seat not tabled may not. Some hands are dealt
with a chosen mistake, among them a stud down card exposed on the deal, after which that seat's
third card comes face down (roberts-rules-v11.txt, Section 8, r.1): the exposed card lies face up
and is public, the third card must stay hidden. The public view trusts the snapshot's `up` (the
core builds it from each card's face), and this scan checks that trust against the dealer.
"""

from __future__ import annotations

import contextlib
import json
import queue
import re
import threading
import time
from collections.abc import Mapping
from typing import Any

import socketio

from controller.events import CardExposed, HandStart
from controller.poker.odds import spot_of
from controller.processes.sim import SimOptions, simulated_table
from controller.sim.dealer import CardMove

Snapshot = dict[str, Any]


def _session(
    opts: SimOptions, mistakes: Mapping[int, str] | None = None
) -> tuple[dict[int, Snapshot], list[dict[str, Any]], list[set[str]], list[str]]:
    """Run a simulated table; return its snapshots by seq, the payloads a public client got, the
    cards dealt face up into a seat in each hand (index: hand number - 1) and the mistakes made.
    ``mistakes`` forces a mistake kind on some hands (1-based)."""
    snapshots: dict[int, Snapshot] = {}
    lock = threading.Lock()

    def keep(snap: Any) -> None:
        with lock:
            snapshots[int(snap["last_seq"])] = json.loads(json.dumps(snap))

    opts.extra_outputs.append(keep)
    face_up: list[set[str]] = []
    made: list[str] = []
    got: queue.Queue[dict[str, Any]] = queue.Queue()
    with simulated_table(opts) as table:
        dealer = table.dealer
        deal = dealer.next_hand
        dealt = 0

        def next_hand() -> list[Any]:
            # Record which cards the dealer lays face up in a seat, hand by hand.
            nonlocal dealt
            dealt += 1
            kind = (mistakes or {}).get(dealt)
            steps = deal(kind) if kind else deal()
            made.extend(m.kind for m in dealer.truth)  # cleared once the hand is played
            tags = getattr(dealer, "tags", {})
            for step in steps:
                if isinstance(step, HandStart):
                    face_up.append(set())
                elif (isinstance(step, CardMove) and step.face_up and step.zone.startswith("seat:")
                      and face_up):
                    face_up[-1].add(tags.get(step.uid, step.uid))
                elif isinstance(step, CardExposed) and step.by == "dealer" and face_up:
                    # the dealer's exposed key: the card lies face up for everyone now (a stud
                    # down card turned up, the seventh-street card)
                    face_up[-1].add(tags.get(step.uid, step.uid))
            return steps

        dealer.next_hand = next_hand  # type: ignore[method-assign, assignment]
        client = socketio.Client(reconnection=False)
        client.on("state", got.put, namespace="/table")
        client.connect(table.server.url, namespaces=["/table"], transports=["websocket"],
                       wait_timeout=10)
        try:
            table.run()
            last = table.daemon.seq
            payloads = []
            while True:
                p = got.get(timeout=10)
                payloads.append(p)
                if p.get("last_seq") == last:
                    break
        finally:
            client.disconnect()
    return snapshots, payloads, face_up, made


def _leaks(text: str, cards: set[str]) -> list[str]:
    return sorted(c for c in cards if re.search(rf"(?<![A-Za-z0-9]){c}(?![A-Za-z0-9])", text))


def test_no_hole_card_reaches_the_public_namespace_in_a_simulated_session() -> None:
    opts = SimOptions(hands=10, mistake_rate=0.3, seed=77, pace=0, web=True, port=0,
                      leds=False)
    snapshots, payloads, _, _ = _session(opts)

    def hidden(snap: Snapshot) -> set[str]:
        tabled = set(snap["hand"]["showdown"])
        return {c for s in snap["seats"] if s["seat"] not in tabled for c in s.get("hole") or []}

    scanned: set[int] = set()  # the hands of the payloads scanned with hole cards to hide
    for payload in payloads:
        seq = payload.get("last_seq")
        if seq is None:
            continue  # the greeting before the first event
        text = json.dumps(payload)
        for card in hidden(snapshots[seq]):
            assert not re.search(rf"\b{card}\b", text), f"{card} leaked at seq {seq}"
            scanned.add(snapshots[seq]["hand"]["number"])
    # every payload /table sent in ten hands, scanned. /table skips to the latest state when the
    # fan-out is behind (the simulator deals at full speed), so how many it sends is the
    # machine's (of 629 states: about 540 idle, 252 to 281 with four CPU hogs on 2 cores); the
    # scan must still have met hole cards to hide in most hands that dealt any (all of them in
    # those runs)
    dealt = {snap["hand"]["number"] for snap in snapshots.values() if hidden(snap)}
    assert len(dealt) >= 8 and 2 * len(scanned) >= len(dealt), (sorted(scanned), sorted(dealt))
    assert payloads[-1]["last_seq"] == max(snapshots)
    assert any(snap["hand"]["showdown"] for snap in snapshots.values())


def _scan_family_session(game: str, mistakes: Mapping[int, str], seed: int) -> dict[str, Any]:
    """Deal ten hands of `game` and scan every public payload against the dealer's truth."""
    opts = SimOptions(hands=10, mistake_rate=0.3, seed=seed, pace=0, web=True, port=0,
                      leds=False, game=game, seats=5)
    snapshots, payloads, face_up, made = _session(opts, mistakes)
    assert len(face_up) == max(s["hand"]["number"] for s in snapshots.values())
    scanned, named_up, draws = 0, 0, 0
    exposed_named: set[str] = set()  # exposed stud down cards the public view shows face up
    for payload in payloads:
        seq = payload.get("last_seq")
        if seq is None:
            continue
        snap = snapshots[seq]
        number = snap["hand"]["number"]
        up = face_up[number - 1] if number else set()
        tabled = set(snap["hand"]["showdown"])
        hidden = {c for s in snap["seats"] if s["seat"] not in tabled for c in s.get("hole") or []}
        hidden |= set(snap["hand"]["board"])  # no board in stud or draw
        hidden -= up
        leaked = _leaks(json.dumps(payload), hidden)
        assert leaked == [], f"{game}: {leaked} leaked at seq {seq}"
        assert payload["hand"]["board"] == []
        named_up += sum(len(s["up"]) for s in payload["seats"])
        exposed = {c for f in snap["findings"] if f["code"] == "STUD_ONE_HOLECARD_EXPOSED"
                   for c in f["cards"]}
        exposed_named |= exposed & {c for s in payload["seats"] for c in s["up"]}
        draws += sum(len(s["drawn"]) for s in payload["seats"])
        scanned += 1
    assert scanned > 300
    return {"made": made, "named_up": named_up, "draws": draws, "exposed_named": exposed_named,
            "showdowns": sum(bool(s["hand"]["showdown"]) for s in snapshots.values())}


def test_no_down_card_reaches_the_public_namespace_in_a_simulated_stud_session() -> None:
    seen = _scan_family_session(
        "stud", {2: "stud_downcard_exposed", 4: "stud_final_card_faceup"}, seed=7
    )
    assert "stud_downcard_exposed" in seen["made"]
    # the exposed down card lies face up and is shown so; the card dealt down after it was
    # scanned above like every other down card
    assert seen["exposed_named"]
    assert seen["named_up"] > 0 and seen["draws"] == 0  # upcards are public; no draws in stud
    assert seen["showdowns"] > 0


def test_no_hole_card_reaches_the_public_namespace_in_a_simulated_draw_session() -> None:
    seen = _scan_family_session(
        "27_triple", {2: "draw_predraw_exposed", 3: "draw_exposed_on_draw"}, seed=7
    )
    assert {"draw_predraw_exposed", "draw_exposed_on_draw"} <= set(seen["made"])
    assert seen["draws"] > 0 and seen["named_up"] == 0  # draw counts are public; no upcards
    assert seen["showdowns"] > 0


BROADCAST_DELAY_S = 2.0


def _timed_session(opts: SimOptions) -> tuple[dict[int, float], dict[int, Snapshot],
                                               dict[str, list[tuple[float, dict[str, Any]]]]]:
    """Run a simulated table with public clients on /table and /broadcast; return when each
    snapshot was published (by seq: the moment the daemon called the Publisher's ``publish``
    with it), the snapshots, and every payload each namespace got with its arrival time
    (``time.monotonic``, one clock)."""
    published: dict[int, float] = {}
    snapshots: dict[int, Snapshot] = {}
    got: dict[str, queue.Queue[tuple[float, dict[str, Any]]]] = {
        "/table": queue.Queue(), "/broadcast": queue.Queue()}

    with simulated_table(opts) as table:
        publish = table.publisher.publish
        outputs = table.daemon.outputs

        def stamped(snap: Any) -> None:
            published[int(snap["last_seq"])] = time.monotonic()  # then publish stamps its own
            publish(snap)
            snapshots[int(snap["last_seq"])] = json.loads(json.dumps(snap))

        outputs[outputs.index(publish)] = stamped
        clients = []
        for namespace, box in got.items():
            client = socketio.Client(reconnection=False)
            client.on("state", lambda p, box=box: box.put((time.monotonic(), p)),
                      namespace=namespace)
            client.connect(table.server.url, namespaces=[namespace], transports=["websocket"],
                           wait_timeout=10)
            clients.append(client)
        received: dict[str, list[tuple[float, dict[str, Any]]]] = {n: [] for n in got}
        try:
            table.run()
            last = table.daemon.seq
            for namespace, box in got.items():
                while not received[namespace] or received[namespace][-1][1]["last_seq"] != last:
                    received[namespace].append(box.get(timeout=BROADCAST_DELAY_S + 10))
                # the Python client runs each handler on a thread of its own, so the last state
                # may overtake the one before it: take what is still on its way
                with contextlib.suppress(queue.Empty):
                    while True:
                        received[namespace].append(box.get(timeout=0.5))
        finally:
            for client in clients:
                client.disconnect()
    return published, snapshots, received


def test_the_broadcast_is_delayed_as_a_whole_in_a_simulated_session() -> None:
    # a table's pace (a few ms a move: hundreds of states a second, still far beyond a real
    # dealer's), not a flood the loaded test machine itself would fall behind on
    opts = SimOptions(hands=12, mistake_rate=0.3, seed=5, pace=0.008, web=True, port=0,
                      leds=False, broadcast_delay_s=BROADCAST_DELAY_S, odds=True)
    published, snapshots, received = _timed_session(opts)
    # when each card was dealt in each hand: the first snapshot that has it in a seat's hand
    dealt: dict[tuple[int, str], float] = {}
    for seq in sorted(snapshots):
        snap = snapshots[seq]
        for seat in snap["seats"]:
            for card in seat.get("hole") or []:
                dealt.setdefault((snap["hand"]["number"], card), published[seq])

    # /table: no hole card of a seat that has not tabled it, ever
    for _, payload in received["/table"]:
        seq = payload["last_seq"]
        if seq is None:
            continue
        snap = snapshots[seq]
        tabled = set(snap["hand"]["showdown"])
        hidden = {c for s in snap["seats"] if s["seat"] not in tabled for c in s.get("hole") or []}
        text = json.dumps(payload)
        assert _leaks(text, hidden) == [], f"/table leaked at seq {seq}"
        # nor the odds, which would tell the room who holds what (issue 30)
        for word in ('"equity"', '"labels"', '"outs"'):
            assert word not in text, f"/table carried {word} at seq {seq}"

    late: list[float] = []
    odds = 0
    first: dict[int, dict[str, Any]] = {}
    holes = 0
    seqs = []
    for arrived, payload in received["/broadcast"]:
        seq = payload["last_seq"]
        if seq is None:
            assert payload["seats"] == []  # the waiting state: no table, no card
            continue
        if seq in first:
            # a state on air sent again: only because a better figure of its odds arrived
            assert {k: v for k, v in payload.items() if k != "equity"} == \
                {k: v for k, v in first[seq].items() if k != "equity"}, f"seq {seq} twice"
            assert payload["equity"] and payload["equity"] != first[seq]["equity"]
        else:
            first[seq] = payload
            seqs.append(seq)
        if payload.get("equity"):
            # the odds of this state's own live hands, never of a later one
            odds += 1
            spot = spot_of(snapshots[seq])
            assert spot is not None
            assert [row["seat"] for row in payload["equity"]["seats"]] == list(spot.seats)
        # nothing at all before the delay after its snapshot was published
        assert arrived >= published[seq] + BROADCAST_DELAY_S, f"seq {seq} came early"
        late.append(arrived - published[seq] - BROADCAST_DELAY_S)
        # and no card before the delay after it was dealt
        number = payload["hand"]["number"]
        for seat in payload["seats"]:
            for card in seat["hole"]:
                holes += 1
                assert arrived >= dealt[(number, card)] + BROADCAST_DELAY_S, \
                    f"{card} (hand {number}) reached /broadcast early at seq {seq}"
    # every state, once: the broadcast replays the table, it does not skip (the order on the
    # wire is the delay line's, tests/display/test_broadcast.py; this client's handler threads
    # may swap two states that arrive together)
    assert sorted(seqs) == sorted(snapshots)
    assert holes > 1000 and len(seqs) > 500
    # the odds worker runs at the lowest CPU priority: on a busy machine it values few states
    # in the session's seconds, so the scan asks for some, each checked above, not a number
    assert odds >= 1, "no broadcast state carried its odds"
    print(f"leak scan: {len(received['/table'])} /table payloads without odds, {odds} /broadcast "
          f"states with their own odds, {len(seqs)} states")
    # honoured to the second: the states arrive within a second of their due time (a few ms
    # late at the median on a quiet machine: the fan-out and the Python client's dispatch, a
    # thread per message). The median, not a high percentile: on a loaded CI machine this
    # client's own threads fall behind for a second or two now and then (a p90 of 1.5 s with a
    # median of 4 ms in one whole-suite run), which says nothing of the server. The delay
    # line's own precision is tested on a controlled clock (tests/display/test_broadcast.py);
    # early is never allowed (above).
    late.sort()
    median, p90 = late[len(late) // 2], late[len(late) * 9 // 10]
    assert median < 0.5 and late[-1] < 5.0, \
        f"states came up to {late[-1]:.3f} s after their due time (median {median:.3f}, " \
        f"p90 {p90:.3f})"
