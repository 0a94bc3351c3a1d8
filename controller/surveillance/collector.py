"""The surveillance service's intake: every table's Redis stream into the central store.

One thread reads all the tables' streams with one blocking ``XREAD``, each from the entry after
the last seq the store already has for that table, so the store, not Redis, is the position: a
service restarted (or killed) mid-batch reads again from what it stored, and the store's
idempotent ``add`` drops whatever comes twice. Once a batch is stored (committed) its entries
are trimmed from the stream (``XTRIM MINID``): Redis is the link, the store keeps the history.
New tables are found in the set ``feltguard:tables`` that each relay joins. Its connection to
Redis is a ``RedisLink`` (redis_link.py): a link that fails is tried again after a backoff.

Each entry carries the table its relay logged in as (``table``). An entry of stream
``feltguard:events:X`` that was relayed as another table (or says none) is not stored: the
store records it as a problem of X once (``CentralStore.refuse``), the log says it in one line,
and it is trimmed with the batch, so a cardroom ACL set wrong cannot let one table write as
another unseen. The service logs in as the surveillance user, which may read the tables and
their streams and trim them, and nothing else (acl.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from controller.journal import StoredEvent
from controller.surveillance.access import RedisAccess
from controller.surveillance.central_store import CentralStore
from controller.surveillance.redis_link import RedisLink, connect, explain
from controller.surveillance.streams import TABLES, entry_seq, stream_key, table_id

__all__ = ["Collector", "CollectorStatus"]

log = logging.getLogger("feltguard.collector")

PREFIX = stream_key("")
BATCH = 1000


@dataclass(frozen=True)
class CollectorStatus:
    connected: bool
    stored: int  # events stored since start
    duplicates: int  # deliveries of events already stored (dropped)
    error: str
    refused: int = 0  # entries relayed as another table than their stream's (not stored)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class Collector:
    """Reads the streams into ``store`` until stopped; ``access`` is the login (a bare URL:
    none)."""

    def __init__(self, access: RedisAccess | str, store: CentralStore, *, block_ms: int = 500,
                 backoff: tuple[float, float] = (0.2, 5.0),
                 client: Callable[[str], Any] | None = None) -> None:
        self.access = RedisAccess(access) if isinstance(access, str) else access
        self.url = self.access.url
        self.store = store
        self._block_ms = block_ms
        self._stored = 0
        self._duplicates = 0
        self._refused = 0
        self._said: set[tuple[str, str]] = set()  # (stream's table, entries' table) logged
        self._link = RedisLink(
            self.url, name="collector", backoff=backoff,
            client=client or (lambda _: connect(
                self.access, socket_connect_timeout=2, socket_timeout=block_ms / 1000 + 5)),
            greet=self._greet, serve=self._serve, failed=self._failed)

    def start(self) -> Collector:
        self._link.start()
        return self

    def stop(self) -> CollectorStatus:
        self._link.stop(self._block_ms / 1000 + 10)
        return self.status()

    def status(self) -> CollectorStatus:
        return CollectorStatus(self._link.connected, self._stored, self._duplicates,
                               self._link.error, self._refused)

    # --- the collector's thread (the link's rounds) ---------------------------------------

    def _greet(self, client: Any) -> None:
        client.ping()
        log.info("collector: reading the tables' streams at %s", self.access.shown())

    def _serve(self, client: Any) -> None:
        while not self._link.halt.is_set():
            self._round(client)

    def _failed(self, exc: Exception, delay: float, first: bool) -> str:
        text = explain(exc, self.access)
        log.warning("collector: %s; trying again in %.1f s", text, delay)
        return text

    def _round(self, client: Any) -> None:
        tables = sorted(t for t in (_text(m) for m in client.smembers(TABLES)) if _valid(t))
        if not tables:
            self._link.halt.wait(self._block_ms / 1000)
            return
        streams = {stream_key(t): f"0-{self.store.last_seq(t)}" for t in tables}
        for key, entries in client.xread(streams, count=BATCH, block=self._block_ms) or []:
            table = _text(key)[len(PREFIX):]
            events = []
            for eid, f in entries:
                claimed = _text(f.get(b"table", b""))
                if claimed != table:
                    self._refuse(table, entry_seq(eid), claimed)
                    continue
                events.append(StoredEvent(seq=entry_seq(eid), ts=int(f[b"ts"]),
                                          type=_text(f[b"type"]), line=_text(f[b"line"]),
                                          prev=_text(f[b"prev"]), hash=_text(f[b"hash"])))
            stored, duplicates = self.store.add(table, events)
            self._stored += stored
            self._duplicates += duplicates
            # stored and committed, or refused and recorded: the stream need not hold them
            # any longer (a refused entry left there would be read again at every round)
            client.xtrim(stream_key(table), minid=f"0-{entry_seq(entries[-1][0]) + 1}",
                         approximate=False)

    def _refuse(self, table: str, seq: int, claimed: str) -> None:
        self._refused += 1
        self.store.refuse(table, seq, claimed)
        if (table, claimed) not in self._said:
            self._said.add((table, claimed))
            log.warning("collector: stream %s holds entries relayed as %s (first seq %d): "
                        "refused, not stored: is a table's [central] user or table set wrong, "
                        "or the cardroom's ACL?", stream_key(table),
                        f"table {claimed}" if claimed else "no table", seq)


def _valid(table: str) -> bool:
    """A member of the set of tables that names a table (any user allowed to join the set may
    add any member: one that is no table id has no stream to read)."""
    try:
        table_id(table)
    except ValueError:
        return False
    return True
