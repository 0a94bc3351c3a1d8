"""The finding catalogue: every code the rules core can raise, as data.

Each entry gives the code's title (for people; never names a card, it reaches the public view),
severity, the rules it comes from (rulebook file, section, rule; the first is the one a finding
carries), the remedy as steps the dealer carries out, and the sensors it needs. Remedy steps are
templates: ``{seat}``, ``{seats}``, ``{card}``, ``{cards}`` and the other names an entry uses are
filled in from the specific case, so a remedy names the exact cards where the rules determine
them. House-rules profiles (a later issue) will swap remedy texts here, not in the code.

Codes in CAPITALS with a ``catalogue`` id are the ids of research/irregularities.md (dealing) and
research/button-blinds-betting.md §2.16 (betting). A few codes are the project's own, for
situations the rulebooks do not name (an unregistered tag, an event the procedure cannot place);
they say so (``catalogue=False``). docs/findings.md documents every entry.

Default behaviour is Robert's Rules of Poker v11 (roberts-rules-v11.txt), the project default
where the rulebooks disagree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from string import Formatter

from controller.rules.findings.cards_lost import CARDS_LOST_ENTRIES, CARDS_LOST_REMEDIES
from controller.rules.findings.chips import CHIP_ENTRIES
from controller.rules.findings.deck import DECK_ENTRIES, DECK_REMEDY_BY_SETTING
from controller.rules.findings.devices import DEVICE_ENTRIES
from controller.rules.findings.entry import Entry, cite
from controller.rules.findings.finding import Citation, Finding
from controller.rules.findings.games import GAME_ENTRIES
from controller.rules.findings.keys import KEY_ENTRIES, KEY_REMEDY_BY_SETTING

RR = "roberts-rules-v11.txt"
MISDEALS = "Section 3, Misdeals"
IRREG = "Section 3, Irregularities"
HOLDEM = "Section 5, Holdem"
BETTING = "Section 3, Betting and Raising"
NOLIMIT = "Section 14, No-Limit and Pot-Limit"
BLINDS = "Section 4, Button and Blind Use"
RULES_BLINDS = "Section 4, Rules for Using Blinds"
_c = cite

REDEAL = (
    "Declare a misdeal: every chip goes back to the player who put it in.",
    "Retrieve every card, reshuffle and recut, and redeal with the same button "
    "(Robert's Rules do not say whether the button moves on a redeal; Feltguard keeps it).",
)


_ENTRIES: tuple[Entry, ...] = (
    # --- deck and tags -----------------------------------------------------------------------
    Entry(
        "DUPLICATE_CARD",
        "Duplicate card: two tags carry the same card",
        "misdeal",
        (
            _c(IRREG, "4", "If two cards of the same rank and suit are found, all action is void"),
            _c(IRREG, "5"),
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
            _c(IRREG, "3", "If a card with a different color back appears during a hand, all "
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
            _c(IRREG, "3", "If a card with a different color back appears during a hand, all "
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
            _c(MISDEALS, "2(a)", "The first or second card of the hand has been exposed by a "
               "dealer error."),
            _c(HOLDEM, "1", "If the initial holecard dealt to the first or second player is "
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
            _c(MISDEALS, "2(b)", "Two or more cards have been exposed by the dealer."),
            _c(HOLDEM, "1", "If more than one holecard is exposed, this is a misdeal"),
        ),
        ("Cards {cards} were exposed by the dealer during the deal.", *REDEAL),
        "shoe orientation sensor or the dealer's exposed-card key",
    ),
    Entry(
        "HOLECARD_EXPOSED_SINGLE_REPLACE",
        "A hole card was exposed by the dealer: it is replaced",
        "error",
        (
            _c(HOLDEM, "1", "If any other holecard is exposed due to a dealer error, the deal "
               "continues. The exposed card may not be kept."),
            _c(IRREG, "13"),
            _c(MISDEALS, "2(f)", "except an exposed card may be replaced by the burncard"),
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
        (_c(MISDEALS, "2(h)", "The first card was dealt to the wrong position."),),
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
            _c(MISDEALS, "2(f)", "Any card has been dealt out of the proper sequence (except an "
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
            _c(MISDEALS, "2(e)", "An incorrect number of cards has been dealt to a player, "
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
            _c(MISDEALS, "1", "Once action begins, a misdeal cannot be called. The deal will be "
               "played, and no money will be returned to any player whose hand is fouled."),
            _c("Section 3, Dead Hands", "1(d)", "The hand does not contain the proper number of "
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
            _c("Section 3, Dead Hands", "2", "Cards thrown into the muck may be ruled dead. "
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
            _c(MISDEALS, "1", "Once action begins, a misdeal cannot be called. The deal will be "
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
            _c(MISDEALS, "2(i)", "Cards have been dealt to an empty seat or a player not "
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
            _c(MISDEALS, "1", "The following circumstances cause a misdeal, provided attention "
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
            _c("Section 5, Holdem, Misdeals (TDA #34)", "1(f)", "Players may be dealt 2 "
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
            _c(MISDEALS, "2(j)", "A player has been dealt out who is entitled to a hand. This "
               "player must be present at the table or have posted a blind or ante."),
            _c("Misdeals (TDA #34)", "1(d)", "a seat entitled to a hand is dealt out",
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
            _c(RULES_BLINDS, "11", "If a player who owes a blind (as a result of a missed "
               "blind) is dealt in without posting, the hand is dead if the player looks at it "
               "before putting up the required chips, and has not yet acted."),
            _c("Section 4, Rules for Using Blinds", "7", "If a player who owes a blind (as a "
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
            _c(IRREG, "11", "Before the first round of betting, if a dealer deals one "
               "additional card, it is returned to the deck and used as the burncard."),
            _c(HOLDEM, "2", "the card will be returned to the deck and used for the burncard."),
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
            _c(MISDEALS, "2(d)", "Two or more extra cards have been dealt in the starting hands "
               "of a game."),
            _c(HOLDEM, "2", "If the dealer mistakenly deals more than one extra card, it is a "
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
            _c(HOLDEM, "4", "If the dealer failed to burn a card before dealing the flop, or "
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
            _c(IRREG, "16", "If the dealer fails to burn a card or burns more than one card, "
               "the error should be corrected if discovered before betting action has started "
               "for that round."),
            _c(HOLDEM, "6", "Once action has been taken on a boardcard by any player, the card "
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
            _c(HOLDEM, "3", "If the flop contains too many cards, it must be redealt. (This "
               "applies even if it were possible to know which card was the extra one.)"),
            _c(HOLDEM, "7", "the boardcards are mixed with the remainder of the deck. The "
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
            _c(HOLDEM, "5", "If the dealer burns and turns before a betting round is complete, "
               "the card(s) may not be used, even if all subsequent players elect to fold."),
            _c(IRREG, "15"),
            _c(HOLDEM, "7", "deals a new flop without burning a card."),
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
            _c(HOLDEM, "8", "The dealer burns and deals what would have been the fifth card in "
               "the fourth card's place."),
            _c(HOLDEM, "5"),
            _c(IRREG, "15"),
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
            _c(HOLDEM, "8", "If the fifth card is turned up prematurely, the deck is reshuffled "
               "and dealt in the same manner."),
            _c(HOLDEM, "5"),
            _c(IRREG, "15"),
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
            _c("Section 2, Procedures", "24", "After a deal ends, dealers are asked to not show "
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
            _c(IRREG, "16", "subsequent cards dealt should be those that would have come if no "
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
    # --- betting -------------------------------------------------------------------------------
    Entry(
        "OOT_ACTION",
        "Action out of turn",
        "warning",
        (
            _c(BETTING, "11", "A player who checks out of turn may not bet or raise on the next "
               "turn to act."),
        ),
        (
            "Seat {seat} acted ({action}) while seat {to_act} was to act; Feltguard has not "
            "applied it.",
            "Enter seat {to_act}'s action first. Under Robert's Rules an out-of-turn action is "
            "binding unless the action to that player changes by a bet or raise; re-enter it "
            "in turn if it stands.",
        ),
        "the betting actions (dealer console or chip sensors)",
    ),
    Entry(
        "UNDERSIZED_WAGER",
        "Bet or raise below the minimum",
        "warning",
        (
            _c(NOLIMIT, "11", "If a player tries to bet or raise less than the legal minimum and "
               "has more chips, the wager must be increased to the proper size (but no greater)."),
            _c(NOLIMIT, "2"),
            _c(NOLIMIT, "3"),
        ),
        (
            "Seat {seat} wagered {amount}; the minimum is {minimum}.",
            "{fix}",
        ),
        "the betting actions (dealer console or chip sensors)",
    ),
    Entry(
        "RAISE_NOT_PERMITTED",
        "Raise not permitted: the betting was not reopened",
        "warning",
        (
            _c(NOLIMIT, "3", "A player who has already acted and is not facing a fullsize wager "
               "may not subsequently raise an all-in bet that is less than the minimum bet or "
               "less than the full size of the last bet or raise."),
            _c(NOLIMIT, "4"),
            _c(BETTING, "7", "Multiple all-in wagers, each of an amount too small to "
               "individually qualify as a raise, still act as a raise and reopen the betting"),
        ),
        (
            "Seat {seat} may not raise: the wager since its last action is not a full raise.",
            "Seat {seat} may call {call} or fold; Feltguard has not applied the raise.",
        ),
        "the betting actions (dealer console or chip sensors)",
    ),
    Entry(
        "ACTION_NOT_AVAILABLE",
        "An action that is not available now",
        "warning",
        (
            _c(BETTING, "6", "Any wager not all-in must be at least the size of the previous "
               "bet or raise in that round."),
            _c(BLINDS, "intro", "Blinds are posted before the players look at their cards."),
        ),
        ("{detail}", "Feltguard has not applied it; enter the action that is available."),
        "the betting actions (dealer console or chip sensors)",
        catalogue=False,
    ),
    Entry(
        "BLIND_WRONG_AMOUNT",
        "A blind posted for the wrong amount",
        "warning",
        (
            _c(BLINDS, "1", "They remain the same even when the player in the blind does not "
               "have enough chips to post the full amount."),
            _c(NOLIMIT, "2"),
        ),
        (
            "Seat {seat} posted {amount}; the {blind} is {due} (or all its chips).",
            "Feltguard has applied the post as {due}; correct the chips on the felt.",
        ),
        "the betting actions (dealer console or chip sensors)",
        catalogue=False,
    ),
    Entry(
        "BLIND_NOT_POSTED",
        "The deal began before a forced post was made",
        "warning",
        (
            _c(BLINDS, "intro", "Blinds are posted before the players look at their cards."),
            _c(RULES_BLINDS, "1", "They remain the same even when the player in the blind does "
               "not have enough chips to post the full amount."),
        ),
        (
            "Seat {seat} has not posted the {blind} ({amount}) and the deal has begun.",
            "Have seat {seat} post the {blind} now, before any player looks at the cards; "
            "Feltguard waits for the post before it opens the betting.",
        ),
        "the betting actions (dealer console or chip sensors); the shoe reader",
        catalogue=False,
    ),
    Entry(
        "BLIND_WRONG_SEAT",
        "A forced post by the wrong seat",
        "warning",
        (
            _c(BLINDS, "intro", "the small blind is posted by the first player clockwise from "
               "the button and the big blind is posted by the second player clockwise from the "
               "button."),
            _c(MISDEALS, "2(g)", "The button was out of position."),
        ),
        (
            "Seat {seat} posted the {blind}; it is due from seat {due_seat} this hand ({why}).",
            "Feltguard has not applied it: give seat {seat} its chips back and have seat "
            "{due_seat} post the {blind}.",
            "If the cards have already been dealt with the blinds out of position, it is a "
            "misdeal (Misdeals, rule 2(g)): declare it and redeal with the blinds corrected.",
        ),
        "the betting actions (dealer console or chip sensors); the table's seating plan",
        catalogue=False,
    ),
    # --- hand and table management -------------------------------------------------------------
    Entry(
        "MISDEAL_BUTTON_OUT_OF_POSITION",
        "Misdeal: the button is out of position",
        "misdeal",
        (
            _c(MISDEALS, "2(g)", "The button was out of position."),
            _c(RULES_BLINDS, "2", "Each round every player must get an opportunity for the "
               "button, and meet the total amount of the blind obligations."),
            _c("Section 3, Misdeals", "1(g)", "The button was out of position.",
               file="wsop-2009-live-action-rules.md"),
        ),
        (
            "The button is on seat {seat}; under the {method} button it belongs on seat "
            "{expected} this hand ({blinds}).",
            "Declare a misdeal before two players after the blinds have acted: every chip goes "
            "back to the player who put it in.",
            "Move the button to seat {expected}, retrieve every card, reshuffle and recut, and "
            "redeal with the blinds corrected ({blinds}).",
        ),
        "button sensor or the dealer's new-hand key; the table's seating plan",
    ),
    Entry(
        "SHOWDOWN_INCOMPLETE",
        "The pots cannot be awarded yet",
        "warning",
        (
            _c("Section 3, The Showdown", "7", "If there is a side pot, the winner of that pot "
               "should be decided before the main pot is awarded."),
        ),
        (
            "{detail}",
            "Finish the hand (or declare a misdeal) and press award pots again; Feltguard has "
            "not awarded anything.",
        ),
        "the board and seat antennas; the betting actions",
        catalogue=False,
    ),
    Entry(
        "BOXED_CARD_SINGLE",
        "A boxed card: a card found face up in the deck",
        "warning",
        (
            _c(IRREG, "7", "A card discovered faceup in the deck (boxed card) will be treated as "
               "a meaningless scrap of paper. A card being treated as a scrap of paper will be "
               "replaced by the next card below it in the deck"),
        ),
        (
            "{card} was found face up in the deck: it is a meaningless scrap of paper; set it "
            "aside (it is not a hole card, a burn or a board card).",
            "The next card below it replaces it: deal on as if {card} were not there.",
        ),
        "the dealer console (boxed key); the shoe's face-up flag cannot tell it from an exposure",
    ),
    Entry(
        "MISDEAL_TWO_OR_MORE_BOXED_CARDS",
        "Misdeal: two or more boxed cards in the deal",
        "misdeal",
        (
            _c(MISDEALS, "2(c)", "Two or more boxed cards (improperly faced cards) are found."),
            _c(IRREG, "7"),
        ),
        (
            "{cards} were found face up in the deck during the deal.",
            *REDEAL,
        ),
        "the dealer console (boxed key)",
    ),
    Entry(
        "FLOOR_RULING",
        "A floor ruling",
        "warning",
        (
            _c("Section 2, House Policies, Decision-Making", "2",
               "Decisions of the shift supervisor are final."),
        ),
        (
            "The floor rules{on}: {text}",
            "{outcome}",
        ),
        "the floor's console",
        catalogue=False,
    ),
    Entry(
        "EVENT_UNDONE",
        "The last event was undone",
        "warning",
        (
            _c("Section 2, House Policies, Decision-Making", "3", "The proper time to draw "
               "attention to a mistake is when it occurs or is first noticed."),
        ),
        (
            "Undone: {event}. The table is back as it was before it.",
            "An undo cannot itself be undone: enter the event again if it was right.",
        ),
        "the dealer console (undo key)",
        catalogue=False,
    ),
    Entry(
        "EVENT_OUT_OF_PLACE",
        "An event the table cannot apply now",
        "warning",
        (
            _c(BLINDS, "intro", "The button moves one seat clockwise after a deal ends"),
        ),
        ("{detail}", "Feltguard has not applied it."),
        "the dealer console",
        catalogue=False,
    ),
    Entry(
        # Raised by the daemon, never by the core: the last line of defence when applying an
        # event fails inside Feltguard (docs/reliability.md). The game goes on; the event is for
        # surveillance to review, as a delayed decision is.
        "CORE_FAULT",
        "Feltguard could not judge an event",
        "error",
        (
            _c("Section 2, House Policies, Decision-Making", "7", "To keep the action moving, "
               "it is possible that a game may be asked to continue even though a decision is "
               "delayed."),
        ),
        (
            "Feltguard could not judge {event} (fault {digest}); it is journaled, skipped, and "
            "the table goes on.",
            "Deal on: the monitor judges the following events from the state before this one.",
            "Surveillance reviews this event (journal seq {seq}) and the floor rules on the hand "
            "if it matters.",
        ),
        "the daemon",
        catalogue=False,
    ),
)

# The stud and draw families' entries live beside this table (catalogue_games.py), and so do
# the cards that leave the table (catalogue_cards_lost.py), the deck's (catalogue_deck.py) and
# the entries of the dealer's and floor's keys (catalogue_keys.py) and the card readers' health
# (catalogue_devices.py).
CATALOGUE: Mapping[str, Entry] = {
    e.code: e for e in (*_ENTRIES, *GAME_ENTRIES, *CARDS_LOST_ENTRIES, *DECK_ENTRIES,
                        *KEY_ENTRIES, *DEVICE_ENTRIES, *CHIP_ENTRIES)}

WSOP = "wsop-2009-live-action-rules.md"
AZW = "azwine-tour-tournament-rules.txt"
RRH = "roberts-rules-home.txt"
JPN = "jamies-poker-notes.md"

# Where the rulebooks disagree on a remedy, the house setting's value picks the rule a finding
# cites and the remedy it gives (research/irregularities.md Part 2; docs/house-rules.md). The
# entries above hold Robert's remedy, the default. (code, setting value) -> (rule, remedy).
REMEDY_BY_SETTING: Mapping[tuple[str, str], tuple[Citation, tuple[str, ...]]] = {
    **KEY_REMEDY_BY_SETTING,  # the keys' entries (catalogue_keys.py)
    # D-05, the four-card flop
    ("FLOP_TOO_MANY_CARDS", "scramble_top_is_turn_burn"): (
        cite("Section 5, Holdem", "3", "To redeal the flop, the four cards will be scrambled "
             "and the top card will be exposed and placed on top of the deck as the burn for "
             "the turn card.", file=WSOP),
        ("The flop has {count} cards: {cards}.",
         "Scramble the four cards face down; expose the top one and put it on top of the deck: "
         "it is the burn for the turn. The other three are the flop.",
         "After the flop betting, burn that card and turn the turn card."),
    ),
    ("FLOP_TOO_MANY_CARDS", "floor_picks_turn_burn"): (
        cite("Four-Card Flop (TDA #36)", "1", "the dealer shall scramble the 4 cards face down. "
             "A floorperson will be called to randomly select one card to be used as the next "
             "burn card and the remaining 3 cards will become the flop.", file=AZW),
        ("The flop has {count} cards: {cards}.",
         "Scramble the four cards face down and call the floor: the floorperson picks one at "
         "random, set aside as the next burn card. The other three are the flop.",
         "After the flop betting, that card is the burn for the turn; then turn the turn card."),
    ),
    # D-08, the flop dealt without a burn
    ("FLOP_BURN_ERROR", "floor_picks_burn"): (
        cite("Section 3, General Poker Rules (TDA RP-5)", "16(5)", "the floor should randomly "
             "select one of the three cards "
             "as the burn and using the remaining 2 cards as part of the flop. The forth card "
             "from the stub completes the flop", file=AZW),
        ("{detail}",
         "Turn the flop face down and mix it; the floor picks one of the three at random as the "
         "burn, the other two stay on the board, and the next card off the deck completes the "
         "flop.",
         "Play on: the turn and the river are dealt as usual."),
    ),
    # D-03, only the first hole card exposed is a misdeal (RRH)
    ("HOLECARD_EXPOSED_SINGLE_REPLACE", "first"): (
        cite("Section 5, Hold'em", "1", "If the first holecard dealt is exposed, a misdeal "
             "results. The dealer will retrieve the card, reshuffle, and recut the cards. If "
             "any other holecard is exposed due to a dealer error, the deal continues. The "
             "exposed card may not be kept.", file=RRH),
        ("The deal continues (only the first hole card exposed is a misdeal); seat {seat} may "
         "not keep {card}.",
         "After every player has a full starting hand, deal the top card of the deck to seat "
         "{seat} as its replacement.",
         "Put {card} in the burn: it is the burncard for the flop (no other card is burned "
         "before the flop)."),
    ),
    # D-04, at lowball WSOP keeps the misdeal its general list drops
    ("MISDEAL_DEALT_TO_EMPTY_OR_INELIGIBLE_SEAT", "killed_except_lowball"): (
        cite("Section 11, Lowball", "2(h)", "Cards have been dealt to an empty seat or a player "
             "not entitled to a hand.", file=WSOP),
        ("Card {card} went to seat {seat}, which is not dealt in this hand ({why}): at lowball "
         "this is a misdeal (Section 11, rule 2(h)).", *REDEAL),
    ),
    # D-12, the cards removed for a premature stud street
    ("STUD_PREMATURE_STREET", "aside_shuffled_with_stub_if_short"): (
        cite("Section 8, Rules of Seven-Card Stud", "14", "The removed cards are held off to "
             "the side in the event the dealer runs out of cards and will be shuffled in along "
             "with the remaining stub (no muck or burn cards should be reshuffled in this "
             "case).", file=WSOP),
        ("{card} was dealt for {street} street while the {betting} street betting was open.",
         "Put the premature card(s) aside (segregated from play); finish the {betting} street "
         "betting.",
         "Then put one more card aside for each player still in, burn, and deal {street} "
         "street. The cards set aside are used only if the deck runs out: then they are "
         "shuffled in with the remaining stub (no muck or burn cards)."),
    ),
    ("STUD_PREMATURE_STREET", "reshuffled_at_final_street"): (
        cite("Section 3, General Poker Rules (TDA RP-5)", "16(4)", "For a premature card in "
             "stud, additional cards are dealt and placed to the side along with the premature "
             "card(s) to represent an entire round of cards for the remaining live players.",
             file=AZW),
        ("{card} was dealt for {street} street while the {betting} street betting was open.",
         "Put the premature card(s) aside, with more cards from the deck, so that one card for "
         "each player still in is set aside; finish the {betting} street betting.",
         "Then burn and deal {street} street as normal. When the final street is reached, the "
         "cards set aside go back into the stub: reshuffle it, then deal the final street."),
    ),
    # D-15, a stud down card dealt face up
    ("STUD_EXPOSED_HOLECARD_TOURNAMENT_MISDEAL", "misdeal"): (
        cite("Section 5, Holdem, Misdeals (TDA #34)", "1(e)", "in stud, if any of the players' "
             "2 down cards are exposed by dealer error", file=AZW),
        ("Seat {seat}'s down card {card} was dealt face up: misdeal (any down card exposed by "
         "the dealer).",
         "Declare a misdeal: every ante goes back; reshuffle and redeal."),
    ),
    ("STUD_ONE_HOLECARD_EXPOSED", "third_card_down"): (
        cite("Section 8, Seven-Card Stud", "1", "If your first or second holecard is "
             "accidentally turned up by the dealer, then your third card will be dealt down."),
        ("Seat {seat}'s down card {card} was dealt face up: not a misdeal (the house deals the "
         "third card down, in tournaments too).",
         "Deal seat {seat}'s third card face down, so the hand has two down and one up.",
         "{card} counts as the seat's upcard for the bring-in."),
    ),
    # D-16, stud: not enough cards for seventh street
    ("STUD_INSUFFICIENT_CARDS", "stub_muck_and_burns"): (
        cite("Seven Card Stud", "9", "If there aren't enough cards left to deal each active "
             "player a river card, then all remaining cards plus mucked cards plus burned cards "
             "are reshuffled.", file=JPN),
        ("{left} cards are left for {players} players on seventh street (and a burn).",
         "Reshuffle all the remaining cards with the muck and the burn cards; burn only if "
         "there is a card to spare, then deal the seventh-street cards.",
         "If there are still not enough, reshuffle those cards, the muck and the burns again, "
         "burn one and turn one common card face up in the centre: the player high with it "
         "starts the last round."),
    ),
    # D-17, draw: the deck runs out on the draw
    ("DRAW_DECK_EXHAUSTED", "muck_and_burns"): (
        cite("Five Card Draw", "3", "If the dealer runs out of cards when replacing a player's "
             "cards, all discarded (mucked) cards and burned cards are reshuffled. This doesn't "
             "include the discarded cards of the current player waiting to receive the "
             "replacements.", file=JPN),
        ("{left} cards are left in the stub and seat {seat} asks for {asked}.",
         "Reshuffle the discards (the muck) and the burn cards, not the cards this player is "
         "discarding now; burn a card and complete the draws from them."),
    ),
    # D-21, a hand with the wrong number of cards: no exceptions (AZW)
    ("STUD_HAND_CARD_COUNT", "no_exceptions"): (
        cite("Section 3, Dead Hands", "1(d)", "The hand does not contain the proper number of "
             "cards for that particular game", file=AZW),
        ("Seat {seat} holds {held} cards at the showdown: the hand is dead (no exception for "
         "a hand missing its seventh card).",
         "Kill it: it takes no part in the pot."),
    ),
    ("DRAW_SHORT_HAND_PREDRAW", "no_exceptions"): (
        cite("Section 3, Dead Hands", "1(d)", "The hand does not contain the proper number of "
             "cards for that particular game", file=AZW),
        ("Seat {seat} is {missing} card(s) short after the deal and the betting has begun.",
         "The hand is dead (no exception for a hand short before the draw): kill it; it takes "
         "no part in the pot."),
    ),
    # D-22, a burn error on the last round when an all-in left no betting
    ("BURN_MISSING_OR_EXTRA", "if_intact"): (
        cite(IRREG, "16", "On the last round, if there was no betting because a player was "
             "all-in, the error should be corrected if discovered before the pot has been "
             "awarded, provided the deck stub, boardcards, and burncards are all sufficiently "
             "intact to determine the proper replacement card."),
        ("{detail}",
         "No betting is left (a player is all-in): before the pot is awarded, {fix}",
         "Only if the stub, the board and the burn cards are still intact enough to tell the "
         "proper replacement card; if they are not, the error is not corrected: call the "
         "floor (Irregularities, rule 16)."),
    ),
    **CARDS_LOST_REMEDIES,
    ("BURN_MISSING_OR_EXTRA", "before_award"): (
        cite("Section 3, Irregularities", "15", "On the last round, if there was no betting "
             "because a player was all-in, the error should be corrected if discovered before "
             "the pot has been awarded.", file=WSOP),
        ("{detail}",
         "No betting is left (a player is all-in): before the pot is awarded, {fix}",
         "The error is corrected whenever it is found before the pot is awarded "
         "(Irregularities, rule 15)."),
    ),
    **DECK_REMEDY_BY_SETTING,
}

# The ordinals the exposed-card remedy names.
ORDINALS = ("first", "second")


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(template) if name}


class _Fill(dict[str, str]):
    """format_map helper: a missing key renders as a visible gap, never raises."""

    def __missing__(self, key: str) -> str:
        return "?"


def make_finding(
    code: str,
    seq: int,
    *,
    seats: Sequence[int] = (),
    cards: Sequence[str] = (),
    message: str = "",
    fill: Mapping[str, object] | None = None,
    expect: tuple[tuple[str, str | None], ...] = (),
    setting: str = "",
) -> Finding:
    """Build the Finding for ``code`` with the remedy filled in for this case.

    ``fill`` supplies the template names; ``seat``/``seats``/``card``/``cards`` default to the
    finding's own seats and cards. ``setting``: the house setting's value where the books
    disagree on this remedy (``REMEDY_BY_SETTING``; anything else: Robert's)."""
    entry = CATALOGUE[code]
    rule, steps = REMEDY_BY_SETTING.get((code, setting), (entry.rules[0], entry.remedy))
    values = _Fill()
    if seats:
        values["seat"] = str(seats[0])
    values["seats"] = ", ".join(str(s) for s in seats) or "none"
    if cards:
        values["card"] = cards[0]
    values["cards"] = ", ".join(cards) or "none"
    for key, value in (fill or {}).items():
        values[key] = str(value)
    remedy = tuple(step.format_map(values) for step in steps)
    if not message:
        message = remedy[0]
    return Finding(
        code=code,
        seq=seq,
        severity=entry.severity,
        title=entry.title,
        message=message,
        rule=rule,
        remedy=remedy,
        seats=tuple(seats),
        cards=tuple(cards),
        expect=expect,
    )


def template_fields(code: str) -> set[str]:
    """The names a code's remedy templates use (tests check every one is filled)."""
    variants = [steps for (c, _), (_, steps) in REMEDY_BY_SETTING.items() if c == code]
    return set().union(*(_fields(step) for steps in (CATALOGUE[code].remedy, *variants)
                         for step in steps))
