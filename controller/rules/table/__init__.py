"""The live table: the table across hands, ``apply`` (state, event) -> Step, and ``snapshot``.

This ``__init__`` is the wing's face: the rest of the core (and ``controller.rules``, the core's
own face) imports these names, never the modules below. Behind it, by idea:

- ``state.py``: the records (``TableState``, ``Hand``, ``Step``); ``dispatch.py``: ``apply`` and its
  dispatch to the handlers; ``kernel.py``: what every handler shares to make its Step;
- the handlers: ``seats.py`` (set-up and seats), ``levels.py`` (tournament levels and the
  players left in the event), ``hand_start.py`` (with ``new_hand.py``: a hand's stakes and
  record from the plan), ``cards.py``, ``betting.py``, ``chip_zones.py`` (the chips the
  antennas read), ``deck.py``, ``cutoff.py`` (the misdeal cut-off and attention),
  ``hand_end.py`` (the end, the misdeal, the next game), ``rulings.py`` (the floor's rulings
  and the keys for what the antennas cannot see);
- what the handlers ask: ``seating.py`` and ``blinds.py`` (the table across hands: seats, the
  button, every blind obligation), ``mixed.py`` (the game of each hand), ``devices.py`` (the
  readers' health), ``card_keys.py``, ``deck_keys.py``, ``lost_cards.py`` (cards that leave);
- ``view.py``: ``snapshot(state)``, the whole table as plain data (docs/snapshot.md).
"""

from controller.rules.table.checkpoint import (
    CHECKPOINT_VERSION,
    CheckpointError,
    state_from_text,
    state_to_text,
)
from controller.rules.table.cutoff import cutoff_passed
from controller.rules.table.devices import CHIP_READER, COUNTING_TRAY
from controller.rules.table.dispatch import apply, resolve_card_key
from controller.rules.table.state import Act, Hand, Step, TableState, initial_state
from controller.rules.table.view import ViewMemo, snapshot

__all__ = [
    "CHECKPOINT_VERSION",
    "CHIP_READER",
    "COUNTING_TRAY",
    "Act",
    "CheckpointError",
    "Hand",
    "Step",
    "TableState",
    "ViewMemo",
    "apply",
    "cutoff_passed",
    "initial_state",
    "resolve_card_key",
    "snapshot",
    "state_from_text",
    "state_to_text",
]
