"""The snapshot's wager bounds for the seat to act (``hand.to_call``, ``max_raise_to``,
``all_in_to``) and the remedy move expected now (``hand.remedy_now``, ``findings[].remedy_due``):
the dealer's touch console shows these and computes none of them.

Rules: roberts-rules-v11.txt Section 14 (No-Limit r.2-3; Pot-Limit intro: the maximum raise is
the pot after the call); Section 5, Holdem, r.1 (an exposed hole card is replaced)."""

from __future__ import annotations

from controller.events import read_scenario
from controller.rules import apply, initial_state, snapshot
from tests.rules.helpers import deal_holes, table

SIX = ["2c", "3c", "4c", "5c", "6c", "7c", "2d", "3d", "4d", "5d", "6d", "7d"]


def test_no_limit_to_call_max_and_all_in():
    t = table([100, 100, 100])
    deal_holes(t, SIX[:6])
    h = t.hand()
    assert h["to_act"] == 1
    assert (h["to_call"], h["min_raise_to"], h["max_raise_to"], h["all_in_to"]) == (2, 4, 100, 100)
    t.act(1, "raise", 10)
    h = t.hand()  # the small blind: 1 in, 9 to call; all in is its 99 behind plus the 1
    assert (h["to_act"], h["to_call"], h["max_raise_to"], h["all_in_to"]) == (2, 9, 100, 100)


def test_pot_limit_maximum_is_the_engines():
    events = read_scenario("tests/scenarios/board_exposed_card_not_replaced_plhe.jsonl")
    state = initial_state()
    for ev in events[:10]:  # set-up, shuffle, blinds posted (1 and 2), seat 4 to act
        state = apply(state, ev).state
    h = snapshot(state)["hand"]
    # seat 4 calls 2, then may raise the pot: 3 in the pot + 2 called = 5 on top of the 2
    assert (h["to_act"], h["to_call"], h["min_raise_to"], h["max_raise_to"]) == (4, 2, 4, 7)
    assert h["all_in_to"] == 200


def test_remedy_move_expected_now_advances():
    events = read_scenario("tests/scenarios/board_exposed_card_not_replaced_plhe.jsonl")
    state = initial_state()
    snaps = []
    for ev in events:
        state = apply(state, ev).state
        snaps.append((ev, snapshot(state)))
    first = next(s for ev, s in snaps if s["findings"])
    [f] = first["findings"]
    assert f["code"] == "HOLECARD_EXPOSED_SINGLE_REPLACE"
    assert f["remedy_due"] == ["the next card off the shoe to seat 4", "8d to the burn"]
    assert first["hand"]["remedy_now"] == {
        "after": f"HOLECARD_EXPOSED_SINGLE_REPLACE (seq {f['seq']})",
        "move": "the next card off the shoe to seat 4"}
    # the scenario's dealer burns instead: the remedy is not followed and the monitor stops
    last = snaps[-1][1]
    assert [x["code"] for x in last["findings"]][-1] == "REMEDY_NOT_FOLLOWED"
    assert all(x["remedy_due"] == [] for x in last["findings"])


def test_fixed_limit_maximum_is_the_one_raise():
    """Fixed limit: the only raise is one bet on top (the engine's single target), so the
    console's Min and Max agree."""
    state = initial_state()
    for ev in read_scenario("tests/scenarios/board_missing_burn_turn_flhe.jsonl"):
        state = apply(state, ev).state
        h = snapshot(state)["hand"]
        if h["to_act"] is not None and h["current_bet"] == 2 and h["to_call"] == 2:
            break
    assert h["min_raise_to"] == h["max_raise_to"] == 4
    assert h["all_in_to"] > h["max_raise_to"]
