"""Every scenario in tests/scenarios/ runs through the rules core and meets its expectations.

A scenario is a JSON Lines file of table events (docs/events.md) whose ``#`` comments tell the
story and cite the rule. Its expectations are comment lines of the form

    # expect: {"code": "...", "seats": [...], "cards": [...], "rule": {...}, "seq": 27,
    #          "remedy_has": ["text the remedy must contain"]}
    # expect: {"pots": [...]}        the pots awarded at the last hand.end (fields compared)
    # expect: {"stacks": {"1": 200}} the stacks at the end

The scenario must raise exactly the expected findings, in order (none if it expects none).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from controller.events import read_scenario
from controller.rules import apply, initial_state, snapshot
from controller.rules.findings.catalogue import CATALOGUE

SCENARIOS = sorted((Path(__file__).resolve().parent.parent / "scenarios").glob("*.jsonl"))


def _expectations(path: Path) -> list[dict[str, Any]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# expect:"):
            out.append(json.loads(line[len("# expect:"):]))
    return out


def test_there_is_a_scenario_for_every_v1_finding():
    names = " ".join(p.read_text(encoding="utf-8") for p in SCENARIOS)
    required = [
        "DUPLICATE_CARD", "UNKNOWN_TAG", "MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED",
        "MISDEAL_CARD_OUT_OF_SEQUENCE", "MISDEAL_FIRST_CARD_WRONG_POSITION",
        "MISDEAL_INCORRECT_CARD_COUNT", "EXTRA_CARD_SINGLE_BECOMES_BURN",
        "MISDEAL_TWO_OR_MORE_EXTRA_CARDS", "FLOP_BURN_ERROR", "BURN_MISSING_OR_EXTRA",
        "FLOP_TOO_MANY_CARDS", "FLOP_PREMATURE", "TURN_PREMATURE", "RIVER_PREMATURE",
        "HOLECARD_EXPOSED_SINGLE_REPLACE", "MISDEAL_TWO_OR_MORE_CARDS_EXPOSED",
        "MISDEAL_DEALT_TO_EMPTY_OR_INELIGIBLE_SEAT", "DRAW_AFTER_HAND_END",
    ]
    missing = [code for code in required if f'"code": "{code}"' not in names]
    assert not missing


def test_there_is_a_scenario_for_every_chip_finding():
    """Issue 13: one scenario per chip finding (docs/chip-betting.md)."""
    from controller.rules.findings.chips import CHIP_ENTRIES

    names = " ".join(p.read_text(encoding="utf-8") for p in SCENARIOS)
    missing = [e.code for e in CHIP_ENTRIES if f'"code": "{e.code}"' not in names]
    assert not missing


def _setup_game(path: Path) -> str:
    from controller.events import TableSetup

    setup = next((e.body for e in read_scenario(path) if isinstance(e.body, TableSetup)), None)
    return setup.game if setup is not None else ""


def test_every_board_finding_has_a_scenario_at_a_board_game_other_than_nlhe():
    """Each finding a board-game dealing mistake raises (controller/sim/mistakes.py: the kinds
    whose families include the board) is expected by a scenario dealt at a board game other
    than no-limit hold'em; every such game has scenarios, Omaha/8 and short deck among them."""
    from controller.poker.variants import VARIANTS, family
    from controller.sim.mistakes import BOARD, KINDS

    codes = {k.code for k in KINDS.values() if BOARD in k.families}
    games = {g for g, v in VARIANTS.items() if family(v) == BOARD and g != "nlhe"}
    assert codes and {"omaha8", "short_deck"} <= games
    expected: dict[str, set[str]] = {}  # game -> the codes its scenarios expect
    for path in SCENARIOS:
        game = _setup_game(path)
        if game in games:
            expected.setdefault(game, set()).update(
                e["code"] for e in _expectations(path) if "code" in e)
    covered = set().union(*expected.values()) if expected else set()
    assert not codes - covered, f"no board scenario (other than nlhe) expects {codes - covered}"
    lacking = sorted(g for g in games if not expected.get(g))
    assert not lacking, f"no scenario with a finding at {lacking}"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path):
    events = read_scenario(path)
    expects = _expectations(path)
    state = initial_state()
    findings = []
    results: list[dict[str, Any]] = []
    for event in events:
        step = apply(state, event)
        state = step.state
        findings.extend(step.findings)
        if step.results:
            results = [a.to_json() for a in step.results]
    wanted = [e for e in expects if "code" in e]
    got = [f.code for f in findings]
    assert got == [e["code"] for e in wanted], f"{path.name}: findings {got}"
    for f, e in zip(findings, wanted, strict=True):
        assert list(f.seats) == e["seats"], f"{f.code}: seats"
        assert list(f.cards) == e["cards"], f"{f.code}: cards"
        if "rule" in e:
            rule = f.rule.to_json()
            rule.pop("text", None)
            assert rule == e["rule"], f"{f.code}: rule"
        if "seq" in e:
            assert f.seq == e["seq"], f"{f.code}: seq"
        remedy = " ".join(f.remedy)
        for text in e.get("remedy_has", []):
            assert text in remedy, f"{f.code}: remedy lacks {text!r}: {remedy}"
        assert "?" not in remedy, f"{f.code}: an unfilled remedy template: {remedy}"
        assert f.severity == CATALOGUE[f.code].severity
        for card in f.cards:
            # a title reaches the public view (a card as a word: "Th" is not in "The")
            assert not re.search(rf"\b{re.escape(card)}\b", f.title), f"{f.code}: title"
    snap = snapshot(state)
    for e in expects:
        if "pots" in e:
            assert len(results) == len(e["pots"]), results
            for award, want in zip(results, e["pots"], strict=True):
                assert {k: award[k] for k in want} == want
        if "stacks" in e:
            assert {str(s["seat"]): s["stack"] for s in snap["seats"]} == e["stacks"]
    if not wanted:
        assert snap["findings"] == []


def test_docs_list_every_code_and_snapshot_key():
    from controller.rules import initial_state as init
    from controller.rules import snapshot as snap

    docs = Path(__file__).resolve().parent.parent.parent / "docs"
    findings_doc = (docs / "findings.md").read_text(encoding="utf-8")
    missing = [code for code in CATALOGUE if f"`{code}`" not in findings_doc]
    assert not missing
    snapshot_doc = (docs / "snapshot.md").read_text(encoding="utf-8")
    for key in snap(init())["hand"]:
        assert f'"{key}"' in snapshot_doc, key
