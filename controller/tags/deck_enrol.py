"""Enrolling a new deck: the tags read in one pass through the shoe, mapped to the cards of the
new-deck order, and every way such a pass can be wrong named by the card it happened at.

New-deck order (``NEW_DECK_ORDER``) is the project's one card order, ``cards.FULL_DECK``: clubs,
diamonds, hearts, spades, each from the deuce up to the ace (2c 3c ... Ac 2d ... As), then the
joker where the deck has one. It is the order the deck audits and the registry errors list
cards in too. Manufacturers' new-deck orders differ by brand (the usual US one opens with the
ace of spades and runs two suits down), so the cardroom sorts the deck into this one before
the pass: one order for every deck, nothing to remember per brand.

A deck enrols at most one joker (``MAX_JOKERS``): the games that play the joker use one (RR
Glossary, DECK: 53 cards in ace-to-five lowball and draw high; docs/games.md), and a second
joker tag would be two tags carrying one card, which the registry refuses. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from controller.poker.cards import FULL_DECK
from controller.poker.variants import JOKER

NEW_DECK_ORDER: tuple[str, ...] = FULL_DECK
MAX_JOKERS = 1


class EnrolError(ValueError):
    """The pass cannot be a deck: the message names the card (due, or the tag's own)."""


@dataclass
class Enrolment:
    """One deck being enrolled: ``add`` each tag as the shoe reads it (a repeat of one card's
    read is debounced before), then ``finish``. ``known``: the tags of the other registered
    decks, uid -> (deck id, card)."""

    deck: str
    jokers: int = 0
    known: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not 0 <= self.jokers <= MAX_JOKERS:
            raise EnrolError(f"a deck enrols 0 or {MAX_JOKERS} joker, not {self.jokers}")

    @property
    def order(self) -> tuple[str, ...]:
        return (*NEW_DECK_ORDER, *(JOKER,) * self.jokers)

    @property
    def due(self) -> str | None:
        """The card the next tag is, or None once the deck is complete."""
        n = len(self.tags)
        return self.order[n] if n < len(self.order) else None

    def add(self, uid: str) -> str:
        """The card ``uid`` is enrolled as; EnrolError for a tag that cannot be the next card."""
        due = self.due
        if uid in self.known:
            other, card = self.known[uid]
            raise EnrolError(f"tag {uid}, read where {_name(due)} was due, is {card} of deck "
                             f"{other}, already enrolled: take it out of deck {self.deck}")
        if uid in self.tags:
            raise EnrolError(f"tag {uid} read again where {_name(due)} was due: it is already "
                             f"{self.tags[uid]} of this pass (one tag read twice: a card passed "
                             "again, or left on the reader)")
        if due is None:
            raise EnrolError(f"an extra tag {uid} after the last card ({_name(self.order[-1])}): "
                             f"a deck of {len(self.order)} cards ends there")
        self.tags[uid] = due
        return due

    def finish(self) -> dict[str, str]:
        """The deck's tags, uid -> card; EnrolError naming the card due if the pass is short."""
        due = self.due
        if due is not None:
            raise EnrolError(f"missing {_name(due)}: the pass ended after {len(self.tags)} of "
                             f"{len(self.order)} cards ({_name(due)} was due next; a card "
                             "missing earlier shifts the rest, so check the deck's order)")
        return dict(self.tags)


def _name(card: str | None) -> str:
    return "no card" if card is None else ("the joker" if card == JOKER else card)
