"""The stud family's own rules: an exposed down card, the last card dealt face up, a premature
street, the wrong bring-in, a seat that folded with no wager, a premature final down card the
player keeps (roberts-rules-v11.txt, Section 8; the house settings of research/irregularities.md
D-12, D-14, D-15). Pure: no I/O.
"""

from __future__ import annotations

from types import MappingProxyType

from controller.poker.records import replace
from controller.rules import engine
from controller.rules.findings import Finding, make_finding
from controller.rules.procedure.dead_hands import kill
from controller.rules.procedure.game_hand import (
    CALL,
    HOLE,
    CardSeen,
    Cmd,
    GameHand,
    Slot,
    dealt_since_betting,
    feed,
    flag,
    put,
    rebuilt,
    ref,
    run,
    street_name,
    with_key,
)
from controller.rules.procedure.remedy import not_followed


def back_from_aside(h: GameHand, old: CardSeen) -> bool:
    """Stud under the house setting ``stud_premature_removed`` = ``reshuffled_at_final_street``
    (AZW Section 3 r.16(4), research D-12): "Once the final street is reached, the premature and
    additional cards set to the side are placed back into the stub. The stub is re-shuffled
    then the final street is dealt." A card set aside drawn again then is a new card."""
    return (h.rules.stud_premature_removed == "reshuffled_at_final_street"
            and h.family == "stud" and old.uid in h.aside and old.zone in ("aside", None)
            and h.eng.street == len(h.variant.streets) - 1)


def premature_card(h: GameHand, c: CardSeen, zone: str, seq: int, out: list[Finding]) -> GameHand:
    """Stud: a card dealt while the betting round is open (roberts-rules-v11.txt, Section 8,
    r.14): the premature card(s) are eliminated from play; once the round is over, one more
    card for each player still active is eliminated too; then the dealer burns and play
    resumes. Cards go to the set-aside zone (held off to the side in case the stub runs out)."""
    name = street_name(h.eng.street + 1)  # the street dealt early
    if not h.premature_finding:
        f = make_finding("STUD_PREMATURE_STREET", seq, cards=[c.name], fill={
            "street": name, "betting": street_name(h.eng.street)},
            setting=h.rules.stud_premature_removed)
        out.append(f)
        h = replace(h, premature_finding=ref(f))
    h = replace(h, premature=(*h.premature, c.uid))
    if zone.startswith("seat:"):
        h = replace(h, expect=(*h.expect, put(
            "aside", c.uid, None, h.premature_finding,
            f"{c.name} is eliminated from play: put it aside")))
    return h


def stud_exposed(h: GameHand, c: CardSeen, seat: int, seq: int, out: list[Finding], *,
                 fed: bool = False) -> GameHand:
    """A third-street down card exposed by the dealer, dealt face up or keyed after it landed
    (``fed``: already given to the seat) (roberts-rules-v11.txt, Section 8, r.1). Whether it is
    a misdeal is the house setting ``stud_exposed_downcard`` (research D-15): RR's cash rule
    and its tournament misdeal, AZW's misdeal always, or the cash rule always."""
    mode = h.rules.stud_exposed_downcard
    if mode == "misdeal" or (mode == "misdeal_in_tournament" and h.tournament):
        # "(In tournament play, if a downcard is dealt faceup, a misdeal is called.)" (RR); "in
        # stud, if any of the players' 2 down cards are exposed by dealer error" (AZW TDA #34)
        return flag(h, make_finding("STUD_EXPOSED_HOLECARD_TOURNAMENT_MISDEAL", seq,
                                    seats=[seat], cards=[c.name], setting=mode), out)
    count = h.exposed.get(seat, 0) + 1
    h = replace(h, exposed=with_key(h.exposed, seat, count))
    if count == 1:
        f = make_finding("STUD_ONE_HOLECARD_EXPOSED", seq, seats=[seat], cards=[c.name],
                         setting=mode if h.tournament else "")
        out.append(f)
        h = replace(h, face=with_key(h.face, seat, False),
                    face_why=with_key(h.face_why, seat, ref(f)))
        return h if fed else feed(h, c, seat)
    first = [o.name for o in h.cards.values() if o.seat == seat and o.face_up and o.uid != c.uid]
    f = make_finding("STUD_BOTH_HOLECARDS_EXPOSED", seq, seats=[seat],
                     cards=[*first, c.name], fill={"ante": _ante_of(h, seat)})
    out.append(f)
    if len(h.seats) <= 2:
        # NIS: with two players a dead hand leaves no game; the floor redeals
        return replace(h, void=True, off=f.code)
    return _without(h, seat)


def _ante_of(h: GameHand, seat: int) -> int:
    p = h.pos(seat)
    return h.stakes.antes[p] if p is not None and p < len(h.stakes.antes) else 0


def _without(h: GameHand, seat: int) -> GameHand:
    """The hand with a dead seat taken out before any betting: its ante goes back (RR Section 8
    r.1, "you have a dead hand and receive your ante back") and it is dealt no more cards."""
    p = h.seats.index(seat)

    def drop(t: tuple[int, ...]) -> tuple[int, ...]:
        return t[:p] + t[p + 1:] if len(t) > p else t

    log: list[Cmd] = []
    for cmd in h.log:
        if cmd[0] == HOLE:
            q = int(str(cmd[1]))
            if q == p:
                continue
            cmd = (HOLE, q - 1 if q > p else q, cmd[2])
        log.append(cmd)
    stakes = replace(h.stakes, antes=drop(h.stakes.antes),
                     blinds_or_straddles=drop(h.stakes.blinds_or_straddles))
    cards = {u: (replace(c, fed=False) if c.seat == seat else c) for u, c in h.cards.items()}
    new = replace(h, seats=drop(h.seats), stacks=drop(h.stacks), stakes=stakes,
                  cards=MappingProxyType(cards), dead=(*h.dead, seat),
                  posts_due=tuple(x for x in h.posts_due if x[0] != seat),
                  face=with_key(h.face, seat, None))
    return rebuilt(new, tuple(log))


def stud_final_up(h: GameHand, c: CardSeen, seat: int, seq: int, out: list[Finding]
                  ) -> GameHand:
    """The seventh-street card dealt face up (roberts-rules-v11.txt, Section 8, r.16, r.17)."""
    p = h.seats.index(seat)
    if h.eng.stacks[p] == 0:
        f = make_finding("STUD_ALLIN_FINAL_CARD_FACEUP", seq, seats=[seat], cards=[c.name])
        out.append(f)
        return h
    live = h.live
    waiting = [s for s in live if s != seat and h.eng.hole_needed(h.seats.index(s)) > 0]
    first = len(waiting) == len(live) - 1  # nobody has a last card yet: the first one
    # r.17(b): heads-up, the first player's final card up: the second's is dealt up too; with
    # more than two, RR r.17(a) deals the rest down, WSOP r.17(a) up when it was the first
    rest_up = (len(live) == 2 and bool(waiting)) or (
        len(live) > 2 and first and h.rules.stud_last_card_up == "rest_up_if_first")
    f = make_finding("STUD_FINAL_CARD_FACEUP", seq, seats=[seat], cards=[c.name], fill={
        "rest": "face up" if rest_up else "face down",
        "others": ", ".join(str(s) for s in waiting) or "none"})
    out.append(f)
    if rest_up:
        return replace(h, face=MappingProxyType({**h.face, **{s: True for s in waiting}}),
                       face_why=MappingProxyType({**h.face_why,
                                                  **{s: ref(f) for s in waiting}}))
    return h


def wrong_bring_in(h: GameHand, seat: int, seq: int, out: list[Finding]) -> GameHand:
    """The bring-in by a seat that is not the low card (roberts-rules-v11.txt, Section 8, r.5;
    razz: the high card, Section 9 r.2). Feltguard never applies the wrong post, so the next
    player has not acted: "the action will be corrected to the real lowcard, who now must
    bet. The incorrect lowcard takes back the wager.\""""
    e = h.eng
    assert e.actor is not None
    real = h.seats[e.actor]
    up = h.upcards(real)
    low = "high" if h.variant.streets[0].opener == "high_card" else "low"
    out.append(make_finding("STUD_WRONG_LOWCARD_DESIGNATED", seq, seats=[seat, real],
                            cards=list(up[:1]), fill={"real": real, "which": low}))
    return h


def stud_to_due_seat(h: GameHand, c: CardSeen, slot: Slot, seq: int, out: list[Finding]
                     ) -> GameHand:
    """A stud card went to the seat due it: check which way up it came (an exposed down card, the
    last card face up, a remedy that said face down or face up), then give it to the seat."""
    seat = slot.seat
    assert seat is not None
    e = h.eng
    flags = h.variant.streets[e.street].hole
    natural = flags[len(flags) - e.hole_needed(h.seats.index(seat))] if flags else False
    if c.face_up and not slot.face_up:
        if natural and seat in h.face:
            # the remedy of an exposed down card said this card comes face down
            out.append(not_followed(
                seq, f"{c.name} was dealt face up to seat {seat}.",
                h.face_why.get(seat, "STUD_ONE_HOLECARD_EXPOSED"),
                f"seat {seat}'s third card is dealt face down", seats=[seat], cards=[c.name]))
        elif e.street == 0:
            return stud_exposed(h, c, seat, seq, out)
        elif e.street == len(h.variant.streets) - 1:
            h = stud_final_up(h, c, seat, seq, out)
    elif not c.face_up and slot.face_up and not natural and seat in h.face:
        out.append(not_followed(
            seq, f"{c.name} was dealt face down to seat {seat}.",
            h.face_why.get(seat, "STUD_FINAL_CARD_FACEUP"),
            f"seat {seat}'s last card is dealt face up too (Section 8 r.17)", seats=[seat],
            cards=[c.name]))
    if natural and seat in h.face:
        h = replace(h, face=with_key(h.face, seat, None))
    return feed(h, c, seat)


def stud_exposed_key(h: GameHand, c: CardSeen, seat: int, seq: int, out: list[Finding]
                     ) -> GameHand:
    """The dealer's exposed key on a stud card already given to ``seat`` (``c``, now face up):
    a third-street down card, or the last card just dealt down, is ruled as if dealt face up; any
    other card stays where it is."""
    e = h.eng
    p = h.seats.index(seat)
    if e.street == 0 and len(e.holes[p]) <= 2 and not e.upcards(p) and not h.acted:
        # a down card of third street: as if dealt face up (the card is already given)
        return stud_exposed(h, c, seat, seq, out, fed=True)
    last = len(h.variant.streets) - 1
    full = sum(len(st.hole) for st in h.variant.streets)
    if (e.street == last and len(e.holes[p]) == full and e.holes[p][-1] == c.card
            and dealt_since_betting(h, p, c.card)):
        # the last card, just dealt down, turned up by the dealer: as if dealt face up
        # (roberts-rules-v11.txt, Section 8, r.16-17; the profile's stud_last_card_up)
        return stud_final_up(h, c, seat, seq, out)
    return h


def pass_free_folds(h: GameHand) -> GameHand:
    """A stud seat that folded with no wager does not act again: while nobody bets, the action
    passes it by (it is still dealt to, RR Section 8 r.9)."""
    e = h.eng
    while (h.free_folds and e.actor is not None and h.seats[e.actor] in h.free_folds
           and not e.checking_or_calling_amount()):
        try:
            h = run(h, (CALL, e.actor))
        except engine.IllegalAction:  # pragma: no cover - a check with nothing to call
            break
        e = h.eng
    return h


def free_fold_passed(h: GameHand, c: CardSeen, landed: int, due: int, seq: int,
                     out: list[Finding]) -> GameHand:
    """The dealer passed over a stud seat that folded with no wager (RR Section 8 r.9): the
    card is moved to it, and the order goes on from there."""
    f = make_finding("STUD_FOLDED_SEAT_KEEPS_RECEIVING", seq, seats=[due, landed],
                     cards=[c.name], fill={"landed": landed})
    out.append(f)
    return replace(h, expect=(put(f"seat:{due}", c.uid, None, ref(f),
                                  f"{c.name} goes to seat {due}"), *h.expect))


def kill_free_folds(h: GameHand) -> GameHand:
    """The stud hands folded with no wager are killed, "as a result of a bet" (RR Section 8
    r.9), or at the hand's end: they win nothing."""
    for seat in h.free_folds:
        p = h.pos(seat)
        if p is not None and not h.eng.folded[p] and not h.eng.betting_over:
            h = kill(h, seat)
    return replace(h, free_folds=())


def kept(h: GameHand, uid: str, seq: int) -> tuple[GameHand, list[Finding]] | str:
    """The dealer's key that a player looked at a card or mixed it with the hole cards. Stud,
    the final down card dealt before the sixth-street betting was over: "the player must keep
    the card, and on sixth street betting may not bet or raise" (roberts-rules-v11.txt,
    Section 8, r.14; WSOP the same). Anywhere else the key changes nothing: a reason why."""
    c = h.cards.get(uid) if h.deal is None else None
    last = len(h.variant.streets) - 1
    if (h.family != "stud" or c is None or uid not in h.premature or c.face_up
            or not (c.zone or "").startswith("seat:") or h.eng.street != last - 1):
        return ("The kept-card key is for a stud player's final down card dealt before the "
                "sixth-street betting was over (RR Section 8 r.14).")
    seat = int(str(c.zone)[5:])
    if h.pos(seat) is None or seat in h.kept:
        return f"Seat {seat} is not a hand that can keep a card now."
    f = make_finding("STUD_PREMATURE_FINAL_DOWNCARD_KEPT", seq, seats=[seat],
                     cards=[c.name])
    premature = tuple(u for u in h.premature if u != uid)
    # Only the kept card was dealt early (a premature burn aside): nothing more is eliminated.
    cards_left = any(u in h.cards and h.cards[u].zone != "burn" for u in premature)
    h = replace(h, premature=premature if cards_left else (),
                premature_finding=h.premature_finding if cards_left else "",
                expect=tuple(x for x in h.expect if x.uid != uid),
                kept=with_key(h.kept, seat, uid), capped=(*h.capped, seat))
    return h, [f]


def give_kept(h: GameHand) -> GameHand:
    """Seventh street has come: a kept final down card is that seat's seventh card."""
    if not h.kept or h.eng.street != len(h.variant.streets) - 1 or h.eng.actor is not None:
        return h
    for seat, uid in h.kept.items():
        c = h.cards.get(uid)
        if c is not None and not c.fed:
            h = feed(h, c, seat)
    return replace(h, kept=MappingProxyType({}), capped=())
