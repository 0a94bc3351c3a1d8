"""The remedies the simulated dealer carries out after its mistakes, chosen in one place.

Today the dealer follows Robert's Rules (roberts-rules-v11.txt, the default profile), which is
what the monitor expects at a ``roberts`` table. Every choice the rulebooks make differently
(research/irregularities.md, the disagreement tables; docs/house-rules.md) is a function here
that the family dealers ask, so per-profile remedies change this module only.

- ``floor_stops``: after which findings the floor declares a misdeal (the hand is void and
  redealt) instead of the dealer putting the error right and playing on;
- ``exposed_predraw_taken``: draw games, a card exposed on the deal: taken, or replaced once the
  deal is complete (the exposed card becoming the burn);
- ``stud_rest_up``: stud, the last card dealt face up: whether the remaining last cards come
  face up too.

The physical remedies the board procedure names (the exposed hole card as the flop burn, a
premature flop mixed back into the stub, the premature turn card set aside, the extra card as
the burn) are RR Section 5 Holdem r.1-8 and Section 3 Irregularities r.11, r.16; no profile of
``house_rules.py`` changes them.
"""

from __future__ import annotations

from controller.rules import CATALOGUE

# Findings whose remedy the dealer follows (the hand plays on), per family. Any other finding
# (every misdeal, and in the board games a remedy not followed or an unexpected card, after
# which the board monitor stops judging the hand) makes the floor declare a misdeal.
_EVERY_FAMILY = frozenset({
    "BOXED_CARD_SINGLE",  # RR Section 3 Irregularities r.7: replaced by the next card
    "JOKER_IN_NON_JOKER_GAME",  # RR Section 3 Irregularities r.8: a scrap of paper
    "MUCKED_HAND_RETRIEVAL",  # RR Section 3 Dead Hands r.2: the floor rules it dead
    "MISDEAL_LOCKOUT",  # RR Section 3 Misdeals r.1: past the cut-off the deal is played
    "HAND_WRONG_CARD_COUNT_DEAD",  # RR Section 3 Misdeals r.1, Dead Hands r.1(d)
    "DRAW_AFTER_HAND_END",  # the hand is over already
    "CARDS_THROWN_INTO_ANOTHER_HAND",  # RR Section 3 Dead Hands r.3: the thrower's hand is dead
    "UNPROTECTED_HAND_KILLED_OR_FOULED",  # RR Section 3 Irregularities r.2: no redress
})
FOLLOWED: dict[str, frozenset[str]] = {
    "board": _EVERY_FAMILY | {
        "EXTRA_CARD_SINGLE_BECOMES_BURN", "HOLECARD_EXPOSED_SINGLE_REPLACE", "FLOP_BURN_ERROR",
        "BURN_MISSING_OR_EXTRA", "FLOP_TOO_MANY_CARDS", "FLOP_PREMATURE", "TURN_PREMATURE",
        "RIVER_PREMATURE"},
    "stud": _EVERY_FAMILY | {
        "STUD_ONE_HOLECARD_EXPOSED", "STUD_BOTH_HOLECARDS_EXPOSED",
        "STUD_WRONG_LOWCARD_DESIGNATED", "STUD_BURN_ERROR", "STUD_PREMATURE_STREET",
        "STUD_FINAL_CARD_FACEUP", "STUD_ALLIN_FINAL_CARD_FACEUP",
        # the stud and draw monitor drops the step missed and judges on
        "REMEDY_NOT_FOLLOWED"},
    "draw": _EVERY_FAMILY | {
        "DRAW_PREDRAW_EXPOSED_CARD", "DRAW_EXPOSED_ON_DRAW", "DRAW_FIVE_CARDS_RULE",
        "DRAW_SHORT_HAND_PREDRAW", "DRAW_WRONG_COUNT_AFTER_DRAW", "BURN_MISSING_OR_EXTRA",
        "REMEDY_NOT_FOLLOWED"},
}


def floor_stops(code: str, family: str) -> bool:
    """After a finding ``code`` in a hand of ``family``, does the floor declare a misdeal? Never
    for a chip finding: the simulated dealer puts the chips right and the hand goes on
    (``chip_dealer.py``)."""
    if code.startswith("CHIP_"):
        return False
    if CATALOGUE[code].severity == "misdeal":
        return True
    return code not in FOLLOWED[family]


# Exposed by the dealer before the draw, the ranks a player must take; any other is replaced
# once the deal is complete. None: every exposed card is kept (draw high, RR Section 12 r.4).
# A-5 limit: "an exposed card of seven or under must be taken" (RR Section 11 Ace-to-Five r.3);
# 2-7: "an exposed card of 7, 5, 4, 3, or 2 must be taken" (RR Section 11 Deuce-to-Seven r.2,
# NL/PL Lowball r.2(b)); badugi: "A, 2, 3, or, 4 must be taken on the deal only" (WSOP Section
# 12 Badugi r.6).
MUST_TAKE: dict[str, str | None] = {
    "draw5": None, "draw5_jacks": None, "draw5_joker": None,
    "a5_lowball": "A234567", "27_single": "23457", "27_triple": "23457", "badugi": "A234",
}


def exposed_predraw_taken(game: str, card: str) -> bool:
    """Draw games: must the player take ``card``, exposed by the dealer on the deal?"""
    must = MUST_TAKE.get(game)
    return must is None or card[0] in must


def stud_rest_up(players_due: int, first: bool) -> bool:
    """Stud, a seventh-street card dealt face up to a player who is not all-in: are the other
    last cards dealt face up too? Heads-up, when it was the first of the two, "the second
    player's final downcard will also be dealt faceup" (RR Section 8 r.17(b)); with more players
    "all remaining players receive their last card facedown" (RR r.17(a))."""
    return players_due == 2 and first
