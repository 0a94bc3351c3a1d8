"""Sensing: reads from antennas -> shoe draws and zone reads, debounced."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from controller.events import ShoeDraw, ZoneLeave, ZoneRead
from controller.sensing import Sensing, parse_antenna_map


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
