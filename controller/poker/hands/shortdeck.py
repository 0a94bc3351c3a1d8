"""Six-plus (short-deck) hold'em hands: the 36-card deck 6..A, where a flush beats a full house and
the ace also plays low in A-6-7-8-9.

The rulebook (jamies-poker-notes.md, Six Plus Hold'em (Short Deck): "The play is the same as Texas
Hold'em, except for the following differences: The deck only consists of 36 cards, with the twos,
threes, fours and fives removed. ... A flush beats a full-house, but not four-of-a-kind. In a
straight-flush or straight, an ace can be low (acting as a 5) as in 9-8-7-6-A or high as in
A-K-Q-J-10."). It lists no other change, so a straight still beats three of a kind; many
cardrooms (Triton, most online rooms) rank three of a kind above a straight instead, and that is
the ``trips_beat_straight`` setting (research/games-and-rankings.md §3.6 and gap 1).

A value is ``order << 24 | category << 20 | fields``: ``category`` and ``fields`` are the
``evaluate`` layout (category 8 straight flush .. 0 high card, standard rank indexes), so a value
names itself whatever the settings; ``order`` is the category's place in the order the settings
give, and is what makes the comparison right. The A-6-7-8-9 straight is a nine-high straight (its
top card is the nine, the ace "acting as a 5"): the lowest straight.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement

from controller.poker.hands.evaluate import (
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    ONE_PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
)

SHORT_RANKS = range(4, 13)
"""Standard rank indexes of the short deck: 4 (six) .. 12 (ace)."""

_ACE = 12
_SIX = 4
_NINE = 7
_POW5: tuple[int, ...] = tuple(5**r for r in range(13))


def category_order(*, trips_beat_straight: bool, flush_beats_full_house: bool) -> tuple[int, ...]:
    """Category (evaluate numbering) -> its place in the short-deck order, 0 the lowest."""
    order = [HIGH_CARD, ONE_PAIR, TWO_PAIR]
    order += [STRAIGHT, THREE_OF_A_KIND] if trips_beat_straight else [THREE_OF_A_KIND, STRAIGHT]
    order += [FULL_HOUSE, FLUSH] if flush_beats_full_house else [FLUSH, FULL_HOUSE]
    order += [FOUR_OF_A_KIND, STRAIGHT_FLUSH]
    place = [0] * 9
    for i, category in enumerate(order):
        place[category] = i
    return tuple(place)


def _straight_high(mask: int) -> int:
    for high in range(_ACE, _SIX + 3, -1):
        window = 0b11111 << (high - 4)
        if mask & window == window:
            return high
    low = 1 << _ACE | 0b1111 << _SIX  # A-6-7-8-9
    return _NINE if mask & low == low else -1


def _pack(category: int, fields: Sequence[int]) -> int:
    value = category
    for i in range(5):
        value = value << 4 | (fields[i] if i < len(fields) else 0)
    return value


def _build_flush_table() -> dict[int, int]:
    """13-bit rank mask of one suit (short-deck ranks only) -> its best flush or straight flush."""
    table: dict[int, int] = {}
    for sub in range(1 << 9):
        if sub.bit_count() < 5:
            continue
        mask = sub << _SIX
        high = _straight_high(mask)
        if high >= 0:
            table[mask] = _pack(STRAIGHT_FLUSH, (high,))
        else:
            table[mask] = _pack(FLUSH, [r for r in range(_ACE, -1, -1) if mask >> r & 1][:5])
    return table


def _best(counts: list[tuple[int, int]], trips_beat_straight: bool) -> int:
    """Best hand that is not a flush, for 5-7 cards given as (rank, count), highest rank first."""
    quads = [r for r, c in counts if c == 4]
    trips = [r for r, c in counts if c == 3]
    pairs = [r for r, c in counts if c == 2]
    singles = [r for r, c in counts if c == 1]
    if quads:
        kicker = max(r for r, _ in counts if r != quads[0])
        return _pack(FOUR_OF_A_KIND, (quads[0], kicker))
    if trips and (len(trips) > 1 or pairs):
        return _pack(FULL_HOUSE, (trips[0], max(trips[1:] + pairs)))
    mask = 0
    for r, _ in counts:
        mask |= 1 << r
    high = _straight_high(mask)
    straight = _pack(STRAIGHT, (high,)) if high >= 0 else -1
    if trips:
        set_value = _pack(THREE_OF_A_KIND, (trips[0], *singles[:2]))
        if straight < 0 or trips_beat_straight:
            return set_value
        return straight
    if straight >= 0:
        return straight
    if len(pairs) >= 2:
        return _pack(TWO_PAIR, (pairs[0], pairs[1], max(pairs[2:] + singles)))
    if pairs:
        return _pack(ONE_PAIR, (pairs[0], *singles[:3]))
    return _pack(HIGH_CARD, singles[:5])


def _counts(key: int) -> list[tuple[int, int]]:
    """(rank, count) pairs, highest rank first, of a base-5 rank key."""
    counts = []
    for r in range(_ACE, _SIX - 1, -1):
        c = key // _POW5[r] % 5
        if c:
            counts.append((r, c))
    return counts


# (rank key, trips first) -> best non-flush value, filled as keys are met (a fixed bound: every
# 5-7 card multiset of nine ranks, twice), so that games without the short deck pay nothing.
_MEMO: dict[tuple[int, bool], int] = {}


def rank_value(key: int, trips_beat_straight: bool) -> int:
    """Best non-flush value (``category << 20 | fields``) of 5-7 short-deck cards whose rank key
    (the low 31 bits of an ``evaluate.CARD_CODES`` sum) is ``key``."""
    memo_key = (key, trips_beat_straight)
    found = _MEMO.get(memo_key)
    if found is None:
        found = _MEMO[memo_key] = _best(_counts(key), trips_beat_straight)
    return found


FLUSH_TABLE: dict[int, int] = _build_flush_table()


@cache
def valid_values() -> frozenset[int]:
    """Every natural value (``category << 20 | fields``) a short-deck hand can have; built on
    first use (``describe``)."""
    return frozenset(
        _best(_counts(sum(_POW5[r] for r in ranks)), trips_first)
        for ranks in combinations_with_replacement(SHORT_RANKS, 5)
        if max(ranks.count(r) for r in ranks) <= 4
        for trips_first in (False, True)
    ) | frozenset(FLUSH_TABLE.values())
