"""Sensing: reads from antennas -> shoe draws and zone reads, debounced."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from controller.events import ShoeDraw, ZoneLeave, ZoneRead
from controller.sensing.cards import Sensing, parse_antenna_map


@dataclass
class Read:
    reader: int
    antenna: int
    uid: str
    face_up: bool = False
    received_monotonic: float = 0.0


def test_a_card_leaves_the_shoe_and_lands_at_a_seat():
    s = Sensing()
    drawn = s.on_read(Read(1, 0, "AA", True, received_monotonic=1.0))
    assert drawn == [ShoeDraw(uid="AA", face_up=True)]
    landed = s.on_read(Read(2, 3, "AA", received_monotonic=1.1))
    assert landed == [ZoneRead(uid="AA", zone="seat:3")]


def test_repeated_reads_of_a_resting_card_are_one_fact():
    s = Sensing()
    s.on_read(Read(1, 0, "AA", received_monotonic=1.0))
    assert s.on_read(Read(1, 0, "AA", received_monotonic=1.1)) == []  # same draw, read twice
    s.on_read(Read(2, 11, "AA", received_monotonic=1.2))
    assert s.on_read(Read(2, 11, "AA", received_monotonic=5.0)) == []


def test_a_card_moved_between_zones_leaves_one_and_enters_the_other():
    s = Sensing()
    s.on_read(Read(2, 4, "AA"))
    assert s.on_read(Read(2, 13, "AA")) == [
        ZoneLeave(uid="AA", zone="seat:4"),
        ZoneRead(uid="AA", zone="muck"),
    ]


def test_a_card_drawn_again_after_going_back_to_the_stub():
    s = Sensing()
    s.on_read(Read(1, 0, "AA", received_monotonic=1.0))
    s.on_read(Read(2, 11, "AA", received_monotonic=1.1))
    assert s.on_read(Read(1, 0, "AA", received_monotonic=9.0)) == [
        ZoneLeave(uid="AA", zone="board"),
        ShoeDraw(uid="AA", face_up=False),
    ]


def test_a_card_back_from_the_felt_is_a_new_draw_even_within_the_debounce_window():
    # a remedy's quick re-deal: the card was read on the board in between, so the second shoe
    # read is a second draw, not the first one repeated
    s = Sensing()
    s.on_read(Read(1, 0, "AA", received_monotonic=1.0))
    s.on_read(Read(2, 11, "AA", received_monotonic=1.1))
    assert s.on_read(Read(1, 0, "AA", received_monotonic=1.3)) == [
        ZoneLeave(uid="AA", zone="board"),
        ShoeDraw(uid="AA", face_up=False),
    ]


def test_unknown_antennas_are_counted_not_guessed():
    s = Sensing()
    assert s.on_read(Read(7, 7, "AA")) == []
    assert s.unknown_antenna_reads == 1


def test_new_hand_forgets_positions():
    s = Sensing()
    s.on_read(Read(2, 4, "AA"))
    s.new_hand()
    assert s.on_read(Read(2, 4, "AA")) == [ZoneRead(uid="AA", zone="seat:4")]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"2-4": "seat:4"}, "antennas.2-4: key must be"),
        ({"2:4": "seat:11"}, "antennas.2:4: 'seat:11'"),
    ],
)
def test_bad_antenna_map_names_the_key(raw, message):
    with pytest.raises(ValueError, match=message):
        parse_antenna_map(raw)


# --- silence: a tag no longer read (Sensing.tick) ------------------------------------------------

SHOE_R, FELT = (1, 0), 2
BOARD, BURN, MUCK = 11, 12, 13


def _resting(s: Sensing, where: dict[str, int], start: float, end: float) -> list:
    """Every tag in ``where`` (uid -> felt antenna) read every 250 ms from ``start`` to ``end``,
    with a tick after each round of reads (as the readers and the daemon's ticker would)."""
    out = []
    t = start
    while t <= end + 1e-9:
        for uid, antenna in where.items():
            out += s.on_read(Read(FELT, antenna, uid, received_monotonic=t))
        out += s.tick(t + 0.1)
        t += 0.25
    return out


def test_a_tag_resting_on_an_antenna_is_never_lost():
    s = Sensing()
    s.on_read(Read(1, 0, "AA", received_monotonic=0.0))
    assert _resting(s, {"AA": 3}, 0.2, 60.0) == [ZoneRead(uid="AA", zone="seat:3")]


def test_a_tag_no_longer_read_leaves_its_zone_lost_once_the_time_out_has_passed():
    s = Sensing(lost_after_s=1.5)
    s.on_read(Read(1, 0, "AA", received_monotonic=0.0))
    s.on_read(Read(2, 3, "AA", received_monotonic=0.2))
    s.on_read(Read(2, 3, "AA", received_monotonic=0.45))  # its last repeat
    assert s.tick(1.95) == []  # exactly the time-out: not yet
    assert s.tick(1.96) == [ZoneLeave(uid="AA", zone="seat:3", lost=True)]
    assert s.tick(10.0) == []  # reported once
    # read again later, it is back: an ordinary zone read
    assert s.on_read(Read(2, 3, "AA", received_monotonic=11.0)) == [
        ZoneRead(uid="AA", zone="seat:3")]


def test_a_card_lifted_to_look_at_and_put_back_within_the_time_out_is_not_lost():
    s = Sensing(lost_after_s=1.5)
    s.on_read(Read(2, 4, "AA", received_monotonic=0.0))
    assert s.tick(1.2) == []  # unread for 1.2 s
    assert s.on_read(Read(2, 4, "AA", received_monotonic=1.3)) == []
    assert s.tick(2.7) == []


def test_a_card_drawn_that_no_zone_reads_is_lost_from_the_shoe():
    s = Sensing(lost_after_s=1.5)
    assert s.on_read(Read(1, 0, "AA", received_monotonic=5.0)) == [ShoeDraw(uid="AA")]
    s.on_read(Read(1, 0, "AA", received_monotonic=5.2))  # the shoe's repeat: the clock restarts
    assert s.tick(6.6) == []
    assert s.tick(6.8) == [ZoneLeave(uid="AA", zone="shoe", lost=True)]
    assert s.tick(9.0) == []
    # found and put on the felt: an ordinary zone read
    assert s.on_read(Read(2, 5, "AA", received_monotonic=9.5)) == [
        ZoneRead(uid="AA", zone="seat:5")]


def test_lost_tags_are_reported_in_the_order_they_went_quiet():
    s = Sensing(lost_after_s=1.0)
    s.on_read(Read(2, 3, "BB", received_monotonic=0.5))
    s.on_read(Read(1, 0, "AA", received_monotonic=0.2))
    s.on_read(Read(2, 4, "CC", received_monotonic=0.3))
    assert s.tick(5.0) == [ZoneLeave(uid="AA", zone="shoe", lost=True),
                           ZoneLeave(uid="CC", zone="seat:4", lost=True),
                           ZoneLeave(uid="BB", zone="seat:3", lost=True)]


def test_a_new_hand_forgets_the_tags_it_was_timing():
    s = Sensing(lost_after_s=1.0)
    s.on_read(Read(2, 3, "BB", received_monotonic=0.5))
    s.on_read(Read(1, 0, "AA", received_monotonic=0.2))
    s.new_hand()
    assert s.tick(5.0) == []


def test_a_clean_hand_on_antennas_read_every_250_ms_raises_no_lost_leave_until_the_gathering():
    """Hold'em, four players: hole cards rest on the seats, burns and board on theirs, a fold
    goes to the muck; every tag on the felt is read every 250 ms. Only after the hand, when the
    dealer gathers the cards off the antennas, do the tags go quiet (the core raises nothing for
    those: no hand is in play)."""
    s = Sensing(lost_after_s=1.5)
    felt: dict[str, int] = {}
    events: list = []
    t = 0.0

    def deal(uid: str, antenna: int) -> None:
        nonlocal t
        events.extend(s.on_read(Read(*SHOE_R, uid, received_monotonic=t)))
        events.extend(s.on_read(Read(*SHOE_R, uid, received_monotonic=t + 0.05)))
        felt[uid] = antenna
        events.extend(_resting(s, felt, t + 0.3, t + 0.8))  # a card about every 0.75 s
        t += 1.05

    for n in range(8):  # two passes to seats 1..4
        deal(f"H{n}", 1 + n % 4)
    # seat 4 folds: its cards slide into the muck; seat 2 lifts a card to look at it for 1 s
    felt["H3"] = felt["H7"] = MUCK
    del felt["H1"]
    events.extend(_resting(s, felt, t, t + 1.0))
    t += 1.25
    felt["H1"] = 2
    for uid, antenna in (("B1", BURN), ("F1", BOARD), ("F2", BOARD), ("F3", BOARD),
                         ("B2", BURN), ("T", BOARD), ("B3", BURN), ("R", BOARD)):
        deal(uid, antenna)
    events.extend(_resting(s, felt, t, t + 20.0))  # the betting and the showdown
    assert not [e for e in events if isinstance(e, ZoneLeave) and e.lost]
    moved = [e for e in events if isinstance(e, ZoneLeave)]
    assert sorted(e.uid for e in moved) == ["H3", "H7"]  # the fold, read at the muck
    # the dealer gathers every card off the felt: each goes quiet once
    gathered = s.tick(t + 30.0)
    assert sorted(e.uid for e in gathered) == sorted(felt)
    assert all(isinstance(e, ZoneLeave) and e.lost for e in gathered)
