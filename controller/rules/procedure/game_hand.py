"""One hand as the procedure monitor knows it, and what every family's rules do with it.

``GameHand`` is the monitor's frozen state of a hand: the engine's command log and the engine
built from it, the cards seen, the remedy moves due (``remedy.Step``). Here too is what the
board games' glue (``board.py``), the stud and draw procedures (``stud_draw.py``,
``stud_family.py``, ``draw_family.py``), the betting (``betting.py``) and their dispatcher
(``monitor.py``) share: running a command on a copy of the engine, giving a card to a seat, the card
due next at stud and draw (``expected``), and the small helpers that record a finding. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TypeVar

from controller.poker.house_rules import Settings
from controller.poker.records import replace
from controller.poker.variants import Variant, family
from controller.rules import engine
from controller.rules.findings import CATALOGUE, Finding, make_finding
from controller.rules.procedure.board_state import Deal
from controller.rules.procedure.remedy import PUT, Step
from controller.rules.procedure.remedy import zone_name as _zone_name

FIVE_BURN = "the burn before the last player's fifth card"
# Command kinds in the engine log.
HOLE, BOARD, DISCARD, FOLD, CALL, BRING_IN, RAISE = (
    "hole", "board", "discard", "fold", "call", "bring_in", "raise")
Cmd = tuple[object, ...]
_V = TypeVar("_V")


@dataclass(frozen=True)
class CardSeen:
    """A tag seen in this hand."""

    uid: str
    card: str | None  # None: not in the registered deck
    n: int  # draw ordinal (0 = the first card off the shoe)
    seq: int  # the seq of its shoe.draw (or first read)
    face_up: bool  # the shoe's orientation flag (or the dealer's exposed key)
    betting_open: bool  # a betting round was open when it left the shoe
    zone: str | None = None
    judged: bool = False
    fed: bool = False  # given to the engine as a card of a seat (or the board)
    seat: int | None = None  # the seat it was given to
    mucked: bool = False  # read in the muck after it was given to its seat

    @property
    def name(self) -> str:
        return self.card or f"tag {self.uid}"


def put(zone: str, uid: str | None, face_up: bool | None, after: str, text: str, *,
        any_order: bool = False) -> Step:
    """A move a remedy calls for (``remedy.Step``): ``uid`` None: the next card off the shoe;
    ``face_up`` None: either way up; ``after``: the finding; ``text``: the rule's words;
    ``any_order``: it may come before the finding's steps listed ahead of it."""
    return Step(PUT, zone, uid or "", face_up=face_up, after=after, text=text,
                any_order=any_order)


@dataclass(frozen=True)
class DrawTurn:
    """One player's draw in progress."""

    seat: int
    asked: int
    discards: tuple[str, ...] = ()  # uids read in the muck
    given: int = 0
    fed: bool = False  # the discard has been given to the engine
    at: int = 0  # cards off the shoe when the player asked (RR Section 11 r.11(a))


@dataclass(frozen=True)
class GameHand:
    """One stud or draw hand as the monitor knows it."""

    variant: Variant
    seats: tuple[int, ...]  # dealt in, dealing order; engine position i is seats[i]
    stacks: tuple[int, ...]  # before the forced bets, per position
    stakes: engine.Stakes
    house: engine.HouseSettings
    rules: Settings  # the table's house rules (profile and overrides)
    log: tuple[Cmd, ...] = ()
    cards: Mapping[str, CardSeen] = field(default_factory=lambda: MappingProxyType({}))
    draws: int = 0  # cards off the shoe
    # (seat, kind, amount) forced posts still to come, as the engine posted them (a short stack
    # posts what it has)
    posts_due: tuple[tuple[int, str, int], ...] = ()
    ticked: int = 0  # forced posts the console has entered
    burned: int = -1  # the street whose burn is in (-1: none yet)
    expect: tuple[Step, ...] = ()
    # stud: a seat's next upcard comes face down (the remedy of an exposed down card), and why
    face: Mapping[int, bool] = field(default_factory=lambda: MappingProxyType({}))
    face_why: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))
    exposed: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))  # seat: n
    exposed_deal: int = 0  # draw games: cards exposed by the dealer in the initial deal
    owed: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))  # seat: cards
    owed_after_deal: tuple[Step, ...] = ()  # expectations armed when the deal is complete
    premature: tuple[str, ...] = ()  # stud: premature cards (uids) of this street
    aside: tuple[str, ...] = ()  # stud: the cards read in the set-aside zone (uids)
    premature_finding: str = ""
    turn: DrawTurn | None = None  # draw games: the player drawing now
    deferred: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    deferred_five: int | None = None  # the seat whose fifth card waits (RR Section 11 r.10)
    last_asker: int | None = None  # draw games: the last player to ask for cards this round
    # draw games: the cards each seat asked for on each draw so far (public at the table)
    drawn: Mapping[int, tuple[int, ...]] = field(default_factory=lambda: MappingProxyType({}))
    asked_on: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))  # street
    # draw games: the last draw (street) with action after it: its counts are no longer told
    # (RR Section 11 r.13)
    draw_locked: int = 0
    five_burned: int = -1  # draw games: the street whose five-card burn is in (RR §11 r.10)
    dead: tuple[int, ...] = ()  # seats whose hands are dead (fouled), to fold
    # stud: seats that folded with no wager to them; they keep receiving cards until a bet
    # kills their hands (RR Section 8 r.9)
    free_folds: tuple[int, ...] = ()
    # stud: a premature final down card a player keeps (RR Section 8 r.14): seat -> its uid,
    # given to the seat when seventh street comes; the seat may not bet or raise on sixth street
    kept: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))
    capped: tuple[int, ...] = ()
    thrown: tuple[str, ...] = ()  # tags thrown into another hand: nobody's discard
    # why a dead seat is dead (the finding code), where it is not a fouled draw hand
    dead_after: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))
    placeholders: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    boxed: tuple[str, ...] = ()  # boxed cards of the initial deal (uids)
    relaxed: bool = False  # the stub ran short: the dealer reshuffles; order is not judged
    void: bool = False
    off: str = ""
    acted: bool = False  # a voluntary action has been taken (not a post)
    # Board games: the dealing procedure (board_deal.py) keeps the cards; the engine is given
    # placeholders (its betting and streets need only the counts) and the cards at the end.
    deal: Deal | None = None
    fed_board: int = 0  # board placeholders given to the engine
    bet_street: int = 0  # the current (or last) betting round opened
    street_acts: int = 0  # voluntary actions on that round
    jokers: tuple[str, ...] = ()  # board games: joker tags drawn (scraps of paper, not cards)
    discarded: tuple[str, ...] = ()  # Pineapple: the discards given to the engine (uids)
    # board games: the seat each card was last read in (a Pineapple discard may be a
    # replacement card, RR Section 5 r.1, which is no card of the starting hand)
    last_seat: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    retrieved: tuple[int, ...] = ()  # stud, draw: seats whose folded hand was read back
    # the seats not dealt in: why, and the missed blinds each owes (the table layer's word)
    not_dealt: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))
    owes_blinds: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))
    _engine: engine.Hand | None = field(default=None, compare=False, repr=False)

    # --- the engine ---------------------------------------------------------------------------

    @property
    def eng(self) -> engine.Hand:
        """The engine after the log (read-only: commands go through ``run``, onto a copy)."""
        if self._engine is None:  # pragma: no cover - every constructor path builds it
            return build(self.variant, self.stakes, self.stacks, self.house, self.log)
        return self._engine

    def pos(self, seat: int) -> int | None:
        try:
            return self.seats.index(seat)
        except ValueError:
            return None

    @property
    def tournament(self) -> bool:
        return self.rules.tournament

    @property
    def family(self) -> str:
        return family(self.variant)

    @property
    def street(self) -> int:
        return self.eng.street

    @property
    def to_act(self) -> int | None:
        a = self.eng.actor
        return None if a is None else self.seats[a]

    @property
    def live(self) -> tuple[int, ...]:
        e = self.eng
        return tuple(s for i, s in enumerate(self.seats) if not e.folded[i])

    @property
    def betting_open(self) -> bool:
        return self.eng.actor is not None

    @property
    def betting_over(self) -> bool:
        return self.eng.betting_over

    def in_zone(self, zone: str) -> tuple[str, ...]:
        if self.deal is not None:
            return self.deal.in_zone(zone)
        return tuple(c.name for c in self.cards.values() if c.zone == zone)

    def hole(self, seat: int) -> tuple[str, ...]:
        return self.in_zone(f"seat:{seat}")

    def face_up(self, seat: int) -> tuple[str, ...]:
        """Stud: the seat's cards lying face up, in the order dealt, as the shoe's flag and the
        dealer's exposed key say (a card the plan deals up but the remedy of an exposed down
        card deals down is not among them; the exposed down card is)."""
        if self.deal is not None:
            return ()
        zone = f"seat:{seat}"
        return tuple(c.name for c in sorted(self.cards.values(), key=lambda c: c.n)
                     if c.zone == zone and c.face_up)

    def upcards(self, seat: int) -> tuple[str, ...]:
        p = self.pos(seat)
        if p is None:
            return ()
        return tuple(c for c in self.eng.upcards(p) if c is not None)


_KINDS = frozenset({HOLE, BOARD, DISCARD, FOLD, CALL, BRING_IN, RAISE, "kill"})


def _execute(h: engine.Hand, cmd: Cmd) -> None:
    kind = cmd[0]
    if kind == HOLE:
        h.deal_hole(int(str(cmd[1])), list(cmd[2]))  # type: ignore[call-overload]
    elif kind == BOARD:
        h.deal_board(list(cmd[1]))  # type: ignore[call-overload]
    elif kind == DISCARD:
        h.stand_pat_or_discard(int(str(cmd[1])), list(cmd[2]))  # type: ignore[call-overload]
    elif kind == FOLD:
        h.fold(int(str(cmd[1])))
    elif kind == CALL:
        h.check_or_call(int(str(cmd[1])))
    elif kind == BRING_IN:
        h.post_bring_in(int(str(cmd[1])))
    elif kind == RAISE:
        h.complete_bet_or_raise_to(int(str(cmd[1])), int(str(cmd[2])))
    elif kind == "kill":
        h.kill(int(str(cmd[1])))


def run(h: GameHand, cmd: Cmd) -> GameHand:
    """Apply one engine command to a copy; IllegalAction propagates to the caller."""
    e = h.eng.copy()
    _execute(e, cmd)
    return replace(h, log=(*h.log, cmd), _engine=e)


def build(variant: Variant, stakes: engine.Stakes, stacks: Sequence[int],
          house: engine.HouseSettings, log: Sequence[Cmd]) -> engine.Hand:
    """The engine's hand rebuilt from a log of commands it accepted once (``Hand.replay``: an
    open made before a hole card was known stays made once the card is known)."""
    e = engine.Hand(variant, stakes, list(stacks), house)

    def commands(hand: engine.Hand) -> None:
        for cmd in log:
            _execute(hand, cmd)

    e.replay(commands)
    return e


def restored(h: GameHand) -> GameHand:
    """The hand with its engine rebuilt from its own log (a hand read back from a checkpoint,
    which keeps the log and not the engine: controller/rules/table/checkpoint.py). The engine's
    refusal (``IllegalAction``, a ValueError) means the log is not one it accepted."""
    for cmd in h.log:
        if not isinstance(cmd, tuple) or not cmd or cmd[0] not in _KINDS:
            raise ValueError(f"not a command the engine was given: {cmd!r:.40}")
    return replace(h, _engine=build(h.variant, h.stakes, h.stacks, h.house, h.log))


def rebuilt(h: GameHand, log: tuple[Cmd, ...]) -> GameHand:
    """The hand with a rewritten log (a placeholder card replaced by the card itself, a card
    or a player taken out). A log that no longer replays (the card is already in play
    elsewhere: a stub reshuffled after a short deck, where cards are taken as they land) leaves
    the hand as it was: the change is not made."""
    try:
        return replace(h, log=log, _engine=build(h.variant, h.stakes, h.stacks, h.house, log))
    except (engine.IllegalAction, ValueError):
        return h


def with_str_key(m: Mapping[str, int], key: str, value: int) -> Mapping[str, int]:
    d = dict(m)
    d[key] = value
    return MappingProxyType(d)


def is_void(h: GameHand) -> bool:
    """A misdeal-level finding holds the hand void until ``misdeal.declared``."""
    return h.deal.void if h.deal is not None else h.void


def flag(h: GameHand, f: Finding, out: list[Finding]) -> GameHand:
    out.append(f)
    if CATALOGUE[f.code].severity == "misdeal":
        return replace(h, void=True, off=f.code, expect=())
    return h


def ref(f: Finding) -> str:
    return f"{f.code} (seq {f.seq})"


def with_card(h: GameHand, c: CardSeen) -> GameHand:
    cards = dict(h.cards)
    cards[c.uid] = c
    return replace(h, cards=MappingProxyType(cards))


def with_key(m: Mapping[int, _V], key: int, value: _V | None) -> Mapping[int, _V]:
    d: dict[int, _V] = dict(m)
    if value is None:
        d.pop(key, None)
    else:
        d[key] = value
    return MappingProxyType(d)


@dataclass(frozen=True)
class Slot:
    """The next card the procedure expects: a burn, a card to a seat (face up or down), the
    stud common card, or nothing (betting, a draw declaration, or the hand is over)."""

    kind: str  # "burn", "seat", "board", "none"
    seat: int | None = None
    face_up: bool = False
    why: str = ""


def expected(h: GameHand) -> Slot:
    """What the procedure expects of the next card off the shoe (remedies aside)."""
    e = h.eng
    if h.void or e.is_over:
        return Slot("none", why="the hand is over")
    if e.actor is not None:
        return Slot("none", why="the betting round is open")
    st = e.street
    street = h.variant.streets[st]
    if h.family == "draw" and street.draw:
        return _expected_draw(h)
    if street.burn and h.burned != st and not h.relaxed:
        return Slot("burn")
    if e.board_needed:
        return Slot("board")
    best: tuple[int, int] | None = None
    for i, seat in enumerate(h.seats):
        need = e.hole_needed(i) - h.owed.get(seat, 0)
        if need > 0 and (best is None or need > best[0]):
            best = (need, i)
    if best is None:
        if h.owed:
            seat = min(h.owed, key=lambda s: h.seats.index(s))
            return Slot("seat", seat, False, why="the replacement of an exposed card")
        return Slot("none", why="no card is due")
    need, i = best
    flags = street.hole
    up = flags[len(flags) - e.hole_needed(i)] if flags else False
    seat = h.seats[i]
    up = bool(h.face.get(seat, up))
    return Slot("seat", seat, up)


def _expected_draw(h: GameHand) -> Slot:
    e = h.eng
    t = h.turn
    if t is not None:
        # RR Section 11 r.10: four consecutive cards (the house setting draw_max_consecutive;
        # JPN Five Card Draw: five, research D-20)
        limit = h.rules.draw_max_consecutive if t.asked == 5 else t.asked
        if t.given < min(limit, t.asked - h.deferred.get(t.seat, 0)):
            if h.burned != e.street:
                return Slot("burn")
            return Slot("seat", t.seat, False)
    if e.discarder is not None and not (t is not None and not t.fed
                                        and h.seats[e.discarder] == t.seat):
        # no card until the next player asks; deferred cards wait for everybody
        return Slot("none", why=f"seat {h.seats[e.discarder]} to say how many cards")
    if h.deferred:
        seat = min(h.deferred, key=lambda s: h.seats.index(s))
        if seat == h.last_asker and h.five_burned != e.street and h.deferred_five == seat:
            # "If the last player wishes to draw five new cards, four are dealt right away, and a
            # card is burned before the player receives a fifth card." (RR Section 11 r.10)
            return Slot("burn", why=FIVE_BURN)
        return Slot("seat", seat, False, why="the card held back until everybody drew")
    return Slot("none", why="no card is due")


def feed(h: GameHand, c: CardSeen, seat: int) -> GameHand:
    """Give the card to the engine as this seat's next card."""
    p = h.pos(seat)
    if p is None or c.card is None:
        return h
    if h.turn is not None and h.turn.seat == seat and not h.turn.fed:
        h = feed_discard(h)
    owed = h.owed.get(seat, 0)
    replacing = owed > 0 and h.eng.hole_needed(p) - owed <= 0
    if h.placeholders.get(seat):
        # the card a short hand was missing (RR Section 12 r.5): put it in its placeholder
        log = list(h.log)
        for i, cmd in enumerate(log):
            if cmd[0] == HOLE and cmd[1] == p and cmd[2] == (None,):
                log[i] = (HOLE, p, (c.card,))
                break
        fresh = rebuilt(h, tuple(log))
        if fresh is h:
            return h  # the card cannot go in its placeholder (it is in play elsewhere)
        h = replace(fresh, placeholders=with_key(h.placeholders, seat,
                                                 h.placeholders[seat] - 1 or None))
    else:
        try:
            h = run(h, (HOLE, p, (c.card,)))
        except engine.IllegalAction:
            return h
    h = with_card(h, replace(h.cards[c.uid], fed=True, seat=seat))
    if replacing:
        h = replace(h, owed=with_key(h.owed, seat, owed - 1 or None))
    return h


def run_or_keep(h: GameHand, cmd: Cmd) -> GameHand:
    try:
        return run(h, cmd)
    except engine.IllegalAction:
        return h


def unexpected(h: GameHand, c: CardSeen, zone: str, seq: int, out: list[Finding],
               why: str) -> GameHand:
    detail = f"{c.name} went to {_zone_name(zone)}, but {why}."
    out.append(make_finding("UNEXPECTED_CARD", seq, cards=[c.name], fill={"detail": detail},
                            message=detail))
    return h


def counted(h: GameHand, seat: int) -> GameHand:
    """A replacement card given on the draw: count it for the player drawing (or held back)."""
    t = h.turn
    if h.family != "draw" or (h.eng.street == 0 and t is None):
        return h
    if t is not None and t.seat == seat and t.given < t.asked - h.deferred.get(seat, 0):
        return replace(h, turn=replace(t, given=t.given + 1))
    if seat in h.deferred:
        left = h.deferred[seat] - 1
        h = replace(h, deferred=with_key(h.deferred, seat, left or None))
        if t is not None and t.seat == seat:
            h = replace(h, turn=replace(t, given=t.given + 1))
    return h


def street_name(st: int) -> str:
    return ("third", "fourth", "fifth", "sixth", "seventh")[st] if 0 <= st < 5 else "last"


def unfeed(h: GameHand, c: CardSeen) -> GameHand:
    """Take a card back out of the engine (an exposed card that must not be taken)."""
    log = list(h.log)
    for i in range(len(log) - 1, -1, -1):
        cmd = log[i]
        if cmd[0] == HOLE and cmd[2] == (c.card,):
            del log[i]
            break
    else:
        return h
    h = with_card(h, replace(c, fed=False, seat=None))
    return rebuilt(h, tuple(log))


def feed_discard(h: GameHand) -> GameHand:
    """Give the engine the discard of the player drawing now: the cards read in the muck, then
    (for any not read) the seat's cards no longer read in its zone, then its oldest cards."""
    t = h.turn
    if t is None or t.fed:
        return h
    p = h.pos(t.seat)
    if p is None:
        return h
    want = t.asked - h.placeholders.get(t.seat, 0)
    held = [x for x in h.eng.holes[p]]
    picked: list[str | None] = []
    names = [h.cards[u].card for u in t.discards if u in h.cards]
    for name in names:
        if name in held and len(picked) < want:
            held.remove(name)
            picked.append(name)
    gone = [x.card for x in h.cards.values() if x.seat == t.seat and x.zone != f"seat:{t.seat}"]
    for name in gone:
        if name in held and len(picked) < want:
            held.remove(name)
            picked.append(name)
    while len(picked) < want and held:
        picked.append(held.pop(0))
    picked += [None] * h.placeholders.get(t.seat, 0)
    try:
        h = run(h, (DISCARD, p, tuple(picked)))
    except engine.IllegalAction:
        return replace(h, turn=replace(t, fed=True))
    return replace(h, turn=replace(t, fed=True),
                   placeholders=with_key(h.placeholders, t.seat, None))


def dealt_since_betting(h: GameHand, p: int, card: str | None) -> bool:
    """Was ``card`` given to position ``p`` with nothing but cards dealt since (no bet, no
    discard)?"""
    for cmd in reversed(h.log):
        if cmd[0] != HOLE:
            return False
        if cmd[1] == p and cmd[2] == (card,):
            return True
    return False



POST_NAMES = {
    "small_blind": "small blind", "big_blind": "big blind", "straddle": "straddle",
    "kill": "kill blind", "ante": "ante", "missed_small": "missed small blind (dead)",
    "missed_big": "missed big blind", "new_player": "new player's big blind",
    "bring_in": "bring-in",
}


def show_down(h: GameHand, e: engine.Hand, dead: Iterable[int]) -> None:
    """The showdown on ``e`` (a copy, changed in place): the ``dead`` seats' hands are mucked
    unshown (roberts-rules-v11.txt, Section 3, Dead Hands; a fouled draw hand, Section 11
    r.12), every other hand is shown, and the pots are settled."""
    for seat in dead:
        p = h.pos(seat)
        if p is not None and p in e.showdown_pending and len(e.showdown_pending) > 1:
            e.show_or_muck(p, None)
    for p in e.showdown_pending:
        if e.is_over:
            break
        e.show_or_muck(p, ())
    if not e.is_over:
        e.show_all()
