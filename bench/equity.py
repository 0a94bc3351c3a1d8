"""Benchmark: Monte Carlo equity run-outs per second, ours (controller/poker/equity.py) against
PokerKit's ``calculate_equities``, on the same spots of every game both model.

Run as ``.venv/bin/python -m bench.equity [--samples N] [--pokerkit-samples M] [--rounds R]``.
Each round times both on each spot in turn (interleaved, so a loaded machine slows both alike);
the figures are run-outs per second, min/median/max over the rounds, and the ratio of the
medians. The issue's goal is 100 times PokerKit. eval7 (hold'em, compiled) is not installed
in the project's environment and is reported as such.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

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


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=5000, help="our run-outs per spot")
    parser.add_argument("--pokerkit-samples", type=int, default=300, help="PokerKit is slow")
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
    print("  eval7 (hold'em): not installed in the project's environment")
    verdict = "meets" if worst >= 100 else "BELOW"
    print(f"goal 100 x PokerKit on every shared spot: {verdict} it (lowest ratio x{worst:,.1f})")


if __name__ == "__main__":
    main()
