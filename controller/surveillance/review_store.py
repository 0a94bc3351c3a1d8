"""The review's index kept with its journal: a sidecar SQLite file, ``<journal>.review.sqlite``.

The review (controller/surveillance/review.py) replays a journal once to index its hands. This
file keeps that index (the hands' summaries with their findings and statuses, the findings
before the first hand, the table's state after the last indexed event, the table at the start
of every kept hand, the last indexed seq), so a review that opens the journal again, in
another process or after a restart, reads the file and replays only the events after that seq
(docs/review.md, "The index kept with the journal").

What it holds is the review's own derived data, never the journal's: the journal stays the
only truth, and the file can be deleted at any time (the next review rebuilds it). It is used
only when it is this code's and this journal's:

- ``code``: a digest of this format and of the source of everything the index depends on (the
  rules core, the poker data, the events, the guard, the review itself): another version of
  any of them could index the same events differently, so its file is rebuilt;
- ``journal``: the chain hash of the journal's record at the file's last seq, which commits to
  every record before it under the journal's own key: a journal replaced, cut or rewritten at
  the same path does not match, and the file is rebuilt (the log line says "another journal"
  when the journal's first record, the table's set-up, differs too).

A file that is not SQLite or not this layout is rebuilt too. Each rebuild is one log line.
A journal whose folder cannot be written (and a file that cannot be) keeps the index in
memory only, said once in the log; the review then works as before.

States are kept in the core's own text form (``controller.rules.state_to_text``: versioned
JSON, never pickle), zlib-compressed: about 5 KB each.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import logging
import sqlite3
import zlib
from collections.abc import Iterator, MutableMapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from controller.journal import read_records
from controller.rules import CheckpointError, TableState, state_from_text, state_to_text

log = logging.getLogger(__name__)

FORMAT = "feltguard-review-index/1"
# The code the index depends on: a change to any of it may change what a replay indexes.
_SOURCES = ("controller.rules", "controller.poker", "controller.events", "controller.guard",
            "controller.surveillance.review", "controller.surveillance.review_store")

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS hands (pos INTEGER PRIMARY KEY, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS starts (number INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS state (id INTEGER PRIMARY KEY CHECK (id = 1), data BLOB NOT NULL);
"""


def sidecar_path(journal: str | Path) -> Path:
    """Where the index of ``journal`` is kept: beside it, ``<journal>.review.sqlite``."""
    p = Path(journal)
    return p.with_name(p.name + ".review.sqlite")


@cache
def code_version() -> str:
    """A digest of the index's format and of the source files of ``_SOURCES``."""
    digest = hashlib.sha256(FORMAT.encode())
    files: list[Path] = []
    for name in _SOURCES:
        module = importlib.import_module(name)
        where = Path(module.__file__ or "")
        if hasattr(module, "__path__"):
            files += sorted(where.parent.rglob("*.py"))
        else:
            files.append(where)
    for f in files:
        digest.update(f.name.encode())
        with contextlib.suppress(OSError):
            digest.update(f.read_bytes())
    return digest.hexdigest()


def _pack(state: TableState) -> bytes:
    return zlib.compress(state_to_text(state).encode("utf-8"), 6)


def _unpack(data: bytes) -> TableState:
    return state_from_text(zlib.decompress(data).decode("utf-8"))


class KeptStarts(MutableMapping[int, TableState]):
    """The table at the start of each kept hand, by hand number: states set by the indexer, or
    read from the file, still packed, and unpacked when a hand is opened (a month of journal
    keeps hundreds of them; packed, each is about a fifth of its live size)."""

    def __init__(self) -> None:
        self._live: dict[int, TableState] = {}
        self._packed: dict[int, bytes] = {}

    def __getitem__(self, number: int) -> TableState:
        if number in self._live:
            return self._live[number]
        return _unpack(self._packed[number])

    def __setitem__(self, number: int, state: TableState) -> None:
        self._packed.pop(number, None)
        self._live[number] = state

    def __delitem__(self, number: int) -> None:
        if number in self._live:
            del self._live[number]
        else:
            del self._packed[number]

    def __iter__(self) -> Iterator[int]:
        yield from sorted({*self._live, *self._packed})

    def __len__(self) -> int:
        return len(self._live) + len(self._packed)

    def packed(self, number: int) -> bytes:
        """The state at ``number`` as the file keeps it."""
        got = self._packed.get(number)
        return got if got is not None else _pack(self._live[number])

    def put_packed(self, number: int, data: bytes) -> None:
        self._live.pop(number, None)
        self._packed[number] = data


class Indexed(Protocol):
    """What the file keeps of the review's index (``controller.surveillance.review.Indexer``)."""

    state: TableState
    last_seq: int
    events: int
    starts: KeptStarts

    @property
    def hands(self) -> Sequence[Recorded]: ...

    @property
    def before(self) -> Sequence[Recorded]: ...


class Recorded(Protocol):
    """A hand's summary or a finding, as a JSON-able record and back (``record``)."""

    def record(self) -> dict[str, Any]: ...


@dataclass
class Loaded:
    """An index as the file held it: the indexer rebuilds itself from it (``Indexer.restore``)."""

    state: TableState
    last_seq: int
    events: int
    hands: list[dict[str, Any]]  # HandSummary.record(), in order
    before: list[dict[str, Any]]  # FindingRecord.record() of the findings before any hand
    starts: dict[int, bytes]  # hand number -> its start state, packed


class ReviewStore:
    """The sidecar of one journal: ``load`` an index from it, ``save`` what an index gained.

    ``usable`` is False once the file could not be opened for writing: the index is then kept
    in memory only (said once in the log)."""

    def __init__(self, journal: str | Path, keep_every: int = 16) -> None:
        self.journal = Path(journal)
        self.keep_every = keep_every  # the indexer's: a file of another is rebuilt
        self.path = sidecar_path(self.journal)
        self.usable = True
        self._db: sqlite3.Connection | None = None
        self._hands_saved = 0  # hands written (the last of them may have changed since)
        self._starts_saved: set[int] = set()

    # -- opening ---------------------------------------------------------------------------

    def _journal_hash(self, seq: int) -> str | None:
        """The chain hash of the journal's record at ``seq`` (None: it holds none)."""
        got = read_records(self.journal, after=seq - 1, limit=1)
        return got[0].hash if got and got[0].seq == seq else None

    def _first_hash(self) -> str | None:
        """The chain hash of the journal's first record: the journal's identity."""
        got = read_records(self.journal, after=0, limit=1)
        return got[0].hash if got else None

    def _connect(self) -> sqlite3.Connection | None:
        if self._db is not None:
            return self._db
        try:
            db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
            db.executescript("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;" + SCHEMA)
        except sqlite3.Error as exc:
            if not self.path.exists() or "readonly" in str(exc) or "unable to open" in str(exc):
                self._read_only(str(exc))
                return None
            self._rebuild(f"not a review index ({exc})")
            return self._connect() if self.usable else None
        self._db = db
        return db

    def _read_only(self, why: str) -> None:
        self.usable = False
        log.warning("review index of %s: kept in memory only, %s cannot be written (%s)",
                    self.journal, self.path, why)

    def _rebuild(self, why: str) -> None:
        """Start the file over (a file that is not SQLite at all is removed and made anew)."""
        log.warning("review index %s: rebuilt from the journal: %s", self.path, why)
        self._hands_saved, self._starts_saved = 0, set()
        db = self._db
        if db is not None:
            with contextlib.suppress(sqlite3.Error):
                db.executescript("BEGIN IMMEDIATE; DELETE FROM meta; DELETE FROM hands; "
                                 "DELETE FROM starts; DELETE FROM state; COMMIT;")
                return
            db.close()
            self._db = None
        for suffix in ("", "-wal", "-shm"):
            try:
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
            except OSError as exc:
                self._read_only(str(exc))
                return

    def reset(self, why: str) -> None:
        """Start the file over (the index it held no longer matches the journal)."""
        if self.usable:
            self._rebuild(why)

    def load(self) -> Loaded | None:
        """The index the file holds when it is this code's and this journal's; otherwise None,
        and the file is started over."""
        db = self._connect()
        if db is None:
            return None
        try:
            got = self._read(db)
        except (sqlite3.Error, ValueError, KeyError, TypeError, CheckpointError,
                zlib.error) as exc:
            got = f"unreadable ({str(exc).splitlines()[0][:120] if str(exc) else exc!r})"
        if not isinstance(got, str):
            self._hands_saved, self._starts_saved = len(got.hands), set(got.starts)
            return got
        if got:  # ("": an empty file, nothing to say)
            self._rebuild(got)
            if self.usable and self._db is None:
                self._connect()
        return None

    def _read(self, db: sqlite3.Connection) -> Loaded | str:
        """The file's index, or why it cannot be used ("" for a file that holds none)."""
        meta = dict(db.execute("SELECT name, value FROM meta").fetchall())
        if not meta:
            return ""
        if meta.get("format") != FORMAT or meta.get("code") != code_version():
            return "another version of the code made it"
        if meta.get("keep_every") != str(self.keep_every):
            return f"it keeps every {meta.get('keep_every')}th hand's start, not every " \
                   f"{self.keep_every}th"
        last = int(meta["last_seq"])
        # the chain hash at the last indexed seq commits to every record up to it, under the
        # journal's own key: equal, the journal holds exactly what was indexed (its first
        # records may since have been archived away: docs/segments.md)
        if self._journal_hash(last) != meta["last_hash"]:
            if self._first_hash() != meta["first_hash"]:
                return "another journal made it (its first record differs)"
            return f"the journal does not hold its last seq {last} as it was indexed"
        row = db.execute("SELECT data FROM state WHERE id = 1").fetchone()
        if row is None:
            return "it holds no state"
        hands = [json.loads(text) for (text,) in db.execute("SELECT json FROM hands "
                                                             "ORDER BY pos")]
        starts = {int(n): bytes(data) for n, data in db.execute("SELECT number, data FROM starts")}
        return Loaded(state=_unpack(bytes(row[0])), last_seq=last, events=int(meta["events"]),
                      hands=hands, before=json.loads(meta["before"]), starts=starts)

    # -- saving ----------------------------------------------------------------------------

    def save(self, ix: Indexed) -> None:
        """Write what ``ix`` gained since the last save (or load): its new hands and the last
        one again, its new kept starts, its state and last seq. Skipped when another review
        already saved as far."""
        if not self.usable or ix.last_seq == 0:
            return
        db = self._connect()
        if db is None:
            return
        try:
            last_hash = self._journal_hash(ix.last_seq)
            first_hash = self._first_hash()
            if last_hash is None or first_hash is None:
                return  # (the journal changed under the index: the next refresh sees to it)
            state = _pack(ix.state)
            db.execute("BEGIN IMMEDIATE")
            try:
                row = db.execute("SELECT value FROM meta WHERE name = 'last_seq'").fetchone()
                if row is not None and int(row[0]) >= ix.last_seq:
                    db.execute("ROLLBACK")
                    return
                if row is None:
                    self._hands_saved, self._starts_saved = 0, set()
                start = max(0, self._hands_saved - 1)
                db.execute("DELETE FROM hands WHERE pos >= ?", (start,))
                db.executemany("INSERT INTO hands (pos, json) VALUES (?, ?)",
                               ((i, json.dumps(h.record(), separators=(",", ":")))
                                for i, h in enumerate(ix.hands[start:], start)))
                starts = ix.starts
                new = {n: starts.packed(n) for n in starts if n not in self._starts_saved}
                db.executemany("INSERT OR REPLACE INTO starts (number, data) VALUES (?, ?)",
                               new.items())
                db.execute("INSERT OR REPLACE INTO state (id, data) VALUES (1, ?)", (state,))
                meta = {"format": FORMAT, "code": code_version(), "first_hash": first_hash,
                        "last_seq": str(ix.last_seq), "last_hash": last_hash,
                        "events": str(ix.events), "keep_every": str(self.keep_every),
                        "before": json.dumps([f.record() for f in ix.before])}
                db.executemany("INSERT OR REPLACE INTO meta (name, value) VALUES (?, ?)",
                               meta.items())
                db.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
                raise
            self._hands_saved = len(ix.hands)
            self._starts_saved.update(new)
            for n, data in new.items():  # kept packed from now on: a fifth of the memory
                starts.put_packed(n, data)
        except sqlite3.Error as exc:
            if "readonly" in str(exc) or "unable to open" in str(exc):
                self._read_only(str(exc))
            else:
                log.warning("review index %s: not saved: %s", self.path, exc)

    def close(self) -> None:
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None
