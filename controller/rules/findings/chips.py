"""Finding codes about the chips the zone antennas read, as data (issue 13, item 2).

A tag in a chip zone that is no chip of any registered set, and a chip of another registered
set (a retired set, another room's) on the table. The rulebooks know no RFID chips; the rule
closest is Robert's Rules' on chips from another cardroom (Section 2, Procedures, r.5: they
"are not permitted on the table, do not play in the game"), which both entries cite. The
unknown tag is the project's own code (``catalogue=False``): it may be such a chip, or a chip of
the house whose tag was never enrolled. Same shape and conventions as ``catalogue.py``, which
merges these into ``CATALOGUE``.
"""

from __future__ import annotations

from controller.rules.findings.entry import Entry, cite
from controller.rules.findings.rulebooks import AZW, RRH, WSOP

PROCEDURES = "Section 2, Procedures"
BETTING = "Section 3, Betting and Raising"
NOLIMIT = "Section 14, No-Limit and Pot-Limit"
SHOWDOWN = "Section 3, The Showdown"
RULINGS = "Section 2, House Policies, Decision-Making"
_OTHER_ROOM = cite(PROCEDURES, "5", "Any chips from another cardroom are not permitted on the "
                   "table, do not play in the game, and when found will be treated similarly to "
                   "unnoticed cash.")
_BETS = "the bet-zone antennas (chips.zone), judged against the hand's betting"
_OOT_BINDING = cite(BETTING, "11", "An action or verbal declaration out of turn is binding unless "
                   "the action to that player is subsequently changed by a bet or raise.")
_SINGLE_CHIP = cite(BETTING, "15", "If you put a single chip in the pot that is larger than the "
                    "bet, but do not announce a raise, you are assumed to have only called.")
_BET_AND_A_HALF = cite(BETTING, "14", "Putting a full bet plus a half-bet or more into the pot "
                       "is considered to be the same as announcing a raise, and the raise must "
                       "be completed.")
_PROPER_CHIPS = cite("How to Deal No Limit, The Hand", "-", "The dealer shall ensure that the "
                     "proper number of chips goes into the pot.", file=AZW)
_POT_ERROR = cite(SHOWDOWN, "3", "Any player, dealer, or floorperson who sees an incorrect amount "
                  "of chips put into the pot, or an error about to be made in awarding a pot, "
                  "has an ethical obligation to point out the error.")
_BEFORE_NEXT_DEAL = cite(RULINGS, "5", "A ruling may be made regarding a pot if it has been "
                         "requested before the next deal starts")
_SENSORS = ("chip zone antennas (controller/sensing/chips.py); the chip-set registry "
            "(chips.register)")

CHIP_ENTRIES: tuple[Entry, ...] = (
    Entry(
        "CHIP_UNKNOWN_TAG",
        "A tag in a chip zone is no registered chip",
        "warning",
        (_OTHER_ROOM,),
        (
            "Tag(s) {uids} in {where} are no chip of any registered set ({sets}).",
            "Find the chip(s) in {where}: a chip of another cardroom does not play (treat it "
            "as unnoticed cash: change it for the house's chips after the hand).",
            "A house chip whose tag is not enrolled: take it out of play and have it enrolled "
            "in the chip-set file ([chips] file) before it plays again.",
        ),
        _SENSORS,
        catalogue=False,
    ),
    Entry(
        "CHIP_FOREIGN_SET",
        "A chip of another set is on the table",
        "warning",
        (_OTHER_ROOM,),
        (
            "In {where}: {chips} of set {foreign}, not of the set in play ({in_play}).",
            "The chip(s) of set {foreign} do not play: take them out of {where} and change "
            "them for chips of set {in_play} after the hand.",
        ),
        _SENSORS,
        catalogue=False,
    ),
    # --- betting read from the chips (chips/betting.py) -------------------------------------
    Entry(
        "CHIP_OUT_OF_TURN",
        "Chips put out in front out of turn",
        "warning",
        (
            _OOT_BINDING,
            cite(BETTING, "11", "Any action out of turn (check, call, or raise) is subject to "
                 "penalty and is binding if action to the OOT player does not change.", file=AZW),
        ),
        (
            "Seat {seat} put {amount} in front while seat {to_act} is to act.",
            "Leave the chips in front of seat {seat}. Seat {to_act} acts first. If the action "
            "to seat {seat} does not change, they stand as its action when its turn comes. If "
            "a bet or raise comes first, they go back to it and it has every option.",
        ),
        _BETS,
        catalogue=False,
    ),
    Entry(
        "CHIP_OUT_OF_TURN_RETURNED",
        "Chips put out of turn are not binding",
        "warning",
        (
            _OOT_BINDING,
            cite(BETTING, "11", "If action changes, the OOT action is not binding; any bet or "
                 "raise is returned to the OOT player who has all options including: calling, "
                 "raising, or folding.", file=AZW),
            cite("Section 3", "10", "may be ruled "
                 "binding if there is no bet, call, or raise by an intervening player acting "
                 "after the infraction has been committed.", file=RRH),
        ),
        (
            "The action reached seat {seat}, and {why}: the {amount} it put out of turn is not "
            "binding.",
            "Give seat {seat} its {amount} back. Seat {seat} now has every option: fold, call "
            "{call}, or raise.",
        ),
        _BETS,
        catalogue=False,
    ),
    Entry(
        "CHIP_OUT_OF_TURN_FLOOR",
        "Chips put out of turn: the floor rules",
        "warning",
        (
            cite(BETTING, "11", "If there is an intervening call, an action may be ruled "
                 "binding."),
        ),
        (
            "The action reached seat {seat} after an intervening call. Whether the {amount} it "
            "put out of turn stands is the floor's decision.",
            "Call the floor. If the chips stand, enter seat {seat}'s action at the console. If "
            "not, give it the chips back; it has every option.",
        ),
        _BETS,
        catalogue=False,
    ),
    Entry(
        "CHIP_STRING_RAISE",
        "A string raise",
        "warning",
        (
            cite(BETTING, "14", "String raises are not allowed. The dealer should enforce "
                 "obvious infractions to this string-raise law without being asked."),
            cite(NOLIMIT, "6", "In tournament play, the TDA rules require that the player "
                 "either use a verbal statement giving the amount of the raise or put the chips "
                 "into the pot in a single motion, to avoid making a string-bet."),
        ),
        (
            "Seat {seat} added {extra} after its {action} had settled, with no raise declared: "
            "a string raise.",
            "Give the {extra} back to seat {seat}. Its action stands as {action}.",
        ),
        _BETS,
        catalogue=False,
    ),
    Entry(
        "CHIP_BET_TAKEN_BACK",
        "Chips taken back from a bet",
        "warning",
        (
            cite(BETTING, "13", "A player who bets or calls by releasing chips into the pot is "
                 "bound by that action and must make the amount of the wager correct."),
        ),
        (
            "{amount} left the bet of seat {seat} before the betting round ended, and not "
            "into the pot.",
            "The wager stands: seat {seat} puts {amount} back in front. If the player did not "
            "know the pot had been raised and nobody has acted since, call the floor (RR "
            "Section 3 r.13 may let it reconsider).",
        ),
        _BETS,
        catalogue=False,
    ),
    Entry(
        "CHIP_BETS_SCOOPED_EARLY",
        "Bets scooped into the pot before the round ended",
        "warning",
        (
            cite("How to Deal No Limit, The Pot", "2", "Bets shall remain in front of the "
                 "bettor until the betting round is complete.", file=AZW),
            cite("How to Deal No Limit, The Pot", "3", "Bets are not to be scooped (placed "
                 "into the pot by the dealer) until the end of the betting round.", file=AZW),
        ),
        (
            "The dealer moved {amount} of seat {seat}'s bet into the pot before the betting "
            "round ended.",
            "Announce seat {seat}'s bet ({bet}) so everyone knows the amount to call. Leave "
            "the other bets in front until the round ends. Feltguard counts the chips as seat "
            "{seat}'s bet.",
        ),
        _BETS,
        catalogue=False,
    ),
    Entry(
        "CHIP_ACTION_MISMATCH",
        "The chips do not match the action entered at the console",
        "warning",
        (
            cite(BETTING, "9", "A verbal statement in turn denotes your action, is binding, and "
                 "takes precedence over a differing physical action."),
            cite(NOLIMIT, "8", "If there is a discrepancy between a player's verbal statement "
                 "and the amount put into the pot, the bet will be corrected to the verbal "
                 "statement."),
        ),
        (
            "Seat {seat}: {detail}",
            "{fix}",
        ),
        _BETS + "; the dealer console",
        catalogue=False,
    ),
    Entry(
        "CHIP_BET_SHORT",
        "A wager short in chips as the round ends",
        "warning",
        (
            cite(BETTING, "16", "All wagers and calls of an improperly low amount must be "
                 "brought up to proper size if the error is discovered before the betting round "
                 "has been completed."),
            cite(NOLIMIT, "9", "If a call is short due to a counting error, the amount must be "
                 "corrected, even if the bettor has shown down a superior hand."),
        ),
        (
            "The betting round ended with {chips} in front of seat {seat}, whose wager is "
            "{wager}: {short} short.",
            "Seat {seat} makes up {short} from its stack before the bets go to the pot.",
        ),
        _BETS,
        catalogue=False,
    ),
    Entry(
        "CHIP_OVERSIZED_CALL",
        "A single oversized chip is a call",
        "warning",
        (
            _SINGLE_CHIP,
            cite(NOLIMIT, "10", "a player acting on a previous bet with a larger denomination "
                 "chip or bill is calling the previous bet unless this player makes a verbal "
                 "declaration to raise the pot."),
            cite(BETTING, "15", "When facing a bet or blind, pushing out a single oversized chip "
                 "is a call if raise isn't first declared.", file=AZW),
        ),
        (
            "Seat {seat} put out a single {chip} chip facing a call of {call}, with no raise "
            "declared: a call.",
            "Announce the call. Give seat {seat} {change} in change from the tray.",
        ),
        _BETS,
        catalogue=False,
    ),
    Entry(
        "CHIP_OVERCALL",
        "Chips beyond the call are not a raise",
        "warning",
        (
            cite(NOLIMIT, "11", "This does not apply to a player who has unintentionally put "
                 "too much in to call."),
            _BET_AND_A_HALF,
            cite(BETTING, "16", "When facing a bet, unless raise is declared first, a "
                 "multiple-chip bet is a call if every chip is needed to make the call", file=AZW),
        ),
        (
            "Seat {seat} put in {amount} facing a call of {call}, short of a raise to "
            "{minimum}, with no raise declared: a call ({why}).",
            "Announce the call. Give seat {seat} its {excess} back.",
        ),
        _BETS,
        catalogue=False,
    ),
    Entry(
        "CHIP_RAISE_MADE_UP",
        "Half a raise or more: the raise must be completed",
        "warning",
        (
            cite(BETTING, "14", "If a player raises 50% or more of the largest prior bet but "
                 "less than a minimum raise, he must make a full minimum raise.", file=AZW),
            _BET_AND_A_HALF,
            cite("Section 15, No-Limit", "11", "unless it is at least a half a bet or more in "
                 "which case the player is obligated to make exactly the minimum raise", file=WSOP),
        ),
        (
            "Seat {seat} put in {amount} facing a call of {call}: half a raise or more, short "
            "of the minimum raise to {minimum}.",
            "Announce the raise to {minimum}. Seat {seat} adds {short}.",
        ),
        _BETS,
        catalogue=False,
    ),
    Entry(
        "CHIP_DOES_NOT_PLAY",
        "Chips too small to play",
        "warning",
        (
            cite(BETTING, "1", "The smallest chip that may be wagered in a game is the smallest "
                 "chip used in the antes, blinds, rake, or collection."),
            cite(BETTING, "1", "Smaller chips than this do not play even in quantity"),
            cite(NOLIMIT, "13", "All wagers may be required to be in the same denomination of "
                 "chip (or larger) used for the minimum bring-in"),
        ),
        (
            "In the bet of seat {seat}: {chips}, smaller than the smallest chip that plays "
            "({smallest}). They are not counted in the wager.",
            "Give the chips back to seat {seat}: it changes them up between deals.",
        ),
        _BETS,
        catalogue=False,
    ),
    Entry(
        "CHIP_OVER_POT",
        "A pot-limit wager over the pot",
        "warning",
        (
            cite(NOLIMIT, "Pot-Limit Rules", "A bet may not exceed the pot size."),
            cite(NOLIMIT, "intro", "The dealer is responsible for determining the pot size at "
                 "pot-limit, and should enforce the pot-size cap on wagers"),
            cite(NOLIMIT, "Pot-Limit Rules, r.1", "If a wager is made that exceeds the pot size, "
                 "the surplus will be given back to the bettor as soon as possible"),
            cite(NOLIMIT, "Pot-Limit Rules, r.6", "a player who puts a chip or a bill larger than "
                 "the pot size into the pot without comment is considered to be making a bet of "
                 "the pot size (unless he is facing a bet)."),
        ),
        (
            "Seat {seat} put in {amount}; the most it may wager is {maximum} ({limit}).",
            "Announce the wager of {maximum}. Give seat {seat} its {excess} back.",
        ),
        _BETS,
        catalogue=False,
    ),
    # --- the pot, the award, the tray, the ledger (chips/pot.py, chips/ledger.py) -------------
    Entry(
        "CHIP_CHANGE_WRONG",
        "Change given wrong for an oversized chip",
        "warning",
        (
            _SINGLE_CHIP,
            _PROPER_CHIPS,
        ),
        (
            "Seat {seat} called with an oversized chip; after the change, {chips} lies in front "
            "of it where its bet is {wager}: {detail}.",
            "Count the change again before the bets go to the pot: seat {seat}'s bet is "
            "{wager}. {fix}",
        ),
        _BETS + "; the tray",
        catalogue=False,
    ),
    Entry(
        "CHIP_POT_SKIM",
        "Chips of the pot went to the tray or the drop",
        "warning",
        (
            _POT_ERROR,
            _PROPER_CHIPS,
        ),
        (
            "{amount} in chips went from the pot to {where} {when}, beyond the house's rake "
            "({allowed}).",
            "Put the {amount} back in the pot before it is awarded, or, once awarded, to its "
            "winner(s). Call the floor and surveillance: the pot's chips leave only as the "
            "award and the house's rake.",
        ),
        "the pot, tray and drop antennas (chips.zone)",
        catalogue=False,
    ),
    Entry(
        "CHIP_POT_UNEXPLAINED",
        "The pot's chips changed without a reason",
        "warning",
        (
            _POT_ERROR,
        ),
        (
            "{detail}",
            "Count the pot against the hand's betting (the dealer view shows the pots). Call "
            "the floor if they differ: management may reconstruct the betting (RR Section 2, "
            "Decision-Making r.6).",
        ),
        "the pot and bet-zone antennas (chips.zone)",
        catalogue=False,
    ),
    Entry(
        "CHIP_AWARD_SHORT",
        "The pot was paid short",
        "warning",
        (
            _POT_ERROR,
            _BEFORE_NEXT_DEAL,
        ),
        (
            "The award was paid {amount} short: {detail}.",
            "Pay the winner(s) the rest before the next deal starts (a ruling on a pot must come "
            "before it, RR Section 2 r.5).",
        ),
        "the pot and seat antennas (chips.zone), against the core's award",
        catalogue=False,
    ),
    Entry(
        "CHIP_AWARD_OVER",
        "A winner was paid more than its share",
        "warning",
        (
            _POT_ERROR,
            _BEFORE_NEXT_DEAL,
        ),
        (
            "Seat {seat} was paid {amount}; its share is {due}: {over} over.",
            "Take the {over} back from seat {seat} before the next deal starts and pay it where "
            "it is due.",
        ),
        "the pot and seat antennas (chips.zone), against the core's award",
        catalogue=False,
    ),
    Entry(
        "CHIP_AWARD_WRONG_SEAT",
        "Chips of the pot were paid to a seat with no share",
        "warning",
        (
            cite(RULINGS, "6", "If a pot has been incorrectly awarded and mingled with chips "
                 "that were not in the pot, and the time limit for a ruling request given in the "
                 "previous rule has been observed, management may determine how much was in the "
                 "pot by reconstructing the betting"),
            _POT_ERROR,
        ),
        (
            "Seat {seat} was paid {amount} from a pot it has no share in ({short}).",
            "Take the {amount} back from seat {seat} and pay it to the winner(s) before the "
            "next deal starts; if it is mingled with seat {seat}'s chips, call the floor (RR "
            "Section 2, Decision-Making r.6).",
        ),
        "the pot and seat antennas (chips.zone), against the core's award",
        catalogue=False,
    ),
    Entry(
        "CHIP_STACK_MISMATCH",
        "A player's chips changed between hands",
        "warning",
        (
            cite(RULINGS, "6", "management may determine how much was in the pot by "
                 "reconstructing the betting, and then transfer that amount to the proper "
                 "player."),
        ),
        (
            "Seat {seat}'s chips read {chips} (stack and in front); the hands played leave it "
            "{stack}: {diff}.",
            "Count seat {seat}'s chips with the player before the deal. Call the floor if they "
            "differ: chips may have gone to or come from another seat, the tray or the cage.",
        ),
        "the stack and bet-zone antennas (chips.zone), against the core's stacks",
        catalogue=False,
    ),
    Entry(
        "CHIP_LEDGER_OFF",
        "The table's chips do not balance",
        "warning",
        (
            _POT_ERROR,
        ),
        (
            "Between hands the table holds {actual} in chips; it should hold {expected} (the "
            "last count, the players' buy-ins and cash-outs, and the chips the house took): "
            "{diff}. {zones}",
            "Count the tray, the drop and each player's chips. Call the floor and surveillance: "
            "chips have appeared or vanished.",
        ),
        "every chip zone's antennas and the counting tray (chips.zone, tray.counts)",
        catalogue=False,
    ),
)
