"""The core's chips (controller/rules/chips/zones.py): the chip-set registry, each zone's settled
content in the state and the snapshot, CHIP_UNKNOWN_TAG and CHIP_FOREIGN_SET."""

from __future__ import annotations

import json

from controller.events import (
    ChipsRegister,
    ChipsZone,
    HandStart,
    SeatTake,
    TableSetup,
    TrayCounts,
    Undo,
    make,
)
from controller.poker.chip_sets import ChipRegistry
from controller.rules import apply, initial_state, snapshot

HOUSE = {"H1": 5, "H2": 5, "H3": 25}
OLD = {"O1": 5, "H3": 100}  # H3 re-used: the set in play's claim wins


class Table:
    def __init__(self) -> None:
        self.state = initial_state()
        self.seq = 0
        self.codes: list[str] = []

    def __call__(self, *bodies):
        found = []
        for body in bodies:
            self.seq += 1
            step = apply(self.state, make(self.seq, body))
            self.state = step.state
            found += list(step.findings)
        self.codes += [f.code for f in found]
        return found


def _table() -> Table:
    t = Table()
    t(TableSetup(), SeatTake(seat=1, player="Ann", stack=200),
      SeatTake(seat=2, player="Bob", stack=200))
    return t


def _zone(zone: str, uids: tuple[str, ...], counts: dict[int, int], **kw) -> ChipsZone:
    return ChipsZone(zone=zone, total=sum(d * n for d, n in counts.items()), counts=counts,
                     uids=uids, **kw)


def test_the_registry_keeps_the_set_in_play_and_knows_the_others():
    reg = ChipRegistry().put_in_play("old", OLD, {})
    reg = reg.put_in_play("house", HOUSE, {25: "green"})
    assert reg.in_play == "house" and reg.denomination_of("H3") == 25
    assert reg.foreign("O1") == ("old", 5) and reg.foreign("H3") is None
    assert reg.sets() == ("house", "old")
    idle = reg.with_idle("spare", {"S1": 1})
    assert idle.foreign("S1") == ("spare", 1) and idle.in_play == "house"
    assert idle.with_idle("house", {"X": 1}) is idle  # the set in play is not made idle


def test_a_zone_is_recorded_and_shown_with_the_seats_chips_in_front():
    t = _table()
    t(ChipsRegister(set="house", chips=HOUSE, colours={5: "red"}))
    assert t(_zone("bet:2", ("H1", "H3"), {5: 1, 25: 1}, added=("H1", "H3"))) == []
    t(TrayCounts(counts={5: 20, 25: 0}))
    snap = snapshot(t.state)
    json.dumps(snap, allow_nan=False)
    assert snap["chips"] == {"bet:2": {"total": 30, "counts": {"5": 1, "25": 1},
                                       "uids": ["H1", "H3"], "seq": 5}}
    assert [s["chips_in_front"] for s in snap["seats"]] == [None, 30]
    assert snap["chip_sets"] == {"in_play": "house", "colours": {"5": "red"}, "others": []}
    assert snap["tray_counts"] == {"total": 100, "counts": {"5": 20, "25": 0}, "seq": 6}
    t(_zone("bet:2", (), {}, removed=("H1", "H3")))  # emptied
    assert snapshot(t.state)["seats"][1]["chips_in_front"] == 0


def test_an_unknown_tag_and_a_chip_of_another_set_are_flagged_once_with_the_seat():
    t = _table()
    t(ChipsRegister(set="house", chips=HOUSE), ChipsRegister(set="old", chips=OLD, idle=True))
    found = t(_zone("bet:1", ("H1", "O1", "ZZ"), {5: 1}, added=("H1", "O1", "ZZ")))
    assert [(f.code, f.seats) for f in found] == [("CHIP_FOREIGN_SET", (1,)),
                                                  ("CHIP_UNKNOWN_TAG", (1,))]
    foreign, unknown = found
    assert foreign.rule.file == "roberts-rules-v11.txt" and foreign.rule.rule == "5"
    assert "a 5 chip (tag O1) of set old, not of the set in play (house)" in foreign.message
    assert "the bet of seat 1 (bet:1)" in foreign.message
    assert "ZZ" in unknown.message and "(house, old)" in unknown.message
    # still lying there, a chip added beside them: judged once; the pot names no seat
    assert t(_zone("bet:1", ("H1", "H2", "O1", "ZZ"), {5: 2}, added=("H2",))) == []
    [pot] = t(_zone("pot", ("ZZ",), {}, added=("ZZ",)))
    assert pot.code == "CHIP_UNKNOWN_TAG" and pot.seats == ()
    assert "the pot" in pot.message


def test_without_a_chip_set_every_tag_is_unknown_and_the_remedy_says_so():
    t = _table()
    [f] = t(_zone("stack:2", ("A1",), {}, added=("A1",)))
    assert f.code == "CHIP_UNKNOWN_TAG" and "none registered" in f.message


def test_a_set_put_in_play_during_a_hand_is_out_of_place_an_idle_one_is_not():
    t = _table()
    t(ChipsRegister(set="house", chips=HOUSE), HandStart())
    assert [f.code for f in t(ChipsRegister(set="old", chips=OLD))] == ["EVENT_OUT_OF_PLACE"]
    assert t.state.chips.registry.in_play == "house"
    assert t(ChipsRegister(set="old", chips=OLD, idle=True)) == []
    assert t.state.chips.registry.foreign("O1") == ("old", 5)


def test_an_undo_never_takes_back_where_the_chips_lie():
    t = _table()
    t(ChipsRegister(set="house", chips=HOUSE))
    t(_zone("pot", ("H1", "QQ"), {5: 1}, added=("H1", "QQ")))
    t(TrayCounts(counts={5: 3}))
    t(Undo())  # undoes the chips.register, the last thing the table did
    assert t.state.chips.registry.in_play == ""
    assert t.state.chips.zones["pot"].uids == ("H1", "QQ")
    assert t.state.chips.tray == ((5, 3),)
    assert [f.code for f in t.state.findings] == ["CHIP_UNKNOWN_TAG", "EVENT_UNDONE"]


def test_zones_are_kept_across_hands():
    t = _table()
    t(ChipsRegister(set="house", chips=HOUSE), _zone("stack:1", ("H3",), {25: 1}),
      HandStart())
    assert snapshot(t.state)["chips"]["stack:1"]["total"] == 25
