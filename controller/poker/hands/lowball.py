"""Low hands: ace-to-five (razz, California lowball, the low half of hi-lo games), the
eight-or-better qualifier, the joker in ace-to-five, and deuce-to-seven (Kansas City) lowball.

Every function here returns a *badness*: a smaller int is a better low hand and equal ints tie
(suits never break a tie for a pot: roberts-rules-v11.txt Section 3, Ties r.1).
``controller.poker.hands.rankings`` turns badness into the "higher is better" strength the engine
uses.

Ace-to-five (roberts-rules-v11.txt Section 11, Ace-to-five Lowball: "the best hand is any
5-4-3-2-A. An ace is the lowest-ranking card. For hands with a pair, A-A beats 2-2. Straights and
flushes do not count against your hand."; Section 9 Razz: "Aces are low only, and two aces are the
lowest pair."). The comparison beyond the rulebook examples (research/games-and-rankings.md §3.2,
gap 7; RR Section 11 r.15 treats "8-6" as better than "8-7") is the standard one: no pair beats
one pair beats two pair beats trips beats a full house beats quads; inside a category the grouped
cards are compared first, then the kickers, highest first, ace = lowest.

Badness layout (ace-to-five): ``category << 20 | f1 << 16 | ... | f5`` with category 0 no pair,
1 one pair, 2 two pair, 3 three of a kind, 4 full house, 5 four of a kind, and the fields the
ace-low rank indexes (0 = ace, 1 = deuce .. 12 = king), grouped cards first, then the kickers from
the highest down. The best five of six or seven cards come from a table keyed by the rank
multiset (the low 31 bits of an ``evaluate.CARD_CODES`` sum), filled as rank multisets are met.

Deuce-to-seven (RR Section 11, Deuce-to-seven Lowball: "the worst conventional poker hand wins.
Straights and flushes count against you ... The ace is used only as a high card ... The hand
5-4-3-2-A is not considered to be a straight, but an ace-5 high"): the badness is the
``evaluate`` high value of the five cards, except that A-5-4-3-2 is an ace-high hand (or an
ace-high flush when suited), never a straight.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import combinations, combinations_with_replacement

from controller.poker.hands.evaluate import (
    FLUSH,
    HIGH_CARD,
    STRAIGHT,
    STRAIGHT_FLUSH,
    VALID_VALUES,
    value_of_code,
)

NO_PAIR = 0
ONE_PAIR = 1
TWO_PAIR = 2
THREE_OF_A_KIND = 3
FULL_HOUSE = 4
FOUR_OF_A_KIND = 5

LOW_CATEGORY_NAMES: tuple[str, ...] = (
    "No pair",
    "One pair",
    "Two pair",
    "Three of a kind",
    "Full house",
    "Four of a kind",
)

RANK_KEY = (1 << 31) - 1
"""The bits of an ``evaluate.CARD_CODES`` sum that hold the base-5 rank multiset."""

_POW5: tuple[int, ...] = tuple(5**r for r in range(13))
# ace-low index (0 = ace .. 12 = king) -> standard index (0 = deuce .. 12 = ace), and back
_STD_OF_LOW: tuple[int, ...] = (12, *range(12))
LOW_OF_STD: tuple[int, ...] = (*range(1, 13), 0)

EIGHT = 7
"""The ace-low index of the eight: an eight-or-better low has no card above it
(roberts-rules-v11.txt Section 7 r.2: "five cards of different ranks that are an eight or
lower")."""


def _pack(category: int, fields: Iterable[int]) -> int:
    value = category
    n = 0
    for f in fields:
        value = value << 4 | f
        n += 1
    return value << 4 * (5 - n)


def _a5_badness(counts: list[tuple[int, int]]) -> int:
    """Best ace-to-five low of a rank multiset of five to seven cards given as (ace-low rank,
    count) pairs in ascending rank order. Using more distinct ranks always means less pairing, so
    every distinct rank is used up to five, and the lowest ranks are paired first."""
    ranks = [r for r, _ in counts]
    d = len(ranks)
    if d >= 5:
        low = ranks[:5]
        return _pack(NO_PAIR, reversed(low))
    if d == 4:
        pair = next(r for r, c in counts if c >= 2)
        return _pack(ONE_PAIR, (pair, *sorted((r for r in ranks if r != pair), reverse=True)))
    if d == 3:
        multi = [r for r, c in counts if c >= 2]
        if len(multi) >= 2:
            low_pair, high_pair = multi[0], multi[1]
            kicker = next(r for r in ranks if r not in (low_pair, high_pair))
            return _pack(TWO_PAIR, (high_pair, low_pair, kicker))
        trips = multi[0]
        return _pack(
            THREE_OF_A_KIND, (trips, *sorted((r for r in ranks if r != trips), reverse=True))
        )
    # two distinct ranks: a full house whenever one rank has three and the other two
    (a, ca), (b, cb) = counts
    if ca >= 3 and cb >= 2:
        return _pack(FULL_HOUSE, (a, b))
    if cb >= 3 and ca >= 2:
        return _pack(FULL_HOUSE, (b, a))
    quads, kicker = (a, b) if ca == 4 else (b, a)
    return _pack(FOUR_OF_A_KIND, (quads, kicker))


def _counts(key: int) -> list[tuple[int, int]]:
    """(ace-low rank, count) pairs, ascending, of a base-5 rank key."""
    counts = []
    for low in range(13):
        c = key // _POW5[_STD_OF_LOW[low]] % 5
        if c:
            counts.append((low, c))
    return counts


# Rank key -> badness, filled as keys are met: at most 73,775 entries (every 5-7 card rank
# multiset), so it never grows past a fixed bound; building them all at import would cost about
# a tenth of a second for games that never ask.
_A5_MEMO: dict[int, int] = {}


def a5_badness(code: int) -> int:
    """Ace-to-five badness of the best five of 5-7 cards whose ``CARD_CODES`` sum to ``code``."""
    key = code & RANK_KEY
    found = _A5_MEMO.get(key)
    if found is None:
        found = _A5_MEMO[key] = _a5_badness(_counts(key))
    return found


@cache
def a5_valid() -> frozenset[int]:
    """Every ace-to-five badness a hand can have (those of the five-card hands); built on first
    use, since only ``describe`` asks."""
    return frozenset(
        _a5_badness(_counts(sum(_POW5[r] for r in ranks)))
        for ranks in combinations_with_replacement(range(13), 5)
        if max(ranks.count(r) for r in ranks) <= 4
    )


def qualifies_for_eight(badness: int) -> bool:
    """Whether an ace-to-five badness is an eight-or-better low: five different ranks, none above
    the eight (roberts-rules-v11.txt Section 7 r.2, Section 10)."""
    return badness >> 20 == NO_PAIR and (badness >> 16 & 15) <= EIGHT


def a5_joker_badness(key: int) -> int:
    """Ace-to-five badness of 4-6 real cards (rank key ``key``) plus the joker, which "becomes the
    lowest card not present in your hand" (roberts-rules-v11.txt Section 11, Ace-to-five r.1;
    Glossary, JOKER: "In lowball, it is the lowest unmatched rank in a hand.")."""
    for low in range(13):
        p = _POW5[_STD_OF_LOW[low]]
        if key // p % 5 == 0:
            return a5_badness(key + p)
    raise AssertionError("four to six cards always miss a rank")  # pragma: no cover


# --- deuce-to-seven -------------------------------------------------------------------------

_ACE_FIVE_FIELDS = 12 << 16 | 3 << 12 | 2 << 8 | 1 << 4 | 0  # A-5-4-3-2, standard rank indexes


def _no_wheel(value: int) -> int:
    """The deuce-to-seven reading of a five-card high value: 5-4-3-2-A is not a straight but
    "an ace-5 high" (roberts-rules-v11.txt Section 11, Deuce-to-seven Lowball)."""
    category = value >> 20
    if category in (STRAIGHT, STRAIGHT_FLUSH) and value >> 16 & 15 == 3:
        return (FLUSH if category == STRAIGHT_FLUSH else HIGH_CARD) << 20 | _ACE_FIVE_FIELDS
    return value


def d27_five(code: int) -> int:
    """Deuce-to-seven badness of exactly five cards whose ``CARD_CODES`` sum to ``code``
    (unchecked: for hot loops that add the codes themselves)."""
    return _no_wheel(value_of_code(code))


def d27_badness(codes: tuple[int, ...]) -> int:
    """Deuce-to-seven badness (an ``evaluate``-layout high value, lower is better) of the best five
    of five or more cards given as ``CARD_CODES``."""
    if len(codes) == 5:
        return d27_five(sum(codes))
    return min(d27_five(sum(five)) for five in combinations(codes, 5))


@cache
def d27_valid() -> frozenset[int]:
    """Every deuce-to-seven badness a hand can have; built on first use (``describe``)."""
    return frozenset(_no_wheel(v) for v in VALID_VALUES)
