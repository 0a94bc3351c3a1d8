"""Unit tests of the hand rankings (controller/poker/hands/rankings.py): the rulebooks' own examples
for every ranking, the edges between categories, the names a dealer reads, and bad input."""

from __future__ import annotations

import random

import pytest

from controller.poker.cards import FULL_DECK
from controller.poker.hands.rankings import (
    RANKINGS,
    board_strength,
    describe,
    omaha_strength,
    strength,
    suit_rank,
)


def s(ranking: str, cards: str, **settings: bool) -> int | None:
    return strength(ranking, cards.split(), **settings)


def name(ranking: str, cards: str, **settings: bool) -> str:
    value = s(ranking, cards, **settings)
    assert value is not None
    return describe(ranking, value)


def better(ranking: str, a: str, b: str) -> bool:
    va, vb = s(ranking, a), s(ranking, b)
    assert va is not None and vb is not None
    return va > vb


def test_the_contract_names() -> None:
    assert RANKINGS == (
        "high",
        "short_deck",
        "high_joker",
        "ace_five_low",
        "ace_five_low_joker",
        "deuce_seven_low",
        "low8",
        "badugi",
    )


# --- high ------------------------------------------------------------------------------------


def test_high_is_the_evaluator() -> None:
    assert name("high", "As Ks Qs Js Ts 2c 3d") == "Royal flush"
    assert name("high", "Kc Kd Kh 7s 7d") == "Full house, kings full of sevens"
    # suits never break a tie for a pot (RR Section 3, Ties r.1)
    assert s("high", "Ac Kc 9h 7s 4c") == s("high", "Ad Kd 9s 7c 4h")


def test_high_takes_the_best_five_of_up_to_ten_cards() -> None:
    assert name("high", "2c 3d 5h 7s 9c Jd Kh As Ah Ad") == "Three of a kind, aces, kickers K-J"
    assert s("high", "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd") == s("high", "7d 8h 9s Tc Jd")


# --- short deck ------------------------------------------------------------------------------


def test_short_deck_flush_beats_full_house_but_not_quads() -> None:
    # jamies-poker-notes.md, Six Plus Hold'em: "A flush beats a full-house, but not
    # four-of-a-kind."
    flush, boat, quads = "Ah Kh 9h 8h 6h", "Ks Kd Kc 6s 6d", "7s 7d 7c 7h 6s"
    assert better("short_deck", flush, boat)
    assert better("short_deck", quads, flush)
    assert name("short_deck", flush) == "Flush, ace high (A-K-9-8-6)"
    # the house setting restores the standard order
    assert s("short_deck", boat, flush_beats_full_house=False) > s(  # type: ignore[operator]
        "short_deck", flush, flush_beats_full_house=False
    )


def test_short_deck_a6789_is_the_lowest_straight() -> None:
    # JPN: "an ace can be low (acting as a 5) as in 9-8-7-6-A or high as in A-K-Q-J-10"
    low = "As 6d 7h 8c 9s"
    assert name("short_deck", low) == "Straight, nine high (A-6-7-8-9)"
    assert better("short_deck", "6d 7h 8c 9s Ts", low)
    assert better("short_deck", low, "As Ad Kh Ks Qc")  # a straight beats two pair
    assert better("short_deck", "Ah Kh Qh Jh Th", "Ah 6h 7h 8h 9h")
    sf = s("short_deck", "Ah 6h 7h 8h 9h")
    assert sf is not None and describe("short_deck", sf) == "Straight flush, nine high (A-6-7-8-9)"
    assert better("short_deck", "Ah 6h 7h 8h 9h", "As Ad Ac Ah Ks")  # a straight flush beats quads


def test_short_deck_straight_against_trips_is_a_setting() -> None:
    # not in the rulebooks: a straight beats trips by default (JPN lists no such change);
    # trips_beat_straight=True gives the Triton / online-room order
    trips, straight = "6s 6d 6h Ac Kd", "6c 7d 8h 9s Tc"
    assert better("short_deck", straight, trips)
    assert s("short_deck", trips, trips_beat_straight=True) > s(  # type: ignore[operator]
        "short_deck", straight, trips_beat_straight=True
    )
    # holding both, the setting plays the set
    both = "6s 6d 6h 7c 8d 9h Tc"
    assert name("short_deck", both) == "Straight, ten high"
    assert (
        name("short_deck", both, trips_beat_straight=True) == "Three of a kind, sixes, kickers T-9"
    )
    # values name themselves whatever the settings
    for t in (False, True):
        for f in (False, True):
            v = s("short_deck", both, trips_beat_straight=t, flush_beats_full_house=f)
            assert v is not None and describe("short_deck", v).startswith(("Straight", "Three"))


# --- the joker in high draw ------------------------------------------------------------------


def test_joker_five_aces_is_the_best_hand() -> None:
    # RR Section 12, The Joker r.4: "Five aces is the best possible hand (four aces and joker)."
    assert name("high_joker", "As Ah Ad Ac Xx") == "Five aces"
    assert better("high_joker", "As Ah Ad Ac Xx", "As Ks Qs Js Ts")
    assert better("high_joker", "As Ah Ad Ac Xx", "Ks Qs Js Ts Xx")


def test_joker_plays_as_an_ace() -> None:
    # r.2: "The joker may be used only as an ace, or to complete a straight, flush, or straight
    # flush. (Thus it is not a completely wild card.)"
    assert name("high_joker", "7c 7d 2h 3s Xx") == "One pair, sevens, kickers A-3-2"  # not trips
    assert name("high_joker", "Kc Kd Kh 3s Xx") == "Three of a kind, kings, kickers A-3"
    assert name("high_joker", "Ac Ad Kh Ks Xx") == "Full house, aces full of kings"
    assert name("high_joker", "Ac Ad Ah 3s Xx") == "Four of a kind, aces, three kicker"
    # RR Home Section 12 Jacks-or-Better r.10: "ace-joker for two aces"
    assert name("high_joker", "As Xx 9d 7c 4h") == "One pair, aces, kickers 9-7-4"


def test_joker_completes_straights_and_flushes() -> None:
    assert name("high_joker", "9c 8d 7h 6s Xx") == "Straight, ten high"  # the best card for it
    assert name("high_joker", "9c 8d 6h 5s Xx") == "Straight, nine high"  # a gap
    assert name("high_joker", "5c 4d 3h 2s Xx") == "Straight, six high"
    assert name("high_joker", "Kh Qh Jh Th Xx") == "Royal flush"
    assert name("high_joker", "9h 8h 7h 6h Xx") == "Straight flush, ten high"
    # r.3: "If the joker is used to make a flush, it will be the highest card of the flush not
    # present in the hand."
    assert name("high_joker", "Ah 9h 7h 4h Xx") == "Flush, ace high (A-K-9-7-4)"
    assert name("high_joker", "Kh 9h 7h 4h Xx") == "Flush, ace high (A-K-9-7-4)"
    assert s("high_joker", "Ah 9h 7h 4h Xx") == s("high_joker", "Kh 9h 7h 4h Xx")


def test_joker_hand_without_the_joker_is_a_plain_high_hand() -> None:
    assert s("high_joker", "Kc Kd Kh 7s 7d") == s("high", "Kc Kd Kh 7s 7d")


# --- ace-to-five low -------------------------------------------------------------------------


def test_a5_wheel_is_best_and_straights_flushes_do_not_count() -> None:
    # RR Section 11, Ace-to-five: "the best hand is any 5-4-3-2-A ... Straights and flushes do
    # not count against your hand."
    wheel = s("ace_five_low", "5h 4h 3h 2h Ah")
    assert wheel == s("ace_five_low", "5c 4d 3h 2s Ac")
    assert name("ace_five_low", "5h 4h 3h 2h Ah") == "Five-four low (5-4-3-2-A)"
    assert better("ace_five_low", "5c 4d 3h 2s Ac", "6c 4d 3h 2s Ac")


def test_a5_aces_are_low_and_a_a_beats_2_2() -> None:
    # RR Section 11, Ace-to-five: "For hands with a pair, A-A beats 2-2."; Section 9: "two aces
    # are the lowest pair"
    assert better("ace_five_low", "Ac Ad 7h 5s 3c", "2c 2d 7h 5s 3c")
    assert better("ace_five_low", "Kc Qd Jh 9s 8c", "Ac Ad 2h 3s 4c")  # any no-pair beats a pair


def test_a5_miscall_example_8_6_beats_8_7() -> None:
    # RR Section 11 r.15 treats an "8-6" as better than an "8-7"
    assert better("ace_five_low", "8c 6d 4h 3s 2c", "8c 7d 3h 2s Ac")
    assert name("ace_five_low", "8c 6d 4h 3s 2c") == "Eight-six low (8-6-4-3-2)"


def test_a5_razz_takes_the_best_five_of_seven() -> None:
    assert name("ace_five_low", "Kc Kd Ac 2d 3h 4s 5c") == "Five-four low (5-4-3-2-A)"
    assert name("ace_five_low", "Ac Ad Ah 2s 2c 3d 3h") == "Two pair, twos and aces, three kicker"


def test_a5_joker_is_the_lowest_missing_rank() -> None:
    # RR Section 11, Ace-to-five r.1: "If a joker is used, it becomes the lowest card not present
    # in your hand."; Glossary, JOKER: "In lowball, it is the lowest unmatched rank in a hand."
    assert name("ace_five_low_joker", "Xx 2d 3h 4s 5c") == "Five-four low (5-4-3-2-A)"
    assert name("ace_five_low_joker", "Ac Xx 3h 4s 5c") == "Five-four low (5-4-3-2-A)"
    assert name("ace_five_low_joker", "Ac 2d 3h 4s Xx") == "Five-four low (5-4-3-2-A)"
    assert name("ace_five_low_joker", "Ac 2d 3h 7s Xx") == "Seven-four low (7-4-3-2-A)"
    assert name("ace_five_low_joker", "Kc Qd Jh Ts Xx") == "King-queen low (K-Q-J-T-A)"
    # with a pair in the hand the joker still takes a missing rank, never pairs
    assert name("ace_five_low_joker", "Ac Ad 3h 4s Xx") == "One pair, aces, kickers 4-3-2"
    assert name("ace_five_low_joker", "Ac Ad Ah As Xx") == "Four of a kind, aces, two kicker"
    assert s("ace_five_low_joker", "8c 6d 4h 3s 2c") == s("ace_five_low", "8c 6d 4h 3s 2c")


def test_a5_pairs_trips_and_more() -> None:
    assert better("ace_five_low", "Ac Ad 2h 3s 4c", "Ac Ad 2h 2s 3c")  # one pair beats two pair
    assert better("ace_five_low", "Kc Kd Qh Qs Jc", "Ac Ad Ah 2s 3c")  # two pair beats trips
    assert better("ace_five_low", "Kc Kd Kh Qs Jc", "Ac Ad Ah 2s 2c")  # trips beat a full house
    assert better("ace_five_low", "Kc Kd Kh Qs Qc", "Ac Ad Ah As 2c")  # a full house beats quads
    assert name("ace_five_low", "Kc Kd Kh Qs Qc") == "Full house, kings full of queens"
    assert name("ace_five_low", "3c 3d 3h Qs Jc") == "Three of a kind, threes, kickers Q-J"
    assert better("ace_five_low", "2c 2d 7h 5s 4c", "2c 2d 8h 5s 4c")  # kickers, highest first


# --- eight or better -------------------------------------------------------------------------


def test_low8_qualifier_boundaries() -> None:
    # RR Section 7 r.2: "five cards of different ranks that are an eight or lower"
    assert name("low8", "8c 7d 6h 5s 4c") == "Eight-seven low (8-7-6-5-4)"
    assert s("low8", "9c 7d 6h 5s 4c") is None
    assert s("low8", "Ac Ad 2h 3s 4c") is None  # a pair is not five different ranks
    assert s("low8", "Ac 2d 3h 4s 9c Kd Kh") is None
    assert s("low8", "Ac 2d 3h 4s 8c Kd Kh") == s("ace_five_low", "Ac 2d 3h 4s 8c")


def test_low8_the_best_low_is_found_among_seven() -> None:
    # RR Section 10: "the same or any other five cards to make the best low hand"
    assert name("low8", "Ac Ad 2h 3s 8c 6d Kh") == "Eight-six low (8-6-3-2-A)"
    assert name("low8", "Ac 2c 3c 4c 5c Kc Qc") == "Five-four low (5-4-3-2-A)"  # flushes ignored
    assert better("low8", "8c 7d 6h 5s 3c", "8c 7d 6h 5s 4c")


# --- deuce-to-seven --------------------------------------------------------------------------


def test_d27_best_hand_and_the_wheel_is_ace_high() -> None:
    # RR Section 11, Deuce-to-seven: "The hand 5-4-3-2-A is not considered to be a straight, but
    # an ace-5 high, so it beats other ace-high hands and pairs, but loses to king-high."
    best = "7c 5d 4h 3s 2c"
    assert name("deuce_seven_low", best) == "Seven-five low (7-5-4-3-2)"
    a5 = "Ac 5d 4h 3s 2c"
    assert name("deuce_seven_low", a5) == "Ace-five low (A-5-4-3-2)"
    assert better("deuce_seven_low", a5, "Ac 6d 4h 3s 2c")
    assert better("deuce_seven_low", a5, "2c 2d 4h 3s 5c")
    assert better("deuce_seven_low", "Kc Qd Jh 9s 8c", a5)
    # r.1 "7-5-4-3-2 of at least two different suits": the suited one is a flush
    assert better("deuce_seven_low", best, "7c 5c 4c 3c 2c")
    assert better("deuce_seven_low", "Ac Kd Qh Js 9c", "6c 5d 4h 3s 2c")  # straights count
    # "A pair of aces is the highest pair, so it loses to any other pair."
    assert better("deuce_seven_low", "Kc Kd 4h 3s 2c", "Ac Ad 4h 3s 2c")


def test_d27_more_cases() -> None:
    assert name("deuce_seven_low", "7c 6d 5h 4s 2c") == "Seven-six low (7-6-5-4-2)"
    assert better("deuce_seven_low", "7c 6d 5h 4s 2c", "8c 5d 4h 3s 2c")
    assert name("deuce_seven_low", "6c 5d 4h 3s 2c") == "Straight, six high"
    assert name("deuce_seven_low", "Ac 5c 4c 3c 2c") == "Flush, ace high (A-5-4-3-2)"
    assert name("deuce_seven_low", "Ac Kd Qh Js Tc") == "Straight, ace high"
    assert better("deuce_seven_low", "Ac Kd Qh Js 9c", "2c 2d 4h 3s 5c")  # no pair beats a pair
    # the best five of more cards (a seven-card 2-7 game is not in the rulebooks; still defined)
    assert name("deuce_seven_low", "Ac Ad 7c 5d 4h 3s 2c") == "Seven-five low (7-5-4-3-2)"


# --- badugi ----------------------------------------------------------------------------------


def test_badugi_wsop_examples() -> None:
    # WSOP Section 12 r.1: "the best hand consists of A-2-3-4 club, diamond, heart, spade"
    assert name("badugi", "Ac 2d 3h 4s") == "Four-card badugi, 4-3-2-A"
    # r.2: "Ad-2c-3h-6h vs. Ac-3d-4h-5h, the winning hand would be Ad-2c-3h-6h"
    assert better("badugi", "Ad 2c 3h 6h", "Ac 3d 4h 5h")
    assert name("badugi", "Ad 2c 3h 6h") == "Three-card badugi, 3-2-A"


def test_badugi_more_cards_win_and_duplicates_are_discounted() -> None:
    # JPN Badugi: "Any 3-card hand will lose to any 4-card hand and so on."
    assert better("badugi", "Kc Qd Jh Ts", "Ac 2c 3d 4d")
    assert name("badugi", "Ac 2c 3d 4d") == "Two-card badugi, 3-A"  # not 2-A: both clubs
    assert name("badugi", "2c 2d 2h 2s") == "One-card badugi, 2"
    assert name("badugi", "Kc Kd 7h 7s") == "Two-card badugi, K-7"
    # "The next best hand is 5-3-2-A of 4 different suits."
    assert better("badugi", "Ac 2d 3h 4s", "Ac 2d 3h 5s")
    assert better("badugi", "Ac 2d 3h 5s", "Ac 2d 4h 5s")


# --- Omaha -----------------------------------------------------------------------------------


def test_omaha_uses_exactly_two_hole_cards() -> None:
    # RR Section 6: "a player must use precisely two holecards with three boardcards"
    board = ["As", "Ks", "Qs", "2d", "7c"]
    # one spade in the hole makes no flush; four to a flush on the board is not a flush
    v = omaha_strength("high", ["Js", "3h", "4h", "5h"], board)
    assert v is not None and describe("high", v).startswith("High card")
    v = omaha_strength("high", ["Js", "Ts", "4h", "5h"], board)
    assert v is not None and describe("high", v) == "Royal flush"


def test_omaha_low_needs_two_low_hole_cards() -> None:
    board = ["2s", "3d", "4h", "Kc", "Qc"]
    assert omaha_strength("low8", ["As", "Kd", "Qh", "Js"], board) is None
    v = omaha_strength("low8", ["As", "5d", "Qh", "Js"], board)
    assert v is not None and describe("low8", v) == "Five-four low (5-4-3-2-A)"


def test_omaha_high_and_low_may_use_different_hole_cards() -> None:
    # RR Section 7 Omaha High-Low, intro: "another (or the same) combination of two holecards
    # and three boardcards for the low hand"
    hole, board = ["As", "2d", "Kh", "Kc"], ["Ks", "3h", "4c", "9d", "Jd"]
    high = omaha_strength("high", hole, board)
    low = omaha_strength("low8", hole, board)
    assert high is not None and describe("high", high) == "Three of a kind, kings, kickers J-9"
    assert low is None  # the nine is above the eight: no qualifying low
    board = ["Ks", "3h", "4c", "8d", "Jd"]
    low = omaha_strength("low8", hole, board)
    assert low is not None and describe("low8", low) == "Eight-four low (8-4-3-2-A)"


def test_omaha_board_pair_and_five_card_omaha() -> None:
    # a paired board gives every player a pair at least, but three board cards only
    board = ["Ks", "Kd", "Kh", "2c", "3d"]
    v = omaha_strength("high", ["Kc", "4h", "5h", "6h"], board)
    assert v is not None and describe("high", v) == "Four of a kind, kings, six kicker"
    v = omaha_strength("high", ["Qc", "Qd", "5h", "6h", "7s"], board)
    assert v is not None and describe("high", v) == "Full house, kings full of queens"
    # other five-card rankings are allowed too (each two-and-three read as a five-card hand)
    v = omaha_strength("deuce_seven_low", ["7c", "5d", "Ah", "As"], ["4h", "3s", "2c", "Kd", "Kc"])
    assert v is not None and describe("deuce_seven_low", v) == "Seven-five low (7-5-4-3-2)"


@pytest.mark.parametrize(
    ("ranking", "hole", "board", "message"),
    [
        ("badugi", ["As", "Kd"], ["Qh", "Js", "Tc"], "not an Omaha ranking"),
        ("high", ["As"], ["Qh", "Js", "Tc"], "hole cards are 2 to 6"),
        ("high", ["As", "Kd"], ["Qh", "Js"], "board is 3 to 5"),
        ("high", ["As", "Kd"], ["As", "Js", "Tc"], "hole and on the board"),
        ("high", "AsKd", ["Qh", "Js", "Tc"], "sequence"),
        ("low8", ["As", "Kd"], ["Qh", "Js", "Tx"], "not a card"),
    ],
)
def test_omaha_bad_input(ranking: str, hole: object, board: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        omaha_strength(ranking, hole, board)  # type: ignore[arg-type]


# --- describe --------------------------------------------------------------------------------


def test_describe_round_trips_on_random_hands() -> None:
    rng = random.Random(5)
    for _ in range(300):
        for ranking in RANKINGS:
            size = 4 if ranking == "badugi" else rng.choice((5, 7))
            deck = [c for c in FULL_DECK if ranking != "short_deck" or c[0] in "6789TJQKA"]
            cards = rng.sample(deck, size)
            if "joker" in ranking and rng.random() < 0.3:
                cards[0] = "Xx"
            v = strength(ranking, cards)
            if v is not None:
                assert describe(ranking, v)


@pytest.mark.parametrize(
    ("ranking", "value"),
    [
        ("high", -1),
        ("high", 123),
        ("nope", 0),
        ("short_deck", 0),
        ("high_joker", 10 << 20),
        ("ace_five_low", 0),
        ("low8", (1 << 24) - (1 << 20)),  # a one-pair low: no eight-or-better
        ("deuce_seven_low", 0),
        ("badugi", 5 << 16),
        ("badugi", 4 << 16),  # four cards of one rank
        ("high", "9175040"),
        ("high", True),
    ],
)
def test_describe_rejects_values_no_hand_has(ranking: str, value: object) -> None:
    with pytest.raises(ValueError):
        describe(ranking, value)  # type: ignore[arg-type]


# --- suits -----------------------------------------------------------------------------------


def test_suit_rank() -> None:
    # RR Section 3, Ties r.1: "spades, hearts, diamonds, clubs"
    assert [suit_rank(c) for c in ("As", "Ah", "Ad", "Ac")] == [3, 2, 1, 0]
    assert suit_rank("2s") > suit_rank("Ah")  # the suit only, whatever the rank
    for bad in ("Xx", "", "AS", None, "10s"):
        with pytest.raises(ValueError, match="not a card"):
            suit_rank(bad)  # type: ignore[arg-type]


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ranking", "cards", "message"),
    [
        ("nope", ["As", "Ks", "Qs", "Js", "Ts"], "unknown ranking"),
        ("high", "AsKsQsJsTs", "sequence"),
        ("high", ["As", "Ks", "Qs", "Js"], "5 to 10"),
        ("high", ["As", "As", "Qs", "Js", "Ts"], "twice"),
        ("high", ["As", "Ks", "Qs", "Js", "1s"], "not a card"),
        ("high", ["As", "Ks", "Qs", "Js", "Xx"], "joker"),
        ("short_deck", ["As", "Ks", "Qs", "Js", "5s"], "short deck"),
        ("badugi", [], "1 to 10"),
        ("badugi", ["As", "Xx", "2c", "3d"], "joker"),
        ("high_joker", ["As", "Xx", "Xx", "3d", "4h"], "twice"),
        (
            "ace_five_low",
            ["Ac", "2d", "3h", "4s", "5c", "6d", "7h", "8s", "9c", "Td", "Jh"],
            "got 11",
        ),
        ("high", [None, "Ks", "Qs", "Js", "Ts"], "not a card"),
        ("high", ["as", "Ks", "Qs", "Js", "Ts"], "not a card"),
        ("high", None, "sequence"),
    ],
)
def test_bad_input_is_a_clear_error(ranking: str, cards: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        strength(ranking, cards)  # type: ignore[arg-type]


# --- stud boards -----------------------------------------------------------------------------


def board(ranking: str, cards: str) -> int:
    return board_strength(ranking, cards.split())


def test_high_board_counts_pairs_then_high_cards() -> None:
    # RR Section 8 r.2: "the high hand on board initiates the action"
    assert board("high", "2s 2d") > board("high", "As Kd")
    assert board("high", "As Ad Kc") > board("high", "2s 2d 3c")
    assert board("high", "2s 2d 3c 3d") > board("high", "As Ad Kc Qd")
    assert board("high", "2s 2d 2c") > board("high", "As Ad Kc Kd")
    assert board("high", "2s 2d 2c 2h") > board("high", "As Ad Ac Kd")
    # no straights or flushes on board; suits never matter
    assert board("high", "5s 6s 7s 8s") < board("high", "2c 2d 3h 4s")
    assert board("high", "As Kd") == board("high", "Ac Kh")
    assert board("low8", "As Kd") == board("high", "As Kd")


def test_low_board_for_razz() -> None:
    # RR Section 9 r.2: "The low hand acts first on all subsequent rounds."; aces low
    assert board("ace_five_low", "As 2d") > board("ace_five_low", "3s 2d")
    assert board("ace_five_low", "7s 5d 4c") > board("ace_five_low", "7s 6d 2c")
    assert board("ace_five_low", "Ks Qd") > board("ace_five_low", "As Ad")
    assert board("ace_five_low", "As Ad 2c") > board("ace_five_low", "2s 2d Ac")
    assert board("ace_five_low", "Ks") < board("ace_five_low", "Qs")


@pytest.mark.parametrize(
    ("ranking", "cards", "message"),
    [
        ("badugi", ["As"], "not a stud ranking"),
        ("high", [], "1 to 4"),
        ("high", ["As", "Ks", "Qs", "Js", "Ts"], "1 to 4"),
        ("high", ["As", "As"], "twice"),
    ],
)
def test_bad_board(ranking: str, cards: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        board_strength(ranking, cards)


# --- properties ------------------------------------------------------------------------------


def test_values_ignore_card_order_and_suit_names() -> None:
    # a hand is a set of cards, and no suit outranks another for a pot (RR Section 3, Ties r.1):
    # shuffling the cards or renaming the suits consistently never changes a value
    rng = random.Random(11)
    for _ in range(400):
        for ranking in RANKINGS:
            size = rng.choice((4,) if ranking == "badugi" else (5, 6, 7))
            deck = [c for c in FULL_DECK if ranking != "short_deck" or c[0] in "6789TJQKA"]
            cards = rng.sample(deck, size)
            if "joker" in ranking and rng.random() < 0.3:
                cards[rng.randrange(size)] = "Xx"
            value = strength(ranking, cards)
            shuffled = rng.sample(cards, size)
            assert strength(ranking, shuffled) == value
            names = dict(zip("cdhs", rng.sample("cdhs", 4), strict=True))
            renamed = [c if c == "Xx" else c[0] + names[c[1]] for c in cards]
            assert strength(ranking, renamed) == value, (ranking, cards, renamed)


def test_low_values_ignore_suits_entirely() -> None:
    # RR Section 11, Ace-to-five: "Straights and flushes do not count against your hand."
    rng = random.Random(3)
    for _ in range(300):
        ranks = [rng.choice("A23456789TJQK") for _ in range(7)]
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        a = [r + s for r, s in zip(ranks, _suits_for(ranks, rng), strict=True)]
        b = [r + s for r, s in zip(ranks, _suits_for(ranks, rng), strict=True)]
        for ranking in ("ace_five_low", "low8"):
            assert strength(ranking, a) == strength(ranking, b)


def _suits_for(ranks: list[str], rng: random.Random) -> list[str]:
    free = {r: rng.sample("cdhs", 4) for r in set(ranks)}
    return [free[r].pop() for r in ranks]


def test_more_cards_are_the_best_five_of_them() -> None:
    # "best five of the cards" for every five-card ranking, the joker hands of six and seven
    # cards included (their five-card values are checked against PokerKit in the differential
    # tests): the value of n cards is the best value of any five of them
    from itertools import combinations

    rng = random.Random(17)
    for _ in range(60):
        for ranking in RANKINGS:
            if ranking == "badugi":
                continue
            deck = [c for c in FULL_DECK if ranking != "short_deck" or c[0] in "6789TJQKA"]
            cards = rng.sample(deck, rng.choice((6, 7, 8)))
            if "joker" in ranking:
                cards[0] = "Xx"
            fives = [strength(ranking, list(five)) for five in combinations(cards, 5)]
            best = max((v for v in fives if v is not None), default=None)
            assert strength(ranking, cards) == best, (ranking, cards)
