"""``python -m bench.restart``: a table restarts in about the same time whatever its journal's
age (issue 28; docs/checkpoints.md).

For each size (default 10^4 and 10^5 events; ``--sizes 10000,100000,1000000`` for a month's
10^6), a journal is built by the simulated dealer of a mixed game (dealer's choice: every game
family in rotation, mistakes and seat changes on) through the daemon's own submit path: each
event journaled and applied, a checkpoint kept at each hand's end, as ``feltguard run`` keeps
them. No pty: the readers are not what is measured.

Then, in a fresh process each time (``--repeat``, default 3), the restart as ``feltguard run``
does it: the journal opened, ``TableDaemon`` recovering from the newest checkpoint that checks
out (its HMAC, its chain hash, its anchor; the chain and anchors after it checked; the events
after it replayed), and one new event (a reader's health) accepted. The time is from the
moment before the process is started to the moment that event is journaled and applied: the
interpreter and the imports are in it, as they are in a real restart.

The peer is the restart before checkpoints, in the same process and the same run: the whole
chain checked and every event replayed from the start. Printed per size: min / median / max
seconds of each, and the ratio. The target: under 2 s, and the largest size's time at most
1.5 times the smallest's.

Each restart also reads its own memory once it is back (issue 28, "RSS after a month's
replay"): the RSS then (``VmRSS``) and its peak (``VmHWM``), median MB over the repeats, ours
and the peer's (the whole journal replayed: what a restart held before checkpoints).

``--segments K`` (docs/segments.md) times instead, for each size, the restart of a run of K
segments (the journal rolling over every so many hands, as ``[journal] rollover = N`` does)
against the same dealing in one file: K - 1 sealed segments beside the live one must not make
the restart slower (ours: the run; peer: the single file; the ratio peer/ours about 1).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHILD = r"""
import json, sys, time
t_import = time.perf_counter()
from controller.daemon.table_daemon import TableDaemon
from controller.events import ReaderHealth
from controller.guard import guarded_apply
from controller.journal import Journal, check, read_events
from controller.rules import initial_state
path, mode = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
with Journal(path, checkpoint_every=None) as journal:
    if mode == "checkpoint":
        daemon = TableDaemon(journal)
        daemon.submit(ReaderHealth(reader=1, state="ok", name="shoe"))
        how = daemon.restart
    else:  # the restart before checkpoints: the whole chain, every event
        assert check(path, checkpoints=False).ok
        state = initial_state()
        for event in read_events(path):
            state = guarded_apply(state, event).step.state
        how = {"from": "the whole journal"}
t1 = time.perf_counter()
# the process's memory once it is back (VmRSS) and at its peak (VmHWM), in MB
mem = {k: int(v.split()[0]) / 1024 for k, v in (line.split(":", 1) for line in
       open("/proc/self/status")) if k in ("VmRSS", "VmHWM")}
print(json.dumps({"imports": t0 - t_import, "restart": t1 - t0, "how": how,
                  "rss_mb": mem.get("VmRSS"), "peak_mb": mem.get("VmHWM")}))
"""


def build(path: Path, events: int, seed: int = 2026, rollover_hands: int = 0) -> int:
    """A journal of ``events`` events dealt by the simulated dealer of dealer's choice, through
    the daemon (checkpoints kept as ``feltguard run`` keeps them; a rollover every
    ``rollover_hands`` hands, 0 none); returns the hands dealt."""
    from controller.daemon.segments import Rollover
    from controller.daemon.table_daemon import TableDaemon
    from controller.events import EventError
    from controller.journal import Journal
    from controller.sim import SimDealer, expand

    dealer = SimDealer(random.Random(seed), mistake_rate=0.1, seat_changes=0.05,
                       redraw_returned=True, game="dealers_choice")
    hands = 0
    with Journal(path, checkpoint_every=None) as journal:
        daemon = TableDaemon(journal, rollover=Rollover(rollover_hands) if rollover_hands
                             else None)
        while daemon.seq < events:
            for step in dealer.next_hand():
                for body in expand(step):
                    if daemon.seq >= events:
                        break
                    try:
                        daemon.submit(body)
                    except EventError:  # (a key the dealer named for a card not in play)
                        continue
            dealer.truth.clear()
            hands += 1
    return hands


def timed(path: Path, mode: str) -> tuple[float, dict[str, object]]:
    """One restart in a fresh process: seconds from before its start to the first new event
    accepted (``mode`` "checkpoint"), or to the whole journal replayed (the peer)."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD, str(path), mode], capture_output=True,
                          text=True, check=False, timeout=3600)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    return wall, json.loads(done.stdout.splitlines()[-1])


def _fmt(xs: list[float]) -> str:
    return f"{min(xs):8.3f} / {statistics.median(xs):8.3f} / {max(xs):8.3f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000",
                        help="journal sizes in events, comma-separated (default 10000,100000)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", default=None, help="build the journals in this folder")
    parser.add_argument("--segments", type=int, default=0,
                        help="time a run of this many segments against one file instead")
    args = parser.parse_args(argv)
    try:
        sizes = sorted({int(x) for x in args.sizes.split(",")})
    except ValueError:
        parser.error("--sizes: whole numbers, comma-separated")
    if not sizes or min(sizes) < 100 or args.repeat < 1:
        parser.error("--sizes of at least 100 events; --repeat at least 1")
    if args.segments == 1 or args.segments < 0:
        parser.error("--segments: at least 2 (0: the checkpoint restart against the full one)")
    tmp = None
    if args.keep:
        folder = Path(args.keep)
        folder.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="feltguard-bench-restart-")
        folder = Path(tmp.name)
    if args.segments:
        code = _segmented(sizes, args.segments, args.repeat, folder)
        if tmp is not None:
            tmp.cleanup()
        return code
    print("restart: process start -> the first new event accepted, from the newest checkpoint "
          "(ours), against the whole chain checked and replayed (peer, the restart before "
          "checkpoints); seconds min / median / max")
    print(f"{'events':>9} {'hands':>6}  {'ours':>28}  {'peer':>28}  {'peer/ours':>9}  "
          f"{'replayed':>8}  {'RSS MB ours / peer':>18}  {'peak MB ours / peer':>19}")
    medians: dict[int, float] = {}
    for n in sizes:
        path = folder / f"journal-{n}.sqlite"
        hands = build(path, n) if not path.exists() else 0  # (--keep: built once)
        ours, peer, replayed = [], [], []
        mem: dict[str, list[float]] = {"ours_rss": [], "ours_peak": [], "peer_rss": [],
                                       "peer_peak": []}
        for _ in range(args.repeat):  # interleaved: the same machine state for both
            wall, got = timed(path, "checkpoint")
            ours.append(wall)
            how = got["how"]
            replayed.append(int(how.get("replayed", 0)) if isinstance(how, dict) else 0)
            mem["ours_rss"].append(float(got["rss_mb"]))  # type: ignore[arg-type]
            mem["ours_peak"].append(float(got["peak_mb"]))  # type: ignore[arg-type]
            wall, got = timed(path, "full")
            peer.append(wall)
            mem["peer_rss"].append(float(got["rss_mb"]))  # type: ignore[arg-type]
            mem["peer_peak"].append(float(got["peak_mb"]))  # type: ignore[arg-type]
        med = {k: statistics.median(v) for k, v in mem.items()}
        medians[n] = statistics.median(ours)
        print(f"{n:>9} {hands or '-':>6}  {_fmt(ours)}  {_fmt(peer)}  "
              f"{statistics.median(peer) / statistics.median(ours):9.1f}  {max(replayed):>8}  "
              f"{med['ours_rss']:8.1f} / {med['peer_rss']:7.1f}  "
              f"{med['ours_peak']:8.1f} / {med['peer_peak']:8.1f}", flush=True)
    lo, hi = min(sizes), max(sizes)
    print(f"largest / smallest (median): {medians[hi] / medians[lo]:.2f} (target at most 1.5); "
          f"largest median {medians[hi]:.3f} s (target under 2 s)")
    if tmp is not None:
        tmp.cleanup()
    return 0


def _segmented(sizes: list[int], segments: int, repeat: int, folder: Path) -> int:
    """The restart of a run of ``segments`` segments against the same dealing in one file."""
    from controller.journal import run_segments

    print(f"restart: process start -> the first new event accepted, a run of {segments} "
          "segments (ours) against the same dealing in one file (peer); seconds min / median / "
          "max")
    print(f"{'events':>9} {'segments':>8}  {'ours':>28}  {'peer':>28}  {'peer/ours':>9}")
    for n in sizes:
        one = folder / f"one-{n}.sqlite"
        hands = build(one, n) if not one.exists() else n // 70
        run = folder / f"run-{n}" / "journal.sqlite"
        if not run.exists():
            run.parent.mkdir(parents=True, exist_ok=True)
            build(run, n, rollover_hands=max(1, hands // segments))
        ours, peer = [], []
        for _ in range(repeat):  # interleaved: the same machine state for both
            ours.append(timed(run, "checkpoint")[0])
            peer.append(timed(one, "checkpoint")[0])
        print(f"{n:>9} {len(run_segments(run)):>8}  {_fmt(ours)}  {_fmt(peer)}  "
              f"{statistics.median(peer) / statistics.median(ours):9.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
