"""The table's relay and the central collector against a real redis-server: every journaled
event reaches the central store once, in order, with its chain, through restarts of the relay,
of Redis and of the collector, and a gap or a forged entry is named, not filled."""

from __future__ import annotations

import logging
import sqlite3
import time
from pathlib import Path

import pytest
import redis

from controller.events import iter_scenario
from controller.journal import Journal, StoredEvent
from controller.surveillance.central_store import CentralStore
from controller.surveillance.collector import Collector
from controller.surveillance.relay import Relay
from controller.surveillance.streams import safe_url, stream_key, table_id
from tests.central.servers import needs_redis

pytestmark = needs_redis

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
WAIT = 20.0


def journal_with(path: Path, scenario: str = "flop_premature.jsonl") -> Journal:
    journal = Journal(path)
    for event in iter_scenario(SCENARIOS / scenario):
        journal.append(event)
    return journal


def journaled(path: Path) -> list[tuple[int, str, str]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT seq, line, hash FROM events ORDER BY seq").fetchall()


def in_store(store: CentralStore, table: str) -> list[tuple[int, str, str]]:
    return [(e.seq, e.line, e.hash) for e in store.stored(table)]


def wait_for(predicate, timeout: float = WAIT) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def test_every_event_reaches_the_store_once_through_restarts(tmp_path, redis_server):
    path = tmp_path / "t1.sqlite"
    journal = journal_with(path)
    want = journaled(path)
    store = CentralStore(tmp_path / "central.sqlite")
    collector = Collector(redis_server.url, store, block_ms=100).start()
    relay = Relay(path, redis_server.url, "t1", backoff=(0.05, 0.2)).start()
    try:
        assert wait_for(lambda: in_store(store, "t1") == want)
        relay.stop()
        # a second relay of the same table (a restart) sends nothing twice
        relay = Relay(path, redis_server.url, "t1", backoff=(0.05, 0.2)).start()
        assert wait_for(lambda: relay.status().connected)
        assert relay.status().forwarded == want[-1][0]
        # Redis killed and started again (its append-only file kept what it acknowledged),
        # while the table goes on dealing
        redis_server.kill()
        more = list(iter_scenario(SCENARIOS / "flop_premature.jsonl"))
        last = want[-1][0]
        for n, event in enumerate(more, 1):
            journal.append(type(event)(**{**event.__dict__, "seq": last + n}))
        relay.poke()
        assert wait_for(lambda: not relay.status().connected, 5)
        redis_server.start()
        want = journaled(path)
        assert wait_for(lambda: in_store(store, "t1") == want)
    finally:
        relay.stop()
        collector.stop()
        journal.close()
    client = redis.Redis.from_url(redis_server.url)
    info = client.xinfo_stream(stream_key("t1"))
    assert info["entries-added"] == len(want)  # each event added to the stream exactly once
    assert info["length"] == 0  # stored, then trimmed: Redis is the link, not the store
    [summary] = store.tables()
    assert summary.events == len(want) and summary.problems == ()


def test_a_killed_collector_resumes_from_its_store_and_drops_what_comes_twice(tmp_path,
                                                                             redis_server):
    path = tmp_path / "t2.sqlite"
    journal_with(path).close()
    want = journaled(path)
    client = redis.Redis.from_url(redis_server.url)
    store = CentralStore(tmp_path / "central.sqlite")
    relay = Relay(path, redis_server.url, "t2").start()
    assert wait_for(lambda: relay.status().forwarded == want[-1][0])
    relay.stop()
    # the collector stored the first half, and died before it trimmed them
    entries = client.xrange(stream_key("t2"))
    half = [StoredEvent(seq=int(f[b"seq"]), ts=int(f[b"ts"]), type=f[b"type"].decode(),
                        line=f[b"line"].decode(), prev=f[b"prev"].decode(),
                        hash=f[b"hash"].decode()) for _, f in entries[:len(entries) // 2]]
    assert store.add("t2", half) == (len(half), 0)
    store.close()
    store = CentralStore(tmp_path / "central.sqlite")  # restarted: on from what it stored
    collector = Collector(redis_server.url, store, block_ms=100).start()
    try:
        assert wait_for(lambda: in_store(store, "t2") == want)
    finally:
        collector.stop()
    # a delivery of what is stored is dropped and counted
    assert store.add("t2", half[:3]) == (0, 3)
    [summary] = store.tables()
    assert summary.duplicates == 3 and summary.events == len(want) and summary.problems == ()


def test_a_gap_or_an_entry_off_the_chain_is_named(tmp_path):
    store = CentralStore(tmp_path / "central.sqlite")
    first = StoredEvent(1, 0, "table.setup", "{}", "0" * 64, "a" * 64)
    assert store.add("t3", [first]) == (1, 0)
    store.add("t3", [StoredEvent(2, 0, "x", "{}", "f" * 64, "b" * 64),
                     StoredEvent(5, 0, "x", "{}", "b" * 64, "c" * 64)])
    [summary] = store.tables()
    assert summary.problems == ("seq 2 does not follow the chain of seq 1",
                                "seq 5 follows 2: 2 events missing")
    with sqlite3.connect(store.path) as db, pytest.raises(sqlite3.IntegrityError,
                                                           match="append-only"):
        db.execute("DELETE FROM events")


def test_the_table_goes_on_while_redis_is_unreachable(tmp_path, caplog):
    path = tmp_path / "t4.sqlite"
    journal = journal_with(path)
    caplog.set_level(logging.DEBUG)
    relay = Relay(path, "redis://feltguard:s3cret-pw@127.0.0.1:1/0", "t4",
                  backoff=(0.05, 0.1)).start()
    try:
        assert wait_for(lambda: relay.status().error != "", 5)
        # the table journals on while its relay cannot reach Redis (the daemon's output only
        # pokes the relay, which reads the journal on its own thread)
        last = journal.last_seq
        for n, event in enumerate(iter_scenario(SCENARIOS / "flop_premature.jsonl"), 1):
            journal.append(type(event)(**{**event.__dict__, "seq": last + n}))
            relay.poke()
        assert journal.last_seq == 2 * last
        status = relay.status()
        assert not status.connected and status.forwarded == 0
        assert "\n" not in status.error and "s3cret-pw" not in status.error
    finally:
        relay.stop()
        journal.close()
    assert "the table goes on, and catches up later" in caplog.text
    assert "s3cret-pw" not in caplog.text  # no secret in a log line
    assert safe_url("rediss://feltguard:s3cret-pw@host:6380/0") == "rediss://***@host:6380/0"


@pytest.mark.parametrize("bad", ["", "T1", "a b", "x" * 33, "tab/le"])
def test_a_bad_table_id_is_refused_in_one_line(bad):
    with pytest.raises(ValueError, match=r"^table id must be 1-32 of a-z, 0-9"):
        table_id(bad)
