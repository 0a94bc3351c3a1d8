"""Memory of a long-running simulated table: RSS at 500 hands against RSS at 5,000 hands.

    .venv/bin/python -m bench.memory [--hands 5000] [--every 500] [--runs 3]
                                     [--games nlhe,stud,badugi] [--web] [--no-leds]

Each run is a fresh process that deals hands on the real simulated table of ``feltguard sim
--no-web --pace 0`` (``controller.processes.sim``: the simulated dealer's card movements go as
wire-protocol frames through a pty into the real ``CardReader``, sensing, the SQLite journal,
the rules core and the LEDs on gpiozero mock pins), one hand after the other exactly as
``SimulatedTable.run`` does, and reads its own VmRSS from ``/proc/self/status`` every
``--every`` hands. The parent prints, per game, the RSS at the first sample and at the last and
their difference, min/median/max over ``--runs`` runs (seeds 1, 2, 3, ...), against the target:
the RSS after 5,000 hands within 5 MB of the RSS after 500 (a table runs for weeks). Each run's
curve also gives the largest the journal's WAL file grew (it must stay bounded too: the
journal's checkpointer empties it past ``WAL_LIMIT_FRAMES``).

``--web`` also starts the live view (the display server and its Publisher, on a free port, no
browser connected). ``--child`` is the per-run process (one JSON line per sample).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

TARGET_MB = 5.0
DEFAULT_GAMES = ("nlhe", "stud", "badugi")  # hold'em, a stud game, a draw game


def rss_mb() -> float:
    """This process's resident set size in MB (VmRSS), or NaN where /proc is absent."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def child(game: str, hands: int, every: int, seed: int, web: bool, leds: bool) -> int:
    """Deal ``hands`` hands on one simulated table; print {"hand", "rss_mb"} every ``every``."""
    import logging

    from controller.processes.sim import SimOptions, simulated_table

    logging.basicConfig(level=logging.WARNING)
    for name in ("uvicorn.access", "uvicorn.error"):  # a line per request and screen otherwise
        logging.getLogger(name).setLevel(logging.ERROR)
    opts = SimOptions(hands=hands, seed=seed, pace=0, web=web, port=0, game=game, leds=leds,
                      seat_changes=0.05 if game == "nlhe" else 0.0)  # the CLI's default
    started = time.monotonic()
    with simulated_table(opts) as table:
        for hand in range(1, hands + 1):
            table.play_hand()  # what SimulatedTable.run does for each hand
            if hand % every == 0:
                wal = table.journal.path.with_name(table.journal.path.name + "-wal")
                print(json.dumps({"hand": hand, "rss_mb": round(rss_mb(), 2),
                                  "wal_mb": round(wal.stat().st_size / 1e6 if wal.exists()
                                                  else 0.0, 1),
                                  "seconds": round(time.monotonic() - started, 1)}), flush=True)
    return 0


def one_run(game: str, hands: int, every: int, seed: int, web: bool, leds: bool
            ) -> list[tuple[int, float, float]]:
    cmd = [sys.executable, "-m", "bench.memory", "--child", "--games", game, "--hands",
           str(hands), "--every", str(every), "--seed", str(seed)]
    cmd += ["--web"] if web else []
    cmd += [] if leds else ["--no-leds"]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False,
                          cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if proc.returncode != 0:
        raise RuntimeError(f"{game} seed {seed}: exit {proc.returncode}\n{proc.stderr[-2000:]}")
    samples = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    return [(int(s["hand"]), float(s["rss_mb"]), float(s["wal_mb"])) for s in samples]


def _mmm(values: list[float]) -> str:
    return (f"{min(values):7.1f} {statistics.median(values):7.1f} {max(values):7.1f}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.memory", description=__doc__.split("\n")[0])
    p.add_argument("--hands", type=int, default=5000)
    p.add_argument("--every", type=int, default=500, help="sample RSS every N hands")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--games", default=",".join(DEFAULT_GAMES),
                   help="comma-separated: nlhe, a stud game, a draw game (feltguard sim --game)")
    p.add_argument("--web", action="store_true", help="also run the live view's Publisher")
    p.add_argument("--no-leds", action="store_true", help="no LEDs on mock pins")
    p.add_argument("--seed", type=int, default=1, help="first seed (run i uses seed + i)")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.hands < 1 or args.every < 1 or args.runs < 1 or args.hands < args.every:
        p.error("--hands, --every and --runs must be >= 1 and --every <= --hands")
    games = [g for g in args.games.split(",") if g]
    if args.child:
        return child(games[0], args.hands, args.every, args.seed, args.web, not args.no_leds)

    first, last = args.every, args.hands - args.hands % args.every
    print(f"RSS of the simulated table (pace 0, {'web on' if args.web else 'no web'}, "
          f"{'no LEDs' if args.no_leds else 'LEDs on mock pins'}), {args.runs} run(s) per game; "
          f"target: RSS at {last} hands within {TARGET_MB:.0f} MB of RSS at {first}", flush=True)
    print(f"{'game':<10} {'MB at ' + str(first):>23} {'MB at ' + str(last):>23} "
          f"{'growth MB':>23}   per 1,000 hands", flush=True)
    print(f"{'':<10} {'min  median     max':>23} {'min  median     max':>23} "
          f"{'min  median     max':>23}", flush=True)
    worst = 0.0
    for game in games:
        at_first: list[float] = []
        at_last: list[float] = []
        curves: list[str] = []
        for run in range(args.runs):
            rows = one_run(game, args.hands, args.every, args.seed + run, args.web,
                           not args.no_leds)
            samples = {hand: mb for hand, mb, _ in rows}
            at_first.append(samples[first])
            at_last.append(samples[last])
            curves.append(" ".join(f"{mb:.1f}" for _, mb in sorted(samples.items()))
                          + f"; journal WAL MB: {max(w for _, _, w in rows):.1f} at most")
        growth = [b - a for a, b in zip(at_first, at_last, strict=True)]
        per_k = statistics.median(growth) / max(1, last - first) * 1000
        worst = max(worst, max(growth))
        print(f"{game:<10} {_mmm(at_first):>23} {_mmm(at_last):>23} {_mmm(growth):>23}   "
              f"{per_k:+.2f} MB", flush=True)
        for run, curve in enumerate(curves):
            print(f"{'':<10}   seed {args.seed + run}, every {args.every} hands: {curve}",
                  flush=True)
    verdict = "within" if worst <= TARGET_MB else "OVER"
    print(f"worst growth {worst:.1f} MB: {verdict} the {TARGET_MB:.0f} MB target", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
