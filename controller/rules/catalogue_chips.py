"""Finding codes about the chips the zone antennas read, as data (issue 13, item 2).

A tag in a chip zone that is no chip of any registered set, and a chip of another registered
set (a retired set, another room's) on the table. The rulebooks know no RFID chips; the rule
closest is Robert's Rules' on chips from another cardroom (Section 2, Procedures, r.5: they
"are not permitted on the table, do not play in the game"), which both entries cite. The
unknown tag is the project's own code (``catalogue=False``): it may be such a chip, or a chip of
the house whose tag was never enrolled. Same shape and conventions as ``catalogue.py``, which
merges these into ``CATALOGUE``.
"""

from __future__ import annotations

from controller.rules.catalogue_entry import Entry, cite

PROCEDURES = "Section 2, Procedures"
_OTHER_ROOM = cite(PROCEDURES, "5", "Any chips from another cardroom are not permitted on the "
                   "table, do not play in the game, and when found will be treated similarly to "
                   "unnoticed cash.")
_SENSORS = "chip zone antennas (controller/chip_sensing.py); the chip-set registry (chips.register)"

CHIP_ENTRIES: tuple[Entry, ...] = (
    Entry(
        "CHIP_UNKNOWN_TAG",
        "A tag in a chip zone is no registered chip",
        "warning",
        (_OTHER_ROOM,),
        (
            "Tag(s) {uids} in {where} are no chip of any registered set ({sets}).",
            "Find the chip(s) in {where}: a chip of another cardroom does not play (treat it "
            "as unnoticed cash: change it for the house's chips after the hand).",
            "A house chip whose tag is not enrolled: take it out of play and have it enrolled "
            "in the chip-set file ([chips] file) before it plays again.",
        ),
        _SENSORS,
        catalogue=False,
    ),
    Entry(
        "CHIP_FOREIGN_SET",
        "A chip of another set is on the table",
        "warning",
        (_OTHER_ROOM,),
        (
            "In {where}: {chips} of set {foreign}, not of the set in play ({in_play}).",
            "The chip(s) of set {foreign} do not play: take them out of {where} and change "
            "them for chips of set {in_play} after the hand.",
        ),
        _SENSORS,
        catalogue=False,
    ),
)
