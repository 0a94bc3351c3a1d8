"""Seat LEDs through gpiozero's mock pins: plans over several hands, table lights, bad pin maps."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.leds import DEFAULT_PIN_MAP_6_SEATS, SEAT_ROLES, LedPlan, TableLeds

WIRING_DOC = Path(__file__).resolve().parents[2] / "hardware" / "leds.md"

# The default 6-seat wiring, written out by hand: seat -> BCM pins for
# (button, small blind, big blind, to act). hardware/leds.md must say the same.
WIRING = {
    1: (4, 17, 27, 22),
    2: (18, 23, 24, 25),
    3: (12, 16, 20, 21),
    4: (13, 19, 26, 7),
    5: (10, 9, 11, 8),
    6: (14, 15, 2, 3),
}
ALERT, ACTIVITY = 5, 6


def lit_pins(factory: MockFactory) -> set[int]:
    """Pins driven high. GPIO2/3 read high as inputs too (the board's I2C pull-ups): not lit."""
    return {
        n for n in range(2, 28) if factory.pin(n).function == "output" and factory.pin(n).state == 1
    }


def expected_pins(plan: LedPlan) -> set[int]:
    pins = {
        WIRING[seat][i]
        for i, role in enumerate(SEAT_ROLES)
        if (seat := getattr(plan, role)) is not None and seat in WIRING
    }
    if plan.alert:
        pins.add(ALERT)
    if plan.activity:
        pins.add(ACTIVITY)
    return pins


def rotation(hands: int, seats: int = 6) -> list[LedPlan]:
    """A full ring: the button moves one seat clockwise each hand, blinds and first to act follow;
    the activity light toggles with the cards of each hand, an alert is raised in hand 3."""
    plans = []
    for hand in range(hands):
        button = hand % seats + 1
        small = button % seats + 1
        big = small % seats + 1
        first = big % seats + 1
        plans.append(LedPlan(button, small, big, first, alert=hand == 3, activity=hand % 2 == 1))
    return plans


def test_all_off_when_built(mock_factory: MockFactory) -> None:
    with TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=mock_factory) as leds:
        assert leds.seats == (1, 2, 3, 4, 5, 6)
        assert lit_pins(mock_factory) == set()
        assert leds.lit() == frozenset()


def test_button_and_blinds_move_round_the_table(mock_factory: MockFactory) -> None:
    with TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=mock_factory) as leds:
        for hand, plan in enumerate(rotation(8)):
            leds.show(plan)
            assert lit_pins(mock_factory) == expected_pins(plan), f"hand {hand + 1}"
        # Hand 8: button at seat 2, blinds at 3 and 4, seat 5 first to act.
        assert lit_pins(mock_factory) == {18, 16, 26, 8, ACTIVITY}
        assert leds.lit() == {
            (2, "button"),
            (3, "small_blind"),
            (4, "big_blind"),
            (5, "to_act"),
            (None, "activity"),
        }


def test_action_moves_round_within_a_hand(mock_factory: MockFactory) -> None:
    with TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=mock_factory) as leds:
        for seat in (4, 5, 6, 1, 2, 3):
            leds.show(LedPlan(button=1, small_blind=2, big_blind=3, to_act=seat))
            assert mock_factory.pin(WIRING[seat][3]).state == 1
            others = {WIRING[s][3] for s in WIRING if s != seat}
            assert all(mock_factory.pin(p).state == 0 for p in others)


def test_heads_up_button_is_the_small_blind(mock_factory: MockFactory) -> None:
    # Heads-up the button posts the small blind: two lights at one seat.
    with TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=mock_factory) as leds:
        leds.show(LedPlan(button=4, small_blind=4, big_blind=1, to_act=4))
        assert lit_pins(mock_factory) == {13, 19, 7, 27}


def test_only_changed_pins_are_written(mock_factory: MockFactory) -> None:
    with TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=mock_factory) as leds:
        first, second = rotation(2)
        leds.show(first)
        assert leds.pin_writes == 4
        leds.show(first)
        assert leds.pin_writes == 4
        # Button, blinds and action all move one seat (8 switches) and activity turns on (1).
        leds.show(second)
        assert leds.pin_writes == 4 + 9
        assert [s.state for s in mock_factory.pin(WIRING[1][0]).states] == [False, True, False]


def test_alert_and_activity_lights(mock_factory: MockFactory) -> None:
    with TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=mock_factory) as leds:
        states = []
        for cards in range(5):  # the activity light toggles with each card the core applies
            leds.show(LedPlan(activity=cards % 2 == 1, alert=cards >= 3))
            states.append((mock_factory.pin(ACTIVITY).state, mock_factory.pin(ALERT).state))
        assert states == [(0, 0), (1, 0), (0, 0), (1, 1), (0, 1)]
        leds.show(LedPlan())
        assert lit_pins(mock_factory) == set()


def test_the_given_pin_factory_is_used(mock_factory: MockFactory) -> None:
    own = MockFactory(pin_class=MockPWMPin)
    try:
        with TableLeds({"alert": "GPIO5"}, pin_factory=own) as leds:
            leds.show(LedPlan(alert=True))
            assert own.pin(5).state == 1
            assert mock_factory.pin(5).state == 0
    finally:
        own.reset()


def test_a_seat_without_leds_is_ignored_and_logged(
    mock_factory: MockFactory, caplog: pytest.LogCaptureFixture
) -> None:
    with (
        caplog.at_level(logging.WARNING, logger="drivers.leds"),
        TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=mock_factory) as leds,
    ):
        leds.show(LedPlan(button=7, small_blind=8, big_blind=1, to_act=2))
        leds.show(LedPlan(button=7, small_blind=8, big_blind=1, to_act=2))
        assert lit_pins(mock_factory) == {WIRING[1][2], WIRING[2][3]}
    warnings = [r.getMessage() for r in caplog.records]
    assert sum("seat 7" in m for m in warnings) == 1
    assert sum("seat 8" in m for m in warnings) == 1


def test_close_turns_everything_off_and_frees_the_pins(mock_factory: MockFactory) -> None:
    leds = TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=mock_factory)
    plan = LedPlan(1, 2, 3, 4, alert=True, activity=True)
    leds.show(plan)
    assert lit_pins(mock_factory) == expected_pins(plan)
    leds.close()
    leds.close()
    assert lit_pins(mock_factory) == set()
    # Switched off before being released, so no light is left to the pin's idle pull.
    assert all(mock_factory.pin(p).states[-1].state == 0 for p in expected_pins(plan))
    with pytest.raises(RuntimeError, match="close"):
        leds.show(LedPlan())
    # The same pins can be claimed again (no GPIOPinInUse).
    with TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=mock_factory) as again:
        again.show(LedPlan(button=1))
        assert lit_pins(mock_factory) == {4}


def test_pin_spellings_are_accepted(mock_factory: MockFactory) -> None:
    pin_map = {"seats": {3: {"button": 17, "to_act": "bcm27"}}, "activity": " GPIO22 "}
    with TableLeds(pin_map, pin_factory=mock_factory) as leds:
        assert (leds.pin(3, "button"), leds.pin(3, "to_act"), leds.pin(None, "activity")) == (
            17,
            27,
            22,
        )
        leds.show(LedPlan(button=3, activity=True))
        assert lit_pins(mock_factory) == {17, 22}


def seat_map(**roles: Any) -> dict[str, Any]:
    return {"seats": {"1": {"button": "GPIO4", **roles}}}


@pytest.mark.parametrize(
    ("pin_map", "named"),
    [
        (seat_map(dealer="GPIO17"), "['dealer']"),
        (seat_map(small_blind="GPIO4"), "['small_blind']"),
        (seat_map(small_blind="BCM4"), "already used by pin_map['seats']['1']['button']"),
        ({**seat_map(), "alert": 4}, "pin_map['alert']: GPIO4 is already used"),
        ({"seats": {"11": {"button": "GPIO4"}}}, "['11']"),
        ({"seats": {"0": {"button": "GPIO4"}}}, "['0']"),
        ({"seats": {"one": {"button": "GPIO4"}}}, "['one']"),
        ({"seats": {"1": {"button": 4}, 1: {"to_act": 5}}}, "seat 1 is also given"),
        (seat_map(to_act="BOARD11"), "['to_act']: 'BOARD11'"),
        (seat_map(to_act="GPIO1"), "['to_act']: GPIO1"),
        (seat_map(to_act=28), "['to_act']: GPIO28"),
        (seat_map(to_act=True), "['to_act']"),
        ({**seat_map(), "buzzer": "GPIO5"}, "pin_map['buzzer']"),
        ({"seats": ["GPIO4"]}, "pin_map['seats']"),
        ({"seats": {"2": "GPIO4"}}, "pin_map['seats']['2']"),
    ],
)
def test_bad_pin_maps_name_the_key(
    mock_factory: MockFactory, pin_map: dict[str, Any], named: str
) -> None:
    with pytest.raises(ValueError) as caught:
        TableLeds(pin_map, pin_factory=mock_factory)
    assert named in str(caught.value)
    assert lit_pins(mock_factory) == set()


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"button": 11}, "LedPlan.button"),
        ({"to_act": 0}, "LedPlan.to_act"),
        ({"big_blind": True}, "LedPlan.big_blind"),
        ({"alert": 1}, "LedPlan.alert"),
    ],
)
def test_bad_plans_are_refused(kwargs: dict[str, Any], named: str) -> None:
    with pytest.raises(ValueError, match=re.escape(named)):
        LedPlan(**kwargs)


def test_default_map_uses_26_distinct_pins_2_to_27_as_documented() -> None:
    seats = DEFAULT_PIN_MAP_6_SEATS["seats"]
    pins = [int(p[4:]) for roles in seats.values() for p in roles.values()]
    pins += [int(DEFAULT_PIN_MAP_6_SEATS[k][4:]) for k in ("alert", "activity")]
    assert sorted(pins) == list(range(2, 28))
    assert {int(s): tuple(int(roles[r][4:]) for r in SEAT_ROLES) for s, roles in seats.items()} == (
        WIRING
    )
    # Every row of the wiring table in hardware/leds.md agrees with the code.
    rows = re.findall(
        r"^\|\s*(\d+|-)\s*\|\s*(\w+)\s*\|\s*GPIO(\d+)\s*\|\s*(\d+)\s*\|", _doc(), re.M
    )
    documented = {(seat, role): int(pin) for seat, role, pin, _ in rows}
    expected = {(str(s), r): WIRING[s][i] for s in WIRING for i, r in enumerate(SEAT_ROLES)}
    expected |= {("-", "alert"): ALERT, ("-", "activity"): ACTIVITY}
    assert documented == expected


def _doc() -> str:
    return WIRING_DOC.read_text(encoding="utf-8")


def test_documented_header_pins_match_the_board(mock_factory: MockFactory) -> None:
    rows = re.findall(
        r"^\|\s*(?:\d+|-)\s*\|\s*\w+\s*\|\s*GPIO(\d+)\s*\|\s*(\d+)\s*\|", _doc(), re.M
    )
    assert len(rows) == 26
    header = mock_factory.board_info.headers["J8"].pins
    for bcm, physical in rows:
        assert f"GPIO{bcm}" in header[int(physical)].names


_SEAT = st.one_of(st.none(), st.integers(1, 6))
_PLANS = st.builds(
    LedPlan, button=_SEAT, small_blind=_SEAT, big_blind=_SEAT, to_act=_SEAT,
    activity=st.booleans(), kill=_SEAT,
    straddles=st.lists(st.integers(1, 6), max_size=2).map(tuple),
    missed_blinds=st.lists(st.integers(1, 6), max_size=2).map(tuple),
    alert_colour=st.sampled_from(["off", "red", "amber"]), device_fault=st.booleans())


@settings(max_examples=60, deadline=None)
@given(st.lists(_PLANS, min_size=1, max_size=25))
def test_any_run_of_plans_lights_what_the_last_one_wants(plans: list[LedPlan]) -> None:
    """``show`` looks only at the LEDs of the fields that changed since the last plan (when no
    alert blinks): after any run of plans, every pin is what the last plan wants, as a board
    shown only that plan has it, the table alert apart while it blinks."""
    factory, fresh = MockFactory(), MockFactory()
    leds = TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=factory)
    for plan in plans:
        leds.show(plan)
    once = TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=fresh)
    once.show(plans[-1])
    try:
        blinking = leds.alert_rhythm is not None
        mask = {ALERT} if blinking else set()
        assert lit_pins(factory) - mask == lit_pins(fresh) - mask
        assert lit_pins(factory) - mask == expected_pins(plans[-1]) - mask
    finally:
        leds.close()
        once.close()
