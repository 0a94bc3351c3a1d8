"""Memory of the broadcast's delay line: every state of a busy half hour held back at once.

    .venv/bin/python -m bench.broadcast_memory [--delay 1800] [--rate 1 10 100] [--seats 9]

The `/broadcast` view keeps every snapshot's payload for the whole delay (display/delay.py: no
coalescing, so the broadcast replays the table faithfully). This fills a ``DelayLine`` with the
broadcast payloads of clean simulated hold'em hands (the rules core's snapshots, as the
Publisher stores them: compact JSON text) at ``rate`` events a second for ``delay`` seconds, on
an injected clock (nothing waits), and reports the line's memory (tracemalloc: what Python
allocated for it) and the mean payload size. A busy live table makes about one event a second
(a card pitched every 300 ms is two frames, then the betting); 100 a second is the simulator at
full speed.
"""

from __future__ import annotations

import argparse
import json
import random
import tracemalloc

from controller.events import Event
from controller.rules import apply, initial_state, snapshot
from controller.sim import SimDealer, expand
from display.delay import DelayLine
from display.payloads import broadcast_payload


def payloads(n: int, seats: int, seed: int = 1) -> list[str]:
    """``n`` broadcast payloads as the Publisher keeps them, from clean simulated hands."""
    dealer = SimDealer(random.Random(seed), seats=seats, mistake_rate=0.0)
    state, seq, out = initial_state(), 0, []
    while len(out) < n:
        for step in dealer.next_hand():
            for body in expand(step):
                seq += 1
                state = apply(state, Event(seq, 0, body)).state
                out.append(json.dumps(broadcast_payload(snapshot(state), 1800),
                                      separators=(",", ":")))
    return out[:n]


def measure(delay_s: float, rate: float, seats: int) -> tuple[int, float, float]:
    """(items held, MB held, mean payload bytes) for ``delay_s`` of states at ``rate``/s."""
    n = int(delay_s * rate)
    distinct = payloads(min(n, 5000), seats)  # then repeated: each push is a fresh str copy
    now = [0.0]
    line = DelayLine[str](delay_s, lambda _: None, clock=lambda: now[0], max_items=n + 1)
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    for i in range(n):
        now[0] = i / rate
        line.push("".join(distinct[i % len(distinct)]))  # a new string, as each publish makes
    held = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    assert len(line) == n and line.release(now[0]) == 0  # none due yet: all held at once
    mean = sum(len(p) for p in distinct) / len(distinct)
    return n, held / 1e6, mean


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--delay", type=float, default=1800.0, help="seconds (default 1800)")
    parser.add_argument("--rate", type=float, nargs="+", default=[1.0, 10.0, 100.0],
                        help="events a second (default 1 10 100)")
    parser.add_argument("--seats", type=int, default=9)
    args = parser.parse_args(argv)
    if args.delay <= 0 or any(r <= 0 for r in args.rate) or not 2 <= args.seats <= 10:
        parser.error("--delay and --rate must be > 0, --seats 2..10")
    print(f"broadcast delay line: {args.delay:g} s of states at each rate, {args.seats} seats")
    print(f"{'events/s':>9}{'items':>10}{'MB held':>10}{'bytes/item':>12}{'payload B':>11}")
    for rate in args.rate:
        n, mb, mean = measure(args.delay, rate, args.seats)
        print(f"{rate:>9g}{n:>10}{mb:>10.1f}{mb * 1e6 / n:>12.0f}{mean:>11.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
