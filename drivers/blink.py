"""A blink rhythm for one table light, on its own daemon thread, shared by both LED boards.

Why not gpiozero's ``LED.blink``: the 10-seat board's alert is two bits of a shift-register
frame, not a pin; and on mock pins (a simulated table) gpiozero's blink thread records every
change for ever, where ``write`` lets the board trim the history first (``pin_history.py``).

``Blinker(write)`` calls ``write(True)`` and ``write(False)`` in turn at the rhythm ``set``
gives (``PATTERNS``), and stops when given None. ``write`` is called from the blink thread with
no lock of the board held; the board re-checks under its own lock that it still blinks, so a
``show`` that stopped the blinking is never undone by a late write.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping

__all__ = ["PATTERNS", "Blinker"]

PATTERNS: Mapping[str, tuple[float, float]] = {
    # (seconds on, seconds off). hardware/leds.md, "What the lights mean".
    "slow": (0.5, 0.5),  # amber on a single-colour alert LED (the 6-seat board)
    "fast": (0.1, 0.1),  # a device fault: a reader is down, cards are not seen
}


class Blinker:
    def __init__(self, write: Callable[[bool], None], *, name: str = "led-blink") -> None:
        self._write = write
        self._cond = threading.Condition()
        self._pattern: tuple[float, float] | None = None
        self._gen = 0
        self._closed = False
        self.pattern: str | None = None
        self._thread = threading.Thread(target=self._run, daemon=True, name=name)
        self._thread.start()

    def set(self, pattern: str | None) -> None:
        """Blink at ``pattern`` (a key of PATTERNS), or stop blinking (None)."""
        with self._cond:
            if pattern == self.pattern:
                return
            self.pattern = pattern
            self._pattern = PATTERNS[pattern] if pattern is not None else None
            self._gen += 1
            self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if threading.current_thread() is not self._thread:
            self._thread.join(2)

    def _run(self) -> None:
        phase = True
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._closed or self._pattern is not None)
                if self._closed:
                    return
                pattern, gen = self._pattern, self._gen
            assert pattern is not None
            self._write(phase)
            with self._cond:
                changed = self._cond.wait_for(lambda g=gen: self._closed or self._gen != g,
                                              timeout=pattern[0 if phase else 1])
                phase = True if changed else not phase
