"""controller/daemon/systemd.py against a real datagram socket: the watchdog pings only while the
path that applies events answers (a core hung inside ``submit``, holding the daemon's lock, stops
the pings, and they come back when it does), STATUS follows the hand, and the daemon's
heartbeat is read under its lock."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from controller.daemon.systemd import Service, notifier, status_line, watchdog_period
from controller.daemon.table_daemon import TableDaemon
from controller.events import HandStart, SeatTake, TableSetup


class Socket:
    """Where systemd would listen: the messages received, in order."""

    def __init__(self, path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.settimeout(0.05)

    def drain(self, seconds: float) -> list[str]:
        got: list[str] = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                got.append(self.sock.recv(4096).decode())
            except TimeoutError:
                continue
        return got


@pytest.fixture
def notify_socket(tmp_path, monkeypatch):
    path = tmp_path / "notify"
    sock = Socket(path)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.sock.close()


def _table() -> TableDaemon:
    daemon = TableDaemon()
    daemon.submit(TableSetup(game="nlhe", seats=6, small_blind=1, big_blind=2))
    daemon.submit(SeatTake(seat=1, player="Ann", stack=200))
    daemon.submit(SeatTake(seat=2, player="Bob", stack=200))
    return daemon


def _ticking(daemon: TableDaemon, halt: threading.Event) -> threading.Thread:
    """The runner's sensing tick (the applying path when no card moves), every 0.1 s."""
    def tick() -> None:
        while not halt.wait(0.1):
            daemon.tick(time.monotonic())
    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    return thread


def test_a_core_hung_inside_submit_stops_the_watchdog_pings(notify_socket):
    daemon = _table()
    hang, hung, release = threading.Event(), threading.Event(), threading.Event()

    def stuck_output(snapshot) -> None:  # the applying path stuck, holding the daemon's lock
        if hang.is_set():
            hung.set()
            release.wait(30)

    daemon.outputs.append(stuck_output)
    service = Service(daemon, [], notifier(), watchdog_s=0.4)
    halt = threading.Event()
    ticker = _ticking(daemon, halt)
    service.start()
    try:
        service.ready()
        alive = notify_socket.drain(1.0)
        assert alive[:2] == ["STATUS=hand 0 idle; no readers", "READY=1"]
        assert alive.count("WATCHDOG=1") >= 2  # every 0.2 s (a loaded machine lags)

        hang.set()
        submitter = threading.Thread(target=daemon.submit, args=(HandStart(),), daemon=True)
        submitter.start()
        assert hung.wait(5)
        notify_socket.drain(0.3)  # a ping already on its way
        assert "WATCHDOG=1" not in notify_socket.drain(1.2)
        assert service.missed >= 2

        release.set()  # the core comes back: so do the pings
        submitter.join(5)
        assert notify_socket.drain(1.0).count("WATCHDOG=1") >= 2
    finally:
        release.set()
        service.stopping()
        halt.set()
        ticker.join(2)
    assert notify_socket.drain(0.2)[-1] == "STOPPING=1"


def test_a_dead_applying_thread_stops_the_pings_too(notify_socket):
    """No tick and no submit for a whole watchdog period: the lock is free, but nothing applies
    events (the ticker died), so no ping."""
    daemon = _table()
    service = Service(daemon, [], notifier(), watchdog_s=0.4)
    halt = threading.Event()
    ticker = _ticking(daemon, halt)
    service.start()
    try:
        assert notify_socket.drain(0.8).count("WATCHDOG=1") >= 2
        halt.set()
        ticker.join(2)
        notify_socket.drain(0.6)  # the last beat grows older than the period (0.4 s)
        assert "WATCHDOG=1" not in notify_socket.drain(0.8)
    finally:
        service.stopping()


def test_status_follows_the_hand_not_every_event(notify_socket):
    daemon = _table()
    service = Service(daemon, [], notifier())
    daemon.outputs.append(service.on_snapshot)
    daemon.submit(HandStart())
    daemon.submit(SeatTake(seat=3, player="Cy", stack=100))  # same hand, same phase: nothing
    got = notify_socket.drain(0.3)
    assert got == ["STATUS=hand 1 preflop; no readers"]


def test_without_notify_socket_everything_is_a_no_op(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    service = Service(_table(), [], notifier(), watchdog_s=None)
    service.ready()
    service.stopping()
    assert watchdog_period({}) is None
    assert watchdog_period({"WATCHDOG_USEC": "20000000"}) == 20.0
    assert watchdog_period({"WATCHDOG_USEC": "junk"}) is None


def test_status_line_names_each_readers_health(tmp_path):
    from drivers.card_reader import CardReader
    from drivers.simulated_reader import SimulatedReader

    link = tmp_path / "shoe"
    with SimulatedReader(link) as shoe:
        reader = CardReader(str(link), lambda read: None, name="reader-0")
        reader.start()
        try:
            assert reader.connected.wait(5)
            before = status_line({"hand": {"number": 4, "phase": "flop"}}, [reader],
                                 time.monotonic())
            assert before == f"hand 4 flop; reader-0 {link}: connected, 0 bad frames, " \
                             "no heartbeat yet"
            shoe.send_heartbeat()
            shoe.send_raw(b"\xa5\x07\x01\x01\x00\x00garbage!")  # a bad frame
            shoe.send_heartbeat()
            deadline = time.monotonic() + 5
            while reader.stats.heartbeats < 2 and time.monotonic() < deadline:
                time.sleep(0.02)  # the reader thread counts them; the deadline bounds it
            line = status_line({}, [reader], reader.stats.last_heartbeat + 1.25)
            assert line.startswith("hand 0 idle; reader-0 ")
            assert ": connected, " in line and "heartbeat 1.2 s ago" in line
            assert f"{reader.stats.frames_bad} bad frames" in line
        finally:
            reader.stop()


def test_status_line_says_a_chip_readers_incomplete_cycles(tmp_path):
    from drivers.chip_reader import ChipReader
    from drivers.simulated_chip_reader import SimulatedChipReader

    link = tmp_path / "feltchips"
    with SimulatedChipReader(link, antennas=(1,)) as device:
        chips = ChipReader(str(link), lambda inventory: None, name="chips-0")
        chips.start()
        try:
            assert chips.connected.wait(5)
            device.place(1, [f"E0040150000000{n:02X}" for n in range(20)])  # two parts
            device.scan(lose={1: 0})  # the first part lost: the cycle is dropped whole
            device.scan(lose={1: 0})
            device.send_chip_heartbeat()
            deadline = time.monotonic() + 5
            while chips.stats.heartbeats < 1 and time.monotonic() < deadline:
                time.sleep(0.02)
            line = status_line({}, [chips], chips.stats.last_heartbeat + 0.5)
            assert line == (f"hand 0 idle; chips-0 {link}: connected, 0 bad frames, "
                            "2 incomplete cycles, heartbeat 0.5 s ago")
        finally:
            chips.stop()
