"""The simulated dealer: what physically happens at a table, hand after hand, mistakes included.

Pure and deterministic given its ``random.Random``: no clock, no I/O. Each ``next_hand()``
returns the ordered steps of one hand:

- console inputs as event bodies (``TableSetup``, ``SeatTake`` and ``DeckRegister`` before the
  first hand, re-buys between hands, then ``HandStart``, ``ShuffleDone``, ``Action``,
  ``HandEnd`` or ``MisdealDeclared``), and
- card movements ``CardMove``: ``from_shoe`` means the reader path produces ``shoe.draw`` then
  ``zone.read``; otherwise the card moved on the felt (a folded hand to the muck).

``expand(step)`` gives the exact event bodies a step yields at the table.

Players act through a shadow rules state (the real rules core): the dealer asks its snapshot who
is to act, the bet, the minimum raise and whether a raise is allowed, so every action is legal.
With probability ``mistake_rate`` a hand holds a dealing mistake from ``MISTAKES``; the dealer
records the truth in ``truth``. A finding with a remedy the dealer follows (``FOLLOWED``) does not
stop the hand: the dealer knows which mistake it made, so it carries out the remedy move by move
(the premature street set aside or returned, the stub reshuffled, the burn from elsewhere) and
plays the hand to the end. Some kinds then botch the remedy (their code is REMEDY_NOT_FOLLOWED;
the truth also holds the first mistake's code) and some make two independent mistakes in one hand
(the truth holds both). After any other finding the simulated floor ends the hand with
``misdeal.declared``.

Between hands, with probability ``seat_changes``, the table changes (issue 4): a player steps
away or comes back (posting the missed blinds or waiting for the big blind), leaves, or a new
player sits down in an empty seat (posting or waiting); busted players re-buy. The dealer posts
whatever the seating plan has due (``hand.posts``) and deals to the plan's ``hand.dealt_in``, so
these changes never raise a finding of their own.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from controller.events import (
    Action,
    Body,
    CardBoxed,
    DeckRegister,
    Event,
    HandEnd,
    HandStart,
    MisdealDeclared,
    PlayerAway,
    PlayerBack,
    SeatLeave,
    SeatTake,
    ShoeDraw,
    ShuffleDone,
    TableSetup,
    ZoneLeave,
    ZoneRead,
)
from controller.rules import TableState, apply, initial_state, snapshot
from controller.rules.cards import FULL_DECK

NAMES = ("Ann", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon")

# mistake kind -> the finding code the rules core must raise for it (a botched remedy: the
# REMEDY_NOT_FOLLOWED it ends in; two mistakes in a hand: the second one's code)
MISTAKES: dict[str, str] = {
    "duplicate_card": "DUPLICATE_CARD",
    "unknown_tag": "UNKNOWN_TAG",
    "first_or_second_face_up": "MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED",
    "hole_card_out_of_sequence": "MISDEAL_CARD_OUT_OF_SEQUENCE",
    "first_card_wrong_seat": "MISDEAL_FIRST_CARD_WRONG_POSITION",
    "seat_one_card_short": "MISDEAL_INCORRECT_CARD_COUNT",
    "one_extra_card": "EXTRA_CARD_SINGLE_BECOMES_BURN",
    "two_extra_cards": "MISDEAL_TWO_OR_MORE_EXTRA_CARDS",
    "hole_card_face_up": "HOLECARD_EXPOSED_SINGLE_REPLACE",
    "boxed_card": "BOXED_CARD_SINGLE",
    "missing_burn_flop": "FLOP_BURN_ERROR",
    "extra_burn_flop": "FLOP_BURN_ERROR",
    "missing_burn_turn": "BURN_MISSING_OR_EXTRA",
    "extra_burn_turn": "BURN_MISSING_OR_EXTRA",
    "missing_burn_river": "BURN_MISSING_OR_EXTRA",
    "extra_burn_river": "BURN_MISSING_OR_EXTRA",
    "four_card_flop": "FLOP_TOO_MANY_CARDS",
    "premature_flop": "FLOP_PREMATURE",
    "premature_turn": "TURN_PREMATURE",
    "premature_river": "RIVER_PREMATURE",
    # the remedy botched
    "boxed_card_dealt": "REMEDY_NOT_FOLLOWED",
    "extra_card_not_burned": "REMEDY_NOT_FOLLOWED",
    "exposed_card_not_replaced": "REMEDY_NOT_FOLLOWED",
    "missing_burn_flop_not_fixed": "REMEDY_NOT_FOLLOWED",
    "premature_flop_burned_again": "REMEDY_NOT_FOLLOWED",
    "premature_turn_river_burned": "REMEDY_NOT_FOLLOWED",
    # two independent mistakes in one hand
    "exposed_card_then_premature_turn": "TURN_PREMATURE",
    "missing_burn_flop_then_extra_burn_river": "BURN_MISSING_OR_EXTRA",
}
DEAL_KINDS = tuple(k for k in MISTAKES if k in {
    "duplicate_card", "unknown_tag", "first_or_second_face_up", "hole_card_out_of_sequence",
    "first_card_wrong_seat", "seat_one_card_short", "one_extra_card", "two_extra_cards",
    "hole_card_face_up", "boxed_card", "boxed_card_dealt"})
# Findings whose remedy the dealer follows (the hand plays on); any other stops the hand.
FOLLOWED = frozenset({
    "EXTRA_CARD_SINGLE_BECOMES_BURN", "HOLECARD_EXPOSED_SINGLE_REPLACE", "BOXED_CARD_SINGLE",
    "FLOP_BURN_ERROR", "BURN_MISSING_OR_EXTRA", "FLOP_TOO_MANY_CARDS", "FLOP_PREMATURE",
    "TURN_PREMATURE", "RIVER_PREMATURE"})
# The premature street a kind deals, and the code it raises.
PREMATURE_STREET = {"premature_flop": "flop", "premature_turn": "turn",
                    "premature_river": "river", "premature_flop_burned_again": "flop",
                    "premature_turn_river_burned": "turn",
                    "exposed_card_then_premature_turn": "turn"}
PREMATURE_CODE = {"flop": "FLOP_PREMATURE", "turn": "TURN_PREMATURE", "river": "RIVER_PREMATURE"}
# The burn errors a kind makes: street -> "missing" | "extra" | "four" | "not_fixed".
STREET_ERRORS: dict[str, dict[str, str]] = {
    "missing_burn_flop": {"flop": "missing"}, "extra_burn_flop": {"flop": "extra"},
    "missing_burn_turn": {"turn": "missing"}, "extra_burn_turn": {"turn": "extra"},
    "missing_burn_river": {"river": "missing"}, "extra_burn_river": {"river": "extra"},
    "four_card_flop": {"flop": "four"}, "missing_burn_flop_not_fixed": {"flop": "not_fixed"},
    "missing_burn_flop_then_extra_burn_river": {"flop": "missing", "river": "extra"},
}
# A redealt street (after a premature one) where the dealer burns although the remedy says not.
BURNS_ON_REDEAL = {"premature_flop_burned_again": "flop", "premature_turn_river_burned": "river"}
STREETS = ("flop", "turn", "river")


@dataclass(frozen=True)
class CardMove:
    """A card moving at the table. ``from_zone`` is where a felt move started (the sensing layer
    reports it leaving there first)."""

    uid: str
    face_up: bool
    zone: str
    from_shoe: bool
    from_zone: str | None = None


@dataclass(frozen=True)
class Mistake:
    """The truth about one dealing mistake: the hand, what happened, the code it must raise."""

    hand: int
    kind: str
    expected_code: str
    seats: tuple[int, ...]
    cards: tuple[str, ...]


SimStep = CardMove | Body


def expand(step: SimStep) -> list[Body]:
    """The exact event bodies a step yields at the table."""
    if isinstance(step, CardMove):
        if step.from_shoe:
            return [ShoeDraw(uid=step.uid, face_up=step.face_up),
                    ZoneRead(uid=step.uid, zone=step.zone)]
        out: list[Body] = []
        if step.from_zone is not None:
            out.append(ZoneLeave(uid=step.uid, zone=step.from_zone))
        out.append(ZoneRead(uid=step.uid, zone=step.zone))
        return out
    return [step]


def deck_roles(tags: Mapping[str, str], joker: str) -> tuple[dict[str, str], str, str]:
    """A registered deck read back (a dealer resuming a recovered table): card -> its uid, the
    spare uid (the later of two tags carrying one card) and the joker tag's uid ("" if none)."""
    uid_of: dict[str, str] = {}
    spare = joker_uid = ""
    for uid, card in tags.items():
        if card == joker:
            joker_uid = joker_uid or uid
        elif card in uid_of:
            spare = spare or uid
        else:
            uid_of[card] = uid
    return uid_of, spare, joker_uid


def new_uid(rng: random.Random, taken: Mapping[str, str]) -> str:
    """A fresh 64-bit tag uid (hex, as the readers send it) not among ``taken``."""
    while True:
        uid = f"{rng.getrandbits(64):016X}"
        if uid not in taken:
            return uid


class _Stop(Exception):
    """The floor stopped the hand (a finding was raised)."""


class SimDealer:
    """A simulated dealer at one table."""

    def __init__(
        self,
        rng: random.Random,
        seats: int = 6,
        mistake_rate: float = 0.0,
        small_blind: int = 1,
        big_blind: int = 2,
        stack: int = 200,
        seat_changes: float = 0.0,
        redraw_returned: bool = False,
    ) -> None:
        self.rng = rng
        self.seats = seats
        self.mistake_rate = mistake_rate
        self.small_blind = small_blind
        self.big_blind = big_blind
        self.stack = stack
        self.seat_changes = seat_changes
        # Cards a remedy returns to the stub may come out again in the same hand after the
        # reshuffle (the rules core must take them as new draws). Off by default: a live reader
        # debounces a second shoe read of a tag that comes within its window (sensing.py), which
        # at pace 0 a same-hand re-draw does; the pure bench turns it on.
        self.redraw_returned = redraw_returned
        self.truth: list[Mistake] = []
        self.hand = 0
        self.state = initial_state()
        self.seq = 0
        self.tags: dict[str, str] = {}
        self.uid_of: dict[str, str] = {}
        self.spare_uid = ""
        self._steps: list[SimStep] = []
        self._holes: dict[int, list[str]] = {}
        self._deck: list[str] = []
        self._redo: dict[str, list[str]] = {}  # street redealt after a reshuffle -> cards aside
        self._burn_from_hand = False  # the exposed hole card is the flop burn
        self._extra: tuple[str, str] | None = None  # a single extra card: the flop burn
        self._returned: set[str] = set()  # cards a remedy put back into the stub this hand
        self._opened = False  # the table is set up (by this dealer, or recovered: ``resume``)
        self._pending: list[SimStep] = []  # set-up a resumed table still lacks

    # --- the shadow table ----------------------------------------------------------------------

    def _uid(self) -> str:
        return new_uid(self.rng, self.tags)

    def _emit(self, step: SimStep) -> None:
        self._steps.append(step)
        stop = False
        for body in expand(step):
            self.seq += 1
            result = apply(self.state, Event(self.seq, 0, body))
            self.state = result.state
            # The dealer follows the remedy of the findings it knows how to put right; after
            # any other the floor reacts to the alert.
            stop = stop or any(f.code not in FOLLOWED for f in result.findings)
        if stop and not isinstance(step, MisdealDeclared):
            self._emit(MisdealDeclared())
            raise _Stop

    def _snap(self) -> dict[str, Any]:
        return snapshot(self.state)

    # --- hands ---------------------------------------------------------------------------------

    def next_hand(self, mistake: str | None = None) -> list[SimStep]:
        """Play one hand; ``mistake`` forces a mistake kind (else one at ``mistake_rate``)."""
        self._steps = []
        try:
            if not self._opened:
                self._open_table()
            for pending in self._pending:
                self._emit(pending)
            self._pending = []
            for seat in self._snap()["seats"]:
                if seat["stack"] == 0:  # re-buy a busted player between hands
                    self._emit(SeatTake(seat=seat["seat"], player=seat["player"],
                                        stack=self.stack))
            if self.hand > 0 and self.rng.random() < self.seat_changes:
                self._change_seats()
        except _Stop:  # pragma: no cover - set-up never raises a finding
            pass
        self.hand += 1
        if mistake is None and self.rng.random() < self.mistake_rate:
            mistake = self.rng.choice(sorted(MISTAKES))
        if mistake is not None and mistake not in MISTAKES:
            raise ValueError(f"unknown mistake kind {mistake!r}; one of {sorted(MISTAKES)}")
        with contextlib.suppress(_Stop):
            self._play(self._feasible(mistake))
        return self._steps

    def resume(self, state: TableState, tags: Mapping[str, str] | None) -> None:
        """Deal on at a table recovered from its journal (``feltguard sim`` restarted after a
        crash): the shadow table becomes the recovered one, the deck the registered one. What
        the journal lacks (no deck registered yet, fewer than two players) is set up before the
        next hand."""
        snap = snapshot(state)
        self.state = state
        self.seq = int(snap["last_seq"])
        self.hand = int(snap["hand"]["number"])
        self._opened = True
        if tags:
            self.tags = dict(tags)
            self.uid_of, self.spare_uid, _ = deck_roles(tags, "")
        else:
            self._pending.append(self._new_deck())
        seated = {s["seat"] for s in snap["seats"]}
        if len(seated) < 2:
            self._pending += [SeatTake(seat=n, player=NAMES[n - 1], stack=self.stack)
                              for n in range(1, self.seats + 1) if n not in seated]

    def _open_table(self) -> None:
        self._opened = True
        self._emit(TableSetup(seats=self.seats, small_blind=self.small_blind,
                              big_blind=self.big_blind))
        for seat in range(1, self.seats + 1):
            self._emit(SeatTake(seat=seat, player=NAMES[seat - 1], stack=self.stack))
        self._emit(self._new_deck())

    def _new_deck(self) -> DeckRegister:
        for card in FULL_DECK:
            uid = self._uid()
            self.tags[uid] = card
            self.uid_of[card] = uid
        # A spare tag carrying a duplicate of one card: registered (a defective deck) but kept
        # out of the shoe except in a duplicate-card hand.
        self.spare_uid = self._uid()
        self.tags[self.spare_uid] = self.rng.choice(FULL_DECK)
        return DeckRegister(deck="sim-1", tags=dict(self.tags))

    def _change_seats(self) -> None:
        """One change at the table between hands; at least three players stay present."""
        seats = {s["seat"]: s for s in self._snap()["seats"]}
        present = [n for n, s in seats.items() if s["status"] != "away"]
        away = [n for n, s in seats.items() if s["status"] == "away"]
        empty = [n for n in range(1, self.seats + 1) if n not in seats]
        r = self.rng.random()
        if away and r < 0.4:
            self._emit(PlayerBack(seat=self.rng.choice(away), post=self.rng.random() < 0.5))
        elif len(present) > 3 and r < 0.7:
            self._emit(PlayerAway(seat=self.rng.choice(present)))
        elif empty and r < 0.85:
            names = [n for n in NAMES + tuple(f"P{i}" for i in range(99))
                     if n not in {s["player"] for s in seats.values()}]
            self._emit(SeatTake(seat=self.rng.choice(empty), player=names[0], stack=self.stack,
                                post=self.rng.random() < 0.5))
        elif len(present) > 3:
            self._emit(SeatLeave(seat=self.rng.choice(present)))

    def _feasible(self, kind: str | None) -> str | None:
        """Mistakes after the deal need a hand that reaches that street with betting open."""
        if kind is None or kind in DEAL_KINDS:
            return kind
        deep = sum(1 for s in self._snap()["seats"] if s["stack"] >= 10 * self.big_blind)
        return kind if deep >= 3 else self.rng.choice(DEAL_KINDS)

    def _record(self, kind: str, seats: Sequence[int], cards: Sequence[str],
                code: str | None = None) -> None:
        self.truth.append(Mistake(self.hand, kind, code or MISTAKES[kind], tuple(seats),
                                  tuple(cards)))

    def _play(self, kind: str | None) -> None:
        self._emit(HandStart())
        self._emit(ShuffleDone())
        snap = self._snap()
        hand = snap["hand"]
        self._deck = [self.uid_of[c] for c in FULL_DECK]
        self.rng.shuffle(self._deck)
        for post in hand["posts"]:  # every forced post the seating plan has due, in order
            self._emit(Action(seat=post["seat"], kind="post", amount=post["amount"],
                              blind=post["kind"]))
        order = list(hand["dealt_in"])
        self._holes = {s: [] for s in order}
        self._redo = {}
        self._burn_from_hand = False
        self._extra = None
        self._returned = set()
        self._deal_holes(order, kind)
        passive = kind is not None and kind not in DEAL_KINDS
        premature = PREMATURE_STREET.get(kind or "")
        self._betting(passive, "flop" if premature == "flop" else None, kind)
        for street in STREETS:
            if len(self._live()) < 2:
                break  # won by folds: no more cards
            self._deal_street(street, kind)
            nxt = STREETS[STREETS.index(street) + 1] if street != "river" else None
            self._betting(passive, nxt if premature == nxt else None, kind)
        self._emit(HandEnd())

    def _live(self) -> list[int]:
        return [s["seat"] for s in self._snap()["seats"] if s["in_hand"] and not s["folded"]]

    def _draw(self) -> str:
        return self._deck.pop()

    def _deal_holes(self, order: list[int], kind: str | None) -> None:
        n_players = len(order)
        total = 2 * n_players
        uids = [self._draw() for _ in range(total)]
        zones = [f"seat:{order[n % n_players]}" for n in range(total)]
        face = [False] * total
        if kind == "duplicate_card":
            q, p = sorted(self.rng.sample(range(total), 2))
            twin = self.uid_of[self.tags[self.spare_uid]]
            if twin in uids:  # keep the twin where the duplicate can meet it
                uids[uids.index(twin)] = uids[q]
            uids[q], uids[p] = twin, self.spare_uid
            self._record(kind, [order[q % n_players]], [self.tags[twin]])
        elif kind == "unknown_tag":
            p = self.rng.randrange(total)
            uids[p] = self._uid()
            self._record(kind, [], [])
        elif kind == "first_or_second_face_up":
            p = self.rng.randrange(2)
            face[p] = True
            self._record(kind, [order[p]], [self.tags[uids[p]]])
        elif kind in ("hole_card_out_of_sequence", "seat_one_card_short"):
            p = self.rng.randrange(1, total - 1)
            due = order[p % n_players]
            if kind == "seat_one_card_short":
                landed: int | None = order[(p + 1) % n_players]  # the due seat is skipped
            else:
                landed = order[(p - 1) % n_players] if n_players >= 3 else None
            zones[p] = f"seat:{landed}" if landed is not None else "burn"
            seats = [due] if kind == "seat_one_card_short" or landed is None else [due, landed]
            self._record(kind, seats, [self.tags[uids[p]]])
        elif kind == "first_card_wrong_seat":
            zones[0] = f"seat:{order[1]}"
            self._record(kind, [order[0], order[1]], [self.tags[uids[0]]])
        exposed = -1
        if kind in ("hole_card_face_up", "exposed_card_not_replaced",
                    "exposed_card_then_premature_turn"):
            exposed = self.rng.randrange(2, total)  # not the first or second card: no misdeal
            face[exposed] = True
            self._record(kind, [order[exposed % n_players]], [self.tags[uids[exposed]]],
                         "HOLECARD_EXPOSED_SINGLE_REPLACE")
        boxed = self.rng.randrange(total) if kind in ("boxed_card", "boxed_card_dealt") else -1
        for i, (uid, zone, up) in enumerate(zip(uids, zones, face, strict=True)):
            if i == boxed:
                self._boxed(kind or "", zone)
            self._card(uid, zone, up)
        if exposed >= 0:
            self._replace_exposed(kind or "", uids[exposed], zones[exposed])
        if kind in ("one_extra_card", "two_extra_cards", "extra_card_not_burned"):
            extra = 2 if kind == "two_extra_cards" else 1
            got = [self._draw() for _ in range(extra)]
            self._record(kind, order[:extra], [self.tags[u] for u in got],
                         "EXTRA_CARD_SINGLE_BECOMES_BURN" if extra == 1 else None)
            for i, uid in enumerate(got):
                self._card(uid, f"seat:{order[i]}")
            if extra == 1:
                # It is the flop burn (RR Section 3, Irregularities, r.11): the dealer moves it
                # there at the flop (not through the shoe: a live reader could take a quick
                # second read for the first); the dealer who botches it sets it aside.
                uid = got[0]
                self._holes[order[0]].remove(uid)
                if kind == "extra_card_not_burned":
                    self._emit(CardMove(uid, False, "aside", False, f"seat:{order[0]}"))
                else:
                    self._extra = (uid, f"seat:{order[0]}")

    def _boxed(self, kind: str, zone: str) -> None:
        """A card found face up as it leaves the shoe: the boxed key, then it goes aside (RR
        Section 3, Irregularities, r.7); the dealer who botches it deals it anyway."""
        uid = self._draw()
        self._record(kind, [], [self.tags[uid]], "BOXED_CARD_SINGLE")
        self._emit(ShoeDraw(uid=uid, face_up=False))
        self._emit(CardBoxed(uid=uid))
        if kind == "boxed_card_dealt":
            self._record(kind, [], [self.tags[uid]])
            self._emit(CardMove(uid, False, zone, False))
        self._emit(CardMove(uid, False, "aside", False))

    def _replace_exposed(self, kind: str, uid: str, zone: str) -> None:
        """RR Section 5, Holdem, r.1: after the deal the seat gets the top card and the exposed
        card is the burncard (the flop then comes without another burn)."""
        seat = int(zone[5:])
        if kind == "exposed_card_not_replaced":
            return  # the botch: the flop burn comes off the shoe (recorded as it is drawn)
        self._card(self._draw(), zone)
        self._holes[seat].remove(uid)
        self._emit(CardMove(uid, False, "burn", False, zone))
        self._burn_from_hand = True

    def _card(self, uid: str, zone: str, face_up: bool = False) -> None:
        if zone.startswith("seat:"):
            self._holes.setdefault(int(zone[5:]), []).append(uid)
        self._emit(CardMove(uid=uid, face_up=face_up, zone=zone, from_shoe=True))

    def _deal_street(self, street: str, kind: str | None) -> None:
        count = 3 if street == "flop" else 1
        error = STREET_ERRORS.get(kind or "", {}).get(street)
        if street in self._redo:
            self._redeal(street, kind or "", count)
            return
        if street == "flop" and self._extra is not None:
            uid, zone = self._extra
            self._emit(CardMove(uid, False, "burn", False, zone))
            self._burn_from_hand = True
        if street == "flop" and self._burn_from_hand:
            for _ in range(count):
                self._card(self._draw(), "board")
            return
        if kind in ("exposed_card_not_replaced", "extra_card_not_burned") and street == "flop":
            # The remedy wanted a card to the seat (or the extra card as the burn).
            self._record(kind or "", [], [self.tags[self._deck[-1]]])
        code = "FLOP_BURN_ERROR" if street == "flop" else "BURN_MISSING_OR_EXTRA"
        top = [self.tags[u] for u in self._deck[::-1][:5]]
        if error in ("missing", "not_fixed"):
            # No burn: the first card goes to the board; the dealer moves it to the burn and
            # deals the street from the next cards (RR Section 5, Holdem, r.4; Section 3,
            # Irregularities, r.16), or, botching it, burns a fresh card.
            self._record(kind or "", [], [top[0]], code)
            first = self._draw()
            self._card(first, "board")
            if error == "not_fixed":
                self._record(kind or "", [], [top[1]])
                self._card(self._draw(), "burn")
                return
            self._emit(CardMove(first, False, "burn", False, "board"))
            for _ in range(count):
                self._card(self._draw(), "board")
            return
        if error == "extra":
            # Two burns: the second is the proper first card; it goes to the board.
            self._record(kind or "", [], [top[1]], code)
            self._card(self._draw(), "burn")
            second = self._draw()
            self._card(second, "burn")
            self._emit(CardMove(second, False, "board", False, "burn"))
            for _ in range(count - 1):
                self._card(self._draw(), "board")
            return
        self._card(self._draw(), "burn")
        if error == "four":
            # Four cards on the board: they go back into the stub, which is reshuffled, and
            # three are dealt without a burn (RR Section 5, Holdem, r.3 and r.7).
            self._record(kind or "", [], top[1:5])
            flop = [self._draw() for _ in range(4)]
            for uid in flop:
                self._card(uid, "board")
            for uid in flop:
                self._emit(ZoneLeave(uid=uid, zone="board"))
            self._deck.extend(flop)
            self._returned.update(flop)
            self._redo[street] = []
            self._redeal(street, kind or "", count)
            return
        for _ in range(count):
            self._card(self._draw(), "board")

    def _premature(self, street: str, kind: str) -> None:
        """Deal ``street`` while its betting round is still open, then take it back as the
        remedy says (RR Section 5, Holdem, r.5, r.7, r.8): the burn stays; the flop and river
        cards go back into the stub; the turn card is set aside until the river."""
        self._record(kind, [], [self.tags[self._deck[-1]]], PREMATURE_CODE[street])
        self._card(self._draw(), "burn")
        cards = [self._draw() for _ in range(3 if street == "flop" else 1)]
        for uid in cards:
            self._card(uid, "board")
        if street == "turn":
            self._emit(CardMove(cards[0], False, "aside", False, "board"))
            self._redo["river"] = cards
            self._returned.update(cards)
            return
        for uid in cards:
            self._emit(ZoneLeave(uid=uid, zone="board"))
        self._deck.extend(cards)
        self._returned.update(cards)
        self._redo[street] = []

    def _redeal(self, street: str, kind: str, count: int) -> None:
        """The street after a premature or four-card street: the set-aside cards back into the
        stub, the stub reshuffled, the cards dealt without a burn."""
        aside = self._redo.pop(street)
        for uid in aside:
            self._emit(ZoneLeave(uid=uid, zone="aside"))
        self._deck.extend(aside)
        self.rng.shuffle(self._deck)
        if not self.redraw_returned:
            returned = [u for u in self._deck if u in self._returned]
            self._deck = returned + [u for u in self._deck if u not in self._returned]
        self._emit(ShuffleDone())
        if BURNS_ON_REDEAL.get(kind) == street:
            self._record(kind, [], [self.tags[self._deck[-1]]])
            self._card(self._draw(), "burn")
        for _ in range(count):
            self._card(self._draw(), "board")

    def _betting(self, passive: bool, premature: str | None, kind: str | None) -> None:
        """One betting round; ``premature`` deals that street in the middle of it."""
        inject_at = self.rng.randrange(2) if premature else -1
        done = 0
        while True:
            snap = self._snap()
            hand = snap["hand"]
            seat = hand["to_act"]
            if seat is None:
                return
            if done == inject_at and premature and kind:
                self._premature(premature, kind)
            info = next(s for s in snap["seats"] if s["seat"] == seat)
            self._emit(self._choose(hand, info, passive))
            done += 1
            if self._steps and isinstance(self._steps[-1], Action) and \
                    self._steps[-1].kind == "fold":
                for uid in self._holes.get(seat, []):
                    self._emit(CardMove(uid=uid, face_up=False, zone="muck", from_shoe=False,
                                        from_zone=f"seat:{seat}"))

    def _choose(self, hand: dict[str, Any], info: dict[str, Any], passive: bool) -> Action:
        seat = info["seat"]
        to_call = hand["current_bet"] - info["bet"]
        if passive:
            return Action(seat=seat, kind="call" if to_call > 0 else "check")
        r = self.rng.random()
        can_raise = hand["can_raise"]
        cap = info["bet"] + info["stack"]
        if to_call <= 0:
            if can_raise and r < 0.30:
                return self._raise(seat, hand, cap)
            if can_raise and r < 0.33:
                return Action(seat=seat, kind="allin")
            return Action(seat=seat, kind="check")
        if r < 0.25:
            return Action(seat=seat, kind="fold")
        if can_raise and r < 0.36:
            return self._raise(seat, hand, cap)
        if can_raise and r < 0.39:
            return Action(seat=seat, kind="allin")
        return Action(seat=seat, kind="call")

    def _raise(self, seat: int, hand: dict[str, Any], cap: int) -> Action:
        low = hand["min_raise_to"]
        target = self.rng.randint(low, max(low, 3 * low))
        if target >= cap:
            return Action(seat=seat, kind="allin")
        return Action(seat=seat, kind="bet" if hand["current_bet"] == 0 else "raise",
                      amount=target)
