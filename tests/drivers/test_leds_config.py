"""Choosing the LED driver from the ``[leds]`` TOML section: the shift-register chain or the
one-pin-per-LED board, and bad keys named in the error."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from controller.config import ConfigError, from_mapping
from controller.processes.table import build_leds
from drivers.leds import LedPlan, TableLeds
from drivers.shift_register import ShiftRegisterLeds


def config(text: str) -> Any:
    return from_mapping(tomllib.loads(text))


def test_shift_register_driver_from_toml() -> None:
    cfg = config("""
[leds]
pin_factory = "mock"
driver = "shift_register"
[leds.shift_register]
data = "GPIO17"
clock = "GPIO27"
latch = "GPIO22"
enable = ""
seats = 8
""")
    leds, output = build_leds(cfg)
    try:
        assert isinstance(leds, ShiftRegisterLeds)
        assert leds.seats == tuple(range(1, 9))
        assert (leds.config.data, leds.config.enable) == (17, None)
        assert output is not None
        output({"hand": {"button": 8, "small_blind": 1, "big_blind": 2, "to_act": 3}})
        assert leds.lit() == {(8, "button"), (1, "small_blind"), (2, "big_blind"), (3, "to_act")}
    finally:
        leds.close()


def test_shift_register_defaults_when_the_table_is_absent() -> None:
    cfg = config('[leds]\npin_factory = "mock"\ndriver = "shift_register"\n')
    leds, _ = build_leds(cfg)
    try:
        assert leds.seats == tuple(range(1, 11))
        assert (leds.config.data, leds.config.clock, leds.config.latch) == (10, 11, 8)
    finally:
        leds.close()


def test_gpio_driver_is_the_default() -> None:
    leds, _ = build_leds(config('[leds]\npin_factory = "mock"\n'))
    try:
        assert isinstance(leds, TableLeds)
        leds.show(LedPlan(button=6))
        assert leds.lit() == {(6, "button")}
    finally:
        leds.close()


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('driver = "pixels"', "leds.driver: unknown driver 'pixels'"),
        ("driver = 2", "leds.driver: must be str"),
        ("shift_register = 3", "leds.shift_register: must be dict"),
        ("[leds.shift_register]\nseats = 12", "leds.shift_register.seats: must be 1..10"),
        ('[leds.shift_register]\nlatch = "GPIO10"', "leds.shift_register.latch: GPIO10 is already"),
        ('[leds.shift_register]\nsdi = "GPIO4"', "leds.shift_register.sdi: unknown key"),
        ('[leds.shift_register]\nclock = "GPIO40"', "leds.shift_register.clock: GPIO40"),
    ],
)
def test_bad_led_config_names_the_key(text: str, named: str) -> None:
    with pytest.raises(ConfigError) as caught:
        config(f"[leds]\n{text}\n")
    assert str(caught.value).startswith(named)
