"""The dealing expectation: deal order, what the monitor expects next, the all-in run-out."""

from __future__ import annotations

from controller.events import HandStart, ShoeDraw
from controller.rules.procedure.board_deal import deal_order
from tests.rules.helpers import deal_holes, table


def test_deal_order_left_of_the_button_button_last():
    assert deal_order(1, [1, 2, 3, 4], 6) == (2, 3, 4, 1)
    assert deal_order(4, [1, 2, 4, 6], 6) == (6, 1, 2, 4)
    assert deal_order(5, [1, 3], 6) == (1, 3)  # dead button on an empty seat
    assert deal_order(2, [1, 2], 2) == (1, 2)  # heads-up: the non-button player first


def test_expectation_follows_the_procedure():
    t = table([100] * 3, post=False)
    assert t.hand()["expect"] == "seat 2 posts the small blind"
    t.act(2, "post", 1)
    t.act(3, "post", 2)
    assert t.hand()["expect"] == "hole card 1 of 6 to seat 2"
    deal_holes(t, ["2c", "3c", "4c", "5c", "6c", "7c"])
    assert t.hand()["expect"] == "action on seat 1"
    t.act(1, "call")
    t.act(2, "call")
    t.act(3, "check")
    assert t.hand()["expect"] == "burn, then the flop"
    t.card("8d", "burn")
    assert t.hand()["expect"] == "3 more flop card(s)"
    assert t.findings == []


def test_all_in_run_out_is_not_premature():
    t = table([100, 100], button=1)
    deal_holes(t, ["2c", "3c", "4c", "5c"])
    t.act(1, "allin")
    t.act(2, "call")
    assert t.hand()["phase"] == "showdown" and t.hand()["showdown"] == []
    for card, zone in (("8c", "burn"), ("9d", "board"), ("Td", "board"), ("Jd", "board"),
                       ("4h", "burn"), ("5s", "board"), ("6h", "burn"), ("7s", "board")):
        t.card(card, zone)
    assert t.findings == []
    assert t.hand()["showdown"] == [1, 2]  # the hands are tabled once the board is out


def test_cards_seen_and_a_repeated_shoe_read():
    t = table([100] * 2, button=1)
    t.feed(ShoeDraw(uid="T2c"), ShoeDraw(uid="T2c"))  # one card read twice at the shoe
    t.card("3c", "seat:1")
    assert t.findings == []  # the repeat was not a second card
    assert t.hand()["cards_seen"] == 4


def test_a_hand_start_during_a_hand_is_not_applied():
    t = table([100] * 2, button=1)
    step = t.feed(HandStart())
    assert [f.code for f in step.findings] == ["EVENT_OUT_OF_PLACE"]
    assert t.hand()["number"] == 1
