"""The simulated dealer for the stud and draw games: hands as they physically happen at the table,
with one dealing mistake at a chosen rate, the truth about it, and the remedy then followed.

The hold'em ``SimDealer`` (``controller/sim/dealer.py``) has the same shape: ``next_hand()``
returns the ordered steps of one hand, console inputs as event bodies and card movements as
``CardMove`` (``expand`` gives the events each yields). Pure and deterministic given its
``random.Random``: no clock, no I/O.

Players act through a shadow ``engine.Hand`` (the real hand engine), so every action is legal:
the engine says who acts, what a call costs, which raises are allowed, who draws next and which
seats are due cards. Every player stays at the table; a busted player re-buys between hands.

The event contract (what the procedure monitor expects; research/irregularities.md §1.M
STUD_DEAL_BASELINE and §1.N DRAW_DEAL_BASELINE):

- stud (stud, razz, stud8): ``hand.start`` without a button, ``shuffle.done``, an ante per seat
  in seat order, third street as three passes in seat order (down, down, up; no burn), the
  bring-in by the engine's low card (or a completion, ``bet``), then for fourth to seventh
  street a burn and one card per player still in, face up on fourth to sixth and face down on
  seventh (roberts-rules-v11.txt, Section 8, intro and r.2);
- draw (draw5, draw5_jacks, draw5_joker, a5_lowball, 27_single, 27_triple, badugi):
  ``hand.start`` with the button, ``shuffle.done``, the blinds (or an ante per player, left of
  the button first), the deal one card at a time left of the button first and the button last
  (five passes, badugi four), face down, no burn; after each betting round a draw round: each
  player in turn asks (``action draw amount=k``), the k discards reach the muck, then k cards
  come off the shoe, the round's first card off the shoe being the burn. A player drawing five
  gets four at once and the fifth after everyone else; the last player to draw gets four, a
  burn, then the fifth (RR Section 11 Lowball r.10).

Mistakes (``MISTAKES_STUD``, ``MISTAKES_DRAW``: kind -> the finding code it must raise): a
misdeal-level mistake (``MISDEAL_KINDS``) is followed by ``misdeal.declared`` right after the
mistaken card and the hand ends (the next hand is the redeal: same button, same stacks);
otherwise the dealer follows the remedy and plays the hand to the end. ``truth`` gets one
``Mistake`` per expected finding: two for ``stud_both_downcards_exposed`` (the first exposure,
STUD_ONE_HOLECARD_EXPOSED, then STUD_BOTH_HOLECARDS_EXPOSED with both cards) and for
``stud_exposed_remedy_ignored`` (STUD_ONE_HOLECARD_EXPOSED, then REMEDY_NOT_FOLLOWED at the
third card). A hand with a mistake after the deal is played passively (calls and checks; the
opener of a pass-and-out game opens) so that it reaches the street of the mistake.

The shadow engine is given each card in the order it physically arrives, with the street's
usual face (an exposed stud down card counts as a down card to the engine), exactly as the
procedure monitor feeds its own engine; cards a remedy takes out of play never reach it.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Mapping, Sequence
from typing import Any

from controller.events import (
    Action,
    DeckRegister,
    HandEnd,
    HandStart,
    MisdealDeclared,
    SeatTake,
    ShoeDraw,
    ShuffleDone,
    TableSetup,
)
from controller.rules.cards import FULL_DECK
from controller.rules.engine import Hand, Stakes
from controller.rules.evaluate import hand_code, value_of_code
from controller.rules.variants import JOKER, VARIANTS, Variant
from controller.sim.dealer import NAMES, CardMove, Mistake, SimStep, deck_roles, new_uid

STUD_GAMES: tuple[str, ...] = ("stud", "razz", "stud8")
DRAW_GAMES: tuple[str, ...] = (
    "draw5", "draw5_jacks", "draw5_joker", "a5_lowball", "27_single", "27_triple", "badugi")
# The games the simulated table deals: hold'em (controller/sim/dealer.py) and these.
SIM_GAMES: tuple[str, ...] = ("nlhe", *STUD_GAMES, *DRAW_GAMES)

# Mistakes of every family (research/irregularities.md §1.C, §1.G, §1.A).
_COMMON: dict[str, str] = {
    "first_card_wrong_seat": "MISDEAL_FIRST_CARD_WRONG_POSITION",  # RR Section 3 Misdeals r.2
    "card_out_of_sequence": "MISDEAL_CARD_OUT_OF_SEQUENCE",  # RR Section 3 Misdeals r.2
    "joker_dealt": "JOKER_IN_NON_JOKER_GAME",  # RR Section 3 Irregularities r.8
    "duplicate_card": "DUPLICATE_CARD",  # RR Section 3 Irregularities r.4
    "draw_after_hand_end": "DRAW_AFTER_HAND_END",  # RR Section 2 Procedures r.24
}

# mistake kind -> the finding code the monitor must raise (research §1.M)
MISTAKES_STUD: dict[str, str] = {
    "stud_downcard_exposed": "STUD_ONE_HOLECARD_EXPOSED",  # RR Section 8 r.1
    "stud_both_downcards_exposed": "STUD_BOTH_HOLECARDS_EXPOSED",  # RR Section 8 r.1
    "stud_exposed_remedy_ignored": "REMEDY_NOT_FOLLOWED",  # RR Section 8 r.1, not followed
    "stud_wrong_bring_in": "STUD_WRONG_LOWCARD_DESIGNATED",  # RR Section 8 r.5
    "stud_burn_missing": "STUD_BURN_ERROR",  # RR Section 8 r.13
    "stud_burn_extra": "STUD_BURN_ERROR",  # RR Section 8 r.13
    "stud_premature_street": "STUD_PREMATURE_STREET",  # RR Section 8 r.14
    "stud_final_card_faceup": "STUD_FINAL_CARD_FACEUP",  # RR Section 8 r.17
    **_COMMON,
}

# mistake kind -> the finding code the monitor must raise (research §1.N)
MISTAKES_DRAW: dict[str, str] = {
    # RR Section 3 Misdeals r.2(a), used for draw by Section 11 r.1 and Section 12 r.3
    "draw_first_card_exposed": "MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED",
    # RR Section 11 Ace-to-Five r.3, Deuce-to-Seven r.2; Section 12 r.4; WSOP Section 12 r.6
    "draw_predraw_exposed": "DRAW_PREDRAW_EXPOSED_CARD",
    "draw_exposed_on_draw": "DRAW_EXPOSED_ON_DRAW",  # RR Section 11 r.9, Section 12 r.8
    "draw_five_consecutive": "DRAW_FIVE_CARDS_RULE",  # RR Section 11 Lowball r.10
    "draw_button_short": "DRAW_SHORT_HAND_PREDRAW",  # RR Section 12 r.5, Section 11 r.12
    "draw_wrong_count": "DRAW_WRONG_COUNT_AFTER_DRAW",  # RR Section 11 r.12, Section 12 r.5
    "draw_burn_missing": "BURN_MISSING_OR_EXTRA",  # RR Section 3 Irregularities r.16
    **_COMMON,
}

# Mistakes after which the floor declares a misdeal (the hand is void, the next is the redeal).
MISDEAL_KINDS = frozenset({"first_card_wrong_seat", "card_out_of_sequence",
                           "duplicate_card", "draw_first_card_exposed"})

# Mistakes made in the initial deal (third street in stud): they need no betting to happen.
DEAL_KINDS = MISDEAL_KINDS | {"joker_dealt", "stud_downcard_exposed",
                              "stud_both_downcards_exposed",
                              "stud_exposed_remedy_ignored", "draw_predraw_exposed"}

# Exposed by the dealer before the draw, the ranks a player must take; any other is replaced
# once the deal is complete. None: every exposed card is kept (draw high, RR Section 12 r.4).
# A-5 limit: "an exposed card of seven or under must be taken" (RR Section 11 Ace-to-Five r.3);
# 2-7: "an exposed card of 7, 5, 4, 3, or 2 must be taken" (RR Section 11 Deuce-to-Seven r.2,
# NL/PL Lowball r.2(b)); badugi: "A, 2, 3, or, 4 must be taken on the deal only" (WSOP Section
# 12 Badugi r.6).
MUST_TAKE: dict[str, str | None] = {
    "draw5": None, "draw5_jacks": None, "draw5_joker": None,
    "a5_lowball": "A234567", "27_single": "23457", "27_triple": "23457", "badugi": "A234",
}

# Cards kept back from the draws: the round's burn, a burn before a last player's fifth card,
# one for a card shown after the hand (DRAW_AFTER_HAND_END), two for a mistake's extra card.
_DRAW_RESERVE = 5


class _Stop(Exception):
    """The floor declared a misdeal: the hand is over."""


def _has_openers(cards: Sequence[str]) -> bool:
    """A pair of jacks or better (RRH Section 12 Jacks-or-Better r.1)."""
    value = value_of_code(hand_code(list(cards)))
    # category in the top bits: 1 = one pair (its rank next, jack = 9), 2 and up = better
    return value >> 20 >= 2 or (value >> 20 == 1 and (value >> 16 & 15) >= 9)


class GameDealer:
    """A simulated dealer at one stud or draw table (all seats taken, every player dealt in)."""

    def __init__(
        self,
        game: str,
        rng: random.Random,
        seats: int = 6,
        mistake_rate: float = 0.0,
        stack: int = 200,
        ante: int = 1,
        bring_in: int = 1,
        small_blind: int = 1,
        big_blind: int = 2,
        small_bet: int = 2,
        big_bet: int = 4,
    ) -> None:
        if game not in STUD_GAMES + DRAW_GAMES:
            raise ValueError(f"unknown game {game!r}; one of {', '.join(STUD_GAMES + DRAW_GAMES)}")
        v: Variant = VARIANTS[game]
        # stud: at most six players, so that the 52 cards never run out (RR Section 8 r.15 is
        # not simulated)
        most = 6 if game in STUD_GAMES else min(v.max_players, 10)
        if type(seats) is not int or not 2 <= seats <= most:
            raise ValueError(f"{game} is simulated at 2..{most} seats, not {seats!r}")
        for name, value in (("stack", stack), ("ante", ante), ("bring_in", bring_in),
                            ("small_blind", small_blind), ("big_blind", big_blind),
                            ("small_bet", small_bet), ("big_bet", big_bet)):
            if type(value) is not int or value <= 0:
                raise ValueError(f"{name} must be a positive int, got {value!r}")
        if not 0.0 <= mistake_rate <= 1.0:
            raise ValueError(f"mistake_rate must be in 0..1, got {mistake_rate!r}")
        if bring_in >= small_bet or small_blind > big_blind or small_bet > big_bet:
            raise ValueError("need bring_in < small_bet <= big_bet and small_blind <= big_blind")
        self.game = game
        self.variant = v
        self.stud = game in STUD_GAMES
        self.rng = rng
        self.seats = seats
        self.mistake_rate = mistake_rate
        self.stack = stack
        self.ante = ante
        self.bring_in = bring_in
        self.small_blind = small_blind
        self.big_blind = big_blind
        self.small_bet = small_bet
        self.big_bet = big_bet
        table = MISTAKES_STUD if self.stud else MISTAKES_DRAW
        self.mistakes: dict[str, str] = {
            k: c for k, c in table.items()
            if not (k == "joker_dealt" and v.deck == "joker")
            and not (k == "draw_five_consecutive" and v.max_draw < 5)}
        self.truth: list[Mistake] = []
        self.hand = 0
        self.tags: dict[str, str] = {}
        self.uid_of: dict[str, str] = {}
        self.spare_uid = ""
        self.joker_uid = ""
        self.stacks: dict[int, int] = {s: stack for s in range(1, seats + 1)}
        self.button = seats  # the first hand moves it to seat 1
        self._redeal = False
        self._steps: list[SimStep] = []
        self._opened = False  # the table is set up (by this dealer, or recovered: ``resume``)
        self._pending: list[SimStep] = []  # set-up a resumed table still lacks
        self._reset_hand()

    def _reset_hand(self) -> None:
        self._deck: list[str] = []  # uids; the top of the shoe is the end of the list
        self._holes: dict[int, list[str]] = {}
        self._order: list[int] = []  # dealt in, dealing order
        self._seat_at: list[int] = []  # engine position -> seat
        self._pos: dict[int, int] = {}  # seat -> engine position
        self._kind: str | None = None
        self._passive = False
        self._keep = 0  # passive stud: fold facing a bet while more players than this are in
        self._street = -1  # the street (engine index) of a mistake after the deal
        self._dead: int | None = None  # stud: the seat whose hand is dead (both down cards up)
        self._fouled: int | None = None  # draw: the seat whose hand is fouled
        self._aside_due = False  # stud: the premature remedy's set-aside cards are still due
        self._held: str | None = None  # draw: the button's card held back until an action
        self._h: Hand | None = None

    # --- the table -----------------------------------------------------------------------------

    def _uid(self) -> str:
        return new_uid(self.rng, self.tags)

    def _emit(self, step: SimStep) -> None:
        self._steps.append(step)

    def _misdeal(self) -> None:
        """The floor reacts to the alert: the hand is void (the next hand is the redeal)."""
        self._emit(MisdealDeclared())
        self._redeal = True
        raise _Stop

    def _record(self, kind: str, seats: Sequence[int], cards: Sequence[str],
                code: str | None = None) -> None:
        self.truth.append(Mistake(self.hand, kind, code or self.mistakes[kind], tuple(seats),
                                  tuple(cards)))

    def resume(self, snap: Mapping[str, Any], tags: Mapping[str, str] | None) -> None:
        """Deal on at a table recovered from its journal (``feltguard sim`` restarted after a
        crash), from its snapshot (``controller.rules.snapshot``): the stacks, the button and
        the hand count are the table's, the deck the registered one. What the journal lacks (no
        deck registered yet, an empty seat: this dealer keeps every seat filled) is set up
        before the next hand."""
        self._opened = True
        self.hand = int(snap["hand"]["number"])
        seated = {int(s["seat"]): int(s["stack"]) for s in snap["seats"]}
        for seat in range(1, self.seats + 1):
            if seat not in seated:
                self._pending.append(SeatTake(seat=seat, player=NAMES[seat - 1],
                                              stack=self.stack))
                seated[seat] = self.stack
        self.stacks = {seat: seated[seat] for seat in range(1, self.seats + 1)}
        button = snap["hand"].get("button")
        if isinstance(button, int) and 1 <= button <= self.seats:
            self.button = button
            # a void last hand is dealt again with the same button, as the core does
            self._redeal = snap["hand"].get("phase") == "misdeal"
        if tags:
            self.tags = dict(tags)
            self.uid_of, self.spare_uid, self.joker_uid = deck_roles(tags, JOKER)
        else:
            self._pending.append(self._new_deck())

    def _open_table(self) -> None:
        self._opened = True
        v = self.variant
        antes = self.stud or v.forced == "antes"
        fixed = v.structure == "fixed"
        self._emit(TableSetup(
            game=self.game, seats=self.seats, small_blind=self.small_blind,
            big_blind=self.big_blind, ante=self.ante if antes else 0,
            bring_in=self.bring_in if self.stud else 0,
            small_bet=self.small_bet if fixed else 0, big_bet=self.big_bet if fixed else 0))
        for seat in range(1, self.seats + 1):
            self._emit(SeatTake(seat=seat, player=NAMES[seat - 1], stack=self.stack))
        self._emit(self._new_deck())

    def _new_deck(self) -> DeckRegister:
        v = self.variant
        for card in v.deck_cards:
            uid = self._uid()
            self.tags[uid] = card
            self.uid_of[card] = uid
        # A spare tag carrying a duplicate of one card (a defective deck), and in a game without
        # the joker a joker tag: registered, but kept out of the shoe except in the hand of
        # their mistake.
        self.spare_uid = self._uid()
        self.tags[self.spare_uid] = self.rng.choice(FULL_DECK)
        if v.deck != "joker":
            self.joker_uid = self._uid()
            self.tags[self.joker_uid] = JOKER
        return DeckRegister(deck=f"sim-{self.game}", tags=dict(self.tags))

    # --- hands ---------------------------------------------------------------------------------

    def next_hand(self, mistake: str | None = None) -> list[SimStep]:
        """Play one hand; ``mistake`` forces a mistake kind (else one at ``mistake_rate``)."""
        if mistake is not None and mistake not in self.mistakes:
            raise ValueError(f"unknown mistake kind {mistake!r} for {self.game}; one of "
                             f"{sorted(self.mistakes)}")
        self._steps = []
        if not self._opened:
            self._open_table()
        for pending in self._pending:
            self._emit(pending)
        self._pending = []
        for seat, chips in sorted(self.stacks.items()):
            if chips == 0:  # re-buy a busted player between hands
                self._emit(SeatTake(seat=seat, player=NAMES[seat - 1], stack=self.stack))
                self.stacks[seat] = self.stack
        self.hand += 1
        if not self.stud and not self._redeal:
            self.button = self.button % self.seats + 1
        self._redeal = False
        if mistake is None and self.rng.random() < self.mistake_rate:
            mistake = self.rng.choice(sorted(self.mistakes))
        self._reset_hand()
        with contextlib.suppress(_Stop):
            self._play(self._feasible(mistake))
        return self._steps

    def _feasible(self, kind: str | None) -> str | None:
        """A mistake the table can make: some need three players, or a first actor who is not
        the button; otherwise a deal mistake that always can."""
        if kind is None:
            return None
        n = self.seats
        blinds = not self.stud and self.variant.forced == "blinds"
        if (kind in ("card_out_of_sequence", "stud_both_downcards_exposed") and n < 3) or (
                kind == "draw_button_short" and blinds and n <= 3):
            return self.rng.choice(("first_card_wrong_seat", "duplicate_card"))
        return kind

    def _play(self, kind: str | None) -> None:
        v = self.variant
        rng = self.rng
        self._kind = kind
        self._passive = kind is not None and kind not in DEAL_KINDS \
            and kind != "draw_after_hand_end"
        self._emit(HandStart(button=None if self.stud else self.button))
        self._emit(ShuffleDone())
        seats = sorted(self.stacks)
        if self.stud:
            order = seats
        else:
            b = seats.index(self.button)
            order = seats[b + 1:] + seats[:b + 1]  # left of the button first, the button last
        self._order = order
        self._holes = {s: [] for s in order}
        self._shuffle()
        if kind == "stud_both_downcards_exposed":
            self._dead = rng.choice(order)
        if kind in ("stud_premature_street", "stud_final_card_faceup"):
            # fewer players, so that the set-aside cards fit in the deck (no common card)
            self._keep = rng.choice((2, 3, 4) if kind == "stud_premature_street" else (2, 3))
            self._street = rng.choice((1, 2, 3)) if kind == "stud_premature_street" else 4
        elif kind in ("stud_burn_missing", "stud_burn_extra"):
            self._street = rng.randrange(1, 5)
        elif kind in ("draw_exposed_on_draw", "draw_five_consecutive", "draw_wrong_count",
                      "draw_burn_missing"):
            self._street = rng.randrange(1, len(v.streets))
        self._seat_at = [s for s in order if s != self._dead]
        self._pos = {s: i for i, s in enumerate(self._seat_at)}
        h = Hand(v, self._stakes(len(self._seat_at)), [self.stacks[s] for s in self._seat_at])
        self._h = h
        self._post()
        self._deal_initial(kind)
        while not h.is_over:
            if any(h.hole_needed(p) for p in range(h.n)):
                self._deal_street()
            elif h.discarder is not None:
                self._draw_round()
            elif h.actor is not None:
                self._betting_round()
            else:
                break  # the showdown
        self._finish()

    def _shuffle(self) -> None:
        self._deck = [self.uid_of[c] for c in self.variant.deck_cards]
        self.rng.shuffle(self._deck)
        if self.variant.openers != "jacks":
            return
        # Jacks or better: a deal nobody can open ends with the antes carried to the next deal
        # (RRH Section 12 Jacks-or-Better r.1), which the engine does not carry; the simulated
        # table re-shuffles until someone holds openers.
        n = len(self._order)
        passes = len(self.variant.streets[0].hole)
        while True:
            top = self._deck[::-1][:n * passes]
            hands = [[self.tags[top[i]] for i in range(j, n * passes, n)] for j in range(n)]
            if any(_has_openers(cards) for cards in hands):
                return
            self.rng.shuffle(self._deck)

    def _stakes(self, n: int) -> Stakes:
        v = self.variant
        fixed = v.structure == "fixed"
        small = self.small_bet if fixed else 0
        big = self.big_bet if fixed else 0
        if self.stud:
            return Stakes(antes=(self.ante,) * n, bring_in=self.bring_in, small_bet=small,
                          big_bet=big)
        if v.forced == "antes":
            return Stakes(antes=(self.ante,) * n, small_bet=small, big_bet=big)
        return Stakes(blinds_or_straddles=(self.small_blind, self.big_blind), small_bet=small,
                      big_bet=big, min_bet=0 if fixed else self.big_blind)

    def _post(self) -> None:
        """Every forced post before any card: stud antes in seat order (a dead hand's ante too;
        it goes back once the hand is dead), draw antes left of the button first, or the small
        blind then the big blind."""
        h = self._h
        assert h is not None
        if self.stud or self.variant.forced == "antes":
            for seat in self._order:
                p = self._pos.get(seat)
                amount = h.antes[p] if p is not None else min(self.ante, self.stacks[seat])
                self._emit(Action(seat=seat, kind="post", amount=amount, blind="ante"))
            return
        # heads-up the button (engine position 1) posts the small blind (RR Section 4 r.3)
        sb, bb = (1, 0) if h.n == 2 else (0, 1)
        self._emit(Action(seat=self._seat_at[sb], kind="post", amount=h.bets[sb],
                          blind="small_blind"))
        self._emit(Action(seat=self._seat_at[bb], kind="post", amount=h.bets[bb],
                          blind="big_blind"))

    # --- cards ---------------------------------------------------------------------------------

    def _shoe(self, zone: str, face_up: bool = False, uid: str | None = None) -> str:
        """The next card off the shoe (or ``uid``, already taken off it) to ``zone``."""
        if uid is None:
            uid = self._deck.pop()
        if zone.startswith("seat:"):
            self._holes.setdefault(int(zone[5:]), []).append(uid)
        self._emit(CardMove(uid=uid, face_up=face_up, zone=zone, from_shoe=True))
        return uid

    def _move(self, uid: str, from_zone: str, zone: str, face_up: bool = False) -> None:
        """A card moved on the felt."""
        if from_zone.startswith("seat:"):
            self._holes[int(from_zone[5:])].remove(uid)
        if zone.startswith("seat:"):
            self._holes.setdefault(int(zone[5:]), []).append(uid)
        self._emit(CardMove(uid=uid, face_up=face_up, zone=zone, from_shoe=False,
                            from_zone=from_zone))

    def _feed(self, seat: int, uid: str) -> None:
        """Give the shadow engine the card as the seat's next card."""
        assert self._h is not None
        self._h.deal_hole(self._pos[seat], [self.tags[uid]])

    def _muck_hand(self, seat: int) -> None:
        for uid in list(self._holes.get(seat, [])):
            self._move(uid, f"seat:{seat}", "muck")

    def _deal_initial(self, kind: str | None) -> None:
        """Third street (stud) or the deal (draw): one card at a time in dealing order."""
        rng = self.rng
        order = self._order
        n = len(order)
        flags = self.variant.streets[0].hole
        total = len(flags) * n
        uids = [self._deck.pop() for _ in range(total)]
        zones = [f"seat:{order[i % n]}" for i in range(total)]
        face = [flags[i // n] for i in range(total)]
        stop = -1  # the misdeal-level card
        replace_at = -1  # draw: an exposed card replaced once the deal is complete
        hold = -1  # draw: the button's last card, held back until the first action
        joker_at = -1  # the joker comes off the shoe in front of this card
        if kind == "first_card_wrong_seat":
            zones[0] = f"seat:{order[1]}"
            stop = 0
            self._record(kind, [order[0], order[1]], [self.tags[uids[0]]])
        elif kind == "card_out_of_sequence":
            stop = rng.randrange(1, total - 1)
            due, landed = order[stop % n], order[(stop - 1) % n]
            zones[stop] = f"seat:{landed}"
            self._record(kind, [due, landed], [self.tags[uids[stop]]])
        elif kind == "joker_dealt":
            # not a misdeal: "treated as a scrap of paper ... it is replaced as in the previous
            # rule" (RR Section 3 Irregularities r.8, r.7): out to the muck, and the card it
            # hid goes where the joker went
            joker_at = rng.randrange(total)
            self._record(kind, [order[joker_at % n]], [JOKER])
        elif kind == "duplicate_card":
            q, stop = sorted(rng.sample(range(total), 2))
            twin = self.uid_of[self.tags[self.spare_uid]]
            if twin in uids:  # keep the twin where the duplicate can meet it
                uids[uids.index(twin)] = uids[q]
            elif twin in self._deck:
                self._deck[self._deck.index(twin)] = uids[q]
            uids[q], uids[stop] = twin, self.spare_uid
            self._record(kind, [order[q % n]], [self.tags[twin]])
        elif kind == "draw_first_card_exposed":
            stop = rng.randrange(2)
            face[stop] = True
            self._record(kind, [order[stop]], [self.tags[uids[stop]]])
        elif kind in ("stud_downcard_exposed", "stud_exposed_remedy_ignored",
                      "stud_both_downcards_exposed"):
            j = order.index(self._dead) if self._dead is not None else rng.randrange(n)
            seat = order[j]
            downs = [j, n + j] if self._dead is not None else [rng.choice((j, n + j))]
            for k, i in enumerate(downs):
                face[i] = True
                if k == 0:
                    self._record(kind, [seat], [self.tags[uids[i]]],
                                 code="STUD_ONE_HOLECARD_EXPOSED")
                else:
                    self._record(kind, [seat], [self.tags[uids[d]] for d in downs])
            if kind == "stud_exposed_remedy_ignored":
                self._record(kind, [seat], [self.tags[uids[2 * n + j]]])
            elif self._dead is not None:
                # a dead hand gets no more cards: the third pass skips it and the next card
                # goes to the next seat (the card it would have had goes back on the stub)
                del zones[2 * n + j], face[2 * n + j]
                self._deck.append(uids.pop())
                total -= 1
            else:
                # "your third card will be dealt down" (RR Section 8 r.1)
                face[2 * n + j] = False
        elif kind == "draw_predraw_exposed":
            cand = [i for i in range(2, total) if uids[i] != self.uid_of.get(JOKER)]
            i = rng.choice(cand)
            face[i] = True
            card = self.tags[uids[i]]
            self._record(kind, [order[i % n]], [card])
            must = MUST_TAKE[self.game]
            if must is not None and card[0] not in must:
                replace_at = i
        elif kind == "draw_button_short":
            hold = total - 1  # the button is dealt last
            self._record(kind, [order[-1]], [])
        for i in range(total):
            seat = int(zones[i][5:])
            if i == hold:
                self._held = uids[i]
                self._feed(seat, uids[i])  # the engine needs five cards to open the betting
                continue
            if i == joker_at:
                self._shoe(zones[i], False, uid=self.joker_uid)
                self._move(self.joker_uid, zones[i], "muck")
            self._shoe(zones[i], face[i], uid=uids[i])
            if i == stop:
                self._misdeal()
            if seat != self._dead and i != replace_at:
                self._feed(seat, uids[i])
        if self._dead is not None:
            # a dead hand: its cards go to the muck, no more cards to it (RR Section 8 r.1)
            self._muck_hand(self._dead)
        if replace_at >= 0:
            # replaced once the deal is complete; the exposed card is used as the burn card (RR
            # Section 11 Ace-to-Five r.3)
            seat = order[replace_at % n]
            self._move(uids[replace_at], f"seat:{seat}", "burn", face_up=True)
            self._feed(seat, self._shoe(f"seat:{seat}"))

    def _deal_street(self) -> None:
        """Stud, fourth to seventh street: a burn, then a card to each player in, in seat order
        (RR Section 8 intro)."""
        h = self._h
        assert h is not None
        st = h.street
        face = self.variant.streets[st].hole[0]
        due = [s for s in self._seat_at if h.hole_needed(self._pos[s])]
        kind = self._kind if st == self._street else None
        if self._aside_due:
            # "an additional card for each remaining player still active in the hand is also
            # eliminated from play" (RR Section 8 r.14)
            self._aside_due = False
            for _ in due:
                self._shoe("aside")
        faces = dict.fromkeys(due, face)
        if kind == "stud_final_card_faceup":
            able = [s for s in due if h.stacks[self._pos[s]] > 0]
            if able:
                target = self.rng.choice(able)
                faces[target] = True
                # heads-up, "the second player's final downcard will also be dealt faceup"
                # (RR Section 8 r.17(b)); with more players the rest come face down (r.17(a))
                if len(due) == 2 and target == due[0]:
                    faces[due[1]] = True
                self._record(kind, [target], [self._top_for(due, target)])
        if kind == "stud_burn_missing":
            first = due[0]
            uid = self._shoe(f"seat:{first}", faces[first])
            self._record(kind, [first], [self.tags[uid]])
            # corrected to its proper position: it is the burn (RR Section 8 r.13)
            self._move(uid, f"seat:{first}", "burn")
        elif kind == "stud_burn_extra":
            self._shoe("burn")
            uid = self._shoe("burn")
            first = due[0]
            self._record(kind, [first], [self.tags[uid]])
            self._move(uid, "burn", f"seat:{first}", faces[first])
            self._feed(first, uid)
            due = due[1:]
        else:
            self._shoe("burn")
        for seat in due:
            self._feed(seat, self._shoe(f"seat:{seat}", faces[seat]))

    def _top_for(self, due: list[int], seat: int) -> str:
        """The card the seat will get on this street (after the burn, in seat order)."""
        return self.tags[self._deck[-2 - due.index(seat)]]

    def _draw_round(self) -> None:
        """One draw, each player in turn: the request, the discards to the muck, the cards
        (RR Section 11 r.9-10; JPN Five Card Draw step 3)."""
        h = self._h
        assert h is not None
        rng = self.rng
        v = self.variant
        st = h.street
        kind = self._kind if st == self._street else None
        queue = [p for p in range(h.n) if not h.folded[p]]  # draw streets start left of the button
        most = v.max_draw
        want: dict[int, int] = {}
        target: int | None = None
        if kind is not None:
            able = [p for p in queue if h.stacks[p] > 0] or queue
            if kind == "draw_five_consecutive":
                target = rng.choice(queue[:-1])
                want[target] = 5
            elif kind == "draw_wrong_count":
                target = rng.choice(able)
                want[target] = rng.randint(1, 3)
            elif kind == "draw_exposed_on_draw":
                target = rng.choice(queue)
                want[target] = rng.randint(1, min(4, most))
            elif kind == "draw_burn_missing":
                target = rng.choice(queue)
                want[target] = rng.randint(1, min(3, most))
        budget = len(self._deck) - _DRAW_RESERVE - sum(want.values())
        if budget < 0:
            want, target, kind = {}, None, None  # no room left in the deck: no mistake now
            budget = max(0, len(self._deck) - _DRAW_RESERVE)
        five_taken = kind is not None
        for p in queue:
            if p in want:
                continue
            if self._passive:
                k = rng.randint(0, 1)
            else:
                k = rng.choice((0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5))
            k = min(k, most, budget, 4 if five_taken else 5)
            five_taken = five_taken or k == 5  # one five-card draw a round (RR r.10 ordering)
            budget -= k
            want[p] = k
        burned = False
        deferred: list[int] = []  # seats owed a card after everyone else has drawn
        for p in queue:
            if h.discarder != p:  # pragma: no cover - the engine's order is the table's
                raise RuntimeError(f"draw order: engine wants {h.discarder}, dealer {p}")
            seat = self._seat_at[p]
            k = want[p]
            if seat == self._fouled:
                k = 0  # a fouled hand draws no more
            discards = rng.sample(self._holes[seat], k)
            h.stand_pat_or_discard(p, [self.tags[u] for u in discards])
            self._emit(Action(seat=seat, kind="draw", amount=k))
            for uid in discards:
                self._move(uid, f"seat:{seat}", "muck")
            if k == 0:
                continue
            now = k
            if k == 5 and not (kind == "draw_five_consecutive" and p == target):
                now = 4  # "four are dealt right away" (RR Section 11 Lowball r.10)
            extra = 1 if kind == "draw_wrong_count" and p == target else 0
            for i in range(now + extra):
                if not burned:
                    burned = True
                    if kind == "draw_burn_missing":
                        uid = self._shoe(f"seat:{seat}")
                        self._record("draw_burn_missing", [seat], [self.tags[uid]])
                        # the card is the burn (RR Section 3 Irregularities r.16)
                        self._move(uid, f"seat:{seat}", "burn")
                    else:
                        self._shoe("burn")
                exposed = kind == "draw_exposed_on_draw" and p == target and i == k - 1
                uid = self._shoe(f"seat:{seat}", face_up=exposed)
                if exposed:
                    self._record("draw_exposed_on_draw", [seat], [self.tags[uid]])
                    # "an exposed card cannot be taken. The draw is completed to each player in
                    # order, and then the exposed card is replaced" (RR Section 11 r.9)
                    self._move(uid, f"seat:{seat}", "muck", face_up=True)
                    deferred.append(seat)
                elif i >= k:
                    # one card too many: a fouled hand (RR Section 11 r.12); it folds at its
                    # next turn, or is killed before the pot is awarded
                    self._record("draw_wrong_count", [seat], [self.tags[uid]])
                    self._fouled = seat
                else:
                    if kind == "draw_five_consecutive" and p == target and i == 4:
                        self._record("draw_five_consecutive", [seat], [self.tags[uid]])
                    self._feed(seat, uid)
            if now < k:
                if p == queue[-1]:
                    # "If the last player wishes to draw five new cards, four are dealt right
                    # away, and a card is burned before the player receives a fifth card."
                    self._shoe("burn")
                    self._feed(seat, self._shoe(f"seat:{seat}"))
                else:
                    deferred.insert(0, seat)
        for seat in deferred:
            self._feed(seat, self._shoe(f"seat:{seat}"))

    # --- betting -------------------------------------------------------------------------------

    def _betting_round(self) -> None:
        h = self._h
        assert h is not None
        st = h.street
        if st == 0 and self._kind == "stud_wrong_bring_in" and h.actor is not None \
                and h.can_post_bring_in(h.actor):
            low = self._seat_at[h.actor]
            others = [s for s in self._seat_at if s != low and h.stacks[self._pos[s]] > 0]
            if others:
                wrong = self.rng.choice(others)
                self._emit(Action(seat=wrong, kind="post", amount=self.bring_in,
                                  blind="bring_in"))
                door = self._holes[low][-1]  # the real low card's upcard
                self._record("stud_wrong_bring_in", [wrong, low], [self.tags[door]])
                # "the action will be corrected to the real lowcard, who now must bet. The
                # incorrect lowcard takes back the wager" (RR Section 8 r.5)
        acted = 0
        while h.actor is not None and h.street == st and not h.is_over:
            self._act()
            acted += 1
            if self._held is not None:
                # "The button may receive the fifth card even if action has taken place"
                # (RR Section 12 r.5)
                seat = self._order[-1]
                self._shoe(f"seat:{seat}", uid=self._held)
                self._held = None
            if (acted == 1 and self._kind == "stud_premature_street" and st == self._street
                    and h.actor is not None and h.street == st):
                self._premature()

    def _premature(self) -> None:
        """The burn and the next street's first card dealt with the betting round still open
        (RR Section 8 r.14): the premature card goes aside, the round is finished, then one card
        per player still in goes aside, then the street is dealt."""
        h = self._h
        assert h is not None
        live = [s for s in self._seat_at if not h.folded[self._pos[s]]]
        streets = len(self.variant.streets) - 1 - h.street  # streets still to deal
        if len(self._deck) < 2 + len(live) + streets * (1 + len(live)):
            return  # the stub could not take it: no mistake this hand
        nxt = self.variant.streets[h.street + 1].hole[0]
        burn = self._shoe("burn")
        self._record("stud_premature_street", [], [self.tags[burn]])
        first = live[0]
        uid = self._shoe(f"seat:{first}", nxt)
        self._move(uid, f"seat:{first}", "aside", nxt)
        self._aside_due = True

    def _act(self) -> None:
        """One betting action of the player the engine has to act."""
        h = self._h
        assert h is not None and h.actor is not None
        rng = self.rng
        p = h.actor
        seat = self._seat_at[p]
        if seat == self._fouled:
            h.fold(p)
            self._fold(seat)
            return
        if h.can_post_bring_in(p):
            if not self._passive and h.can_complete_bet_or_raise(p) and rng.random() < 0.2:
                self._raise(p, seat)  # the low card completes (RR Section 8 r.3)
                return
            h.post_bring_in(p)
            self._emit(Action(seat=seat, kind="post", amount=h.bets[p], blind="bring_in"))
            return
        owe = h.checking_or_calling_amount() or 0
        can_raise = h.can_complete_bet_or_raise(p)
        if can_raise and self.variant.pass_and_out and h.street == 0 and max(h.bets) == 0:
            self._raise(p, seat)  # open, so that the deal is not passed out
            return
        if self._passive:
            live = sum(1 for f in h.folded if not f)
            if owe > 0 and self._keep and live > self._keep and h.can_fold(p):
                h.fold(p)
                self._fold(seat)
                return
            h.check_or_call(p)
            self._emit(Action(seat=seat, kind="call" if owe > 0 else "check"))
            return
        r = rng.random()
        if owe <= 0:
            if can_raise and r < 0.3:
                self._raise(p, seat)
                return
            h.check_or_call(p)
            self._emit(Action(seat=seat, kind="check"))
            return
        if r < 0.25 and h.can_fold(p):
            h.fold(p)
            self._fold(seat)
            return
        if can_raise and r < 0.36:
            self._raise(p, seat)
            return
        h.check_or_call(p)
        self._emit(Action(seat=seat, kind="call"))

    def _raise(self, p: int, seat: int) -> None:
        """Complete, bet or raise: ``amount`` is the seat's total on this street."""
        h = self._h
        assert h is not None
        lo = h.min_completion_betting_or_raising_to()
        hi = h.max_completion_betting_or_raising_to()
        assert lo is not None and hi is not None
        if self.variant.structure == "fixed":
            amount = self.rng.choice((lo, hi))  # an open pair on fourth: small or big bet
        else:
            amount = self.rng.randint(lo, max(lo, min(hi, 3 * lo)))
        opening = max(h.bets) == 0
        h.complete_bet_or_raise_to(p, amount)
        self._emit(Action(seat=seat, kind="bet" if opening else "raise", amount=amount))

    def _fold(self, seat: int) -> None:
        self._emit(Action(seat=seat, kind="fold"))
        self._muck_hand(seat)

    def _finish(self) -> None:
        h = self._h
        assert h is not None
        fouled = self._fouled
        if fouled is not None and not h.is_over and not h.folded[self._pos[fouled]]:
            # a fouled hand never to act again is killed before the pot is awarded
            self._muck_hand(fouled)
            h.show_or_muck(self._pos[fouled], None)
        self._emit(HandEnd())
        if not h.is_over:
            h.show_all()
        for p, seat in enumerate(self._seat_at):
            self.stacks[seat] = h.stacks[p]
        if self._kind == "draw_after_hand_end" and self._deck:
            uid = self._deck.pop()
            # the dealer shows the card that would have come next (rabbit hunting)
            self._emit(ShoeDraw(uid=uid, face_up=True))
            self._record("draw_after_hand_end", [], [self.tags[uid]])
