"""The snapshot's pots are the pots the hand awards: an uncalled bet is ``hand.uncalled``, going
back to its owner, never a side pot (issue 26: a dealer reading "Side pot 3 617" would push the
returned chips into a pot). Checked on a scenario and on every clean side-pot scenario."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from controller.events import read_scenario
from controller.rules import apply, initial_state, snapshot

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def _snapshots(name: str) -> list[dict[str, Any]]:
    state = initial_state()
    out = []
    for event in read_scenario(SCENARIOS / name):
        state = apply(state, event).state
        out.append(snapshot(state))
    return out


def test_the_uncalled_shove_goes_back_to_its_owner_and_is_no_pot() -> None:
    snaps = _snapshots("clean_uncalled_bet_returned.jsonl")
    last_live = [s for s in snaps if s["hand"]["phase"] not in ("idle", "complete")][-1]
    hand = last_live["hand"]
    assert hand["uncalled"] == {"seat": 4, "amount": 80}
    assert hand["pots"] == [
        {"amount": 156, "eligible": [2, 3, 4]},
        {"amount": 140, "eligible": [3, 4]},
    ]
    # the award at hand.end returns the same 80 and awards the same two pots
    results = snaps[-1]["results"]
    returned = [r for r in results if r["hand"] == "uncalled bet returned"]
    assert [(r["amount"], r["winners"]) for r in returned] == [(80, [4])]
    awarded = sorted(r["amount"] for r in results if r not in returned)
    assert awarded == sorted(p["amount"] for p in hand["pots"])


def test_a_bet_someone_can_still_call_is_in_the_pot_not_returned() -> None:
    snaps = _snapshots("clean_uncalled_bet_returned.jsonl")
    # Dee's raise to 6 faces Ann, who still has chips: it is a live bet, nothing is uncalled
    raised = next(s for s in snaps
                  if any(seat["seat"] == 4 and seat["bet"] == 6 for seat in s["seats"]))
    assert raised["hand"]["uncalled"] is None
    assert sum(p["amount"] for p in raised["hand"]["pots"]) == 1 + 2 + 6


def _awards(name: str) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Each hand.end of a scenario that paid something: (the last hand before it, the results)."""
    snaps = _snapshots(name)
    out = []
    for before, after in itertools.pairwise(snaps):
        hand = before["hand"]
        if after["hand"]["phase"] != "complete" or hand["phase"] in ("complete", "misdeal"):
            continue
        if after["results"] and after["hand"]["number"] == hand["number"]:
            out.append((hand, after["results"]))
    return out


NAMES = sorted(p.name for p in SCENARIOS.glob("*.jsonl"))


@pytest.mark.parametrize("name", NAMES)
def test_the_last_pots_shown_are_the_pots_paid(name: str) -> None:
    """The last screen before the award shows the amounts the award pays: each pot, and the
    uncalled bet as a return (split pots are paid as one award per pot, one to one)."""
    for hand, results in _awards(name):
        shown = sorted([p["amount"] for p in hand["pots"]]
                       + ([hand["uncalled"]["amount"]] if hand["uncalled"] else []))
        paid = sorted(r["amount"] for r in results)
        assert shown == paid, (name, hand["number"], hand["pots"], hand["uncalled"], paid)
        returned = [(r["winners"], r["amount"]) for r in results
                    if r["hand"] == "uncalled bet returned"]
        unc = hand["uncalled"]
        expected = [([unc["seat"]], unc["amount"])] if unc else []
        assert returned == expected, (name, hand["number"])


def test_the_scenarios_pay_enough_pots_for_the_check_to_mean_something() -> None:
    awards = [a for name in NAMES for a in _awards(name)]
    assert len(awards) >= 100
    assert sum(1 for hand, _ in awards if hand["uncalled"]) >= 30
