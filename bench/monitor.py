"""Fault injection: recall and precision of the dealing monitor, per finding code.

    .venv/bin/python -m bench.monitor [--hands 5000] [--mistakes 0.5] [--seat-changes 0.05]

The simulated dealer plays hand after hand and, at the given rate, makes a dealing mistake of its
catalogue, recording the truth (which hand, which finding the rules must raise). It follows the
remedy of every finding that has one and plays the hand on; some kinds botch the remedy
(REMEDY_NOT_FOLLOWED) or make two independent mistakes in one hand, so the truth may hold two
codes for a hand. Cards a remedy returns to the stub may be drawn again after the reshuffle.
Every event goes through the pure rules core, as the daemon would apply it. Per code: the
mistakes made, those the core caught (same hand, same code), the findings it raised with no such
mistake (false alarms), recall = caught / made, precision = caught / raised. Target: 100% and
100% for every finding that needs no human input. The figures are counts, not times: they do not
depend on the machine.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Sequence

from controller.events import Event
from controller.rules import apply, initial_state, snapshot
from controller.sim import SimDealer, expand
from controller.sim.dealer import Mistake

Tally = tuple[Counter[str], Counter[str], Counter[str], dict[str, str]]


def run(hands: int, mistake_rate: float, seat_changes: float, seed: int) -> Tally:
    """(made, caught, raised) per code, and the mistake kinds behind each code."""
    dealer = SimDealer(random.Random(seed), seats=6, mistake_rate=mistake_rate,
                       seat_changes=seat_changes, redraw_returned=True)
    state, seq = initial_state(), 0
    found: Counter[tuple[int, str]] = Counter()
    for _ in range(hands):
        for step in dealer.next_hand():
            for body in expand(step):
                seq += 1
                result = apply(state, Event(seq, 0, body))
                state = result.state
                if result.findings:
                    number = int(snapshot(state)["hand"]["number"])
                    for f in result.findings:
                        found[(number, f.code)] += 1
    return score(found, dealer.truth)


def score(found: Counter[tuple[int, str]], truth: Sequence[Mistake],
          into: Tally | None = None) -> Tally:
    """Findings (hand, code) against the dealer's truth: (made, caught, raised) per code and the
    mistake kinds behind each code, added to ``into`` when given (several tables)."""
    made, caught, raised, kinds = into or (Counter(), Counter(), Counter(), {})
    want: Counter[tuple[int, str]] = Counter((m.hand, m.expected_code) for m in truth)
    for (_, code), n in want.items():
        made[code] += n
    for key, n in found.items():
        raised[key[1]] += n
        caught[key[1]] += min(n, want.get(key, 0))
    for m in truth:
        names = set(kinds.get(m.expected_code, "").split(", ")) - {""}
        kinds[m.expected_code] = ", ".join(sorted(names | {m.kind}))
    return made, caught, raised, kinds


def report(tally: Tally) -> None:
    """Print the recall/precision table of a tally."""
    made, caught, raised, kinds = tally
    print(f"{'finding code':<42}{'made':>6}{'caught':>8}{'raised':>8}{'recall':>9}{'precision':>11}"
          "  mistakes")
    worst = 1.0
    for code in sorted(set(made) | set(raised)):
        m, c, r = made[code], caught[code], raised[code]
        recall = c / m if m else float("nan")
        precision = c / r if r else float("nan")
        for v in (recall, precision):
            if v == v:  # not NaN
                worst = min(worst, v)
        print(f"{code:<42}{m:>6}{c:>8}{r:>8}{recall:>9.1%}{precision:>11.1%}  "
              f"{kinds.get(code, '(no mistake of this kind: a false alarm)')}")
    total_m, total_c, total_r = sum(made.values()), sum(caught.values()), sum(raised.values())
    print(f"{'all':<42}{total_m:>6}{total_c:>8}{total_r:>8}{total_c / max(total_m, 1):>9.1%}"
          f"{total_c / max(total_r, 1):>11.1%}")
    print(f"target: 100% recall and precision for every code; worst here {worst:.1%}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--mistakes", type=float, default=0.5)
    parser.add_argument("--seat-changes", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    tally = run(args.hands, args.mistakes, args.seat_changes, args.seed)
    took = time.perf_counter() - started
    print(f"fault injection: {args.hands} hands, mistake rate {args.mistakes}, seat changes "
          f"{args.seat_changes}, seed {args.seed} ({took:.1f} s)")
    report(tally)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
