"""Cards and the deck registry: the tag uid written in each card's RFID inlay -> the card.

Cards are two-character strings, rank then suit: ``As``, ``Td``, ``2c`` (ranks 2-9 T J Q K A,
suits c d h s), the notation of PHH and PokerKit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from controller.poker.records import replace

RANKS = "23456789TJQKA"
SUITS = "cdhs"
FULL_DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)


def is_card(text: str) -> bool:
    return len(text) == 2 and text[0] in RANKS and text[1] in SUITS


def rank_index(card: str) -> int:
    """0 for a deuce .. 12 for an ace."""
    return RANKS.index(card[0])


@dataclass(frozen=True)
class DeckRegistry:
    """The registered deck: which tag is which card. Several tags may carry the same card
    (a duplicate card in a defective deck); the registry keeps them all so the monitor can
    tell a duplicate (two tags, one card) from a re-read (one tag, read twice)."""

    deck: str = ""
    tags: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    # The table's other registered decks (the deck in play before, an idle deck of a two-deck
    # rotation): uid -> (deck id, card). A tag found here is a card with a different back.
    others: Mapping[str, tuple[str, str]] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def of(cls, deck: str, tags: Mapping[str, str]) -> DeckRegistry:
        return cls(deck=deck, tags=MappingProxyType(dict(tags)))

    def put_in_play(self, deck: str, tags: Mapping[str, str]) -> DeckRegistry:
        """``deck`` becomes the deck in play; the one in play before stays known as another."""
        others = {u: d for u, d in self.others.items() if u not in tags and d[0] != deck}
        if self.deck != deck:
            others.update({u: (self.deck, c) for u, c in self.tags.items() if u not in tags})
        return DeckRegistry(deck, MappingProxyType(dict(tags)), MappingProxyType(others))

    def with_idle(self, deck: str, tags: Mapping[str, str]) -> DeckRegistry:
        """``deck`` is known (a card of it in play is a foreign card) but not put in play."""
        if deck == self.deck:
            return self
        others = {u: d for u, d in self.others.items() if d[0] != deck}
        others.update({u: (deck, c) for u, c in tags.items() if u not in self.tags})
        return replace(self, others=MappingProxyType(others))

    def resting(self) -> tuple[str, ...]:
        """The ids of the other registered decks (resting, or in play before), sorted."""
        return tuple(sorted({d for d, _ in self.others.values()}))

    def change_to(self, deck: str) -> DeckRegistry | None:
        """``deck``, a resting deck of the table, put in play; the deck in play before rests
        (RR Section 2 r.22, a deck changed between hands). None if ``deck`` is not resting.
        Its tags are the ones registered for it that no deck in play claimed meanwhile."""
        tags = {u: c for u, (d, c) in self.others.items() if d == deck}
        if deck == self.deck or not tags:
            return None
        return self.put_in_play(deck, tags)

    def card_of(self, uid: str) -> str | None:
        """The card a tag carries, or None for a tag that is not in this deck."""
        return self.tags.get(uid)

    def foreign(self, uid: str) -> tuple[str, str] | None:
        """(deck id, card) of a tag of another registered deck, or None."""
        return None if uid in self.tags else self.others.get(uid)

    def __len__(self) -> int:
        return len(self.tags)
