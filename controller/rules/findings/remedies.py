"""Remedies by house setting: where the rulebooks disagree on a remedy, the house setting's value
picks the rule a finding cites and the remedy it gives (research/irregularities.md Part 2;
docs/house-rules.md). The catalogue's entries hold Robert's remedy, the default."""

from __future__ import annotations

from collections.abc import Mapping

from controller.rules.findings.betting import RAISE_CAPPED_REMEDY
from controller.rules.findings.cards_lost import CARDS_LOST_REMEDIES
from controller.rules.findings.deck import DECK_REMEDY_BY_SETTING
from controller.rules.findings.entry import cite
from controller.rules.findings.finding import Citation
from controller.rules.findings.keys import KEY_REMEDY_BY_SETTING
from controller.rules.findings.rulebooks import AZW, IRREG, JPN, REDEAL, RRH, WSOP

# Where the rulebooks disagree on a remedy, the house setting's value picks the rule a finding
# cites and the remedy it gives (research/irregularities.md Part 2; docs/house-rules.md). The
# entries above hold Robert's remedy, the default. (code, setting value) -> (rule, remedy).
REMEDY_BY_SETTING: Mapping[tuple[str, str], tuple[Citation, tuple[str, ...]]] = {
    **KEY_REMEDY_BY_SETTING,  # the keys' entries (keys.py)
    # Fixed limit, the raise cap kept heads-up: WSOP's round that began three-handed, and a
    # tournament until its last two players (the entry cites RR Section 3 r.4, the cap itself).
    # The tournament rule is RR Section 15 r.23, word for word AZW's Section 15 r.23 too: the
    # books agree, so Robert's, the default, is cited under every profile.
    ("RAISE_CAPPED", "starts"): (
        cite("Section 3, Betting and Raising", "4", "If the round begins with more than two "
             "players and becomes heads-up during the middle of the round the raise maximum "
             "still applies.", file=WSOP),
        RAISE_CAPPED_REMEDY,
    ),
    ("RAISE_CAPPED", "tournament"): (
        cite("Section 15, Tournaments", "23", "The limitation on the number of raises at limit "
             "poker is also applied to heads-up situations (except the last two players in a "
             "tournament are exempted from a limitation on raises)."),
        RAISE_CAPPED_REMEDY,
    ),
    ("RAISE_CAPPED", "becomes"): (
        cite("Section 3, Betting and Raising", "5", "Once the raising is capped on a betting "
             "round, it cannot be uncapped by a subsequent fold that leaves two players "
             "heads-up."),
        RAISE_CAPPED_REMEDY,
    ),
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
