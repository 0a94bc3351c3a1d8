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

Segments (docs/segments.md): a table's journal is a run of SQLite files. The configured path
is the live segment; ``Journal.rollover`` seals it between hands (its WAL folded in, renamed
``STEM.FIRST-LAST.SUFFIX`` beside it) and opens the next, whose meta names the seq and chain
head it follows on from and whose ``states`` open on a checkpoint of the state at the previous
one's end: the run is one keyed chain, and a segment checks and replays on its own. Every
reader below takes the live path and reads the run as one journal; ``archive_segments`` moves
old sealed segments out, compressed, with a manifest ``check`` reads.

Reading never loads a whole journal: ``read_events`` and ``iter_events`` stream, and
``read_records`` (the relay's read) takes a batch at a time, so replaying a month of journal
takes memory independent of its length. This module is the only code that reads or writes the
journal's tables. Every problem with a file (missing,
not SQLite, truncated, garbage, no events table, a bad record) is a ``JournalError`` whose
message starts with the file's name.
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import hmac
import json
import os
import re
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
ROLLOVER_WAIT = 0.25
"""Seconds a rollover's TRUNCATE may wait for another process's readers before it gives up
until the next hand's end (the table waits this long at most, between hands)."""

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


class JournalDamaged(JournalError):
    """An SQLite journal file damaged or cut short (SQLite cannot read it, or bytes lie past
    its end): not a chain that fails its check. A table sets such a live segment aside and
    starts from the best good state it has (docs/segments.md)."""


# --- the key ---------------------------------------------------------------------------------


def key_path_for(journal: str | Path) -> Path:
    """Where a journal's key lives unless configured: beside it, ``JOURNAL.key`` (for a sealed
    segment, its run's: beside the live segment's name)."""
    p = live_path_for(journal)
    return p.with_name(p.name + ".key")


def anchor_path_for(journal: str | Path) -> Path:
    """Where a journal's anchors live unless configured: beside it, ``JOURNAL.anchors`` (one
    file for a whole run of segments: anchors are by seq)."""
    p = live_path_for(journal)
    return p.with_name(p.name + ".anchors")


# --- segments ----------------------------------------------------------------------------------
# A run of segments (docs/segments.md): the configured path is always the live segment; each
# sealed one lies beside it as STEM.FIRST-LAST.SUFFIX (seqs on ten digits, so names sort in seq
# order). A journal of before segments is a run of one.

_SEGMENT = re.compile(r"^(?P<stem>.+)\.(?P<first>\d{10})-(?P<last>\d{10})(?P<suffix>\.[^.]*)?$")


ROLLOVER_DEFAULT = "day"
"""``[journal] rollover`` unless configured: a cardroom's day is one segment."""


def parse_rollover(value: object) -> str | int:
    """``[journal] rollover`` as the daemon takes it: "off", "day", or a whole number of hands
    (at least 1). ValueError, its text one line, for anything else."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise ValueError(f'must be "off", "day" or a number of hands, got {value!r}')
    if isinstance(value, int):
        if value < 1:
            raise ValueError(f"must be at least 1 hand, got {value}")
        return value
    if value in ("off", "day"):
        return value
    raise ValueError(f'must be "off", "day" or a number of hands, got {value!r}')


def live_path_for(path: str | Path) -> Path:
    """The live segment of the run ``path`` belongs to: ``path`` itself, unless it is a sealed
    segment's name (``journal.0000000001-0000004999.sqlite`` -> ``journal.sqlite``)."""
    p = Path(path)
    m = _SEGMENT.match(p.name)
    return p.with_name(m["stem"] + (m["suffix"] or "")) if m else p


def segment_name(live: str | Path, first: int, last: int) -> Path:
    """Where the sealed segment holding seqs ``first``..``last`` of the run of ``live`` lies."""
    p = Path(live)
    return p.with_name(f"{p.stem}.{first:010d}-{last:010d}{p.suffix}")


@dataclass(frozen=True)
class Segment:
    """One file of a run: a sealed segment (its seqs from its name) or the live one
    (``sealed`` False, ``first``/``last`` 0: ask the file)."""

    path: Path
    first: int
    last: int
    sealed: bool


def sealed_segments(live: str | Path, folder: str | Path | None = None,
                    ext: str = "") -> list[Segment]:
    """The sealed segments of the run of ``live`` found in ``folder`` (default: beside it),
    named ``segment_name(...) + ext``, in seq order."""
    p = Path(live)
    where = Path(folder) if folder is not None else p.parent
    pattern = f"{glob.escape(p.stem)}.{'[0-9]' * 10}-{'[0-9]' * 10}{glob.escape(p.suffix + ext)}"
    found = []
    with contextlib.suppress(OSError):
        for q in where.glob(pattern):
            m = _SEGMENT.match(q.name[:len(q.name) - len(ext)] if ext else q.name)
            if m is not None and q.is_file():
                found.append(Segment(q, int(m["first"]), int(m["last"]), True))
    return sorted(found, key=lambda s: (s.first, s.last))


def run_segments(path: str | Path) -> list[Segment]:
    """The run ``path`` names, in seq order: the sealed segments beside it, then the live one
    (when it is there, or when nothing else is: its absence is then the error to name). A
    sealed segment named alone is a run of itself."""
    p = Path(path)
    m = _SEGMENT.match(p.name)
    if m is not None:
        return [Segment(p, int(m["first"]), int(m["last"]), True)]
    sealed = sealed_segments(p)
    if p.exists() or not sealed:
        return [*sealed, Segment(p, 0, 0, False)]
    return sealed


def _after(run: list[Segment], after: int) -> list[Segment]:
    """The segments of ``run`` that may hold a seq above ``after`` (a sealed one by its name:
    the older segments are never opened)."""
    return [s for s in run if not s.sealed or s.last > after]


def _segment_start(meta: dict[str, str]) -> tuple[int, str]:
    """The first seq a segment holds and the chain hash it follows on from (1 and the genesis
    for the first segment, and for a journal of before segments)."""
    try:
        return int(meta.get("first_seq", "1")), meta.get("prev_hash", GENESIS)
    except ValueError:
        return 1, GENESIS


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
    """True for an SQLite file (the journal), False for anything else (a JSON Lines scenario).
    True too for the live path of a run whose live segment is not there but sealed ones are
    (a crash between sealing one and opening the next: docs/segments.md)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(16) == SQLITE_MAGIC
    except FileNotFoundError:
        return live_path_for(path) == Path(path) and bool(sealed_segments(path))
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
    return JournalDamaged(f"{path}: not a readable Feltguard journal (damaged or truncated: {exc})")


def trailing_bytes(path: str | Path) -> int:
    """Bytes past the end of the database in an SQLite file (garbage appended, a copy gone
    wrong): its size against the page count its header gives. 0 when the header's count is not
    valid (SQLite then goes by the file's size), the file cannot be read, or a WAL with frames
    lies beside it (the file is then not the whole database: a checkpoint may be under way, or
    cut short by a crash; it is judged once the WAL is folded in)."""
    with contextlib.suppress(OSError):
        if os.path.getsize(f"{path}-wal") > 0:
            return 0
    try:
        with open(path, "rb") as fh:
            head = fh.read(100)
            size = os.fstat(fh.fileno()).st_size
    except OSError:
        return 0
    if len(head) < 100 or head[:16] != SQLITE_MAGIC:
        return 0
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(head[28:32], "big")
    if not pages or head[24:28] != head[92:96]:  # (the count is valid only when these agree)
        return 0
    return max(0, size - pages * page)


def is_feltguard_journal(path: str | Path) -> bool:
    """Whether ``path`` is a journal this code wrote (SQLite with its meta's format): what a
    repair may touch, and nothing else."""
    try:
        db = _connect_ro(path)
    except JournalError:
        return False
    try:
        return _meta(path, db).get("format") == FORMAT
    except JournalError:
        return False
    finally:
        db.close()


def set_aside(path: str | Path, now: float | None = None) -> Path:
    """Rename a damaged live segment (and its -wal and -shm) out of the run's way, never
    deleting it: ``JOURNAL.damaged-YYYYmmddTHHMMSS``. Returns the new name."""
    import time

    p = Path(path)
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(time.time() if now is None else now))
    aside = p.with_name(f"{p.name}.damaged-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = p.with_name(f"{p.name}.damaged-{stamp}-{n}")
    try:
        os.rename(p, aside)
        for tail in ("-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.rename(f"{p}{tail}", f"{aside}{tail}")
    except OSError as exc:
        raise JournalError(f"{p}: cannot set the damaged segment aside: {exc.strerror}") from None
    return aside


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
    """An append-only, HMAC-chained event journal: the live segment of a run of SQLite files
    (docs/segments.md), with its anchors.

    ``key`` is the chain's key; by default it is read from ``key_path_for(path)``, and created
    there (0600) for a new journal. ``anchors`` is the anchor file (default
    ``anchor_path_for(path)``). Opening an existing journal with another key is refused. A new
    live segment beside sealed ones follows on from the last of them; ``damaged`` names a
    damaged live segment set aside before this one (kept in its meta, said by ``check``)."""

    def __init__(
        self,
        path: str | Path,
        checkpoint_every: float | None = 2.0,
        *,
        wal_limit_frames: int = WAL_LIMIT_FRAMES,
        key: bytes | None = None,
        key_path: str | Path | None = None,
        anchors: str | Path | None = None,
        damaged: str = "",
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
        self.anchor_path = Path(anchors) if anchors is not None else anchor_path_for(self.path)
        self.wal_limit_frames = wal_limit_frames
        self._checkpoint_every = checkpoint_every
        self._anchors: AnchorLog | None = None  # opened with the first segment that opens
        self._open(damaged)

    def _open(self, damaged: str = "", opening: str | None = None) -> None:
        """Open the live segment: an existing one as it is, or a new one (a new journal, or
        the next segment of a run: it follows on from the last sealed one, which ``opening``,
        the state at its end, or else that segment's own last checkpoint, opens)."""
        key = self._key
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
            with contextlib.suppress(sqlite3.Error, AttributeError):
                self._db.close()
            raise _damaged(self.path, exc) from None
        if not meta:
            if row is not None:
                raise JournalError(f"{self.path}: a journal of an older format (no key); "
                                   "start a new journal file")
            meta = {"format": FORMAT, "chain": "hmac-sha256", "key_id": key_id(key),
                    "journal_id": secrets.token_hex(8)}
            follows = self._follow_on(opening)
            if follows is not None:
                meta.update(follows[0])
            if damaged:
                meta["damaged"] = damaged
            self._db.execute("BEGIN")
            self._db.executemany("INSERT INTO meta (name, value) VALUES (?, ?)", meta.items())
            if follows is not None and follows[1] is not None:
                self._db.execute("INSERT INTO states (seq, hash, data, mac) VALUES (?, ?, ?, ?)",
                                 follows[1])
            self._db.execute("COMMIT")
        elif meta.get("key_id") != key_id(key):
            self._db.close()
            raise JournalError(f"{self.path}: written with another key than {self.key_path} "
                               f"(key id {meta.get('key_id')}, this key {key_id(key)})")
        self.journal_id = meta["journal_id"]
        self.first_seq, start_hash = _segment_start(meta)
        self.last_seq: int = row[0] if row else self.first_seq - 1
        self._last_hash: str = row[1] if row else start_hash
        self._anchored = -1  # the seq last anchored
        if self._anchors is None:
            self._anchors = AnchorLog(self.anchor_path, key)
        self.anchor("open")
        self._wal = Path(f"{self.path}-wal")
        self._page_size: int = self._db.execute("PRAGMA page_size").fetchone()[0]
        self._retry_at = 0  # WAL frames at which a TRUNCATE held back by a reader is tried again
        self._slack = max(1, self.wal_limit_frames // 8)
        self._checkpointing = threading.Lock()  # one checkpoint at a time within this process
        self._halt = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if self._checkpoint_every:
            self._checkpointer = threading.Thread(
                target=self._checkpoint_loop, args=(self._checkpoint_every,), daemon=True,
                name="journal-checkpoint",
            )
            self._checkpointer.start()

    def _follow_on(self, opening: str | None
                   ) -> tuple[dict[str, str], tuple[int, str, bytes, str] | None] | None:
        """For a new live segment after sealed ones: the meta that says where it follows on
        (first seq, the previous segment's chain head, name and id) and its opening checkpoint
        row (the state at the previous segment's end: ``opening``, or that segment's own
        checkpoint at its last seq, copied as it is). None for the first segment of a run."""
        sealed = sealed_segments(self.path)
        if not sealed:
            return None
        prev = sealed[-1]
        db = _connect_ro(prev.path)
        try:
            pmeta = _meta(prev.path, db)
            if pmeta.get("key_id") != key_id(self._key):
                raise JournalError(f"{prev.path}: written with another key than {self.key_path}")
            head = next(_rows(prev.path, db,
                              "SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1"), None)
            if head is None:
                raise JournalError(f"{prev.path}: a sealed segment without records")
            seq, chain = int(head[0]), str(head[1])
            row: tuple[int, str, bytes, str] | None = None
            if opening is not None:
                row = (seq, chain, zlib.compress(opening.encode("utf-8"), 6),
                       state_mac(self._key, seq, chain, opening))
            else:
                kept = next(_rows(prev.path, db, "SELECT seq, hash, data, mac FROM states "
                                  "WHERE seq = ?", (seq,)), None)
                if kept is not None:
                    row = (int(kept[0]), str(kept[1]), bytes(kept[2]), str(kept[3]))
        finally:
            db.close()
        return ({"first_seq": str(seq + 1), "prev_hash": chain, "prev_segment": prev.path.name,
                 "prev_journal_id": pmeta.get("journal_id", "")}, row)

    def rollover(self, opening: str | None = None) -> Path | None:
        """Seal the live segment and open the next one (between hands: the daemon calls it
        after a hand's end, once the boundary has passed; docs/segments.md). ``opening``: the
        state after the last record, the new segment's opening checkpoint. The WAL is folded
        into the file first (TRUNCATE), so the sealed file is whole on its own; held back by
        another process's reader, nothing changes and None is returned (the next hand's end
        tries again). Returns the sealed segment's path."""
        if self.last_seq < self.first_seq:
            return None  # nothing in this segment yet
        if opening is not None:  # the sealed segment ends on it too (a checkpoint made aside
            # may not have landed yet): it replays alone to its end, and a crash before the
            # next segment exists opens that one on it
            self.store_state(self.pack_state(opening, (self.last_seq, self._last_hash)))
        self._halt.set()
        if self._checkpointer is not None:
            self._checkpointer.join(5)
        try:
            self._db.execute(f"PRAGMA busy_timeout={int(ROLLOVER_WAIT * 1000)}")
            busy = self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            self._db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        except sqlite3.Error:
            busy = 1
        if busy:
            self._resume_checkpointer()
            return None
        with contextlib.suppress(sqlite3.Error, OSError):
            self.anchor("close")
        # A sealed segment is read, never written: out of WAL mode, its readers need no -wal
        # and -shm beside it (best effort: another process's reader keeps it in WAL mode).
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("PRAGMA journal_mode=DELETE")
        self._db.close()
        sealed = segment_name(self.path, self.first_seq, self.last_seq)
        try:
            os.rename(self.path, sealed)
        except OSError:
            self._open()  # the same live segment again: the table journals on
            raise
        # A reader of another process may still hold the old -wal (empty now) and -shm: the new
        # segment gets its own, never the old file's.
        for tail in ("-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(f"{self.path}{tail}")
        self._open(opening=opening)
        return sealed

    def hand_ends(self) -> int:
        """Hands ended or misdealt in the live segment (the rollover's count at a restart)."""
        row = self._db.execute("SELECT COUNT(*) FROM events WHERE type IN ('hand.end', "
                               "'misdeal.declared')").fetchone()
        return int(row[0])

    def first_ts(self) -> int | None:
        """The wall clock (ms) of the live segment's first record; None while it has none."""
        row = self._db.execute("SELECT ts FROM events ORDER BY seq LIMIT 1").fetchone()
        return int(row[0]) if row is not None else None

    def _resume_checkpointer(self) -> None:
        self._halt = threading.Event()
        if self._checkpoint_every:
            self._checkpointer = threading.Thread(
                target=self._checkpoint_loop, args=(self._checkpoint_every,), daemon=True,
                name="journal-checkpoint")
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
        assert self._anchors is not None  # (opened with the segment)
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
        """Write a ``pack_state`` row (under the caller's lock, as every write). A row from
        before the live segment's start (made aside while the journal rolled over) is dropped:
        the sealed segment ends on the same state, and the new one opens on it."""
        if row[0] < self.first_seq - 1:
            return
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
        if self._anchors is not None:
            self._anchors.close()
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --- reading -----------------------------------------------------------------------------------
# Every reader takes the live segment's path and reads the run of segments it heads as one
# journal (``run_segments``): the sealed ones found beside it, in seq order, then the live one.


def _exists_run(path: str | Path) -> bool:
    p = Path(path)
    return p.exists() or (live_path_for(p) == p and bool(sealed_segments(p)))


def iter_events(path: str | Path) -> Iterator[Event]:
    """The events of a journal (SQLite, a whole run of segments) or of a scenario file (JSON
    Lines), whichever ``path`` is, streamed. Raises JournalError or
    controller.events.EventError naming the bad record or line (when the iteration reaches
    it)."""
    if not Path(path).exists() and _exists_run(path):
        return read_events(path)  # (a run whose live segment is not there: its sealed ones)
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
    """A run's checkpoints, newest first (the live segment's, then each sealed one's, newest
    segment first), each with its problem (None: it checks out: its HMAC under the key, the
    chain hash of its event as the segment has it, or for a segment's opening checkpoint the
    chain head the segment follows on from, and an anchor at it). Read-only and lazy, one row
    at a time by its key, and the anchor file from its end: a restart stops at the first it
    can load, in a time that does not grow with the journal."""
    anchor_file = Path(anchors) if anchors is not None else anchor_path_for(path)
    for seg in reversed(run_segments(path)):
        yield from _segment_checkpoints(seg.path, key, anchor_file)


def _segment_checkpoints(path: Path, key: bytes, anchor_file: Path) -> Iterator[Checkpoint]:
    db = _connect_ro(path)
    try:
        meta = _meta(path, db)
        ids = {meta.get("journal_id"), meta.get("prev_journal_id")} - {None, ""}
        first, prev_hash = _segment_start(meta)
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
                    anchored = {(x.seq, x.hash) for x in found if x.journal in ids}
            text, problem = _state_text(data), None
            if text is None:
                problem, text = "its data is not a compressed text", ""
            elif not hmac.compare_digest(mac, state_mac(key, seq, chain, text)):
                problem = "its HMAC does not check out under the journal's key"
            else:
                place: str | None
                if seq == first - 1:  # the segment's opening checkpoint: the head it follows
                    place = prev_hash
                else:
                    event = next(_rows(path, db, "SELECT hash FROM events WHERE seq = ?",
                                       (seq,)), None)
                    place = event[0] if event is not None else None
                if place != chain:
                    problem = "the journal's record at its seq is not the one it followed"
                elif (seq, chain) not in anchored:
                    problem = "no anchor at its seq"
            yield Checkpoint(seq, chain, text, problem)
    finally:
        db.close()


def run_opening(path: str | Path) -> Checkpoint | None:
    """For a run whose start was archived (its first segment here begins after seq 1): the
    first segment's opening checkpoint, the state a reader starts from to read the rest (its
    ``problem`` None when its HMAC and place check out; ``check`` checks its anchor too).
    None for a run that starts at seq 1."""
    seg = run_segments(path)[0]
    db = _connect_ro(seg.path)
    try:
        first, chain = _segment_start(_meta(seg.path, db))
        if first <= 1:
            return None
        row = next(_rows(seg.path, db, "SELECT hash, data FROM states WHERE seq = ?",
                         (first - 1,)), None)
        problem = _opening(seg.path, db, load_key(key_path_for(path)), first - 1, chain)
        text = _state_text(row[1]) if row is not None else None
        return Checkpoint(first - 1, chain, text or "", problem)
    finally:
        db.close()


def read_events(path: str | Path, *, after: int = 0) -> Iterator[Event]:
    """The run's events in order (those with a seq above ``after``: the review reads one hand
    or the new tail without the rest; a sealed segment wholly before it is not opened),
    streamed. A corrupt record raises JournalError naming its file and seq; so does a read
    from before a run's first segment here (its start archived: ``run_opening`` gives the
    state to read on from)."""
    run = run_segments(path)
    for seg in _after(run, after):
        db = _connect_ro(seg.path)
        if seg is run[0]:
            first = _segment_start(_meta(seg.path, db))[0]
            if first > after + 1:
                db.close()
                raise JournalError(f"{path}: seq 1..{first - 1} are not here (archived, or a "
                                   f"segment read alone: {seg.path.name} starts at seq "
                                   f"{first}): read on from its opening checkpoint")
        try:
            for seq, line in _rows(seg.path, db, "SELECT seq, line FROM events WHERE seq > ? "
                                   "ORDER BY seq", (after,)):
                try:
                    yield parse_event(json.loads(line))
                except (EventError, json.JSONDecodeError, TypeError) as exc:
                    raise JournalError(f"{seg.path}: record seq {seq}: {exc}") from None
        finally:
            db.close()


def last_seq(path: str | Path) -> int:
    """The seq of the run's last record (0 when empty): one indexed query on the live segment
    (for a live segment just opened, the seq it follows on from), so a reader can tell cheaply
    whether the journal grew since it last looked."""
    run = run_segments(path)
    seg = run[-1]
    if seg.sealed:
        return seg.last
    db = _connect_ro(seg.path)
    try:
        row = next(_rows(seg.path, db, "SELECT MAX(seq) FROM events"), None)
        if row is not None and row[0] is not None:
            return int(row[0])
        return _segment_start(_meta(seg.path, db))[0] - 1
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
    """Up to ``limit`` records of the run with a seq above ``after``, in order, as stored: the
    table's relay forwards them in batches, line and chain hashes unchanged
    (controller/surveillance/relay.py), so a catch-up after a long outage never holds more
    than one batch. A batch may span a rollover."""
    out: list[StoredEvent] = []
    for seg in _after(run_segments(path), after):
        if len(out) >= limit:
            break
        db = _connect_ro(seg.path)
        try:
            out.extend(StoredEvent(*row) for row in _rows(
                seg.path, db, "SELECT seq, ts, type, line, prev, hash FROM events WHERE seq > ? "
                "ORDER BY seq LIMIT ?", (after, limit - len(out))))
        finally:
            db.close()
    return out


@dataclass(frozen=True)
class JournalFinding:
    hand: int
    seq: int
    code: str
    data: dict[str, Any]


def read_findings(path: str | Path) -> list[JournalFinding]:
    """The findings journaled beside the events, over the whole run."""
    out: list[JournalFinding] = []
    for seg in run_segments(path):
        db = _connect_ro(seg.path)
        try:
            out.extend(JournalFinding(hand, seq, code, json.loads(text))
                       for hand, seq, code, text in _rows(
                           seg.path, db, "SELECT hand, seq, code, json FROM findings ORDER BY id"))
        finally:
            db.close()
    return out


@dataclass(frozen=True)
class Gap:
    """Seqs ``first``..``last`` that no segment of a run holds (``before``: the segment after
    them)."""

    first: int
    last: int
    before: str

    def __str__(self) -> str:
        return (f"seq {self.first}..{self.last} missing from the run (no segment holds them, "
                f"before {self.before})")


def run_gaps(path: str | Path) -> list[Gap]:
    """What is missing from a run, by the segments' names and the live segment's meta alone
    (no sealed segment is opened: a restart says it at no cost): each range of seqs no
    segment holds, archived ones (``archived``) excepted."""
    run = run_segments(path)
    spans = [(s.first, s.last, s.path.name) for s in run if s.sealed]
    live = run[-1]
    if not live.sealed and live.path.exists():
        with contextlib.suppress(JournalError):
            db = _connect_ro(live.path)
            try:
                spans.append((_segment_start(_meta(live.path, db))[0], 0, live.path.name))
            finally:
                db.close()
    gaps, last = [], max((a.last for a in archived(path)), default=0)
    for first, end, name in spans:
        if first > last + 1:
            gaps.append(Gap(last + 1, first - 1, name))
        last = max(last, end, first - 1)
    return gaps


# --- archiving ---------------------------------------------------------------------------------
# Sealed segments compressed (lzma) and moved out of the table's folder; a manifest beside the
# live segment (JOURNAL.archive, one JSON line a segment) says which and where, so ``check``
# tells an archived start of a run from a missing one (docs/segments.md).

ARCHIVE_EXT = ".xz"


@dataclass(frozen=True)
class Archived:
    """A sealed segment that was archived: its name, its seqs, where it went, and the SHA-256
    of the segment as it was (its compressed copy decompresses to it)."""

    segment: str
    first: int
    last: int
    file: str
    sha256: str


def archive_manifest_for(journal: str | Path) -> Path:
    p = live_path_for(journal)
    return p.with_name(p.name + ".archive")


def archived(path: str | Path) -> list[Archived]:
    """The run's archived segments, as its manifest lists them (a damaged line is skipped:
    the segment it named then counts as missing, which ``check`` says)."""
    out = []
    with contextlib.suppress(FileNotFoundError):
        for raw in archive_manifest_for(path).read_text(encoding="utf-8",
                                                        errors="replace").splitlines():
            with contextlib.suppress(ValueError, KeyError, TypeError):
                o = json.loads(raw)
                out.append(Archived(str(o["segment"]), int(o["first"]), int(o["last"]),
                                    str(o["file"]), str(o["sha256"])))
    return sorted(out, key=lambda a: a.first)


def archive_segments(path: str | Path, to: str | Path, *, keep: int = 1,
                     older_than_s: float | None = None, now: float | None = None
                     ) -> list[Archived]:
    """Compress the run's oldest sealed segments into ``to`` (``NAME.xz``) and remove them from
    beside the live segment, keeping the newest ``keep`` sealed ones and, with
    ``older_than_s``, any sealed less than that long ago (its file's mtime). Only a start of
    the run goes, so what stays is one unbroken run. Each copy is written whole (a temporary
    name, fsync, rename) and read back against the segment's SHA-256 before the manifest line
    is written and the segment removed: an archive cut short loses nothing."""
    import lzma
    import time

    live = live_path_for(path)
    dest = Path(to)
    if not dest.is_dir():
        raise JournalError(f"{dest}: no such directory to archive into")
    sealed = sealed_segments(live)
    if not sealed and not live.exists():
        raise JournalError(f"{live}: no such journal (no live segment, no sealed one beside it)")
    candidates = sealed[:max(0, len(sealed) - keep)]
    if older_than_s is not None:
        limit = (time.time() if now is None else now) - older_than_s
        young = next((i for i, s in enumerate(candidates) if s.path.stat().st_mtime > limit),
                     len(candidates))
        candidates = candidates[:young]
    done = []
    for seg in candidates:
        target = dest / (seg.path.name + ARCHIVE_EXT)
        partial = target.with_name(target.name + ".part")
        digest = hashlib.sha256()
        try:
            with open(seg.path, "rb") as src, lzma.open(partial, "wb", preset=6) as out:
                while block := src.read(1 << 20):
                    digest.update(block)
                    out.write(block)
            with open(partial, "rb") as fh:
                os.fsync(fh.fileno())
            back = hashlib.sha256()
            with lzma.open(partial, "rb") as fh:
                while block := fh.read(1 << 20):
                    back.update(block)
            if back.hexdigest() != digest.hexdigest():
                raise JournalError(f"{partial}: the compressed copy does not read back as "
                                   f"{seg.path.name}; nothing archived")
            os.replace(partial, target)
            entry = Archived(seg.path.name, seg.first, seg.last, str(target.resolve()),
                             digest.hexdigest())
            line = json.dumps(entry.__dict__, sort_keys=True) + "\n"
            fd = os.open(archive_manifest_for(live), os.O_WRONLY | os.O_APPEND | os.O_CREAT,
                         0o600)
            try:
                os.write(fd, line.encode("utf-8"))
                os.fsync(fd)
            finally:
                os.close(fd)
            os.unlink(seg.path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                partial.unlink()
            raise JournalError(f"{seg.path}: not archived: {exc.strerror or exc}") from None
        done.append(entry)
    return done


@contextlib.contextmanager
def _unpacked(live: Path, archive: str | Path | None, before: int) -> Iterator[list[Segment]]:
    """The archived segments of the run (in ``archive``, ``NAME.xz``) that end before seq
    ``before``, decompressed into a temporary folder for the length of a check."""
    import lzma
    import shutil
    import tempfile

    if archive is None:
        yield []
        return
    found = [s for s in sealed_segments(live, archive, ARCHIVE_EXT) if s.last < before]
    with tempfile.TemporaryDirectory(prefix="feltguard-archive-") as tmp:
        out = []
        for seg in found:
            plain = Path(tmp) / seg.path.name[:-len(ARCHIVE_EXT)]
            try:
                with lzma.open(seg.path, "rb") as src, open(plain, "wb") as dst:
                    shutil.copyfileobj(src, dst, 1 << 20)
            except (OSError, lzma.LZMAError, EOFError) as exc:
                raise JournalError(f"{seg.path}: cannot decompress the archived segment: "
                                   f"{exc}") from None
            out.append(Segment(plain, seg.first, seg.last, True))
        yield out


# --- checking ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """What ``check`` found. ``ok`` only when the chain is intact under the key and every anchor
    is in the journal; otherwise ``problem`` says what, and ``seq`` where (the first record that
    does not follow, the anchored record that is missing, the first seq a gap in the run
    lacks). ``notes`` say what was not checked and why (archived segments); ``damaged`` that a
    damaged live segment was set aside, so the run lacks what it held (``verify`` exits 1)."""

    path: str
    events: int
    anchors: int  # anchors checked
    unanchored: int  # records after the last anchor (a crash's tail: not provably complete)
    problem: str | None = None
    seq: int | None = None
    notes: tuple[str, ...] = ()
    damaged: str | None = None
    segments: int = 1

    @property
    def ok(self) -> bool:
        return self.problem is None


def check(path: str | Path, key: bytes | None = None, *, key_path: str | Path | None = None,
          anchors: str | Path | None = None, since: int = 0, since_hash: str = GENESIS,
          checkpoints: bool = True, archive: str | Path | None = None) -> Verdict:
    """Check a journal, a whole run of segments as one chain, streaming: every record's HMAC
    chain under the key, each segment following on from the one before (its first seq and
    the chain head it names), every anchor present, every checkpoint's HMAC and place.

    ``key`` defaults to the key file ``key_path`` (default ``key_path_for(path)``); the anchors
    to ``anchors`` (default ``anchor_path_for(path)``). ``since``/``since_hash``: only from the
    record after ``since`` on, which must follow ``since_hash`` (a checkpoint's: the records
    up to it were checked when it was made; ``Journal.check_since``): the sealed segments
    before it are not opened. ``checkpoints`` False: the events and anchors only (a restart
    passes a bad checkpoint over and says so; ``verify`` names it). A run whose first segments
    were archived is checked from the first segment present, on its opening checkpoint (its
    HMAC and anchor), and says so in ``notes``; ``archive`` names the folder of the archived
    segments to check them too. Raises JournalError when the key or the anchor file cannot
    be read at all, or a segment is missing or not a journal; JournalDamaged for a segment
    SQLite cannot read (cut short, damaged)."""
    if key is None:
        key = load_key(key_path if key_path is not None else key_path_for(path))
    anchor_file = Path(anchors) if anchors is not None else anchor_path_for(path)
    name = str(path)
    run = run_segments(path)
    if since:
        run = _after(run, since)
    present = run[0].first if run and run[0].sealed else 0
    with _unpacked(live_path_for(path), None if since else archive,
                   present or 2**62) as unpacked:
        return _check_run([*unpacked, *run], name, key, anchor_file, since, since_hash,
                          checkpoints, archived(path) if not since else [],
                          alone=live_path_for(path) != Path(path))


def _check_run(run: list[Segment], name: str, key: bytes, anchor_file: Path, since: int,
               since_hash: str, checkpoints: bool, arch: list[Archived], *,
               alone: bool = False) -> Verdict:
    """``check`` over the segments of ``run``; ``alone``: a sealed segment named on its own,
    checked from its opening checkpoint."""
    problems: list[str] = []
    if not anchor_file.exists():
        problems.append(f"no anchor file at {anchor_file}: a cut-off tail cannot be ruled out")
        anchor_list: list[Anchor] = []
    elif since:  # from a checkpoint: only the anchors after it, read from the file's end
        anchor_list, problems = read_anchor_tail(anchor_file, key, since + 1)
    else:
        anchor_list, problems = read_anchors(anchor_file, key)
    by_id: dict[str, dict[int, list[Anchor]]] = {}
    for a in anchor_list:
        if a.seq > since or (a.seq == 0 and not since):
            by_id.setdefault(a.journal, {}).setdefault(a.seq, []).append(a)
    several = len(run) > 1
    prev, last, count, n_anchors, anchored_to = since_hash, since, 0, 0, since
    notes: list[str] = []
    damaged: str | None = None
    prev_name = ""

    def verdict(problem: str, seq: int | None) -> Verdict:
        return Verdict(name, count, n_anchors, 0, problem, seq, tuple(notes), damaged, len(run))

    for i, seg in enumerate(run):
        label = f"{seg.path.name}: " if several else ""
        db = _connect_ro(seg.path)  # (a damaged segment raises JournalDamaged, naming it)
        try:
            meta = _meta(seg.path, db)
            if meta.get("format") != FORMAT:
                return verdict(f"{label}a journal without a keyed chain (older format or not "
                               "written by Feltguard): it cannot be checked", None)
            if meta.get("key_id") != key_id(key):
                return verdict(f"{label}written with another key (key id {meta.get('key_id')}"
                               f", this key {key_id(key)})", None)
            if trailing := trailing_bytes(seg.path):
                return verdict(f"{label}{trailing} bytes past the end of its database (garbage "
                               "appended: damaged, or written by something else)", None)
            first, seg_prev = _segment_start(meta)
            jid = meta.get("journal_id", "")
            if meta.get("damaged"):
                damaged = (f"{label}the live segment before it was damaged and set aside as "
                           f"{meta['damaged']}: the run lacks the records it held after seq "
                           f"{first - 1}")
            if i == 0 and not since:
                if first > 1:  # the run's start is not here: archived, or missing
                    covered = [a for a in arch if a.last < first]
                    if alone:
                        notes.append(f"{seg.path.name} alone: checked from its opening "
                                     f"checkpoint at seq {first - 1}")
                    elif not covered or max(a.last for a in covered) != first - 1:
                        return verdict(f"seq 1..{first - 1} missing from the run: no segment "
                                       f"holds them (the first here is {seg.path.name})", 1)
                    else:
                        where = sorted({str(Path(a.file).parent) for a in covered})
                        notes.append(f"seq 1..{first - 1} archived ({len(covered)} segment(s) "
                                     f"in {', '.join(where)}; --archive DIR checks them): "
                                     f"checked from {seg.path.name}'s opening checkpoint at "
                                     f"seq {first - 1}")
                    opening = _opening(seg.path, db, key, first - 1, seg_prev)
                    ids = {jid, meta.get("prev_journal_id", "")}
                    without = ("the segments before it" if alone
                               else "the archived segments")
                    if opening is not None:
                        return verdict(f"{label}{opening}: it cannot be checked without "
                                       f"{without}", first - 1)
                    if not any(a.hash == seg_prev for j in ids
                               for a in by_id.get(j, {}).get(first - 1, [])):
                        return verdict(f"{label}no anchor at its opening checkpoint (seq "
                                       f"{first - 1}): it cannot be checked without "
                                       f"{without}", first - 1)
                    prev, last = seg_prev, first - 1
            elif not (since and first - 1 <= since):
                if first > last + 1:
                    return verdict(f"seq {last + 1}..{first - 1} missing from the run: no "
                                   f"segment holds them (between {prev_name} and "
                                   f"{seg.path.name})", last + 1)
                if first < last + 1:
                    return verdict(f"{seg.path.name} begins at seq {first}, but {prev_name} "
                                   f"ends at seq {last}", first)
                if seg_prev != prev:
                    return verdict(f"{seg.path.name} does not follow on from the chain head of "
                                   f"{prev_name} (a segment replaced or edited)", first)
            wanted = {s: a for s, a in by_id.get(jid, {}).items() if s > since or s == 0}
            hashes: dict[int, str] = {}  # only the anchored seqs are kept: memory stays bounded
            if first - 1 in wanted:
                hashes[first - 1] = seg_prev
            states: dict[int, str] = {}  # each checkpoint's seq: the chain hash it follows
            if checkpoints and not since and "states" in {r[0] for r in db.execute(
                    "SELECT name FROM sqlite_master WHERE type='table'")}:
                for seq, chain, data, mac in _rows(seg.path, db,
                                                   "SELECT seq, hash, data, mac FROM states"):
                    text = _state_text(data)
                    if text is None or not hmac.compare_digest(
                            str(mac), state_mac(key, int(seq), str(chain), text)):
                        return verdict(f"{label}the checkpoint at seq {seq} was not written "
                                       "with the journal's key", int(seq))
                    if int(seq) == first - 1 and str(chain) != seg_prev:
                        return verdict(f"{label}its opening checkpoint does not follow the "
                                       "chain head it follows on from", int(seq))
                    states[int(seq)] = str(chain)
            for seq, line, rec_prev, rec_hash in _rows(
                    seg.path, db, "SELECT seq, line, prev, hash FROM events WHERE seq > ? "
                    "ORDER BY seq", (since,)):
                count += 1
                if seq != last + 1 or rec_prev != prev or not hmac.compare_digest(
                        str(rec_hash), chain_hash(key, prev, line)):
                    why = (f"record seq {seq} follows seq {last}" if seq != last + 1
                           else f"record seq {seq} does not follow the chain (edited, inserted "
                                "or rehashed without the key)")
                    return verdict(f"{label}{why}", int(seq))
                prev, last = str(rec_hash), int(seq)
                if last in wanted:
                    hashes[last] = prev
                if last in states and states[last] != prev:
                    return verdict(f"{label}the checkpoint at seq {last} does not follow the "
                                   "journal's record there", last)
        finally:
            db.close()
        for seq in sorted(wanted):
            if seq == 0:
                n_anchors += len(wanted[seq])
                continue
            a = wanted[seq][0]
            if seq > last:
                return verdict(f"{label}the journal ends at seq {last}, but seq {seq} was "
                               f"anchored ({a.why}{f', hand {a.hand}' if a.hand else ''}): its "
                               "tail was cut off", seq)
            if seq < first - 1:
                continue  # (another run's anchor under the same id: cannot be, but not ours)
            if any(hashes.get(seq) != x.hash for x in wanted[seq]):
                return verdict(f"{label}record seq {seq} differs from its anchor", seq)
            n_anchors += len(wanted[seq])
            anchored_to = max(anchored_to, seq)
        if any(s > last for s in states):
            seq = min(s for s in states if s > last)
            return verdict(f"{label}a checkpoint at seq {seq}, after the journal's end at seq "
                           f"{last}: its tail was cut off", seq)
        prev_name = seg.path.name
    tail = last - anchored_to
    return Verdict(name, count, n_anchors, tail, "; ".join(problems) if problems else None,
                   None, tuple(notes), damaged, len(run))


def _opening(path: Path, db: sqlite3.Connection, key: bytes, seq: int, chain: str) -> str | None:
    """What is wrong with a segment's opening checkpoint (at ``seq``, following ``chain``), or
    None when it checks out (its HMAC under the key, its place)."""
    row = next(_rows(path, db, "SELECT hash, data, mac FROM states WHERE seq = ?", (seq,)), None)
    if row is None:
        return f"no opening checkpoint at seq {seq}"
    text = _state_text(row[1])
    if text is None or not hmac.compare_digest(str(row[2]), state_mac(key, seq, str(row[0]),
                                                                      text)):
        return f"its opening checkpoint at seq {seq} was not written with the journal's key"
    if str(row[0]) != chain:
        return f"its opening checkpoint at seq {seq} does not follow the chain head it names"
    return None


def verify(path: str | Path, key: bytes | None = None) -> int | None:
    """The seq where the journal stops being trustworthy, or None if it checks out. A problem
    without a seq (another key, a missing anchor file) gives 0."""
    verdict = check(path, key)
    if verdict.ok:
        return None
    return verdict.seq if verdict.seq is not None else 0
