"""The 10-seat 74HC595 board through gpiozero mock pins: a model of the chip chain watches the
data, clock, latch and enable pins and the tests read the LEDs off its outputs."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from drivers.leds import LedPlan
from drivers.shift_register import (
    DEFAULT_SHIFT_REGISTER,
    SEAT_BITS,
    TABLE_BITS,
    ShiftRegisterLeds,
    frame_for,
    validate_shift_register,
)

WIRING_DOC = Path(__file__).resolve().parents[2] / "hardware" / "leds.md"
DATA, CLOCK, LATCH, ENABLE = 10, 11, 8, 25


class WatchedPin(MockPin):
    """A mock pin that tells a listener about every level change."""

    def __init__(self, factory: Any, info: Any, listener: Any = None) -> None:
        self.listener = listener
        super().__init__(factory, info)

    def _change_state(self, value: bool) -> bool:
        changed = super()._change_state(value)
        if changed and self.listener is not None:
            self.listener(self, value)
        return changed


class Chain595:
    """What a chain of 74HC595s does with the four lines: on a rising SRCLK edge every register
    shifts one place (SER enters QA of chip 0, QH of chip n feeds chip n + 1); on a rising RCLK
    edge the shift registers are copied to the output latches; with OE high no output is on."""

    def __init__(self, factory: MockFactory, chips: int, pins: tuple[int, int, int, int | None]):
        self.chips = chips
        self.shift = [0] * (8 * chips)  # bit index 8 * chip + q
        self.latched = [0] * (8 * chips)
        self.clocks = 0
        self.latches = 0
        data, clock, latch, enable = pins
        self.data = factory.pin(data, pin_class=WatchedPin)
        self.enable = factory.pin(enable, pin_class=WatchedPin) if enable is not None else None
        factory.pin(clock, pin_class=WatchedPin).listener = self._on_clock
        factory.pin(latch, pin_class=WatchedPin).listener = self._on_latch

    def _on_clock(self, pin: Any, value: bool) -> None:
        if value:
            self.shift = [int(self.data.state), *self.shift[:-1]]
            self.clocks += 1

    def _on_latch(self, pin: Any, value: bool) -> None:
        if value:
            self.latched = list(self.shift)
            self.latches += 1

    @property
    def outputs_enabled(self) -> bool:
        return self.enable is None or (
            self.enable.function == "output" and self.enable.state == 0
        )

    def chip(self, n: int) -> int:
        """Chip n's output byte as the LEDs show it (bit i = Qi)."""
        if not self.outputs_enabled:
            return 0
        return sum(bit << q for q, bit in enumerate(self.latched[8 * n : 8 * n + 8]))

    def lit(self) -> set[tuple[int | None, str]]:
        out: set[tuple[int | None, str]] = {
            (None, name) for q, name in enumerate(TABLE_BITS) if self.chip(0) >> q & 1
        }
        for seat in range(1, self.chips):
            out |= {(seat, name) for q, name in enumerate(SEAT_BITS) if self.chip(seat) >> q & 1}
        return out


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory(pin_class=MockPin)
    try:
        yield f
    finally:
        f.reset()


@pytest.fixture
def chain(factory: MockFactory) -> Chain595:
    return Chain595(factory, 11, (DATA, CLOCK, LATCH, ENABLE))


def test_starts_dark_with_an_all_off_frame_latched_before_enabling(
    factory: MockFactory, chain: Chain595
) -> None:
    with ShiftRegisterLeds(pin_factory=factory) as leds:
        assert leds.seats == tuple(range(1, 11))
        assert (chain.clocks, chain.latches) == (88, 1)
        assert chain.outputs_enabled
        assert chain.lit() == set() == leds.lit()
        # OE went low (enabled) only after the one latch: high before, low after.
        assert [s.state for s in factory.pin(ENABLE).states] == [False, True, False]


def test_each_role_lands_on_its_own_output(chain: Chain595, factory: MockFactory) -> None:
    plan = LedPlan(button=1, small_blind=2, big_blind=3, straddles=(4, 10), kill=5, to_act=6,
                   activity=True, alert_colour="amber", seat_alerts={7: "red", 9: "amber"})
    with ShiftRegisterLeds(pin_factory=factory) as leds:
        leds.show(plan)
        assert [chain.chip(n) for n in range(11)] == [
            0b111, 0b1, 0b10, 0b100, 0b1000, 0b10000, 0b100000, 0b1000000, 0, 0b11000000, 0b1000
        ]
        assert chain.lit() == {
            (None, "alert_red"), (None, "alert_green"), (None, "activity"),
            (1, "button"), (2, "small_blind"), (3, "big_blind"), (4, "straddle"),
            (5, "kill"), (6, "to_act"), (7, "alert_red"), (9, "alert_red"),
            (9, "alert_green"), (10, "straddle"),
        }
        assert leds.lit() == chain.lit()
        assert leds.frame == frame_for(plan, 10)


def test_red_alert_lights_red_only(chain: Chain595, factory: MockFactory) -> None:
    with ShiftRegisterLeds(pin_factory=factory) as leds:
        leds.show(LedPlan(alert=True, seat_alerts={3: "red"}))
        assert chain.lit() == {(None, "alert_red"), (3, "alert_red")}


def test_only_a_changed_frame_is_shifted(chain: Chain595, factory: MockFactory) -> None:
    with ShiftRegisterLeds(pin_factory=factory) as leds:
        plan = LedPlan(button=8, small_blind=9, big_blind=10, to_act=1)
        leds.show(plan)
        assert (leds.frames_written, chain.latches, chain.clocks) == (2, 2, 176)
        leds.show(LedPlan(button=8, small_blind=9, big_blind=10, to_act=1))
        # A missed blind has no LED on this board, so the frame is the same too.
        leds.show(LedPlan(button=8, small_blind=9, big_blind=10, to_act=1, missed_blinds=(4,)))
        assert (leds.frames_written, chain.latches, chain.clocks) == (2, 2, 176)
        leds.show(LedPlan(button=8, small_blind=9, big_blind=10, to_act=2))
        assert (leds.frames_written, chain.latches) == (3, 3)
        assert chain.lit() == {(8, "button"), (9, "small_blind"), (10, "big_blind"), (2, "to_act")}


def test_outputs_do_not_change_while_shifting(chain: Chain595, factory: MockFactory) -> None:
    # The latch pulse comes once per frame, after all 88 clocks: the LEDs go from one frame to
    # the next without showing the bits passing through.
    seen: list[int] = []
    factory.pin(CLOCK).listener = _also(factory.pin(CLOCK).listener,
                                        lambda: seen.append(chain.chip(1)))
    with ShiftRegisterLeds(pin_factory=factory) as leds:
        leds.show(LedPlan(button=1))
        shifted = seen[88:]
        assert set(shifted) == {0}
        seen.clear()
        leds.show(LedPlan(small_blind=1))
        assert set(seen) == {0b1}
        assert chain.chip(1) == 0b10


def _also(first: Any, then: Any) -> Any:
    def both(pin: Any, value: bool) -> None:
        first(pin, value)
        if value:
            then()
    return both


def test_a_shorter_chain(factory: MockFactory, caplog: pytest.LogCaptureFixture) -> None:
    chain = Chain595(factory, 7, (17, 27, 22, None))
    config = {"data": "GPIO17", "clock": "GPIO27", "latch": "GPIO22", "enable": "", "seats": 6}
    with (
        caplog.at_level(logging.WARNING, logger="drivers.shift_register"),
        ShiftRegisterLeds(config, pin_factory=factory) as leds,
    ):
        assert chain.clocks == 56
        leds.show(LedPlan(button=6, small_blind=7, big_blind=8, to_act=1))
        leds.show(LedPlan(button=6, small_blind=7, big_blind=8, to_act=2))
        assert chain.lit() == {(6, "button"), (2, "to_act")}
    assert sum("seat 7" in r.getMessage() for r in caplog.records) == 1
    assert sum("seat 8" in r.getMessage() for r in caplog.records) == 1


def test_close_latches_all_off_disables_and_frees_the_pins(
    chain: Chain595, factory: MockFactory
) -> None:
    leds = ShiftRegisterLeds(pin_factory=factory)
    leds.show(LedPlan(button=1, to_act=5, alert=True))
    assert chain.lit()
    leds.close()
    leds.close()
    assert chain.latched == [0] * 88
    assert not chain.outputs_enabled
    with pytest.raises(RuntimeError, match="close"):
        leds.show(LedPlan())
    with ShiftRegisterLeds(pin_factory=factory) as again:
        again.show(LedPlan(button=2))
        assert chain.lit() == {(2, "button")}


@pytest.mark.parametrize(
    ("config", "named"),
    [
        ([], "shift_register must be a mapping"),
        ({"serial": "GPIO4"}, "shift_register.serial: unknown key"),
        ({"data": "GPIO11"}, "shift_register.clock: GPIO11 is already used by shift_register.data"),
        ({"latch": "BOARD24"}, "shift_register.latch: 'BOARD24'"),
        ({"enable": "GPIO1"}, "shift_register.enable: GPIO1"),
        ({"clock": True}, "shift_register.clock"),
        ({"seats": 11}, "shift_register.seats: must be 1..10, got 11"),
        ({"seats": 0}, "shift_register.seats"),
        ({"seats": "10"}, "shift_register.seats"),
    ],
)
def test_bad_configs_name_the_key(factory: MockFactory, config: Any, named: str) -> None:
    with pytest.raises(ValueError, match=re.escape(named)):
        ShiftRegisterLeds(config, pin_factory=factory)
    # Nothing was claimed: the default pins are free for a good board.
    with ShiftRegisterLeds(pin_factory=factory):
        pass


def test_a_pin_factory_failure_releases_the_claimed_pins(factory: MockFactory) -> None:
    # The latch pin is taken by someone else: the board fails to build and gives back the
    # pins it had already claimed.
    from gpiozero import DigitalOutputDevice
    from gpiozero.exc import GPIOPinInUse

    holder = DigitalOutputDevice(LATCH, pin_factory=factory)
    with pytest.raises(GPIOPinInUse):
        ShiftRegisterLeds(pin_factory=factory)
    holder.close()
    with ShiftRegisterLeds(pin_factory=factory):
        pass


def test_defaults_and_documented_pins_agree(factory: MockFactory) -> None:
    config = validate_shift_register({})
    assert (config.data, config.clock, config.latch, config.enable, config.seats) == (
        DATA, CLOCK, LATCH, ENABLE, 10
    )
    doc = WIRING_DOC.read_text(encoding="utf-8")
    rows = {
        line: (int(bcm), int(header))
        for line, bcm, header in re.findall(
            r"^\|\s*([a-z]+)\s*\|\s*\w+\s*\|\s*GPIO(\d+)\s*\|\s*(\d+)\s*\|", doc, re.M
        )
    }
    assert set(rows) == {"data", "clock", "latch", "enable"}
    header = factory.board_info.headers["J8"].pins
    for line, (bcm, physical) in rows.items():
        assert f"GPIO{bcm}" == DEFAULT_SHIFT_REGISTER[line], line
        assert f"GPIO{bcm}" in header[physical].names, line
    # The documented chip outputs are the driver's bit order.
    outputs = re.findall(r"^\|\s*Q([A-H])\s*\|\s*\d+\s*\|\s*(\w+)\s*\|\s*(\w*)\s*\|", doc, re.M)
    assert [(q, seat) for q, seat, _ in outputs] == list(zip("ABCDEFGH", SEAT_BITS, strict=True))
    assert [table for _, _, table in outputs][: len(TABLE_BITS)] == list(TABLE_BITS)
