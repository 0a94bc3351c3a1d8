"""``feltguard run`` wired end to end: config file, real card reader on a pty, console lines on
stdin, LEDs on mock pins, live view on a free port, journal in a real SQLite file."""

from __future__ import annotations

import io
import json
import sqlite3
import threading
import time

from controller.config import load
from controller.journal import JournalError, read_events
from controller.runner import run_table
from drivers.simulated_reader import SimulatedReader


def _wait_for(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)  # polling a file written by another thread; the deadline bounds it
    return False


def test_run_reads_cards_and_console_and_journals_them(tmp_path, capsys):
    deck = {"04A1B2C3D4E5F6": "As", "04A1B2C3D4E5F7": "Kd"}
    (tmp_path / "deck.json").write_text(json.dumps(deck))
    link = tmp_path / "pokershoe"
    config_file = tmp_path / "table.toml"
    journal = tmp_path / "journal.sqlite"
    config_file.write_text(f"""
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

[[readers]]
url = "{link}"

[leds]
pin_factory = "mock"

[display]
port = 0

[journal]
path = "{journal}"

[deck]
file = "{tmp_path / 'deck.json'}"
""")
    config = load(config_file)
    halt = threading.Event()
    stdin = io.StringIO("hand 1\npost 1 1\npost 2 2\nraise x 4\n")
    with SimulatedReader(link) as shoe:
        runner = threading.Thread(target=run_table, args=(config, stdin, halt))
        runner.start()
        try:
            def types():
                try:
                    return [e.type for e in read_events(journal)]
                except (OSError, JournalError, sqlite3.Error):
                    return []  # the daemon has not created the journal (or its tables) yet

            assert _wait_for(lambda: types().count("action") == 2)
            shoe.send_read(1, 0, "04A1B2C3D4E5F6", False)   # leaves the shoe
            shoe.send_read(2, 2, "04A1B2C3D4E5F6", False)   # lands at seat 2
            assert _wait_for(lambda: "zone.read" in types())
        finally:
            halt.set()
            runner.join(10)
    assert not runner.is_alive()
    events = list(read_events(journal))
    assert [e.type for e in events] == [
        "table.setup", "seat.take", "seat.take", "deck.register", "hand.start",
        "action", "action", "shoe.draw", "zone.read",
    ]
    assert events[-1].body.zone == "seat:2"
    out = capsys.readouterr().out
    assert "? seat must be a whole number" in out  # the bad console line was refused, not fatal
