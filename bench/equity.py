"""Benchmark: Monte Carlo equity run-outs per second, ours (controller/poker/equity.py) against
PokerKit's ``calculate_equities``, on the same spots of every game both model.

Run as ``.venv/bin/python -m bench.equity [--samples N] [--pokerkit-samples M] [--rounds R]``.
Each round times both on each spot in turn (interleaved, so a loaded machine slows both alike);
the figures are run-outs per second, min/median/max over the rounds, and the ratio of the
medians. The issue's goal is 100 times PokerKit.

Then hold'em against eval7 (compiled, the ``bench`` extra: ``make bench`` installs it where it
has a wheel, x86_64), two ways: its own compiled Monte Carlo loop
(``py_hand_vs_range_monte_carlo``, heads-up: one hand against a range of one hand) against ours
on the same heads-up spot, and ``eval7.evaluate`` called from a Python loop over run-outs
sampled the same way as ours (three hands: the like-for-like of the evaluator alone). The
issue's goal is within 3 times eval7. Where eval7 is missing the bench says so and why.
"""

from __future__ import annotations

import argparse
import importlib.metadata as md
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from types import ModuleType

from controller.poker.equity import equity, parse_cards

# game: (hands, board, PokerKit hand types by name, hole cards dealt, board cards dealt)
SPOTS: dict[str, tuple[tuple[str, ...], str, tuple[str, ...], int, int]] = {
    "nlhe preflop": (("AhAs", "KdKc", "7c8c"), "", ("StandardHighHand",), 2, 5),
    "omaha flop": (("AhKhQcJc", "9s9d8s7d"), "2h5h9c", ("OmahaHoldemHand",), 4, 5),
    "omaha8 preflop": (("Ah2h3cKd", "KsKcQdJd"), "",
                       ("OmahaHoldemHand", "OmahaEightOrBetterLowHand"), 4, 5),
    "stud third street": (("AhAsKd", "QcQd7s", "5h6h7h"), "", ("StandardHighHand",), 7, 0),
    "stud8 fourth street": (("Ah2s3d9c", "KcKd7s6s"), "",
                            ("StandardHighHand", "EightOrBetterLowHand"), 7, 0),
    "razz third street": (("Ah2s3d", "4c5c6h"), "", ("RegularLowHand",), 7, 0),
    "2-7 draw, one kept short": (("7h5d4c", "8s6c4d3h2c"), "", ("StandardLowHand",), 5, 0),
    "badugi, drawing": (("Ac2d", "Kc7h5s"), "", ("BadugiHand",), 4, 0),
}


def _ours(game: str, hands: Sequence[str], board: str, samples: int, seed: int) -> float:
    start = time.perf_counter()
    equity(game, [parse_cards(h) for h in hands], parse_cards(board) if board else (),
           exact=False, samples=samples, seed=seed)
    return samples / (time.perf_counter() - start)


def _pokerkit(hands: Sequence[str], board: str, types: Sequence[str], hole: int, board_n: int,
              samples: int) -> float:
    import pokerkit

    classes = tuple(getattr(pokerkit, t) for t in types)
    ranges = [[list(pokerkit.Card.parse(h))] for h in hands]
    start = time.perf_counter()
    pokerkit.calculate_equities(ranges, list(pokerkit.Card.parse(board)), hole, board_n,
                                pokerkit.Deck.STANDARD, classes, sample_count=samples)
    return samples / (time.perf_counter() - start)


_GAME_OF = {"nlhe preflop": "nlhe", "omaha flop": "omaha", "omaha8 preflop": "omaha8",
            "stud third street": "stud", "stud8 fourth street": "stud8",
            "razz third street": "razz", "2-7 draw, one kept short": "27_single",
            "badugi, drawing": "badugi"}


def _span(rates: Sequence[float]) -> str:
    return (f"{min(rates):>9,.0f} {statistics.median(rates):>9,.0f} "
            f"{max(rates):>9,.0f}")


HEADS_UP = ("AhAs", "KdKc")  # eval7's compiled loop is one hand against a range
THREE = SPOTS["nlhe preflop"][0]


def _eval7() -> tuple[ModuleType | None, str]:
    try:
        import eval7  # type: ignore[import-not-found,unused-ignore]
    except ImportError as e:
        why = (f"no eval7 wheel for {platform.machine()} (0.1.11 ships x86_64 only; 0.1.10's "
               "source needs Cython to build)" if platform.machine() != "x86_64"
               else "pip install -c constraints.txt -e '.[bench]' (make bench does)")
        return None, f"not installed ({e}): {why}"
    return eval7, ""


def _eval7_compiled(eval7: ModuleType, samples: int) -> float:
    hero = [eval7.Card(c) for c in parse_cards(HEADS_UP[0])]
    villain = eval7.HandRange(HEADS_UP[1]).hands
    start = time.perf_counter()
    eval7.py_hand_vs_range_monte_carlo(hero, villain, [], samples)
    return samples / (time.perf_counter() - start)


def _eval7_loop(eval7: ModuleType, hands: Sequence[str], samples: int, seed: int) -> float:
    """Our Monte Carlo's shape with eval7's evaluator: a board sampled from the unseen cards,
    each hand valued (``eval7.evaluate``, higher is better), the winners tallied."""
    held = [[eval7.Card(c) for c in parse_cards(h)] for h in hands]
    known = {c for h in hands for c in parse_cards(h)}
    pool = [eval7.Card(r + s) for r in "23456789TJQKA" for s in "cdhs" if r + s not in known]
    rng = random.Random(seed)
    wins = [0] * len(hands)
    evaluate = eval7.evaluate
    start = time.perf_counter()
    for _ in range(samples):
        board = rng.sample(pool, 5)
        vals = [evaluate(h + board) for h in held]
        best = max(vals)
        if vals.count(best) == 1:
            wins[vals.index(best)] += 1
    return samples / (time.perf_counter() - start)


def _against_eval7(rounds: int, samples: int) -> list[str]:
    eval7, missing = _eval7()
    if eval7 is None:
        return [f"eval7 (hold'em): {missing}"]
    rows: dict[str, tuple[list[float], list[float]]] = {
        "heads-up, eval7's compiled loop": ([], []),
        "3 hands, eval7.evaluate in our loop": ([], [])}
    runs: dict[str, tuple[Callable[[int], float], Callable[[int], float]]] = {
        "heads-up, eval7's compiled loop": (
            lambda r: _ours("nlhe", HEADS_UP, "", samples, r),
            lambda r: _eval7_compiled(eval7, samples)),
        "3 hands, eval7.evaluate in our loop": (
            lambda r: _ours("nlhe", THREE, "", samples, r),
            lambda r: _eval7_loop(eval7, THREE, samples, r))}
    for r in range(rounds):
        for name, (ours, theirs) in runs.items():
            rows[name][0].append(ours(r))
            rows[name][1].append(theirs(r))
    out = [f"hold'em preflop against eval7 {md.version('eval7')}, run-outs per second, "
           f"min/median/max over {rounds} rounds ({samples} run-outs a spot)",
           f"  {'spot':<36} {'ours (min, median, max)':>29}   {'eval7 (min, median, max)':>32}"
           "   eval7/ours"]
    for name, (ours_rates, theirs_rates) in rows.items():
        ratio = statistics.median(theirs_rates) / statistics.median(ours_rates)
        verdict = "within" if ratio <= 3 else "not within"
        out.append(f"  {name:<36} {_span(ours_rates)}   {_span(theirs_rates)}   x{ratio:,.1f} "
                   f"({verdict} the goal of 3)")
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=5000, help="our run-outs per spot")
    parser.add_argument("--pokerkit-samples", type=int, default=300, help="PokerKit is slow")
    parser.add_argument("--eval7-samples", type=int, default=20000,
                        help="run-outs per hold'em spot, ours and eval7's")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    random.seed(1)  # PokerKit samples with the module's random
    ours: dict[str, list[float]] = {s: [] for s in SPOTS}
    theirs: dict[str, list[float]] = {s: [] for s in SPOTS}
    for r in range(args.rounds):
        for name, (hands, board, types, hole, board_n) in SPOTS.items():
            ours[name].append(_ours(_GAME_OF[name], hands, board, args.samples, r))
            theirs[name].append(_pokerkit(hands, board, types, hole, board_n,
                                          args.pokerkit_samples))
    print(f"Monte Carlo run-outs per second, min/median/max over {args.rounds} rounds "
          f"(ours {args.samples} run-outs a spot, PokerKit {args.pokerkit_samples})")
    print(f"  {'spot':<26} {'ours':>29}   {'PokerKit':>29}   ratio")
    worst = float("inf")
    for name in SPOTS:
        ratio = statistics.median(ours[name]) / statistics.median(theirs[name])
        worst = min(worst, ratio)
        print(f"  {name:<26} {_span(ours[name])}   {_span(theirs[name])}   x{ratio:,.1f}")
    verdict = "meets" if worst >= 100 else "BELOW"
    print(f"goal 100 x PokerKit on every shared spot: {verdict} it (lowest ratio x{worst:,.1f})")
    for line in _against_eval7(args.rounds, args.eval7_samples):
        print(line)


if __name__ == "__main__":
    main()
