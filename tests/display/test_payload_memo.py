"""The payloads built with a memo (display/payloads.py ``PayloadMemo``) from the core's
incremental snapshots are the payloads built without one, key for key, at every event of
simulated hands of every game with the dealer's mistakes: the public view leaks no more and no
less through a reused part. And a part whose snapshot part did not change is reused."""

from __future__ import annotations

import random

from controller.events import Event
from controller.rules import ViewMemo, apply, initial_state, snapshot
from controller.sim import SimDealer, expand
from display.payloads import PayloadMemo, broadcast_payload, dealer_payload, table_payload


def _snapshots(seed: int, hands: int) -> list[dict]:  # type: ignore[type-arg]
    dealer = SimDealer(random.Random(seed), mistake_rate=0.2, seat_changes=0.05,
                       redraw_returned=True, game="dealers_choice")
    view, state, seq, out = ViewMemo(), initial_state(), 0, []
    for _ in range(hands):
        for step in dealer.next_hand():
            for body in expand(step):
                seq += 1
                state = apply(state, Event(seq, 0, body)).state
                out.append(snapshot(state, view))
        dealer.truth.clear()
    return out


def test_payloads_with_a_memo_are_the_payloads_without() -> None:
    memo = PayloadMemo()
    families, reused = set(), 0
    last = None
    for snap in _snapshots(4, 30):
        table = table_payload(snap, memo)
        assert table == table_payload(snap)
        dealer = dealer_payload(snap, memo)
        assert dealer == dealer_payload(snap)
        assert broadcast_payload(snap, 0.0, table) == broadcast_payload(snap, 0.0)
        families.add(table["table"]["family"])
        if last is not None:
            reused += sum(a is b for a, b in zip(last["seats"], table["seats"], strict=False))
        last = table
    assert {"board", "stud", "draw"} <= families
    assert reused > 100  # unchanged seats were not built again


def test_a_memo_handed_unrelated_snapshots_still_builds_each_right() -> None:
    memo = PayloadMemo()
    one, two = _snapshots(1, 3), _snapshots(2, 3)
    rng = random.Random(0)
    for _ in range(300):
        snap = rng.choice(one if rng.random() < 0.5 else two)
        assert table_payload(snap, memo) == table_payload(snap)
        assert dealer_payload(snap, memo) == dealer_payload(snap)
