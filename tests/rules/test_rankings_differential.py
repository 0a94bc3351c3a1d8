"""Differential tests of the hand rankings against PokerKit's hand types and treys.

Every case of ``bench.differential`` (one per ranking, plus Omaha high and Omaha eight-or-better,
plus treys for high) runs on a fixed-seed sample of 20,000 hands here under the ``long`` marker
(``make test-long``), on its first 4,000 hands in the default suite; ``python -m
bench.differential`` runs the same comparison on a million hands per ranking. Each sample must
order every dealt pair exactly as the peer does, ties included, and its values must be the same
order as the peer's over all the hands seen.

The rulebooks and PokerKit part ways only where a house setting departs from the rulebook
default; each such case is named below with its hands and its rule.
"""

from __future__ import annotations

import random

import pytest
from pokerkit import ShortDeckHoldemHand, StandardHighHand

from bench.differential import (
    CASES,
    SHORT_DECK,
    Case,
    Hand,
    compare,
    run,
)
from controller.poker.cards import FULL_DECK
from controller.poker.hands.rankings import describe, strength
from tests.sizes import sizes

SAMPLE = 20_000  # hands per ranking under ``long`` (make test-long; the CI sample)
CHUNK = SAMPLE // 2
SLICE = 4_000  # the default suite's: the first hands of the same sample


@pytest.mark.parametrize("hands", sizes(SLICE, SAMPLE))
@pytest.mark.parametrize("case", sorted(CASES))
def test_same_order_as_the_peer(case: str, hands: int) -> None:
    # two processes for the full sample, as the bench does: PokerKit is slow (about 1,700 Omaha
    # hands a second); the slice, one chunk, is dealt in this process from the same seed
    result = run(case, hands, seed=2024, jobs=2, chunk=CHUNK)
    assert result.hands == hands
    assert result.disagreements == 0, "\n".join(result.examples)
    assert result.order_violations() == []
    # the sample is not trivial: many distinct hand values are compared (all 56 eight-or-better
    # lows and "no low" for the low8 cases)
    assert len(result.pairs_of_values) > 50


def test_a_wrong_ranking_is_caught() -> None:
    # the harness can fail: deuce-to-seven values against PokerKit's ace-to-five hands
    wrong = Case(
        "wrong",
        CASES["deuce_seven_low"].deal,
        CASES["deuce_seven_low"].ours,
        CASES["ace_five_low_joker"].theirs,
        "PokerKit RegularLowHand",
    )
    result = compare(wrong, 2_000, "wrong")
    assert result.disagreements > 100
    assert result.order_violations()


# --- where a house setting rules differently from PokerKit ----------------------------------


def _pk_short(cards: str) -> int:
    return int(ShortDeckHoldemHand(cards.replace(" ", "")).entry.index)


def _order(a: int, b: int) -> int:
    return (a > b) - (a < b)


def _sd(cards: str, **settings: bool) -> int:
    value = strength("short_deck", cards.split(), **settings)
    assert value is not None
    return value


def test_short_deck_trips_over_straight_is_a_setting_pokerkit_does_not_have() -> None:
    # jamies-poker-notes.md, Six Plus Hold'em lists the only ranking change ("A flush beats a
    # full-house"), so by default a straight beats trips, as in PokerKit. Triton and most online
    # rooms rank trips above a straight: the house setting trips_beat_straight=True, where we
    # disagree with PokerKit by design.
    trips, straight = "6s 6d 6h Ac Kd", "6c 7d 8h 9s Tc"
    assert _pk_short(straight) > _pk_short(trips)
    assert _sd(straight) > _sd(trips)
    assert _sd(trips, trips_beat_straight=True) > _sd(straight, trips_beat_straight=True)


def test_short_deck_with_the_setting_disagrees_only_on_trips_against_straights() -> None:
    # every disagreement with PokerKit under trips_beat_straight=True is a set against a straight
    deal = CASES["short_deck"].deal
    rng = random.Random(7)
    disagreements = 0
    for _ in range(3_000):
        a, b = deal(rng)
        ours = [_sd(" ".join(h[0] + h[1]), trips_beat_straight=True) for h in (a, b)]
        theirs = [ShortDeckHoldemHand.from_game("".join(h[0]), "".join(h[1])) for h in (a, b)]
        order_theirs = _order(theirs[0].entry.index, theirs[1].entry.index)
        if _order(*ours) != order_theirs:
            disagreements += 1
            # our reading and PokerKit's: a set against a straight, or a straight that PokerKit
            # plays where the setting plays the set held with it
            names = {describe("short_deck", v).split(",")[0] for v in ours}
            names |= {t.entry.label.value for t in theirs}
            assert names == {"Straight", "Three of a kind"}, (a, b)
    assert disagreements > 0


def test_short_deck_full_house_over_flush_is_a_setting() -> None:
    # jamies-poker-notes.md, Six Plus Hold'em: "A flush beats a full-house, but not
    # four-of-a-kind." (PokerKit too); flush_beats_full_house=False restores the standard order
    flush, boat = "Ah Kh 9h 8h 6h", "Ks Kd Kc 6s 6d"
    assert _pk_short(flush) > _pk_short(boat)
    assert _sd(flush) > _sd(boat)
    assert _sd(boat, flush_beats_full_house=False) > _sd(flush, flush_beats_full_house=False)


def test_five_aces_has_no_pokerkit_hand() -> None:
    # roberts-rules-v11.txt Section 12, The Joker r.4: "Five aces is the best possible hand (four
    # aces and joker)." PokerKit has no joker and no five of a kind; the differential's joker peer
    # puts five aces above every PokerKit entry.
    five_aces = strength("high_joker", ["As", "Ah", "Ad", "Ac", "Xx"])
    royal = strength("high_joker", ["Ks", "Qs", "Js", "Ts", "Xx"])
    assert five_aces is not None and royal is not None and five_aces > royal
    assert describe("high_joker", five_aces) == "Five aces"
    assert describe("high_joker", royal) == "Royal flush"
    peer = CASES["high_joker"].theirs
    best_natural = int(StandardHighHand("AsKsQsJsTs").entry.index)
    hand: Hand = (("As", "Ah", "Ad", "Ac", "Xx"), ())
    key = peer(hand)
    assert key is not None and key > best_natural


def test_samples_are_from_the_right_decks() -> None:
    rng = random.Random(1)
    a, b = CASES["short_deck"].deal(rng)
    assert set(a[0] + a[1] + b[0]) <= set(SHORT_DECK)
    a, b = CASES["badugi"].deal(rng)
    assert len(a[0]) == 4 and not set(a[0]) & set(b[0])
    assert set(a[0]) <= set(FULL_DECK)
