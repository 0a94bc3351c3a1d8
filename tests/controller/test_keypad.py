"""Which key makes which event: the keypad mapping is the typed console's, event for event."""

from __future__ import annotations

import pytest

from controller.console.keypad import DEFAULT_PINS, KEYS, LONG_PRESS, body_for, nothing_chosen
from controller.console.lines import parse_command
from controller.events import (
    LAST_CARD,
    AttentionCalled,
    CardBoxed,
    CardExposed,
    HandEnd,
    HandStart,
    MisdealDeclared,
    ShuffleDone,
    Undo,
    validate_body,
)

# The console line each key stands for (controller/console/lines.py).
LINES = {"new_hand": "hand", "shuffle_done": "shuffle", "attention": "attention",
         "misdeal": "misdeal", "undo": "undo", "award": "end"}


def test_every_key_has_a_default_pin_and_the_destructive_keys_are_keys() -> None:
    assert set(DEFAULT_PINS) == set(KEYS)
    assert sorted(LONG_PRESS) == ["misdeal", "undo"]
    assert set(KEYS) >= LONG_PRESS
    assert len(set(DEFAULT_PINS.values())) == len(KEYS)


def test_the_plain_keys_make_their_events() -> None:
    assert body_for("new_hand") == HandStart(button=None)
    assert body_for("shuffle_done") == ShuffleDone()
    assert body_for("attention") == AttentionCalled(by="dealer")
    assert body_for("misdeal") == MisdealDeclared()
    assert body_for("undo") == Undo()
    assert body_for("award") == HandEnd()
    # a chosen card changes nothing for a key that takes no card
    assert body_for("award", "As") == HandEnd()


@pytest.mark.parametrize("key", sorted(LINES))
def test_a_key_is_its_console_line(key: str) -> None:
    body = body_for(key)
    validate_body(body)
    assert body == parse_command(LINES[key])


def test_the_card_keys_act_on_the_last_card_drawn_when_none_is_chosen() -> None:
    assert nothing_chosen() is None
    assert body_for("exposed") == CardExposed(card=LAST_CARD, by="dealer")
    assert body_for("boxed") == CardBoxed(card=LAST_CARD)
    for key in ("exposed", "boxed"):
        validate_body(body_for(key))
        assert body_for(key) == parse_command(f"{key} last")


def test_the_card_keys_act_on_the_card_chosen_on_the_touch_console() -> None:
    assert body_for("exposed", "As") == CardExposed(card="As", by="dealer")
    assert body_for("boxed", "Td") == CardBoxed(card="Td")
    assert body_for("exposed", "As") == parse_command("exposed As")


def test_an_unknown_key_is_named() -> None:
    with pytest.raises(ValueError, match=r"unknown key 'deal' \(known: new_hand, "):
        body_for("deal")
