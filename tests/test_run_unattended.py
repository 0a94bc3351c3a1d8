"""The issue-12 experiment, repeated: ``feltguard run`` started the way the systemd unit starts
it (its command line, standard input /dev/null, gunicorn, a pty shoe reader speaking the wire
protocol) judges a hand whose only inputs are the cards through the real serial driver and the
dealer's touch console (a real Socket.IO client on ``/dealer``). Before issue 12 the same run
journaled the cards, stayed at hand 0 and raised nothing; now a flop dealt with no burn is
FLOP_BURN_ERROR (or BURN_MISSING_OR_EXTRA), and a card key named by its card reaches the core."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import socketio

from controller.journal import read_events
from controller.rules import apply, initial_state
from controller.rules.cards import FULL_DECK
from drivers.simulated_reader import SimulatedReader
from tests.conftest import REPO
from tests.test_run_console import _free_port

SHOE, FELT = 1, 2
BOARD_ANTENNA = 11  # the default antenna map: reader 2, antenna 11 is the board
TAGS = {f"04F00D{i:02X}": card for i, card in enumerate(FULL_DECK)}
UID = {card: uid for uid, card in TAGS.items()}


def _journal_findings(path: Path) -> list[str]:
    """Every finding the journal's events raise, replayed by the pure core."""
    state = initial_state()
    codes: list[str] = []
    for event in read_events(path):
        step = apply(state, event)
        state = step.state
        codes += [f.code for f in step.findings]
    return codes


def test_the_unit_started_daemon_judges_a_flop_dealt_with_no_burn(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    decks = tmp_path / "decks.json"
    decks.write_text(json.dumps({"in_play": "red", "decks": {"red": TAGS}}))
    port = _free_port()
    link = tmp_path / "shoe"
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

[[readers]]
url = "{link}"

[leds]
pin_factory = "mock"

[display]
host = "127.0.0.1"
port = {port}
dealer_token = "d-tok-12"

[journal]
path = "{journal}"

[deck]
file = "{decks}"
""")
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}
    env.pop("NOTIFY_SOCKET", None)
    answers: list[dict[str, Any]] = []
    with SimulatedReader(link) as shoe:
        shoe.send_heartbeat()
        proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config",
                                 str(config)], cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            tablet = socketio.Client(reconnection=False)
            deadline = time.monotonic() + 30
            while True:
                try:
                    tablet.connect(f"http://127.0.0.1:{port}", namespaces=["/dealer"],
                                   transports=["polling"], auth={"token": "d-tok-12"},
                                   wait_timeout=5)
                    break
                except socketio.exceptions.ConnectionError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise
                    time.sleep(0.2)  # gunicorn's worker is still opening the table

            def tap(body: dict[str, Any]) -> None:
                answers.append(tablet.call("input", json.dumps(body), namespace="/dealer",
                                           timeout=10))

            def seen(n: int) -> None:
                """Wait until the journal holds ``n`` card reads (another process writes it)."""
                deadline = time.monotonic() + 10
                while time.monotonic() < deadline:
                    try:
                        if sum(e.type in ("shoe.draw", "zone.read")
                               for e in read_events(journal)) >= n:
                            return
                    except Exception:  # the daemon holds the file mid-transaction: again
                        pass
                    time.sleep(0.05)
                raise AssertionError(f"{n} card reads never reached the journal")

            def deal(card: str, zone_antenna: int) -> None:
                shoe.send_read(SHOE, 0, UID[card])  # off the shoe
                shoe.send_read(FELT, zone_antenna, UID[card])  # onto the felt

            try:
                tap({"type": "shuffle.done"})
                tap({"type": "hand.start"})  # heads-up: seat 1 the button and small blind
                tap({"type": "action", "seat": 1, "kind": "post", "amount": 1})
                tap({"type": "action", "seat": 2, "kind": "post", "amount": 2})
                for card, seat in (("Ah", 2), ("Kh", 1), ("Qh", 2), ("Jh", 1)):
                    deal(card, seat)
                seen(8)
                tap({"type": "action", "seat": 1, "kind": "call"})
                tap({"type": "action", "seat": 2, "kind": "check"})
                for card in ("2c", "7d", "9s"):  # the flop, with no burn before it
                    deal(card, BOARD_ANTENNA)
                seen(14)
                tap({"type": "card.exposed", "card": "9s"})  # a card key by its name
                tap({"type": "card.exposed", "card": "5s"})  # a card still in the stub
            finally:
                tablet.disconnect()
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                out, _ = proc.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                out, _ = proc.communicate()
    assert proc.returncode == 0, out[-3000:]
    assert "Traceback" not in out and "console ready" not in out
    assert all(a["ok"] for a in answers[:-1]), answers
    assert answers[-1]["ok"] is False and "The 5s is not in play" in answers[-1]["reason"]
    events = list(read_events(journal))
    assert sum(e.type in ("shoe.draw", "zone.read") for e in events) == 14
    exposed = [e.body for e in events if e.type == "card.exposed"]
    assert [(b.card, b.uid) for b in exposed] == [("9s", UID["9s"])]  # the tag it named
    codes = _journal_findings(journal)
    assert {"FLOP_BURN_ERROR", "BURN_MISSING_OR_EXTRA"} & set(codes), codes
