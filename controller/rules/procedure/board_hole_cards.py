"""The board games' initial deal, card by card: a hole card in the wrong place, a seat passed
over, a card to a seat not in the hand, an exposed hole card, an extra card, a mucked hand read
back in its seat.

The misdeal list is ruled once for every game (``initial_deal.py``); this module keeps the board
procedure's books around it: a card that passed over its seat is ruled from the cards that follow
or from the round's counts (``rule_passed_over``); a card killed or boxed is taken out of the
count; the first exposed hole card and a single extra card start their remedies (RR Section 5,
Holdem, r.1, r.2; Section 3, Irregularities, r.11), the second of either is a misdeal. Pure: no
I/O.
"""

from __future__ import annotations

from types import MappingProxyType

from controller.poker.records import replace
from controller.rules.findings import ORDINALS, Finding, make_finding
from controller.rules.procedure.board_state import (
    CardState,
    Deal,
    Remedy,
    expect_of,
    flag,
    flag_card,
    may_flag,
)
from controller.rules.procedure.board_streets import premature_at_read
from controller.rules.procedure.initial_deal import KILLED, WrongPlace, passed_over, wrong_place
from controller.rules.procedure.remedy import PUT, Step


def exposure(deal: Deal, c: CardState, seq: int, out: list[Finding]) -> tuple[Deal, CardState]:
    """A hole card exposed by the dealer (shoe face-up flag or the exposed-card key)."""
    if c.uid in deal.exposed:
        return deal, c
    deal = replace(deal, exposed=(*deal.exposed, c.uid))
    seat = deal.target(c.n)
    # The first card exposed, or the first two (the house setting first_cards_exposed, D-03:
    # RRH Section 5 Hold'em r.1 names only the first)
    misdeal_cards = 1 if deal.first_exposed == "first" else 2
    if c.n < misdeal_cards:
        code = "MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED"
        if may_flag(deal, code):
            deal = flag(deal, make_finding(code, seq, seats=[seat], cards=[c.name],
                                           fill={"ordinal": ORDINALS[c.n]}), out)
    elif len(deal.exposed) == 1:
        code = "HOLECARD_EXPOSED_SINGLE_REPLACE"
        if may_flag(deal, code):
            # RR Section 5, Holdem, r.1: "After completing the hand, the dealer replaces the card
            # with the top card on the deck, and the exposed card is then used for the
            # burncard": the first card after the deal goes to the seat, the exposed card to
            # the burn, and the flop follows without another burn.
            steps = (Step(PUT, f"seat:{seat}"), Step(PUT, "burn", c.uid, c.name))
            rem = Remedy(code, seq, steps, resume=1, first=deal.hole_total)
            deal = flag(deal, make_finding(code, seq, seats=[seat], cards=[c.name],
                                           expect=expect_of(steps),
                                           setting="first" if c.n < 2 else ""), out, rem)
    else:
        code = "MISDEAL_TWO_OR_MORE_CARDS_EXPOSED"
        if may_flag(deal, code):
            ex = [deal.cards.get(u, c) for u in deal.exposed]
            seats = sorted({deal.target(e.n) for e in ex})
            deal = flag(deal, make_finding(code, seq, seats=seats, cards=[e.name for e in ex]),
                        out)
    return deal, c


def retrieved_hand(deal: Deal, c: CardState, seq: int, out: list[Finding]) -> Deal:
    """A hole card read in the muck is read back in its seat: the mucked hand was retrieved
    (roberts-rules-v11.txt, Section 3, Dead Hands, r.2: "Cards thrown into the muck may be ruled
    dead. However, a hand that is clearly identifiable may be retrieved and ruled live at
    management's discretion"). The muck log names the cards; the floor decides."""
    seat = int(c.home[5:])
    if deal.void or seat in deal.retrieved:
        return deal
    cards = [x.name for x in sorted(deal.cards.values(), key=lambda x: x.n)
             if x.home == c.home and x.mucked]
    out.append(make_finding("MUCKED_HAND_RETRIEVAL", seq, seats=[seat], cards=cards))
    return replace(deal, retrieved=(*deal.retrieved, seat))


def judge_hole(deal: Deal, c: CardState, zone: str, out: list[Finding]) -> Deal:
    if deal.skipped:
        return _after_skip(deal, c, zone, out)
    expected = deal.target(c.n)
    if zone == f"seat:{expected}":
        return deal
    landed = int(zone[5:]) if zone.startswith("seat:") else None
    nxt = deal.target(c.n + 1) if c.n + 1 < deal.hole_total else None
    if (landed is not None and landed == nxt and expected == deal.order[-1]
            and deal.button_skip < 0 and deal.short_hand == "button_two_consecutive"):
        return _button_passed(deal, c, landed, out)
    if landed is not None and c.n > 0 and landed == nxt:
        # The due seat was passed over. Whether that is a card out of sequence, a seat dealt
        # out or a seat short is known only from the cards that follow (_after_skip).
        return replace(deal, skipped=c.uid) if not deal.void and not deal.off else deal
    # no board game keeps the lowball misdeal list
    ruling = wrong_place(first=c.n == 0, due=expected, zone=zone, dealt_in=deal.order,
                         owes=deal.owes, why=deal.why, empty_seat=deal.empty_seat,
                         lowball=False)
    if ruling.code == KILLED:
        return _killed(deal, c, ruling, out)
    if not may_flag(deal, ruling.code):
        return deal
    return flag(deal, ruling.finding(c.seq, c.name), out)


def _after_skip(deal: Deal, c: CardState, zone: str, out: list[Finding]) -> Deal:
    """A hole card after one that passed over its seat (``Deal.skipped``). The card right after
    it going to the seat passed over is two cards swapped: out of sequence (RR Section 3,
    Misdeals, r.2(f)). Otherwise the dealing is off its sequence, its cards are not judged one
    by one, and the counts are judged when the round is complete (``rule_passed_over``): at its
    last card here, or when the dealer moves on (``moving_on``)."""
    first = deal.cards.get(deal.skipped)
    if first is None:  # that card was taken out of the count since (boxed): judge this one
        return judge_hole(replace(deal, skipped=""), c, zone, out)
    due = deal.target(first.n)
    if c.n == first.n + 1 and zone == f"seat:{due}":
        deal = replace(deal, skipped="")
        ruling = wrong_place(first=False, due=due, zone=first.home or first.zone or "",
                             dealt_in=deal.order, owes=deal.owes, why=deal.why,
                             empty_seat=deal.empty_seat, lowball=False)
        if not may_flag(deal, ruling.code):
            return deal
        return flag(deal, ruling.finding(first.seq, first.name), out)
    if c.n == deal.hole_total - 1 or not zone.startswith("seat:"):
        return rule_passed_over(deal, True, out)
    return deal


def rule_passed_over(deal: Deal, complete: bool, out: list[Finding]) -> Deal:
    """Rule the card that passed over its seat (``Deal.skipped``) from the round's counts
    (``initial_deal.passed_over``; ``complete``: the round of dealing is over)."""
    first = deal.cards.get(deal.skipped)
    deal = replace(deal, skipped="")
    if first is None:
        return deal
    # the cards each seat was dealt in the round (not what it holds now: a Pineapple hand may
    # have discarded already)
    homes = [x.home for x in deal.cards.values()]
    counts = {s: homes.count(f"seat:{s}") for s in deal.order}
    ruling = passed_over(due=deal.target(first.n), zone=first.home or first.zone or "",
                         counts=counts, size=deal.hole_cards,
                         complete=complete or deal.draws >= deal.hole_total)
    if not may_flag(deal, ruling.code):
        return deal
    return flag(deal, ruling.finding(first.seq, first.name), out)


def _killed(deal: Deal, c: CardState, ruling: WrongPlace, out: list[Finding]) -> Deal:
    """A hole card dealt to a seat not in the hand, under the house setting empty_seat_cards =
    killed_except_lowball (research D-04: WSOP's misdeal list, Section 3 Misdeals r.1, has no
    such item; what becomes of the card is NOT IN THE RULEBOOKS). The card is dead: it is taken
    out of the count, as a boxed card is, so the next card is due to the seat this one was due
    to; its later reads are not judged. Raised once per seat."""
    code = ruling.code
    if not may_flag(deal, code):
        return deal
    seat = ruling.seats[0]
    if all(k[2] != seat for k in deal.killed):
        out.append(ruling.finding(c.seq, c.name))
    killed = (*deal.killed, (c.uid, c.name, seat))
    if c.n != deal.draws - 1:
        # a later card has left the shoe already: the count can no longer be mended
        return replace(deal, killed=killed, off=code)
    cards = dict(deal.cards)
    del cards[c.uid]
    return replace(deal, cards=MappingProxyType(cards), draws=deal.draws - 1, killed=killed,
                   sequence=tuple(u for u in deal.sequence if u != c.uid),
                   exposed=tuple(u for u in deal.exposed if u != c.uid))


def _button_passed(deal: Deal, c: CardState, landed: int, out: list[Finding]) -> Deal:
    """The button passed over on a pass of the deal, under the house setting
    short_hand_exception = button_two_consecutive (research D-34; AZW Section 5 Misdeals (TDA
    #34) r.1(f): "Players may be dealt 2 consecutive cards on the button"): not a misdeal; the
    deal goes on one seat further and the button gets the last card (``Deal.target``)."""
    code = "BUTTON_DEALT_TWO_CONSECUTIVE"
    if not may_flag(deal, code):
        return deal
    button = deal.order[-1]
    out.append(make_finding(code, c.seq, seats=[button], cards=[c.name],
                            fill={"landed": landed}, expect=((f"seat:{button}", None),)))
    return replace(deal, button_skip=c.n)


def judge_extra_or_flop(deal: Deal, c: CardState, zone: str, out: list[Finding]) -> Deal:
    if zone.startswith("seat:"):
        # After the starting hands and before the first betting round: an extra card
        # (RR Section 3, Irregularities, r.11; Section 3, Misdeals, r.2(d)).
        deal = replace(deal, extras=(*deal.extras, c.uid))
        if len(deal.extras) == 1:
            return replace(deal, pending_extra=True)
        code = "MISDEAL_TWO_OR_MORE_EXTRA_CARDS"
        deal = replace(deal, pending_extra=False)
        if not may_flag(deal, code):
            return deal
        ex = [deal.cards[u] for u in deal.extras]
        seats = [int(e.zone[5:]) for e in ex if e.zone and e.zone.startswith("seat:")]
        return flag(deal, make_finding(code, c.seq, seats=seats, cards=[e.name for e in ex]),
                    out)
    if zone in ("burn", "board"):
        return premature_at_read(deal, c, "FLOP_PREMATURE", "flop", zone, out)
    return flag_card(deal, c, "UNEXPECTED_CARD", zone, out)


def moving_on(deal: Deal, dealt: bool = True) -> tuple[Deal, list[Finding]]:
    """The dealer has moved on (an action, a card elsewhere, the hand's end; ``dealt``: to the
    betting or the board, so the round of dealing is over, unlike a misdeal declared in the
    middle of it): a seat passed over is ruled from the counts, and a single extra card is now
    known to be one extra card, not the first of two."""
    out: list[Finding] = []
    if deal.skipped:
        deal = rule_passed_over(deal, dealt, out)
    if not deal.pending_extra:
        return deal, out
    deal = replace(deal, pending_extra=False)
    c = deal.cards[deal.extras[0]]
    code = "EXTRA_CARD_SINGLE_BECOMES_BURN"
    if not may_flag(deal, code):
        return deal, out
    seat = int(c.zone[5:]) if c.zone and c.zone.startswith("seat:") else deal.order[0]
    # RR Section 3, Irregularities, r.11; Section 5, Holdem, r.2: "returned to the deck and
    # used as the burncard": that same tag is the next burn, then the flop.
    steps = (Step(PUT, "burn", c.uid, c.name, rounds=1),)
    rem = Remedy(code, c.seq, steps, resume=1, first=deal.draws)
    deal = replace(deal, in_stub=(*deal.in_stub, c.uid))
    deal = flag(deal, make_finding(code, c.seq, seats=[seat], cards=[c.name],
                                   expect=expect_of(steps)), out, rem)
    return deal, out
