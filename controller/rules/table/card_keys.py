"""The dealer's card keys named by card: which tag ``exposed As`` or ``boxed last`` points at.

A dealer knows the card, never its tag. The card keys (``card.exposed``, ``card.flashed``,
``card.boxed``, ``card.kept``) may name the card (``As``) or ``last`` (the last card drawn),
and this module resolves the name to the tag through the deck registry and the cards this hand
has seen. One resolution serves the daemon, which resolves a key before journaling it (a name
that resolves to nothing is refused there, with the reason, and never journaled), and the core's
``apply``, which resolves a key read from a scenario written by hand (and refuses it as
EVENT_OUT_OF_PLACE).

- ``last``: the card drawn last this hand (the highest draw ordinal).
- a name, for the exposed, flashed and kept keys: the card as dealt this hand; a card still in
  the stub is not in play, so no key can say it was exposed or kept.
- a name, for the boxed key: the card as dealt this hand, or, found face up in the deck before
  it was dealt (roberts-rules-v11.txt, Section 3, Irregularities, r.7), the tag of that card in
  the deck in play.
"""

from __future__ import annotations

from controller.events import LAST_CARD, CardBoxed, CardKey
from controller.poker.cards import DeckRegistry
from controller.poker.records import replace
from controller.rules.procedure import GameHand, dealt_cards


def resolve(deck: DeckRegistry, hand: GameHand | None, body: CardKey) -> CardKey | str:
    """``body`` with the tag it names (``uid``), or why it names none (a sentence that names
    the card). A key that already carries its tag is returned as it is."""
    if body.uid:
        return body
    if hand is None:
        return (f"There is no hand in progress: no card is in play for the {_key(body)} key "
                f"to name ({body.card}).")
    dealt = dealt_cards(hand)
    if body.card == LAST_CARD:
        if not dealt:
            return f"No card has been drawn this hand for the {_key(body)} key to name."
        uid = max(dealt, key=lambda d: d[2])[0]
        return replace(body, uid=uid, card=deck.card_of(uid) or "")
    named = [d for d in dealt if d[1] == body.card]
    if named:
        # (two tags of one card in a defective deck: the one dealt last is the one in view)
        return replace(body, uid=max(named, key=lambda d: d[2])[0])
    in_deck = sorted(u for u, c in deck.tags.items() if c == body.card)
    if not in_deck:
        where = f"deck {deck.deck}" if deck.deck else "no deck is registered"
        return f"No card {body.card} is in the deck in play ({where})."
    if isinstance(body, CardBoxed):
        return replace(body, uid=in_deck[0])
    return (f"The {body.card} is not in play: it has not been dealt this hand, so the "
            f"{_key(body)} key cannot name it.")


def _key(body: CardKey) -> str:
    return body.TYPE.removeprefix("card.")
