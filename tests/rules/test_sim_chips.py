"""The simulated table with chips (controller/sim/chip_table.py, chip_dealer.py): its motions are
the events chip sensing makes of them, clean hands played by chips raise nothing and keep every
stack equal to the core's, and each chip mistake raises exactly the codes its truth names."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from controller.events import Action
from controller.sensing.chips import DEFAULT_CHIP_ANTENNAS, ChipSensing
from controller.sim.chip_dealer import CHIP_ACTIONS
from controller.sim.chip_mistakes import CHIP_KINDS
from controller.sim.chip_moves import ChipMove
from controller.sim.chip_table import CAGE, POT, TRAY, ChipTable, bet, payable_counts, player
from controller.sim.dealer import SimDealer
from controller.sim.games import sim_seats


@pytest.mark.parametrize("value", [0, 1, 3, 4, 7, 12, 24, 25, 99, 100, 137, 200, 481])
def test_a_payable_stack_pays_every_amount_up_to_it_exactly(value: int) -> None:
    counts = payable_counts(value)
    assert sum(d * n for d, n in counts.items()) == value
    chips = ChipTable(random.Random(1), seats=2)
    chips.set_value(player(1), value)
    assert chips.payable(player(1))
    for amount in range(value + 1):
        uids = chips.exact(player(1), amount)
        assert uids is not None, amount
        assert sum(chips.denomination[u] for u in uids) == amount


def _sensed(chips: ChipTable, sensing: ChipSensing, t: float) -> list[object]:
    """One scan cycle of every antenna the sim has, at ``t``, as the driver reports it."""

    class Inventory:
        def __init__(self, antenna: int, uids: tuple[str, ...]) -> None:
            # a cycle number per scan, as the reader counts them
            self.reader, self.antenna, self.uids, self.t = 3, antenna, uids, t
            self.cycle = round(t * 1000)

    out: list[object] = []
    for (_, antenna), zone in sorted(DEFAULT_CHIP_ANTENNAS.items()):
        if (zone.startswith("bet:") and int(zone[4:]) > chips.seats) or zone.startswith(
                ("stack:", "drop")):
            continue
        out += sensing.on_inventory(Inventory(antenna, chips.chips(zone)))
    return out


def test_a_motion_settles_into_the_events_chip_sensing_makes_of_it() -> None:
    """The sim's motions (bets, the scoop, a push, the float) give the chips.zone bodies, in
    the order, that ChipSensing settles the same antennas' inventories into."""
    chips = ChipTable(random.Random(4), seats=3)
    sensing = ChipSensing(dict(DEFAULT_CHIP_ANTENNAS), chips.denomination.get, settle_s=0.1)
    for seat in (1, 2, 3):
        chips.set_value(player(seat), 200)
    t = 0.0
    _sensed(chips, sensing, t)  # the empty table, settled
    t += 0.2
    _sensed(chips, sensing, t)

    def both(moves: list[tuple[tuple[str, ...], str, str]]) -> None:
        nonlocal t
        ours = list(chips.motion(moves))
        theirs: list[object] = []
        for _ in range(4):  # cycles until it is still for the settle time
            t += 0.04
            theirs += _sensed(chips, sensing, t)
        assert theirs == ours

    both([(tuple(chips.take(CAGE, 1, 30) + chips.take(CAGE, 5, 20)), CAGE, TRAY)])
    for seat, amount in ((1, 1), (2, 2), (3, 7)):
        uids = chips.exact(player(seat), amount)
        assert uids is not None
        both([(tuple(uids), player(seat), bet(seat))])
    both([(chips.chips(bet(s)), bet(s), POT) for s in (1, 2, 3)])  # the scoop
    share = chips.exact(POT, 6)
    assert share is not None
    both([(tuple(share), POT, bet(2)), (tuple(u for u in chips.chips(POT) if u not in share),
                                        POT, bet(3))])  # the push: the pot empties
    assert chips.value(POT) == 0 and chips.value(bet(2)) == 6 and chips.value(bet(3)) == 4


def _clean(game: str, hands: int, console: bool = False) -> SimDealer:
    dealer = SimDealer(random.Random(7), seats=min(6, sim_seats(game)[1]), game=game,
                       seat_changes=0.1, chips=True, chips_console=console)
    for _ in range(hands):
        steps = dealer.next_hand()
        assert [f.code for _, f in dealer.found] == [], (game, dealer.hand)
        typed = [s for s in steps if isinstance(s, Action) and s.kind in CHIP_ACTIONS]
        assert bool(typed) == console, (game, dealer.hand, typed[:3])
        assert any(isinstance(s, ChipMove) for s in steps)
    return dealer


@pytest.mark.parametrize("game", ["nlhe", "omaha8", "stud", "27_triple", "dealers_choice"])
def test_clean_hands_played_by_chips_raise_nothing_and_keep_the_stacks(game: str) -> None:
    """Posts, calls, bets, raises and all-ins only by chips (no console betting action), with
    seat changes and re-buys: no finding, and after every hand each player's chips are its
    stack at the core."""
    dealer = _clean(game, 20)
    assert dealer.chips is not None
    assert dealer.chips.stack_errors == [] and dealer.chips.fallbacks == 0


def test_with_the_console_too_every_chip_action_is_corroborated() -> None:
    dealer = _clean("nlhe", 12, console=True)
    assert dealer.chips is not None and dealer.chips.stack_errors == []


@pytest.mark.parametrize("kind", list(CHIP_KINDS))
def test_each_chip_mistake_raises_exactly_the_codes_of_its_truth(kind: str) -> None:
    dealer = SimDealer(random.Random(11), seats=6, game="nlhe", chips=True)
    assert dealer.chips is not None
    for _ in range(30):
        dealer.next_hand(chip_mistake=kind)
        if kind in dealer.chips.made:
            break
    else:  # pragma: no cover - the kind had no chance in 30 hands
        raise AssertionError(f"{kind} was never made")
    hand = dealer.hand
    truth = [m for m in dealer.truth if m.hand == hand]
    assert Counter(m.expected_code for m in truth) == Counter(CHIP_KINDS[kind])
    assert Counter(f.code for n, f in dealer.found if n == hand) == Counter(CHIP_KINDS[kind])
    for m in truth:
        f = next(f for n, f in dealer.found if n == hand and f.code == m.expected_code)
        assert sorted(f.seats) == sorted(m.seats), (kind, f)
    assert dealer.chips.stack_errors == []


def test_an_unknown_chip_mistake_is_refused() -> None:
    with pytest.raises(ValueError, match="chip mistake"):
        SimDealer(random.Random(1), chips=True).next_hand(chip_mistake="chip_palmed")
    with pytest.raises(ValueError, match="chip mistake"):
        SimDealer(random.Random(1)).next_hand(chip_mistake="chip_string_raise")


@pytest.mark.parametrize("chips_before", [False, True])
def test_a_resumed_table_deals_on_with_chips(chips_before: bool) -> None:
    """``feltguard sim --chips --journal J`` on a table that played with chips, or without
    them: the set, the float and the stacks are taken up from the table as it lies."""
    first = SimDealer(random.Random(5), seats=4, chips=chips_before)
    for _ in range(3):
        first.next_hand()
    dealer = SimDealer(random.Random(6), seats=4, chips=True)
    dealer.resume(first.state, dict(first.state.deck.tags))
    for _ in range(4):
        dealer.next_hand()
        assert [f.code for _, f in dealer.found] == []
    assert dealer.chips is not None and dealer.chips.stack_errors == []
    assert dealer.chips.chips.value("tray") > 0
