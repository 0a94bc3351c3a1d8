"""The reader firmware's scan rate, measured on the real image in the simulator.

    .venv/bin/python -m bench.firmware_scan [--runs 3] [--seconds 4] [--arrivals 8]

firmware.elf (hardware/firmware/, built here with ``make -C hardware/firmware`` into a tmp dir)
runs in its simulator harness (``feltguard-reader-sim``: a simulated ATmega1284P at 7.3728 MHz
with the PN5180 model on its SPI bus, paced to the wall clock), once per board role:

- **inventories per second per antenna**: the harness counts each antenna's scans (each RF_ON
  on its multiplexer channel) over ``--seconds``, with tags lying on the antennas (the shoe: a
  card at the mouth; the felt: a card on each seat, two on seat 1, the board's five; the chip
  reader: stacks of 5 on three bets and 12 in the pot);
- **arrival latency** (cards): from ``place`` on the harness's stdin to the project's real
  ``CardReader`` delivering the read, over the pty, ``--arrivals`` times per run;
- **cycle time** (chips): the time between two scan cycles' first inventories at the
  ``ChipReader``.

Each figure: min / median / max over ``--runs`` runs, against the peer's figure, and the
ratio: a card is pitched every 0.3 s (the dealer's pace: a card must be seen on its seat before
the next one lands), and chip sensing settles a zone after ``DEFAULT_SETTLE_MS`` (300 ms) of the
same inventory (controller/sensing/chips.py).

The simulator's figures are a lower bound of the board's: simavr 1.6 takes 100 us for every SPI
byte whatever the SPI clock (the part at F_CPU/4 takes 4.3 us), and a scan moves a few hundred
bytes. So the same core is also run on the host's virtual clock at the part's SPI speed
(hardware/firmware/test/scan_rate.c, the PN5180 model's air timings, the same loads): the
"board" rows. Those are deterministic (one run).
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from controller.sensing.chips import DEFAULT_SETTLE_MS
from drivers.card_reader import CardReader, TagRead
from drivers.chip_protocol import ChipInventory
from drivers.chip_reader import ChipReader

FIRMWARE = Path(__file__).resolve().parent.parent / "hardware" / "firmware"
PITCH_S = 0.3  # the dealer's pace: a card pitched every 0.3 s

LOADS = {
    "shoe": ["place 0 E00401A0B1C20001"],
    "felt": [f"place {a} E00401A0B1C2{a:04X}" for a in range(1, 11)]
            + ["place 1 E00401A0B1C20101"]
            + [f"place 11 E00401A0B1C2{0x200 + n:04X}" for n in range(5)],
    "chip": [f"stack {a} 5 {a * 0x100:X}" for a in (1, 2, 3)] + ["stack 11 12 F000"],
}


class Sim:
    """One harness process: its pty, and one command line in, one answer line out."""

    def __init__(self, build: Path, role: str) -> None:
        self.proc = subprocess.Popen(
            [str(build / "feltguard-reader-sim"), str(build / "firmware.elf"), "--role", role],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            bufsize=1)
        assert self.proc.stdout is not None and self.proc.stdin is not None
        self.pty = self.proc.stdout.readline().strip()

    def send(self, line: str) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline().strip()
        if not answer.startswith("ok"):
            raise RuntimeError(f"{line!r}: {answer!r}")
        return answer

    def scans(self) -> tuple[float, dict[int, int]]:
        """(simulated seconds, scans per channel) so far."""
        words = dict(w.split("=", 1) for w in self.send("stats").split()[1:])
        per = {int(a): int(n) for a, n in (p.split(":") for p in words["scans"].split(","))} \
            if words["scans"] != "-" else {}
        return int(words["t_ms"]) / 1000, per

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


def build(out: Path) -> None:
    for tool in ("avr-gcc", "make", "gcc"):
        if shutil.which(tool) is None:
            sys.exit(f"bench.firmware_scan: {tool} is not installed (make tools installs it)")
    proc = subprocess.run(["make", "-s", "-C", str(FIRMWARE), f"BUILD={out}", "all", "sim",
                           "rate"],
                          capture_output=True, text=True)
    if proc.returncode:
        sys.exit(f"bench.firmware_scan: the build failed: {proc.stderr.strip()[-500:]}")


def rate(sim: Sim, seconds: float) -> dict[int, float]:
    """Inventories per second per antenna over ``seconds`` of simulated time."""
    t0, before = sim.scans()
    time.sleep(seconds)
    t1, after = sim.scans()
    return {a: (n - before.get(a, 0)) / (t1 - t0) for a, n in after.items()}


def arrivals(sim: Sim, antenna: int, count: int) -> list[float]:
    """Seconds from placing a fresh card on ``antenna`` to its read at the CardReader."""
    got: dict[str, float] = {}
    lock = threading.Lock()

    def on_read(read: TagRead) -> None:
        with lock:
            got.setdefault(read.uid, read.received_monotonic)

    reader = CardReader(sim.pty, on_read, backoff=(0.01, 0.05))
    reader.start()
    reader.connected.wait(10)
    out = []
    try:
        for n in range(count):
            uid = f"E00401A0B1C3{antenna:02X}{n:02X}"
            time.sleep(0.137)  # off the schedule's beat, a different phase each time
            placed = time.monotonic()
            sim.send(f"place {antenna} {uid}")
            end = placed + 5
            while time.monotonic() < end:
                with lock:
                    if uid in got:
                        out.append(got[uid] - placed)
                        break
                time.sleep(0.001)
            sim.send(f"lift {antenna} {uid}")
    finally:
        reader.stop()
    return out


def cycle_times(sim: Sim, seconds: float) -> list[float]:
    """Seconds between consecutive scan cycles' first inventory (antenna 1) at the ChipReader."""
    starts: list[float] = []

    def on_inventory(inv: ChipInventory) -> None:
        if inv.antenna == 1:
            starts.append(inv.t)

    reader = ChipReader(sim.pty, on_inventory, backoff=(0.01, 0.05))
    reader.start()
    time.sleep(seconds)
    reader.stop()
    return [b - a for a, b in itertools.pairwise(starts)]


def board_rate(build: Path, role: str) -> tuple[dict[int, float], list[float], float | None]:
    """The core on the host's clock at the part's SPI speed: (inventories per second per
    channel, arrival latencies in seconds, the chip cycle in seconds)."""
    proc = subprocess.run([str(build / "scan_rate"), role, "10"], capture_output=True, text=True,
                          check=True)
    lines = dict(line.split(" ", 1) for line in proc.stdout.splitlines())
    scans = {int(a): float(r) for a, r in (p.split(":") for p in lines["scans"].split(","))}
    arrivals = [float(v) / 1000 for v in lines.get("arrival_ms", "").split(",") if v]
    cycle = float(lines["cycle_ms"]) / 1000 if "cycle_ms" in lines else None
    return scans, arrivals, cycle


def mmm(values: Sequence[float], scale: float = 1.0) -> str:
    if not values:
        return "-"
    return (f"{min(values) * scale:.1f} / {statistics.median(values) * scale:.1f} / "
            f"{max(values) * scale:.1f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.firmware_scan", description=__doc__.split(
        "\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=4.0)
    ap.add_argument("--arrivals", type=int, default=8)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="fw-scan-") as tmp:
        out = Path(tmp)
        build(out)
        per_role: dict[str, list[dict[int, float]]] = {r: [] for r in LOADS}
        latency: dict[str, list[float]] = {"shoe": [], "felt": []}
        cycles: list[float] = []
        board = {role: board_rate(out, role) for role in LOADS}
        for _ in range(args.runs):
            for role, load in LOADS.items():
                sim = Sim(out, role)
                try:
                    for line in load:
                        sim.send(line)
                    per_role[role].append(rate(sim, args.seconds))
                    if role == "shoe":
                        latency["shoe"] += arrivals(sim, 0, args.arrivals)
                    elif role == "felt":
                        latency["felt"] += arrivals(sim, 5, args.arrivals)
                    else:
                        cycles += cycle_times(sim, args.seconds)
                finally:
                    sim.close()
    print(f"simulator (simavr, 100 us per SPI byte): {args.runs} runs of {args.seconds:.0f} s "
          "per role; min / median / max")
    for role, runs in per_role.items():
        # the slowest antenna of each run: the figure a card or chip there gets
        worst = [min(r.values()) for r in runs if r]
        mean = [statistics.mean(r.values()) for r in runs if r]
        print(f"  {role}: inventories per second per antenna, slowest antenna "
              f"{mmm(worst)}, mean {mmm(mean)} ({len(runs[0]) if runs else 0} antennas)")
    for role, values in latency.items():
        med = statistics.median(values) if values else float("nan")
        print(f"  {role}: card placed -> read at the CardReader, ms {mmm(values, 1000)}; "
              f"peer: a card pitched every {PITCH_S * 1000:.0f} ms; ratio (pitch / median) "
              f"{PITCH_S / med:.1f}x")
    if cycles:
        settle = DEFAULT_SETTLE_MS / 1000
        med = statistics.median(cycles)
        print(f"  chip: scan cycle, ms {mmm(cycles, 1000)} (configured 250); peer: chip "
              f"sensing's settle time {DEFAULT_SETTLE_MS} ms; ratio (settle / median cycle) "
              f"{settle / med:.2f} cycles per settle window")
    print("board (the core on the host's clock, SPI at 1.8 MHz, 10 s each; deterministic)")
    for role, (scans, arrived, cycle) in board.items():
        print(f"  {role}: inventories per second per antenna, slowest {min(scans.values()):.1f}, "
              f"mean {statistics.mean(scans.values()):.1f} ({len(scans)} antennas)")
        if arrived:
            med = statistics.median(arrived)
            print(f"  {role}: card placed -> read frame queued, ms {mmm(arrived, 1000)}; peer: "
                  f"a card pitched every {PITCH_S * 1000:.0f} ms; ratio (pitch / median) "
                  f"{PITCH_S / med:.1f}x, (pitch / max) {PITCH_S / max(arrived):.1f}x")
        if cycle:
            print(f"  {role}: scan cycle {cycle * 1000:.0f} ms; peer: settle time "
                  f"{DEFAULT_SETTLE_MS} ms; ratio {DEFAULT_SETTLE_MS / 1000 / cycle:.2f} cycles "
                  "per settle window")
    return 0


if __name__ == "__main__":
    sys.exit(main())
