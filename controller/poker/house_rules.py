"""House rules for the table layer: named settings, the rulebook profiles built from them, and
``settings_for`` which picks a profile and applies overrides.

Where the rulebooks disagree (shared/research/button-blinds-betting.md Part 5) or leave a choice to
the house, the choice is a named setting here; each setting's field carries its allowed values and
the rules they come from, so adding a setting is adding one field (docs/house-rules.md lists every
setting, its values and the value in each profile). Robert's Rules (roberts-rules-v11.txt) is the
default where books disagree. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, Literal

from controller.poker.records import replace

RR = "roberts-rules-v11.txt"
RRH = "roberts-rules-home.txt"
AZW = "azwine-tour-tournament-rules.txt"
WSOP = "wsop-2009-live-action-rules.md"
JPN = "jamies-poker-notes.md"


class SettingsError(ValueError):
    """An unknown profile or setting, or a value a setting does not allow; the message names it."""


def _choice(default: Any, choices: tuple[Any, ...], cites: str) -> Any:
    # The allowed values and citations live on the field so validation and docs read one source.
    return field(default=default, metadata={"choices": choices, "cites": cites})


@dataclass(frozen=True)
class Settings:
    """The table-layer house rules. Defaults are Robert's Rules, cardroom edition."""

    # RR Section 4 r.2: "Either of the following methods ... may be designated": (a) moving
    # button, (b) dead button. WSOP Section 4 r.2 designates the dead button; tournaments always
    # use it (RR Section 15 r.30).
    button_method: Literal["dead", "moving"] = _choice(
        "dead", ("dead", "moving"), f"{RR} Section 4 r.2; {WSOP} Section 4 r.2")
    # Dead button after the small blind busts: RR Section 4 r.2(b) places the button "in front of
    # an empty seat"; AZW Dead Button Rule (TDA #31): "the button does not move".
    dead_button_on_sb_bust: Literal["empty_seat", "stay"] = _choice(
        "empty_seat", ("empty_seat", "stay"), f"{RR} Section 4 r.2(b); {AZW} Dead Button Rule")
    # Becoming heads-up: RR Section 4 r.3 "the player who had the big blind the most recently is
    # given the button"; AZW When Only Two Players Remain r.1 "the next big blind".
    heads_up_transition: Literal["most_recent_bb", "next_bb"] = _choice(
        "most_recent_bb", ("most_recent_bb", "next_bb"),
        f"{RR} Section 4 r.3; {AZW} When Only Two Players Remain r.1")
    # Fixed limit, a betting round that becomes heads-up: RR Section 3 Betting and Raising r.5
    # "Unlimited raising is allowed in heads-up play ... any time the action becomes heads-up
    # before the raising has been capped" ("becomes"); WSOP Section 3 r.4 "Unlimited raises are
    # allowed in limit-play when the betting round begins heads-up. If the round begins with more
    # than two players and becomes heads-up during the middle of the round the raise maximum
    # still applies" ("starts"). In a tournament the cap applies heads-up too until the event is
    # down to its last two players, whatever this setting (RR Section 15 r.23; AZW Section 3 r.5
    # and Section 15 r.23): the count the director tells (``tournament.players``), else a
    # tournament table's two last players taken for them (rules/table/new_hand.py last_two).
    # Fixed limit, the raises allowed "for a pot involving three or more players who are not
    # all-in": RR Section 3 Betting and Raising r.4 a bet and three raises with three or more
    # betting rounds, a bet and four raises with two ("rr"); RRH Section 3 r.3 "a maximum of a
    # bet and three raises" for every limit game ("bet_and_three"); WSOP Section 3 Betting and
    # Raising r.3(a) "A game with two or more betting rounds allows a maximum of a bet and four
    # raises" ("bet_and_four").
    limit_raise_cap: Literal["rr", "bet_and_three", "bet_and_four"] = _choice(
        "rr", ("rr", "bet_and_three", "bet_and_four"),
        f"{RR} Section 3 Betting and Raising r.4; {RRH} Section 3 r.3; {WSOP} Section 3 "
        "Betting and Raising r.3")
    heads_up_raising: Literal["becomes", "starts"] = _choice(
        "becomes", ("becomes", "starts"),
        f"{RR} Section 3 Betting and Raising r.5, Section 15 r.23; {WSOP} Section 3 r.4; "
        f"{AZW} Section 3 r.5, Section 15 r.23")
    # Entry between the big blind and the button: RR Section 4 r.7 "You must wait until the
    # button passes"; WSOP Section 4 r.4 a new player may "buy the button".
    between_blinds_entry: Literal["wait", "buy_button"] = _choice(
        "wait", ("wait", "buy_button"), f"{RR} Section 4 r.7; {WSOP} Section 4 r.4, r.12")
    # Made-up missed blinds: RR Section 4 r.10 "an amount up to the size of the minimum opening
    # bet is live"; WSOP Section 4 r.6 "only the big blind is live". The rest is dead.
    missed_blinds_live: Literal["min_open", "big_blind"] = _choice(
        "min_open", ("min_open", "big_blind"), f"{RR} Section 4 r.10; {WSOP} Section 4 r.6")
    # A player the big blind passes also owes the small blind (NOT IN THE RULEBOOKS: common
    # practice; RR Section 4 r.10 "posting all the blinds missed").
    passed_big_owes_small: bool = _choice(True, (True, False), f"{RR} Section 4 r.10 (NIS)")
    # RR Section 14 NL r.15: one optional live straddle, immediate left of the big blind, in
    # non-tournament games; WSOP Section 4 r.11: under the gun or the button, button first.
    straddle: Literal["none", "utg", "utg_and_button"] = _choice(
        "utg", ("none", "utg", "utg_and_button"),
        f"{RR} Section 14 No-Limit r.15; {WSOP} Section 4 r.11")
    # The blind layout of a blinds game: "two_blinds", the small and the big blind left of the
    # button (RR Section 4 intro: "Blinds are posted before the players look at their cards",
    # the small blind left of the button); "button_blind", the six-plus hold'em of the home-game
    # guide: "There is only one blind (the big blind) posted by the dealer. Antes are also used"
    # (JPN Six Plus Hold'em): the button posts the big blind, every player the ante, and the
    # action starts left of the button. The button moves forward one player a hand.
    blind_layout: Literal["two_blinds", "button_blind"] = _choice(
        "two_blinds", ("two_blinds", "button_blind"),
        f"{RR} Section 4 intro; {JPN} Six Plus Hold'em")
    # Antes (RR Glossary ANTE: "posted ... by all players"); a single big-blind ante is NOT IN THE
    # RULEBOOKS (research Part 6) and offered as a structure option.
    ante_style: Literal["each", "big_blind"] = _choice(
        "each", ("each", "big_blind"), f"{RR} Glossary ANTE (big_blind: NIS)")
    # Kill pots (RR Section 13 intro): none, a full kill (twice the big blind) or a half kill
    # (one and a half times).
    kill: Literal["none", "full", "half"] = _choice(
        "none", ("none", "full", "half"), f"{RR} Section 13 intro")
    # Required kill: the winner of two consecutive qualifying pots must kill the next one (RR
    # Section 13 intro, r.3); off: kills are voluntary only.
    kill_required: bool = _choice(True, (True, False), f"{RR} Section 13 intro, r.3")
    # RR Section 13 r.12 "A new player is not entitled to play in a killed pot"; WSOP Section 14
    # r.13 "has the option of sitting down into a kill pot".
    new_player_in_kill_pot: Literal["no", "yes"] = _choice(
        "no", ("no", "yes"), f"{RR} Section 13 r.12; {WSOP} Section 14 r.13")
    # Where the killer acts (for the betting layer): RR Section 13 r.2 "in proper turn"; WSOP
    # Section 14 r.2 "acts last unless the pot has been raised".
    kill_action: Literal["in_turn", "last_unless_raised"] = _choice(
        "in_turn", ("in_turn", "last_unless_raised"),
        f"{RR} Section 13 r.2; {WSOP} Section 14 r.2")
    # A live-game big blind short of chips: RR Section 4 r.1 the limits "remain the same" (play
    # short); WSOP Section 4 r.1 "should no longer be dealt into the game".
    short_big_blind: Literal["play_short", "not_dealt"] = _choice(
        "play_short", ("play_short", "not_dealt"), f"{RR} Section 4 r.1; {WSOP} Section 4 r.1")
    # The button draw in low games: RR Section 2 Seating r.6 "the lowest card by suit for all low
    # games"; RRH Seating r.1 and WSOP Section 2 Seating r.6: always the highest.
    button_draw_low_games: Literal["lowest", "highest"] = _choice(
        "lowest", ("lowest", "highest"),
        f"{RR} Section 2 Seating r.6; {RRH} Seating r.1; {WSOP} Section 2 Seating r.6")
    # Tournament mode: dead button always, absent players dealt in and blinded off (RR Section 15
    # r.7, r.30).
    tournament: bool = _choice(False, (True, False), f"{RR} Section 15 r.7, r.30")
    # When a new level applies: RR Section 15 r.10 "the new limits apply on the next deal. (A deal
    # begins with the first riffle of the shuffle.)"; AZW Timer Use and Breaks "a hand is
    # considered currently in play once the all blinds/antes are posted"; JPN Tournament
    # Structure "a hand begins when the first card is dealt".
    level_change: Literal[
        "next_deal_first_riffle", "next_hand_blinds_posted", "next_hand_first_card"
    ] = _choice(
        "next_deal_first_riffle",
        ("next_deal_first_riffle", "next_hand_blinds_posted", "next_hand_first_card"),
        f"{RR} Section 15 r.10; {AZW} Timer Use and Breaks; {JPN} Tournament Structure")
    # A player moved in to a tournament table: RR Section 15 r.16 "dealt in immediately unless
    # ... small blind or button position"; AZW Balancing (TDA #10) "assume any obligation of the
    # new seat including the posting of a blind".
    tournament_new_player: Literal["wait_if_sb_or_button", "take_obligations"] = _choice(
        "wait_if_sb_or_button", ("wait_if_sb_or_button", "take_obligations"),
        f"{RR} Section 15 r.16; {AZW} Balancing (TDA #10)")

    # The misdeal cut-off (research/irregularities.md §1.B MISDEAL_LOCKOUT): once action has
    # begun the deal is played. RR Section 3 Misdeals r.1 "two players after the blinds have
    # acted"; RRH Section 3 Misdeals r.1 "two players have acted in turn"; WSOP Section 3
    # Misdeals r.2 "a player has raised the pot or someone has called and the next player has
    # acted"; AZW Substantial Action (TDA #35) two actions in turn, one putting chips in, or three.
    misdeal_cutoff: Literal["rr", "rr_home", "wsop", "tda"] = _choice(
        "rr", ("rr", "rr_home", "wsop", "tda"),
        f"{RR} Section 3 Misdeals r.1; {RRH} Section 3 Misdeals r.1; {WSOP} Section 3 Misdeals "
        f"r.2; {AZW} Substantial Action (TDA #35) r.1")
    # Does the monitor's own alert count as attention called to the error (NOT IN THE
    # RULEBOOKS: research §1.B misdeal.engine_alert_counts_as_attention)? Off: a misdeal-level
    # error is held until `attention.called`, and the cut-off is judged then.
    attention_on_alert: bool = _choice(True, (True, False), f"{RR} Section 3 Misdeals r.2 (NIS)")
    # Limit ace-to-five lowball, a card exposed on the deal: RR Section 11 Ace-to-Five r.3 "an
    # exposed card of seven or under must be taken"; WSOP Section 11 Ace-to-Five r.3 "five or
    # under". Any higher card is replaced once the deal is complete.
    a5_exposed_take: Literal["seven_or_under", "five_or_under"] = _choice(
        "seven_or_under", ("seven_or_under", "five_or_under"),
        f"{RR} Section 11 Ace-to-Five Lowball r.3; {WSOP} Section 11 Ace-to-Five r.3")
    # Stud, the last card dealt face up with more than two players: RR Section 8 r.17(a) "all
    # remaining players receive their last card facedown"; WSOP Section 8 r.17(a) "If there are
    # more than two players and the first player's card is exposed, all remaining players receive
    # their cards up".
    stud_last_card_up: Literal["rest_down", "rest_up_if_first"] = _choice(
        "rest_down", ("rest_down", "rest_up_if_first"),
        f"{RR} Section 8 r.17(a); {WSOP} Section 8 r.17(a)")

    # A bet or raise below the minimum, entered at the console: every rulebook brings it up to
    # the proper size (RR Section 14 No-Limit r.11 "the wager must be increased to the proper
    # size (but no greater)"; RR Section 3 Betting and Raising r.16 "brought up to proper
    # size"; RRH Section 14 r.10; AZW Section 14 r.11). "refused": the console must enter it
    # again (NOT IN THE RULEBOOKS: for a house whose console confirms every wager; the PHH
    # replay, whose hands are legal as recorded, refuses too).
    undersized_wager: Literal["brought_up", "refused"] = _choice(
        "brought_up", ("brought_up", "refused"),
        f"{RR} Section 14 No-Limit r.11, Section 3 Betting and Raising r.16; {RRH} Section 14 "
        f"r.10; {AZW} How to Deal No Limit r.11 (refused: NIS)")

    # A flop of four cards (research/irregularities.md D-05): RR Section 5 Holdem r.3 "it must
    # be redealt" (the board mixed with the stub, a new flop without burning, r.7); WSOP Section
    # 5 r.3 "the four cards will be scrambled and the top card will be exposed and placed on top
    # of the deck as the burn for the turn card"; AZW Four-Card Flop (TDA #36) "A floorperson
    # will be called to randomly select one card to be used as the next burn card".
    four_card_flop: Literal["redeal", "scramble_top_is_turn_burn", "floor_picks_turn_burn"] = (
        _choice("redeal", ("redeal", "scramble_top_is_turn_burn", "floor_picks_turn_burn"),
                f"{RR} Section 5 Holdem r.3, r.7; {WSOP} Section 5 r.3; {AZW} Four-Card Flop "
                "(TDA #36)"))
    # The flop dealt without a burn (D-08): RR Section 5 Holdem r.4 "rectified by using the
    # proper burncard and flop"; AZW Section 3 r.16(5) "the floor should randomly select one of
    # the three cards as the burn ... The forth card from the stub completes the flop".
    flop_no_burn: Literal["proper_burn", "floor_picks_burn"] = _choice(
        "proper_burn", ("proper_burn", "floor_picks_burn"),
        f"{RR} Section 5 Holdem r.4; {AZW} Section 3 r.16(5) (TDA RP-5)")

    # --- the rest of the disagreement table (research/irregularities.md Part 2, D-03..D-34;
    # docs/house-rules.md "The disagreement table, row by row") ---------------------------------

    # D-03, flop games: which exposed hole cards make a misdeal. RR Section 5 Holdem r.1 "If the
    # initial holecard dealt to the first or second player is exposed, a misdeal results"; WSOP
    # Section 5 Rules for Irregularities r.1 "the first or second hole card"; AZW Section 5
    # Misdeals (TDA #34) r.1(f) "either of the first 2 cards dealt off the deck"; RRH Section 5
    # Hold'em r.1 "If the first holecard dealt is exposed, a misdeal results" (a second exposed
    # card is "any other holecard": replaced, and used as the burn). Two exposed hole cards are a
    # misdeal in every book (RR Section 3 Misdeals r.2(b)).
    first_cards_exposed: Literal["first_or_second", "first"] = _choice(
        "first_or_second", ("first_or_second", "first"),
        f"{RR} Section 5 Holdem r.1; {RRH} Section 5 Hold'em r.1; {WSOP} Section 5 Rules for "
        f"Irregularities r.1; {AZW} Section 5 Misdeals (TDA #34) r.1(f)")
    # D-04: cards dealt to an empty seat or a player not entitled to a hand. RR Section 3
    # Misdeals r.2(i), RRH Section 3 Misdeals r.1(i), AZW Misdeals (TDA #34) r.1(c): a misdeal.
    # WSOP's general list (Section 3 Misdeals r.1) has no such item; its lowball list keeps it
    # (Section 11 Lowball r.2(h); badugi uses it, Section 12 r.3). What becomes of the cards is
    # NOT IN THE RULEBOOKS: they are dead, taken out, and the deal goes on.
    empty_seat_cards: Literal["misdeal", "killed_except_lowball"] = _choice(
        "misdeal", ("misdeal", "killed_except_lowball"),
        f"{RR} Section 3 Misdeals r.2(i); {AZW} Misdeals (TDA #34) r.1(c); {WSOP} Section 3 "
        "Misdeals r.1, Section 11 Lowball r.2(h) (killed: NIS)")
    # D-12, stud: the cards removed for a premature street. RR Section 8 r.14 "held off to the
    # side in the event the dealer runs out of cards"; WSOP Section 8 r.14 "and will be shuffled
    # in along with the remaining stub (no muck or burn cards should be reshuffled in this
    # case)"; AZW Section 3 r.16(4) (TDA RP-5) "additional cards are dealt and placed to the
    # side along with the premature card(s) to represent an entire round of cards ... Once the
    # final street is reached, the premature and additional cards set to the side are placed
    # back into the stub. The stub is re-shuffled then the final street is dealt."
    stud_premature_removed: Literal[
        "aside", "aside_shuffled_with_stub_if_short", "reshuffled_at_final_street"
    ] = _choice(
        "aside", ("aside", "aside_shuffled_with_stub_if_short", "reshuffled_at_final_street"),
        f"{RR} Section 8 r.14; {WSOP} Section 8 r.14; {AZW} Section 3 r.16(4) (TDA RP-5)")
    # D-15, stud: a down card of the starting hand dealt face up. RR Section 8 r.1 (and RRH
    # Section 8 r.5, WSOP Section 8 r.1): "your third card will be dealt down ... (In tournament
    # play, if a downcard is dealt faceup, a misdeal is called.)", RR Section 15 r.32; AZW
    # Section 5 Misdeals (TDA #34) r.1(e) "in stud, if any of the players' 2 down cards are
    # exposed by dealer error" (a misdeal). "third_card_down" in a tournament too: NIS.
    stud_exposed_downcard: Literal["misdeal_in_tournament", "third_card_down", "misdeal"] = (
        _choice("misdeal_in_tournament", ("misdeal_in_tournament", "third_card_down", "misdeal"),
                f"{RR} Section 8 r.1, Section 15 r.32; {WSOP} Section 8 r.1; {AZW} Section 5 "
                "Misdeals (TDA #34) r.1(e) (third_card_down in a tournament: NIS)"))
    # D-16, stud: not enough cards for seventh street. RR Section 8 r.15 (RRH, WSOP, AZW the
    # same) "all the cards are dealt except the last card, which is mixed with the burncards
    # (and any cards removed from the deck ...)"; JPN Seven Card Stud "all remaining cards plus
    # mucked cards plus burned cards are reshuffled" (no profile is JPN's).
    stud_short_deck: Literal["last_card_burns_and_removed", "stub_muck_and_burns"] = _choice(
        "last_card_burns_and_removed", ("last_card_burns_and_removed", "stub_muck_and_burns"),
        f"{RR} Section 8 r.15; {JPN} Seven Card Stud")
    # D-17, draw: the deck runs out on the draw. No rule in RR, RRH or AZW; WSOP Section 12
    # Badugi r.10 "the discards from the previous rounds and any mucked cards will be shuffled
    # together" (Feltguard's default); JPN Five Card Draw "all discarded (mucked) cards and
    # burned cards are reshuffled. This doesn't include the discarded cards of the current
    # player".
    draw_deck_exhausted: Literal["previous_discards_and_muck", "muck_and_burns"] = _choice(
        "previous_discards_and_muck", ("previous_discards_and_muck", "muck_and_burns"),
        f"{WSOP} Section 12 Badugi r.10; {JPN} Five Card Draw (RR: no rule)")
    # D-20, draw: the most cards dealt to one player at once. RR Section 11 Lowball r.10 and
    # Section 12 Draw High r.6, RRH Section 11 r.9, WSOP Section 11 r.11 and Section 12 Badugi
    # r.4: "A player may draw up to four consecutive cards" (the fifth after everyone else);
    # JPN Five Card Draw "can exchange between zero and five cards" (no profile is JPN's).
    draw_max_consecutive: Literal[4, 5] = _choice(
        4, (4, 5), f"{RR} Section 11 Lowball r.10; {WSOP} Section 12 Badugi r.4; {JPN} Five "
        "Card Draw")
    # D-21: a hand with the wrong number of cards is dead; the exceptions. RR Section 3 Dead
    # Hands r.1(d) (RRH, WSOP the same) "(except at stud a hand missing the final card may be
    # ruled live, and at lowball and draw high a hand with too few cards before the draw is
    # live)"; AZW Dead Hands r.1(d) "The hand does not contain the proper number of cards for
    # that particular game" (no exceptions).
    dead_hand_card_count: Literal["rr_exceptions", "no_exceptions"] = _choice(
        "rr_exceptions", ("rr_exceptions", "no_exceptions"),
        f"{RR} Section 3 Dead Hands r.1(d); {AZW} Section 3 Dead Hands r.1(d)")
    # D-22: a burn error on the last round when nobody could bet (an all-in). RR Section 3
    # Irregularities r.16 "the error should be corrected if discovered before the pot has been
    # awarded, provided the deck stub, boardcards, and burncards are all sufficiently intact to
    # determine the proper replacement card"; WSOP Section 3 Irregularities r.15 and Section 5
    # r.5: "corrected if discovered before the pot has been awarded" (no proviso).
    allin_burn_fix: Literal["if_intact", "before_award"] = _choice(
        "if_intact", ("if_intact", "before_award"),
        f"{RR} Section 3 Irregularities r.16; {WSOP} Section 3 Irregularities r.15")
    # D-28, tournaments: when an absent player's hand is killed. RR Section 15 r.13 (RRH Section
    # 15 r.11; AZW the same) "kill the hands of all absent players immediately after dealing each
    # player a starting hand"; WSOP Section 8 r.8 at stud: "kill the down cards of any absent
    # player ... making sure to leave the window card in place until it is that seat's turn to
    # act" (other games: WSOP has no rule, RR's applies). RRH Section 16 Explanations #10 gives
    # an alternative ("not killed until that seat faces a wager") that no profile uses.
    absent_hand_kill: Literal["after_starting_hands", "stud_window_card_until_turn"] = _choice(
        "after_starting_hands", ("after_starting_hands", "stud_window_card_until_turn"),
        f"{RR} Section 15 r.13; {WSOP} Section 8 r.8")
    # D-34, flop games: the exception to "an incorrect number of cards". RR Section 3 Misdeals
    # r.2(e) (RRH, WSOP the same) "except the top card may be dealt if it goes to the player in
    # proper sequence"; AZW Section 5 Misdeals (TDA #34) r.1(f) "Players may be dealt 2
    # consecutive cards on the button" (the button passed over on one pass gets its card at the
    # end of the deal).
    short_hand_exception: Literal["top_card_in_sequence", "button_two_consecutive"] = _choice(
        "top_card_in_sequence", ("top_card_in_sequence", "button_two_consecutive"),
        f"{RR} Section 3 Misdeals r.2(e); {AZW} Section 5 Misdeals (TDA #34) r.1(f)")
    # D-19, limit ace-to-five lowball: the "sevens rule". RR Section 11 Ace-to-Five r.4 "the
    # 'sevens rule' is assumed to be in use"; WSOP Section 11 Ace-to-Five r.4 "if you check a
    # five and it is the best hand, all action after the draw is void"; RRH Section 11
    # Ace-to-Five r.4 "Some lowball games may wish to employ the 'sevens rule'" (optional: off).
    a5_sevens_rule: Literal["seven", "five", "off"] = _choice(
        "seven", ("seven", "five", "off"),
        f"{RR} Section 11 Ace-to-Five Lowball r.4; {WSOP} Section 11 Ace-to-Five r.4; {RRH} "
        "Section 11 Ace-to-Five r.4")
    # D-09, a card with a different back (research/irregularities.md §1.I). In play: RR and
    # WSOP Section 3 Irregularities r.3 "all action is void"; AZW Section 3 Irregularities r.3
    # "unless substantial action has occurred". In the stub: RR "all action stands"; WSOP only
    # if it "will not appear in any hand or on the board and substantial action has taken
    # place". Substantial action is each book's own (the misdeal cut-off's WSOP and TDA tests).
    foreign_card: Literal["rr", "wsop", "tda"] = _choice(
        "rr", ("rr", "wsop", "tda"),
        f"{RR} Section 3 Irregularities r.3; {WSOP} Section 3 Irregularities r.3; {AZW} "
        "Section 3 Irregularities r.3")
    # Cards a player drops onto the floor (research/irregularities.md
    # PLAYER_DROPS_CARDS_ON_FLOOR): RR Section 3 Irregularities r.14 (RRH, AZW the same) "you
    # must still play them"; WSOP Section 3 Irregularities r.14 "you may not receive
    # replacements and, at the discretion of the Floor Supervisor your hand may be dead".
    dropped_cards: Literal["play", "floor_may_kill"] = _choice(
        "play", ("play", "floor_may_kill"),
        f"{RR} Section 3 Irregularities r.14; {WSOP} Section 3 Irregularities r.14")

    # --- betting read from the chips (controller/rules/chips/betting.py; research
    # button-blinds-betting.md Section 2.10). A single chip larger than the call, facing a bet:
    # "assumed to have only called" (RR Section 3 r.15; Section 14 No-Limit r.10; AZW Section 3
    # r.15, TDA #45; JPN One-Chip Rule); "face_value" (NIS: a house that takes a lone chip at its
    # face, as any other chips) reads it as a raise to its value.
    oversized_chip: Literal["call", "face_value"] = _choice(
        "call", ("call", "face_value"),
        f"{RR} Section 3 Betting and Raising r.15, Section 14 No-Limit r.10; {AZW} Section 3 "
        "Betting and Raising r.15 (face_value: NIS)")
    # Chips beyond the call but short of a full raise, with no raise declared: RR Section 14
    # No-Limit r.11 "This does not apply to a player who has unintentionally put too much in to
    # call" (a call, the excess back); AZW Section 3 r.14 (TDA #43a) "If a player raises 50% or
    # more of the largest prior bet but less than a minimum raise, he must make a full minimum
    # raise. If less than 50% it is a call"; WSOP Section 15 r.11 the same half-bet line. Limit
    # games read "a full bet plus a half-bet or more" as a raise under both (RR Section 3 r.14).
    overcall: Literal["call", "fifty_percent"] = _choice(
        "call", ("call", "fifty_percent"),
        f"{RR} Section 14 No-Limit r.11, Section 3 Betting and Raising r.14; {AZW} Section 3 "
        f"Betting and Raising r.14 (TDA #43a); {WSOP} Section 15 No-Limit r.11")
    # The smallest chip that plays: RR Section 3 r.1 "the smallest chip used in the antes,
    # blinds, rake, or collection ... Smaller chips than this do not play even in quantity"
    # (RRH r.7, WSOP r.7 the same for antes and blinds); "bring_in": RR Section 14 No-Limit
    # r.13 "All wagers may be required to be in the same denomination of chip (or larger) used
    # for the minimum bring-in".
    smallest_chip: Literal["forced_bets", "bring_in"] = _choice(
        "forced_bets", ("forced_bets", "bring_in"),
        f"{RR} Section 3 Betting and Raising r.1, Section 14 No-Limit r.13; {RRH} Section 3 "
        f"r.7; {WSOP} Section 3 r.7")
    # Chips put out of turn, when the action reaches the seat after an intervening call (no bet
    # or raise: with one, every book returns the chips): RR Section 3 r.11 "If there is an
    # intervening call, an action may be ruled binding" (the floor decides); AZW Section 3 r.11
    # (TDA #40A) "Check, call or fold by the rightful player does not change action" (binding);
    # RRH Section 3 r.10 "binding if there is no bet, call, or raise by an intervening player"
    # (not binding).
    oot_chips_after_call: Literal["floor", "binding", "not_binding"] = _choice(
        "floor", ("floor", "binding", "not_binding"),
        f"{RR} Section 3 Betting and Raising r.11; {AZW} Section 3 Betting and Raising r.11 "
        f"(TDA #40A); {RRH} Section 3 r.10")

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            choices = f.metadata["choices"]
            # bool is an int: compare type too so 1 is not taken for True.
            if not any(value == c and type(value) is type(c) for c in choices):
                raise SettingsError(
                    f"setting {f.name!r} does not allow {value!r}; allowed: "
                    + ", ".join(repr(c) for c in choices))
        if self.tournament and self.button_method != "dead":
            raise SettingsError(
                "setting 'button_method' must be 'dead' in a tournament "
                f"({RR} Section 15 r.30: the dead button)")
        if self.tournament and self.straddle != "none":
            raise SettingsError(
                "setting 'straddle' must be 'none' in a tournament "
                f"({RR} Section 14 No-Limit r.15: \"In non-tournament games\")")


def setting_names() -> tuple[str, ...]:
    return tuple(f.name for f in fields(Settings))


def setting_choices(name: str) -> tuple[Any, ...]:
    for f in fields(Settings):
        if f.name == name:
            return tuple(f.metadata["choices"])
    raise SettingsError(f"unknown setting {name!r}")


def setting_citation(name: str) -> str:
    for f in fields(Settings):
        if f.name == name:
            return str(f.metadata["cites"])
    raise SettingsError(f"unknown setting {name!r}")


DEFAULT_PROFILE = "roberts"

PROFILES: Mapping[str, Settings] = MappingProxyType({
    # RR cash (Montana's book is RR verbatim for every rule used here).
    "roberts": Settings(),
    # RRH: same choices; a private game commonly rotates simply (RRH Section 4 r.1 leaves the
    # method to the house).
    "roberts-home": Settings(
        button_method="moving",
        button_draw_low_games="highest",      # RRH Seating r.1: "the highest card by suit"
        misdeal_cutoff="rr_home",             # RRH Section 3 Misdeals r.1: "acted in turn"
        first_cards_exposed="first",          # RRH Section 5 Hold'em r.1 (D-03)
        a5_sevens_rule="off",                 # RRH Section 11 Ace-to-Five r.4: optional (D-19)
        oot_chips_after_call="not_binding",   # RRH Section 3 r.10
        limit_raise_cap="bet_and_three",      # RRH Section 3 r.3
    ),
    "wsop-2009": Settings(
        button_method="dead",                 # WSOP Section 4 r.2 "a. Dead button"
        between_blinds_entry="buy_button",    # WSOP Section 4 r.4
        missed_blinds_live="big_blind",       # WSOP Section 4 r.6
        straddle="utg_and_button",            # WSOP Section 4 r.11
        new_player_in_kill_pot="yes",         # WSOP Section 14 r.13
        kill_action="last_unless_raised",     # WSOP Section 14 r.2
        short_big_blind="not_dealt",          # WSOP Section 4 r.1
        button_draw_low_games="highest",      # WSOP Section 2 Seating r.6
        misdeal_cutoff="wsop",                # WSOP Section 3 Misdeals r.2
        a5_exposed_take="five_or_under",      # WSOP Section 11 Ace-to-Five r.3
        stud_last_card_up="rest_up_if_first",  # WSOP Section 8 r.17(a)
        four_card_flop="scramble_top_is_turn_burn",  # WSOP Section 5 r.3
        empty_seat_cards="killed_except_lowball",    # WSOP Section 3 Misdeals r.1 (D-04)
        stud_premature_removed="aside_shuffled_with_stub_if_short",  # WSOP Section 8 r.14
        allin_burn_fix="before_award",               # WSOP Section 3 Irregularities r.15
        absent_hand_kill="stud_window_card_until_turn",  # WSOP Section 8 r.8 (D-28)
        a5_sevens_rule="five",                       # WSOP Section 11 Ace-to-Five r.4 (D-19)
        foreign_card="wsop",                         # WSOP Section 3 Irregularities r.3 (D-09)
        dropped_cards="floor_may_kill",              # WSOP Section 3 Irregularities r.14
        overcall="fifty_percent",                    # WSOP Section 15 No-Limit r.11
        heads_up_raising="starts",                   # WSOP Section 3 r.4
        limit_raise_cap="bet_and_four",              # WSOP Section 3 r.3(a)
    ),
    "tda-tournament": Settings(
        tournament=True,
        button_method="dead",                      # AZW Dead Button Rule (TDA #31)
        dead_button_on_sb_bust="stay",             # AZW Dead Button Rule (TDA #31)
        heads_up_transition="next_bb",             # AZW When Only Two Players Remain r.1
        straddle="none",                           # RR Section 14 NL r.15 (non-tournament only)
        level_change="next_hand_blinds_posted",    # AZW Timer Use and Breaks
        tournament_new_player="take_obligations",  # AZW Balancing (TDA #10)
        misdeal_cutoff="tda",                      # AZW Substantial Action (TDA #35)
        four_card_flop="floor_picks_turn_burn",    # AZW Four-Card Flop (TDA #36)
        flop_no_burn="floor_picks_burn",           # AZW Section 3 r.16(5)
        stud_premature_removed="reshuffled_at_final_street",  # AZW Section 3 r.16(4) (D-12)
        stud_exposed_downcard="misdeal",           # AZW Section 5 Misdeals r.1(e) (D-15)
        dead_hand_card_count="no_exceptions",      # AZW Dead Hands r.1(d) (D-21)
        short_hand_exception="button_two_consecutive",  # AZW Section 5 Misdeals r.1(f) (D-34)
        foreign_card="tda",                        # AZW Section 3 Irregularities r.3 (D-09)
        overcall="fifty_percent",                  # AZW Section 3 r.14 (TDA #43a)
        oot_chips_after_call="binding",            # AZW Section 3 r.11 (TDA #40A)
    ),
})


def settings_for(profile: str = DEFAULT_PROFILE,
                 overrides: Mapping[str, object] | None = None) -> Settings:
    """The settings of a profile with some settings overridden. An unknown profile or setting,
    or a value a setting does not allow, raises SettingsError naming it."""
    if not isinstance(profile, str) or profile not in PROFILES:
        raise SettingsError(
            f"unknown house-rules profile {profile!r}; known: {', '.join(sorted(PROFILES))}")
    base = PROFILES[profile]
    if not overrides:
        return base
    names = set(setting_names())
    for name in overrides:
        if name not in names:
            raise SettingsError(f"unknown setting {name!r} (profile {profile!r})")
    try:
        changes: dict[str, Any] = dict(overrides)
        return replace(base, **changes)
    except SettingsError as exc:
        raise SettingsError(f"profile {profile!r}: {exc}") from None
