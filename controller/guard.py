"""The last line of defence around the rules core, shared by every path that applies events.

The rules core never raises (its contract; the mutation fuzz of the suite and ``bench.fuzz`` hold
it to that). The daemon, crash recovery, ``feltguard replay`` and the PHH export still apply
events through ``guarded_apply``: if applying an event, snapshotting the new state or serialising
its findings and awards fails anyway, the state stays as it was before the event and a
``CORE_FAULT`` finding carries the digest of the traceback's site. The same journal then gives
the same states and findings on every path, and a table whose journal holds such an event comes
back up (docs/reliability.md).
"""

from __future__ import annotations

import hashlib
import logging
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.events import Event
from controller.rules import Finding, Step, TableState, ViewMemo, apply, make_finding, snapshot

log = logging.getLogger("feltguard.guard")


@dataclass(frozen=True)
class Applied:
    """One guarded application: the step and the snapshot of its state; ``fault`` is the
    CORE_FAULT finding when applying failed (then the state is the one before the event)."""

    step: Step
    snap: Mapping[str, Any]
    fault: Finding | None = None


def fault_digest(exc: BaseException) -> str:
    """A short digest of where an exception was raised: the same bug gives the same digest on
    every table and every replay (file names, lines and functions; no values)."""
    frames = traceback.extract_tb(exc.__traceback__)
    site = "|".join(f"{Path(f.filename).name}:{f.lineno}:{f.name}" for f in frames)
    return hashlib.sha256(f"{type(exc).__name__}|{site}".encode()).hexdigest()[:12]


def guarded_apply(state: TableState, event: Event, *, view: bool = True,
                  memo: ViewMemo | None = None) -> Applied:
    """``apply`` and ``snapshot``, and the findings serialised, under the last line of defence.
    ``view`` False: no snapshot (``snap`` is empty), for a replay that shows only findings and
    pots, or a restart that needs only the last state's: the snapshot is two thirds of an
    event's work. ``memo``: the snapshot is built incrementally from the last one made with it
    (``controller.rules.ViewMemo``; the same snapshot, only cheaper)."""
    try:
        step = apply(state, event)
        snap = snapshot(step.state, memo) if view else {}
        for f in step.findings:
            f.to_json()
        for a in step.results:
            a.to_json()
        return Applied(step, snap)
    except Exception as exc:  # the core's contract is broken: keep the table up (module doc)
        digest = fault_digest(exc)
        log.error("CORE_FAULT %s on seq %d (%s): %s\n%s", digest, event.seq, event.type, exc,
                  "".join(traceback.format_exception(exc)))
        where = traceback.extract_tb(exc.__traceback__)[-1:]
        site = f" at {Path(where[0].filename).name}:{where[0].lineno}" if where else ""
        fault = make_finding("CORE_FAULT", event.seq, fill={
            "event": f"{event.type} (seq {event.seq})", "digest": digest, "seq": event.seq},
            message=f"Feltguard could not judge {event.type} (seq {event.seq}): "
                    f"{type(exc).__name__}{site}; fault {digest}. The table goes on.")
        try:
            snap = snapshot(state, memo) if view else {}
        except Exception:  # pragma: no cover - the state before was snapshotted already
            snap = {}
        return Applied(Step(state, (fault,)), snap, fault)
