"""Table snapshots with chips read (docs/snapshot.md `chips`, `seats[].chips_in_front`,
`tray_counts`), made by the real rules core from chip events, for the display tests.

Three seats. The house set is in play (1 white, 5 red, 25 green). Seat 1 has 30 in front (one
25, one 5), seat 2's bet zone was read and is empty, seat 3's was never read (null). The pot
zone holds 17, the drop 50, the chip tray 400 (antennas), the counting tray reports 1500, and
seat 1's stack zone 25: the zones and totals a public screen must not show are all distinct
numbers, so a test can look for each on a page.
"""

from __future__ import annotations

from typing import Any

from controller.events import ChipsRegister, ChipsZone, SeatTake, TableSetup, TrayCounts, make
from controller.rules import apply, initial_state, snapshot

HOUSE = {"W1": 1, "W2": 1, "R1": 5, "R2": 5, "R3": 5, "R4": 5, "R5": 5,
         "G1": 25, "G2": 25, "K1": 25, "K2": 25}
COLOURS = {1: "white", 5: "red", 25: "green"}
PLAYERS = {1: "Ann", 2: "Bob", 3: "Cat"}
FRONT = {1: 30, 2: 0, 3: None}  # seat -> chips in front in the snapshot
FRONT_COUNTS = {1: {"25": 1, "5": 1}, 2: {}, 3: {}}
POT, DROP, TRAY_ZONE, TRAY_COUNTS, STACK_1 = 17, 50, 400, 1500, 25


def _zone(zone: str, uids: tuple[str, ...], counts: dict[int, int]) -> ChipsZone:
    return ChipsZone(zone=zone, total=sum(d * n for d, n in counts.items()), counts=counts,
                     uids=uids, added=uids)


def chip_snapshot() -> dict[str, Any]:
    """A fresh snapshot from the core after the chip events above (no hand dealt)."""
    bodies: list[Any] = [
        TableSetup(),
        *(SeatTake(seat=s, player=p, stack=200) for s, p in PLAYERS.items()),
        ChipsRegister(set="house", chips=HOUSE, colours=COLOURS),
        _zone("bet:1", ("G1", "R1"), {25: 1, 5: 1}),
        _zone("bet:2", ("R3",), {5: 1}),
        ChipsZone(zone="bet:2", total=0, counts={}, removed=("R3",)),
        _zone("pot", ("W1", "W2", "R2", "R4", "R5"), {1: 2, 5: 3}),
        _zone("stack:1", ("G2",), {25: 1}),
        _zone("drop", ("K1", "K2"), {25: 2}),
        ChipsZone(zone="tray", total=TRAY_ZONE, counts={25: 16}),
        TrayCounts(counts={1: 100, 5: 80, 25: 40}),
    ]
    state = initial_state()
    for seq, body in enumerate(bodies, start=1):
        state = apply(state, make(seq, body)).state
    return snapshot(state)
