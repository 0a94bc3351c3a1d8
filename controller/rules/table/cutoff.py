"""The misdeal cut-off: when a misdeal-level error stops being a misdeal (the profile's cut-off:
substantial action, or the first betting round), what the table does with an error found after
it, and the attention called that makes a held error count (house setting
``attention_on_alert``; roberts-rules-v11.txt, Section 3, Misdeals, r.1)."""

from __future__ import annotations

from controller.events import (
    AttentionCalled,
)
from controller.poker.house_rules import Settings
from controller.poker.records import replace
from controller.rules import procedure
from controller.rules.findings import Finding, make_finding
from controller.rules.table.kernel import progress, with_findings
from controller.rules.table.state import Hand, Step, TableState

CUTOFF_TEXT = {
    "rr": "two players after the blinds have acted (roberts-rules-v11.txt, Section 3, Misdeals, "
          "r.1)",
    "rr_home": "two players have acted in turn (roberts-rules-home.txt, Section 3, Misdeals, r.1)",
    "wsop": "substantial action: a raise, or a call and the next player acting "
            "(wsop-2009-live-action-rules.md, Section 3, Misdeals, r.2)",
    "tda": "substantial action: two actions in turn, one putting chips in, or three actions in "
           "turn (azwine-tour-tournament-rules.txt, Substantial Action (TDA #35), r.1)",
}


_CHIPS_IN = ("call", "bet", "raise", "allin")


def cutoff_passed(settings: Settings, h: Hand) -> bool:
    """Has the action gone past the point where an error can still make a misdeal, under the
    profile's ``misdeal_cutoff`` (research/irregularities.md §1.B MISDEAL_LOCKOUT)?"""
    rule = settings.misdeal_cutoff
    acts = h.acts
    if rule in ("rr", "rr_home"):
        # "two players after the blinds": the blinds and a straddle acting do not count.
        blinds = {h.small_blind, h.big_blind, *(h.plan.straddles if h.plan else ())}
        seats = {a.seat for a in acts if a.seat not in blinds and (a.in_turn or rule == "rr")}
        return len(seats) >= 2
    if rule == "wsop":
        # "a player has raised the pot or someone has called and the next player has acted"
        turns = [a for a in acts if a.in_turn]
        return any(a.raised for a in turns) or any(a.kind == "call" for a in turns[:-1])
    in_turn = [a for a in acts if a.in_turn]  # tda
    return len(in_turn) >= 3 or (len(in_turn) >= 2 and any(a.kind in _CHIPS_IN for a in in_turn))


def _cut_off_applies(f: Finding) -> bool:
    # The misdeals of RR Section 3, Misdeals, r.2 ("provided attention is called to the error
    # before two players have acted"). A duplicate or foreign card voids all action whenever it
    # is found (RR Section 3, Irregularities, r.4), so it is not subject to the cut-off.
    return f.code.startswith("MISDEAL_")


def alerted(settings: Settings, h: Hand, out: list[Finding]) -> tuple[Hand, list[Finding]]:
    """The monitor raised misdeal-level findings: by the ``attention_on_alert`` setting either
    its alert is the attention called (the cut-off is judged now), or they wait for
    ``attention.called``."""
    misdeals = [f for f in out if _cut_off_applies(f)]
    if not misdeals:
        return h, out
    if not settings.attention_on_alert:
        # Held: nobody has called attention yet, so the hand goes on (the monitor stays off).
        rest = [f for f in out if not _cut_off_applies(f)]
        return replace(h, held=(*h.held, *misdeals),
                       game=procedure.set_void(h.game, False)), rest
    if not cutoff_passed(settings, h):
        return h, out
    return _after_cutoff(settings, h, out, "monitor", None)


def _after_cutoff(settings: Settings, h: Hand, found: list[Finding], by: str,
                  seq: int | None) -> tuple[Hand, list[Finding]]:
    """Past the cut-off the deal is played (RR Section 3, Misdeals, r.1): each misdeal-level
    finding becomes its non-misdeal remedy; a wrong card count makes that hand dead (RR Section
    3, Dead Hands, r.1(d))."""
    out: list[Finding] = []
    g = h.game
    cutoff = CUTOFF_TEXT[settings.misdeal_cutoff]
    for f in found:
        if not _cut_off_applies(f):
            out.append(f)
            continue
        at = f.seq if seq is None else seq
        if f.code == "MISDEAL_INCORRECT_CARD_COUNT":
            out.append(make_finding("HAND_WRONG_CARD_COUNT_DEAD", at, seats=f.seats,
                                    cards=f.cards, fill={"detail": f.message, "by": by,
                                                         "cutoff": cutoff}))
            for seat in f.seats:
                g = procedure.kill(g, seat)
        else:
            out.append(make_finding("MISDEAL_LOCKOUT", at, seats=f.seats, cards=f.cards,
                                    fill={"detail": f.message, "by": by, "cutoff": cutoff,
                                          "error": f.title}))
    h = replace(h, game=procedure.set_void(g, False))
    return progress(h), out


def attention(state: TableState, body: AttentionCalled, seq: int) -> Step:
    """Attention is called to an error: the held misdeal-level findings are judged against the
    cut-off now (research/irregularities.md §1.B: "evaluated at the moment attention is
    called"). With nothing held the call is recorded by the journal and changes nothing."""
    h = state.hand
    if h is None or not h.in_play or not h.held:
        return Step(state)
    held = list(h.held)
    h = replace(h, held=())
    if cutoff_passed(state.settings, h):
        h, out = _after_cutoff(state.settings, h, held, body.by, seq)
    else:
        out = held  # before the cut-off: the misdeal stands, as the monitor found it
        h = replace(h, game=procedure.set_void(h.game, True))
    return Step(with_findings(replace(state, hand=h), out), tuple(out))
