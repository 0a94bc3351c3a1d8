"""The review in words (controller/surveillance/review_words.py): a hand's result adds up per
winner and keeps an uncalled bet returned apart from the winnings, each pot is named (main pot,
side pot N, uncalled bet returned) with its amount, and every event of a simulated session reads
as a sentence."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from controller.events import BODY_TYPES
from controller.poker.pots import UNCALLED
from controller.surveillance.review import HandSummary, Review
from controller.surveillance.review_words import (
    card_name,
    event_words,
    pot_lines,
    result_words,
)
from tests.controller.review_journal import simulated_journal

NAMES = {1: "Ann", 2: "Bob", 3: "Cyd", 4: "Dee"}


def award(amount: int, shares: dict[int, int], hand: str = "") -> dict[str, Any]:
    """An award as the core's ``PotAward.to_json`` writes it (seat keys as text)."""
    return {"amount": amount, "eligible": sorted(shares), "winners": sorted(shares),
            "shares": {str(s): n for s, n in shares.items()}, "hand": hand}


# --- the result --------------------------------------------------------------------------------


def test_a_winners_shares_add_up_instead_of_repeating() -> None:
    pots = [award(454, {4: 454}, "Flush"), award(756, {4: 756}, "Flush"), award(6, {4: 6})]
    assert result_words(pots, NAMES) == "1,216 to seat 4 Dee"


def test_an_uncalled_bet_is_returned_not_won() -> None:
    pots = [award(617, {3: 617}, UNCALLED), award(40, {3: 40})]
    assert result_words(pots, NAMES) == "40 to seat 3 Cyd; 617 returned to seat 3 Cyd (uncalled)"
    pots = [award(617, {3: 617}, UNCALLED), award(1_300, {1: 1_300}, "Two pair")]
    assert result_words(pots, NAMES) == \
        "1,300 to seat 1 Ann; 617 returned to seat 3 Cyd (uncalled)"


def test_split_pots_add_up_per_winner_biggest_first() -> None:
    # the core's order: the uncalled bet, the side pots from the highest level, the main pot
    pots = [award(439, {4: 439}, UNCALLED), award(538, {2: 538}, "One pair"),
            award(1_358, {1: 679, 3: 679}, "Straight"), award(50, {1: 25, 3: 25}, "Straight")]
    assert result_words(pots, NAMES) == \
        "704 to seat 1 Ann; 704 to seat 3 Cyd; 538 to seat 2 Bob; " \
        "439 returned to seat 4 Dee (uncalled)"


def test_the_hand_summary_says_the_sums_and_lists_each_pot() -> None:
    hand = HandSummary(7, 1, 90, 0, 45_000, "nlhe", "No-limit hold'em", 1,
                       tuple(NAMES.items()), outcome="complete",
                       pots=[award(617, {3: 617}, UNCALLED), award(300, {2: 300}, "Flush"),
                             award(1_200, {2: 600, 4: 600}, "Straight")])
    got = hand.to_json()
    assert got["result"] == "900 to seat 2 Bob; 600 to seat 4 Dee; " \
                            "617 returned to seat 3 Cyd (uncalled)"
    assert [p["text"] for p in got["pot_lines"]] == [
        "Main pot: 1,200, split 600 to seat 2 Bob, 600 to seat 4 Dee (Straight)",
        "Side pot 1: 300 to seat 2 Bob (Flush)",
        "Uncalled bet returned: 617 to seat 3 Cyd"]
    assert [(p["pot"], p["amount"]) for p in got["pot_lines"]] == [
        ("Main pot", 1_200), ("Side pot 1", 300), ("Uncalled bet returned", 617)]
    assert HandSummary(8, 1, 2, 0, 0, "nlhe", "", 1, (), outcome="misdeal").result() == "misdeal"


def test_side_pots_are_numbered_up_from_the_main_pot() -> None:
    pots = [award(30, {1: 30}), award(20, {2: 20}), award(10, {3: 10})]  # highest level first
    assert [p["pot"] for p in pot_lines(pots, NAMES)] == ["Main pot", "Side pot 1", "Side pot 2"]
    assert [p["amount"] for p in pot_lines(pots, NAMES)] == [10, 20, 30]


# --- an event ----------------------------------------------------------------------------------

SNAP: dict[str, Any] = {"seats": [{"seat": 3, "player": "Cyd", "up": ["As"]},
                                  {"seat": 2, "player": "Bob", "up": []}],
                        "hand": {"number": 12, "button": 3}, "table": {"name": "Razz"}}


@pytest.mark.parametrize(("event", "card", "words"), [
    ({"type": "zone.read", "uid": "U1", "zone": "seat:2"}, "Td", "10♦ to seat 2 Bob (hole)"),
    ({"type": "zone.read", "uid": "U1", "zone": "seat:3"}, "As", "A♠ to seat 3 Cyd (up)"),
    ({"type": "zone.read", "uid": "U1", "zone": "burn"}, "2c", "2♣ burned"),
    ({"type": "zone.read", "uid": "U1", "zone": "board"}, "Kh", "K♥ to the board"),
    ({"type": "zone.leave", "uid": "U1", "zone": "seat:2", "lost": True}, "Kh",
     "K♥ leaves seat 2 Bob, read nowhere else (lost)"),
    ({"type": "shoe.draw", "uid": "U1", "face_up": True}, "Xx", "joker leaves the shoe face up"),
    ({"type": "shoe.draw", "uid": "U9", "face_up": False}, "tag U9", "tag U9 leaves the shoe"),
    ({"type": "action", "seat": 2, "kind": "bet", "amount": 200}, None, "seat 2 Bob bets 200"),
    ({"type": "action", "seat": 3, "kind": "raise", "amount": 1_500}, None,
     "seat 3 Cyd raises to 1,500"),
    ({"type": "action", "seat": 3, "kind": "raise", "amount": None}, None,
     "seat 3 Cyd raises (the amount from the chips)"),
    ({"type": "action", "seat": 2, "kind": "post", "amount": 1, "blind": "small_blind"}, None,
     "seat 2 Bob posts 1 (small blind)"),
    ({"type": "action", "seat": 2, "kind": "fold", "amount": None}, None, "seat 2 Bob folds"),
    ({"type": "action", "seat": 2, "kind": "draw", "amount": 0}, None, "seat 2 Bob stands pat"),
    ({"type": "hand.start", "button": None}, None, "hand 12 starts, button at seat 3"),
    ({"type": "seat.take", "seat": 5, "player": "Eve", "stack": 2_000, "post": False}, None,
     "seat 5: Eve sits down with 2,000"),
    ({"type": "seat.take", "seat": 2, "player": "Bob", "stack": 200, "post": False}, None,
     "seat 2 Bob re-buys for 200"),
    ({"type": "card.exposed", "card": "Qs", "by": "dealer"}, None, "Q♠ exposed by the dealer"),
    ({"type": "floor.ruling", "text": "play on", "code": "FLOP_PREMATURE", "outcome": "stand"},
     None, "floor ruling (stand) on FLOP_PREMATURE: play on"),
    ({"type": "chips.zone", "zone": "bet:2", "total": 1_025}, None,
     "chips in seat 2 Bob's bet: 1,025"),
    ({"type": "some.new", "x": 1}, None, "some.new: x 1"),
])
def test_an_event_in_words(event: dict[str, Any], card: str | None, words: str) -> None:
    assert event_words({"seq": 5, "ts": 0, **event}, SNAP, NAMES, card) == words


def test_the_hand_end_says_what_each_seat_took() -> None:
    snap = {**SNAP, "results": [award(5, {2: 5}, UNCALLED), award(40, {2: 40})]}
    assert event_words({"type": "hand.end"}, snap, NAMES) == \
        "pots awarded: 40 to seat 2 Bob; 5 returned to seat 2 Bob (uncalled)"


def test_card_names() -> None:
    assert [card_name(c) for c in ("As", "Td", "9c", "Xx", "tag 00FF")] == \
        ["A♠", "10♦", "9♣", "joker", "tag 00FF"]


def test_every_event_of_a_session_reads_as_words_and_every_result_adds_up(
        tmp_path: Path) -> None:
    journal = tmp_path / "table.sqlite"
    simulated_journal(journal)
    review = Review(journal)
    uncalled = 0
    for hand in review.refresh().hands:
        steps = review.steps(hand.number)
        for step in steps["steps"]:
            # a word of its own for every type the table journals: never the raw fallback
            assert step["text"] and not step["text"].startswith(step["type"]), step
        lines = steps["hand"]["pot_lines"]
        assert sum(p["amount"] for p in lines) == sum(p["amount"] for p in hand.pots)
        assert sum(s["chips"] for p in lines for s in p["shares"]) == \
            sum(p["amount"] for p in hand.pots)
        if any(p["hand"] == UNCALLED for p in hand.pots):
            uncalled += 1
            assert hand.result().endswith("(uncalled)")
            assert lines[-1]["pot"] == "Uncalled bet returned"
            # the step before the award shows it as the core does: a return, in no pot
            [returned] = [p for p in hand.pots if p["hand"] == UNCALLED]
            types = [st["type"] for st in steps["steps"]]
            before = steps["steps"][types.index("hand.end") - 1]["hand"]
            assert before["uncalled"] == {"seat": returned["winners"][0],
                                          "amount": returned["amount"]}
            assert len(before["pots"]) + 1 == len(hand.pots)
    assert uncalled >= 1  # the session has a hand that returns an uncalled bet


def test_every_event_type_has_words_of_its_own() -> None:
    """A new event type gets its words here, not the raw fallback (``type: fields``)."""
    fallback = [t for t in BODY_TYPES if event_words({"type": t}, {}, {}).startswith(t)]
    assert fallback == []
