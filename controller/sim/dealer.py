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
With probability ``mistake_rate`` a hand holds exactly one dealing mistake from ``MISTAKES``; the
dealer records the truth in ``truth``. As soon as the shadow core raises a finding, the simulated
floor ends the hand with ``misdeal.declared`` (v1 does not follow remedies yet).

Between hands, with probability ``seat_changes``, the table changes (issue 4): a player steps
away or comes back (posting the missed blinds or waiting for the big blind), leaves, or a new
player sits down in an empty seat (posting or waiting); busted players re-buy. The dealer posts
whatever the seating plan has due (``hand.posts``) and deals to the plan's ``hand.dealt_in``, so
these changes never raise a finding of their own.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from controller.events import (
    Action,
    Body,
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
from controller.rules import apply, initial_state, snapshot
from controller.rules.cards import FULL_DECK

NAMES = ("Ann", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon")

# mistake kind -> the finding code the rules core must raise for it
MISTAKES: dict[str, str] = {
    "duplicate_card": "DUPLICATE_CARD",
    "unknown_tag": "UNKNOWN_TAG",
    "first_or_second_face_up": "MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED",
    "hole_card_out_of_sequence": "MISDEAL_CARD_OUT_OF_SEQUENCE",
    "first_card_wrong_seat": "MISDEAL_FIRST_CARD_WRONG_POSITION",
    "seat_one_card_short": "MISDEAL_INCORRECT_CARD_COUNT",
    "one_extra_card": "EXTRA_CARD_SINGLE_BECOMES_BURN",
    "two_extra_cards": "MISDEAL_TWO_OR_MORE_EXTRA_CARDS",
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
}
DEAL_KINDS = tuple(k for k in MISTAKES if k in {
    "duplicate_card", "unknown_tag", "first_or_second_face_up", "hole_card_out_of_sequence",
    "first_card_wrong_seat", "seat_one_card_short", "one_extra_card", "two_extra_cards"})
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
    ) -> None:
        self.rng = rng
        self.seats = seats
        self.mistake_rate = mistake_rate
        self.small_blind = small_blind
        self.big_blind = big_blind
        self.stack = stack
        self.seat_changes = seat_changes
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

    # --- the shadow table ----------------------------------------------------------------------

    def _uid(self) -> str:
        while True:
            uid = f"{self.rng.getrandbits(64):016X}"
            if uid not in self.tags:
                return uid

    def _emit(self, step: SimStep) -> None:
        self._steps.append(step)
        raised = False
        for body in expand(step):
            self.seq += 1
            result = apply(self.state, Event(self.seq, 0, body))
            self.state = result.state
            raised = raised or bool(result.findings)
        if raised and not isinstance(step, MisdealDeclared):
            self._emit(MisdealDeclared())  # the floor reacts to the alert
            raise _Stop

    def _snap(self) -> dict[str, Any]:
        return snapshot(self.state)

    # --- hands ---------------------------------------------------------------------------------

    def next_hand(self, mistake: str | None = None) -> list[SimStep]:
        """Play one hand; ``mistake`` forces a mistake kind (else one at ``mistake_rate``)."""
        self._steps = []
        try:
            if self.hand == 0:
                self._open_table()
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

    def _open_table(self) -> None:
        self._emit(TableSetup(seats=self.seats, small_blind=self.small_blind,
                              big_blind=self.big_blind))
        for seat in range(1, self.seats + 1):
            self._emit(SeatTake(seat=seat, player=NAMES[seat - 1], stack=self.stack))
        for card in FULL_DECK:
            uid = self._uid()
            self.tags[uid] = card
            self.uid_of[card] = uid
        # A spare tag carrying a duplicate of one card: registered (a defective deck) but kept
        # out of the shoe except in a duplicate-card hand.
        self.spare_uid = self._uid()
        self.tags[self.spare_uid] = self.rng.choice(FULL_DECK)
        self._emit(DeckRegister(deck="sim-1", tags=dict(self.tags)))

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

    def _record(self, kind: str, seats: Sequence[int], cards: Sequence[str]) -> None:
        self.truth.append(Mistake(self.hand, kind, MISTAKES[kind], tuple(seats), tuple(cards)))

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
        self._deal_holes(order, kind)
        passive = kind is not None and kind not in DEAL_KINDS
        premature = kind[len("premature_"):] if kind and kind.startswith("premature_") else None
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
        for uid, zone, up in zip(uids, zones, face, strict=True):
            self._card(uid, zone, up)
        if kind in ("one_extra_card", "two_extra_cards"):
            extra = 1 if kind == "one_extra_card" else 2
            got = [self._draw() for _ in range(extra)]
            self._record(kind, order[:extra], [self.tags[u] for u in got])
            for i, uid in enumerate(got):
                self._card(uid, f"seat:{order[i]}")

    def _card(self, uid: str, zone: str, face_up: bool = False) -> None:
        if zone.startswith("seat:"):
            self._holes.setdefault(int(zone[5:]), []).append(uid)
        self._emit(CardMove(uid=uid, face_up=face_up, zone=zone, from_shoe=True))

    def _deal_street(self, street: str, kind: str | None) -> None:
        count = 3 if street == "flop" else 1
        burns = 1
        if kind == f"missing_burn_{street}":
            burns = 0
        elif kind == f"extra_burn_{street}":
            burns = 2
        elif kind == "four_card_flop" and street == "flop":
            count = 4
        if kind in (f"missing_burn_{street}", f"extra_burn_{street}") or (
                kind == "four_card_flop" and street == "flop"):
            top = [self.tags[u] for u in self._deck[::-1][:burns + count]]
            if burns == 0:
                cards = [top[0]]
            elif burns == 2:
                cards = [top[1]]
            else:
                cards = top[1:5]
            self._record(kind, [], cards)
        for _ in range(burns):
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
                self._record(kind, [], [self.tags[self._deck[-1]]])
                self._deal_street(premature, None)
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
