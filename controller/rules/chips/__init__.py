"""Chips in the rules core: the zones' settled chips, the betting read from them, the pot's chips
followed to the winners, and every chip accounted for between hands (docs/chip-betting.md).

This ``__init__`` is the wing's face: the live table imports these names, never the modules
below (it names the wing ``chip_rules``). Behind it, by idea:

- ``zones.py``: the chip-set registry in play and each zone's settled chips (``Chips``), the
  unknown and foreign tags;
- ``betting.py``: a bet zone's chips against the seat's wager in front: the action they make,
  given to the table's one betting path, and the chip rules of the betting;
- ``pot.py``: the pot followed by its tags during a hand, the award pushed out and judged;
- ``ledger.py``: each player's chips and the house's ledger between hands.
"""

from controller.rules.chips.betting import (
    NO_BETS,
    ChipBets,
    after_action,
    bet_seat,
    console,
    read_bet_zone,
    wager_in_front,
)
from controller.rules.chips.ledger import between_hands
from controller.rules.chips.pot import follow, judge, open_award, pot_during_hand, ready
from controller.rules.chips.zones import (
    CHIP_TAG_CODES,
    NO_CHIPS,
    Chips,
    ChipZone,
    register,
    settle_zone,
    snapshot_chips,
    tray_counts,
)

__all__ = [
    "CHIP_TAG_CODES",
    "NO_BETS",
    "NO_CHIPS",
    "ChipBets",
    "ChipZone",
    "Chips",
    "after_action",
    "bet_seat",
    "between_hands",
    "console",
    "follow",
    "judge",
    "open_award",
    "pot_during_hand",
    "read_bet_zone",
    "ready",
    "register",
    "settle_zone",
    "snapshot_chips",
    "tray_counts",
    "wager_in_front",
]
