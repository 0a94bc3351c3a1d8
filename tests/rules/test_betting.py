"""No-limit betting: minimum bet and raise, the full-bet rule, blinds, heads-up, side pots.

Rules: roberts-rules-v11.txt Section 14 (No-Limit and Pot-Limit) r.2-4, r.11; Section 3 Betting
and Raising r.7; Section 4 Button and Blind Use (intro, Rules for Using Blinds r.3, r.9).
"""

from __future__ import annotations

from controller.events import HandEnd
from controller.rules import snapshot
from tests.rules.helpers import deal_holes, table

SIX = ["2c", "3c", "4c", "5c", "6c", "7c", "2d", "3d", "4d", "5d", "6d", "7d"]


def test_blinds_and_first_to_act():
    t = table([100] * 6)
    h = t.hand()
    assert (h["button"], h["small_blind"], h["big_blind"]) == (1, 2, 3)
    assert h["to_act"] == 4  # left of the big blind (RR §4 intro)
    assert h["current_bet"] == 2 and h["min_raise_to"] == 4


def test_moving_button_next_hand_and_after_misdeal():
    from controller.events import HandStart, MisdealDeclared

    t = table([100] * 4)
    t.feed(MisdealDeclared(), HandStart())
    assert t.hand()["button"] == 1  # a redeal keeps the button
    t.feed(MisdealDeclared())
    assert t.stacks() == {1: 100, 2: 100, 3: 100, 4: 100}  # every chip back
    t.feed(HandStart())
    assert t.hand()["button"] == 1
    t.feed(MisdealDeclared())
    # after a completed hand the button moves to the next seat with chips
    t2 = table([100, 100, 0, 100], button=2)
    assert (t2.hand()["small_blind"], t2.hand()["big_blind"]) == (4, 1)  # seat 3 has no chips


def test_heads_up_button_is_small_blind_and_acts_first_preflop():
    t = table([100, 100], button=1)
    h = t.hand()
    assert (h["small_blind"], h["big_blind"]) == (1, 2)  # RR §4 Rules for Using Blinds r.3
    assert h["to_act"] == 1
    deal_holes(t, ["As", "Kd", "Ah", "Kh"])  # seat 2 (non-button) gets the first card
    assert t.findings == []
    t.act(1, "call")
    assert t.hand()["to_act"] == 2  # the big blind's option
    t.act(2, "check")
    for card, zone in (("2c", "burn"), ("3c", "board"), ("4c", "board"), ("5c", "board")):
        t.card(card, zone)
    assert t.hand()["to_act"] == 2  # after the flop the big blind acts first, the button last


def test_min_raise_is_the_last_full_raise():
    t = table([1000] * 3)
    deal_holes(t, SIX[:6])
    t.act(1, "raise", 10)  # raise of 8
    assert t.hand()["min_raise_to"] == 18
    t.act(2, "raise", 30)  # raise of 20
    assert t.hand()["min_raise_to"] == 50  # RR §14 NL r.3: at least the previous raise
    step = t.act(3, "raise", 40)
    assert [f.code for f in step.findings] == ["UNDERSIZED_WAGER"]
    assert t.snap()["seats"][2]["bet"] == 50  # increased to the minimum, no greater (NL r.11)


def test_min_bet_is_the_big_blind_after_the_flop():
    t = table([1000] * 2, button=1)
    deal_holes(t, SIX[:4])
    t.act(1, "call")
    t.act(2, "check")
    for card, zone in (("8c", "burn"), ("9c", "board"), ("Tc", "board"), ("Jc", "board")):
        t.card(card, zone)
    assert t.hand()["min_raise_to"] == 2
    step = t.act(2, "bet", 1)
    assert [f.code for f in step.findings] == ["UNDERSIZED_WAGER"]


def test_short_all_in_does_not_reopen_for_players_who_acted():
    # RR §14 NL r.4: A bets 100, B raises to 200, C all-in for 250; A may raise, B may not.
    t = table([1000, 1000, 252, 1000], sb=1, bb=2, button=4)
    deal_holes(t, SIX[:8])
    # preflop: everyone calls, big blind checks
    t.act(3, "call")
    t.act(4, "call")
    t.act(1, "call")
    t.act(2, "check")
    for card, zone in (("8c", "burn"), ("9c", "board"), ("Tc", "board"), ("Jc", "board")):
        t.card(card, zone)
    t.act(1, "bet", 100)
    t.act(2, "raise", 200)
    t.act(3, "allin")  # 250: not a full raise
    assert t.hand()["to_act"] == 4
    t.act(4, "fold")
    assert t.hand()["can_raise"]  # A faces 150 more since he acted: a full raise
    t.act(1, "call")
    assert t.hand()["to_act"] == 2 and not t.hand()["can_raise"]
    step = t.act(2, "raise", 500)
    assert [f.code for f in step.findings] == ["RAISE_NOT_PERMITTED"]
    assert t.hand()["to_act"] == 2  # not applied
    t.act(2, "call")
    assert t.hand()["to_act"] is None


def test_several_short_all_ins_reopen_the_betting():
    # RR §3 Betting and Raising r.7: short all-ins that add up to a full raise reopen.
    t = table([1000, 1000, 140, 215], button=4)
    deal_holes(t, SIX[:8])
    t.act(3, "call")
    t.act(4, "call")
    t.act(1, "call")
    t.act(2, "check")
    for card, zone in (("8c", "burn"), ("9c", "board"), ("Tc", "board"), ("Jc", "board")):
        t.card(card, zone)
    t.act(1, "bet", 100)
    t.act(2, "call")
    t.act(3, "allin")  # to 138: +38, short
    t.act(4, "allin")  # to 213: +75, short; 113 above seat 1's 100 in all
    assert t.hand()["to_act"] == 1 and t.hand()["can_raise"]
    assert t.findings == []


def test_short_big_blind_still_makes_the_full_minimum():
    # RR §14 NL r.2: a short big blind; entering still costs the full big blind.
    t = table([100, 100, 1], button=1)
    assert t.hand()["current_bet"] == 2
    assert t.snap()["seats"][2]["all_in"]


def test_side_pots_and_uncalled_bet_at_showdown():
    t = table([50, 100, 200], button=3)
    # order: 1 (sb), 2 (bb), 3 (button)
    deal_holes(t, ["As", "Ks", "2c", "Ah", "Kh", "3d"])
    t.act(3, "allin")  # 200
    t.act(1, "allin")  # 50
    t.act(2, "allin")  # 100
    assert t.hand()["phase"] == "showdown" and t.hand()["to_act"] is None
    for card, zone in (("8c", "burn"), ("9d", "board"), ("Td", "board"), ("Jd", "board"),
                       ("4h", "burn"), ("5s", "board"), ("6h", "burn"), ("7s", "board")):
        t.card(card, zone)
    step = t.feed(HandEnd())
    assert t.findings == []
    awards = [(a.amount, a.eligible, a.winners) for a in step.results]
    assert awards[0] == (100, (3,), (3,))  # the uncalled 100 goes back to seat 3
    # seat 1 holds aces, seat 2 kings, seat 3 nothing: kings take the side pot, aces the main
    assert awards[1:] == [(100, (2, 3), (2,)), (150, (1, 2, 3), (1,))]  # side pot first
    assert t.stacks() == {1: 150, 2: 100, 3: 100}


def test_a_post_leaves_the_state_it_was_applied_to_alone():
    t = table([10, 10, 10], post=False)
    before = t.state
    snap = snapshot(before)
    t.act(2, "post", 1)
    assert snapshot(before) == snap
    step = t.act(1, "call")  # seat 3 still owes the big blind: it is the seat to act
    assert [f.code for f in step.findings] == ["OOT_ACTION"]


def test_check_facing_a_bet_is_not_applied():
    t = table([100] * 3)
    deal_holes(t, SIX[:6])
    step = t.act(1, "check")
    assert [f.code for f in step.findings] == ["ACTION_NOT_AVAILABLE"]
    assert t.hand()["to_act"] == 1


def test_won_by_folds_pays_without_showdown():
    t = table([100] * 3)
    deal_holes(t, SIX[:6])
    t.act(1, "fold")
    t.act(2, "fold")
    assert t.hand()["to_act"] is None
    step = t.feed(HandEnd())
    assert t.stacks() == {1: 100, 2: 99, 3: 101}
    assert step.results[-1].winners == (3,) and step.results[-1].hand == ""
    assert t.hand()["phase"] == "complete" and t.hand()["showdown"] == []


def test_all_in_where_no_raise_is_open_is_a_call() -> None:
    """Seat 1 pushes all in, but the only other player is already all in: nobody could call a
    raise, so the push is a call of the all-in (the rest stays behind)."""
    t = table([500, 40], button=1)
    deal_holes(t, SIX[:4])
    t.act(1, "raise", 10)
    t.act(2, "allin")
    assert not t.hand()["can_raise"]
    step = t.act(1, "allin")
    assert step.findings == ()
    assert t.stacks() == {1: 460, 2: 0}
    assert t.hand()["phase"] == "showdown"  # the betting is over: the board runs out


def test_no_raise_when_the_only_other_player_cannot_even_call() -> None:
    """Seat 2 still has chips but fewer than the bet: it can only call all in, so a raise by
    seat 3 could never be called and is not allowed; its all-in push is a call."""
    t = table([100, 30, 500], button=3)
    deal_holes(t, SIX[:6])
    t.act(3, "raise", 10)
    t.act(1, "allin")  # 100: a full raise
    assert t.hand()["to_act"] == 2 and not t.hand()["can_raise"]  # it can only call all in
    t.act(2, "call")
    assert not t.hand()["can_raise"]
    step = t.act(3, "raise", 400)
    assert [f.code for f in step.findings] == ["RAISE_NOT_PERMITTED"]
    step = t.act(3, "allin")
    assert step.findings == ()
    assert t.stacks() == {1: 0, 2: 0, 3: 400}
