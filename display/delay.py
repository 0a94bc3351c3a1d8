"""The broadcast's secure delay: a delay line that hands each item on exactly ``delay_s`` after it
went in, in order, from one timer thread.

The broadcast view (docs/display.md, `/broadcast`) shows hole cards, so everything it sends is
delayed as a whole: the stream of (publish time, payload) comes out as the same stream shifted by
``delay_s``, so neither a card nor the timing of an event reaches the broadcast early. Every item
is kept (the broadcast replays the table faithfully, no coalescing); items are the payloads'
encoded JSON text, 2.5 KB each, so a busy half hour is 4.5 MB (docs/display.md gives the
measured figures). ``max_items`` is a hard bound against a runaway producer: beyond it the oldest
waiting item is dropped (counted in ``dropped``), which can only make the broadcast skip a state,
never show one early.

The clock is injected: ``release(now)`` is the whole logic and tests call it with their own
times; ``start()`` runs it on a thread that sleeps until the next item is due.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["DelayLine"]

log = logging.getLogger(__name__)

T = TypeVar("T")

# A busy live table makes about an event a second: 1,800 broadcast payloads in 30 minutes, 4.5 MB
# (2.5 KB each: bench.broadcast_memory). 40,000 is 22 events a second for 30 minutes, about
# 100 MB: a bound against a runaway producer on a Pi, far above any real table.
MAX_ITEMS = 40_000


class DelayLine(Generic[T]):
    """Items in, each out ``delay_s`` after it went in (by ``clock``), in the order they went in.

    ``emit(item)`` is called for each item due, on the line's thread (or the caller of
    ``release``), never under the line's lock. What a client that connects sees is the
    emitter's to keep (the Publisher's latest payload), not the line's.
    """

    def __init__(self, delay_s: float, emit: Callable[[T], None], *,
                 clock: Callable[[], float] = time.monotonic,
                 max_items: int = MAX_ITEMS) -> None:
        if not delay_s >= 0:  # also refuses NaN
            raise ValueError(f"delay_s must be >= 0, got {delay_s!r}")
        self.delay_s = float(delay_s)
        self._emit = emit
        self._clock = clock
        self._max = max_items
        self._items: deque[tuple[float, T]] = deque()
        self._cond = threading.Condition()
        # one releaser at a time, so items leave in order even if a test releases by hand
        self._releasing = threading.Lock()
        self._stop = False
        self._thread: threading.Thread | None = None
        self.dropped = 0
        self.emit_errors = 0

    def __len__(self) -> int:
        return len(self._items)

    def push(self, item: T, at: float | None = None) -> None:
        """Put ``item`` in, as of ``at`` (default: now by the line's clock)."""
        t = self._clock() if at is None else at
        with self._cond:
            self._items.append((t, item))
            if len(self._items) > self._max:
                self._items.popleft()
                self.dropped += 1
                if self.dropped == 1:
                    log.warning("broadcast delay line full (%d items): dropping the oldest",
                                self._max)
            self._cond.notify()

    def next_due(self) -> float | None:
        """When the oldest waiting item is due (None: nothing waits)."""
        with self._cond:
            return self._items[0][0] + self.delay_s if self._items else None

    def release(self, now: float) -> int:
        """Emit, in order, every item due at ``now`` (in at or before ``now - delay_s``).
        Returns how many."""
        with self._releasing:
            due: list[T] = []
            with self._cond:
                while self._items and self._items[0][0] + self.delay_s <= now:
                    due.append(self._items.popleft()[1])
            for item in due:
                try:
                    self._emit(item)
                except Exception:  # a failing emit must not stop the broadcast
                    self.emit_errors += 1
                    log.exception("broadcast emit failed")
            return len(due)

    def start(self) -> None:
        """Release items on a daemon thread of its own, each when it is due."""
        self._thread = threading.Thread(target=self._run, name="broadcast-delay", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        with self._cond:
            self._stop = True
            self._cond.notify()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._stop:
                    due = self._items[0][0] + self.delay_s if self._items else None
                    wait = None if due is None else due - self._clock()
                    if wait is not None and wait <= 0:
                        break
                    self._cond.wait(wait)
                if self._stop:
                    return
            self.release(self._clock())
