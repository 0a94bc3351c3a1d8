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
    assert (c.seats, c.small_blind, c.big_blind) == (9, 5, 10)
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
        ({"table": {"game": "razz"}}, "table.game: unknown game"),
        ({"players": [{"seat": 1, "name": "A"}]}, r"players\[0\].stack: missing"),
        ({"players": [{"seat": 11, "name": "A", "stack": 1}]}, r"players\[0\].seat"),
        ({"readers": [{"baudrate": 9600}]}, r"readers\[0\].url: missing"),
        ({"antennas": {"2:3": "table"}}, "antennas.2:3"),
        ({"display": {"port": 70000}}, "display.port"),
        ({"leds": {"pin_factory": "magic"}}, "leds.pin_factory"),
        ({"table": {"profile": "vegas"}}, "table.profile: unknown house-rules profile 'vegas'"),
        ({"table": {"settings": {"buton_method": "dead"}}}, "table.settings: unknown setting"),
        ({"table": {"settings": {"button_method": "x"}}}, "table.settings: .*'button_method'"),
    ],
)
def test_bad_config_names_the_key(raw, key):
    with pytest.raises(ConfigError, match=key):
        from_mapping(raw)


def test_profile_and_single_setting_overrides():
    c = from_mapping({"table": {"profile": "tda-tournament",
                                "settings": {"heads_up_transition": "most_recent_bb"}}})
    assert c.profile == "tda-tournament"
    assert c.settings == {"heads_up_transition": "most_recent_bb"}


def test_bad_toml_names_the_file(tmp_path):
    p = tmp_path / "t.toml"
    p.write_text("[table\n")
    with pytest.raises(ConfigError, match=r"t\.toml: not valid TOML"):
        load(p)
