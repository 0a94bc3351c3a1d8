"""Any game at the live table: table.setup takes every game and structure of docs/games.md, and the
mixed games change game as mixed.py says (HORSE after each orbit; dealer's choice by game.choose).
"""

from __future__ import annotations

import pytest

from controller.events import (
    Action,
    DeckRegister,
    EventError,
    GameChoose,
    HandEnd,
    HandStart,
    SeatTake,
    TableSetup,
    parse_line,
)
from controller.poker.variants import GAME_IDS, ROTATIONS, VARIANTS
from tests.rules.helpers import TAGS, Table


def _table(game: str, structure: str = "", players: int = 3) -> Table:
    t = Table()
    t.feed(TableSetup(game=game, structure=structure, seats=6, small_blind=1, big_blind=2,
                      ante=1, small_bet=2, big_bet=4),
           DeckRegister(deck="test", tags=TAGS))
    for seat in range(1, players + 1):
        t.feed(SeatTake(seat=seat, player=f"P{seat}", stack=200))
    return t


def _fold_round(t: Table) -> None:
    """Post what the plan has due, then everyone folds to the last player: a complete hand."""
    for post in t.hand()["posts"]:
        t.feed(Action(seat=post["seat"], kind="post", amount=post["amount"], blind=post["kind"]))
    while t.hand()["to_act"] is not None:
        t.act(t.hand()["to_act"], "fold")
    t.feed(HandEnd())


@pytest.mark.parametrize("game", [g for g in GAME_IDS if g not in ROTATIONS])
def test_every_game_can_be_set_up_and_a_hand_started(game: str) -> None:
    t = _table(game)
    t.feed(HandStart(button=1))
    snap = t.snap()
    assert t.findings == []
    assert snap["table"]["game"] == game and snap["table"]["name"] == VARIANTS[game].name
    assert snap["hand"]["number"] == 1 and snap["hand"]["phase"] == VARIANTS[game].streets[0].name


@pytest.mark.parametrize("line, error", [
    ('{"type":"table.setup","game":"omaha9"}', "field 'game': unknown game 'omaha9'"),
    ('{"type":"table.setup","game":"omaha5","structure":"limit"}',
     "field 'structure': Five-card Omaha is not dealt at limit; it is dealt at pot-limit"),
    ('{"type":"table.setup","game":"nlhe","structure":"table-stakes"}',
     "field 'structure': unknown betting structure 'table-stakes'"),
    ('{"type":"table.setup","game":"horse","structure":"limit"}',
     "HORSE deals each game at its own structure"),
    ('{"type":"game.choose","game":"horse"}', "field 'game': unknown game 'horse'"),
])
def test_an_unknown_game_or_structure_is_an_error_that_names_it(line: str, error: str) -> None:
    with pytest.raises(EventError, match=error.replace("(", r"\(")):
        parse_line(line)


def test_a_structure_plays_the_game_at_it() -> None:
    t = _table("omaha8", "pot-limit")
    t.feed(HandStart(button=1))
    snap = t.snap()
    assert (snap["table"]["game"], snap["table"]["structure"]) == ("omaha8", "pot-limit")
    assert snap["table"]["hole_cards"] == 4 and snap["table"]["family"] == "board"


def test_horse_changes_game_after_an_orbit() -> None:
    t = _table("horse", players=3)
    assert (t.snap()["table"]["game"], t.snap()["table"]["mixed"]) == ("flhe", "horse")
    games = []
    for _ in range(4):
        t.feed(HandStart())
        games.append(t.snap()["table"]["game"])
        _fold_round(t)
    # three players: three hands of limit hold'em, then Omaha high-low (JPN HORSE)
    assert games == ["flhe", "flhe", "flhe", "omaha8"]
    assert t.snap()["table"]["structure"] == "limit"
    assert t.findings == []


def test_a_misdeal_redeal_is_the_same_hand_of_the_rotation() -> None:
    from controller.events import MisdealDeclared

    t = _table("horse", players=3)
    for _ in range(2):
        t.feed(HandStart())
        _fold_round(t)
    t.feed(HandStart(), MisdealDeclared(), HandStart())
    assert t.snap()["table"]["game"] == "flhe"  # the redeal does not count as another hand
    _fold_round(t)
    t.feed(HandStart())
    assert t.snap()["table"]["game"] == "omaha8"


def test_dealers_choice_needs_the_game_named_before_each_hand() -> None:
    t = _table("dealers_choice", players=3)
    step = t.feed(HandStart())
    assert [f.code for f in step.findings] == ["EVENT_OUT_OF_PLACE"]
    assert "game.choose" in step.findings[0].message
    t.feed(GameChoose(game="omaha", structure="pot-limit"), HandStart())
    assert (t.snap()["table"]["game"], t.snap()["table"]["structure"]) == ("omaha", "pot-limit")
    step = t.feed(GameChoose(game="razz"))
    assert [f.code for f in step.findings] == ["EVENT_OUT_OF_PLACE"]  # not during a hand
    _fold_round(t)
    step = t.feed(HandStart())
    assert [f.code for f in step.findings] == ["EVENT_OUT_OF_PLACE"]  # a new choice is due
    t.feed(GameChoose(game="badugi"), HandStart())
    assert t.snap()["table"]["game"] == "badugi"


def test_the_game_is_chosen_only_at_a_dealers_choice_table() -> None:
    t = _table("nlhe")
    step = t.feed(GameChoose(game="omaha"))
    assert [f.code for f in step.findings] == ["EVENT_OUT_OF_PLACE"]
