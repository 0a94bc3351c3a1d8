"""Benchmark: the pluribus corpus replayed through our engine and through PokerKit.

Run as ``.venv/bin/python -m bench.replay [--corpus PATH] [--pokerkit-seconds S]``. Both sides
parse first and are timed on the replays alone: ours plays each ``HandHistory`` through
``controller.rules.engine.Hand`` (``controller.phh.replay.play``); PokerKit iterates each of its
``HandHistory`` objects through its states to the end (its own PHH replay). Ours replays all
10,000 hands (best of ``--repeat`` runs); PokerKit replays the same hands in the same order
until it has done them all or ``--pokerkit-seconds`` have passed, in which case its figure is
the rate on that subset, and the output says so. The final stacks of both are compared on the
hands both replayed. Target: at least 20 times PokerKit's rate.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from controller.phh import HandHistory, read_file
from controller.phh.replay import play

TARGET = 20.0


def _corpus(arg: str | None) -> Path | None:
    if arg:
        return Path(arg)
    candidates = []
    if os.environ.get("FELTGUARD_SHARED"):
        candidates.append(Path(os.environ["FELTGUARD_SHARED"]))
    candidates.append(Path(__file__).resolve().parent.parent.parent / "shared")
    for c in candidates:
        path = c / "phh" / "pluribus.phhs"
        if path.is_file():
            return path
    return None


def _ours(hands: Sequence[HandHistory], repeat: int) -> tuple[float, list[Any]]:
    best = float("inf")
    finals: list[Any] = []
    for _ in range(repeat):
        start = time.perf_counter()
        finals = [play(h) for h in hands]
        best = min(best, time.perf_counter() - start)
    return len(hands) / best, finals


def _pokerkit(text: str, budget: float) -> tuple[float, int, list[Any]] | None:
    try:
        import pokerkit
    except ImportError:
        return None
    hands = list(pokerkit.HandHistory.loads_all(text))  # parsing, not timed
    finals: list[Any] = []
    start = time.perf_counter()
    elapsed = 0.0
    for hh in hands:
        state = None
        for state in hh:  # noqa: B007 - the last state is the result
            pass
        finals.append(None if state is None else list(state.stacks))
        elapsed = time.perf_counter() - start
        if elapsed > budget:
            break
    return len(finals) / elapsed, len(hands), finals


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=None, help="pluribus.phhs (default: ../shared/phh)")
    parser.add_argument("--repeat", type=int, default=3, help="our runs; the best counts")
    parser.add_argument("--pokerkit-seconds", type=float, default=30.0,
                        help="PokerKit's time budget (default 30 s)")
    args = parser.parse_args(argv)

    path = _corpus(args.corpus)
    if path is None:
        print("the pluribus corpus is absent: pass --corpus or set FELTGUARD_SHARED")
        return 0
    start = time.perf_counter()
    items = read_file(path)
    hands = [h for h in items if isinstance(h, HandHistory)]
    read = time.perf_counter() - start
    if len(hands) != len(items):
        print(f"{len(items) - len(hands)} hands could not be read")
    print(f"{path.name}: {len(hands)} hands (our reader: {read:.2f} s, not timed below)")

    ours, our_finals = _ours(hands, args.repeat)
    print(f"  Feltguard engine   {ours:>10,.0f} hands/s  ({len(hands)} hands, best of "
          f"{args.repeat})")
    theirs = _pokerkit(path.read_text(encoding="utf-8"), args.pokerkit_seconds)
    if theirs is None:
        print("  PokerKit           not installed")
        return 0
    rate, total, finals = theirs
    subset = "" if len(finals) == total else (
        f"; a subset: the first {len(finals)} of {total} hands in {args.pokerkit_seconds:.0f} s,"
        " rate on that subset")
    print(f"  PokerKit           {rate:>10,.0f} hands/s  ({len(finals)} hands, one run{subset})")
    agree = sum(1 for a, b in zip(our_finals, finals, strict=False) if list(a) == b)
    print(f"  final stacks agree on {agree} of {len(finals)} hands both replayed")
    ratio = ours / rate
    verdict = "meets" if ratio >= TARGET else "BELOW"
    print(f"  ratio x{ratio:,.1f} (target x{TARGET:.0f}: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
