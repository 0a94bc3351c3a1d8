"""Every chip on the table accounted for between hands: each player's chips against the stack the
hands left it, and the table's ledger (issue 13, item 5).

Pure. Judged as a hand starts, from the zones as they lie:

- **a player's chips**: a seat whose stack zone is read holds its stack and whatever lies in
  front of it between hands (a pushed pot not yet stacked); the total must be the stack the
  core carried on from the hands played (CHIP_STACK_MISMATCH).
- **the ledger**: tray + pot + bet zones + stacks + drop = the last count + buy-ins - cash-outs.
  The players' part of it is the core's stacks (its buy-ins and cash-outs are ``seat.take`` and
  ``seat.leave``) plus the antes carried to the next deal; the house's part (tray and drop) is
  the last count plus the chips that went from the pots to the tray or the drop since
  (``Chips.to_house``). Any difference is CHIP_LEDGER_OFF, naming each zone off and by how much.
  The ledger is kept only where it can see every chip: each seated player's stack zone and the
  tray (its antenna, or a counting tray) are read; the first such count is the baseline, and each
  count is the next one's.
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.poker.records import replace
from controller.rules.chips.zones import Chips, zone_seat
from controller.rules.findings import Finding, make_finding


def _total(chips: Chips, zone: str) -> int:
    z = chips.zones.get(zone)
    return z.total if z is not None else 0


def tray_value(chips: Chips) -> int | None:
    """The float: the tray antenna's chips, or else the counting tray's; None when unread."""
    if "tray" in chips.zones:
        return _total(chips, "tray")
    if chips.tray is not None:
        return sum(d * n for d, n in chips.tray)
    return None


def between_hands(chips: Chips, stacks: Mapping[int, int], carry: int, seq: int
                  ) -> tuple[Chips, tuple[Finding, ...]]:
    """The chips counted as a hand starts (``stacks``: each seated player's stack as the core
    holds it; ``carry``: antes waiting in the pot for this deal)."""
    out: list[Finding] = []
    off: list[str] = []
    for seat, stack in sorted(stacks.items()):
        if f"stack:{seat}" not in chips.zones:
            continue
        have = _total(chips, f"stack:{seat}") + _total(chips, f"bet:{seat}")
        if have != stack:
            diff = have - stack
            off.append(f"seat {seat} {diff:+d}")
            out.append(make_finding("CHIP_STACK_MISMATCH", seq, seats=[seat], fill={
                "seat": seat, "chips": have, "stack": stack,
                "diff": f"{abs(diff)} {'more' if diff > 0 else 'less'}"}))
    tray = tray_value(chips)
    if tray is None or not stacks or any(f"stack:{s}" not in chips.zones for s in stacks):
        return chips, tuple(out)
    house = tray + _total(chips, "drop")
    if chips.house is None:
        return replace(chips, house=house, to_house=0), tuple(out)
    front = sum(z.total for name, z in chips.zones.items()
                if name.startswith(("bet:", "stack:")))
    actual = house + front + _total(chips, "pot")
    expected = chips.house + chips.to_house + sum(stacks.values()) + carry
    if actual != expected:
        zones = list(off)
        for name, z in sorted(chips.zones.items()):
            owner = zone_seat(name)
            if owner is not None and owner not in stacks and z.total:
                zones.append(f"{name} {z.total:+d} (no player)")
        if _total(chips, "pot") != carry:
            zones.append(f"pot {_total(chips, 'pot') - carry:+d}")
        if house != chips.house + chips.to_house:
            zones.append(f"tray and drop {house - chips.house - chips.to_house:+d}")
        diff = actual - expected
        out.append(make_finding("CHIP_LEDGER_OFF", seq, fill={
            "actual": actual, "expected": expected,
            "diff": f"{abs(diff)} {'more' if diff > 0 else 'less'}",
            "zones": ("Off: " + ", ".join(zones) + ".") if zones else ""}))
    return replace(chips, house=house, to_house=0), tuple(out)
