"""The relay reads a run of journal segments as one journal: a table that rolls its journal over
while the relay forwards it has every event in the central store once, in order, with its
chain, across each rollover (a real redis-server and collector)."""

from __future__ import annotations

from pathlib import Path

from controller.daemon.segments import Rollover
from controller.daemon.table_daemon import TableDaemon
from controller.journal import Journal, read_records, run_segments
from controller.surveillance.central_store import CentralStore
from controller.surveillance.collector import Collector
from controller.surveillance.relay import Relay
from tests.central.servers import needs_redis
from tests.central.test_relay import wait_for
from tests.controller.segment_journal import deal, dealer

pytestmark = needs_redis




def test_the_relay_forwards_across_rollovers(tmp_path: Path, redis_server) -> None:
    path = tmp_path / "table.sqlite"
    store = CentralStore(tmp_path / "central.sqlite")
    collector = Collector(redis_server.url, store, block_ms=100).start()
    with Journal(path) as journal:
        daemon = TableDaemon(journal, rollover=Rollover(2))
        relay = Relay(path, redis_server.url, "seg", backoff=(0.05, 0.2), poll_s=0.1).start()
        daemon.outputs.append(lambda _snap: relay.poke())
        try:
            deal(daemon, dealer(), hands=3)  # a rollover with the relay running
            assert wait_for(lambda: relay.status().forwarded == daemon.seq)
            deal(daemon, dealer(9), hands=4)  # two more
            last = daemon.seq
            assert len(run_segments(path)) >= 4
            want = [(r.seq, r.line, r.hash) for r in read_records(path, after=0, limit=10**6)]
            assert [w[0] for w in want] == list(range(1, last + 1))
            assert wait_for(lambda: [(e.seq, e.line, e.hash) for e in store.stored("seg")] == want)
        finally:
            relay.stop()
            collector.stop()
    [summary] = store.tables()
    assert summary.events == last and summary.problems == ()
