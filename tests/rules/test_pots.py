"""Tests of pots: uncalled bets, main and side pots, split pots and odd chips, settling a hand,
and a hypothesis property that chips are conserved and nobody wins a pot they cannot win."""

from __future__ import annotations

import json
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.poker.cards import FULL_DECK
from controller.poker.hands.evaluate import hand_value
from controller.poker.pots import (
    UNCALLED,
    Pot,
    PotAward,
    build_pots,
    odd_chip_order,
    return_uncalled,
    settle,
    split,
)

SIX = [1, 2, 3, 4, 5, 6]

# --- the uncalled bet (research/button-blinds-betting.md §3.2 step 1) -------------------------


def test_uncalled_part_of_the_top_bet_goes_back() -> None:
    contributions = {1: 100, 2: 60, 3: 20}
    new, returned = return_uncalled(contributions)
    assert new == {1: 60, 2: 60, 3: 20}
    assert returned == (1, 40)
    assert contributions == {1: 100, 2: 60, 3: 20}  # the argument is not changed


def test_a_folded_players_chips_count_as_calling() -> None:
    # seat 2 called 80 and later folded: seat 1's bet was called up to 80
    assert return_uncalled({1: 100, 2: 80, 3: 30}) == ({1: 80, 2: 80, 3: 30}, (1, 20))


def test_matched_top_bet_returns_nothing() -> None:
    assert return_uncalled({1: 100, 2: 100, 3: 20}) == ({1: 100, 2: 100, 3: 20}, None)


def test_a_lone_contribution_goes_back_whole() -> None:
    assert return_uncalled({4: 20}) == ({4: 0}, (4, 20))
    assert return_uncalled({}) == ({}, None)


def test_negative_contribution_is_an_error() -> None:
    with pytest.raises(ValueError, match="seat 2"):
        return_uncalled({1: 10, 2: -5})


# --- main and side pots (research/button-blinds-betting.md §3.2) ------------------------------


def test_several_all_ins_at_different_levels() -> None:
    # seat 1 all-in for 50, seat 2 all-in for 120, seats 3 and 4 put in 200, seat 5 folded 30
    pots = build_pots({1: 50, 2: 120, 3: 200, 4: 200, 5: 30}, folded={5})
    assert pots == (
        Pot(50 * 4 + 30, (1, 2, 3, 4)),  # main pot: everyone's first 50 (the folder's 30 too)
        Pot(70 * 3, (2, 3, 4)),  # first side pot
        Pot(80 * 2, (3, 4)),  # second side pot
    )


def test_folded_chips_above_an_all_in_level_feed_the_side_pots() -> None:
    pots = build_pots({1: 50, 2: 200, 3: 200, 5: 100}, folded={5})
    assert pots == (Pot(200, (1, 2, 3)), Pot(150 + 150 + 50, (2, 3)))


def test_no_all_in_means_one_pot() -> None:
    assert build_pots({1: 40, 2: 40, 3: 10, 4: 40}, folded={3}) == (Pot(130, (1, 2, 4)),)


def test_dead_money_goes_to_the_main_pot() -> None:
    pots = build_pots({1: 50, 2: 100, 3: 100}, folded=set(), dead=30)
    assert pots == (Pot(150 + 30, (1, 2, 3)), Pot(100, (2, 3)))


def test_all_in_for_the_ante_only_plays_for_the_dead_money() -> None:
    # seat 1's whole stack went in as an ante (dead money): it can win the antes, nothing more
    pots = build_pots({1: 0, 2: 100, 3: 100}, folded=set(), dead=30)
    assert pots == (Pot(30, (1, 2, 3)), Pot(200, (2, 3)))


def test_folded_chips_above_every_live_level_stay_in_the_top_pot() -> None:
    pots = build_pots({1: 50, 2: 80, 3: 80}, folded={2, 3})
    assert pots == (Pot(210, (1,)),)


def test_everyone_folded_leaves_a_pot_nobody_can_win() -> None:
    assert build_pots({1: 10, 2: 10}, folded={1, 2}) == (Pot(20, ()),)
    assert build_pots({}, folded=set()) == ()


def test_during_a_round_only_all_in_levels_split_the_pot() -> None:
    # seat 1 is all-in for 30; seat 2 bet 100; seat 3 has 20 in and has not acted yet
    contributions = {1: 30, 2: 100, 3: 20}
    assert build_pots(contributions, folded=set(), all_in={1}) == (
        Pot(30 + 30 + 20, (1, 2, 3)),
        Pot(70, (2, 3)),
    )
    # an all-in raise above everyone else: one pot, all still eligible
    assert build_pots({1: 100, 2: 50, 3: 50}, folded=set(), all_in={1}) == (Pot(200, (1, 2, 3)),)


def test_pots_json() -> None:
    assert Pot(10, (1, 2)).to_json() == {"amount": 10, "eligible": [1, 2]}


# --- split pots and odd chips (RR Section 3 Ties rules 3, 4, 5(a)) ----------------------------


def test_even_split() -> None:
    assert split(100, [2, 5], order=[3, 4, 5, 6, 1, 2]) == {2: 50, 5: 50}


def test_odd_chip_to_the_first_winner_in_order() -> None:
    assert split(15, [2, 5], order=[4, 5, 6, 1, 2, 3]) == {2: 7, 5: 8}
    assert split(15, [2, 5], order=[6, 1, 2, 3, 4, 5]) == {2: 8, 5: 7}


def test_three_way_split_two_odd_chips_at_most_one_each() -> None:
    assert split(101, [1, 3, 5], order=[4, 5, 6, 1, 2, 3]) == {5: 34, 1: 34, 3: 33}


def test_odd_chips_in_units() -> None:
    # RR Ties r.3: the odd chip is broken down to the smallest unit used in the game
    assert split(35, [1, 2], order=[2, 1], unit=5) == {2: 20, 1: 15}
    assert split(150, [1, 2, 3], order=[3, 1, 2], unit=25) == {3: 50, 1: 50, 2: 50}
    assert split(175, [1, 2, 3], order=[3, 1, 2], unit=25) == {3: 75, 1: 50, 2: 50}


def test_split_keeps_a_part_unit() -> None:
    shares = split(37, [1, 2], order=[1, 2], unit=5)
    assert sum(shares.values()) == 37
    assert shares == {1: 20, 2: 17}


@pytest.mark.parametrize(
    ("amount", "winners", "order", "unit"),
    [
        (-1, [1], [1], 1),
        (10, [], [1], 1),
        (10, [1, 1], [1], 1),
        (10, [7], [1, 2], 1),
        (10, [1], [1], 0),
    ],
)
def test_bad_splits(amount: int, winners: list[int], order: list[int], unit: int) -> None:
    with pytest.raises(ValueError):
        split(amount, winners, order, unit)


def test_odd_chip_order_starts_left_of_the_button() -> None:
    assert odd_chip_order(6, SIX) == (1, 2, 3, 4, 5, 6)
    assert odd_chip_order(3, SIX) == (4, 5, 6, 1, 2, 3)
    with pytest.raises(ValueError, match="button"):
        odd_chip_order(9, SIX)


# --- settling a hand ---------------------------------------------------------------------------

BOARD = ["2c", "7d", "9h", "Js", "Kd"]


def test_best_hand_wins_the_pot() -> None:
    awards = settle(
        {1: 100, 2: 100, 3: 40},
        folded={3},
        holes={1: ["Kh", "Kc"], 2: ["Ah", "Jd"], 3: ["2d", "3d"]},
        board=BOARD,
        button=3,
        seats_clockwise=SIX,
    )
    assert awards == (PotAward(240, (1, 2), (1,), {1: 240}, "Three of a kind, kings, kickers J-9"),)


def test_split_pot_odd_chip_goes_left_of_the_button() -> None:
    holes = {2: ["Ah", "3d"], 5: ["As", "3h"], 6: ["4c", "4d"]}
    contributions = {2: 50, 5: 50, 6: 25}  # seat 6 folded: 125 in the pot
    awards = settle(contributions, {6}, holes, BOARD, button=3, seats_clockwise=SIX)
    assert [(a.winners, dict(a.shares)) for a in awards] == [((2, 5), {5: 63, 2: 62})]
    awards = settle(contributions, {6}, holes, BOARD, button=5, seats_clockwise=SIX)
    assert [(a.winners, dict(a.shares)) for a in awards] == [((2, 5), {2: 63, 5: 62})]


def test_three_way_split_on_the_board() -> None:
    board = ["Ts", "Js", "Qd", "Kc", "Ah"]  # Broadway on board: everyone plays it
    holes = {1: ["2c", "3d"], 2: ["4h", "5h"], 4: ["6c", "7c"]}
    awards = settle({1: 34, 2: 34, 4: 34}, set(), holes, board, button=1, seats_clockwise=SIX)
    (award,) = awards
    assert award.winners == (1, 2, 4)
    assert dict(award.shares) == {2: 34, 4: 34, 1: 34}
    assert award.hand == "Straight, ace high"
    awards = settle({1: 35, 2: 35, 4: 35, 5: 5}, {5}, holes, board, button=1, seats_clockwise=SIX)
    # 110 three ways: two odd chips, to seats 2 and 4, the first winners left of the button
    assert dict(awards[0].shares) == {2: 37, 4: 37, 1: 36}
    assert sum(awards[0].shares.values()) == 110


def test_side_pot_and_main_pot_won_by_different_players_side_pot_first() -> None:
    # seat 1 all-in for 50 with the best hand; seats 2 and 3 go on to 150; seat 2 beats seat 3
    holes = {1: ["Kh", "Kc"], 2: ["Jh", "Jc"], 3: ["Ah", "Qc"]}
    awards = settle({1: 50, 2: 150, 3: 150}, set(), holes, BOARD, button=1, seats_clockwise=SIX)
    assert awards == (
        PotAward(200, (2, 3), (2,), {2: 200}, "Three of a kind, jacks, kickers K-9"),
        PotAward(150, (1, 2, 3), (1,), {1: 150}, "Three of a kind, kings, kickers J-9"),
    )


def test_uncalled_bet_is_listed_first() -> None:
    holes = {1: ["Kh", "Kc"], 2: ["Jh", "Jc"]}
    awards = settle({1: 50, 2: 300}, set(), holes, BOARD, button=2, seats_clockwise=SIX)
    assert awards[0] == PotAward(250, (2,), (2,), {2: 250}, UNCALLED)
    assert awards[1].amount == 100 and awards[1].winners == (1,)


def test_won_without_showdown_needs_no_cards() -> None:
    awards = settle({1: 10, 2: 20, 3: 60}, {1, 2}, {}, [], button=3, seats_clockwise=SIX)
    assert awards == (
        PotAward(40, (3,), (3,), {3: 40}, UNCALLED),
        PotAward(50, (3,), (3,), {3: 50}, ""),
    )


def test_side_pot_with_one_eligible_seat_goes_without_showdown() -> None:
    # seat 3 called seat 2's bet partly before folding: seat 2's excess above seat 1's all-in
    # has one live contender, seat 2
    holes = {1: ["Kh", "Kc"], 2: ["Jh", "Jc"]}
    awards = settle({1: 50, 2: 100, 3: 100}, {3}, holes, BOARD, button=1, seats_clockwise=SIX)
    assert awards == (
        PotAward(100, (2,), (2,), {2: 100}, ""),
        PotAward(150, (1, 2), (1,), {1: 150}, "Three of a kind, kings, kickers J-9"),
    )


def test_dead_money_and_odd_units() -> None:
    holes = {1: ["Ah", "3d"], 4: ["As", "3h"]}
    awards = settle(
        {1: 100, 4: 100}, set(), holes, BOARD, button=2, seats_clockwise=SIX, unit=5, dead=15
    )
    assert dict(awards[0].shares) == {4: 110, 1: 105}


def test_award_json() -> None:
    award = PotAward(120, (2, 5), (5,), {5: 120}, "Flush, ace high (A-J-8-4-2)")
    payload = award.to_json()
    assert payload == {
        "amount": 120,
        "eligible": [2, 5],
        "winners": [5],
        "shares": {"5": 120},
        "hand": "Flush, ace high (A-J-8-4-2)",
    }
    assert json.loads(json.dumps(payload)) == payload


def test_award_is_frozen_with_a_private_copy_of_the_shares() -> None:
    shares = {5: 120}
    award = PotAward(120, (2, 5), (5,), shares)
    shares[5] = 0
    assert award.shares[5] == 120
    with pytest.raises(TypeError):
        award.shares[5] = 1  # type: ignore[index]


def test_awards_are_values() -> None:
    a = PotAward(120, (2, 5), (5,), {5: 120}, "x")
    b = PotAward(120, [2, 5], [5], {5: 120}, "x")  # type: ignore[arg-type]
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != PotAward(120, (2, 5), (2,), {2: 120}, "x")


@pytest.mark.parametrize(
    ("holes", "board", "match"),
    [
        ({1: ["Kh", "Kc"]}, BOARD, "seat 2"),  # a live hand nobody read
        ({1: ["Kh", "Kc"], 2: ["Kh", "Qc"]}, BOARD, "Kh"),  # one card in two hands
        ({1: ["Kh", "Kc"], 2: ["Jh", "Xc"]}, BOARD, "seat 2"),  # not a card
        ({1: ["Kh", "Kc"], 2: ["Jh", "Jc"]}, BOARD[:2], "seat 1"),  # too few cards to show down
    ],
)
def test_bad_showdowns_raise_value_error(
    holes: dict[int, list[str]], board: list[str], match: str
) -> None:
    with pytest.raises(ValueError, match=match):
        settle({1: 50, 2: 50}, set(), holes, board, button=1, seats_clockwise=SIX)


def test_bad_tables_raise_value_error() -> None:
    holes = {1: ["Kh", "Kc"], 2: ["Jh", "Jc"]}
    with pytest.raises(ValueError, match="button"):
        settle({1: 50, 2: 50}, set(), holes, BOARD, button=7, seats_clockwise=SIX)
    with pytest.raises(ValueError, match="not at the table"):
        settle({1: 50, 8: 50}, set(), holes, BOARD, button=1, seats_clockwise=SIX)
    with pytest.raises(ValueError, match="no live seat"):
        settle({1: 50, 2: 50}, {1, 2}, holes, BOARD, button=1, seats_clockwise=SIX)


# --- properties: chips are conserved, shares only to eligible seats ---------------------------

TABLE = list(range(1, 10))


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(st.sampled_from(TABLE), st.integers(0, 500), min_size=1),
    st.sets(st.sampled_from(TABLE)),
    st.integers(0, 100),
    st.one_of(st.none(), st.sets(st.sampled_from(TABLE))),
)
def test_pots_hold_every_chip_and_only_live_seats(
    contributions: dict[int, int], folded: set[int], dead: int, all_in: set[int] | None
) -> None:
    pots = build_pots(contributions, folded, dead, all_in=all_in)
    assert sum(pot.amount for pot in pots) == sum(contributions.values()) + dead
    assert all(pot.amount > 0 for pot in pots)
    live = {seat for seat in contributions if seat not in folded}
    for pot in pots:
        assert set(pot.eligible) <= live
        assert list(pot.eligible) == sorted(pot.eligible)
    # each side pot is contested by fewer seats than the pot below it
    for lower, upper in pairwise(pots):
        assert set(upper.eligible) < set(lower.eligible)
    # the main pot is open to every live seat with a stake in it (with no dead money, a seat that
    # put nothing in has no stake)
    staked = {seat for seat in live if contributions[seat] > 0 or dead > 0}
    if staked:
        assert staked <= set(pots[0].eligible)


@st.composite
def hands(draw: st.DrawFn) -> dict[str, object]:
    n = draw(st.integers(2, 9))
    seats = draw(st.lists(st.sampled_from(TABLE), min_size=n, max_size=n, unique=True))
    contributions = {seat: draw(st.integers(0, 400)) for seat in seats}
    folded = set(draw(st.lists(st.sampled_from(seats), max_size=n - 1, unique=True)))
    deck = draw(st.permutations(FULL_DECK))
    return {
        "contributions": contributions,
        "folded": folded,
        "holes": {seat: deck[2 * i : 2 * i + 2] for i, seat in enumerate(seats)},
        "board": deck[2 * n : 2 * n + 5],
        "button": draw(st.sampled_from(TABLE)),
        "seats_clockwise": TABLE,
        "unit": draw(st.sampled_from([1, 5, 25])),
        "dead": draw(st.integers(0, 100)),
    }


@settings(max_examples=300, deadline=None)
@given(hands())
def test_settle_conserves_chips_and_pays_only_eligible_seats(hand: dict[str, object]) -> None:
    awards = settle(**hand)  # type: ignore[arg-type]
    contributions: dict[int, int] = hand["contributions"]  # type: ignore[assignment]
    folded: set[int] = hand["folded"]  # type: ignore[assignment]
    dead: int = hand["dead"]  # type: ignore[assignment]
    unit: int = hand["unit"]  # type: ignore[assignment]
    holes: dict[int, list[str]] = hand["holes"]  # type: ignore[assignment]
    board: list[str] = hand["board"]  # type: ignore[assignment]

    paid = sum(sum(a.shares.values()) for a in awards)
    assert paid == sum(contributions.values()) + dead

    returned = [a for a in awards if a.hand == UNCALLED]
    assert len(returned) <= 1
    after = dict(contributions)
    if returned:
        assert awards[0] is returned[0]
        ((seat, chips),) = returned[0].shares.items()
        after[seat] -= chips
        assert after[seat] == max(c for s, c in contributions.items() if s != seat)

    won: dict[int, int] = {}
    for award in awards:
        assert sum(award.shares.values()) == award.amount
        assert set(award.shares) == set(award.winners) <= set(award.eligible)
        if award.hand == UNCALLED:
            continue
        assert not set(award.eligible) & folded
        shares = sorted(award.shares.values())
        assert shares[-1] - shares[0] <= unit  # equal shares, odd chips at most one unit each
        if len(award.eligible) > 1:
            values = {s: hand_value([*holes[s], *board]) for s in award.eligible}
            best = max(values.values())
            assert {s for s, x in values.items() if x == best} == set(award.winners)
        for seat, chips in award.shares.items():
            won[seat] = won.get(seat, 0) + chips
    # Nobody wins more than they could: from each player at most what the winner matched, plus
    # the dead money, plus (for the top live level) chips folded above every live level.
    top_live = max(c for s, c in after.items() if s not in folded)
    folded_above = sum(max(c - top_live, 0) for c in after.values())
    for seat, chips in won.items():
        assert seat not in folded
        bound = sum(min(c, after[seat]) for c in after.values()) + dead
        assert chips <= bound + (folded_above if after[seat] == top_live else 0)


def test_a_folded_players_unmatched_chips_stay_in_the_pot() -> None:
    """A killed or folded hand that put in the most gets nothing back: folded chips are
    forfeited (jamies-poker-notes.md, All-ins). E.g. an absent tournament player's big blind is
    killed and the small blind wins the lot."""
    from controller.poker.pots import return_uncalled, settle

    assert return_uncalled({1: 1, 2: 2}, folded={2}) == ({1: 1, 2: 2}, None)
    assert return_uncalled({1: 1, 2: 2}) == ({1: 1, 2: 1}, (2, 1))
    awards = settle({1: 1, 2: 2}, folded=frozenset({2}), holes={1: ["As", "Ad"]},
                    board=[], button=2, seats_clockwise=[1, 2])
    assert [(a.winners, a.amount) for a in awards] == [((1,), 3)]
