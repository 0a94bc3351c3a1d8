"""The journal: every table event, appended to SQLite before the rules core applies it.

SQLite in WAL mode with ``synchronous=NORMAL``: a commit is a write into the WAL without an
fsync, so an event survives a killed process for tens of microseconds per event, and the alert
path never waits on a disk flush (DESIGN.md, Durability and latency). Triggers refuse UPDATE and
DELETE outright.

Tamper evidence (docs/security.md has the threat model):

- Each record carries an HMAC-SHA256 chained to the previous record's. The key lives outside the
  journal, in a key file readable only by the service user (``journal_key``), so somebody who
  edits a row, or the whole file, cannot rehash the chain: ``check`` finds the first record that
  does not follow.
- The chain alone cannot show a cut-off tail: the last N rows deleted leave a shorter, valid
  chain. So the chain head is also recorded in a second place the journal's writer only appends
  to: the anchor file (``AnchorLog``), one HMAC'd line at the open, at every hand's end and at
  the close. ``check`` then requires every anchored record to be in the journal with the same
  hash. At a real table the anchor file carries the append-only attribute (``chattr +a``), so not
  even the service user can cut it.

Checkpoints (copying the WAL into the database, with the fsyncs that go with them) run off the
appending thread: automatic checkpoints are off, and a background thread with its own
connection runs a PASSIVE checkpoint every few seconds, which neither blocks nor waits for the
appender. A PASSIVE checkpoint never starts the WAL over, though: SQLite rewinds the WAL only
when a write begins after every frame was copied, and a busy table always has frames newer than
the last checkpoint. Left alone, the WAL (and the wal-index mapped into the daemon's memory)
grew by about 260 KB a hand, 786 MB in 3,000 simulated hands. So once the WAL holds more than
``WAL_LIMIT_FRAMES`` frames (read from its size after each commit), the appender itself runs a
TRUNCATE checkpoint right after its commit. It is the only writer, so it cannot lose that race
to itself (a TRUNCATE from the background thread lost it to a busy appender, and the WAL grew
to thousands of frames); the PASSIVE rounds already copied most frames, so it costs the few
frames left and an fsync, once every few dozen hands. A lock keeps the background round and the
TRUNCATE apart (SQLite refuses a checkpoint while another runs); if the round holds it, the
next commit tries again, and an eighth of the limit later the appender waits for it. The
TRUNCATE waits at most ``RESTART_WAIT`` for readers (a replay or a surveillance query in another
process); if one holds on, it tries again an eighth of the limit later.

Findings and pot awards are derived data (a replay recomputes them), but they are journalled
too, beside the events, so the surveillance room can query them without replaying.

Reading never loads a whole journal: ``read_events`` and ``iter_events`` stream, and
``read_records`` (the relay's read) takes a batch at a time, so replaying a month of journal
takes memory independent of its length. This module is the only code that reads or writes the
journal's tables. Every problem with a file (missing,
not SQLite, truncated, garbage, no events table, a bad record) is a ``JournalError`` whose
message starts with the file's name.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import threading
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.events import Event, EventError, iter_scenario, parse_event

GENESIS = "0" * 64
SQLITE_MAGIC = b"SQLite format 3\x00"
WAL_LIMIT_FRAMES = 4096
"""WAL frames (pages of 4 KB, so about 16 MB) past which the checkpointer starts the WAL over."""
RESTART_WAIT = 0.05
"""Seconds a TRUNCATE checkpoint may wait for another process's readers, holding appends back."""
BUSY_TIMEOUT_MS = 5000  # sqlite3.connect's default, restored after a TRUNCATE
WAL_HEADER, WAL_FRAME_HEADER = 32, 24  # bytes (sqlite.org/fileformat2.html, "WAL File Format")
FORMAT = "feltguard-journal/2"  # 2: HMAC-SHA256 chain with an external key and anchors
KEY_BYTES = 32

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
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
CREATE TRIGGER IF NOT EXISTS meta_no_update BEFORE UPDATE ON meta
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TABLE IF NOT EXISTS states (
    seq   INTEGER PRIMARY KEY,
    hash  TEXT NOT NULL,
    data  BLOB NOT NULL,
    mac   TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS states_no_update BEFORE UPDATE ON states
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS states_no_delete BEFORE DELETE ON states
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
"""


class JournalError(RuntimeError):
    """The journal, its key or its anchors are unusable; the message starts with the file."""


# --- the key ---------------------------------------------------------------------------------


def key_path_for(journal: str | Path) -> Path:
    """Where a journal's key lives unless configured: beside it, ``JOURNAL.key``."""
    p = Path(journal)
    return p.with_name(p.name + ".key")


def anchor_path_for(journal: str | Path) -> Path:
    """Where a journal's anchors live unless configured: beside it, ``JOURNAL.anchors``."""
    p = Path(journal)
    return p.with_name(p.name + ".anchors")


def create_key(path: str | Path) -> bytes:
    """A new random key in a new file that only its owner can read (0600); refuses to overwrite
    an existing key, whose loss would make every journal written with it unverifiable."""
    p = Path(path)
    key = secrets.token_bytes(KEY_BYTES)
    try:
        fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise JournalError(f"{p}: a key file is already there; it is never overwritten") from None
    except OSError as exc:
        raise JournalError(f"{p}: cannot create the key file: {exc.strerror}") from None
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(key.hex() + "\n")
    return key


def load_key(path: str | Path) -> bytes:
    p = Path(path)
    try:
        text = p.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise JournalError(f"{p}: no journal key there") from None
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "not a key file"
        raise JournalError(f"{p}: cannot read the journal key: {why}") from None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        raise JournalError(
            f"{p}: not a journal key (expected {KEY_BYTES * 2} hex digits)") from None
    if len(key) < 16:
        raise JournalError(f"{p}: the journal key is too short ({len(key)} bytes)")
    return key


def load_or_create_key(path: str | Path) -> bytes:
    """The key at ``path``, created there (0600) when there is none yet."""
    try:
        return load_key(path)
    except JournalError:
        if Path(path).exists():
            raise
    try:
        return create_key(path)
    except JournalError:  # created by another process just now
        return load_key(path)


def key_id(key: bytes) -> str:
    """A public name for a key, so a journal can say which key it was written with."""
    return hashlib.sha256(b"feltguard journal key id\n" + key).hexdigest()[:16]


def chain_hash(key: bytes, prev: str, line: str) -> str:
    return hmac.new(key, (prev + "\n" + line).encode("utf-8"), hashlib.sha256).hexdigest()


# --- reading files safely ----------------------------------------------------------------------


def state_mac(key: bytes, seq: int, chain: str, text: str) -> str:
    """A checkpoint's HMAC: the state's text bound to the seq and chain hash of the event it
    follows, under the journal's key (a state cannot be moved, edited or forged without it)."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return hmac.new(key, f"state\n{seq}\n{chain}\n{digest}".encode(), hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Checkpoint:
    """A state the journal keeps (docs/checkpoints.md): the table's state after the event
    ``seq``, whose chain hash is ``hash``. ``problem`` says why it cannot be used (its MAC, its
    place in the chain, its anchor), None when it can."""

    seq: int
    hash: str
    text: str
    problem: str | None = None


def is_journal_file(path: str | Path) -> bool:
    """True for an SQLite file (the journal), False for anything else (a JSON Lines scenario)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(16) == SQLITE_MAGIC
    except OSError:
        return False


def _unreadable(path: str | Path) -> JournalError | None:
    """Why ``path`` cannot be opened for reading at all, or None."""
    p = Path(path)
    if not p.exists():
        return JournalError(f"{p}: no such file")
    if p.is_dir():
        return JournalError(f"{p}: is a directory, not a journal")
    try:
        with open(p, "rb"):
            pass
    except OSError as exc:
        return JournalError(f"{p}: cannot read: {exc.strerror}")
    return None


def _damaged(path: str | Path, exc: sqlite3.Error) -> JournalError:
    return JournalError(f"{path}: not a readable Feltguard journal (damaged or truncated: {exc})")


def _connect_ro(path: str | Path) -> sqlite3.Connection:
    problem = _unreadable(path)
    if problem is not None:
        raise problem
    if not is_journal_file(path):
        raise JournalError(f"{path}: not an SQLite journal")
    try:
        db = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True)
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.Error as exc:
        raise _damaged(path, exc) from None
    if "events" not in tables:
        db.close()
        raise JournalError(f"{path}: an SQLite file, but not a Feltguard journal (no events table)")
    return db


def _rows(path: str | Path, db: sqlite3.Connection, sql: str,
          params: tuple[Any, ...] = ()) -> Iterator[Any]:
    """The rows of a query, turning SQLite's errors mid-file into JournalError."""
    try:
        cur = db.execute(sql, params)
        while True:
            batch = cur.fetchmany(1024)
            if not batch:
                return
            yield from batch
    except sqlite3.Error as exc:
        raise _damaged(path, exc) from None


def _meta(path: str | Path, db: sqlite3.Connection) -> dict[str, str]:
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "meta" not in tables:
            return {}
        return {str(k): str(v) for k, v in db.execute("SELECT name, value FROM meta")}
    except sqlite3.Error as exc:
        raise _damaged(path, exc) from None


# --- the anchors -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Anchor:
    """The chain head at one moment, recorded outside the journal."""

    journal: str  # the journal's id (meta), so anchors of another journal are not mixed in
    seq: int
    hash: str
    why: str  # open | hand | close
    hand: int = 0

    def body(self) -> dict[str, Any]:
        return {"journal": self.journal, "seq": self.seq, "hash": self.hash, "why": self.why,
                "hand": self.hand}


def _anchor_mac(key: bytes, body: dict[str, Any]) -> str:
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hmac.new(key, b"anchor\n" + text.encode("utf-8"), hashlib.sha256).hexdigest()


class AnchorLog:
    """The append-only file of chain heads. Opened with O_APPEND: every write lands at the end,
    whatever else has the file open; each line is HMAC'd with the journal key."""

    def __init__(self, path: str | Path, key: bytes) -> None:
        self.path = Path(path)
        self._key = key
        try:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        except OSError as exc:
            raise JournalError(
                f"{self.path}: cannot open the anchor file: {exc.strerror}") from None

    def record(self, anchor: Anchor) -> None:
        body = anchor.body()
        line = json.dumps({**body, "mac": _anchor_mac(self._key, body)}, sort_keys=True,
                          separators=(",", ":")) + "\n"
        os.write(self._fd, line.encode("utf-8"))  # one write(2) per line: O_APPEND keeps it whole

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._fd)


def read_anchors(path: str | Path, key: bytes) -> tuple[list[Anchor], list[str]]:
    """The anchors of a file, and the problems found in it (a line that is damaged or whose MAC
    does not match: somebody wrote it without the key)."""
    anchors: list[Anchor] = []
    problems: list[str] = []
    try:
        fh = open(path, encoding="utf-8", errors="replace")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise JournalError(f"{path}: cannot read the anchor file: {exc.strerror}") from None
    with fh:
        for n, raw in enumerate(fh, start=1):
            got = _anchor_line(raw, key)
            if isinstance(got, Anchor):
                anchors.append(got)
            elif got:
                problems.append(f"{path}: line {n} {got}")
    return anchors, problems


def _anchor_line(raw: str, key: bytes) -> Anchor | str:
    """One line of an anchor file: its anchor, or what is wrong with it ("" for a blank)."""
    if not raw.strip():
        return ""
    try:
        obj = json.loads(raw)
        body = {k: obj[k] for k in ("journal", "seq", "hash", "why", "hand")}
        mac = obj["mac"]
        ok = isinstance(mac, str) and hmac.compare_digest(mac, _anchor_mac(key, body))
        anchor = Anchor(str(body["journal"]), int(body["seq"]), str(body["hash"]),
                        str(body["why"]), int(body["hand"]))
    except (ValueError, KeyError, TypeError):
        return "is damaged"
    return anchor if ok else "was not written with the journal's key"


def read_anchor_tail(path: str | Path, key: bytes, down_to: int
                     ) -> tuple[list[Anchor], list[str]]:
    """The anchors at or after seq ``down_to``, read from the file's end backwards (they are
    appended in seq order), with the problems of the lines read: what a restart from a
    checkpoint needs, in a time that does not grow with the file."""
    anchors: list[Anchor] = []
    problems: list[str] = []
    try:
        fh = open(path, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise JournalError(f"{path}: cannot read the anchor file: {exc.strerror}") from None
    with fh:
        end = fh.seek(0, os.SEEK_END)
        rest = b""
        while end > 0:
            start = max(0, end - 65536)
            fh.seek(start)
            block = fh.read(end - start) + rest
            lines = block.split(b"\n")
            rest = lines.pop(0) if start > 0 else b""  # (a line cut by the block's start)
            for raw in reversed(lines):
                got = _anchor_line(raw.decode("utf-8", "replace"), key)
                if isinstance(got, Anchor):
                    if got.seq < down_to:
                        return anchors[::-1], problems
                    anchors.append(got)
                elif got:
                    problems.append(f"{path}: a line near the end {got}")
            end = start
    return anchors[::-1], problems


# --- writing -----------------------------------------------------------------------------------


class Journal:
    """An append-only, HMAC-chained event journal in one SQLite file, with its anchors.

    ``key`` is the chain's key; by default it is read from ``key_path_for(path)``, and created
    there (0600) for a new journal. ``anchors`` is the anchor file (default
    ``anchor_path_for(path)``). Opening an existing journal with another key is refused."""

    def __init__(
        self,
        path: str | Path,
        checkpoint_every: float | None = 2.0,
        *,
        wal_limit_frames: int = WAL_LIMIT_FRAMES,
        key: bytes | None = None,
        key_path: str | Path | None = None,
        anchors: str | Path | None = None,
    ) -> None:
        self.path = Path(path)
        self.key_path = Path(key_path) if key_path is not None else key_path_for(self.path)
        if self.path.is_dir():
            raise JournalError(f"{self.path}: is a directory, not a journal")
        if self.path.exists() and self.path.stat().st_size and not is_journal_file(self.path):
            raise JournalError(f"{self.path}: not an SQLite journal; refusing to write into it")
        if key is None:  # only once the file is known to be ours (no stray key files)
            key = load_or_create_key(self.key_path)
        self._key = key
        try:
            # check_same_thread=False: the daemon appends from the reader thread and the console
            # thread, always under its own lock.
            self._db = sqlite3.connect(str(self.path), isolation_level=None,
                                       check_same_thread=False)
            # Another program's SQLite file is never touched: not even switched to WAL.
            tables = {r[0] for r in self._db.execute(
                "SELECT name FROM sqlite_master WHERE type='table'")}
            if tables and "events" not in tables:
                self._db.close()
                raise JournalError(f"{self.path}: an SQLite file, but not a Feltguard journal "
                                   "(no events table); refusing to write into it")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA wal_autocheckpoint=0")  # see the module docstring
            self._db.executescript(SCHEMA)
            meta = _meta(self.path, self._db)
            row = self._db.execute(
                "SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        except sqlite3.Error as exc:
            raise _damaged(self.path, exc) from None
        if not meta:
            if row is not None:
                raise JournalError(f"{self.path}: a journal of an older format (no key); "
                                   "start a new journal file")
            meta = {"format": FORMAT, "chain": "hmac-sha256", "key_id": key_id(key),
                    "journal_id": secrets.token_hex(8)}
            self._db.executemany("INSERT INTO meta (name, value) VALUES (?, ?)", meta.items())
        elif meta.get("key_id") != key_id(key):
            raise JournalError(f"{self.path}: written with another key than {self.key_path} "
                               f"(key id {meta.get('key_id')}, this key {key_id(key)})")
        self.journal_id = meta["journal_id"]
        self.last_seq: int = row[0] if row else 0
        self._last_hash: str = row[1] if row else GENESIS
        self.anchor_path = Path(anchors) if anchors is not None else anchor_path_for(self.path)
        self._anchors = AnchorLog(self.anchor_path, key)
        self._anchored = -1  # the seq last anchored
        self.anchor("open")
        self.wal_limit_frames = wal_limit_frames
        self._wal = Path(f"{self.path}-wal")
        self._page_size: int = self._db.execute("PRAGMA page_size").fetchone()[0]
        self._retry_at = 0  # WAL frames at which a TRUNCATE held back by a reader is tried again
        self._slack = max(1, wal_limit_frames // 8)
        self._checkpointing = threading.Lock()  # one checkpoint at a time within this process
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
                # Held so the appender's TRUNCATE never finds this checkpoint running (SQLite
                # would answer it SQLITE_BUSY at once, and the WAL would grow past its bound).
                with self._checkpointing, contextlib.suppress(sqlite3.Error):
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")  # busy: the next round does it
        finally:
            db.close()

    def _wal_frames(self) -> int:
        """Frames in the WAL now, from its size (a stat: no SQLite call, no lock)."""
        try:
            size = self._wal.stat().st_size
        except OSError:
            return 0
        return max(0, size - WAL_HEADER) // (WAL_FRAME_HEADER + self._page_size)

    def _start_wal_over(self, frames: int, wait: bool) -> None:
        """A TRUNCATE checkpoint on the appender's own connection (module docstring)."""
        busy = 1
        # The background checkpointer mid-round would make SQLite refuse at once. Just past the
        # limit, skip this commit's attempt rather than wait, and try at the next; once an
        # eighth past it, wait for the round to end (a round outlasting many commits, on a slow
        # disk, would otherwise let the WAL grow for as long as rounds keep coming).
        if not self._checkpointing.acquire(blocking=wait):
            return
        try:
            with contextlib.suppress(sqlite3.Error):  # the event is committed; this is upkeep
                self._db.execute(f"PRAGMA busy_timeout={int(RESTART_WAIT * 1000)}")
                try:
                    busy = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
                finally:
                    self._db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        finally:
            self._checkpointing.release()
        # Held back by another process's reader: try again an eighth of the limit later, so a
        # long replay costs one RESTART_WAIT per eighth, not one per commit.
        self._retry_at = 0 if not busy else frames + self._slack

    def append(self, event: Event) -> None:
        """Commit one event; returns only once it is in the WAL."""
        if event.seq <= self.last_seq:
            raise JournalError(f"{self.path}: seq {event.seq} does not follow {self.last_seq}")
        line = event.to_line()
        digest = chain_hash(self._key, self._last_hash, line)
        self._db.execute(
            "INSERT INTO events (seq, ts, type, line, prev, hash) VALUES (?, ?, ?, ?, ?, ?)",
            (event.seq, event.ts, event.type, line, self._last_hash, digest),
        )
        self.last_seq, self._last_hash = event.seq, digest
        frames = self._wal_frames()
        due = max(self.wal_limit_frames, self._retry_at)
        if frames > due:
            self._start_wal_over(frames, wait=frames > due + self._slack)

    def anchor(self, why: str, hand: int = 0) -> None:
        """Record the chain head in the anchor file (at a hand's end, the open and the close)."""
        self._anchors.record(Anchor(self.journal_id, self.last_seq, self._last_hash, why, hand))
        self._anchored = self.last_seq

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

    def state_point(self, hand: int = 0) -> tuple[int, str] | None:
        """Where a checkpoint of the state now would stand: the last record's (seq, chain hash),
        with the chain head anchored there (so the checkpoint, written later by another thread,
        has its anchor); None before the first record."""
        if self.last_seq == 0:
            return None
        if self._anchored != self.last_seq:  # (at a hand's end the daemon has anchored it)
            self.anchor("state", hand)
        return self.last_seq, self._last_hash

    def save_state(self, text: str, hand: int = 0) -> None:
        """Keep ``text`` (``controller.rules.state_to_text`` of the state after the last appended
        event) as a checkpoint: bound to that event's seq and chain hash by its HMAC, and the
        chain head anchored with it. A restart loads the newest one that checks out and replays
        only the events after it (``checkpoints``, ``check_since``)."""
        point = self.state_point(hand)
        if point is not None:
            self.store_state(self.pack_state(text, point))

    def pack_state(self, text: str, at: tuple[int, str]) -> tuple[int, str, bytes, str]:
        """The checkpoint row of ``text`` at ``at`` (a ``state_point``): compressed and signed,
        with no database call, so another thread can do it while the table goes on. zlib: a
        state's JSON is about 30 KB and compresses about eight times (docs/checkpoints.md)."""
        seq, chain = at
        return (seq, chain, zlib.compress(text.encode("utf-8"), 6),
                state_mac(self._key, seq, chain, text))

    def store_state(self, row: tuple[int, str, bytes, str]) -> None:
        """Write a ``pack_state`` row (under the caller's lock, as every write)."""
        self._db.execute(
            "INSERT OR IGNORE INTO states (seq, hash, data, mac) VALUES (?, ?, ?, ?)", row)

    def checkpoints(self) -> Iterator[Checkpoint]:
        """The journal's checkpoints, newest first, each with its problem (``read_checkpoints``)."""
        return read_checkpoints(self.path, self._key, self.anchor_path)

    def check_since(self, seq: int, chain: str) -> Verdict:
        """``check`` from a checkpoint on: the chain from the record after ``seq`` (whose hash is
        ``chain``) to the end under the key, and every anchor after it."""
        return check(self.path, self._key, anchors=self.anchor_path, since=seq, since_hash=chain)

    def checkpoint(self) -> None:
        """Fold the WAL into the database (off the alert path: at shutdown or between hands)."""
        self._db.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def close(self) -> None:
        self._halt.set()
        if self._checkpointer is not None:
            self._checkpointer.join(5)
        with contextlib.suppress(sqlite3.Error, OSError):
            self.anchor("close")
        self._anchors.close()
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --- reading -----------------------------------------------------------------------------------


def iter_events(path: str | Path) -> Iterator[Event]:
    """The events of a journal (SQLite) or of a scenario file (JSON Lines), whichever ``path``
    is, streamed. Raises JournalError or controller.events.EventError naming the bad record or
    line (when the iteration reaches it)."""
    problem = _unreadable(path)
    if problem is not None:
        raise problem
    if is_journal_file(path):
        return read_events(path)
    return iter_scenario(path)


def load_events(path: str | Path) -> list[Event]:
    """All the events of a journal or a scenario file (small files: tests, PHH export)."""
    return list(iter_events(path))


def _state_text(data: Any) -> str | None:
    """A checkpoint's text from its stored data (zlib), or None for data that is not that."""
    try:
        return zlib.decompress(bytes(data)).decode("utf-8")
    except (zlib.error, TypeError, ValueError):
        return None


def read_checkpoints(path: str | Path, key: bytes, anchors: str | Path | None = None
                     ) -> Iterator[Checkpoint]:
    """A journal's checkpoints, newest first, each with its problem (None: it checks out: its
    HMAC under the key, the chain hash of its event as the journal has it, and an anchor at
    it). Read-only and lazy, one row at a time by its key, and the anchor file from its end:
    a restart stops at the first it can load, in a time that does not grow with the journal."""
    anchor_file = Path(anchors) if anchors is not None else anchor_path_for(path)
    db = _connect_ro(path)
    try:
        journal_id = _meta(path, db).get("journal_id")
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "states" not in tables:  # (a journal of before checkpoints)
            return
        anchored: set[tuple[int, str]] = set()
        read_down_to: int | None = None
        below = None
        while True:
            row = next(_rows(path, db, "SELECT seq, hash, data, mac FROM states WHERE seq < "
                                       "? ORDER BY seq DESC LIMIT 1",
                             (below if below is not None else 2**62,)), None)
            if row is None:
                return
            seq, chain, data, mac = int(row[0]), str(row[1]), row[2], str(row[3])
            below = seq
            if read_down_to is None or seq < read_down_to:
                # the anchors from here to the end (again, lower, for an older checkpoint)
                read_down_to = seq
                if anchor_file.exists():
                    found, _ = read_anchor_tail(anchor_file, key, seq)
                    anchored = {(x.seq, x.hash) for x in found if x.journal == journal_id}
            text, problem = _state_text(data), None
            if text is None:
                problem, text = "its data is not a compressed text", ""
            elif not hmac.compare_digest(mac, state_mac(key, seq, chain, text)):
                problem = "its HMAC does not check out under the journal's key"
            else:
                event = next(_rows(path, db, "SELECT hash FROM events WHERE seq = ?", (seq,)),
                             None)
                if event is None or event[0] != chain:
                    problem = "the journal's record at its seq is not the one it followed"
                elif (seq, chain) not in anchored:
                    problem = "no anchor at its seq"
            yield Checkpoint(seq, chain, text, problem)
    finally:
        db.close()


def read_events(path: str | Path, *, after: int = 0) -> Iterator[Event]:
    """The journal's events in order (those with a seq above ``after``: the review reads one
    hand or the new tail without the rest), streamed. A corrupt record raises JournalError
    naming its seq."""
    db = _connect_ro(path)
    try:
        for seq, line in _rows(path, db, "SELECT seq, line FROM events WHERE seq > ? ORDER BY seq",
                               (after,)):
            try:
                yield parse_event(json.loads(line))
            except (EventError, json.JSONDecodeError, TypeError) as exc:
                raise JournalError(f"{path}: record seq {seq}: {exc}") from None
    finally:
        db.close()


def last_seq(path: str | Path) -> int:
    """The seq of the journal's last record (0 when empty): one indexed query, so a reader can
    tell cheaply whether the journal grew since it last looked."""
    db = _connect_ro(path)
    try:
        row = next(_rows(path, db, "SELECT MAX(seq) FROM events"), None)
        return int(row[0]) if row is not None and row[0] is not None else 0
    finally:
        db.close()


@dataclass(frozen=True)
class StoredEvent:
    """One event as the journal stores it: its JSON line and its place in the hash chain. The
    table's relay forwards it as a stream entry of these fields, and the cardroom's central
    store keeps it so (controller/surveillance/)."""

    seq: int
    ts: int
    type: str
    line: str
    prev: str
    hash: str


def read_records(path: str | Path, *, after: int, limit: int) -> list[StoredEvent]:
    """Up to ``limit`` records with a seq above ``after``, in order, as stored: the table's relay
    forwards them in batches, line and chain hashes unchanged (controller/surveillance/relay.py),
    so a catch-up after a long outage never holds more than one batch."""
    db = _connect_ro(path)
    try:
        return [StoredEvent(*row) for row in _rows(
            path, db, "SELECT seq, ts, type, line, prev, hash FROM events WHERE seq > ? "
            "ORDER BY seq LIMIT ?", (after, limit))]
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
            for hand, seq, code, text in _rows(
                path, db, "SELECT hand, seq, code, json FROM findings ORDER BY id")
        ]
    finally:
        db.close()


# --- checking ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """What ``check`` found. ``ok`` only when the chain is intact under the key and every anchor
    is in the journal; otherwise ``problem`` says what, and ``seq`` where (the first record that
    does not follow, or the anchored record that is missing)."""

    path: str
    events: int
    anchors: int  # anchors checked
    unanchored: int  # records after the last anchor (a crash's tail: not provably complete)
    problem: str | None = None
    seq: int | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None


def check(path: str | Path, key: bytes | None = None, *, key_path: str | Path | None = None,
          anchors: str | Path | None = None, since: int = 0, since_hash: str = GENESIS,
          checkpoints: bool = True) -> Verdict:
    """Check a journal: every record's HMAC chain under the key, every anchor present, and
    every checkpoint's HMAC and place in the chain.

    ``key`` defaults to the key file ``key_path`` (default ``key_path_for(path)``); the anchors
    to ``anchors`` (default ``anchor_path_for(path)``). ``since``/``since_hash``: only from the
    record after ``since`` on, which must follow ``since_hash`` (a checkpoint's: the records
    up to it were checked when it was made; ``Journal.check_since``). ``checkpoints`` False:
    the events and anchors only (a restart passes a bad checkpoint over and says so; ``verify``
    names it). Raises JournalError when
    the journal, its key or its anchor file cannot be read at all."""
    if key is None:
        key = load_key(key_path if key_path is not None else key_path_for(path))
    anchor_file = Path(anchors) if anchors is not None else anchor_path_for(path)
    db = _connect_ro(path)
    try:
        meta = _meta(path, db)
        name = str(path)
        if meta.get("format") != FORMAT:
            return Verdict(name, 0, 0, 0, "a journal without a keyed chain (older format or "
                           "not written by Feltguard): it cannot be checked")
        if meta.get("key_id") != key_id(key):
            return Verdict(name, 0, 0, 0, f"written with another key (key id {meta.get('key_id')}"
                           f", this key {key_id(key)})")
        hashes: dict[int, str] = {}  # only the anchored seqs are kept: memory stays bounded
        wanted: dict[int, list[Anchor]] = {}
        problems: list[str] = []
        n_anchors = 0
        if not anchor_file.exists():
            problems.append(f"no anchor file at {anchor_file}: a cut-off tail cannot be ruled out")
            anchor_list: list[Anchor] = []
        elif since:  # from a checkpoint: only the anchors after it, read from the file's end
            anchor_list, problems = read_anchor_tail(anchor_file, key, since + 1)
        else:
            anchor_list, problems = read_anchors(anchor_file, key)
        for a in anchor_list:
            if a.journal == meta.get("journal_id") and a.seq > since:
                wanted.setdefault(a.seq, []).append(a)
        states: dict[int, str] = {}  # each checkpoint's seq: the chain hash it says it follows
        if checkpoints and not since and "states" in {r[0] for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type='table'")}:
            for seq, chain, data, mac in _rows(path, db,
                                               "SELECT seq, hash, data, mac FROM states"):
                text = _state_text(data)
                if text is None or not hmac.compare_digest(
                        str(mac), state_mac(key, int(seq), str(chain), text)):
                    return Verdict(name, 0, 0, 0, f"the checkpoint at seq {seq} was not written "
                                   "with the journal's key", int(seq))
                states[int(seq)] = str(chain)
        prev, last, count = since_hash, since, 0
        for seq, line, rec_prev, rec_hash in _rows(
                path, db, "SELECT seq, line, prev, hash FROM events WHERE seq > ? ORDER BY seq",
                (since,)):
            count += 1
            if seq != last + 1 or rec_prev != prev or not hmac.compare_digest(
                    str(rec_hash), chain_hash(key, prev, line)):
                why = (f"record seq {seq} follows seq {last}" if seq != last + 1
                       else f"record seq {seq} does not follow the chain (edited, inserted or "
                            "rehashed without the key)")
                return Verdict(name, count, 0, 0, why, int(seq))
            prev, last = str(rec_hash), int(seq)
            if last in wanted:
                hashes[last] = prev
            if last in states and states[last] != prev:
                return Verdict(name, count, 0, 0, f"the checkpoint at seq {last} does not "
                               "follow the journal's record there", last)
        for seq in sorted(wanted):
            if seq == 0:
                n_anchors += len(wanted[seq])
                continue
            a = wanted[seq][0]
            if seq > last:
                return Verdict(name, count, n_anchors, 0,
                               f"the journal ends at seq {last}, but seq {seq} was anchored "
                               f"({a.why}{f', hand {a.hand}' if a.hand else ''}): its tail was "
                               "cut off", seq)
            if any(hashes.get(seq) != x.hash for x in wanted[seq]):
                return Verdict(name, count, n_anchors, 0,
                               f"record seq {seq} differs from its anchor", seq)
            n_anchors += len(wanted[seq])
        if any(s > last for s in states):
            seq = min(s for s in states if s > last)
            return Verdict(name, count, n_anchors, 0, f"a checkpoint at seq {seq}, after the "
                           f"journal's end at seq {last}: its tail was cut off", seq)
        tail = last - max((s for s in wanted if s <= last), default=since)
        if problems:
            return Verdict(name, count, n_anchors, tail, "; ".join(problems))
        return Verdict(name, count, n_anchors, tail)
    finally:
        db.close()


def verify(path: str | Path, key: bytes | None = None) -> int | None:
    """The seq where the journal stops being trustworthy, or None if it checks out. A problem
    without a seq (another key, a missing anchor file) gives 0."""
    verdict = check(path, key)
    if verdict.ok:
        return None
    return verdict.seq if verdict.seq is not None else 0
