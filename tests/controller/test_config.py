"""Table configuration: defaults, a full file, and errors that name the key."""

from __future__ import annotations

import pytest

from controller.config import Config, ConfigError, from_mapping, load


def test_empty_config_is_the_embedded_default():
    assert from_mapping({}) == Config()


def test_full_config(tmp_path):
    p = tmp_path / "table.toml"
    p.write_text("""
[table]
seats = 9
small_blind = 5
big_blind = 10

[[players]]
seat = 3
name = "Ann"
stack = 1000

[[readers]]
url = "/dev/pokershoe"

[antennas]
"3:1" = "board"

[display]
port = 8080
dealer_token = "s3cret"

[journal]
path = "/var/lib/feltguard/journal.sqlite"
""")
    c = load(p)
    assert (c.table.seats, c.table.small_blind, c.table.big_blind) == (9, 5, 10)
    assert c.players[0].name == "Ann" and c.readers[0].baudrate == 115200
    assert c.antennas[(3, 1)] == "board" and c.antennas[(1, 0)] == "shoe"
    assert c.port == 8080 and c.dealer_token == "s3cret"


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        ({"tabel": {}}, "tabel: unknown section"),
        ({"table": {"seats": 12}}, "table.seats: must be 2..10"),
        ({"table": {"seats": "six"}}, "table.seats: must be int"),
        ({"table": {"big_blnd": 2}}, "table.big_blnd: unknown key"),
        ({"table": {"game": "razzle"}}, "table.game: unknown game 'razzle'"),
        ({"table": {"game": "omaha5", "structure": "limit"}},
         "table.structure: Five-card Omaha is not dealt at limit"),
        ({"table": {"game": "horse", "structure": "limit"}},
         "table.structure: HORSE deals each game at its own structure"),
        ({"players": [{"seat": 1, "name": "A"}]}, r"players\[0\].stack: missing"),
        ({"players": [{"seat": 11, "name": "A", "stack": 1}]}, r"players\[0\].seat"),
        ({"readers": [{"baudrate": 9600}]}, r"readers\[0\].url: missing"),
        ({"antennas": {"2:3": "table"}}, "antennas.2:3"),
        ({"display": {"port": 70000}}, "display.port"),
        ({"sensing": {"lost_after_ms": 100}}, "sensing.lost_after_ms: must be 500..60000"),
        ({"sensing": {"lost_after_ms": 1.5}}, "sensing.lost_after_ms: must be int"),
        ({"sensing": {"lost_after": 1500}}, "sensing.lost_after: unknown key"),
        ({"leds": {"pin_factory": "magic"}}, "leds.pin_factory"),
        ({"table": {"profile": "vegas"}}, "table.profile: unknown house-rules profile 'vegas'"),
        ({"table": {"settings": {"buton_method": "dead"}}}, "table.settings: unknown setting"),
        ({"table": {"settings": {"button_method": "x"}}}, "table.settings: .*'button_method'"),
    ],
)
def test_bad_config_names_the_key(raw, key):
    with pytest.raises(ConfigError, match=key):
        from_mapping(raw)


def test_the_lost_tag_time_out_defaults_to_six_reader_repeats_and_is_configurable():
    assert from_mapping({}).lost_after_ms == 1500
    assert from_mapping({"sensing": {"lost_after_ms": 2000}}).lost_after_ms == 2000


def test_profile_and_single_setting_overrides():
    c = from_mapping({"table": {"profile": "tda-tournament",
                                "settings": {"heads_up_transition": "most_recent_bb"}}})
    assert c.table.profile == "tda-tournament"
    assert c.table.settings == {"heads_up_transition": "most_recent_bb"}


def test_bad_toml_names_the_file(tmp_path):
    p = tmp_path / "t.toml"
    p.write_text("[table\n")
    with pytest.raises(ConfigError, match=r"t\.toml: not valid TOML"):
        load(p)


# --- bad input (issue 9) -------------------------------------------------------------------------


def test_a_config_that_is_not_utf8_names_the_file_and_the_line(tmp_path):
    p = tmp_path / "t.toml"
    p.write_bytes(b"[table]\nseats = 6\nprofile = \"roberts\" # Jos\xe9\n")
    with pytest.raises(ConfigError) as info:
        load(p)
    assert str(info.value) == f"{p}: not UTF-8 text (byte 0xe9 on line 3; TOML files are UTF-8)"


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        ({"table": {"ante": -1}}, "table.ante: must be 0..9007199254740991, got -1"),
        ({"table": {"big_blind": 2**60}}, "table.big_blind: must be 0..9007199254740991"),
        ({"players": [{"seat": 1, "name": "A", "stack": 0}]},
         r"players\[0\].stack: must be 1..9007199254740991, got 0"),
        ({"players": [{"seat": 1, "name": " ", "stack": 5}]},
         r"players\[0\].name: must not be empty"),
        ({"readers": [{"url": ""}]}, r"readers\[0\].url: must not be empty"),
        ({"readers": [{"url": "loop://", "baudrate": 0}]}, r"readers\[0\].baudrate: must be 1"),
        ({"display": {"host": ""}}, "display.host: must not be empty"),
        ({"journal": {"path": ""}}, "journal.path: must not be empty"),
        ({"table": {"game": ""}}, "table.game: must not be empty"),
    ],
)
def test_values_the_table_events_would_refuse_are_refused_by_key(raw, key):
    with pytest.raises(ConfigError, match=key):
        from_mapping(raw)


def test_empty_strings_that_mean_the_default_are_taken():
    c = from_mapping({"leds": {"pin_factory": ""}, "display": {"dealer_token": ""},
                      "deck": {"file": ""}})
    assert (c.led_pin_factory, c.dealer_token, c.deck_file) == ("", "", "")


@pytest.mark.parametrize("table", [
    {"game": "omaha8", "structure": "pot-limit"},
    {"game": "stud", "ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8},
    {"game": "horse", "small_bet": 2, "big_bet": 4, "ante": 1},
    {"game": "dealers_choice"},
    {"game": "short_deck", "structure": ""},
])
def test_every_game_of_the_table_comes_from_the_config(table):
    from controller.events import Event, parse_line

    c = from_mapping({"table": table})
    setup = c.table
    assert (setup.game, setup.structure) == (table["game"], table.get("structure", ""))
    assert parse_line(Event(1, 0, setup).to_line()).body == setup


def test_what_run_journals_from_a_config_is_what_the_parser_takes():
    """`feltguard run` journals a table.setup and a seat.take per player from the config: each
    must read back from the journal."""
    from controller.events import Event, SeatTake, TableSetup, parse_line

    c = from_mapping({"table": {"seats": 9, "ante": 1, "profile": "wsop-2009"},
                      "players": [{"seat": 9, "name": "Ann", "stack": 2**53 - 1}]})
    bodies: list[TableSetup | SeatTake] = [c.table]
    bodies += [SeatTake(seat=p.seat, player=p.name, stack=p.stack) for p in c.players]
    for i, body in enumerate(bodies, start=1):
        assert parse_line(Event(i, 0, body).to_line()).body == body


# --- the deck file of `feltguard run` (controller/tags/deckfile.py) -------------------------------


def _deck(tmp_path, text: str | bytes):
    from controller.tags.deckfile import load_registry

    p = tmp_path / "deck-red.json"
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return p, lambda: load_registry(str(p))


def test_a_good_deck_file_is_the_deck_register_event(tmp_path):
    import json

    from controller.events import DeckRegister, Event, parse_line
    from controller.poker.cards import FULL_DECK

    tags = {**{f"04A1B2C3{i:06X}": c for i, c in enumerate(FULL_DECK)}, "04A1B2C3D4E5F7": "Xx"}
    _, load_deck = _deck(tmp_path, json.dumps(tags))
    [body] = load_deck().bodies()
    assert body == DeckRegister(deck="deck-red", tags=tags)
    assert parse_line(Event(1, 0, body).to_line()).body == body


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"04A1B2C3": "As", "04A1B2C4": "Zz"}',
         "uid 04A1B2C4: 'Zz' is not a card like 'As' (or the joker 'Xx')"),
        ('{"04A1B2C3": "As", "04A1B2C4": 7}', "uid 04A1B2C4: 7 is not a card"),
        ('{"04A1B2C3": "As", "04A1B2C4": "As"}',
         "uid 04A1B2C4: As is already the card of uid 04A1B2C3 (two tags, one card)"),
        ('{"04A1B2C3": "As", "04A1B2C3": "Kd"}', "uid 04A1B2C3 is listed twice"),
        ('["As", "Kd"]', "must hold a JSON object of tag uid -> card, not an array"),
        ("{}", "holds no tags"),
        ('{"04a1b2c3": "As"}', "uid '04a1b2c3': not a uid as the readers report it"),
        ('{"": "As"}', "uid '': not a uid as the readers report it"),
        ('{"04A1B2C3": "As"', "not valid JSON: Expecting ',' delimiter (line 1, column 18)"),
        (b'{"04A1B2C3": "As\xe9"}', "not UTF-8 text (byte 0xe9 on line 1)"),
        ("[" * 100_000, "not valid JSON: nested too deeply"),
    ],
)
def test_a_bad_deck_file_names_the_file_and_the_uid(tmp_path, text, problem):
    p, load_deck = _deck(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_deck()
    assert str(info.value).startswith(f"deck.file: {p}: {problem}")


def test_a_deck_file_that_cannot_be_read(tmp_path):
    from controller.tags.deckfile import load_registry

    with pytest.raises(ConfigError, match=f"deck.file: {tmp_path}: cannot read: Is a directory"):
        load_registry(str(tmp_path))


def test_the_journal_key_and_anchor_files_may_be_placed_apart(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text('[journal]\npath = "/var/lib/feltguard/j.sqlite"\n'
                    'key_file = "/etc/feltguard/journal.key"\n'
                    'anchor_file = "/var/lib/feltguard/j.anchors"\n')
    config = load(path)
    assert config.journal_key_file == "/etc/feltguard/journal.key"
    assert config.journal_anchor_file == "/var/lib/feltguard/j.anchors"
    assert from_mapping({}).journal_key_file == ""  # beside the journal


def test_the_floor_token_is_read_and_a_wrong_type_names_its_key():
    assert from_mapping({"display": {"floor_token": "f1"}}).floor_token == "f1"
    assert from_mapping({"display": {"floor_token": ""}}).floor_token == ""
    with pytest.raises(ConfigError, match=r"display\.floor_token"):
        from_mapping({"display": {"floor_token": 7}})


def test_display_server_is_retired_and_said_so():
    # gunicorn or Werkzeug once served the live view; a config that still chooses is told why
    for value in ("gunicorn", "werkzeug", "uvicorn"):
        with pytest.raises(ConfigError, match=r"^display.server: no longer a setting: the live "
                                              r"view is served by uvicorn .*; remove the key$"):
            from_mapping({"display": {"server": value}})
