"""The LED plan v2 derived from snapshots: every role, the dead button, no small blind, straddles,
kills, missed blinds, alert colours, and snapshots with missing or malformed keys."""

from __future__ import annotations

from typing import Any

import pytest

from controller.daemon.ledplan import led_plan
from drivers.leds import LedPlan


def snap(hand: dict[str, Any] | None = None, seats: list[dict[str, Any]] | None = None,
         findings: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A snapshot with the keys of the T -> L contract (docs/snapshot.md)."""
    base = {"number": 1, "phase": "preflop", "cards_seen": 0}
    out: dict[str, Any] = {"hand": {**base, **(hand or {})}}
    out["seats"] = seats if seats is not None else [
        {"seat": s, "player": f"P{s}", "status": "playing", "owes": []} for s in range(1, 11)
    ]
    out["findings"] = findings or []
    return out


def finding(severity: str, seats: list[int] | None = None) -> dict[str, Any]:
    return {"code": "x", "severity": severity, "seats": seats or [], "title": "", "message": ""}


def test_every_role_from_the_snapshot() -> None:
    plan = led_plan(snap({"button": 1, "small_blind": 2, "big_blind": 3, "straddles": [4],
                          "kill": 5, "to_act": 6, "cards_seen": 3}))
    assert plan == LedPlan(button=1, small_blind=2, big_blind=3, to_act=6, straddles=(4,),
                           kill=5, activity=True)
    assert plan.roles_at(4) == {"straddle"}
    assert plan.roles_at(5) == {"kill"}
    assert plan.roles_at(7) == frozenset()
    assert not plan.alert
    assert plan.alert_colour == "off"


def test_an_empty_snapshot_lights_nothing() -> None:
    assert led_plan({}) == LedPlan()
    assert led_plan({"hand": {}, "seats": [], "findings": []}) == LedPlan()


def test_dead_button_is_lit_in_front_of_an_empty_seat() -> None:
    # RR Section 4, Rules for Using Blinds, r.2(b): the button "placed in front of an empty seat".
    seats = [{"seat": s, "player": f"P{s}", "status": "playing", "owes": []} for s in (1, 2, 4, 5)]
    seats.append({"seat": 3, "player": None, "status": "empty", "owes": []})
    plan = led_plan(snap({"button": 3, "small_blind": 4, "big_blind": 5, "to_act": 1}, seats))
    assert plan.button == 3
    assert plan.roles_at(3) == {"button"}


def test_no_small_blind_leaves_its_led_off() -> None:
    # After a big-blind bust there is no small blind (AZW Dead Button Rule, TDA #31).
    plan = led_plan(snap({"button": 2, "small_blind": None, "big_blind": 5, "to_act": 6}))
    assert plan.small_blind is None
    assert not any("small_blind" in plan.roles_at(s) for s in range(1, 11))
    assert (plan.button, plan.big_blind) == (2, 5)


def test_heads_up_the_button_seat_also_has_the_small_blind() -> None:
    plan = led_plan(snap({"button": 4, "small_blind": 4, "big_blind": 9, "to_act": 4}))
    assert plan.roles_at(4) == {"button", "small_blind", "to_act"}
    assert plan.roles_at(9) == {"big_blind"}


def test_straddles_on_the_gun_and_the_button() -> None:
    plan = led_plan(snap({"button": 1, "small_blind": 2, "big_blind": 3, "straddles": [4, 1]}))
    assert plan.straddles == (1, 4)
    assert plan.roles_at(1) == {"button", "straddle"}


def test_kill_button_seat() -> None:
    assert led_plan(snap({"kill": 7})).roles_at(7) == {"kill"}
    assert led_plan(snap({"kill": None})).kill is None


def test_missed_blinds_from_seat_owes() -> None:
    seats = [
        {"seat": 2, "status": "away", "owes": ["small_blind", "big_blind"]},
        {"seat": 5, "status": "sitting_out", "owes": ["big_blind"]},
        {"seat": 6, "status": "playing", "owes": []},
        {"seat": 8, "status": "playing"},
    ]
    plan = led_plan(snap({}, seats))
    assert plan.missed_blinds == (2, 5)
    assert plan.roles_at(2) == {"missed_blind"}


@pytest.mark.parametrize(
    ("severities", "colour"),
    [
        ([], "off"),
        (["warning"], "amber"),
        (["error"], "amber"),
        (["misdeal"], "red"),
        (["warning", "error", "misdeal", "error"], "red"),
        (["error", "warning"], "amber"),
    ],
)
def test_table_alert_colour_is_the_loudest_severity(severities: list[str], colour: str) -> None:
    plan = led_plan(snap(findings=[finding(s) for s in severities]))
    assert plan.alert_colour == colour
    assert plan.alert is (colour != "off")


def test_a_findings_seats_get_the_seat_alert() -> None:
    plan = led_plan(snap(findings=[
        finding("error", [3, 5]),
        finding("misdeal", [5]),
        finding("warning", [7]),
        finding("error", [3]),
    ]))
    assert plan.seat_alerts == ((3, "amber"), (5, "red"), (7, "amber"))
    assert [plan.seat_alert(s) for s in (3, 5, 7, 1)] == ["amber", "red", "amber", "off"]
    assert plan.alert_colour == "red"


def test_activity_toggles_with_cards_seen() -> None:
    assert [led_plan(snap({"cards_seen": n})).activity for n in range(4)] == [
        False, True, False, True
    ]


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        "snapshot",
        {"hand": "preflop"},
        {"hand": {"button": "3", "small_blind": 0, "big_blind": 11, "to_act": True}},
        {"hand": {"button": 2.0, "kill": -1, "straddles": "4", "cards_seen": "9"}},
        {"hand": {"straddles": [4, "x", None, 99]}, "seats": "all"},
        {"seats": [None, 3, {"seat": "4", "owes": ["big_blind"]}, {"seat": 5, "owes": "bb"}]},
        {"findings": [None, "x", {"severity": 3}, {"severity": "misdeal", "seats": [0, "2"]}]},
        {"findings": {"severity": "misdeal"}},
    ],
)
def test_malformed_snapshots_light_only_what_is_valid(bad: Any) -> None:
    plan = led_plan(bad)
    assert plan.button is plan.small_blind is plan.big_blind is plan.to_act is plan.kill is None
    assert plan.seat_alerts == ()
    assert plan.missed_blinds == ()
    assert not plan.activity


def test_malformed_values_keep_the_valid_ones() -> None:
    plan = led_plan({"hand": {"straddles": [4, "x", None, 99]},
                     "findings": [{"severity": "misdeal", "seats": [0, "2", 6]}]})
    assert plan.straddles == (4,)
    assert plan.seat_alerts == ((6, "red"),)
    assert plan.alert_colour == "red"


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"kill": 11}, "LedPlan.kill"),
        ({"straddles": (3, 0)}, "LedPlan.straddles"),
        ({"straddles": "34"}, "LedPlan.straddles"),
        ({"missed_blinds": 4}, "LedPlan.missed_blinds"),
        ({"alert_colour": "green"}, "LedPlan.alert_colour"),
        ({"seat_alerts": {3: "blue"}}, "LedPlan.seat_alerts[3]"),
        ({"seat_alerts": ((12, "red"),)}, "LedPlan.seat_alerts seat"),
        ({"seat_alerts": (3,)}, "LedPlan.seat_alerts"),
    ],
)
def test_bad_v2_plans_are_refused(kwargs: dict[str, Any], named: str) -> None:
    with pytest.raises(ValueError, match=named.replace("[", r"\[").replace("]", r"\]")):
        LedPlan(**kwargs)


def test_a_version_one_alert_means_red_and_colours_set_the_alert() -> None:
    assert LedPlan(alert=True).alert_colour == "red"
    assert LedPlan(alert_colour="amber").alert is True
    assert LedPlan(seat_alerts={2: "off"}).seat_alerts == ()
    assert LedPlan(straddles=[4, 1, 4]).straddles == (1, 4)
