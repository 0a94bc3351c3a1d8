"""Ten seats of LEDs on four GPIO pins: a chain of 74HC(T)595 shift registers, bit-banged.

One 8-bit register per seat plus one for the table, daisy-chained (each chip's QH' feeds the
next chip's SER). The Pi drives four lines through gpiozero ``DigitalOutputDevice``s: data
(SER), shift clock (SRCLK), latch (RCLK) and, optionally, output enable (OE, active low), so
the whole board is testable with gpiozero's ``MockFactory``. Wiring, parts and power budget:
``hardware/leds.md``.

Chip order along the chain: chip 0 (the one whose SER is wired to the Pi) is the table chip,
chip ``n`` is seat ``n``. Bits per chip are ``SEAT_BITS`` / ``TABLE_BITS`` on outputs QA..QH.
A frame is one byte per chip (bit i = output Qi); ``show(plan)`` builds the frame for a
``LedPlan`` and shifts it out only when it differs from the frame on the LEDs: the last chip's
QH first, so after ``8 * chips`` clocks every bit sits in its own register, then one latch pulse
moves all of them to the outputs at once (no flicker while shifting).

The per-seat alert is a red/green bicolour LED: red alone is red, red and green together are
amber. A device fault (``LedPlan.device_fault``: a card reader is down) blinks the table alert
red, fast (``drivers.blink``). The missed-blind role of a plan has no LED on this board.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from typing import Any

from gpiozero import DigitalOutputDevice

from drivers.blink import Blinker
from drivers.leds import MAX_SEATS, LedPlan, _pin_number
from drivers.pin_history import trim_history

__all__ = [
    "DEFAULT_SHIFT_REGISTER",
    "SEAT_BITS",
    "TABLE_BITS",
    "ShiftRegisterConfig",
    "ShiftRegisterLeds",
    "frame_for",
    "validate_shift_register",
]

log = logging.getLogger(__name__)

SEAT_BITS = (
    "button", "small_blind", "big_blind", "straddle", "kill", "to_act", "alert_red", "alert_green"
)
"""A seat chip's outputs QA..QH."""
TABLE_BITS = ("alert_red", "alert_green", "activity")
"""The table chip's outputs QA..QC (QD..QH spare, kept low)."""

DEFAULT_SHIFT_REGISTER: Mapping[str, Any] = {
    "data": "GPIO10",
    "clock": "GPIO11",
    "latch": "GPIO8",
    "enable": "GPIO25",
    "seats": MAX_SEATS,
}
"""The SPI0 pins (MOSI, SCLK, CE0) so the same board can later be driven by the SPI block; OE on
GPIO25. With ``dtparam=spi=off`` all four are plain GPIOs."""

_KEYS = ("data", "clock", "latch", "enable", "seats")
_LINES = ("data", "clock", "latch", "enable")


class ShiftRegisterConfig:
    """A checked ``[leds.shift_register]`` table: BCM pin numbers and the seat count."""

    __slots__ = ("clock", "data", "enable", "latch", "seats")

    def __init__(self, data: int, clock: int, latch: int, enable: int | None, seats: int) -> None:
        self.data, self.clock, self.latch, self.enable, self.seats = (
            data, clock, latch, enable, seats
        )

    def __repr__(self) -> str:
        return (f"ShiftRegisterConfig(data={self.data}, clock={self.clock}, latch={self.latch}, "
                f"enable={self.enable}, seats={self.seats})")


def validate_shift_register(config: object) -> ShiftRegisterConfig:
    """Check a ``shift_register`` mapping; missing keys take ``DEFAULT_SHIFT_REGISTER``.

    ``enable`` may be ``""`` (OE tied low on the board). Raises ``ValueError`` naming the key
    (``shift_register.clock: GPIO10 is already used by shift_register.data``).
    """
    if not isinstance(config, Mapping):
        raise ValueError(f"shift_register must be a mapping, not {type(config).__name__}")
    for key in config:
        if key not in _KEYS:
            raise ValueError(
                f"shift_register.{key}: unknown key (known: {', '.join(sorted(_KEYS))})"
            )
    merged = {**DEFAULT_SHIFT_REGISTER, **config}
    seats = merged["seats"]
    if isinstance(seats, bool) or not isinstance(seats, int) or not 1 <= seats <= MAX_SEATS:
        raise ValueError(f"shift_register.seats: must be 1..{MAX_SEATS}, got {seats!r}")
    pins: dict[str, int | None] = {}
    used: dict[int, str] = {}
    for line in _LINES:
        where = f"shift_register.{line}"
        value = merged[line]
        if line == "enable" and value in ("", None):
            pins[line] = None
            continue
        number = _pin_number(value, where)
        if number in used:
            raise ValueError(f"{where}: GPIO{number} is already used by {used[number]}")
        used[number] = where
        pins[line] = number
    data, clock, latch = pins["data"], pins["clock"], pins["latch"]
    assert data is not None and clock is not None and latch is not None
    return ShiftRegisterConfig(data, clock, latch, pins["enable"], seats)


def frame_for(plan: LedPlan, seats: int) -> bytes:
    """The chain's bytes for ``plan``: index 0 the table chip, index n seat n; bit i = Qi."""
    table = {
        "alert_red": plan.alert_colour in ("red", "amber"),
        "alert_green": plan.alert_colour == "amber",
        "activity": plan.activity,
    }
    frame = [sum(1 << i for i, name in enumerate(TABLE_BITS) if table[name])]
    for seat in range(1, seats + 1):
        lit = set(plan.roles_at(seat))
        colour = plan.seat_alert(seat)
        if colour in ("red", "amber"):
            lit.add("alert_red")
        if colour == "amber":
            lit.add("alert_green")
        frame.append(sum(1 << i for i, name in enumerate(SEAT_BITS) if name in lit))
    return bytes(frame)


class ShiftRegisterLeds:
    """The 10-seat LED board; ``show(plan)`` is safe to call from any thread.

    Holds every gpiozero device for its lifetime (a collected device lets its pin float). At
    start the outputs stay disabled (OE high, pulled up on the board) until an all-off frame
    is latched, so no stale register contents flash at power-on.
    """

    def __init__(
        self, config: Mapping[str, Any] = DEFAULT_SHIFT_REGISTER, *, pin_factory: Any = None
    ) -> None:
        self.config = validate_shift_register(config)
        self._lock = threading.Lock()
        self._devices: list[DigitalOutputDevice] = []
        self._closed = False
        self.frames_written = 0
        """How many frames were shifted out and latched (tests check nothing is rewritten)."""
        self._unwired: set[int] = set()
        self._blinking = False  # the table alert blinks (a device fault)
        self._blinker: Blinker | None = None
        try:
            self._enable = None
            if self.config.enable is not None:
                # active_high=False: "on" drives OE low, which enables the outputs.
                self._enable = self._device(self.config.enable, active_high=False,
                                            pin_factory=pin_factory)
            self._data = self._device(self.config.data, pin_factory=pin_factory)
            self._clock = self._device(self.config.clock, pin_factory=pin_factory)
            self._latch = self._device(self.config.latch, pin_factory=pin_factory)
            self._frame = bytes(self.config.seats + 1)
            self._base = self._frame  # the plan's frame, the alert in its on phase
            self._write(self._frame)
            if self._enable is not None:
                self._enable.on()
        except BaseException:
            self._close_devices()
            raise

    def _device(self, pin: int, *, pin_factory: Any, active_high: bool = True) -> Any:
        device = DigitalOutputDevice(f"GPIO{pin}", active_high=active_high, initial_value=False,
                                     pin_factory=pin_factory)
        self._devices.append(device)
        return device

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats on the chain, in order."""
        return tuple(range(1, self.config.seats + 1))

    @property
    def frame(self) -> bytes:
        """The bytes latched on the outputs now (index 0 the table chip)."""
        with self._lock:
            return self._frame

    def lit(self) -> frozenset[tuple[int | None, str]]:
        """The (seat, output) LEDs that are on; seat is None for the table chip."""
        frame = self.frame
        out: set[tuple[int | None, str]] = {
            (None, name) for i, name in enumerate(TABLE_BITS) if frame[0] >> i & 1
        }
        for seat in self.seats:
            out |= {(seat, name) for i, name in enumerate(SEAT_BITS) if frame[seat] >> i & 1}
        return frozenset(out)

    def show(self, plan: LedPlan) -> None:
        """Latch the frame for ``plan`` if it differs from the one shown; seats past the chain
        are ignored (logged once per seat)."""
        frame = frame_for(plan, self.config.seats)
        with self._lock:
            if self._closed:
                raise RuntimeError("ShiftRegisterLeds.show() after close()")
            self._base, self._blinking = frame, plan.device_fault
            if frame != self._frame:
                self._write(frame)
                self._frame = frame
            self._note_unwired(plan)
            if self._blinking and self._blinker is None:
                self._blinker = Blinker(self._blink, name="alert-blink")
            blinker = self._blinker
        if blinker is not None:  # outside the lock: the blink thread takes it to write
            blinker.set("fast" if plan.device_fault else None)

    @property
    def blinking(self) -> bool:
        """Whether the table alert blinks now (a device fault)."""
        return self._blinking

    def _blink(self, on: bool) -> None:
        with self._lock:
            if self._closed or not self._blinking:
                return  # a show() since stopped the blinking and latched its own frame
            red = 1 << TABLE_BITS.index("alert_red")
            frame = bytes([self._base[0] | red if on else self._base[0] & ~red,
                           *self._base[1:]])
            if frame != self._frame:
                self._write(frame)
                self._frame = frame

    def close(self) -> None:
        """Latch all-off, disable the outputs and release the pins; safe to call twice."""
        if self._blinker is not None:
            self._blinker.close()
        with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                self._frame = bytes(self.config.seats + 1)
                self._write(self._frame)
                if self._enable is not None:
                    self._enable.off()
            finally:
                self._close_devices()

    def __enter__(self) -> ShiftRegisterLeds:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _write(self, frame: bytes) -> None:
        # The first bit clocked in travels furthest: last chip first, QH before QA. The data
        # line is written only when the bit differs from the last one (runs of dark LEDs are
        # the usual case), which halves the pin writes per frame.
        # The pins are written directly (the devices only own them): a device's on()/off() also
        # stops any blink thread under a lock, on each of the ~200 writes of a frame.
        data_pin, clock_pin, latch_pin = self._data.pin, self._clock.pin, self._latch.pin
        for pin in (data_pin, clock_pin, latch_pin):
            trim_history(pin)  # a mock pin records every change (pin_history.py)
        data = 0
        data_pin.state = 0
        for byte in reversed(frame):
            for bit in range(7, -1, -1):
                value = byte >> bit & 1
                if value != data:
                    data_pin.state = data = value
                clock_pin.state = 1
                clock_pin.state = 0
        data_pin.state = 0
        latch_pin.state = 1
        latch_pin.state = 0
        self.frames_written += 1

    def _close_devices(self) -> None:
        for device in self._devices:
            device.close()
        self._devices.clear()

    def _note_unwired(self, plan: LedPlan) -> None:
        named = {plan.button, plan.small_blind, plan.big_blind, plan.to_act, plan.kill}
        named |= {*plan.straddles, *(seat for seat, _ in plan.seat_alerts)}
        for seat in sorted(s for s in named if s is not None and s > self.config.seats):
            if seat not in self._unwired:
                self._unwired.add(seat)
                log.warning("seat %d is past the shift-register chain; its lights are not shown",
                            seat)
