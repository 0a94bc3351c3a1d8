"""The [broadcast] section: the secure delay a public table cannot turn off, each bad value
refused with one line naming the key."""

from __future__ import annotations

import pytest

from controller.config import Config, ConfigError, from_mapping


def test_the_default_is_a_public_table_delayed_half_an_hour() -> None:
    config = from_mapping({})
    assert (config.broadcast_delay_s, config.broadcast_public) == (1800.0, True)
    assert config == Config()


def test_a_delay_in_seconds_int_or_float() -> None:
    assert from_mapping({"broadcast": {"delay_s": 600}}).broadcast_delay_s == 600.0
    assert from_mapping({"broadcast": {"delay_s": 2.5}}).broadcast_delay_s == 2.5


def test_no_delay_only_for_a_table_that_is_not_public() -> None:
    with pytest.raises(ConfigError, match=r"^broadcast\.delay_s: 0 would show hole cards live"):
        from_mapping({"broadcast": {"delay_s": 0}})
    with pytest.raises(ConfigError, match=r"^broadcast\.delay_s: 0"):
        from_mapping({"broadcast": {"delay_s": 0, "public": True}})
    config = from_mapping({"broadcast": {"delay_s": 0, "public": False}})
    assert (config.broadcast_delay_s, config.broadcast_public) == (0.0, False)


@pytest.mark.parametrize(("value", "says"), [
    (-1, "must be 0..86400 seconds, got -1"),
    (-0.5, "must be 0..86400 seconds"),
    (86_401, "must be 0..86400 seconds"),
    ("1800", "must be a number of seconds, got '1800'"),
    (True, "must be a number of seconds, got True"),
    (float("nan"), "must be a number of seconds"),
    (float("inf"), "must be 0..86400 seconds"),
    ([30], "must be a number of seconds"),
])
def test_a_bad_delay_is_one_line_naming_the_key(value: object, says: str) -> None:
    with pytest.raises(ConfigError) as caught:
        from_mapping({"broadcast": {"delay_s": value}})
    message = str(caught.value)
    assert message.startswith("broadcast.delay_s: ") and says in message and "\n" not in message


def test_public_must_be_a_bool_and_unknown_keys_are_refused() -> None:
    with pytest.raises(ConfigError, match=r"^broadcast\.public: must be bool"):
        from_mapping({"broadcast": {"public": "no"}})
    with pytest.raises(ConfigError, match=r"^broadcast\.delay: unknown key"):
        from_mapping({"broadcast": {"delay": 30}})
