"""The board after the initial deal, card by card: the flop, the turn and the river, what went
wrong with them, and the remedies the procedure follows.

A card after the starting hands is judged against its slot of ``POST_DEAL`` (``judge_slot``): a
missing or second burn (RR Section 5, Holdem, r.4; Section 3, Irregularities, r.16), a four-card
flop (``four_card_flop``), a premature street (``premature_remedy``; RR Section 5, Holdem, r.5,
r.7, r.8). A finding whose remedy fixes the cards to come starts a ``Remedy``; the cards read
while it runs are judged against its moves (``follow``), and once every move is made the
procedure resumes where the remedy leaves it (``progressed``). Pure: no I/O.
"""

from __future__ import annotations

from controller.poker.records import replace
from controller.rules.findings import Finding, make_finding
from controller.rules.procedure.board_state import (
    JUDGE_NOW,
    POST_DEAL,
    REMEDY,
    STREET_DEALT,
    STREET_ROUNDS,
    CardState,
    Deal,
    Remedy,
    expect_of,
    flag,
    flag_card,
    may_flag,
    with_card,
)
from controller.rules.procedure.remedy import (
    PUT,
    RETURN,
    SHUFFLE,
    STREET_BEFORE,
    Step,
    not_followed,
    went_to,
)
from controller.rules.procedure.remedy import zone_name as _zone_name


def premature_at_read(deal: Deal, c: CardState, code: str, street: str, zone: str,
                      out: list[Finding]) -> Deal:
    if not may_flag(deal, code):
        return deal
    rem = premature_remedy(code, c, zone, street, c.m, deal.draws)
    fill = {"detail": f"{c.name} went to {_zone_name(zone)}."}
    return flag(deal, make_finding(code, c.seq, cards=[c.name], fill=fill,
                                   expect=expect_of(rem.steps)), out, rem)


def four_card_flop(deal: Deal, c: CardState, out: list[Finding]) -> Deal:
    code = "FLOP_TOO_MANY_CARDS"
    if not may_flag(deal, code):
        return deal
    cards = list(deal.board)
    flop = [u for u in deal.sequence if deal.cards[u].zone == "board"]
    steps: tuple[Step, ...]
    if deal.four_card_flop == "redeal":
        # RR Section 5, Holdem, r.3 and r.7: the board cards are mixed with the stub, the burn
        # stays, the stub is shuffled and cut, and a new flop is dealt without burning.
        steps = (*(Step(RETURN, uid=u, name=deal.cards[u].name) for u in flop), Step(SHUFFLE),
                 *(Step(PUT, "board") for _ in range(3)))
        rem = Remedy(code, c.seq, steps, resume=4, first=deal.draws)
    else:
        # WSOP Section 5 r.3: the four scrambled, the top one placed on the deck as the burn for
        # the turn; AZW TDA #36: the floor picks one at random as the next burn. Either way one
        # of the four leaves the board and is the turn's burn; the other three are the flop.
        steps = (Step(RETURN, from_zone="board"),
                 Step(PUT, "burn", from_zone="board", rounds=2), Step(PUT, "board", rounds=2))
        rem = Remedy(code, c.seq, steps, resume=6, first=deal.draws)
    return flag(deal, make_finding(code, c.seq, cards=cards, fill={"count": len(cards)},
                                   message=f"Four-card flop: {c.name} is a fourth board card.",
                                   expect=expect_of(steps), setting=deal.four_card_flop),
                out, rem)


def judge_slot(deal: Deal, c: CardState, zone: str, out: list[Finding]) -> Deal:
    m = c.m
    want, _ = POST_DEAL[m]
    if zone == want:
        return deal
    if zone not in ("burn", "board"):
        return flag_card(deal, c, "UNEXPECTED_CARD", zone, out)
    burns = [deal.cards[u].name for u in deal.sequence
             if deal.cards[u].zone == "burn" and u != c.uid]
    prev_burn = burns[-1] if burns else "?"
    first = deal.draws
    # RR Section 5, Holdem, r.4 (flop) and Section 3, Irregularities, r.16 (turn, river): the
    # error is rectified with the proper burncard and board card(s), so that "subsequent cards
    # dealt should be those that would have come if no error had occurred".
    if m == 0 and deal.flop_no_burn == "floor_picks_burn":
        # AZW Section 3 r.16(5): the flop is dealt, then the floor picks one of the three at
        # random as the burn, and the next card off the stub completes the flop.
        fix: tuple[Step, ...] = (Step(PUT, "board"), Step(PUT, "board"),
                                 Step(PUT, "burn", from_zone="board"), Step(PUT, "board"))
        return _flag_fix(deal, c, "FLOP_BURN_ERROR", out,
                         f"No card was burned before the flop: {c.name} went to the board.",
                         "", Remedy("FLOP_BURN_ERROR", c.seq, fix, resume=4, first=first),
                         setting="floor_picks_burn")
    if m == 0:  # the flop burn went to the board
        steps = (Step(PUT, "burn", c.uid, c.name), *(Step(PUT, "board") for _ in range(3)))
        return _flag_fix(deal, c, "FLOP_BURN_ERROR", out,
                         f"No card was burned before the flop: {c.name} went to the board.",
                         f"move {c.name} to the burn (it is the proper burncard) and deal the "
                         "flop from the next three cards.", Remedy(
                             "FLOP_BURN_ERROR", c.seq, steps, resume=4, first=first))
    if m == 1:  # a second burn before the flop
        steps = (Step(PUT, "board", c.uid, c.name), Step(PUT, "board"), Step(PUT, "board"))
        return _flag_fix(deal, c, "FLOP_BURN_ERROR", out,
                         f"Two cards were burned before the flop: {prev_burn} and {c.name}.",
                         f"{c.name} is the proper first flop card: turn it onto the board and "
                         "deal the other two flop cards from the top of the deck.", Remedy(
                             "FLOP_BURN_ERROR", c.seq, steps, resume=4, first=first))
    if m == 4 and c.ctx.flop_actions == 0:
        return four_card_flop(deal, c, out)
    # The last round with no betting left (an all-in): the house setting allin_burn_fix says
    # whether the correction needs the stub, board and burns intact (research D-22)
    allin = deal.allin_burn if m >= 6 and c.ctx.over else ""
    if m in (4, 6):
        street = STREET_DEALT[POST_DEAL[m][1]]
        steps = (Step(PUT, "burn", c.uid, c.name), Step(PUT, "board"))
        return _flag_fix(deal, c, "BURN_MISSING_OR_EXTRA", out,
                         f"No card was burned before the {street}: {c.name} went to the board.",
                         f"move {c.name} to the burn (it is the proper burncard) and turn the "
                         f"next card as the {street}.", Remedy(
                             "BURN_MISSING_OR_EXTRA", c.seq, steps, resume=m + 2, first=first),
                         street, setting=allin)
    if m in (5, 7):
        street = STREET_DEALT[POST_DEAL[m][1]]
        steps = (Step(PUT, "board", c.uid, c.name),)
        return _flag_fix(deal, c, "BURN_MISSING_OR_EXTRA", out,
                         f"Two cards were burned before the {street}: {prev_burn} and {c.name}.",
                         f"{c.name} is the proper {street} card: turn it onto the board.", Remedy(
                             "BURN_MISSING_OR_EXTRA", c.seq, steps, resume=m + 1, first=first),
                         street, setting=allin)
    return flag_card(deal, c, "UNEXPECTED_CARD", zone, out)


def _flag_fix(deal: Deal, c: CardState, code: str, out: list[Finding], detail: str, fix: str,
              rem: Remedy, street: str = "flop", setting: str = "") -> Deal:
    if not may_flag(deal, code):
        return deal
    fill = {"detail": detail, "fix": fix, "street": street}
    return flag(deal, make_finding(code, c.seq, cards=[c.name], fill=fill,
                                   expect=expect_of(rem.steps), setting=setting), out, rem)


# --- following a remedy ------------------------------------------------------------------------


def premature_preview(street: str) -> tuple[Step, ...]:
    """The moves after a premature card whose zone is not read yet (for the finding's
    ``expect``): the cards the rules name, the premature card itself unknown."""
    if street == "turn":
        return (Step(PUT, "aside"), Step(PUT, "burn", rounds=2), Step(PUT, "board", rounds=2),
                Step(PUT, "board", rounds=3))
    rounds = 1 if street == "flop" else 3
    return tuple(Step(PUT, "board", rounds=rounds) for _ in range(3 if street == "flop" else 1))


def premature_remedy(code: str, c: CardState, zone: str | None, street: str, slot: int,
                     first: int) -> Remedy:
    """The remedy for a premature card (RR Section 5, Holdem, r.5: the card(s) may not be
    used; the betting is completed, then r.7 for the flop: board cards mixed with the stub,
    the burn stays, a new flop without burning; r.8 for the turn: the premature card out of
    play, the burn and what would have been the river as the turn, then the stub reshuffled
    with the set-aside card and the river without burning; the river "reshuffled and dealt in
    the same manner"). The rest of the premature street may still come out of the shoe."""
    rem = Remedy(code, c.seq, (), resume=4 if street == "flop" else len(POST_DEAL),
                 first=first, street=street, slot=slot, anchor=c.uid)
    return rem if zone is None else anchored(rem, c, zone)


def anchored(rem: Remedy, c: CardState, zone: str) -> Remedy:
    """Build a premature remedy's moves once its first card's zone is known."""
    steps: list[Step] = []
    if rem.street == "flop":
        steps = [Step(SHUFFLE), *(Step(PUT, "board", rounds=1) for _ in range(3))]
        tail = 3
    elif rem.street == "turn":
        steps = [Step(PUT, "burn", rounds=2), Step(PUT, "board", rounds=2), Step(SHUFFLE),
                 Step(PUT, "board", rounds=3)]
        tail = 1
    else:
        steps = [Step(SHUFFLE), Step(PUT, "board", rounds=3)]
        tail = 1
    rem = replace(rem, steps=tuple(steps), tail=tail, anchor="")
    if zone == "board":
        rem = _add_tail(rem, c)
    return rem


def _add_tail(rem: Remedy, c: CardState) -> Remedy:
    """A premature board card: it does not play. On the flop and the river it goes back into
    the stub before the reshuffle; the premature turn card is set aside first and reshuffled in
    after the turn betting (RR Section 5, Holdem, r.8)."""
    steps = list(rem.steps)
    at = next(i for i, s in enumerate(steps) if s.kind == SHUFFLE)
    steps.insert(at, Step(RETURN, uid=c.uid, name=c.name))
    if rem.street == "turn":
        steps.insert(0, Step(PUT, "aside", c.uid, c.name))
    return replace(rem, steps=tuple(steps), tail=rem.tail - 1, board_seen=True)


def picks(rem: Remedy, from_zone: str, kind: str, zone: str = "") -> int | None:
    """The first step of ``kind`` that picks a card of ``from_zone`` (to ``zone`` for PUT)."""
    return next((i for i, s in enumerate(rem.steps) if s.kind == kind and not s.uid
                 and s.from_zone == from_zone and (not zone or s.zone == zone)), None)


def bind(rem: Remedy, at: int, uid: str, name: str) -> Remedy:
    """The card picked for step ``at`` is ``uid``: that step and the later steps picking from
    the same zone are that card now."""
    pick = rem.steps[at].from_zone
    steps = tuple(replace(s, uid=uid, name=name, from_zone="")
                  if i >= at and s.from_zone == pick and not s.uid else s
                  for i, s in enumerate(rem.steps))
    return replace(rem, steps=steps)


def follow(deal: Deal, rem: Remedy, c: CardState, zone: str, first: bool, seq: int,
           out: list[Finding], was: str | None = None) -> Deal:
    """A card read while a remedy runs: the move the remedy calls for, or not. A finding about
    a card just drawn carries its draw's seq; about a card moved on the felt, the read's."""
    if c.how != REMEDY or not first:
        c = replace(c, seq=seq)
    if was is not None and not any(s.uid == c.uid for s in rem.steps):
        picked = picks(rem, was, PUT, zone)
        if picked is not None:
            rem = bind(rem, picked, c.uid, c.name)
    steps = list(rem.steps)
    named = next((i for i, s in enumerate(steps) if s.uid == c.uid), None)
    if named is not None:
        st = steps[named]
        if st.kind == PUT and zone == st.zone:
            if c.how == REMEDY and st.rounds and c.ctx.early(st.rounds):
                return _not_followed(deal, rem, c, zone, out, early=st.rounds)
            del steps[named]
            return progressed(deal, replace(rem, steps=tuple(steps)))
        if zone == "aside" or (first and c.how != REMEDY):
            return deal  # set aside on the way, or where it first landed
        return _not_followed(deal, rem, c, zone, out)
    early = bool(rem.street) and c.ctx.early(STREET_ROUNDS[rem.street])
    if early and rem.tail > 0:
        # Drawn while the betting round was still open, before the stub reshuffle: the rest of
        # the premature street. After the reshuffle a card drawn early is the remedy not
        # followed (RR Section 5, Holdem, r.5: the betting is completed first).
        if zone == "board":
            return progressed(deal, _add_tail(rem, c))
        if zone == "burn" and not rem.board_seen:
            return deal  # a second premature burn: it stays a burn and does not play
    elif rem.street and not early and not rem.board_seen:
        # Only a burn came out early: no board card was seen, so there is nothing to set aside
        # or reshuffle; the premature burn is the burncard and the street is dealt as usual.
        deal = replace(deal, remedy=None, skew=c.n - deal.hole_total - (rem.slot + 1))
        c = replace(c, how=JUDGE_NOW, m=rem.slot + 1)
        deal = with_card(deal, c)
        return judge_slot(deal, c, zone, out)
    fresh = next((i for i, s in enumerate(steps) if s.kind == PUT and not s.uid), None)
    shuffle = next((i for i, s in enumerate(steps) if s.kind == SHUFFLE), None)
    if fresh is None or (shuffle is not None and shuffle < fresh) or zone != steps[fresh].zone:
        return _not_followed(deal, rem, c, zone, out)
    if steps[fresh].rounds and c.ctx.early(steps[fresh].rounds):
        return _not_followed(deal, rem, c, zone, out, early=steps[fresh].rounds)
    del steps[fresh]
    return progressed(deal, replace(rem, steps=tuple(steps), tail=0))


def progressed(deal: Deal, rem: Remedy) -> Deal:
    """The remedy after a move: once every move is made the procedure resumes at its slot."""
    if rem.steps or rem.tail or rem.anchor:
        return replace(deal, remedy=rem)
    return replace(deal, remedy=None, skew=deal.draws - deal.hole_total - rem.resume)


def _not_followed(deal: Deal, rem: Remedy, c: CardState, zone: str, out: list[Finding],
                  early: int = 0) -> Deal:
    """A card where the remedy did not call for it (``remedy.not_followed``)."""
    if early:
        detail = (f"{c.name} left the shoe before the {STREET_BEFORE[early]} betting was "
                  f"complete and went to {_zone_name(zone)}.")
    else:
        detail = went_to(c.name, zone)
    return flag(deal, not_followed(c.seq, detail, rem.after, rem.wanted(), cards=[c.name],
                                   message=f"{detail} The remedy of {rem.after} was not "
                                   "followed."), out)
