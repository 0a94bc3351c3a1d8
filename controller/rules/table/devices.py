"""The table's devices as the rules core keeps them: each reader's health, and its findings.

A reader is any device that speaks the reader protocol under a reader id: the card readers
(the shoe, the felt) and the chip devices (an RFID chip reader, a counting tray;
hardware/chip-protocol.md), each named in the findings as the dealer knows it (``_who``).

Pure: a ``reader.health`` event (submitted by the shell's monitor, ``controller/sensing/health.py``,
on each change of a reader's state) replaces that reader's ``DeviceHealth`` and raises the finding
of its new state (``findings/devices.py``): READER_OFFLINE, READER_SILENT, READER_FAULT,
READER_NOISY, and READER_RESTORED when it is ``ok`` again. The device states live beside the
hands, not in them: a new hand starts with the findings of every reader still down, so a dealer
never deals a hand blind without being told (``hand_findings``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from controller.events import ReaderHealth
from controller.poker.records import replace
from controller.rules.findings import DEVICE_ENTRIES, STATE_CODES, Finding, make_finding

DEVICE_CODES = frozenset(e.code for e in DEVICE_ENTRIES)

# The names the health monitor gives the chip devices (controller/sensing/health.py): "the chip
# reader (reader 3)", "the counting tray (reader 4)"; a card reader is named by its zone, "shoe",
# "felt".
CHIP_READER = "chip"
COUNTING_TRAY = "counting tray"


@dataclass(frozen=True)
class DeviceHealth:
    """One card reader's last reported health; ``since`` is the ts (ms) of the change and
    ``since_seq`` its journal seq."""

    reader: int
    name: str
    state: str
    since: int
    since_seq: int
    antenna: int | None = None
    detail: str = ""

    @property
    def down(self) -> bool:
        """Cards it should read may go unseen (offline, silent or faulty): a device fault."""
        return self.state in ("offline", "silent", "fault")

    def to_json(self) -> dict[str, object]:
        return {"reader": self.reader, "name": self.name, "state": self.state,
                "since": self.since, "since_seq": self.since_seq, "antenna": self.antenna,
                "detail": self.detail,
                "code": STATE_CODES.get(self.state)}


def _who(d: DeviceHealth) -> str:
    """The reader as the dealer calls it: "shoe reader (reader 1)", "chip reader (reader 3)",
    "counting tray (reader 4)", with the antenna if known."""
    name = d.name if d.name == COUNTING_TRAY else f"{d.name} reader" if d.name else \
        "card reader"
    where = f"reader {d.reader}" + (f", antenna {d.antenna}" if d.antenna is not None else "")
    return f"{name} ({where})"


def _blind(d: DeviceHealth) -> str:
    if d.name == "shoe":
        return "cards dealt now are not seen"
    if d.name == CHIP_READER:
        return "chips moved now are not seen"
    if d.name == COUNTING_TRAY:
        return "the tray's counts now are not seen"
    return "cards on its antennas now are not seen"


def _check(d: DeviceHealth) -> str:
    """Where to look for a reported fault (READER_FAULT's second step)."""
    if d.name == CHIP_READER:
        return ("Check the chip antennas' leads at the chip reader; nothing metal on the felt "
                "over the antennas")
    if d.name == COUNTING_TRAY:
        return "Check the tray's tube sensors and their cable at the tray; nothing jammed in a tube"
    return ("Check the antenna leads and the shoe's face sensor at the reader; nothing metal on "
            "the felt over the antennas")


def finding_for(d: DeviceHealth, seq: int) -> Finding | None:
    """The finding of a reader's (not ok) state, raised at ``seq``; None when it is ok."""
    code = STATE_CODES.get(d.state)
    if code is None:
        return None
    detail = d.detail or d.state
    return make_finding(code, seq, fill={"who": _who(d), "blind": _blind(d), "detail": detail,
                                                "check": _check(d)})


def report(devices: tuple[DeviceHealth, ...], body: ReaderHealth, seq: int,
           ts: int) -> tuple[tuple[DeviceHealth, ...], tuple[Finding, ...]]:
    """The devices after ``body``, and the finding it raises: one per change of state (a repeat
    of the same state only refreshes the detail); ``ok`` for a reader never reported before
    records it silently."""
    old = next((d for d in devices if d.reader == body.reader), None)
    new = DeviceHealth(body.reader, body.name or (old.name if old else ""), body.state, ts, seq,
                       body.antenna, body.detail)
    out: tuple[Finding, ...] = ()
    if old is not None and old.state == body.state:
        new = replace(new, since=old.since, since_seq=old.since_seq)
    elif body.state == "ok":
        if old is not None:
            out = (make_finding("READER_RESTORED", seq, fill={
                "who": _who(new), "was": old.state, "since_seq": old.since_seq}),)
    else:
        f = finding_for(new, seq)
        out = (f,) if f is not None else ()
    kept = tuple(d for d in devices if d.reader != body.reader)
    return tuple(sorted((*kept, new), key=lambda d: d.reader)), out


def hand_findings(devices: Iterable[DeviceHealth], seq: int) -> tuple[Finding, ...]:
    """At a new hand: the finding of every reader that is not ok, raised again."""
    return tuple(f for d in devices if (f := finding_for(d, seq)) is not None)
