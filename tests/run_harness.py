"""The harness of the tests that run a whole table: ``feltguard run`` in a child process as the
systemd unit starts it (standard input /dev/null), a dealer's tablet on ``/dealer`` (a real
Socket.IO client), and the journal read from outside while the table writes it."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import socketio

from controller.journal import JournalError, read_events, read_findings
from tests.conftest import REPO


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def journal_types(path: Path) -> list[str]:
    """The journal's event types so far ([] while the table holds it mid-transaction)."""
    try:
        return [e.type for e in read_events(path)]
    except (OSError, JournalError, sqlite3.Error):
        return []


def journal_codes(path: Path) -> list[str]:
    """The journal's finding codes so far ([] while the table holds it mid-transaction)."""
    try:
        return [f.code for f in read_findings(path)]
    except (OSError, JournalError, sqlite3.Error):
        return []


def full_deck(named: dict[str, str]) -> dict[str, str]:
    """A whole 52-card deck (the deck file must hold one): ``named`` (uid -> card) and a made-up
    uid for every other card."""
    from controller.poker.cards import FULL_DECK

    rest = [c for c in FULL_DECK if c not in named.values()]
    return {**named, **{f"04D0{i:08X}": c for i, c in enumerate(rest)}}


def table_config(tmp_path: Path, *, seats: int | None = None, readers: str = "",
                  leds: str = "enabled = false", journal: str = "", extra: str = "",
                  display: str = "port = 0") -> Path:
    """A table.toml for ``feltguard run``: Ann and Bob at seats 1 and 2 with 200 each, the
    deck file deck.json (a full deck, As and Kd on the tags the tests read), the journal in
    tmp_path; ``display`` the [display] keys (default: no live view)."""
    deck = full_deck({"04A1B2C3D4E5F6": "As", "04A1B2C3D4E5F7": "Kd"})
    (tmp_path / "deck.json").write_text(json.dumps(deck))
    table = f"[table]\nseats = {seats}\n" if seats else ""
    reader = f'[[readers]]\nurl = "{readers}"\n' if readers else ""
    config_file = tmp_path / "table.toml"
    config_file.write_text(f"""{table}
[[players]]
seat = 1
name = "Ann"
stack = 200

[[players]]
seat = 2
name = "Bob"
stack = 200

{reader}
{extra}
[leds]
{leds}

[display]
{display}

[journal]
path = "{tmp_path / 'journal.sqlite'}"
{journal}

[deck]
file = "{tmp_path / 'deck.json'}"
""")
    return config_file


class Run:
    """A ``feltguard run`` child process; ``out`` and ``returncode`` once it has stopped."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self.out = ""

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode

    def stop(self) -> None:
        """SIGTERM, as systemd stops it; killed if it has not stopped in 20 s."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.out, _ = self.proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.out, _ = self.proc.communicate()


@contextmanager
def feltguard_run(config: Path, cwd: Path, env: dict[str, str] | None = None) -> Iterator[Run]:
    """``feltguard run --config CONFIG`` with no standard input, stopped by SIGTERM on exit.
    ``env`` adds to (or, with None values, removes from) this process's environment; no
    NOTIFY_SOCKET is inherited unless given."""
    full = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}
    full.pop("NOTIFY_SOCKET", None)
    full.update(env or {})
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config",
                             str(config)], cwd=cwd, env=full, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    run = Run(proc)
    try:
        yield run
    finally:
        run.stop()


def dealer_tablet(port: int, token: str, run: Run, timeout: float = 30) -> socketio.Client:
    """A tablet logged in on ``/dealer`` (the token as Socket.IO auth), once the table serves."""
    client = socketio.Client(reconnection=False)
    deadline = time.monotonic() + timeout
    while True:
        try:
            client.connect(f"http://127.0.0.1:{port}", namespaces=["/dealer"],
                           transports=["polling"], auth={"token": token}, wait_timeout=5)
            return client
        except socketio.exceptions.ConnectionError:
            if time.monotonic() > deadline or run.proc.poll() is not None:
                raise
            time.sleep(0.2)  # the table is still opening


def tap(client: socketio.Client, body: dict[str, Any]) -> dict[str, Any]:
    """One touch-console input: the event body, answered {ok, reason, findings}."""
    answer: dict[str, Any] = client.call("input", json.dumps(body), namespace="/dealer",
                                         timeout=10)
    return answer
