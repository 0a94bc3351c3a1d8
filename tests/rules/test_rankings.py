"""Unit tests of the hand rankings (controller/rules/rankings.py): the rulebooks' own examples for
every ranking, the edges between categories, the names a dealer reads, and bad input."""

from __future__ import annotations

import pytest

from controller.rules.rankings import (
    RANKINGS,
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


# --- eight or better -------------------------------------------------------------------------


def test_low8_qualifier_boundaries() -> None:
    # RR Section 7 r.2: "five cards of different ranks that are an eight or lower"
    assert name("low8", "8c 7d 6h 5s 4c") == "Eight-seven low (8-7-6-5-4)"
    assert s("low8", "9c 7d 6h 5s 4c") is None
    assert s("low8", "Ac Ad 2h 3s 4c") is None  # a pair is not five different ranks
    assert s("low8", "Ac 2d 3h 4s 9c Kd Kh") is None
    assert s("low8", "Ac 2d 3h 4s 8c Kd Kh") == s("ace_five_low", "Ac 2d 3h 4s 8c")


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


# --- suits -----------------------------------------------------------------------------------


def test_suit_rank() -> None:
    # RR Section 3, Ties r.1: "spades, hearts, diamonds, clubs"
    assert [suit_rank(c) for c in ("As", "Ah", "Ad", "Ac")] == [3, 2, 1, 0]


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
    ],
)
def test_bad_input_is_a_clear_error(ranking: str, cards: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        strength(ranking, cards)  # type: ignore[arg-type]


# --- stud boards -----------------------------------------------------------------------------


def test_high_board_counts_pairs_then_high_cards() -> None:
    # RR Section 8 r.2: "the high hand on board initiates the action"
    from controller.rules.rankings import board_strength as b

    assert b("high", ["2s", "2d"]) > b("high", ["As", "Kd"])
    assert b("high", ["As", "Ad", "Kc"]) > b("high", ["2s", "2d", "3c"])
    assert b("high", ["2s", "2d", "3c", "3d"]) > b("high", ["As", "Ad", "Kc", "Qd"])
    assert b("high", ["2s", "2d", "2c"]) > b("high", ["As", "Ad", "Kc", "Kd"])
    # no straights or flushes on board; suits never matter
    assert b("high", ["5s", "6s", "7s", "8s"]) < b("high", ["2c", "2d", "3h", "4s"])
    assert b("high", ["As", "Kd"]) == b("high", ["Ac", "Kh"])
    assert b("low8", ["As", "Kd"]) == b("high", ["As", "Kd"])


def test_low_board_for_razz() -> None:
    # RR Section 9 r.2: "The low hand acts first on all subsequent rounds."; aces low
    from controller.rules.rankings import board_strength as b

    assert b("ace_five_low", ["As", "2d"]) > b("ace_five_low", ["3s", "2d"])
    assert b("ace_five_low", ["7s", "5d", "4c"]) > b("ace_five_low", ["7s", "6d", "2c"])
    assert b("ace_five_low", ["Ks", "Qd"]) > b("ace_five_low", ["As", "Ad"])
    assert b("ace_five_low", ["As", "Ad", "2c"]) > b("ace_five_low", ["2s", "2d", "Ac"])


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
    from controller.rules.rankings import board_strength

    with pytest.raises(ValueError, match=message):
        board_strength(ranking, cards)
