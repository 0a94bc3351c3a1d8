"""The floor's rulings and the keys for what the antennas cannot see (issue 11): a floor ruling
on a finding, the deck-fault key (the shuffle, the cut, a card the dealer saw), and a draw
query answered."""

from __future__ import annotations

from controller.events import (
    DeckFault,
    DrawQuery,
    FloorRuling,
)
from controller.poker.records import replace
from controller.rules import procedure
from controller.rules.findings import make_finding
from controller.rules.table import deck_keys
from controller.rules.table.hand_end import misdeal
from controller.rules.table.kernel import out_of_place, with_findings
from controller.rules.table.state import Step, TableState


def floor_ruling(state: TableState, body: FloorRuling, seq: int) -> Step:
    """The floor's ruling is recorded and shown to the dealer ("Decisions of the shift
    supervisor are final", roberts-rules-v11.txt, Section 2, Decision-Making, r.2). ``void``
    voids the hand as a misdeal does; ``stand`` lets a hand the monitor holds void go on."""
    h = state.hand
    on = f" on {body.code}" if body.code else ""
    if body.outcome == "void":
        if h is None or not h.in_play:
            return out_of_place(state, seq, "The floor voided a hand, but there is no hand in "
                                "progress.")
        outcome = "The hand is void: every chip goes back to its owner; redeal."
        f = make_finding("FLOOR_RULING", seq, fill={"on": on, "text": body.text,
                                                    "outcome": outcome}, message=body.text)
        step = misdeal(state, seq)
        return Step(with_findings(step.state, [f]), (*step.findings, f))
    outcome = "The hand stands: play on."
    if h is not None and h.in_play:
        # The monitor stays off for the rest of the hand: the floor has ruled on what it saw.
        state = replace(state, hand=replace(h, game=procedure.stand(h.game), held=()))
    f = make_finding("FLOOR_RULING", seq, fill={"on": on, "text": body.text, "outcome": outcome},
                     message=body.text)
    return Step(with_findings(state, [f]), (f,))


def deck_fault(state: TableState, body: DeckFault, seq: int) -> Step:
    """A deck fault keyed by the dealer or floor (deck_keys.py): reported with its remedy; the
    monitor goes on judging the deal as it stands (a fouled stub is played out, RR Section 3,
    Irregularities, r.17)."""
    h = state.hand
    in_play = h is not None and h.in_play
    got = deck_keys.deck_fault(
        body.kind, body.cutter, seq,
        cards_out=procedure.cards_out(h.game) if h is not None and in_play else 0,
        acted=bool(h.acts) if h is not None and in_play else False,
        expect=procedure.expectation(h.game) if h is not None and in_play else "")
    if isinstance(got, str):
        return out_of_place(state, seq, got)
    return Step(with_findings(state, [got]), (got,))


def draw_query(state: TableState, body: DrawQuery, seq: int) -> Step:
    """How many cards did ``seat`` draw? Answered from the draw log (the snapshot's
    ``hand.draw_answer``) until there is action after the draw; then it is locked
    (DRAW_CARDS_DRAWN_QUERY; roberts-rules-v11.txt, Section 11, r.13; Section 12, r.9)."""
    h = state.hand
    if h is None or not h.in_play or h.game.family != "draw":
        return out_of_place(state, seq, "How many cards a player drew is asked in a draw game "
                            "during a hand.")
    g = h.game
    asker = body.asked_by
    if asker is not None and asker not in g.live:
        # "asked ... by another active player" (Section 11 r.13): nobody else is owed it
        return out_of_place(state, seq, f"Seat {asker} is not in the hand: only another active "
                            "player is owed the answer.")
    if body.seat not in g.seats or not g.drawn.get(body.seat):
        return out_of_place(state, seq, f"Seat {body.seat} has not drawn in this hand.")
    if procedure.drawn_answer(g, body.seat) is None:
        f = make_finding("DRAW_CARDS_DRAWN_QUERY", seq, seats=[body.seat])
        return Step(with_findings(replace(state, hand=replace(h, asked=None)), [f]), (f,))
    return Step(replace(state, hand=replace(h, asked=body.seat)))
