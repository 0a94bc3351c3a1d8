"""Finding codes of the deal at the board games, as data: the deck and its tags, the initial
deal, the burns and the board (research/irregularities.md; Robert's Rules v11 Section 3,
Section 5). ``catalogue.py`` merges them into ``CATALOGUE``."""

from __future__ import annotations

from controller.rules.findings.entry import Entry, cite
from controller.rules.findings.rulebooks import (
    HOLDEM,
    IRREG,
    MISDEALS,
    REDEAL,
    RULES_BLINDS,
)

DEALING_ENTRIES: tuple[Entry, ...] = (
    # --- deck and tags -----------------------------------------------------------------------
    Entry(
        "DUPLICATE_CARD",
        "Duplicate card: two tags carry the same card",
        "misdeal",
        (
            cite(IRREG, "4", "If two cards of the same rank and suit are found, all action is "
                 "void"),
            cite(IRREG, "5"),
        ),
        (
            "Stop the deal: two different tags carry {card} in this hand.",
            "All action is void: every chip in the pot goes back to the player who wagered it.",
            "Take the defective deck out of play (both cards {card}) and deal the next hand with "
            "a complete deck.",
            "A player who knew the deck was defective and bet on it may lose the refund "
            "(Irregularities, rule 5): call the floor if so.",
        ),
        "shoe reader (tag serials); deck registry",
    ),
    Entry(
        "UNKNOWN_TAG",
        "A card whose tag is not in the registered deck",
        "misdeal",
        (
            cite(IRREG, "3", "If a card with a different color back appears during a hand, all "
                 "action is void"),
        ),
        (
            "Stop the deal: tag {uid} is not in the registered deck {deck}.",
            "Check the card: a card from another deck (different back) appearing during the hand "
            "voids all action and every chip goes back to its owner; a card of this deck whose "
            "tag is unregistered must be re-registered before the next hand.",
            "Redeal the hand with the registered deck.",
        ),
        "shoe reader or zone antennas; deck registry",
        catalogue=False,
    ),
    Entry(
        "CARD_NOT_IN_GAME_DECK",
        "A card that is not in this game's deck",
        "misdeal",
        (
            cite(IRREG, "3", "If a card with a different color back appears during a hand, all "
                 "action is void and all chips in the pot are returned to the respective bettors."),
            cite("Six Plus Hold'em (Short Deck)", "rules", "The deck only consists of 36 cards, "
                 "with the twos, threes, fours and fives removed.", file="jamies-poker-notes.md"),
        ),
        (
            "Stop the deal: {card} is not in the {game} deck, so the deck in play is the wrong "
            "one (a card that does not belong to the deck voids the action like a card with a "
            "different back).",
            *REDEAL[:1],
            "Take the deck out of play, strip it to the game's cards ({deck_size} cards) and "
            "redeal.",
        ),
        "shoe reader; deck registry",
        catalogue=False,
    ),
    # --- the initial deal --------------------------------------------------------------------
    Entry(
        "MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED",
        "Misdeal: the first or second card was exposed",
        "misdeal",
        (
            cite(MISDEALS, "2(a)", "The first or second card of the hand has been exposed by a "
                 "dealer error."),
            cite(HOLDEM, "1", "If the initial holecard dealt to the first or second player is "
                 "exposed, a misdeal results."),
        ),
        ("Card {card}, the {ordinal} card of the deal (to seat {seat}), was exposed.", *REDEAL),
        "shoe orientation sensor or the dealer's exposed-card key",
    ),
    Entry(
        "MISDEAL_TWO_OR_MORE_CARDS_EXPOSED",
        "Misdeal: two or more cards exposed by the dealer",
        "misdeal",
        (
            cite(MISDEALS, "2(b)", "Two or more cards have been exposed by the dealer."),
            cite(HOLDEM, "1", "If more than one holecard is exposed, this is a misdeal"),
        ),
        ("Cards {cards} were exposed by the dealer during the deal.", *REDEAL),
        "shoe orientation sensor or the dealer's exposed-card key",
    ),
    Entry(
        "HOLECARD_EXPOSED_SINGLE_REPLACE",
        "A hole card was exposed by the dealer: it is replaced",
        "error",
        (
            cite(HOLDEM, "1", "If any other holecard is exposed due to a dealer error, the deal "
                 "continues. The exposed card may not be kept."),
            cite(IRREG, "13"),
            cite(MISDEALS, "2(f)", "except an exposed card may be replaced by the burncard"),
        ),
        (
            "The deal continues; seat {seat} may not keep {card}.",
            "Once every player has a complete starting hand, deal the top card of the deck to "
            "seat {seat} as its replacement.",
            "Put {card} in the burn: it is the burncard for the flop (no other card is burned "
            "before the flop).",
        ),
        "shoe orientation sensor or the dealer's exposed-card key",
    ),
    Entry(
        "MISDEAL_FIRST_CARD_WRONG_POSITION",
        "Misdeal: the first card went to the wrong position",
        "misdeal",
        (cite(MISDEALS, "2(h)", "The first card was dealt to the wrong position."),),
        (
            "The first card, {card}, went to {landed} instead of seat {expected} (the first "
            "seat left of the button).",
            *REDEAL,
        ),
        "shoe reader and seat antennas; button position",
    ),
    Entry(
        "MISDEAL_CARD_OUT_OF_SEQUENCE",
        "Misdeal: a card was dealt out of sequence",
        "misdeal",
        (
            cite(MISDEALS, "2(f)", "Any card has been dealt out of the proper sequence (except an "
                 "exposed card may be replaced by the burncard)."),
        ),
        (
            "Card {card} went to {landed}; in proper sequence it was due to seat {expected}.",
            *REDEAL,
        ),
        "shoe reader and seat antennas; button position",
    ),
    Entry(
        "MISDEAL_INCORRECT_CARD_COUNT",
        "Misdeal: a player was dealt the wrong number of cards",
        "misdeal",
        (
            cite(MISDEALS, "2(e)", "An incorrect number of cards has been dealt to a player, "
                 "except the top card may be dealt if it goes to the player in proper sequence."),
        ),
        (
            "{detail}",
            "The top card can no longer reach seat(s) {seats} in proper sequence, so the "
            "exception of rule 2(e) does not apply.",
            *REDEAL,
        ),
        "shoe reader and seat antennas",
    ),
    Entry(
        "HAND_WRONG_CARD_COUNT_DEAD",
        "A hand with the wrong number of cards after the misdeal cut-off is dead",
        "error",
        (
            cite(MISDEALS, "1", "Once action begins, a misdeal cannot be called. The deal will be "
                 "played, and no money will be returned to any player whose hand is fouled."),
            cite("Section 3, Dead Hands", "1(d)", "The hand does not contain the proper number of "
                 "cards for that particular game"),
        ),
        (
            "{detail}",
            "Attention was called by the {by} after the misdeal cut-off ({cutoff}): no misdeal; "
            "the deal will be played.",
            "Seat(s) {seats}: the hand is dead (wrong number of cards); the chips it put in stay "
            "in the pot.",
        ),
        "shoe reader and seat antennas; betting feed; attention key",
    ),
    Entry(
        "MUCKED_HAND_RETRIEVAL",
        "A mucked hand was retrieved",
        "warning",
        (
            cite("Section 3, Dead Hands", "2", "Cards thrown into the muck may be ruled dead. "
                 "However, a hand that is clearly identifiable may be retrieved and ruled live at "
                 "management's discretion if doing so is in the best interest of the game."),
        ),
        (
            "Seat {seat}'s cards {cards} were read in the muck and {card} is back in seat "
            "{seat}.",
            "Cards thrown into the muck may be ruled dead: call the floor, who decides whether "
            "the hand ({cards}, clearly identified by the muck log) is retrieved and ruled live "
            "(an extra effort is made if it was folded on incorrect information).",
        ),
        "seat and muck antennas",
    ),
    Entry(
        "MISDEAL_LOCKOUT",
        "A misdeal error noticed after the misdeal cut-off: the deal will be played",
        "warning",
        (
            cite(MISDEALS, "1", "Once action begins, a misdeal cannot be called. The deal will be "
                 "played, and no money will be returned to any player whose hand is fouled."),
        ),
        (
            "{detail}",
            "Attention was called by the {by} after the misdeal cut-off ({cutoff}): no misdeal "
            "({error}); the deal will be played and no money is returned to a player whose hand "
            "is fouled.",
        ),
        "betting feed; attention key",
    ),
    Entry(
        "MISDEAL_DEALT_TO_EMPTY_OR_INELIGIBLE_SEAT",
        "Misdeal: a card was dealt to a seat not in the hand",
        "misdeal",
        (
            cite(MISDEALS, "2(i)", "Cards have been dealt to an empty seat or a player not "
                 "entitled to a hand."),
        ),
        ("Card {card} went to seat {seat}, which is not dealt in this hand ({why}).", *REDEAL),
        "seat antennas; seat status from the console",
    ),
    Entry(
        # The house setting empty_seat_cards = killed_except_lowball (WSOP; research D-04).
        "CARD_TO_EMPTY_SEAT_KILLED",
        "A card dealt to a seat not in the hand is dead (no misdeal)",
        "error",
        (
            cite(MISDEALS, "1", "The following circumstances cause a misdeal, provided attention "
                 "is called to the error before two players have acted on their hands.",
                 file="wsop-2009-live-action-rules.md"),
        ),
        (
            "Card {card} went to seat {seat}, which is not dealt in this hand ({why}).",
            "Not a misdeal under this house's rules (the misdeal list of Section 3, rule 1 has "
            "no card dealt to an empty seat): the card is dead; take it out of play, to the "
            "muck (what becomes of it is not in the rulebooks: Feltguard's house choice).",
            "Deal on: the next card goes to seat {expected}, the seat it was due to.",
        ),
        "seat antennas; seat status from the console",
        catalogue=False,
    ),
    Entry(
        # The house setting short_hand_exception = button_two_consecutive (AZW; research D-34).
        "BUTTON_DEALT_TWO_CONSECUTIVE",
        "The button was passed over: it gets two consecutive cards",
        "warning",
        (
            cite("Section 5, Holdem, Misdeals (TDA #34)", "1(f)", "Players may be dealt 2 "
                 "consecutive cards on the button.", file="azwine-tour-tournament-rules.txt"),
        ),
        (
            "Card {card} went to seat {landed}: the button, seat {seat}, was passed over.",
            "Not a misdeal under this house's rules: deal on in order from seat {landed}; the "
            "button gets its missing card at the end of the deal (two consecutive cards on the "
            "button).",
        ),
        "shoe reader and seat antennas; button position",
        catalogue=False,
    ),
    Entry(
        "MISDEAL_ENTITLED_PLAYER_DEALT_OUT",
        "Misdeal: a player entitled to a hand was dealt out",
        "misdeal",
        (
            cite(MISDEALS, "2(j)", "A player has been dealt out who is entitled to a hand. This "
                 "player must be present at the table or have posted a blind or ante."),
            cite("Misdeals (TDA #34)", "1(d)", "a seat entitled to a hand is dealt out",
                 file="azwine-tour-tournament-rules.txt"),
        ),
        (
            "Seat {seat} is dealt in this hand but the deal passed it: {card} went to seat "
            "{landed} and the dealing went on without seat {seat}.",
            *REDEAL,
        ),
        "seat antennas; seat status from the console",
    ),
    Entry(
        "MISSED_BLIND_PLAYER_DEALT_IN",
        "A player who owes missed blinds was dealt in without posting",
        "error",
        (
            cite(RULES_BLINDS, "11", "If a player who owes a blind (as a result of a missed "
                 "blind) is dealt in without posting, the hand is dead if the player looks at it "
                 "before putting up the required chips, and has not yet acted."),
            cite("Section 4, Rules for Using Blinds", "7", "If a player who owes a blind (as a "
                 "result of a missed blind) is dealt in without posting, the hand is dead",
                 file="wsop-2009-live-action-rules.md"),
        ),
        (
            "Card {card} went to seat {seat}, which owes missed blinds ({owes}) and has not "
            "posted them.",
            "This is not a misdeal: the deal goes on.",
            "If the player looks at the hand before putting up the missed blinds and has not "
            "acted, the hand is dead: muck it.",
            "If the player acts and puts chips in before the error is discovered, the hand is "
            "live, and the player posts the missed blinds on the next deal.",
        ),
        "seat antennas; seat status (away, back, missed blinds) from the console",
    ),
    Entry(
        "EXTRA_CARD_SINGLE_BECOMES_BURN",
        "One extra card dealt: it becomes the burncard",
        "error",
        (
            cite(IRREG, "11", "Before the first round of betting, if a dealer deals one "
                 "additional card, it is returned to the deck and used as the burncard."),
            cite(HOLDEM, "2", "the card will be returned to the deck and used for the burncard."),
        ),
        (
            "Seat {seat} received one extra card, {card}, after every player had a complete "
            "starting hand.",
            "Take {card} back; it is not part of seat {seat}'s hand.",
            "Use {card} as the burncard for the flop: after the preflop betting, put it in the "
            "burn and deal the flop from the top of the deck without another burn.",
        ),
        "shoe reader and seat antennas",
    ),
    Entry(
        "MISDEAL_TWO_OR_MORE_EXTRA_CARDS",
        "Misdeal: two or more extra cards dealt",
        "misdeal",
        (
            cite(MISDEALS, "2(d)", "Two or more extra cards have been dealt in the starting hands "
                 "of a game."),
            cite(HOLDEM, "2", "If the dealer mistakenly deals more than one extra card, it is a "
                 "misdeal."),
        ),
        ("Extra cards {cards} went to seat(s) {seats} after the starting hands.", *REDEAL),
        "shoe reader and seat antennas",
    ),
    # --- burns and board -----------------------------------------------------------------------
    Entry(
        "FLOP_BURN_ERROR",
        "No burn or two burns before the flop",
        "error",
        (
            cite(HOLDEM, "4", "If the dealer failed to burn a card before dealing the flop, or "
                 "burned two cards, the error should be rectified by using the proper burncard "
                 "and flop, if no boardcards were exposed."),
        ),
        (
            "{detail}",
            "If no board card has been turned face up: {fix}",
            "If any board card was exposed, the deck must be reshuffled before the flop is "
            "dealt (Holdem, rule 4).",
        ),
        "shoe reader; board and burn antennas",
    ),
    Entry(
        "BURN_MISSING_OR_EXTRA",
        "No burn or an extra burn before the turn or river",
        "error",
        (
            cite(IRREG, "16", "If the dealer fails to burn a card or burns more than one card, "
                 "the error should be corrected if discovered before betting action has started "
                 "for that round."),
            cite(HOLDEM, "6", "Once action has been taken on a boardcard by any player, the card "
                 "must stand."),
        ),
        (
            "{detail}",
            "Before any player acts on the {street}: {fix}",
            "Once a player has acted on the {street} card it stands; subsequent cards must be "
            "those that would have come without the error (Irregularities, rule 16).",
        ),
        "shoe reader; board and burn antennas",
    ),
    Entry(
        "FLOP_TOO_MANY_CARDS",
        "Four-card flop",
        "error",
        (
            cite(HOLDEM, "3", "If the flop contains too many cards, it must be redealt. (This "
                 "applies even if it were possible to know which card was the extra one.)"),
            cite(HOLDEM, "7", "the boardcards are mixed with the remainder of the deck. The "
                 "burncard remains on the table."),
        ),
        (
            "The flop has {count} cards: {cards}.",
            "Mix the board cards {cards} with the remainder of the deck; the burncard stays on "
            "the table.",
            "Shuffle, cut, and deal a new flop of three cards without burning a card.",
        ),
        "shoe reader; board antenna",
    ),
    Entry(
        "FLOP_PREMATURE",
        "Flop dealt before the preflop betting was complete",
        "error",
        (
            cite(HOLDEM, "5", "If the dealer burns and turns before a betting round is complete, "
                 "the card(s) may not be used, even if all subsequent players elect to fold."),
            cite(IRREG, "15"),
            cite(HOLDEM, "7", "deals a new flop without burning a card."),
        ),
        (
            "Card {card} left the shoe while the preflop betting was open: the premature cards "
            "do not play, even if the remaining players fold.",
            "Complete the preflop betting.",
            "The premature burn stays as the burncard; mix the premature flop cards with the "
            "remainder of the deck, shuffle, cut, and deal a new flop without burning.",
        ),
        "shoe reader; board and burn antennas; the betting actions",
    ),
    Entry(
        "TURN_PREMATURE",
        "Turn dealt before the flop betting was complete",
        "error",
        (
            cite(HOLDEM, "8", "The dealer burns and deals what would have been the fifth card in "
                 "the fourth card's place."),
            cite(HOLDEM, "5"),
            cite(IRREG, "15"),
        ),
        (
            "Card {card} left the shoe while the flop betting was open: the premature turn card "
            "is taken out of play (set it aside), even if the remaining players fold; the "
            "premature burn stays a burn.",
            "Complete the flop betting.",
            "Burn and deal what would have been the river as the turn.",
            "After the turn betting, reshuffle the deck with the set-aside card (not the burns "
            "or discards), cut, and deal the river without burning.",
        ),
        "shoe reader; board and burn antennas; the betting actions",
    ),
    Entry(
        "RIVER_PREMATURE",
        "River dealt before the turn betting was complete",
        "error",
        (
            cite(HOLDEM, "8", "If the fifth card is turned up prematurely, the deck is reshuffled "
                 "and dealt in the same manner."),
            cite(HOLDEM, "5"),
            cite(IRREG, "15"),
        ),
        (
            "Card {card} left the shoe while the turn betting was open: the premature river does "
            "not play, even if the remaining players fold.",
            "Complete the turn betting.",
            "Reshuffle the remainder of the deck with the premature card (not the burns or "
            "discards), cut, and deal the river without burning.",
        ),
        "shoe reader; board and burn antennas; the betting actions",
    ),
    Entry(
        "DRAW_AFTER_HAND_END",
        "A card was drawn after the hand was over",
        "warning",
        (
            cite("Section 2, Procedures", "24", "After a deal ends, dealers are asked to not show "
                 "what card would have been dealt."),
        ),
        (
            "Card {card} left the shoe after the hand was over: do not show what card would "
            "have been dealt.",
            "Return it face down with the discards; it is not part of the hand.",
        ),
        "shoe reader",
    ),
    Entry(
        "UNEXPECTED_CARD",
        "A card the dealing procedure did not expect",
        "warning",
        (
            cite(IRREG, "16", "subsequent cards dealt should be those that would have come if no "
                 "error had occurred."),
        ),
        (
            "{detail}",
            "Call the floor: the rulebooks give no specific remedy; the principle is that the "
            "cards dealt next should be those that would have come without the error.",
        ),
        "shoe reader; zone antennas",
        catalogue=False,
    ),
)
