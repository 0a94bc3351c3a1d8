"""Replaying PHH hands through the engine: matches, mismatches, errors that name the action,
unusual but legal orders, decimal chips, and split chips judged by the odd-chip rule."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from controller.phh import loads
from controller.phh.replay import (
    check,
    chip_scale,
    is_odd_chip_split,
    play,
    replay_file,
    replay_hands,
)
from controller.phh.writer import dumps_all

pokerkit = pytest.importorskip("pokerkit")

NT = """\
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [{stacks}]
actions = [{actions}]
{extra}
"""


def _nt(actions: list[str], stacks: str = "200, 200, 200", extra: str = "") -> str:
    return NT.format(stacks=stacks, actions=", ".join(f'"{a}"' for a in actions), extra=extra)


DEAL = ["d dh p1 AhKh", "d dh p2 7c2d", "d dh p3 QsQd"]
HAND = [*DEAL, "p3 cbr 6", "p1 cc", "p2 f", "d db Qh9h3c", "p1 cbr 10", "p3 cbr 30", "p1 cc",
        "d db 2h", "p1 cbr 164", "p3 cc", "p3 sm QsQd", "p1 sm AhKh", "d db 5s"]
# p1 makes the flush on the turn and p3 calls all-in: p1 takes 2 + 200 + 200


def _pokerkit(text: str) -> list:  # type: ignore[type-arg]
    *_, state = pokerkit.HandHistory.loads(text)
    return list(state.stacks)


def test_a_hand_replays_to_its_finishing_stacks() -> None:
    text = _nt(HAND, extra="finishing_stacks = [402, 198, 0]")
    assert _pokerkit(text) == [402, 198, 0]
    h = loads(text, source="t.phh")
    assert play(h) == (402, 198, 0)
    result = check(h)
    assert result.status == "matched"
    assert result.line() == "t.phh: matched [402, 198, 0]"


def test_a_mismatch_says_expected_and_got() -> None:
    result = check(loads(_nt(HAND, extra="finishing_stacks = [400, 200, 0]"), source="t.phh"))
    assert result.status == "mismatched"
    assert result.line() == "t.phh: expected [400, 200, 0], got [402, 198, 0]"


def test_an_illegal_action_names_the_hand_the_action_and_why() -> None:
    bad = [*DEAL, "p1 cc"]  # p3 is first to act preflop
    result = check(loads(_nt(bad, extra="hand = 7"), source="t.phhs [3]"))
    assert result.status == "error"
    assert result.message.startswith("t.phhs [3] (hand 7): action 4: 'p1 cc': ")
    bad = [*DEAL, "p3 cbr 3"]  # below the minimum raise to 4
    result = check(loads(_nt(bad), source="t.phh"))
    assert result.status == "error" and "action 4: 'p3 cbr 3': " in result.message


def test_hands_without_finishing_stacks_are_replayed_unchecked() -> None:
    result = check(loads(_nt(HAND), source="t.phh"))
    assert result.status == "unchecked"
    assert result.line() == "t.phh: no finishing_stacks recorded; replayed to [402, 198, 0]"


def test_shows_at_an_all_in_before_the_board_is_complete() -> None:
    # the Dwan-Ivey order: shows on the turn, then the river
    assert check(loads(_nt(HAND, extra="finishing_stacks = [402, 198, 0]"))).status == "matched"
    # shows before the flop, then the whole board
    early = [*DEAL, "p3 cbr 200", "p1 cc", "p2 f", "p3 sm QsQd", "p1 sm AhKh",
             "d db Qh9h3c", "d db 2h", "d db 5s"]
    text = _nt(early, extra="finishing_stacks = [402, 198, 0]")
    assert _pokerkit(text) == [402, 198, 0]
    assert check(loads(text)).status == "matched"


def test_a_show_written_before_the_call_is_held_until_the_betting_is_over() -> None:
    held = [*DEAL, "p3 cbr 200", "p3 sm QsQd", "p1 cc", "p2 f", "p1 sm AhKh",
            "d db Qh9h3c", "d db 2h", "d db 5s"]
    assert check(loads(_nt(held, extra="finishing_stacks = [402, 198, 0]"))).status == "matched"
    never = [*DEAL, "p3 cbr 6", "p3 sm QsQd", "p1 f", "p2 f"]
    result = check(loads(_nt(never), source="t.phh"))
    assert result.status == "error"
    assert "action 5: 'p3 sm QsQd': the hand ended without a showdown" in result.message


def test_stud_hands_shown_at_an_all_in_before_the_last_card() -> None:
    # Third street: p1's 7c is the high card showing and p2's deuce brings it in (the lowest
    # card showing). p1 is all-in on third street; both hands are tabled before fourth street.
    text = """\
variant = "F7S"
antes = [1, 1]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [20, 100]
actions = ["d dh p1 AsAh7c", "d dh p2 KsKh2d", "p2 pb", "p1 cbr 5", "p2 cbr 10", "p1 cbr 15",
           "p2 cbr 20", "p1 cc", "p1 sm AsAh7c", "p2 sm KsKh2d",
           "d dh p1 8d", "d dh p2 3c", "d dh p1 9d", "d dh p2 4c", "d dh p1 Td", "d dh p2 6c",
           "d dh p1 Jc", "d dh p2 Qh"]
finishing_stacks = [40, 80]
"""
    # p1 ends with a seven-to-jack straight, p2 with kings: p1 takes 2 antes + 19 + 19 and
    # p2's last chip comes back uncalled. (PokerKit 0.7 loses this pot: it kills both hands
    # when the shows come before the last cards.)
    result = check(loads(text))
    assert result.status == "matched", result.line()


def test_decimal_amounts_are_replayed_in_their_smallest_unit() -> None:
    text = _nt([*DEAL, "p3 cbr 150.25", "p1 cc", "p2 f", "p3 sm QsQd", "p1 sm AhKh",
                "d db Qh9h3c", "d db 2h", "d db 5s"], stacks="150.25, 200, 300.5")
    h = loads(text)
    assert chip_scale(h) == 100
    got = play(h)
    assert got == (Decimal("302.5"), Decimal("198"), Decimal("150.25"))
    assert _pokerkit(text) == list(got)


SPLIT = [*DEAL[:1], "d dh p2 2c3d", "d dh p3 4c5d", "p3 cc", "p1 f", "p2 cc",
         "d db AsKsQs", "p2 cc", "p3 cc", "d db Js", "p2 cc", "p3 cc", "d db Ts", "p2 cc",
         "p3 cc", "p2 sm 2c3d", "p3 sm 4c5d"]
# a royal flush on the board: p2 and p3 split 5 chips (p1's small blind is dead money)


def test_a_record_that_splits_the_odd_chip_in_halves() -> None:
    h = loads(_nt(SPLIT, stacks="10, 10, 10", extra="finishing_stacks = [9, 10.5, 10.5]"),
              source="t.phh")
    result = check(h)
    # p2 is the first winner clockwise from the button (p3): it gets the odd chip
    # (roberts-rules-v11.txt, Section 3, Ties, r.5(a))
    assert result.status == "odd_chip"
    assert result.got == (9, 11, 10)
    assert "odd chip: recorded [9, 10.5, 10.5], replayed [9, 11, 10]" in result.line()
    wrong = loads(_nt(SPLIT, stacks="10, 10, 10", extra="finishing_stacks = [9, 10, 11]"))
    assert check(wrong).status == "mismatched"


def test_odd_chip_split_needs_halves_where_the_chips_differ() -> None:
    D = Decimal
    assert is_odd_chip_split([9, D("10.5"), D("10.5")], [9, 11, 10])
    assert not is_odd_chip_split([9, 10, 11], [9, 11, 10])  # whole chips: a real mismatch
    assert not is_odd_chip_split([9, D("10.5"), D("10.5")], [9, 12, 9])  # more than half
    assert is_odd_chip_split([9, D("10.5"), D("11.5")], [9, 11, 11])  # two halves, either way
    assert not is_odd_chip_split([9, D("10.5"), D("10.5")], [9, 11, 11])  # chips don't add up
    assert not is_odd_chip_split([9, 10], [9, 10])  # nothing to explain
    assert is_odd_chip_split([D("1.005")], [D("1.01")], 100) is False  # sums differ
    assert is_odd_chip_split([D("1.005"), D("1.005")], [D("1.01"), D("1.00")], 100)


def test_a_file_with_a_bad_hand_loses_nothing_else(tmp_path: Path) -> None:
    good = loads(_nt(HAND, extra="finishing_stacks = [402, 198, 0]"))
    path = tmp_path / "x.phhs"
    text = dumps_all([good, good]).replace('"p1 cbr 10"', '"p1 bet 10"', 1)
    path.write_text(text, encoding="utf-8")
    summary = replay_file(path)
    assert (summary.hands, summary.matched, summary.errors) == (2, 1, 1)
    assert not summary.ok
    assert "x.phhs [1]: action 8: 'p1 bet 10': unknown action 'bet'" in summary.results[0].line()
    assert summary.line().startswith("2 hands: 1 matched, 0 mismatched, 1 errors; replayed in ")


def test_an_unknown_stack_that_never_matters_is_played_deep() -> None:
    # p2 (inf) folds his big blind: the other two play for their known stacks
    result = check(loads(_nt(HAND, stacks="200, inf, 200")))
    assert result.status == "unchecked"
    assert result.got == (402, Decimal("inf"), 0)
    assert result.net == (202, -2, -200)


def test_summary_counts_each_kind() -> None:
    hands = [loads(_nt(HAND, extra="finishing_stacks = [402, 198, 0]")),
             loads(_nt(HAND, extra="finishing_stacks = [400, 200, 0]")),
             loads(_nt(HAND)),
             loads(_nt(SPLIT, stacks="10, 10, 10", extra="finishing_stacks = [9, 10.5, 10.5]"))]
    s = replay_hands(hands)
    assert (s.hands, s.matched, s.odd_chip, s.mismatched, s.errors, s.unchecked) == (
        4, 2, 1, 1, 0, 1)
    assert "2 matched (1 by the odd-chip rule), 1 mismatched, 0 errors, " \
           "1 without finishing stacks" in s.line()


def test_an_amount_finer_than_the_stakes_restarts_in_its_unit() -> None:
    text = _nt([*DEAL, "p3 cbr 6.5", "p1 f", "p2 f"], extra="finishing_stacks = [199, 198, 203]")
    h = loads(text)
    assert chip_scale(h) == 10
    assert play(h) == (199, 198, 203)
    assert _pokerkit(text) == [199, 198, 203]
    assert check(h).status == "matched"
