"""The table daemon: the one place that owns the table state.

Everything that happens at the table arrives here as an event body, from the card reader thread
(through sensing), from the dealer console or from the simulated dealer. ``submit`` numbers the
event, stamps it with the wall clock (the rules core has none), commits it to the journal,
applies it to the rules core and pushes the new snapshot to every output (LEDs, display), in
that order and under one lock, so outputs see snapshots in event order.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from controller.events import Body, Event, HandStart
from controller.journal import Journal, read_events
from controller.rules import Step, TableState, apply, initial_state, snapshot
from controller.sensing import Sensing, TagReadLike

log = logging.getLogger("feltguard.daemon")

Output = Callable[[Mapping[str, Any]], None]


class TableDaemon:
    def __init__(
        self,
        journal: Journal | None = None,
        outputs: Iterable[Output] = (),
        sensing: Sensing | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.journal = journal
        self.outputs = list(outputs)
        self.sensing = sensing or Sensing()
        self._clock = clock
        self._cond = threading.Condition(threading.RLock())
        self.state: TableState = initial_state()
        self.seq = 0
        self.events_applied = 0
        self.output_errors = 0
        self.last_snapshot: Mapping[str, Any] = snapshot(self.state)
        if journal is not None and journal.last_seq:
            self._recover(journal)

    def _recover(self, journal: Journal) -> None:
        """Crash recovery: the journal is the truth; replaying it rebuilds the state."""
        for event in read_events(journal.path):
            self.state = apply(self.state, event).state
            self.seq = event.seq
        self.last_snapshot = snapshot(self.state)
        log.info("recovered %d events from %s", self.seq, journal.path)

    def submit(self, body: Body, ts: int | None = None) -> Step:
        with self._cond:
            self.seq += 1
            event = Event(self.seq, int(self._clock() * 1000) if ts is None else ts, body)
            if self.journal is not None:
                self.journal.append(event)  # committed before it is applied
            step = apply(self.state, event)
            self.state = step.state
            if isinstance(body, HandStart):
                self.sensing.new_hand()
            snap = snapshot(self.state)
            self.last_snapshot = snap
            if self.journal is not None and (step.findings or step.results):
                hand = int(snap["hand"]["number"])
                self.journal.record_findings(hand, step.findings)
                self.journal.record_results(hand, event.seq, step.results)
            for output in self.outputs:
                try:
                    output(snap)
                except Exception:  # an output must never stop the table
                    self.output_errors += 1
                    log.exception("output %r failed", output)
            self.events_applied += 1
            self._cond.notify_all()
            return step

    def on_read(self, read: TagReadLike) -> None:
        """Card reader callback (reader thread): sensing, then submit each resulting event."""
        with self._cond:
            for body in self.sensing.on_read(read):
                self.submit(body)

    def wait_until(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Block until ``predicate()`` holds after some event, or the timeout passes."""
        with self._cond:
            return self._cond.wait_for(predicate, timeout)
