"""``python -m bench.kill``: ``kill -9`` of a dealing table, again and again, loses nothing.

A Pi's power is pulled, systemd kills a hung daemon, a dealer trips over a cable: the table
must come back exactly where it was. For each game (hold'em, razz, badugi: a board game, a stud
game, a draw game) this bench starts the real ``feltguard sim --pace 0 --no-web --mistakes 0``
on one journal, waits until a random number of new events (30 to 400) is journaled, and sends
``SIGKILL``; then starts it again on the same journal, ``--kills`` times in all. After each
kill it checks:

- *lost*: the journal's events are numbered 1..n with no gap, and every event journaled before
  the previous kill is still there, byte for byte (the restart appended, it rewrote nothing);
- *check*: ``controller.journal.check`` passes (the HMAC chain and the anchors);
- *clean*: after the last kill, five more hands are dealt, and every finding in the whole
  journal is a floor ruling voiding a hand a kill interrupted (the dealer made no mistake, so
  any other finding is a restart gone wrong), and the journal's check passes once more.

It prints the kills, events journaled, events lost, failed checks and false findings, and the
time from the restart's exec to its first new event (Python start-up, the chain check and the
replay of the journal, min/median/max). The peer figure is the floor under that recovery: the
same journal only read (``read_events``) in this process, with the ratio.

    python -m bench.kill [--kills 60] [--games nlhe,razz,badugi] [--seed 1]
"""

from __future__ import annotations

import argparse
import hashlib
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from controller.journal import check, read_events, read_findings

SEATS = {"nlhe": 6, "razz": 5, "badugi": 4}


FELTGUARD = [sys.executable, "-m", "controller.cli"]  # as bench.replay_scale runs it


@dataclass
class GameRun:
    """What the kills of one game's table gave."""

    events: int = 0
    lost: int = 0
    bad_checks: int = 0
    false: int = 0
    recoveries: list[float] = field(default_factory=list)  # s from exec to the first new event
    floors: list[float] = field(default_factory=list)  # s to only read the journal


def _events(journal: Path) -> list[tuple[int, str]]:
    """(seq, line) of every journaled event; [] while the file is not there yet."""
    try:
        return [(e.seq, e.to_line()) for e in read_events(journal)]
    except Exception:  # the writer may hold the file mid-transaction: read again later
        return []


def _count(journal: Path) -> int:
    return len(_events(journal))


def _digest(events: list[tuple[int, str]]) -> str:
    return hashlib.sha256("\n".join(line for _, line in events).encode()).hexdigest()


def one_kill(cmd: list[str], journal: Path, before: int, more: int) -> float:
    """Start ``cmd``, wait for ``more`` new events after ``before``, SIGKILL it. Returns the
    seconds from the start to the first new event (the restart's recovery)."""
    started = time.monotonic()
    first: float | None = None
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = started + 120
        while time.monotonic() < deadline:
            n = _count(journal)
            if first is None and n > before:
                first = time.monotonic() - started
            if n >= before + more:
                break
            if proc.poll() is not None:
                err = proc.stderr.read().decode()[-1500:] if proc.stderr else ""
                raise RuntimeError(f"feltguard sim exited {proc.returncode}: {err}")
            time.sleep(0.02)  # polling another process's journal; the deadline bounds it
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        if proc.stderr:
            proc.stderr.close()
    return first if first is not None else float("nan")


def run_game(game: str, kills: int, rng: random.Random, folder: Path) -> GameRun:
    journal = folder / f"{game}.sqlite"
    base = [*FELTGUARD, "sim", "--pace", "0", "--no-web", "--mistakes", "0", "--game", game,
            "--seats", str(SEATS.get(game, 6)), "--journal", str(journal)]
    run = GameRun()
    kept: list[tuple[int, str]] = []
    for k in range(kills):
        took = one_kill([*base, "--seed", str(rng.randrange(1 << 30))], journal, len(kept),
                        rng.randint(30, 400))
        if k:  # the first start finds no journal: no recovery to time
            run.recoveries.append(took)
        now = _events(journal)
        seqs = [s for s, _ in now]
        if seqs != list(range(1, len(seqs) + 1)) or _digest(now[:len(kept)]) != _digest(kept):
            run.lost += max(1, len(kept) + 1 - len(now))
        t = time.perf_counter()
        n = sum(1 for _ in read_events(journal))
        run.floors.append(time.perf_counter() - t)
        assert n == len(now)
        verdict = check(journal)
        run.bad_checks += not verdict.ok
        kept = now
        print(f"  {game}: kill {k + 1}/{kills} at {len(now)} events"
              f"{'' if verdict.ok else ', CHECK FAILED: ' + str(verdict.problem)}", flush=True)
    proc = subprocess.run([*base, "--seed", "99", "--hands", "5"], capture_output=True,
                          text=True, timeout=600, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"the last restart exited {proc.returncode}: {proc.stderr[-1500:]}")
    run.false = sum(1 for f in read_findings(journal) if f.code != "FLOOR_RULING")
    run.events = len(_events(journal))
    run.bad_checks += not check(journal).ok
    return run


def _mmm(xs: list[float]) -> str:
    xs = [x for x in xs if x == x]
    return f"{min(xs):.2f} / {statistics.median(xs):.2f} / {max(xs):.2f}" if xs else "-"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.kill",
                                description=(__doc__ or "").split("\n")[0])
    p.add_argument("--kills", type=int, default=60, help="kills in all, shared by the games")
    p.add_argument("--games", default="nlhe,razz,badugi")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    games = [g for g in args.games.split(",") if g]
    if args.kills < 1 or not games:
        p.error("--kills must be at least 1 and --games name a game")
    rng = random.Random(args.seed)
    each = [args.kills // len(games) + (i < args.kills % len(games)) for i in range(len(games))]
    print(f"kill -9 of feltguard sim: {args.kills} kills over {', '.join(games)}", flush=True)
    with tempfile.TemporaryDirectory(prefix="feltguard-kill-") as tmp:
        runs = [run_game(game, kills, rng, Path(tmp))
                for game, kills in zip(games, each, strict=True) if kills]
    events, lost = sum(r.events for r in runs), sum(r.lost for r in runs)
    bad, false = sum(r.bad_checks for r in runs), sum(r.false for r in runs)
    recoveries = [x for r in runs for x in r.recoveries]
    floors = [x for r in runs for x in r.floors]
    print(f"kills: {args.kills}; events journaled: {events}; events lost: {lost}; failed "
          f"journal checks: {bad}; findings other than the floor voiding an interrupted hand: "
          f"{false}")
    timed = [x for x in recoveries if x == x]
    ratio = (f"; ratio of medians {statistics.median(timed) / statistics.median(floors):.0f}x"
             if timed and statistics.median(floors) > 0 else " (no restart timed: one kill a game)")
    print(f"restart to its first new event, s (min / median / max): {_mmm(recoveries)}; "
          f"floor, the journal only read: {_mmm(floors)}{ratio}")
    return 0 if lost == bad == false == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
