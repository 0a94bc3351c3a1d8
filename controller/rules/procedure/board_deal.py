"""The board-game dealing procedure: what card comes next, and what went wrong, card by card.

The games with a board (hold'em, Omaha, five-card Omaha, the Pineapples, six-plus hold'em: every
``Variant`` whose streets deal board cards) share one procedure; the variant gives the number of
hole cards and the streets. The betting is the hand engine's (``controller/rules/engine/``,
through the procedure monitor ``monitor.py``): this module sees it only through ``BettingView``.

The procedure (research/irregularities.md §1.C DEAL_ORDER_BASELINE, §1.H BURN_BASELINE, §1.I-1.L,
and the reference state machine of §5.2):

- hole cards one at a time clockwise, starting with the first seat left of the button, the
  button last, as many passes as the game has hole cards; no burn before the initial deal
  (roberts-rules-v11.txt, Section 4, Button and Blind Use, intro: "The player with the button is
  last to receive cards on the initial deal"; Glossary, BURNCARD; Section 6, Omaha: four cards).
  Heads-up the non-button player gets the first card, which is the same rule
  (azwine-tour-tournament-rules.txt, When Only Two Players Remain r.2);
- then burn + 3 (flop), burn + 1 (turn), burn + 1 (river), each only once the betting round
  before it is complete (RR Section 5, Holdem, r.5; Section 3, Irregularities, r.15), except that
  when at most one player is not all-in the rest of the board is dealt without betting and is not
  premature (ALLIN_RUNOUT_NOT_PREMATURE). Every board game of ``variants.py`` deals this board
  (``board_layout`` checks it); a game with another board needs this module extended.

A card is checked the moment it leaves the shoe (``draw``) against the expectation and the betting
state of that moment. Where the draw alone cannot tell what happened (right after the initial
deal, before the preflop betting is complete, a card may be an extra hole card or a premature
burn; right after the flop, before any flop action, a card may be a fourth flop card or a
premature turn), the card's zone read decides, judged with the state as it was when the card
left the shoe. Findings about a card carry the ``seq`` of its ``shoe.draw``.

Remedies are followed (research/irregularities.md §1.C-1.L; RR Section 3, Irregularities,
r.16: "subsequent cards dealt should be those that would have come if no error had occurred").
A finding whose remedy fixes the cards that must come next starts a ``Remedy``: the moves it calls
for, in order (a card to a zone, a card back into the stub, a stub reshuffle). While it runs, the
cards drawn after the error are judged against it; a card that goes elsewhere raises
REMEDY_NOT_FOLLOWED. Once every move is made the procedure resumes where the remedy leaves it
(``Deal.skew`` keeps the slot arithmetic of POST_DEAL in step), so a second, independent mistake
later in the hand is caught too. Cards a remedy returns to the stub may legitimately be drawn again
(research §3.5): they are new draws, not duplicates.

The monitor stops judging the dealing for the rest of the hand (``off``) after a finding with no
remedy it can follow (an unexpected card, a remedy not followed, a second error while a remedy
runs), except the two escalations the rules name: a second exposed hole card, and a second extra
card. A misdeal-level finding marks the hand void: it waits for ``misdeal.declared``.

This module is the procedure's entry: a card off the shoe (``draw``), a zone read (``read``), a
card leaving a zone, the dealer's keys, the hand's end, and what comes next in words. The
``Deal`` and the expected sequence are ``board_state.py``; the initial deal's irregularities
``board_hole_cards.py``; the flop, turn and river's, and the remedies followed,
``board_streets.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from controller.poker.records import replace
from controller.rules.findings import Finding, make_finding
from controller.rules.procedure.board_hole_cards import (
    exposure,
    judge_extra_or_flop,
    judge_hole,
    moving_on,
    retrieved_hand,
    rule_passed_over,
)
from controller.rules.procedure.board_state import (
    EXTRA_OR_FLOP,
    FLAGGED,
    FOUR_OR_TURN,
    JUDGE_NOW,
    POST_DEAL,
    PREMATURE,
    REMEDY,
    STREET_DEALT,
    BettingView,
    CardState,
    Context,
    Deal,
    board_layout,
    deal_order,
    expect_of,
    flag,
    flag_card,
    following,
    may_flag,
    new_deal,
    with_card,
)
from controller.rules.procedure.board_streets import (
    anchored,
    bind,
    follow,
    four_card_flop,
    judge_slot,
    picks,
    premature_at_read,
    premature_preview,
    premature_remedy,
    progressed,
)
from controller.rules.procedure.remedy import PUT, RETURN, SHUFFLE, not_followed
from controller.rules.procedure.remedy import zone_name as _zone_name

# The board procedure's interface (the monitor, board.py, the table layer and the tests), with the
# names of board_state.py and board_hole_cards.py they use.
__all__ = [
    "POST_DEAL",
    "BettingView",
    "CardState",
    "Context",
    "Deal",
    "betting_street",
    "board_layout",
    "boxed",
    "deal_order",
    "draw",
    "expectation",
    "exposed",
    "hand_end",
    "leave",
    "moving_on",
    "new_deal",
    "read",
    "remedy_due",
    "stub_shuffled",
]


def stub_shuffled(deal: Deal) -> Deal:
    """The dealer reshuffled the stub during the hand (a remedy: RR Section 5 Holdem r.7, the
    flop redealt; r.8, the premature turn and river). Card positions predicted before it no
    longer hold. A remedy waiting for the reshuffle moves on; the cards it sends back to the
    stub are gathered by it (a card lifted off the felt is not always read leaving)."""
    deal = replace(deal, stub_shuffles=deal.stub_shuffles + 1)
    rem = deal.remedy
    if rem is None or deal.off or deal.void:
        return deal
    at = next((i for i, s in enumerate(rem.steps) if s.kind == SHUFFLE), None)
    if at is None or any(s.kind == PUT for s in rem.steps[:at]):
        return deal  # not the reshuffle the remedy calls for now; the next card will tell
    back = tuple(s.uid for s in rem.steps[:at])
    deal = replace(deal, in_stub=(*deal.in_stub, *back))
    # The reshuffle ends the premature street: no card after it is the rest of that street
    # (RR Section 5, Holdem, r.7: after shuffling, "a new flop"), so no tail is waited for.
    return progressed(deal, replace(rem, steps=rem.steps[at + 1:], tail=0))


# --- a card leaves the shoe --------------------------------------------------------------------


def draw(
    deal: Deal, uid: str, card: str | None, face_up: bool, seq: int, b: BettingView, deck: str
) -> tuple[Deal, list[Finding]]:
    """A card left the shoe: check it against the expectation at this moment."""
    out: list[Finding] = []
    if any(x[0] == uid for x in deal.boxed) or any(x[0] == uid for x in deal.killed):
        return deal, out  # a boxed card is not dealt; a killed card is out of play
    if uid in deal.cards and uid not in deal.in_stub:
        return deal, out  # the same tag read again at the shoe: one card, not two
    # A tag a remedy returned to the stub is drawn again: a new card off the shoe (research
    # §3.5, legitimate re-reads), not a duplicate.
    n = deal.draws
    ctx = Context.of(b)
    c = CardState(uid=uid, card=card, n=n, seq=seq, ctx=ctx)
    deal = replace(deal, draws=n + 1, in_stub=tuple(u for u in deal.in_stub if u != uid))
    if not deal.void:
        if card is None:
            deal = flag(deal, make_finding("UNKNOWN_TAG", seq, fill={"uid": uid, "deck": deck},
                                           message=f"Tag {uid} is not in the registered deck."),
                        out)
        else:
            twins = [t for t in deal.known(card) if t.uid != uid]
            if twins:
                seats = sorted({int(t.zone[5:]) for t in twins if t.zone and t.zone[:5] == "seat:"})
                deal = flag(deal, make_finding(
                    "DUPLICATE_CARD", seq, seats=seats, cards=[card],
                    message=f"Tags {twins[0].uid} and {uid} both carry {card}."), out)
    if out:
        return with_card(deal, replace(c, how=FLAGGED)), out
    if n < deal.hole_total:
        if face_up:
            deal, c = exposure(deal, c, seq, out)
        return with_card(deal, c), out
    how = JUDGE_NOW
    m = deal.slot(n)
    rem = following(deal)
    if ctx.hand_over:
        if may_flag(deal, "DRAW_AFTER_HAND_END"):
            deal = flag(deal, make_finding("DRAW_AFTER_HAND_END", seq, cards=[c.name],
                                           message=f"{c.name} was drawn after everyone but one "
                                           "player had folded."), out)
        how = FLAGGED
    elif rem is not None and n >= rem.first:
        how = REMEDY  # judged against the remedy when its zone is read
    elif m >= len(POST_DEAL):
        if may_flag(deal, "UNEXPECTED_CARD"):
            deal = flag(deal, make_finding("UNEXPECTED_CARD", seq, cards=[c.name], fill={
                "detail": f"{c.name} left the shoe after the river: no more cards are dealt "
                "in this hand."}), out)
        how = FLAGGED
    elif ctx.early(POST_DEAL[m][1]):
        if ctx.rounds_done == 0:
            how = EXTRA_OR_FLOP  # an extra hole card or a premature burn: the zone will tell
        elif ctx.rounds_done == 1 and (ctx.street == 0 or ctx.street_actions == 0):
            how = FOUR_OR_TURN  # a fourth flop card or a premature turn burn
        else:
            code = PREMATURE[ctx.rounds_done + 1]
            if may_flag(deal, code):
                street = STREET_DEALT[ctx.rounds_done + 1]
                rem = premature_remedy(code, c, None, street, m, deal.draws)
                deal = flag(deal, make_finding(code, seq, cards=[c.name],
                                               expect=expect_of(premature_preview(street))),
                            out, rem)
            how = FLAGGED
    return with_card(deal, replace(c, how=how, m=m)), out


def exposed(deal: Deal, uid: str, by: str, seq: int) -> tuple[Deal, list[Finding]]:
    """The dealer's exposed-card key. A card a player exposes plays (RR Section 3,
    Irregularities, r.12); only dealer errors are irregular."""
    out: list[Finding] = []
    c = deal.cards.get(uid)
    if by != "dealer" or c is None or c.n >= deal.hole_total:
        return deal, out  # board cards are meant to be seen; a burn exposure has no rule
    deal, _ = exposure(deal, c, c.seq, out)
    return deal, out


def boxed(deal: Deal, uid: str, card: str | None, seq: int) -> tuple[Deal, list[Finding]]:
    """The dealer's boxed-card key: ``uid`` was found face up in the deck (RR Section 3,
    Irregularities, r.7: "a meaningless scrap of paper ... replaced by the next card below it").
    Reported before it is dealt, or as the card just drawn (which is then taken back out of the
    count: the next card takes its place). A second boxed card during the initial deal is a
    misdeal (RR Section 3, Misdeals, r.2(c)). The monitor then watches the scrap: read as a
    hole card, a burn or a board card it is REMEDY_NOT_FOLLOWED."""
    out: list[Finding] = []
    if any(b[0] == uid for b in deal.boxed):
        return deal, out
    c = deal.cards.get(uid)
    name = card or f"tag {uid}"
    if c is not None:
        if c.n != deal.draws - 1:
            detail = (f"{name} was dealt before it was reported boxed; a boxed card is reported "
                      "as it is found in the deck or as it leaves the shoe.")
            return deal, [make_finding("EVENT_OUT_OF_PLACE", seq, fill={"detail": detail},
                                       message=detail)]
        cards = dict(deal.cards)
        del cards[uid]
        extras = tuple(u for u in deal.extras if u != uid)
        # A scrap of paper is no extra card: a single extra waiting to be judged was this one.
        deal = replace(deal, cards=MappingProxyType(cards), draws=deal.draws - 1,
                       sequence=tuple(u for u in deal.sequence if u != uid),
                       exposed=tuple(u for u in deal.exposed if u != uid),
                       extras=extras, pending_extra=deal.pending_extra and bool(extras))
    initial = deal.draws < deal.hole_total
    deal = replace(deal, boxed=(*deal.boxed, (uid, name, initial)))
    in_deal = [b[1] for b in deal.boxed if b[2]]
    if initial and len(in_deal) >= 2:
        code = "MISDEAL_TWO_OR_MORE_BOXED_CARDS"
        if not deal.void:
            deal = flag(deal, make_finding(code, seq, cards=in_deal), out)
        return deal, out
    out.append(make_finding("BOXED_CARD_SINGLE", seq, cards=[name], expect=(("aside", name),)))
    return deal, out


# --- a card is read in a zone ------------------------------------------------------------------


def read(deal: Deal, uid: str, zone: str, seq: int) -> tuple[Deal, list[Finding]]:
    """A card is read in a zone: confirm or judge where the drawn card went."""
    out: list[Finding] = []
    c = deal.cards.get(uid)
    if c is None:
        return _scrap_read(deal, uid, zone, seq, out), out
    seq_order = (*(u for u in deal.sequence if u != uid), uid)
    first = not c.judged
    was = c.zone
    home = c.home or (zone if first and zone.startswith("seat:") and c.n < deal.hole_total
                      else "")
    mucked = c.mucked or (zone == "muck" and bool(home))
    back = c.mucked and zone == home
    c = replace(c, zone=zone, judged=True, home=home, mucked=mucked)
    # the new order and the card's new state in one new record (as with_card would set it)
    deal = replace(deal, sequence=seq_order, cards=MappingProxyType({**deal.cards, uid: c}))
    if back:
        deal = retrieved_hand(deal, c, seq, out)
    rem = following(deal)
    if rem is not None:
        if first and rem.anchor == uid:
            rem = anchored(rem, c, zone)
            deal = replace(deal, remedy=rem)
        lifted = picks(rem, was, RETURN) if was is not None and was != zone else None
        if lifted is not None:
            # a card of the zone the remedy picks from has left it (set aside on the way)
            rem = bind(rem, lifted, uid, c.name)
            rem = replace(rem, steps=rem.steps[:lifted] + rem.steps[lifted + 1:])
            deal = progressed(deal, rem)
            if deal.remedy is None:
                return deal, out
            rem = deal.remedy
        named = any(s.uid == uid for s in rem.steps) or (
            was is not None and picks(rem, was, PUT, zone) is not None)
        if (c.how == REMEDY and first) or (named and not first):
            return follow(deal, rem, c, zone, first, seq, out, was), out
    if not first or c.how in (FLAGGED, REMEDY):
        return deal, out
    if c.n < deal.hole_total:
        return judge_hole(deal, c, zone, out), out
    if deal.skipped:  # a card past the round: it is over
        deal = rule_passed_over(deal, True, out)
    if deal.pending_extra and not (c.how == EXTRA_OR_FLOP and zone.startswith("seat:")):
        deal, flushed = moving_on(deal)
        out.extend(flushed)
    if c.how == EXTRA_OR_FLOP:
        return judge_extra_or_flop(deal, c, zone, out), out
    if c.how == FOUR_OR_TURN:
        if zone == "board":
            return four_card_flop(deal, c, out), out
        if zone == "burn":
            return premature_at_read(deal, c, "TURN_PREMATURE", "turn", zone, out), out
        return flag_card(deal, c, "UNEXPECTED_CARD", zone, out), out
    return judge_slot(deal, c, zone, out), out


def _scrap_read(deal: Deal, uid: str, zone: str, seq: int, out: list[Finding]) -> Deal:
    """A boxed card read in a zone: set aside it is fine; in play it is a remedy not followed
    (RR Section 3, Irregularities, r.7: it is "a meaningless scrap of paper")."""
    scrap = next((b for b in deal.boxed if b[0] == uid), None)
    if scrap is None or deal.void or uid in deal.scraps_dealt:
        return deal
    if zone not in ("burn", "board") and not zone.startswith("seat:"):
        return deal
    deal = replace(deal, scraps_dealt=(*deal.scraps_dealt, uid))
    detail = f"{scrap[1]} was found boxed, a scrap of paper, but was read in {_zone_name(zone)}."
    want = f"{scrap[1]} stays aside and the next card below it replaces it"
    return flag(deal, not_followed(seq, detail, "BOXED_CARD_SINGLE", want, cards=[scrap[1]]),
                out)


def leave(deal: Deal, uid: str, zone: str) -> Deal:
    c = deal.cards.get(uid)
    if c is None or c.zone != zone:
        return deal
    deal = with_card(deal, replace(c, zone=None))
    rem = following(deal)
    if rem is None:
        return deal
    at = next((i for i, s in enumerate(rem.steps) if s.uid == uid), None)
    if at is None:
        picked = picks(rem, zone, RETURN)
        if picked is not None:
            rem = bind(rem, picked, uid, c.name)
            at = picked
    if at is None or rem.steps[at].kind != RETURN:
        return deal  # not due back in the stub yet (a premature turn card goes aside first)
    # The card goes back into the stub, as the remedy says.
    deal = replace(deal, in_stub=(*deal.in_stub, uid))
    return progressed(deal, replace(rem, steps=rem.steps[:at] + rem.steps[at + 1:]))


# --- the end of the hand -------------------------------------------------------------------------


def hand_end(deal: Deal, live: Sequence[int], hand_over: bool, size: int, seq: int
             ) -> tuple[Deal, list[Finding]]:
    """The award-pots key. The dealer has moved on (``moving_on``); at a showdown every live
    hand must hold exactly ``size`` cards in its seat zone, else it is dead
    (roberts-rules-v11.txt, Section 3, Dead Hands, r.1(d): "The hand does not contain the proper
    number of cards for that particular game"). The dead seats are the findings' seats."""
    deal, out = moving_on(deal)
    if deal.void or deal.off or hand_over:
        return deal, out
    for seat in sorted(live):
        cards = deal.hole(seat)
        if len(cards) == size:
            continue
        held = ", ".join(cards) or "no card"
        article = "an" if deal.game[:1].lower() in "aeiou" else "a"
        detail = (f"Seat {seat} holds {len(cards)} card(s) at the showdown ({held}); {article} "
                  f"{deal.game} hand has exactly {size}.")
        out.append(make_finding("HAND_WRONG_CARD_COUNT_DEAD", seq, seats=[seat], cards=cards,
                                fill={"detail": detail, "by": "monitor at the award",
                                      "cutoff": "the betting is over"}, message=detail))
    return deal, out


# --- what comes next -----------------------------------------------------------------------------


def remedy_due(deal: Deal) -> tuple[tuple[str, str], ...]:
    """The moves of the remedy being followed that are still due, in order, each as (the
    finding it remedies, "CODE (seq N)"; what to do): the first is the move expected now."""
    rem = following(deal)
    if rem is None:
        return ()
    return tuple((rem.after, s.says()) for s in rem.steps)


def expectation(deal: Deal, b: BettingView) -> str:
    """A short sentence of what the monitor expects next."""
    if deal.void:
        return "misdeal: waiting for the misdeal to be declared"
    if deal.off:
        return f"the floor's word on {deal.off} (the monitor has stopped for this hand)"
    if deal.remedy is not None:
        return f"the remedy of {deal.remedy.after}: {deal.remedy.wanted()}"
    if b.post_due is not None:
        seat, name = b.post_due
        return f"seat {seat} posts the {name}"
    if deal.draws < deal.hole_total:
        n = deal.draws
        return f"hole card {n + 1} of {deal.hole_total} to seat {deal.target(n)}"
    if b.hand_over:
        return "award the pot (no more cards)"
    m = deal.slot(deal.draws)
    if m >= len(POST_DEAL):
        return "award the pots" if b.no_more_betting else f"action on seat {b.to_act} (river)"
    want, rounds = POST_DEAL[m]
    street = STREET_DEALT[rounds]
    if not b.no_more_betting and b.rounds_done < rounds:
        if b.to_act is not None:
            return f"action on seat {b.to_act}"
        return f"the {betting_street(b)} betting"
    left = 3 - (m - 1) if street == "flop" and want == "board" else 1
    what = "burn, then the " + street if want == "burn" else (
        f"{left} more flop card(s)" if street == "flop" else f"the {street} card")
    return what + (" (no more betting)" if b.no_more_betting else "")


def betting_street(b: BettingView) -> str:
    return ("preflop", "flop", "turn", "river")[min(b.street, 3)]
