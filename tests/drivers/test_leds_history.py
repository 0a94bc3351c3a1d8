"""The LED drivers keep gpiozero's mock pin history bounded across thousands of plans.

A simulated table drives its LEDs on mock pins, whose ``states`` list would otherwise record
every change for as long as the table runs (weeks); the last ``show`` must still be readable
whole from the history.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from drivers.leds import DEFAULT_PIN_MAP_6_SEATS, LedPlan, TableLeds
from drivers.pin_history import PIN_HISTORY, trim_history
from drivers.shift_register import DEFAULT_SHIFT_REGISTER, ShiftRegisterLeds

ACTIVITY = 6  # the 6-seat board's activity light (toggles with every card)
CLOCK = 11  # the shift-register clock (DEFAULT_SHIFT_REGISTER["clock"])


def plan(n: int) -> LedPlan:
    """The n-th plan of a long session: the button goes round, activity toggles every plan."""
    button = n % 6 + 1
    return LedPlan(button=button, small_blind=button % 6 + 1, big_blind=(button + 1) % 6 + 1,
                   to_act=(button + 2) % 6 + 1, activity=n % 2 == 1)


@pytest.fixture
def pwm_factory() -> Iterator[MockFactory]:
    factory = MockFactory(pin_class=MockPWMPin)
    try:
        yield factory
    finally:
        factory.reset()


@pytest.fixture
def plain_factory() -> Iterator[MockFactory]:
    factory = MockFactory(pin_class=MockPin)
    try:
        yield factory
    finally:
        factory.reset()


def test_table_leds_pin_history_stops_growing(pwm_factory: MockFactory) -> None:
    with TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=pwm_factory) as leds:
        sizes = []
        for n in range(3000):
            leds.show(plan(n))
            if n + 1 in (1000, 3000):
                sizes.append(len(pwm_factory.pin(ACTIVITY).states))
        assert sizes[0] == sizes[1] <= PIN_HISTORY + 1
        # the history is still the pin's: it ends with the last show's change (3000th: on)
        history = [s.state for s in pwm_factory.pin(ACTIVITY).states]
        assert history[-2:] == [0.0, 1.0]
        assert all(len(p.states) <= PIN_HISTORY + 1 for p in pwm_factory.pins.values())


def test_shift_register_pin_history_stops_growing_and_keeps_the_last_frame_whole(
    plain_factory: MockFactory,
) -> None:
    with ShiftRegisterLeds(pin_factory=plain_factory) as leds:
        sizes = []
        for n in range(400):
            leds.show(plan(n))
            if n + 1 in (200, 400):
                sizes.append(len(plain_factory.pin(CLOCK).states))
        bits = 8 * (int(DEFAULT_SHIFT_REGISTER["seats"]) + 1)
        assert sizes[0] == sizes[1] <= PIN_HISTORY + 2 * bits
        last_frame = [s.state for s in plain_factory.pin(CLOCK).states][-2 * bits:]
        assert last_frame == [True, False] * bits  # every clock pulse of the last frame


def test_trim_history_leaves_real_pins_and_short_histories_alone() -> None:
    class RealPin:  # a real pin factory's pin has no recorded history
        pass

    trim_history(RealPin())
    short = type("Pin", (), {"states": [1, 2, 3]})()
    trim_history(short, keep=5)
    assert short.states == [1, 2, 3]
    trim_history(short, keep=2)
    assert short.states == [2, 3]
