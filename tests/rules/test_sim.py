"""The simulated dealer against the rules core: each mistake raises exactly its code(s); the
dealer follows every remedy it can and plays the hand on."""

from __future__ import annotations

import random

import pytest

from controller.events import Event, HandEnd, MisdealDeclared, ShoeDraw, ZoneLeave, ZoneRead
from controller.rules import apply, initial_state
from controller.sim import MISTAKES, CardMove, SimDealer, expand
from controller.sim.dealer import FOLLOWED


def _play(dealer: SimDealer, state, seq: int, kind: str | None):
    found = []
    steps = dealer.next_hand(kind)
    for step in steps:
        for body in expand(step):
            seq += 1
            result = apply(state, Event(seq, 0, body))
            state = result.state
            found += result.findings
    return state, seq, found, steps


def _truth(dealer: SimDealer) -> list[tuple[str, tuple[int, ...], tuple[str, ...]]]:
    return sorted((m.expected_code, m.seats, m.cards) for m in dealer.truth
                  if m.hand == dealer.hand)


@pytest.mark.parametrize("kind", sorted(MISTAKES))
def test_each_mistake_raises_exactly_its_code(kind: str):
    dealer = SimDealer(random.Random(sorted(MISTAKES).index(kind)), mistake_rate=0.0)
    state, seq = initial_state(), 0
    for _ in range(4):
        state, seq, found, steps = _play(dealer, state, seq, kind)
        truth = [m for m in dealer.truth if m.hand == dealer.hand]
        assert truth and all(m.kind == kind for m in truth)
        assert sorted((f.code, f.seats, f.cards) for f in found) == _truth(dealer)
        if any(f.code not in FOLLOWED for f in found):
            assert isinstance(steps[-1], MisdealDeclared)  # the floor stops the hand
        else:
            assert isinstance(steps[-1], HandEnd)  # the remedy followed, the hand played out
        state, seq, found, _ = _play(dealer, state, seq, None)  # the next hand is clean
        assert found == []


def test_a_botched_remedy_holds_both_findings_in_the_truth():
    dealer = SimDealer(random.Random(5))
    state, seq = initial_state(), 0
    state, seq, found, _ = _play(dealer, state, seq, "premature_turn_river_burned")
    assert [f.code for f in found] == ["TURN_PREMATURE", "REMEDY_NOT_FOLLOWED"]
    assert [m.expected_code for m in dealer.truth] == ["TURN_PREMATURE", "REMEDY_NOT_FOLLOWED"]


def test_two_independent_mistakes_in_one_hand():
    dealer = SimDealer(random.Random(6))
    state, seq = initial_state(), 0
    state, seq, found, steps = _play(dealer, state, seq, "exposed_card_then_premature_turn")
    assert [f.code for f in found] == ["HOLECARD_EXPOSED_SINGLE_REPLACE", "TURN_PREMATURE"]
    assert isinstance(steps[-1], HandEnd)


def test_mistake_rate_and_truth():
    dealer = SimDealer(random.Random(3), mistake_rate=0.5)
    state, seq = initial_state(), 0
    for _ in range(40):
        before = len(dealer.truth)
        state, seq, found, _ = _play(dealer, state, seq, None)
        if len(dealer.truth) == before:
            assert found == []
        else:
            assert sorted((f.code, f.seats, f.cards) for f in found) == _truth(dealer)
    assert 5 < len(dealer.truth) < 45


def test_expand_matches_the_reader_path():
    assert expand(CardMove("A1", True, "seat:3", True)) == [ShoeDraw("A1", True),
                                                            ZoneRead("A1", "seat:3")]
    assert expand(CardMove("A1", False, "muck", False, "seat:3")) == [ZoneLeave("A1", "seat:3"),
                                                                      ZoneRead("A1", "muck")]


def test_unknown_mistake_kind_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown mistake kind"):
        SimDealer(random.Random(1)).next_hand("nope")
