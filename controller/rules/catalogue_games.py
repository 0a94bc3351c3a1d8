"""Finding codes of the stud and draw families (research/irregularities.md §1.M, §1.N), as data.

Same shape and conventions as ``catalogue.py`` (which merges these into ``CATALOGUE``): the
title never names a card, remedy steps are templates filled per case, the first citation is the
one a finding carries.
"""

from __future__ import annotations

from controller.rules.catalogue_entry import Entry, cite

IRREG = "Section 3, Irregularities"

GAME_ENTRIES: tuple[Entry, ...] = (
    # --- remedies followed through (every family) ---------------------------------------------
    Entry(
        "REMEDY_NOT_FOLLOWED",
        "The remedy of an earlier finding was not followed",
        "error",
        (
            cite(IRREG, "16", "subsequent cards dealt should be those that would have come if "
                 "no error had occurred."),
        ),
        (
            "{detail}",
            "The remedy of {after} says: {wanted}. Put the card where the remedy puts it, or "
            "call the floor.",
        ),
        "shoe reader; zone antennas; the betting feed",
        catalogue=False,
    ),
)
