"""The table's link to the cardroom: every journaled event forwarded to a Redis stream.

The journal on the table's own disk stays the record (controller/journal.py); the relay only
copies it out, on a thread of its own, so the table never waits on the network: the card
reader's thread journals and applies an event and at most sets a flag here (``poke``). The
relay then reads the journal's new records in batches (``journal.read_records``, on a read-only
connection: WAL readers never block the writer) and appends each to the table's stream
``feltguard:events:TABLE`` with ``XADD`` at the explicit entry id ``0-SEQ``. Its connection to
Redis is a ``RedisLink`` (redis_link.py): a link or a journal read that fails is tried again
after a backoff.

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
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis

from controller.journal import JournalError, last_seq, read_records
from controller.surveillance.redis_link import RedisLink, one_line
from controller.surveillance.streams import TABLES, entry_seq, safe_url, stream_key, table_id

__all__ = ["Relay", "RelayStatus"]

log = logging.getLogger("feltguard.relay")

BATCH = 500  # events per round trip: a catch-up after a long outage goes in batches


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
        self._poll_s = poll_s  # a poke is the usual wake-up; this bounds a missed one
        self._wake = threading.Event()
        self._forwarded = 0
        self._journaled = 0
        # a journal that cannot be read fails the round as Redis does: the relay retries both
        self._link = RedisLink(
            url, name=f"relay-{self.table}", backoff=backoff,
            client=client or (lambda u: redis.Redis.from_url(
                u, socket_connect_timeout=2, socket_timeout=5, health_check_interval=10)),
            greet=self._greet, serve=self._forward, failed=self._failed,
            errors=(redis.RedisError, OSError, JournalError))

    def start(self) -> Relay:
        self._link.start()
        return self

    def poke(self, *_: Any) -> None:
        """New events are in the journal (any thread; the daemon's outputs call it)."""
        self._wake.set()

    def status(self) -> RelayStatus:
        return RelayStatus(self._link.connected, self._forwarded, self._journaled,
                           self._link.error)

    def stop(self, drain_s: float = 0.0) -> RelayStatus:
        """Stop, first giving the relay up to ``drain_s`` to forward what the journal has."""
        deadline = time.monotonic() + drain_s
        while drain_s and time.monotonic() < deadline:
            self._journaled = self._last_journaled()
            if self._link.connected and self._forwarded >= self._journaled:
                break
            self._wake.set()
            time.sleep(0.05)
        self._link.stop(10, self._wake)
        return self.status()

    # --- the relay's thread (the link's rounds) -------------------------------------------

    def _greet(self, client: Any) -> None:
        self._forwarded = self._stream_top(client)
        client.sadd(TABLES, self.table)
        log.info("relay %s: connected to %s, the stream has seq %d", self.table,
                 safe_url(self.url), self._forwarded)

    def _failed(self, exc: Exception, delay: float, first: bool) -> str:
        if isinstance(exc, JournalError):  # a reader cannot disturb the writer
            log.warning("relay %s: reading %s", self.table, exc)
            return f"journal: {exc}"
        if first:
            log.warning("relay %s: %s; the table goes on, and catches up later",
                        self.table, one_line(exc))
        return one_line(exc)

    def _stream_top(self, client: Any) -> int:
        try:
            info = client.xinfo_stream(self.key)
        except redis.ResponseError:  # no such stream yet: nothing forwarded
            return 0
        return entry_seq(info["last-generated-id"])

    def _forward(self, client: Any) -> None:
        while not self._link.halt.is_set():
            records = read_records(self.journal, after=self._forwarded, limit=BATCH)
            if not records:
                self._wake.wait(self._poll_s)
                self._wake.clear()
                continue
            self._journaled = max(self._journaled, records[-1].seq)
            pipe = client.pipeline(transaction=False)
            for r in records:
                pipe.xadd(self.key, {"seq": r.seq, "ts": r.ts, "type": r.type, "line": r.line,
                                     "prev": r.prev, "hash": r.hash}, id=f"0-{r.seq}")
            answers = pipe.execute(raise_on_error=False)
            refused = [a for a in answers if isinstance(a, Exception)]
            if refused:  # already there (another relay of this table, or a lost reply)
                self._forwarded = self._stream_top(client)
                log.info("relay %s: %d entries were already in the stream; on from seq %d",
                         self.table, len(refused), self._forwarded)
            else:
                self._forwarded = records[-1].seq

    def _last_journaled(self) -> int:
        try:
            return last_seq(self.journal)
        except JournalError:
            return self._journaled
