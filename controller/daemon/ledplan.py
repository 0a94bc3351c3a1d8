"""The LED plan: which seat LEDs are lit, derived from the table snapshot alone.

The keys read (docs/snapshot.md; the T -> L contract of issue 4), each optional: a missing or
malformed key leaves its lights off, so the plan never raises on a snapshot.

- ``hand.button``: the button LED, on that seat even when it is empty (a dead button is
  "placed in front of an empty seat": roberts-rules-v11.txt, Section 4, Rules for Using Blinds,
  r.2(b); research button-blinds-betting.md §1.18.7, LED output contract);
- ``hand.small_blind``: the small blind LED; null when there is no small blind this hand (after
  a big-blind bust: azwine-tour-tournament-rules.txt, Dead Button Rule (TDA #31)), so it is off;
- ``hand.big_blind``, ``hand.straddles`` (seats), ``hand.kill`` (the seat holding the kill
  button: roberts-rules-v11.txt, Section 13, Kill Pots), ``hand.to_act``;
- ``seats[].owes``: a seat with missed blinds lights its missed-blind LED (the WSOP "missed
  blind button", research §1.18.7);
- ``findings[].severity`` and ``findings[].seats``: the table alert is red while the hand has a
  misdeal-level finding, amber for an error or a warning, off otherwise; each seat a finding
  names gets that colour at its seat (the louder one when several name it);
- ``devices[].state``: a card reader ``offline``, ``silent`` or with a ``fault`` is a device
  fault: the table alert blinks red, fast, on every board (cards are not seen: deal nothing);
  a ``noisy`` reader, or a chip reader with chips it cannot resolve (``unresolved``), lights the
  alert amber at least (design brief, DESIGN.md, "Data flows one
  way": the drivers own device health; controller/sensing/health.py);
- ``hand.cards_seen``: the reader-activity LED toggles with every card event the core applies
  (the dealer sees each read land; the latency benchmark times it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drivers.leds import MAX_SEATS, AlertColour, LedPlan, louder

SEVERITY_COLOURS: Mapping[str, AlertColour] = {
    "misdeal": "red", "error": "amber", "warning": "amber"}
"""Finding severity -> alert colour; any other severity leaves the alert off."""
DEVICE_FAULTS = frozenset({"offline", "silent", "fault"})
"""Reader states (``devices[].state``) in which cards go unseen: the device-fault pattern."""


def _seat(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SEATS:
        return None
    return value


def _seats(value: object) -> list[int]:
    if not isinstance(value, list | tuple):
        return []
    return [s for s in map(_seat, value) if s is not None]


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _list(value: object) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def led_plan(snapshot: Mapping[str, Any]) -> LedPlan:
    """The lights for ``snapshot``; never raises, whatever the snapshot holds."""
    snapshot = _mapping(snapshot)
    hand = _mapping(snapshot.get("hand"))
    table_alert: AlertColour = "off"
    seat_alerts: dict[int, AlertColour] = {}
    for finding in map(_mapping, _list(snapshot.get("findings"))):
        severity = finding.get("severity")
        colour = SEVERITY_COLOURS.get(severity, "off") if isinstance(severity, str) else "off"
        table_alert = louder(table_alert, colour)
        for seat in _seats(finding.get("seats")):
            seat_alerts[seat] = louder(seat_alerts.get(seat, "off"), colour)
    device_fault = False
    for device in map(_mapping, _list(snapshot.get("devices"))):
        state = device.get("state")
        device_fault = device_fault or state in DEVICE_FAULTS
        if state in ("noisy", "unresolved"):
            table_alert = louder(table_alert, "amber")
    missed = []
    for entry in map(_mapping, _list(snapshot.get("seats"))):
        seat = _seat(entry.get("seat"))
        if seat is not None and _list(entry.get("owes")):
            missed.append(seat)
    cards_seen = hand.get("cards_seen", 0)
    return LedPlan(
        button=_seat(hand.get("button")),
        small_blind=_seat(hand.get("small_blind")),
        big_blind=_seat(hand.get("big_blind")),
        to_act=_seat(hand.get("to_act")),
        activity=isinstance(cards_seen, int) and cards_seen % 2 == 1,
        straddles=tuple(_seats(hand.get("straddles"))),
        kill=_seat(hand.get("kill")),
        missed_blinds=tuple(missed),
        alert_colour=table_alert,
        seat_alerts=tuple(seat_alerts.items()),
        device_fault=device_fault,
    )
