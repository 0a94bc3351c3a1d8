"""The hand engine on stud, razz, high-low, draw, Pineapple, kill pots and spread limit: the
rulebooks' rules and examples. RR = roberts-rules-v11.txt, RRH = roberts-rules-home.txt,
JPN = jamies-poker-notes.md (shared/rulebooks/)."""

from __future__ import annotations

import pytest

from controller.poker.variants import VARIANTS
from controller.rules.engine.hand import Hand, HouseSettings, IllegalAction, Stakes

STUD = VARIANTS["stud"]
RAZZ = VARIANTS["razz"]
STUD8 = VARIANTS["stud8"]


def third_street(h: Hand, hands: list[str]) -> Hand:
    for i, cards in enumerate(hands):
        h.deal_hole(i, [cards[k:k + 2] for k in range(0, len(cards), 2)])
    return h


def street(h: Hand, cards: list[str | None]) -> None:
    for i, c in enumerate(cards):
        if c is not None:
            h.deal_hole(i, [c])


# --- stud ----------------------------------------------------------------------------------------


def stud_15_30(n: int = 3, variant=STUD, **kw: object) -> Hand:  # type: ignore[no-untyped-def]
    # RR Section 8 r.6: "In $15-$30 stud, the lowcard opens for $5"
    stakes = Stakes(antes=(1,) * n, bring_in=5, small_bet=15, big_bet=30)
    return Hand(variant, stakes, [1000] * n, **kw)  # type: ignore[arg-type]


def test_bring_in_by_the_lowest_upcard_by_suit() -> None:
    # RR Section 8 r.2 "a forced bet by the lowest upcard by suit"; clubs is the lowest suit
    h = third_street(stud_15_30(), ["AsKs2d", "AdKd2c", "QsQhAh"])
    assert h.actor == 1 and h.can_post_bring_in(1)
    assert not h.can_fold(1) and not h.can_check_or_call(1)
    with pytest.raises(IllegalAction) as e:
        h.check_or_call(1)
    assert e.value.code == "BRING_IN_DUE"
    h.post_bring_in(1)
    assert h.bets == [0, 5, 0] and h.actor == 2


def test_aces_are_high_for_the_stud_bring_in() -> None:
    h = third_street(stud_15_30(), ["KsKhAc", "QsQh3d", "JsJh2s"])
    assert h.actor == 2  # the deuce, not the ace of clubs (RR Section 10 r.4; JPN)


def test_completion_then_three_raises_rr_section_8_rule_6() -> None:
    # "If the next player increases the bet to $15 (completes the bet), up to three raises are
    # then allowed when using a three-raise limit."
    h = third_street(stud_15_30(4), ["AsKs2c", "AdKd5d", "QsQh6h", "JsJh7s"])
    h.post_bring_in(0)
    assert h.min_completion_betting_or_raising_to() == 15
    assert h.max_completion_betting_or_raising_to() == 15
    h.complete_bet_or_raise_to(1, 15)
    for p, amount in ((2, 30), (3, 45), (0, 60)):
        assert h.min_completion_betting_or_raising_to() == amount
        h.complete_bet_or_raise_to(p, amount)
    assert h.actor == 1 and not h.can_complete_bet_or_raise()


def test_the_bring_in_may_open_for_a_full_bet() -> None:
    # RR Section 8 r.3: "The player with the forced bet has the option of opening for a full bet."
    h = third_street(stud_15_30(), ["AsKs2c", "AdKd5d", "QsQh6h"])
    assert h.can_complete_bet_or_raise_to(15)
    h.complete_bet_or_raise_to(0, 15)
    assert h.actor == 1 and h.checking_or_calling_amount() == 15


def test_later_streets_high_board_first_ties_to_the_first_dealt() -> None:
    # RR Section 8 r.2: "the high hand on board initiates the action (a tie is broken by
    # position, with the player who received cards first acting first)"
    h = third_street(stud_15_30(), ["2s3sKc", "4s5sKd", "6s7s9c"])
    h.post_bring_in(2)
    h.check_or_call(0)
    h.check_or_call(1)
    street(h, ["2h", "2d", "9d"])  # K-2, K-2, 9-9
    assert h.actor == 2  # the open pair of nines
    h2 = third_street(stud_15_30(), ["2s3sKc", "4s5sKd", "6s7s9c"])
    h2.post_bring_in(2)
    h2.check_or_call(0)
    h2.check_or_call(1)
    street(h2, ["2h", "2d", "Th"])  # K-2 and K-2 tie: position 0 received cards first
    assert h2.actor == 0


def test_open_pair_on_fourth_street_allows_the_big_bet() -> None:
    # RR Section 8 intro and r.7: "If you bet $5, any player then has the option to call $5,
    # raise $5, or raise $10. If a $10 raise is made, then all other raises must be in increments
    # of $10."
    stakes = Stakes(antes=(1,) * 3, bring_in=2, small_bet=5, big_bet=10)
    h = third_street(Hand(STUD, stakes, [1000] * 3), ["2s3sKc", "4s5sKd", "6s7s9c"])
    h.post_bring_in(2)
    h.check_or_call(0)
    h.check_or_call(1)
    street(h, ["Kh", "2d", "Th"])  # position 0 shows a pair of kings
    assert h.actor == 0
    assert h.can_complete_bet_or_raise_to(5) and h.can_complete_bet_or_raise_to(10)
    h.complete_bet_or_raise_to(0, 5)
    assert h.can_complete_bet_or_raise_to(10) and h.can_complete_bet_or_raise_to(15)
    h.complete_bet_or_raise_to(1, 15)  # a $10 raise
    assert h.can_complete_bet_or_raise_to(25) and not h.can_complete_bet_or_raise_to(20)
    # the option is off in razz and stud high-low, and as a house setting
    h2 = third_street(Hand(STUD, stakes, [1000] * 3, HouseSettings(open_pair_big_bet=False)),
                      ["2s3sKc", "4s5sKd", "6s7s9c"])
    h2.post_bring_in(2)
    h2.check_or_call(0)
    h2.check_or_call(1)
    street(h2, ["Kh", "2d", "Th"])
    assert h2.min_completion_betting_or_raising_to() == 5
    assert h2.max_completion_betting_or_raising_to() == 5


def test_low_card_all_in_for_the_ante_action_to_the_left() -> None:
    # RR Section 8 r.4: "If the player with the lowcard is all-in for the ante ... betting action
    # proceeds to the first active player to the left of the all-in player." That player may
    # "fold, open for the forced bet, or open for a full bet" (RRH Section 8 r.8).
    stakes = Stakes(antes=(1,) * 3, bring_in=5, small_bet=15, big_bet=30)
    h = third_street(Hand(STUD, stakes, [1, 1000, 1000]), ["AsKs2c", "AdKd5d", "QsQh6h"])
    assert h.actor == 1 and h.can_post_bring_in() and h.can_fold()


def test_razz_bring_in_high_card_aces_low_and_low_board_first() -> None:
    # RR Section 9 r.2: "The highest card by suit starts the action with a forced bet. The low
    # hand acts first on all subsequent rounds."
    stakes = Stakes(antes=(1,) * 3, bring_in=2, small_bet=10, big_bet=20)
    h = third_street(Hand(RAZZ, stakes, [1000] * 3), ["2s3sKc", "4s5sKs", "6s7sAc"])
    assert h.actor == 1  # the king of spades beats the king of clubs; the ace is low
    h.post_bring_in(1)
    h.check_or_call(2)
    h.check_or_call(0)
    street(h, ["Qd", "2d", "3h"])  # K-Q, K-2, A-3
    assert h.actor == 2


def play_out(h: Hand, streets: list[list[str | None]], folder: int | None = None) -> None:
    """Deal the later stud streets; everyone checks, except ``folder``, who folds at once."""
    def betting() -> None:
        while h.actor is not None:
            if h.actor == folder:
                h.fold(h.actor)
            elif h.can_post_bring_in():
                h.post_bring_in(h.actor)
            else:
                h.check_or_call(h.actor)

    betting()
    for cards in streets:
        street(h, [None if h.folded[i] else c for i, c in enumerate(cards)])
        betting()
    h.show_all()


def test_stud_odd_chip_to_the_highest_card_by_suit() -> None:
    # RR Section 3 Ties r.5(b): "In a stud game, the odd chip will be given to the highest card by
    # suit in all high games ... (When making this determination, all cards are used)"
    stakes = Stakes(antes=(1,) * 3, small_bet=10, big_bet=20)
    h = third_street(Hand(STUD, stakes, [100] * 3), ["2c3dKc", "2d3cKd", "9h9sJs"])
    play_out(h, [["5h", "5s", None], ["7c", "7h", None], ["8s", "8h", None],
                 ["Jc", "Jh", None]], folder=2)
    assert h.is_over
    main = h.awards[-1]
    assert set(main.winners) == {0, 1} and main.amount == 3
    assert main.shares[1] == 2 and main.shares[0] == 1  # king of diamonds over king of clubs


def test_razz_odd_chip_to_the_lowest_card_by_suit() -> None:
    stakes = Stakes(antes=(1,) * 3, small_bet=10, big_bet=20)
    h = third_street(Hand(RAZZ, stakes, [100] * 3), ["AcAd2c", "AhAs2d", "KhKsQs"])
    play_out(h, [["3c", "3d", None], ["4h", "4s", None], ["5c", "5d", None],
                 ["Kc", "Kd", None]], folder=2)
    main = h.awards[-1]
    assert set(main.winners) == {0, 1}
    assert main.shares[0] == 2  # the ace of clubs is the lowest card by suit


def test_stud_high_low_split_odd_chip_to_high_and_scoop_without_low() -> None:
    # RR Section 3 Ties r.5(c): "the high hand receives the odd chip in a split between the high
    # and the low hands"; RR Section 10: no qualifying low, the high hand wins the whole pot
    stakes = Stakes(antes=(1,) * 3, small_bet=10, big_bet=20)
    h = third_street(Hand(STUD8, stakes, [100] * 3), ["KcKdKh", "Ac2d3c", "9h9sJs"])
    play_out(h, [["Ks", "4h", None], ["Qc", "5s", None], ["Qd", "9c", None],
                 ["Jh", "Tc", None]], folder=2)
    main = h.awards[-1]
    assert main.shares == {0: 2, 1: 1}  # quads high, the wheel low; the odd chip to high
    h = third_street(Hand(STUD8, stakes, [100] * 3), ["KcKdKh", "Ac9d9c", "2h2sJs"])
    play_out(h, [["Ks", "Th", None], ["Qc", "Ts", None], ["Qd", "Jc", None],
                 ["Jh", "Tc", None]], folder=2)
    assert h.awards[-1].shares == {0: 3}  # no low: the high hand scoops


# --- Omaha high-low -------------------------------------------------------------------------------


def test_omaha8_split_and_quartered_pot() -> None:
    stakes = Stakes(blinds_or_straddles=(1, 2), small_bet=2, big_bet=4)
    h = Hand(VARIANTS["omaha8"], stakes, [100] * 3)
    h.deal_hole(0, ["As", "2s", "Kd", "Kh"])  # high: kings full? board decides; low A-2
    h.deal_hole(1, ["Ac", "2c", "Qd", "Qh"])  # the same low
    h.deal_hole(2, ["9s", "9h", "Tc", "Td"])
    for p in (2, 0, 1):
        h.check_or_call(p)
    h.deal_board(["Kc", "5d", "6h"])
    for p in (0, 1, 2):
        h.check_or_call(p)
    h.deal_board(["7s"])
    for p in (0, 1, 2):
        h.check_or_call(p)
    h.deal_board(["Jc"])
    for p in (0, 1, 2):
        h.check_or_call(p)
    h.show_all()
    award = h.awards[-1]
    # pot 6: high half 3 to position 0 (three kings); low half 3 split A-2 by positions 0 and 1,
    # the odd chip to the first clockwise from the button (position 0)
    assert award.amount == 6
    assert award.shares == {0: 5, 1: 1}


# --- draw -----------------------------------------------------------------------------------------


def draw5(variant_id: str = "draw5", n: int = 3, **kw: object) -> Hand:
    stakes = Stakes(antes=(1,) * n, small_bet=10, big_bet=20)
    return Hand(VARIANTS[variant_id], stakes, [200] * n, **kw)  # type: ignore[arg-type]


def deal5(h: Hand, hands: list[str]) -> None:
    for i, cards in enumerate(hands):
        h.deal_hole(i, [cards[k:k + 2] for k in range(0, 10, 2)])


def test_jacks_or_better_to_open_and_pass_and_out() -> None:
    h = draw5("draw5_jacks")
    deal5(h, ["2c3d4h5s7c", "JcJd4c5d8h", "AcKdQh9s7d"])
    assert h.actor == 0
    assert not h.can_complete_bet_or_raise()  # no openers (RRH Section 12 Jacks-or-Better r.1)
    with pytest.raises(IllegalAction) as e:
        h.complete_bet_or_raise_to(0, 10)
    assert e.value.code == "OPENERS_REQUIRED"
    h.check_or_call(0)
    assert h.can_complete_bet_or_raise()  # a pair of jacks opens
    h.check_or_call(1)
    h.check_or_call(2)
    # nobody opened: the deal is over and the antes stay in for the next deal
    assert h.is_over and h.carry_over == 3 and h.awards == ()
    assert h.stacks == [199, 199, 199]


def test_draw_in_turn_then_the_opener_acts_first() -> None:
    # RR Section 12: "Action after the draw starts with the opener, or next player proceeding
    # clockwise if the opener has folded."
    h = draw5()
    deal5(h, ["2c3d4h5s7c", "JcJd4c5d8h", "AcKdQh9s7d"])
    h.check_or_call(0)
    h.complete_bet_or_raise_to(1, 10)
    h.check_or_call(2)
    h.check_or_call(0)
    assert h.discarder == 0
    with pytest.raises(IllegalAction) as e:
        h.stand_pat_or_discard(1, ["8h"])
    assert e.value.code == "OUT_OF_TURN"
    with pytest.raises(IllegalAction) as e:
        h.stand_pat_or_discard(0, ["As"])
    assert e.value.code == "DISCARD_NOT_HELD"
    h.stand_pat_or_discard(0, ["7c"])
    h.stand_pat_or_discard(1, ["4c", "5d", "8h"])
    h.stand_pat_or_discard(2)  # stands pat
    assert h.hole_needed(0) == 1 and h.hole_needed(1) == 3 and h.hole_needed(2) == 0
    h.deal_hole(0, ["6c"])
    h.deal_hole(1, ["Jh", "2s", "3s"])
    assert h.actor == 1  # the opener
    assert h.min_completion_betting_or_raising_to() == 20  # the big bet after the draw
    assert len(h.holes[1]) == 5 and "Jh" in h.holes[1]


def test_a5_lowball_limit_forbids_check_raise() -> None:
    # RR Section 11 Ace-to-Five r.2: "In limit play, check-raise is not permitted"
    stakes = Stakes(blinds_or_straddles=(5, 10), small_bet=10, big_bet=20)
    h = Hand(VARIANTS["a5_lowball"], stakes, [200] * 3)
    deal5(h, ["2c3d4h5s7c", "JcJd4c5d8h", "AcKdQh9s7d"])
    h.check_or_call(2)
    h.check_or_call(0)
    h.check_or_call(1)
    for p in (0, 1, 2):
        h.stand_pat_or_discard(p)
    h.check_or_call(0)
    h.complete_bet_or_raise_to(1, 20)
    h.check_or_call(2)
    assert h.actor == 0 and not h.can_complete_bet_or_raise()
    with pytest.raises(IllegalAction) as e:
        h.complete_bet_or_raise_to(0, 40)
    assert e.value.code == "CHECK_RAISE_PROHIBITED"
    # allowed when the players are alerted (a house setting)
    h = Hand(VARIANTS["a5_lowball"], stakes, [200] * 3, HouseSettings(a5_check_raise=True))
    deal5(h, ["2c3d4h5s7c", "JcJd4c5d8h", "AcKdQh9s7d"])
    for p in (2, 0, 1):
        h.check_or_call(p)
    for p in (0, 1, 2):
        h.stand_pat_or_discard(p)
    h.check_or_call(0)
    h.complete_bet_or_raise_to(1, 20)
    h.check_or_call(2)
    assert h.can_complete_bet_or_raise()


def test_triple_draw_small_small_big_big() -> None:
    stakes = Stakes(blinds_or_straddles=(5, 10), small_bet=10, big_bet=20)
    h = Hand(VARIANTS["27_triple"], stakes, [500] * 2)
    deal5(h, ["7c5d4h3s2c", "KcKd4c6d8h"])
    units: dict[int, int | None] = {}
    for _ in range(4):
        while h.actor is not None:
            if h.street not in units and h.street:
                units[h.street] = h.min_completion_betting_or_raising_to()
            elif not h.street:
                units[0] = h.min_completion_betting_or_raising_to() - 10  # type: ignore[operator]
            h.check_or_call(h.actor)
        if h.discarder is not None:
            h.stand_pat_or_discard(h.discarder)
            h.stand_pat_or_discard(h.discarder)
    assert list(units.values()) == [10, 10, 20, 20]  # small bet, small, big, big
    h.show_all()
    assert h.stacks == [510, 490]


# --- Pineapple ------------------------------------------------------------------------------------


def test_pineapple_discards_before_the_preflop_bet_from_under_the_gun() -> None:
    stakes = Stakes(blinds_or_straddles=(1, 2), small_bet=2, big_bet=4)
    h = Hand(VARIANTS["pineapple"], stakes, [100] * 3)
    for i, cards in enumerate([["As", "Ks", "2c"], ["Qs", "Qh", "3d"], ["Jd", "Td", "4h"]]):
        h.deal_hole(i, cards)
    assert h.actor is None and h.discarder == 2  # under the gun first (JPN Pineapple)
    with pytest.raises(IllegalAction) as e:
        h.stand_pat_or_discard(2, [])
    assert e.value.code == "DISCARD_COUNT"
    h.stand_pat_or_discard(2, ["4h"])
    h.stand_pat_or_discard(0, ["2c"])
    h.stand_pat_or_discard(1, ["3d"])
    assert h.actor == 2 and [len(c) for c in h.holes] == [2, 2, 2]


def test_crazy_and_lazy_pineapple_discard_later() -> None:
    stakes = Stakes(blinds_or_straddles=(1, 2), small_bet=2, big_bet=4)
    hands = [["As", "Ks", "2c"], ["Qs", "Qh", "3d"], ["Jd", "Td", "4h"]]
    for vid, discard_street in (("crazy_pineapple", 2), ("lazy_pineapple", 4)):
        h = Hand(VARIANTS[vid], stakes, [100] * 3)
        for i, cards in enumerate(hands):
            h.deal_hole(i, cards)
        boards = [["8c", "7d", "6h"], ["5c"], ["9s"]]
        while not h.is_over:
            if h.discarder is not None:
                assert h.street == discard_street
                d = h.discarder
                h.stand_pat_or_discard(d, [h.holes[d][2]])
            elif h.actor is not None:
                h.check_or_call(h.actor)
            elif h.board_needed:
                h.deal_board(boards.pop(0))
            else:
                h.show_all()
        assert [len(c) for c in h.holes] == [2, 2, 2]
        assert h.awards[-1].winners == (2,)  # the straight: T-9-8-7-6


# --- kill pots and spread limit -------------------------------------------------------------------


def test_full_kill_doubles_the_limits_and_the_killer_acts_in_turn() -> None:
    # RR Section 13: "A full kill is double the amount of the big blind, and doubles the betting
    # limits"; "the killer acts in proper turn (after the person on the immediate right)"
    stakes = Stakes(blinds_or_straddles=(5, 10, 20), small_bet=10, big_bet=20, killer=2)
    h = Hand(VARIANTS["flhe"], stakes, [500] * 4)
    for i in range(4):
        h.deal_hole(i, [None, None])
    assert h.actor == 2  # the killer, in proper turn left of the big blind
    assert h.checking_or_calling_amount() == 0 and h.can_complete_bet_or_raise_to(40)
    h.check_or_call(2)
    assert h.actor == 3 and h.checking_or_calling_amount() == 20
    assert h.min_completion_betting_or_raising_to() == 40


def test_spread_limit_any_amount_between_the_limits() -> None:
    stakes = Stakes(blinds_or_straddles=(1, 2), small_bet=2, big_bet=10)
    h = Hand(VARIANTS["nlhe"].with_structure("spread"), stakes, [500] * 3)
    for i in range(3):
        h.deal_hole(i, [None, None])
    assert h.min_completion_betting_or_raising_to() == 4
    assert h.max_completion_betting_or_raising_to() == 12
    h.complete_bet_or_raise_to(2, 9)  # a raise of 7
    assert h.min_completion_betting_or_raising_to() == 16  # at least the previous raise
    assert h.max_completion_betting_or_raising_to() == 19


def test_all_in_for_the_ante_plays_for_the_antes() -> None:
    # RR Section 12 r.14: "If you have only a full ante and no other chips on the table, you may
    # play for just the antes."
    stakes = Stakes(antes=(5,) * 3, small_bet=10, big_bet=20)
    h = Hand(VARIANTS["draw5"], stakes, [5, 200, 200])
    deal5(h, ["AcAdAhAs7c", "JcJd4c5d8h", "KcKdQh9s7d"])
    assert h.actor == 1  # position 0 is all-in
    h.complete_bet_or_raise_to(1, 10)
    h.check_or_call(2)
    for p in (0, 1, 2):
        h.stand_pat_or_discard(p)
    h.check_or_call(1)
    h.check_or_call(2)
    h.show_all()
    # quads win the antes (15); kings beat jacks for the side pot (20)
    assert h.stacks == [15, 185, 205]


def test_sevens_rule_voids_the_action_after_the_draw() -> None:
    # RR Section 11 A-5 r.4: "If you check a seven or better and it is the best hand, all action
    # after the draw is void ... You are still eligible to win whatever existed in the pot
    # before the draw"
    stakes = Stakes(blinds_or_straddles=(5, 10), small_bet=10, big_bet=20)

    def play(settings: HouseSettings | None) -> Hand:
        h = Hand(VARIANTS["a5_lowball"], stakes, [200] * 3, settings)
        deal5(h, ["7c5d4h3s2c", "8c6d4c3d2d", "KcKdQh9s9d"])
        h.fold(2)
        h.check_or_call(0)
        h.check_or_call(1)
        h.stand_pat_or_discard(0)
        h.stand_pat_or_discard(1)
        h.check_or_call(0)  # checks a seven-five
        h.complete_bet_or_raise_to(1, 20)
        h.check_or_call(0)
        h.show_all()
        return h

    h = play(None)
    assert h.stacks == [210, 190, 200]  # wins the 20 before the draw, not the bet after it
    h = play(HouseSettings(sevens_rule=0))
    assert h.stacks == [230, 170, 200]


def test_stud_common_card_when_the_deck_runs_out() -> None:
    # RR Section 8 r.15: "a common card that plays in everyone's hand. The player who is now high
    # using the common card initiates the action for the last round."
    stakes = Stakes(antes=(1,) * 2, small_bet=10, big_bet=20)
    h = third_street(Hand(STUD, stakes, [100] * 2), ["2c3dKc", "4d5cKd"])
    play_out(h, [["7h", "8h"], ["9s", "Th"], ["Js", "Qh"]])
    assert h.street == 4 and h.hole_needed(0) == 1
    h.deal_board(["Kh"])  # instead of a seventh card each
    assert h.board == ["Kh"] and h.hole_needed(0) == 0 and h.hole_needed(1) == 0
    assert h.actor == 1  # kings with Q-T-8 showing beat kings with J-9-7
    h.check_or_call(1)
    h.check_or_call(0)
    h.show_all()
    assert h.stacks == [99, 101]
