"""Finding codes for cards that leave the table (research/irregularities.md §1.D
DOWNCARD_DEALT_OFF_TABLE, STUD_CARD_OFF_TABLE, PLAYER_DROPS_CARDS_ON_FLOOR), as data.

Same shape and conventions as ``catalogue.py`` (which merges these into ``CATALOGUE``): the
title never names a card, remedy steps are templates filled per case, the first citation is the
one a finding carries (``lost_cards.py`` gives a stud finding the stud rule, the second).
Sensing reports the silence (a lost ``zone.leave``); the judging is ``lost_cards.py``.
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.rules.findings.entry import Entry, cite
from controller.rules.findings.finding import Citation
from controller.rules.findings.rulebooks import WSOP

IRREG = "Section 3, Irregularities"
STUD = "Section 8, Seven-Card Stud"

CARDS_LOST_ENTRIES: tuple[Entry, ...] = (
    Entry(
        "DOWNCARD_DEALT_OFF_TABLE",
        "A card dealt off the table",
        "error",
        (
            cite(IRREG, "12", "A downcard dealt off the table is an exposed card."),
            cite(STUD, "11", "A card dealt off the table is treated as an exposed card."),
        ),
        (
            "{card} left the shoe for {where} and no zone read it: it was dealt off the table.",
            "Recover {card}: it is an exposed card, and the player may neither take nor reject "
            "it by choice; the rule for an exposed card in {game} governs it (Irregularities, "
            "rule 13).",
            "{then}",
        ),
        "shoe reader; zone antennas (no read within the time-out, sensing.lost_after_ms)",
    ),
    Entry(
        "PLAYER_DROPS_CARDS_ON_FLOOR",
        "A player's card left the table",
        "warning",
        (
            cite(IRREG, "14", "If you drop any cards out of your hand onto the floor, you must "
                 "still play them."),
        ),
        (
            "{card} left seat {seat}'s antenna and no zone read it: dropped off the table, or "
            "held away from the felt.",
            "Have {card} picked up and put back in front of seat {seat}: no replacement, the "
            "player must still play it.",
            "Nothing more is raised when it is read at seat {seat} again.",
        ),
        "zone antennas (no read within the time-out, sensing.lost_after_ms)",
    ),
)

# Where the books disagree (house setting dropped_cards, docs/house-rules.md), merged into
# catalogue.REMEDY_BY_SETTING.
CARDS_LOST_REMEDIES: Mapping[tuple[str, str], tuple[Citation, tuple[str, ...]]] = {
    ("PLAYER_DROPS_CARDS_ON_FLOOR", "floor_may_kill"): (
        cite(IRREG, "14", "If you drop any cards out of your hand onto the floor, you may not "
             "receive replacements and, at the discretion of the Floor Supervisor your hand may "
             "be dead.", file=WSOP),
        (
            "{card} left seat {seat}'s antenna and no zone read it: dropped off the table, or "
            "held away from the felt.",
            "Have {card} picked up and put back in front of seat {seat}: no replacement.",
            "Call the floor: at the floor's discretion the hand may be dead (record it with a "
            "floor ruling).",
        ),
    ),
}
