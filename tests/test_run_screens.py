"""``feltguard run`` holds many screens at once: 60 public screens on one table, each with the
table's state over wss:// (the table serves HTTPS by default, with the certificate ``feltguard
tls init --config`` made beside its journal, and the screens trust only its authority), and the
stop closes them all at once (display/live.py: every WebSocket on the live server's one event
loop, no thread per screen)."""

from __future__ import annotations

import time

import requests
import socketio

from controller.cli.main import main as feltguard
from tests.run_harness import feltguard_run, free_port, table_config

SCREENS = 60
STOP_S = 5.0  # the table closes its screens at SIGTERM; nothing may hold the stop


def test_sixty_public_screens_each_get_the_table_and_the_stop_closes_them(tmp_path):
    port = free_port()
    config = table_config(tmp_path, display=f'port = {port}\nhost = "127.0.0.1"')
    assert feltguard(["tls", "init", "--config", str(config), "--host", "127.0.0.1"]) == 0
    trusting = requests.Session()
    trusting.verify = str(tmp_path / "tls" / "ca.pem")
    screens: list[socketio.Client] = []
    states: list[list[dict]] = []
    gone: list[bool] = []
    with feltguard_run(config, tmp_path) as run:
        deadline = time.monotonic() + 60
        while len(screens) < SCREENS:
            got: list[dict] = []
            screen = socketio.Client(reconnection=False, http_session=trusting)
            screen.on("state", got.append, namespace="/table")
            screen.on("disconnect", lambda *_: gone.append(True), namespace="/table")
            try:
                screen.connect(f"https://127.0.0.1:{port}", namespaces=["/table"],
                               transports=["websocket"], wait_timeout=10)
            except socketio.exceptions.ConnectionError:
                assert time.monotonic() < deadline and run.proc.poll() is None, \
                    f"screen {len(screens) + 1} could not connect"
                time.sleep(0.2)  # the table is still opening
                continue
            screens.append(screen)
            states.append(got)
        deadline = time.monotonic() + 30
        while not all(states) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert all(s and s[0]["seats"] for s in states), "a screen got no table"
        stopped_at = time.monotonic()
    assert time.monotonic() - stopped_at < STOP_S
    assert run.returncode == 0, run.out[-2000:]
    deadline = time.monotonic() + 10
    while len(gone) < SCREENS and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(gone) == SCREENS  # every screen saw its connection end
    assert "feltguard run:" not in run.out  # the table never said it could not go on
    assert "Traceback" not in run.out
    for screen in screens:
        screen.disconnect()
