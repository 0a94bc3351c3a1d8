"""The chip-set file (controller/tags/chipfile.py): several sets, one in play; every mistake one
ConfigError naming the file, the set and the uid. ``feltguard run`` registers the sets at
start (tests/test_run_chips.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.config import ConfigError, from_mapping
from controller.events import ChipsRegister, make
from controller.rules import apply, initial_state
from controller.tags.chipfile import (
    load_chip_sets,
    registered_sets,
    table_chip_sets,
    write_chip_sets,
)

HOUSE = {"04C1000001": 1, "04C1000002": 5, "04C1000003": 25}
OLD = {"04D0000001": 5}


def _file(tmp_path: Path, data: object) -> str:
    path = tmp_path / "chips.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def test_the_sets_load_and_become_chips_register_events(tmp_path):
    path = _file(tmp_path, {"in_play": "house", "sets": {
        "old": {"chips": OLD},
        "house": {"chips": HOUSE, "colours": {"1": "white", "25": "green"}}}})
    sets = load_chip_sets(path)
    bodies = sets.bodies()
    assert bodies == [ChipsRegister(set="house", chips=HOUSE, colours={1: "white", 25: "green"}),
                      ChipsRegister(set="old", chips=OLD, idle=True)]
    assert [b.set for b in sets.bodies(in_play="old")] == ["old", "house"]
    state = initial_state()
    for seq, body in enumerate(bodies, start=1):
        state = apply(state, make(seq, body)).state
    assert registered_sets(state.chips.registry) == {"house": HOUSE, "old": OLD}
    assert state.chips.registry.foreign("04D0000001") == ("old", 5)


@pytest.mark.parametrize(("data", "message"), [
    ({"sets": {"house": {"chips": HOUSE}, "old": {"chips": {"04C1000002": 5}}}},
     "uid 04C1000002 is in set house and in set old: one tag, two sets"),
    ({"sets": {"house": {"chips": {"04C1000001": 0}}}},
     "set house: uid 04C1000001: denomination 0 is not a whole number"),
    ({"sets": {"house": {"chips": {"04C1000001": 2.5}}}},
     "set house: uid 04C1000001: denomination 2.5"),
    ({"sets": {"house": {"chips": {"04C1000001": "5"}}}},
     "set house: uid 04C1000001: denomination '5'"),
    ({"sets": {"house": {"chips": {"04C1000001": True}}}},
     "set house: uid 04C1000001: denomination True"),
    ({"sets": {"house": {"chips": {"04c1": 5}}}}, "set house: uid '04c1': not a uid"),
    ({"sets": {"house": {"chips": {}}}}, "set house: 'chips' must be a JSON object"),
    ({"sets": {"house": {"chips": HOUSE, "colours": {"100": "black"}}}},
     "set house: colours: denomination 100 is no chip of the set"),
    ({"sets": {"house": {"chips": HOUSE, "colours": {"05": "red"}}}},
     "set house: colours: '05' is not a denomination"),
    ({"sets": {"house": {"chips": HOUSE, "colour": {}}}}, "set house: unknown key 'colour'"),
    ({"sets": {"two words": {"chips": HOUSE}}}, "set id 'two words'"),
    ({"in_play": "blue", "sets": {"house": {"chips": HOUSE}}}, "in_play 'blue' is not a set"),
    ({"sets": {}}, "'sets' must be a JSON object"),
    ({"set": {}}, "unknown key 'set'"),
    ([1, 2], "must hold a JSON object"),
    ('{"sets": {"house": {"chips": {"04C1000001": 1, "04C1000001": 5}}}}',
     "uid 04C1000001 is listed twice"),
    ("{not json", "not valid JSON"),
])
def test_a_bad_file_is_one_error_naming_the_set_and_uid(tmp_path, data, message):
    path = _file(tmp_path, data)
    with pytest.raises(ConfigError) as info:
        load_chip_sets(path)
    assert str(info.value).startswith(f"chips.file: {path}: ")
    assert message in str(info.value)


def test_the_config_names_the_file_and_the_chip_keys(tmp_path):
    path = _file(tmp_path, {"sets": {"house": {"chips": HOUSE}}})
    config = from_mapping({"chips": {"file": path}, "chip_sensing": {"settle_ms": 400},
                           "chip_antennas": {"3:21": "drop", "4:1": "pot"}})
    assert config.chip_settle_ms == 400
    assert config.chip_antennas[(3, 21)] == "drop" and config.chip_antennas[(4, 1)] == "pot"
    assert config.chip_antennas[(3, 1)] == "bet:1"  # the defaults stay
    sets = table_chip_sets(config)
    assert sets is not None and sets.in_play == "house"
    assert table_chip_sets(from_mapping({})) is None


@pytest.mark.parametrize(("raw", "message"), [
    ({"chip_sensing": {"settle_ms": 10}}, "chip_sensing.settle_ms"),
    ({"chip_sensing": {"settle": 300}}, "chip_sensing.settle: unknown key"),
    ({"chip_antennas": {"3:1": "board"}}, "chip_antennas.3:1: 'board' is not bet:1"),
    ({"chip_antennas": {"2:3": "pot"}}, "chip_antennas.2:3: is also a card antenna (seat:3)"),
    ({"chips": {"file": 5}}, "chips.file: must be str"),
])
def test_a_bad_chip_key_is_named(raw, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        from_mapping(raw)


def test_a_card_antenna_configured_on_a_default_chip_antenna_keeps_it():
    """A table whose [antennas] use reader 3 for cards (as before chips) still loads: the
    default chip antenna on that key is dropped, the others stay."""
    config = from_mapping({"antennas": {"3:1": "board"}})
    assert config.antennas[(3, 1)] == "board"
    assert (3, 1) not in config.chip_antennas and config.chip_antennas[(3, 2)] == "bet:2"


def test_config_check_checks_the_chip_file_and_shows_the_sets(tmp_path):
    from controller.cli.config_check import check, summary

    path = _file(tmp_path, {"in_play": "house", "sets": {"house": {"chips": HOUSE},
                                                         "old": {"chips": OLD}}})
    toml = tmp_path / "table.toml"
    toml.write_text(f'[chips]\nfile = "{path}"\n[leds]\nenabled = false\n[display]\nport = 0\n')
    [row] = [r for r in summary(check(str(toml))) if r.strip().startswith("chips")]
    assert f"{path}: house in play, old known" in row and "settled after 300 ms" in row
    (tmp_path / "chips.json").write_text(json.dumps({"sets": {"h": {"chips": {"04C1": 5}}}}))
    with pytest.raises(ConfigError, match=f"table.toml: chips.file: {path}: set h: uid '04C1'"):
        check(str(toml))


def test_written_sets_load_back_as_they_were(tmp_path):
    """``write_chip_sets`` (feltguard chips enrol) writes what ``load_chip_sets`` reads: the
    set in play, the file's order of sets, colours keyed by denomination."""
    path = _file(tmp_path, {"in_play": "old", "sets": {
        "house": {"chips": HOUSE, "colours": {"25": "green", "1": "white"}},
        "old": {"chips": OLD}}})
    sets = load_chip_sets(path)
    out = str(tmp_path / "again.json")
    write_chip_sets(out, sets)
    assert load_chip_sets(out) == sets
    assert json.loads(Path(out).read_text())["sets"]["house"]["colours"] == {
        "1": "white", "25": "green"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["again.json", "chips.json"]  # no tmp
