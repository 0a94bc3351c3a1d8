"""The dealer console's keys: one gpiozero ``Button`` per key, and one callback per key press.

``ConsoleKeys(pins, on_key, long_press=...)`` builds a ``Button`` for each named key (BCM pins
from the config), with gpiozero's own debouncing (``bounce_time``, applied by the pin factory:
lgpio on the Pi) and pull-up or pull-down per the config. A key acts on press,
``on_key(name)``, called from gpiozero's thread (lgpio's callback thread on the Pi; under
``MockFactory``, the thread that drives the pin). A key listed in ``long_press`` acts only when
held for ``hold_s`` (gpiozero's ``hold_time`` and ``when_held``, from its hold thread): a key
brushed, pressed and released before the hold time, does nothing. Which keys those are is the
controller's choice (``controller.console.keypad``); this module only knows pins.

The keys' twin is gpiozero's mock pin factory. ``MockPin`` stores ``bounce`` and never applies it
(gpiozero 2.0.1, pins/mock.py), so ``mock_factory()`` gives pins that apply it the way gpiozero
specifies it (``Pin.bounce``) and its ``NativePin`` does: an edge within ``bounce`` seconds of the
last edge reported is dropped. Wiring: ``hardware/keys.md``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Collection, Mapping
from typing import Any

from gpiozero import Button
from gpiozero.exc import BadPinFactory, GPIOZeroError
from gpiozero.pins.mock import MockFactory, MockPin

from drivers.leds import _pin_number

__all__ = ["ConsoleKeys", "DebouncedMockPin", "mock_factory", "validate_key_pins"]

log = logging.getLogger(__name__)


def validate_key_pins(pins: Mapping[str, object]) -> dict[str, int]:
    """Check the key -> pin map of the config; return key -> BCM number. A key whose pin is
    ``""`` is not wired (a console without that key). Raises ``ValueError`` starting with the
    key (``misdeal: GPIO5 is already used by new_hand``)."""
    out: dict[str, int] = {}
    used: dict[int, str] = {}
    for name, value in pins.items():
        if value == "":
            continue
        number = _pin_number(value, name)
        if number in used:
            raise ValueError(f"{name}: GPIO{number} is already used by {used[number]}")
        used[number] = name
        out[name] = number
    return out


class DebouncedMockPin(MockPin):
    """A mock pin that honours ``bounce`` as gpiozero's ``Pin.bounce`` documents it: after an
    edge is reported, further edges within ``bounce`` seconds are not (the rule of gpiozero's
    ``NativePin``; on the Pi, lgpio debounces in its own thread)."""

    def __init__(self, factory: Any, info: Any) -> None:
        super().__init__(factory, info)
        self._last_call: float | None = None

    def _call_when_changed(self) -> None:
        ticks = self._last_change  # when the level changed (MockPin stamps it)
        bounce = self._bounce
        if bounce is not None and self._last_call is not None and \
                ticks - self._last_call <= bounce:
            return
        self._last_call = ticks
        super()._call_when_changed()


def mock_factory() -> MockFactory:
    """The keys' twin: gpiozero's mock factory with pins that apply ``bounce``."""
    return MockFactory(pin_class=DebouncedMockPin)


class ConsoleKeys:
    """The console's keys. ``on_key(name)`` must be thread-safe: gpiozero calls it from its own
    threads. ``close()`` releases the pins; no key acts after it returns."""

    def __init__(
        self,
        pins: Mapping[str, object],
        on_key: Callable[[str], None],
        *,
        long_press: Collection[str] = (),
        pull_up: bool = True,
        bounce_s: float | None = 0.02,
        hold_s: float = 1.0,
        pin_factory: Any = None,
    ) -> None:
        self._pins = validate_key_pins(pins)
        unknown = sorted(set(long_press) - set(pins))
        if unknown:
            raise ValueError(f"long_press: {', '.join(unknown)} is not a key")
        self._on_key = on_key
        self._lock = threading.Lock()
        self._closed = False
        self.presses: dict[str, int] = dict.fromkeys(self._pins, 0)
        """How many times each key acted (a brushed long-press key does not count)."""
        self._buttons: dict[str, Button] = {}  # held: a collected device frees its pin
        try:
            for name, number in self._pins.items():
                try:
                    button = Button(f"GPIO{number}", pull_up=pull_up, bounce_time=bounce_s,
                                    hold_time=hold_s, pin_factory=pin_factory)
                except BadPinFactory:
                    raise  # no GPIO at all here: not this key's fault
                except GPIOZeroError as exc:
                    raise ValueError(f"{name}: GPIO{number}: {exc}") from None
                self._buttons[name] = button
                if name in long_press:
                    button.when_held = self._handler(name)
                else:
                    button.when_pressed = self._handler(name)
        except BaseException:
            self._close_buttons()
            raise

    @property
    def keys(self) -> tuple[str, ...]:
        """The keys wired, in config order."""
        return tuple(self._buttons)

    def pin(self, name: str) -> int:
        """The BCM pin of key ``name``."""
        return self._pins[name]

    def button(self, name: str) -> Button:
        """The gpiozero device of key ``name`` (its ``pin`` is the mock pin under test)."""
        return self._buttons[name]

    def _handler(self, name: str) -> Callable[[], None]:
        def fire() -> None:
            # under the lock: close() waits for a key being handled, and none acts after it
            with self._lock:
                if self._closed:
                    return
                self.presses[name] += 1
                try:
                    self._on_key(name)
                except Exception:  # a key's handler must never kill gpiozero's thread
                    log.exception("key %s: handler failed", name)

        return fire

    def close(self) -> None:
        """Release every pin; safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._close_buttons()

    def __enter__(self) -> ConsoleKeys:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _close_buttons(self) -> None:
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()
