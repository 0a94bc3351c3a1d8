"""Device health end to end, every part real: a simulated reader on a pty (hardware/
reader-protocol.md) read by the real CardReader, the health monitor wired as ``feltguard run``
wires it (``runner._health_monitor``), the daemon's one submit path into a real SQLite journal,
the LEDs on gpiozero mock pins (``runner.build_leds``), and ``/healthz`` over HTTP from the real
server. Unplug -> READER_OFFLINE journaled, /healthz down, the alert blinking fast; plug back ->
READER_RESTORED; heartbeats stop -> READER_SILENT; garbage above the limit -> READER_NOISY; an
antenna fault in the heartbeat's STATUS -> READER_FAULT.
And ``run_table`` itself journals a reader that is not there as offline."""

from __future__ import annotations

import io
import json
import sqlite3
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.config import Config, from_mapping
from controller.daemon.table_daemon import TableDaemon
from controller.journal import Journal, JournalError, read_events
from controller.processes.table import _health_monitor, build_leds, run_table
from controller.sensing.cards import Sensing
from display.server import create_app, run_server
from drivers.card_reader import CardReader
from drivers.simulated_reader import SimulatedReader

HEARTBEAT_S = 0.1  # the simulated reader beats 5x faster than a real one; the config agrees
BAD_FRAME = bytes.fromhex("A5050201000700" "0000")  # a heartbeat whose CRC is wrong


def wait_for(predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = predicate()
        if got:
            return got
        time.sleep(0.02)
    return predicate()


def journaled(path: Path) -> list[tuple[str, str]]:
    """The journal's reader.health states and the findings it recorded, in order."""
    try:
        states = [("reader.health", e.body.state) for e in read_events(path)
                  if e.type == "reader.health"]  # type: ignore[union-attr]
        with sqlite3.connect(path) as db:
            codes = [("finding", c) for (c,) in db.execute("SELECT code FROM findings ORDER BY "
                                                           "rowid")]
    except (OSError, JournalError, sqlite3.Error):
        return []
    return states + codes


class Table:
    """The daemon and its parts, wired as controller/processes/table.py wires them."""

    def __init__(self, tmp_path: Path, link: Path) -> None:
        self.config: Config = from_mapping({
            "readers": [{"url": str(link)}],
            "health": {"heartbeat_ms": int(HEARTBEAT_S * 1000), "bad_frames_per_minute": 5},
            "leds": {"pin_factory": "mock"},
        })
        self.journal_path = tmp_path / "journal.sqlite"
        self.journal = Journal(self.journal_path)
        self.daemon = TableDaemon(self.journal, sensing=Sensing(dict(self.config.antennas)))
        self.leds, output = build_leds(self.config)
        assert output is not None
        self.daemon.outputs.append(output)
        app, live, publisher = create_app(dealer_token="t0ken", journal_health=lambda: {
            "ok": self.daemon.journal_error is None, "last_seq": self.daemon.seq})
        self.daemon.outputs.append(publisher.publish)
        self.server = run_server(app, live, "127.0.0.1", 0)
        self.readers = [CardReader(str(link), self.daemon.on_read, backoff=(0.01, 0.05))]
        for r in self.readers:
            r.start()
        self.monitor = _health_monitor(self.config, self.daemon, self.readers)
        self.monitor.start()

    def settled(self) -> None:
        """Wait for the event just journaled to be applied and shown: the daemon journals an
        event, then applies it and calls its outputs (snapshot, LEDs, /healthz), all under its
        lock, so taking the lock once is the barrier."""
        assert self.daemon.wait_until(lambda: True, 5)

    def healthz(self) -> dict[str, Any]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.server.port}/healthz",
                                    timeout=5) as reply:
            assert reply.status == 200
            return json.load(reply)  # type: ignore[no-any-return]

    def alert_changes(self, seconds: float) -> int:
        """How often the table alert LED's pin changed over ``seconds``."""
        changes, last = 0, self.leds.is_lit(None, "alert")
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            now = self.leds.is_lit(None, "alert")
            changes += now != last
            last = now
            time.sleep(0.005)
        return changes

    def close(self) -> None:
        self.monitor.stop()
        for r in self.readers:
            r.stop()
        self.server.stop()
        self.leds.close()
        self.journal.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Table, SimulatedReader]]:
    link = tmp_path / "pokershoe"
    shoe = SimulatedReader(link, reader_id=1)
    t = Table(tmp_path, link)
    try:
        yield t, shoe
    finally:
        t.close()
        shoe.close()


def test_unplug_silence_and_noise_reach_the_journal_healthz_and_leds(
        table: tuple[Table, SimulatedReader]) -> None:
    t, shoe = table
    assert wait_for(t.readers[0].connected.is_set)
    shoe.start_heartbeats(HEARTBEAT_S, reader=1)
    assert wait_for(lambda: ("reader.health", "ok") in journaled(t.journal_path))
    t.settled()
    assert t.healthz()["status"] == "ok"
    assert t.healthz()["readers"] == [
        {"reader": 1, "name": "shoe", "state": "ok", "since": t.daemon.last_snapshot[
            "devices"][0]["since"]}]
    assert t.healthz()["journal"] == {"ok": True, "last_seq": t.daemon.seq}
    assert t.leds.alert_rhythm is None and not t.leds.is_lit(None, "alert")

    # unplugged: journaled, then the finding; /healthz down; the alert blinks fast
    shoe.unplug()
    assert wait_for(lambda: ("finding", "READER_OFFLINE") in journaled(t.journal_path))
    t.settled()
    assert journaled(t.journal_path)[:2] == [("reader.health", "ok"),
                                             ("reader.health", "offline")]
    offline = next(f for f in t.daemon.last_snapshot["findings"]
                   if f["code"] == "READER_OFFLINE")
    assert offline["message"].startswith("The shoe reader (reader 1) is offline: cards dealt "
                                         "now are not seen. Stop dealing")
    health = t.healthz()
    assert health["status"] == "down" and health["readers"][0]["state"] == "offline"
    assert t.leds.alert_rhythm == "fast"
    assert t.alert_changes(0.6) >= 4  # 0.1 s on, 0.1 s off

    # plugged back: restored; the table's findings still hold the outage (amber: slow)
    shoe.plug()
    assert wait_for(lambda: ("finding", "READER_RESTORED") in journaled(t.journal_path))
    t.settled()
    assert t.healthz()["status"] == "ok"
    assert t.leds.alert_rhythm == "slow"

    # heartbeats stop: silent after three missed
    shoe.stop_heartbeats()
    assert wait_for(lambda: ("finding", "READER_SILENT") in journaled(t.journal_path))
    t.settled()
    assert t.healthz()["status"] == "down"
    assert t.leds.alert_rhythm == "fast"
    shoe.start_heartbeats(HEARTBEAT_S, reader=1)
    assert wait_for(lambda: journaled(t.journal_path).count(("finding", "READER_RESTORED")) == 2)
    t.settled()

    # garbage above 5 bad frames a minute: noisy, a warning; /healthz degraded
    for _ in range(8):
        shoe.send_raw(BAD_FRAME)
    assert wait_for(lambda: ("finding", "READER_NOISY") in journaled(t.journal_path))
    t.settled()
    assert t.healthz()["status"] == "degraded"
    assert t.daemon.last_snapshot["devices"][0]["state"] == "noisy"
    assert "bad frames in the last minute (limit 5)" in \
        t.daemon.last_snapshot["devices"][0]["detail"]

    # the heartbeat's STATUS reports an antenna fault: a device fault, louder than the noise
    shoe.stop_heartbeats()

    def beat_until(status: int, done: Callable[[], bool]) -> bool:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not done():
            shoe.send_heartbeat(1, status=status)
            time.sleep(HEARTBEAT_S / 2)
        return done()

    assert beat_until(0x01, lambda: ("finding", "READER_FAULT") in journaled(t.journal_path))
    t.settled()
    fault = t.daemon.last_snapshot["devices"][0]
    assert fault["state"] == "fault" and "an antenna is open or shorted" in fault["detail"]
    assert t.healthz()["status"] == "down"
    assert t.leds.alert_rhythm == "fast"
    assert beat_until(0x00, lambda: t.daemon.last_snapshot["devices"][0]["state"] == "noisy")

    # one event per change, never one per poll
    states = [s for kind, s in journaled(t.journal_path) if kind == "reader.health"]
    assert states == ["ok", "offline", "ok", "silent", "ok", "noisy", "fault", "noisy"]


@pytest.mark.parametrize(("device", "said"), [
    ('[[readers]]\nurl = "{tmp}/no-such-shoe"\n',
     "! READER_OFFLINE: The shoe reader (reader 1) is offline"),
    ('[[chip_readers]]\nurl = "{tmp}/no-such-tray"\nkind = "tray"\nid = 7\n',
     "! READER_OFFLINE: The counting tray (reader 7) is offline: the tray's counts now are "
     "not seen"),
], ids=["shoe", "counting tray"])
def test_run_table_journals_a_missing_device_as_offline(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        device: str, said: str) -> None:
    # READY=1 waits for the missing device; the stop below must end that wait, not outlast it
    # (it once held every such stop for READY_WAIT_S)
    monkeypatch.setattr("controller.processes.table.READY_WAIT_S", 600.0)
    journal = tmp_path / "journal.sqlite"
    config_file = tmp_path / "table.toml"
    config_file.write_text(device.format(tmp=tmp_path) + f"""
[health]
heartbeat_ms = 100

[leds]
enabled = false

[display]
port = 0

[journal]
path = "{journal}"
""")
    from controller.config import load

    halt = threading.Event()
    runner = threading.Thread(target=run_table, args=(load(config_file), io.StringIO(""), halt),
                              daemon=True)  # (held in that wait, it must not hold pytest too)
    runner.start()
    try:
        assert wait_for(lambda: ("finding", "READER_OFFLINE") in journaled(journal))
    finally:
        halt.set()
        runner.join(60)
    assert not runner.is_alive()
    # stopping the table is not journaled as the reader going offline again
    assert [s for k, s in journaled(journal) if k == "reader.health"] == ["offline"]
    # and the console said it as it said any finding
    assert said in capsys.readouterr().out
