"""Chip-device health end to end, every part real: the simulated chip reader on a pty
(hardware/chip-protocol.md) read by the real ChipReader, the health monitor wired as
``feltguard run`` wires it (``runner._health_monitor`` with the ``[[chip_readers]]``), the
daemon's one submit path into a real SQLite journal. Unplug -> READER_OFFLINE naming the chip
reader, plug back -> READER_RESTORED; an antenna fault in the chip heartbeat -> READER_FAULT;
scan cycles lost for a missing part above the limit -> READER_NOISY. And ``run_table`` journals
a counting tray that is not there as offline, under its configured id."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from controller.config import Config, from_mapping
from controller.daemon.table_daemon import TableDaemon
from controller.journal import Journal
from controller.processes.table import _health_monitor
from drivers.chip_reader import ChipReader
from drivers.simulated_chip_reader import SimulatedChipReader
from tests.test_reader_health_e2e import HEARTBEAT_S, journaled, wait_for


class ChipTable:
    """The daemon, one chip reader and the health monitor, as controller/processes/table.py wires
    them."""

    def __init__(self, tmp_path: Path, link: Path) -> None:
        self.config: Config = from_mapping({
            "chip_readers": [{"url": str(link), "cycle_ms": 50}],
            "health": {"heartbeat_ms": int(HEARTBEAT_S * 1000),
                       "incomplete_cycles_per_minute": 5},
        })
        self.journal_path = tmp_path / "journal.sqlite"
        self.journal = Journal(self.journal_path)
        self.daemon = TableDaemon(self.journal)
        self.chips = ChipReader(str(link), lambda inventory: None, backoff=(0.01, 0.05))
        self.chips.start()
        self.monitor = _health_monitor(self.config, self.daemon, [], [self.chips])
        self.monitor.start()

    def settled(self) -> None:
        """Wait for the event just journaled to be applied and shown: the daemon journals an
        event, then applies it and calls its outputs (snapshot, LEDs, /healthz), all under its
        lock, so taking the lock once is the barrier."""
        assert self.daemon.wait_until(lambda: True, 5)

    def device(self) -> dict[str, object]:
        return next(d for d in self.daemon.last_snapshot["devices"] if d["reader"] == 3)

    def close(self) -> None:
        self.monitor.stop()
        self.chips.stop()
        self.journal.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[ChipTable, SimulatedChipReader]]:
    link = tmp_path / "feltchips"
    device = SimulatedChipReader(link, antennas=(1, 2), cycle_ms=50)
    t = ChipTable(tmp_path, link)
    try:
        yield t, device
    finally:
        t.close()
        device.close()


def test_a_chip_reader_unplugged_faulty_and_losing_cycles_reaches_the_journal(
        table: tuple[ChipTable, SimulatedChipReader]) -> None:
    t, device = table
    assert wait_for(t.chips.connected.is_set)
    device.start_heartbeats(HEARTBEAT_S)
    assert wait_for(lambda: ("reader.health", "ok") in journaled(t.journal_path))
    t.settled()
    assert t.device()["name"] == "chip"

    # unplugged: journaled, then the finding naming the chip reader
    device.unplug()
    assert wait_for(lambda: ("finding", "READER_OFFLINE") in journaled(t.journal_path))
    t.settled()
    offline = next(f for f in t.daemon.last_snapshot["findings"]
                   if f["code"] == "READER_OFFLINE")
    assert offline["message"] == ("The chip reader (reader 3) is offline: chips moved now are "
                                  "not seen. Stop dealing until it is back.")
    assert offline["rule"]["file"] == "DESIGN.md"

    # plugged back: the driver reconnects, a heartbeat comes, restored
    device.plug()
    assert wait_for(lambda: ("finding", "READER_RESTORED") in journaled(t.journal_path))
    t.settled()
    restored = next(f for f in t.daemon.last_snapshot["findings"]
                    if f["code"] == "READER_RESTORED")
    assert restored["message"].startswith("The chip reader (reader 3) is back (it was offline")

    # the chip heartbeat's ANTENNA_FAULT: a fault in the chip device's own words
    device.stop_heartbeats()

    def beat_until(status: int, done: Callable[[], bool]) -> bool:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not done():
            device.send_chip_heartbeat(status)
            time.sleep(HEARTBEAT_S / 2)
        return done()

    assert beat_until(0x01, lambda: ("finding", "READER_FAULT") in journaled(t.journal_path))
    t.settled()
    assert t.device()["detail"] == "an antenna is open or shorted: chips on it are not seen"
    # COLLISION | CYCLE_OVERRUN: chips may have gone unread in a cycle, not a fault
    assert beat_until(0x18, lambda: t.device()["state"] == "ok")

    # scan cycles lost for a missing part (a part's frame lost on the wire), over the limit of 5
    device.start_heartbeats(HEARTBEAT_S)
    # 20 chips: an inventory in two parts; its first part lost, the cycle is dropped whole
    device.place(1, [f"E0040150000000{n:02X}" for n in range(20)])
    for _ in range(8):
        device.scan(lose={1: 0})
    assert wait_for(lambda: ("finding", "READER_NOISY") in journaled(t.journal_path))
    t.settled()
    assert t.chips.stats.incomplete_cycles >= 6
    assert "scan cycles lost for a missing part in the last minute (limit 5)" in \
        str(t.device()["detail"])

    states = [s for kind, s in journaled(t.journal_path) if kind == "reader.health"]
    assert states == ["ok", "offline", "ok", "fault", "ok", "noisy"]
