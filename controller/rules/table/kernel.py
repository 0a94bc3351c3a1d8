"""The step kernel: what every handler of the live table shares to make its ``Step``.

A finding is added to the state (``with_findings``); an event the table cannot apply now is
EVENT_OUT_OF_PLACE and leaves the state as it was (``out_of_place``, docs/findings.md); the hand
in play moves on once the monitor has judged a card or an action (``progress``, ``window_kills``);
a voided hand's monitor state (``voided``). The handlers (``seats``, ``hand_start``, ``cards``,
``betting``, ``deck``, ``hand_end``, ``cutoff``, ``rulings``) import this module and ``state``;
none imports the dispatch (``dispatch.py``)."""

from __future__ import annotations

from types import MappingProxyType

from controller.events import (
    CardBoxed,
    CardExposed,
    CardFlashed,
    ShoeDraw,
    ZoneLeave,
    ZoneRead,
)
from controller.poker.records import replace
from controller.rules import procedure
from controller.rules.findings import Finding, make_finding
from controller.rules.table.seating import Seating
from controller.rules.table.state import Hand, Step, TableState


def with_findings(state: TableState, findings: list[Finding] | tuple[Finding, ...]) -> TableState:
    if not findings:
        return state
    return replace(state, findings=state.findings + tuple(findings))


def out_of_place(state: TableState, seq: int, detail: str) -> Step:
    f = make_finding("EVENT_OUT_OF_PLACE", seq, fill={"detail": detail}, message=detail)
    return Step(with_findings(state, [f]), (f,))


def hand_in_play(state: TableState) -> bool:
    return state.hand is not None and state.hand.in_play


def progress(h: Hand) -> Hand:
    """The phase: the engine's street, or showdown once the betting is over. The live hands
    are tabled at the showdown (board games: once the board is complete)."""
    g = h.game
    if not procedure.betting_over(g):
        phase = g.variant.streets[min(g.street, len(g.variant.streets) - 1)].name
        showdown: tuple[int, ...] = ()
    else:
        live = g.live
        board_done = g.deal is None or len(g.deal.board) == 5
        phase = "showdown"
        showdown = tuple(sorted(live)) if len(live) > 1 and board_done else ()
    if phase == h.phase and showdown == h.showdown:
        return h  # (most cards and actions leave both as they were: no new record)
    return replace(h, phase=phase, showdown=showdown)


def window_kills(h: Hand) -> Hand:
    """An absent stud player's hand kept by its window card (``Hand.window``) is killed when the
    action reaches the seat; a bring-in due from it is posted from its stack first (RR Section 15
    r.7: "have the forced lowcard bet put into the pot at stud")."""
    g = h.game
    window = h.window
    while window and g.to_act in window and not g.eng.can_post_bring_in():
        seat = g.to_act
        if seat is None:  # pragma: no cover - None is in no window
            break
        g = procedure.kill(g, seat)
        window = tuple(s for s in window if s != seat)
        if g.to_act == seat:  # pragma: no cover - the engine moves the action on a kill
            break
    if window == h.window:
        return h
    return replace(h, game=g, window=window)


def with_stack(t: Seating, seat: int, stack: int) -> Seating:
    st = t.seats[seat]
    seats = dict(t.seats)
    seats[seat] = replace(st, stack=stack)
    return replace(t, seats=MappingProxyType(seats))


def voided(g: procedure.GameHand, code: str) -> procedure.GameHand:
    """The hand void for ``code`` from its start: it waits for ``misdeal.declared`` and the
    monitor judges nothing more of it."""
    if g.deal is not None:
        g = replace(g, deal=replace(g.deal, void=True, off=code))
    return replace(g, void=True, off=code)


CardBody = ShoeDraw | ZoneRead | ZoneLeave | CardExposed | CardFlashed | CardBoxed

def reads_chips(state: TableState) -> bool:
    """The table's bet zones are read (a chip reader reported one): the chips judge the
    betting too."""
    return any(z.startswith("bet:") for z in state.chips.zones)
