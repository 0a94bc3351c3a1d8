"""The card judging stud and draw share: every card off the shoe and every zone read, against
the card the procedure expects next (``game_hand.expected``) and the remedy moves due.

What the procedure expects at stud and draw (research/irregularities.md §1.M
STUD_DEAL_BASELINE, §1.N DRAW_DEAL_BASELINE):

- stud (roberts-rules-v11.txt, Section 8, intro and r.2): no burn before third street; two down
  cards and one up card, one card at a time, seat 1 first (the dealer is the fixed reference);
  then for each of fourth to seventh street a burn and one card to each player still in, face up
  on fourth to sixth, face down on seventh; each street only once the betting before it is over;
- draw (RR Section 11 Lowball, Section 12 Draw High; WSOP Section 12 Badugi): five cards (badugi
  four) one at a time, left of the button first, no burn; after the betting, each draw in turn:
  the player asks (``action draw``), the discards reach the muck, the replacements follow; the
  first card off the deck in a draw round is the burn; at most four consecutive cards to one
  player (RR Section 11 r.10).

Every card is judged on its first zone read against what is expected then. A finding whose
remedy fixes the next cards (an exposed stud down card: the third card comes face down; a
missing burn: that card goes to the burn; a premature stud street: the cards set aside) leaves an
expectation the monitor checks; a card elsewhere raises REMEDY_NOT_FOLLOWED. A misdeal-level
finding voids the hand: the monitor stops judging until ``misdeal.declared``. What only one
family does is its own module's (``stud_family.py``, ``draw_family.py``); the dealer's exposed and
boxed keys and the showdown are here too. Pure: no I/O.
"""

from __future__ import annotations

from types import MappingProxyType

from controller.poker.pots import PotAward
from controller.poker.records import replace
from controller.poker.variants import JOKER
from controller.rules import engine
from controller.rules.findings import Finding, make_finding
from controller.rules.procedure.board import by_seat, foreign_card
from controller.rules.procedure.draw_family import (
    HAND_SIZE_AFTER_DRAW,
    close_turn,
    draw_exposed_key,
    draw_extra,
    draw_to_due_seat,
)
from controller.rules.procedure.game_hand import (
    BOARD,
    FIVE_BURN,
    HOLE,
    CardSeen,
    GameHand,
    Slot,
    counted,
    expected,
    feed,
    flag,
    put,
    ref,
    run_or_keep,
    show_down,
    street_name,
    unexpected,
    unfeed,
    with_card,
)
from controller.rules.procedure.initial_deal import (
    KILLED,
    LOWBALL_MISDEALS,
    MISSED_BLIND,
    wrong_place,
)
from controller.rules.procedure.remedy import not_followed, went_to
from controller.rules.procedure.stud_family import (
    back_from_aside,
    free_fold_passed,
    premature_card,
    stud_exposed_key,
    stud_to_due_seat,
)


def draw(h: GameHand, uid: str, card: str | None, face_up: bool, seq: int, deck: str
         ) -> tuple[GameHand, list[Finding]]:
    """A card left the shoe: the tag checks (unknown, joker, duplicate) happen now, before any
    player can act on the card; where it went is judged at its zone read."""
    out: list[Finding] = []
    old = h.cards.get(uid)
    redrawn = old is not None and (
        (h.relaxed and old.zone in ("burn", "aside", "muck", None)) or back_from_aside(h, old))
    if old is not None and not redrawn:
        return h, out  # the same tag read again at the shoe: one card, not two
    if old is not None and old.uid in h.aside:
        # a set-aside card back in the stub for the final street: a new card, at the end of the
        # deal's order
        h = replace(h, aside=tuple(u for u in h.aside if u != uid),
                    cards=MappingProxyType({u: x for u, x in h.cards.items() if u != uid}))
    c = CardSeen(uid=uid, card=card, n=h.draws, seq=seq, face_up=face_up,
                 betting_open=h.betting_open)
    h = replace(h, draws=h.draws + 1)
    if h.void:
        return with_card(h, replace(c, judged=True)), out
    if h.off:
        # The monitor has stopped judging (a misdeal-level finding the cut-off made the hand
        # play on, or a floor ruling): the card is taken where it lands, for the engine.
        return with_card(h, c), out
    if card is None:
        h = flag(h, make_finding("UNKNOWN_TAG", seq, fill={"uid": uid, "deck": deck or "none"}),
                 out)
        return with_card(h, replace(c, judged=True)), out
    if card == JOKER and h.variant.deck != "joker":
        # "A joker that appears in a game where it is not used is treated as a scrap of paper.
        # Discovery of a joker does not cause a misdeal." (roberts-rules-v11.txt, Section 3,
        # Irregularities, r.8): the shoe sees it before any player can act on it, so it is
        # replaced like a boxed card: the next card goes where it was going.
        slot = expected(h)
        where = f"seat {slot.seat}" if slot.kind == "seat" else f"the {slot.kind}"
        f = make_finding("JOKER_IN_NON_JOKER_GAME", seq, seats=[slot.seat] if slot.seat else [],
                         cards=[JOKER], fill={"where": where})
        out.append(f)
        return with_card(h, replace(c, judged=True)), out
    if card not in h.variant.deck_cards:
        h = foreign_card(h, card, seq, out)
        return with_card(h, replace(c, judged=True)), out
    if not h.relaxed:
        twins = [o for o in h.cards.values() if o.card == card and o.uid != uid]
        if twins:
            held_at = [o.seat for o in twins if o.seat is not None]
            h = flag(h, make_finding("DUPLICATE_CARD", seq, seats=held_at, cards=[card]), out)
            return with_card(h, replace(c, judged=True)), out
    return with_card(h, c), out


def read(h: GameHand, uid: str, zone: str, seq: int, card: str | None, deck: str
         ) -> tuple[GameHand, list[Finding]]:
    """A card is read in a zone: its first read is judged against what is expected then
    (``_judge``); a later read is a move (``_moved``)."""
    out: list[Finding] = []
    if uid not in h.cards:
        # The shoe did not report it: count it as drawn now, then read it.
        h, out = draw(h, uid, card, False, seq, deck)
    c = h.cards[uid]
    if c.zone == zone:
        return h, out
    if zone == "aside" and uid not in h.aside:
        h = replace(h, aside=(*h.aside, uid))
    if not c.judged:
        h = with_card(h, replace(c, zone=zone, judged=True))
        h = _judge(h, replace(c, zone=zone, judged=True), zone, seq, out)
    else:
        h = with_card(h, replace(c, zone=zone))
        h = _moved(h, replace(c, zone=zone), zone, seq, out, was=c.zone)
    return h, out


def leave(h: GameHand, uid: str, zone: str) -> GameHand:
    """A card read leaving its zone: it lies nowhere until its next read."""
    c = h.cards.get(uid)
    if c is None or c.zone != zone:
        return h
    return with_card(h, replace(c, zone=None))


def _not_followed(h: GameHand, c: CardSeen, zone: str, seq: int, out: list[Finding]
                  ) -> GameHand:
    x = h.expect[0]
    out.append(not_followed(seq, went_to(c.name, zone, c.face_up), x.after, x.says(),
                            cards=[c.name]))
    return replace(h, expect=h.expect[1:])  # that step is missed; the rest of the remedy stands


def _moved(h: GameHand, c: CardSeen, zone: str, seq: int, out: list[Finding],
           was: str | None = None) -> GameHand:
    """A card already judged moves: a remedy's move, a discard, a fold to the muck, a folded
    hand read back out of the muck."""
    if h.void:
        return h
    seat = c.seat
    p = h.pos(seat) if seat is not None else None
    if zone == "muck" and seat is not None and not c.mucked:
        h = with_card(h, replace(c, mucked=True))
        c = h.cards[c.uid]
    if ((was == "muck" or c.mucked) and seat is not None and zone == f"seat:{seat}"
            and p is not None and h.eng.folded[p] and seat not in h.retrieved and not h.off):
        # roberts-rules-v11.txt, Section 3, Dead Hands, r.2: "a hand that is clearly
        # identifiable may be retrieved and ruled live at management's discretion": the floor
        # decides; the muck log names the cards (as at the board games, board_deal.py).
        cards = [x.name for x in sorted(h.cards.values(), key=lambda x: x.n)
                 if x.seat == seat and x.fed]
        out.append(make_finding("MUCKED_HAND_RETRIEVAL", seq, seats=[seat], cards=cards))
        return replace(h, retrieved=(*h.retrieved, seat))
    if h.expect and h.expect[0].uid == c.uid:
        if h.expect[0].fits(c.uid, zone, c.face_up):
            return _fulfil(h, c, zone)
        return _not_followed(h, c, zone, seq, out)
    later = _fits_later(h, c, zone)
    if later:
        return _fulfil(h, c, zone, later)
    t = h.turn
    if (zone == "muck" and t is not None and c.fed and c.seat == t.seat and not t.fed
            and c.uid not in t.discards):
        # a discard of the player drawing now (RR Section 11 r.9: the draw in order)
        h = replace(h, turn=replace(t, discards=(*t.discards, c.uid)))
    return h


def _fits_later(h: GameHand, c: CardSeen, zone: str) -> int:
    """The index of a later step of the remedy now expected that this card meets (0: none).
    Where a remedy's steps may come in any order the rulebooks leave open, a step met before
    the one listed first is taken: at ace-to-five lowball the exposed card's replacement comes
    first and "this first exposed card is used as the burncard" (roberts-rules-v11.txt, Section
    11, Ace-to-Five Lowball, r.3), but a dealer who burns it first ends with the same cards."""
    if not h.expect:
        return 0
    after = h.expect[0].after
    for i, x in enumerate(h.expect[1:], start=1):
        if x.after != after or not x.any_order:
            return 0
        if x.fits(c.uid, zone, c.face_up):
            return i
    return 0


def _fulfil(h: GameHand, c: CardSeen, zone: str, i: int = 0) -> GameHand:
    """The card goes where the remedy said: take the expectation (the ``i``-th) off and apply
    the card."""
    h = replace(h, expect=h.expect[:i] + h.expect[i + 1:])
    if zone == "burn":
        return _remedy_burned(h)
    if zone.startswith("seat:") and not c.fed:
        return feed(h, c, int(zone[5:]))
    return h


def _judge(h: GameHand, c: CardSeen, zone: str, seq: int, out: list[Finding]) -> GameHand:
    """The first zone read of a card off the shoe, against what is expected now."""
    if h.void or c.card is None or (c.card == JOKER and h.variant.deck != "joker"):
        return h
    if h.off:
        # not judged (see ``draw``): taken where it lands (a replacement on the draw counted)
        if zone == "board":
            return run_or_keep(h, (BOARD, (c.card,)))
        if not zone.startswith("seat:"):
            return h
        return counted(feed(h, c, int(zone[5:])), int(zone[5:]))
    h = _arm(h)
    if h.expect:
        x = h.expect[0]
        if x.fits(c.uid, zone, c.face_up):
            return _fulfil(h, c, zone)
        later = _fits_later(h, c, zone)
        if later:
            return _fulfil(h, c, zone, later)
        if not x.uid or x.uid not in h.cards or h.cards[x.uid].zone != x.zone:
            h = _not_followed(h, c, zone, seq, out)
            if h.expect and h.expect[0].fits(c.uid, zone, c.face_up):
                return _fulfil(h, c, zone)
    if h.relaxed:
        # The stub ran short (STUD_INSUFFICIENT_CARDS, DRAW_DECK_EXHAUSTED): the dealer
        # reshuffles and may deal a common card; cards are taken where they land.
        if zone == "board":
            return run_or_keep(h, (BOARD, (c.card,)))
        if zone.startswith("seat:"):
            return feed(h, c, int(zone[5:]))
        return h
    if c.betting_open and h.family == "stud":
        return premature_card(h, c, zone, seq, out)
    slot = expected(h)
    e = h.eng
    street = e.street
    if slot.kind == "burn":
        if zone == "burn":
            if slot.why == FIVE_BURN:
                return replace(h, five_burned=street)
            return replace(h, burned=street)
        if zone.startswith("seat:"):
            return _burn_error(h, c, zone, seq, out, missing=True, slot=slot)
        return unexpected(h, c, zone, seq, out, "the burn card was due")
    if slot.kind == "board":
        if zone == "board":
            return run_or_keep(h, (BOARD, (c.card,)))
        return unexpected(h, c, zone, seq, out, "the common card was due in the centre")
    if slot.kind == "seat":
        assert slot.seat is not None
        if zone == f"seat:{slot.seat}":
            return _to_due_seat(h, c, slot, seq, out)
        extra_burn = zone == "burn" and (
            (h.family == "stud" and street > 0 and h.burned == street)
            or (h.family == "draw" and street > 0 and h.burned == street))
        if extra_burn:
            return _burn_error(h, c, zone, seq, out, missing=False, slot=slot)
        if zone.startswith("seat:") and street == 0 and e.actor is None and not h.acted:
            return _deal_sequence(h, c, int(zone[5:]), slot.seat, seq, out)
        if zone.startswith("seat:") and slot.seat in h.free_folds:
            return free_fold_passed(h, c, int(zone[5:]), slot.seat, seq, out)
        if zone.startswith("seat:") and h.family == "draw":
            return draw_extra(h, c, int(zone[5:]), seq, out, due=slot.seat)
        return unexpected(h, c, zone, seq, out, f"the next card was due to seat {slot.seat}")
    # no card is due
    if zone.startswith("seat:") and h.family == "draw":
        return draw_extra(h, c, int(zone[5:]), seq, out, due=None)
    return unexpected(h, c, zone, seq, out, slot.why or "no card is due now")


def _remedy_burned(h: GameHand) -> GameHand:
    """A remedy's card is in the burn. The deal of a draw game has no burn: a card burned before
    the draw is the draw's burn ("This first exposed card is used as the burncard",
    roberts-rules-v11.txt, Section 11, Ace-to-Five Lowball, r.3), and the first draw deals
    without another."""
    street = h.eng.street
    if h.family == "draw" and street == 0:
        street = 1
    return replace(h, burned=street)


def _arm(h: GameHand) -> GameHand:
    """Expectations that wait for the deal: armed once only the owed cards are missing. A card
    the dealer already put where a step wants it (the exposed card to the burn before its
    replacement: either order, RR Section 11 Ace-to-Five r.3) meets that step now."""
    if not h.owed_after_deal or h.eng.street != 0:
        return h
    slot = expected(h)
    if slot.kind == "seat" and slot.seat in h.owed and all(
            h.eng.hole_needed(i) <= h.owed.get(s, 0) for i, s in enumerate(h.seats)):
        armed, h = h.owed_after_deal, replace(h, owed_after_deal=())
        pending = []
        for x in armed:
            c = h.cards.get(x.uid) if x.uid else None
            if x.zone == "burn" and c is not None and c.zone == "burn":
                h = _remedy_burned(h)
                continue
            pending.append(x)
        return replace(h, expect=(*h.expect, *pending))
    return h


def _to_due_seat(h: GameHand, c: CardSeen, slot: Slot, seq: int, out: list[Finding]
                 ) -> GameHand:
    """The card went to the seat due it: check which way up it came, then give it to it."""
    if h.family == "stud":
        return stud_to_due_seat(h, c, slot, seq, out)
    return draw_to_due_seat(h, c, slot, seq, out)


def _burn_error(h: GameHand, c: CardSeen, zone: str, seq: int, out: list[Finding], *,
                missing: bool, slot: Slot) -> GameHand:
    """No burn, or a second burn (stud: roberts-rules-v11.txt, Section 8, r.13, "the cards will
    be corrected, if at all possible, to their proper positions"; draw: Section 3,
    Irregularities, r.16): the card is moved where it belongs."""
    street = h.eng.street
    if missing:
        seat = int(zone[5:])
        fix = f"{c.name} is the burn: move it to the burn; the next card goes to seat {seat}"
        x = put("burn", c.uid, None, "", fix)
        detail = f"{c.name} went to seat {seat} with no burn before it."
    else:
        seat = slot.seat or 0
        up = slot.face_up
        fix = (f"{c.name} is seat {seat}'s card: move it from the burn to seat {seat}"
               + (" face up" if up else ""))
        x = put(f"seat:{seat}", c.uid, None, "", fix)
        detail = f"{c.name} was burned as a second burn card."
    if h.family == "stud":
        f = make_finding("STUD_BURN_ERROR", seq, seats=[seat], cards=[c.name], fill={
            "detail": detail, "fix": fix, "street": street_name(street)})
    else:
        f = make_finding("BURN_MISSING_OR_EXTRA", seq, seats=[seat], cards=[c.name], fill={
            "detail": detail, "fix": fix, "street": f"draw {street}"})
    out.append(f)
    if missing:
        h = replace(h, burned=street)
    return replace(h, expect=(*h.expect, replace(x, after=ref(f))))


def _deal_sequence(h: GameHand, c: CardSeen, landed: int, due: int, seq: int,
                   out: list[Finding]) -> GameHand:
    """The initial deal went to the wrong seat: the misdeal list (roberts-rules-v11.txt,
    Section 3, Misdeals, r.2; the same rules for stud, Section 8, and draw, Section 11 r.1,
    Section 12 r.3)."""
    ruling = wrong_place(first=c.n == 0, due=due, zone=f"seat:{landed}", dealt_in=h.seats,
                         owes=h.owes_blinds, why=h.not_dealt,
                         empty_seat=h.rules.empty_seat_cards,
                         lowball=h.variant.id in LOWBALL_MISDEALS)
    f = ruling.finding(seq, c.name)
    if ruling.code in (MISSED_BLIND, KILLED):
        # not a misdeal: a killed card is given to nobody, so the next card is still due to
        # the seat this one was due to
        out.append(f)
        return h
    if landed in h.seats:
        # The card is where it landed: if attention comes after the cut-off the deal is played
        # (RR Section 3, Misdeals, r.1), and the engine needs every card of it.
        h = feed(h, c, landed)
    return flag(h, f, out)


def exposed(h: GameHand, uid: str, by: str, seq: int) -> tuple[GameHand, list[Finding]]:
    """The dealer's exposed (or flashed-by-the-dealer) key on a card already dealt. A card a
    player exposes plays (roberts-rules-v11.txt, Section 3, Irregularities, r.12)."""
    out: list[Finding] = []
    c = h.cards.get(uid)
    if (h.void or h.off) or c is None or by != "dealer" or c.face_up:
        return h, out
    c = replace(c, face_up=True)
    h = with_card(h, c)
    seat = c.seat
    if seat is None or not c.fed:
        return h, out
    if h.family == "stud":
        return stud_exposed_key(h, c, seat, seq, out), out
    return draw_exposed_key(h, c, seat, seq, out), out


def _last_logged(h: GameHand, c: CardSeen) -> bool:
    """Is the engine's last command the one that gave ``c`` to its seat?"""
    p = h.pos(c.seat) if c.seat is not None else None
    return bool(h.log) and h.log[-1] == (HOLE, p, (c.card,))


def boxed(h: GameHand, uid: str, card: str | None, seq: int) -> tuple[GameHand, list[Finding]]:
    """The dealer's boxed-card key: a card found face up in the deck is a scrap of paper
    (roberts-rules-v11.txt, Section 3, Irregularities, r.7); two in the initial deal are a
    misdeal (Section 3, Misdeals, r.2(c))."""
    out: list[Finding] = []
    if (h.void or h.off):
        return h, out
    name = card or f"tag {uid}"
    c = h.cards.get(uid)
    if c is not None and (c.n != h.draws - 1 or (c.fed and not _last_logged(h, c))):
        # As in hold'em (dealing.boxed): the key names the card just drawn; once another card
        # or an action has followed it, the card has been played as dealt.
        detail = (f"{name} was dealt before it was reported boxed; a boxed card is reported "
                  "as it is found in the deck or as it leaves the shoe.")
        return h, [make_finding("EVENT_OUT_OF_PLACE", seq, fill={"detail": detail},
                                message=detail)]
    if c is not None and c.fed:
        h = unfeed(h, c)
    h = with_card(h, CardSeen(uid=uid, card=card, n=c.n if c else h.draws, seq=seq, face_up=True,
                              betting_open=False, zone=c.zone if c else None, judged=True))
    in_deal = h.eng.street == 0 and not h.acted
    if in_deal and h.boxed:
        names = [h.cards[u].name for u in h.boxed if u in h.cards]
        return flag(h, make_finding("MISDEAL_TWO_OR_MORE_BOXED_CARDS", seq,
                                    cards=[*names, name]), out), out
    out.append(make_finding("BOXED_CARD_SINGLE", seq, cards=[name]))
    return replace(h, boxed=(*h.boxed, uid) if in_deal else h.boxed), out


def end(h: GameHand, seq: int) -> tuple[GameHand, list[Finding], tuple[PotAward, ...],
                                          dict[int, int], str]:
    """``hand.end``: the showdown and the pots. Returns the hand, findings, the awards (by seat),
    every dealt-in seat's stack after the hand, and a problem ("" when the pots were awarded)."""
    out: list[Finding] = []
    h = close_turn(h, seq, out)
    e = h.eng
    if not e.betting_over:
        return h, out, (), {}, "the betting is not complete"
    owed = _cards_owed(h, e)
    if owed and len(h.live) > 1:
        # Everyone all in before the draw (or before the last stud card) still gets the rest of
        # the hand: "at lowball and draw high a hand with too few cards before the draw is live"
        # (roberts-rules-v11.txt, Section 3, Dead Hands, r.1(d)), so it draws its missing
        # cards; nothing is shown down, nothing awarded, until it has.
        return h, out, (), {}, owed
    if h.free_folds:  # folded with no wager and never killed by a bet: still out of the pot
        h = replace(h, dead=(*h.dead, *(s for s in h.free_folds if s not in h.dead)),
                    free_folds=())
    showdown = len(h.live) > 1
    if showdown:
        size = (HAND_SIZE_AFTER_DRAW.get(h.variant.id, 5) if h.family == "draw"
                else h.variant.hole_cards)
        strict = h.rules.dead_hand_card_count == "no_exceptions"
        for seat in h.live:
            held = len(h.hole(seat))
            if held != size and seat not in h.dead and not h.relaxed:
                if h.family == "stud":
                    # the house setting dead_hand_card_count (research D-21): with no
                    # exceptions (AZW Dead Hands r.1(d)) the hand is dead and is not shown
                    out.append(make_finding("STUD_HAND_CARD_COUNT", seq, seats=[seat], fill={
                        "held": held, "ruling": (
                            "missing only the seventh card: the floor may rule it live"
                            if held == size - 1 else "the hand is dead")},
                        setting="no_exceptions" if strict else ""))
                    if strict:
                        h = replace(h, dead=(*h.dead, seat))
                else:
                    out.append(make_finding("DRAW_WRONG_COUNT_AFTER_DRAW", seq, seats=[seat],
                                            fill={"held": held, "size": size}))
    e = e.copy()
    try:
        show_down(h, e, h.dead)
        awards = by_seat(h, e)
    except (engine.IllegalAction, ValueError, AssertionError) as exc:
        return h, out, (), {}, f"the pots cannot be settled: {exc}"
    if not e.is_over:
        # the engine did not settle: awarding nothing would lose the pot, so keep it
        return h, out, (), {}, "the pots cannot be settled: the hand has not reached its showdown"
    stacks = {s: e.stacks[i] for i, s in enumerate(h.seats)}
    return replace(h, _engine=e), out, awards, stacks, ""


def _cards_owed(h: GameHand, e: engine.Hand) -> str:
    """Why the hand is short of its showdown though the betting is over ("" when it is not):
    a draw still to be asked for, or cards still to be dealt."""
    d = e.discarder
    if d is not None:
        return f"the draw is not complete: seat {h.seats[d]} draws next"
    owed = [(h.seats[p], n) for p in range(e.n) if (n := e.hole_needed(p))]
    if owed:
        who = ", ".join(f"seat {s}: {n} card{'s' if n > 1 else ''}" for s, n in owed)
        return f"cards are still to be dealt ({who})"
    return ""
