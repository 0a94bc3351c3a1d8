"""``feltguard run`` wired end to end: config file, real card reader on a pty, console lines on
stdin, LEDs on mock pins, live view on a free port, journal in a real SQLite file."""

from __future__ import annotations

import dataclasses
import io
import json
import threading
import time

from controller.config import load
from controller.journal import check, read_events, read_findings
from controller.processes.table import run_table
from drivers.simulated_reader import SimulatedReader
from tests.run_harness import journal_codes, journal_types, table_config


def _wait_for(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)  # polling a file written by another thread; the deadline bounds it
    return False


def test_run_reads_cards_and_console_and_journals_them(tmp_path, capsys):
    link = tmp_path / "pokershoe"
    journal = tmp_path / "journal.sqlite"
    config_file = table_config(tmp_path, seats=6, readers=str(link), leds='pin_factory = "mock"')
    config = load(config_file)
    halt = threading.Event()
    stdin = io.StringIO("hand 1\npost 1 1\npost 2 2\nraise x 4\n")
    with SimulatedReader(link) as shoe:
        runner = threading.Thread(target=run_table, args=(config, stdin, halt))
        runner.start()
        try:
            assert _wait_for(lambda: journal_types(journal).count("action") == 2)
            shoe.send_read(1, 0, "04A1B2C3D4E5F6", False)   # leaves the shoe
            shoe.send_read(2, 2, "04A1B2C3D4E5F6", False)   # lands at seat 2
            assert _wait_for(lambda: "zone.read" in journal_types(journal))
        finally:
            halt.set()
            runner.join(10)
    assert not runner.is_alive()
    # (a reader that sends no heartbeat is journaled silent once the health monitor's limit
    # passes: controller/sensing/health.py; its timing is not this test's)
    events = [e for e in read_events(journal) if e.type != "reader.health"]
    assert [e.type for e in events] == [
        "table.setup", "seat.take", "seat.take", "deck.register", "hand.start",
        "action", "action", "shoe.draw", "zone.read",
    ]
    assert events[-1].body.zone == "seat:2"
    out = capsys.readouterr().out
    assert "? seat must be a whole number" in out  # the bad console line was refused, not fatal


def test_a_restarted_run_resumes_the_journaled_table_and_sets_nothing_up_again(tmp_path, capsys):
    """``feltguard run`` stopped mid-hand and started again on the same journal: nothing is set
    up again, the hand in play goes on from where it stopped (its cards are still on the felt),
    and a deck file that changed waits for a hand boundary."""
    journal = tmp_path / "journal.sqlite"
    keys = (f'key_file = "{tmp_path / "journal.key"}"\n'
            f'anchor_file = "{tmp_path / "anchors"}"')
    config_file = table_config(tmp_path, journal=keys)

    def run(lines: str, n: int) -> None:
        """Run the table on these console lines until the journal holds ``n`` hand starts and
        actions in all, then stop it."""
        halt = threading.Event()
        runner = threading.Thread(target=run_table,
                                  args=(load(config_file), io.StringIO(lines), halt))
        runner.start()
        try:
            assert _wait_for(lambda: sum(t in ("action", "hand.start")
                                         for t in journal_types(journal)) >= n)
        finally:
            halt.set()
            runner.join(10)
        assert not runner.is_alive()

    run("hand 1\npost 1 1\npost 2 2\n", 3)
    first = [e.type for e in read_events(journal)]
    capsys.readouterr()
    deck = json.loads((tmp_path / "deck.json").read_text())
    qh = next(u for u, c in deck.items() if c == "Qh")  # the Qh re-tagged
    (tmp_path / "deck.json").write_text(json.dumps(
        {**{u: c for u, c in deck.items() if u != qh}, "04A1B2C3D4E5F8": "Qh"}))
    run("call 1\n", 4)  # the hand goes on where it stopped
    out = capsys.readouterr().out
    after = [e.type for e in read_events(journal)]
    assert after[: len(first)] == first
    assert after.count("table.setup") == 1 and after.count("seat.take") == 2
    assert after.count("deck.register") == 1  # the changed deck waits for a hand boundary
    assert "resumed from" in out and "hand 1 was in play" in out
    assert "not applied during a hand" in out
    assert [e.body.kind for e in read_events(journal) if e.type == "action"][-1] == "call"
    # the key and the anchors where the config put them, and the journal checks out with them
    assert not (tmp_path / "journal.sqlite.key").exists()
    assert check(journal, key_path=tmp_path / "journal.key", anchors=tmp_path / "anchors").ok


def test_a_card_that_stops_being_read_at_its_seat_is_a_dropped_card_in_the_journal(tmp_path):
    """The real serial path: the felt reader repeats the tag at seat 2 while it rests there,
    then stops; ``feltguard run``'s ticker turns the silence (sensing.lost_after_ms) into a
    lost zone.leave, and the rules core into PLAYER_DROPS_CARDS_ON_FLOOR."""
    link = tmp_path / "pokershoe"
    journal = tmp_path / "journal.sqlite"
    config_file = table_config(tmp_path, seats=2, readers=str(link),
                                extra="[sensing]\nlost_after_ms = 500\n")
    config = load(config_file)
    halt = threading.Event()
    stdin = io.StringIO("hand 1\npost 1 1\npost 2 2\n")
    with SimulatedReader(link) as felt:
        felt.start_heartbeats(0.5)  # alive, as a real reader: no device finding (sensing/health.py)
        runner = threading.Thread(target=run_table, args=(config, stdin, halt))
        runner.start()
        try:
            assert _wait_for(lambda: journal_types(journal).count("action") == 2)
            felt.send_read(1, 0, "04A1B2C3D4E5F6", False)  # leaves the shoe
            for _ in range(4):  # resting at seat 2: the reader repeats it
                felt.send_read(2, 2, "04A1B2C3D4E5F6", False)
                time.sleep(0.1)
            assert journal_codes(journal) == []  # read within the time-out: nothing
            # the reader stops seeing it: the card has left the felt
            assert _wait_for(lambda: "PLAYER_DROPS_CARDS_ON_FLOOR" in journal_codes(journal))
        finally:
            halt.set()
            runner.join(10)
    assert not runner.is_alive()
    events = list(read_events(journal))
    assert events[-1].type == "zone.leave"
    assert (events[-1].body.zone, events[-1].body.lost) == ("seat:2", True)
    [dropped] = [f for f in read_findings(journal) if f.code == "PLAYER_DROPS_CARDS_ON_FLOOR"]
    assert dropped.seq == events[-1].seq
    assert dropped.data["seats"] == [2] and dropped.data["cards"] == ["As"]


def test_run_takes_the_touch_consoles_inputs_through_the_journal(tmp_path, capsys):
    """``feltguard run``'s display takes the touch console's inputs on /dealer (a real Socket.IO
    client, as the page's socket), journals them through the daemon's one submit path, refuses
    a ruling without the floor token, and keeps a random floor token in a 0600 file."""
    import re

    import socketio

    journal = tmp_path / "journal.sqlite"
    import socket

    with socket.socket() as probe:  # a free port (port 0 in the config turns the display off)
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    config = dataclasses.replace(load(table_config(tmp_path)), dealer_token="d-tok",
                                 host="127.0.0.1", port=free, display_tls=False)
    halt = threading.Event()
    runner = threading.Thread(target=run_table, args=(config, io.StringIO(""), halt))
    runner.start()
    printed = ""
    try:
        def port() -> int | None:
            nonlocal printed
            printed += capsys.readouterr().out
            m = re.search(r"live view http://[^:]+:(\d+)/", printed)
            return int(m.group(1)) if m else None

        assert _wait_for(lambda: port() is not None)
        client = socketio.Client(reconnection=False)
        client.connect(f"http://127.0.0.1:{port()}", namespaces=["/dealer"],
                       transports=["polling"], auth={"token": "d-tok"}, wait_timeout=10)
        try:
            ok = client.call("input", json.dumps({"type": "hand.start"}), namespace="/dealer",
                             timeout=10)
            bad = client.call("input", json.dumps({"type": "action", "seat": "x",
                                                   "kind": "call"}),
                              namespace="/dealer", timeout=10)
            ruling = client.call("input", json.dumps({"type": "floor.ruling", "text": "ok"}),
                                 namespace="/dealer", timeout=10)
        finally:
            client.disconnect()
    finally:
        halt.set()
        runner.join(10)
    assert ok["ok"] is True
    assert bad["ok"] is False and "seat" in bad["reason"]
    assert ruling == {"ok": False, "reason": "a ruling needs the floor's login", "findings": []}
    types = [e.type for e in read_events(journal)]
    assert types.count("hand.start") == 1 and "floor.ruling" not in types
    floor = tmp_path / "floor-token"
    assert floor.stat().st_mode & 0o777 == 0o600 and floor.read_text().strip()
    assert floor.read_text().strip() not in printed
