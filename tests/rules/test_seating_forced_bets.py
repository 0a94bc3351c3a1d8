"""Extra forced bets across hands: straddles (RR Section 14 NL r.15; WSOP Section 4 r.11), kill
pots (RR Section 13), antes, stud bring-in tables, tournament levels on a clock (RR Section 15
r.9-r.10; AZW Timer Use and Breaks) and absent tournament players blinded off (RR Section 15
r.7)."""

from __future__ import annotations

import pytest

from controller.poker.house_rules import settings_for
from controller.rules.table.blinds import finish_hand, plan_hand
from controller.rules.table.seating import (
    Level,
    PotResult,
    SeatingError,
    Stakes,
    away,
    level_marker,
    new_table,
    sit_down,
    with_button,
)

RR = settings_for("roberts")
WSOP = settings_for("wsop-2009")
KILL = settings_for("roberts", {"kill": "full"})
HALF = settings_for("roberts", {"kill": "half"})


def table(n=5, stakes=None, tournament=False, levels=()):
    s = new_table(stakes=stakes or Stakes(1, 2), tournament=tournament, levels=levels)
    for i in range(1, n + 1):
        s = sit_down(s, i, f"p{i}", 100)
    return with_button(s, 1)          # first hand: button 1, SB 2, BB 3


def test_utg_straddle_twice_the_big_blind() -> None:
    p = plan_hand(table(), RR, straddle=4)
    assert p.straddles == (4,)
    assert [(x.seat, x.kind, x.amount, x.live) for x in p.posts][-1] == (4, "straddle", 4, True)
    with pytest.raises(SeatingError, match="immediate left of the big blind"):
        plan_hand(table(), RR, straddle=5)
    with pytest.raises(SeatingError, match="only the immediate left"):
        plan_hand(table(), RR, straddle=1)


def test_button_straddle_only_where_the_profile_allows() -> None:
    assert plan_hand(table(), WSOP, straddle=1).straddles == (1,)   # WSOP Section 4 r.11
    with pytest.raises(SeatingError, match="no straddle"):
        plan_hand(table(), settings_for("roberts", {"straddle": "none"}), straddle=4)


def test_no_straddle_heads_up_or_short() -> None:
    with pytest.raises(SeatingError, match="heads-up"):
        plan_hand(table(2), RR, straddle=1)
    s = new_table(stakes=Stakes(1, 2))
    for i, chips in ((1, 100), (2, 100), (3, 100), (4, 3)):
        s = sit_down(s, i, f"p{i}", chips)
    with pytest.raises(SeatingError, match="too few chips"):
        plan_hand(with_button(s, 1), RR, straddle=4)


def test_required_kill_after_two_consecutive_qualifying_pots() -> None:
    """RR Section 13 intro, r.3: first leg no size requirement, second at least one full bet."""
    s = table()
    p = plan_hand(s, KILL)
    s = finish_hand(s, p, {}, pots=(PotResult((4,), amount=10, beyond_blinds=0),))
    assert s.kill_button == "p4" and s.kill_due is None
    p = plan_hand(s, KILL)
    assert p.kill is None
    s = finish_hand(s, p, {}, pots=(PotResult((4,), amount=30, beyond_blinds=2),))
    assert s.kill_due == "p4"
    p = plan_hand(s, KILL)
    assert p.kill == 4 and p.kill_blind == 4  # full kill: twice the big blind
    assert (4, "kill", 4, True) in [(x.seat, x.kind, x.amount, x.live) for x in p.posts]
    # RR Section 13 r.7: the killer who wins again kills again, for the same amount.
    s = finish_hand(s, p, {}, pots=(PotResult((4,), amount=30, beyond_blinds=0),))
    assert s.kill_due == "p4" and plan_hand(s, KILL).kill_blind == 4


def test_second_pot_too_small_is_a_new_first_leg() -> None:
    s = table()
    s = finish_hand(s, plan_hand(s, KILL), {}, pots=(PotResult((4,), 10, 0),))
    s = finish_hand(s, plan_hand(s, KILL), {}, pots=(PotResult((4,), 10, 1),))
    assert s.kill_due is None and s.kill_button == "p4"


def test_split_pot_keeps_the_leg_or_makes_button_neutral() -> None:
    """RR Section 13 r.4 and r.1(c)."""
    s = table()
    s = finish_hand(s, plan_hand(s, KILL), {}, pots=(PotResult((4,), 10, 0),))
    kept = finish_hand(s, plan_hand(s, KILL), {}, pots=(PotResult((4, 5), 20, 4),))
    assert kept.kill_button == "p4" and kept.kill_due is None
    neutral = finish_hand(s, plan_hand(s, KILL), {}, pots=(PotResult((2, 5), 20, 4),))
    assert neutral.kill_button is None


def test_half_kill_and_voluntary_kill() -> None:
    p = plan_hand(table(), HALF, kill_by=5)
    assert p.kill == 5 and p.kill_blind == 3    # one and a half times the big blind
    with pytest.raises(SeatingError, match="no kill pots"):
        plan_hand(table(), RR, kill_by=5)


def test_new_player_not_in_a_killed_pot_rr_but_may_wsop() -> None:
    s = table()
    s = sit_down(s, 7, "new", 100, post=True)
    p = plan_hand(s, KILL, kill_by=5)
    assert 7 not in p.dealt_in and "RR Section 13 r.12" in p.why[7]
    wsop_kill = settings_for("wsop-2009", {"kill": "full", "straddle": "none"})
    assert 7 in plan_hand(s, wsop_kill, kill_by=5).dealt_in


def test_lowball_new_player_enters_by_kill() -> None:
    """RR Section 4 r.4: "In lowball, a new player must either post an amount double the big
    blind or wait for the big blind"."""
    s = table(stakes=Stakes(1, 2, lowball=True))
    s = sit_down(s, 7, "new", 100, post=True)
    p = plan_hand(s, KILL)
    assert p.kill == 7 and [x.kind for x in p.posts_by(7)] == ["kill"]


def test_antes_each_and_big_blind_ante() -> None:
    p = plan_hand(table(stakes=Stakes(1, 2, ante=1)), RR)
    assert sorted(x.seat for x in p.posts if x.kind == "ante") == [1, 2, 3, 4, 5]
    assert all(not x.live for x in p.posts if x.kind == "ante")
    bba = settings_for("roberts", {"ante_style": "big_blind"})
    p = plan_hand(table(stakes=Stakes(1, 2, ante=2)), bba)
    assert [(x.seat, x.kind) for x in p.posts if x.kind == "ante"] == [(3, "ante")]


def test_stud_table_has_no_button_and_no_blinds() -> None:
    s = table(stakes=Stakes(0, 0, ante=1, bring_in=2, forced="bring_in"))
    s = away(s, 3)
    p = plan_hand(s, RR)
    assert p.button is None and p.small_blind is None and p.big_blind is None
    assert p.dealt_in == (1, 2, 4, 5) and p.bring_in == 2
    assert {x.kind for x in p.posts} == {"ante"}


LEVELS = (Level(60_000, 25, 50), Level(60_000, 50, 100, ante=10), Level(10_000, is_break=True),
          Level(60_000, 100, 200, ante=25))


def test_tournament_levels_on_the_clock() -> None:
    """RR Section 15 r.9-r.10: blinds rise at scheduled intervals; the level in effect at the
    profile's marker instant applies to the whole hand."""
    cfg = settings_for("tda-tournament")
    s = table(tournament=True, levels=LEVELS)
    p = plan_hand(s, cfg, now_ms=59_999)
    assert (p.level, p.small_blind_amount, p.big_blind_amount, p.ante) == (0, 25, 50, 0)
    p = plan_hand(s, cfg, now_ms=60_000)
    assert (p.level, p.big_blind_amount, p.ante) == (1, 100, 10)
    with pytest.raises(SeatingError, match="break"):
        plan_hand(s, cfg, now_ms=125_000)
    assert plan_hand(s, cfg, now_ms=10**9).level == 3   # the last level runs on
    with pytest.raises(SeatingError, match="now_ms"):
        plan_hand(s, cfg)
    assert level_marker(cfg) == "blinds_posted"
    assert level_marker(settings_for("roberts")) == "first_riffle"


def test_tournament_absent_player_dealt_in_and_blinded_off() -> None:
    cfg = settings_for("tda-tournament")
    s = away(table(tournament=True, levels=LEVELS), 3)     # seat 3 is the big blind
    p = plan_hand(s, cfg, now_ms=0)
    assert 3 in p.dealt_in and p.absent == (3,) and p.big_blind == 3
    assert (3, "big_blind", 50) in [(x.seat, x.kind, x.amount) for x in p.posts]


def test_tournament_bust_in_the_big_blind_then_dead_button() -> None:
    """AZW Dead Button Rule (TDA #31): no small blind, then the button on the empty seat."""
    cfg = settings_for("tda-tournament")
    s = table(tournament=True, levels=LEVELS)
    p = plan_hand(s, cfg, now_ms=0)                        # 1, 2, 3
    s = finish_hand(s, p, {3: 0})
    assert 3 not in s.seats
    p = plan_hand(s, cfg, now_ms=1)
    assert (p.button, p.small_blind, p.big_blind) == (2, None, 4)
    s = finish_hand(s, p, {})
    p = plan_hand(s, cfg, now_ms=2)
    assert (p.button, p.small_blind, p.big_blind) == (3, 4, 5)


def test_settings_must_match_the_table() -> None:
    with pytest.raises(SeatingError, match="tournament"):
        plan_hand(table(), settings_for("tda-tournament"), now_ms=0)


def test_chip_race_deal_order_and_awards() -> None:
    """RR Section 15 r.11."""
    from controller.rules.table.seating import chip_race_awards, end_chip_race, start_chip_race
    s = table(tournament=True, levels=LEVELS)
    s = start_chip_race(s, {4: 2, 1: 3, 2: 0})
    assert s.chip_race == (1, 1, 1, 4, 4)
    with pytest.raises(SeatingError, match="chip race"):
        plan_hand(s, settings_for("tda-tournament"), now_ms=0)
    assert end_chip_race(s).chip_race is None
    # 5 odd 25s, new chip 100 (4 of them): one chip to the best card, then 1 left < half.
    awards = chip_race_awards({1: ("Kd", "2c", "3c"), 4: ("Ks", "4h")}, {1: 3, 4: 2}, 4)
    assert awards == {4: 1}
    # 6 odd chips: the best card gets one, the remainder 2 is half a chip: the next card too.
    awards = chip_race_awards({1: ("Kd", "2c", "3c"), 4: ("Ks", "4h", "5h")}, {1: 3, 4: 3}, 4)
    assert awards == {4: 1, 1: 1}
    with pytest.raises(SeatingError):
        start_chip_race(table(), {1: 1})
