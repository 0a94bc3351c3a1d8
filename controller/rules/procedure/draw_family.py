"""The draw family's own rules: a card exposed on the deal or on the draw (dealt face up or
keyed exposed by the dealer), the five-card rule, the draw in turn, a short hand before the draw
(roberts-rules-v11.txt, Sections 11 and 12; WSOP Section 12 Badugi). Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from controller.poker.records import replace
from controller.rules.findings import Finding, make_finding
from controller.rules.procedure.game_hand import (
    DISCARD,
    HOLE,
    CardSeen,
    DrawTurn,
    GameHand,
    Slot,
    counted,
    dealt_since_betting,
    feed,
    feed_discard,
    flag,
    put,
    rebuilt,
    ref,
    run_or_keep,
    unexpected,
    unfeed,
    with_key,
)

# Exposed before the draw, the ranks a player must take (research §1.N table; RR Section 11
# Ace-to-Five r.3, Deuce-to-Seven r.2, No-Limit and Pot-Limit Lowball r.2; Section 12 r.4; WSOP
# Section 12 Badugi r.6). Any other exposed card is replaced once the deal is complete. None:
# every exposed card is kept (draw high).
MUST_TAKE: Mapping[str, str | None] = MappingProxyType({
    "draw5": None, "draw5_jacks": None, "draw5_joker": None,  # RR Section 12 Draw High r.4
    # RR Section 11 Ace-to-Five r.3 (limit): seven or under; WSOP: five or under (the house
    # setting a5_exposed_take, A5_FIVE_OR_UNDER)
    "a5_lowball": "A234567",
    "27_single": "23457",  # RR Section 11 NL/PL Lowball r.2(b)
    "27_triple": "23457",  # RR Section 11 Deuce-to-Seven r.2
    "badugi": "A234",  # WSOP Section 12 Badugi r.6
})


A5_FIVE_OR_UNDER = "A2345"  # WSOP Section 11 Ace-to-Five r.3


HAND_SIZE_AFTER_DRAW = {"badugi": 4}  # every other draw game: five (RR Section 11 r.12)


def draw_exposed_deal(h: GameHand, c: CardSeen, seat: int, seq: int, out: list[Finding], *,
                      fed: bool = False) -> GameHand:
    """A card of the initial deal dealt face up in a draw game. The misdeal list applies (RR
    Section 11 r.1, Section 12 r.3): the first or second card, or a second exposed card, is a
    misdeal; otherwise the game's table says whether the player must take it or it is replaced
    once the deal is complete (MUST_TAKE)."""
    count = h.exposed_deal + 1
    h = replace(h, exposed_deal=count)
    if c.n < 2:
        return flag(h, make_finding("MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED", seq, seats=[seat],
                                    cards=[c.name],
                                    fill={"ordinal": ("first", "second")[c.n]}), out)
    if count >= 2:
        shown = [o.name for o in h.cards.values() if o.face_up and o.judged and o.zone
                 and o.zone.startswith("seat:")]
        return flag(h, make_finding("MISDEAL_TWO_OR_MORE_CARDS_EXPOSED", seq,
                                    cards=shown or [c.name]), out)
    return _predraw_exposed(h, c, seat, seq, out, fed=fed)


def _predraw_exposed(h: GameHand, c: CardSeen, seat: int, seq: int, out: list[Finding], *,
                     fed: bool) -> GameHand:
    must = MUST_TAKE.get(h.variant.id)
    if h.variant.id == "a5_lowball" and h.rules.a5_exposed_take == "five_or_under":
        must = A5_FIVE_OR_UNDER
    rank = (c.card or "?")[0]
    take = must is None or rank in must
    if take:
        what = f"seat {seat} must take {c.name}: the player has no option"
    else:
        what = (f"{c.name} is replaced once the deal is complete: the next card off the deck "
                f"goes to seat {seat}, and {c.name} is used as the burn card")
    f = make_finding("DRAW_PREDRAW_EXPOSED_CARD", seq, seats=[seat], cards=[c.name],
                     fill={"what": what, "game": h.variant.name})
    out.append(f)
    if take:
        return h if fed else feed(h, c, seat)
    if fed:
        h = unfeed(h, c)
    # RR Section 11, Ace-to-Five Lowball, r.3: "replaced after the deal has been completed.
    # This first exposed card is used as the burncard": the replacement, then the exposed card
    # to the burn; burned first it ends in the same cards, so either order is taken.
    return replace(h, owed=with_key(h.owed, seat, h.owed.get(seat, 0) + 1),
                   owed_after_deal=(*h.owed_after_deal,
                                    put(f"seat:{seat}", None, False, ref(f),
                                           f"the next card goes to seat {seat}, face down"),
                                    put("burn", c.uid, None, ref(f),
                                           f"{c.name} goes to the burn", any_order=True)))


def draw_exposed_on_draw(h: GameHand, c: CardSeen, seat: int, seq: int, out: list[Finding]
                         ) -> GameHand:
    """A replacement card dealt face up (roberts-rules-v11.txt, Section 11 Lowball r.9, Section
    12 Draw High r.8: "On the draw, an exposed card cannot be taken. The draw is completed to
    each player in order, and then the exposed card is replaced.")."""
    if h.turn is not None and h.turn.seat == seat and not h.turn.fed:
        h = feed_discard(h)  # the player did discard: only the exposed card is not taken
    others = [s for s in h.live if s != seat]
    f = make_finding("DRAW_EXPOSED_ON_DRAW", seq, seats=[seat], cards=[c.name], fill={
        "others": ", ".join(str(s) for s in others) or "none"})
    out.append(f)
    h = replace(h, deferred=with_key(h.deferred, seat, h.deferred.get(seat, 0) + 1))
    return replace(h, expect=(*h.expect, put("muck", c.uid, None, ref(f),
                                                f"{c.name} cannot be taken: it goes to the "
                                                "muck")))


def draw_extra(h: GameHand, c: CardSeen, seat: int, seq: int, out: list[Finding],
               due: int | None) -> GameHand:
    """A card to a seat during the draw that is not the card due."""
    t = h.turn
    if t is not None and seat == t.seat and t.asked == 5 and t.given == 4 and due != seat:
        # RR Section 11 r.10: four at once, the fifth after everyone else has drawn
        f = make_finding("DRAW_FIVE_CARDS_RULE", seq, seats=[seat], cards=[c.name])
        out.append(f)
        h = replace(h, deferred=with_key(h.deferred, seat, None))
        h = feed(h, c, seat)
        return replace(h, turn=replace(t, given=5), deferred_five=None)
    last = t.seat if t is not None else None
    if seat == last or (t is None and h.eng.street > 0 and seat in h.live):
        held = len(h.hole(seat))
        size = HAND_SIZE_AFTER_DRAW.get(h.variant.id, 5)
        f = make_finding("DRAW_WRONG_COUNT_AFTER_DRAW", seq, seats=[seat], cards=[c.name],
                         fill={"held": held, "size": size})
        out.append(f)
        return replace(h, dead=(*h.dead, seat))
    why = f"the next card was due to seat {due}" if due else "no card is due now"
    return unexpected(h, c, f"seat:{seat}", seq, out, why)


def draw_request(h: GameHand, seat: int, asked: int, seq: int, out: list[Finding]
                 ) -> GameHand:
    """A player asks for cards on the draw, in turn (RR Section 11 r.9). A second request from
    the same seat on this draw changes the number asked for only as RR Section 11 r.11 allows
    (``_change_request``)."""
    t = h.turn
    if t is not None and t.seat == seat:
        return _change_request(h, t, asked, seq, out)
    if h.asked_on.get(seat) == h.eng.street:
        # the seat's turn is closed: the next player has asked, or the betting has begun
        return _refuse_change(h, seat, asked, "another player has acted on it (asked for "
                              "cards, or the betting has begun)", seq, out)
    h = close_turn(h, seq, out)
    e = h.eng
    d = e.discarder
    if d is None or h.seats[d] != seat:
        who = f"seat {h.seats[d]} draws next" if d is not None else "no draw is due now"
        detail = f"Seat {seat} asked for {asked} card(s): {who}."
        out.append(make_finding("ACTION_NOT_AVAILABLE", seq, seats=[seat],
                                fill={"detail": detail}, message=detail))
        return h
    if _too_many(h, seat, asked, seq, out):
        return h
    total = asked + h.placeholders.get(seat, 0)
    left = len(h.variant.deck_cards) - h.draws
    burn = 1 if h.burned != e.street and total else 0
    if total + burn > left and not h.relaxed:
        f = make_finding("DRAW_DECK_EXHAUSTED", seq, seats=[seat], fill={
            "left": left, "asked": total}, setting=h.rules.draw_deck_exhausted)
        out.append(f)
        h = replace(h, relaxed=True, expect=())
    h = replace(h, turn=DrawTurn(seat, total, at=h.draws), last_asker=seat,
                drawn=with_key(h.drawn, seat, (*h.drawn.get(seat, ()), asked)),
                asked_on=with_key(h.asked_on, seat, e.street))
    if _fifth_later(h, total):
        h = replace(h, deferred=with_key(h.deferred, seat, 1), deferred_five=seat)
    if total == 0:
        h = feed_discard(h)
    return h


def _too_many(h: GameHand, seat: int, asked: int, seq: int, out: list[Finding]) -> bool:
    """A request for more cards than the game lets a player draw: not taken."""
    limit = h.variant.max_draw
    if asked <= limit:
        return False
    detail = f"Seat {seat} asked for {asked} cards; at most {limit} may be drawn."
    out.append(make_finding("ACTION_NOT_AVAILABLE", seq, seats=[seat], fill={"detail": detail},
                            message=detail))
    return True


def _fifth_later(h: GameHand, total: int) -> bool:
    """RR Section 11 r.10 (the house setting ``draw_max_consecutive``): a player drawing five
    gets the fifth card after everyone else has drawn."""
    return total == 5 and h.variant.max_draw == 5 and h.rules.draw_max_consecutive == 4


def _change_request(h: GameHand, t: DrawTurn, asked: int, seq: int, out: list[Finding]
                    ) -> GameHand:
    """The player drawing now asks for another number (RR Section 11 r.11; Section 12 r.7):
    allowed while no card has come off the deck since the request, the burn included (a), and
    no one has acted on it (b: the next player has not asked, which closes this turn)."""
    old = h.drawn[t.seat][-1]
    if asked == old:
        return h  # the same number said again
    if h.draws > t.at or t.given:
        return _refuse_change(h, t.seat, asked, "a card has been dealt off the deck in "
                              "response to the request", seq, out)
    if _too_many(h, t.seat, asked, seq, out):
        return h
    p = h.pos(t.seat)
    if t.fed and p is not None:
        # standing pat was given to the engine at once: take that discard back out
        last = h.log[-1] if h.log else None
        if last is None or last[0] != DISCARD or last[1] != p:
            return _refuse_change(h, t.seat, asked, "the draw has moved on", seq, out)
        h = rebuilt(h, h.log[:-1])
    missing = h.placeholders.get(t.seat, 0)
    total = asked + missing
    out.append(make_finding("DRAW_CHANGE_NUMBER_REQUESTED", seq, seats=[t.seat], fill={
        "old": old, "new": asked, "ruling": (
            f"No card has been dealt in response and no player has acted on it: the change is "
            f"allowed. Seat {t.seat} draws {asked}.")}))
    five = _fifth_later(h, total)
    h = replace(h, turn=DrawTurn(t.seat, total, discards=t.discards, at=t.at),
                drawn=with_key(h.drawn, t.seat, (*h.drawn[t.seat][:-1], asked)),
                deferred=with_key(h.deferred, t.seat, 1 if five else None),
                deferred_five=t.seat if five else (
                    None if h.deferred_five == t.seat else h.deferred_five))
    if total == 0:
        h = feed_discard(h)
    return h


def _refuse_change(h: GameHand, seat: int, asked: int, why: str, seq: int,
                   out: list[Finding]) -> GameHand:
    """A change of the number of cards asked for that comes too late: the first number stands
    (RR Section 11 r.11)."""
    old = h.drawn[seat][-1] if h.drawn.get(seat) else 0
    out.append(make_finding("DRAW_CHANGE_NUMBER_REQUESTED", seq, seats=[seat], fill={
        "old": old, "new": asked, "ruling": (
            f"Too late to change: {why}. The request stands: seat {seat} draws {old}.")}))
    return h


def drawn_answer(h: GameHand, seat: int) -> int | None:
    """How many cards ``seat`` drew on the draw now being played, while the table may still
    say: "until there has been action after the draw" (RR Section 11 r.13; Section 12 r.9).
    None: the seat has not drawn on this draw, or there has been action after it."""
    street = h.eng.street
    if h.family != "draw" or h.asked_on.get(seat) != street or h.draw_locked >= street:
        return None
    return h.drawn[seat][-1]


def close_turn(h: GameHand, seq: int, out: list[Finding]) -> GameHand:
    """The next player asks (or the betting starts): the player before has all the cards it
    will get now; a wrong count is a fouled hand (RR Section 11 r.12; Section 12 r.5)."""
    t = h.turn
    if t is None:
        return h
    if not t.fed:
        h = feed_discard(h)
    held_back = h.deferred.get(t.seat, 0)
    if t.given + held_back < t.asked and not h.relaxed and t.seat not in h.dead:
        size = HAND_SIZE_AFTER_DRAW.get(h.variant.id, 5)
        f = make_finding("DRAW_WRONG_COUNT_AFTER_DRAW", seq, seats=[t.seat], fill={
            "held": len(h.hole(t.seat)), "size": size})
        out.append(f)
        h = replace(h, dead=(*h.dead, t.seat))
    return replace(h, turn=None)


def short_deal(h: GameHand, seq: int, out: list[Finding]) -> GameHand:
    """The first action with the initial deal incomplete: a short hand (draw high RR Section 12
    r.5, lowball Section 11 r.12: the button may still receive its missing card; another short
    player completes the hand on the draw). The engine is given placeholders so the betting can
    go on; the real cards take their place when they come."""
    e = h.eng
    if h.family != "draw" or e.street != 0 or e.actor is not None or h.acted or h.owed:
        return h
    short = [(s, e.hole_needed(i)) for i, s in enumerate(h.seats) if e.hole_needed(i) > 0]
    if not short or any(x.zone.startswith("seat:") for x in h.expect):
        return h
    button = h.seats[-1]
    for seat, k in short:
        # The house setting dead_hand_card_count (research D-21): RR's "at lowball and draw
        # high a hand with too few cards before the draw is live"; AZW's Dead Hands r.1(d) has
        # no exception, so a short hand the button rule does not complete is dead.
        dead = seat != button and h.rules.dead_hand_card_count == "no_exceptions"
        f = make_finding("DRAW_SHORT_HAND_PREDRAW", seq, seats=[seat], fill={
            "missing": k, "now": ("the button may receive its missing card now"
                                  if seat == button else
                                  "action has been taken: the player draws the missing card(s) "
                                  "on the draw")},
            setting="no_exceptions" if dead else "")
        out.append(f)
        if dead:
            h = replace(h, dead=(*h.dead, seat),
                        dead_after=MappingProxyType({**h.dead_after, seat: ref(f)}))
        p = h.seats.index(seat)
        for _ in range(k):
            h = run_or_keep(h, (HOLE, p, (None,)))
        h = replace(h, placeholders=with_key(h.placeholders, seat, k))
        if seat == button:
            h = replace(h, expect=(*h.expect, *(put(f"seat:{seat}", None, False, ref(f),
                                                       f"the button's missing card to seat "
                                                       f"{seat}") for _ in range(k))))
    return h


def draw_to_due_seat(h: GameHand, c: CardSeen, slot: Slot, seq: int, out: list[Finding]
                     ) -> GameHand:
    """A draw game's card went to the seat due it: face up it is an exposed card (on the deal or
    on the draw); face down it is given to the seat and counted."""
    seat = slot.seat
    assert seat is not None
    if c.face_up:
        if h.eng.street == 0:
            return draw_exposed_deal(h, c, seat, seq, out)
        return draw_exposed_on_draw(h, c, seat, seq, out)
    h = feed(h, c, seat)
    return counted(h, seat)


def draw_exposed_key(h: GameHand, c: CardSeen, seat: int, seq: int, out: list[Finding]
                     ) -> GameHand:
    """The dealer's exposed key on a draw game's card already given to ``seat`` (``c``, now face
    up): a card of the initial deal, or a replacement just given on the draw, is ruled as if dealt
    face up; a card the player held from before stays where it is."""
    e = h.eng
    if e.street == 0 and not h.acted:
        return draw_exposed_deal(h, c, seat, seq, out, fed=True)
    if _given_this_turn(h, c):
        h = unfeed(h, c)
        h = _counted_back(h, seat)
        return draw_exposed_on_draw(h, c, seat, seq, out)
    return h


def _given_this_turn(h: GameHand, c: CardSeen) -> bool:
    """Is ``c`` a replacement card of the player drawing now (given after the discard)? Only
    such a card is "exposed on the draw" (roberts-rules-v11.txt, Section 11 Lowball r.9);
    a card the player held from before is not taken back out of the engine, whose later
    commands (the betting, the discard) depend on it."""
    t = h.turn
    p = h.pos(t.seat) if t is not None else None
    if t is None or not t.fed or p is None or c.seat != t.seat:
        return False
    # the discard (or a bet) after the card: it was dealt before the draw
    return dealt_since_betting(h, p, c.card)


def _counted_back(h: GameHand, seat: int) -> GameHand:
    t = h.turn
    if t is None or t.seat != seat or t.given == 0:
        return h
    return replace(h, turn=replace(t, given=t.given - 1))
