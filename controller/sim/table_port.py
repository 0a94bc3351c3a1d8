"""What the family dealers use of the simulated table: the board, stud and draw hands
(``hand_dealer.HandDealer`` and its subclasses) and the chip dealer (``chip_dealer.ChipDealer``)
are handed the table (``dealer.SimDealer``) and see it only through ``SimTable``. So they depend
on this Protocol, not on the dealer that makes them, and the dealer imports them without a
cycle (the shape of gpiozero's devices over an abstract pin factory)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from controller.events import Action
from controller.rules import TableState
from controller.sim.moves import SimStep

# A misdeal the floor notices late: (kind, seats, cards, the misdeal code it is before the cut-off)
Late = tuple[str, tuple[int, ...], tuple[str, ...], str]


class ChipActions(Protocol):
    """What a hand dealer asks of the chip dealer before a player acts."""

    def before_action(self) -> Action | None:
        """The action a chip mistake decided for the player to act, or None."""
        ...


class SimTable(Protocol):
    """The simulated table as a family dealer sees it: its shadow state, its deck's tags, the
    misdeal the floor will notice late, and the steps it makes."""

    rng: random.Random
    seats: int
    redraw_returned: bool
    state: TableState
    tags: dict[str, str]  # uid -> card
    uid_of: dict[str, str]  # card -> uid
    spare_uid: str
    joker_uid: str
    late: Late | None

    @property
    def chips(self) -> ChipActions | None:
        """The chip dealer at a table that reads its chips, else None."""
        ...

    def emit(self, step: SimStep) -> None:
        """Make the step at the table (at a chips table a betting action is the player's
        chips)."""
        ...

    def raw_emit(self, step: SimStep) -> None:
        """The step itself, then what the chip dealer does after it."""
        ...

    def pending_step(self, step: SimStep) -> None:
        """A set-up step a resumed table still lacks, made before the next hand."""
        ...

    def record(self, kind: str, seats: Sequence[int], cards: Sequence[str],
               code: str | None = None) -> None:
        """The truth of a mistake the dealer made."""
        ...
