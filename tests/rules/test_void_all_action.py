"""A duplicate card, or a card of another deck, voids all action in every family: the award key
afterwards awards nothing and every chip goes back to whoever wagered it (roberts-rules-v11.txt,
Section 3, Irregularities, r.3-4), with no misdeal key needed."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.events import parse_event, read_scenario
from controller.rules import apply, initial_state, snapshot

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


@pytest.mark.parametrize("name", [
    "duplicate_card", "board_duplicate_card_flhe", "stud_duplicate_card", "draw_duplicate_card",
    "unknown_tag", "board_unknown_tag_plhe"])
def test_the_award_key_after_a_void_hand_returns_every_chip(name: str) -> None:
    path = SCENARIOS / f"{name}.jsonl"
    events = [e for e in read_scenario(path) if e.type != "misdeal.declared"]
    state = initial_state()
    start: dict[int, int] = {}
    codes: list[str] = []
    for event in events:
        if event.type == "hand.start":  # the stacks before the hand's blinds and antes
            start = {s["seat"]: s["stack"] for s in snapshot(state)["seats"]}
        step = apply(state, event)
        state = step.state
        codes += [f.code for f in step.findings]
    assert codes and codes[-1] in ("DUPLICATE_CARD", "UNKNOWN_TAG")
    end = apply(state, parse_event({"type": "hand.end", "seq": state.last_seq + 1}))
    assert end.findings == () and end.results == ()
    snap = snapshot(end.state)
    assert snap["hand"]["phase"] == "misdeal"
    assert {s["seat"]: s["stack"] for s in snap["seats"]} == start
