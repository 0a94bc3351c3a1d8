"""The simulated table's chip mistakes: each kind and the findings the rules core must raise.

A hand holds at most one mistake: a dealing mistake of ``mistakes.py`` (the cards) or, at a
table that reads its chips, at ``chip_mistake_rate`` one of these (``chip_dealer.py`` makes it
at the first chance the hand gives, and records the truth only once made). Each kind lists the
codes it raises, in order; the dealer records a ``Mistake`` per code. Listed in a fixed order
(the dealer draws a kind from it): a new kind goes last.

- ``chip_string_raise``: a player adds chips after its call, bet or raise settled, before anyone
  else acted (RR Section 3 r.14); the dealer gives the extra back.
- ``chip_out_of_turn``: a player bets out of turn while nobody has bet, and the seat before it
  checks: binding when the action reaches it (RR Section 3 r.11), so its bet stands.
- ``chip_award_short``: the dealer pushes a winner one chip short (it stays in the dealer's
  hand, then goes to the winner's stack).
- ``chip_award_wrong_seat``: the dealer pushes a winner's share to another seat's bet zone; the
  chips then go to the winner.
- ``chip_pot_skim``: pushing the pot, the dealer drops a chip of a winner's share into the tray
  (at a raked table, a skim only beyond the schedule's rake); it then goes to the winner.
- ``chip_change_wrong``: a player calls with one oversized chip (CHIP_OVERSIZED_CALL) and the
  dealer, making change from the tray, puts a chip more than the call in the bet zone
  (CHIP_CHANGE_WRONG as the change settles); the dealer then hands the player the chip back.
- ``chip_oversized_call``: the same call with correct change: a legal move, recorded because
  the core tells the dealer change is due (CHIP_OVERSIZED_CALL alone).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

CHIP_KINDS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "chip_string_raise": ("CHIP_STRING_RAISE",),
    "chip_out_of_turn": ("CHIP_OUT_OF_TURN",),
    "chip_award_short": ("CHIP_AWARD_SHORT",),
    "chip_award_wrong_seat": ("CHIP_AWARD_WRONG_SEAT",),
    "chip_pot_skim": ("CHIP_POT_SKIM",),
    "chip_change_wrong": ("CHIP_OVERSIZED_CALL", "CHIP_CHANGE_WRONG"),
    "chip_oversized_call": ("CHIP_OVERSIZED_CALL",),
})
"""Every chip mistake kind -> the finding codes the rules core must raise for it, in order."""

CHIP_MISTAKE_CODES = frozenset(c for codes in CHIP_KINDS.values() for c in codes)
