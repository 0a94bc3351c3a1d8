"""Seating across hands: the worked examples of research/button-blinds-betting.md §1.4 and
§1.18.8 under both button methods, heads-up transitions, new players, missed blinds, seat changes.

Each example starts from the research's table: seats 1-6 occupied, previous hand button 2, small
blind 3, big blind 4 (roberts-rules-v11.txt Section 4 r.2)."""

from __future__ import annotations

import pytest

from controller.poker.house_rules import settings_for
from controller.rules.table.blinds import finish_hand, plan_hand
from controller.rules.table.seating import (
    HandPlan,
    Seating,
    SeatingError,
    Stakes,
    away,
    back,
    bust,
    change_seat,
    initial_button,
    leave,
    new_table,
    rebuy,
    seat_status,
    set_post,
    sit_down,
    with_button,
)

RR = settings_for("roberts")
MOVING = settings_for("roberts", {"button_method": "moving"})
WSOP = settings_for("wsop-2009")
STAY = settings_for("roberts", {"dead_button_on_sb_bust": "stay"})


def table(seats=(1, 2, 3, 4, 5, 6), button=1, stack=1000, max_seats=10) -> Seating:
    s = new_table(max_seats=max_seats, stakes=Stakes(small_blind=1, big_blind=2))
    for n in seats:
        s = sit_down(s, n, f"p{n}", stack)
    return with_button(s, button)


def play(s: Seating, settings=RR, stacks=None, **kw) -> tuple[Seating, HandPlan]:
    plan = plan_hand(s, settings, **kw)
    return finish_hand(s, plan, stacks or {}), plan


def roles(p: HandPlan) -> tuple[int | None, int | None, int | None]:
    return (p.button, p.small_blind, p.big_blind)


def after_2_3_4(settings=RR, **kw) -> Seating:
    """The research's starting point: the previous hand had button 2, SB 3, BB 4."""
    s, p = play(table(button=2, **kw), settings)
    assert roles(p) == (2, 3, 4)
    return s


# ----------------------------------------------------------- dead button (RR Section 4 r.2(b))

def test_first_hand_from_the_drawn_button() -> None:
    p = plan_hand(table(button=5), RR)
    assert roles(p) == (5, 6, 1)
    assert p.dealt_in == (6, 1, 2, 3, 4, 5)  # first card left of the button (RR Section 4 intro)
    assert [(x.seat, x.kind, x.amount) for x in p.posts] == [(6, "small_blind", 1),
                                                            (1, "big_blind", 2)]


def test_no_button_drawn_is_refused() -> None:
    s = new_table()
    s = sit_down(sit_down(sit_down(s, 1, "a", 10), 2, "b", 10), 3, "c", 10)
    with pytest.raises(SeatingError, match="draw"):
        plan_hand(s, RR)


def test_dead_bb_leaves_no_small_blind_then_dead_button() -> None:
    """§1.18.8 row 1 / AZW TDA #31: BB busts -> Btn=3, no SB, BB=5; then button on empty 4."""
    s = leave(after_2_3_4(), 4)
    s, p = play(s)
    assert roles(p) == (3, None, 5) and p.sb_position == 4
    s, p = play(s)
    assert roles(p) == (4, 5, 6) and 4 not in s.seats


def test_dead_bb_busts_in_the_hand_same_as_leaving() -> None:
    s = table(button=2)
    p = plan_hand(s, RR)
    s = finish_hand(s, p, {4: 0})
    s = leave(s, 4)  # cash: the busted player gets up
    s, p = play(s)
    assert roles(p) == (3, None, 5)


def test_dead_sb_busts_button_on_empty_seat() -> None:
    """§1.18.8 row 2 (RR): the button is placed in front of the empty seat 3; SB 4, BB 5."""
    s = leave(after_2_3_4(), 3)
    s, p = play(s)
    assert roles(p) == (3, 4, 5)
    assert 3 not in p.dealt_in and p.dealt_in[-1] == 2  # seat 2 acts last again


def test_dead_sb_busts_button_stays_tda31() -> None:
    """AZW Dead Button Rule (TDA #31): "the button does not move"."""
    s = table(button=2)
    p = plan_hand(s, STAY)
    s = leave(finish_hand(s, p, {3: 0}), 3)
    s, p = play(s, STAY)
    assert roles(p) == (2, 4, 5)
    s, p = play(s, STAY)
    assert roles(p) == (4, 5, 6)


def test_stay_only_for_a_bust_not_a_leave() -> None:
    s = leave(after_2_3_4(STAY), 3)
    _, p = play(s, STAY)
    assert p.button == 3


def test_several_bust_at_once() -> None:
    """SB and BB both bust: no SB, the button on the SB's empty seat; then on the BB's."""
    s = table(button=2)
    p = plan_hand(s, RR)
    s = finish_hand(s, p, {3: 0, 4: 0})
    s = leave(leave(s, 3), 4)
    s, p = play(s)
    assert roles(p) == (3, None, 5)
    s, p = play(s)
    assert roles(p) == (4, 5, 6)
    s, p = play(s)
    assert roles(p) == (5, 6, 1)


def test_away_player_skipped_by_big_blind_owes_both() -> None:
    """§1.18.8 row 3: player 5 away -> Btn 3, SB 4, BB 6; seat 5 owes."""
    s = away(after_2_3_4(), 5)
    s, p = play(s)
    assert roles(p) == (3, 4, 6)
    assert 5 in p.sitting_out and "away" in p.why[5]
    assert s.seats[5].owes == ("small_blind", "big_blind")
    assert seat_status(s, 5) == "away"


def test_returning_player_posts_missed_blinds_rr_live_part() -> None:
    """RR Section 4 r.10: up to the minimum opening bet is live, the rest dead."""
    s = away(after_2_3_4(), 5)
    s, _ = play(s)               # BB passes 5
    s = back(s, 5, post=True)
    s, p = play(s)               # Btn 4, SB 6, BB 1: seat 5 is between the BB and the button
    assert roles(p) == (4, 6, 1) and 5 not in p.dealt_in and "RR Section 4 r.7" in p.why[5]
    p = plan_hand(s, RR)         # Btn 6, SB 1, BB 2: seat 5 may make up now
    assert roles(p) == (6, 1, 2)
    posts = {(x.kind, x.amount, x.live) for x in p.posts_by(5)}
    assert posts == {("missed_big", 2, True), ("missed_small", 1, False)}
    assert 5 in p.dealt_in
    s = finish_hand(s, p, {})
    assert s.seats[5].owes == ()


def test_owing_only_small_rr_live_wsop_dead() -> None:
    s = table(button=2)
    s, p = play(s)             # 2,3,4
    s = away(s, 4)             # 4 was BB; next hand 4 is the small blind position
    s, p = play(s)
    assert roles(p) == (3, None, 5) and s.seats[4].owes == ("small_blind",)
    s = back(s, 4, post=True)
    s, p = play(s)             # Btn 4 (in the arc): cannot make up yet (RR Section 4 r.7)
    assert roles(p) == (4, 5, 6) and 4 not in p.dealt_in and "RR Section 4 r.7" in p.why[4]
    p = plan_hand(s, RR)       # Btn 5, SB 6, BB 1: seat 4 may post now
    assert [(x.kind, x.live) for x in p.posts_by(4)] == [("missed_small", True)]
    p = plan_hand(s, settings_for("wsop-2009"))
    assert [(x.kind, x.live) for x in p.posts_by(4)] == [("missed_small", False)]


def test_returning_player_may_wait_for_the_big_blind() -> None:
    s = away(after_2_3_4(), 5)
    s, _ = play(s)
    s = back(s, 5)
    assert seat_status(s, 5) == "waiting_for_bb"
    s, p = play(s)  # 4, 6, 1
    s, p = play(s)  # 6, 1, 2
    assert 5 not in p.dealt_in and "waiting for the big blind" in p.why[5]
    for _ in range(3):
        s, p = play(s)
    assert p.big_blind == 5 and 5 in p.dealt_in   # BB reached 5 (after 2, 3, 4)
    assert s.seats[5].owes == ()


def test_new_player_outside_the_arc_posts_or_waits() -> None:
    """§1.18.8 row 4: new player at seat 7, next hand's arc is 3-4."""
    s = after_2_3_4()
    wait = sit_down(s, 7, "new", 500)
    p = plan_hand(wait, RR)
    assert 7 not in p.dealt_in and "waiting for the big blind" in p.why[7]
    posting = sit_down(s, 7, "new", 500, post=True)
    p = plan_hand(posting, RR)
    assert 7 in p.dealt_in
    assert [(x.kind, x.amount, x.live) for x in p.posts_by(7)] == [("new_player", 2, True)]
    # Waiting, the big blind reaches 7 after 5 and 6.
    s = wait
    bbs = []
    for _ in range(3):
        s, p = play(s)
        bbs.append(p.big_blind)
    assert bbs == [5, 6, 7] and 7 in p.dealt_in


def test_new_player_in_the_arc_waits_or_buys_the_button() -> None:
    """§1.18.8 row 5: RR Section 4 r.7 waits; WSOP Section 4 r.4 may buy the button."""
    s = leave(after_2_3_4(), 4)
    s = sit_down(s, 4, "new", 500, post=True)     # joins in the small blind seat
    p = plan_hand(s, RR)
    assert roles(p) == (3, None, 5) and 4 not in p.dealt_in
    p = plan_hand(s, WSOP)
    assert 4 in p.dealt_in and p.small_blind is None
    assert [x.kind for x in p.posts_by(4)] == ["new_player"]


def test_moving_examples() -> None:
    """§1.18.8 moving-button column (RR Section 4 r.2(a))."""
    s = leave(after_2_3_4(MOVING), 4)
    assert roles(plan_hand(s, MOVING)) == (3, 5, 6)
    s = leave(after_2_3_4(MOVING), 3)
    assert roles(plan_hand(s, MOVING)) == (4, 5, 6)
    s = away(after_2_3_4(MOVING), 5)
    s2, p = play(s, MOVING)
    assert roles(p) == (3, 4, 6) and s2.seats[5].owes == ("small_blind", "big_blind")


def test_new_player_enters_on_the_big_blind_moving() -> None:
    s = sit_down(after_2_3_4(MOVING), 7, "new", 100)
    bbs = []
    for _ in range(3):
        s, p = play(s, MOVING)
        bbs.append(p.big_blind)
    assert bbs == [5, 6, 7]


# -------------------------------------------------------------------------------- heads-up

def test_heads_up_small_blind_on_button_bb_first_card() -> None:
    s = table(seats=(2, 7), button=2)
    p = plan_hand(s, RR)
    assert p.heads_up and p.button == p.small_blind == 2 and p.big_blind == 7
    assert p.dealt_in == (7, 2)  # AZW When Only Two Players Remain r.2
    s, _ = play(s)
    p = plan_hand(s, RR)
    assert p.button == p.small_blind == 7 and p.big_blind == 2


def test_becoming_heads_up_most_recent_bb_gets_button() -> None:
    """§1.18.8 last row: 3-handed 2-3-4, BB 4 busts: seat 3 (most recent BB) gets the button."""
    tour = settings_for("roberts", {"tournament": True, "straddle": "none"})
    from controller.rules.table.seating import Level
    s = new_table(tournament=True, levels=(Level(600_000, 1, 2),))
    for n in (2, 3, 4):
        s = sit_down(s, n, f"p{n}", 100)
    s = with_button(s, 4)        # hand 1: btn 4, SB 2, BB 3
    p = plan_hand(s, tour, now_ms=0)
    assert roles(p) == (4, 2, 3)
    s = finish_hand(s, p, {})
    p = plan_hand(s, tour, now_ms=1)   # btn 2, SB 3, BB 4
    assert roles(p) == (2, 3, 4)
    s = finish_hand(s, p, {4: 0})
    assert 4 not in s.seats and "p4" in s.eliminated
    for cfg in (tour, settings_for("tda-tournament")):
        p = plan_hand(s, cfg, now_ms=2)
        assert p.heads_up and p.button == 3 and p.big_blind == 2


def test_back_to_three_handed_after_heads_up() -> None:
    s = table(seats=(2, 7), button=2)
    s, _ = play(s)                       # HU: btn 2, bb 7
    s = sit_down(s, 9, "new", 100)       # order 2, 7, 9
    s, p = play(s)
    assert roles(p) == (2, 7, 9) and len(p.dealt_in) == 3
    s = table(seats=(2, 7), button=2)
    s, _ = play(s)
    s = sit_down(s, 5, "new", 100)       # order 2, 5, 7: the newcomer is in the arc
    s, p = play(s)
    assert p.heads_up and 5 not in p.dealt_in
    s, p = play(s)
    assert not p.heads_up and p.big_blind == 5 and len(p.dealt_in) == 3


# ------------------------------------------------------------------------ other seat moves

def test_change_seat_away_from_the_bb_waits_same_relative_position() -> None:
    """RR Section 4 r.15: moving two active positions away from the big blind waits two hands."""
    s = after_2_3_4(max_seats=10)        # next BB is 5
    s = change_seat(s, 6, 8)             # 6 -> 8: nobody passed; no wait
    assert s.seats[8].wait_hands == 0
    s = after_2_3_4()
    s = change_seat(s, 5, 8)             # 5 -> 8 passes 6 (one position farther)
    assert s.seats[8].wait_hands == 1
    p = plan_hand(s, RR)
    assert 8 not in p.dealt_in and "RR Section 4 r.15" in p.why[8]
    s2 = set_post(s, 8)
    assert 8 in plan_hand(s2, RR).dealt_in


def test_change_seat_closer_costs_nothing() -> None:
    s = change_seat(after_2_3_4(), 1, 7)  # 1 -> 7 (between 6 and 1): not farther
    assert s.seats[7].wait_hands == 0 and 7 in plan_hand(s, RR).dealt_in


def test_cash_bust_and_rebuy_keeps_obligations() -> None:
    s = table(button=2)
    p = plan_hand(s, RR)
    s = finish_hand(s, p, {6: 0})
    assert s.seats[6].stack == 0 and seat_status(s, 6) == "sitting_out"
    s, p = play(s)                      # 3, 4, 5
    s, p = play(s)                      # 4, 5, BB passes 6 -> 1
    assert p.big_blind == 1 and s.seats[6].owes == ("small_blind", "big_blind")
    s = rebuy(s, 6, 200)
    assert not s.seats[6].new and s.seats[6].owes  # RR Section 4 r.12


def test_bad_requests_name_the_problem() -> None:
    s = table()
    with pytest.raises(SeatingError, match="seat 1 is taken"):
        sit_down(s, 1, "x", 10)
    with pytest.raises(SeatingError, match="no seat 11"):
        sit_down(s, 11, "x", 10)
    with pytest.raises(SeatingError, match="already sits"):
        sit_down(s, 8, "p1", 10)
    with pytest.raises(SeatingError, match="chips"):
        sit_down(s, 8, "x", 0)
    with pytest.raises(SeatingError, match="empty"):
        leave(s, 9)
    with pytest.raises(SeatingError, match="not away"):
        back(s, 1)
    with pytest.raises(SeatingError, match="not the plan"):
        finish_hand(finish_hand(s, plan_hand(s, RR), {}), plan_hand(s, RR), {})
    with pytest.raises(SeatingError, match="tournament"):
        bust(s, 1) and plan_hand(s, settings_for("tda-tournament"))


def test_initial_button_high_card_suits_s_h_d_c() -> None:
    """RR Section 2 Seating r.6; RR Section 3 Ties r.1."""
    s = table(seats=(1, 2, 3, 4))
    assert initial_button(s, {1: "Kd", 2: "Ac", 3: "Ah", 4: "2s"}) == 3
    assert initial_button(s, {1: "Kd", 2: "Ks", 3: "Kh", 4: "Kc"}) == 2
    assert initial_button(s, {1: "Kd", 2: "Ks", 3: "2h", 4: "2c"}, low=True) == 4
    assert initial_button(s, {1: "Kd", 2: "Ks", 3: "2h", 4: "Ac"}, low=True) == 4
    assert initial_button(s, {1: "Kd", 2: "Ks", 3: "2h", 4: "2c"}, low=True,
                          settings=settings_for("wsop-2009")) == 2
    with pytest.raises(SeatingError, match="twice"):
        initial_button(s, {1: "Kd", 2: "Kd"})
    with pytest.raises(SeatingError, match="not a card"):
        initial_button(s, {1: "K?"})
    with pytest.raises(SeatingError, match="empty"):
        initial_button(s, {7: "Kd"})
