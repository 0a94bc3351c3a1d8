"""The board-game dealing procedure: what card comes next, and what went wrong, card by card.

The games with a board (hold'em, Omaha, five-card Omaha, the Pineapples, six-plus hold'em: every
``Variant`` whose streets deal board cards) share one procedure; the variant gives the number of
hole cards and the streets. The betting is the hand engine's (``engine.py``, through the
procedure monitor ``procedure.py``): this module sees it only through ``BettingView``.

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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Protocol

from controller.poker.records import replace
from controller.poker.variants import Variant
from controller.rules.findings.catalogue import CATALOGUE, ORDINALS, make_finding
from controller.rules.findings.finding import Finding
from controller.rules.procedure.initial_deal import KILLED, WrongPlace, passed_over, wrong_place
from controller.rules.procedure.remedy import (
    PUT,
    RETURN,
    SHUFFLE,
    STREET_BEFORE,
    Step,
    not_followed,
    wanted,
    went_to,
)
from controller.rules.procedure.remedy import zone_name as _zone_name

HOLE_CARDS = 2  # hold'em (roberts-rules-v11.txt, Section 5, Holdem, intro)
# What follows the initial deal, card by card: (zone, betting rounds that must be complete).
POST_DEAL: tuple[tuple[str, int], ...] = (
    ("burn", 1), ("board", 1), ("board", 1), ("board", 1),  # flop
    ("burn", 2), ("board", 2),  # turn
    ("burn", 3), ("board", 3),  # river
)
STREET_DEALT = {1: "flop", 2: "turn", 3: "river"}
BOARD = (3, 1, 1)  # the flop, the turn, the river, each after a burn
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
REMEDY = "remedy"  # drawn while a remedy runs: judged against it at its zone read

# The moves of a remedy.
SEAT_ZONES = tuple(f"seat:{n}" for n in range(1, 11))


def board_layout(v: Variant) -> bool:
    """Does the variant deal the board this procedure knows: a flop of three, a turn and a
    river, each after a burn and a betting round?"""
    streets = [st for st in v.streets if st.board]
    return (tuple(st.board for st in streets) == BOARD and all(st.burn for st in streets)
            and not v.streets[0].board)


class BettingView(Protocol):
    """What the procedure needs to know of the betting (the hand engine's, by seat)."""

    @property
    def rounds_done(self) -> int: ...  # betting rounds complete (0 while preflop is open)

    @property
    def no_more_betting(self) -> bool: ...  # no betting round remains

    @property
    def hand_over(self) -> bool: ...  # one player left

    @property
    def street(self) -> int: ...  # the current (or last) betting round: 0 preflop .. 3 river

    @property
    def actions(self) -> int: ...  # voluntary actions on that round

    @property
    def to_act(self) -> int | None: ...

    @property
    def post_due(self) -> tuple[int, str] | None: ...  # the next forced post (seat, its name)


@dataclass(frozen=True)
class Context:
    """The betting state when a card left the shoe (premature is decided by it)."""

    rounds_done: int
    over: bool  # no betting round remains
    hand_over: bool  # one player left
    street: int
    street_actions: int

    @classmethod
    def of(cls, b: BettingView) -> Context:
        return cls(b.rounds_done, b.no_more_betting, b.hand_over, b.street, b.actions)

    @property
    def flop_actions(self) -> int:
        if self.street == 1:
            return self.street_actions
        return 1 if self.street > 1 and not self.over else 0

    def early(self, rounds: int) -> bool:
        """Was the betting round before a card needing ``rounds`` complete rounds still open?"""
        return not self.over and self.rounds_done < rounds


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
    m: int = -1  # its slot in POST_DEAL (cards after the initial deal), -1 for hole cards
    home: str = ""  # the seat zone it was first read in (a hole card)
    mucked: bool = False  # read in the muck after its seat

    @property
    def name(self) -> str:
        return self.card or f"tag {self.uid}"


STREET_ROUNDS = {"flop": 1, "turn": 2, "river": 3}  # rounds complete before a street is dealt


@dataclass(frozen=True)
class Remedy:
    """A remedy being followed: the moves still due, in order."""

    code: str
    seq: int
    steps: tuple[Step, ...]
    resume: int  # the POST_DEAL slot the procedure resumes at once every move is made
    first: int  # cards drawn from this ordinal on (after the initial deal) are the remedy's
    street: str = ""  # a premature street: the rest of it may still come out of the shoe
    tail: int = 0  # premature board cards that may still follow
    board_seen: bool = False  # a premature board card has been seen
    slot: int = 0  # the POST_DEAL slot of the finding's card
    anchor: str = ""  # a premature card flagged at its draw: its first read builds the steps

    @property
    def after(self) -> str:
        return f"{self.code} (seq {self.seq})"

    def wanted(self) -> str:
        return wanted(self.steps)


def _expect(steps: Sequence[Step]) -> tuple[tuple[str, str | None], ...]:
    return tuple((s.zone, s.name or None) for s in steps if s.kind == PUT)


@dataclass(frozen=True)
class Deal:
    """The cards of one hand and the monitor's memory of them."""

    order: tuple[int, ...]  # dealing order: left of the button first, the button last
    hole_cards: int = HOLE_CARDS  # each player's starting hand (Omaha 4, Pineapple 3, ...)
    game: str = "hold'em"  # the game's name, for people
    # The house's remedies where the books disagree (house_rules.py four_card_flop,
    # flop_no_burn; research/irregularities.md D-05, D-08).
    four_card_flop: str = "redeal"
    flop_no_burn: str = "proper_burn"
    # ... and the rest of research/irregularities.md Part 2 the board procedure follows
    # (house_rules.py first_cards_exposed D-03, empty_seat_cards D-04, allin_burn_fix D-22,
    # short_hand_exception D-34)
    first_exposed: str = "first_or_second"
    empty_seat: str = "misdeal"
    allin_burn: str = "if_intact"
    short_hand: str = "top_card_in_sequence"
    button_skip: int = -1  # the draw ordinal where the button was passed over (D-34), or -1
    # cards dealt to a seat not in the hand and killed (D-04): (uid, card name, seat)
    killed: tuple[tuple[str, str, int], ...] = ()
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
    # A hole card that passed over the seat due it, to the next seat (uid), not ruled yet: the
    # next card to the seat passed over is two cards out of sequence; otherwise the round's
    # counts decide once it is complete (initial_deal.passed_over).
    skipped: str = ""
    # Boxed cards (uid, card name, found during the initial deal): scraps of paper, not dealt.
    boxed: tuple[tuple[str, str, bool], ...] = ()
    off: str = ""  # the code that stopped the monitor ("" while it judges)
    void: bool = False  # a misdeal-level finding: the hand waits for misdeal.declared
    stub_shuffles: int = 0  # shuffle.done keys during the hand (a remedy's stub reshuffle)
    remedy: Remedy | None = None  # the remedy being followed
    skew: int = 0  # draws after the initial deal that POST_DEAL's slots do not count
    in_stub: tuple[str, ...] = ()  # tags a remedy returned to the stub: they may be drawn again
    retrieved: tuple[int, ...] = ()  # seats whose mucked hand was read back (raised once)
    scraps_dealt: tuple[str, ...] = ()  # boxed cards read in play (raised once)

    # --- questions -----------------------------------------------------------------------------

    @property
    def hole_total(self) -> int:
        return self.hole_cards * len(self.order)

    def target(self, n: int) -> int:
        """The seat due the n-th hole card. Once the button has been passed over on a pass
        (``button_skip``, AZW's "2 consecutive cards on the button"), every later card goes one
        seat on, and the button gets the last card of the deal."""
        if 0 <= self.button_skip <= n:
            if n == self.hole_total - 1:
                return self.order[-1]
            return self.order[(n + 1) % len(self.order)]
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

    def slot(self, n: int) -> int:
        """The POST_DEAL slot of the n-th card off the shoe."""
        return n - self.hole_total - self.skew


def new_deal(order: Sequence[int], why: Mapping[int, str] | None = None,
             owes: Mapping[int, str] | None = None, *, hole_cards: int = HOLE_CARDS,
             game: str = "hold'em", four_card_flop: str = "redeal",
             flop_no_burn: str = "proper_burn", first_exposed: str = "first_or_second",
             empty_seat: str = "misdeal", allin_burn: str = "if_intact",
             short_hand: str = "top_card_in_sequence") -> Deal:
    """A new deal of ``hole_cards`` each to ``order`` (the seats dealt in, in dealing order),
    under the house's choices where the books disagree (house_rules.py)."""
    return Deal(order=tuple(order), hole_cards=hole_cards, game=game,
                four_card_flop=four_card_flop, flop_no_burn=flop_no_burn,
                first_exposed=first_exposed, empty_seat=empty_seat, allin_burn=allin_burn,
                short_hand=short_hand,
                why=MappingProxyType(dict(why or {})), owes=MappingProxyType(dict(owes or {})))


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
    return _progressed(deal, replace(rem, steps=rem.steps[at + 1:], tail=0))


def deal_order(button: int, players: Sequence[int], table_seats: int) -> tuple[int, ...]:
    """Players clockwise starting left of the button, the button (if a player) last."""
    ring = [((s - button - 1) % table_seats, s) for s in players]
    return tuple(s for _, s in sorted(ring))


# --- flagging ----------------------------------------------------------------------------------


def _may_flag(deal: Deal, code: str) -> bool:
    if deal.void:
        return False
    return not deal.off or ESCALATIONS.get(code) == deal.off


def _flag(deal: Deal, finding: Finding, out: list[Finding], remedy: Remedy | None = None) -> Deal:
    """Raise a finding. One with a remedy the monitor follows starts it; any other procedure
    finding (or one while a remedy already runs) stops the monitor for the rest of the hand."""
    out.append(finding)
    void = deal.void or CATALOGUE[finding.code].severity == "misdeal"
    if remedy is not None and deal.remedy is None and not deal.off:
        return replace(deal, remedy=remedy, void=void)
    return replace(deal, off=finding.code, void=void, remedy=None)


def _with(deal: Deal, c: CardState) -> Deal:
    cards = dict(deal.cards)
    cards[c.uid] = c
    return replace(deal, cards=MappingProxyType(cards))


def _following(deal: Deal) -> Remedy | None:
    """The remedy being followed, if the monitor is judging."""
    if deal.off or deal.void:
        return None
    return deal.remedy


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
            deal = _flag(deal, make_finding("UNKNOWN_TAG", seq, fill={"uid": uid, "deck": deck},
                                            message=f"Tag {uid} is not in the registered deck."),
                         out)
        else:
            twins = [t for t in deal.known(card) if t.uid != uid]
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
    m = deal.slot(n)
    rem = _following(deal)
    if ctx.hand_over:
        if _may_flag(deal, "DRAW_AFTER_HAND_END"):
            deal = _flag(deal, make_finding("DRAW_AFTER_HAND_END", seq, cards=[c.name],
                                            message=f"{c.name} was drawn after everyone but one "
                                            "player had folded."), out)
        how = FLAGGED
    elif rem is not None and n >= rem.first:
        how = REMEDY  # judged against the remedy when its zone is read
    elif m >= len(POST_DEAL):
        if _may_flag(deal, "UNEXPECTED_CARD"):
            deal = _flag(deal, make_finding("UNEXPECTED_CARD", seq, cards=[c.name], fill={
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
            if _may_flag(deal, code):
                street = STREET_DEALT[ctx.rounds_done + 1]
                rem = _premature(code, c, None, street, m, deal.draws)
                deal = _flag(deal, make_finding(code, seq, cards=[c.name],
                                                expect=_expect(_premature_preview(street))),
                             out, rem)
            how = FLAGGED
    return _with(deal, replace(c, how=how, m=m)), out


def _exposure(deal: Deal, c: CardState, seq: int, out: list[Finding]) -> tuple[Deal, CardState]:
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
        if _may_flag(deal, code):
            deal = _flag(deal, make_finding(code, seq, seats=[seat], cards=[c.name],
                                            fill={"ordinal": ORDINALS[c.n]}), out)
    elif len(deal.exposed) == 1:
        code = "HOLECARD_EXPOSED_SINGLE_REPLACE"
        if _may_flag(deal, code):
            # RR Section 5, Holdem, r.1: "After completing the hand, the dealer replaces the card
            # with the top card on the deck, and the exposed card is then used for the
            # burncard": the first card after the deal goes to the seat, the exposed card to
            # the burn, and the flop follows without another burn.
            steps = (Step(PUT, f"seat:{seat}"), Step(PUT, "burn", c.uid, c.name))
            rem = Remedy(code, seq, steps, resume=1, first=deal.hole_total)
            deal = _flag(deal, make_finding(code, seq, seats=[seat], cards=[c.name],
                                            expect=_expect(steps),
                                            setting="first" if c.n < 2 else ""), out, rem)
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
            deal = _flag(deal, make_finding(code, seq, cards=in_deal), out)
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
    deal = replace(deal, sequence=seq_order)
    first = not c.judged
    was = c.zone
    home = c.home or (zone if first and zone.startswith("seat:") and c.n < deal.hole_total
                      else "")
    mucked = c.mucked or (zone == "muck" and bool(home))
    back = c.mucked and zone == home
    c = replace(c, zone=zone, judged=True, home=home, mucked=mucked)
    deal = _with(deal, c)
    if back:
        deal = _retrieved(deal, c, seq, out)
    rem = _following(deal)
    if rem is not None:
        if first and rem.anchor == uid:
            rem = _anchored(rem, c, zone)
            deal = replace(deal, remedy=rem)
        lifted = _picks(rem, was, RETURN) if was is not None and was != zone else None
        if lifted is not None:
            # a card of the zone the remedy picks from has left it (set aside on the way)
            rem = _bind(rem, lifted, uid, c.name)
            rem = replace(rem, steps=rem.steps[:lifted] + rem.steps[lifted + 1:])
            deal = _progressed(deal, rem)
            if deal.remedy is None:
                return deal, out
            rem = deal.remedy
        named = any(s.uid == uid for s in rem.steps) or (
            was is not None and _picks(rem, was, PUT, zone) is not None)
        if (c.how == REMEDY and first) or (named and not first):
            return _follow(deal, rem, c, zone, first, seq, out, was), out
    if not first or c.how in (FLAGGED, REMEDY):
        return deal, out
    if c.n < deal.hole_total:
        return _judge_hole(deal, c, zone, out), out
    if deal.skipped:  # a card past the round: it is over
        deal = _passed_over(deal, True, out)
    if deal.pending_extra and not (c.how == EXTRA_OR_FLOP and zone.startswith("seat:")):
        deal, flushed = moving_on(deal)
        out.extend(flushed)
    if c.how == EXTRA_OR_FLOP:
        return _judge_extra_or_flop(deal, c, zone, out), out
    if c.how == FOUR_OR_TURN:
        if zone == "board":
            return _four_card_flop(deal, c, out), out
        if zone == "burn":
            return _premature_at_read(deal, c, "TURN_PREMATURE", "turn", zone, out), out
        return _flag_card(deal, c, "UNEXPECTED_CARD", zone, out), out
    return _judge_slot(deal, c, zone, out), out


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
    return _flag(deal, not_followed(seq, detail, "BOXED_CARD_SINGLE", want, cards=[scrap[1]]),
                 out)


def _retrieved(deal: Deal, c: CardState, seq: int, out: list[Finding]) -> Deal:
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


def _flag_card(deal: Deal, c: CardState, code: str, zone: str, out: list[Finding]) -> Deal:
    if not _may_flag(deal, code):
        return deal
    fill = {"detail": f"{c.name} went to {_zone_name(zone)}, which the dealing procedure did "
                      "not expect now."}
    return _flag(deal, make_finding(code, c.seq, cards=[c.name], fill=fill), out)


def _judge_hole(deal: Deal, c: CardState, zone: str, out: list[Finding]) -> Deal:
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
    if not _may_flag(deal, ruling.code):
        return deal
    return _flag(deal, ruling.finding(c.seq, c.name), out)


def _after_skip(deal: Deal, c: CardState, zone: str, out: list[Finding]) -> Deal:
    """A hole card after one that passed over its seat (``Deal.skipped``). The card right after
    it going to the seat passed over is two cards swapped: out of sequence (RR Section 3,
    Misdeals, r.2(f)). Otherwise the dealing is off its sequence, its cards are not judged one
    by one, and the counts are judged when the round is complete (``_passed_over``): at its
    last card here, or when the dealer moves on (``moving_on``)."""
    first = deal.cards.get(deal.skipped)
    if first is None:  # that card was taken out of the count since (boxed): judge this one
        return _judge_hole(replace(deal, skipped=""), c, zone, out)
    due = deal.target(first.n)
    if c.n == first.n + 1 and zone == f"seat:{due}":
        deal = replace(deal, skipped="")
        ruling = wrong_place(first=False, due=due, zone=first.home or first.zone or "",
                             dealt_in=deal.order, owes=deal.owes, why=deal.why,
                             empty_seat=deal.empty_seat, lowball=False)
        if not _may_flag(deal, ruling.code):
            return deal
        return _flag(deal, ruling.finding(first.seq, first.name), out)
    if c.n == deal.hole_total - 1 or not zone.startswith("seat:"):
        return _passed_over(deal, True, out)
    return deal


def _passed_over(deal: Deal, complete: bool, out: list[Finding]) -> Deal:
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
    if not _may_flag(deal, ruling.code):
        return deal
    return _flag(deal, ruling.finding(first.seq, first.name), out)


def _killed(deal: Deal, c: CardState, ruling: WrongPlace, out: list[Finding]) -> Deal:
    """A hole card dealt to a seat not in the hand, under the house setting empty_seat_cards =
    killed_except_lowball (research D-04: WSOP's misdeal list, Section 3 Misdeals r.1, has no
    such item; what becomes of the card is NOT IN THE RULEBOOKS). The card is dead: it is taken
    out of the count, as a boxed card is, so the next card is due to the seat this one was due
    to; its later reads are not judged. Raised once per seat."""
    code = ruling.code
    if not _may_flag(deal, code):
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
    if not _may_flag(deal, code):
        return deal
    button = deal.order[-1]
    out.append(make_finding(code, c.seq, seats=[button], cards=[c.name],
                            fill={"landed": landed}, expect=((f"seat:{button}", None),)))
    return replace(deal, button_skip=c.n)


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
    if zone in ("burn", "board"):
        return _premature_at_read(deal, c, "FLOP_PREMATURE", "flop", zone, out)
    return _flag_card(deal, c, "UNEXPECTED_CARD", zone, out)


def _premature_at_read(deal: Deal, c: CardState, code: str, street: str, zone: str,
                       out: list[Finding]) -> Deal:
    if not _may_flag(deal, code):
        return deal
    rem = _premature(code, c, zone, street, c.m, deal.draws)
    fill = {"detail": f"{c.name} went to {_zone_name(zone)}."}
    return _flag(deal, make_finding(code, c.seq, cards=[c.name], fill=fill,
                                    expect=_expect(rem.steps)), out, rem)


def _four_card_flop(deal: Deal, c: CardState, out: list[Finding]) -> Deal:
    code = "FLOP_TOO_MANY_CARDS"
    if not _may_flag(deal, code):
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
    return _flag(deal, make_finding(code, c.seq, cards=cards, fill={"count": len(cards)},
                                    message=f"Four-card flop: {c.name} is a fourth board card.",
                                    expect=_expect(steps), setting=deal.four_card_flop),
                 out, rem)


def _judge_slot(deal: Deal, c: CardState, zone: str, out: list[Finding]) -> Deal:
    m = c.m
    want, _ = POST_DEAL[m]
    if zone == want:
        return deal
    if zone not in ("burn", "board"):
        return _flag_card(deal, c, "UNEXPECTED_CARD", zone, out)
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
        return _four_card_flop(deal, c, out)
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
    return _flag_card(deal, c, "UNEXPECTED_CARD", zone, out)


def _flag_fix(deal: Deal, c: CardState, code: str, out: list[Finding], detail: str, fix: str,
              rem: Remedy, street: str = "flop", setting: str = "") -> Deal:
    if not _may_flag(deal, code):
        return deal
    fill = {"detail": detail, "fix": fix, "street": street}
    return _flag(deal, make_finding(code, c.seq, cards=[c.name], fill=fill,
                                    expect=_expect(rem.steps), setting=setting), out, rem)


def moving_on(deal: Deal, dealt: bool = True) -> tuple[Deal, list[Finding]]:
    """The dealer has moved on (an action, a card elsewhere, the hand's end; ``dealt``: to the
    betting or the board, so the round of dealing is over, unlike a misdeal declared in the
    middle of it): a seat passed over is ruled from the counts, and a single extra card is now
    known to be one extra card, not the first of two."""
    out: list[Finding] = []
    if deal.skipped:
        deal = _passed_over(deal, dealt, out)
    if not deal.pending_extra:
        return deal, out
    deal = replace(deal, pending_extra=False)
    c = deal.cards[deal.extras[0]]
    code = "EXTRA_CARD_SINGLE_BECOMES_BURN"
    if not _may_flag(deal, code):
        return deal, out
    seat = int(c.zone[5:]) if c.zone and c.zone.startswith("seat:") else deal.order[0]
    # RR Section 3, Irregularities, r.11; Section 5, Holdem, r.2: "returned to the deck and
    # used as the burncard": that same tag is the next burn, then the flop.
    steps = (Step(PUT, "burn", c.uid, c.name, rounds=1),)
    rem = Remedy(code, c.seq, steps, resume=1, first=deal.draws)
    deal = replace(deal, in_stub=(*deal.in_stub, c.uid))
    deal = _flag(deal, make_finding(code, c.seq, seats=[seat], cards=[c.name],
                                    expect=_expect(steps)), out, rem)
    return deal, out


def leave(deal: Deal, uid: str, zone: str) -> Deal:
    c = deal.cards.get(uid)
    if c is None or c.zone != zone:
        return deal
    deal = _with(deal, replace(c, zone=None))
    rem = _following(deal)
    if rem is None:
        return deal
    at = next((i for i, s in enumerate(rem.steps) if s.uid == uid), None)
    if at is None:
        picked = _picks(rem, zone, RETURN)
        if picked is not None:
            rem = _bind(rem, picked, uid, c.name)
            at = picked
    if at is None or rem.steps[at].kind != RETURN:
        return deal  # not due back in the stub yet (a premature turn card goes aside first)
    # The card goes back into the stub, as the remedy says.
    deal = replace(deal, in_stub=(*deal.in_stub, uid))
    return _progressed(deal, replace(rem, steps=rem.steps[:at] + rem.steps[at + 1:]))


# --- following a remedy ------------------------------------------------------------------------


def _premature_preview(street: str) -> tuple[Step, ...]:
    """The moves after a premature card whose zone is not read yet (for the finding's
    ``expect``): the cards the rules name, the premature card itself unknown."""
    if street == "turn":
        return (Step(PUT, "aside"), Step(PUT, "burn", rounds=2), Step(PUT, "board", rounds=2),
                Step(PUT, "board", rounds=3))
    rounds = 1 if street == "flop" else 3
    return tuple(Step(PUT, "board", rounds=rounds) for _ in range(3 if street == "flop" else 1))


def _premature(code: str, c: CardState, zone: str | None, street: str, slot: int,
               first: int) -> Remedy:
    """The remedy for a premature card (RR Section 5, Holdem, r.5: the card(s) may not be
    used; the betting is completed, then r.7 for the flop: board cards mixed with the stub,
    the burn stays, a new flop without burning; r.8 for the turn: the premature card out of
    play, the burn and what would have been the river as the turn, then the stub reshuffled
    with the set-aside card and the river without burning; the river "reshuffled and dealt in
    the same manner"). The rest of the premature street may still come out of the shoe."""
    rem = Remedy(code, c.seq, (), resume=4 if street == "flop" else len(POST_DEAL),
                 first=first, street=street, slot=slot, anchor=c.uid)
    return rem if zone is None else _anchored(rem, c, zone)


def _anchored(rem: Remedy, c: CardState, zone: str) -> Remedy:
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


def _picks(rem: Remedy, from_zone: str, kind: str, zone: str = "") -> int | None:
    """The first step of ``kind`` that picks a card of ``from_zone`` (to ``zone`` for PUT)."""
    return next((i for i, s in enumerate(rem.steps) if s.kind == kind and not s.uid
                 and s.from_zone == from_zone and (not zone or s.zone == zone)), None)


def _bind(rem: Remedy, at: int, uid: str, name: str) -> Remedy:
    """The card picked for step ``at`` is ``uid``: that step and the later steps picking from
    the same zone are that card now."""
    pick = rem.steps[at].from_zone
    steps = tuple(replace(s, uid=uid, name=name, from_zone="")
                  if i >= at and s.from_zone == pick and not s.uid else s
                  for i, s in enumerate(rem.steps))
    return replace(rem, steps=steps)


def _follow(deal: Deal, rem: Remedy, c: CardState, zone: str, first: bool, seq: int,
            out: list[Finding], was: str | None = None) -> Deal:
    """A card read while a remedy runs: the move the remedy calls for, or not. A finding about
    a card just drawn carries its draw's seq; about a card moved on the felt, the read's."""
    if c.how != REMEDY or not first:
        c = replace(c, seq=seq)
    if was is not None and not any(s.uid == c.uid for s in rem.steps):
        picked = _picks(rem, was, PUT, zone)
        if picked is not None:
            rem = _bind(rem, picked, c.uid, c.name)
    steps = list(rem.steps)
    named = next((i for i, s in enumerate(steps) if s.uid == c.uid), None)
    if named is not None:
        st = steps[named]
        if st.kind == PUT and zone == st.zone:
            if c.how == REMEDY and st.rounds and c.ctx.early(st.rounds):
                return _not_followed(deal, rem, c, zone, out, early=st.rounds)
            del steps[named]
            return _progressed(deal, replace(rem, steps=tuple(steps)))
        if zone == "aside" or (first and c.how != REMEDY):
            return deal  # set aside on the way, or where it first landed
        return _not_followed(deal, rem, c, zone, out)
    early = bool(rem.street) and c.ctx.early(STREET_ROUNDS[rem.street])
    if early and rem.tail > 0:
        # Drawn while the betting round was still open, before the stub reshuffle: the rest of
        # the premature street. After the reshuffle a card drawn early is the remedy not
        # followed (RR Section 5, Holdem, r.5: the betting is completed first).
        if zone == "board":
            return _progressed(deal, _add_tail(rem, c))
        if zone == "burn" and not rem.board_seen:
            return deal  # a second premature burn: it stays a burn and does not play
    elif rem.street and not early and not rem.board_seen:
        # Only a burn came out early: no board card was seen, so there is nothing to set aside
        # or reshuffle; the premature burn is the burncard and the street is dealt as usual.
        deal = replace(deal, remedy=None, skew=c.n - deal.hole_total - (rem.slot + 1))
        c = replace(c, how=JUDGE_NOW, m=rem.slot + 1)
        deal = _with(deal, c)
        return _judge_slot(deal, c, zone, out)
    fresh = next((i for i, s in enumerate(steps) if s.kind == PUT and not s.uid), None)
    shuffle = next((i for i, s in enumerate(steps) if s.kind == SHUFFLE), None)
    if fresh is None or (shuffle is not None and shuffle < fresh) or zone != steps[fresh].zone:
        return _not_followed(deal, rem, c, zone, out)
    if steps[fresh].rounds and c.ctx.early(steps[fresh].rounds):
        return _not_followed(deal, rem, c, zone, out, early=steps[fresh].rounds)
    del steps[fresh]
    return _progressed(deal, replace(rem, steps=tuple(steps), tail=0))


def _progressed(deal: Deal, rem: Remedy) -> Deal:
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
    return _flag(deal, not_followed(c.seq, detail, rem.after, rem.wanted(), cards=[c.name],
                                    message=f"{detail} The remedy of {rem.after} was not "
                                    "followed."), out)


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
    rem = _following(deal)
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
