"""The single blind on the button (house setting ``blind_layout = button_blind``): six-plus
hold'em as the home-game guide deals it, "There is only one blind (the big blind) posted by the
dealer. Antes are also used" (jamies-poker-notes.md, Six Plus Hold'em)."""

from __future__ import annotations

from controller.poker.house_rules import settings_for
from controller.rules.table.blinds import finish_hand, plan_hand
from controller.rules.table.seating import Stakes, away, new_table, sit_down, with_button

SINGLE = settings_for("roberts-home", {"blind_layout": "button_blind"})


def table(n: int = 4, ante: int = 1):
    s = new_table(stakes=Stakes(1, 2, ante=ante))
    for i in range(1, n + 1):
        s = sit_down(s, i, f"p{i}", 100)
    return with_button(s, 1)


def posts(plan) -> list[tuple[int, str, int, bool]]:
    return [(p.seat, p.kind, p.amount, p.live) for p in plan.posts]


def test_the_button_posts_the_big_blind_and_everyone_antes() -> None:
    p = plan_hand(table(), SINGLE)
    assert (p.button, p.small_blind, p.big_blind) == (1, None, 1)
    assert p.dealt_in == (2, 3, 4, 1)  # the first card left of the button
    assert posts(p) == [(2, "ante", 1, False), (3, "ante", 1, False), (4, "ante", 1, False),
                        (1, "ante", 1, False), (1, "big_blind", 2, True)]


def test_the_button_moves_forward_one_player_a_hand_past_an_absent_one() -> None:
    s = table()
    p = plan_hand(s, SINGLE)
    s = away(finish_hand(s, p, {n: 100 for n in p.dealt_in}), 2)
    p = plan_hand(s, SINGLE)
    assert (p.button, p.big_blind) == (3, 3)  # seat 2 is away: not dealt in, skipped
    assert p.dealt_in == (4, 1, 3) and 2 in p.sitting_out
    assert posts(p)[-1] == (3, "big_blind", 2, True)


def test_two_blinds_unless_the_house_says_so() -> None:
    p = plan_hand(table(), settings_for("roberts-home"))
    assert (p.small_blind, p.big_blind) == (2, 3)


def test_a_short_button_posts_what_it_has_after_its_ante() -> None:
    s = new_table(stakes=Stakes(1, 2, ante=1))
    for i, chips in ((1, 2), (2, 100), (3, 100)):
        s = sit_down(s, i, f"p{i}", chips)
    p = plan_hand(with_button(s, 1), SINGLE)
    assert posts(p)[-2:] == [(1, "ante", 1, False), (1, "big_blind", 1, True)]
