"""Chip sensing: the chip readers' inventories and counting trays' counts -> chip events.

An RFID chip reader reports, for each scan cycle of each antenna, every chip tag the antenna
saw (``ChipInventory``; the driver is ``drivers/``'s, this module only needs the shape:
``ChipInventoryLike``). Chips that travel together are read over several scan cycles while a
stack is being built or pushed, so one cycle's inventory is not yet a fact: an antenna's
inventory is **settled** once it has been the same for ``settle_s`` (the table config's
``[chip_sensing] settle_ms``; by default three scan cycles of the slowest RFID chip reader,
750 ms at the usual 250 ms: controller/config.py).
Each change of a zone's settled content becomes one ``chips.zone`` event (the total and the
count of each denomination of the chip set in play, every tag read there, and the tags that
came and went since its last settled content); nothing while it is still moving. A zone
watched by several antennas changes only when none of them is moving, so a chip sliding from
one antenna of the pot to another is no change at all. Every antenna due settles together, and
in one batch a zone that gained chips comes before a zone that lost them: chips moved from a
bet to the pot reach the journal in the pot first, so the rules core knows where they went.
A counting tray's report (``TrayCountsLike``: per tube, a denomination and a count) settles
the same way into ``tray.counts``.

Silence is not emptiness: the driver reports every cycle, an empty one too, so an antenna
that stops reporting (a reader unplugged: its health is the driver's to report) settles
nothing. ``tick(now)``, called with sensing's 0.1 s tick, settles an inventory whose time is
up between two cycles, as long as the antenna was heard within the settle time.

Time comes in with each report (the reader thread's monotonic clock: when the driver read the
frame), so the class has no clock and is tested on a stepped one. An inventory never settles
before the settle time has passed since the read of the report that showed it; the antennas a
motion changed in one scan cycle share one time, the latest read among their reports, so they
still settle in one batch when the cycle's frames were read over several reads. Which chip is
which denomination is the rules core's registry (``chips.register``): ``denomination_of`` asks
it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from controller.events import CHIP_ZONE_RE, Body, ChipsZone, TrayCounts

# Three scan cycles of 100 ms: a stack pushed out in one motion is read whole within two
# cycles; the third says it has stopped moving. The least settle time a table gets: the config
# makes it three cycles of its slowest chip reader (250 ms by default: 750 ms).
DEFAULT_CYCLE_MS = 100
DEFAULT_SETTLE_MS = 3 * DEFAULT_CYCLE_MS
SETTLE_MS = (50, 10_000)  # the config's range for [chip_sensing] settle_ms
# Floating-point slack when comparing monotonic times (0.1 + 0.2 != 0.3).
_EPS = 1e-9

# The chip reader is reader 3 (1 is the shoe, 2 the card felt): an antenna per seat's bet zone
# (1..10) and stack (11..20), the pot (21), the dealer's tray (22) and the drop slot (23).
CHIP_READER = 3
DEFAULT_CHIP_ANTENNAS: dict[tuple[int, int], str] = {
    **{(CHIP_READER, n): f"bet:{n}" for n in range(1, 11)},
    **{(CHIP_READER, 10 + n): f"stack:{n}" for n in range(1, 11)},
    (CHIP_READER, 21): "pot",
    (CHIP_READER, 22): "tray",
    (CHIP_READER, 23): "drop",
}

_KEY_RE = re.compile(r"^(\d{1,3}):(\d{1,3})$")


class ChipInventoryLike(Protocol):
    """One scan cycle of one antenna: every chip tag it saw (possibly none)."""

    @property
    def reader(self) -> int: ...
    @property
    def antenna(self) -> int: ...
    @property
    def cycle(self) -> int: ...
    @property
    def uids(self) -> tuple[str, ...]: ...
    @property
    def t(self) -> float: ...  # monotonic seconds


class TrayCountsLike(Protocol):
    """A counting tray's report: per tube, (tube, denomination, count)."""

    @property
    def reader(self) -> int: ...
    @property
    def tubes(self) -> tuple[tuple[int, int, int], ...]: ...
    @property
    def t(self) -> float: ...  # monotonic seconds


def parse_chip_antenna_map(raw: Mapping[str, str], *,
                           where: str = "chip_antennas") -> dict[tuple[int, int], str]:
    """``{"3:21": "pot"}`` -> ``{(3, 21): "pot"}``; ValueError naming the bad key."""
    out: dict[tuple[int, int], str] = {}
    for key, zone in raw.items():
        m = _KEY_RE.match(str(key))
        if not m:
            raise ValueError(f"{where}.{key}: key must be 'READER:ANTENNA', e.g. '3:21'")
        if not isinstance(zone, str) or not CHIP_ZONE_RE.fullmatch(zone):
            raise ValueError(f"{where}.{key}: {zone!r} is not bet:1..bet:10, stack:1..stack:10, "
                             "pot, tray or drop")
        out[(int(m.group(1)), int(m.group(2)))] = zone
    return out


def _no_registry(uid: str) -> int | None:
    return None


Content = TypeVar("Content", frozenset[str], tuple[tuple[int, int], ...])


@dataclass
class _Settling(Generic[Content]):
    """What one source (an antenna, a tray) reports: the content seen ``since`` (the first
    report of it in a row), when it was ``last`` heard, and its last settled content."""

    seen: Content
    since: float
    last: float
    settled: Content | None = None

    def report(self, content: Content, t: float) -> None:
        if content != self.seen:
            self.seen, self.since = content, t
        self.last = max(self.last, t)

    def due(self, now: float, settle_s: float) -> bool:
        """Its content has been the same for the settle time, it was heard within it, and it
        is not settled yet."""
        return (self.seen != self.settled and now - self.since >= settle_s - _EPS
                and now - self.last <= settle_s + _EPS)

    @property
    def moving(self) -> bool:
        return self.seen != self.settled


@dataclass
class _Cycle:
    """A reader's current scan cycle: its number, its first report's read time (to tell a
    restarted reader's cycle 0 from the last one), and the antennas whose content changed in
    it with the latest read among their reports (their common ``since``)."""

    number: int
    first: float
    changed: list[_Settling[frozenset[str]]] = field(default_factory=list)
    t: float = float("-inf")


def _gain_order(body: ChipsZone) -> int:
    """0 a zone that only gained chips, 1 one that gained and lost, 2 one that only lost."""
    if not body.removed:
        return 0
    return 1 if body.added else 2


@dataclass
class ChipSensing:
    """Stateful inventory -> chip event translation for one table."""

    antennas: Mapping[tuple[int, int], str] = field(
        default_factory=lambda: dict(DEFAULT_CHIP_ANTENNAS))
    # uid -> denomination of the chip set in play (the rules core's registry); None: no chip
    denomination_of: Callable[[str], int | None] = _no_registry
    settle_s: float = DEFAULT_SETTLE_MS / 1000
    # each zone's settled tags as the journal holds them, so a restart reports only changes
    known: Mapping[str, Iterable[str]] = field(default_factory=dict)
    unknown_antenna_reports: int = 0
    bad_tubes: int = 0  # tubes of a tray report with a denomination < 1 or a count < 0
    _antennas: dict[tuple[int, int], _Settling[frozenset[str]]] = field(default_factory=dict)
    _zones: dict[str, frozenset[str]] = field(default_factory=dict)
    _trays: dict[int, _Settling[tuple[tuple[int, int], ...]]] = field(default_factory=dict)
    _tray: tuple[tuple[int, int], ...] | None = None
    _cycles: dict[int, _Cycle] = field(default_factory=dict)  # reader: its current cycle

    def __post_init__(self) -> None:
        self.restore(self.known)

    def on_inventory(self, inv: ChipInventoryLike) -> list[Body]:
        """One antenna's scan cycle; the chips.zone bodies of the zones it settles, if any."""
        key = (inv.reader, inv.antenna)
        if key not in self.antennas:
            self.unknown_antenna_reports += 1
            return []
        cyc = self._cycles.get(inv.reader)
        if cyc is None or cyc.number != inv.cycle or not 0 <= inv.t - cyc.first <= 1.0:
            # a new cycle (or a reader restarted: cycle 0 again)
            self._cycles[inv.reader] = cyc = _Cycle(inv.cycle, inv.t)
        uids = frozenset(inv.uids)
        st = self._antennas.get(key)
        if st is None:  # its first report: a change like any other
            self._antennas[key] = st = _Settling(uids, inv.t, inv.t)
            changed = True
        else:
            changed = uids != st.seen
            st.seen, st.last = uids, max(st.last, inv.t)
        if changed:
            cyc.changed.append(st)
            # One time for the antennas a motion changed in one cycle, so they fall due in one
            # batch however the cycle's frames were split between reads: the latest read among
            # them, never the cycle's first report's, since a frame read later than that (a
            # busy reader thread reads a cycle over several milliseconds) must not settle
            # before the settle time has passed since its own read.
            cyc.t = max(cyc.t, inv.t)
            for other in cyc.changed:  # (heard then too: the cycle was)
                other.since, other.last = cyc.t, max(other.last, cyc.t)
        # every antenna due now settles with it: a chip moving between two antennas settles in
        # both zones in one batch, the zone gaining it first (see _settle)
        return self._settle(list(self._antennas), inv.t)

    def on_tray(self, report: TrayCountsLike) -> list[Body]:
        """A counting tray's report; the tray.counts body once its counts settle."""
        counts: dict[int, int] = {}
        for _, d, n in report.tubes:
            if d < 1 or n < 0:
                self.bad_tubes += 1
                continue
            counts[d] = counts.get(d, 0) + n  # two tubes may hold one denomination
        content = tuple(sorted(counts.items()))
        st = self._trays.get(report.reader)
        if st is None:
            self._trays[report.reader] = _Settling(content, report.t, report.t)
        else:
            st.report(content, report.t)
        return self._settle_trays(report.t)

    def tick(self, now: float) -> list[Body]:
        """Settle what has been still for the settle time at ``now`` (the readers' monotonic
        clock) but had no cycle since to say so."""
        return self._settle(list(self._antennas), now) + self._settle_trays(now)

    def next_due(self, now: float) -> float | None:
        """When the next source still moving settles if nothing changes: its content's first
        report plus the settle time. None when nothing is moving (or what moves has not been
        heard within the settle time: an unplugged reader settles nothing). The shell's settle
        clock (``controller/sensing/chip_clock.py``) ticks sensing then, not at the next scan
        cycle."""
        due = [st.since + self.settle_s
               for st in (*self._antennas.values(), *self._trays.values())
               if st.moving and now - st.last <= self.settle_s + _EPS]
        return min(due) if due else None

    def restore(self, zones: Mapping[str, Iterable[str]]) -> None:
        """Each zone's settled tags as the journal holds them (after a restart)."""
        self._zones = {z: frozenset(u) for z, u in zones.items()}

    def zones(self) -> dict[str, frozenset[str]]:
        """Each zone's last settled tags (as reported in chips.zone)."""
        return dict(self._zones)

    # --- internals ------------------------------------------------------------------------

    def _settle(self, keys: list[tuple[int, int]], now: float) -> list[Body]:
        touched: set[str] = set()
        for key in keys:
            st = self._antennas[key]
            if st.due(now, self.settle_s):
                st.settled = st.seen
            if not st.moving:  # (settled now, or back to its settled content after a flicker)
                touched.add(self.antennas[key])
        bodies = [b for z in sorted(touched) if (b := self._zone_body(z)) is not None]
        # Gainers first: chips moved from one zone to another settle in the zone they came to
        # before the zone they left, so the rules core sees where they went as the source
        # empties (a bet scooped into the pot; the pot pushed to a winner or to the tray).
        return sorted(bodies, key=_gain_order)

    def _zone_body(self, zone: str) -> ChipsZone | None:
        """The zone's new content, once none of its antennas is moving and it changed."""
        mine = [st for k, st in self._antennas.items() if self.antennas[k] == zone]
        if any(st.moving for st in mine):
            return None
        now: frozenset[str] = frozenset().union(
            *(st.settled for st in mine if st.settled is not None))
        before = self._zones.get(zone, frozenset())
        if now == before:
            return None
        self._zones[zone] = now
        counts: dict[int, int] = {}
        for uid in now:
            d = self.denomination_of(uid)
            if d is not None:
                counts[d] = counts.get(d, 0) + 1
        return ChipsZone(zone=zone, total=sum(d * n for d, n in counts.items()),
                         counts=dict(sorted(counts.items())), uids=tuple(sorted(now)),
                         added=tuple(sorted(now - before)), removed=tuple(sorted(before - now)))

    def _settle_trays(self, now: float) -> list[Body]:
        changed = False
        for st in self._trays.values():
            if st.due(now, self.settle_s):
                st.settled = st.seen
                changed = True
        if not changed or any(st.moving for st in self._trays.values()):
            return []
        total: dict[int, int] = {}
        for st in self._trays.values():
            for d, n in st.settled or ():
                total[d] = total.get(d, 0) + n
        content = tuple(sorted(total.items()))
        if content == self._tray:
            return []
        self._tray = content
        return [TrayCounts(counts=dict(content))]
