"""The simulated dealer's catalogue of dealing mistakes: each kind, the finding the rules core
must raise for it, the families (board, stud, draw) where it can happen, and what a hand needs
for the dealer to make it.

``MISTAKES`` maps each kind to its finding code. A kind that raises two findings (a botched
remedy: the first error, then REMEDY_NOT_FOLLOWED; two independent mistakes in one hand) maps
to the last one; the dealer's truth (``Mistake``) records every finding it expects. Citations:
research/irregularities.md and the rulebooks named by each finding (docs/findings.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from controller.poker.variants import Variant, family

BOARD, STUD, DRAW = "board", "stud", "draw"
ALL = frozenset({BOARD, STUD, DRAW})

# When the mistake happens: in the initial deal (no betting needed), during the play (a hand that
# reaches a later street with its betting open: the dealer's players then call and check), or
# after the hand.
DEAL, PLAY, END = "deal", "play", "end"


@dataclass(frozen=True)
class Kind:
    """One mistake the dealer can make."""

    code: str  # the finding it must raise (the last, when it raises two)
    families: frozenset[str]
    stage: str = DEAL
    players: int = 2  # the fewest players dealt in it needs
    # Only at a table whose monitor alert is not the attention call (house setting
    # ``attention_on_alert`` off): the floor notices the error after the misdeal cut-off.
    late: bool = False
    # The console key the monitor needs to see the mistake ("": the sensors see it alone): the
    # dealer's boxed-card or exposed-card key, or the attention call.
    key: str = ""


def _k(code: str, families: frozenset[str] | str, stage: str = DEAL, players: int = 2,
       late: bool = False, key: str = "") -> Kind:
    fam = frozenset({families}) if isinstance(families, str) else families
    return Kind(code, fam, stage, players, late, key or ("attention.called" if late else ""))


BOXED, EXPOSED = "card.boxed", "card.exposed"


KINDS: Mapping[str, Kind] = MappingProxyType({
    # --- every family (RR Section 3: Irregularities, Misdeals, Dead Hands) ------------------
    "duplicate_card": _k("DUPLICATE_CARD", ALL),  # Irregularities r.4
    "unknown_tag": _k("UNKNOWN_TAG", ALL),  # Irregularities r.3
    "joker_dealt": _k("JOKER_IN_NON_JOKER_GAME", ALL),  # Irregularities r.8
    "first_card_wrong_seat": _k("MISDEAL_FIRST_CARD_WRONG_POSITION", ALL),  # Misdeals r.2(h)
    # Misdeals r.2(f): to the seat before the one due (heads-up at a board game: the burn)
    "card_out_of_sequence": _k("MISDEAL_CARD_OUT_OF_SEQUENCE", ALL),
    "boxed_card": _k("BOXED_CARD_SINGLE", ALL, key=BOXED),  # Irregularities r.7
    "draw_after_hand_end": _k("DRAW_AFTER_HAND_END", ALL, END),  # Section 2 Procedures r.24
    "mucked_hand_retrieved": _k("MUCKED_HAND_RETRIEVAL", ALL, PLAY),  # Dead Hands r.2
    # Misdeals r.1: noticed after the misdeal cut-off, the deal is played (board games: the
    # first or second card exposed; stud and draw: two cards of the first pass swapped)
    "misdeal_noticed_late": _k("MISDEAL_LOCKOUT", ALL, players=4, late=True),
    # --- board games: hold'em, Omaha, five-card Omaha, the Pineapples, short deck ------------
    "first_or_second_face_up": _k("MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED", BOARD),
    "first_or_second_exposed_key": _k("MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED", BOARD, key=EXPOSED),
    # Misdeals r.2(e): a seat passed over, the next seat given the next card too; judged once
    # the round of dealing is complete
    "seat_one_card_short": _k("MISDEAL_INCORRECT_CARD_COUNT", BOARD),
    "one_extra_card": _k("EXTRA_CARD_SINGLE_BECOMES_BURN", BOARD),
    "two_extra_cards": _k("MISDEAL_TWO_OR_MORE_EXTRA_CARDS", BOARD),
    "hole_card_face_up": _k("HOLECARD_EXPOSED_SINGLE_REPLACE", BOARD),
    "hole_card_exposed_key": _k("HOLECARD_EXPOSED_SINGLE_REPLACE", BOARD, key=EXPOSED),
    "missing_burn_flop": _k("FLOP_BURN_ERROR", BOARD, PLAY),
    "extra_burn_flop": _k("FLOP_BURN_ERROR", BOARD, PLAY),
    "missing_burn_turn": _k("BURN_MISSING_OR_EXTRA", BOARD, PLAY),
    "extra_burn_turn": _k("BURN_MISSING_OR_EXTRA", BOARD, PLAY),
    "missing_burn_river": _k("BURN_MISSING_OR_EXTRA", BOARD, PLAY),
    "extra_burn_river": _k("BURN_MISSING_OR_EXTRA", BOARD, PLAY),
    "four_card_flop": _k("FLOP_TOO_MANY_CARDS", BOARD, PLAY),
    "premature_flop": _k("FLOP_PREMATURE", BOARD, PLAY),
    "premature_turn": _k("TURN_PREMATURE", BOARD, PLAY),
    "premature_river": _k("RIVER_PREMATURE", BOARD, PLAY),
    # the remedy botched
    "boxed_card_dealt": _k("REMEDY_NOT_FOLLOWED", BOARD, key=BOXED),
    "extra_card_not_burned": _k("REMEDY_NOT_FOLLOWED", BOARD),
    "exposed_card_not_replaced": _k("REMEDY_NOT_FOLLOWED", BOARD),
    "missing_burn_flop_not_fixed": _k("REMEDY_NOT_FOLLOWED", BOARD, PLAY),
    "premature_flop_burned_again": _k("REMEDY_NOT_FOLLOWED", BOARD, PLAY),
    "premature_turn_river_burned": _k("REMEDY_NOT_FOLLOWED", BOARD, PLAY),
    # two independent mistakes in one hand
    "exposed_card_then_premature_turn": _k("TURN_PREMATURE", BOARD, PLAY),
    "missing_burn_flop_then_extra_burn_river": _k("BURN_MISSING_OR_EXTRA", BOARD, PLAY),
    # noticed after the misdeal cut-off (Misdeals r.1): the deal is played
    "seat_skipped_noticed_late": _k("HAND_WRONG_CARD_COUNT_DEAD", BOARD, players=4, late=True),
    # every family, Misdeals r.2(f): a seat passed over and given its card right after (two
    # cards swapped). Listed after the board kinds so that the board scenarios written before it
    # (tests/scenarios/make_family_scenarios.py, one game per kind in turn) keep their games.
    "seat_passed_over_dealt_next": _k("MISDEAL_CARD_OUT_OF_SEQUENCE", ALL),
    # the button games with blinds, Misdeals r.2(g): the button not moved, the blinds posted as
    # for the hand before (listed last, for the same reason)
    "button_not_moved": _k("MISDEAL_BUTTON_OUT_OF_POSITION", frozenset({BOARD, DRAW}),
                           players=3),

    # --- stud, razz, stud/8 (RR Sections 8-10) ----------------------------------------------
    "stud_downcard_exposed": _k("STUD_ONE_HOLECARD_EXPOSED", STUD),  # Section 8 r.1
    "stud_downcard_exposed_key": _k("STUD_ONE_HOLECARD_EXPOSED", STUD, key=EXPOSED),
    "stud_both_downcards_exposed": _k("STUD_BOTH_HOLECARDS_EXPOSED", STUD, players=3),
    "stud_exposed_remedy_ignored": _k("REMEDY_NOT_FOLLOWED", STUD),  # Section 8 r.1
    "stud_wrong_bring_in": _k("STUD_WRONG_LOWCARD_DESIGNATED", STUD),  # Section 8 r.5
    "stud_burn_missing": _k("STUD_BURN_ERROR", STUD, PLAY),  # Section 8 r.13
    "stud_burn_extra": _k("STUD_BURN_ERROR", STUD, PLAY),  # Section 8 r.13
    "stud_premature_street": _k("STUD_PREMATURE_STREET", STUD, PLAY),  # Section 8 r.14
    "stud_final_card_faceup": _k("STUD_FINAL_CARD_FACEUP", STUD, PLAY),  # Section 8 r.17
    "stud_final_card_exposed_key": _k("STUD_FINAL_CARD_FACEUP", STUD, PLAY, key=EXPOSED),
    # --- draw games (RR Sections 11-12; WSOP Section 12 Badugi) -----------------------------
    "draw_first_card_exposed": _k("MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED", DRAW),
    "draw_first_card_exposed_key": _k("MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED", DRAW, key=EXPOSED),
    "draw_predraw_exposed": _k("DRAW_PREDRAW_EXPOSED_CARD", DRAW),
    "draw_predraw_exposed_key": _k("DRAW_PREDRAW_EXPOSED_CARD", DRAW, key=EXPOSED),
    "draw_exposed_on_draw": _k("DRAW_EXPOSED_ON_DRAW", DRAW, PLAY),  # Section 11 r.9
    "draw_exposed_on_draw_key": _k("DRAW_EXPOSED_ON_DRAW", DRAW, PLAY, key=EXPOSED),
    "draw_five_consecutive": _k("DRAW_FIVE_CARDS_RULE", DRAW, PLAY),  # Section 11 r.10
    "draw_button_short": _k("DRAW_SHORT_HAND_PREDRAW", DRAW),  # Section 12 r.5
    "draw_wrong_count": _k("DRAW_WRONG_COUNT_AFTER_DRAW", DRAW, PLAY),  # Section 11 r.12
    "draw_burn_missing": _k("BURN_MISSING_OR_EXTRA", DRAW, PLAY),  # Irregularities r.16
    # --- every family, added later (listed last so the earlier kinds keep their draws) ------
    # Irregularities r.3: a card of the table's idle deck (a different back) in the deal
    "foreign_card": _k("FOREIGN_BACK_CARD_IN_PLAY", ALL),
    # Dead Hands r.3: before the first action a player's card lands in another player's hand
    "cards_thrown": _k("CARDS_THROWN_INTO_ANOTHER_HAND", ALL, players=3),
    # Irregularities r.2: before the first action the dealer sweeps a live hand into the muck
    "hand_killed_unprotected": _k("UNPROTECTED_HAND_KILLED_OR_FOULED", ALL, players=3),
})

MISTAKES: Mapping[str, str] = MappingProxyType({k: v.code for k, v in KINDS.items()})
"""Every mistake kind -> the finding code the rules core must raise for it."""


# Kinds that need more players in some families than ``Kind.players`` says: stud and draw have
# no burn in the initial deal for a heads-up card out of sequence to go to.
_FAMILY_PLAYERS: Mapping[tuple[str, str], int] = MappingProxyType({
    ("card_out_of_sequence", STUD): 3, ("card_out_of_sequence", DRAW): 3})


def players_needed(kind: str, fam: str) -> int:
    """The fewest players dealt in a hand of family ``fam`` needs for the dealer to make
    ``kind``."""
    return _FAMILY_PLAYERS.get((kind, fam), KINDS[kind].players)


def mistakes_for(v: Variant) -> tuple[str, ...]:
    """The kinds the dealer can make in a hand of ``v``, sorted: its family's, less those the
    game rules out (the joker in a game that plays it; a five-card draw where at most four are
    drawn; the button seen through the blinds in a game without blinds)."""
    fam = family(v)
    out = []
    for name, kind in KINDS.items():
        if fam not in kind.families:
            continue
        if name == "joker_dealt" and v.deck == "joker":
            continue
        if name == "draw_five_consecutive" and v.max_draw < 5:
            continue
        if name == "button_not_moved" and v.forced != "blinds":
            continue  # an ante game's button posts nothing that could show where it is
        out.append(name)
    return tuple(sorted(out))
