"""A motion of chips as the simulated table makes it: the chips moved and the events it makes.

``ChipMove`` is a step of the simulated dealer (``controller/sim/dealer.py``), like ``CardMove``:
chips moved between holders in one motion (``controller/sim/chip_table.py``: a bet zone, the
pot, the tray, a player's stack, the dealer's hand), between two scan cycles of the chip
reader. ``events`` are the ``chips.zone`` bodies the chip sensing settles the motion into (the
antenna zones it changed, one batch), which ``expand`` gives and the shadow table applies; at
the simulated table the moves go to the chip reader's pty twin and the real driver and sensing
make the same events.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.events import ChipsZone
from controller.sim.chip_table import Move


@dataclass(frozen=True)
class ChipMove:
    """Chips moved in one motion: ``moves`` (uids, from holder, to holder), ``events`` the
    chips.zone bodies it settles into, ``why`` what it is (a bet, the scoop, a push, ...)."""

    moves: tuple[Move, ...]
    events: tuple[ChipsZone, ...]
    why: str = ""
