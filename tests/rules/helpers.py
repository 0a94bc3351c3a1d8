"""Test helpers: a table built from event bodies, a deck with readable uids."""

from __future__ import annotations

from collections.abc import Iterable

from controller.events import (
    Action,
    Body,
    DeckRegister,
    Event,
    HandStart,
    SeatTake,
    ShoeDraw,
    TableSetup,
    ZoneRead,
)
from controller.poker.cards import FULL_DECK
from controller.rules import Step, TableState, apply, initial_state, snapshot

TAGS = {f"T{card}": card for card in FULL_DECK}  # uid "TAs" carries the ace of spades


def uid(card: str) -> str:
    return f"T{card}"


class Table:
    """Feeds bodies to the rules core, keeping every step."""

    def __init__(self) -> None:
        self.state: TableState = initial_state()
        self.seq = 0
        self.steps: list[Step] = []

    def feed(self, *bodies: Body) -> Step:
        step = Step(self.state)
        for body in bodies:
            self.seq += 1
            step = apply(self.state, Event(self.seq, 0, body))
            self.state = step.state
            self.steps.append(step)
        return step

    def card(self, card: str, zone: str, face_up: bool = False) -> Step:
        self.feed(ShoeDraw(uid=uid(card), face_up=face_up))
        return self.feed(ZoneRead(uid=uid(card), zone=zone))

    def act(self, seat: int, kind: str, amount: int | None = None) -> Step:
        return self.feed(Action(seat=seat, kind=kind, amount=amount))

    @property
    def findings(self) -> list[str]:
        return [f.code for s in self.steps for f in s.findings]

    def snap(self) -> dict:  # type: ignore[type-arg]
        return snapshot(self.state)

    def hand(self) -> dict:  # type: ignore[type-arg]
        return self.snap()["hand"]  # type: ignore[no-any-return]

    def stacks(self) -> dict[int, int]:
        return {s["seat"]: s["stack"] for s in self.snap()["seats"]}


def table(stacks: Iterable[int], *, sb: int = 1, bb: int = 2, button: int | None = None,
          seats: int | None = None, post: bool = True) -> Table:
    """A table with players in seats 1..n, a registered deck and a hand started (blinds posted)."""
    stacks = list(stacks)
    t = Table()
    t.feed(TableSetup(seats=seats or max(len(stacks), 2), small_blind=sb, big_blind=bb),
           DeckRegister(deck="test", tags=TAGS))
    for i, chips in enumerate(stacks, start=1):
        t.feed(SeatTake(seat=i, player=f"P{i}", stack=chips))
    t.feed(HandStart(button=button))
    if post:
        h = t.hand()
        st = t.stacks()
        t.act(h["small_blind"], "post", min(sb, st[h["small_blind"]]))
        t.act(h["big_blind"], "post", min(bb, st[h["big_blind"]]))
    return t


def deal_holes(t: Table, cards: list[str]) -> None:
    """Deal hole cards in proper order: cards[i] is the i-th card off the shoe."""
    h = t.hand()
    n = sum(1 for s in t.snap()["seats"] if s["in_hand"])
    players = [s["seat"] for s in t.snap()["seats"] if s["in_hand"]]
    seats_at_table = t.snap()["table"]["seats"]
    order = sorted(players, key=lambda s: (s - h["button"] - 1) % seats_at_table)
    assert len(cards) == 2 * n
    for i, card in enumerate(cards):
        t.card(card, f"seat:{order[i % n]}")
