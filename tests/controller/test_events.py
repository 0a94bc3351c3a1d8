"""The event vocabulary: parsing, validation, and errors that name the line."""

from __future__ import annotations

import pytest

from controller.events import (
    Action,
    DeckRegister,
    Event,
    EventError,
    ShoeDraw,
    iter_lines,
    parse_event,
    read_scenario,
)


def test_round_trip_every_field():
    e = Event(7, 123, DeckRegister(deck="red", tags={"04A1": "As"}))
    assert parse_event(e.to_json()) == e
    a = Event(8, 124, Action(seat=3, kind="raise", amount=12))
    assert parse_event(a.to_json()) == a


def test_scenario_lines_are_numbered_when_seq_is_missing():
    lines = ['# a comment', '', '{"type": "shoe.draw", "uid": "AA"}', '{"type": "hand.end"}']
    events = list(iter_lines(lines))
    assert [e.seq for e in events] == [1, 2]
    assert events[0].body == ShoeDraw(uid="AA", face_up=False)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"type": "shoe.drop", "uid": "AA"}', "unknown event type 'shoe.drop'"),
        ('{"type": "shoe.draw"}', "shoe.draw needs field 'uid'"),
        ('{"type": "shoe.draw", "uid": "AA", "faceup": true}', "unknown field"),
        ('{"type": "zone.read", "uid": "AA", "zone": "seat:11"}', "field 'zone'"),
        ('{"type": "action", "seat": 2, "kind": "bet"}', "needs field 'amount'"),
        ('{"type": "action", "seat": 2, "kind": "limp"}', "unknown action 'limp'"),
        ('{"type": "deck.register", "deck": "d", "tags": {"AA": "1s"}}', "not a card"),
        ('{"type": "seat.take", "seat": 1, "player": "A", "stack": true}', "integer"),
        ("[1, 2]", "must be a JSON object"),
    ],
)
def test_a_malformed_line_names_the_line_and_the_problem(tmp_path, line, message):
    p = tmp_path / "bad.jsonl"
    p.write_text('{"type": "hand.start"}\n# comment\n' + line + "\n")
    with pytest.raises(EventError) as info:
        read_scenario(p)
    assert str(info.value).startswith(f"{p}:3: ")
    assert message in str(info.value)


def test_seq_must_increase():
    with pytest.raises(EventError, match=":2: seq 1 does not follow seq 5"):
        list(iter_lines(['{"seq": 5, "type": "hand.end"}', '{"seq": 1, "type": "hand.end"}']))


def test_every_live_game_is_a_variant_of_a_monitored_family():
    from controller.events import LIVE_GAMES
    from controller.rules.variants import VARIANTS

    for game in LIVE_GAMES:
        v = VARIANTS[game]
        assert game == "nlhe" or v.draws or any(u for s in v.streets for u in s.hole), game


def test_table_setup_takes_limit_and_stud_stakes_and_refuses_unknown_games():
    (event,) = iter_lines(['{"seq":1,"ts":0,"type":"table.setup","game":"razz","ante":1,'
                           '"bring_in":2,"small_bet":5,"big_bet":10}'])
    assert (event.body.game, event.body.bring_in, event.body.big_bet) == ("razz", 2, 10)
    with pytest.raises(EventError, match="unknown game 'omaha'"):
        list(iter_lines(['{"seq":1,"ts":0,"type":"table.setup","game":"omaha"}']))
    with pytest.raises(EventError, match="needs field 'amount'"):
        list(iter_lines(['{"seq":1,"ts":0,"type":"action","seat":2,"kind":"draw"}']))
