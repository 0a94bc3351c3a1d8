"""Every multi-hand scenario in tests/scenarios/table/ runs through the rules core and meets its
expectations: the table layer across hands (issue 4).

A scenario is a JSON Lines file of table events (docs/events.md) whose ``#`` comments tell the
story and cite the rule it checks. Its expectations are comment lines:

    # expect: {"code": "...", "seats": [...], ...}      findings, exactly and in order (as in
                                                         tests/scenarios, "seq" the event that
                                                         raised it; none if none expected)
    # expect: {"hand": 3, "button": 4, "small_blind": null, "big_blind": 5,
    #          "dealt_in": [5, 6, 1, 2, 3]}              the hand's snapshot as planned, before
                                                         its first post or card (keys given)
    # expect: {"hand": 3, "posts": [[5, "big_blind", 2, true]]}   the plan's forced posts
    # expect: {"end": true, "seats": {"5": {"owes": ["small_blind", "big_blind"]}}}
                                                         seat keys in the final snapshot
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller.events import HandStart, LevelUp, read_scenario
from controller.rules import apply, initial_state, snapshot
from controller.rules.findings.catalogue import CATALOGUE

FOLDER = Path(__file__).resolve().parent.parent / "scenarios" / "table"
SCENARIOS = sorted(FOLDER.glob("*.jsonl"))


def _expectations(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line[len("# expect:"):])
            for line in path.read_text(encoding="utf-8").splitlines()
            if line.startswith("# expect:")]


def test_there_are_forty_scenarios_and_each_finding_has_one():
    assert len(SCENARIOS) >= 40
    text = " ".join(p.read_text(encoding="utf-8") for p in SCENARIOS)
    for code in ("MISDEAL_BUTTON_OUT_OF_POSITION", "MISDEAL_DEALT_TO_EMPTY_OR_INELIGIBLE_SEAT",
                 "MISDEAL_ENTITLED_PLAYER_DEALT_OUT", "MISSED_BLIND_PLAYER_DEALT_IN",
                 "BLIND_NOT_POSTED", "BLIND_WRONG_SEAT"):
        assert f'"code": "{code}"' in text, code


def test_every_scenario_tells_its_story_and_cites_a_rule():
    for path in SCENARIOS:
        comments = " ".join(line for line in path.read_text(encoding="utf-8").splitlines()
                            if line.startswith("#") and not line.startswith("# expect:"))
        assert ".txt" in comments or ".md" in comments, f"{path.name}: no rulebook cited"
        assert any("hand" in e or "code" in e or "end" in e for e in _expectations(path)), path


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_table_scenario(path: Path):
    events = read_scenario(path)
    expects = _expectations(path)
    per_hand = {}
    for e in expects:
        if "hand" in e:
            per_hand.setdefault(e["hand"], {}).update(e)
    state = initial_state()
    findings = []
    seen: dict[int, dict[str, Any]] = {}
    for event in events:
        step = apply(state, event)
        state = step.state
        findings.extend(step.findings)
        hand = snapshot(state)["hand"]
        if isinstance(event.body, (HandStart, LevelUp)) and hand["phase"] != "idle":
            # The hand as planned (a level change before the profile's marker re-plans it).
            seen[hand["number"]] = hand
    wanted = [e for e in expects if "code" in e]
    got = [f.code for f in findings]
    assert got == [e["code"] for e in wanted], f"{path.name}: findings {got}"
    for f, e in zip(findings, wanted, strict=True):
        assert list(f.seats) == e["seats"], f"{f.code}: seats {f.seats}"
        if "cards" in e:
            assert list(f.cards) == e["cards"], f"{f.code}: cards"
        if "seq" in e:
            assert f.seq == e["seq"], f"{f.code}: seq {f.seq}"
        if "rule" in e:
            rule = f.rule.to_json()
            rule.pop("text", None)
            assert rule == e["rule"], f"{f.code}: rule"
        remedy = " ".join(f.remedy)
        for text in e.get("remedy_has", []):
            assert text in remedy, f"{f.code}: remedy lacks {text!r}: {remedy}"
        assert "?" not in remedy, f"{f.code}: an unfilled remedy template: {remedy}"
        assert f.severity == CATALOGUE[f.code].severity
    for number, want in per_hand.items():
        assert number in seen, f"{path.name}: hand {number} never started"
        hand = seen[number]
        for key, value in want.items():
            if key == "hand":
                continue
            if key == "posts":
                got_posts = [[p["seat"], p["kind"], p["amount"], p["live"]] for p in hand["posts"]]
                assert got_posts == value, f"{path.name} hand {number}: posts {got_posts}"
            else:
                assert hand[key] == value, f"{path.name} hand {number}: {key} = {hand[key]!r}"
    final = snapshot(state)
    for e in expects:
        if "end" in e:
            by_seat = {str(s["seat"]): s for s in final["seats"]}
            for seat, keys in e.get("seats", {}).items():
                for key, value in keys.items():
                    assert by_seat[seat][key] == value, f"{path.name}: seat {seat} {key}"
            if "stacks" in e:
                assert {k: by_seat[k]["stack"] for k in e["stacks"]} == e["stacks"]
