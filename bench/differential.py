"""Differential check of every hand ranking against PokerKit's hand types (and treys for high).

Run as ``.venv/bin/python -m bench.differential [--hands 1000000] [--ranking NAME] [--jobs 2]``.
For each ranking, random deals (fixed seed) give pairs of hands as they meet at a showdown (hold'em
and Omaha pairs share the board; stud, draw and badugi hands come from one deck). Each pair is
ordered by ``controller.poker.hands.rankings`` and by the peer, and the two orders must agree, ties
included (PokerKit's ``Hand`` comparison; a disagreement is printed with its hands). On top of the
pairs, every hand seen is checked globally: equal values of ours must be equal entries of the
peer's and the order of our distinct values must be the order of the peer's entries, which covers
every pair of hands in the sample, not only the dealt pairs.

PokerKit has no joker, so for ``high_joker`` and ``ace_five_low_joker`` the peer is PokerKit
applied to every card the joker could stand for under the rulebooks (RR Section 12, The Joker:
an ace, or any card that completes a straight or a flush; five aces on top; RR Section 11
Ace-to-five r.1: the best stand-in, which is the lowest missing rank): an independent
construction of the same rule out of PokerKit's five-card hands.

Prints per ranking: hands compared, disagreements, our evaluations per second, PokerKit's per
second (for the joker rankings that includes trying the stand-ins), and the ratio. The work is
spread over ``--jobs`` processes (default: every core).
``tests/rules/test_rankings_differential.py`` runs the same cases on a smaller sample.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from controller.poker.cards import FULL_DECK
from controller.poker.hands.rankings import JOKER, omaha_strength, strength

Hand = tuple[tuple[str, ...], tuple[str, ...]]
"""A hand as (hole or whole hand, board)."""

Key = int | None
"""A comparable evaluation: higher is better, None is no qualifying hand (worst of all)."""

SHORT_DECK = tuple(c for c in FULL_DECK if c[0] in "6789TJQKA")
JOKER_DECK = (*FULL_DECK, JOKER)
FIVE_ACES_KEY = 1 << 30  # above every PokerKit entry index


# --- dealing -------------------------------------------------------------------------------


def _board_pair(deck: Sequence[str], hole: int) -> Callable[[random.Random], tuple[Hand, Hand]]:
    def deal(rng: random.Random) -> tuple[Hand, Hand]:
        cards = rng.sample(deck, 5 + 2 * hole)
        board = tuple(cards[:5])
        return (tuple(cards[5 : 5 + hole]), board), (tuple(cards[5 + hole :]), board)

    return deal


def _own_pair(deck: Sequence[str], size: int) -> Callable[[random.Random], tuple[Hand, Hand]]:
    def deal(rng: random.Random) -> tuple[Hand, Hand]:
        cards = rng.sample(deck, 2 * size)
        return (tuple(cards[:size]), ()), (tuple(cards[size:]), ())

    return deal


def _joker_pair(rng: random.Random) -> tuple[Hand, Hand]:
    """Two five-card hands from the 53-card deck; in one deal of four the first hand is given the
    joker, so joker hands are common enough to matter."""
    if rng.random() < 0.25:
        cards = [JOKER, *rng.sample(FULL_DECK, 9)]
    else:
        cards = rng.sample(JOKER_DECK, 10)
    return (tuple(cards[:5]), ()), (tuple(cards[5:]), ())


# --- the peers ------------------------------------------------------------------------------


def _s(cards: Iterable[str]) -> str:
    return "".join(cards)


def _pk_high(hand: Hand) -> Key:
    from pokerkit import StandardHighHand

    return int(StandardHighHand.from_game(_s(hand[0]), _s(hand[1])).entry.index)


def _pk_short(hand: Hand) -> Key:
    from pokerkit import ShortDeckHoldemHand

    return int(ShortDeckHoldemHand.from_game(_s(hand[0]), _s(hand[1])).entry.index)


def _pk_a5(hand: Hand) -> Key:
    from pokerkit import RegularLowHand

    return -int(RegularLowHand.from_game(_s(hand[0]), _s(hand[1])).entry.index)


def _pk_low8(hand: Hand) -> Key:
    from pokerkit import EightOrBetterLowHand

    found = EightOrBetterLowHand.from_game_or_none(_s(hand[0]), _s(hand[1]))
    return None if found is None else -int(found.entry.index)


def _pk_d27(hand: Hand) -> Key:
    from pokerkit import StandardLowHand

    return -int(StandardLowHand.from_game(_s(hand[0]), _s(hand[1])).entry.index)


def _pk_badugi(hand: Hand) -> Key:
    from pokerkit import BadugiHand

    return -int(BadugiHand.from_game(_s(hand[0])).entry.index)


def _pk_omaha(hand: Hand) -> Key:
    from pokerkit import OmahaHoldemHand

    return int(OmahaHoldemHand.from_game(_s(hand[0]), _s(hand[1])).entry.index)


def _pk_omaha8(hand: Hand) -> Key:
    from pokerkit import OmahaEightOrBetterLowHand

    found = OmahaEightOrBetterLowHand.from_game_or_none(_s(hand[0]), _s(hand[1]))
    return None if found is None else -int(found.entry.index)


def _pk_high_joker(hand: Hand) -> Key:
    """RR Section 12, The Joker r.2-4 built from PokerKit's five-card high hands: the best of the
    joker as any ace, or as any card that makes the hand a straight, flush or straight flush;
    four aces and the joker are five aces, the top hand."""
    from pokerkit import Label, StandardHighHand

    cards = hand[0]
    if JOKER not in cards:
        return int(StandardHighHand(_s(cards)).entry.index)
    real = [c for c in cards if c != JOKER]
    if sum(c[0] == "A" for c in real) == 4:
        return FIVE_ACES_KEY
    allowed = (Label.STRAIGHT, Label.FLUSH, Label.STRAIGHT_FLUSH)
    best = -1
    for card in FULL_DECK:
        if card in real:
            continue
        entry = StandardHighHand(_s([*real, card])).entry
        if (card[0] == "A" or entry.label in allowed) and entry.index > best:
            best = int(entry.index)
    return best


def _pk_a5_joker(hand: Hand) -> Key:
    """RR Section 11, Ace-to-five r.1 built from PokerKit's ace-to-five hands: the best hand over
    every card the joker could stand for (suits do not matter in ace-to-five, so one card per
    rank)."""
    from pokerkit import RegularLowHand

    cards = hand[0]
    if JOKER not in cards:
        return -int(RegularLowHand(_s(cards)).entry.index)
    real = [c for c in cards if c != JOKER]
    best: int | None = None
    for rank in "A23456789TJQK":
        card = next((rank + s for s in "cdhs" if rank + s not in real), None)
        if card is None:
            continue
        key = -int(RegularLowHand(_s([*real, card])).entry.index)
        if best is None or key > best:
            best = key
    return best


_TREYS: dict[str, object] = {}


def _treys_high(hand: Hand) -> Key:
    """treys scores a hand from 1 (royal flush) upward: lower is better."""
    import treys

    evaluator = _TREYS.get("evaluator")
    if evaluator is None:
        evaluator = _TREYS.setdefault("evaluator", treys.Evaluator())
    new = treys.Card.new
    return -int(evaluator.evaluate([new(c) for c in hand[1]], [new(c) for c in hand[0]]))  # type: ignore[attr-defined]


# --- ours -----------------------------------------------------------------------------------


def _ours(ranking: str) -> Callable[[Hand], Key]:
    def evaluate(hand: Hand) -> Key:
        return strength(ranking, hand[0] + hand[1])

    return evaluate


def _ours_omaha(ranking: str) -> Callable[[Hand], Key]:
    def evaluate(hand: Hand) -> Key:
        return omaha_strength(ranking, hand[0], hand[1])

    return evaluate


@dataclass(frozen=True)
class Case:
    name: str
    deal: Callable[[random.Random], tuple[Hand, Hand]]
    ours: Callable[[Hand], Key]
    theirs: Callable[[Hand], Key]
    peer: str


CASES: dict[str, Case] = {
    c.name: c
    for c in (
        Case(
            "high", _board_pair(FULL_DECK, 2), _ours("high"), _pk_high, "PokerKit StandardHighHand"
        ),
        Case("high_treys", _board_pair(FULL_DECK, 2), _ours("high"), _treys_high, "treys"),
        Case(
            "short_deck",
            _board_pair(SHORT_DECK, 2),
            _ours("short_deck"),
            _pk_short,
            "PokerKit ShortDeckHoldemHand",
        ),
        Case(
            "high_joker",
            _joker_pair,
            _ours("high_joker"),
            _pk_high_joker,
            "PokerKit StandardHighHand + joker stand-ins",
        ),
        Case(
            "ace_five_low",
            _own_pair(FULL_DECK, 7),
            _ours("ace_five_low"),
            _pk_a5,
            "PokerKit RegularLowHand",
        ),
        Case(
            "ace_five_low_joker",
            _joker_pair,
            _ours("ace_five_low_joker"),
            _pk_a5_joker,
            "PokerKit RegularLowHand + joker stand-ins",
        ),
        Case(
            "deuce_seven_low",
            _own_pair(FULL_DECK, 5),
            _ours("deuce_seven_low"),
            _pk_d27,
            "PokerKit StandardLowHand",
        ),
        Case(
            "low8",
            _own_pair(FULL_DECK, 7),
            _ours("low8"),
            _pk_low8,
            "PokerKit EightOrBetterLowHand",
        ),
        Case("badugi", _own_pair(FULL_DECK, 4), _ours("badugi"), _pk_badugi, "PokerKit BadugiHand"),
        Case(
            "omaha_high",
            _board_pair(FULL_DECK, 4),
            _ours_omaha("high"),
            _pk_omaha,
            "PokerKit OmahaHoldemHand",
        ),
        Case(
            "omaha_low8",
            _board_pair(FULL_DECK, 4),
            _ours_omaha("low8"),
            _pk_omaha8,
            "PokerKit OmahaEightOrBetterLowHand",
        ),
    )
}


# --- running --------------------------------------------------------------------------------


def _sign(a: Key, b: Key) -> int:
    if a == b:
        return 0
    if a is None:
        return -1
    if b is None:
        return 1
    return 1 if a > b else -1


@dataclass
class Result:
    case: str
    hands: int = 0
    ties: int = 0
    disagreements: int = 0
    examples: list[str] = field(default_factory=list)
    ours_seconds: float = 0.0
    theirs_seconds: float = 0.0
    # our value -> the peer's keys seen with it (one each when the two agree)
    pairs_of_values: dict[Key, set[Key]] = field(default_factory=dict)

    def merge(self, other: Result) -> None:
        self.hands += other.hands
        self.ties += other.ties
        self.disagreements += other.disagreements
        self.examples.extend(other.examples[: max(0, 5 - len(self.examples))])
        self.ours_seconds += other.ours_seconds
        self.theirs_seconds += other.theirs_seconds
        for value, keys in other.pairs_of_values.items():
            self.pairs_of_values.setdefault(value, set()).update(keys)

    def order_violations(self) -> list[str]:
        """Where our values and the peer's keys are not the same order over every hand seen."""
        problems = []
        for value, keys in self.pairs_of_values.items():
            if len(keys) > 1:
                problems.append(
                    f"our value {value} is several peer entries {sorted(keys, key=str)}"
                )
        by_key: dict[Key, Key] = {}
        for value, keys in self.pairs_of_values.items():
            for key in keys:
                if key in by_key and by_key[key] != value:
                    problems.append(f"peer entry {key} is several of our values")
                by_key[key] = value
        ordered = sorted(self.pairs_of_values, key=lambda v: (v is not None, v or 0))
        previous: Key = None
        for i, value in enumerate(ordered):
            key = min(self.pairs_of_values[value], key=lambda k: (k is not None, k or 0))
            if i and _sign(key, previous) <= 0:
                problems.append(f"our value {value} is above {ordered[i - 1]}, the peer disagrees")
            previous = key
        return problems


_BLOCK = 500


def run_chunk(case_name: str, hands: int, seed: str) -> Result:
    """``compare`` for a case of ``CASES`` by name (what the worker processes run)."""
    return compare(CASES[case_name], hands, seed)


def compare(case: Case, hands: int, seed: str) -> Result:
    """Deal ``hands`` hands (in pairs) for one case and compare; deterministic for a seed."""
    case_name = case.name
    rng = random.Random(f"{seed}:{case_name}")
    deals = [case.deal(rng) for _ in range(max(1, hands // 2))]
    flat = [h for pair in deals for h in pair]
    result = Result(case_name, len(flat))
    ours: list[Key] = []
    theirs: list[Key] = []
    # the two sides take turns block by block, so that load from elsewhere on the machine weighs
    # on both alike
    for b in range(0, len(flat), _BLOCK):
        block = flat[b : b + _BLOCK]
        start = time.perf_counter()
        ours.extend([case.ours(h) for h in block])
        middle = time.perf_counter()
        theirs.extend([case.theirs(h) for h in block])
        result.ours_seconds += middle - start
        result.theirs_seconds += time.perf_counter() - middle
    for i in range(0, len(flat), 2):
        if ours[i] == ours[i + 1]:
            result.ties += 1
        if _sign(ours[i], ours[i + 1]) != _sign(theirs[i], theirs[i + 1]):
            result.disagreements += 1
            if len(result.examples) < 5:
                result.examples.append(
                    f"{_show(flat[i])} vs {_show(flat[i + 1])}: ours {ours[i]} vs {ours[i + 1]}, "
                    f"{case.peer} {theirs[i]} vs {theirs[i + 1]}"
                )
    for value, key in zip(ours, theirs, strict=True):
        result.pairs_of_values.setdefault(value, set()).add(key)
    return result


def _show(hand: Hand) -> str:
    return " ".join(hand[0]) + (" | " + " ".join(hand[1]) if hand[1] else "")


def run(case_name: str, hands: int, seed: int = 2024, jobs: int = 1, chunk: int = 20_000) -> Result:
    """Compare ``hands`` hands of one case, split in chunks over ``jobs`` processes."""
    sizes = [chunk] * (hands // chunk) + ([hands % chunk] if hands % chunk else [])
    total = Result(case_name)
    if jobs <= 1 or len(sizes) == 1:
        for i, size in enumerate(sizes):
            total.merge(run_chunk(case_name, size, f"{seed}:{i}"))
        return total
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [
            pool.submit(run_chunk, case_name, size, f"{seed}:{i}") for i, size in enumerate(sizes)
        ]
        for future in futures:
            total.merge(future.result())
    return total


def main(argv: Sequence[str] | None = None) -> int:
    import os

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands per ranking")
    parser.add_argument(
        "--ranking", action="append", choices=sorted(CASES), help="one case (repeatable)"
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    names = args.ranking or list(CASES)
    failed = False
    print(
        f"{'ranking':<20} {'hands':>10} {'tied pairs':>10} {'disagree':>9} {'order':>6} "
        f"{'ours/s':>10} {'peer/s':>9} {'ratio':>7}  peer"
    )
    for name in names:
        result = run(name, args.hands, args.seed, args.jobs)
        problems = result.order_violations()
        ours_rate = result.hands / result.ours_seconds if result.ours_seconds else 0.0
        theirs_rate = result.hands / result.theirs_seconds if result.theirs_seconds else 0.0
        ratio = ours_rate / theirs_rate if theirs_rate else 0.0
        print(
            f"{name:<20} {result.hands:>10,} {result.ties:>10,} {result.disagreements:>9} "
            f"{len(problems):>6} "
            f"{ours_rate:>10,.0f} {theirs_rate:>9,.0f} {ratio:>6.1f}x  {CASES[name].peer}",
            flush=True,
        )
        for line in result.examples + problems[:5]:
            print(f"    {line}")
        failed = failed or bool(result.disagreements or problems)
    print("rates are per process (each process times its own share)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
