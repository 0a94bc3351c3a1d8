"""The hold'em dealing monitor: what card the procedure expects next, and what went wrong.

The procedure (research/irregularities.md §1.C DEAL_ORDER_BASELINE, §1.H BURN_BASELINE, §1.I-1.L,
and the reference state machine of §5.2):

- hole cards one at a time clockwise, starting with the first seat left of the button, the
  button last, two passes; no burn before the initial deal (roberts-rules-v11.txt, Section 4,
  Button and Blind Use, intro: "The player with the button is last to receive cards on the
  initial deal"; Glossary, BURNCARD). Heads-up the non-button player gets the first card, which
  is the same rule (azwine-tour-tournament-rules.txt, When Only Two Players Remain r.2);
- then burn + 3 (flop), burn + 1 (turn), burn + 1 (river), each only once the betting round
  before it is complete (RR Section 5, Holdem, r.5; Section 3, Irregularities, r.15), except that
  when at most one player is not all-in the rest of the board is dealt without betting and is not
  premature (ALLIN_RUNOUT_NOT_PREMATURE).

A card is checked the moment it leaves the shoe (``draw``) against the expectation and the betting
state of that moment. Where the draw alone cannot tell what happened (right after the initial
deal, before the preflop betting is complete, a card may be an extra hole card or a premature
burn; right after the flop, before any flop action, a card may be a fourth flop card or a
premature turn), the card's zone read decides, judged with the state as it was when the card
left the shoe. Findings about a card carry the ``seq`` of its ``shoe.draw``.

After the first finding about the procedure the monitor stops judging the dealing for the rest of
the hand (v1 does not yet follow remedies, so anything further would be spurious), except the two
escalations the rules name: a second exposed hole card, and a second extra card. A misdeal-level
finding marks the hand void: it waits for ``misdeal.declared``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from controller.rules.betting import Betting, post_name
from controller.rules.catalogue import CATALOGUE, ORDINALS, make_finding
from controller.rules.findings import Finding

HOLE_CARDS = 2  # hold'em (roberts-rules-v11.txt, Section 5, Holdem, intro)
# What follows the initial deal, card by card: (zone, betting rounds that must be complete).
POST_DEAL: tuple[tuple[str, int], ...] = (
    ("burn", 1), ("board", 1), ("board", 1), ("board", 1),  # flop
    ("burn", 2), ("board", 2),  # turn
    ("burn", 3), ("board", 3),  # river
)
STREET_DEALT = {1: "flop", 2: "turn", 3: "river"}
PREMATURE = {1: "FLOP_PREMATURE", 2: "TURN_PREMATURE", 3: "RIVER_PREMATURE"}
ESCALATIONS = {
    "MISDEAL_TWO_OR_MORE_CARDS_EXPOSED": "HOLECARD_EXPOSED_SINGLE_REPLACE",
    "MISDEAL_TWO_OR_MORE_EXTRA_CARDS": "EXTRA_CARD_SINGLE_BECOMES_BURN",
}

# How a draw is judged when the draw alone cannot tell.
JUDGE_NOW = ""
EXTRA_OR_FLOP = "extra-or-premature-flop"
FOUR_OR_TURN = "four-card-flop-or-premature-turn"
FLAGGED = "flagged"  # already judged at the draw


@dataclass(frozen=True)
class Context:
    """The betting state when a card left the shoe (premature is decided by it)."""

    rounds_done: int
    over: bool  # no betting round remains
    hand_over: bool  # one player left
    street: int
    street_actions: int

    @classmethod
    def of(cls, b: Betting) -> Context:
        return cls(b.rounds_done, b.no_more_betting, b.hand_over, b.street, b.actions)

    @property
    def flop_actions(self) -> int:
        if self.street == 1:
            return self.street_actions
        return 1 if self.street > 1 and not self.over else 0


@dataclass(frozen=True)
class CardState:
    """A tag seen in this hand."""

    uid: str
    card: str | None  # None: not in the registered deck
    n: int  # draw ordinal in this hand (0 = first card off the shoe)
    seq: int  # seq of its shoe.draw (or of its first read when the shoe missed it)
    ctx: Context
    how: str = JUDGE_NOW
    zone: str | None = None
    judged: bool = False  # its first zone read has been judged

    @property
    def name(self) -> str:
        return self.card or f"tag {self.uid}"


@dataclass(frozen=True)
class Deal:
    """The cards of one hand and the monitor's memory of them."""

    order: tuple[int, ...]  # dealing order: left of the button first, the button last
    cards: Mapping[str, CardState] = field(default_factory=lambda: MappingProxyType({}))
    sequence: tuple[str, ...] = ()  # uids in the order of their latest zone read
    draws: int = 0
    exposed: tuple[str, ...] = ()  # hole cards exposed by the dealer
    extras: tuple[str, ...] = ()  # extra cards to seats after the starting hands
    pending_extra: bool = False  # one extra card, not yet judged (a second may follow)
    # The table layer's word on seats not dealt in: seat -> why (sitting out, waiting for the
    # big blind, ...), and seats that owe missed blinds (seat -> what they owe).
    why: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))
    owes: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))
    # A first-pass hole card that passed the seat due it (uid): if the next card carries on
    # from it, the dealer left that seat out altogether (refined to a dealt-out finding).
    skipped: str = ""
    # Boxed cards (uid, card name, found during the initial deal): scraps of paper, not dealt.
    boxed: tuple[tuple[str, str, bool], ...] = ()
    off: str = ""  # the code that stopped the monitor ("" while it judges)
    void: bool = False  # a misdeal-level finding: the hand waits for misdeal.declared
    stub_shuffles: int = 0  # shuffle.done keys during the hand (a remedy's stub reshuffle)

    # --- questions -----------------------------------------------------------------------------

    @property
    def hole_total(self) -> int:
        return HOLE_CARDS * len(self.order)

    def target(self, n: int) -> int:
        """The seat due the n-th hole card."""
        return self.order[n % len(self.order)]

    def in_zone(self, zone: str) -> tuple[str, ...]:
        return tuple(
            c.name for u in self.sequence if (c := self.cards[u]).zone == zone
        )

    def hole(self, seat: int) -> tuple[str, ...]:
        return self.in_zone(f"seat:{seat}")

    @property
    def board(self) -> tuple[str, ...]:
        return self.in_zone("board")

    @property
    def burns(self) -> int:
        return len(self.in_zone("burn"))

    def known(self, card: str) -> list[CardState]:
        return [c for c in self.cards.values() if c.card == card]


def new_deal(order: Sequence[int], why: Mapping[int, str] | None = None,
             owes: Mapping[int, str] | None = None) -> Deal:
    """A new deal to ``order`` (the seats dealt in, in dealing order)."""
    return Deal(order=tuple(order), why=MappingProxyType(dict(why or {})),
                owes=MappingProxyType(dict(owes or {})))


def stub_shuffled(deal: Deal) -> Deal:
    """The dealer reshuffled the stub during the hand (a remedy: RR Section 5 Holdem r.7, the
    premature turn; Section 3 r.16). Card positions predicted before it no longer hold."""
    return replace(deal, stub_shuffles=deal.stub_shuffles + 1)


def deal_order(button: int, players: Sequence[int], table_seats: int) -> tuple[int, ...]:
    """Players clockwise starting left of the button, the button (if a player) last."""
    ring = [((s - button - 1) % table_seats, s) for s in players]
    return tuple(s for _, s in sorted(ring))


# --- flagging ----------------------------------------------------------------------------------


def _may_flag(deal: Deal, code: str) -> bool:
    if deal.void:
        return False
    return not deal.off or ESCALATIONS.get(code) == deal.off


def _flag(deal: Deal, finding: Finding, out: list[Finding]) -> Deal:
    out.append(finding)
    void = deal.void or CATALOGUE[finding.code].severity == "misdeal"
    return replace(deal, off=finding.code, void=void)


def _with(deal: Deal, c: CardState) -> Deal:
    cards = dict(deal.cards)
    cards[c.uid] = c
    return replace(deal, cards=MappingProxyType(cards))


# --- a card leaves the shoe --------------------------------------------------------------------


def draw(
    deal: Deal, uid: str, card: str | None, face_up: bool, seq: int, b: Betting, deck: str
) -> tuple[Deal, list[Finding]]:
    """A card left the shoe: check it against the expectation at this moment."""
    out: list[Finding] = []
    if uid in deal.cards or any(b[0] == uid for b in deal.boxed):
        # The same tag read again at the shoe: one card, not two; a boxed card is not dealt.
        return deal, out
    n = deal.draws
    ctx = Context.of(b)
    c = CardState(uid=uid, card=card, n=n, seq=seq, ctx=ctx)
    deal = replace(deal, draws=n + 1)
    if not deal.void:
        if card is None:
            deal = _flag(deal, make_finding("UNKNOWN_TAG", seq, fill={"uid": uid, "deck": deck},
                                            message=f"Tag {uid} is not in the registered deck."),
                         out)
        else:
            twins = deal.known(card)
            if twins:
                seats = sorted({int(t.zone[5:]) for t in twins if t.zone and t.zone[:5] == "seat:"})
                deal = _flag(deal, make_finding(
                    "DUPLICATE_CARD", seq, seats=seats, cards=[card],
                    message=f"Tags {twins[0].uid} and {uid} both carry {card}."), out)
    if out:
        return _with(deal, replace(c, how=FLAGGED)), out
    if n < deal.hole_total:
        if face_up:
            deal, c = _exposure(deal, c, seq, out)
        return _with(deal, c), out
    how = JUDGE_NOW
    m = n - deal.hole_total
    if ctx.hand_over:
        if _may_flag(deal, "DRAW_AFTER_HAND_END"):
            deal = _flag(deal, make_finding("DRAW_AFTER_HAND_END", seq, cards=[c.name],
                                            message=f"{c.name} was drawn after everyone but one "
                                            "player had folded."), out)
        how = FLAGGED
    elif m >= len(POST_DEAL):
        if _may_flag(deal, "UNEXPECTED_CARD"):
            deal = _flag(deal, make_finding("UNEXPECTED_CARD", seq, cards=[c.name], fill={
                "detail": f"{c.name} left the shoe after the river: no more cards are dealt "
                "in this hand."}), out)
        how = FLAGGED
    elif not ctx.over and ctx.rounds_done < POST_DEAL[m][1]:
        if ctx.rounds_done == 0:
            how = EXTRA_OR_FLOP  # an extra hole card or a premature burn: the zone will tell
        elif ctx.rounds_done == 1 and (ctx.street == 0 or ctx.street_actions == 0):
            how = FOUR_OR_TURN  # a fourth flop card or a premature turn burn
        else:
            code = PREMATURE[ctx.rounds_done + 1]
            if _may_flag(deal, code):
                deal = _flag(deal, make_finding(code, seq, cards=[c.name]), out)
            how = FLAGGED
    return _with(deal, replace(c, how=how)), out


def _exposure(deal: Deal, c: CardState, seq: int, out: list[Finding]) -> tuple[Deal, CardState]:
    """A hole card exposed by the dealer (shoe face-up flag or the exposed-card key)."""
    if c.uid in deal.exposed:
        return deal, c
    deal = replace(deal, exposed=(*deal.exposed, c.uid))
    seat = deal.target(c.n)
    if c.n < 2:
        code = "MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED"
        if _may_flag(deal, code):
            deal = _flag(deal, make_finding(code, seq, seats=[seat], cards=[c.name],
                                            fill={"ordinal": ORDINALS[c.n]}), out)
    elif len(deal.exposed) == 1:
        code = "HOLECARD_EXPOSED_SINGLE_REPLACE"
        if _may_flag(deal, code):
            deal = _flag(deal, make_finding(code, seq, seats=[seat], cards=[c.name],
                                            expect=((f"seat:{seat}", None), ("burn", c.card))),
                         out)
    else:
        code = "MISDEAL_TWO_OR_MORE_CARDS_EXPOSED"
        if _may_flag(deal, code):
            ex = [deal.cards.get(u, c) for u in deal.exposed]
            seats = sorted({deal.target(e.n) for e in ex})
            deal = _flag(deal, make_finding(code, seq, seats=seats, cards=[e.name for e in ex]),
                         out)
    return deal, c


def exposed(deal: Deal, uid: str, by: str, seq: int) -> tuple[Deal, list[Finding]]:
    """The dealer's exposed-card key. A card a player exposes plays (RR Section 3,
    Irregularities, r.12); only dealer errors are irregular."""
    out: list[Finding] = []
    c = deal.cards.get(uid)
    if by != "dealer" or c is None or c.n >= deal.hole_total:
        return deal, out  # board cards are meant to be seen; a burn exposure has no rule
    deal, _ = _exposure(deal, c, c.seq, out)
    return deal, out


def boxed(deal: Deal, uid: str, card: str | None, seq: int) -> tuple[Deal, list[Finding]]:
    """The dealer's boxed-card key: ``uid`` was found face up in the deck (RR Section 3,
    Irregularities, r.7: "a meaningless scrap of paper ... replaced by the next card below it").
    Reported before it is dealt, or as the card just drawn (which is then taken back out of the
    count: the next card takes its place). A second boxed card during the initial deal is a
    misdeal (RR Section 3, Misdeals, r.2(c))."""
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
        deal = replace(deal, cards=MappingProxyType(cards), draws=deal.draws - 1,
                       sequence=tuple(u for u in deal.sequence if u != uid),
                       exposed=tuple(u for u in deal.exposed if u != uid),
                       extras=tuple(u for u in deal.extras if u != uid))
    initial = deal.draws < deal.hole_total
    deal = replace(deal, boxed=(*deal.boxed, (uid, name, initial)))
    in_deal = [b[1] for b in deal.boxed if b[2]]
    if initial and len(in_deal) >= 2:
        code = "MISDEAL_TWO_OR_MORE_BOXED_CARDS"
        if not deal.void:
            deal = _flag(deal, make_finding(code, seq, cards=in_deal), out)
        return deal, out
    out.append(make_finding("BOXED_CARD_SINGLE", seq, cards=[name]))
    return deal, out


# --- a card is read in a zone ------------------------------------------------------------------


def read(deal: Deal, uid: str, zone: str, seq: int) -> tuple[Deal, list[Finding]]:
    """A card is read in a zone: confirm or judge where the drawn card went."""
    out: list[Finding] = []
    c = deal.cards.get(uid)
    if c is None:
        return deal, out
    seq_order = (*(u for u in deal.sequence if u != uid), uid)
    deal = replace(deal, sequence=seq_order)
    first = not c.judged
    c = replace(c, zone=zone, judged=True)
    deal = _with(deal, c)
    if not first or c.how == FLAGGED:
        return deal, out
    if c.n < deal.hole_total:
        return _judge_hole(deal, c, zone, out), out
    if deal.pending_extra and not (c.how == EXTRA_OR_FLOP and zone.startswith("seat:")):
        deal, flushed = moving_on(deal)
        out.extend(flushed)
    if c.how == EXTRA_OR_FLOP:
        return _judge_extra_or_flop(deal, c, zone, out), out
    if c.how == FOUR_OR_TURN:
        if zone == "board":
            return _four_card_flop(deal, c, out), out
        code = "TURN_PREMATURE" if zone == "burn" else "UNEXPECTED_CARD"
        return _flag_card(deal, c, code, zone, out), out
    return _judge_slot(deal, c, zone, out), out


def _flag_card(deal: Deal, c: CardState, code: str, zone: str, out: list[Finding]) -> Deal:
    if not _may_flag(deal, code):
        return deal
    fill = {"detail": f"{c.name} went to {_zone_name(zone)}, which the dealing procedure did "
                      "not expect now."}
    return _flag(deal, make_finding(code, c.seq, cards=[c.name], fill=fill), out)


def _zone_name(zone: str) -> str:
    return f"seat {zone[5:]}" if zone.startswith("seat:") else f"the {zone}"


def _judge_hole(deal: Deal, c: CardState, zone: str, out: list[Finding]) -> Deal:
    if deal.skipped:
        return _dealt_out(deal, c, zone, out)
    expected = deal.target(c.n)
    if zone == f"seat:{expected}":
        return deal
    landed = int(zone[5:]) if zone.startswith("seat:") else None
    fill = {"expected": expected, "landed": _zone_name(zone)}
    if landed is not None and landed not in deal.order and landed in deal.owes:
        # A player owing missed blinds dealt in without posting: not a misdeal
        # (roberts-rules-v11.txt, Section 4, Rules for Using Blinds, r.11).
        code = "MISSED_BLIND_PLAYER_DEALT_IN"
        seats: list[int] = [landed]
        fill["owes"] = deal.owes[landed]
    elif landed is not None and landed not in deal.order:
        code = "MISDEAL_DEALT_TO_EMPTY_OR_INELIGIBLE_SEAT"
        seats = [landed]
        fill["why"] = deal.why.get(landed, "an empty seat")
    elif c.n == 0:
        code = "MISDEAL_FIRST_CARD_WRONG_POSITION"
        seats = [expected] if landed is None else [expected, landed]
    elif landed is not None and landed == deal.target(c.n + 1):
        # The due seat was skipped: it can no longer get its card in proper sequence, so it
        # ends the deal one card short (RR Section 3, Misdeals, r.2(e) and its exception).
        code = "MISDEAL_INCORRECT_CARD_COUNT"
        seats = [expected]
        fill["detail"] = (f"Seat {expected} was skipped: {c.name} went to seat {landed}, so seat "
                          f"{expected} is dealt one card too few.")
    else:
        code = "MISDEAL_CARD_OUT_OF_SEQUENCE"
        seats = [expected] if landed is None else [expected, landed]
    if not _may_flag(deal, code):
        return deal
    n = len(deal.order)
    if landed is not None and n >= 3 and c.n < n and landed == deal.target(c.n + 1):
        deal = replace(deal, skipped=c.uid)  # the next card may show the seat was dealt out
    return _flag(deal, make_finding(code, c.seq, seats=seats, cards=[c.name], fill=fill), out)


def _dealt_out(deal: Deal, c: CardState, zone: str, out: list[Finding]) -> Deal:
    """The card after one that passed its seat on the first pass. If it carries on from there,
    the dealer left the seat out altogether: the first finding (first card to the wrong
    position, or one card short) is refined to the seat dealt out (roberts-rules-v11.txt,
    Section 3, Misdeals, r.2(j)). Either way it is a misdeal; the redeal is the same."""
    first = deal.cards[deal.skipped]
    deal = replace(deal, skipped="")
    if c.n != first.n + 1 or zone != f"seat:{deal.target(c.n + 1)}":
        return deal
    seat = deal.target(first.n)
    finding = make_finding("MISDEAL_ENTITLED_PLAYER_DEALT_OUT", first.seq, seats=[seat],
                           cards=[first.name], fill={"landed": deal.target(first.n + 1)})
    return _flag(deal, finding, out)


def _judge_extra_or_flop(deal: Deal, c: CardState, zone: str, out: list[Finding]) -> Deal:
    if zone.startswith("seat:"):
        # After the starting hands and before the first betting round: an extra card
        # (RR Section 3, Irregularities, r.11; Section 3, Misdeals, r.2(d)).
        deal = replace(deal, extras=(*deal.extras, c.uid))
        if len(deal.extras) == 1:
            return replace(deal, pending_extra=True)
        code = "MISDEAL_TWO_OR_MORE_EXTRA_CARDS"
        deal = replace(deal, pending_extra=False)
        if not _may_flag(deal, code):
            return deal
        ex = [deal.cards[u] for u in deal.extras]
        seats = [int(e.zone[5:]) for e in ex if e.zone and e.zone.startswith("seat:")]
        return _flag(deal, make_finding(code, c.seq, seats=seats, cards=[e.name for e in ex]),
                     out)
    code = "FLOP_PREMATURE" if zone in ("burn", "board") else "UNEXPECTED_CARD"
    return _flag_card(deal, c, code, zone, out)


def _four_card_flop(deal: Deal, c: CardState, out: list[Finding]) -> Deal:
    code = "FLOP_TOO_MANY_CARDS"
    if not _may_flag(deal, code):
        return deal
    cards = list(deal.board)
    return _flag(deal, make_finding(code, c.seq, cards=cards, fill={"count": len(cards)},
                                    message=f"Four-card flop: {c.name} is a fourth board card."),
                 out)


def _judge_slot(deal: Deal, c: CardState, zone: str, out: list[Finding]) -> Deal:
    m = c.n - deal.hole_total
    want, _ = POST_DEAL[m]
    if zone == want:
        return deal
    if zone not in ("burn", "board"):
        return _flag_card(deal, c, "UNEXPECTED_CARD", zone, out)
    burns = [deal.cards[u].name for u in deal.sequence
             if deal.cards[u].zone == "burn" and u != c.uid]
    prev_burn = burns[-1] if burns else "?"
    if m == 0:  # the flop burn went to the board
        return _flag_fix(deal, c, "FLOP_BURN_ERROR", out,
                         f"No card was burned before the flop: {c.name} went to the board.",
                         f"move {c.name} to the burn (it is the proper burncard) and deal the "
                         "flop from the next three cards.")
    if m == 1:  # a second burn before the flop
        return _flag_fix(deal, c, "FLOP_BURN_ERROR", out,
                         f"Two cards were burned before the flop: {prev_burn} and {c.name}.",
                         f"{c.name} is the proper first flop card: turn it onto the board and "
                         "deal the other two flop cards from the top of the deck.")
    if m == 4 and c.ctx.flop_actions == 0:
        return _four_card_flop(deal, c, out)
    if m in (4, 6):
        street = STREET_DEALT[POST_DEAL[m][1]]
        return _flag_fix(deal, c, "BURN_MISSING_OR_EXTRA", out,
                         f"No card was burned before the {street}: {c.name} went to the board.",
                         f"move {c.name} to the burn (it is the proper burncard) and turn the "
                         f"next card as the {street}.", street)
    if m in (5, 7):
        street = STREET_DEALT[POST_DEAL[m][1]]
        return _flag_fix(deal, c, "BURN_MISSING_OR_EXTRA", out,
                         f"Two cards were burned before the {street}: {prev_burn} and {c.name}.",
                         f"{c.name} is the proper {street} card: turn it onto the board.", street)
    return _flag_card(deal, c, "UNEXPECTED_CARD", zone, out)


def _flag_fix(deal: Deal, c: CardState, code: str, out: list[Finding], detail: str, fix: str,
              street: str = "flop") -> Deal:
    if not _may_flag(deal, code):
        return deal
    fill = {"detail": detail, "fix": fix, "street": street}
    return _flag(deal, make_finding(code, c.seq, cards=[c.name], fill=fill), out)


def moving_on(deal: Deal) -> tuple[Deal, list[Finding]]:
    """The dealer has moved on (an action, a card elsewhere, the hand's end): a single extra card
    is now known to be one extra card, not the first of two."""
    out: list[Finding] = []
    if not deal.pending_extra:
        return deal, out
    deal = replace(deal, pending_extra=False)
    c = deal.cards[deal.extras[0]]
    code = "EXTRA_CARD_SINGLE_BECOMES_BURN"
    if not _may_flag(deal, code):
        return deal, out
    seat = int(c.zone[5:]) if c.zone and c.zone.startswith("seat:") else deal.order[0]
    deal = _flag(deal, make_finding(code, c.seq, seats=[seat], cards=[c.name],
                                    expect=(("burn", c.card),)), out)
    return deal, out


def leave(deal: Deal, uid: str, zone: str) -> Deal:
    c = deal.cards.get(uid)
    if c is None or c.zone != zone:
        return deal
    return _with(deal, replace(c, zone=None))


# --- what comes next -----------------------------------------------------------------------------


def expectation(deal: Deal, b: Betting) -> str:
    """A short sentence of what the monitor expects next."""
    if deal.void:
        return "misdeal: waiting for the misdeal to be declared"
    if deal.off:
        return f"the remedy for {deal.off} (v1 does not follow remedies)"
    if b.blinds_due:
        seat, _, name, _ = b.blinds_due[0]
        return f"seat {seat} posts the {post_name(name)}"
    if deal.draws < deal.hole_total:
        n = deal.draws
        return f"hole card {n + 1} of {deal.hole_total} to seat {deal.target(n)}"
    if b.hand_over:
        return "award the pot (no more cards)"
    m = deal.draws - deal.hole_total
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


def betting_street(b: Betting) -> str:
    return ("preflop", "flop", "turn", "river")[min(b.street, 3)]
