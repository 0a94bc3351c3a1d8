"""The procedure monitor for every game, card by card and action by action, on the hand engine.

Every live game runs here, from its ``Variant`` data (``variants.py``), with the generic hand
engine (``engine.py``) keeping the betting, the streets and the pots: the console's actions are
judged once for every game (``action``). The board games' dealing procedure (the deal, burns,
flop, turn and river and their remedies) is ``board.py``, fed the engine's betting through
``BoardBetting``; the engine plays their hands on placeholder cards and is given the real cards
at the showdown. Stud and draw are judged here. The monitor keeps the engine's command log and
an engine built from it; every state it hands out is frozen, and a new command is applied to a
copy. Two rules are shared with ``board.py``: ``initial_deal.py`` (a card of the initial deal in
the wrong place) and ``remedy.py`` (the moves a remedy calls for, REMEDY_NOT_FOLLOWED).

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
finding voids the hand: the monitor stops judging until ``misdeal.declared``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TypeVar

from controller.rules import board, engine
from controller.rules.catalogue import CATALOGUE, make_finding
from controller.rules.findings import Finding
from controller.rules.house_rules import Settings
from controller.rules.initial_deal import KILLED, LOWBALL_MISDEALS, MISSED_BLIND, wrong_place
from controller.rules.pots import PotAward
from controller.rules.remedy import PUT, Step, not_followed, went_to
from controller.rules.remedy import zone_name as _zone_name
from controller.rules.variants import JOKER, Variant, family

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
FIVE_BURN = "the burn before the last player's fifth card"

# The engine's house settings at the live table: the cardroom defaults. One shared instance: the
# engine caches each hand's forced-bet layout by it.
_HOUSE = engine.HouseSettings()
# ... and one per value of the house setting a5_sevens_rule (research/irregularities.md D-19:
# RR Section 11 Ace-to-Five r.4 a seven, WSOP Section 11 Ace-to-Five r.4 a five, RRH optional).
_HOUSES: Mapping[str, engine.HouseSettings] = MappingProxyType({
    "seven": _HOUSE,
    "five": engine.HouseSettings(sevens_rule=5),
    "off": engine.HouseSettings(sevens_rule=0),
})
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


def _put(zone: str, uid: str | None, face_up: bool | None, after: str, text: str) -> Step:
    """A move a remedy calls for (``remedy.Step``): ``uid`` None: the next card off the shoe;
    ``face_up`` None: either way up; ``after``: the finding; ``text``: the rule's words."""
    return Step(PUT, zone, uid or "", face_up=face_up, after=after, text=text)


@dataclass(frozen=True)
class DrawTurn:
    """One player's draw in progress."""

    seat: int
    asked: int
    discards: tuple[str, ...] = ()  # uids read in the muck
    given: int = 0
    fed: bool = False  # the discard has been given to the engine


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
    five_burned: int = -1  # draw games: the street whose five-card burn is in (RR §11 r.10)
    dead: tuple[int, ...] = ()  # seats whose hands are dead (fouled), to fold
    # why a dead seat is dead (the finding code), where it is not a fouled draw hand
    dead_after: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))
    placeholders: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    boxed: tuple[str, ...] = ()  # boxed cards of the initial deal (uids)
    relaxed: bool = False  # the stub ran short: the dealer reshuffles; order is not judged
    void: bool = False
    off: str = ""
    acted: bool = False  # a voluntary action has been taken (not a post)
    # Board games: the dealing procedure (board.py) keeps the cards; the engine is given
    # placeholders (its betting and streets need only the counts) and the cards at the end.
    deal: board.Deal | None = None
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
        """The engine after the log (read-only: commands go through ``_run``, onto a copy)."""
        if self._engine is None:  # pragma: no cover - every constructor path builds it
            return _build(self.variant, self.stakes, self.stacks, self.house, self.log)
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


def _run(h: GameHand, cmd: Cmd) -> GameHand:
    """Apply one engine command to a copy; IllegalAction propagates to the caller."""
    e = h.eng.copy()
    _execute(e, cmd)
    return replace(h, log=(*h.log, cmd), _engine=e)


def _build(variant: Variant, stakes: engine.Stakes, stacks: Sequence[int],
           house: engine.HouseSettings, log: Sequence[Cmd]) -> engine.Hand:
    """The engine's hand rebuilt from a log of commands it accepted once (``Hand.replay``: an
    open made before a hole card was known stays made once the card is known)."""
    e = engine.Hand(variant, stakes, list(stacks), house)

    def commands(hand: engine.Hand) -> None:
        for cmd in log:
            _execute(hand, cmd)

    e.replay(commands)
    return e


def _rebuilt(h: GameHand, log: tuple[Cmd, ...]) -> GameHand:
    """The hand with a rewritten log (a placeholder card replaced by the card itself, a card
    or a player taken out). A log that no longer replays (the card is already in play
    elsewhere: a stub reshuffled after a short deck, where cards are taken as they land) leaves
    the hand as it was: the change is not made."""
    try:
        return replace(h, log=log, _engine=_build(h.variant, h.stakes, h.stacks, h.house, log))
    except (engine.IllegalAction, ValueError):
        return h


# --- starting a hand ------------------------------------------------------------------------------


def start(variant: Variant, seats: Sequence[int], stacks: Sequence[int],
          posts: Sequence[tuple[int, str, int, bool]], *, small_bet: int, big_bet: int,
          bring_in: int, settings: Settings, big_blind: int = 0, after: int | None = None,
          killer: int | None = None, why: Mapping[int, str] | None = None,
          owes: Mapping[int, str] | None = None) -> GameHand:
    """A new hand of ``variant`` dealt to ``seats`` (dealing order) with these ``stacks``;
    ``posts`` are the seating plan's forced posts (seat, kind, amount, live): a live post is
    part of the poster's bet, a dead one (an ante, the dead part of made-up blinds) is not
    (roberts-rules-v11.txt, Section 4, Rules for Using Blinds, r.10). ``after``: the seat the
    first round's action starts after (the big blind, or the straddle); ``killer``: the seat
    killing the pot; ``why`` and ``owes``: the seats not dealt in and what they owe (board
    games judge a card dealt to them). Raises ValueError when the engine refuses the stakes."""
    n = len(seats)
    order = list(seats)
    antes = [0] * n
    blinds = [0] * n
    for seat, kind, amount, live in posts:
        i = order.index(seat)
        if kind != "bring_in" and live and kind != "ante":
            blinds[i] += amount
        elif kind != "bring_in":
            antes[i] += amount
    opener = None
    if n > 2 and after in order and any(blinds):
        opener = (order.index(after) + 1) % n  # RR Section 4 intro; Section 14 NL r.15
    if n == 2 and variant.button and any(blinds):
        # the engine takes heads-up blinds small first and posts them reversed (PHH order)
        blinds = blinds[::-1]
        antes = antes[::-1]
    structure = variant.structure
    limit = structure in ("fixed", "spread")
    big = big_blind or max(blinds, default=0)
    kill = settings.kill if settings.kill in ("full", "half") else "full"
    stakes = engine.Stakes(
        antes=tuple(antes), blinds_or_straddles=tuple(blinds) if any(blinds) else (),
        bring_in=bring_in if variant.forced == "antes_bring_in" else 0,
        small_bet=small_bet if limit else 0, big_bet=big_bet if limit else 0,
        min_bet=0 if limit else max(small_bet, big, 1),
        killer=order.index(killer) if killer in order and any(blinds) else None, kill=kill,
        opener=opener)
    house = _HOUSES.get(settings.a5_sevens_rule, _HOUSE)
    h = GameHand(variant=variant, seats=tuple(seats), stacks=tuple(stacks), stakes=stakes,
                 house=house, rules=settings, not_dealt=MappingProxyType(dict(why or {})),
                 owes_blinds=MappingProxyType(dict(owes or {})),
                 posts_due=_as_posted(posts, seats, stacks),
                 _engine=_build(variant, stakes, stacks, house, ()))
    if family(variant) != "board":
        return h
    if not board.board_layout(variant):  # pragma: no cover - every board game of variants.py
        raise ValueError(f"{variant.name}: the board procedure knows only flop, turn and river")
    # The engine is given each starting hand as placeholders now: the betting opens with the
    # blinds, whatever the cards (the procedure judges them as they come).
    k = len(variant.streets[0].hole)
    log = tuple((HOLE, p, (None,) * k) for p in range(n))
    deal = board.new_deal(seats, why=why, owes=owes, hole_cards=k, game=variant.name,
                          four_card_flop=settings.four_card_flop,
                          flop_no_burn=settings.flop_no_burn,
                          first_exposed=settings.first_cards_exposed,
                          empty_seat=settings.empty_seat_cards,
                          allin_burn=settings.allin_burn_fix,
                          short_hand=settings.short_hand_exception)
    return _rebuilt(replace(h, deal=deal), log)


def _as_posted(posts: Sequence[tuple[int, str, int, bool]], seats: Sequence[int],
               stacks: Sequence[int]) -> tuple[tuple[int, str, int], ...]:
    """The posts due, each at what the seat can post: a short stack posts all it has (RR
    Section 15 r.19; Section 4 r.1: the blind's size does not change)."""
    left = dict(zip(seats, stacks, strict=True))
    due: list[tuple[int, str, int]] = []
    for seat, kind, amount, _ in posts:
        if kind == "bring_in" or seat not in left:
            continue
        put = min(amount, left[seat])
        left[seat] -= put
        due.append((seat, kind, put))
    return tuple(due)


# --- board games: the dealing procedure of board.py on the engine's betting -----------------------


@dataclass(frozen=True)
class BoardBetting:
    """The engine's betting as the board procedure sees it (``board.BettingView``)."""

    h: GameHand

    @property
    def rounds_done(self) -> int:
        # the engine's street is the round open now, or the street whose cards are awaited
        # once the rounds before it are complete
        return self.h.eng.street

    @property
    def no_more_betting(self) -> bool:
        e = self.h.eng
        return e.is_over or e.betting_over

    @property
    def hand_over(self) -> bool:
        return len(self.h.live) <= 1

    @property
    def street(self) -> int:
        return self.h.bet_street

    @property
    def actions(self) -> int:
        return self.h.street_acts

    @property
    def to_act(self) -> int | None:
        return self.h.to_act

    @property
    def post_due(self) -> tuple[int, str] | None:
        if not self.h.posts_due:
            return None
        seat, kind, _ = self.h.posts_due[0]
        return seat, POST_NAMES.get(kind, kind)


def _sync_street(h: GameHand) -> GameHand:
    """A betting round has opened on a new street: its action count starts again."""
    e = h.eng
    if e.actor is not None and e.street != h.bet_street:
        return replace(h, bet_street=e.street, street_acts=0)
    return h


def _sync_discards(h: GameHand) -> GameHand:
    """Pineapple: the seat due to discard has thrown a card into the muck: that is its discard
    (JPN Pineapple: "discard one", in turn). A card thrown before the seat's turn counts when the
    turn comes."""
    d = h.deal
    while d is not None:
        e = h.eng
        p = e.discarder
        if p is None:
            break
        seat = h.seats[p]
        home = f"seat:{seat}"
        uid = next((u for u in d.sequence if u not in h.discarded and d.cards[u].zone == "muck"
                    and (d.cards[u].home == home or h.last_seat.get(u) == seat)), None)
        if uid is None:
            break
        try:
            h = _run(h, (DISCARD, p, (None,)))
        except engine.IllegalAction:  # pragma: no cover - the engine named the discarder
            break
        h = replace(h, discarded=(*h.discarded, uid))
    return h


def _sync_board(h: GameHand) -> GameHand:
    """Board games: give the engine the street's board (as placeholders) once its cards are on
    the board and the betting before them is over, so the next round opens; and the Pineapple
    discards as they are made."""
    d = h.deal
    if d is None:
        return h
    on_board = len(d.board)
    while True:
        h = _sync_discards(h)
        e = h.eng
        need = e.board_needed
        if e.is_over or e.actor is not None or not need or on_board < h.fed_board + need:
            break
        try:
            h = _run(h, (BOARD, (None,) * need))
        except engine.IllegalAction:  # pragma: no cover - the engine asked for these cards
            break
        h = replace(h, fed_board=h.fed_board + need)
    return _sync_street(h)


def _board_step(h: GameHand, d: board.Deal, out: list[Finding]) -> tuple[GameHand, list[Finding]]:
    return _sync_board(replace(h, deal=d)), out


def _board_draw(h: GameHand, uid: str, card: str | None, face_up: bool, seq: int, deck: str
                ) -> tuple[GameHand, list[Finding]]:
    assert h.deal is not None
    if card == JOKER and h.variant.deck != "joker":
        if uid in h.jokers:
            return h, []
        # roberts-rules-v11.txt, Section 3, Irregularities, r.8: "A joker that appears in a game
        # where it is not used is treated as a scrap of paper."
        f = make_finding("JOKER_IN_NON_JOKER_GAME", seq, cards=[JOKER],
                         fill={"where": "where it was going"})
        return replace(h, jokers=(*h.jokers, uid)), [f]
    d, out = board.draw(h.deal, uid, card, face_up, seq, BoardBetting(h), deck)
    h = replace(h, deal=d)
    if not out:
        h = _foreign(h, card, seq, out)
    return _sync_board(h), out


def _foreign(h: GameHand, card: str | None, seq: int, out: list[Finding]) -> GameHand:
    """A card of the registered deck that this game's deck does not hold (a two to five at
    six-plus hold'em): the wrong deck is in play (jamies-poker-notes.md, Six Plus Hold'em;
    roberts-rules-v11.txt, Section 3, Irregularities, r.3)."""
    if card is None or card == JOKER or card in h.variant.deck_cards or is_void(h):
        return h
    f = make_finding("CARD_NOT_IN_GAME_DECK", seq, cards=[card], fill={
        "game": h.variant.name, "deck_size": len(h.variant.deck_cards)})
    out.append(f)
    if h.deal is not None:
        return replace(h, deal=replace(h.deal, void=True, off=f.code, remedy=None))
    return replace(h, void=True, off=f.code, expect=())


def _board_read(h: GameHand, uid: str, zone: str, seq: int, card: str | None, deck: str
                ) -> tuple[GameHand, list[Finding]]:
    assert h.deal is not None
    if uid in h.jokers:
        return h, []  # the joker is a scrap of paper: its moves are not dealing
    out: list[Finding] = []
    if uid not in h.deal.cards:
        # The shoe did not report this card: count it as drawn now, then read.
        h, out = _board_draw(h, uid, card, False, seq, deck)
        if uid in h.jokers:
            return h, out
    assert h.deal is not None
    if zone.startswith("seat:") and zone[5:].isdigit():
        h = replace(h, last_seat=_set_str(h.last_seat, uid, int(zone[5:])))
    assert h.deal is not None
    d, more = board.read(h.deal, uid, zone, seq)
    return _board_step(h, d, out + more)


def _set_str(m: Mapping[str, int], key: str, value: int) -> Mapping[str, int]:
    d = dict(m)
    d[key] = value
    return MappingProxyType(d)


def stub_shuffled(h: GameHand) -> GameHand:
    """The stub was reshuffled during the hand (a remedy's reshuffle)."""
    if h.deal is not None:
        return replace(h, deal=board.stub_shuffled(h.deal))
    return h


def kill(h: GameHand, seat: int) -> GameHand:
    """The dealer kills ``seat``'s hand where the action is (an absent tournament player's
    hand, RR Section 15 r.13; a hand the cut-off makes dead, RR Section 3 Dead Hands r.1(d))."""
    p = h.pos(seat)
    if p is None:
        return h
    return _sync_board(_run_or_keep(h, ("kill", p)))


def restake(h: GameHand, posts: Sequence[tuple[int, str, int, bool]], *, after: int | None,
            big_blind: int, killer: int | None) -> GameHand | None:
    """The hand with a new set of forced posts, all of them made: a live straddle posted after
    the blinds (RR Section 14 NL r.15), the log replayed on it. None when the log no longer
    replays (the betting has gone on since)."""
    try:
        fresh = start(h.variant, h.seats, h.stacks, posts, small_bet=h.stakes.small_bet or 1,
                      big_bet=h.stakes.big_bet or 2, bring_in=h.stakes.bring_in,
                      settings=h.rules, big_blind=big_blind, after=after, killer=killer)
        e = _build(h.variant, fresh.stakes, h.stacks, h.house, h.log)
    except (engine.IllegalAction, ValueError):
        return None
    return _sync_street(replace(h, stakes=fresh.stakes, posts_due=(), _engine=e))


# --- what the table layer asks of a hand ----------------------------------------------------------


def is_void(h: GameHand) -> bool:
    """A misdeal-level finding holds the hand void until ``misdeal.declared``."""
    return h.deal.void if h.deal is not None else h.void


def set_void(h: GameHand, void: bool) -> GameHand:
    """The table layer's word on a held misdeal: void (before the cut-off) or played on."""
    if h.deal is not None:
        return replace(h, deal=replace(h.deal, void=void))
    return replace(h, void=void)


def stand(h: GameHand) -> GameHand:
    """The floor ruled the hand stands: play on; the monitor stays off for the rest of it."""
    if h.deal is not None:
        return replace(h, deal=replace(h.deal, void=False, off=h.deal.off or "FLOOR_RULING"))
    return replace(h, void=False, off=h.off or "FLOOR_RULING", expect=())


def moving_on(h: GameHand) -> tuple[GameHand, list[Finding]]:
    """The dealer has moved on (a misdeal declared): a single extra card waiting to be judged
    is one extra card."""
    if h.deal is None:
        return h, []
    d, out = board.moving_on(h.deal)
    return replace(h, deal=d), out


def betting_over(h: GameHand) -> bool:
    """No betting round remains (or the hand is over)."""
    e = h.eng
    return e.is_over or e.betting_over


def cards_out(h: GameHand) -> int:
    """Cards off the shoe this hand."""
    return h.deal.draws if h.deal is not None else h.draws


def starting_hands_out(h: GameHand) -> bool:
    """Has every player been dealt a complete starting hand?"""
    if h.deal is not None:
        return h.deal.draws >= h.deal.hole_total
    e = h.eng
    return e.street > 0 or all(e.hole_needed(i) == 0 for i in range(len(h.seats)))


def current_bet(h: GameHand) -> int:
    """The bet to match on this round."""
    return h.eng.current_bet


def first_command(before: GameHand, after: GameHand) -> Cmd | None:
    """The first engine command ``after`` ran that ``before`` had not: the action applied."""
    return after.log[len(before.log)] if len(after.log) > len(before.log) else None


# --- findings helpers -----------------------------------------------------------------------------


def _flag(h: GameHand, f: Finding, out: list[Finding]) -> GameHand:
    out.append(f)
    if CATALOGUE[f.code].severity == "misdeal":
        return replace(h, void=True, off=f.code, expect=())
    return h


def _ref(f: Finding) -> str:
    return f"{f.code} (seq {f.seq})"


def _with(h: GameHand, c: CardSeen) -> GameHand:
    cards = dict(h.cards)
    cards[c.uid] = c
    return replace(h, cards=MappingProxyType(cards))


def _set(m: Mapping[int, _V], key: int, value: _V | None) -> Mapping[int, _V]:
    d: dict[int, _V] = dict(m)
    if value is None:
        d.pop(key, None)
    else:
        d[key] = value
    return MappingProxyType(d)


# --- what comes next ------------------------------------------------------------------------------


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


def expectation(h: GameHand) -> str:
    """A short sentence of what the monitor expects next (the dealer's screen)."""
    if h.deal is not None:
        return board.expectation(h.deal, BoardBetting(h))
    if h.void:
        return f"Misdeal ({h.off}): waiting for the misdeal to be declared."
    if h.off and h.to_act is None:
        return f"The floor's word on {h.off} (the monitor has stopped for this hand)."
    if h.expect:
        x = h.expect[0]
        return f"Remedy of {x.after}: {x.says()}"
    s = expected(h)
    if s.kind == "burn":
        return "Next: the burn card."
    if s.kind == "board":
        return "Next: the common card, face up in the centre."
    if s.kind == "seat":
        return f"Next: a card to seat {s.seat}, face {'up' if s.face_up else 'down'}."
    if h.to_act is not None:
        return f"Seat {h.to_act} to act."
    return s.why.capitalize() + "." if s.why else ""


# --- cards ----------------------------------------------------------------------------------------


def draw(h: GameHand, uid: str, card: str | None, face_up: bool, seq: int, deck: str
         ) -> tuple[GameHand, list[Finding]]:
    """A card left the shoe: the tag checks (unknown, joker, duplicate) happen now, before any
    player can act on the card; where it went is judged at its zone read."""
    if h.deal is not None:
        return _board_draw(h, uid, card, face_up, seq, deck)
    out: list[Finding] = []
    old = h.cards.get(uid)
    redrawn = old is not None and (
        (h.relaxed and old.zone in ("burn", "aside", "muck", None)) or _back_from_aside(h, old))
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
        return _with(h, replace(c, judged=True)), out
    if h.off:
        # The monitor has stopped judging (a misdeal-level finding the cut-off made the hand
        # play on, or a floor ruling): the card is taken where it lands, for the engine.
        return _with(h, c), out
    if card is None:
        h = _flag(h, make_finding("UNKNOWN_TAG", seq, fill={"uid": uid, "deck": deck or "none"}),
                  out)
        return _with(h, replace(c, judged=True)), out
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
        return _with(h, replace(c, judged=True)), out
    if card not in h.variant.deck_cards:
        h = _foreign(h, card, seq, out)
        return _with(h, replace(c, judged=True)), out
    if not h.relaxed:
        twins = [o for o in h.cards.values() if o.card == card and o.uid != uid]
        if twins:
            held_at = [o.seat for o in twins if o.seat is not None]
            h = _flag(h, make_finding("DUPLICATE_CARD", seq, seats=held_at, cards=[card]), out)
            return _with(h, replace(c, judged=True)), out
    return _with(h, c), out


def _back_from_aside(h: GameHand, old: CardSeen) -> bool:
    """Stud under the house setting ``stud_premature_removed`` = ``reshuffled_at_final_street``
    (AZW Section 3 r.16(4), research D-12): "Once the final street is reached, the premature and
    additional cards set to the side are placed back into the stub. The stub is re-shuffled
    then the final street is dealt." A card set aside drawn again then is a new card."""
    return (h.rules.stud_premature_removed == "reshuffled_at_final_street"
            and h.family == "stud" and old.uid in h.aside and old.zone in ("aside", None)
            and h.eng.street == len(h.variant.streets) - 1)


def read(h: GameHand, uid: str, zone: str, seq: int, card: str | None, deck: str
         ) -> tuple[GameHand, list[Finding]]:
    """A card is read in a zone: its first read is judged; later reads are moves."""
    if h.deal is not None:
        return _board_read(h, uid, zone, seq, card, deck)
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
        h = _with(h, replace(c, zone=zone, judged=True))
        h = _judge(h, replace(c, zone=zone, judged=True), zone, seq, out)
    else:
        h = _with(h, replace(c, zone=zone))
        h = _moved(h, replace(c, zone=zone), zone, seq, out, was=c.zone)
    return h, out


def leave(h: GameHand, uid: str, zone: str) -> GameHand:
    if h.deal is not None:
        if uid in h.jokers:
            return h
        return _sync_board(replace(h, deal=board.leave(h.deal, uid, zone)))
    c = h.cards.get(uid)
    if c is None or c.zone != zone:
        return h
    return _with(h, replace(c, zone=None))


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
        h = _with(h, replace(c, mucked=True))
        c = h.cards[c.uid]
    if ((was == "muck" or c.mucked) and seat is not None and zone == f"seat:{seat}"
            and p is not None and h.eng.folded[p] and seat not in h.retrieved and not h.off):
        # roberts-rules-v11.txt, Section 3, Dead Hands, r.2: "a hand that is clearly
        # identifiable may be retrieved and ruled live at management's discretion": the floor
        # decides; the muck log names the cards (as at the board games, board.py).
        cards = [x.name for x in sorted(h.cards.values(), key=lambda x: x.n)
                 if x.seat == seat and x.fed]
        out.append(make_finding("MUCKED_HAND_RETRIEVAL", seq, seats=[seat], cards=cards))
        return replace(h, retrieved=(*h.retrieved, seat))
    if h.expect and h.expect[0].uid == c.uid:
        if h.expect[0].fits(c.uid, zone, c.face_up):
            return _fulfil(h, c, zone)
        return _not_followed(h, c, zone, seq, out)
    t = h.turn
    if (zone == "muck" and t is not None and c.fed and c.seat == t.seat and not t.fed
            and c.uid not in t.discards):
        # a discard of the player drawing now (RR Section 11 r.9: the draw in order)
        h = replace(h, turn=replace(t, discards=(*t.discards, c.uid)))
    return h


def _fulfil(h: GameHand, c: CardSeen, zone: str) -> GameHand:
    """The card goes where the remedy said: take the expectation off and apply the card."""
    h = replace(h, expect=h.expect[1:])
    if zone == "burn":
        return replace(h, burned=h.eng.street)
    if zone.startswith("seat:") and not c.fed:
        return _feed(h, c, int(zone[5:]))
    return h


def _feed(h: GameHand, c: CardSeen, seat: int) -> GameHand:
    """Give the card to the engine as this seat's next card."""
    p = h.pos(seat)
    if p is None or c.card is None:
        return h
    if h.turn is not None and h.turn.seat == seat and not h.turn.fed:
        h = _feed_discard(h)
    owed = h.owed.get(seat, 0)
    replacing = owed > 0 and h.eng.hole_needed(p) - owed <= 0
    if h.placeholders.get(seat):
        # the card a short hand was missing (RR Section 12 r.5): put it in its placeholder
        log = list(h.log)
        for i, cmd in enumerate(log):
            if cmd[0] == HOLE and cmd[1] == p and cmd[2] == (None,):
                log[i] = (HOLE, p, (c.card,))
                break
        rebuilt = _rebuilt(h, tuple(log))
        if rebuilt is h:
            return h  # the card cannot go in its placeholder (it is in play elsewhere)
        h = replace(rebuilt, placeholders=_set(h.placeholders, seat,
                                               h.placeholders[seat] - 1 or None))
    else:
        try:
            h = _run(h, (HOLE, p, (c.card,)))
        except engine.IllegalAction:
            return h
    h = _with(h, replace(h.cards[c.uid], fed=True, seat=seat))
    if replacing:
        h = replace(h, owed=_set(h.owed, seat, owed - 1 or None))
    return h


def _judge(h: GameHand, c: CardSeen, zone: str, seq: int, out: list[Finding]) -> GameHand:
    """The first zone read of a card off the shoe, against what is expected now."""
    if h.void or c.card is None or (c.card == JOKER and h.variant.deck != "joker"):
        return h
    if h.off:
        # not judged (see ``draw``): taken where it lands (a replacement on the draw counted)
        if zone == "board":
            return _run_or_keep(h, (BOARD, (c.card,)))
        if not zone.startswith("seat:"):
            return h
        return _counted(_feed(h, c, int(zone[5:])), int(zone[5:]))
    h = _arm(h)
    if h.expect:
        x = h.expect[0]
        if x.fits(c.uid, zone, c.face_up):
            return _fulfil(h, c, zone)
        if not x.uid or x.uid not in h.cards or h.cards[x.uid].zone != x.zone:
            h = _not_followed(h, c, zone, seq, out)
            if h.expect and h.expect[0].fits(c.uid, zone, c.face_up):
                return _fulfil(h, c, zone)
    if h.relaxed:
        # The stub ran short (STUD_INSUFFICIENT_CARDS, DRAW_DECK_EXHAUSTED): the dealer
        # reshuffles and may deal a common card; cards are taken where they land.
        if zone == "board":
            return _run_or_keep(h, (BOARD, (c.card,)))
        if zone.startswith("seat:"):
            return _feed(h, c, int(zone[5:]))
        return h
    if c.betting_open and h.family == "stud":
        return _premature(h, c, zone, seq, out)
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
        return _unexpected(h, c, zone, seq, out, "the burn card was due")
    if slot.kind == "board":
        if zone == "board":
            return _run_or_keep(h, (BOARD, (c.card,)))
        return _unexpected(h, c, zone, seq, out, "the common card was due in the centre")
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
        if zone.startswith("seat:") and h.family == "draw":
            return _draw_extra(h, c, int(zone[5:]), seq, out, due=slot.seat)
        return _unexpected(h, c, zone, seq, out, f"the next card was due to seat {slot.seat}")
    # no card is due
    if zone.startswith("seat:") and h.family == "draw":
        return _draw_extra(h, c, int(zone[5:]), seq, out, due=None)
    return _unexpected(h, c, zone, seq, out, slot.why or "no card is due now")


def _run_or_keep(h: GameHand, cmd: Cmd) -> GameHand:
    try:
        return _run(h, cmd)
    except engine.IllegalAction:
        return h


def _unexpected(h: GameHand, c: CardSeen, zone: str, seq: int, out: list[Finding],
                why: str) -> GameHand:
    detail = f"{c.name} went to {_zone_name(zone)}, but {why}."
    out.append(make_finding("UNEXPECTED_CARD", seq, cards=[c.name], fill={"detail": detail},
                            message=detail))
    return h


def _arm(h: GameHand) -> GameHand:
    """Expectations that wait for the deal: armed once only the owed cards are missing."""
    if not h.owed_after_deal or h.eng.street != 0:
        return h
    slot = expected(h)
    if slot.kind == "seat" and slot.seat in h.owed and all(
            h.eng.hole_needed(i) <= h.owed.get(s, 0) for i, s in enumerate(h.seats)):
        return replace(h, expect=(*h.expect, *h.owed_after_deal), owed_after_deal=())
    return h


def _to_due_seat(h: GameHand, c: CardSeen, slot: Slot, seq: int, out: list[Finding]
                 ) -> GameHand:
    """The card went to the seat due it: check which way up it came, then give it to it."""
    seat = slot.seat
    assert seat is not None
    e = h.eng
    if h.family == "stud":
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
                return _stud_exposed(h, c, seat, seq, out)
            elif e.street == len(h.variant.streets) - 1:
                h = _stud_final_up(h, c, seat, seq, out)
        elif not c.face_up and slot.face_up and not natural and seat in h.face:
            out.append(not_followed(
                seq, f"{c.name} was dealt face down to seat {seat}.",
                h.face_why.get(seat, "STUD_FINAL_CARD_FACEUP"),
                f"seat {seat}'s last card is dealt face up too (Section 8 r.17)", seats=[seat],
                cards=[c.name]))
        if natural and seat in h.face:
            h = replace(h, face=_set(h.face, seat, None))
        return _feed(h, c, seat)
    # draw family
    if c.face_up:
        if e.street == 0:
            return _draw_exposed_deal(h, c, seat, seq, out)
        return _draw_exposed_on_draw(h, c, seat, seq, out)
    h = _feed(h, c, seat)
    return _counted(h, seat)


def _counted(h: GameHand, seat: int) -> GameHand:
    """A replacement card given on the draw: count it for the player drawing (or held back)."""
    t = h.turn
    if h.family != "draw" or (h.eng.street == 0 and t is None):
        return h
    if t is not None and t.seat == seat and t.given < t.asked - h.deferred.get(seat, 0):
        return replace(h, turn=replace(t, given=t.given + 1))
    if seat in h.deferred:
        left = h.deferred[seat] - 1
        h = replace(h, deferred=_set(h.deferred, seat, left or None))
        if t is not None and t.seat == seat:
            h = replace(h, turn=replace(t, given=t.given + 1))
    return h


def _premature(h: GameHand, c: CardSeen, zone: str, seq: int, out: list[Finding]) -> GameHand:
    """Stud: a card dealt while the betting round is open (roberts-rules-v11.txt, Section 8,
    r.14): the premature card(s) are eliminated from play; once the round is over, one more
    card for each player still active is eliminated too; then the dealer burns and play
    resumes. Cards go to the set-aside zone (held off to the side in case the stub runs out)."""
    name = _street_name(h.eng.street + 1)  # the street dealt early
    if not h.premature_finding:
        f = make_finding("STUD_PREMATURE_STREET", seq, cards=[c.name], fill={
            "street": name, "betting": _street_name(h.eng.street)},
            setting=h.rules.stud_premature_removed)
        out.append(f)
        h = replace(h, premature_finding=_ref(f))
    h = replace(h, premature=(*h.premature, c.uid))
    if zone.startswith("seat:"):
        h = replace(h, expect=(*h.expect, _put(
            "aside", c.uid, None, h.premature_finding,
            f"{c.name} is eliminated from play: put it aside")))
    return h


def _street_name(st: int) -> str:
    return ("third", "fourth", "fifth", "sixth", "seventh")[st] if 0 <= st < 5 else "last"


def _burn_error(h: GameHand, c: CardSeen, zone: str, seq: int, out: list[Finding], *,
                missing: bool, slot: Slot) -> GameHand:
    """No burn, or a second burn (stud: roberts-rules-v11.txt, Section 8, r.13, "the cards will
    be corrected, if at all possible, to their proper positions"; draw: Section 3,
    Irregularities, r.16): the card is moved where it belongs."""
    street = h.eng.street
    if missing:
        seat = int(zone[5:])
        fix = f"{c.name} is the burn: move it to the burn; the next card goes to seat {seat}"
        x = _put("burn", c.uid, None, "", fix)
        detail = f"{c.name} went to seat {seat} with no burn before it."
    else:
        seat = slot.seat or 0
        up = slot.face_up
        fix = (f"{c.name} is seat {seat}'s card: move it from the burn to seat {seat}"
               + (" face up" if up else ""))
        x = _put(f"seat:{seat}", c.uid, None, "", fix)
        detail = f"{c.name} was burned as a second burn card."
    if h.family == "stud":
        f = make_finding("STUD_BURN_ERROR", seq, seats=[seat], cards=[c.name], fill={
            "detail": detail, "fix": fix, "street": _street_name(street)})
    else:
        f = make_finding("BURN_MISSING_OR_EXTRA", seq, seats=[seat], cards=[c.name], fill={
            "detail": detail, "fix": fix, "street": f"draw {street}"})
    out.append(f)
    if missing:
        h = replace(h, burned=street)
    return replace(h, expect=(*h.expect, replace(x, after=_ref(f))))


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
        h = _feed(h, c, landed)
    return _flag(h, f, out)


def _stud_exposed(h: GameHand, c: CardSeen, seat: int, seq: int, out: list[Finding], *,
                  fed: bool = False) -> GameHand:
    """A third-street down card exposed by the dealer, dealt face up or keyed after it landed
    (``fed``: already given to the seat) (roberts-rules-v11.txt, Section 8, r.1). Whether it is
    a misdeal is the house setting ``stud_exposed_downcard`` (research D-15): RR's cash rule
    and its tournament misdeal, AZW's misdeal always, or the cash rule always."""
    mode = h.rules.stud_exposed_downcard
    if mode == "misdeal" or (mode == "misdeal_in_tournament" and h.tournament):
        # "(In tournament play, if a downcard is dealt faceup, a misdeal is called.)" (RR); "in
        # stud, if any of the players' 2 down cards are exposed by dealer error" (AZW TDA #34)
        return _flag(h, make_finding("STUD_EXPOSED_HOLECARD_TOURNAMENT_MISDEAL", seq,
                                     seats=[seat], cards=[c.name], setting=mode), out)
    count = h.exposed.get(seat, 0) + 1
    h = replace(h, exposed=_set(h.exposed, seat, count))
    if count == 1:
        f = make_finding("STUD_ONE_HOLECARD_EXPOSED", seq, seats=[seat], cards=[c.name],
                         setting=mode if h.tournament else "")
        out.append(f)
        h = replace(h, face=_set(h.face, seat, False), face_why=_set(h.face_why, seat, _ref(f)))
        return h if fed else _feed(h, c, seat)
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
                  face=_set(h.face, seat, None))
    return _rebuilt(new, tuple(log))


def _stud_final_up(h: GameHand, c: CardSeen, seat: int, seq: int, out: list[Finding]
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
                                                  **{s: _ref(f) for s in waiting}}))
    return h


def _draw_exposed_deal(h: GameHand, c: CardSeen, seat: int, seq: int, out: list[Finding], *,
                       fed: bool = False) -> GameHand:
    """A card of the initial deal dealt face up in a draw game. The misdeal list applies (RR
    Section 11 r.1, Section 12 r.3): the first or second card, or a second exposed card, is a
    misdeal; otherwise the game's table says whether the player must take it or it is replaced
    once the deal is complete (MUST_TAKE)."""
    count = h.exposed_deal + 1
    h = replace(h, exposed_deal=count)
    if c.n < 2:
        return _flag(h, make_finding("MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED", seq, seats=[seat],
                                     cards=[c.name],
                                     fill={"ordinal": ("first", "second")[c.n]}), out)
    if count >= 2:
        shown = [o.name for o in h.cards.values() if o.face_up and o.judged and o.zone
                 and o.zone.startswith("seat:")]
        return _flag(h, make_finding("MISDEAL_TWO_OR_MORE_CARDS_EXPOSED", seq,
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
        what = (f"{c.name} is replaced once the deal is complete: it goes to the burn and the "
                f"next card off the deck goes to seat {seat}")
    f = make_finding("DRAW_PREDRAW_EXPOSED_CARD", seq, seats=[seat], cards=[c.name],
                     fill={"what": what, "game": h.variant.name})
    out.append(f)
    if take:
        return h if fed else _feed(h, c, seat)
    if fed:
        h = _unfeed(h, c)
    return replace(h, owed=_set(h.owed, seat, h.owed.get(seat, 0) + 1),
                   owed_after_deal=(*h.owed_after_deal,
                                    _put("burn", c.uid, None, _ref(f),
                                           f"{c.name} goes to the burn"),
                                    _put(f"seat:{seat}", None, False, _ref(f),
                                           f"the next card goes to seat {seat}, face down")))


def _unfeed(h: GameHand, c: CardSeen) -> GameHand:
    """Take a card back out of the engine (an exposed card that must not be taken)."""
    log = list(h.log)
    for i in range(len(log) - 1, -1, -1):
        cmd = log[i]
        if cmd[0] == HOLE and cmd[2] == (c.card,):
            del log[i]
            break
    else:
        return h
    h = _with(h, replace(c, fed=False, seat=None))
    return _rebuilt(h, tuple(log))


def _draw_exposed_on_draw(h: GameHand, c: CardSeen, seat: int, seq: int, out: list[Finding]
                          ) -> GameHand:
    """A replacement card dealt face up (roberts-rules-v11.txt, Section 11 Lowball r.9, Section
    12 Draw High r.8: "On the draw, an exposed card cannot be taken. The draw is completed to
    each player in order, and then the exposed card is replaced.")."""
    if h.turn is not None and h.turn.seat == seat and not h.turn.fed:
        h = _feed_discard(h)  # the player did discard: only the exposed card is not taken
    others = [s for s in h.live if s != seat]
    f = make_finding("DRAW_EXPOSED_ON_DRAW", seq, seats=[seat], cards=[c.name], fill={
        "others": ", ".join(str(s) for s in others) or "none"})
    out.append(f)
    h = replace(h, deferred=_set(h.deferred, seat, h.deferred.get(seat, 0) + 1))
    return replace(h, expect=(*h.expect, _put("muck", c.uid, None, _ref(f),
                                                f"{c.name} cannot be taken: it goes to the "
                                                "muck")))


def _draw_extra(h: GameHand, c: CardSeen, seat: int, seq: int, out: list[Finding],
                due: int | None) -> GameHand:
    """A card to a seat during the draw that is not the card due."""
    t = h.turn
    if t is not None and seat == t.seat and t.asked == 5 and t.given == 4 and due != seat:
        # RR Section 11 r.10: four at once, the fifth after everyone else has drawn
        f = make_finding("DRAW_FIVE_CARDS_RULE", seq, seats=[seat], cards=[c.name])
        out.append(f)
        h = replace(h, deferred=_set(h.deferred, seat, None))
        h = _feed(h, c, seat)
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
    return _unexpected(h, c, f"seat:{seat}", seq, out, why)


def _feed_discard(h: GameHand) -> GameHand:
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
        h = _run(h, (DISCARD, p, tuple(picked)))
    except engine.IllegalAction:
        return replace(h, turn=replace(t, fed=True))
    return replace(h, turn=replace(t, fed=True),
                   placeholders=_set(h.placeholders, t.seat, None))


# --- dealer keys ----------------------------------------------------------------------------------


def exposed(h: GameHand, uid: str, by: str, seq: int) -> tuple[GameHand, list[Finding]]:
    """The dealer's exposed (or flashed-by-the-dealer) key on a card already dealt. A card a
    player exposes plays (roberts-rules-v11.txt, Section 3, Irregularities, r.12)."""
    if h.deal is not None:
        if uid in h.jokers:
            return h, []
        d, found = board.exposed(h.deal, uid, by, seq)
        return _board_step(h, d, found)
    out: list[Finding] = []
    c = h.cards.get(uid)
    if (h.void or h.off) or c is None or by != "dealer" or c.face_up:
        return h, out
    c = replace(c, face_up=True)
    h = _with(h, c)
    seat = c.seat
    if seat is None or not c.fed:
        return h, out
    e = h.eng
    if h.family == "stud":
        p = h.seats.index(seat)
        if e.street == 0 and len(e.holes[p]) <= 2 and not e.upcards(p) and not h.acted:
            # a down card of third street: as if dealt face up (the card is already given)
            return _stud_exposed(h, c, seat, seq, out, fed=True), out
        return h, out
    if e.street == 0 and not h.acted:
        return _draw_exposed_deal(h, c, seat, seq, out, fed=True), out
    if _given_this_turn(h, c):
        h = _unfeed(h, c)
        h = _counted_back(h, seat)
        return _draw_exposed_on_draw(h, c, seat, seq, out), out
    return h, out


def _given_this_turn(h: GameHand, c: CardSeen) -> bool:
    """Is ``c`` a replacement card of the player drawing now (given after the discard)? Only
    such a card is "exposed on the draw" (roberts-rules-v11.txt, Section 11 Lowball r.9);
    a card the player held from before is not taken back out of the engine, whose later
    commands (the betting, the discard) depend on it."""
    t = h.turn
    p = h.pos(t.seat) if t is not None else None
    if t is None or not t.fed or p is None or c.seat != t.seat:
        return False
    for cmd in reversed(h.log):
        if cmd[0] != HOLE:
            return False  # the discard (or a bet) comes after the card: dealt before the draw
        if cmd[1] == p and cmd[2] == (c.card,):
            return True
    return False


def _last_logged(h: GameHand, c: CardSeen) -> bool:
    """Is the engine's last command the one that gave ``c`` to its seat?"""
    p = h.pos(c.seat) if c.seat is not None else None
    return bool(h.log) and h.log[-1] == (HOLE, p, (c.card,))


def _counted_back(h: GameHand, seat: int) -> GameHand:
    t = h.turn
    if t is None or t.seat != seat or t.given == 0:
        return h
    return replace(h, turn=replace(t, given=t.given - 1))


def boxed(h: GameHand, uid: str, card: str | None, seq: int) -> tuple[GameHand, list[Finding]]:
    """The dealer's boxed-card key: a card found face up in the deck is a scrap of paper
    (roberts-rules-v11.txt, Section 3, Irregularities, r.7); two in the initial deal are a
    misdeal (Section 3, Misdeals, r.2(c))."""
    if h.deal is not None:
        d, found = board.boxed(h.deal, uid, card, seq)
        return _board_step(h, d, found)
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
        h = _unfeed(h, c)
    h = _with(h, CardSeen(uid=uid, card=card, n=c.n if c else h.draws, seq=seq, face_up=True,
                          betting_open=False, zone=c.zone if c else None, judged=True))
    in_deal = h.eng.street == 0 and not h.acted
    if in_deal and h.boxed:
        names = [h.cards[u].name for u in h.boxed if u in h.cards]
        return _flag(h, make_finding("MISDEAL_TWO_OR_MORE_BOXED_CARDS", seq,
                                     cards=[*names, name]), out), out
    out.append(make_finding("BOXED_CARD_SINGLE", seq, cards=[name]))
    return replace(h, boxed=(*h.boxed, uid) if in_deal else h.boxed), out


# --- betting and the draw -------------------------------------------------------------------------

POST_NAMES = {
    "small_blind": "small blind", "big_blind": "big blind", "straddle": "straddle",
    "kill": "kill blind", "ante": "ante", "missed_small": "missed small blind (dead)",
    "missed_big": "missed big blind", "new_player": "new player's big blind",
    "bring_in": "bring-in",
}


def action(h: GameHand, seat: int, kind: str, amount: int | None, blind: str | None, seq: int
           ) -> tuple[GameHand, list[Finding]]:
    """A betting action, a forced post, or a draw request, from the dealer console: one set of
    betting rules for every game (the engine's), judged as the rulebooks say for a live table
    (docs/findings.md):

    - the forced posts come first, in the plan's order: the seat due to post is the seat to
      act (roberts-rules-v11.txt, Section 4 intro: blinds are posted before the cards);
    - out of turn, a check facing a bet, a raise when the betting was not reopened: not applied
      (the console enters the right action; Section 3, Betting and Raising, r.11);
    - a bet or raise below the minimum: by the house setting ``undersized_wager``, brought up
      to the minimum ("the wager must be increased to the proper size (but no greater)",
      Section 14, No-Limit r.11; Section 3, Betting and Raising, r.16) or refused;
    - a wager larger than the player's chips: the player is all-in (table stakes).
    """
    out: list[Finding] = []
    if h.void and h.deal is None:
        return h, out
    e = h.eng
    if kind == "post" and blind != "bring_in" and not (
            blind is None and e.can_post_bring_in() and h.to_act == seat):
        return _post(h, seat, amount, seq, out), out
    if h.posts_due and kind != "post":
        due, name, _ = h.posts_due[0]
        if seat != due:
            out.append(make_finding("OOT_ACTION", seq, seats=[seat], fill={
                "seat": seat, "action": kind, "to_act": due}))
        else:
            detail = (f"Seat {seat} must post the {POST_NAMES.get(name, name)} before acting "
                      f"({kind}).")
            out.append(make_finding("ACTION_NOT_AVAILABLE", seq, seats=[seat],
                                    fill={"detail": detail}, message=detail))
        return h, out
    if kind == "draw":
        return _draw_request(h, seat, amount or 0, seq, out), out
    if seat in h.dead and kind != "fold":
        after = h.dead_after.get(seat, "DRAW_WRONG_COUNT_AFTER_DRAW")
        what = "hand" if seat in h.dead_after else "fouled hand"
        out.append(not_followed(seq, f"Seat {seat} acted ({kind}) with a dead hand.", after,
                                f"seat {seat}'s {what} is dead: it folds", seats=[seat]))
        kind = "fold"
    h = _close_turn(h, seq, out)
    h = _short_deal(h, seq, out)
    if h.deal is not None:
        d, more = board.moving_on(h.deal)  # the dealer has moved on to the betting
        out += more
        h = replace(h, deal=d)
    e = h.eng
    p = h.pos(seat)
    if p is None:
        return _not_available(h, seat, f"Seat {seat} is not dealt in this hand ({kind}).",
                              seq, out)
    if e.actor is None:
        return _not_available(h, seat, f"Seat {seat} {kind}: no betting action is due now "
                              f"({expectation(h).rstrip('.')}).", seq, out)
    if kind == "post" and e.can_post_bring_in() and p != e.actor:
        return _wrong_bring_in(h, seat, seq, out), out
    if p != e.actor:
        out.append(make_finding("OOT_ACTION", seq, seats=[seat], fill={
            "seat": seat, "action": kind, "to_act": h.seats[e.actor]}))
        return h, out
    cmd: Cmd | None = (BRING_IN, p) if kind == "post" else _wager(h, p, kind, amount, seq, out)
    if cmd is None:
        return h, out
    try:
        h = _run(h, cmd)
    except engine.IllegalAction as exc:
        return _not_available(h, seat, f"Seat {seat} {kind}{f' {amount}' if amount else ''}: "
                              f"{exc.message}.", seq, out)
    h = replace(h, acted=True, street_acts=h.street_acts + 1)
    h = _sync_board(h)
    return _after_round(h, seq, out), out


def _not_available(h: GameHand, seat: int, detail: str, seq: int, out: list[Finding]
                   ) -> tuple[GameHand, list[Finding]]:
    out.append(make_finding("ACTION_NOT_AVAILABLE", seq, seats=[seat], fill={"detail": detail},
                            message=detail))
    return h, out


_NOT_REOPENED = ("CANNOT_RAISE", "NO_ONE_TO_RAISE", "RAISE_CAPPED", "NOT_REOPENED")


def _wager(h: GameHand, p: int, kind: str, amount: int | None, seq: int, out: list[Finding]
           ) -> Cmd | None:
    """The engine command for a voluntary action by the player to act, or None (a finding
    says why) when the action is not applied."""
    e = h.eng
    seat = h.seats[p]
    to_call = e.checking_or_calling_amount() or 0
    top = e.stacks[p] + e.bets[p]  # everything the player has on this round
    if kind == "fold":
        return (FOLD, p) if e.can_fold(p) else (CALL, p)
    if kind == "check" and to_call > 0:
        detail = (f"Seat {seat} checked facing a bet of {e.current_bet}; it may call {to_call}, "
                  "raise or fold.")
        _not_available(h, seat, detail, seq, out)
        return None
    if kind in ("check", "call"):
        return (CALL, p)
    if kind == "allin":
        return (RAISE, p, top) if e.can_complete_bet_or_raise_to(top, p) else (CALL, p)
    target = min(amount or 0, top)
    if not e.can_complete_bet_or_raise(p):
        problem = e.raise_problem()
        if problem is not None and problem[0] in _NOT_REOPENED:
            out.append(make_finding("RAISE_NOT_PERMITTED", seq, seats=[seat],
                                    fill={"seat": seat, "call": min(to_call, e.stacks[p])}))
            return None
        return (RAISE, p, target)  # the engine names the rule that forbids it
    lo = e.min_completion_betting_or_raising_to() or target
    if target == top and target < lo:
        # all in for less than a full bet or raise
        return (RAISE, p, target) if e.can_complete_bet_or_raise_to(target, p) else (CALL, p)
    if target < lo:
        if h.rules.undersized_wager == "refused":
            detail = (f"Seat {seat} {kind} {amount or 0}: the minimum is {lo} (the console "
                      "enters the wager again).")
            _not_available(h, seat, detail, seq, out)
            return None
        out.append(make_finding("UNDERSIZED_WAGER", seq, seats=[seat], fill={
            "seat": seat, "amount": amount or 0, "minimum": lo,
            "fix": f"Feltguard has applied it as {lo} (the minimum; no greater)."}))
        target = lo
    return (RAISE, p, target)


def _post(h: GameHand, seat: int, amount: int | None, seq: int, out: list[Finding]
          ) -> GameHand:
    """A forced post from the console. The engine posted the plan's forced bets as the hand
    began; the console's posts tick them off in the plan's order. A post not due is refused;
    a wrong amount is posted as due (RR Section 4 r.1: the blind's size does not change)."""
    if not h.posts_due:
        _not_available(h, seat, f"Seat {seat} posted, but no blind is due.", seq, out)
        return h
    due, kind, proper = h.posts_due[0]
    if seat != due:  # the table layer judges a post by another seat first
        _not_available(h, seat, f"Seat {seat} posted; seat {due} is due to post.", seq, out)
        return h
    if (amount or 0) != proper:
        out.append(make_finding("BLIND_WRONG_AMOUNT", seq, seats=[seat], fill={
            "seat": seat, "amount": amount or 0, "due": proper,
            "blind": POST_NAMES.get(kind, kind)}))
    return replace(h, posts_due=h.posts_due[1:], ticked=h.ticked + 1)


def _wrong_bring_in(h: GameHand, seat: int, seq: int, out: list[Finding]) -> GameHand:
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


def _after_round(h: GameHand, seq: int, out: list[Finding]) -> GameHand:
    """After an action: arm the premature-card remedy once the round is over; predict a stub
    too short for seventh street (roberts-rules-v11.txt, Section 8, r.15)."""
    e = h.eng
    if h.premature and e.actor is None:
        n = len(h.live)
        after = h.premature_finding
        more = n
        if h.rules.stud_premature_removed == "reshuffled_at_final_street":
            # AZW Section 3 r.16(4): the premature card(s) and the additional cards "represent
            # an entire round of cards for the remaining live players" (a premature burn is no
            # player's card)
            dealt = sum(1 for u in h.premature if u in h.cards and h.cards[u].zone != "burn")
            more = max(0, n - dealt)
        asides = tuple(_put("aside", None, None, after,
                              f"one card for each of the {n} players still in goes aside "
                              f"({n - more + k + 1} of {n}), then the burn")
                       for k in range(more))
        h = replace(h, premature=(), premature_finding="",
                    expect=(*h.expect, *asides))
    last = len(h.variant.streets) - 1
    if (h.family == "stud" and e.street == last and e.actor is None and not e.betting_over
            and not h.relaxed and h.burned != last):
        left = len(h.variant.deck_cards) - h.draws
        if h.rules.stud_premature_removed == "reshuffled_at_final_street":
            left += len(h.aside)  # back into the stub for the final street (AZW r.16(4))
        need = len(h.live) + 1 + sum(1 for x in h.expect if x.zone == "aside" and not x.uid)
        if left < need:
            f = make_finding("STUD_INSUFFICIENT_CARDS", seq, seats=list(h.live), fill={
                "left": left, "players": len(h.live)}, setting=h.rules.stud_short_deck)
            out.append(f)
            h = replace(h, relaxed=True, expect=())
    return h


def _draw_request(h: GameHand, seat: int, asked: int, seq: int, out: list[Finding]
                  ) -> GameHand:
    """A player asks for cards on the draw, in turn (RR Section 11 r.9)."""
    h = _close_turn(h, seq, out)
    e = h.eng
    d = e.discarder
    if d is None or h.seats[d] != seat:
        who = f"seat {h.seats[d]} draws next" if d is not None else "no draw is due now"
        detail = f"Seat {seat} asked for {asked} card(s): {who}."
        out.append(make_finding("ACTION_NOT_AVAILABLE", seq, seats=[seat],
                                fill={"detail": detail}, message=detail))
        return h
    limit = h.variant.max_draw
    missing = h.placeholders.get(seat, 0)
    if asked > limit:
        detail = f"Seat {seat} asked for {asked} cards; at most {limit} may be drawn."
        out.append(make_finding("ACTION_NOT_AVAILABLE", seq, seats=[seat],
                                fill={"detail": detail}, message=detail))
        return h
    total = asked + missing
    left = len(h.variant.deck_cards) - h.draws
    burn = 1 if h.burned != e.street and total else 0
    if total + burn > left and not h.relaxed:
        f = make_finding("DRAW_DECK_EXHAUSTED", seq, seats=[seat], fill={
            "left": left, "asked": total}, setting=h.rules.draw_deck_exhausted)
        out.append(f)
        h = replace(h, relaxed=True, expect=())
    h = replace(h, turn=DrawTurn(seat, total), last_asker=seat,
                drawn=_set(h.drawn, seat, (*h.drawn.get(seat, ()), asked)))
    if total == 5 and limit == 5 and h.rules.draw_max_consecutive == 4:
        # RR Section 11 r.10: the fifth card comes after everyone else has drawn
        h = replace(h, deferred=_set(h.deferred, seat, 1), deferred_five=seat)
    if total == 0:
        h = _feed_discard(h)
    return h


def _close_turn(h: GameHand, seq: int, out: list[Finding]) -> GameHand:
    """The next player asks (or the betting starts): the player before has all the cards it
    will get now; a wrong count is a fouled hand (RR Section 11 r.12; Section 12 r.5)."""
    t = h.turn
    if t is None:
        return h
    if not t.fed:
        h = _feed_discard(h)
    held_back = h.deferred.get(t.seat, 0)
    if t.given + held_back < t.asked and not h.relaxed and t.seat not in h.dead:
        size = HAND_SIZE_AFTER_DRAW.get(h.variant.id, 5)
        f = make_finding("DRAW_WRONG_COUNT_AFTER_DRAW", seq, seats=[t.seat], fill={
            "held": len(h.hole(t.seat)), "size": size})
        out.append(f)
        h = replace(h, dead=(*h.dead, t.seat))
    return replace(h, turn=None)


def _short_deal(h: GameHand, seq: int, out: list[Finding]) -> GameHand:
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
                        dead_after=MappingProxyType({**h.dead_after, seat: _ref(f)}))
        p = h.seats.index(seat)
        for _ in range(k):
            h = _run_or_keep(h, (HOLE, p, (None,)))
        h = replace(h, placeholders=_set(h.placeholders, seat, k))
        if seat == button:
            h = replace(h, expect=(*h.expect, *(_put(f"seat:{seat}", None, False, _ref(f),
                                                       f"the button's missing card to seat "
                                                       f"{seat}") for _ in range(k))))
    return h


# --- the end of the hand --------------------------------------------------------------------------


def _board_end(h: GameHand, seq: int) -> tuple[GameHand, list[Finding], tuple[PotAward, ...],
                                                dict[int, int], str]:
    """``hand.end`` of a board game: every live hand must hold the game's cards, else it is
    dead (RR Section 3, Dead Hands, r.1(d)); then the engine, given the cards the procedure
    saw in place of its placeholders, makes the showdown and settles the pots."""
    assert h.deal is not None
    e = h.eng
    hand_over = len(h.live) <= 1
    if e.discarder is not None and not hand_over:
        return h, [], (), {}, f"seat {h.seats[e.discarder]} has not discarded (Pineapple)"
    size = len(h.variant.streets[0].hole) - sum(st.discard for st in h.variant.streets)
    d, out = board.hand_end(h.deal, h.live, hand_over, size, seq)
    dead = {s for f in out if f.code == "HAND_WRONG_CARD_COUNT_DEAD" for s in f.seats}
    h = replace(h, deal=d)
    if not (e.betting_over or e.is_over):
        return h, out, (), {}, f"the {_board_street(e.street)} betting is not complete"
    if not hand_over and len(d.board) != 5:
        return h, out, (), {}, f"the board has {len(d.board)} cards; a showdown needs 5"
    try:
        e = e if e.is_over else _showdown(h, dead)
        awards = _by_seat(h, e)
    except (engine.IllegalAction, ValueError, AssertionError) as exc:
        return h, out, (), {}, f"the pots cannot be settled: {exc}"
    stacks = {s: e.stacks[i] for i, s in enumerate(h.seats)}
    return replace(h, _engine=e), out, awards, stacks, ""


def _by_seat(h: GameHand, e: engine.Hand) -> tuple[PotAward, ...]:
    """The engine's awards (by position) by seat, seats in order."""
    return tuple(
        PotAward(amount=a.amount, eligible=tuple(sorted(h.seats[i] for i in a.eligible)),
                 winners=tuple(sorted(h.seats[i] for i in a.winners)),
                 shares={h.seats[i]: v for i, v in a.shares.items()}, hand=a.hand)
        for a in e.awards)


def _board_street(st: int) -> str:
    return ("preflop", "flop", "turn", "river")[min(st, 3)]


def _showdown(h: GameHand, dead: set[int]) -> engine.Hand:
    """The engine replayed with the cards seen in place of its placeholders, then the
    showdown: dead hands are mucked, every other live hand is shown."""
    assert h.deal is not None
    d = h.deal
    board_cards = list(d.board)
    thrown = iter(h.discarded)  # the discards, in the order the engine took them
    real: set[int] = set()  # positions given their real cards
    log: list[Cmd] = []
    for cmd in h.log:
        if cmd[0] == HOLE:
            p = int(str(cmd[1]))
            k = len(cmd[2])  # type: ignore[arg-type]
            home = f"seat:{h.seats[p]}"
            gone = tuple(d.cards[u].name for u in h.discarded
                         if d.cards[u].home == home or h.last_seat.get(u) == h.seats[p])
            held = (*d.hole(h.seats[p]), *gone)
            if h.seats[p] in dead or len(held) != k:
                log.append((HOLE, p, (None,) * k))
            else:
                real.add(p)
                log.append((HOLE, p, tuple(held)))
        elif cmd[0] == DISCARD:
            p = int(str(cmd[1]))
            uid = next(thrown, None)
            card = d.cards[uid].name if uid is not None and p in real else None
            log.append((DISCARD, p, (card,)))
        elif cmd[0] == BOARD:
            k = len(cmd[1])  # type: ignore[arg-type]
            log.append((BOARD, tuple(board_cards[:k])))
            board_cards = board_cards[k:]
        else:
            log.append(cmd)
    e = _build(h.variant, h.stakes, h.stacks, h.house, log)
    for seat in sorted(dead):
        pos = h.pos(seat)
        if pos is not None and pos in e.showdown_pending and len(e.showdown_pending) > 1:
            e.show_or_muck(pos, None)  # a dead hand is not shown (RR Section 3 Dead Hands)
    for p in e.showdown_pending:
        if e.is_over:
            break
        e.show_or_muck(p, ())
    if not e.is_over:
        e.show_all()
    return e


def end(h: GameHand, seq: int) -> tuple[GameHand, list[Finding], tuple[PotAward, ...],
                                          dict[int, int], str]:
    """``hand.end``: the showdown and the pots. Returns the hand, findings, the awards (by seat),
    every dealt-in seat's stack after the hand, and a problem ("" when the pots were awarded)."""
    if h.deal is not None:
        return _board_end(h, seq)
    out: list[Finding] = []
    h = _close_turn(h, seq, out)
    e = h.eng
    if not e.betting_over:
        return h, out, (), {}, "the betting is not complete"
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
        for seat in h.dead:
            p = h.pos(seat)
            if p is not None and p in e.showdown_pending and len(e.showdown_pending) > 1:
                e.show_or_muck(p, None)  # a fouled hand is dead (RR Section 11 r.12)
        for p in e.showdown_pending:
            if e.is_over:
                break
            e.show_or_muck(p, ())
        if not e.is_over:
            e.show_all()
        awards = _by_seat(h, e)
    except (engine.IllegalAction, ValueError, AssertionError) as exc:
        return h, out, (), {}, f"the pots cannot be settled: {exc}"
    stacks = {s: e.stacks[i] for i, s in enumerate(h.seats)}
    return replace(h, _engine=e), out, awards, stacks, ""
