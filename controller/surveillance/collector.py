"""The surveillance service's intake: every table's Redis stream into the central store.

One thread reads all the tables' streams with one blocking ``XREAD``, each from the entry after
the last seq the store already has for that table, so the store, not Redis, is the position: a
service restarted (or killed) mid-batch reads again from what it stored, and the store's
idempotent ``add`` drops whatever comes twice. Once a batch is stored (committed) its entries
are trimmed from the stream (``XTRIM MINID``): Redis is the link, the store keeps the history.
New tables are found in the set ``feltguard:tables`` that each relay joins.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis

from controller.surveillance.central_store import CentralStore, StoredEvent
from controller.surveillance.relay import TABLES, entry_seq, safe_url, stream_key

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
        self._backoff = backoff
        self._client = client or (lambda u: redis.Redis.from_url(
            u, socket_connect_timeout=2, socket_timeout=block_ms / 1000 + 5))
        self._halt = threading.Event()
        self._thread: threading.Thread | None = None
        self._connected = False
        self._stored = 0
        self._duplicates = 0
        self._error = ""

    def start(self) -> Collector:
        self._thread = threading.Thread(target=self._run, name="collector", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> CollectorStatus:
        self._halt.set()
        if self._thread is not None:
            self._thread.join(self._block_ms / 1000 + 10)
        return self.status()

    def status(self) -> CollectorStatus:
        return CollectorStatus(self._connected, self._stored, self._duplicates, self._error)

    def _run(self) -> None:
        delay = self._backoff[0]
        while not self._halt.is_set():
            client = None
            try:
                client = self._client(self.url)
                client.ping()
                self._connected, self._error, delay = True, "", self._backoff[0]
                log.info("collector: reading the tables' streams at %s", safe_url(self.url))
                while not self._halt.is_set():
                    self._round(client)
            except redis.RedisError as exc:
                self._connected, self._error = False, " ".join(str(exc).split())
                log.warning("collector: %s; trying again in %.1f s", self._error, delay)
            finally:
                if client is not None:
                    client.close()
            self._halt.wait(delay)
            delay = min(delay * 2, self._backoff[1])

    def _round(self, client: Any) -> None:
        tables = sorted(_text(t) for t in client.smembers(TABLES))
        if not tables:
            self._halt.wait(self._block_ms / 1000)
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
