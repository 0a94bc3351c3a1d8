"""Badugi hands: the best set of cards of different ranks *and* different suits, aces low.

The rule (wsop-2009-live-action-rules.md Section 12 Badugi r.1: "A Badugi consists of four cards of
different suits and ranks, with the lowest four card badugi being the winner. For example, the
best hand consists of A-2-3-4 club, diamond, heart, spade in any sequence."; r.2: "in this case the
best three, two, or even one card badugi will be awarded the pot.(ex. Ad-2c-3h-6h vs. Ac-3d-4h-5h,
the winning hand would be Ad-2c-3h-6h because that hand consists of the three lowest, unsuited
cards, Ad-2c-3h.)"; jamies-poker-notes.md, Badugi: "the more cards, the better", "The hand cannot
have two or more cards of the same rank, or two or more cards of the same suit. Cards must be
discounted from the hand", "ties are broken by the highest card in the hand, whereby the higher,
the worse. Aces count as low.").

Value layout (higher is better, equal values tie):
``size << 16 | g1 << 12 | g2 << 8 | g3 << 4 | g4`` where ``size`` is the number of cards that
play (1..4) and ``g_i = 12 - rank`` for the playing ranks from the highest down
(ace-low ranks: 0 = ace .. 12 = king), unused fields 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

_SUBSETS: dict[int, tuple[tuple[tuple[int, ...], ...], ...]] = {}


def _subsets(n: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Index subsets of n cards grouped by size, the largest size first (at most four play)."""
    found = _SUBSETS.get(n)
    if found is None:
        found = tuple(tuple(combinations(range(n), k)) for k in range(min(n, 4), 0, -1))
        _SUBSETS[n] = found
    return found


for _n in range(1, 9):
    _subsets(_n)


def badugi_value(ranks: Sequence[int], suits: Sequence[int]) -> int:
    """Value of the best badugi among cards given as ace-low ranks (0 = ace .. 12 = king) and
    suit indexes; the cards are distinct (checked by the caller)."""
    for group in _subsets(len(ranks)):
        best = -1
        for idx in group:
            rs = {ranks[i] for i in idx}
            if len(rs) != len(idx) or len({suits[i] for i in idx}) != len(idx):
                continue
            value = 0
            for r in sorted(rs, reverse=True):
                value = value << 4 | (12 - r)
            value <<= 4 * (4 - len(idx))
            if value > best:
                best = value
        if best >= 0:
            return len(group[0]) << 16 | best
    raise ValueError("a badugi hand needs at least one card")


def badugi_size(value: int) -> int:
    """How many cards play in a badugi value (4 is a four-card badugi)."""
    return value >> 16


def badugi_ranks(value: int) -> tuple[int, ...]:
    """The playing ace-low ranks of a badugi value, highest first."""
    size = value >> 16
    return tuple(12 - (value >> (12 - 4 * i) & 15) for i in range(size))


def is_badugi_value(value: int) -> bool:
    """Whether ``value`` is the value of some badugi hand."""
    if not isinstance(value, int) or value < 0 or value >> 16 not in (1, 2, 3, 4):
        return False
    size = value >> 16
    fields = [value >> (12 - 4 * i) & 15 for i in range(4)]
    if any(f > 12 for f in fields[:size]) or any(fields[size:]):
        return False
    # distinct ranks, highest first: the g fields strictly increase
    return all(fields[i] < fields[i + 1] for i in range(size - 1))
