"""Finding codes of the stud and draw families (research/irregularities.md §1.M, §1.N), as data.

Same shape and conventions as ``catalogue.py`` (which merges these into ``CATALOGUE``): the
title never names a card, remedy steps are templates filled per case, the first citation is the
one a finding carries.
"""

from __future__ import annotations

from controller.rules.catalogue_entry import Entry

GAME_ENTRIES: tuple[Entry, ...] = ()
