"""The rulebook files every catalogue entry cites, the sections the board family's entries cite
(``dealing.py``, ``betting.py``), and the redeal remedy several of them share."""

from __future__ import annotations

RR = "roberts-rules-v11.txt"
# The other rulebooks a finding may cite (where they say more, or a house setting picks them).
RRH = "roberts-rules-home.txt"
WSOP = "wsop-2009-live-action-rules.md"
AZW = "azwine-tour-tournament-rules.txt"
JPN = "jamies-poker-notes.md"
MISDEALS = "Section 3, Misdeals"
IRREG = "Section 3, Irregularities"
HOLDEM = "Section 5, Holdem"
BETTING = "Section 3, Betting and Raising"
NOLIMIT = "Section 14, No-Limit and Pot-Limit"
BLINDS = "Section 4, Button and Blind Use"
RULES_BLINDS = "Section 4, Rules for Using Blinds"

REDEAL = (
    "Declare a misdeal: every chip goes back to the player who put it in.",
    "Retrieve every card, reshuffle and recut, and redeal with the same button "
    "(Robert's Rules do not say whether the button moves on a redeal; Feltguard keeps it).",
)
