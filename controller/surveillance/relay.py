"""The table's link to the cardroom: every journaled event forwarded to a Redis stream.

The journal on the table's own disk stays the record (controller/journal.py); the relay only
copies it out, on a thread of its own, so the table never waits on the network: the card
reader's thread journals and applies an event and at most sets a flag here (``poke``). The
relay then reads the journal's new rows through its own read-only connection (WAL: readers
never block the writer) and appends each to the table's stream ``feltguard:events:TABLE`` with
``XADD`` at the explicit entry id ``0-SEQ``.

That id is what makes the link exactly-once:

- Redis refuses an ``XADD`` whose id is not above the stream's last one, so an event can never
  be in the stream twice, whatever the retries;
- on every (re)connect the relay asks the stream for its last id (``XINFO STREAM``'s
  ``last-generated-id``, kept even when the central service has trimmed the entries it stored)
  and goes on from the next seq in the journal, so nothing is lost either: a link down for an
  hour, a Redis restart, a table restarted while the link was down all end in the same catch-up.

Each entry carries the journal's own line and its chain hashes (``prev``, ``hash``): the central
store checks that each entry's ``prev`` is the hash of the one before, so a gap would be named
there, not silently filled.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis

__all__ = ["TABLES", "Relay", "RelayStatus", "safe_url", "stream_key", "table_id"]

log = logging.getLogger("feltguard.relay")

TABLES = "feltguard:tables"  # the set of table ids that ever relayed
BATCH = 500  # events per round trip: a catch-up after a long outage goes in batches
_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_")


def table_id(value: str) -> str:
    """A table's id as streams and the store name it; ValueError names what is wrong."""
    if not isinstance(value, str) or not 1 <= len(value) <= 32 or not set(value) <= _ID_CHARS:
        raise ValueError(f"table id must be 1-32 of a-z, 0-9, '-' and '_', got {value!r}")
    return value


def stream_key(table: str) -> str:
    return f"feltguard:events:{table}"


def entry_seq(entry_id: bytes | str) -> int:
    """The journal seq of a stream entry id ``0-SEQ``."""
    text = entry_id.decode() if isinstance(entry_id, bytes) else entry_id
    return int(text.split("-", 1)[1])


@dataclass(frozen=True)
class RelayStatus:
    """What the relay has done, for STATUS and /healthz: connected now, the last seq the
    stream has, and the last seq the journal has (the difference is waiting to go)."""

    connected: bool
    forwarded: int
    journaled: int
    error: str


class Relay:
    """Forwards the journal at ``journal`` to Redis at ``url`` as table ``table``."""

    def __init__(self, journal: str | Path, url: str, table: str, *,
                 backoff: tuple[float, float] = (0.2, 5.0), poll_s: float = 1.0,
                 client: Callable[[str], Any] | None = None) -> None:
        self.journal = Path(journal)
        self.url = url
        self.table = table_id(table)
        self.key = stream_key(self.table)
        self._backoff = backoff
        self._poll_s = poll_s  # a poke is the usual wake-up; this bounds a missed one
        self._client = client or (lambda u: redis.Redis.from_url(
            u, socket_connect_timeout=2, socket_timeout=5, health_check_interval=10))
        self._wake = threading.Event()
        self._halt = threading.Event()
        self._thread: threading.Thread | None = None
        self._db: sqlite3.Connection | None = None
        self._forwarded = 0
        self._journaled = 0
        self._connected = False
        self._error = ""

    def start(self) -> Relay:
        self._thread = threading.Thread(target=self._run, name=f"relay-{self.table}",
                                        daemon=True)
        self._thread.start()
        return self

    def poke(self, *_: Any) -> None:
        """New events are in the journal (any thread; the daemon's outputs call it)."""
        self._wake.set()

    def status(self) -> RelayStatus:
        return RelayStatus(self._connected, self._forwarded, self._journaled, self._error)

    def stop(self, drain_s: float = 0.0) -> RelayStatus:
        """Stop, first giving the relay up to ``drain_s`` to forward what the journal has."""
        deadline = time.monotonic() + drain_s
        while drain_s and time.monotonic() < deadline:
            self._journaled = self._last_journaled()
            if self._connected and self._forwarded >= self._journaled:
                break
            self._wake.set()
            time.sleep(0.05)
        self._halt.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(10)
        if self._db is not None:
            self._db.close()
            self._db = None
        return self.status()

    # --- the relay's thread --------------------------------------------------------------

    def _run(self) -> None:
        delay = self._backoff[0]
        while not self._halt.is_set():
            client = None
            try:
                client = self._client(self.url)
                self._forwarded = self._stream_top(client)
                client.sadd(TABLES, self.table)
                self._connected, self._error, delay = True, "", self._backoff[0]
                log.info("relay %s: connected to %s, the stream has seq %d", self.table,
                         safe_url(self.url), self._forwarded)
                self._forward(client)
            except (redis.RedisError, OSError) as exc:
                if self._connected or not self._error:
                    log.warning("relay %s: %s; the table goes on, and catches up later",
                                self.table, _one_line(exc))
                self._connected, self._error = False, _one_line(exc)
            except sqlite3.Error as exc:  # the journal: a reader cannot disturb the writer
                self._connected, self._error = False, f"journal: {exc}"
                log.warning("relay %s: reading %s: %s", self.table, self.journal, exc)
            finally:
                if client is not None:
                    client.close()
            self._halt.wait(delay)
            delay = min(delay * 2, self._backoff[1])

    def _stream_top(self, client: Any) -> int:
        try:
            info = client.xinfo_stream(self.key)
        except redis.ResponseError:  # no such stream yet: nothing forwarded
            return 0
        return entry_seq(info["last-generated-id"])

    def _forward(self, client: Any) -> None:
        while not self._halt.is_set():
            rows = self._rows_after(self._forwarded)
            if not rows:
                self._wake.wait(self._poll_s)
                self._wake.clear()
                continue
            pipe = client.pipeline(transaction=False)
            for seq, ts, kind, line, prev, digest in rows:
                pipe.xadd(self.key, {"seq": seq, "ts": ts, "type": kind, "line": line,
                                     "prev": prev, "hash": digest}, id=f"0-{seq}")
            answers = pipe.execute(raise_on_error=False)
            refused = [a for a in answers if isinstance(a, Exception)]
            if refused:  # already there (another relay of this table, or a lost reply)
                self._forwarded = self._stream_top(client)
                log.info("relay %s: %d entries were already in the stream; on from seq %d",
                         self.table, len(refused), self._forwarded)
            else:
                self._forwarded = rows[-1][0]

    def _rows_after(self, seq: int) -> list[tuple[int, int, str, str, str, str]]:
        if self._db is None:
            self._db = sqlite3.connect(f"file:{self.journal}?mode=ro", uri=True,
                                       check_same_thread=False)
        rows = self._db.execute("SELECT seq, ts, type, line, prev, hash FROM events "
                                "WHERE seq > ? ORDER BY seq LIMIT ?", (seq, BATCH)).fetchall()
        if rows:
            self._journaled = max(self._journaled, rows[-1][0])
        return rows

    def _last_journaled(self) -> int:
        try:
            db = sqlite3.connect(f"file:{self.journal}?mode=ro", uri=True)
            try:
                row = db.execute("SELECT max(seq) FROM events").fetchone()
            finally:
                db.close()
        except sqlite3.Error:
            return self._journaled
        return int(row[0] or 0)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def safe_url(url: str) -> str:
    """The URL without its credentials (``redis://user:secret@host``), for a log or a line
    printed: no secret lands in a log."""
    if "@" not in url:
        return url
    scheme, _, rest = url.partition("://")
    return f"{scheme}://***@{rest.rsplit('@', 1)[1]}"
