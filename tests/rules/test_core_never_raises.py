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


def test_a_held_card_flashed_during_its_players_draw_is_not_exposed_on_the_draw():
    # 2-7 triple draw: seat 2 asks for two cards, then the dealer flashes 9d, a card seat 2 was
    # dealt before the draw. Only a replacement card is "exposed on the draw" (RR Section 11,
    # Lowball, r.9); a card the player already held is no draw irregularity, and the betting
    # the engine logged after it stands. Before the fix: IllegalAction when the card was taken
    # back out of the engine's log (procedure._unfeed) and the calls after it replayed.
    state, steps = _replay("""
{"seq":1,"type":"table.setup","game":"27_triple","seats":2,"small_blind":1,"big_blind":2,"small_bet":2,"big_bet":4}
{"seq":2,"type":"seat.take","seat":1,"player":"Ann","stack":200}
{"seq":3,"type":"seat.take","seat":2,"player":"Bob","stack":200}
{"seq":4,"type":"deck.register","deck":"d","tags":{"T1":"9d","T2":"Th","T3":"Qh","T4":"Qs","T5":"8c","T6":"8s","T7":"4s","T8":"2d","T9":"3s","T10":"Js"}}
{"seq":5,"type":"hand.start","button":1}
{"seq":6,"type":"shuffle.done"}
{"seq":7,"type":"action","seat":1,"kind":"post","amount":1,"blind":"small_blind"}
{"seq":8,"type":"action","seat":2,"kind":"post","amount":2,"blind":"big_blind"}
{"seq":9,"type":"zone.read","uid":"T1","zone":"seat:2"}
{"seq":10,"type":"zone.read","uid":"T2","zone":"seat:1"}
{"seq":11,"type":"zone.read","uid":"T3","zone":"seat:2"}
{"seq":12,"type":"zone.read","uid":"T4","zone":"seat:1"}
{"seq":13,"type":"zone.read","uid":"T5","zone":"seat:2"}
{"seq":14,"type":"zone.read","uid":"T6","zone":"seat:1"}
{"seq":15,"type":"zone.read","uid":"T7","zone":"seat:2"}
{"seq":16,"type":"zone.read","uid":"T8","zone":"seat:1"}
{"seq":17,"type":"zone.read","uid":"T9","zone":"seat:2"}
{"seq":18,"type":"zone.read","uid":"T10","zone":"seat:1"}
{"seq":19,"type":"action","seat":1,"kind":"call"}
{"seq":20,"type":"action","seat":2,"kind":"check"}
{"seq":21,"type":"action","seat":2,"kind":"draw","amount":2}
{"seq":22,"type":"card.flashed","uid":"T1","by":"dealer"}
""")
    assert _codes(steps) == []
    assert state.phase == "draw1"
    assert state.hand is not None and state.hand.game is not None
    assert len(state.hand.game.eng.holes[1]) == 5  # seat 2 still holds its five cards
