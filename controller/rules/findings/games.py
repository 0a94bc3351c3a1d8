"""Finding codes of the stud and draw families (research/irregularities.md §1.M, §1.N), as data.

Same shape and conventions as ``catalogue.py`` (which merges these into ``CATALOGUE``): the
title never names a card, remedy steps are templates filled per case, the first citation is the
one a finding carries.
"""

from __future__ import annotations

from controller.rules.findings.entry import Entry, cite
from controller.rules.findings.rulebooks import WSOP

IRREG = "Section 3, Irregularities"
STUD = "Section 8, Seven-Card Stud"
LOWBALL = "Section 11, Lowball"
DRAW_HIGH = "Section 12, Draw High"

GAME_ENTRIES: tuple[Entry, ...] = (
    # --- remedies followed through (every family) ---------------------------------------------
    Entry(
        "REMEDY_NOT_FOLLOWED",
        "The remedy of an earlier finding was not followed",
        "error",
        (
            cite(IRREG, "16", "subsequent cards dealt should be those that would have come if "
                 "no error had occurred."),
        ),
        (
            "{detail}",
            "The remedy of {after} says: {wanted}. Put the card where the remedy puts it, or "
            "call the floor.",
        ),
        "shoe reader; zone antennas; the betting feed",
        catalogue=False,
    ),
    # --- every family: the deck -------------------------------------------------------------
    Entry(
        "JOKER_IN_NON_JOKER_GAME",
        "A joker in a game played without it",
        "error",
        (
            cite(IRREG, "8", "A joker that appears in a game where it is not used is treated as "
                 "a scrap of paper. Discovery of a joker does not cause a misdeal."),
            cite("Section 3, Dead Hands", "1(e)", "You act on a hand with a joker as a holecard "
                 "in a game not using a joker."),
        ),
        (
            "The joker left the shoe: it is a scrap of paper, not a card (no misdeal).",
            "Take it out of play; it is replaced as a boxed card: the next card off the deck "
            "goes to {where}, and the deal goes on from there.",
            "A player who acts on a hand holding the joker has a dead hand (Dead Hands, "
            "rule 1(e)); Feltguard flags it the moment it leaves the shoe, before anyone acts.",
        ),
        "shoe reader (the joker's tag in the deck registry)",
    ),
    # --- stud (Section 8; razz Section 9 r.1 and stud high-low Section 10 r.1 inherit it) ---
    Entry(
        "STUD_ONE_HOLECARD_EXPOSED",
        "Stud: a down card dealt face up",
        "warning",
        (
            cite(STUD, "1", "If your first or second holecard is accidentally turned up by the "
                 "dealer, then your third card will be dealt down."),
            cite("Section 8, Rules of Seven-Card Stud", "1", file=WSOP),
        ),
        (
            "Seat {seat}'s down card {card} was dealt face up: not a misdeal (cash game).",
            "Deal seat {seat}'s third card face down, so the hand has two down and one up.",
            "{card} counts as the seat's upcard for the bring-in.",
        ),
        "shoe orientation flag or the dealer's exposed key; seat antennas",
    ),
    Entry(
        "STUD_BOTH_HOLECARDS_EXPOSED",
        "Stud: both down cards dealt face up",
        "error",
        (
            cite(STUD, "1", "If both holecards are dealt up, you have a dead hand and receive "
                 "your ante back."),
        ),
        (
            "Both of seat {seat}'s down cards were dealt face up ({cards}): seat {seat} has a "
            "dead hand.",
            "Give seat {seat} its ante back ({ante}); deal it no more cards; kill its cards.",
            "If its first exposed card would have been the low card, action starts with the "
            "first hand to its left (Section 8, rule 1).",
        ),
        "shoe orientation flag or the dealer's exposed key; seat antennas",
    ),
    Entry(
        "STUD_EXPOSED_HOLECARD_TOURNAMENT_MISDEAL",
        "Stud: a down card dealt face up is a misdeal (the tournament rule)",
        "misdeal",
        (
            cite(STUD, "1", "(In tournament play, if a downcard is dealt faceup, a misdeal is "
                 "called.)"),
            cite("Section 15, Tournaments", "32", "At stud, if a downcard on the initial hand is "
                 "dealt faceup, a misdeal is called."),
        ),
        (
            "Seat {seat}'s down card {card} was dealt face up in a tournament: misdeal.",
            "Declare a misdeal: every ante goes back; reshuffle and redeal.",
        ),
        "shoe orientation flag or the dealer's exposed key; seat antennas",
    ),
    Entry(
        "STUD_WRONG_LOWCARD_DESIGNATED",
        "Stud: the bring-in by the wrong player",
        "error",
        (
            cite(STUD, "5", "When the wrong person is designated as low and bets, if the next "
                 "player has not yet acted, the action will be corrected to the real lowcard, "
                 "who now must bet."),
            cite(STUD, "2", "The first round of betting starts with a forced bet by the lowest "
                 "upcard by suit."),
        ),
        (
            "Seat {seat} brought it in, but seat {real} has the {which} card ({card}).",
            "Seat {seat} takes back its wager; seat {real} must bring it in (Feltguard has not "
            "applied seat {seat}'s post).",
            "Had the next player already acted, the wager would stand and seat {real} would "
            "have no obligation (Section 8, rule 5).",
        ),
        "seat antennas (upcards); the betting feed",
    ),
    Entry(
        "STUD_BURN_ERROR",
        "Stud: no burn or an extra burn",
        "error",
        (
            cite(STUD, "13", "If the dealer burns two cards for one round or fails to burn a "
                 "card, the cards will be corrected, if at all possible, to their proper "
                 "positions."),
        ),
        (
            "{detail}",
            "Correct it on {street} street: {fix}.",
            "On the final down card, a card the player has looked at or mixed with the hole "
            "cards must be accepted (Section 8, rule 13).",
        ),
        "shoe reader; burn and seat antennas",
    ),
    Entry(
        "STUD_FOLDED_SEAT_KEEPS_RECEIVING",
        "Stud: a seat that folded with no wager was passed over",
        "error",
        (
            cite(STUD, "9", "If a hand is folded when there is no wager, that seat will "
                 "continue to receive cards until the hand is killed as a result of a bet (so "
                 "the fold does not affect who gets the cards to come)."),
        ),
        (
            "Seat {seat} folded when there was no wager: it still receives cards until a bet "
            "kills the hand, but {card} went to seat {landed}.",
            "Move {card} to seat {seat}; the next card goes to seat {landed}, and so on in "
            "order.",
        ),
        "seat antennas; the betting feed (a fold with nothing to call)",
    ),
    Entry(
        "STUD_PREMATURE_FINAL_DOWNCARD_KEPT",
        "Stud: a premature final down card the player must keep",
        "warning",
        (
            cite(STUD, "14", "If the prematurely dealt card is the final downcard and has been "
                 "looked at or intermingled with the player's other holecards, the player must "
                 "keep the card, and on sixth street betting may not bet or raise"),
            cite("Section 8, Rules of Seven-Card Stud", "14", "on sixth street that player may "
                 "not bet or raise but can only call during that betting round", file=WSOP),
        ),
        (
            "Seat {seat} looked at {card}, its final down card dealt before the sixth-street "
            "betting was over, or mixed it with its hole cards: it keeps the card as its "
            "seventh card.",
            "On the sixth-street betting seat {seat} may not bet or raise (it may check, call "
            "or fold).",
            "On seventh street deal the other players their cards; seat {seat} gets none.",
        ),
        "seat antennas (the premature card); the dealer's key card.kept; the betting feed",
    ),
    Entry(
        "STUD_PREMATURE_STREET",
        "Stud: a street dealt before the betting was complete",
        "error",
        (
            cite(STUD, "14", "If the dealer burns and deals one or more cards before a round of "
                 "betting has been completed, the card(s) must be eliminated from play."),
            cite(STUD, "14", "After the betting for that round is completed, an additional card "
                 "for each remaining player still active in the hand is also eliminated from "
                 "play"),
        ),
        (
            "{card} was dealt for {street} street while the {betting} street betting was open.",
            "Put the premature card(s) aside (eliminated from play); finish the {betting} "
            "street betting.",
            "Then put one more card aside for each player still in, burn, and deal {street} "
            "street. The cards set aside are used only if the deck runs out.",
        ),
        "shoe reader; seat, burn and aside antennas; the betting feed",
    ),
    Entry(
        "STUD_INSUFFICIENT_CARDS",
        "Stud: not enough cards left for seventh street",
        "warning",
        (
            cite(STUD, "15", "If there are not enough cards left in the deck for all players, "
                 "all the cards are dealt except the last card, which is mixed with the "
                 "burncards"),
            cite(STUD, "15", "The dealer will burn a card and turn one card faceup in the "
                 "center of the table as a common card that plays in everyone's hand."),
        ),
        (
            "{left} cards are left for {players} players on seventh street (and a burn).",
            "Deal all the cards except the last; mix the last card with the burn cards (and any "
            "cards set aside), scramble, cut, burn again and deliver the remaining down cards.",
            "If there are not as many cards as players still needing one, do not burn; if there "
            "still will not be enough, burn one and turn one common card face up in the centre: "
            "the player high with it starts the last round.",
        ),
        "shoe reader (cards drawn against the deck size); the betting feed",
    ),
    Entry(
        "STUD_FINAL_CARD_FACEUP",
        "Stud: the last card dealt face up",
        "warning",
        (
            cite(STUD, "17", "If the dealer turns the last card faceup to any player, the hand "
                 "now high on the board using all the upcards will start the action."),
            cite(STUD, "17(b)", "If there are only two players remaining and the first player's "
                 "final downcard is dealt faceup, the second player's final downcard will also "
                 "be dealt faceup"),
        ),
        (
            "Seat {seat}'s last card {card} was dealt face up.",
            "Deal the remaining last cards {rest} (seats {others}); the hand high on the board "
            "using all the upcards starts the action.",
            "With more than two players, seat {seat} may declare all-in before the betting "
            "starts (Section 8, rule 17(a)).",
        ),
        "shoe orientation flag or the dealer's exposed key; the betting feed",
    ),
    Entry(
        "STUD_ALLIN_FINAL_CARD_FACEUP",
        "Stud: the last card to an all-in player dealt face up",
        "warning",
        (
            cite(STUD, "16", "if the final holecard to such a player is dealt faceup, the card "
                 "must be kept, and the other players receive their normal card."),
        ),
        (
            "Seat {seat} is all-in and its last card {card} was dealt face up.",
            "Seat {seat} keeps it; the other players receive their last card as normal.",
        ),
        "shoe orientation flag or the dealer's exposed key; the betting feed",
    ),
    Entry(
        "STUD_HAND_CARD_COUNT",
        "Stud: a hand without seven cards at the showdown",
        "error",
        (
            cite(STUD, "18", "A hand with more than seven cards is dead. A hand with less than "
                 "seven cards at the showdown is dead, except any player missing a seventh card "
                 "may have the hand ruled live."),
        ),
        (
            "Seat {seat} holds {held} cards at the showdown: {ruling}.",
            "Call the floor if the hand is to be ruled live.",
        ),
        "seat antennas (cards per seat)",
    ),
    # --- draw (Section 11 lowball, Section 12 draw high; WSOP Section 12 badugi) ----------
    Entry(
        "DRAW_PREDRAW_EXPOSED_CARD",
        "Draw: a card exposed on the deal",
        "warning",
        (
            cite(LOWBALL, "8", "Before the draw, whether an exposed card must be taken depends "
                 "on the form of lowball being played"),
            cite(DRAW_HIGH, "4", "Any card that is exposed by the dealer before the draw must "
                 "be kept."),
            cite("Section 11, Ace-to-Five Lowball", "3", "an exposed card of seven or under "
                 "must be taken, and an exposed card higher than a seven must be replaced after "
                 "the deal has been completed."),
            cite("Section 11, Deuce-to-Seven Lowball", "2", "Before the draw, an exposed card of "
                 "7, 5, 4, 3, or 2 must be taken."),
            cite("Section 12, Badugi", "6", "An exposed card of A, 2, 3, or, 4 must be taken on "
                 "the deal only", file=WSOP),
        ),
        (
            "{card} was exposed by the dealer on the deal ({game}).",
            "By this game's rule: {what}.",
            "The player never has an option (Section 11, rule 8).",
        ),
        "shoe orientation flag or the dealer's exposed key; seat antennas",
    ),
    Entry(
        "DRAW_EXPOSED_ON_DRAW",
        "Draw: a card exposed on the draw",
        "warning",
        (
            cite(LOWBALL, "9", "On the draw, an exposed card cannot be taken. The draw is "
                 "completed to each player in order, and then the exposed card is replaced."),
            cite(DRAW_HIGH, "8", "On the draw, an exposed card cannot be taken."),
        ),
        (
            "{card} was exposed on the draw to seat {seat}: it cannot be taken.",
            "Put {card} in the muck; complete the draw to the other players in order (seats "
            "{others}), then give seat {seat} its replacement.",
        ),
        "shoe orientation flag or the dealer's exposed key; seat and muck antennas",
    ),
    Entry(
        "DRAW_FIVE_CARDS_RULE",
        "Draw: five consecutive cards to one player",
        "warning",
        (
            cite(LOWBALL, "10", "A player may draw up to four consecutive cards. If a player "
                 "wishes to draw five new cards, four are dealt right away, and the fifth card "
                 "after everyone else has drawn cards."),
        ),
        (
            "Seat {seat} was dealt five consecutive cards (the fifth, {card}, should have come "
            "after everyone else drew).",
            "The draw goes on; deal the rest in order. If the last player draws five: four, a "
            "burn, then the fifth (Section 11, rule 10).",
        ),
        "shoe reader; seat antennas; the draw requests",
    ),
    Entry(
        "DRAW_SHORT_HAND_PREDRAW",
        "Draw: fewer cards than the game's hand before the draw",
        "warning",
        (
            cite(DRAW_HIGH, "5", "If action has been taken, a player with fewer than five cards "
                 "may draw the number of cards necessary to complete a five-card hand."),
            cite(DRAW_HIGH, "5", "The button may receive the fifth card even if action has "
                 "taken place."),
            cite(LOWBALL, "12", "Before the draw, if you have fewer than five cards in your "
                 "hand, you may receive additional cards, provided no action has been taken by "
                 "the first player to act"),
        ),
        (
            "Seat {seat} is {missing} card(s) short after the deal and the betting has begun.",
            "{now}.",
            "A hand short before the draw is live (Section 3, Dead Hands, rule 1(d)).",
        ),
        "seat antennas (cards per seat); the betting feed",
    ),
    Entry(
        "DRAW_WRONG_COUNT_AFTER_DRAW",
        "Draw: a wrong number of cards after the draw",
        "error",
        (
            cite(LOWBALL, "12", "Five cards constitute a playing hand; more or fewer than five "
                 "cards after the draw constitutes a fouled hand."),
            cite(DRAW_HIGH, "5", "More or fewer than five cards after the draw constitutes a "
                 "fouled hand."),
        ),
        (
            "Seat {seat} holds {held} cards after its draw; the hand is {size} cards.",
            "Seat {seat}'s hand is fouled: it is dead. Kill it; it takes no part in the pot.",
        ),
        "seat and muck antennas (cards per seat, discards); the draw requests",
    ),
    Entry(
        "DRAW_DECK_EXHAUSTED",
        "Draw: not enough cards left for the draw",
        "warning",
        (
            cite("Section 12, Badugi", "10", "the discards from the previous rounds and any "
                 "mucked cards will be shuffled together to complete the remaining draws.",
                 file=WSOP),
        ),
        (
            "{left} cards are left in the stub and seat {seat} asks for {asked}.",
            "Shuffle the discards of the earlier rounds and the muck together (not the cards "
            "this player is discarding now) and complete the draws from them.",
        ),
        "shoe reader (cards drawn against the deck size); the draw requests",
    ),
)
