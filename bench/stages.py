"""Where a card frame's server CPU goes: each stage's CPU time, per event, for ``bench.latency
--stages``.

The stages of one event on the table's path (issue 28, "A card's work sized for a Pi"), each timed
with ``time.thread_time`` (the CPU the calling thread spent, not the wall clock: a stage that
waits for the GIL or a core costs nothing here, so the figure holds on a busy machine):

- ``sensing``: the card reader thread's sensing of the read (``Sensing.on_read``), before the
  event exists;
- ``journal``: the append (HMAC, SQLite commit) and the findings, awards and anchor rows;
- ``core``: the rules core's ``apply``;
- ``snapshot``: the snapshot of the new state (``snapshot`` or the daemon's incremental one);
- ``leds``: the LED plan and the pins (the LED output);
- ``hand-off``: ``Publisher.publish``, the queue to the display's loop;
- ``payloads``: the display's role payloads (``/dealer``, ``/table``, ``/broadcast``), on the loop;
- ``emit``: python-socketio's emits on the loop, each encoded once and written to every screen's
  transport (display/fan_out.py), to the last byte handed to the sockets;
- ``checkpoint``: a checkpoint's encoding and write, where the event kept one.

Each is keyed by the seq of the event it worked for (an event's seq, a snapshot's ``last_seq``,
a payload's ``last_seq``). The instrument wraps the live objects of one bench run (methods of the
journal, the publisher and the live server; ``apply`` and ``snapshot`` where the daemon's path
calls them) and is for the bench only: the product has no timers in its path.
"""

from __future__ import annotations

import functools
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Mapping
from typing import Any

STAGES = ("sensing", "journal", "core", "snapshot", "leds", "hand-off", "payloads", "emit",
          "checkpoint")
# the "journal to the last byte handed to the sockets"
PATH = ("journal", "core", "snapshot", "leds", "hand-off", "payloads", "emit")


def _seq_of(value: Any, *_args: Any, **_kwargs: Any) -> int | None:
    if isinstance(value, Mapping):
        seq = value.get("last_seq")
        return seq if isinstance(seq, int) else None
    seq = getattr(value, "seq", None) or getattr(value, "last_seq", None)
    return seq if isinstance(seq, int) else None


class StageClock:
    """CPU seconds per (event seq, stage); ``install`` wraps a run's objects."""

    def __init__(self) -> None:
        self.cpu: dict[int, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        self._lock = threading.Lock()
        self._undo: list[Callable[[], None]] = []

    def add(self, seq: int | None, stage: str, seconds: float) -> None:
        if seq is None:
            return
        with self._lock:
            self.cpu[seq][stage] += seconds

    def timed(self, stage: str, fn: Callable[..., Any],
              key: Callable[..., int | None]) -> Callable[..., Any]:
        """``fn`` timed as ``stage``, keyed by ``key(*args)`` (taken before the call)."""
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            seq = key(*args, **kwargs)
            t = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.add(seq, stage, time.thread_time() - t)
        return wrapper

    def timed_async(self, stage: str, fn: Callable[..., Any],
                    key: Callable[..., int | None]) -> Callable[..., Any]:
        """A coroutine function timed from its start to its end: on the loop's one thread, with
        no await that yields in the emit path (a direct write is synchronous), that is its CPU."""
        @functools.wraps(fn)
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            seq = key(*args, **kwargs)
            t = time.thread_time()
            try:
                return await fn(*args, **kwargs)
            finally:
                self.add(seq, stage, time.thread_time() - t)
        return wrapper

    def patch(self, owner: Any, name: str, wrapped: Any) -> None:
        had = name in vars(owner)
        old = vars(owner).get(name)
        setattr(owner, name, wrapped)

        def undo() -> None:
            if had:
                setattr(owner, name, old)
            else:
                delattr(owner, name)
        self._undo.append(undo)

    def install(self, daemon: Any, publisher: Any, live: Any) -> None:
        """Wrap one run's daemon (its journal, sensing, outputs), publisher and live server.
        The daemon's outputs must be [LED output, publisher.publish] as bench.latency has them."""
        import controller.daemon.table_daemon as table_daemon
        import controller.guard as guard
        import display.server as server

        j = daemon.journal
        current = lambda *_a, **_k: daemon.seq  # noqa: E731 - after the append: this event's
        self.patch(j, "append", self.timed("journal", j.append, lambda e: e.seq))
        for name in ("record_findings", "record_results", "anchor"):
            self.patch(j, name, self.timed("journal", getattr(j, name), current))
        self.patch(j, "save_state", self.timed("checkpoint", j.save_state, current))
        s = daemon.sensing
        self.patch(s, "on_read", self.timed("sensing", s.on_read, lambda *_: daemon.seq + 1))
        self.patch(guard, "apply", self.timed("core", guard.apply, lambda _s, e: e.seq))
        for module in (guard, table_daemon):
            for name in ("snapshot", "snapshot_after"):
                if hasattr(module, name):
                    self.patch(module, name, self.timed("snapshot", getattr(module, name),
                                                        lambda st, *_a, **_k: st.last_seq))
        leds, publish = daemon.outputs
        daemon.outputs[:] = [self.timed("leds", leds, _seq_of),
                             self.timed("hand-off", publish, _seq_of)]
        for name in ("dealer_payload", "table_payload", "broadcast_payload"):
            self.patch(server, name, self.timed("payloads", getattr(server, name), _seq_of))
        data_seq = lambda _event, data, *_a, **_k: _seq_of(data)  # noqa: E731
        self.patch(live, "emit", self.timed("emit", live.emit, data_seq))
        self.patch(live.sio, "emit", self.timed_async("emit", live.sio.emit, data_seq))

    def uninstall(self) -> None:
        while self._undo:
            self._undo.pop()()

    def frame(self, seqs: range) -> dict[str, float]:
        """The CPU of one card frame's events, per stage (ms)."""
        out: dict[str, float] = defaultdict(float)
        with self._lock:
            for seq in seqs:
                for stage, seconds in self.cpu.get(seq, {}).items():
                    out[stage] += seconds * 1000
        return out
