"""The table alert's patterns on gpiozero mock pins: the 6-seat board's one-colour alert tells
red (steady) from amber (slow blink) and from a device fault (fast blink); the 10-seat board's
bicolour alert blinks red fast for a device fault and is steady otherwise (hardware/leds.md)."""

from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Callable, Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from controller.daemon.ledplan import led_plan
from drivers.leds import DEFAULT_PIN_MAP_6_SEATS, LedPlan, TableLeds
from drivers.shift_register import TABLE_BITS, ShiftRegisterLeds
from tests.drivers.test_leds_shift_register import CLOCK, DATA, ENABLE, LATCH, Chain595

ALERT_PIN = 5  # DEFAULT_PIN_MAP_6_SEATS["alert"]


def sample(read: Callable[[], bool], seconds: float, every: float = 0.005) -> list[tuple[float,
                                                                                         bool]]:
    """(time, value) each time ``read()`` changes over ``seconds``, the first reading included."""
    out: list[tuple[float, bool]] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value, now = read(), time.monotonic()
        if not out or out[-1][1] != value:
            out.append((now, value))
        time.sleep(every)
    return out


def gaps(changes: list[tuple[float, bool]]) -> list[float]:
    """The times between changes (the first reading is not a change)."""
    return [b[0] - a[0] for a, b in itertools.pairwise(changes[1:])]


@pytest.fixture
def six() -> Iterator[tuple[TableLeds, MockFactory]]:
    factory = MockFactory(pin_class=MockPWMPin)
    leds = TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=factory)
    try:
        yield leds, factory
    finally:
        leds.close()
        factory.reset()


def test_six_seat_alert_red_steady_amber_slow_fault_fast(six: tuple[TableLeds, MockFactory]
                                                         ) -> None:
    leds, factory = six
    pin = factory.pin(ALERT_PIN)

    def lit() -> bool:
        return bool(pin.state)

    leds.show(LedPlan(alert_colour="red"))
    assert leds.alert_rhythm is None
    assert [v for _, v in sample(lit, 0.3)] == [True]  # steady on

    leds.show(LedPlan(alert_colour="amber"))
    assert leds.alert_rhythm == "slow"
    slow = sample(lit, 1.3)
    assert {v for _, v in slow} == {True, False}
    # the rhythm by its median: on a loaded machine one beat may come late (no idle machine is
    # assumed), but slow (0.5 s) and fast (0.1 s) stay apart
    assert statistics.median(gaps(slow) or [0.5]) > 0.3, gaps(slow)

    leds.show(LedPlan(device_fault=True))
    assert leds.alert_rhythm == "fast"
    fast = sample(lit, 0.8)
    assert len(fast) >= 4, fast
    assert statistics.median(gaps(fast)) < 0.3, gaps(fast)

    leds.show(LedPlan())  # all clear: off, and it stays off
    assert leds.alert_rhythm is None
    assert {v for _, v in sample(lit, 0.4)} == {False}
    leds.show(LedPlan(alert_colour="red"))  # a blink that stopped never leaves red dark
    assert {v for _, v in sample(lit, 0.3)} == {True}


def test_ten_seat_alert_blinks_red_for_a_device_fault_only() -> None:
    factory = MockFactory(pin_class=MockPin)
    chain = Chain595(factory, 11, (DATA, CLOCK, LATCH, ENABLE))
    red, green = (1 << TABLE_BITS.index(n) for n in ("alert_red", "alert_green"))
    try:
        with ShiftRegisterLeds(pin_factory=factory) as leds:
            leds.show(LedPlan(alert_colour="amber", button=3))
            amber = sample(lambda: chain.chip(0) & (red | green) == red | green, 0.4)
            assert [v for _, v in amber] == [True]  # amber is a colour here: steady
            leds.show(LedPlan(device_fault=True, button=3))
            assert leds.blinking
            fault = sample(lambda: bool(chain.chip(0) & red), 0.8)
            assert len(fault) >= 4 and statistics.median(gaps(fault)) < 0.3, fault
            assert not chain.chip(0) & green  # red, never amber
            assert (3, "button") in chain.lit()  # the seats' lights stay as they are
            leds.show(LedPlan(alert_colour="red", button=3))
            assert not leds.blinking
            assert {v for _, v in sample(lambda: bool(chain.chip(0) & red), 0.3)} == {True}
    finally:
        factory.reset()


def test_the_plan_from_a_snapshot_with_a_reader_down() -> None:
    down = led_plan({"devices": [{"reader": 1, "state": "offline"}], "findings": []})
    assert down.device_fault and down.alert_pattern == "fault" and down.alert_colour == "red"
    noisy = led_plan({"devices": [{"reader": 2, "state": "noisy"}]})
    assert not noisy.device_fault and noisy.alert_pattern == "amber"
    fine = led_plan({"devices": [{"reader": 1, "state": "ok"}, "junk", {"state": 3}]})
    assert fine == LedPlan()
