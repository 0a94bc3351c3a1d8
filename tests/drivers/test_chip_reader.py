"""The real ChipReader (pyserial, termios) driven through a SimulatedChipReader pty pair."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.sensing.health import Watched, judge
from drivers.chip_protocol import (
    ChipInventory,
    ChipStatus,
    TrayCounts,
    encode_inventory_part,
)
from drivers.chip_reader import ChipReader
from drivers.simulated_chip_reader import SimulatedChipReader
from tests.drivers.conftest import DEADLINE, wait_until

SEAT1, POT, TRAY = 1, 11, 12
CHIPS = [f"E00401501234{i:04X}" for i in range(40)]


class Started:
    """A started ChipReader plus the queues its inventories and tray counts land in."""

    def __init__(self, url: str, **kwargs: object) -> None:
        self.inventories: queue.Queue[ChipInventory] = queue.Queue()
        self.trays: queue.Queue[TrayCounts] = queue.Queue()
        self.reader = ChipReader(url, self.inventories.put, self.trays.put,
                                 backoff=(0.01, 0.05), **kwargs)  # type: ignore[arg-type]
        self.reader.start()
        assert self.reader.connected.wait(DEADLINE), self.reader.stats.last_error

    def cycle(self, antennas: tuple[int, ...] = (SEAT1, POT, TRAY)) -> dict[int, ChipInventory]:
        """The inventories of one cycle, by antenna: waits until each of ``antennas`` came, and
        checks they all belong to one cycle."""
        got: dict[int, ChipInventory] = {}
        while set(antennas) - set(got):
            inv = self.inventories.get(timeout=DEADLINE)
            assert inv.antenna not in got, f"antenna {inv.antenna} twice: {got}, {inv}"
            got[inv.antenna] = inv
        assert len({inv.cycle for inv in got.values()}) == 1, got
        return got


@pytest.fixture
def link(tmp_path: Path) -> Path:
    return tmp_path / "chips"


@pytest.fixture
def device(link: Path) -> Iterator[SimulatedChipReader]:
    sim = SimulatedChipReader(link, reader_id=3, antennas=(SEAT1, POT, TRAY))
    try:
        yield sim
    finally:
        sim.close()


@pytest.fixture
def chips(device: SimulatedChipReader, link: Path) -> Iterator[Started]:
    handle = Started(str(link))
    try:
        yield handle
    finally:
        handle.reader.stop()
        assert not handle.reader.is_alive()


def test_each_antenna_reports_its_inventory_every_cycle_an_empty_one_too(
    device: SimulatedChipReader, chips: Started
) -> None:
    device.place(SEAT1, CHIPS[:3])
    device.place(POT, CHIPS[3:33])  # 30 chips: three parts
    assert device.scan() == 0
    first = chips.cycle()
    assert first[SEAT1].uids == tuple(CHIPS[:3])
    assert first[POT].uids == tuple(CHIPS[3:33])
    assert first[TRAY].uids == ()  # the empty antenna is reported, so a removal is seen
    assert {inv.cycle for inv in first.values()} == {0}
    device.move(SEAT1, POT)  # the dealer scoops seat 1's bet into the pot
    device.scan()
    second = chips.cycle()
    assert second[SEAT1].uids == ()
    assert set(second[POT].uids) == set(CHIPS[:33])
    assert second[POT].cycle == 1 and second[POT].t >= first[POT].t
    stats = chips.reader.stats
    assert stats.inventories == 6 and stats.incomplete_cycles == 0
    assert stats.frames_ok == 2 * (1 + 3 + 1)  # seat, pot (3 parts each cycle), tray
    assert stats.frames_bad == stats.bytes_skipped == stats.frames_lost == 0


def test_a_stack_built_over_several_scans_arrives_as_growing_inventories(
    device: SimulatedChipReader, chips: Started
) -> None:
    device.build(SEAT1, CHIPS[:7], per_cycle=3)
    sizes = []
    for _ in range(4):
        device.scan()
        sizes.append(len(chips.cycle()[SEAT1].uids))
    assert sizes == [3, 6, 7, 7]  # raw cycles: settling them is the sensing layer's job
    assert device.chips(SEAT1) == tuple(CHIPS[:7])


def test_a_cycle_with_a_lost_part_is_dropped_and_counted(
    device: SimulatedChipReader, chips: Started
) -> None:
    device.place(POT, CHIPS[:30])
    device.scan(lose={POT: 1})  # the pot's second part never reaches the wire
    assert set(chips.cycle((SEAT1, TRAY))) == {SEAT1, TRAY}
    device.scan()
    got = chips.cycle()  # the next cycle whole: the pot's broken one never came
    assert got[POT].uids == tuple(CHIPS[:30]) and got[POT].cycle == 1
    stats = chips.reader.stats
    assert stats.incomplete_cycles == 1
    assert stats.frames_lost == 1  # the counter saw the gap too


def test_garbage_and_corrupted_frames_are_counted_and_skipped(
    device: SimulatedChipReader, chips: Started
) -> None:
    device.place(SEAT1, CHIPS[:2])
    noise = b"\x00\xa5\x7f junk \xa5"
    corrupt = bytearray(encode_inventory_part(3, POT, 99, 0, 1, CHIPS[:2], 0))
    corrupt[-1] ^= 0x01
    device.send_raw(noise)
    device.send_raw(bytes(corrupt))
    device.scan()
    got = chips.cycle()
    assert got[SEAT1].uids == tuple(CHIPS[:2]) and got[POT].uids == ()
    assert wait_until(lambda: chips.reader.stats.bytes_skipped == len(noise) + len(corrupt))
    assert chips.reader.stats.frames_bad >= 1


def test_unplug_and_replug_reconnect_and_a_cut_cycle_is_counted(
    device: SimulatedChipReader, chips: Started, link: Path
) -> None:
    device.place(POT, CHIPS[:30])
    device.scan()
    assert chips.cycle()[POT].cycle == 0
    # The line is cut after the pot's first part: that cycle can never be completed.
    first_part = encode_inventory_part(3, POT, 1, 0, 3, CHIPS[:13], device.next_counter(3))
    device.send_raw(first_part)
    assert wait_until(lambda: chips.reader.stats.frames_ok == 6)
    device.unplug()
    assert wait_until(lambda: not chips.reader.connected.is_set())
    assert chips.reader.is_alive() and not link.exists()
    device.plug()
    assert chips.reader.connected.wait(DEADLINE)
    device.scan()
    again = chips.cycle()
    assert again[POT].uids == tuple(CHIPS[:30]) and again[POT].cycle == 0  # powered on again
    stats = chips.reader.stats
    assert stats.reconnects == 1 and stats.incomplete_cycles == 1 and stats.last_error is None


def test_tray_counts_arrive_with_their_tubes(link: Path) -> None:
    with SimulatedChipReader(link, reader_id=4, kind="tray") as tray:
        handle = Started(str(link))
        try:
            tray.set_tray([(1, 1, 20), (2, 5, 40), (3, 25, 18)])
            tray.scan()
            counts = handle.trays.get(timeout=DEADLINE)
            assert counts.reader == 4
            assert counts.tubes == ((1, 1, 20), (2, 5, 40), (3, 25, 18))
            assert counts.total == 20 + 200 + 450
            tray.set_tray([(1, 1, 19), (2, 5, 40), (3, 25, 18)])  # change given from tube 1
            tray.scan()
            assert handle.trays.get(timeout=DEADLINE).total == counts.total - 1
            assert handle.reader.stats.trays == 2 and handle.inventories.empty()
        finally:
            handle.reader.stop()


def test_scanning_at_the_cycle_rate_and_heartbeats_with_chip_status(
    device: SimulatedChipReader, chips: Started
) -> None:
    device.place(SEAT1, CHIPS[:1])
    device.start_scanning(cycle_ms=20)
    assert wait_until(lambda: chips.reader.stats.inventories >= 9)
    device.stop_scanning()
    device.send_chip_heartbeat(ChipStatus.COLLISION | ChipStatus.CYCLE_OVERRUN)
    assert wait_until(lambda: chips.reader.stats.heartbeats == 1)
    stats = chips.reader.stats
    assert stats.status == ChipStatus.COLLISION | ChipStatus.CYCLE_OVERRUN
    assert stats.last_reader == 3 and stats.last_heartbeat is not None
    assert stats.frames_lost == 0 and stats.incomplete_cycles == 0
    # The health monitor judges a chip reader's stats as a card reader's.
    watched = Watched(reader=3, name="chips", stats=lambda: chips.reader.stats)
    state, _ = judge(watched, stats, stats.last_heartbeat, silent_after_s=1.5, bad_per_minute=20)
    assert state == "ok"
    device.send_chip_heartbeat(ChipStatus.ANTENNA_FAULT)
    assert wait_until(lambda: chips.reader.stats.heartbeats == 2)
    stats = chips.reader.stats
    assert judge(watched, stats, stats.last_heartbeat or 0, silent_after_s=1.5,
                 bad_per_minute=20)[0] == "fault"


def test_a_failing_callback_is_counted_and_the_reader_goes_on(
    device: SimulatedChipReader, link: Path
) -> None:
    seen: queue.Queue[ChipInventory] = queue.Queue()

    def fussy(inv: ChipInventory) -> None:
        seen.put(inv)
        if inv.antenna == SEAT1:
            raise RuntimeError("consumer bug")

    reader = ChipReader(str(link), fussy, backoff=(0.01, 0.05))
    reader.start()
    try:
        assert reader.connected.wait(DEADLINE)
        device.scan()
        assert sorted(seen.get(timeout=DEADLINE).antenna for _ in range(3)) == [SEAT1, POT, TRAY]
        assert wait_until(lambda: reader.stats.callback_errors == 1)
        device.set_tray([(1, 5, 2)])  # a tray frame with no on_tray: counted, dropped
        device.kind = "tray"
        device.scan()
        assert wait_until(lambda: reader.stats.trays == 1)
        assert reader.is_alive() and reader.stats.callback_errors == 1
    finally:
        reader.stop()
    assert not reader.is_alive()


def test_bad_twin_settings_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="kind"):
        SimulatedChipReader(tmp_path / "x", kind="scale")
    with pytest.raises(ValueError, match="cycle_ms"):
        SimulatedChipReader(tmp_path / "x", cycle_ms=0)
    with SimulatedChipReader(tmp_path / "x", plugged=False) as sim, \
            pytest.raises(ValueError, match="per_cycle"):
        sim.build(1, CHIPS[:2], per_cycle=0)
