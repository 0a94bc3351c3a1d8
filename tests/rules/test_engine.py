"""The hand engine on hold'em: the cardroom betting rules from the rulebooks' own examples.

RR = roberts-rules-v11.txt, WSOP = wsop-2009-live-action-rules.md (shared/rulebooks/)."""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from controller.poker.variants import VARIANTS
from controller.rules.engine.hand import Hand, HouseSettings, IllegalAction, Stakes

NLHE = VARIANTS["nlhe"]
PLHE = VARIANTS["plhe"]
FLHE = VARIANTS["flhe"]

HOLES = ["AsAh", "KsKh", "QsQh", "JsJh", "TsTh", "9s9h", "8s8h", "7s7h", "6s6h"]


def deal(hand: Hand) -> Hand:
    for i in range(hand.n):
        hand.deal_hole(i, [HOLES[i][:2], HOLES[i][2:]])
    return hand


def nl(stacks: list[int], blinds: tuple[int, ...] = (50, 100), **kw: object) -> Hand:
    stakes = Stakes(blinds_or_straddles=blinds, min_bet=100)
    return deal(Hand(NLHE, stakes, stacks, **kw))  # type: ignore[arg-type]


def test_blinds_posted_and_first_to_act_left_of_the_big_blind() -> None:
    h = nl([1000] * 4)
    assert h.stacks == [950, 900, 1000, 1000]
    assert h.bets == [50, 100, 0, 0]
    assert h.actor == 2  # under the gun (RR Section 4 intro)
    with pytest.raises(IllegalAction) as e:
        h.check_or_call(3)
    assert e.value.code == "OUT_OF_TURN"


def test_min_raise_rr_no_limit_rule_3() -> None:
    # "Player A bets 100 and player B raises to 200. Player C wishing to raise must raise at
    # least 100 more, making the total bet at least 300."
    h = nl([5000] * 4)
    for p in (2, 3, 0, 1):
        h.check_or_call(p)
    h.deal_board(["2c", "3d", "4h"])
    h.complete_bet_or_raise_to(0, 100)
    h.complete_bet_or_raise_to(1, 200)
    assert h.min_completion_betting_or_raising_to() == 300
    with pytest.raises(IllegalAction) as e:
        h.complete_bet_or_raise_to(2, 299)
    assert e.value.code == "UNDERSIZED_WAGER"
    h.complete_bet_or_raise_to(2, 300)


def test_all_in_below_minimum_bet_rr_no_limit_rule_2() -> None:
    # "if the minimum bet is $100, and a player goes all-in on the flop for $20, a player may
    # fold, call $20, or raise to at least a total of $120."
    h = nl([5000, 5000, 120, 5000])
    for p in (2, 3, 0, 1):
        h.check_or_call(p)
    h.deal_board(["2c", "3d", "4h"])
    h.check_or_call(0)
    h.check_or_call(1)
    h.complete_bet_or_raise_to(2, 20)  # all-in
    assert h.checking_or_calling_amount() == 20
    assert h.min_completion_betting_or_raising_to() == 120


def test_wsop_no_limit_rule_4_all_in_raise() -> None:
    # "if a player bets $100 and the next player goes all-in for $140, a player wishing to raise
    # must make the total bet at least $240"
    h = nl([5000, 5000, 240, 5000])
    for p in (2, 3, 0, 1):
        h.check_or_call(p)
    h.deal_board(["2c", "3d", "4h"])
    h.complete_bet_or_raise_to(0, 100)
    h.check_or_call(1)
    h.complete_bet_or_raise_to(2, 140)  # all-in: 100 + 140 = 240 in
    assert h.actor == 3
    assert h.min_completion_betting_or_raising_to() == 240


def test_short_all_in_does_not_reopen_rr_no_limit_rule_4() -> None:
    # "Player A bets $100 and Player B raises $100 more, making the total bet $200. If Player C
    # goes all in for less than $300 total (not a full $100 raise), and Player A calls, then
    # Player B has no option to raise again ... (Player A could have raised, because Player B
    # raised.)"
    h = nl([5000, 5000, 350, 5000])
    for p in (2, 3, 0, 1):
        h.check_or_call(p)
    h.deal_board(["2c", "3d", "4h"])
    h.complete_bet_or_raise_to(0, 100)  # A
    h.complete_bet_or_raise_to(1, 200)  # B
    h.complete_bet_or_raise_to(2, 250)  # C all-in (100 preflop + 250)
    h.fold(3)
    assert h.actor == 0 and h.can_complete_bet_or_raise()  # A was raised by B
    h.check_or_call(0)
    assert h.actor == 1
    assert not h.can_complete_bet_or_raise()
    with pytest.raises(IllegalAction) as e:
        h.complete_bet_or_raise_to(1, 400)
    assert e.value.code == "NOT_REOPENED"
    h.check_or_call(1)
    assert h.street == 2  # the turn


def test_several_short_all_ins_reopen_rr_section_3_rule_7() -> None:
    h = nl([5000, 5000, 250, 300, 5000])
    for p in (2, 3, 4, 0, 1):
        h.check_or_call(p)
    h.deal_board(["2c", "3d", "4h"])
    h.check_or_call(0)
    h.complete_bet_or_raise_to(1, 100)
    h.complete_bet_or_raise_to(2, 150)  # all-in, +50
    h.complete_bet_or_raise_to(3, 200)  # all-in, +50: together a full raise of 100
    h.check_or_call(4)
    h.check_or_call(0)
    assert h.actor == 1 and h.can_complete_bet_or_raise()


def test_big_blind_option_and_check_closes_preflop() -> None:
    h = nl([1000] * 3)
    h.check_or_call(2)
    h.check_or_call(0)
    assert h.actor == 1 and h.can_complete_bet_or_raise()  # the option (RR Section 4 r.9)
    h.check_or_call(1)
    assert h.board_needed == 3


def test_uncalled_bet_returned_and_everyone_folds() -> None:
    h = nl([1000] * 3)
    h.complete_bet_or_raise_to(2, 300)
    h.fold(0)
    h.fold(1)
    assert h.is_over
    assert h.stacks == [950, 900, 1150]
    assert h.awards[0].hand == "uncalled bet returned" and h.awards[0].amount == 200


def test_side_pots_by_all_in_level_and_showdown() -> None:
    # player 2 (QQ) all-in for 300, player 1 (KK) for 600, player 0 (AA) covers
    h = nl([2000, 600, 300])
    h.complete_bet_or_raise_to(2, 300)
    h.complete_bet_or_raise_to(0, 2000)
    h.check_or_call(1)
    assert h.betting_over and h.board_needed == 3
    h.deal_board(["2c", "3d", "8h"])
    h.deal_board(["9c"])
    h.deal_board(["Td"])
    h.show_all()
    assert h.is_over
    assert h.stacks == [2900, 0, 0]
    amounts = [a.amount for a in h.awards]
    assert amounts == [1400, 600, 900]  # uncalled, side pot, main pot
    assert sum(h.stacks) == 2900


def test_showdown_with_an_unknown_card_is_a_clear_error_and_loses_nothing() -> None:
    stakes = Stakes(blinds_or_straddles=(50, 100), min_bet=100)
    h = Hand(NLHE, stakes, [1000, 1000])
    h.deal_hole(0, ["As", None])
    h.deal_hole(1, ["Kd", "Kh"])
    h.complete_bet_or_raise_to(1, 1000)
    h.check_or_call(0)
    for cards in (["2c", "3d", "8h"], ["9c"], ["Td"]):
        h.deal_board(cards)
    h.show_or_muck(1, ["Kd", "Kh"])
    with pytest.raises(IllegalAction) as e:
        h.show_or_muck(0, ["As", None])
    assert e.value.code == "UNKNOWN_CARD_AT_SHOWDOWN"
    assert not h.is_over and h.showdown_pending == (0,)
    h.show_or_muck(0, ["As", "Ac"])
    assert h.stacks == [2000, 0]


def test_folded_unknown_hand_needs_no_cards() -> None:
    stakes = Stakes(blinds_or_straddles=(50, 100), min_bet=100)
    h = Hand(NLHE, stakes, [1000, 1000, 1000])
    for i in range(3):
        h.deal_hole(i, [None, None])
    h.fold(2)
    h.fold(0)
    assert h.is_over and h.stacks == [950, 1050, 1000]


def test_split_pot_odd_chip_to_first_left_of_the_button() -> None:
    # RR Section 3 Ties r.5(a): "the first hand clockwise from the button gets the odd chip"
    stakes = Stakes(antes=(1, 1, 1), blinds_or_straddles=(50, 100), min_bet=100)
    h = Hand(NLHE, stakes, [1000, 1000, 1000])
    h.deal_hole(0, ["As", "Kd"])
    h.deal_hole(1, ["2c", "3c"])
    h.deal_hole(2, ["Ah", "Kc"])
    h.check_or_call(2)
    h.check_or_call(0)
    h.fold(1)
    for cards in (["Qs", "Jd", "9h"], ["8c"], ["4d"]):
        h.deal_board(cards)
        h.check_or_call(0)
        h.check_or_call(2)
    h.show_all()
    # pot 303: 152 to position 0 (left of the button), 151 to the button
    assert h.stacks == [1051, 899, 1050]


def test_pot_limit_maximum_rr_pot_limit_examples() -> None:
    # strict: blinds 5/10, the first raise is to at most 35 (RR Section 14 Pot-Limit r.5)
    stakes = Stakes(blinds_or_straddles=(5, 10), min_bet=10)
    h = deal(Hand(PLHE, stakes, [1000] * 4))
    assert h.min_completion_betting_or_raising_to() == 20
    assert h.max_completion_betting_or_raising_to() == 35
    with pytest.raises(IllegalAction) as e:
        h.complete_bet_or_raise_to(2, 36)
    assert e.value.code == "PL_OVERBET"
    # money games: the small blind counts as a big blind: at most 40
    h = deal(Hand(PLHE, stakes, [1000] * 4,
                  HouseSettings(pot_limit_small_blind_as_big=True)))
    assert h.max_completion_betting_or_raising_to() == 40
    # "if a pot is $100, and someone makes a $50 bet, the next player can call $50 and raise
    # the pot $200, for a total wager of $250."
    h = deal(Hand(PLHE, Stakes(blinds_or_straddles=(25, 50), min_bet=50), [1000] * 2))
    h.check_or_call(1)
    h.check_or_call(0)
    h.deal_board(["2c", "3d", "8h"])
    h.complete_bet_or_raise_to(0, 50)
    assert h.max_completion_betting_or_raising_to() == 250


def test_fixed_limit_cap_and_heads_up_uncapped() -> None:
    stakes = Stakes(blinds_or_straddles=(1, 2), small_bet=2, big_bet=4)
    h = deal(Hand(FLHE, stakes, [1000] * 3))
    # preflop the big blind is the bet: raise to 4, 6, 8 and the betting is capped
    assert h.min_completion_betting_or_raising_to() == 4 == h.max_completion_betting_or_raising_to()
    h.complete_bet_or_raise_to(2, 4)
    h.complete_bet_or_raise_to(0, 6)
    h.complete_bet_or_raise_to(1, 8)
    assert not h.can_complete_bet_or_raise()
    with pytest.raises(IllegalAction) as e:
        h.complete_bet_or_raise_to(2, 10)
    assert e.value.code == "RAISE_CAPPED"
    h.check_or_call(2)
    h.fold(0)
    # heads-up on the flop: unlimited raising (RR Section 3 Betting r.5)
    h.deal_board(["2c", "3d", "8h"])
    for k in range(8):
        h.complete_bet_or_raise_to(1 if k % 2 == 0 else 2, 2 * (k + 1))
    assert h.can_complete_bet_or_raise()
    # ... unless the house caps heads-up pots too (tournaments)
    h = deal(Hand(FLHE, stakes, [1000] * 2, HouseSettings(heads_up_uncapped="never")))
    for amount in (4, 6, 8):
        h.complete_bet_or_raise_to(h.actor or 0, amount)
    assert not h.can_complete_bet_or_raise()


def test_fixed_limit_half_bet_rule_rr_section_3_rule_7() -> None:
    # "An example of a full raise on a $20 betting round is raising a $15 all-in bet to $35."
    stakes = Stakes(blinds_or_straddles=(5, 10), small_bet=10, big_bet=20)
    h = deal(Hand(FLHE, stakes, [1000, 1000, 25]))
    h.check_or_call(2)
    h.check_or_call(0)
    h.check_or_call(1)
    h.deal_board(["2c", "3d", "8h"])
    for p in (0, 1, 2):
        h.check_or_call(p)
    h.deal_board(["9c"])  # the turn: $20 bets
    h.check_or_call(0)
    h.check_or_call(1)
    h.complete_bet_or_raise_to(2, 15)  # all-in for $15: half a bet or more is a full bet
    assert h.min_completion_betting_or_raising_to() == 35
    assert h.max_completion_betting_or_raising_to() == 35
    h.complete_bet_or_raise_to(0, 35)
    assert h.actor == 1 and h.can_complete_bet_or_raise()


def test_fixed_limit_short_all_in_under_half_a_bet() -> None:
    # "an all-in wager of less than half a bet does not reopen the betting for any player who
    # has already acted"; one who has not acted may "fold, call, or complete the wager"
    stakes = Stakes(blinds_or_straddles=(5, 10), small_bet=10, big_bet=20)
    h = deal(Hand(FLHE, stakes, [1000, 1000, 35, 1000]))
    for p in (2, 3, 0, 1):
        h.check_or_call(p)
    h.deal_board(["2c", "3d", "8h"])
    for p in (0, 1, 2, 3):
        h.check_or_call(p)
    h.deal_board(["9c"])  # the turn: $20 bets
    h.complete_bet_or_raise_to(0, 20)
    h.check_or_call(1)
    assert h.min_completion_betting_or_raising_to() == 25  # all-in for less than a raise
    h.complete_bet_or_raise_to(2, 25)  # +5: less than half a bet
    assert h.actor == 3
    assert h.checking_or_calling_amount() == 25
    assert h.min_completion_betting_or_raising_to() == 40  # complete the wager
    h.check_or_call(3)
    assert h.actor == 0 and not h.can_complete_bet_or_raise()
    with pytest.raises(IllegalAction) as e:
        h.complete_bet_or_raise_to(0, 45)
    assert e.value.code == "NOT_REOPENED"
    h.check_or_call(0)
    h.check_or_call(1)
    assert h.street == 3  # everyone has acted: the river


def test_straddle_acts_last_and_sets_the_minimum_raise() -> None:
    stakes = Stakes(blinds_or_straddles=(50, 100, 200), min_bet=100)
    h = deal(Hand(NLHE, stakes, [5000] * 5))
    assert h.actor == 3
    # RR Section 14 NL r.15: "A straddle bet sets a new minimum bring-in"
    assert h.min_completion_betting_or_raising_to() == 400
    h2 = deal(Hand(NLHE, stakes, [5000] * 5, HouseSettings(straddle_min_raise="big_blind")))
    assert h2.min_completion_betting_or_raising_to() == 300  # WSOP Section 4 r.11
    for p in (3, 4, 0, 1):
        h.check_or_call(p)
    assert h.actor == 2 and h.can_complete_bet_or_raise()  # the straddler's option


def test_heads_up_button_posts_the_small_blind_and_acts_first_preflop() -> None:
    stakes = Stakes(blinds_or_straddles=(50, 100), min_bet=100)
    h = deal(Hand(NLHE, stakes, [1000, 1000]))
    assert h.bets == [100, 50] and h.actor == 1
    h.check_or_call(1)
    h.check_or_call(0)
    h.deal_board(["2c", "3d", "8h"])
    assert h.actor == 0  # the big blind acts first after the flop


def test_bad_input_is_refused_with_a_clear_error() -> None:
    stakes = Stakes(blinds_or_straddles=(50, 100), min_bet=100)
    with pytest.raises(ValueError, match="starting stack"):
        Hand(NLHE, stakes, [1000, -5])
    with pytest.raises(ValueError, match="blinds_or_straddles"):
        Hand(NLHE, Stakes(blinds_or_straddles=(1, 2, 3)), [10, 10])
    h = Hand(NLHE, stakes, [1000, 1000, 1000])
    with pytest.raises(IllegalAction) as e:
        h.deal_hole(0, ["As", "As"])
    assert e.value.code == "DUPLICATE_CARD"
    with pytest.raises(IllegalAction) as e:
        h.deal_hole(0, ["Zz"])
    assert e.value.code == "NOT_A_CARD"
    with pytest.raises(IllegalAction) as e:
        h.deal_board(["2c", "3c", "4c"])
    assert e.value.code == "NO_BOARD_CARDS_DUE"
    with pytest.raises(IllegalAction) as e:
        h.fold(2)
    assert e.value.code == "NO_BETTING_NOW"
    assert h.holes == [[], [], []] and h.stacks == [950, 900, 1000]


JUNK: list[object] = [None, -1, 99, "x", 1.5, True, [], ["As"], ["As", "As"], ["Zz"], [["As"]],
                      ("Kd",), ["Xx"], 10**9, 0, ["2c", None]]


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 6),
       vid=st.sampled_from(sorted(VARIANTS)), steps=st.integers(1, 400))
# hands shown all in, then an unknown card drawn: the last replacement's settle needs it, and
# the refused deal once left its card in the hand
@example(seed=84953, n=3, vid="27_triple", steps=277)
def test_nothing_crashes_and_no_chip_is_lost(seed: int, n: int, vid: str, steps: int) -> None:
    """Random calls, legal or not, with sensible or junk arguments: only IllegalAction (or
    ValueError) ever comes out, a refused call changes nothing, and the chips always add up."""
    rng = random.Random(seed)
    variant = VARIANTS[vid]
    n = min(n, variant.max_players)
    stakes = Stakes(antes=(1,) * n, blinds_or_straddles=(1, 2) if variant.forced == "blinds"
                    else (), bring_in=1 if variant.forced == "antes_bring_in" else 0,
                    small_bet=2, big_bet=4, min_bet=2)
    h = Hand(variant, stakes, [rng.choice([1, 3, 50, 200]) for _ in range(n)])
    total = sum(h.starting_stacks)
    deck = list(variant.deck_cards)
    rng.shuffle(deck)
    names = ["deal_hole", "deal_board", "fold", "check_or_call", "complete_bet_or_raise_to",
             "post_bring_in", "stand_pat_or_discard", "show_or_muck"]
    for _ in range(steps):
        name = rng.choice(names)
        player: object = rng.choice([*range(n), *JUNK[:6]])
        count = rng.randint(1, 3)
        # mostly the call the hand expects next, so hands get deep; otherwise anything
        if rng.random() < 0.7:
            needy = [i for i in range(n) if h.hole_needed(i)]
            if needy:
                name, player, count = "deal_hole", needy[0], h.hole_needed(needy[0])
            elif h.board_needed:
                name, count = "deal_board", h.board_needed
            elif h.discarder is not None:
                name, player, count = "stand_pat_or_discard", h.discarder, 0
            elif h.actor is not None:
                player = h.actor
                name = rng.choice(["fold", "check_or_call", "check_or_call",
                                   "complete_bet_or_raise_to", "post_bring_in"])
            elif h.showdown_pending:
                name, player = "show_or_muck", h.showdown_pending[0]
        cards: object = deck[:count] if rng.random() < 0.8 else rng.choice(JUNK)
        valid = type(player) is int and 0 <= player < n
        if name == "show_or_muck" and rng.random() < 0.8 and valid:
            cards = list(h.holes[player]) if rng.random() < 0.8 else None  # type: ignore[index]
        if name == "stand_pat_or_discard" and cards is not None and valid:
            k = h.variant.streets[h.street].discard or rng.randint(0, 2)
            cards = [c for c in h.holes[player][:k] if c is not None]  # type: ignore[index]
        before = (list(h.stacks), list(h.totals), [list(c) for c in h.holes], list(h.board))
        try:
            if name == "deal_board":
                h.deal_board(cards)  # type: ignore[arg-type]
                del deck[:count]
            elif name in ("deal_hole", "stand_pat_or_discard", "show_or_muck"):
                getattr(h, name)(player, cards)
                if name == "deal_hole":
                    del deck[:count]
            elif name == "complete_bet_or_raise_to":
                lo = h.min_completion_betting_or_raising_to() or 1
                h.complete_bet_or_raise_to(player, rng.choice([lo, lo + 1, 0, "5", 2.0]))  # type: ignore[arg-type]
            else:
                getattr(h, name)(player)
        except ValueError:
            after = (list(h.stacks), list(h.totals), [list(c) for c in h.holes], list(h.board))
            assert after == before  # a refused action changes nothing
        assert sum(h.stacks) + h.pot + h.carry_over == total or h.is_over
        if h.is_over:
            assert sum(h.stacks) + h.carry_over == total
            break
