"""Acceptance: the real-hands corpus (``../shared/phh``) replays to exactly the recorded stacks.

All 10,000 pluribus hands end with their ``finishing_stacks``, except eight whose record splits
a pot into half chips (``10112.5`` each). Chips do not break in halves: under the odd-chip rule
"In a button game, the first hand clockwise from the button gets the odd chip"
(roberts-rules-v11.txt, Section 3, Ties, r.5(a)), those eight end one chip apart, the odd chip
with the winner nearer the button's left, i.e. the lower PHH position (p1 is the first seat left
of the button). The famous hands record no finishing stacks; their expected stacks below were
worked out by hand from the actions (and agree with PokerKit's replay).
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from controller.phh import HandHistory, loads_all, read_file
from controller.phh.replay import check, replay_hands
from controller.phh.writer import dumps_all

# The eight pluribus hands whose record splits the odd chip: .phhs table key -> the two winners
# (PHH positions from 1) and the pluribus hand number recorded in the hand's `hand` field.
HALF_CHIP_HANDS: dict[str, tuple[tuple[int, int], int]] = {
    "280": ((1, 5), 0),
    "3333": ((3, 6), 23),
    "4081": ((1, 4), 204),
    "5747": ((2, 6), 88),
    "7268": ((3, 6), 76),
    "8512": ((4, 6), 128),
    "8808": ((4, 5), 43),
    "8818": ((1, 4), 53),
}

FAMOUS: dict[str, tuple[Decimal | int, ...]] = {
    # badugi: Carol's 8-7-5-3 badugi beats Alice's 9-6-4-2; pot 36 (Bob 4, Carol 16, Alice 16)
    "alice-carol-wikipedia.phh": (196, 220, 200, 184),
    # pot-limit Omaha: Antonius's wheel (Ah3s + 4s5c2h) beats Blom, who is all-in
    "antonius-blom-2009.phh": (Decimal("1937923.75"), 0),
    # 2-7 triple draw: Arieh's 7-5-4-3-2 beats Yockey's 7-6-4-3-2; Yockey all-in for 1,180,000
    "arieh-yockey-2019.phh": (0, 4190000, 5910000, 12095000),
    # Dwan's seven-high straight beats Ivey's wheel; Dwan all-in: antes 1,500 + 2,000 + 2 x 553,000
    "dwan-ivey-2009.phh": (572100, 1997500, 1109500),
    # short deck: Xuan's king-high straight beats Phua's three kings (JPN Six Plus Hold'em
    # ranking; trips over straight is a house setting, off by default) and Phua is all-in
    "phua-xuan-2019.phh": (489000, 226000, 684000, 400000, 0, 198000),
}


@pytest.fixture(scope="module")
def pluribus(shared: Path) -> list[HandHistory]:
    items = read_file(shared / "phh" / "pluribus.phhs")
    errors = [str(i) for i in items if not isinstance(i, HandHistory)]
    assert not errors, errors[:5]
    return [i for i in items if isinstance(i, HandHistory)]


def test_every_pluribus_hand_ends_with_the_recorded_stacks(pluribus: list[HandHistory]) -> None:
    assert len(pluribus) == 10_000
    summary = replay_hands(pluribus)
    problems = [r.line() for r in summary.results if r.status in ("mismatched", "error")]
    assert not problems, problems[:10]
    odd = {r.label.split("[")[1].split("]")[0]: r for r in summary.results
           if r.status == "odd_chip"}
    assert sorted(odd, key=int) == sorted(HALF_CHIP_HANDS, key=int)
    assert summary.matched == 10_000 and summary.odd_chip == 8
    assert summary.ok


@pytest.mark.parametrize("key", sorted(HALF_CHIP_HANDS, key=int))
def test_half_chip_hands_give_the_odd_chip_to_the_first_winner_left_of_the_button(
        pluribus: list[HandHistory], key: str) -> None:
    (first, second), number = HALF_CHIP_HANDS[key]
    hand = next(h for h in pluribus if h.name.endswith(f"[{key}]"))
    assert hand.hand == number
    expected = hand.finishing_stacks
    assert expected is not None
    halves = [i + 1 for i, v in enumerate(expected) if v % 1 == Decimal("0.5")]
    assert halves == [first, second]
    result = check(hand)
    assert result.status == "odd_chip"
    got = result.got
    assert got is not None
    a, b = got[first - 1], got[second - 1]
    assert a - b == 1  # one chip apart
    assert a == expected[first - 1] + Decimal("0.5")  # the odd chip: p{first}, nearer the button
    assert b == expected[second - 1] - Decimal("0.5")
    for i in range(len(got)):
        if i + 1 not in (first, second):
            assert got[i] == expected[i]


@pytest.mark.parametrize("name", sorted(FAMOUS))
def test_famous_hands(shared: Path, name: str) -> None:
    [hand] = read_file(shared / "phh" / "famous" / name)
    assert isinstance(hand, HandHistory), hand
    result = check(hand)
    assert result.status == "unchecked", result.line()  # no finishing_stacks in these files
    assert result.got == FAMOUS[name]
    assert sum(result.got) == sum(hand.starting_stacks)


def test_famous_hands_with_unknown_cards_read_as_unknown(shared: Path) -> None:
    [hand] = read_file(shared / "phh" / "famous" / "alice-carol-wikipedia.phh")
    assert isinstance(hand, HandHistory)
    assert hand.actions[0].cards == (None,) * 4
    [hand] = read_file(shared / "phh" / "famous" / "dwan-ivey-2009.phh")
    assert isinstance(hand, HandHistory)
    assert hand.actions[1].cards == (None, None)


def test_the_corpus_survives_our_writer_and_reader(pluribus: list[HandHistory],
                                                   shared: Path) -> None:
    famous = [h for p in sorted((shared / "phh" / "famous").glob("*.phh"))
              for h in read_file(p) if isinstance(h, HandHistory)]
    sample = pluribus[::25] + famous
    assert loads_all(dumps_all(sample)) == sample
