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
there, not silently filled. It carries too the table its login is for (``table``: the ACL user
``table-ID`` gives ``ID``), and the collector refuses an entry whose stream is another table's:
a cardroom ACL set wrong cannot let one table write as another unseen.

The relay logs in as the table's own ACL user (access.py, acl.py): it may only add to its own
stream, read that stream's last id, and join the set of tables. Redis refusing the login, the
CA refusing the server's certificate or the ACL refusing a command ends the round as a network
failure does: said in one line naming the setting, tried again later, the table dealing on.
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
from controller.surveillance.access import RedisAccess, table_user
from controller.surveillance.redis_link import LINK_ERRORS, RedisLink, connect, explain
from controller.surveillance.streams import TABLES, entry_seq, stream_key, table_id

__all__ = ["Relay", "RelayStatus"]

log = logging.getLogger("feltguard.relay")

BATCH = 500  # events per round trip: a catch-up after a long outage goes in batches


class _Refused(redis.RedisError):
    """The cardroom's ACL refused the relay a command on the table's own stream or set: the
    login is another table's (or the ACL is wrong). Ends the round like any link failure."""


@dataclass(frozen=True)
class RelayStatus:
    """What the relay has done, for STATUS and /healthz: connected now, the last seq the
    stream has, and the last seq the journal has (the difference is waiting to go)."""

    connected: bool
    forwarded: int
    journaled: int
    error: str


class Relay:
    """Forwards the journal at ``journal`` to Redis as table ``table``; ``access`` is the
    login (a bare URL: no login, as the user ``table-TABLE``)."""

    def __init__(self, journal: str | Path, access: RedisAccess | str, table: str, *,
                 backoff: tuple[float, float] = (0.2, 5.0), poll_s: float = 1.0,
                 client: Callable[[str], Any] | None = None) -> None:
        self.journal = Path(journal)
        self.table = table_id(table)
        if isinstance(access, str):
            access = RedisAccess(access, user=table_user(self.table))
        self.access = access
        self.url = access.url
        self.key = stream_key(self.table)
        # the table the login is for, in every entry: the collector checks it against the
        # stream (a user not named table-ID gives its own name, which no stream matches)
        self.login_table = (access.user or table_user(self.table)).removeprefix("table-")
        self._said = ""  # the last failure logged: a new one is said, a repeat is not
        self._poll_s = poll_s  # a poke is the usual wake-up; this bounds a missed one
        self._wake = threading.Event()
        self._forwarded = 0
        self._journaled = 0
        # a journal that cannot be read fails the round as Redis does: the relay retries both
        self._link = RedisLink(
            self.url, name=f"relay-{self.table}", backoff=backoff,
            client=client or (lambda _: connect(
                self.access, socket_connect_timeout=2, socket_timeout=5,
                health_check_interval=10)),
            greet=self._greet, serve=self._forward, failed=self._failed,
            errors=(*LINK_ERRORS, JournalError))

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
        try:
            client.sadd(TABLES, self.table)
        except redis.exceptions.NoPermissionError:
            raise _Refused(f"may not join the set {TABLES}") from None
        self._said = ""
        log.info("relay %s: connected to %s, the stream has seq %d", self.table,
                 self.access.shown(), self._forwarded)

    def _failed(self, exc: Exception, delay: float, first: bool) -> str:
        if isinstance(exc, JournalError):  # a reader cannot disturb the writer
            log.warning("relay %s: reading %s", self.table, exc)
            return f"journal: {exc}"
        if isinstance(exc, _Refused):
            n = self.access.names
            text = (f"user {self.access.user or 'default'} {exc}: the cardroom's ACL lets "
                    f"each table's user write its own stream only ({n.user} is "
                    f"{self.access.user or 'not set'}, {n.table} is {self.table}: the user "
                    f"for it is {table_user(self.table)})")
        else:
            text = explain(exc, self.access)
        # an outage is said once; a different failure (the link back but the login refused)
        # is said too
        if first or text != self._said:
            self._said = text
            log.warning("relay %s: %s; the table goes on, and catches up later",
                        self.table, text)
        return text

    def _stream_top(self, client: Any) -> int:
        try:
            info = client.xinfo_stream(self.key)
        except redis.exceptions.NoPermissionError:
            raise _Refused(f"may not read stream {self.key}") from None
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
                                     "prev": r.prev, "hash": r.hash, "table": self.login_table},
                          id=f"0-{r.seq}")
            answers = pipe.execute(raise_on_error=False)
            if any(isinstance(a, redis.exceptions.NoPermissionError) for a in answers):
                raise _Refused(f"may not write stream {self.key}")
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
