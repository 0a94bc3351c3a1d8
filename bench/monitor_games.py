"""Fault injection for the stud and draw families: recall and precision per finding code.

    .venv/bin/python -m bench.monitor_games [--hands 5000] [--mistakes 0.5] [--seed 1]

The simulated dealer of the stud and draw games (``controller/sim/games_dealer.py``) plays
``--hands`` hands spread over every stud and draw game, one table per game, and at the given
rate makes one dealing mistake of its catalogue per hand, recording the truth; the dealer then
follows the remedy (or, for a misdeal, its floor declares it). Every event goes through the pure
rules core as the daemon would apply it. Per code: the mistakes made, those the core caught (same
game, same hand, same code), the findings raised with no such mistake (false alarms), recall =
caught / made, precision = caught / raised. Target: 100% and 100% for every code (none of these
needs human input: exposures come from the shoe's orientation flag). The figures are counts, not
times. ``bench.monitor`` does the same for hold'em.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Sequence

from bench.monitor import Tally, report, score
from controller.events import Event
from controller.rules import apply, initial_state
from controller.sim import GameDealer, expand
from controller.sim.games_dealer import DRAW_GAMES, STUD_GAMES

GAMES = STUD_GAMES + DRAW_GAMES


def run(hands: int, mistake_rate: float, seed: int, games: Sequence[str] = GAMES) -> Tally:
    """(made, caught, raised) per code over every game, and the mistake kinds behind each."""
    tally: Tally | None = None
    per_game = max(1, hands // len(games))
    for g, game in enumerate(games):
        dealer = GameDealer(game, random.Random(seed * 1000 + g), mistake_rate=mistake_rate)
        state, seq = initial_state(), 0
        found: Counter[tuple[int, str]] = Counter()
        for number in range(1, per_game + 1):
            for step in dealer.next_hand():
                for body in expand(step):
                    seq += 1
                    result = apply(state, Event(seq, 0, body))
                    state = result.state
                    for f in result.findings:
                        found[(number, f.code)] += 1
        tally = score(found, dealer.truth, tally)
    assert tally is not None
    return tally


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--mistakes", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    tally = run(args.hands, args.mistakes, args.seed)
    took = time.perf_counter() - started
    print(f"fault injection, stud and draw families: {args.hands} hands over {len(GAMES)} games, "
          f"mistake rate {args.mistakes}, seed {args.seed} ({took:.1f} s)")
    report(tally)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
