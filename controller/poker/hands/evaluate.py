"""High-hand evaluation: the best five-card poker hand out of 5, 6 or 7 cards, as one integer.

The showdown asks one question of this module: which of these hands is best, and which tie. A
hand's *value* is an int; a higher value is a better hand and equal values are a tie, because
suits never break a tie for a pot (roberts-rules-v11.txt, Section 3 General Poker Rules, Ties,
rule 1: "Suits never break a tie for winning a pot.").

Ranking (research/games-and-rankings.md §3.1; jamies-poker-notes.md, Poker-Hand Rankings): straight
flush > four of a kind > full house > flush > straight > three of a kind > two pair > one pair >
high card; the ace plays high, or low only in the 5-4-3-2-A straight (the "wheel"); there is no
wrap-around straight. Ties within a category go by the main cards, then the kickers
(jamies-poker-notes.md, Poker-Hand Rankings, tie-break list; azwine-tour-tournament-rules.txt,
How to Deal, The Showdown r.5). A hold'em player may use any five of the seven cards, the board
alone included (roberts-rules-v11.txt, Section 5 Holdem, intro: "play the board").

Value layout: ``category << 20 | f1 << 16 | f2 << 12 | f3 << 8 | f4 << 4 | f5`` where the
category is 8 (straight flush) .. 0 (high card) and f1.. are the rank indexes (0 = deuce ..
12 = ace) that decide ties inside the category, most significant first (unused fields are 0).

Speed: the evaluator has to reach hundreds of thousands of seven-card evaluations per second in
pure Python, so a hand is not sorted or grouped per call. Each card is an int *code* built so that
the sum of a hand's codes carries everything needed:

* bits 0-30: the sum of ``5 ** rank`` -- the rank multiset in base 5 (at most four of a rank, so
  the digits never carry) -- the key of a table of every 5-, 6- and 7-card rank multiset;
* bits 31-46: four 4-bit suit counters; adding 3 to each sets its top bit exactly when the suit
  has five or more cards, so one addition and one mask test detect a flush;
* bits 48-111: one 13-bit rank mask per suit (distinct cards never carry), the key of a table of
  every flush and straight flush.

With a flush among at most seven cards neither quads nor a full house is possible (they would
need three cards outside the flush suit), so the flush table alone answers a flushed hand.

Codes add, so a hot loop can precompute the board's code once and add each player's two cards:
``value_of_code(board_code + hole_code)``. The tables are built once at import, deterministically.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType

from controller.poker.cards import RANKS, SUITS

STRAIGHT_FLUSH = 8
FOUR_OF_A_KIND = 7
FULL_HOUSE = 6
FLUSH = 5
STRAIGHT = 4
THREE_OF_A_KIND = 3
TWO_PAIR = 2
ONE_PAIR = 1
HIGH_CARD = 0

CATEGORY_NAMES: tuple[str, ...] = (
    "High card",
    "One pair",
    "Two pair",
    "Three of a kind",
    "Straight",
    "Flush",
    "Full house",
    "Four of a kind",
    "Straight flush",
)

_ACE = 12
_RANK_BITS = 31  # 5**13 - 1 < 2**31: room for the base-5 rank multiset
_SUIT_COUNT_SHIFT = _RANK_BITS
_MASK_SHIFT = 48
_RANK_KEY = (1 << _RANK_BITS) - 1
_FLUSH_ADD = sum(3 << (_SUIT_COUNT_SHIFT + 4 * s) for s in range(4))
_FLUSH_TEST = sum(8 << (_SUIT_COUNT_SHIFT + 4 * s) for s in range(4))

_SINGULAR = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
             "jack", "queen", "king", "ace")  # fmt: skip
_PLURAL = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
           "jacks", "queens", "kings", "aces")  # fmt: skip


_POW5: tuple[int, ...] = tuple(5**r for r in range(13))


def _card_code(rank: int, suit: int) -> int:
    return (
        _POW5[rank]
        + (1 << (_SUIT_COUNT_SHIFT + 4 * suit))
        + (1 << (_MASK_SHIFT + 16 * suit + rank))
    )


CARD_CODES: Mapping[str, int] = MappingProxyType(
    {r + s: _card_code(ri, si) for si, s in enumerate(SUITS) for ri, r in enumerate(RANKS)}
)
"""Card string ('As') -> its code. Sum the codes of a hand for ``value_of_code``."""


def _pack(category: int, fields: Sequence[int]) -> int:
    value = category
    for i in range(5):
        value = (value << 4) | (fields[i] if i < len(fields) else 0)
    return value


def _straight_high(mask: int) -> int:
    """The top rank of the highest straight in a 13-bit rank mask, or -1 when there is none."""
    for high in range(_ACE, 3, -1):
        window = 0b11111 << (high - 4)
        if mask & window == window:
            return high
    wheel = (1 << _ACE) | 0b1111  # A-2-3-4-5: the ace plays low, the five is the top card
    return 3 if mask & wheel == wheel else -1


_STRAIGHT_HIGH: list[int] = [_straight_high(mask) for mask in range(1 << 13)]


def _build_flush_table() -> list[int]:
    """Value of the best flush in each 13-bit rank mask of one suit (0 below five cards)."""
    table = [0] * (1 << 13)
    for mask in range(1 << 13):
        if mask.bit_count() < 5:
            continue
        high = _STRAIGHT_HIGH[mask]
        if high >= 0:
            table[mask] = _pack(STRAIGHT_FLUSH, (high,))
        else:
            top = [r for r in range(_ACE, -1, -1) if mask >> r & 1][:5]
            table[mask] = _pack(FLUSH, top)
    return table


def _groups_value(
    quads: tuple[int, ...],
    trips: tuple[int, ...],
    pairs: tuple[int, ...],
    singles: tuple[int, ...],
    mask: int,
) -> int:
    """Best non-flush five-card hand of 5-7 cards given as the ranks held four, three, two and
    one time (each tuple highest first) and the mask of ranks present. Fields are packed by hand
    (see the module docstring) because this runs for every rank multiset at import."""
    if quads:
        # the kicker is the best other rank, whether it comes from trips, a pair or a single
        return FOUR_OF_A_KIND << 20 | quads[0] << 16 | max(trips + pairs + singles) << 12
    if trips and (len(trips) > 1 or pairs):
        # a second set of trips plays as the pair of the full house
        return FULL_HOUSE << 20 | trips[0] << 16 | max(trips[1:] + pairs) << 12
    high = _STRAIGHT_HIGH[mask]
    if high >= 0:
        return STRAIGHT << 20 | high << 16
    if trips:
        return THREE_OF_A_KIND << 20 | trips[0] << 16 | singles[0] << 12 | singles[1] << 8
    if len(pairs) >= 2:
        # a third pair's rank may be the kicker
        kicker = max(pairs[2:] + singles)
        return TWO_PAIR << 20 | pairs[0] << 16 | pairs[1] << 12 | kicker << 8
    if pairs:
        p, s = pairs[0], singles
        return ONE_PAIR << 20 | p << 16 | s[0] << 12 | s[1] << 8 | s[2] << 4
    s = singles
    return HIGH_CARD << 20 | s[0] << 16 | s[1] << 12 | s[2] << 8 | s[3] << 4 | s[4]


def _build_rank_table() -> dict[int, int]:
    """Value of the best non-flush hand for every 5-, 6- and 7-card rank multiset, keyed by the
    base-5 sum of its ranks (the low bits of a hand code).

    A depth-first walk adds ranks from the ace down, so each multiset is visited once, with its
    groups already in order; this keeps the build to a fraction of a second."""
    table: dict[int, int] = {}

    def visit(
        below: int,
        n: int,
        key: int,
        mask: int,
        groups: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]],
    ) -> None:
        quads, trips, pairs, singles = groups
        for r in range(below, -1, -1):
            with_r = mask | 1 << r
            for count in range(1, min(4, 7 - n) + 1):
                if count == 1:
                    grown = (quads, trips, pairs, (*singles, r))
                elif count == 2:
                    grown = (quads, trips, (*pairs, r), singles)
                elif count == 3:
                    grown = (quads, (*trips, r), pairs, singles)
                else:
                    grown = ((*quads, r), trips, pairs, singles)
                size = n + count
                code = key + count * _POW5[r]
                if size >= 5:
                    table[code] = _groups_value(*grown, with_r)
                if size < 7 and r:
                    visit(r - 1, size, code, with_r, grown)

    visit(_ACE, 0, 0, 0, ((), (), (), ()))
    return table


_FLUSH_TABLE: list[int] = _build_flush_table()
_RANK_TABLE: dict[int, int] = _build_rank_table()
# the flush-test bit that is set -> how far to shift the code to bring that suit's mask down
_FLUSH_SHIFT: dict[int, int] = {
    8 << (_SUIT_COUNT_SHIFT + 4 * s): _MASK_SHIFT + 16 * s for s in range(4)
}
_VALID_VALUES: frozenset[int] = frozenset(_RANK_TABLE.values()) | frozenset(
    v for v in _FLUSH_TABLE if v
)


# The building blocks other rankings reuse (rankings.py, joker.py, lowball.py): read-only by
# convention, exposed under public names so that no module reaches into another's privates.
RANK_KEY = _RANK_KEY
"""The bits of a code sum that hold the base-5 rank multiset (the key of ``RANK_TABLE``)."""
RANK_TABLE: Mapping[int, int] = MappingProxyType(_RANK_TABLE)
"""Rank multiset key of 5-7 cards -> value of the best hand that is not a flush."""
rank_value: Callable[[int], int] = _RANK_TABLE.__getitem__
"""``RANK_TABLE[key]`` without the read-only view's overhead, for hot loops (equity's Omaha): the
value ``value_of_code`` gives a code whose rank bits are ``key`` and that holds no flush."""
FLUSH_TABLE: Sequence[int] = tuple(_FLUSH_TABLE)
"""13-bit rank mask of one suit -> value of its best flush or straight flush (0 below five)."""
STRAIGHT_HIGH: Sequence[int] = tuple(_STRAIGHT_HIGH)
"""13-bit rank mask -> the top rank index of its highest straight, or -1 (the wheel gives 3)."""
VALID_VALUES: frozenset[int] = _VALID_VALUES
"""Every value a hand can have (the values of all five-card hands)."""
MASK_SHIFT = _MASK_SHIFT
"""Bit offset of the clubs rank mask in a code; suit ``s`` (index in ``SUITS``) is at
``MASK_SHIFT + 16 * s``."""
SUIT_COUNT_SHIFT = _SUIT_COUNT_SHIFT
"""Bit offset of the clubs 4-bit card counter in a code; suit ``s`` is at ``+ 4 * s``."""
RANK_WORDS: tuple[str, ...] = _SINGULAR
"""Rank index -> its name ("two" .. "ace")."""
RANK_WORDS_PLURAL: tuple[str, ...] = _PLURAL
"""Rank index -> its plural name ("twos" .. "aces")."""


def value_of_code(code: int) -> int:
    """Value of the hand whose card codes sum to ``code`` (5 to 7 distinct cards).

    The hot path: no checking. A code that is not such a sum gives a meaningless value or a
    KeyError; use ``hand_value`` for anything that comes from outside."""
    flush = (code + _FLUSH_ADD) & _FLUSH_TEST
    if flush:
        return _FLUSH_TABLE[(code >> _FLUSH_SHIFT[flush]) & 0x1FFF]
    return _RANK_TABLE[code & _RANK_KEY]


def hand_value_ints(codes: Iterable[int]) -> int:
    """Value of a hand given as card codes (``CARD_CODES``); unchecked, for hot loops."""
    return value_of_code(sum(codes))


def hand_code(cards: Sequence[str]) -> int:
    """The code of a set of distinct cards (any number, e.g. a board or two hole cards);
    raises ValueError naming the problem for anything that is not a card, or a repeated card."""
    if isinstance(cards, str) or not isinstance(cards, Sequence):
        raise ValueError(f"expected a sequence of cards such as ['As', 'Td'], got {cards!r}")
    code = 0
    for card in cards:
        c = CARD_CODES.get(card) if isinstance(card, str) else None
        if c is None:
            raise ValueError(
                f"not a card: {card!r} (expected rank 2-9TJQKA + suit cdhs, e.g. 'As')"
            )
        code += c
    if len(set(cards)) != len(cards):
        dupes = sorted({c for c in cards if list(cards).count(c) > 1})
        raise ValueError(f"the same card appears twice: {', '.join(dupes)}")
    return code


def hand_value(cards: Sequence[str]) -> int:
    """Best five-card high hand out of 5, 6 or 7 cards ('As', 'Td', ...). Higher int = better hand;
    equal ints = a tie (suits never break ties: roberts-rules-v11.txt §3 Ties r.1)."""
    if isinstance(cards, str) or not isinstance(cards, Sequence):
        raise ValueError(f"expected a sequence of cards such as ['As', 'Td', ...], got {cards!r}")
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"a hand is 5, 6 or 7 cards, got {len(cards)}: {list(cards)!r}")
    return value_of_code(hand_code(cards))


def _check(value: int) -> int:
    if not isinstance(value, int) or value not in _VALID_VALUES:
        raise ValueError(f"not a hand value: {value!r}")
    return value


def hand_category(value: int) -> int:
    """8 straight flush, 7 four of a kind, 6 full house, 5 flush, 4 straight, 3 three of a kind,
    2 two pair, 1 one pair, 0 high card."""
    return _check(value) >> 20


def _fields(value: int) -> tuple[int, int, int, int, int]:
    return (value >> 16 & 15, value >> 12 & 15, value >> 8 & 15, value >> 4 & 15, value & 15)


def _chars(ranks: Iterable[int]) -> str:
    return "-".join(RANKS[r] for r in ranks)


def hand_name(value: int) -> str:
    """The hand as a dealer reads it, e.g. "Full house, kings full of sevens"."""
    category = hand_category(value)
    f = _fields(value)
    if category == STRAIGHT_FLUSH:
        return "Royal flush" if f[0] == _ACE else f"Straight flush, {_SINGULAR[f[0]]} high"
    if category == FOUR_OF_A_KIND:
        return f"Four of a kind, {_PLURAL[f[0]]}, {_SINGULAR[f[1]]} kicker"
    if category == FULL_HOUSE:
        return f"Full house, {_PLURAL[f[0]]} full of {_PLURAL[f[1]]}"
    if category == FLUSH:
        return f"Flush, {_SINGULAR[f[0]]} high ({_chars(f)})"
    if category == STRAIGHT:
        return f"Straight, {_SINGULAR[f[0]]} high"
    if category == THREE_OF_A_KIND:
        return f"Three of a kind, {_PLURAL[f[0]]}, kickers {_chars(f[1:3])}"
    if category == TWO_PAIR:
        return f"Two pair, {_PLURAL[f[0]]} and {_PLURAL[f[1]]}, {_SINGULAR[f[2]]} kicker"
    if category == ONE_PAIR:
        return f"One pair, {_PLURAL[f[0]]}, kickers {_chars(f[1:4])}"
    return f"High card, {_SINGULAR[f[0]]} high ({_chars(f)})"
