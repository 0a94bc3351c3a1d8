"""``feltguard run`` under gunicorn (its production server, in a child process as systemd runs
it) takes the dealer's touch console inputs: a real Socket.IO client on ``/dealer`` logged in
with the dealer token sends an event body, the table journals it, a ruling without the floor's
token is refused, and the random floor token is kept in a 0600 file, never printed."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import socketio

from controller.journal import read_events
from tests.conftest import REPO


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_gunicorn_served_table_takes_console_inputs_through_the_journal(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    port = _free_port()
    config = tmp_path / "table.toml"
    config.write_text(f"""
[table]
seats = 6

[[players]]
seat = 1
name = "Ann"
stack = 200

[[players]]
seat = 2
name = "Bob"
stack = 200

[leds]
enabled = false

[display]
host = "127.0.0.1"
port = {port}
dealer_token = "d-tok-9"

[journal]
path = "{journal}"
""")
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}
    env.pop("NOTIFY_SOCKET", None)
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config",
                             str(config)], cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        client = socketio.Client(reconnection=False)
        deadline = time.monotonic() + 20
        while True:
            try:
                client.connect(f"http://127.0.0.1:{port}", namespaces=["/dealer"],
                               transports=["polling"], auth={"token": "d-tok-9"},
                               wait_timeout=5)
                break
            except socketio.exceptions.ConnectionError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.2)  # gunicorn's worker is still opening the table
        try:
            started = client.call("input", json.dumps({"type": "hand.start"}),
                                  namespace="/dealer", timeout=10)
            ruling = client.call("input", json.dumps({"type": "floor.ruling", "text": "x"}),
                                 namespace="/dealer", timeout=10)
        finally:
            client.disconnect()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            out, _ = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
    assert started["ok"] is True, started
    assert ruling == {"ok": False, "reason": "a ruling needs the floor's login", "findings": []}
    types = [e.type for e in read_events(journal)]
    assert types.count("hand.start") == 1 and "floor.ruling" not in types
    floor = tmp_path / "floor-token"
    assert floor.stat().st_mode & 0o777 == 0o600
    assert floor.read_text().strip() not in out and "Traceback" not in out
    assert "served by gunicorn" in out
