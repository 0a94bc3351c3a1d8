"""The cards of a hand at the live table: every card off the shoe, zone read and leave, the
dealer's exposed, flashed and boxed keys, and a premature card kept, handed to the procedure
monitor; a card of another deck goes to ``deck``, a card with no hand in play is out of place."""

from __future__ import annotations

from controller.events import (
    CardBoxed,
    CardKept,
    ShoeDraw,
    ZoneLeave,
    ZoneRead,
)
from controller.poker.records import replace
from controller.rules import procedure
from controller.rules.findings import Finding, make_finding
from controller.rules.table import lost_cards
from controller.rules.table.cutoff import alerted
from controller.rules.table.deck import foreign_card
from controller.rules.table.kernel import (
    CardBody,
    out_of_place,
    progress,
    window_kills,
    with_findings,
)
from controller.rules.table.state import Step, TableState


def card_event(state: TableState, body: CardBody, seq: int) -> Step:
    """A card event: the procedure monitor of the game's family judges it."""
    h = state.hand
    if h is None or not h.in_play:
        return _card_outside_hand(state, body, seq)
    g = h.game
    card = state.deck.card_of(body.uid)
    deck = state.deck.deck
    foreign = state.deck.foreign(body.uid) if card is None else None
    if foreign is not None or body.uid in h.foreign:
        return foreign_card(state, h, body, foreign, seq)
    out: list[Finding] = []
    if isinstance(body, ShoeDraw):
        if not procedure.cards_out(g) and g.posts_due and not h.warned_blind:
            # Forced bets are posted before the cards are dealt (RR Section 4 intro; Section 8)
            seat, kind, amount = g.posts_due[0]
            out.append(make_finding("BLIND_NOT_POSTED", seq, seats=[seat], fill={
                "blind": procedure.POST_NAMES.get(kind, kind), "amount": amount}))
            h = replace(h, warned_blind=True)
        g, killed = procedure.unprotected(g, seq)
        out += killed
        g, more = procedure.draw(g, body.uid, card, body.face_up, seq, deck)
    elif isinstance(body, ZoneRead):
        g, more = procedure.read(g, body.uid, body.zone, seq, card, deck)
    elif isinstance(body, ZoneLeave):
        g, more = lost_cards.leave(g, body.uid, body.zone, body.lost, seq)
    elif isinstance(body, CardBoxed):
        g, more = procedure.boxed(g, body.uid, card, seq)
    else:
        # "A card that is flashed by a dealer is treated as an exposed card. A card that is
        # flashed by a player will play." (roberts-rules-v11.txt, Section 3, Irregularities, r.12)
        g, more = procedure.exposed(g, body.uid, body.by, seq)
    out += more
    if h.absent and procedure.starting_hands_out(g):
        window = (state.settings.absent_hand_kill == "stud_window_card_until_turn"
                  and g.family == "stud")
        # The dealer's duty now, said out loud: not silent bookkeeping (the cards of these
        # seats go to the muck as a fold's do, not judged as a dealing error)
        out.append(make_finding("ABSENT_PLAYER_TOURNAMENT", seq, seats=sorted(h.absent),
                                setting="stud_window_card_until_turn" if window else ""))
        if window:
            # WSOP Section 8 r.8: "kill the down cards of any absent player as soon as all the
            # players have received their entire starting hands, making sure to leave the window
            # card in place until it is that seat's turn to act" (research D-28)
            h = replace(h, window=h.absent, absent=())
        else:
            # Tournament: the dealer kills the hands of absent players once every player has a
            # starting hand (roberts-rules-v11.txt, Section 15, r.13).
            for seat in h.absent:
                g = procedure.kill(g, seat)
            h = replace(h, absent=())
    # (one new record for the game and the count: window_kills reads neither the count nor
    # anything the count changes)
    h = progress(window_kills(replace(h, game=g, cards_seen=h.cards_seen + 1)))
    h, out = alerted(state.settings, h, out)
    return Step(with_findings(replace(state, hand=h), out), tuple(out))


def card_kept(state: TableState, body: CardKept, seq: int) -> Step:
    """The dealer's key that a player looked at a card or mixed it in (procedure.kept)."""
    h = state.hand
    if h is None or not h.in_play:
        return out_of_place(state, seq, "There is no hand in progress for the kept-card key.")
    got = procedure.kept(h.game, body.uid, seq)
    if isinstance(got, str):
        return out_of_place(state, seq, got)
    g, out = got
    return Step(with_findings(replace(state, hand=replace(h, game=g)), out), tuple(out))


def _card_outside_hand(state: TableState, body: CardBody, seq: int) -> Step:
    # Cards gathered, mucked or shuffled between hands are not the monitor's business; only a
    # card dealt off the shoe after the hand ended and before the shuffle is (rabbit hunting).
    if state.chip_race:
        return Step(state)  # the colour-up deal is a legitimate deal, not a hand (RR §15 r.11)
    if isinstance(body, ShoeDraw) and state.phase == "complete" and not state.shuffled:
        card = state.deck.card_of(body.uid) or f"tag {body.uid}"
        f = make_finding("DRAW_AFTER_HAND_END", seq, cards=[card])
        return Step(with_findings(state, [f]), (f,))
    return Step(state)
