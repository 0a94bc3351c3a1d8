"""The issue-12 experiment, repeated: ``feltguard run`` started the way the systemd unit starts it
(its command line, standard input /dev/null, the live view served from it, a pty shoe reader
speaking the wire protocol) judges a hand whose only inputs are the cards through the real
serial driver and the dealer's touch console (a real Socket.IO client on ``/dealer``). Before
issue 12 the same run journaled the cards, stayed at hand 0 and raised nothing; now a flop dealt
with no burn is FLOP_BURN_ERROR (or BURN_MISSING_OR_EXTRA), and a card key named by its card
reaches the core."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from controller.journal import read_events
from controller.rules import apply, initial_state
from drivers.simulated_reader import SimulatedReader
from tests.run_harness import (
    dealer_tablet,
    feltguard_run,
    free_port,
    journal_types,
    table_config,
    tap,
)

SHOE, FELT = 1, 2
BOARD_ANTENNA = 11  # the default antenna map: reader 2, antenna 11 is the board


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
    port = free_port()
    link = tmp_path / "shoe"
    config = table_config(tmp_path, seats=6, readers=str(link), leds='pin_factory = "mock"',
                          display=f'host = "127.0.0.1"\nport = {port}\ntls = false\n'
                                  'dealer_token = "d-tok-12"')
    uid = {card: u for u, card in json.loads((tmp_path / "deck.json").read_text()).items()}
    answers: list[dict[str, Any]] = []
    with SimulatedReader(link) as shoe, feltguard_run(config, tmp_path) as run:
        shoe.send_heartbeat()
        tablet = dealer_tablet(port, "d-tok-12", run)
        try:
            def seen(n: int) -> None:
                """Wait until the journal holds ``n`` card reads (another process writes it)."""
                deadline = time.monotonic() + 10
                while sum(t in ("shoe.draw", "zone.read") for t in journal_types(journal)) < n:
                    assert time.monotonic() < deadline, f"{n} card reads never journaled"
                    time.sleep(0.05)

            def press(body: dict[str, Any]) -> None:
                answers.append(tap(tablet, body))

            def deal(card: str, zone_antenna: int) -> None:
                shoe.send_read(SHOE, 0, uid[card])  # off the shoe
                shoe.send_read(FELT, zone_antenna, uid[card])  # onto the felt

            press({"type": "shuffle.done"})
            press({"type": "hand.start"})  # heads-up: seat 1 the button and small blind
            press({"type": "action", "seat": 1, "kind": "post", "amount": 1})
            press({"type": "action", "seat": 2, "kind": "post", "amount": 2})
            for card, seat in (("Ah", 2), ("Kh", 1), ("Qh", 2), ("Jh", 1)):
                deal(card, seat)
            seen(8)
            press({"type": "action", "seat": 1, "kind": "call"})
            press({"type": "action", "seat": 2, "kind": "check"})
            for card in ("2c", "7d", "9s"):  # the flop, with no burn before it
                deal(card, BOARD_ANTENNA)
            seen(14)
            press({"type": "card.exposed", "card": "9s"})  # a card key by its name
            press({"type": "card.exposed", "card": "5s"})  # a card still in the stub
        finally:
            tablet.disconnect()
    out = run.out
    assert run.returncode == 0, out[-3000:]
    assert "Traceback" not in out and "console ready" not in out
    assert all(a["ok"] for a in answers[:-1]), answers
    assert answers[-1]["ok"] is False and "The 5s is not in play" in answers[-1]["reason"]
    events = list(read_events(journal))
    assert sum(e.type in ("shoe.draw", "zone.read") for e in events) == 14
    exposed = [e.body for e in events if e.type == "card.exposed"]
    assert [(b.card, b.uid) for b in exposed] == [("9s", uid["9s"])]  # the tag it named
    codes = _journal_findings(journal)
    assert {"FLOP_BURN_ERROR", "BURN_MISSING_OR_EXTRA"} & set(codes), codes
