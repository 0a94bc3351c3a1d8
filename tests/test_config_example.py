"""hardware/table.example.toml covers every key controller/config.py accepts, says the defaults
where it says it does, and loads: derived from the parser's own key tables
(``config.accepted_keys``), so a key added to the parser without the example fails here."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from controller.config import (
    ChipReaderConfig,
    Config,
    ConfigError,
    accepted_keys,
    from_mapping,
    load,
)
from controller.poker.house_rules import PROFILES, setting_choices, setting_names, settings_for

EXAMPLE = Path(__file__).resolve().parent.parent / "hardware" / "table.example.toml"


def _raw() -> dict[str, Any]:
    return tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))


def _section(raw: dict[str, Any], dotted: str) -> Any:
    node: Any = raw
    for part in dotted.split("."):
        assert isinstance(node, dict) and part in node, f"[{dotted}] is not in the example"
        node = node[part]
    return node


def _commented_settings() -> dict[str, Any]:
    """The ``# name = value`` lines of the example's [table.settings] section, read as TOML."""
    text = EXAMPLE.read_text(encoding="utf-8")
    block = text.split("[table.settings]", 1)[1].split("\n[", 1)[0]
    found: dict[str, Any] = {}
    for line in block.splitlines():
        m = re.match(r"^# (\w+) = (\S+)", line)
        if m:
            found.update(tomllib.loads(f"{m.group(1)} = {m.group(2)}"))
    return found


def test_the_example_has_every_section_and_key_the_parser_accepts() -> None:
    raw = _raw()
    missing = []
    for dotted, keys in accepted_keys().items():
        node = _section(raw, dotted)
        if dotted == "table.settings":  # commented out: each would override the profile
            assert node == {}
            have = set(_commented_settings())
        elif isinstance(node, list):  # [[players]], [[readers]]: every key in some table
            have = {k for table in node for k in table}
        else:
            have = set(node)
        if keys is None:  # keys of the operator's choosing: shown, not exhaustively
            assert have, f"[{dotted}] is empty in the example"
            continue
        missing += [f"{dotted}.{k}" for k in keys if k not in have]
    assert missing == []


def test_the_accepted_keys_are_the_parsers_own() -> None:
    """Each listed key is taken by the parser on its own (not refused as unknown), and a key
    beside them is refused naming it: the key tables say what the parser does."""
    raw = _raw()
    for dotted, keys in accepted_keys().items():
        if keys is None or dotted in ("table.settings", "leds.shift_register"):
            continue
        node = _section(raw, dotted)
        if isinstance(node, list):
            from_mapping({dotted: [node[0]]})
            with pytest.raises(ConfigError, match=rf"^{dotted}\[0\]\.bogus: unknown key"):
                from_mapping({dotted: [{**node[0], "bogus": 1}]})
            continue
        for key in keys:
            try:
                from_mapping({dotted: {key: node[key]}})
            except ConfigError as exc:
                assert "unknown key" not in str(exc), exc
        with pytest.raises(ConfigError, match=rf"^{dotted}\.bogus: unknown key"):
            from_mapping({dotted: {"bogus": 1}})


def test_the_example_loads_and_its_values_are_the_defaults_it_says_they_are() -> None:
    from drivers.leds import DEFAULT_PIN_MAP_6_SEATS
    from drivers.shift_register import DEFAULT_SHIFT_REGISTER

    config = load(EXAMPLE)
    assert config.players and config.readers and config.chip_readers  # examples, not defaults
    assert config.led_pins == DEFAULT_PIN_MAP_6_SEATS
    assert config.led_shift_register == DEFAULT_SHIFT_REGISTER
    assert config.chip_readers[0] == ChipReaderConfig(  # at its defaults, but for the adapter
        "/dev/feltchips", serial="FGCHIP01", symlink="feltchips")
    # the settle time's default follows the chip reader's cycle: three of them
    assert config.chip_settle_ms == 3 * config.chip_readers[0].cycle_ms
    as_default = dataclasses.replace(config, players=(), readers=(), chip_readers=(),
                                     led_pins=None, led_shift_register={},
                                     chip_settle_ms=Config().chip_settle_ms)
    assert as_default == Config()


def test_every_house_setting_is_shown_at_the_roberts_value_with_its_other_choices() -> None:
    shown = _commented_settings()
    assert list(shown) == list(setting_names())
    roberts = PROFILES["roberts"]
    for name, value in shown.items():
        assert settings_for("roberts", {name: value}) == roberts, name  # the default value
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    for name in setting_names():  # the comment after it lists what else the setting takes
        at = next(i for i, x in enumerate(lines) if x.startswith(f"# {name} = "))
        comment = lines[at]
        for more in lines[at + 1:]:  # a comment wrapped onto lines of its own
            if not re.match(r"^#\s{8,}#", more):
                break
            comment += more
        others = [c for c in setting_choices(name) if c != getattr(roberts, name)
                  or type(c) is not type(getattr(roberts, name))]
        for choice in others:
            word = str(choice).lower() if isinstance(choice, bool) else str(choice)
            assert re.search(rf"\b{word}\b", comment), (name, word)


def test_the_config_docstring_points_at_the_example() -> None:
    import controller.config

    doc = controller.config.__doc__ or ""
    assert "hardware/table.example.toml" in doc and "[table]" not in doc


def test_the_chip_settle_time_is_three_cycles_of_the_slowest_chip_reader() -> None:
    from controller.config import from_mapping

    def settle(**raw: object) -> int:
        return from_mapping(raw).chip_settle_ms

    assert settle() == 300  # no chip reader: the least
    assert settle(chip_readers=[{"url": "/dev/a"}]) == 750  # 3 x the usual 250 ms
    assert settle(chip_readers=[{"url": "/dev/a", "cycle_ms": 80}]) == 300  # never less
    assert settle(chip_readers=[{"url": "/dev/a", "cycle_ms": 100},
                                {"url": "/dev/b", "cycle_ms": 400, "id": 4}]) == 1200
    # a counting tray's report period is no scan cycle
    assert settle(chip_readers=[{"url": "/dev/a", "cycle_ms": 100},
                                {"url": "/dev/b", "cycle_ms": 2000, "id": 4,
                                 "kind": "tray"}]) == 300
    assert settle(chip_readers=[{"url": "/dev/a"}], chip_sensing={"settle_ms": 400}) == 400
