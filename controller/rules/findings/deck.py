"""Finding codes about the deck as a whole and about cards moving between hands, as data.

A card of another registered deck in play or in the stub, cards missing from the deck at an
audit, the button found wrong on the hand before, and a hand's cards landing in another hand
or in the muck without a fold (research/irregularities.md §1.C, §1.F, §1.I, §1.O). Same shape
and conventions as ``catalogue.py``, which merges these into ``CATALOGUE``: the title never
names a card, remedy steps are templates filled per case, the first citation is the one a
finding carries. Where the rulebooks disagree the other remedies are in ``DECK_REMEDY_BY_SETTING``
(keyed by the house setting's value, like ``catalogue.REMEDY_BY_SETTING``).
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.rules.findings.entry import Entry, cite
from controller.rules.findings.finding import Citation
from controller.rules.findings.rulebooks import AZW, WSOP

IRREG = "Section 3, Irregularities"
DEAD = "Section 3, Dead Hands"

_FOREIGN_IN_PLAY = ("If a card with a different color back appears during a hand, all action is "
                    "void and all chips in the pot are returned to the respective bettors.")

DECK_ENTRIES: tuple[Entry, ...] = (
    Entry(
        "FOREIGN_BACK_CARD_IN_PLAY",
        "A card of another deck appeared in the hand",
        "misdeal",
        (cite(IRREG, "3", _FOREIGN_IN_PLAY),),
        (
            "Stop the deal: tag {uid} is {card} of deck {foreign}, not of the deck in play "
            "({deck}): a card with a different color back.",
            "All action is void: every chip in the pot goes back to the player who wagered it.",
            "Take the card of deck {foreign} out, check the deck in play is complete, and "
            "redeal.",
        ),
        "shoe reader or zone antennas; registry of every deck of the table (deck ids)",
    ),
    Entry(
        "FOREIGN_BACK_CARD_IN_STUB",
        "A card of another deck was found in the stub",
        "warning",
        (cite(IRREG, "3", "If a card with a different color back is discovered in the stub, all "
              "action stands."),),
        (
            "The deck audit found {cards} in the stub: {foreign}.",
            "All action stands.",
            "Take the card(s) out of the deck before the next deal.",
        ),
        "shoe reader (a deck audit reads the stub through); registry of every deck of the table",
    ),
    Entry(
        "MISSING_CARDS_FROM_DECK",
        "Cards are missing from the deck",
        "warning",
        (cite(IRREG, "10", "One or more cards missing from the deck does not invalidate the "
              "results of a hand."),),
        (
            "The deck audit did not find {cards} ({count} of {size} tags of deck {deck}).",
            "The results of the hand stand.",
            "Look for the card(s) on and around the table; replace the deck before the next deal "
            "if they are not found (a defective deck may be changed at once).",
        ),
        "shoe reader (a deck audit reads the deck through); deck registry",
    ),
    Entry(
        "BUTTON_MISPLACED_PREVIOUS_HAND",
        "The button was out of position on the previous hand",
        "warning",
        (cite(IRREG, "1", "In button games, if it is discovered that the button was placed "
              "incorrectly on the previous hand, the button and blinds will be corrected for the "
              "new hand in a manner that gives every player one chance for each position on the "
              "round (if possible)."),),
        (
            "Hand {previous} was played with the button on seat {placed} where it belonged on "
            "seat {expected}; its result stands.",
            "Correct the button and blinds for this hand: button seat {button}, {blinds}, so that "
            "every player gets one chance at each position on the round.",
        ),
        "the blinds posted (betting feed) or a button sensor; seating plan",
    ),
    Entry(
        "CARDS_THROWN_INTO_ANOTHER_HAND",
        "A player's cards landed in another player's hand",
        "error",
        (cite(DEAD, "3", "Cards thrown into another player's hand are dead, whether they are "
              "faceup or facedown."),),
        (
            "{cards} of seat {from_seat} went into the hand of seat {to_seat}.",
            "The hand of seat {from_seat} is dead.",
            "Take {cards} out of the hand of seat {to_seat} into the muck; the hand of seat "
            "{to_seat} plays with its own cards (call the floor if they cannot be told apart).",
        ),
        "zone antennas (each hole card's seat)",
    ),
    Entry(
        "UNPROTECTED_HAND_KILLED_OR_FOULED",
        "A live hand went into the muck without a fold",
        "warning",
        (cite(IRREG, "2", "If you fail to protect your hand, you will have no redress if it "
              "becomes fouled or the dealer accidentally kills it."),),
        (
            "{cards} of seat {seat}, a live hand that has not folded, went into the muck.",
            "An unprotected hand the dealer kills has no redress: the hand of seat {seat} is "
            "dead, unless the floor rules it clearly identifiable and retrieves it.",
        ),
        "zone antennas (seat and muck); betting feed (no fold)",
    ),
)

DECK_REMEDY_BY_SETTING: Mapping[tuple[str, str], tuple[Citation, tuple[str, ...]]] = {
    # D-09: a card of another deck. WSOP: found in the stub, the action stands only if the card
    # "will not appear in any hand or on the board and substantial action has taken place".
    ("FOREIGN_BACK_CARD_IN_STUB", "wsop"): (
        cite(IRREG, "3", "If a card with a different color back is discovered in the stub, but "
             "will not appear in any hand or on the board and substantial action has taken "
             "place, all action stands.", file=WSOP),
        ("The deck audit found {cards} in the stub: {foreign}.",
         "{stands}",
         "Take the card(s) out of the deck before the next deal."),
    ),
    # AZW (TDA): in play, the action is void "unless substantial action has occurred".
    ("FOREIGN_BACK_CARD_IN_PLAY", "tda"): (
        cite(IRREG, "3", "If a card with a different color back appears during a hand, all "
             "action is void and all chips are returned to the respective bettors unless "
             "substantial action has occurred.", file=AZW),
        ("Tag {uid} is {card} of deck {foreign}, not of the deck in play ({deck}): a card with "
         "a different color back.",
         "{stands}",
         "Take the card of deck {foreign} out and check the deck in play before the next deal."),
    ),
}
