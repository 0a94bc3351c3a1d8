"""The journal: every table event, appended to SQLite before the rules core applies it.

SQLite in WAL mode with ``synchronous=NORMAL``: a commit is a write into the WAL without an
fsync, so an event survives a killed process for tens of microseconds per event, and the alert
path never waits on a disk flush (DESIGN.md, Durability and latency). Each record carries a
SHA-256 hash chained to the previous record, so editing or deleting a record is detectable
(``verify``); triggers refuse UPDATE and DELETE outright.

Checkpoints (copying the WAL into the database, with the fsyncs that go with them) never run on
the appending thread: automatic checkpoints are off, and a background thread with its own
connection runs a PASSIVE checkpoint every few seconds, which neither blocks nor waits for the
appender.

Findings and pot awards are derived data (a replay recomputes them), but they are journalled
too, beside the events, so the surveillance room can query them without replaying.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.events import Event, EventError, parse_event, read_scenario

GENESIS = "0" * 64
SQLITE_MAGIC = b"SQLite format 3\x00"

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq   INTEGER PRIMARY KEY,
    ts    INTEGER NOT NULL,
    type  TEXT NOT NULL,
    line  TEXT NOT NULL,
    prev  TEXT NOT NULL,
    hash  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS findings (
    id    INTEGER PRIMARY KEY AUTOINCREMENT,
    hand  INTEGER NOT NULL,
    seq   INTEGER NOT NULL,
    code  TEXT NOT NULL,
    json  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    id    INTEGER PRIMARY KEY AUTOINCREMENT,
    hand  INTEGER NOT NULL,
    seq   INTEGER NOT NULL,
    json  TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
"""


class JournalError(RuntimeError):
    """The journal file is not a Feltguard journal, or its chain is broken."""


def chain_hash(prev: str, line: str) -> str:
    return hashlib.sha256((prev + "\n" + line).encode("utf-8")).hexdigest()


def is_journal_file(path: str | Path) -> bool:
    """True for an SQLite file (the journal), False for anything else (a JSON Lines scenario)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(16) == SQLITE_MAGIC
    except OSError:
        return False


class Journal:
    """An append-only, hash-chained event journal in one SQLite file."""

    def __init__(self, path: str | Path, checkpoint_every: float | None = 2.0) -> None:
        self.path = Path(path)
        # check_same_thread=False: the daemon appends from the reader thread and the console
        # thread, always under its own lock.
        self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA wal_autocheckpoint=0")  # see the module docstring
        self._db.executescript(SCHEMA)
        row = self._db.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        self.last_seq: int = row[0] if row else 0
        self._last_hash: str = row[1] if row else GENESIS
        self._halt = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if checkpoint_every:
            self._checkpointer = threading.Thread(
                target=self._checkpoint_loop, args=(checkpoint_every,), daemon=True,
                name="journal-checkpoint",
            )
            self._checkpointer.start()

    def _checkpoint_loop(self, every: float) -> None:
        db = sqlite3.connect(str(self.path), isolation_level=None)
        try:
            while not self._halt.wait(every):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:  # busy now; the next round will do it
                    continue
        finally:
            db.close()

    def append(self, event: Event) -> None:
        """Commit one event; returns only once it is in the WAL."""
        if event.seq <= self.last_seq:
            raise JournalError(f"seq {event.seq} does not follow {self.last_seq}")
        line = event.to_line()
        digest = chain_hash(self._last_hash, line)
        self._db.execute(
            "INSERT INTO events (seq, ts, type, line, prev, hash) VALUES (?, ?, ?, ?, ?, ?)",
            (event.seq, event.ts, event.type, line, self._last_hash, digest),
        )
        self.last_seq, self._last_hash = event.seq, digest

    def record_findings(self, hand: int, findings: Iterable[Any]) -> None:
        rows = [(hand, f.seq, f.code, json.dumps(f.to_json())) for f in findings]
        if rows:
            self._db.executemany(
                "INSERT INTO findings (hand, seq, code, json) VALUES (?, ?, ?, ?)", rows
            )

    def record_results(self, hand: int, seq: int, awards: Iterable[Any]) -> None:
        pots = [a.to_json() for a in awards]
        if pots:
            self._db.execute(
                "INSERT INTO results (hand, seq, json) VALUES (?, ?, ?)",
                (hand, seq, json.dumps(pots)),
            )

    def checkpoint(self) -> None:
        """Fold the WAL into the database (off the alert path: at shutdown or between hands)."""
        self._db.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def close(self) -> None:
        self._halt.set()
        if self._checkpointer is not None:
            self._checkpointer.join(5)
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _connect_ro(path: str | Path) -> sqlite3.Connection:
    if not is_journal_file(path):
        raise JournalError(f"{path}: not an SQLite journal")
    return sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True)


def load_events(path: str | Path) -> list[Event]:
    """The events of a journal (SQLite) or of a scenario file (JSON Lines), whichever ``path``
    is. Raises JournalError or controller.events.EventError naming the bad record or line."""
    if is_journal_file(path):
        return list(read_events(path))
    return read_scenario(path)


def read_events(path: str | Path) -> Iterator[Event]:
    """The journal's events in order. A corrupt record raises JournalError naming its seq."""
    db = _connect_ro(path)
    try:
        for seq, line in db.execute("SELECT seq, line FROM events ORDER BY seq"):
            try:
                yield parse_event(json.loads(line))
            except (EventError, json.JSONDecodeError) as exc:
                raise JournalError(f"{path}: record seq {seq}: {exc}") from None
    finally:
        db.close()


@dataclass(frozen=True)
class JournalFinding:
    hand: int
    seq: int
    code: str
    data: dict[str, Any]


def read_findings(path: str | Path) -> list[JournalFinding]:
    db = _connect_ro(path)
    try:
        return [
            JournalFinding(hand, seq, code, json.loads(text))
            for hand, seq, code, text in db.execute(
                "SELECT hand, seq, code, json FROM findings ORDER BY id"
            )
        ]
    finally:
        db.close()


def verify(path: str | Path) -> int | None:
    """Check the hash chain; return the seq of the first bad record, or None if intact."""
    db = _connect_ro(path)
    try:
        prev = GENESIS
        for seq, line, rec_prev, rec_hash in db.execute(
            "SELECT seq, line, prev, hash FROM events ORDER BY seq"
        ):
            if rec_prev != prev or chain_hash(prev, line) != rec_hash:
                return int(seq)
            prev = rec_hash
        return None
    finally:
        db.close()
