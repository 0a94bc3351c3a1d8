"""Card keys named by card (issue 12, item 3): ``exposed As``, ``boxed last``.

The core resolves the name through the deck registry and the cards the hand has seen
(controller/rules/table/card_keys.py); the daemon resolves before journaling and refuses a name that
resolves to nothing, naming it; ``apply`` on a hand-written scenario refuses it as
EVENT_OUT_OF_PLACE with the same sentence."""

from __future__ import annotations

import pytest

from controller.console.lines import parse_command
from controller.daemon.table_daemon import TableDaemon
from controller.events import (
    CardBoxed,
    CardExposed,
    CardKept,
    DeckRegister,
    EventError,
    HandStart,
    SeatTake,
    ShoeDraw,
    TableSetup,
    ZoneRead,
)
from controller.journal import Journal, read_events
from controller.rules import initial_state, resolve_card_key
from tests.rules.helpers import TAGS, deal_holes, table, uid


def _dealt():  # type: ignore[no-untyped-def]
    t = table([100, 100, 100], button=1)
    deal_holes(t, ["As", "Kd", "Qc", "Jh", "Ts", "9d"])
    return t


def test_a_card_name_resolves_to_the_tag_dealt_this_hand() -> None:
    t = _dealt()
    got = resolve_card_key(t.state, CardExposed(card="Kd"))
    assert isinstance(got, CardExposed)
    assert (got.uid, got.card) == (uid("Kd"), "Kd")


def test_last_is_the_last_card_drawn() -> None:
    t = _dealt()
    got = resolve_card_key(t.state, CardBoxed(card="last"))
    assert isinstance(got, CardBoxed)
    assert (got.uid, got.card) == (uid("9d"), "9d")


@pytest.mark.parametrize("body, words", [
    (CardExposed(card="2c"), "The 2c is not in play: it has not been dealt this hand"),
    (CardKept(card="2c"), "The 2c is not in play"),
])
def test_a_card_still_in_the_stub_is_not_in_play(body, words) -> None:  # type: ignore[no-untyped-def]
    got = resolve_card_key(_dealt().state, body)
    assert isinstance(got, str) and words in got


def test_a_boxed_key_may_name_a_card_still_in_the_deck() -> None:
    got = resolve_card_key(_dealt().state, CardBoxed(card="2c"))
    assert isinstance(got, CardBoxed) and got.uid == uid("2c")


def test_no_hand_no_deck_no_draw() -> None:
    t = table([100, 100], post=False)
    assert "No card has been drawn this hand" in str(
        resolve_card_key(t.state, CardBoxed(card="last")))
    assert "There is no hand in progress" in str(
        resolve_card_key(initial_state(), CardExposed(card="As")))


def test_the_exposed_key_by_name_rules_as_the_key_by_tag() -> None:
    by_name, by_tag = _dealt(), _dealt()
    a = by_name.feed(CardExposed(card="Qc"))
    b = by_tag.feed(CardExposed(uid=uid("Qc")))
    assert [f.code for f in a.findings] == [f.code for f in b.findings]
    assert a.findings and a.findings[0].cards == ("Qc",)
    assert by_name.snap()["hand"] == by_tag.snap()["hand"]


def test_a_scenario_key_that_names_nothing_is_out_of_place() -> None:
    step = _dealt().feed(CardExposed(card="2c"))
    assert [f.code for f in step.findings] == ["EVENT_OUT_OF_PLACE"]
    assert "The 2c is not in play" in step.findings[0].message


def test_the_console_takes_card_names() -> None:
    """The issue's case: `exposed As` was silently ignored and `boxed Kd` taken for a tag."""
    assert parse_command("exposed As") == CardExposed(card="As")
    assert parse_command("boxed kd") == CardBoxed(card="Kd")
    assert parse_command("kept last") == CardKept(card="last")
    with pytest.raises(EventError, match="'Zq' is not a card"):
        parse_command("exposed Zq")


def test_the_daemon_journals_the_tag_and_refuses_a_card_not_in_play(tmp_path) -> None:  # type: ignore[no-untyped-def]
    journal = Journal(str(tmp_path / "j.sqlite"))
    daemon = TableDaemon(journal)
    daemon.submit(TableSetup(seats=3, small_blind=1, big_blind=2))
    daemon.submit(DeckRegister(deck="test", tags=TAGS))
    for seat in (1, 2, 3):
        daemon.submit(SeatTake(seat=seat, player=f"P{seat}", stack=100))
    daemon.submit(HandStart(button=1))
    seq = daemon.seq
    with pytest.raises(EventError, match="The As is not in play"):
        daemon.submit(parse_command("exposed As"))
    with pytest.raises(EventError, match="No card has been drawn this hand"):
        daemon.submit(parse_command("boxed last"))
    assert daemon.seq == seq == journal.last_seq  # nothing journaled
    daemon.submit(ShoeDraw(uid=uid("As"), face_up=False))
    daemon.submit(ZoneRead(uid=uid("As"), zone="seat:2"))
    step = daemon.submit(parse_command("exposed As"))
    assert step.findings and step.findings[0].cards == ("As",)
    journal.close()
    last = list(read_events(str(tmp_path / "j.sqlite")))[-1]
    assert last.body == CardExposed(uid=uid("As"), card="As")
