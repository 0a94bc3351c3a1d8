"""``feltguard run`` as systemd runs it: the unit passes ``systemd-analyze verify``, and the
notify protocol holds against a real ``NOTIFY_SOCKET`` that the test binds (research/
ecosystem.md §5.2): READY=1 once the journal is recovered and the reader is open, STATUS= with
the hand and the reader's health, WATCHDOG=1 on and on, STOPPING=1 at SIGTERM, and the journal
checkpointed and closed. The daemon is started the way the unit starts it: stdin /dev/null, the
live view served from its own process (display/live.py), a reader on a pty fed by the
simulated twin, LEDs on gpiozero's mock pins."""

from __future__ import annotations

import itertools
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
import socketio

from controller.daemon.table_daemon import TableDaemon
from controller.events import Action, HandStart, SeatTake, TableSetup
from controller.journal import (
    Journal,
    anchor_path_for,
    check,
    key_path_for,
    load_key,
    read_anchors,
    read_events,
)
from drivers.simulated_reader import SimulatedReader
from tests.conftest import REPO
from tests.run_harness import free_port

UNIT = REPO / "hardware" / "feltguard.service"
# The table stops at SIGTERM in about a second (screens, readers, journal); the unit would wait
# TimeoutStopSec before a SIGKILL.
STOP_S = 5.0


def test_the_unit_passes_systemd_analyze_verify(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is absent (Debian: apt-get install systemd)")
    text = UNIT.read_text()
    for key in ("Type=notify", "NotifyAccess=main", "WatchdogSec=", "Restart=on-failure",
                "NoNewPrivileges=yes", "ProtectSystem=strict", "StandardInput=null"):
        assert f"\n{key}" in text, key
    assert "\nPrivateDevices" not in text  # it would hide the readers and the GPIO chip
    # verify fails on an ExecStart binary that is absent here: the same unit, a binary that is
    unit = tmp_path / "feltguard.service"
    unit.write_text(text.replace("ExecStart=/opt/feltguard/.venv/bin/feltguard",
                                 f"ExecStart={shutil.which('true')}"))
    proc = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    # unknown keys are only warnings (exit 0): any line about the unit is a failure
    assert str(unit) not in proc.stderr, proc.stderr


class NotifySocket:
    """A datagram socket where systemd would listen: every message with its sender's pid and
    the time it arrived."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.sock.settimeout(0.2)
        self.messages: list[tuple[float, int, str]] = []
        self._cond = threading.Condition()
        self._halt = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        size = socket.CMSG_SPACE(struct.calcsize("3i"))
        while not self._halt.is_set():
            try:
                data, anc, _, _ = self.sock.recvmsg(4096, size)
            except TimeoutError:
                continue
            pid = 0
            for level, kind, cdata in anc:
                if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                    pid = struct.unpack("3i", cdata[:12])[0]
            with self._cond:
                for line in data.decode().split("\n"):
                    self.messages.append((time.monotonic(), pid, line))
                self._cond.notify_all()

    def wait_for(self, predicate, timeout: float = 30.0) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: predicate(list(self.messages)), timeout)

    def close(self) -> None:
        self._halt.set()
        self._thread.join(2)
        self.sock.close()


def _journal_with_a_hand_in_play(path: Path) -> None:
    """The journal a table left when it stopped in hand 1, blinds posted."""
    with Journal(path) as journal:
        daemon = TableDaemon(journal)
        daemon.submit(TableSetup(game="nlhe", seats=6, small_blind=1, big_blind=2))
        daemon.submit(SeatTake(seat=1, player="Ann", stack=200))
        daemon.submit(SeatTake(seat=2, player="Bob", stack=200))
        daemon.submit(HandStart())
        daemon.submit(Action(seat=1, kind="post", amount=1))
        daemon.submit(Action(seat=2, kind="post", amount=2))


def test_notify_protocol_against_a_real_notify_socket(tmp_path):
    journal = tmp_path / "journal.sqlite"
    _journal_with_a_hand_in_play(journal)
    link = tmp_path / "pokershoe"
    port = free_port()
    config = tmp_path / "table.toml"
    config.write_text(f"""
[table]
seats = 6

[[players]]
seat = 1
name = "Ann"
stack = 200

[[readers]]
url = "{link}"

[leds]
pin_factory = "mock"

[display]
port = {port}
host = "127.0.0.1"
tls = false

[journal]
path = "{journal}"
""")
    notify = NotifySocket(tmp_path / "notify")
    env = {**os.environ, "NOTIFY_SOCKET": str(notify.path), "WATCHDOG_USEC": "1000000",
           "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}
    with SimulatedReader(link) as shoe:
        # a reader beating as a real one does: a silent one is a device fault the health
        # monitor would journal (controller/sensing/health.py); an ok one is journaled once
        shoe.start_heartbeats(0.5)
        proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config",
                                 str(config)], cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            def lines(messages):
                return [m[2] for m in messages]

            assert notify.wait_for(lambda m: "READY=1" in lines(m)), lines(notify.messages)
            got = lines(notify.messages)
            ready = got.index("READY=1")
            # the STATUS just before READY: the journal recovered (hand 1, in play when the
            # table stopped, resumed) and the reader open
            status = [line for line in got[:ready] if line.startswith("STATUS=")]
            assert status and status[-1].startswith("STATUS=hand 1 "), got
            assert f"reader-0 {link}: connected, 0 bad frames" in status[-1], status[-1]
            # the web server listens at READY=1
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
                assert r.status == 200
            # every message from the main pid: the unit's NotifyAccess=main
            assert {m[1] for m in notify.messages} == {proc.pid}
            # the watchdog keeps being pinged, every half second (WATCHDOG_USEC / 2)
            t_ready = next(m[0] for m in notify.messages if m[2] == "READY=1")
            assert notify.wait_for(lambda m: lines(m).count("WATCHDOG=1") >= 4, 10)
            pings = [m[0] for m in notify.messages if m[2] == "WATCHDOG=1"]
            assert all(t > t_ready for t in pings)
            gaps = sorted(b - a for a, b in itertools.pairwise(pings))
            assert 0.4 < gaps[len(gaps) // 2] < 0.8 and gaps[-1] < 2.0  # a loaded machine lags
            # a card through the real serial driver: journaled by the resumed table
            shoe.send_heartbeat()
            shoe.send_read(1, 0, "04A1B2C3D4E5F6", False)

            def seqs() -> int:
                try:
                    return sum(1 for _ in read_events(journal))
                except Exception:  # the daemon holds the file mid-transaction: again
                    return 0

            deadline = time.monotonic() + 10
            while seqs() < 8 and time.monotonic() < deadline:
                time.sleep(0.05)  # polling another process's journal; the deadline bounds it
            assert seqs() == 8  # the resumed 6, the reader's health (ok) and the card
            # the hand and the reader's heartbeat in STATUS, refreshed every period
            assert notify.wait_for(lambda m: any(
                line.startswith("STATUS=hand 1 ") and "heartbeat" in line
                and "s ago" in line for line in lines(m)), 5)
            # a screen on the public view over WebSocket: its thread must not hold the stop
            screen = socketio.Client(reconnection=False)
            states: list[dict] = []
            screen.on("state", states.append, namespace="/table")
            screen.connect(f"http://127.0.0.1:{port}", namespaces=["/table"],
                           transports=["websocket"], wait_timeout=5)
            assert screen.connected
        finally:
            stopped_at = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            try:
                out, _ = proc.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                out, _ = proc.communicate()
            notify.close()
    stop_s = time.monotonic() - stopped_at
    assert proc.returncode == 0, out[-3000:]
    assert states and states[0]["last_seq"] == 8  # the live view served the resumed table
    assert stop_s < STOP_S  # the table closed its screen: nothing held the stop
    got = [m[2] for m in notify.messages]
    assert got.count("STOPPING=1") == 1 and got[-1] == "STOPPING=1"
    assert "hand 1 was in play when the table stopped" in out
    assert "console ready" not in out  # stdin /dev/null: no typed console
    assert "Traceback" not in out
    # SIGTERM checkpointed and closed the journal: no WAL left, the last anchor is the close
    assert not Path(f"{journal}-wal").exists() or Path(f"{journal}-wal").stat().st_size == 0
    anchors, problems = read_anchors(anchor_path_for(journal), load_key(key_path_for(journal)))
    assert not problems and anchors[-1].why == "close"
    verdict = check(journal)
    assert verdict.ok and verdict.unanchored == 0
    assert [e.type for e in read_events(journal)][-1] == "shoe.draw"


def test_a_table_that_cannot_start_says_why_and_fails(tmp_path):
    """One line says why, and the command fails for systemd to see."""
    (tmp_path / "journal.sqlite").write_text("not a journal")
    config = tmp_path / "table.toml"
    config.write_text(f'[leds]\nenabled = false\n[display]\nport = {free_port()}\n'
                      'host = "127.0.0.1"\ntls = false\n'
                      f'[journal]\npath = "{tmp_path / "journal.sqlite"}"\n')
    proc = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--config",
                           str(config)], cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(REPO)},
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    ours = [line for line in proc.stderr.splitlines() if line.startswith("feltguard run:")]
    assert ours == [f"feltguard run: {tmp_path / 'journal.sqlite'}: not an SQLite journal; "
                    "refusing to write into it"]
    assert "Traceback" not in proc.stderr


def test_run_table_speaks_the_protocol_from_the_calling_process(tmp_path, monkeypatch):
    """``run_table`` in this process (as ``feltguard run`` calls it): the table, the server and
    the notify protocol here; no console without one."""
    from controller.config import load
    from controller.processes.table import run_table

    notify = NotifySocket(tmp_path / "notify")
    monkeypatch.setenv("NOTIFY_SOCKET", str(notify.path))
    monkeypatch.setenv("WATCHDOG_USEC", "400000")
    config = tmp_path / "table.toml"
    config.write_text(f'[leds]\nenabled = false\n[display]\nport = {free_port()}\n'
                      'host = "127.0.0.1"\ntls = false\n'
                      f'[journal]\npath = "{tmp_path / "j.sqlite"}"\n')
    halt = threading.Event()
    runner = threading.Thread(target=run_table, args=(load(config), None, halt))
    runner.start()
    try:
        assert notify.wait_for(lambda m: [x[2] for x in m].count("WATCHDOG=1") >= 2, 20)
        got = [m[2] for m in notify.messages]
        assert got[:2] == ["STATUS=hand 0 idle; no readers", "READY=1"]
        assert {m[1] for m in notify.messages} == {os.getpid()}
    finally:
        halt.set()
        runner.join(10)
        notify.close()
    assert not runner.is_alive()
    assert [m[2] for m in notify.messages].count("STOPPING=1") == 1
    assert check(tmp_path / "j.sqlite").unanchored == 0  # closed, anchored
