"""The draw count a player may ask for (RR Section 11 r.13): told from the draw log until the
first betting action after the draw, then locked, in the snapshot and the public view alike."""

from __future__ import annotations

from pathlib import Path

from controller.events import DrawQuery, read_scenario
from controller.rules import apply, initial_state, snapshot
from display.payloads import table_payload

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
SCENARIO = SCENARIOS / "keys_draw_cards_drawn_query.jsonl"


def test_the_answer_is_given_until_action_after_the_draw_then_locked() -> None:
    state = initial_state()
    queries = []
    for event in read_scenario(SCENARIO):
        step = apply(state, event)
        state = step.state
        if isinstance(event.body, DrawQuery):
            snap = snapshot(state)
            seat = next(s for s in snap["seats"] if s["seat"] == event.body.seat)
            public = next(s for s in table_payload(snap)["seats"]
                          if s["seat"] == event.body.seat)
            queries.append((snap["hand"]["draw_answer"], seat["drawn_now"], public["drawn"],
                            seat["drawn"], [f.code for f in step.findings]))
    (answer, now, public, log, found), (answer2, now2, public2, log2, found2) = queries
    drawn = log[-1]
    assert answer == {"seat": answer["seat"], "drawn": drawn} and now == drawn
    assert public == [drawn] and found == []
    # after the first action after the draw: locked everywhere but the dealer's log
    assert answer2 is None and now2 is None and public2 == [] and log2 == log
    assert found2 == ["DRAW_CARDS_DRAWN_QUERY"]
