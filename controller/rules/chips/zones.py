"""The table's chips as the rules core keeps them: the chip-set registry and each zone's settled
chips (issue 13, items 2 and 3); the registry itself is pure data (``controller.poker.chip_sets``).

Pure. ``chips.register`` puts a set in play (or makes it known, ``idle``), like a deck: the set
in play before stays known, so a chip of another set is told apart from an unknown tag.
``chips.zone`` (sensing's settled content of one zone: ``controller/sensing/chips.py``) replaces
that zone's content and judges the tags that came into it: a tag of no registered set is
CHIP_UNKNOWN_TAG, a chip of a set not in play CHIP_FOREIGN_SET (``findings/chips.py``).
``tray.counts`` records a counting tray's per-denomination counts. The zones are recorded
here; what they mean for the betting, the pot and the ledger is betting.py's,
pot.py's and ledger.py's. Like the readers' health, the zones are a
sensor's report of where the chips lie, kept across hands and never taken back by an undo.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from controller.events import ChipsRegister, ChipsZone, TrayCounts
from controller.poker.chip_sets import ChipRegistry
from controller.poker.records import replace
from controller.rules.findings import CHIP_ENTRIES, Finding, make_finding

CHIP_CODES = frozenset(e.code for e in CHIP_ENTRIES)
# the codes of the tags themselves (a sensor's report, kept across an undo like a reader's
# health); the betting codes of betting.py go back with the action they judged
CHIP_TAG_CODES = frozenset({"CHIP_UNKNOWN_TAG", "CHIP_FOREIGN_SET"})


@dataclass(frozen=True)
class ChipZone:
    """A zone's last settled content: total, denomination -> count, every tag read there; the
    journal seq that settled it."""

    total: int
    counts: tuple[tuple[int, int], ...]
    uids: tuple[str, ...]
    seq: int

    def to_json(self) -> dict[str, object]:
        return {"total": self.total, "counts": {str(d): n for d, n in self.counts},
                "uids": list(self.uids), "seq": self.seq}


@dataclass(frozen=True)
class Chips:
    """The chips part of the table state."""

    registry: ChipRegistry = field(default_factory=ChipRegistry)
    zones: Mapping[str, ChipZone] = field(default_factory=lambda: MappingProxyType({}))
    # the counting tray's last counts (denomination -> count), None before any report
    tray: tuple[tuple[int, int], ...] | None = None
    tray_seq: int = 0
    # the ledger (ledger.py): the house's chips (tray and drop) at the last count, None
    # before one, and the chips that went from the pots to the house since
    house: int | None = None
    to_house: int = 0

    def total(self, zone: str) -> int | None:
        """A zone's settled total, or None when the zone has never been read."""
        z = self.zones.get(zone)
        return None if z is None else z.total


NO_CHIPS = Chips()


def register(chips: Chips, body: ChipsRegister) -> Chips:
    """The chips after a set is registered (in play, or ``idle``: known)."""
    reg = chips.registry
    reg = (reg.with_idle(body.set, body.chips) if body.idle
           else reg.put_in_play(body.set, body.chips, body.colours))
    return replace(chips, registry=reg)


def settle_zone(chips: Chips, body: ChipsZone, seq: int) -> tuple[Chips, tuple[Finding, ...]]:
    """The chips after a zone's settled content, and the findings of the tags that came into it
    (judged against the zone's content before, not the event's ``added``: the core's own
    record decides what is new, so a chip lying in a zone is judged once)."""
    old = chips.zones.get(body.zone)
    before = set(old.uids) if old is not None else set()
    new = [u for u in body.uids if u not in before]
    zone = ChipZone(body.total, tuple(sorted(body.counts.items())), tuple(body.uids), seq)
    out = replace(chips, zones=MappingProxyType({**chips.zones, body.zone: zone}))
    return out, _judge(chips.registry, body.zone, new, seq)


def tray_counts(chips: Chips, body: TrayCounts, seq: int) -> Chips:
    return replace(chips, tray=tuple(sorted(body.counts.items())), tray_seq=seq)


def zone_seat(zone: str) -> int | None:
    """The seat a bet or stack zone belongs to (``bet:3``, ``stack:3`` -> 3), else None."""
    kind, _, n = zone.partition(":")
    return int(n) if kind in ("bet", "stack") and n.isdigit() else None


def zone_name(zone: str) -> str:
    """A chip zone as the dealer says it: "the bet of seat 3 (bet:3)", "the pot"."""
    kind, _, n = zone.partition(":")
    if kind in ("bet", "stack"):
        return f"the {kind} of seat {n} ({zone})"
    return f"the {zone}"


def _judge(reg: ChipRegistry, zone: str, new: list[str], seq: int) -> tuple[Finding, ...]:
    """CHIP_FOREIGN_SET for the new chips of sets not in play, CHIP_UNKNOWN_TAG for the new
    tags of no set: one finding of each per zone report (RR Section 2, Procedures, r.5)."""
    unknown = [u for u in new if reg.denomination_of(u) is None and reg.foreign(u) is None]
    foreign = [(u, f) for u in new if (f := reg.foreign(u)) is not None]
    seats = () if (seat := zone_seat(zone)) is None else (seat,)
    out: list[Finding] = []
    if foreign:
        sets = sorted({s for _, (s, _) in foreign})
        named = ", ".join(f"a {d} chip (tag {u})" for u, (_, d) in foreign)
        out.append(make_finding(
            "CHIP_FOREIGN_SET", seq, seats=seats,
            fill={"where": zone_name(zone), "chips": named, "foreign": ", ".join(sets),
                  "in_play": reg.in_play or "none"}))
    if unknown:
        out.append(make_finding(
            "CHIP_UNKNOWN_TAG", seq, seats=seats,
            fill={"where": zone_name(zone), "uids": ", ".join(unknown),
                  "sets": ", ".join(reg.sets()) or "none registered"}))
    return tuple(out)


def snapshot_chips(chips: Chips) -> dict[str, dict[str, object]]:
    """The snapshot's ``chips``: each zone read so far -> total, counts, tags, seq."""
    return {z: chips.zones[z].to_json() for z in sorted(chips.zones, key=_zone_order)}


def _zone_order(zone: str) -> tuple[int, int]:
    kind, _, n = zone.partition(":")
    order = {"bet": 0, "stack": 1, "pot": 2, "tray": 3, "drop": 4}
    return order.get(kind, 5), int(n) if n.isdigit() else 0
