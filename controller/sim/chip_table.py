"""Who holds which chip at the simulated table: the sim's chip set and each chip's holder.

Pure and deterministic given its ``random.Random``: no clock, no I/O. Every chip is a tag uid
(``04C1`` and eight hex digits) of one denomination of the set ``sim`` (1, 5, 25, 100). Each
uid has exactly one holder:

- the antenna zones the chip reader sees: ``bet:N`` (a seat's betting line), ``pot``, ``tray``
  (the dealer's float) and ``drop`` (the rake's slot: chips reach it only at a table set up
  with a rake, ``SimDealer(rake_percent=...)``); the simulated table reads no ``stack:N`` (a
  stack of hundreds of chips per antenna would swamp the line);
- off every antenna: ``player:N`` (the chips a player holds, its stack), ``dealer`` (chips in
  the dealer's hand between two motions) and ``cage`` (the chips off the table, where players
  buy in, cash out and change chips).

A **motion** (``ChipTable.motion``) moves chips between holders at once, as a hand moves them
between two scan cycles; it returns the ``chips.zone`` bodies the chip sensing settles it into
(``controller/sensing/chips.py``: the zone's content, total, counts, the tags that came and went;
one batch, ordered as sensing orders a batch: by zone name, then zones that gained chips before
zones that lost them), so the dealer's shadow table sees what the daemon will journal.

A player pays an amount in exact chips (``exact``). Stacks are kept **payable**: every amount
up to the stack can be made from it (``payable_counts``); when a stack cannot make an amount, the
player changes its chips at the cage (``recompose``), a move the antennas never see.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from controller.events import ChipsRegister, ChipsZone

SET_ID = "sim"
DENOMINATIONS = (1, 5, 25, 100)
COLOURS: Mapping[int, str] = {1: "white", 5: "red", 25: "green", 100: "black"}
# Zones the simulated chip reader has an antenna under (chip_sensing.DEFAULT_CHIP_ANTENNAS).
POT, TRAY, DROP, CAGE, DEALER = "pot", "tray", "drop", "cage", "dealer"
# The tray's float at set-up: enough small chips to make change for an oversized chip.
FLOAT: Mapping[int, int] = {1: 40, 5: 30, 25: 20, 100: 10}
# The cage keeps at least this many chips of each denomination per seat; below it the house
# enrols more chips between hands (``ChipTable.short``: a new ``chips.register`` of the set).
RESERVE_PER_SEAT = 40

Move = tuple[tuple[str, ...], str, str]  # (uids, from holder, to holder)


def on_antenna(holder: str) -> bool:
    """Does the chip reader see this holder (a bet zone, the pot, the tray, the drop)?"""
    return holder.startswith("bet:") or holder in (POT, TRAY, DROP)


def bet(seat: int) -> str:
    return f"bet:{seat}"


def player(seat: int) -> str:
    return f"player:{seat}"


def payable_counts(value: int) -> dict[int, int]:
    """A composition of ``value`` (denomination -> count) from which every amount up to it can
    be paid exactly: each chip is at most one more than all the smaller chips together (four
    1s before a 5, twenty-four before a 25, ninety-nine before a 100), the rest in the largest
    chips."""
    counts = dict.fromkeys(DENOMINATIONS, 0)
    rest = value
    # the small chips each denomination needs below the next one: 4 x 1, 4 x 5, 3 x 25
    for d, nxt, keep in ((1, 5, 4), (5, 25, 4), (25, 100, 3)):
        if rest <= 0:
            break
        unit = nxt // d  # how many of d make one of the next
        # keep at least ``keep`` (as far as the value goes) and leave a multiple of ``nxt``
        n = min(rest // d, keep)
        n += ((rest - n * d) // d) % unit
        counts[d] = n
        rest -= n * d
    counts[100] = rest // 100
    return counts


def _exact_counts(have: Mapping[int, int], amount: int, min_chips: int) -> dict[int, int] | None:
    """Counts per denomination, within ``have``, making ``amount`` exactly with at least
    ``min_chips`` chips (larger chips first: fewest chips), or None."""
    if amount < 0:
        return None
    big, mid, small, one = sorted(DENOMINATIONS, reverse=True)
    for a in range(min(have.get(big, 0), amount // big), -1, -1):
        r1 = amount - a * big
        for b in range(min(have.get(mid, 0), r1 // mid), -1, -1):
            r2 = r1 - b * mid
            for c in range(min(have.get(small, 0), r2 // small), -1, -1):
                d = r2 - c * small
                if d <= have.get(one, 0) and a + b + c + d >= min_chips:
                    return {big: a, mid: b, small: c, one: d}
    return None


class ChipTable:
    """The sim's chips and where each one is."""

    def __init__(self, rng: random.Random, seats: int,
                 known: Mapping[str, int] | None = None) -> None:
        """A new set (``known``: the set a recovered journal registered, all in the cage)."""
        self.rng = rng
        self.seats = seats
        self.denomination: dict[str, int] = {}
        self.holder: dict[str, str] = {}
        self.held: dict[str, list[str]] = {}
        # each antenna zone's content as the sensing last settled it (what its chips.zone said)
        self.settled: dict[str, frozenset[str]] = {}
        for uid, d in sorted((known or {}).items()):
            self.denomination[uid] = d
            self._put(uid, CAGE)
        self.enrol()

    def copy(self) -> ChipTable:
        """An independent copy (to try a motion on)."""
        out = ChipTable.__new__(ChipTable)
        out.rng, out.seats = self.rng, self.seats
        out.denomination = self.denomination  # never changed once enrolled, only added to
        out.holder = dict(self.holder)
        out.held = {k: list(v) for k, v in self.held.items()}
        out.settled = dict(self.settled)
        return out

    # --- the set ---------------------------------------------------------------------------

    def _new_uid(self) -> str:
        while True:
            uid = f"04C1{self.rng.getrandbits(32):08X}"
            if uid not in self.denomination:
                return uid

    def enrol(self) -> bool:
        """Top the cage up to its reserve of every denomination with new chips of the set;
        True when it enrolled any (the set must then be registered again)."""
        cage = Counter(self.denomination[u] for u in self.held.get(CAGE, ()))
        want = RESERVE_PER_SEAT * self.seats
        added = False
        for d in DENOMINATIONS:
            # twice the reserve when it runs low, so that the set grows seldom
            for _ in range(2 * want - cage[d] if cage[d] < want else 0):
                uid = self._new_uid()
                self.denomination[uid] = d
                self._put(uid, CAGE)
                added = True
        return added

    def register(self) -> ChipsRegister:
        """The set as ``chips.register`` puts it in play."""
        return ChipsRegister(set=SET_ID, chips=dict(self.denomination),
                             colours=dict(COLOURS))

    # --- holders ---------------------------------------------------------------------------

    def _put(self, uid: str, holder: str) -> None:
        self.holder[uid] = holder
        self.held.setdefault(holder, []).append(uid)

    def chips(self, holder: str) -> tuple[str, ...]:
        return tuple(self.held.get(holder, ()))

    def value(self, holder: str) -> int:
        return sum(self.denomination[u] for u in self.held.get(holder, ()))

    def counts(self, holder: str) -> Counter[int]:
        return Counter(self.denomination[u] for u in self.held.get(holder, ()))

    def move(self, uids: Iterable[str], to: str) -> None:
        """Chips change holder (a motion's part, or a move no antenna sees)."""
        for uid in uids:
            src = self.holder[uid]
            self.held[src].remove(uid)
            self._put(uid, to)

    def take(self, holder: str, denomination: int, n: int) -> list[str]:
        """``n`` chips of ``denomination`` held by ``holder`` (the smallest uids first: the
        choice is deterministic whatever order they came in)."""
        mine = sorted(u for u in self.held.get(holder, ()) if self.denomination[u] == denomination)
        if len(mine) < n:
            raise ValueError(f"{holder} holds {len(mine)} chips of {denomination}, not {n}")
        return mine[:n]

    def exact(self, holder: str, amount: int, min_chips: int = 1) -> list[str] | None:
        """Chips of ``holder`` that make ``amount`` exactly (with at least ``min_chips``), or
        None when its chips cannot; no chip for nothing."""
        if amount == 0:
            return []
        found = _exact_counts(self.counts(holder), amount, min_chips)
        if found is None:
            return None
        return [u for d, n in found.items() for u in self.take(holder, d, n)]

    def payable(self, holder: str) -> bool:
        """Can every amount up to the holder's value be paid from its chips?"""
        reach = 0
        for d in sorted(self.denomination[u] for u in self.held.get(holder, ())):
            if d > reach + 1:
                return False
            reach += d
        return True

    def recompose(self, holder: str, counts: Mapping[int, int] | None = None) -> None:
        """The holder changes all its chips at the cage for ``counts`` (default: a payable
        composition of the same value): off every antenna, so no event."""
        value = self.value(holder)
        counts = payable_counts(value) if counts is None else counts
        if sum(d * n for d, n in counts.items()) != value:
            raise ValueError(f"{dict(counts)} is not worth {value}")
        self.move(self.chips(holder), CAGE)
        for d, n in counts.items():
            self.move(self.take(CAGE, d, n), holder)

    def set_value(self, holder: str, value: int) -> None:
        """The holder's chips become a payable stack worth ``value`` (a buy-in, a re-buy, a
        cash-out to 0), changed at the cage."""
        self.move(self.chips(holder), CAGE)
        for d, n in payable_counts(value).items():
            self.move(self.take(CAGE, d, n), holder)

    # --- motions -----------------------------------------------------------------------------

    def motion(self, moves: Sequence[Move]) -> tuple[ChipsZone, ...]:
        """Apply ``moves`` at once; the chips.zone bodies the sensing settles them into."""
        touched: set[str] = set()
        for uids, src, dst in moves:
            for uid in uids:
                if self.holder.get(uid) != src:
                    raise ValueError(f"chip {uid} is held by {self.holder.get(uid)}, not {src}")
            self.move(uids, dst)
            touched.update(z for z in (src, dst) if on_antenna(z))
        return self.settle(touched)

    def settle(self, zones: Iterable[str]) -> tuple[ChipsZone, ...]:
        """The zones' content as sensing reports it, for each that changed since it last
        settled: ordered by zone name, then gainers first (controller/sensing/chips.py)."""
        bodies: list[ChipsZone] = []
        for zone in sorted(zones):
            now = frozenset(self.held.get(zone, ()))
            before = self.settled.get(zone, frozenset())
            if now == before:
                continue
            self.settled[zone] = now
            counts = Counter(self.denomination[u] for u in now)
            bodies.append(ChipsZone(
                zone=zone, total=sum(d * n for d, n in counts.items()),
                counts=dict(sorted(counts.items())), uids=tuple(sorted(now)),
                added=tuple(sorted(now - before)), removed=tuple(sorted(before - now))))
        return tuple(sorted(bodies, key=_gain_order))

    def restore(self, zones: Mapping[str, Iterable[str]]) -> None:
        """The antenna zones as a recovered journal left them: their chips leave whatever
        holder the fresh table gave them."""
        for zone, uids in zones.items():
            if not on_antenna(zone):
                continue
            mine = [u for u in uids if u in self.denomination]
            self.move(mine, zone)
            self.settled[zone] = frozenset(mine)


def _gain_order(body: ChipsZone) -> int:
    """0 a zone that only gained chips, 1 one that gained and lost, 2 one that only lost."""
    if not body.removed:
        return 0
    return 1 if body.added else 2
