"""The rules core never raises: regressions for every crash the fuzzer found, and the fuzz itself.

Regressions: each crash ``bench.fuzz`` found has a minimal event sequence here (a scenario, one
JSON object a line, parsed as the daemon parses them), replayed through ``apply`` with the fuzz's
checks on every step, and the ruling it gets now (findings and phase, as the rulebooks give it).
"""

from __future__ import annotations

from bench.fuzz import check_state, check_step
from controller.events import iter_lines
from controller.rules import Step, TableState, apply, initial_state


def _replay(text: str) -> tuple[TableState, list[Step]]:
    """Apply every event of a scenario text; the fuzz's checks after each."""
    state = initial_state()
    steps = []
    for event in iter_lines(text.splitlines(), source="regression"):
        step = apply(state, event)
        check_step(step.findings, step.results)
        state = step.state
        check_state(state)
        steps.append(step)
    return state, steps


def _codes(steps: list[Step]) -> list[tuple[int, str]]:
    return [(f.seq, f.code) for s in steps for f in s.findings]


def test_premature_burn_reshuffled_then_a_board_card_early_is_the_remedy_not_followed():
    # Issue 9, defect 1: a premature burn (read without its shoe draw), the stub reshuffled as
    # the remedy says, then a card to the board while the preflop betting is still open. The
    # reshuffle ended the premature street, so that card is not more of it: the remedy (the
    # flop after the preflop betting, RR Section 5, Holdem, r.5 and r.7) was not followed.
    # Before the fix: StopIteration in dealing._add_tail (no reshuffle step left).
    state, steps = _replay("""
{"seq":1,"ts":0,"type":"seat.take","seat":3,"player":"A","stack":100}
{"seq":2,"ts":0,"type":"seat.take","seat":1,"player":"B","stack":100}
{"seq":3,"ts":0,"type":"deck.register","deck":"d","tags":{"T1":"As","T2":"Kd","T3":"Qh","T4":"Jc","T5":"Tc","T6":"9c"}}
{"seq":4,"ts":0,"type":"hand.start","button":1}
{"seq":5,"ts":0,"type":"shoe.draw","uid":"T1","face_up":false}
{"seq":6,"ts":0,"type":"shoe.draw","uid":"T2","face_up":false}
{"seq":7,"ts":0,"type":"shoe.draw","uid":"T3","face_up":false}
{"seq":8,"ts":0,"type":"shoe.draw","uid":"T4","face_up":false}
{"seq":9,"ts":0,"type":"zone.read","uid":"T5","zone":"burn"}
{"seq":10,"ts":0,"type":"shuffle.done"}
{"seq":11,"ts":0,"type":"zone.read","uid":"T6","zone":"board"}
""")
    assert _codes(steps) == [(5, "BLIND_NOT_POSTED"), (9, "FLOP_PREMATURE"),
                             (11, "REMEDY_NOT_FOLLOWED")]
    assert "before the preflop betting was complete" in steps[-1].findings[0].message
    assert state.phase == "preflop"

