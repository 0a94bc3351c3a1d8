"""Finding codes about the table's own devices (the card readers, the chip readers and counting
trays), as data.

No rulebook speaks of RFID readers, so these entries cite the design brief instead
(``/work/shared/DESIGN.md``, section "Data flows one way": the drivers own "device health")
and say so (``catalogue=False``). The thresholds behind them (three missed heartbeats,
``hardware/reader-protocol.md``; bad frames a minute, the ``[health]`` config) are the shell's
(``controller/sensing/health.py``); the core only turns each ``reader.health`` change into one of
these. Same shape and conventions as ``catalogue.py``, which merges them into ``CATALOGUE``.
"""

from __future__ import annotations

from controller.rules.findings.entry import Entry, cite

DESIGN = "DESIGN.md"  # the design brief beside the rulebooks (shared/DESIGN.md), not a rulebook
FLOW = "Data flows one way"
_DEVICE_HEALTH = cite(FLOW, "drivers", "frames parsed, checksums verified, reads debounced, "
                      "device health", file=DESIGN)
_SENSORS = ("the serial port, the reader heartbeats and bad-frame counts "
            "(controller/sensing/health.py)")

DEVICE_ENTRIES: tuple[Entry, ...] = (
    Entry(
        "READER_OFFLINE",
        "A reader is offline",
        "error",
        (_DEVICE_HEALTH,),
        (
            "The {who} is offline: {blind}. Stop dealing until it is back.",
            "Check the reader's USB cable and power at the Pi; unplug it and plug it back in. "
            "Feltguard reconnects by itself and says when it is back (READER_RESTORED).",
            "If it does not come back, call the floor: the hand cannot be judged without it.",
        ),
        _SENSORS,
        catalogue=False,
    ),
    Entry(
        "READER_SILENT",
        "A reader has stopped answering",
        "error",
        (_DEVICE_HEALTH,),
        (
            "The {who} is connected but silent ({detail}): {blind}. Stop dealing until it "
            "is back.",
            "Power-cycle the reader: unplug its cable and plug it back in.",
            "If it stays silent, call the floor: the hand cannot be judged without it.",
        ),
        _SENSORS,
        catalogue=False,
    ),
    Entry(
        "READER_FAULT",
        "A reader reports a fault",
        "error",
        (_DEVICE_HEALTH,),
        (
            "The {who} reports a fault: {detail}. Stop dealing until it clears.",
            "{check}.",
            "If the fault does not clear, call the floor: deal on only by the floor's ruling.",
        ),
        _SENSORS,
        catalogue=False,
    ),
    Entry(
        "READER_NOISY",
        "A reader's line is noisy",
        "warning",
        (_DEVICE_HEALTH,),
        (
            "The {who} is sending garbled data ({detail}): some reads may be lost.",
            "Deal on, and watch the findings: a card the table misses shows as a card out of "
            "place.",
            "Check the reader's cable is seated and away from power leads; replace it if the "
            "noise goes on.",
        ),
        _SENSORS,
        catalogue=False,
    ),
    Entry(
        "CHIPS_UNRESOLVED",
        "Chips on an antenna cannot all be read",
        "warning",
        (_DEVICE_HEALTH,),
        (
            "The {who} cannot tell apart every chip on one of its antennas ({detail}): a stack "
            "too tall for its anticollision. The chips it counts there may be short.",
            "Split the tallest stack on the felt into shorter ones; count any bet it holds by "
            "hand before the pot is pushed.",
            "If no stack is tall and it goes on, call the floor and check the chip reader.",
        ),
        ("the chip reader's heartbeat COLLISION bit (hardware/chip-protocol.md), heartbeats in "
         "a row (controller/sensing/health.py)"),
        catalogue=False,
    ),
    Entry(
        "READER_RESTORED",
        "A reader is back",
        "warning",
        (_DEVICE_HEALTH,),
        (
            "The {who} is back (it was {was} since journal seq {since_seq}).",
            "Cards dealt while it was {was} may not have been seen: check on the dealer view "
            "that every card dealt meanwhile is where it lies on the felt.",
            "If any card is missing or out of place, call the floor before dealing on.",
        ),
        _SENSORS,
        catalogue=False,
    ),
)

# reader.health state -> the finding it raises (``ok`` after any other: READER_RESTORED).
STATE_CODES = {
    "offline": "READER_OFFLINE",
    "silent": "READER_SILENT",
    "fault": "READER_FAULT",
    "noisy": "READER_NOISY",
    "unresolved": "CHIPS_UNRESOLVED",
}
