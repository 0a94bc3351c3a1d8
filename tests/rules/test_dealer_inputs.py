"""The dealer and floor inputs of issue 5 beyond the scenarios: undo is exact after every kind of
event, the new events and console words parse, and bad input is refused with the field named.
The scenarios tests/scenarios/{card_flashed,boxed_card,misdeal_two_boxed,floor_ruling,undo}*
assert the findings."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from controller.console.lines import parse_command
from controller.events import (
    CardBoxed,
    CardFlashed,
    EventError,
    FloorRuling,
    Undo,
    make,
    parse_event,
    read_scenario,
)
from controller.rules import apply, initial_state, procedure, snapshot

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


@pytest.mark.parametrize("name", ["undo_last_action", "boxed_card_single", "cutoff_rr_after",
                                  "floor_ruling_void", "clean_side_pots"])
def test_undo_after_any_event_gives_back_the_state_before_it(name: str) -> None:
    state = initial_state()
    for event in read_scenario(SCENARIOS / f"{name}.jsonl"):
        if isinstance(event.body, Undo):
            continue
        after = apply(state, event).state
        undo = apply(after, make(10_000, Undo()))
        assert [f.code for f in undo.findings] == ["EVENT_UNDONE"]
        assert event.type in undo.findings[0].remedy[0]
        want = replace(state, last_seq=10_000, findings=(*state.findings, undo.findings[0]))
        assert undo.state == want
        assert snapshot(undo.state)["hand"] == snapshot(state)["hand"]
        again = apply(undo.state, make(10_001, Undo()))
        assert [f.code for f in again.findings] == ["EVENT_OUT_OF_PLACE"]
        state = after


def test_new_events_parse_and_bad_ones_name_the_field() -> None:
    assert parse_event({"type": "card.flashed", "uid": "A1"}).body == CardFlashed("A1", "dealer")
    assert parse_event({"type": "card.boxed", "uid": "A1"}).body == CardBoxed("A1")
    assert parse_event({"type": "floor.ruling", "text": "hand stands"}).body == FloorRuling(
        "hand stands", None, "stand")
    assert parse_event({"type": "undo"}).body == Undo()
    bad = [
        ({"type": "card.flashed", "uid": "A1", "by": "floor"}, "'by'"),
        ({"type": "card.boxed"}, "'uid'"),
        ({"type": "floor.ruling", "text": ""}, "'text'"),
        ({"type": "floor.ruling", "text": "x", "outcome": "maybe"}, "'outcome'"),
        ({"type": "floor.ruling", "text": "x", "code": "not a code"}, "'code'"),
        ({"type": "floor.ruling", "text": "x" * 501}, "'text'"),
        ({"type": "undo", "what": 3}, "unknown field"),
    ]
    for obj, field in bad:
        with pytest.raises(EventError, match=field):
            parse_event(obj)


@pytest.mark.parametrize(
    ("line", "body"),
    [
        ("flashed 04A1", CardFlashed(uid="04A1", by="dealer")),
        ("flashed 04A1 player", CardFlashed(uid="04A1", by="player")),
        ("boxed 04A1", CardBoxed(uid="04A1")),
        ("undo", Undo()),
        ("ruling stand MISDEAL_LOCKOUT the hand plays", FloorRuling(
            text="the hand plays", code="MISDEAL_LOCKOUT", outcome="stand")),
        ("ruling void deck short", FloorRuling(text="deck short", code=None, outcome="void")),
    ],
)
def test_console_words(line: str, body: object) -> None:
    assert parse_command(line) == body


@pytest.mark.parametrize("line", ["flashed", "flashed A1 floor", "boxed", "boxed A1 dealer",
                                  "undo 3", "ruling", "ruling maybe text", "ruling stand"])
def test_bad_console_words_are_errors(line: str) -> None:
    with pytest.raises(EventError, match="usage"):
        parse_command(line)


def test_a_boxed_card_already_followed_by_another_is_out_of_place() -> None:
    state = initial_state()
    for event in read_scenario(SCENARIOS / "clean_heads_up.jsonl"):
        state = apply(state, event).state
        if state.hand is not None and procedure.cards_out(state.hand.game) == 2:
            break
    assert state.hand is not None
    first = next(u for u, c in state.hand.game.deal.cards.items() if c.n == 0)
    step = apply(state, make(9_000, CardBoxed(uid=first)))
    assert [f.code for f in step.findings] == ["EVENT_OUT_OF_PLACE"]
    assert step.state.hand is not None and procedure.cards_out(step.state.hand.game) == 2
