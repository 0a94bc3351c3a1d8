"""Tournament levels: the set-up of a tournament, a level going up, and the hand a new level
replans (a level marker passed mid-hand takes effect at the next hand); and the players left in
the event (``tournament.players``), which decide when a fixed-limit heads-up hand raises without
a cap (``new_hand.last_two``)."""

from __future__ import annotations

from controller.events import (
    LevelUp,
    TournamentPlayers,
    TournamentSetup,
)
from controller.poker.records import replace
from controller.rules import procedure
from controller.rules.table import blinds, seating
from controller.rules.table.kernel import hand_in_play, out_of_place
from controller.rules.table.new_hand import new_hand
from controller.rules.table.seating import Level, SeatingError
from controller.rules.table.state import LEVEL_MS, Hand, Step, TableState


def tournament_setup(state: TableState, body: TournamentSetup, seq: int) -> Step:
    if not state.settings.tournament:
        return out_of_place(state, seq, f"Profile {state.setup.profile!r} is not a tournament: "
                            "set it up with a tournament profile or the setting "
                            "'tournament': true.")
    if hand_in_play(state):
        return out_of_place(state, seq, "The blind schedule cannot change during a hand.")
    try:
        levels = tuple(Level(LEVEL_MS, lv["small_blind"], lv["big_blind"], lv.get("ante", 0))
                       for lv in body.levels)
    except SeatingError as exc:
        return out_of_place(state, seq, f"Blind schedule refused: {exc}.")
    table = state.seating
    if body.players is not None:
        fewer = _fewer_than_here(table, body.players, "entrants")
        if fewer:
            return out_of_place(state, seq, fewer)
    # (a schedule sent again without its entrants keeps the count told before)
    told = table.players_left if body.players is None else body.players
    return Step(replace(state, seating=replace(table, levels=levels, players_left=told),
                        level=0, level_next=None))


def tournament_players(state: TableState, body: TournamentPlayers, seq: int) -> Step:
    """The players left in the event, as the director tells it: kept from now, read when the
    next hand is planned (a hand under way keeps the raising it was dealt with)."""
    if not state.seating.tournament:
        return out_of_place(state, seq, f"Profile {state.setup.profile!r} is not a tournament: "
                            "it has no players left in an event to count.")
    fewer = _fewer_than_here(state.seating, body.remaining, "players left")
    if fewer:
        return out_of_place(state, seq, fewer)
    return Step(replace(state, seating=replace(state.seating, players_left=body.remaining)))


def _fewer_than_here(table: seating.Seating, count: int, what: str) -> str:
    """Why ``count`` cannot be the event's (fewer than the players with chips here), or ""."""
    here = seating.with_chips(table)
    if count >= here:
        return ""
    return f"The event cannot have {count} {what}: {here} players have chips at this table."


def level_up(state: TableState, body: LevelUp, seq: int) -> Step:
    levels = state.seating.levels
    if not state.seating.tournament:
        return out_of_place(state, seq, "This table is not a tournament: it has no levels.")
    index = min(body.level, len(levels)) - 1
    state = replace(state, level_next=index)
    h = state.hand
    if h is not None and h.in_play and h.plan is not None and not _marker_passed(state, h):
        # The hand has not begun by the profile's marker: it plays the new level.
        replanned = _replan(state, h, index)
        if replanned is not None:
            return Step(replanned)
    if h is None or not h.in_play:
        return Step(apply_level(state))
    return Step(state)


def _marker_passed(state: TableState, h: Hand) -> bool:
    """Has this hand begun, by the profile's level-change marker? (RR Section 15 r.10: the
    first riffle; AZW Timer Use and Breaks: the blinds posted; JPN: the first card.) A post
    already made keeps the hand's stakes whatever the marker."""
    marker = seating.level_marker(state.settings)
    posted = h.game.ticked > 0
    if posted or procedure.cards_out(h.game):
        return True
    return marker == "first_riffle" and state.shuffled


def apply_level(state: TableState) -> TableState:
    """A signalled level takes effect from the next hand (a hand already begun by the
    profile's marker keeps its stakes)."""
    if state.level_next is None:
        return state
    return replace(state, level=state.level_next, level_next=None)


def _replan(state: TableState, h: Hand, index: int) -> TableState | None:
    try:
        plan = blinds.plan_hand(state.seating, state.settings, now_ms=index * LEVEL_MS)
    except SeatingError:
        return None
    nh = new_hand(state, plan, h.number, h.game.variant)
    return replace(state, hand=nh, level=index, level_next=None)
