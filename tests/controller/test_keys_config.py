"""The ``[keys]`` section: defaults, every bad value named by its key, pins shared with another
key or with an LED refused."""

from __future__ import annotations

import tomllib

import pytest

from controller.config import ConfigError, KeysConfig, from_mapping
from controller.console.keypad import DEFAULT_PINS


def config(text: str):
    return from_mapping(tomllib.loads(text))


def test_keys_are_off_by_default_with_the_documented_defaults() -> None:
    keys = config("").keys
    assert keys == KeysConfig()
    assert (keys.enabled, keys.pin_factory, keys.pull_up, keys.bounce_ms, keys.hold_ms) == (
        False, "", True, 20, 1000)
    assert dict(keys.pins) == DEFAULT_PINS


def test_a_keys_section_is_read() -> None:
    keys = config("""
[leds]
enabled = false
[keys]
enabled = true
pin_factory = "mock"
pull_up = false
bounce_ms = 5
hold_ms = 1500
misdeal = "GPIO17"
undo = 27
boxed = ""
""").keys
    assert (keys.enabled, keys.pin_factory, keys.pull_up, keys.bounce_ms, keys.hold_ms) == (
        True, "mock", False, 5, 1500)
    assert keys.pins["misdeal"] == "GPIO17" and keys.pins["undo"] == 27
    assert keys.pins["boxed"] == "" and keys.pins["new_hand"] == "GPIO5"


@pytest.mark.parametrize(("text", "message"), [
    ('enabled = "yes"', "keys.enabled: must be bool, got 'yes'"),
    ('pin_factory = "lgpio"', 'keys.pin_factory: must be "" or "mock", got \'lgpio\''),
    ("bounce_ms = 900", "keys.bounce_ms: must be 0..500, got 900"),
    ("hold_ms = 50", "keys.hold_ms: must be 100..10000, got 50"),
    ("bounce_ms = 300\nhold_ms = 200",
     "keys.hold_ms: must be longer than keys.bounce_ms (300), got 200"),
    ('misdeal = "GPIO5"', "keys.misdeal: GPIO5 is already used by new_hand"),
    ('undo = "pin 7"', "keys.undo: 'pin 7' is not a BCM pin name like 'GPIO17'"),
    ("award = true", 'keys.award: must be a pin like "GPIO17" or "", got True'),
    ('award = "GPIO1"', "keys.award: GPIO1 is not one of GPIO2..GPIO27"),
    ('deal = "GPIO4"', "keys.deal: unknown key"),
])
def test_a_bad_keys_value_names_the_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as err:
        config(f"[leds]\nenabled = false\n[keys]\n{text}\n")
    assert str(err.value).startswith(message)


def test_a_key_on_an_led_pin_is_refused() -> None:
    # the default 6-seat board drives every free pin
    with pytest.raises(ConfigError, match=r"^keys.new_hand: GPIO5 is also the LED pin of leds "
                                          r"alert \(the default 6-seat LED map uses every"):
        config("[keys]\nenabled = true\n")
    # the 10-seat chain drives four
    with pytest.raises(ConfigError, match=r"^keys.attention: GPIO25 is also the LED pin of "
                                          r"leds.shift_register.enable$"):
        config('[leds]\ndriver = "shift_register"\n[keys]\nenabled = true\n'
               'attention = "GPIO25"\n')
    with pytest.raises(ConfigError, match=r"^keys.undo: GPIO4 is also the LED pin of leds seat 1 "
                                          r"button$"):
        config('[leds.pins.seats.1]\nbutton = "GPIO4"\n[keys]\nenabled = true\nundo = "GPIO4"\n')
    # the default key pins are clear of the 10-seat chain
    assert config('[leds]\ndriver = "shift_register"\n[keys]\nenabled = true\n').keys.enabled
    # keys that are off are not checked against the LEDs
    assert not config('[keys]\nenabled = false\n').keys.enabled


def test_config_check_summarises_the_keys() -> None:
    from controller.cli.config_check import summary

    off = "\n".join(summary(config("")))
    assert "  keys         off" in off
    on = "\n".join(summary(config('[leds]\ndriver = "shift_register"\n[keys]\nenabled = true\n'
                                  'pin_factory = "mock"\nboxed = ""\nhold_ms = 1500\n')))
    assert ("  keys         7 keys, pull-up, debounce 20 ms, misdeal and undo held 1500 ms; "
            "pin factory mock") in on
