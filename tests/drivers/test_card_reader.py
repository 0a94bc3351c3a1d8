"""The real CardReader (pyserial, termios) driven through a SimulatedReader pty pair."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from drivers.card_reader import CardReader, TagRead, set_ftdi_latency_timer
from drivers.reader_protocol import HeartbeatFrame, HeartbeatStatus, encode_read
from drivers.simulated_reader import SimulatedReader
from tests.drivers.conftest import DEADLINE, StartedReader, wait_until

Start = Callable[..., StartedReader]


def connected(handle: StartedReader) -> StartedReader:
    assert handle.reader.connected.wait(DEADLINE), handle.reader.stats.last_error
    return handle


def test_reads_arrive_in_order_with_every_field(
    sim: SimulatedReader, link: Path, start_reader: Start
) -> None:
    shoe = connected(start_reader(link))
    before = time.monotonic()
    sim.send_read(1, 0, "04A1B2C3D4E5F6", face_up=False)
    sim.send_read(1, 0, "04A1B2C3D4E5F7", face_up=True)
    sim.send_read(2, 12, "0A0B0C0D", face_up=False)
    got = [shoe.next_read() for _ in range(3)]
    after = time.monotonic()
    assert [(r.reader, r.antenna, r.uid, r.face_up, r.counter) for r in got] == [
        (1, 0, "04A1B2C3D4E5F6", False, 0),
        (1, 0, "04A1B2C3D4E5F7", True, 1),
        (2, 12, "0A0B0C0D", False, 0),  # each reader numbers its own frames
    ]
    assert all(before <= r.received_monotonic <= after for r in got)
    stats = shoe.reader.stats
    assert stats.frames_ok == stats.reads == 3
    assert stats.frames_bad == stats.bytes_skipped == stats.frames_lost == 0
    assert stats.connected


def test_garbage_between_frames_is_skipped(
    sim: SimulatedReader, link: Path, start_reader: Start
) -> None:
    felt = connected(start_reader(link))
    noise = [b"\x00\x00\xff", b"\xa5\x30 line noise \xa5"]
    sim.send_raw(noise[0])
    sim.send_read(2, 3, "04000003")
    sim.send_raw(noise[1])
    sim.send_read(2, 4, "04000004")
    assert felt.next_read().uid == "04000003"
    assert felt.next_read().uid == "04000004"
    assert wait_until(lambda: felt.reader.stats.bytes_skipped == sum(map(len, noise)))
    assert felt.reader.stats.frames_lost == 0


def test_corrupted_checksum_is_counted_and_the_next_frame_arrives(
    sim: SimulatedReader, link: Path, start_reader: Start
) -> None:
    felt = connected(start_reader(link))
    corrupt = bytearray(encode_read(2, 5, "04000005", False, 0))
    corrupt[-2] ^= 0xFF
    sim.send_raw(bytes(corrupt))
    sim.skip_counter(2)  # the corrupt frame used counter 0 on the wire
    sim.send_read(2, 6, "04000006")
    read = felt.next_read()
    assert (read.antenna, read.uid, read.counter) == (6, "04000006", 1)
    stats = felt.reader.stats
    assert stats.frames_bad >= 1
    assert stats.frames_ok == 1
    with pytest.raises(queue.Empty):
        felt.reads.get_nowait()  # the corrupt frame never reached on_read


def test_unplug_then_replug_at_the_same_path(
    sim: SimulatedReader, link: Path, start_reader: Start
) -> None:
    shoe = connected(start_reader(link))
    sim.send_read(1, 0, "04000001")
    assert shoe.next_read().uid == "04000001"

    sim.unplug()
    assert not link.exists()
    assert wait_until(lambda: not shoe.reader.connected.is_set())
    assert not shoe.reader.stats.connected
    assert shoe.reader.is_alive()

    sim.plug()
    assert shoe.reader.connected.wait(DEADLINE)
    sim.send_read(1, 0, "04000002")
    read = shoe.next_read()
    assert (read.uid, read.counter) == ("04000002", 0)  # the device powered on again
    stats = shoe.reader.stats
    assert stats.reconnects == 1
    assert stats.counter_resets == 1
    assert stats.frames_lost == 0
    assert stats.last_error is None


def test_reader_waits_for_a_device_that_is_not_there_yet(link: Path, start_reader: Start) -> None:
    shoe = start_reader(link)
    assert wait_until(lambda: shoe.reader.stats.last_error is not None)
    assert not shoe.reader.connected.is_set()
    with SimulatedReader(link) as late:
        assert shoe.reader.connected.wait(DEADLINE)
        late.send_read(1, 0, "04000009")
        assert shoe.next_read().uid == "04000009"
        assert shoe.reader.stats.reconnects == 0  # the first connection is not a reconnect


def test_heartbeats_are_counted_and_reported(
    sim: SimulatedReader, link: Path, start_reader: Start
) -> None:
    beats: queue.Queue[HeartbeatFrame] = queue.Queue()
    shoe = connected(start_reader(link, on_heartbeat=beats.put))
    sim.send_heartbeat()
    sim.send_heartbeat(status=HeartbeatStatus.FACE_SENSOR_FAULT)
    first, second = beats.get(timeout=DEADLINE), beats.get(timeout=DEADLINE)
    assert (first.reader, first.counter, first.flags) == (1, 0, HeartbeatStatus.OK)
    assert second.counter == 1
    assert HeartbeatStatus.FACE_SENSOR_FAULT in second.flags
    stats = shoe.reader.stats
    assert stats.heartbeats == 2
    assert stats.reads == 0
    assert stats.last_heartbeat is not None
    assert shoe.reads.empty()


def test_background_heartbeats_reach_the_driver(
    sim: SimulatedReader, link: Path, start_reader: Start
) -> None:
    shoe = connected(start_reader(link))
    sim.start_heartbeats(interval=0.01)
    assert wait_until(lambda: shoe.reader.stats.heartbeats >= 3)
    sim.stop_heartbeats()
    assert shoe.reader.stats.frames_lost == 0


def test_lost_frames_are_counted_from_the_counter_gap(
    sim: SimulatedReader, link: Path, start_reader: Start
) -> None:
    felt = connected(start_reader(link))
    sim.send_read(2, 1, "04000001")
    sim.skip_counter(2, 3)
    sim.send_read(2, 2, "04000002")
    assert [felt.next_read().counter for _ in range(2)] == [0, 4]
    assert felt.reader.stats.frames_lost == 3


def test_a_failing_callback_is_counted_and_the_reader_goes_on(
    sim: SimulatedReader, link: Path
) -> None:
    seen: queue.Queue[TagRead] = queue.Queue()

    def fussy(read: TagRead) -> None:
        seen.put(read)
        if read.uid == "0BADBAD0":
            raise RuntimeError("consumer bug")

    reader = CardReader(str(link), fussy, backoff=(0.01, 0.05))
    reader.start()
    try:
        assert reader.connected.wait(DEADLINE)
        sim.send_read(1, 0, "0BADBAD0")
        sim.send_read(1, 0, "04000001")
        assert [seen.get(timeout=DEADLINE).uid for _ in range(2)] == ["0BADBAD0", "04000001"]
        assert wait_until(lambda: reader.stats.callback_errors == 1)
        assert reader.is_alive()
    finally:
        reader.stop()
    assert not reader.is_alive()


def test_the_port_is_opened_exclusively(
    sim: SimulatedReader, link: Path, start_reader: Start
) -> None:
    first = connected(start_reader(link))
    second = start_reader(link)
    assert wait_until(lambda: second.reader.stats.last_error is not None)
    assert "lock" in (second.reader.stats.last_error or "").lower()
    assert not second.reader.connected.is_set()
    sim.send_read(1, 0, "04000001")
    assert first.next_read().uid == "04000001"


def test_stop_ends_the_thread_and_closes_the_port(
    sim: SimulatedReader, link: Path, start_reader: Start
) -> None:
    shoe = connected(start_reader(link))
    shoe.reader.stop()
    assert not shoe.reader.is_alive()
    assert not shoe.reader.connected.is_set()
    # The port was released: another reader can take it.
    again = connected(start_reader(link))
    sim.send_read(1, 0, "04000001")
    assert again.next_read().uid == "04000001"


def test_stop_before_start_is_harmless() -> None:
    reader = CardReader("loop://", lambda read: None)
    reader.stop()
    assert not reader.is_alive()


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="read_timeout"):
        CardReader("loop://", lambda read: None, read_timeout=0)
    with pytest.raises(ValueError, match="backoff"):
        CardReader("loop://", lambda read: None, backoff=(1.0, 0.5))


def test_send_while_unplugged_is_a_clear_error(sim: SimulatedReader) -> None:
    sim.unplug()
    with pytest.raises(RuntimeError, match="unplugged"):
        sim.send_read(1, 0, "04000001")


def test_ftdi_latency_timer_is_lowered_where_sysfs_has_it(tmp_path: Path) -> None:
    sysfs = tmp_path / "sys"
    (sysfs / "ttyUSB0").mkdir(parents=True)
    knob = sysfs / "ttyUSB0" / "latency_timer"
    knob.write_text("16\n")
    udev_link = tmp_path / "pokershoe"
    udev_link.symlink_to("/dev/ttyUSB0")  # what a udev SYMLINK+= rule makes
    assert set_ftdi_latency_timer(str(udev_link), sysfs_root=sysfs)
    assert knob.read_text() == "1\n"
    # A pty, a CDC-ACM device or a URL has no such knob: nothing happens, nothing raises.
    assert not set_ftdi_latency_timer("/dev/ttyACM0", sysfs_root=sysfs)
    assert not set_ftdi_latency_timer("socket://127.0.0.1:7000", sysfs_root=sysfs)


def test_plug_replaces_a_stale_link_left_by_a_crashed_run(link: Path, start_reader: Start) -> None:
    link.symlink_to("/dev/pts/does-not-exist")
    with SimulatedReader(link, reader_id=2) as felt_sim:
        assert link.resolve() == Path(felt_sim.slave_name or "")
        felt = connected(start_reader(link))
        felt_sim.send_heartbeat()  # from reader_id 2 by default
        felt_sim.send_read(2, 13, "04000013")
        read = felt.next_read()
        assert (read.reader, read.antenna, read.counter) == (2, 13, 1)
    assert not link.exists() and not link.is_symlink()
