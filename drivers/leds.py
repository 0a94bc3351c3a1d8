"""Seat LEDs: the ``LedPlan`` every LED driver shows, and the one-pin-per-LED gpiozero driver.

``LedPlan`` says what the table's lights show: per seat the button, small blind, big blind,
straddle, kill, missed-blind and to-act roles and an alert colour, and for the table an alert
colour and a reader-activity light that toggles with every card the core applies. The controller
computes the plan from the table snapshot (``controller.daemon.ledplan``); drivers only know wiring.

``TableLeds(pin_map)`` builds one gpiozero ``LED`` per configured pin and ``show(plan)`` lights
the roles it has pins for (the default 6-seat map wires button, blinds and to act at each seat,
plus the table's alert and activity lights) and ignores the rest. The 10-seat driver, a chain of
74HC595 shift registers, is ``drivers.shift_register``.

Tests pass ``pin_factory=MockFactory(...)``; on the Pi gpiozero picks lgpio. Wiring:
``hardware/leds.md``.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal, get_args

from gpiozero import LED

from drivers.blink import Blinker
from drivers.pin_history import trim_history

__all__ = [
    "ALERT_COLOURS",
    "ALL_SEAT_ROLES",
    "DEFAULT_PIN_MAP_6_SEATS",
    "MAX_SEATS",
    "SEAT_ROLES",
    "TABLE_ROLES",
    "AlertColour",
    "LedPlan",
    "TableLeds",
    "validate_pin_map",
]

log = logging.getLogger(__name__)

MAX_SEATS = 10
SEAT_ROLES = ("button", "small_blind", "big_blind", "to_act")
"""The seat roles of the original 6-seat board (one pin each in ``DEFAULT_PIN_MAP_6_SEATS``)."""
ALL_SEAT_ROLES = (*SEAT_ROLES, "straddle", "kill", "missed_blind")
"""Every on/off seat role of a plan; a pin map may wire any of them."""
TABLE_ROLES = ("alert", "activity")

AlertColour = Literal["off", "amber", "red"]
ALERT_COLOURS: tuple[AlertColour, ...] = get_args(AlertColour)
"""Alert colours from the quietest to the loudest (``max`` by index picks the louder)."""

# BCM 0 and 1 belong to the HAT ID EEPROM; 2..27 are the header's general-purpose pins.
_FIRST_PIN, _LAST_PIN = 2, 27
_PIN_NAME = re.compile(r"(?:GPIO|BCM)(\d{1,2})", re.IGNORECASE)

# BCM pins per seat, in SEAT_ROLES order (button, small blind, big blind, to act).
_DEFAULT_6_SEATS = {
    1: (4, 17, 27, 22),
    2: (18, 23, 24, 25),
    3: (12, 16, 20, 21),
    4: (13, 19, 26, 7),
    5: (10, 9, 11, 8),
    6: (14, 15, 2, 3),
}
DEFAULT_PIN_MAP_6_SEATS: Mapping[str, Any] = {
    "seats": {
        str(seat): {role: f"GPIO{pin}" for role, pin in zip(SEAT_ROLES, pins, strict=True)}
        for seat, pins in _DEFAULT_6_SEATS.items()
    },
    "alert": "GPIO5",
    "activity": "GPIO6",
}
"""Every free BCM pin 2..27 (6 x 4 + 2 = 26): I2C, SPI, UART and 1-wire must be off. See
hardware/leds.md for the header pins, resistors and the boot-time caveats."""


def _check_seat(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SEATS:
        raise ValueError(f"{where} must be a seat 1..{MAX_SEATS} or None, got {value!r}")
    return value


def _check_colour(value: object, where: str) -> AlertColour:
    if value not in ALERT_COLOURS:
        raise ValueError(f"{where} must be one of {', '.join(ALERT_COLOURS)}, got {value!r}")
    return value


def louder(a: AlertColour, b: AlertColour) -> AlertColour:
    """The louder of two alert colours."""
    return a if ALERT_COLOURS.index(a) >= ALERT_COLOURS.index(b) else b


@dataclass(frozen=True, slots=True)
class LedPlan:
    """What the LEDs show.

    Seat roles hold a seat (1..10) or None; ``straddles`` and ``missed_blinds`` hold any number
    of seats (normalised to a sorted tuple). ``alert`` and ``activity`` are the table lights;
    ``alert_colour`` is the table alert's colour and ``seat_alerts`` the colour at each seat a
    finding names (normalised to sorted ``(seat, colour)`` pairs, ``off`` entries dropped).
    ``alert`` and ``alert_colour`` agree after construction: a colour other than ``off`` sets
    ``alert``, and a bare ``alert=True`` (the version-1 plan) means ``red``. ``device_fault``
    (a card reader is down) makes the table alert red and blink fast on every board
    (hardware/leds.md); ``alert_pattern`` says how the table alert shows.
    """

    button: int | None = None
    small_blind: int | None = None
    big_blind: int | None = None
    to_act: int | None = None
    alert: bool = False
    activity: bool = False
    straddles: tuple[int, ...] = ()
    kill: int | None = None
    missed_blinds: tuple[int, ...] = ()
    alert_colour: AlertColour = "off"
    seat_alerts: tuple[tuple[int, AlertColour], ...] = ()
    device_fault: bool = False

    def __post_init__(self) -> None:
        for role in (*SEAT_ROLES, "kill"):
            seat = getattr(self, role)
            if seat is not None:
                _check_seat(seat, f"LedPlan.{role}")
        for role in (*TABLE_ROLES, "device_fault"):
            value = getattr(self, role)
            if not isinstance(value, bool):
                raise ValueError(f"LedPlan.{role} must be True or False, got {value!r}")
        for role in ("straddles", "missed_blinds"):
            seats = getattr(self, role)
            if isinstance(seats, str | bytes | Mapping) or not isinstance(seats, Iterable):
                raise ValueError(f"LedPlan.{role} must be a collection of seats, got {seats!r}")
            checked = {_check_seat(seat, f"LedPlan.{role}") for seat in seats}
            object.__setattr__(self, role, tuple(sorted(checked)))
        colour = _check_colour(self.alert_colour, "LedPlan.alert_colour")
        if (self.alert and colour == "off") or self.device_fault:
            colour = "red"
        object.__setattr__(self, "alert_colour", colour)
        object.__setattr__(self, "alert", colour != "off")
        given: object = self.seat_alerts
        if isinstance(given, Mapping):
            pairs: Iterable[object] = given.items()
        elif isinstance(given, Iterable) and not isinstance(given, str | bytes):
            pairs = given
        else:
            raise ValueError(f"LedPlan.seat_alerts must map seats to colours, got {given!r}")
        alerts: dict[int, AlertColour] = {}
        for pair in pairs:
            if not isinstance(pair, tuple) or len(pair) != 2:
                raise ValueError(f"LedPlan.seat_alerts: {pair!r} is not a (seat, colour) pair")
            seat = _check_seat(pair[0], "LedPlan.seat_alerts seat")
            alerts[seat] = louder(alerts.get(seat, "off"), _check_colour(
                pair[1], f"LedPlan.seat_alerts[{seat}]"
            ))
        object.__setattr__(
            self, "seat_alerts", tuple(sorted((s, c) for s, c in alerts.items() if c != "off"))
        )

    @property
    def alert_pattern(self) -> str:
        """The table alert as lit: ``off``, ``red``, ``amber`` or ``fault`` (red, blinking
        fast: a card reader is down)."""
        return "fault" if self.device_fault else self.alert_colour

    def seat_alert(self, seat: int) -> AlertColour:
        """The alert colour at ``seat`` (``off`` when no finding names it)."""
        return dict(self.seat_alerts).get(seat, "off")

    def wants(self, seat: int | None, role: str) -> bool:
        """Whether the LED for ``role`` at ``seat`` (None for a table light) should be lit."""
        if seat is None:
            return bool(getattr(self, role))
        if role == "straddle":
            return seat in self.straddles
        if role == "missed_blind":
            return seat in self.missed_blinds
        return bool(getattr(self, role) == seat)

    def roles_at(self, seat: int) -> frozenset[str]:
        """The on/off roles lit at ``seat`` (its alert colour is ``seat_alert``)."""
        return frozenset(role for role in ALL_SEAT_ROLES if self.wants(seat, role))


_LedKey = tuple[int | None, str]  # (seat, role); seat None for the table lights
_ALERT: _LedKey = (None, "alert")
# the plan's field each role's LEDs read (``LedPlan.wants``), where it is not the role's name
_PLAN_FIELD = {"straddle": "straddles", "missed_blind": "missed_blinds"}
_FIELDS = tuple(f.name for f in fields(LedPlan))

ALERT_RHYTHMS: Mapping[str, str] = {"amber": "slow", "fault": "fast"}
"""The single-colour table alert (6-seat board): plan.alert_pattern -> blink pattern
(drivers.blink.PATTERNS); red, and off, are steady."""


def _pin_number(value: object, where: str) -> int:
    if isinstance(value, bool):
        raise ValueError(f"{where}: {value!r} is not a pin (use 'GPIO17')")
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and (match := _PIN_NAME.fullmatch(value.strip())):
        number = int(match.group(1))
    else:
        raise ValueError(f"{where}: {value!r} is not a BCM pin name like 'GPIO17'")
    if not _FIRST_PIN <= number <= _LAST_PIN:
        raise ValueError(f"{where}: GPIO{number} is not one of GPIO{_FIRST_PIN}..GPIO{_LAST_PIN}")
    return number


def _seat_number(key: object, where: str) -> int:
    text = str(key).strip()
    if isinstance(key, bool) or not text.isdigit() or not 1 <= int(text) <= MAX_SEATS:
        raise ValueError(f"{where}: seat {key!r} is outside 1..{MAX_SEATS}")
    return int(text)


def validate_pin_map(pin_map: object) -> dict[_LedKey, int]:
    """Check a pin map from configuration; return (seat, role) -> BCM pin number.

    Raises ``ValueError`` naming the offending key: an unknown key or role, a seat outside
    1..10, a pin that is not a BCM GPIO2..GPIO27 name, or a pin used twice.
    """
    if not isinstance(pin_map, Mapping):
        raise ValueError(f"pin_map must be a mapping, not {type(pin_map).__name__}")
    pins: dict[_LedKey, int] = {}
    used: dict[int, str] = {}

    def claim(key: _LedKey, value: object, where: str) -> None:
        number = _pin_number(value, where)
        if number in used:
            raise ValueError(f"{where}: GPIO{number} is already used by {used[number]}")
        used[number] = where
        pins[key] = number

    for top in pin_map:
        if top not in ("seats", *TABLE_ROLES):
            raise ValueError(
                f"pin_map[{top!r}]: unknown key (expected 'seats', 'alert', 'activity')"
            )
    seats = pin_map.get("seats", {})
    if not isinstance(seats, Mapping):
        raise ValueError("pin_map['seats'] must map seat numbers to {role: pin}")
    seen_seats: dict[int, object] = {}
    for seat_key, roles in seats.items():
        where = f"pin_map['seats'][{seat_key!r}]"
        seat = _seat_number(seat_key, where)
        if seat in seen_seats:
            raise ValueError(f"{where}: seat {seat} is also given as {seen_seats[seat]!r}")
        seen_seats[seat] = seat_key
        if not isinstance(roles, Mapping):
            raise ValueError(f"{where} must map roles to pins, not {type(roles).__name__}")
        for role, pin in roles.items():
            role_where = f"{where}[{role!r}]"
            if role not in ALL_SEAT_ROLES:
                raise ValueError(
                    f"{role_where}: unknown role (expected one of {', '.join(ALL_SEAT_ROLES)})"
                )
            claim((seat, role), pin, role_where)
    for role in TABLE_ROLES:
        if pin_map.get(role) is not None:
            claim((None, role), pin_map[role], f"pin_map[{role!r}]")
    return pins


class TableLeds:
    """The table's LEDs; ``show(plan)`` is safe to call from any thread.

    Holds a reference to every ``LED`` (gpiozero turns a collected device's pin back into an
    input, which would switch its light off) and writes only the pins whose value changes.
    The one-colour table alert tells the plan's colours apart by rhythm (``ALERT_RHYTHMS``):
    red steady, amber blinking slowly, a device fault blinking fast.
    """

    def __init__(self, pin_map: Mapping[str, Any], *, pin_factory: Any = None) -> None:
        self._pins = validate_pin_map(pin_map)
        self._lock = threading.Lock()
        self._leds: dict[_LedKey, LED] = {}
        self._lit: dict[_LedKey, bool] = {}
        self.pin_writes = 0
        """How many times a pin was switched (tests check that nothing is rewritten)."""
        self._closed = False
        self._unwired: set[int] = set()
        self._alert_rhythm: str | None = None  # the blink pattern the alert LED follows now
        self._blinker: Blinker | None = None
        self._plan: LedPlan | None = None  # the plan the LEDs show now
        try:
            for key, number in self._pins.items():
                self._leds[key] = LED(f"GPIO{number}", initial_value=False, pin_factory=pin_factory)
                self._lit[key] = False
        except BaseException:
            self._close_leds()
            raise
        # the LEDs each field of a plan lights: a plan that changes one field (a card's
        # activity light, the action moving on) is shown by looking at its LEDs only
        self._by_field: dict[str, list[_LedKey]] = {}
        for key in self._leds:
            self._by_field.setdefault(_PLAN_FIELD.get(key[1], key[1]), []).append(key)

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats that have at least one LED, in order."""
        return tuple(sorted({seat for seat, _ in self._leds if seat is not None}))

    def pin(self, seat: int | None, role: str) -> int | None:
        """The BCM pin of ``role`` at ``seat`` (None for a table light), or None if not wired."""
        return self._pins.get((seat, role))

    def is_lit(self, seat: int | None, role: str) -> bool:
        """Whether the pin of ``role`` at ``seat`` is driven on now (read from the pin itself,
        so a blinking alert reads on or off with its phase); False if it is not wired."""
        led = self._leds.get((seat, role))
        return bool(led is not None and led.is_lit)

    def lit(self) -> frozenset[_LedKey]:
        """The (seat, role) LEDs that are on; seat is None for the table lights."""
        with self._lock:
            return frozenset(key for key, on in self._lit.items() if on)

    def show(self, plan: LedPlan) -> None:
        """Set every LED to ``plan``; a seat the plan names but that has no LEDs is ignored."""
        with self._lock:
            if self._closed:
                raise RuntimeError("TableLeds.show() after close()")
            rhythm = ALERT_RHYTHMS.get(plan.alert_pattern) if _ALERT in self._leds else None
            was_blinking, self._alert_rhythm = self._alert_rhythm is not None, rhythm
            last, self._plan = self._plan, plan
            if last is None or was_blinking or rhythm is not None:
                keys: Iterable[_LedKey] = self._leds  # every LED
                named = True
            else:  # each LED shows the last plan: only those of the fields that changed
                changed = [f for f in _FIELDS if getattr(plan, f) != getattr(last, f)]
                keys = [key for f in changed for key in self._by_field.get(f, ())]
                named = any(f != "activity" for f in changed)
            for key in keys:
                led = self._leds[key]
                want = plan.wants(*key)
                if key == _ALERT and rhythm is not None:
                    self._lit[key] = want  # the blink thread switches it from now on
                    continue
                # a blink that stops may have left the alert in either phase: set it anew
                if want != self._lit[key] or (key == _ALERT and was_blinking):
                    trim_history(led.pin)  # a mock pin records every change (pin_history.py)
                    if want:
                        led.on()
                    else:
                        led.off()
                    self._lit[key] = want
                    self.pin_writes += 1
            if named:
                self._note_unwired(plan)
            if rhythm is not None and self._blinker is None:
                self._blinker = Blinker(self._blink, name="alert-blink")
            blinker = self._blinker
        if blinker is not None:
            blinker.set(rhythm)  # outside the lock: the blink thread takes it to write

    @property
    def alert_rhythm(self) -> str | None:
        """How the table alert LED blinks now (a key of drivers.blink.PATTERNS), or None."""
        return self._alert_rhythm

    def _blink(self, on: bool) -> None:
        with self._lock:
            led = self._leds.get(_ALERT)
            if self._closed or self._alert_rhythm is None or led is None:
                return  # a show() since stopped the blinking and set the LED itself
            trim_history(led.pin)
            if on:
                led.on()
            else:
                led.off()

    def close(self) -> None:
        """Switch everything off and release the pins; safe to call twice."""
        if self._blinker is not None:
            self._blinker.close()
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for led in self._leds.values():
                led.off()
            self._close_leds()

    def __enter__(self) -> TableLeds:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _close_leds(self) -> None:
        for led in self._leds.values():
            led.close()
        self._leds.clear()

    def _note_unwired(self, plan: LedPlan) -> None:
        # A 10-seat game on a 6-seat LED board is legal; say so once per seat, not per hand.
        wired = {seat for seat, _ in self._leds}
        named = {getattr(plan, role) for role in (*SEAT_ROLES, "kill")}
        named |= {*plan.straddles, *plan.missed_blinds}
        for seat in sorted(s for s in named if s is not None):
            if seat not in wired and seat not in self._unwired:
                self._unwired.add(seat)
                log.warning("seat %d has no LEDs in the pin map; its lights are not shown", seat)
