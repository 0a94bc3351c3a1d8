"""Fault injection: recall and precision of the monitor, per finding code and per family, over
every game the table deals.

    .venv/bin/python -m bench.monitor [--hands 500] [--quick] [--mistakes 0.5] [--seed 1]
                                      [--seat-changes 0.05] [--games nlhe,razz,...]

The simulated dealer (``controller/sim/dealer.py``) plays ``--hands`` hands of each game (every
variant of ``controller/poker/variants.py`` and both mixed games, HORSE and dealer's choice),
spread over one table per structure the game is dealt at and one table whose monitor alert is
not the attention call (house setting ``attention_on_alert`` off: the floor calls attention, and
notices some errors only after the misdeal cut-off). At the given rate it makes a dealing
mistake of the hand's family, recording the truth (which hand, which finding the rules must
raise); it follows the remedy of every finding that has one and plays the hand on; some kinds
botch the remedy or make two mistakes in one hand, so the truth may hold two codes for a hand.
Cards a remedy returns to the stub may be drawn again after the reshuffle.

Every event goes through the pure rules core, as the daemon would apply it: the dealer's own
shadow table, whose findings the dealer hands back per hand (``SimDealer.found``; applying the
same events again gives the same findings, the core being pure). Per code: the mistakes made,
those the core caught (same table, same hand, same code: ``controller.sim.score``, the matcher
``feltguard sim`` scores its run with too), the findings it raised with no such
mistake (false alarms), recall = caught / made, precision = caught / raised; then the same per
family (board, stud, draw). Target: 100% and 100% for every code that needs no human input.
The codes that need a console key (the boxed or exposed key, the attention call) are listed;
the dealer presses those keys, so they are scored too. The figures are counts, not times: they
do not depend on the machine.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Iterable, Sequence

from controller.poker.variants import ROTATIONS, VARIANTS, family, structure_name
from controller.sim import SIM_GAMES, SimDealer, sim_seats
from controller.sim.mistakes import KINDS
from controller.sim.score import Tally, rows, score

QUICK_HANDS = 40  # per game, for --quick


def tables(game: str, hands: int, seed: int) -> list[tuple[dict[str, object], int]]:
    """The tables a game is benched at (``SimDealer`` keyword arguments) and the hands each
    deals: one per structure the game is dealt at, and one with the attention call apart from
    the monitor's alert, at the game's usual structure and the most seats."""
    rng = random.Random(f"{seed}:{game}")
    lo, hi = sim_seats(game)
    structures = [""] if game in ROTATIONS else [
        structure_name(s) for s in VARIANTS[game].structures]
    kw: list[dict[str, object]] = [
        {"game": game, "structure": s, "seats": rng.randint(max(lo, 3), hi)}
        for s in structures]
    kw.append({"game": game, "structure": structures[0], "seats": hi,
               "attention_on_alert": False})
    share, extra = divmod(hands, len(kw))
    return [(k, share + (i < extra)) for i, k in enumerate(kw)]


def run_table(kw: dict[str, object], hands: int, mistake_rate: float, seat_changes: float,
              seed: int, tally: Tally) -> None:
    """Deal ``hands`` hands at one table and score its findings against its truth."""
    dealer = SimDealer(random.Random(seed), mistake_rate=mistake_rate,
                       seat_changes=seat_changes, redraw_returned=True,
                       **kw)  # type: ignore[arg-type]
    deal_scored(dealer, hands, tally, str(kw["game"]))


def deal_scored(dealer: SimDealer, hands: int, tally: Tally, game: str) -> None:
    """Deal ``hands`` hands and add the findings, against the dealer's truth, to ``tally``
    (the one loop of bench.monitor and bench.chips)."""
    found: Counter[tuple[int, str]] = Counter()
    fam_of: dict[int, str] = {}
    for _ in range(hands):
        dealer.next_hand()
        if dealer.state.hand is not None:
            fam_of[dealer.hand] = family(dealer.state.hand.game.variant)
        for number, f in dealer.found:
            found[(number, f.code)] += 1
    score(found, dealer.truth, fam_of, tally)
    tally.hands[game] += hands


def run(hands: int, mistake_rate: float, seat_changes: float, seed: int,
        games: Iterable[str] = SIM_GAMES, progress: bool = False) -> Tally:
    tally = Tally()
    for g, game in enumerate(games):
        started = time.perf_counter()
        for t, (kw, n) in enumerate(tables(game, hands, seed)):
            run_table(kw, n, mistake_rate, seat_changes, seed * 1000 + g * 10 + t, tally)
        if progress:
            print(f"  {game}: {hands} hands in {time.perf_counter() - started:.1f} s", flush=True)
    return tally


def needs_human_input() -> dict[str, str]:
    """Codes the dealer's mistakes raise only through a console key: code -> the key."""
    keys: dict[str, set[str]] = {}
    for k in KINDS.values():
        keys.setdefault(k.code, set()).add(k.key)
    return {code: ", ".join(sorted(ks)) for code, ks in keys.items() if "" not in ks}


def _pct(a: int, b: int) -> str:
    return f"{a / b:.1%}" if b else "-"


def report(tally: Tally) -> float:
    """Print the tables; return the worst recall or precision over the codes that need no
    human input."""
    human = needs_human_input()
    print(f"{'finding code':<40}{'made':>7}{'caught':>8}{'raised':>8}{'recall':>9}"
          f"{'precision':>11}  families: made/caught/raised")
    worst = 1.0
    for code, (m, c, r) in sorted(rows(tally, "code").items()):
        fams = ", ".join(f"{fam} {tally.made[(fam, code)]}/{tally.caught[(fam, code)]}/"
                         f"{tally.raised[(fam, code)]}"
                         for fam in ("board", "stud", "draw")
                         if tally.made[(fam, code)] or tally.raised[(fam, code)])
        if code not in human:
            for a, b in ((c, m), (c, r)):
                if b:
                    worst = min(worst, a / b)
        mark = " *" if code in human else ""
        print(f"{code + mark:<40}{m:>7}{c:>8}{r:>8}{_pct(c, m):>9}{_pct(c, r):>11}  {fams}")
    print()
    print(f"{'family':<40}{'made':>7}{'caught':>8}{'raised':>8}{'recall':>9}{'precision':>11}")
    by_family = rows(tally, "family")
    for fam in ("board", "stud", "draw", "?"):
        if fam in by_family:
            m, c, r = by_family[fam]
            print(f"{fam:<40}{m:>7}{c:>8}{r:>8}{_pct(c, m):>9}{_pct(c, r):>11}")
    m, c, r = (sum(v[i] for v in by_family.values()) for i in range(3))
    print(f"{'all':<40}{m:>7}{c:>8}{r:>8}{_pct(c, m):>9}{_pct(c, r):>11}")
    print()
    print("* needs human input (a console key the simulated dealer presses): "
          + ("; ".join(f"{code} ({key})" for code, key in sorted(human.items())) or "none"))
    print("mistakes behind each code:")
    for code in sorted(tally.kinds):
        print(f"  {code}: {', '.join(sorted(tally.kinds[code]))}")
    print(f"target: 100% recall and precision for every code that needs no human input; "
          f"worst here {worst:.1%}")
    return worst


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=500, help="hands per game (default 500)")
    parser.add_argument("--quick", action="store_true",
                        help=f"a short run: {QUICK_HANDS} hands per game")
    parser.add_argument("--mistakes", type=float, default=0.5)
    parser.add_argument("--seat-changes", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default=",".join(SIM_GAMES),
                        help="comma-separated game ids (default: every game)")
    args = parser.parse_args(argv)
    hands = QUICK_HANDS if args.quick else args.hands
    games = [g for g in args.games.split(",") if g]
    unknown = [g for g in games if g not in SIM_GAMES]
    if unknown or hands < 1:
        parser.error(f"unknown games {unknown}" if unknown else "--hands must be at least 1")
    started = time.perf_counter()
    tally = run(hands, args.mistakes, args.seat_changes, args.seed, games, progress=True)
    took = time.perf_counter() - started
    print(f"fault injection: {sum(tally.hands.values())} hands ({hands} per game, "
          f"{len(games)} games), mistake rate {args.mistakes}, seat changes {args.seat_changes}, "
          f"seed {args.seed} ({took:.1f} s)")
    report(tally)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
