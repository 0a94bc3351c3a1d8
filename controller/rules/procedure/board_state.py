"""The board procedure's memory of one hand, and the sequence it expects.

``Deal`` holds the cards of one hand as the board procedure (``board_deal.py``) has seen them,
each card's state when it left the shoe (``CardState``, ``Context``: the betting at that moment,
through ``BettingView``), and the remedy being followed (``Remedy``). The expected sequence is
here too: the hole cards in dealing order (``deal_order``, ``Deal.target``: one at a time,
clockwise, the button last), then the board after the deal, card by card (``POST_DEAL``: burn and
flop, burn and turn, burn and river, each after its betting round). And how a finding changes
the deal (``flag``): a remedy the monitor follows, or the monitor stopped for the hand. Pure: no
I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Protocol

from controller.poker.records import replace
from controller.poker.variants import Variant
from controller.rules.findings import CATALOGUE, Finding, make_finding
from controller.rules.procedure.remedy import PUT, Step, wanted
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


def expect_of(steps: Sequence[Step]) -> tuple[tuple[str, str | None], ...]:
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


def deal_order(button: int, players: Sequence[int], table_seats: int) -> tuple[int, ...]:
    """Players clockwise starting left of the button, the button (if a player) last."""
    ring = [((s - button - 1) % table_seats, s) for s in players]
    return tuple(s for _, s in sorted(ring))


# --- flagging ----------------------------------------------------------------------------------


def may_flag(deal: Deal, code: str) -> bool:
    """May ``code`` be raised now: not in a void hand; once the monitor is off, only as the
    escalation the rules name (``ESCALATIONS``: a second exposed hole card, a second extra card)."""
    if deal.void:
        return False
    return not deal.off or ESCALATIONS.get(code) == deal.off


def flag(deal: Deal, finding: Finding, out: list[Finding], remedy: Remedy | None = None) -> Deal:
    """Raise a finding. One with a remedy the monitor follows starts it; any other procedure
    finding (or one while a remedy already runs) stops the monitor for the rest of the hand."""
    out.append(finding)
    void = deal.void or CATALOGUE[finding.code].severity == "misdeal"
    if remedy is not None and deal.remedy is None and not deal.off:
        return replace(deal, remedy=remedy, void=void)
    return replace(deal, off=finding.code, void=void, remedy=None)


def with_card(deal: Deal, c: CardState) -> Deal:
    """The deal with this card's new state."""
    cards = dict(deal.cards)
    cards[c.uid] = c
    return replace(deal, cards=MappingProxyType(cards))


def following(deal: Deal) -> Remedy | None:
    """The remedy being followed, if the monitor is judging."""
    if deal.off or deal.void:
        return None
    return deal.remedy


def flag_card(deal: Deal, c: CardState, code: str, zone: str, out: list[Finding]) -> Deal:
    """Raise ``code`` (UNEXPECTED_CARD) for a card that went where the procedure expected none."""
    if not may_flag(deal, code):
        return deal
    fill = {"detail": f"{c.name} went to {_zone_name(zone)}, which the dealing procedure did "
                      "not expect now."}
    return flag(deal, make_finding(code, c.seq, cards=[c.name], fill=fill), out)
