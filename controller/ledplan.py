"""The LED plan: which seat LEDs are lit, derived from the table snapshot alone.

Button, small blind, big blind and the seat to act come straight from the snapshot; the alert
LED is lit while the current hand has a finding of severity ``misdeal`` or ``error``; the
reader-activity LED toggles with every card event the core applies (the dealer sees each read
land; the latency benchmark times it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drivers.leds import LedPlan

ALERT_SEVERITIES = frozenset({"misdeal", "error"})


def led_plan(snapshot: Mapping[str, Any]) -> LedPlan:
    hand = snapshot.get("hand") or {}
    findings = snapshot.get("findings") or []
    return LedPlan(
        button=hand.get("button"),
        small_blind=hand.get("small_blind"),
        big_blind=hand.get("big_blind"),
        to_act=hand.get("to_act"),
        alert=any(f.get("severity") in ALERT_SEVERITIES for f in findings),
        activity=bool(hand.get("cards_seen", 0) % 2),
    )
