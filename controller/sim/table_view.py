"""What the simulated dealer reads of its shadow table beyond the snapshot.

The dealer applies every event it makes to its own copy of the rules core's state (the same
pure ``apply`` the daemon runs). The snapshot (docs/snapshot.md) says who posts what and who is
dealt in; the questions a dealer answers from the game itself (who is still due cards on this
street, whose turn it is to draw or discard, the legal amounts of a bet, whether the misdeal
cut-off has passed) are the hand engine's (``controller/rules/engine/hand.py``), read here, in one
place, from the hand the procedure monitor keeps (``procedure.GameHand``). The other modules of
the dealer name the engine and the hand through ``Engine`` and ``GameHand`` from here.
"""

from __future__ import annotations

from controller.poker.variants import Variant
from controller.rules import GameHand, TableState, cutoff_passed
from controller.rules import HandEngine as Engine

__all__ = ["Engine", "GameHand", "attention_on_alert", "current", "due_cards", "engine", "game",
           "held", "live", "past_cutoff", "position", "seat_at", "variant"]


def game(state: TableState) -> GameHand | None:
    """The hand in play (None between hands, or once it is complete or void)."""
    h = state.hand
    return h.game if h is not None and h.in_play else None


def current(state: TableState) -> GameHand:
    """The hand in play; the dealer calls it only while dealing one."""
    g = game(state)
    if g is None:  # pragma: no cover - the dealer deals only a hand in play
        raise RuntimeError("no hand in play")
    return g


def engine(state: TableState) -> Engine:
    return current(state).eng


def variant(state: TableState) -> Variant | None:
    """The game of the current (or last) hand."""
    return state.hand.game.variant if state.hand is not None else None


def seat_at(g: GameHand, p: int) -> int:
    """The seat of engine position ``p``."""
    return g.seats[p]


def position(g: GameHand, seat: int) -> int | None:
    return g.pos(seat)


def due_cards(g: GameHand) -> list[int]:
    """Stud and draw: the seats still due a card on this street, in the hand's seat order."""
    e = g.eng
    return [s for i, s in enumerate(g.seats) if e.hole_needed(i) > 0]


def live(g: GameHand) -> tuple[int, ...]:
    return g.live


def held(state: TableState) -> bool:
    """A misdeal-level error the monitor holds until attention is called (house setting
    ``attention_on_alert`` off)."""
    h = state.hand
    return h is not None and h.in_play and bool(h.held)


def past_cutoff(state: TableState) -> bool:
    """Has the action gone past the misdeal cut-off of the table's profile?"""
    h = state.hand
    return h is not None and cutoff_passed(state.settings, h)


def attention_on_alert(state: TableState) -> bool:
    return state.settings.attention_on_alert
