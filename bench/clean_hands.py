"""No false alarms, at length: clean hands of every game, checked hand by hand.

    .venv/bin/python -m bench.clean_hands [--hands 11000] [--seed 1] [--seat-changes 0.05]
                                          [--games nlhe,razz,...]

The property of tests/rules/test_clean_families.py (which runs it over about 5,300 hands, what
fits in its time), here over 10,000 hands and more: ``--hands`` spread evenly over every game
(each variant at each structure it is dealt at, HORSE, dealer's choice), tables of random sizes.

The simulated dealer deals by the book (mistakes off) at a table of ``game``; after every hand
the rules core must have raised no finding, awarded the pots (the hand is complete: every hand
settled), and kept the chips at the table: the chips of the seated players and the antes a
passed-out draw deal carries to the next are what the players brought (the dealer's re-buys,
players joining and leaving between hands counted in).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from controller.events import SeatLeave, SeatTake
from controller.poker.variants import ROTATIONS, VARIANTS, structure_name
from controller.sim import SIM_GAMES, SimDealer, sim_seats

TABLE_HANDS = 50  # hands per table: each game is dealt at several tables


@dataclass
class CleanRun:
    """What a run of clean hands gave."""

    hands: int = 0
    settled: int = 0
    findings: list[str] = field(default_factory=list)
    chips: list[str] = field(default_factory=list)  # hands whose chips were not conserved

    @property
    def ok(self) -> bool:
        return not self.findings and not self.chips and self.settled == self.hands


def play_clean(game: str, structure: str, seats: int, seed: int, hands: int,
               seat_changes: float = 0.0) -> CleanRun:
    """Deal ``hands`` clean hands at one table and check each."""
    dealer = SimDealer(random.Random(seed), seats=seats, game=game, structure=structure,
                       seat_changes=seat_changes)
    run = CleanRun()
    for _ in range(hands):
        seated = dict(dealer.stacks)
        before = sum(seated.values()) + dealer.state.carry
        brought = 0
        number = dealer.state.hand_number
        steps = dealer.next_hand()
        for step in steps:  # chips that came to the table or left it between hands
            if isinstance(step, SeatTake):
                brought += step.stack - seated.get(step.seat, 0)
                seated[step.seat] = step.stack
            elif isinstance(step, SeatLeave):
                brought -= seated.pop(step.seat, 0)
        run.hands += 1
        # a hand was dealt (not refused) and its pots awarded
        run.settled += dealer.state.hand_number == number + 1 and dealer.state.phase == "complete"
        run.findings += [f"{game} {structure or '-'} seed {seed} hand {n}: {f.code} "
                         f"{f.message}" for n, f in dealer.found]
        after = sum(dealer.stacks.values()) + dealer.state.carry
        if after != before + brought:
            run.chips.append(f"{game} seed {seed} hand {dealer.hand}: {before} + {brought} "
                             f"chips became {after}")
    return run


def structures(game: str) -> list[str]:
    """The structures a game is dealt at, as a table names them ("" for a mixed game)."""
    if game in ROTATIONS:
        return [""]
    return [structure_name(s) for s in VARIANTS[game].structures]


def run_game(game: str, hands: int, seed: int, seat_changes: float) -> CleanRun:
    """``hands`` clean hands of ``game``, at tables of ``TABLE_HANDS`` hands each."""
    rng = random.Random(f"{seed}:{game}")
    lo, hi = sim_seats(game)
    total = CleanRun()
    while total.hands < hands:
        run = play_clean(game, rng.choice(structures(game)), rng.randint(lo, hi),
                         rng.getrandbits(32), min(TABLE_HANDS, hands - total.hands),
                         seat_changes)
        total.hands += run.hands
        total.settled += run.settled
        total.findings += run.findings
        total.chips += run.chips
    return total


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=11_000, help="hands in all (default 11000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seat-changes", type=float, default=0.05)
    parser.add_argument("--games", default=",".join(SIM_GAMES))
    args = parser.parse_args(argv)
    games = [g for g in args.games.split(",") if g]
    if any(g not in SIM_GAMES for g in games) or args.hands < len(games):
        parser.error("--games names unknown games, or --hands is fewer than the games")
    started = time.perf_counter()
    failed = 0
    total = 0
    print(f"{'game':<16}{'hands':>7}{'settled':>9}{'findings':>10}{'chips off':>11}{'s':>8}")
    for g, game in enumerate(games):
        t = time.perf_counter()
        share = args.hands // len(games) + (g < args.hands % len(games))
        run = run_game(game, share, args.seed, args.seat_changes)
        total += run.hands
        failed += not run.ok
        print(f"{game:<16}{run.hands:>7}{run.settled:>9}{len(run.findings):>10}"
              f"{len(run.chips):>11}{time.perf_counter() - t:>8.1f}", flush=True)
        for line in (run.findings + run.chips)[:3]:
            print(f"    {line}")
    print(f"clean hands: {total} hands over {len(games)} games in "
          f"{time.perf_counter() - started:.0f} s; {len(games) - failed} games clean, "
          f"{failed} with findings or chips off")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
