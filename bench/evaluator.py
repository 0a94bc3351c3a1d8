"""Benchmark: seven-card hand evaluations per second, ours against treys and PokerKit.

Run as ``.venv/bin/python -m bench.evaluator [--hands N] [--repeat R]``. Every evaluator scores
the same random seven-card hands (fixed seed) in the same process, so the ratios mean something
even on a loaded machine; each figure is the best of R runs. Our target is 500,000 seven-card
evaluations per second in pure Python.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence

from controller.poker.cards import FULL_DECK
from controller.poker.hands.evaluate import CARD_CODES, hand_value, hand_value_ints, value_of_code

TARGET = 500_000


def _rate(run: Callable[[], object], count: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return count / best


def _ours(hands: Sequence[list[str]], repeat: int) -> dict[str, float]:
    codes = [[CARD_CODES[c] for c in hand] for hand in hands]
    # a showdown or equity loop knows the board once and adds each player's two cards
    boards = [sum(c[2:]) for c in codes]
    holes = [c[0] + c[1] for c in codes]
    pairs = list(zip(boards, holes, strict=True))
    n = len(hands)
    return {
        "ours, strings (hand_value)": _rate(lambda: [hand_value(h) for h in hands], n, repeat),
        "ours, card codes (hand_value_ints)": _rate(
            lambda: [hand_value_ints(c) for c in codes], n, repeat
        ),
        "ours, board code + hole code": _rate(
            lambda: [value_of_code(b + h) for b, h in pairs], n, repeat
        ),
    }


def _treys(hands: Sequence[list[str]], repeat: int) -> float | None:
    try:
        import treys
    except ImportError:
        return None
    evaluator = treys.Evaluator()
    ints = [[treys.Card.new(c) for c in hand] for hand in hands]
    split = [(h[:2], h[2:]) for h in ints]
    return _rate(
        lambda: [evaluator.evaluate(hole, board) for hole, board in split], len(hands), repeat
    )


def _pokerkit(hands: Sequence[list[str]], repeat: int) -> float | None:
    try:
        from pokerkit import StandardHighHand
    except ImportError:
        return None
    strings = [("".join(h[:2]), "".join(h[2:])) for h in hands]
    return _rate(
        lambda: [StandardHighHand.from_game(hole, board) for hole, board in strings],
        len(hands),
        repeat,
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--hands", type=int, default=100_000, help="seven-card hands (default 100000)"
    )
    parser.add_argument("--pokerkit-hands", type=int, default=3_000, help="PokerKit is slow")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    hands = [rng.sample(FULL_DECK, 7) for _ in range(args.hands)]
    rates = _ours(hands, args.repeat)
    treys_rate = _treys(hands, args.repeat)
    pokerkit_rate = _pokerkit(hands[: args.pokerkit_hands], args.repeat)

    print(f"seven-card evaluations per second ({args.hands} hands, best of {args.repeat})")
    for name, rate in rates.items():
        print(f"  {name:<40} {rate:>12,.0f}")
    for name, other in (("treys", treys_rate), ("PokerKit StandardHighHand", pokerkit_rate)):
        print(f"  {name:<40} {other:>12,.0f}" if other else f"  {name:<40} {'not installed':>12}")
    print("ratios (ours / theirs)")
    for name, rate in rates.items():
        cells = [
            f"{label} x{rate / other:,.1f}"
            for label, other in (("treys", treys_rate), ("PokerKit", pokerkit_rate))
            if other
        ]
        print(f"  {name:<40} {', '.join(cells)}")
    slowest = min(rates.values())
    verdict = "meets" if slowest >= TARGET else "BELOW"
    print(f"target {TARGET:,}/s: the slowest of our entry points {verdict} it ({slowest:,.0f}/s)")


if __name__ == "__main__":
    main()
