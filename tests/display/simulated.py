"""Snapshots of real simulated hands, made by the rules core from the simulated dealer's events.

The counterpart of the hand-built ``snapshots.py``: the same schema, but every snapshot is what
``controller.rules.snapshot`` gives after each event of a hand the simulated dealer played.
"""

from __future__ import annotations

import random
from typing import Any

from controller.events import Event, HandStart
from controller.rules import apply, initial_state, snapshot
from controller.sim import SimDealer, expand


def hand_to_showdown(seed: int = 1, min_tabled: int = 2) -> list[dict[str, Any]]:
    """Snapshots (one per event) of the first clean hand that ends with at least ``min_tabled``
    hands tabled at the showdown, from its ``hand.start`` to its ``hand.end``."""
    dealer = SimDealer(random.Random(seed), seats=6, mistake_rate=0.0)
    state, seq = initial_state(), 0
    for _ in range(200):
        snaps: list[dict[str, Any]] = []
        for step in dealer.next_hand():
            for body in expand(step):
                seq += 1
                state = apply(state, Event(seq, 0, body)).state
                if isinstance(body, HandStart):
                    snaps = []
                snaps.append(snapshot(state))
        if len(snaps[-1]["hand"]["showdown"]) >= min_tabled:
            return snaps
    raise AssertionError("no simulated hand reached a showdown in 200 hands")


def hidden_hole_cards(snap: dict[str, Any]) -> set[str]:
    """Hole cards in ``snap`` the public may not see: those of seats not tabled."""
    tabled = set(snap["hand"]["showdown"])
    return {c for s in snap["seats"] if s["seat"] not in tabled for c in s.get("hole") or []}
