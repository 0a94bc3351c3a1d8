"""Stud: a hand folded when there is no wager keeps receiving cards until a bet kills it
(roberts-rules-v11.txt, Section 8, r.9), and wins nothing if no bet ever comes."""

from __future__ import annotations

from pathlib import Path

from controller.events import Action, Event, HandEnd, ShoeDraw, ZoneRead, read_scenario
from controller.rules import apply, initial_state

SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / \
    "stud_folded_seat_keeps_receiving.jsonl"


def _play(events: list[Event]):  # type: ignore[no-untyped-def]
    state, codes = initial_state(), []
    for e in events:
        step = apply(state, e)
        state = step.state
        codes += [f.code for f in step.findings]
    return state, codes


def test_checked_down_the_folded_hand_is_dealt_to_the_end_and_wins_nothing() -> None:
    """No bet after the fold: seat 2 is dealt sixth and seventh street with the others (a
    card passed over would be the finding again), and at the showdown it wins nothing."""
    events = read_scenario(SCENARIO)
    bet = next(k for k, e in enumerate(events) if isinstance(e.body, Action)
               and e.body.kind == "bet")
    seq = events[bet].seq
    bodies = [Action(seat=1, kind="check"), Action(seat=3, kind="check")]
    for street, up in (("4d 2d Jd 3d", True), ("5d 7c 6d 7d", False)):
        burn, *cards = street.split()
        bodies += [ShoeDraw(uid=f"T{burn}", face_up=False), ZoneRead(uid=f"T{burn}", zone="burn")]
        for seat, card in zip((1, 2, 3), cards, strict=True):
            bodies += [ShoeDraw(uid=f"T{card}", face_up=up),
                       ZoneRead(uid=f"T{card}", zone=f"seat:{seat}")]
        bodies += [Action(seat=1, kind="check"), Action(seat=3, kind="check")]
    bodies.append(HandEnd())
    tail = [Event(seq + i, 0, b) for i, b in enumerate(bodies)]
    state, codes = _play([*events[:bet], *tail])
    assert codes == ["STUD_FOLDED_SEAT_KEEPS_RECEIVING"]  # fifth street's, nothing after it
    [pot] = state.results
    assert 2 not in pot.eligible and pot.winners == (1,)


def test_the_seat_dealt_in_order_raises_nothing() -> None:
    """Dealt to seat 2 in its turn (no card passed over): no finding at all."""
    events = read_scenario(SCENARIO)
    i = next(k for k, e in enumerate(events) if getattr(e.body, "uid", "") == "T5h"
             and getattr(e.body, "zone", "") == "seat:3")
    fixed = [*events[:i], Event(events[i].seq, 0, type(events[i].body)(uid="T5h",
                                                                       zone="seat:2"))]
    fixed += events[i + 2:]  # the move to seat 2 is not needed any more
    _, codes = _play(fixed)
    assert codes == []
