"""The surveillance service's intake: every table's Redis stream into the central store.

One thread reads all the tables' streams with one blocking ``XREAD``, each from the entry after
the last seq the store already has for that table, so the store, not Redis, is the position: a
service restarted (or killed) mid-batch reads again from what it stored, and the store's
idempotent ``add`` drops whatever comes twice. Once a batch is stored (committed) its entries
are trimmed from the stream (``XTRIM MINID``): Redis is the link, the store keeps the history.
New tables are found in the set ``feltguard:tables`` that each relay joins. Its connection to
Redis is a ``RedisLink`` (redis_link.py): a link that fails is tried again after a backoff.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis

from controller.journal import StoredEvent
from controller.surveillance.central_store import CentralStore
from controller.surveillance.redis_link import RedisLink, one_line
from controller.surveillance.streams import TABLES, entry_seq, safe_url, stream_key

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


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class Collector:
    """Reads the streams at ``url`` into ``store`` until stopped."""

    def __init__(self, url: str, store: CentralStore, *, block_ms: int = 500,
                 backoff: tuple[float, float] = (0.2, 5.0),
                 client: Callable[[str], Any] | None = None) -> None:
        self.url = url
        self.store = store
        self._block_ms = block_ms
        self._stored = 0
        self._duplicates = 0
        self._link = RedisLink(
            url, name="collector", backoff=backoff,
            client=client or (lambda u: redis.Redis.from_url(
                u, socket_connect_timeout=2, socket_timeout=block_ms / 1000 + 5)),
            greet=self._greet, serve=self._serve, failed=self._failed)

    def start(self) -> Collector:
        self._link.start()
        return self

    def stop(self) -> CollectorStatus:
        self._link.stop(self._block_ms / 1000 + 10)
        return self.status()

    def status(self) -> CollectorStatus:
        return CollectorStatus(self._link.connected, self._stored, self._duplicates,
                               self._link.error)

    # --- the collector's thread (the link's rounds) ---------------------------------------

    def _greet(self, client: Any) -> None:
        client.ping()
        log.info("collector: reading the tables' streams at %s", safe_url(self.url))

    def _serve(self, client: Any) -> None:
        while not self._link.halt.is_set():
            self._round(client)

    def _failed(self, exc: Exception, delay: float, first: bool) -> str:
        log.warning("collector: %s; trying again in %.1f s", one_line(exc), delay)
        return one_line(exc)

    def _round(self, client: Any) -> None:
        tables = sorted(_text(t) for t in client.smembers(TABLES))
        if not tables:
            self._link.halt.wait(self._block_ms / 1000)
            return
        streams = {stream_key(t): f"0-{self.store.last_seq(t)}" for t in tables}
        for key, entries in client.xread(streams, count=BATCH, block=self._block_ms) or []:
            table = _text(key)[len(PREFIX):]
            events = [StoredEvent(seq=entry_seq(eid), ts=int(f[b"ts"]), type=_text(f[b"type"]),
                                  line=_text(f[b"line"]), prev=_text(f[b"prev"]),
                                  hash=_text(f[b"hash"])) for eid, f in entries]
            stored, duplicates = self.store.add(table, events)
            self._stored += stored
            self._duplicates += duplicates
            # stored and committed: the stream need not hold them any longer
            client.xtrim(stream_key(table), minid=f"0-{self.store.last_seq(table) + 1}",
                         approximate=False)
