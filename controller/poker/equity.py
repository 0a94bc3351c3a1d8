"""Equity for every game: each player's chance to win, tie, and (split games) scoop and each half.

Given a game (a ``VARIANTS`` id), the cards each player is known to hold, the board and the
known dead cards (folded, mucked, burned where the house lets the table know them), every
unseen card is equally likely to be any card still to come or any card of a player's hand the
table has not seen. ``equity`` counts every run-out of those cards when the count fits
``EXACT_BUDGET`` hand evaluations (exact), else draws ``samples`` run-outs with a seeded
``random.Random`` (Monte Carlo) and reports the 95 % half-width of its figures.

* Board games (hold'em, Omaha, the Pineapples, short deck): each hand is the game's showdown
  hole cards; the board is dealt out to five. A Pineapple hand may also be given before its
  discard (three cards): the player keeps the two that make the best final hand, a discard
  chosen knowing the whole board (``Equity.assumes_discard``).
* Stud: a hand is the 1 to 7 cards the table has seen of a player; the rest of the seven are
  drawn from the unseen cards (a down card nobody saw is as unknown as one still to come). When
  the deck cannot give every player a seventh (eight players), or the table shows it, the
  seventh is the common card: one board card in every hand (RR Section 8 r.15).
* Draw games: a hand of the full size is final (after the last draw: exact, one run-out); a
  shorter hand is the cards a player keeps, the rest drawn from the unseen cards (the figure
  then assumes the draws declared, and says so: ``Equity.assumes_draws``).

Hands are valued by the project's one implementation of each ranking
(``controller.poker.hands.rankings``: ``strength``, ``omaha_strength``). For the high,
ace-to-five, eight-or-better and 2-7 rankings of up to seven cards (hold'em, stud, razz,
stud/8, five-card draw, 2-7 lowball) the hot loop adds the evaluator's card codes itself and
asks ``value_of_code``, ``lowball.a5_badness`` and ``lowball.d27_badness``, which is what
``strength`` does for them, without the parsing per call. Omaha (high, eight-or-better, five
cards) does what ``omaha_strength`` does on sums precomputed once per hand (its pairs) and per
board (its triples), keeping what a board's ranks decide (tests/rules/test_equity_fast.py holds
both to ``omaha_strength``).

The pot of a deal goes to the best hand; in a split game (two rankings) half to the best high
and half to the best qualifying low, the high scooping when no low qualifies (RR Section 7
r.2, Section 10 intro); a tie shares its half. Per player: ``win`` is the whole pot alone (a
scoop, in a split game), ``tie`` a part of it, ``equity`` the expected share.

Pure: no I/O, no clock; the same inputs and seed give the same figures.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from controller.poker.hands.evaluate import (
    CARD_CODES,
    MASK_SHIFT,
    RANK_KEY,
    SUIT_COUNT_SHIFT,
    rank_value,
    value_of_code,
)
from controller.poker.hands.lowball import a5_badness, d27_badness, d27_five, qualifies_for_eight
from controller.poker.hands.rankings import describe, omaha_strength, short_deck_of_code, strength
from controller.poker.variants import JOKER, VARIANTS, Variant, family

EXACT_BUDGET = 2_000_000
"""Exact enumeration when run-outs x hands x the cost of a valuation (``_cost``: 1 for the
standard high hand on card codes) stay within this: about a second here."""

EXACT_CEILING = 60_000_000
"""Forced exact enumeration (``exact=True``) beyond this (in the same units) is refused."""

DEFAULT_SAMPLES = 20_000
"""Monte Carlo run-outs by default: a 95 % half-width of at most 0.7 points."""

Z95 = 1.959963984540054

_SPLIT_RE = re.compile(r"[\s,]+")


def parse_cards(text: str) -> tuple[str, ...]:
    """Cards written together or apart: "AsKd", "As Kd", "As,Kd" -> ("As", "Kd"). The joker is
    "Xx". ValueError names the first piece that is not a card."""
    cards: list[str] = []
    for chunk in _SPLIT_RE.split(text.strip()):
        if len(chunk) % 2:
            raise ValueError(f"not a card list: {chunk!r} (cards are rank 2-9TJQKA + suit "
                             "cdhs, e.g. 'AsKd'; the joker is 'Xx')")
        for i in range(0, len(chunk), 2):
            card = chunk[i].upper() + chunk[i + 1].lower()
            if card == "XX":
                card = JOKER
            if card != JOKER and card not in CARD_CODES:
                raise ValueError(f"not a card: {chunk[i:i + 2]!r} (rank 2-9TJQKA + suit cdhs, "
                                 "e.g. 'As'; the joker is 'Xx')")
            cards.append(card)
    return tuple(cards)


@dataclass(frozen=True)
class PlayerEquity:
    """One player's figures (fractions 0..1). ``labels``: the hand the known cards make now, one
    per ranking in the rulebooks' words ("" when the cards make none yet, "No low" when no low
    qualifies). ``high_*``/``low_*``: the halves of a split game (None in other games)."""

    cards: tuple[str, ...]
    win: float
    tie: float
    equity: float
    labels: tuple[str, ...]
    high_win: float | None = None
    high_tie: float | None = None
    low_win: float | None = None
    low_tie: float | None = None

    @property
    def scoop(self) -> float:
        return self.win


@dataclass(frozen=True)
class Equity:
    """The figures of a spot. ``method``: "exact" or "monte carlo"; ``deals``: run-outs counted;
    ``margin``: the 95 % half-width bounding every figure (0.0 when exact); ``assumes_draws``:
    a draw hand was given short (the declared draw is assumed)."""

    game: str
    players: tuple[PlayerEquity, ...]
    method: str
    deals: int
    margin: float
    split: bool
    assumes_draws: bool
    seed: int | None
    assumes_discard: bool = False
    """A Pineapple hand was given before its discard: the figure assumes each such player keeps
    the two cards that make the best final hand (the discard chosen knowing the whole board)."""


# --- the inputs ---------------------------------------------------------------------------------


def _board_sizes(v: Variant) -> set[int]:
    sizes = {0}
    total = 0
    for st in v.streets:
        total += st.board
        sizes.add(total)
    return sizes


def _discard(v: Variant) -> tuple[int, int] | None:
    """A Pineapple game's discard: (hole cards thrown away, board cards out when it is made:
    0 in Pineapple, before the flop; 3 in Crazy Pineapple, before the turn; 5 in Lazy
    Pineapple, before the showdown); None for a game without one."""
    board = 0
    for st in v.streets:
        if st.discard:
            return st.discard, board + (0 if st.discard_first else st.board)
        board += st.board
    return None


def _check_hand(v: Variant, i: int, hand: Sequence[str]) -> None:
    n = len(hand)
    kind = family(v)
    if kind == "board":
        thrown = _discard(v)
        if n != v.hole_cards and not (thrown and n == v.hole_cards + thrown[0]):
            before = f" ({v.hole_cards + thrown[0]} before the discard)" if thrown else ""
            raise ValueError(f"{v.name} hands are {v.hole_cards} hole cards at the showdown"
                             f"{before}; hand {i + 1} ({''.join(hand)}) has {n}")
    elif not 1 <= n <= v.hole_cards:
        what = "seen of a player" if kind == "stud" else "kept or held"
        raise ValueError(f"{v.name} hands are 1 to {v.hole_cards} cards {what}; hand {i + 1} "
                         f"({''.join(hand)}) has {n}")


def _check_inputs(v: Variant, hands: Sequence[Sequence[str]], board: Sequence[str],
                  dead: Sequence[str]) -> None:
    if len(hands) < 2:
        raise ValueError("equity needs at least two hands")
    if len(hands) > v.max_players:
        raise ValueError(f"{v.name} is dealt to at most {v.max_players} players, got "
                         f"{len(hands)} hands")
    deck = set(v.deck_cards)
    seen: set[str] = set()
    for what, cards in [*((f"hand {i + 1}", h) for i, h in enumerate(hands)),
                        ("the board", board), ("the dead cards", dead)]:
        for c in cards:
            if c not in deck:
                raise ValueError(f"{c} ({what}) is not in the {v.deck} deck {v.name} is dealt "
                                 "with")
            if c in seen:
                raise ValueError(f"{c} appears twice")
            seen.add(c)
    for i, h in enumerate(hands):
        _check_hand(v, i, h)
    if family(v) == "stud":
        _check_stud(v, hands, board, dead)
        return
    if board and not v.board_cards:
        raise ValueError(f"{v.name} has no board")
    if len(board) not in _board_sizes(v):
        sizes = ", ".join(str(s) for s in sorted(_board_sizes(v)))
        raise ValueError(f"a {v.name} board is {sizes} cards, got {len(board)}")
    thrown = _discard(v)
    if thrown and len(board) > thrown[1] and any(len(h) > v.hole_cards for h in hands):
        raise ValueError(f"{v.name} hands are discarded to {v.hole_cards} by a board of "
                         f"{thrown[1]} cards; the board has {len(board)}")
    held = sum(max(len(h), v.hole_cards) for h in hands)
    _check_need(v, len(hands), v.hole_cards, held + v.board_cards + len(dead))


def _check_need(v: Variant, n: int, hole: int, need: int, board: int | None = None) -> None:
    if need > len(v.deck_cards):
        board = v.board_cards if board is None else board
        raise ValueError(
            f"too many hands for the deck: {n} hands of {hole} cards, a board of {board} and "
            f"the dead cards need {need} cards; the deck has {len(v.deck_cards)}")


def _common_card(v: Variant, hands: Sequence[Sequence[str]], board: Sequence[str],
                 dead: Sequence[str]) -> bool:
    """Whether a stud hand's seventh card is the common card (RR Section 8 r.15: "If the dealer
    determines that there will not be enough fresh cards for all of the remaining players ...
    one card faceup in the center of the table as a common card that plays in everyone's
    hand"): the table shows it (a board of one card), or the cards nobody has seen cannot give
    every player all seven."""
    if family(v) != "stud":
        return False
    if board:
        return True
    # the cards still to come, sum(7 - len(h)), against the unseen, 52 - sum(len(h)) - dead
    return len(hands) * v.hole_cards + len(dead) > len(v.deck_cards)


def _deal_shape(v: Variant, hands: Sequence[Sequence[str]], board: Sequence[str],
                dead: Sequence[str]) -> tuple[int, int]:
    """(board cards, each player's own cards) at the showdown: the game's, or in stud with the
    common card one board card and six each."""
    if _common_card(v, hands, board, dead):
        return 1, v.hole_cards - 1
    return v.board_cards, v.hole_cards


def _check_stud(v: Variant, hands: Sequence[Sequence[str]], board: Sequence[str],
                dead: Sequence[str]) -> None:
    if len(board) > 1:
        raise ValueError(f"a {v.name} board is only the common card (one card, RR Section 8 "
                         f"r.15), got {len(board)}")
    if not _common_card(v, hands, board, dead):
        return
    own = v.hole_cards - 1
    for i, h in enumerate(hands):
        if len(h) > own:
            why = ("the table shows" if board
                   else "the deck cannot give every player a seventh: the seventh is")
            raise ValueError(f"{why} the common card, so a {v.name} hand is at most {own} "
                             f"cards of its own; hand {i + 1} ({''.join(h)}) has {len(h)}")
    _check_need(v, len(hands), own, len(hands) * own + 1 + len(dead), 1)


# --- scoring: one tuple of values (one per ranking, None: no qualifying low) per player -------

Scorer = Callable[[list[list[object]], list[object]], list[tuple[int | None, ...]]]


def _high_value(code: int, cards: list[int]) -> int:
    return value_of_code(code)


def _low_value(code: int, cards: list[int]) -> int:
    return -a5_badness(code)  # (only compared within a ranking: the lower the badness, the better)


def _low8_value(code: int, cards: list[int]) -> int | None:
    badness = a5_badness(code)
    return -badness if qualifies_for_eight(badness) else None


def _d27_value(code: int, cards: list[int]) -> int:
    return -d27_badness(tuple(cards))


def _short_deck_value(code: int, cards: list[int]) -> int:
    return short_deck_of_code(code)


_CODE_VALUES: dict[str, Callable[[int, list[int]], int | None]] = {
    "high": _high_value, "ace_five_low": _low_value, "low8": _low8_value,
    "deuce_seven_low": _d27_value, "short_deck": _short_deck_value}
"""The rankings valued straight from the evaluator's card codes (their sum; 2-7 the codes), as
``strength`` does for them (rankings.py ``_high``, ``_a5``, ``_low8``, ``_d27``,
``short_deck_of_code`` at the house's default settings), without parsing strings per call."""



def _negative_a5(code: int) -> int:
    return -a5_badness(code)


def _negative_d27(code: int) -> int:
    return -d27_five(code)


_SINGLE_CODE_VALUES: dict[str, Callable[[int], int]] = {
    "high": value_of_code, "ace_five_low": _negative_a5, "short_deck": short_deck_of_code,
    "deuce_seven_low": _negative_d27}
"""One ranking's value of a code sum alone, for the Monte Carlo loop (2-7 only for hands of
exactly five cards: ``d27_five``)."""


def _summed_ok(v: Variant) -> bool:
    """Whether ``_summed`` values the game: on codes, one ranking of ``_SINGLE_CODE_VALUES``
    (2-7 with five cards a hand) or high-low eight-or-better."""
    if not _on_codes(v):
        return False
    if v.rankings == ("deuce_seven_low",):
        return v.hole_cards + v.board_cards == 5
    return v.rankings == ("high", "low8") or (
        len(v.rankings) == 1 and v.rankings[0] in _SINGLE_CODE_VALUES)


def _on_codes(v: Variant) -> bool:
    """Whether every ranking of the game is valued on summed card codes (any five of at most
    seven cards: hold'em and its like, stud, razz, stud/8, five-card draw)."""
    return (v.hand == "any" and v.hole_cards + v.board_cards <= 7
            and all(r in _CODE_VALUES for r in v.rankings))


# --- Omaha on card codes: two of the hand and three of the board -------------------------------
#
# ``omaha_strength`` values every two-and-three through ``value_of_code`` / ``a5_badness``. The
# hot loop does the same on sums precomputed once per hand (its pairs) and once per board (its
# triples), and splits the high in two: the rank part (the sum's rank bits alone: a five-card
# hand that is not a flush is valued by its ranks) and the flushes (only when three board cards
# share a suit, only the hand's pairs of that suit). A flushed five's rank value (a straight or
# high card) is below its flush value, so the best of the two parts is the best hand. The low
# only reads cards of distinct ranks eight or under (any other five has a pair or a card above
# the eight: no qualifying low).

_LOW_RANK_BITS = frozenset(5 ** r for r in (12, 0, 1, 2, 3, 4, 5, 6))  # A, 2 .. 8
_SUIT_BITS = tuple(0xF << (SUIT_COUNT_SHIFT + 4 * s) for s in range(4))
_THREE_ADD = sum(5 << (SUIT_COUNT_SHIFT + 4 * s) for s in range(4))  # a counter of 3+ sets bit 3
_THREE_TEST = sum(8 << (SUIT_COUNT_SHIFT + 4 * s) for s in range(4))
_THREE_SUIT = {8 << (SUIT_COUNT_SHIFT + 4 * s): s for s in range(4)}


def _suit(code: int) -> int:
    return next(s for s in range(4) if code & _SUIT_BITS[s])


def _low_ranked(cards: Sequence[int], k: int) -> list[int]:
    """The rank sums of every ``k`` of ``cards`` with distinct ranks, all eight or under
    (duplicates dropped: the low reads ranks only)."""
    lows = [c & RANK_KEY for c in cards if c & RANK_KEY in _LOW_RANK_BITS]
    return sorted({sum(combo) for combo in combinations(lows, k) if len(set(combo)) == k})


class _OmahaHand:
    """A hand's sums, once (the rank sums of its pairs, its low pairs, its suited pairs), and
    what each board triple makes with them, kept as boards are met (at most 455 + 156 + 13
    rank triples, 56 low ones)."""

    __slots__ = ("high_with", "low_with", "lows", "ranks", "suited")

    def __init__(self, codes: Sequence[int]) -> None:
        pairs = list(combinations(codes, 2))
        self.ranks = sorted({(a + b) & RANK_KEY for a, b in pairs})
        self.lows = _low_ranked(codes, 2)
        self.suited = tuple([a + b for a, b in pairs if _suit(a) == s == _suit(b)]
                            for s in range(4))
        self.high_with: dict[int, int] = {}
        self.low_with: dict[int, int] = {}

    def rank_high(self, triples: Sequence[int]) -> int:
        """The best high of two of the hand and three of the board whose rank sums are
        ``triples``, counting no flush: ``value_of_code`` of a sum without suits."""
        best = 0
        memo = self.high_with
        for t in triples:
            v = memo.get(t)
            if v is None:
                v = memo[t] = max(map(rank_value, [p + t for p in self.ranks]))
            if v > best:
                best = v
        return best

    def low(self, triples: Sequence[int]) -> int | None:
        """-badness of the best qualifying low (higher is better, as the fast path's lows), or
        None when no two-and-three makes one (``triples``: the board's low rank triples)."""
        if not triples or not self.lows:
            return None
        best = 1 << 30  # (worse than any badness)
        memo = self.low_with
        for t in triples:
            b = memo.get(t)
            if b is None:
                b = memo[t] = min([a5_badness(p + t) for p in self.lows])
            if b < best:
                best = b
        return -best if qualifies_for_eight(best) else None


def _omaha_flush(pairs: Sequence[int], board: Sequence[int], suit: int) -> int:
    """The best flush of two of ``pairs`` (suited pair codes) and three ``board`` cards of
    ``suit``; 0 for none."""
    if not pairs:
        return 0
    mine = [c for c in board if c & _SUIT_BITS[suit]]
    vc = value_of_code
    return max([vc(p + a + b + c) for a, b, c in combinations(mine, 3) for p in pairs])


def _rank_triples(board: Sequence[int]) -> list[int]:
    return sorted({(a + b + c) & RANK_KEY for a, b, c in combinations(board, 3)})


def _omaha_values(hole: Sequence[int], board: Sequence[int],
                  low: bool) -> tuple[int | None, ...]:
    """(high, low) or (high,) of an Omaha hand on a board of 3 to 5 cards, as card codes: the
    high as ``omaha_strength("high", ...)``, the low as -``a5_badness`` (None: no low)."""
    hand = _OmahaHand(hole)
    high = hand.rank_high(_rank_triples(board))
    suited = (sum(board) + _THREE_ADD) & _THREE_TEST
    if suited:
        s = _THREE_SUIT[suited]
        high = max(high, _omaha_flush(hand.suited[s], board, s))
    if not low:
        return (high,)
    return high, hand.low(_low_ranked(board, 3))


def _omaha_board_only(v: Variant, deals: Iterator[Sequence[int]], hands: Sequence[Sequence[int]],
                      board: Sequence[int],
                      tallies: Counter[tuple[tuple[int, ...], tuple[int, ...]]]) -> int:
    """The hot loop of Omaha (every hand known, only board cards to come): ``deals`` gives the
    missing board cards of each run-out. What a board's ranks decide (each hand's rank high and
    low, and the winners when no suit has three cards) is kept by the board's rank sum; flushes
    are added per run-out. Returns the run-outs."""
    split = v.split
    mine = [_OmahaHand(h) for h in hands]
    n = len(mine)
    by_ranks: dict[int, tuple[list[int], list[int | None], tuple[tuple[int, ...],
                                                                  tuple[int, ...]]]] = {}
    flushes: dict[tuple[int, int, int], int] = {}
    nobody: list[int | None] = [None] * n
    known = list(board)
    runs = 0
    for extra in deals:
        runs += 1
        full = known + list(extra) if known else list(extra)
        code = sum(full)
        key = code & RANK_KEY
        seen = by_ranks.get(key)
        if seen is None:
            triples = _rank_triples(full)
            highs = [h.rank_high(triples) for h in mine]
            lows = nobody
            if split:
                low_triples = _low_ranked(full, 3)
                lows = [h.low(low_triples) for h in mine]
            winners = _outcome(list(zip(highs, lows, strict=True)), split)
            seen = by_ranks[key] = (highs, lows, winners)
        suited = (code + _THREE_ADD) & _THREE_TEST
        if not suited:
            tallies[seen[2]] += 1
            continue
        s = _THREE_SUIT[suited]
        mask = code >> (MASK_SHIFT + 16 * s) & 0x1FFF
        highs = list(seen[0])
        for i, h in enumerate(mine):
            if h.suited[s]:
                fkey = (i, s, mask)
                f = flushes.get(fkey)
                if f is None:
                    f = flushes[fkey] = _omaha_flush(h.suited[s], full, s)
                if f > highs[i]:
                    highs[i] = f
        tallies[_outcome(list(zip(highs, seen[1], strict=True)), split)] += 1
    return runs


_JOKER_CODE = 1 << 120
"""The joker's code in the hot loops: a bit above every card code's, so that a sum of distinct
cards still names its set."""
_CODE_OF_CARD = {**CARD_CODES, JOKER: _JOKER_CODE}
_NAME_OF_CODE = {code: card for card, code in _CODE_OF_CARD.items()}


def _scorer(v: Variant) -> tuple[Callable[[str], object], Scorer, bool]:
    """How cards are carried through the hot loop (encode), how each player's hand is valued,
    and whether that is the fast path (card codes added, ``value_of_code``)."""
    if _on_codes(v):
        by_code = [_CODE_VALUES[r] for r in v.rankings]
        whole = "deuce_seven_low" in v.rankings  # 2-7 reads the cards, not only their sum

        def fast(players: list[list[object]], board: list[object]) -> list[tuple[int | None, ...]]:
            out = []
            if not whole:  # the board's code once (the sum is all these rankings read)
                b: int = sum(board)  # type: ignore[arg-type]
                for p in players:
                    code = b + sum(p)  # type: ignore[arg-type]
                    out.append(tuple(f(code, []) for f in by_code))
                return out
            for p in players:
                cards: list[int] = [*board, *p]  # type: ignore[list-item]
                code = sum(cards)
                out.append(tuple(f(code, cards) for f in by_code))
            return out

        if _discard(v) is None:
            return CARD_CODES.__getitem__, fast, v.rankings == ("high",)
        keep = v.hole_cards

        def best_keep(players: list[list[object]],
                      board: list[object]) -> list[tuple[int | None, ...]]:
            """A Pineapple hand before its discard: the best of its keeps."""
            return [max(fast([list(k) for k in combinations(p, keep)], board))
                    if len(p) > keep else fast([p], board)[0] for p in players]

        return CARD_CODES.__getitem__, best_keep, v.rankings == ("high",)
    rankings = v.rankings
    if v.hand == "omaha":
        low = v.split

        def omaha(players: list[list[object]], board: list[object]) -> list[tuple[int | None, ...]]:
            return [_omaha_values(p, board, low) for p in players]  # type: ignore[arg-type]

        return CARD_CODES.__getitem__, omaha, False

    seen: dict[int, tuple[int | None, ...]] = {}

    def any_five(players: list[list[object]], board: list[object]) -> list[tuple[int | None, ...]]:
        """``strength`` of each hand, kept by the hand's set of cards (the sum of their codes
        names the set: the rank masks per suit, and the joker's own bit), since a run of
        run-outs meets the same hands again and again (a badugi drawing two: 1 128 of them)."""
        out = []
        for p in players:
            cards: list[int] = [*p, *board]  # type: ignore[list-item]
            key = sum(cards)
            got = seen.get(key)
            if got is None:
                names = [_NAME_OF_CODE[c] for c in cards]
                got = seen[key] = tuple(strength(r, names) for r in rankings)
            out.append(got)
        return out

    return _CODE_OF_CARD.__getitem__, any_five, False


def _label(v: Variant, ranking: str, hand: Sequence[str], board: Sequence[str]) -> str:
    """The hand the known cards make now under ``ranking``, or "" when they make none yet."""
    try:
        if v.hand == "omaha":
            if len(board) < 3:
                return ""
            value = omaha_strength(ranking, hand, board)
        elif len(hand) > v.hole_cards and family(v) == "board":  # Pineapple, not discarded
            if len(board) < 3:
                return ""
            value = max(strength(ranking, [*keep, *board])  # type: ignore[type-var]
                        for keep in combinations(hand, v.hole_cards))
        else:
            cards = [*hand, *board]
            if ranking != "badugi" and len(cards) < 5:
                return ""
            value = strength(ranking, cards)
    except ValueError:
        return ""
    if value is None:
        return "No low"
    name = describe(ranking, value)
    return f"Low: {name}" if v.split and ranking == v.rankings[1] else name


_COSTS = {"high": 4, "short_deck": 6, "high_joker": 10, "ace_five_low": 7,
          "ace_five_low_joker": 6, "deuce_seven_low": 6, "low8": 6, "badugi": 13}
"""A ``strength`` call's time in fast-path evaluations, by ranking (measured here: summed codes
through ``value_of_code`` about 0.33 us; ``strength`` 2 us (high) to 7 us (badugi))."""


def _cost(v: Variant) -> int:
    """One player's valuation per run-out, in fast-path evaluations, so that the exact budget
    is a time budget for every game. Omaha's loop (``_omaha_board_only``) costs 1.0 to 1.9 us a
    hand and run-out here, four or five hole cards, high or high-low (hold'em's 0.6 us): 2 per
    ranking."""
    if _on_codes(v):  # (short deck's ``short_deck_of_code``: 1.2 us a hand and run-out)
        return sum(2 if r == "short_deck" else 1 for r in v.rankings)
    if v.hand == "omaha":
        return 2 * len(v.rankings)
    return sum(_COSTS[r] for r in v.rankings)


def _outcome(values: Sequence[tuple[int | None, ...]],
             split: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Who takes the pot of one run-out: (the best high hands, the best qualifying lows)."""
    best = max(vals[0] for vals in values)  # type: ignore[type-var]
    high = tuple(i for i, vals in enumerate(values) if vals[0] == best)
    if not split:
        return high, ()
    lows = [vals[1] for vals in values if vals[1] is not None]
    if not lows:
        return high, ()
    low_best = max(lows)
    return high, tuple(i for i, vals in enumerate(values) if vals[1] == low_best)


def _keep_sums(hands: Sequence[Sequence[int]], keep: int) -> list[list[int]]:
    """Each hand's code, or for a Pineapple hand before its discard (more than ``keep`` cards)
    the code of every ``keep`` of its cards: the player keeps the best of them."""
    return [[sum(k) for k in combinations(h, keep)] if len(h) > keep else [sum(h)]
            for h in hands]


def _board_only(pool: Sequence[object], missing: int, hands: Sequence[Sequence[object]],
                board: Sequence[object],
                tallies: Counter[tuple[tuple[int, ...], tuple[int, ...]]],
                keep: int = 2, value: Callable[[int], int] = value_of_code) -> int:
    """The hot loop of the fast path when only board cards are to come (hold'em and its like,
    exact): the board's code once per run-out, each hand's code added (a Pineapple hand before
    its discard: the best of its keeps), valued by ``value`` (one ranking of
    ``_SINGLE_CODE_VALUES``). Returns the run-outs."""
    known: int = sum(board)  # type: ignore[arg-type]
    keeps = _keep_sums(hands, keep)  # type: ignore[arg-type]
    holes: list[int] = [k[0] for k in keeps]
    choose = any(len(k) > 1 for k in keeps)  # a Pineapple hand before its discard
    codes: list[int] = list(pool)  # type: ignore[arg-type]
    sole = [((i,), ()) for i in range(len(holes))]
    runs = 0
    vc = value
    for combo in combinations(codes, missing):
        runs += 1
        b = known + sum(combo)
        if choose:
            vals = [max([vc(b + k) for k in ks]) for ks in keeps]
        else:
            vals = [vc(b + h) for h in holes]
        best = max(vals)
        if vals.count(best) == 1:
            tallies[sole[vals.index(best)]] += 1
        else:
            tallies[tuple(i for i, x in enumerate(vals) if x == best), ()] += 1
    return runs



def _summed(v: Variant, draws: Iterator[Sequence[int]], slots: Sequence[int],
            hands: Sequence[Sequence[int]], board: Sequence[int],
            tallies: Counter[tuple[tuple[int, ...], tuple[int, ...]]]) -> int:
    """The Monte Carlo hot loop of the games valued on summed codes (``_summed_ok``):
    each draw is the missing cards, board first then each player's in turn; the known cards'
    sums are added once. Returns the run-outs."""
    values = [_CODE_VALUES[r] for r in v.rankings]
    split = v.split
    n = len(hands)
    keeps = [[k + sum(board) for k in ks] for ks in _keep_sums(hands, v.hole_cards)]
    known = [ks[0] for ks in keeps]
    choose = any(len(ks) > 1 for ks in keeps)  # a Pineapple hand before its discard
    cut = slots[0]
    spans = []
    for s in slots[1:]:
        spans.append((cut, cut + s))
        cut += s
    sole = [((i,), ()) for i in range(n)]
    single = _SINGLE_CODE_VALUES[v.rankings[0]] if len(values) == 1 else None
    high_low8 = v.rankings == ("high", "low8")  # (stud/8: the low as _low8_value, inline)
    runs = 0
    for d in draws:
        runs += 1
        b = sum(d[:slots[0]]) if slots[0] else 0
        codes = [known[i] + b + sum(d[a:e]) if e > a else known[i] + b
                 for i, (a, e) in enumerate(spans)]
        if choose and single is not None:  # (Pineapple: nothing to come but the board)
            vals = [max([single(k + b) for k in ks]) for ks in keeps]
            best = max(vals)
            tallies[tuple(i for i, x in enumerate(vals) if x == best), ()] += 1
            continue
        if single is not None:
            vals = list(map(single, codes))
            best = max(vals)
            if vals.count(best) == 1:
                tallies[sole[vals.index(best)]] += 1
            else:
                tallies[tuple(i for i, x in enumerate(vals) if x == best), ()] += 1
            continue
        if high_low8:
            lows = [-x if qualifies_for_eight(x) else None for x in map(a5_badness, codes)]
            tallies[_outcome(list(zip(map(value_of_code, codes), lows, strict=True)), True)] += 1
            continue
        tallies[_outcome([tuple(f(c, []) for f in values) for c in codes], split)] += 1
    return runs


# --- the run-outs -------------------------------------------------------------------------------


def _wilson(p: float, n: int) -> float:
    """The 95 % half-width of a proportion ``p`` seen in ``n`` run-outs (Wilson's score
    interval: never 0, even when a figure came out 0 or 1 in every sample)."""
    z2 = Z95 * Z95
    return Z95 / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))


def _exact_count(unseen: int, slots: Sequence[int]) -> int:
    count = 1
    for s in slots:
        count *= math.comb(unseen, s)
        unseen -= s
    return count


def _exact_deals(pool: Sequence[object],
                 slots: Sequence[int]) -> Iterator[list[tuple[object, ...]]]:
    """Every way to fill ``slots`` (board first, then each player) from ``pool``."""
    if not slots:
        yield []
        return
    first, rest = slots[0], slots[1:]
    if not rest:
        for combo in combinations(pool, first):
            yield [combo]
        return
    for combo in combinations(range(len(pool)), first):
        taken = set(combo)
        remaining = [c for k, c in enumerate(pool) if k not in taken]
        chosen = tuple(pool[k] for k in combo)
        for tail in _exact_deals(remaining, rest):
            yield [chosen, *tail]


def _draws(pool: Sequence[object], k: int, samples: int,
           rng: random.Random) -> Iterator[list[object]]:
    """``samples`` draws of ``k`` distinct cards of ``pool``, each uniform and independent: a
    partial Fisher-Yates shuffle of one working copy (the first ``k`` places are a uniform draw
    whatever order the copy was left in), cheaper than ``rng.sample`` building a set per draw."""
    work = list(pool)
    n = len(work)
    rand = rng.random
    for _ in range(samples):
        for i in range(k):
            j = i + int(rand() * (n - i))
            work[i], work[j] = work[j], work[i]
        yield work[:k]


def _sampled_deals(pool: Sequence[object], slots: Sequence[int], samples: int,
                   rng: random.Random) -> Iterator[list[tuple[object, ...]]]:
    for drawn in _draws(pool, sum(slots), samples, rng):
        out: list[tuple[object, ...]] = []
        at = 0
        for s in slots:
            out.append(tuple(drawn[at:at + s]))
            at += s
        yield out


def equity(game: str, hands: Sequence[Sequence[str]], board: Sequence[str] = (),
           dead: Sequence[str] = (), *, exact: bool | None = None,
           samples: int = DEFAULT_SAMPLES, seed: int = 0,
           budget: int = EXACT_BUDGET) -> Equity:
    """Each player's chance to win, tie, and (split games) each half, for ``game`` (a
    ``VARIANTS`` id). ``exact``: None to enumerate when it fits ``budget`` evaluations, True
    to enumerate always (up to ``EXACT_CEILING``), False for Monte Carlo. ValueError, one line,
    for an unknown game, a bad or repeated card, a hand size the game does not deal, or more
    cards than the deck holds."""
    v = VARIANTS.get(game)
    if v is None:
        raise ValueError(f"unknown game {game!r}; one of {', '.join(VARIANTS)}")
    hands = [tuple(h) for h in hands]  # (a list of tuples from here)
    board = tuple(board)
    dead = tuple(dead)
    _check_inputs(v, hands, board, dead)
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    known = {c for h in hands for c in h} | set(board) | set(dead)
    unseen_cards = [c for c in v.deck_cards if c not in known]
    board_total, own = _deal_shape(v, hands, board, dead)
    slots = [board_total - len(board), *(max(own - len(h), 0) for h in hands)]
    count = _exact_count(len(unseen_cards), slots)
    keeps = sum(math.comb(len(h), v.hole_cards) if len(h) > v.hole_cards else 1 for h in hands)
    evaluations = count * keeps * _cost(v)
    if exact is None:
        exact = evaluations <= budget
    elif exact and evaluations > EXACT_CEILING:
        raise ValueError(f"{count} run-outs ({evaluations} evaluations) is too many to count "
                         f"exactly (at most {EXACT_CEILING}); use Monte Carlo")
    encode, score, _ = _scorer(v)
    pool = [encode(c) for c in unseen_cards]
    known_hands = [[encode(c) for c in h] for h in hands]
    known_board = [encode(c) for c in board]
    rng = random.Random(seed)
    n = len(hands)
    tallies: Counter[tuple[tuple[int, ...], tuple[int, ...]]] = Counter()
    fast_sums = _summed_ok(v)
    if exact and fast_sums and len(v.rankings) == 1 and not any(slots[1:]):
        runs = _board_only(pool, slots[0], known_hands, known_board,
                           tallies, v.hole_cards, _SINGLE_CODE_VALUES[v.rankings[0]])
    elif fast_sums and not exact:
        runs = _summed(v, _draws(pool, sum(slots), samples, rng),  # type: ignore[arg-type]
                       slots, known_hands, known_board, tallies)  # type: ignore[arg-type]
    elif v.hand == "omaha":  # (a board game: every hand is known, only the board to come)
        draws: Iterator[Sequence[object]] = (combinations(pool, slots[0]) if exact
                                             else _draws(pool, slots[0], samples, rng))
        runs = _omaha_board_only(v, draws, known_hands, known_board,  # type: ignore[arg-type]
                                 tallies)
    else:
        deals = _exact_deals(pool, slots) if exact else _sampled_deals(pool, slots, samples, rng)
        runs = 0
        for deal in deals:
            runs += 1
            full_board = known_board + list(deal[0]) if deal[0] else known_board
            players = [known_hands[i] + list(deal[i + 1]) if deal[i + 1] else known_hands[i]
                       for i in range(n)]
            tallies[_outcome(score(players, full_board), v.split)] += 1
    win = [0.0] * n
    tie = [0.0] * n
    share = [0.0] * n
    halves = [[0.0] * n for _ in range(4)]  # high win, high tie, low win, low tie
    for (high, low), times in tallies.items():
        got = [0.0] * n
        pot_high = 0.5 if low else 1.0
        for i in high:
            got[i] += pot_high / len(high)
            halves[0 if len(high) == 1 else 1][i] += times
        for i in low:
            got[i] += 0.5 / len(low)
            halves[2 if len(low) == 1 else 3][i] += times
        for i in range(n):
            if got[i]:
                share[i] += got[i] * times
                if got[i] == 1.0:
                    win[i] += times
                else:
                    tie[i] += times
    split = v.split
    figures = []
    worst = 0.0
    for i, h in enumerate(hands):
        row = [win[i] / runs, tie[i] / runs, share[i] / runs]
        half: list[float | None] = [None] * 4
        if split:
            half = [halves[k][i] / runs for k in range(4)]
            row += [x for x in half if x is not None]
        worst = max(worst, *(_wilson(p, runs) for p in row))
        labels = tuple(_label(v, r, h, board) for r in v.rankings)
        figures.append(PlayerEquity(tuple(h), row[0], row[1], row[2], labels, *half))
    margin = 0.0 if exact else worst
    assumes = family(v) == "draw" and any(len(h) < v.hole_cards for h in hands)
    return Equity(game, tuple(figures), "exact" if exact else "monte carlo", runs, margin,
                  split, assumes, None if exact else seed,
                  any(len(h) > v.hole_cards for h in hands))


__all__ = ["DEFAULT_SAMPLES", "EXACT_BUDGET", "EXACT_CEILING", "Equity", "PlayerEquity",
           "equity", "parse_cards"]
