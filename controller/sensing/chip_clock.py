"""Chip sensing's settle clock: a zone settles at its settle time, not at the next scan cycle.

An antenna's inventory counts once it has been the same for the settle time
(``controller/sensing/chips.py``). Noticed only when a scan cycle arrives, a settle would come up
to one cycle late (100 ms at the readers' default cycle), and the to-act light with it. This
thread asks the daemon when the next settle is due (``TableDaemon.chip_due``) and ticks chip
sensing then (``settle_chips``): the settle comes within the sleep's precision of its time.
It looks again at least every ``POLL_S`` while a settle is pending. With nothing pending, it
sleeps until a chip device's frame arrives (``wake``, set by the table after each scan cycle is
handed to the daemon), at most ``IDLE_S``: an idle table has no chip moving, and waking 50
times a second to learn that was the larger part of an idle table's CPU (docs/reliability.md,
"On a Raspberry Pi"). Without ``wake`` it polls every ``POLL_S`` as before, so a chip that
starts moving after it went to sleep is not missed (a settle is always at least the settle
time away, far longer than the poll).
"""

from __future__ import annotations

import threading
import time
from typing import Protocol

POLL_S = 0.02
IDLE_S = 1.0  # with ``wake``: the longest sleep with nothing to settle (a safety net)


class SettlingDaemon(Protocol):
    def chip_due(self, now: float) -> float | None: ...
    def settle_chips(self, now: float) -> None: ...


def run_chip_clock(daemon: SettlingDaemon, halt: threading.Event,
                   wake: threading.Event | None = None) -> None:
    """Tick chip sensing at each settle time until ``halt`` (a daemon thread's target).
    ``wake``: set after each chip frame reaches the daemon (and at the stop); with it, the
    clock sleeps while nothing is due instead of polling."""
    while not halt.is_set():
        now = time.monotonic()
        due = daemon.chip_due(now)
        if due is not None and due <= now:
            daemon.settle_chips(now)
            continue
        if due is None and wake is not None:
            # a frame handed over before the clear is seen by the chip_due above or the next
            wake.wait(IDLE_S)
            wake.clear()
            continue
        halt.wait(POLL_S if due is None else min(POLL_S, due - now))


def start_chip_clock(daemon: SettlingDaemon, halt: threading.Event,
                     wake: threading.Event | None = None) -> threading.Thread:
    thread = threading.Thread(target=run_chip_clock, args=(daemon, halt, wake), daemon=True,
                              name="chip-settle")
    thread.start()
    return thread
