"""Finding codes of the betting and of hand and table management, as data: action out of turn,
short and oversized bets, the button and the blinds (research/button-blinds-betting.md §2.16;
Robert's Rules v11 Sections 3, 4 and 14). ``catalogue.py`` merges them into ``CATALOGUE``."""

from __future__ import annotations

from controller.rules.findings.entry import Entry, cite
from controller.rules.findings.rulebooks import (
    BETTING,
    BLINDS,
    IRREG,
    MISDEALS,
    NOLIMIT,
    REDEAL,
    RULES_BLINDS,
    WSOP,
)

# The remedy of RAISE_CAPPED, whichever rule keeps the cap (findings/remedies.py picks the rule).
RAISE_CAPPED_REMEDY = (
    "Seat {seat} may not raise: {why}.",
    "Seat {seat} may call {call} or fold; Feltguard has not applied the raise.",
)

BETTING_ENTRIES: tuple[Entry, ...] = (
    # --- betting -------------------------------------------------------------------------------
    Entry(
        "OOT_ACTION",
        "Action out of turn",
        "warning",
        (
            cite(BETTING, "11", "A player who checks out of turn may not bet or raise on the next "
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
            cite(NOLIMIT, "11", "If a player tries to bet or raise less than the legal minimum "
                 "and has more chips, the wager must be increased to the proper size (but no "
                 "greater)."),
            cite(NOLIMIT, "2"),
            cite(NOLIMIT, "3"),
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
            cite(NOLIMIT, "3", "A player who has already acted and is not facing a fullsize wager "
                 "may not subsequently raise an all-in bet that is less than the minimum bet or "
                 "less than the full size of the last bet or raise."),
            cite(NOLIMIT, "4"),
            cite(BETTING, "7", "Multiple all-in wagers, each of an amount too small to "
                 "individually qualify as a raise, still act as a raise and reopen the betting"),
        ),
        (
            "Seat {seat} may not raise: the wager since its last action is not a full raise.",
            "Seat {seat} may call {call} or fold; Feltguard has not applied the raise.",
        ),
        "the betting actions (dealer console or chip sensors)",
    ),
    Entry(
        "RAISE_CAPPED",
        "Raise not permitted: the raising is capped",
        "warning",
        (
            cite(BETTING, "4", "In limit poker, for a pot involving three or more players who "
                 "are not all-in, these limits on raises apply"),
            cite(BETTING, "5", "Unlimited raising is allowed in heads-up play except in "
                 "tournaments."),
            cite("Section 3, Betting and Raising", "4", "If the round begins with more than two "
                 "players and becomes heads-up during the middle of the round the raise maximum "
                 "still applies.", file=WSOP),
            cite("Section 15, Tournaments", "23", "The limitation on the number of raises at "
                 "limit poker is also applied to heads-up situations (except the last two "
                 "players in a tournament are exempted from a limitation on raises)."),
        ),
        RAISE_CAPPED_REMEDY,
        "the betting actions (dealer console or chip sensors)",
    ),
    Entry(
        "ACTION_NOT_AVAILABLE",
        "An action that is not available now",
        "warning",
        (
            cite(BETTING, "6", "Any wager not all-in must be at least the size of the previous "
                 "bet or raise in that round."),
            cite(BLINDS, "intro", "Blinds are posted before the players look at their cards."),
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
            cite(BLINDS, "1", "They remain the same even when the player in the blind does not "
                 "have enough chips to post the full amount."),
            cite(NOLIMIT, "2"),
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
            cite(BLINDS, "intro", "Blinds are posted before the players look at their cards."),
            cite(RULES_BLINDS, "1", "They remain the same even when the player in the blind does "
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
            cite(BLINDS, "intro", "the small blind is posted by the first player clockwise from "
                 "the button and the big blind is posted by the second player clockwise from the "
                 "button."),
            cite(MISDEALS, "2(g)", "The button was out of position."),
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
            cite(MISDEALS, "2(g)", "The button was out of position."),
            cite(RULES_BLINDS, "2", "Each round every player must get an opportunity for the "
                 "button, and meet the total amount of the blind obligations."),
            cite("Section 3, Misdeals", "1(g)", "The button was out of position.",
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
            cite("Section 3, The Showdown", "7", "If there is a side pot, the winner of that pot "
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
            cite(IRREG, "7", "A card discovered faceup in the deck (boxed card) will be treated as "
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
            cite(MISDEALS, "2(c)", "Two or more boxed cards (improperly faced cards) are found."),
            cite(IRREG, "7"),
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
            cite("Section 2, House Policies, Decision-Making", "2",
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
            cite("Section 2, House Policies, Decision-Making", "3", "The proper time to draw "
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
            cite(BLINDS, "intro", "The button moves one seat clockwise after a deal ends"),
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
            cite("Section 2, House Policies, Decision-Making", "7", "To keep the action moving, "
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
