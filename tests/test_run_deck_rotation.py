"""``feltguard run`` with a registry of two decks: both registered at start (blue resting), the
dealer's ``deck blue`` line rotates them between hands, and a red card that then comes through
the real serial reader is a card with a different back (FOREIGN_BACK_CARD_IN_PLAY), not an
unknown tag. A restart keeps the journal's deck in play."""

from __future__ import annotations

import io
import json
import threading
from functools import partial

from controller.config import load
from controller.journal import read_events, read_findings
from controller.poker.cards import FULL_DECK
from controller.processes.table import run_table
from controller.rules import apply, initial_state
from drivers.simulated_reader import SimulatedReader
from tests.run_harness import journal_codes, journal_types, table_config
from tests.test_run_daemon import _wait_for

RED = {f"04AA{i:06X}": c for i, c in enumerate(FULL_DECK)}
BLUE = {f"04BB{i:06X}": c for i, c in enumerate(FULL_DECK)}


def _uid(deck: dict[str, str], card: str) -> str:
    return next(u for u, c in deck.items() if c == card)


def test_deck_change_at_the_console_then_a_card_of_the_resting_deck_is_foreign(tmp_path):
    link = tmp_path / "pokershoe"
    journal = tmp_path / "journal.sqlite"
    config_file = table_config(tmp_path, seats=2, readers=str(link))
    (tmp_path / "deck.json").write_text(json.dumps({"in_play": "red",
                                                    "decks": {"red": RED, "blue": BLUE}}))
    halt = threading.Event()
    stdin = io.StringIO("deck green\ndeck blue\nhand 1\npost 1 1\npost 2 2\n")
    types = partial(journal_types, journal)
    codes = partial(journal_codes, journal)

    with SimulatedReader(link) as shoe:
        runner = threading.Thread(target=run_table, args=(load(config_file), stdin, halt))
        runner.start()
        try:
            assert _wait_for(lambda: types().count("action") == 2)
            shoe.send_read(1, 0, _uid(BLUE, "As"))  # blue is in play now: a card of it
            shoe.send_read(2, 2, _uid(BLUE, "As"))
            assert _wait_for(lambda: types().count("zone.read") == 1)
            shoe.send_read(1, 0, _uid(RED, "Kd"))  # red rests: a card with a different back
            assert _wait_for(lambda: "FOREIGN_BACK_CARD_IN_PLAY" in codes())
        finally:
            halt.set()
            runner.join(10)
    assert not runner.is_alive()
    events = list(read_events(journal))
    regs = [e.body for e in events if e.type == "deck.register"]
    assert [(b.deck, b.idle) for b in regs] == [("red", False), ("blue", True)]
    assert [e.body.deck for e in events if e.type == "deck.change"] == ["green", "blue"]
    found = list(read_findings(journal))
    out_of_place = [f for f in found if f.code == "EVENT_OUT_OF_PLACE"]
    assert len(out_of_place) == 1 and "Deck green is not a registered resting deck" in \
        out_of_place[0].data["message"]
    [foreign] = [f for f in found if f.code == "FOREIGN_BACK_CARD_IN_PLAY"]
    assert foreign.data["cards"] == ["Kd"]
    assert "of deck red, not of the deck in play (blue)" in foreign.data["remedy"][0]
    assert "UNKNOWN_TAG" not in [f.code for f in found]

    # restarted: the hand in play goes on (voided here); the registry's own deck in play is for
    # a new journal only. The shoe stays plugged in: the console starts once it is open (without
    # it, after READY_WAIT_S)
    with SimulatedReader(link):
        halt = threading.Event()
        stdin = io.StringIO("misdeal\n")
        runner = threading.Thread(target=run_table, args=(load(config_file), stdin, halt))
        runner.start()
        try:
            assert _wait_for(lambda: "misdeal.declared" in types())
        finally:
            halt.set()
            runner.join(10)
        # red's Qh re-tagged in the file: every deck is registered again at the restart, and blue,
        # in play in the journal, stays in play
        red = {**{u: c for u, c in RED.items() if c != "Qh"}, "04AAEEEEEE": "Qh"}
        (tmp_path / "deck.json").write_text(json.dumps({"in_play": "red",
                                                        "decks": {"red": red, "blue": BLUE}}))
        halt = threading.Event()
        runner = threading.Thread(target=run_table,
                                  args=(load(config_file), io.StringIO("hand\n"), halt))
        runner.start()
        try:
            assert _wait_for(lambda: types().count("hand.start") == 2)
        finally:
            halt.set()
            runner.join(10)
    after = list(read_events(journal))
    regs = [e.body for e in after if e.type == "deck.register"]
    assert [(b.deck, b.idle) for b in regs] == [("red", False), ("blue", True), ("blue", False),
                                                ("red", True)]
    assert [e.type for e in after][-1] == "hand.start"  # registered before the hand, not in it
    state = initial_state()
    for e in after:
        state = apply(state, e).state
    assert state.deck.deck == "blue" and state.deck.foreign(_uid(RED, "As")) == ("red", "As")
    assert state.deck.foreign("04AAEEEEEE") == ("red", "Qh")
