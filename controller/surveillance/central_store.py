"""The central store: every table's events, kept by the surveillance service.

One SQLite file on the surveillance machine (a single machine serves a cardroom's review; the
tables' own journals stay the record, this is their copy). Per table: its events in seq order,
each with the journal's line and chain hashes exactly as the table wrote them, so a table's
events read back from here replay as its own journal does (``events``), and the review screen
reads them without touching any table.

Adding is idempotent and checked (``add``): an event at or below the table's last seq is a
duplicate delivery and is counted, not stored; an event whose ``prev`` is not the hash of the
table's previous event, or whose seq does not follow, is stored with a problem naming it (the
chain is the tables' own evidence: the store keeps what came, and says where it does not
follow). The primary key (table, seq) makes a second copy of an event impossible.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from controller.events import Event, EventError, parse_event
from controller.journal import GENESIS, StoredEvent

__all__ = ["CentralStore", "StoreError", "TableSummary", "read_store_events", "store_last_seq",
           "store_tables"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    table_id TEXT PRIMARY KEY,
    last_seq INTEGER NOT NULL,
    last_hash TEXT NOT NULL,
    duplicates INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    ts INTEGER NOT NULL,
    type TEXT NOT NULL,
    line TEXT NOT NULL,
    prev TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS problems (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    text TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the central store is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'the central store is append-only'); END;
"""


class StoreError(RuntimeError):
    """The store cannot be opened or read: one line naming it."""


@dataclass(frozen=True)
class TableSummary:
    table: str
    last_seq: int
    events: int
    duplicates: int
    problems: tuple[str, ...]


class CentralStore:
    """The store; one writer (the collector) and any number of readers (the review)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            if not self.path.exists():
                os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            self._db = sqlite3.connect(self.path, timeout=5.0, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"{self.path}: cannot open the central store ({exc})") from None

    def last_seq(self, table: str) -> int:
        row = self._db.execute("SELECT last_seq FROM tables WHERE table_id = ?",
                               (table,)).fetchone()
        return int(row[0]) if row else 0

    def add(self, table: str, events: Sequence[StoredEvent]) -> tuple[int, int]:
        """Store a table's events in one transaction; (stored, duplicates)."""
        stored = duplicates = 0
        with self._lock, self._db:
            row = self._db.execute("SELECT last_seq, last_hash FROM tables WHERE table_id = ?",
                                   (table,)).fetchone()
            last, head = (int(row[0]), str(row[1])) if row else (0, GENESIS)
            for e in events:
                if e.seq <= last:
                    duplicates += 1
                    continue
                if e.seq != last + 1:
                    self._problem(table, e.seq, f"seq {e.seq} follows {last}: "
                                                f"{e.seq - last - 1} events missing")
                elif e.prev != head:
                    self._problem(table, e.seq, f"seq {e.seq} does not follow the chain of "
                                                f"seq {last}")
                self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)",
                                 (table, e.seq, e.ts, e.type, e.line, e.prev, e.hash))
                last, head = e.seq, e.hash
                stored += 1
            self._db.execute(
                "INSERT INTO tables (table_id, last_seq, last_hash, duplicates) "
                "VALUES (?, ?, ?, ?) ON CONFLICT(table_id) DO UPDATE SET "
                "last_seq = excluded.last_seq, last_hash = excluded.last_hash, "
                "duplicates = tables.duplicates + excluded.duplicates",
                (table, last, head, duplicates))
        return stored, duplicates

    def refuse(self, table: str, seq: int, claimed: str) -> bool:
        """Record, once per table and claimed table, that ``table``'s stream held an entry
        relayed as another table (``claimed``; "" none), refused and not stored; the table is
        listed with its problem even before it has an event. True if it was new."""
        text = (f"entries relayed as {f'table {claimed}' if claimed else 'no table'} refused "
                f"(not stored), first at seq {seq}: a table's [central] user or table, or the "
                "cardroom's ACL, is set wrong")
        prefix = text.split(" refused", 1)[0] + " refused"
        with self._lock, self._db:
            if self._db.execute("SELECT 1 FROM problems WHERE table_id = ? AND substr(text, 1, "
                                "?) = ?", (table, len(prefix), prefix)).fetchone():
                return False
            self._db.execute("INSERT INTO tables (table_id, last_seq, last_hash) VALUES "
                             "(?, 0, ?) ON CONFLICT(table_id) DO NOTHING", (table, GENESIS))
            self._problem(table, seq, text)
        return True

    def _problem(self, table: str, seq: int, text: str) -> None:
        self._db.execute("INSERT INTO problems (table_id, seq, text) VALUES (?, ?, ?)",
                         (table, seq, text))

    def tables(self) -> list[TableSummary]:
        out = []
        for table, last, dups in self._db.execute(
                "SELECT table_id, last_seq, duplicates FROM tables ORDER BY table_id").fetchall():
            count = self._db.execute("SELECT count(*) FROM events WHERE table_id = ?",
                                     (table,)).fetchone()[0]
            problems = tuple(r[0] for r in self._db.execute(
                "SELECT text FROM problems WHERE table_id = ? ORDER BY id", (table,)))
            out.append(TableSummary(table, last, count, dups, problems))
        return out

    def stored(self, table: str) -> Iterator[StoredEvent]:
        """A table's events as stored, in seq order (streamed)."""
        cur = self._db.execute("SELECT seq, ts, type, line, prev, hash FROM events "
                               "WHERE table_id = ? ORDER BY seq", (table,))
        for row in cur:
            yield StoredEvent(*row)

    def events(self, table: str) -> Iterator[Event]:
        """A table's events, parsed as its journal's are (the review and the replay read
        these). A record that does not parse raises StoreError naming it."""
        for e in self.stored(table):
            try:
                yield parse_event(json.loads(e.line))
            except (EventError, json.JSONDecodeError, TypeError) as exc:
                raise StoreError(f"{self.path}: table {table} seq {e.seq}: {exc}") from None

    def close(self) -> None:
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._db.close()


# --- reading, from any process (the review's worker): read-only connections -------------------


def _connect_ro(path: str | os.PathLike[str]) -> sqlite3.Connection:
    if not Path(path).exists():
        raise StoreError(f"{path}: no central store")
    try:
        return sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot read the central store ({exc})") from None


def store_tables(path: str | os.PathLike[str]) -> list[str]:
    """The tables the store holds, by id."""
    db = _connect_ro(path)
    try:
        return [r[0] for r in db.execute("SELECT table_id FROM tables ORDER BY table_id")]
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot read the central store ({exc})") from None
    finally:
        db.close()


def store_last_seq(path: str | os.PathLike[str], table: str) -> int:
    """The last seq the store holds of ``table`` (0: none)."""
    db = _connect_ro(path)
    try:
        row = db.execute("SELECT max(seq) FROM events WHERE table_id = ?", (table,)).fetchone()
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot read the central store ({exc})") from None
    finally:
        db.close()
    return int(row[0]) if row and row[0] is not None else 0


def read_store_events(path: str | os.PathLike[str], table: str, *,
                      after: int = 0) -> Iterator[Event]:
    """``table``'s events above seq ``after``, in order, streamed, as its journal's
    ``read_events`` gives them."""
    db = _connect_ro(path)
    try:
        for seq, line in db.execute("SELECT seq, line FROM events WHERE table_id = ? AND seq > ? "
                                    "ORDER BY seq", (table, after)):
            try:
                yield parse_event(json.loads(line))
            except (EventError, json.JSONDecodeError, TypeError) as exc:
                raise StoreError(f"{path}: table {table} seq {seq}: {exc}") from None
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot read the central store ({exc})") from None
    finally:
        db.close()
