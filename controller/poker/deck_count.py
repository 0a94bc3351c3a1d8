"""A deck read through, counted against the registry: the one comparison behind the core's
``deck.audit`` (MISSING_CARDS_FROM_DECK, FOREIGN_BACK_CARD_IN_STUB) and ``feltguard deck
check``.

Given the deck registry and the tags read in one pass (in the order read, a tag as often as it
was read), it says which tags of the deck in play were not read, which tags read belong to
another registered deck (and which), which belong to none, and which cards the pass held more
than once: one tag read twice, or two tags carrying one card (a card of the deck and a card of
the same face from another deck, or a defective deck's duplicate). Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from controller.poker.cards import FULL_DECK, DeckRegistry


@dataclass(frozen=True)
class DeckCount:
    """What one pass through the reader found, each list in new-deck order of its cards."""

    missing: tuple[str, ...]  # uids of the deck in play not read (nor out on the felt)
    foreign: tuple[tuple[str, str, str], ...]  # (uid, deck id, card) of another deck
    unknown: tuple[str, ...]  # uids of no registered deck
    # (card, uids read for it, a uid once per read) for a card read more than once
    repeated: tuple[tuple[str, tuple[str, ...]], ...]

    @property
    def whole(self) -> bool:
        """The pass is the deck in play, every card once, and nothing else."""
        return not (self.missing or self.foreign or self.unknown or self.repeated)


def count_deck(reg: DeckRegistry, read: Iterable[str],
               present: Collection[str] = ()) -> DeckCount:
    """Count the pass ``read`` against ``reg``; ``present``: tags counted as there without a
    read (the cards of the hand out on the felt while the stub is audited)."""
    uids = list(read)
    seen = set(uids)
    missing = [u for u in reg.tags if u not in seen and u not in present]
    distinct = list(dict.fromkeys(uids))
    foreign = [(u, *reg.others[u]) for u in distinct if u not in reg.tags and u in reg.others]
    unknown = [u for u in distinct if u not in reg.tags and u not in reg.others]
    by_card: dict[str, list[str]] = {}
    for u in uids:
        card = reg.tags.get(u) or (reg.others[u][1] if u in reg.others else None)
        if card is not None:
            by_card.setdefault(card, []).append(u)
    repeated = [(c, tuple(us)) for c, us in by_card.items() if len(us) > 1]
    return DeckCount(
        missing=tuple(sorted(missing, key=lambda u: in_deck_order(reg.tags[u]))),
        foreign=tuple(sorted(foreign, key=lambda f: in_deck_order(f[2]))),
        unknown=tuple(unknown),
        repeated=tuple(sorted(repeated, key=lambda r: in_deck_order(r[0]))),
    )


def in_deck_order(card: str) -> int:
    """New-deck order (cards.FULL_DECK), the joker last."""
    return FULL_DECK.index(card) if card in FULL_DECK else len(FULL_DECK)
