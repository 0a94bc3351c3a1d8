"""The simulated dealer against the rules core: each mistake raises exactly its code."""

from __future__ import annotations

import random

import pytest

from controller.events import Event, MisdealDeclared, ShoeDraw, ZoneLeave, ZoneRead
from controller.rules import apply, initial_state
from controller.sim import MISTAKES, CardMove, SimDealer, expand


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


@pytest.mark.parametrize("kind", sorted(MISTAKES))
def test_each_mistake_raises_exactly_its_code(kind: str):
    dealer = SimDealer(random.Random(sorted(MISTAKES).index(kind)), mistake_rate=0.0)
    state, seq = initial_state(), 0
    for _ in range(4):
        state, seq, found, steps = _play(dealer, state, seq, kind)
        truth = dealer.truth[-1]
        assert truth.hand == dealer.hand and truth.kind == kind
        assert [(f.code, f.seats, f.cards) for f in found] == [
            (truth.expected_code, truth.seats, truth.cards)]
        assert isinstance(steps[-1], MisdealDeclared)  # the floor stops the hand
        state, seq, found, _ = _play(dealer, state, seq, None)  # the next hand is clean
        assert found == []


def test_mistake_rate_and_truth():
    dealer = SimDealer(random.Random(3), mistake_rate=0.5)
    state, seq = initial_state(), 0
    for _ in range(40):
        before = len(dealer.truth)
        state, seq, found, _ = _play(dealer, state, seq, None)
        if len(dealer.truth) == before:
            assert found == []
        else:
            assert [f.code for f in found] == [dealer.truth[-1].expected_code]
    assert 5 < len(dealer.truth) < 35


def test_expand_matches_the_reader_path():
    assert expand(CardMove("A1", True, "seat:3", True)) == [ShoeDraw("A1", True),
                                                            ZoneRead("A1", "seat:3")]
    assert expand(CardMove("A1", False, "muck", False, "seat:3")) == [ZoneLeave("A1", "seat:3"),
                                                                      ZoneRead("A1", "muck")]


def test_unknown_mistake_kind_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown mistake kind"):
        SimDealer(random.Random(1)).next_hand("nope")
