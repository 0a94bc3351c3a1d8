"""Sensing: raw tag reads from the readers -> table events.

A reader reports (reader id, antenna id, tag uid, face-up flag) every time an antenna sees a tag,
and a tag lying on an antenna is seen again and again. Sensing turns that stream into the facts
the rules core reasons about: a card left the shoe (``shoe.draw``), a card arrived in a zone
(``zone.read``), a card left a zone because it was read in another (``zone.leave``).

It maps antennas to zones from configuration (hardware/reader-protocol.md gives the default),
debounces repeated reads, and counts reads from antennas it does not know. Time comes in with
each read (the reader thread's monotonic clock), so the class itself has no clock.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from controller.events import ZONE_RE, Body, ShoeDraw, ZoneLeave, ZoneRead

SHOE = "shoe"

# reader 1 is the shoe (antenna 0); reader 2 is the felt multiplexer.
DEFAULT_ANTENNAS: dict[tuple[int, int], str] = {
    (1, 0): SHOE,
    **{(2, n): f"seat:{n}" for n in range(1, 11)},
    (2, 11): "board",
    (2, 12): "burn",
    (2, 13): "muck",
    (2, 14): "aside",
}

_KEY_RE = re.compile(r"^(\d{1,3}):(\d{1,3})$")


class TagReadLike(Protocol):
    reader: int
    antenna: int
    uid: str
    face_up: bool
    received_monotonic: float


def parse_antenna_map(
    raw: Mapping[str, str], *, where: str = "antennas"
) -> dict[tuple[int, int], str]:
    """``{"1:0": "shoe", "2:3": "seat:3"}`` -> ``{(1, 0): "shoe", (2, 3): "seat:3"}``.

    Raises ValueError naming the bad key."""
    out: dict[tuple[int, int], str] = {}
    for key, zone in raw.items():
        m = _KEY_RE.match(str(key))
        if not m:
            raise ValueError(f"{where}.{key}: key must be 'READER:ANTENNA', e.g. '2:11'")
        if not isinstance(zone, str) or not (zone == SHOE or ZONE_RE.match(zone)):
            raise ValueError(
                f"{where}.{key}: {zone!r} is not shoe, seat:1..seat:10, board, burn, muck or aside"
            )
        out[(int(m.group(1)), int(m.group(2)))] = zone
    return out


@dataclass
class Sensing:
    """Stateful read -> event translation for one table."""

    antennas: Mapping[tuple[int, int], str] = field(default_factory=lambda: dict(DEFAULT_ANTENNAS))
    # Readers repeat a read every 250 ms while a tag is in the field (hardware/reader-protocol.md);
    # the same card read again at the shoe within this window of its last read is the same draw.
    shoe_debounce_s: float = 0.6
    unknown_antenna_reads: int = 0
    _zone_of: dict[str, str] = field(default_factory=dict)
    _last_shoe_read: dict[str, float] = field(default_factory=dict)

    def on_read(self, read: TagReadLike) -> list[Body]:
        where = self.antennas.get((read.reader, read.antenna))
        if where is None:
            self.unknown_antenna_reads += 1
            return []
        uid = read.uid
        if where == SHOE:
            last = self._last_shoe_read.get(uid)
            self._last_shoe_read[uid] = read.received_monotonic
            # Within the window it is the same draw, unless the card has been read on the felt
            # since: then it came back to the stub and this is a new draw (a remedy's re-deal).
            if (last is not None and read.received_monotonic - last < self.shoe_debounce_s
                    and uid not in self._zone_of):
                return []
            # A card drawn again was back in the stub: it is in no zone any more.
            out: list[Body] = []
            old = self._zone_of.pop(uid, None)
            if old is not None:
                out.append(ZoneLeave(uid=uid, zone=old))
            out.append(ShoeDraw(uid=uid, face_up=read.face_up))
            return out
        old = self._zone_of.get(uid)
        if old == where:
            return []  # still lying on the same antenna
        self._zone_of[uid] = where
        events: list[Body] = []
        if old is not None:
            events.append(ZoneLeave(uid=uid, zone=old))
        events.append(ZoneRead(uid=uid, zone=where))
        return events

    def new_hand(self) -> None:
        """Forget where cards were: the deck has been gathered and shuffled."""
        self._zone_of.clear()
        self._last_shoe_read.clear()
