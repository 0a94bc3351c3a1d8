"""``python -m bench.startup``: how long ``feltguard run`` takes from its process's start to the
first card frame read and applied, and where its imports go (issue 28, "Pi-sized resource
checks": a Pi 4 runs CPython 5 to 8 times slower per core than this machine).

Each repeat is a fresh table in a temp dir: a real config (two seats, a full deck file, the
LEDs on gpiozero's mock pins, the live view on a free port over HTTPS with
its own certificate (``feltguard tls init``, before the clock starts), the journal new),
its card reader a pty twin (``drivers.simulated_reader``) at the config's reader path. A thread
sends a card's "left the shoe" frame every 5 ms; frames sent before the reader's port is open
are flushed by pyserial (as on the wire), so the first one the table reads is one sent after
it opened the port. The figure is from the moment before the process is started to the
``ts`` (wall clock, ms) of the first ``shoe.draw`` the journal holds: that event was read,
parsed, journaled and applied (the daemon journals an event, then applies it, under one lock).

The peer, in the same run and interleaved: a bare ``python -c "import sqlite3, serial"``, the
floor of any Python daemon that reads a serial port into SQLite, from start to exit.

The RSS of ``feltguard run`` when that frame is applied is printed too (min / median / max MB:
``bench.restart`` shows that a restart on a month's journal adds nothing to it).

Then one more start of the table under ``python -X importtime``: the total import time and the
top modules by cumulative import time (a package's figure includes what it imports).

    python -m bench.startup [--repeat 5] [--top 15] [--tree OTHER_CHECKOUT]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
UID = "04A1B2C3D4E5F6"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def write_config(folder: Path) -> Path:
    """A table.toml: Ann and Bob seated, a full deck (As on ``UID``), one reader, mock LEDs."""
    from controller.poker.cards import FULL_DECK

    deck = {UID: "As"}
    deck.update({f"04D0{i:08X}": c for i, c in enumerate(c for c in FULL_DECK if c != "As")})
    (folder / "deck.json").write_text(json.dumps(deck))
    config = folder / "table.toml"
    config.write_text(f"""[[players]]
seat = 1
name = "Ann"
stack = 200

[[players]]
seat = 2
name = "Bob"
stack = 200

[[readers]]
url = "{folder / 'shoe'}"

[leds]
pin_factory = "mock"

[display]
host = "127.0.0.1"
port = {_free_port()}

[journal]
path = "{folder / 'journal.sqlite'}"

[deck]
file = "{folder / 'deck.json'}"
""")
    return config


def first_draw_ts(journal: Path) -> int | None:
    """The ts (ms) of the journal's first shoe.draw, or None (no journal or none yet)."""
    if not journal.exists():
        return None
    try:
        db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=0.05)
        try:
            row = db.execute("SELECT ts FROM events WHERE type = 'shoe.draw' "
                             "ORDER BY seq LIMIT 1").fetchone()
        finally:
            db.close()
    except sqlite3.Error:  # (not created yet, or the table holds it mid-transaction)
        return None
    return int(row[0]) if row else None


def rss_mb(pid: int) -> float:
    """A process's resident set (VmRSS), MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def one_start(importtime: bool = False, tree: Path = REPO) -> tuple[float, str, float]:
    """One start of ``feltguard run`` on a new table: seconds from before the process's start
    to the first shoe.draw applied; its stderr when ``importtime``; its RSS (MB) then."""
    from controller.cli.main import main as feltguard
    from drivers.simulated_reader import SimulatedReader

    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("NOTIFY_SOCKET", None)
    with tempfile.TemporaryDirectory(prefix="feltguard-bench-startup-") as tmp:
        folder = Path(tmp)
        config = write_config(folder)
        with contextlib.redirect_stdout(io.StringIO()):  # (its fingerprint lines)
            if feltguard(["tls", "init", "--config", str(config), "--host", "127.0.0.1"]):
                raise RuntimeError("feltguard tls init failed")
        shoe = SimulatedReader(folder / "shoe")
        halt = threading.Event()

        def frames() -> None:  # a card leaving the shoe, every 5 ms, until one is applied
            while not halt.wait(0.005):
                try:
                    shoe.send_read(1, 0, UID, False)
                except OSError:
                    return

        sender = threading.Thread(target=frames, daemon=True)
        cmd = [sys.executable, *(["-X", "importtime"] if importtime else []), "-m",
               "controller.cli", "run", "--config", str(config)]
        err = open(folder / "stderr.txt", "w+")  # noqa: SIM115 (read back below)
        sender.start()
        started = time.time()
        proc = subprocess.Popen(cmd, cwd=folder, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=err)
        try:
            deadline = time.monotonic() + 120
            ts = None
            while ts is None:
                if proc.poll() is not None or time.monotonic() > deadline:
                    err.seek(0)
                    raise RuntimeError(f"feltguard run did not read a frame: {err.read()[-800:]}")
                time.sleep(0.02)
                ts = first_draw_ts(folder / "journal.sqlite")
            rss = rss_mb(proc.pid)
        finally:
            halt.set()
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            sender.join(5)
            shoe.close()
            err.seek(0)
            text = err.read()
            err.close()
    return ts / 1000 - started, text, rss


def peer_start() -> float:
    """A bare interpreter that imports sqlite3 and pyserial, start to exit."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import sqlite3, serial"], check=True)
    return time.perf_counter() - started


def import_summary(stderr: str, top: int) -> tuple[float, list[tuple[str, float, float]]]:
    """From ``-X importtime``'s lines: the total (s) and the ``top`` modules by cumulative time,
    each (name, cumulative s, self s)."""
    rows: list[tuple[str, float, float]] = []
    total = 0.0
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line or "self [us]" in line:
            continue
        self_us, cum_us, name = line[len("import time:"):].split("|")
        depth = (len(name) - len(name.lstrip(" ")) - 1) // 2
        rows.append((name.strip(), int(cum_us) / 1e6, int(self_us) / 1e6))
        if depth == 0:  # a module imported at the top: its cumulative holds its subtree
            total += int(cum_us) / 1e6
    ours = sorted(rows, key=lambda r: -r[1])
    return total, ours[:top]


def _fmt(xs: list[float]) -> str:
    return f"{min(xs):7.3f} / {statistics.median(xs):7.3f} / {max(xs):7.3f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.startup",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--tree", type=Path, default=None,
                        help="also start the table from this source tree (another checkout, "
                             "say main's) interleaved with this one: before and after")
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.top < 0:
        parser.error("--repeat at least 1, --top at least 0")
    ours: list[float] = []
    floor: list[float] = []
    other: list[float] = []
    rss: list[float] = []
    for _ in range(args.repeat):  # interleaved: the same machine state for each
        took, _, mb = one_start()
        ours.append(took)
        rss.append(mb)
        floor.append(peer_start())
        if args.tree is not None:
            other.append(one_start(tree=args.tree.resolve())[0])
    print("start-up of feltguard run: process start -> the first card frame read, journaled "
          f"and applied; {args.repeat} starts, seconds min / median / max")
    print(f"  feltguard run                     {_fmt(ours)}")
    print(f"  peer: python -c 'import sqlite3, serial'  {_fmt(floor)}")
    if other:
        print(f"  feltguard run from {args.tree}  {_fmt(other)}")
    print(f"  ratio of medians (ours / peer)    "
          f"{statistics.median(ours) / statistics.median(floor):7.1f}")
    print(f"  RSS of feltguard run at its first frame, MB  {_fmt(rss)}")
    _, stderr, _ = one_start(importtime=True)
    total, top = import_summary(stderr, args.top)
    print(f"imports (python -X importtime, one more start): {total:.3f} s in all; the top "
          f"{args.top} by cumulative time (s, cumulative / self):")
    for name, cum, own in top:
        print(f"  {cum:7.3f} {own:7.3f}  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
