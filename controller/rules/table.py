"""The table across hands: state and ``apply`` (state, event) -> Step.

Pure and deterministic: ``apply`` never mutates the state it is given (every state object is a
frozen dataclass; a change builds new objects and shares the rest), never reads a clock and never
raises. An event the table cannot apply now is recorded as a finding and leaves the state as it
was (docs/findings.md, EVENT_OUT_OF_PLACE), so a journal replays to the same states and findings.

Hands (roberts-rules-v11.txt, Section 4, Button and Blind Use):
- ``hand.start``: the button sits where the event says, else it moves to the next seat clockwise
  with a player who has chips ("moving button", Section 4 r.2(a)); the first hand with no button
  given puts it on the lowest such seat. After a misdeal the redeal keeps the button (Robert's
  Rules are silent; the tournament rule of azwine-tour-tournament-rules.txt, Misdeals (TDA #34)
  r.2, "the button does not move", is what Feltguard does). Small blind = the first player
  clockwise from the button, big blind the next (Section 4 intro); heads-up the button is the
  small blind and the other player gets the first card (Section 4, Rules for Using Blinds r.3).
- ``hand.end`` awards the pots (``pots.settle``) when betting is over; ``misdeal.declared`` voids
  the hand and returns every chip.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from controller.events import (
    Action,
    CardExposed,
    DeckRegister,
    Event,
    HandEnd,
    HandStart,
    MisdealDeclared,
    SeatLeave,
    SeatTake,
    ShoeDraw,
    ShuffleDone,
    TableSetup,
    ZoneLeave,
    ZoneRead,
)
from controller.rules import betting, dealing
from controller.rules.betting import Betting
from controller.rules.cards import DeckRegistry
from controller.rules.catalogue import make_finding
from controller.rules.dealing import Deal
from controller.rules.findings import Finding
from controller.rules.pots import PotAward, settle

_DEFAULT_SETUP = TableSetup()
_EMPTY_DECK = DeckRegistry()
IN_PLAY = ("preflop", "flop", "turn", "river", "showdown")


@dataclass(frozen=True)
class SeatInfo:
    """A player at the table and the chips in front of them between hands."""

    player: str
    stack: int


@dataclass(frozen=True)
class Hand:
    """The hand in progress (or the last one, once complete or void)."""

    number: int
    button: int
    small_blind: int | None
    big_blind: int | None
    betting: Betting
    deal: Deal
    phase: str = "preflop"
    cards_seen: int = 0
    showdown: tuple[int, ...] = ()

    @property
    def in_play(self) -> bool:
        return self.phase in IN_PLAY


@dataclass(frozen=True)
class TableState:
    """Everything the rules core knows about the table."""

    last_seq: int = 0
    setup: TableSetup = _DEFAULT_SETUP
    deck: DeckRegistry = _EMPTY_DECK
    seats: Mapping[int, SeatInfo] = field(default_factory=lambda: MappingProxyType({}))
    hand_number: int = 0
    hand: Hand | None = None
    findings: tuple[Finding, ...] = ()  # the current (or last) hand's findings
    results: tuple[PotAward, ...] = ()  # the pots awarded at the last hand.end
    last_button: int | None = None
    redeal: bool = False  # the last hand was a misdeal: the next hand keeps its button
    shuffled: bool = False  # the deck was shuffled since the last hand ended

    @property
    def phase(self) -> str:
        return self.hand.phase if self.hand is not None else "idle"


@dataclass(frozen=True)
class Step:
    """What ``apply`` returns: the new state, the findings this event raised and, at
    ``hand.end``, the pots awarded."""

    state: TableState
    findings: tuple[Finding, ...] = ()
    results: tuple[PotAward, ...] = ()


def initial_state() -> TableState:
    return TableState()


# --- apply ----------------------------------------------------------------------------------------


def apply(state: TableState, event: Event) -> Step:
    """Apply one table event. Pure; never raises on any sequence of well-typed events."""
    body = event.body
    seq = event.seq
    state = replace(state, last_seq=seq)
    if isinstance(body, TableSetup):
        return _setup(state, body, seq)
    if isinstance(body, SeatTake):
        return _seat_take(state, body, seq)
    if isinstance(body, SeatLeave):
        return _seat_leave(state, body, seq)
    if isinstance(body, DeckRegister):
        if state.hand is not None and state.hand.in_play:
            return _out_of_place(state, seq, "A new deck cannot be registered during a hand.")
        return Step(replace(state, deck=DeckRegistry.of(body.deck, body.tags)))
    if isinstance(body, HandStart):
        return _hand_start(state, body, seq)
    if isinstance(body, ShuffleDone):
        return Step(replace(state, shuffled=True))
    if isinstance(body, (ShoeDraw, ZoneRead, ZoneLeave, CardExposed)):
        return _card_event(state, body, seq)
    if isinstance(body, Action):
        return _action(state, body, seq)
    if isinstance(body, HandEnd):
        return _hand_end(state, seq)
    if isinstance(body, MisdealDeclared):
        return _misdeal(state, seq)
    return _out_of_place(state, seq, f"Unknown event {type(body).__name__}.")  # pragma: no cover


def _raise(state: TableState, findings: list[Finding] | tuple[Finding, ...]) -> TableState:
    if not findings:
        return state
    return replace(state, findings=state.findings + tuple(findings))


def _out_of_place(state: TableState, seq: int, detail: str) -> Step:
    f = make_finding("EVENT_OUT_OF_PLACE", seq, fill={"detail": detail}, message=detail)
    return Step(_raise(state, [f]), (f,))


def _in_play(state: TableState) -> bool:
    return state.hand is not None and state.hand.in_play


# --- set-up and seats -----------------------------------------------------------------------------


def _setup(state: TableState, body: TableSetup, seq: int) -> Step:
    if _in_play(state):
        return _out_of_place(state, seq, "The table cannot be set up again during a hand.")
    outside = sorted(s for s in state.seats if s > body.seats)
    if outside:
        return _out_of_place(state, seq, f"Seats {outside} are occupied but the table would have "
                             f"only {body.seats} seats.")
    return Step(replace(state, setup=body))


def _seat_take(state: TableState, body: SeatTake, seq: int) -> Step:
    if body.seat > state.setup.seats:
        return _out_of_place(state, seq, f"Seat {body.seat} does not exist at this "
                             f"{state.setup.seats}-seat table.")
    if _dealt_in(state, body.seat):
        return _out_of_place(state, seq, f"Seat {body.seat} is playing this hand; "
                             f"{body.player} cannot take it now.")
    seats = dict(state.seats)
    seats[body.seat] = SeatInfo(body.player, body.stack)  # a new player, or a re-buy
    return Step(replace(state, seats=MappingProxyType(seats)))


def _seat_leave(state: TableState, body: SeatLeave, seq: int) -> Step:
    if body.seat not in state.seats:
        return _out_of_place(state, seq, f"Seat {body.seat} is already empty.")
    if _dealt_in(state, body.seat):
        return _out_of_place(state, seq, f"Seat {body.seat} is playing this hand; it can leave "
                             "when the hand is over.")
    seats = dict(state.seats)
    del seats[body.seat]
    return Step(replace(state, seats=MappingProxyType(seats)))


def _dealt_in(state: TableState, seat: int) -> bool:
    h = state.hand
    return h is not None and h.in_play and h.betting.player(seat) is not None


# --- a new hand -----------------------------------------------------------------------------------


def _hand_start(state: TableState, body: HandStart, seq: int) -> Step:
    if _in_play(state):
        return _out_of_place(state, seq, "A hand is in progress: award the pots or declare a "
                             "misdeal before starting a new one.")
    n = state.setup.seats
    players = sorted(s for s, info in state.seats.items() if info.stack > 0 and s <= n)
    if len(players) < 2:
        return _out_of_place(state, seq, "A hand needs at least two players with chips.")
    if body.button is not None:
        button = body.button
    elif state.redeal and state.last_button is not None:
        button = state.last_button  # a redeal after a misdeal keeps the button
    elif state.last_button is not None:
        # Moving button: the next seat clockwise with a player who has chips (RR §4 r.2(a)).
        button = min(players, key=lambda s: (s - state.last_button - 1) % n)  # type: ignore[operator]
    else:
        button = players[0]
    order = dealing.deal_order(button, players, n)
    if len(order) == 2:
        # Heads-up: the small blind is on the button (RR §4, Rules for Using Blinds r.3).
        sb, bb = order[1], order[0]
    else:
        sb, bb = order[0], order[1]
    setup = state.setup
    blinds = [(sb, setup.small_blind, "small blind"), (bb, setup.big_blind, "big blind")]
    stacks = {s: state.seats[s].stack for s in order}
    bet = betting.start(order, stacks, blinds, setup.big_blind)
    number = state.hand_number + 1
    hand = Hand(number=number, button=button, small_blind=sb, big_blind=bb, betting=bet,
                deal=dealing.new_deal(order))
    return Step(replace(state, hand=hand, hand_number=number, findings=(), last_button=button,
                        redeal=False, shuffled=False))


# --- cards ----------------------------------------------------------------------------------------


def _card_event(state: TableState, body: ShoeDraw | ZoneRead | ZoneLeave | CardExposed,
                seq: int) -> Step:
    h = state.hand
    if h is None or not h.in_play:
        return _card_outside_hand(state, body, seq)
    deal = h.deal
    b = h.betting
    out: list[Finding] = []
    if isinstance(body, ShoeDraw):
        deal, out = dealing.draw(deal, body.uid, state.deck.card_of(body.uid), body.face_up, seq,
                                 b, state.deck.deck)
    elif isinstance(body, ZoneRead):
        if body.uid not in deal.cards:
            # The shoe did not report this card: count it as drawn now, then read.
            deal, out = dealing.draw(deal, body.uid, state.deck.card_of(body.uid), False, seq, b,
                                     state.deck.deck)
        deal, more = dealing.read(deal, body.uid, body.zone, seq)
        out += more
    elif isinstance(body, ZoneLeave):
        deal = dealing.leave(deal, body.uid, body.zone)
    else:
        deal, out = dealing.exposed(deal, body.uid, body.by, seq)
    h = replace(h, deal=deal, cards_seen=h.cards_seen + 1)
    h = _progress(h)
    return Step(_raise(replace(state, hand=h), out), tuple(out))


def _card_outside_hand(state: TableState, body: ShoeDraw | ZoneRead | ZoneLeave | CardExposed,
                       seq: int) -> Step:
    # Cards gathered, mucked or shuffled between hands are not the monitor's business; only a
    # card dealt off the shoe after the hand ended and before the shuffle is (rabbit hunting).
    if isinstance(body, ShoeDraw) and state.phase == "complete" and not state.shuffled:
        card = state.deck.card_of(body.uid) or f"tag {body.uid}"
        f = make_finding("DRAW_AFTER_HAND_END", seq, cards=[card])
        return Step(_raise(state, [f]), (f,))
    return Step(state)


def _progress(h: Hand) -> Hand:
    """Open the next betting round once its cards are on the board; set the phase."""
    b = h.betting
    board = len(h.deal.board)
    while b.closed and not b.no_more_betting and b.street < 3 and board >= 2 + b.street + 1:
        b = betting.next_street(b)
    phase = "showdown" if b.no_more_betting else betting.STREETS[b.street]
    showdown: tuple[int, ...] = ()
    if b.no_more_betting and not b.hand_over and board == 5:
        showdown = tuple(sorted(b.live))  # the live hands are tabled at the showdown
    return replace(h, betting=b, phase=phase, showdown=showdown)


# --- betting --------------------------------------------------------------------------------------


def _action(state: TableState, body: Action, seq: int) -> Step:
    h = state.hand
    if h is None or not h.in_play:
        f = make_finding("ACTION_NOT_AVAILABLE", seq, seats=[body.seat], fill={
            "detail": f"Seat {body.seat} {body.kind}: there is no hand in progress."})
        return Step(_raise(state, [f]), (f,))
    out: list[Finding] = []
    deal = h.deal
    if body.kind != "post":
        deal, out = dealing.moving_on(deal)  # the dealer has moved on to the betting
    b, problems = betting.act(h.betting, body.seat, body.kind, body.amount)
    for p in problems:
        detail = str(p.fill.get("detail", ""))
        out.append(make_finding(p.code, seq, seats=[body.seat], fill=p.fill,
                                message=detail or ""))
    h = _progress(replace(h, betting=b, deal=deal))
    return Step(_raise(replace(state, hand=h), out), tuple(out))


# --- the end of a hand ----------------------------------------------------------------------------


def _hand_end(state: TableState, seq: int) -> Step:
    h = state.hand
    if h is None or not h.in_play:
        return _out_of_place(state, seq, "There is no hand in progress to award.")
    deal, out = dealing.moving_on(h.deal)
    h = replace(h, deal=deal)
    b = h.betting
    problem = ""
    if not b.no_more_betting:
        problem = f"The {betting.STREETS[b.street]} betting is not complete."
    elif not b.hand_over and len(deal.board) != 5:
        problem = f"The board has {len(deal.board)} cards; a showdown needs 5."
    awards: tuple[PotAward, ...] = ()
    if not problem:
        holes = {s: deal.hole(s) for s in b.live} if not b.hand_over else {}
        try:
            awards = settle(betting.contributions(b), betting.folded(b), holes,
                            deal.board if holes else (), h.button,
                            list(range(1, state.setup.seats + 1)))
        except ValueError as exc:
            problem = f"The pots cannot be settled: {exc}."
    if problem:
        f = make_finding("SHOWDOWN_INCOMPLETE", seq, fill={"detail": problem}, message=problem)
        out.append(f)
        return Step(_raise(replace(state, hand=h), out), tuple(out))
    won: dict[int, int] = {}
    for award in awards:
        for seat, chips in award.shares.items():
            won[seat] = won.get(seat, 0) + chips
    seats = dict(state.seats)
    for p in b.players:
        info = seats.get(p.seat)
        if info is not None:
            seats[p.seat] = SeatInfo(info.player, p.stack + won.get(p.seat, 0))
    showdown = h.showdown if not b.hand_over else ()
    h = replace(h, phase="complete", showdown=showdown)
    new = replace(state, hand=h, seats=MappingProxyType(seats), results=awards, shuffled=False)
    return Step(_raise(new, out), tuple(out), awards)


def _misdeal(state: TableState, seq: int) -> Step:
    h = state.hand
    if h is None or not h.in_play:
        return _out_of_place(state, seq, "There is no hand in progress to declare a misdeal in.")
    deal, out = dealing.moving_on(h.deal)
    # The hand is void: every chip goes back to its owner (RR Section 3, Misdeals; Glossary,
    # MISDEAL: "the cards to be reshuffled and a new hand to be dealt").
    seats = dict(state.seats)
    for p in h.betting.players:
        info = seats.get(p.seat)
        if info is not None:
            seats[p.seat] = SeatInfo(info.player, p.stack + p.total)
    h = replace(h, deal=deal, phase="misdeal", showdown=())
    new = replace(state, hand=h, seats=MappingProxyType(seats), redeal=True, shuffled=False)
    return Step(_raise(new, out), tuple(out))
