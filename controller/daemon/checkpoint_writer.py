"""Checkpoints written off the thread that journals and drives the LEDs.

Keeping the table's state as a checkpoint (docs/checkpoints.md) costs about 2 ms of CPU on this
machine at a hand's end, 10 to 16 ms on a Raspberry Pi 4: the state as text
(``state_to_text``), compressed and signed. On the daemon's thread that would delay the next
event by as much. So the daemon only marks where the checkpoint stands (``Journal.state_point``:
the record's seq and chain hash, anchored) and hands the state, which is immutable, to this
writer. Its thread makes the text and the row (``Journal.pack_state``), then takes the daemon's
lock just for the row's insert (``store``), as every journal write is made under it.

Only the newest checkpoint matters to a restart: one asked for while another waits replaces it.
A checkpoint not yet written when the process dies costs only a longer restart (the one before
it is used, or a full replay). ``flush`` waits until everything asked is written; ``close``
flushes and stops, before the journal closes.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger("feltguard.daemon")

Point = tuple[int, str]


class CheckpointWriter:
    """A thread that turns (state, point) into a stored checkpoint (the module's docstring).

    ``encode(state) -> text``; ``pack(text, point) -> row``; ``store(row)`` runs under the
    caller's lock (the daemon's). A failure is logged and the writer goes on."""

    def __init__(self, encode: Callable[[Any], str],
                 pack: Callable[[str, Point], Any], store: Callable[[Any], None],
                 name: str = "checkpoint-writer") -> None:
        self._encode, self._pack, self._store = encode, pack, store
        self._cond = threading.Condition()
        self._pending: tuple[Any, Point] | None = None
        self._busy = False
        self._closed = False
        self.written = 0
        self.replaced = 0  # asked for while an older one waited: the older one was dropped
        self.failed = 0
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def keep(self, state: Any, point: Point) -> None:
        """Write a checkpoint of ``state`` at ``point``, on the writer's thread; returns at
        once."""
        with self._cond:
            if self._closed:
                raise RuntimeError("the checkpoint writer is closed")
            if self._pending is not None:
                self.replaced += 1
            self._pending = (state, point)
            self._cond.notify_all()

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every checkpoint asked for is written (or dropped for a newer one)."""
        with self._cond:
            return self._cond.wait_for(lambda: self._pending is None and not self._busy,
                                       timeout)

    def close(self, timeout: float = 10.0) -> None:
        """Write what is pending, then stop the thread. Idempotent."""
        self.flush(timeout)
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._pending is not None or self._closed)
                if self._pending is None:
                    return  # closed, nothing left
                state, point = self._pending
                self._pending, self._busy = None, True
            try:
                self._store(self._pack(self._encode(state), point))
                self.written += 1
            except Exception:  # a full disk, a state the codec cannot write: logged, go on
                self.failed += 1
                log.exception("the state at seq %d was not kept as a checkpoint", point[0])
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()
