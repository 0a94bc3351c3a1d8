"""What the simulated dealer hands out: card movements, the truth of a mistake, and the events
each step becomes at the table.

A hand is a list of steps: console inputs as event bodies (``controller/events.py``), card
movements as ``CardMove`` and, at a table that reads its chips, chip motions as ``ChipMove``
(``chip_moves.py``). ``expand(step)`` gives the exact event bodies a step yields at the table: a
card off the shoe is a ``shoe.draw`` then a ``zone.read``; a card moved on the felt leaves its
zone (``zone.leave``) and is read in the new one; a chip motion is the ``chips.zone`` of each
zone it changed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from controller.events import Body, ShoeDraw, ZoneLeave, ZoneRead
from controller.sim.chip_moves import ChipMove

# The players' names, one per seat (a table has at most ten seats).
NAMES = ("Ann", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon")


@dataclass(frozen=True)
class CardMove:
    """A card moving at the table. ``from_shoe``: it leaves the shoe (with the shoe's face-up
    flag ``face_up``); otherwise it moved on the felt from ``from_zone`` (the sensing layer
    reports it leaving there first)."""

    uid: str
    face_up: bool
    zone: str
    from_shoe: bool
    from_zone: str | None = None


@dataclass(frozen=True)
class Mistake:
    """The truth about one dealing mistake: the hand, what happened, the code it must raise."""

    hand: int
    kind: str
    expected_code: str
    seats: tuple[int, ...]
    cards: tuple[str, ...]


SimStep = CardMove | ChipMove | Body


def expand(step: SimStep) -> list[Body]:
    """The exact event bodies a step yields at the table."""
    if isinstance(step, ChipMove):
        return list(step.events)
    if isinstance(step, CardMove):
        if step.from_shoe:
            return [ShoeDraw(uid=step.uid, face_up=step.face_up),
                    ZoneRead(uid=step.uid, zone=step.zone)]
        out: list[Body] = []
        if step.from_zone is not None:
            out.append(ZoneLeave(uid=step.uid, zone=step.from_zone))
        out.append(ZoneRead(uid=step.uid, zone=step.zone))
        return out
    return [step]


def deck_roles(tags: Mapping[str, str], joker: str) -> tuple[dict[str, str], str, str]:
    """A registered deck read back (a dealer resuming a recovered table): card -> its uid, the
    spare uid (the later of two tags carrying one card) and the joker tag's uid ("" if none)."""
    uid_of: dict[str, str] = {}
    spare = joker_uid = ""
    for uid, card in tags.items():
        if card == joker:
            joker_uid = joker_uid or uid
        elif card in uid_of:
            spare = spare or uid
        else:
            uid_of[card] = uid
    return uid_of, spare, joker_uid


def new_uid(rng: random.Random, taken: Mapping[str, str]) -> str:
    """A fresh 64-bit tag uid (hex, as the readers send it) not among ``taken``."""
    while True:
        uid = f"{rng.getrandbits(64):016X}"
        if uid not in taken:
            return uid
