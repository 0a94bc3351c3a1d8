"""``python -m bench.replay_scale``: ``feltguard replay`` is linear in the file's length.

A surveillance officer replays a month of journal. This bench deals hold'em hands with the
simulated dealer (mistakes and seat changes on) into a real journal and a scenario file of the
same events, 10^4, 10^5 and 10^6 events each (the smaller files are prefixes of the largest),
then times the real command, ``feltguard replay --json FILE``, in a subprocess, and reads its
peak RSS. For each size it prints min/median/max seconds over the repeats, microseconds per
event and the peak RSS; a linear replay has the same cost per event at every size and a peak
RSS that does not grow with the file.

The peer figure is the floor under any replay: the same file only read and parsed (the
journal's rows or the scenario's lines into events), in the same run, with the ratio.

The target (issue 28): 10^6 events in under 60 s on this machine, the cost per event flat
across sizes and the peak RSS flat. Dealing the 10^6 events takes a couple of minutes: with
``--keep DIR`` the files are dealt once into DIR and reused by the next run.

    python -m bench.replay_scale [--sizes 10000,100000,1000000] [--repeat 3] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from controller.events import Event
from controller.journal import Journal, iter_events
from controller.sim import SimDealer, expand


def make_files(sizes: list[int], folder: Path) -> dict[int, tuple[Path, Path]]:
    """Journals and scenario files of each size (in events), dealt once."""
    dealer = SimDealer(random.Random(2026), mistake_rate=0.2, seat_changes=0.05,
                       redraw_returned=True)
    files = {n: (folder / f"journal-{n}.sqlite", folder / f"scenario-{n}.jsonl") for n in sizes}
    journals = {n: Journal(j, checkpoint_every=None) for n, (j, _) in files.items()}
    scenarios = {n: open(s, "w", encoding="utf-8") for n, (_, s) in files.items()}  # noqa: SIM115
    seq, top = 0, max(sizes)
    try:
        while seq < top:
            for step in dealer.next_hand():
                for body in expand(step):
                    if seq >= top:
                        break
                    seq += 1
                    event = Event(seq, seq, body)
                    line = event.to_line() + "\n"
                    for n in sizes:
                        if seq <= n:
                            journals[n].append(event)
                            scenarios[n].write(line)
            dealer.truth.clear()
    finally:
        for j in journals.values():
            j.close()
        for fh in scenarios.values():
            fh.close()
    return files


def run_timed(cmd: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (KB) of one command run to its end."""
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - started
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    if status != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {err.strip()[-400:]}")
    return elapsed, int(usage.ru_maxrss)


def read_only(path: Path) -> float:
    """The peer: seconds to read and parse every event of the file, nothing else."""
    started = time.perf_counter()
    for _ in iter_events(path):
        pass
    return time.perf_counter() - started


def _fmt(xs: list[float]) -> str:
    return f"{min(xs):7.2f} {statistics.median(xs):7.2f} {max(xs):7.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.replay_scale")
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", default=None, help="keep the files in this folder")
    args = parser.parse_args(argv)
    sizes = sorted(int(x) for x in args.sizes.split(","))
    with tempfile.TemporaryDirectory(prefix="feltguard-replay-") as tmp:
        folder = Path(args.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        files = {n: (folder / f"journal-{n}.sqlite", folder / f"scenario-{n}.jsonl")
                 for n in sizes}
        if args.keep and all(j.exists() and s.exists() for j, s in files.values()):
            print(f"the files dealt before in {folder} (--keep)", flush=True)
        else:
            for j, s in files.values():  # (a part left by a run cut short: dealt again whole)
                for f in (j, s, *j.parent.glob(j.name + "*")):
                    f.unlink(missing_ok=True)
            files = make_files(sizes, folder)
            print(f"dealt {max(sizes)} events into journals and scenario files "
                  f"({time.perf_counter() - started:.0f} s; not part of the figures)",
                  flush=True)
        print(f"{'file':<9} {'events':>9}  {'replay s min/med/max':>23}  {'us/event':>8}  "
              f"{'peak RSS':>9}  {'read-only s':>11}  {'ratio':>5}")
        per_event: dict[str, list[float]] = {"journal": [], "scenario": []}
        peaks: dict[str, list[float]] = {"journal": [], "scenario": []}
        largest: dict[str, float] = {}
        for n in sizes:
            for kind, path in zip(("journal", "scenario"), files[n], strict=True):
                cmd = [sys.executable, "-m", "controller.cli", "replay", "--json", str(path)]
                runs = [run_timed(cmd) for _ in range(args.repeat)]
                secs = [r[0] for r in runs]
                rss = max(r[1] for r in runs)
                floor = min(read_only(path) for _ in range(args.repeat))
                med = statistics.median(secs)
                per_event[kind].append(med / n * 1e6)
                peaks[kind].append(rss / 1024)
                largest[kind] = med
                print(f"{kind:<9} {n:>9}  {_fmt(secs):>23}  {med / n * 1e6:8.1f}  "
                      f"{rss / 1024:7.1f}MB  {floor:11.2f}  {med / floor:5.1f}", flush=True)
        for kind, costs in per_event.items():
            print(f"{kind}: cost per event at the largest size / at the smallest: "
                  f"{costs[-1] / costs[0]:.2f} (1.00 is linear; start-up weighs on the smallest); "
                  f"peak RSS largest / smallest {peaks[kind][-1] / peaks[kind][0]:.2f}; "
                  f"{max(sizes)} events in {largest[kind]:.1f} s median (target under 60 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
