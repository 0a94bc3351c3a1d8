"""The deck registry file: several decks or the single deck of before, and its refusals (issue
12: a deck of one tag and a deck with two tags for ``As`` were taken)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.config import ConfigError
from controller.events import DeckRegister
from controller.poker.cards import FULL_DECK, DeckRegistry
from controller.poker.variants import DECKS
from controller.tags.deckfile import (
    Registry,
    load_registry,
    registered_decks,
    table_cards,
    write_registry,
)


def deck(prefix: str, cards: tuple[str, ...] = FULL_DECK) -> dict[str, str]:
    """A deck of ``cards``, uid ``<prefix>0000NN`` for the NN-th card."""
    return {f"{prefix}{i:06X}": c for i, c in enumerate(cards)}


RED, BLUE = deck("04AA"), deck("04BB")


def _write(tmp_path: Path, data: object, name: str = "decks.json") -> str:
    p = tmp_path / name
    p.write_text(json.dumps(data))
    return str(p)


def test_a_registry_of_several_decks_registers_the_one_in_play_then_the_resting_ones(
        tmp_path: Path) -> None:
    path = _write(tmp_path, {"in_play": "blue", "decks": {"red": RED, "blue": BLUE}})
    reg = load_registry(path)
    assert reg.in_play == "blue" and list(reg.decks) == ["red", "blue"]
    assert reg.bodies() == [DeckRegister(deck="blue", tags=BLUE),
                            DeckRegister(deck="red", tags=RED, idle=True)]
    assert reg.bodies(in_play="red")[0].deck == "red"
    assert reg.bodies(in_play="gone")[0].deck == "blue"  # a deck the file lost: the file's
    assert reg.deck_of("04BB000000") == "blue" and reg.deck_of("FFFFFFFF") is None


def test_the_single_deck_file_of_before_is_read_as_the_deck_named_after_it(
        tmp_path: Path) -> None:
    reg = load_registry(_write(tmp_path, RED, name="deck-red.json"))
    assert reg == Registry(in_play="deck-red", decks={"deck-red": RED})
    spaced = load_registry(_write(tmp_path, RED, name="red deck.json"))  # read as before
    assert spaced.in_play == "red deck"


def test_written_and_read_back_and_the_core_registry_gives_the_decks_back(tmp_path: Path) -> None:
    path = str(tmp_path / "decks.json")
    write_registry(path, Registry(in_play="red", decks={"red": RED, "blue": BLUE}))
    reg = load_registry(path)
    assert reg.decks == {"red": RED, "blue": BLUE} and reg.in_play == "red"
    core = DeckRegistry().put_in_play("red", RED).with_idle("blue", BLUE)
    assert registered_decks(core) == {"red": RED, "blue": BLUE}
    assert not list(tmp_path.glob(".decks.json.*"))  # no temporary file left behind


@pytest.mark.parametrize(("data", "problem"), [
    ({"04A1B2C3": "As"}, "deck d has 1 tag; a deck has 52 cards: missing 2c, 3c, 4c, 5c, 6c, "
                         "7c, 8c, 9c and 43 more"),
    ({**{u: c for u, c in RED.items() if c != "Kd"}},
     "deck d has 51 tags; a deck has 52 cards: missing Kd"),
    ({**RED, "04A1B2C3": "As"}, "uid 04A1B2C3: As is already the card of uid 04AA000033 "
                                "(two tags, one card)"),
    ({"decks": {"red": RED, "blue": {**BLUE, "04AA000000": "Xx"}}},
     "uid 04AA000000 is in deck red (2c) and in deck blue (Xx): one tag, two decks"),
    ({"decks": {"red": RED, "blue": {"04AA00000": "As"}}},
     "deck blue: uid '04AA00000': not a uid as the readers report it"),
    ({"decks": {"red": RED}, "in_play": "blue"}, "in_play 'blue' is not a deck of the file (red)"),
    ({"decks": {"red deck": RED}}, "deck id 'red deck': one word"),
    ({"decks": {}}, "'decks' must be a JSON object of deck id -> {uid: card}"),
    ({"decks": {"red": RED}, "inplay": "red"}, "unknown key 'inplay'"),
    ({"decks": {"red": []}}, "deck red: must hold a JSON object of tag uid -> card, not an "
                             "array"),
    ({}, "holds no tags"),
])
def test_a_bad_registry_is_one_error_naming_the_deck_uid_or_card(
        tmp_path: Path, data: object, problem: str) -> None:
    path = _write(tmp_path, data, name="d.json")
    with pytest.raises(ConfigError) as err:
        load_registry(path)
    assert str(err.value).startswith(f"deck.file: {path}: {problem}"), str(err.value)


def test_a_uid_written_twice_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "d.json"
    p.write_text('{"04A1B2C3": "As", "04A1B2C3": "Kd"}')
    with pytest.raises(ConfigError, match="uid 04A1B2C3 is listed twice"):
        load_registry(str(p))


def test_the_table_full_deck_follows_its_game() -> None:
    assert table_cards("nlhe") == FULL_DECK
    assert table_cards("short_deck") == DECKS["short"]
    assert table_cards("draw5_joker") == (*FULL_DECK, "Xx")
    assert table_cards("horse") == FULL_DECK
    assert table_cards("dealers_choice")[-1] == "Xx"  # it may call a joker game


def test_a_deck_must_hold_the_table_deck_a_superset_is_taken(tmp_path: Path) -> None:
    path = _write(tmp_path, {"decks": {"red": RED}})
    assert load_registry(path, table_cards("short_deck")).decks["red"] == RED
    with pytest.raises(ConfigError, match=r"deck red has 52 tags; a deck has 53 cards: "
                                          r"missing Xx$"):
        load_registry(path, table_cards("a5_lowball"))
    short = _write(tmp_path, {"decks": {"six": deck("04CC", DECKS["short"])}}, "short.json")
    assert load_registry(short, table_cards("short_deck"))
    with pytest.raises(ConfigError, match="deck six has 36 tags; a deck has 52 cards: "
                                          "missing 2c, 3c, 4c, 5c, 2d, 3d, 4d, 5d and 8 more"):
        load_registry(short)
