"""No false alarms: clean random hands of every family raise no finding (issue 5).

The simulated dealers deal by the book (``controller/sim/dealer.py`` for hold'em,
``controller/sim/games_dealer.py`` for the stud and draw games) with random table sizes, stacks
and actions; hypothesis picks the seeds. 11 games x 46 examples x 20 hands = 10,120 hands, every
event through the pure rules core. Every hand must end with its pots awarded, no finding raised
and the chips at the table conserved (the dealers re-buy a busted player: counted in).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.events import Event, SeatTake
from controller.rules import apply, initial_state, snapshot
from controller.sim import GameDealer, SimDealer, expand
from controller.sim.games_dealer import DRAW_GAMES, STUD_GAMES

HANDS = 20
EXAMPLES = 46


def _play(dealer: GameDealer | SimDealer, hands: int) -> tuple[int, list[str]]:
    state, seq, found, complete = initial_state(), 0, [], 0
    chips = 0
    for _ in range(hands):
        for step in dealer.next_hand():
            for body in expand(step):
                seq += 1
                if isinstance(body, SeatTake):
                    before = state.seats.get(body.seat)
                    chips += body.stack - (before.stack if before else 0)
                result = apply(state, Event(seq, 0, body))
                state = result.state
                found += [f"hand {snapshot(state)['hand']['number']}: {f.code} {f.message}"
                          for f in result.findings]
        complete += state.phase == "complete"
        assert sum(s.stack for s in state.seats.values()) + state.carry == chips
    return complete, found


@pytest.mark.parametrize("game", STUD_GAMES + DRAW_GAMES)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 6))
def test_clean_stud_and_draw_hands_raise_no_finding(game: str, seed: int, seats: int) -> None:
    complete, found = _play(GameDealer(game, random.Random(seed), seats=seats), HANDS)
    assert found == []
    assert complete == HANDS


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 6))
def test_clean_holdem_hands_raise_no_finding(seed: int, seats: int) -> None:
    complete, found = _play(SimDealer(random.Random(seed), seats=seats), HANDS)
    assert found == []
    assert complete == HANDS
