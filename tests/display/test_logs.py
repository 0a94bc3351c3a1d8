"""No secret reaches a log: the real server in its own process, logging at DEBUG as
`feltguard -v` does, through a login, the dealer page, sockets on both transports and a
`?token=` URL. Neither the token, the session cookie, nor an Engine.IO session id (a polling URL
carries it, and it lets its holder pull that client's packets) may appear in any record.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
import socketio

from display.server import DEALER, SESSION_COOKIE, TABLE

TOKEN = "Zq8-log-capture-token"
WAIT = 10.0
ROOT = Path(__file__).resolve().parents[2]


ANSI = re.compile(r"\x1b\[[0-9;]*m")  # a terminal's colours, if a logger adds them


@pytest.fixture
def logged_server(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[str], Path]]:
    """The server process, its URL, and the file its log records go to."""
    env = {**os.environ, "FELTGUARD_TEST_TOKEN": TOKEN, "PYTHONPATH": str(ROOT)}
    log_file = tmp_path / "server.log"
    with log_file.open("w") as stderr:  # a file, not a pipe: a full pipe would stall the server
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.display.log_server"], cwd=ROOT, env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
        )
    try:
        assert proc.stdout is not None
        port = proc.stdout.readline().strip()
        assert port.isdigit(), log_file.read_text()
        yield f"http://127.0.0.1:{port}", proc, log_file
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(WAIT)


def connect(url: str, namespace: str, transport: str, **kw: object) -> socketio.Client:
    client = socketio.Client(reconnection=False)
    client.connect(url, namespaces=[namespace], transports=[transport], wait_timeout=WAIT, **kw)
    return client


def test_no_secret_in_any_log_record(
    logged_server: tuple[str, subprocess.Popen[str], Path],
) -> None:
    base, proc, log_file = logged_server
    http = requests.Session()
    # A token in the URL: redirected away, never accepted, and not logged.
    r = http.get(f"{base}/dealer?token={TOKEN}", allow_redirects=False, timeout=WAIT)
    assert r.status_code == 303
    assert http.post(f"{base}/dealer/login", data={"token": "wrong"},
                     timeout=WAIT).status_code == 401
    r = http.post(f"{base}/dealer/login", data={"token": TOKEN}, allow_redirects=False,
                  timeout=WAIT)
    assert r.status_code == 303
    cookie = r.cookies[SESSION_COOKIE]
    assert 'data-role="dealer"' in http.get(f"{base}/dealer", timeout=WAIT).text
    headers = {"Cookie": f"{SESSION_COOKIE}={cookie}"}

    sids = []
    clients = [
        connect(base, DEALER, "polling", headers=headers),
        connect(base, DEALER, "websocket", headers=headers),
        connect(base, DEALER, "polling", auth={"token": TOKEN}),
        connect(base, TABLE, "polling"),
    ]
    for client in clients:
        sids.append(client.eio.sid)
        client.disconnect()
    with pytest.raises(socketio.exceptions.ConnectionError):
        connect(f"{base}/?token={TOKEN}", DEALER, "polling")
    assert http.post(f"{base}/dealer/logout", timeout=WAIT).status_code == 200  # after redirect

    assert proc.stdin is not None
    proc.stdin.close()
    assert proc.wait(WAIT) == 0
    logs = ANSI.sub("", log_file.read_text())

    for secret, what in [(TOKEN, "the token"), (cookie, "the session cookie"),
                         *((sid, "an Engine.IO session id") for sid in sids)]:
        assert secret not in logs, f"{what} is in the log"

    # The capture really holds the request log (uvicorn's access log), or this proves nothing.
    assert '"POST /dealer/login HTTP/1.1" 303' in logs
    assert '"POST /dealer/login HTTP/1.1" 401' in logs
    assert '"GET /dealer? HTTP/1.1" 303' in logs  # the request line, its query cut
    assert '"GET /socket.io/? HTTP/1.1" 200' in logs
    assert "refused a login from 127.0.0.1: wrong credentials" in logs
