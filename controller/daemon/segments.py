"""When the table's journal rolls over to a new segment, and how a table opens a run whose live
segment is damaged (docs/segments.md).

``Rollover`` is the operator's boundary (``[journal] rollover``: "off", "day" or a number of
hands): the daemon asks it after each hand's end, once that hand's checkpoint is kept, and
seals the live segment when it says the boundary has passed. A rollover therefore always falls
between hands.

``open_run`` opens the journal and the daemon over it as ``feltguard run`` and ``feltguard
sim`` do, and when the live segment turns out damaged it starts the table from the best good
state the run has instead of refusing to start: a live file cut short (SQLite cannot read it)
is set aside under a new name, never deleted, and a new live segment follows on from the last
sealed one (its end is the state the table comes back to; with no sealed segment there is no
good state to come back to, and the file is left as it is and the start refused in one line);
bytes appended past the end of a Feltguard journal are copied aside and cut off, so nothing the
journal held is lost. Either is said in one log line and in ``/healthz``'s ``journal.restart``.
"""

from __future__ import annotations

import logging
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from controller.journal import (
    ROLLOVER_DEFAULT,
    Journal,
    JournalDamaged,
    is_feltguard_journal,
    sealed_segments,
    set_aside,
    trailing_bytes,
)


class _Restarted(Protocol):
    restart: dict[str, Any] | None  # (TableDaemon's: how the start went)


D = TypeVar("D", bound=_Restarted)
log = logging.getLogger("feltguard.daemon")

@dataclass
class Rollover:
    """The boundary: every ``hands`` hands (ended or misdealt), or at the first hand's end on a
    new local day (``day``), counted in the live segment. ``clock`` gives seconds since the
    epoch (the daemon's own)."""

    every: str | int = ROLLOVER_DEFAULT
    clock: Callable[[], float] = time.time
    _hands: int = 0
    _day: str | None = None

    def opened(self, journal: Journal) -> None:
        """Start counting on the live segment: its hands so far, the day of its first record
        (a table restarted on a later day rolls over at its first hand's end)."""
        # (a count over the live segment: only a boundary in hands needs it, and a journal of
        # before segments may be long: "day" costs a restart nothing)
        self._hands = journal.hand_ends() if isinstance(self.every, int) else 0
        first = journal.first_ts()
        self._day = self._date(first / 1000 if first is not None else self.clock())

    def due(self) -> bool:
        """After a hand's end: whether the live segment should be sealed now."""
        self._hands += 1
        if self.every == "off":
            return False
        if self.every == "day":
            return self._date(self.clock()) != self._day
        return isinstance(self.every, int) and self._hands >= self.every

    def rolled(self) -> None:
        self._hands = 0
        self._day = self._date(self.clock())

    @staticmethod
    def _date(ts: float) -> str:
        return time.strftime("%Y-%m-%d", time.localtime(ts))


def open_run(path: str | Path, make_daemon: Callable[[Journal], D], **journal_kw: Any) -> D:
    """The journal at ``path`` opened and the daemon made over it (``make_daemon``), a damaged
    live segment dealt with as the module docstring says. Raises JournalError as ``Journal``
    and ``TableDaemon`` do for anything else (a chain that fails its check is never resumed)."""
    live = Path(path)
    said: list[str] = []
    damage: dict[str, str] = {}
    extra = trailing_bytes(live) if is_feltguard_journal(live) else 0
    if extra:
        size = live.stat().st_size
        aside = _free_name(live, "damaged")
        shutil.copy2(live, aside)
        os.truncate(live, size - extra)
        said.append(f"{live}: {extra} bytes past the end of its database were cut off (a copy "
                    f"of the file as it was is kept as {aside.name}); nothing it held is lost")
        damage = {"damaged": "bytes past its end cut off", "kept": aside.name}
    journal: Journal | None = None
    try:
        journal = Journal(live, **journal_kw)
        daemon = make_daemon(journal)
    except JournalDamaged as exc:
        if journal is not None:
            journal.close()
        if not str(exc).startswith(str(live)):
            raise  # a sealed segment: the live one is not the damaged file
        if not sealed_segments(live):  # nothing good to come back to: left as it is
            raise JournalDamaged(f"{exc}; no sealed segment before it to start from (move it "
                                 "aside to start a new journal)") from None
        aside = set_aside(live)
        journal = Journal(live, damaged=aside.name, **journal_kw)
        try:
            daemon = make_daemon(journal)
        except BaseException:
            journal.close()
            raise
        where = f"the end of its previous segment, seq {journal.last_seq}"
        said.append(f"{exc}; set aside as {aside.name} (kept, not deleted), and the table "
                    f"starts from {where}")
        damage = {"damaged": "cut short: set aside", "kept": aside.name}
    except BaseException:
        if journal is not None:
            journal.close()
        raise
    if said:
        for line in said:
            log.error("%s", line)
        # (/healthz shows ``damaged``, a few fixed words: no path, no error text)
        daemon.restart = {**(daemon.restart or {"from": "a new journal", "checkpoint_seq": None,
                                                 "replayed": 0, "checkpoints_passed_over": 0}),
                          **damage, "said": "; ".join(said)}
    return daemon


def _free_name(live: Path, what: str) -> Path:
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    aside = live.with_name(f"{live.name}.{what}-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = live.with_name(f"{live.name}.{what}-{stamp}-{n}")
    return aside
