"""Seat LEDs through gpiozero's mock pins, driven by the real rules core over several hands.

The simulated dealer plays hand after hand at a six-seat table; after every event the LED plan
is derived from the snapshot and shown on mock pins. At the start of each hand the button, small
blind and big blind LEDs must have moved one seat clockwise (moving button, everyone playing:
roberts-rules-v11.txt, Section 4, Button and Blind Use), the seat-to-act LED must follow the
betting, and the alert LED must light for a dealing mistake. The same runs on the 10-seat
shift-register board, and hand-built snapshots with the issue-4 keys (dead button, no small
blind, straddle, kill, alerts) drive both boards hand by hand.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from controller.daemon.ledplan import led_plan
from controller.events import Event, HandStart
from controller.rules import apply, initial_state, snapshot
from controller.sim import SimDealer, expand
from drivers.leds import DEFAULT_PIN_MAP_6_SEATS, TableLeds
from drivers.shift_register import ShiftRegisterLeds
from tests.drivers.test_leds_shift_register import Chain595

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
                # lit: on steadily (red), or blinking (amber: its thread switches the pin, so
                # the pin itself may not have come on yet on a loaded machine)
                lit = lit or pin_on(factory, DEFAULT_PIN_MAP_6_SEATS["alert"]) or \
                    leds.alert_rhythm is not None
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


# --- The 10-seat shift-register board across hands ------------------------------------------


@pytest.fixture
def chain_factory() -> Iterator[MockFactory]:
    f = MockFactory(pin_class=MockPin)
    try:
        yield f
    finally:
        f.reset()


def test_real_core_ten_seats_on_the_shift_register_board(chain_factory: MockFactory) -> None:
    # The rules core at a full 10-seat table: button and blinds go round one seat a hand
    # (moving button, everyone playing: roberts-rules-v11.txt, Section 4, Rules for Using
    # Blinds, r.2(a)); the to-act light follows the betting; a dealing mistake lights the alert.
    chain = Chain595(chain_factory, 11, (10, 11, 8, 25))
    leds = ShiftRegisterLeds(pin_factory=chain_factory)
    dealer = SimDealer(random.Random(6), seats=10, mistake_rate=0.0)
    state, seq = initial_state(), 0
    buttons: list[int] = []
    alerts: list[bool] = []
    for hand in range(11):
        alert_seen = False
        for step in dealer.next_hand(mistake="premature_flop" if hand == 10 else None):
            for body in expand(step):
                seq += 1
                state = apply(state, Event(seq, 0, body)).state
                snap = snapshot(state)
                leds.show(led_plan(snap))
                lit = chain.lit()
                hand_view = snap["hand"]
                if isinstance(body, HandStart):
                    buttons.append(hand_view["button"])
                    assert {s for s, role in lit if role == "button"} == {hand_view["button"]}
                    assert {s for s, role in lit if role == "small_blind"} == {
                        hand_view["small_blind"]
                    }
                    assert {s for s, role in lit if role == "big_blind"} == {
                        hand_view["big_blind"]
                    }
                to_act = {s for s, role in lit if role == "to_act"}
                assert to_act == ({hand_view["to_act"]} if hand_view["to_act"] else set())
                alert_seen = alert_seen or (None, "alert_red") in lit
        alerts.append(alert_seen)
    assert buttons == [(buttons[0] - 1 + k) % 10 + 1 for k in range(11)]
    assert alerts == [hand == 10 for hand in range(11)]
    leds.close()


def seat_rows(occupied: set[int], owes: dict[int, list[str]] | None = None) -> list[dict]:
    """seats[] per the T -> L contract: status and missed blinds (docs/snapshot.md)."""
    owes = owes or {}
    return [
        {"seat": s, "player": f"P{s}" if s in occupied else None,
         "status": ("away" if s in owes else "playing") if s in occupied else "empty",
         "owes": owes.get(s, [])}
        for s in range(1, 11)
    ]


def contract_snapshot(number: int, button: int, sb: int | None, bb: int, to_act: int | None,
                      occupied: set[int], **extra: Any) -> dict[str, Any]:
    """A table snapshot built by hand with the keys of the T -> L contract, until the rules
    core carries them."""
    return {
        "hand": {"number": number, "phase": "preflop" if to_act else "complete",
                 "button": button, "small_blind": sb, "big_blind": bb, "to_act": to_act,
                 "straddles": extra.get("straddles", []), "kill": extra.get("kill"),
                 "cards_seen": extra.get("cards_seen", 0)},
        "seats": seat_rows(occupied, extra.get("owes")),
        "findings": extra.get("findings", []),
    }


def test_dead_button_hands_on_the_ten_seat_board(chain_factory: MockFactory) -> None:
    """Hand by hand at ten seats, dead button (roberts-rules-v11.txt, Section 4, Rules for Using
    Blinds, r.2(b)): the big blind in seat 4 busts in hand 2, so hand 3 has no small blind
    (seat 4 is empty; azwine-tour-tournament-rules.txt, Dead Button Rule (TDA #31)) and hand 4
    puts the button in front of empty seat 4; worked example of research
    button-blinds-betting.md §1.18.8. Along the way: a straddle under the gun, the kill button,
    a player away with missed blinds (no LED on this board), and a finding naming a seat."""
    chain = Chain595(chain_factory, 11, (10, 11, 8, 25))
    everyone = set(range(1, 11))
    after_bust = everyone - {4}
    hands: list[tuple[dict[str, Any], set[tuple[int | None, str]]]] = [
        # Hand 1: button 1, blinds 2 and 3, seat 4 under the gun straddles, so seat 5 acts first.
        (contract_snapshot(1, 1, 2, 3, 5, everyone, straddles=[4]),
         {(1, "button"), (2, "small_blind"), (3, "big_blind"), (4, "straddle"), (5, "to_act")}),
        (contract_snapshot(1, 1, 2, 3, 6, everyone, straddles=[4], cards_seen=1),
         {(1, "button"), (2, "small_blind"), (3, "big_blind"), (4, "straddle"), (6, "to_act"),
          (None, "activity")}),
        # Hand 2: seat 7 holds the kill button; seat 4 (big blind) busts at the end.
        (contract_snapshot(2, 2, 3, 4, 5, everyone, kill=7),
         {(2, "button"), (3, "small_blind"), (4, "big_blind"), (7, "kill"), (5, "to_act")}),
        (contract_snapshot(2, 2, 3, 4, None, everyone, kill=7),
         {(2, "button"), (3, "small_blind"), (4, "big_blind"), (7, "kill")}),
        # Hand 3: the button moves to seat 3, no small blind (seat 4 is empty), big blind 5;
        # seat 9 went away and owes its blinds; an error finding names seat 6.
        (contract_snapshot(3, 3, None, 5, 6, after_bust,
                           owes={9: ["small_blind", "big_blind"]},
                           findings=[{"severity": "error", "seats": [6]}]),
         {(3, "button"), (5, "big_blind"), (6, "to_act"), (6, "alert_red"), (6, "alert_green"),
          (None, "alert_red"), (None, "alert_green")}),
        # Hand 4: the dead button sits in front of empty seat 4; blinds 5 and 6; a misdeal.
        (contract_snapshot(4, 4, 5, 6, 7, after_bust, owes={9: ["small_blind", "big_blind"]},
                           findings=[{"severity": "misdeal", "seats": [7, 8]}]),
         {(4, "button"), (5, "small_blind"), (6, "big_blind"), (7, "to_act"), (7, "alert_red"),
          (8, "alert_red"), (None, "alert_red")}),
        # Hand 5: back to normal; seat 9 returned.
        (contract_snapshot(5, 5, 6, 7, 8, after_bust),
         {(5, "button"), (6, "small_blind"), (7, "big_blind"), (8, "to_act")}),
    ]
    with ShiftRegisterLeds(pin_factory=chain_factory) as leds:
        for number, (snap, expected) in enumerate(hands, start=1):
            leds.show(led_plan(snap))
            assert chain.lit() == expected, f"snapshot {number} (hand {snap['hand']['number']})"
        assert chain.latches == 1 + len(hands)


def test_dead_button_hand_on_the_six_seat_board(factory: MockFactory) -> None:
    # The same dead-button hand on the one-pin-per-LED board: the button pin of empty seat 4.
    with TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=factory) as leds:
        leds.show(led_plan(contract_snapshot(4, 4, 5, 6, 1, {1, 2, 3, 5, 6})))
        assert lit_seats(factory, "button") == [4]
        assert lit_seats(factory, "small_blind") == [5]
        leds.show(led_plan(contract_snapshot(3, 3, None, 5, 6, {1, 2, 3, 5, 6})))
        assert lit_seats(factory, "small_blind") == []
        assert lit_seats(factory, "button") == [3]


def test_dead_button_in_front_of_a_busted_seat_through_the_real_core(factory):
    """The real rules core replays tests/scenarios/table/dead_bb_busts.jsonl (RR Section 4 r.2(b),
    TDA #31): the big blind busts in hand 2, hand 3 has no small blind, and in hand 4 the button
    sits in front of the busted seat. The LEDs follow hand by hand on mock pins."""
    from pathlib import Path

    from controller.events import read_scenario

    scenario = Path(__file__).resolve().parent.parent / "scenarios/table/dead_bb_busts.jsonl"
    leds = TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=factory)
    state = initial_state()
    at_start: dict[int, tuple[list[int], list[int], list[int]]] = {}
    for event in read_scenario(scenario):
        state = apply(state, event).state
        snap = snapshot(state)
        leds.show(led_plan(snap))
        if isinstance(event.body, HandStart):
            at_start[snap["hand"]["number"]] = (
                lit_seats(factory, "button"), lit_seats(factory, "small_blind"),
                lit_seats(factory, "big_blind"))
    leds.close()
    assert at_start[1] == ([1], [2], [3])
    assert at_start[2] == ([2], [3], [4])
    assert at_start[3] == ([3], [], [5])   # no small blind: its LED stays dark
    assert at_start[4] == ([4], [5], [6])  # the dead button, in front of the busted seat 4
