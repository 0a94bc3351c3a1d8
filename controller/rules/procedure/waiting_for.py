"""What the procedure monitor waits for next, in words: the card due, the remedy's move, the
action (the dealer's screen, and the findings that name what was due). Pure: no I/O."""

from __future__ import annotations

from controller.rules.procedure import board_deal as board
from controller.rules.procedure.board import BoardBetting
from controller.rules.procedure.game_hand import GameHand, expected


def remedy_due(h: GameHand) -> tuple[tuple[str, str], ...]:
    """The remedy moves the monitor waits for, in order, each as (the finding it remedies,
    "CODE (seq N)"; what to do): the first is the move expected now (``expectation`` words it).
    Board games follow one remedy at a time (``board.remedy_due``); stud and draw queue the
    moves of several findings, each step naming its finding."""
    if h.deal is not None:
        return board.remedy_due(h.deal)
    if h.void or h.off:
        return ()
    return tuple((x.after, x.says()) for x in h.expect)


def expectation(h: GameHand) -> str:
    """A short sentence of what the monitor expects next (the dealer's screen)."""
    if h.deal is not None:
        return board.expectation(h.deal, BoardBetting(h))
    if h.void:
        return f"Misdeal ({h.off}): waiting for the misdeal to be declared."
    if h.off and h.to_act is None:
        return f"The floor's word on {h.off} (the monitor has stopped for this hand)."
    if h.expect:
        x = h.expect[0]
        return f"Remedy of {x.after}: {x.says()}"
    s = expected(h)
    if s.kind == "burn":
        return "Next: the burn card."
    if s.kind == "board":
        return "Next: the common card, face up in the centre."
    if s.kind == "seat":
        return f"Next: a card to seat {s.seat}, face {'up' if s.face_up else 'down'}."
    if h.to_act is not None:
        return f"Seat {h.to_act} to act."
    return s.why.capitalize() + "." if s.why else ""
