"""The PHH action grammar and card notation: every action code, commentaries, unknown cards, and
a clear error for every malformed action."""

from __future__ import annotations

from decimal import Decimal

import pytest

from controller.phh.notation import (
    PhhAction,
    PhhError,
    format_action,
    format_cards,
    parse_action,
    parse_cards,
)


def test_cards_known_and_unknown() -> None:
    assert parse_cards("AcKd") == ("Ac", "Kd")
    assert parse_cards("????7h") == (None, None, "7h")
    assert format_cards((None, "7h")) == "??7h"


@pytest.mark.parametrize("text", ["", "A", "AcK", "1c", "Ax", "ac", "?c", "A?"])
def test_bad_cards(text: str) -> None:
    with pytest.raises(PhhError):
        parse_cards(text)


def test_short_deck_rejects_low_cards() -> None:
    assert parse_cards("6s", short_deck=True) == ("6s",)
    with pytest.raises(PhhError, match="not in the short deck"):
        parse_cards("5s", short_deck=True)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("d dh p1 AcKd", PhhAction("d dh p1 AcKd", "dh", actor=0, cards=("Ac", "Kd"))),
        ("d dh p6 ????", PhhAction("d dh p6 ????", "dh", actor=5, cards=(None, None))),
        ("d db 7d5h9d", PhhAction("d db 7d5h9d", "db", cards=("7d", "5h", "9d"))),
        ("p3 f", PhhAction("p3 f", "f", actor=2)),
        ("p3 cc", PhhAction("p3 cc", "cc", actor=2)),
        ("p2 cbr 300", PhhAction("p2 cbr 300", "cbr", actor=1, amount=300)),
        ("p2 cbr 2.5", PhhAction("p2 cbr 2.5", "cbr", actor=1, amount=Decimal("2.5"))),
        ("p1 pb", PhhAction("p1 pb", "pb", actor=0)),
        ("p1 sd", PhhAction("p1 sd", "sd", actor=0)),
        ("p1 sd 7s??", PhhAction("p1 sd 7s??", "sd", actor=0, cards=("7s", None))),
        ("p4 sm 2s4c6d9h", PhhAction("p4 sm 2s4c6d9h", "sm", actor=3,
                                     cards=("2s", "4c", "6d", "9h"))),
        ("p4 sm", PhhAction("p4 sm", "sm", actor=3)),
        ("p4 sm -", PhhAction("p4 sm -", "sm", actor=3, show_known=True)),
        ("", PhhAction("", "")),
        ("# Burn card 6s is exposed", PhhAction("# Burn card 6s is exposed", "",
                                                commentary="Burn card 6s is exposed")),
        ("  p1   cc   # slow call ", PhhAction("p1   cc   # slow call", "cc", actor=0,
                                               commentary="slow call")),
    ],
)
def test_grammar(text: str, expected: PhhAction) -> None:
    assert parse_action(text, 6) == expected


def test_format_is_canonical_and_reparses() -> None:
    for text in ("d dh p1 AcKd", "d db 7d5h9d", "p2 cbr 300", "p1 sd", "p4 sm -",
                 "p1 sd 7s??", "p1 cc # slow call", "p3 cbr 10112.5"):
        action = parse_action(text, 6)
        assert format_action(action) == text
        assert parse_action(format_action(action), 6) == action
    assert format_action(parse_action("  p1   cc  ", 6)) == "p1 cc"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("p0 f", "'p0' is not a player"),
        ("p7 f", "p7 is not one of the 6 players"),
        ("x1 f", "'x1' is not a player"),
        ("p1 raise 300", "unknown action 'raise'"),
        ("p1", "p1 has no action"),
        ("p1 cbr", "'cbr' takes one amount"),
        ("p1 cbr -5", "'-5' is not an amount"),
        ("p1 cbr 0", "must be positive"),
        ("p1 cbr 1e3", "'1e3' is not an amount"),
        ("p1 f now", "'f' takes no argument"),
        ("p1 sm AcKd Qs", "at most one list of cards"),
        ("d dh AcKd", "'d dh' takes a player and cards"),
        ("d dh p1 AcK", "is not a list of two-character cards"),
        ("d db", "'d db' takes the board cards"),
        ("d burn 7c", "unknown dealer action 'burn'"),
        ("d db 7x", "'7x' is not a card"),
    ],
)
def test_malformed_actions_say_why(text: str, message: str) -> None:
    with pytest.raises(PhhError, match=message.replace("(", r"\(")):
        parse_action(text, 6)


def test_an_action_must_be_a_string() -> None:
    with pytest.raises(PhhError, match="must be a string"):
        parse_action(42, 6)  # type: ignore[arg-type]
