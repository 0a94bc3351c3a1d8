"""Catalogue entries for what the dealer's and floor's keys report (issue 11): deck handling the
antennas cannot see (the shuffle, the cut, the cut card, a fouled stub), an absent tournament
player's hand, and the draw's questions (a changed draw request, how many cards a seat drew).

Kept apart from ``catalogue.py`` (which concatenates ``KEY_ENTRIES``) so that tables added in
parallel do not collide. Robert's Rules v11 have no rule on the shuffle, the cut or the cut card
(only the glossary's CUT and CUT-CARD): those entries cite Robert's home-game rules and the TDA
tournament rules, the books that have one.
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.rules.findings.entry import Entry, cite
from controller.rules.findings.finding import Citation
from controller.rules.findings.rulebooks import AZW, RRH, WSOP

SHUFFLE_CUT = "Section 3, The Shuffle and Cut"
AZW_HAND = "How to Deal No Limit, The Hand"
TOURNAMENTS = "Section 15, Tournaments"
LOWBALL = "Section 11, Lowball"
DRAW_HIGH = "Section 12, Draw High"

# The complaint window every shuffle and cut finding carries (RRH Section 3 r.4).
_COMPLAINT = cite(SHUFFLE_CUT, "4", "Any complaint about the shuffle, cut, or other preparation "
                  "connected with dealing must be made before the player has looked at his hand "
                  "or betting action has started.", file=RRH)

KEY_ENTRIES: tuple[Entry, ...] = (
    Entry(
        "SHUFFLE_INSUFFICIENT",
        "The deck was not shuffled enough",
        "warning",
        (
            cite(SHUFFLE_CUT, "2", "The deck must be riffled a minimum of four times. The cut "
                 "must leave a minimum of four cards in each portion.", file=RRH),
            _COMPLAINT,
        ),
        (
            "The dealer's key: the deck was not shuffled properly (at least four riffles).",
            "{when}",
        ),
        "dealer or floor key (deck.fault shuffle_insufficient); not seen by the antennas",
    ),
    Entry(
        "CUT_MISSING_OR_BY_WRONG_PLAYER",
        "The deck was not cut, or not by the right player",
        "warning",
        (
            cite(SHUFFLE_CUT, "1", "The pack must be shuffled and cut before the cards are "
                 "dealt.", file=RRH),
            cite(AZW_HAND, "3", "The dealer shall offer a cut to the player to the left of the "
                 "button.", file=AZW),
            _COMPLAINT,
        ),
        (
            "The dealer's key: {what}.",
            "{when}",
        ),
        "dealer or floor key (deck.fault cut_missing, cut_wrong_player); not seen by the "
        "antennas",
    ),
    Entry(
        "BOTTOM_CARD_UNPROTECTED",
        "The bottom card of the deck was not protected",
        "warning",
        (
            cite(SHUFFLE_CUT, "3", "The bottom of the deck should be protected so nobody can "
                 "see the bottom card. This is done by using a cut-card.", file=RRH),
            cite(AZW_HAND, "4", "The dealer shall use a cut card if required to do so by the "
                 "house.", file=AZW),
            _COMPLAINT,
        ),
        (
            "The dealer's key: the bottom card of the deck could be seen (no cut card).",
            "Put the cut card under the deck (or the stub) now, so nobody can see the bottom "
            "card.",
            "{when}",
        ),
        "dealer or floor key (deck.fault bottom_card_exposed); not seen by the antennas",
    ),
    Entry(
        "DECK_STUB_FOULED",
        "The deck stub was fouled during the deal",
        "error",
        (
            cite("Section 3, Irregularities", "17", "If the deck stub gets fouled for some "
                 "reason, such as the dealer believing the deal is over and dropping the deck, "
                 "the deal must still be played out, and the deck reconstituted in as fair a way "
                 "as possible."),
        ),
        (
            "The dealer's key: the stub was fouled ({cards_out} cards dealt so far).",
            "Do not declare a misdeal: the deal must still be played out.",
            "Reconstitute the stub in as fair a way as possible (face down, no card seen; if "
            "cards were mixed or seen, scramble and shuffle the stub and cut it), then go on "
            "dealing where the deal stands: {expect}",
        ),
        "dealer or floor key (deck.fault stub_fouled); not seen by the antennas",
    ),
    Entry(
        "ABSENT_PLAYER_TOURNAMENT",
        "An absent tournament player's hand is killed",
        "warning",
        (
            cite(TOURNAMENTS, "13", "A player must be at the table by the time all players have "
                 "their complete starting hands in order to have a live hand for that deal. (The "
                 "dealer has been instructed to kill the hands of all absent players immediately "
                 "after dealing each player a starting hand.)"),
            cite(TOURNAMENTS, "7", "A no-show or absent player is always dealt a hand. That "
                 "player's stack will post chips for blinds and antes, and have the forced "
                 "lowcard bet put into the pot at stud."),
        ),
        (
            "Every player has a starting hand and seat(s) {seats} are absent: their hands are "
            "dead.",
            "Kill them now: put their cards in the muck. Their blinds, antes and any forced "
            "bet stay in the pot.",
        ),
        "dealer's away key (player.away) and the seat's starting cards (shoe, zone antennas)",
    ),
    Entry(
        "DRAW_CHANGE_NUMBER_REQUESTED",
        "A player changed the number of cards asked for on the draw",
        "warning",
        (
            cite(LOWBALL, "11", "You may change the number of cards you wish to draw, provided: "
                 "(a) No card has been dealt off the deck in response to your request (including "
                 "the burncard). (b) No player has acted, in either the betting or indicating "
                 "the number of cards to be drawn, based on the number of cards you have "
                 "requested."),
            cite(DRAW_HIGH, "7", "You may change the number of cards you wish to draw, "
                 "provided:"),
        ),
        (
            "Seat {seat} asked for {new} card(s) after asking for {old}.",
            "{ruling}",
        ),
        "draw requests at the dealer console (action draw); cards off the shoe since the "
        "request",
    ),
    Entry(
        "DRAW_CARDS_DRAWN_QUERY",
        "How many cards a player drew can no longer be answered",
        "warning",
        (
            cite(LOWBALL, "13", "If you are asked how many cards you drew by another active "
                 "player, you are obligated to respond until there has been action after the "
                 "draw, and the dealer is also obligated to respond. Once there is any action "
                 "after the draw, you are no longer obliged to respond and the dealer cannot "
                 "respond."),
            cite(DRAW_HIGH, "9", "Once there is any action after the draw, you are no longer "
                 "obliged to respond and the dealer cannot respond."),
        ),
        (
            "There has been action after the draw: the dealer cannot say how many cards seat "
            "{seat} drew.",
            "Do not answer; seat {seat} is no longer obliged to answer either.",
        ),
        "draw requests at the dealer console (the draw log per seat); the question "
        "(draw.query)",
    ),
)

# Where the books disagree on one of these remedies: (code, house setting value) -> (rule,
# remedy), merged into ``catalogue.REMEDY_BY_SETTING``. D-28, an absent stud player's window
# card (the house setting absent_hand_kill).
KEY_REMEDY_BY_SETTING: Mapping[tuple[str, str], tuple[Citation, tuple[str, ...]]] = {
    ("ABSENT_PLAYER_TOURNAMENT", "stud_window_card_until_turn"): (
        cite("Section 8, Seven-Card Stud", "8", "the dealer is instructed to kill the down "
             "cards of any absent player as soon as all the players have received their entire "
             "starting hands, making sure to leave the window card in place until it is that "
             "seat's turn to act", file=WSOP),
        ("Every player has a starting hand and seat(s) {seats} are absent: their down cards "
         "are dead.",
         "Kill their down cards now (into the muck) and leave each window card in place until "
         "it is that seat's turn to act; then kill the hand. Their antes and any forced bet "
         "stay in the pot."),
    ),
}
