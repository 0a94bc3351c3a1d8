"""Sensing: raw tag reads from the readers -> table events.

A reader reports (reader id, antenna id, tag uid, face-up flag) every time an antenna sees a tag,
and a tag lying on an antenna is seen again and again. Sensing turns that stream into the facts
the rules core reasons about: a card left the shoe (``shoe.draw``), a card arrived in a zone
(``zone.read``), a card left a zone because it was read in another (``zone.leave``).

It also notices silence. Readers repeat a resting tag every 250 ms, so a tag not read for
``lost_after_s`` has left the felt: ``tick(now)``, called periodically by the daemon's owner,
gives a ``zone.leave`` with ``lost`` for it, and one from ``shoe`` for a tag drawn that no zone
read in time (a card dealt off the table). A lost card read again later is an ordinary
``zone.read``.

It maps antennas to zones from configuration (hardware/reader-protocol.md gives the default),
debounces repeated reads, and counts reads from antennas it does not know. Time comes in with
each read (the reader thread's monotonic clock), so the class itself has no clock.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from controller.events import SHOE_ZONE, ZONE_RE, Body, ShoeDraw, ZoneLeave, ZoneRead

SHOE = SHOE_ZONE
# Six of the readers' 250 ms repeat periods: a card a player lifts to look at is read again well
# within it (the table config's sensing.lost_after_ms overrides it).
DEFAULT_LOST_AFTER_S = 1.5

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
    lost_after_s: float = DEFAULT_LOST_AFTER_S
    unknown_antenna_reads: int = 0
    _zone_of: dict[str, str] = field(default_factory=dict)
    _last_shoe_read: dict[str, float] = field(default_factory=dict)
    _last_felt_read: dict[str, float] = field(default_factory=dict)  # tags in _zone_of
    _in_flight: dict[str, float] = field(default_factory=dict)  # drawn, no zone read yet

    def on_read(self, read: TagReadLike) -> list[Body]:
        where = self.antennas.get((read.reader, read.antenna))
        if where is None:
            self.unknown_antenna_reads += 1
            return []
        uid = read.uid
        if where == SHOE:
            last = self._last_shoe_read.get(uid)
            self._last_shoe_read[uid] = read.received_monotonic
            # The time-out runs from the card's last read at the shoe.
            if uid in self._in_flight:
                self._in_flight[uid] = read.received_monotonic
            # Within the window it is the same draw, unless the card has been read on the felt
            # since: then it came back to the stub and this is a new draw (a remedy's re-deal).
            if (last is not None and read.received_monotonic - last < self.shoe_debounce_s
                    and uid not in self._zone_of):
                return []
            # A card drawn again was back in the stub: it is in no zone any more.
            out: list[Body] = []
            old = self._zone_of.pop(uid, None)
            self._last_felt_read.pop(uid, None)
            if old is not None:
                out.append(ZoneLeave(uid=uid, zone=old))
            out.append(ShoeDraw(uid=uid, face_up=read.face_up))
            self._in_flight[uid] = read.received_monotonic
            return out
        self._in_flight.pop(uid, None)
        self._last_felt_read[uid] = read.received_monotonic
        old = self._zone_of.get(uid)
        if old == where:
            return []  # still lying on the same antenna
        self._zone_of[uid] = where
        events: list[Body] = []
        if old is not None:
            events.append(ZoneLeave(uid=uid, zone=old))
        events.append(ZoneRead(uid=uid, zone=where))
        return events

    def tick(self, now: float) -> list[Body]:
        """Silence at ``now`` (the readers' monotonic clock): a lost ``zone.leave`` for each tag
        not read for longer than ``lost_after_s``, in the order they went quiet; from ``shoe``
        for a tag drawn that no zone read. Whether it matters (a card off the table, dropped, or
        only gathered after the hand) is the rules core's question."""
        quiet = [(t, uid, self._zone_of[uid]) for uid, t in self._last_felt_read.items()
                 if now - t > self.lost_after_s]
        quiet += [(t, uid, SHOE) for uid, t in self._in_flight.items()
                  if now - t > self.lost_after_s]
        out: list[Body] = []
        for _, uid, zone in sorted(quiet):
            if zone == SHOE:
                del self._in_flight[uid]
            else:
                del self._zone_of[uid], self._last_felt_read[uid]
            out.append(ZoneLeave(uid=uid, zone=zone, lost=True))
        return out

    def new_hand(self) -> None:
        """Forget where cards were: the deck has been gathered and shuffled."""
        self._zone_of.clear()
        self._last_shoe_read.clear()
        self._last_felt_read.clear()
        self._in_flight.clear()
