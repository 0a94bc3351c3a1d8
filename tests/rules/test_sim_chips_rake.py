"""The simulated chip dealer's opt-in rake (controller/sim/chip_dealer.py ``_rake``): at a table set
up with ``rake_percent``/``rake_cap`` the dealer drops the rake the schedule allows into the drop
as it pushes the pot; the core raises no chip finding and cuts the winners' stacks by it. Off by
default: a table set up without a rake drops nothing."""

from __future__ import annotations

import random

import pytest

from controller.events import SeatTake
from controller.sim.chip_table import DROP
from controller.sim.dealer import SimDealer


def _schedule(pot: int, percent: int, cap: int) -> int:
    """The rake docs/chips.md gives: ``percent`` of the pots awarded, rounded down, at most
    ``cap`` (0: no cap)."""
    r = pot * percent // 100
    return min(r, cap) if cap else r


@pytest.mark.parametrize(("percent", "cap"), [(5, 0), (10, 3), (10, 0)])
def test_raked_hands_raise_nothing_and_the_core_cuts_the_stacks_by_the_rake(
        percent: int, cap: int) -> None:
    dealer = SimDealer(random.Random(7), seats=6, chips=True, rake_percent=percent,
                       rake_cap=cap)
    assert dealer.chips is not None
    raked = exact = 0
    before = 0  # the core's stacks after the last hand (0 before the table is set up)
    for _ in range(40):
        drop = dealer.chips.chips.value(DROP)
        steps = dealer.next_hand()
        assert [f.code for _, f in dealer.found] == [], dealer.hand
        assert dealer.state.setup.rake_percent == percent
        assert dealer.state.setup.rake_cap == cap
        pot = sum(n for a in dealer.state.results for n in a.shares.values())
        took = dealer.chips.chips.value(DROP) - drop
        allowed = _schedule(pot, percent, cap)
        assert 0 <= took <= allowed, (dealer.hand, took, allowed)
        bought = sum(s.stack for s in steps if isinstance(s, SeatTake))
        # the players' chips: what they had, plus buy-ins and re-buys, less the rake
        assert sum(dealer.stacks.values()) == before + bought - took, dealer.hand
        before = sum(dealer.stacks.values())
        raked += took
        exact += took == allowed > 0
    # every player's chips are its stack at the core after every hand
    assert dealer.chips.stack_errors == [] and dealer.chips.fallbacks == 0
    assert raked > 0 and exact > 0


def test_without_a_rake_set_up_nothing_goes_to_the_drop() -> None:
    dealer = SimDealer(random.Random(7), seats=6, chips=True)
    assert dealer.chips is not None
    for _ in range(20):
        dealer.next_hand()
        assert [f.code for _, f in dealer.found] == []
    assert dealer.state.setup.rake_percent == 0 == dealer.state.setup.rake_cap
    assert dealer.chips.chips.chips(DROP) == ()


@pytest.mark.parametrize(("percent", "cap"), [(-1, 0), (101, 0), (5, -2)])
def test_a_rake_out_of_range_is_refused(percent: int, cap: int) -> None:
    with pytest.raises(ValueError, match="rake"):
        SimDealer(random.Random(1), chips=True, rake_percent=percent, rake_cap=cap)
