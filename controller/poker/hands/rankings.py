"""Hand rankings for every game in the rulebooks: one question, "how good is this hand under this
ranking?", answered as an int where a higher value is a better hand and equal values tie.

The showdown of every variant asks it (engine/hand.py); docs/rankings.md lists each ranking with its
rules and the settings where the rulebooks are silent. Rankings by name:

* ``high``: standard high hands (evaluate.py; research/games-and-rankings.md §3.1).
* ``short_deck``: six-plus hold'em, 36 cards 6..A, a flush beats a full house, A-6-7-8-9 is the
  lowest straight (jamies-poker-notes.md, Six Plus Hold'em; shortdeck.py, §3.6).
* ``high_joker``: draw high with the joker, which plays as an ace or completes a straight or a
  flush; five aces is the top hand (roberts-rules-v11.txt Section 12, The Joker; joker.py, §3.7).
* ``ace_five_low``: razz, ace-to-five lowball (RR Section 9, Section 11; lowball.py, §3.2).
* ``ace_five_low_joker``: ace-to-five with the joker as "the lowest card not present in your hand"
  (RR Section 11, Ace-to-five r.1).
* ``deuce_seven_low``: Kansas City lowball, aces high only, straights and flushes count, A-5-4-3-2
  is ace high (RR Section 11, Deuce-to-seven; §3.3).
* ``low8``: ace-to-five with the eight-or-better qualifier; ``None`` when the cards hold no five
  different ranks of eight or lower (RR Section 7 r.2, Section 10; §3.4).
* ``badugi``: four cards of different ranks and suits, aces low, the more cards the better
  (wsop-2009-live-action-rules.md Section 12 r.1-2; jamies-poker-notes.md, Badugi; badugi.py).

Suits never break a tie for a pot (roberts-rules-v11.txt Section 3, Ties r.1: "Suits never break
a tie for winning a pot."); ``suit_rank`` gives the suit order used for stud bring-ins and odd
chips (same rule: "The ranking of suits from highest to lowest is spades, hearts, diamonds,
clubs.").

Cards are strings such as ``"As"``; the joker is ``"Xx"`` and is accepted only by the two joker
rankings. Bad input raises ``ValueError`` with a message that names the problem.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

from controller.poker.cards import RANKS, SUITS
from controller.poker.hands import badugi as _badugi
from controller.poker.hands import lowball as _low
from controller.poker.hands import shortdeck as _short
from controller.poker.hands.evaluate import (
    CARD_CODES,
    FLUSH,
    HIGH_CARD,
    MASK_SHIFT,
    RANK_WORDS,
    RANK_WORDS_PLURAL,
    STRAIGHT,
    hand_name,
    value_of_code,
)
from controller.poker.hands.joker import FIVE_ACES_VALUE, joker_high_value

RANKINGS: tuple[str, ...] = (
    "high",
    "short_deck",
    "high_joker",
    "ace_five_low",
    "ace_five_low_joker",
    "deuce_seven_low",
    "low8",
    "badugi",
)

JOKER = "Xx"
"""The joker as a card string (a 53rd card: RR Glossary, DECK)."""

SHORT_DECK_FLUSH_BEATS_FULL_HOUSE = True
"""jamies-poker-notes.md, Six Plus Hold'em: "A flush beats a full-house, but not four-of-a-kind."
A house may turn it off (the standard order)."""

SHORT_DECK_TRIPS_BEAT_STRAIGHT = False
"""The rulebook lists no change to straight against three of a kind ("The play is the same as Texas
Hold'em, except for the following differences"), so a straight beats trips by default, as in
PokerKit and the PHH "NS" games; set True for the Triton / online-room order (trips beat a
straight). Not in the rulebooks: research/games-and-rankings.md §6 gap 1."""

SUIT_RANKS = {"s": 3, "h": 2, "d": 1, "c": 0}
"""roberts-rules-v11.txt Section 3, Ties r.1: "The ranking of suits from highest to lowest is
spades, hearts, diamonds, clubs." (also jamies-poker-notes.md, Seven Card Stud)."""

MAX_CARDS = 10
"""The most cards a hand is chosen from (five-card Omaha hole cards and board: 10)."""

_LOW_TOP = 1 << 24  # strength = _LOW_TOP - badness for the low rankings: higher is better
_JOKER_RANKINGS = frozenset({"high_joker", "ace_five_low_joker"})
_SHORT_DECK_CARDS = frozenset(r + s for r in "6789TJQKA" for s in SUITS)
_ORDERS = {
    (t, f): _short.category_order(trips_beat_straight=t, flush_beats_full_house=f)
    for t in (False, True)
    for f in (False, True)
}
_FIVE_WORDS = ("One", "Two", "Three", "Four")


def _check_ranking(ranking: object) -> str:
    if not isinstance(ranking, str) or ranking not in RANKINGS:
        raise ValueError(f"unknown ranking {ranking!r}; expected one of {', '.join(RANKINGS)}")
    return ranking


def _read(ranking: str, cards: object, what: str = "cards") -> tuple[list[int], bool]:
    """The card codes of ``cards`` (without the joker) and whether the joker is among them."""
    if isinstance(cards, str) or not isinstance(cards, Sequence):
        raise ValueError(f"expected a sequence of {what} such as ['As', 'Td'], got {cards!r}")
    codes: list[int] = []
    joker = False
    for card in cards:
        code = CARD_CODES.get(card) if isinstance(card, str) else None
        if code is None:
            if card == JOKER and ranking in _JOKER_RANKINGS:
                if joker:
                    raise ValueError("the joker appears twice (the deck has one joker)")
                joker = True
                continue
            if card == JOKER:
                raise ValueError(
                    f"the joker ({JOKER}) does not play in {ranking!r}; only in "
                    f"{' and '.join(sorted(_JOKER_RANKINGS))} (roberts-rules-v11.txt "
                    "Section 3, Irregularities r.8: a joker in a game that does not use it is "
                    "a scrap of paper)"
                )
            raise ValueError(
                f"not a card: {card!r} (expected rank 2-9TJQKA + suit cdhs, e.g. 'As')"
            )
        if ranking == "short_deck" and card not in _SHORT_DECK_CARDS:
            raise ValueError(
                f"{card} is not in the short deck (jamies-poker-notes.md, Six Plus Hold'em: "
                "the twos, threes, fours and fives are removed)"
            )
        codes.append(code)
    if len(set(codes)) != len(codes):
        names = [c for c in cards if isinstance(c, str)]
        dupes = sorted({c for c in names if names.count(c) > 1})
        raise ValueError(f"the same card appears twice: {', '.join(dupes)}")
    return codes, joker


def _best_of(
    codes: Sequence[int], joker: bool, size: int, fn: Callable[[tuple[int, ...], bool], int | None]
) -> int | None:
    """Best ``fn`` value over every ``size``-card choice (the joker counted as a card)."""
    best: int | None = None
    if joker:
        for rest in combinations(codes, size - 1):
            v = fn(rest, True)
            if v is not None and (best is None or v > best):
                best = v
    for cards in combinations(codes, size):
        v = fn(cards, False)
        if v is not None and (best is None or v > best):
            best = v
    return best


# --- one function per ranking, on card codes (5 to 7 cards with the joker counted) -------------


def _high(codes: Sequence[int], joker: bool) -> int:
    return value_of_code(sum(codes))


def _high_joker(codes: Sequence[int], joker: bool) -> int:
    return joker_high_value(sum(codes)) if joker else value_of_code(sum(codes))


def _a5(codes: Sequence[int], joker: bool) -> int:
    return _LOW_TOP - _low.a5_badness(sum(codes))


def _a5_joker(codes: Sequence[int], joker: bool) -> int:
    if not joker:
        return _LOW_TOP - _low.a5_badness(sum(codes))
    return _LOW_TOP - _low.a5_joker_badness(sum(codes) & _low.RANK_KEY)


def _low8(codes: Sequence[int], joker: bool) -> int | None:
    badness = _low.a5_badness(sum(codes))
    return _LOW_TOP - badness if _low.qualifies_for_eight(badness) else None


def _d27(codes: Sequence[int], joker: bool) -> int:
    return _LOW_TOP - _low.d27_badness(tuple(codes))


def _short_deck(codes: Sequence[int], order: tuple[int, ...], trips_first: bool) -> int:
    return _short_deck_code(sum(codes), order, trips_first)


def short_deck_of_code(
    code: int,
    *,
    trips_beat_straight: bool = SHORT_DECK_TRIPS_BEAT_STRAIGHT,
    flush_beats_full_house: bool = SHORT_DECK_FLUSH_BEATS_FULL_HOUSE,
) -> int:
    """``strength("short_deck", cards)`` of 5 to 7 cards whose ``CARD_CODES`` sum to ``code``,
    unchecked: for hot loops that add the codes themselves (equity)."""
    order = _ORDERS[bool(trips_beat_straight), bool(flush_beats_full_house)]
    return _short_deck_code(code, order, bool(trips_beat_straight))


def _short_deck_code(code: int, order: tuple[int, ...], trips_first: bool) -> int:
    value = 0
    for s in range(4):
        mask = code >> (MASK_SHIFT + 16 * s) & 0x1FFF
        if mask.bit_count() >= 5:
            value = _short.FLUSH_TABLE[mask]
            break
    else:
        value = _short.rank_value(code & _low.RANK_KEY, trips_first)
    return order[value >> 20] << 24 | value


_EVALUATORS: dict[str, Callable[[Sequence[int], bool], int | None]] = {
    "high": _high,
    "high_joker": _high_joker,
    "ace_five_low": _a5,
    "ace_five_low_joker": _a5_joker,
    "low8": _low8,
    "deuce_seven_low": _d27,
}


def strength(
    ranking: str,
    cards: Sequence[str],
    *,
    trips_beat_straight: bool = SHORT_DECK_TRIPS_BEAT_STRAIGHT,
    flush_beats_full_house: bool = SHORT_DECK_FLUSH_BEATS_FULL_HOUSE,
) -> int | None:
    """The best hand ``cards`` make under ``ranking``, as an int: higher is better for every
    ranking, equal values tie. Five-card rankings take the best five of 5 to 10 cards; badugi the
    best of 1 to 10 cards (four at most play). ``None`` only for ``low8`` when no low qualifies.

    The two keywords are the short-deck house settings (ignored by the other rankings)."""
    ranking = _check_ranking(ranking)
    codes, joker = _read(ranking, cards)
    n = len(codes) + joker
    if ranking == "badugi":
        if not 1 <= n <= MAX_CARDS:
            raise ValueError(f"a badugi hand is 1 to {MAX_CARDS} cards (four play), got {n}")
        return _badugi_strength(cards)
    if not 5 <= n <= MAX_CARDS:
        raise ValueError(f"a {ranking} hand is the best five of 5 to {MAX_CARDS} cards, got {n}")
    if ranking == "short_deck":
        order = _ORDERS[bool(trips_beat_straight), bool(flush_beats_full_house)]
        trips_first = bool(trips_beat_straight)

        def short(c: Sequence[int], _joker: bool) -> int:
            return _short_deck(c, order, trips_first)

        if n <= 7:
            return short(codes, False)
        return _best_of(codes, False, 7, short)
    fn = _EVALUATORS[ranking]
    if n <= 7:
        return fn(codes, joker)
    size = 5 if ranking == "deuce_seven_low" else 7
    return _best_of(codes, joker, size, fn)


def _badugi_strength(cards: Sequence[str]) -> int:
    ranks = [_low.LOW_OF_STD[RANKS.index(c[0])] for c in cards]
    suits = [SUITS.index(c[1]) for c in cards]
    return _badugi.badugi_value(ranks, suits)


def omaha_strength(ranking: str, hole: Sequence[str], board: Sequence[str]) -> int | None:
    """The best hand of exactly two hole cards and three board cards (roberts-rules-v11.txt
    Section 6 Omaha: "a player must use precisely two holecards with three boardcards"; Section 7
    Omaha High-Low, intro: "another (or the same) combination of two holecards and three
    boardcards for the low hand"). Values as ``strength``; ``None``
    for ``low8`` when no two-and-three makes a qualifying low. Any five-card ranking may be used;
    ``high`` and ``low8`` are the Omaha ones."""
    ranking = _check_ranking(ranking)
    if ranking == "badugi":
        raise ValueError("badugi is not an Omaha ranking (badugi hands are four cards, no board)")
    hole_codes, hole_joker = _read(ranking, hole, "hole cards")
    board_codes, board_joker = _read(ranking, board, "board cards")
    if not 2 <= len(hole_codes) + hole_joker <= 6:
        raise ValueError(f"Omaha hole cards are 2 to 6 cards, got {len(hole)}")
    if not 3 <= len(board_codes) + board_joker <= 5:
        raise ValueError(f"an Omaha board is 3 to 5 cards, got {len(board)}")
    if set(hole_codes) & set(board_codes) or (hole_joker and board_joker):
        both = sorted(set(hole) & set(board))
        raise ValueError(f"the same card is in the hole and on the board: {', '.join(both)}")
    pairs = [a + b for a, b in combinations(hole_codes, 2)]
    triples = [a + b + c for a, b, c in combinations(board_codes, 3)]
    if ranking == "high":
        return max(value_of_code(p + t) for p in pairs for t in triples)
    if ranking == "low8":
        best_badness = min(_low.a5_badness(p + t) for p in pairs for t in triples)
        return _LOW_TOP - best_badness if _low.qualifies_for_eight(best_badness) else None
    # every other five-card ranking: try each two-and-three as a five-card hand
    hole_cards = [*([JOKER] if hole_joker else []), *(c for c in hole if c != JOKER)]
    board_cards = [*([JOKER] if board_joker else []), *(c for c in board if c != JOKER)]
    best: int | None = None
    for two in combinations(hole_cards, 2):
        for three in combinations(board_cards, 3):
            v = strength(ranking, [*two, *three])
            if v is not None and (best is None or v > best):
                best = v
    return best


def suit_rank(card: str) -> int:
    """Spades 3 > hearts 2 > diamonds 1 > clubs 0: the order that breaks ties between cards of
    the same rank for the stud bring-in, first to act and odd chips (roberts-rules-v11.txt
    Section 3, Ties r.1 and r.5(b); Section 8 r.2: "the lowest upcard by suit")."""
    if not isinstance(card, str) or card not in CARD_CODES:
        raise ValueError(f"not a card: {card!r} (expected rank 2-9TJQKA + suit cdhs, e.g. 'As')")
    return SUIT_RANKS[card[1]]


def board_strength(ranking: str, upcards: Sequence[str]) -> int:
    """How good 1 to 4 stud upcards are, for who acts first after third street: higher is better
    (roberts-rules-v11.txt Section 8 r.2: "the high hand on board initiates the action (a tie is
    broken by position ...)"; Section 9 r.2 for razz: "The low hand acts first"). Equal values tie
    and the engine breaks the tie by position. Only pairs, two pair, trips and quads and then the
    high cards count on board, never a partial straight or flush (research/games-and-rankings.md
    §6 gap 8: standard practice). ``high`` and ``low8`` (stud high-low, where the high hand acts
    first: RR Section 10 r.4) read the board high, aces high; ``ace_five_low`` and
    ``ace_five_low_joker`` read it low, aces low (razz)."""
    ranking = _check_ranking(ranking)
    if ranking not in ("high", "low8", "ace_five_low", "ace_five_low_joker"):
        raise ValueError(f"{ranking!r} is not a stud ranking (high, low8, ace_five_low)")
    codes, joker = _read(ranking, upcards, "upcards")
    if joker:
        raise ValueError("the joker does not play in stud")
    if not 1 <= len(codes) <= 4:
        raise ValueError(f"a stud board is 1 to 4 upcards, got {len(codes)}")
    low = ranking.startswith("ace_five")
    counts: dict[int, int] = {}
    for card in upcards:
        r = RANKS.index(card[0])
        if low:
            r = _low.LOW_OF_STD[r]
        counts[r] = counts.get(r, 0) + 1
    # the grouped cards first (bigger groups first, the higher rank first), then the single cards
    # from the highest down: for a low board the same fields, read as badness (RR Section 11,
    # Ace-to-five: the highest card is compared first, and "A-A beats 2-2")
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    category = {(1,): 0, (2,): 1, (2, 2): 2, (3,): 3, (4,): 5}[
        tuple(c for c in shape if c > 1) or (1,)
    ]
    value = category
    for i in range(4):
        value = value << 4 | (order[i] if i < len(order) else 0)
    return _LOW_TOP - value if low else value


# --- names -----------------------------------------------------------------------------------


def _word(std_rank: int) -> str:
    return RANK_WORDS[std_rank]


def _chars_low(low_ranks: Sequence[int]) -> str:
    return "-".join(RANKS[_low.LOW_OF_STD.index(r)] for r in low_ranks)


def _low_fields(badness: int) -> list[int]:
    return [badness >> (16 - 4 * i) & 15 for i in range(5)]


def _describe_a5(badness: int) -> str:
    category = badness >> 20
    f = _low_fields(badness)

    def w(r: int) -> str:
        return _word(_low.LOW_OF_STD.index(r))

    def p(r: int) -> str:
        return RANK_WORDS_PLURAL[_low.LOW_OF_STD.index(r)]

    if category == _low.NO_PAIR:
        return f"{w(f[0]).capitalize()}-{w(f[1])} low ({_chars_low(f)})"
    if category == _low.ONE_PAIR:
        return f"One pair, {p(f[0])}, kickers {_chars_low(f[1:4])}"
    if category == _low.TWO_PAIR:
        return f"Two pair, {p(f[0])} and {p(f[1])}, {w(f[2])} kicker"
    if category == _low.THREE_OF_A_KIND:
        return f"Three of a kind, {p(f[0])}, kickers {_chars_low(f[1:3])}"
    if category == _low.FULL_HOUSE:
        return f"Full house, {p(f[0])} full of {p(f[1])}"
    return f"Four of a kind, {p(f[0])}, {w(f[1])} kicker"


def _describe_d27(badness: int) -> str:
    category = badness >> 20
    f = [badness >> (16 - 4 * i) & 15 for i in range(5)]
    chars = "-".join(RANKS[r] for r in f)
    if category == HIGH_CARD:
        return f"{_word(f[0]).capitalize()}-{_word(f[1])} low ({chars})"
    if category == FLUSH:
        return f"Flush, {_word(f[0])} high ({chars})"  # the ace-high A-5-4-3-2 flush included
    return hand_name(badness)


def describe(ranking: str, value: int) -> str:
    """The hand a ``strength`` value stands for, as a dealer reads it: "Seven-five low
    (7-5-4-3-2)", "Four-card badugi, 7-5-3-A", "Full house, kings full of sevens", "Five aces".
    Raises ValueError for a value no hand of that ranking has."""
    ranking = _check_ranking(ranking)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"not a {ranking} hand value: {value!r}")
    if ranking == "high":
        return hand_name(value)
    if ranking == "high_joker":
        return "Five aces" if value == FIVE_ACES_VALUE else hand_name(value)
    if ranking == "short_deck":
        natural = value & 0xFFFFFF
        category = natural >> 20
        if natural not in _short.valid_values() or value >> 24 not in {
            order[category] for order in _ORDERS.values()
        }:
            raise ValueError(f"not a short_deck hand value: {value!r}")
        name = hand_name(natural)
        if category in (STRAIGHT, 8) and natural >> 16 & 15 == 7:
            name += " (A-6-7-8-9)"
        return name
    if ranking == "badugi":
        if not _badugi.is_badugi_value(value):
            raise ValueError(f"not a badugi hand value: {value!r}")
        size = _badugi.badugi_size(value)
        chars = _chars_low(_badugi.badugi_ranks(value))
        return f"{_FIVE_WORDS[size - 1]}-card badugi, {chars}"
    badness = _LOW_TOP - value
    if ranking == "deuce_seven_low":
        if badness not in _low.d27_valid():
            raise ValueError(f"not a deuce_seven_low hand value: {value!r}")
        return _describe_d27(badness)
    if badness not in _low.a5_valid() or (
        ranking == "low8" and not _low.qualifies_for_eight(badness)
    ):
        raise ValueError(f"not a {ranking} hand value: {value!r}")
    return _describe_a5(badness)


__all__ = [
    "JOKER",
    "RANKINGS",
    "SHORT_DECK_FLUSH_BEATS_FULL_HOUSE",
    "SHORT_DECK_TRIPS_BEAT_STRAIGHT",
    "SUIT_RANKS",
    "board_strength",
    "describe",
    "omaha_strength",
    "short_deck_of_code",
    "strength",
    "suit_rank",
]
