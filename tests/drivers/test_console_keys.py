"""The dealer console keys on gpiozero mock pins: a press acts, a brushed long-press key does
nothing, a held one acts once, contact bounce is filtered, bad pins are named."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero import Button, Device
from gpiozero.exc import BadPinFactory
from gpiozero.pins.mock import MockFactory

from drivers.console_keys import ConsoleKeys, DebouncedMockPin, mock_factory, validate_key_pins

PINS = {"new_hand": "GPIO5", "shuffle_done": 6, "misdeal": "GPIO16", "undo": "BCM20"}
HOLD_S = 0.3


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = mock_factory()
    try:
        yield f
    finally:
        f.reset()


class Pressed:
    """The keys' callback: every key name in order, and an event per press."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.threads: list[str] = []
        self.event = threading.Event()

    def __call__(self, name: str) -> None:
        self.names.append(name)
        self.threads.append(threading.current_thread().name)
        self.event.set()


def make(factory: MockFactory, pressed: Pressed, **kw: Any) -> ConsoleKeys:
    kw.setdefault("long_press", ("misdeal", "undo"))
    kw.setdefault("hold_s", HOLD_S)
    return ConsoleKeys(PINS, pressed, pin_factory=factory, **kw)


def test_a_key_acts_on_press_and_not_again_on_release(factory: MockFactory) -> None:
    pressed = Pressed()
    with make(factory, pressed) as keys:
        assert keys.keys == ("new_hand", "shuffle_done", "misdeal", "undo")
        pin = factory.pin(5)
        assert pin.state  # pulled up: a key at rest reads high
        pin.drive_low()  # pressed: the key shorts the pin to GND
        assert pressed.names == ["new_hand"]
        pin.drive_high()
        factory.pin(6).drive_low()
        factory.pin(6).drive_high()
        assert pressed.names == ["new_hand", "shuffle_done"]
        assert keys.presses["new_hand"] == 1 and keys.presses["shuffle_done"] == 1


def test_a_brushed_destructive_key_does_nothing(factory: MockFactory) -> None:
    pressed = Pressed()
    with make(factory, pressed) as keys:
        for number in (16, 20):  # misdeal, undo: pressed and released well inside the hold time
            factory.pin(number).drive_low()
            time.sleep(HOLD_S / 6)
            factory.pin(number).drive_high()
        time.sleep(HOLD_S * 2.5)  # long past the hold time: the hold thread had its chance
        assert pressed.names == []
        assert keys.presses["misdeal"] == keys.presses["undo"] == 0


def test_a_held_destructive_key_acts_once_after_the_hold_time(factory: MockFactory) -> None:
    pressed = Pressed()
    with make(factory, pressed):
        pin = factory.pin(16)
        start = time.monotonic()
        pin.drive_low()
        assert pressed.names == []  # not on press
        assert pressed.event.wait(5)
        held_for = time.monotonic() - start
        time.sleep(HOLD_S * 2)  # still held: hold_repeat is off, it does not act again
        pin.drive_high()
        assert pressed.names == ["misdeal"]
        assert held_for >= HOLD_S * 0.95
        assert pressed.threads[0] != threading.current_thread().name  # gpiozero's hold thread


def test_contact_bounce_within_bounce_time_is_one_press(factory: MockFactory) -> None:
    pressed = Pressed()
    with make(factory, pressed, bounce_s=0.05) as keys:
        pin = factory.pin(5)
        assert isinstance(pin, DebouncedMockPin) and pin.bounce == pytest.approx(0.05)
        for _ in range(3):  # the contacts chatter as the key goes down
            pin.drive_low()
            pin.drive_high()
        pin.drive_low()
        assert pressed.names == ["new_hand"]
        time.sleep(0.08)
        pin.drive_high()  # released, after the bounce time: reported
        time.sleep(0.08)
        pin.drive_low()  # pressed again: a second press
        assert pressed.names == ["new_hand", "new_hand"]
        assert keys.presses["new_hand"] == 2


def test_without_bounce_time_every_chatter_is_a_press(factory: MockFactory) -> None:
    """The control for the test above: the same chatter with debouncing off."""
    pressed = Pressed()
    with make(factory, pressed, bounce_s=None):
        pin = factory.pin(5)
        for _ in range(3):
            pin.drive_low()
            pin.drive_high()
        assert pressed.names == ["new_hand"] * 3


def test_pull_down_keys_are_pressed_high(factory: MockFactory) -> None:
    pressed = Pressed()
    with make(factory, pressed, pull_up=False):
        pin = factory.pin(6)
        assert not pin.state
        pin.drive_high()
        assert pressed.names == ["shuffle_done"]


def test_close_releases_the_pins_and_no_key_acts_after_it(factory: MockFactory) -> None:
    pressed = Pressed()
    keys = make(factory, pressed)
    keys.close()
    keys.close()  # twice is fine
    button = Button("GPIO5", pin_factory=factory)  # the pin is free again
    try:
        factory.pin(5).drive_low()
        assert pressed.names == []
    finally:
        button.close()


def test_a_failing_handler_does_not_reach_gpiozero(factory: MockFactory, caplog) -> None:
    def boom(name: str) -> None:
        raise RuntimeError("core on fire")

    with ConsoleKeys({"new_hand": 5}, boom, pin_factory=factory) as keys:
        factory.pin(5).drive_low()  # the callback runs here, in this thread: nothing raised
        assert keys.presses["new_hand"] == 1
    assert "key new_hand: handler failed" in caplog.text


def test_bad_pins_are_named_by_key() -> None:
    assert validate_key_pins({"a": "GPIO5", "b": 6, "c": ""}) == {"a": 5, "b": 6}
    with pytest.raises(ValueError, match=r"^misdeal: GPIO5 is already used by new_hand$"):
        validate_key_pins({"new_hand": "GPIO5", "misdeal": "BCM5"})
    with pytest.raises(ValueError, match=r"^undo: 'pin 7' is not a BCM pin name"):
        validate_key_pins({"undo": "pin 7"})
    with pytest.raises(ValueError, match=r"^award: GPIO40 is not one of GPIO2..GPIO27"):
        validate_key_pins({"award": "GPIO40"})


def test_a_pin_gpiozero_refuses_is_named_by_key(factory: MockFactory) -> None:
    # GPIO2 carries the board's fixed I2C pull-up: gpiozero refuses a pull-down on it
    with pytest.raises(ValueError, match=r"^boxed: GPIO2: "):
        ConsoleKeys({"new_hand": 5, "boxed": 2}, Pressed(), pull_up=False, pin_factory=factory)
    Button("GPIO5", pin_factory=factory).close()  # the key built before it was released


def test_a_long_press_key_must_be_a_key(factory: MockFactory) -> None:
    with pytest.raises(ValueError, match="long_press: undo is not a key"):
        ConsoleKeys({"new_hand": 5}, Pressed(), long_press=("undo",), pin_factory=factory)


@pytest.mark.filterwarnings("ignore::gpiozero.exc.PinFactoryFallback")
def test_no_gpio_at_all_is_bad_pin_factory(monkeypatch) -> None:
    """Off a Pi, without the mock, gpiozero finds no pin factory: that is not a key's fault."""
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    with pytest.raises(BadPinFactory):
        ConsoleKeys({"new_hand": 5}, Pressed())
