"""The incremental snapshot (controller/rules/table/view.py, ``ViewMemo``): built from the last
snapshot where the state did not change, it is the same snapshot as a whole one, field by field,
at every state of every recorded scenario and of simulated hands of every game with the dealer's
mistakes; whatever order the states come in (a memo handed states of two tables in turn, or a
state and then its undo); and what did not change is the previous snapshot's own object."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.events import Event, read_scenario
from controller.rules import TableState, ViewMemo, apply, initial_state, snapshot
from controller.sim import SimDealer, expand
from tests.rules.test_checkpoint_text import STREAMS
from tests.sizes import sizes


@pytest.mark.parametrize("path", STREAMS, ids=[p.stem for p in STREAMS])
def test_every_state_of_every_scenario(path: Path) -> None:
    memo, state = ViewMemo(), initial_state()
    assert snapshot(state, memo) == snapshot(state)
    for event in read_scenario(path):
        state = apply(state, event).state
        assert snapshot(state, memo) == snapshot(state), f"{path.name} seq {event.seq}"


def _dealt(seed: int, hands: int) -> list[TableState]:
    """Every state of ``hands`` hands of dealer's choice (every family), mistakes and seat
    changes on, as the daemon applies them."""
    dealer = SimDealer(random.Random(seed), mistake_rate=0.2, seat_changes=0.05,
                       redraw_returned=True, game="dealers_choice")
    state, seq, out = initial_state(), 0, []
    for _ in range(hands):
        for step in dealer.next_hand():
            for body in expand(step):
                seq += 1
                state = apply(state, Event(seq, 0, body)).state
                out.append(state)
        dealer.truth.clear()
    return out


@pytest.mark.parametrize("hands", sizes(slice_=40, full=400))
def test_simulated_hands_of_every_game_with_mistakes(hands: int) -> None:
    memo = ViewMemo()
    states = _dealt(11, hands)
    games = set()
    for state in states:
        built = snapshot(state, memo)
        assert built == snapshot(state), f"seq {state.last_seq}"
        games.add(built["table"]["family"])
    assert {"board", "stud", "draw"} <= games


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 10_000)), min_size=1, max_size=40))
def test_any_order_of_states_from_two_tables(picks: list[tuple[int, int]]) -> None:
    """One memo handed the states of two tables in any order (and a state after its undo's
    state, or the same state twice): each snapshot is still the whole one."""
    memo = ViewMemo()
    for table, at in picks:
        states = TABLES[table]
        state = states[at % len(states)]
        assert snapshot(state, memo) == snapshot(state)
        if state.previous is not None:
            assert snapshot(state.previous, memo) == snapshot(state.previous)


TABLES = [_dealt(1, 6), _dealt(2, 6)]


def test_what_did_not_change_is_the_same_object() -> None:
    memo = ViewMemo()
    states = _dealt(5, 3)
    before, chips_kept, seats_kept = snapshot(states[0], memo), 0, 0
    for prev, state in itertools.pairwise(states):
        after = snapshot(state, memo)
        if state.chips is prev.chips:
            assert after["chips"] is before["chips"]
            assert after["chip_sets"] is before["chip_sets"]
            chips_kept += 1
        if state.findings is prev.findings and after["findings"] == before["findings"]:
            assert after["findings"] is before["findings"]
        for old, new in zip(before["seats"], after["seats"], strict=False):  # (seats come, go)
            if old == new:  # an unchanged seat: the previous snapshot's own dict
                assert new is old
                seats_kept += 1
        before = after
    assert chips_kept > 10 and seats_kept > 10
