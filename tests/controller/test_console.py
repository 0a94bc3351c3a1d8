"""The text dealer console: each line is one console key or betting action."""

from __future__ import annotations

import pytest

from controller.console.lines import parse_command
from controller.events import (
    Action,
    CardExposed,
    CardKept,
    DeckChange,
    DeckFault,
    DrawQuery,
    EventError,
    HandEnd,
    HandStart,
    SeatTake,
)


@pytest.mark.parametrize(
    ("line", "body"),
    [
        ("hand", HandStart()),
        ("hand 4", HandStart(button=4)),
        ("raise 3 12", Action(seat=3, kind="raise", amount=12)),
        ("fold 2", Action(seat=2, kind="fold")),
        ("exposed 04A1 player", CardExposed(uid="04A1", by="player")),
        ("end", HandEnd()),
        ("sit 5 Bo 300", SeatTake(seat=5, player="Bo", stack=300)),
        ('{"type": "action", "seat": 1, "kind": "check"}', Action(seat=1, kind="check")),
        ("fault stub_fouled", DeckFault(kind="stub_fouled")),
        ("fault cut_wrong_player 4", DeckFault(kind="cut_wrong_player", cutter=4)),
        ("drew 3", DrawQuery(seat=3)),
        ("drew 3 5", DrawQuery(seat=3, asked_by=5)),
        ("kept 04A1", CardKept(uid="04A1")),
        ("deck blue", DeckChange(deck="blue")),
    ],
)
def test_commands(line, body):
    assert parse_command(line) == body


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("raise 3", "usage: raise SEAT AMOUNT"),
        ("raise x 3", "seat must be a whole number"),
        ("kept", "usage: kept CARD"),
        ("deck", "usage: deck ID"),
        ("deck red blue", "usage: deck ID"),
        ("fold 11", "seat' must be 1..10"),
        ("dance", "unknown command"),
        ('{"type": "action", "seat": 1}', "needs field 'kind'"),
        ("fault riffles", "field 'kind': unknown deck fault 'riffles'"),
        ("fault cut_missing 4", "field 'cutter' goes with kind 'cut_wrong_player'"),
        ("drew 3 3", "fields 'seat' and 'asked_by' name the same seat"),
        ('{"type": "draw.query", "seat": 11}', "field 'seat' must be 1..10"),
    ],
)
def test_bad_commands_say_what_is_wrong(line, message):
    with pytest.raises(EventError, match=message):
        parse_command(line)


@pytest.mark.parametrize("line", [
    '{"type": "hand.start", "x": ' + "[" * 100_000,  # RecursionError before
    '{"type": "seat.take", "seat": ' + "9" * 5000 + "}",  # ValueError before
    '{"type": "hand.start"',
    "{}",
])
def test_a_bad_json_console_line_is_an_event_error_not_a_traceback(line):
    with pytest.raises(EventError):
        parse_command(line)
