"""Chip sensing's settle clock: a zone settles at its settle time, not at the next scan cycle.

An antenna's inventory counts once it has been the same for the settle time
(``controller/sensing/chips.py``). Noticed only when a scan cycle arrives, a settle would come up
to one cycle late (100 ms at the readers' default cycle), and the to-act light with it. This
thread asks the daemon when the next settle is due (``TableDaemon.chip_due``) and ticks chip
sensing then (``settle_chips``): the settle comes within the sleep's precision of its time.
It looks again at least every ``POLL_S``, so a chip that starts moving after it went to sleep
is not missed (a settle is always at least the settle time away, far longer than the poll).
"""

from __future__ import annotations

import threading
import time
from typing import Protocol

POLL_S = 0.02


class SettlingDaemon(Protocol):
    def chip_due(self, now: float) -> float | None: ...
    def settle_chips(self, now: float) -> None: ...


def run_chip_clock(daemon: SettlingDaemon, halt: threading.Event) -> None:
    """Tick chip sensing at each settle time until ``halt`` (a daemon thread's target)."""
    while not halt.is_set():
        now = time.monotonic()
        due = daemon.chip_due(now)
        if due is not None and due <= now:
            daemon.settle_chips(now)
            continue
        halt.wait(POLL_S if due is None else min(POLL_S, due - now))


def start_chip_clock(daemon: SettlingDaemon, halt: threading.Event) -> threading.Thread:
    thread = threading.Thread(target=run_chip_clock, args=(daemon, halt), daemon=True,
                              name="chip-settle")
    thread.start()
    return thread
