"""Seat LEDs through gpiozero's mock pins, driven by the real rules core over several hands.

The simulated dealer plays hand after hand at a six-seat table; after every event the LED plan
is derived from the snapshot and shown on mock pins. At the start of each hand the button, small
blind and big blind LEDs must have moved one seat clockwise (moving button, everyone playing:
roberts-rules-v11.txt, Section 4, Button and Blind Use), the seat-to-act LED must follow the
betting, and the alert LED must light for a dealing mistake.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.events import Event, HandStart
from controller.ledplan import led_plan
from controller.rules import apply, initial_state, snapshot
from controller.sim import SimDealer, expand
from drivers.leds import DEFAULT_PIN_MAP_6_SEATS, TableLeds

SEATS = DEFAULT_PIN_MAP_6_SEATS["seats"]


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory(pin_class=MockPWMPin)
    try:
        yield f
    finally:
        f.reset()


def pin_on(factory: MockFactory, name: str) -> bool:
    return factory.pin(int(name.removeprefix("GPIO"))).state == 1


def lit_seats(factory: MockFactory, role: str) -> list[int]:
    return [int(seat) for seat, roles in SEATS.items() if pin_on(factory, roles[role])]


def test_button_and_blinds_go_round_and_to_act_follows_the_betting(factory):
    leds = TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=factory)
    dealer = SimDealer(random.Random(3), seats=6, mistake_rate=0.0)
    state, seq = initial_state(), 0
    buttons: list[int] = []
    to_act_checked = 0
    for _ in range(8):
        for step in dealer.next_hand():
            for body in expand(step):
                seq += 1
                state = apply(state, Event(seq, 0, body)).state
                snap = snapshot(state)
                leds.show(led_plan(snap))
                hand = snap["hand"]
                if isinstance(body, HandStart):
                    buttons.append(hand["button"])
                    assert lit_seats(factory, "button") == [hand["button"]]
                    assert lit_seats(factory, "small_blind") == [hand["small_blind"]]
                    assert lit_seats(factory, "big_blind") == [hand["big_blind"]]
                if hand["to_act"] is not None:
                    assert lit_seats(factory, "to_act") == [hand["to_act"]]
                    to_act_checked += 1
                else:
                    assert lit_seats(factory, "to_act") == []
                assert not pin_on(factory, DEFAULT_PIN_MAP_6_SEATS["alert"])
    # Every seat has chips (busted players re-buy), so the button moves one seat each hand.
    assert buttons == [(buttons[0] - 1 + k) % 6 + 1 for k in range(8)]
    assert to_act_checked > 50
    leds.close()


def test_alert_led_lights_for_a_dealing_mistake_and_clears_next_hand(factory):
    leds = TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=factory)
    dealer = SimDealer(random.Random(4), seats=6, mistake_rate=0.0)
    state, seq = initial_state(), 0
    alerts = []
    for mistake in ("premature_flop", None):
        lit = False
        for step in dealer.next_hand(mistake=mistake):
            for body in expand(step):
                seq += 1
                state = apply(state, Event(seq, 0, body)).state
                leds.show(led_plan(snapshot(state)))
                lit = lit or pin_on(factory, DEFAULT_PIN_MAP_6_SEATS["alert"])
        alerts.append(lit)
    assert alerts == [True, False]
    leds.close()


def test_activity_led_toggles_with_every_card_event(factory):
    leds = TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=factory)
    dealer = SimDealer(random.Random(5), seats=6, mistake_rate=0.0)
    state, seq = initial_state(), 0
    activity = factory.pin(int(DEFAULT_PIN_MAP_6_SEATS["activity"].removeprefix("GPIO")))
    for step in dealer.next_hand():
        for body in expand(step):
            seq += 1
            before = snapshot(state)["hand"]["cards_seen"]
            state = apply(state, Event(seq, 0, body)).state
            snap = snapshot(state)
            leds.show(led_plan(snap))
            if snap["hand"]["cards_seen"] == before + 1:
                assert activity.state == snap["hand"]["cards_seen"] % 2
    leds.close()
