"""The chips the antennas read, at the live table: a bet zone's settled chips made the seat's
betting action (``chips_in_front``), chips moved between zones during a hand, the award pushed
out judged, and every player's chips counted between hands (the chips wing,
``controller.rules.chips``; docs/chip-betting.md)."""

from __future__ import annotations

from controller.events import (
    ChipsZone,
)
from controller.poker.records import replace
from controller.rules import chips as chip_rules
from controller.rules.chips import Chips, ChipZone, bet_seat
from controller.rules.findings import Finding
from controller.rules.table.betting import action
from controller.rules.table.kernel import with_findings, with_stack
from controller.rules.table.state import Step, TableState


def chips_in_front(state: TableState, zone: str, before: ChipZone | None, seq: int
                   ) -> Step | None:
    """A bet zone settled during a hand: what its chips mean for the betting
    (``chip_rules.read_bet_zone``); the action they make goes through ``action``, the one
    betting path. None: nothing for the hand (another zone, no hand in play)."""
    seat = bet_seat(zone)
    h = state.hand
    if seat is None or h is None or not h.in_play:
        return None
    r = chip_rules.read_bet_zone(h.game, h.bets, state.chips, before, seat, seq,
                                 state.settings)
    if r.action is None and r.bets == h.bets and not r.findings:
        return None
    state = with_findings(replace(state, hand=replace(h, bets=r.bets)), r.findings)
    if r.action is None:
        return Step(state, r.findings)
    step = action(state, r.action, seq, by_chips=True)
    return Step(step.state, r.findings + step.findings)


def chips_moved(before: Chips, state: TableState, body: ChipsZone, seq: int
                ) -> tuple[TableState, tuple[Finding, ...]]:
    """A zone settled: the pot's chips followed (``chips/pot.py``): during a hand, chips leaving
    or coming into the pot without a reason; after ``hand.end``, the award pushed out."""
    h = state.hand
    if h is None:
        return state, ()
    if h.in_play and body.zone == "pot":
        house, found = chip_rules.pot_during_hand(before, state.chips, body, seq)
        chips = replace(state.chips, to_house=state.chips.to_house + house)
        return with_findings(replace(state, chips=chips), found), found
    award = h.bets.award
    if h.phase != "complete" or award is None or award.judged:
        return state, ()
    award = chip_rules.follow(award, body)
    state = replace(state, hand=replace(h, bets=replace(h.bets, award=award)))
    if not chip_rules.ready(award, state.chips):
        return state, ()
    return _judge_award(state, seq)


def _judge_award(state: TableState, seq: int) -> tuple[TableState, tuple[Finding, ...]]:
    """The award pushed out judged against the core's (``chip_rules.judge``); the house's legit
    rake comes off the winners' stacks."""
    h = state.hand
    award = h.bets.award if h is not None else None
    if h is None or award is None:  # pragma: no cover - the callers checked
        return state, ()
    judged = chip_rules.judge(award, seq)
    table = state.seating
    for seat, cut in judged.rake_paid.items():
        if seat in table.seats:
            table = with_stack(table, seat, max(0, table.seats[seat].stack - cut))
    chips = replace(state.chips, to_house=state.chips.to_house + judged.to_house)
    h = replace(h, bets=replace(h.bets, award=replace(award, judged=True)))
    new = replace(state, hand=h, seating=table, chips=chips)
    return with_findings(new, judged.findings), judged.findings


def chips_between_hands(state: TableState, seq: int) -> tuple[TableState, list[Finding]]:
    """As a hand starts: the last hand's award judged if its push was never seen to end, then
    every player's chips and the ledger counted (``chips/ledger.py``)."""
    out: list[Finding] = []
    h = state.hand
    if h is not None and h.bets.award is not None and not h.bets.award.judged:
        state, found = _judge_award(state, seq)
        out += found
    if state.chips.zones:
        stacks = {n: st.stack for n, st in state.seating.seats.items()}
        chips, found = chip_rules.between_hands(state.chips, stacks, state.carry, seq)
        state = replace(state, chips=chips)
        out += found
    return state, out

