"""The daemon's chip path: a chip reader's inventories through chip sensing and the one submit
path into a real SQLite journal (journal first, then the core), the zones restored from the
journal at a restart so only changes are reported."""

from __future__ import annotations

from controller.chip_sensing import ChipSensing
from controller.daemon import TableDaemon
from controller.events import ChipsRegister, SeatTake, TableSetup
from controller.journal import Journal, read_events
from tests.controller.test_chip_sensing import Inv, Tray

HOUSE = {"04C1000001": 5, "04C1000002": 25}


def _feed(daemon: TableDaemon, antenna: int, uids: tuple[str, ...], start: int,
          count: int) -> None:
    for n in range(start, start + count):
        daemon.on_chips(Inv(3, antenna, n, uids, n * 0.1))


def test_settled_chips_are_journaled_and_applied_and_a_restart_reports_only_changes(tmp_path):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        daemon = TableDaemon(journal, chip_sensing=ChipSensing(settle_s=0.3))
        for body in (TableSetup(), SeatTake(seat=1, player="Ann", stack=200),
                     ChipsRegister(set="house", chips=HOUSE)):
            daemon.submit(body)
        _feed(daemon, 1, ("04C1000001",), 0, 1)
        _feed(daemon, 1, ("04C1000001", "04C1000002"), 1, 6)  # settles at the 4th of these
        daemon.on_tray(Tray(4, ((1, 5, 40),), 0.0))
        daemon.tick(0.35)  # the tray's time is up, but it was not heard within it: nothing
        for n in range(1, 5):
            daemon.on_tray(Tray(4, ((1, 5, 40),), n * 0.1))
        assert daemon.last_snapshot["seats"][0]["chips_in_front"] == 30
        assert daemon.last_snapshot["tray_counts"]["total"] == 200
    events = list(read_events(path))
    assert [e.type for e in events][3:] == ["chips.zone", "tray.counts"]
    assert events[3].body.total == 30
    assert events[3].body.added == ("04C1000001", "04C1000002")

    with Journal(path) as journal:  # restarted: the same stack lying there is no news
        daemon = TableDaemon(journal, chip_sensing=ChipSensing(settle_s=0.3))
        assert daemon.chip_sensing.zones()["bet:1"] == set(HOUSE)
        _feed(daemon, 1, ("04C1000001", "04C1000002"), 100, 6)
        assert daemon.seq == 5
        _feed(daemon, 1, ("04C1000002",), 106, 5)  # the 5 taken back
        assert daemon.seq == 6
    last = list(read_events(path))[-1].body
    assert (last.zone, last.total, last.removed) == ("bet:1", 25, ("04C1000001",))
