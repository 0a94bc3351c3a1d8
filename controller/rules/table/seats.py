"""Set-up and seats between hands: ``table.setup``, players taking and leaving seats, away and
back, the draw for the button, the chip race, the shuffle.

Across hands the seating layer (``seating.py``, research/button-blinds-betting.md §1.18) owns the
seats, the button and every blind obligation, under the table's house-rules profile
(``controller/poker/house_rules.py``); these handlers hand it each change. Before the first hand
a named button places it, as the draw would (roberts-rules-v11.txt, Section 2, Seating, r.6)."""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType

from controller.events import (
    ButtonDraw,
    ChipRaceEnd,
    ChipRaceStart,
    PlayerAway,
    PlayerBack,
    SeatChange,
    SeatLeave,
    SeatTake,
    TableSetup,
)
from controller.poker.house_rules import SettingsError, settings_for
from controller.poker.records import replace
from controller.rules import procedure
from controller.rules.table import mixed, seating
from controller.rules.table.kernel import hand_in_play, out_of_place, with_stack
from controller.rules.table.new_hand import game_of_setup, seating_stakes
from controller.rules.table.seating import Level, Seating, SeatingError
from controller.rules.table.state import LEVEL_MS, Step, TableState


def table_setup(state: TableState, body: TableSetup, seq: int) -> Step:
    if hand_in_play(state):
        return out_of_place(state, seq, "The table cannot be set up again during a hand.")
    outside = sorted(s for s in state.seating.seats if s > body.seats)
    if outside:
        return out_of_place(state, seq, f"Seats {outside} are occupied but the table would have "
                            f"only {body.seats} seats.")
    try:
        first = game_of_setup(body)
    except ValueError as exc:
        return out_of_place(state, seq, f"Table set-up refused: {exc}.")
    try:
        cfg = settings_for(body.profile, body.settings)
        stakes = seating_stakes(body, first)
        old = state.seating
        levels = old.levels or (Level(LEVEL_MS, stakes.small_blind, stakes.big_blind,
                                      body.ante),)
        seats = {n: replace(st) for n, st in old.seats.items()}
        # (a tournament set up again keeps the players left in its event)
        table = replace(seating.new_table(max_seats=body.seats, stakes=stakes,
                                          tournament=cfg.tournament, levels=levels),
                        seats=MappingProxyType(seats),
                        players_left=old.players_left if cfg.tournament else None)
    except (SettingsError, SeatingError) as exc:
        return out_of_place(state, seq, f"Table set-up refused: {exc}.")
    return Step(replace(state, setup=body, settings=cfg, seating=table,
                        mix=mixed.new_mix(body.game)))


def _seating(state: TableState, seq: int, change: Callable[[Seating], Seating]) -> Step:
    """Apply a seating change; a change the seating layer refuses is EVENT_OUT_OF_PLACE."""
    try:
        table = change(state.seating)
    except SeatingError as exc:
        return out_of_place(state, seq, f"{str(exc)[:1].upper()}{str(exc)[1:]}.")
    return Step(replace(state, seating=table))


def seat_take(state: TableState, body: SeatTake, seq: int) -> Step:
    if body.seat > state.setup.seats:
        return out_of_place(state, seq, f"Seat {body.seat} does not exist at this "
                            f"{state.setup.seats}-seat table.")
    if _dealt_in(state, body.seat):
        return out_of_place(state, seq, f"Seat {body.seat} is playing this hand; "
                            f"{body.player} cannot take it now.")
    current = state.seating.seats.get(body.seat)
    if current is not None and current.player == body.player:
        # The same player: a re-buy (RR Section 4 r.12: not a new player) or a stack correction.
        if body.stack >= current.stack and not state.seating.tournament:
            extra = body.stack - current.stack
            return _seating(state, seq, lambda t: seating.rebuy(t, body.seat, extra)
                            if extra else t)
        return _seating(state, seq, lambda t: with_stack(t, body.seat, body.stack))

    def take(t: Seating) -> Seating:
        if current is not None:
            t = seating.leave(t, body.seat)  # another player takes the seat over
        if body.stack == 0:
            raise SeatingError(f"{body.player} needs chips to sit down")
        return seating.sit_down(t, body.seat, body.player, body.stack, post=body.post)

    return _seating(state, seq, take)


def seat_leave(state: TableState, body: SeatLeave, seq: int) -> Step:
    if body.seat not in state.seating.seats:
        return out_of_place(state, seq, f"Seat {body.seat} is already empty.")
    if _dealt_in(state, body.seat):
        return out_of_place(state, seq, f"Seat {body.seat} is playing this hand; it can leave "
                            "when the hand is over.")
    return _seating(state, seq, lambda t: seating.leave(t, body.seat))


def presence(state: TableState, body: PlayerAway | PlayerBack | SeatChange, seq: int) -> Step:
    if isinstance(body, SeatChange):
        if body.to > state.setup.seats:
            return out_of_place(state, seq, f"Seat {body.to} does not exist at this "
                                f"{state.setup.seats}-seat table.")
        if _dealt_in(state, body.seat):
            return out_of_place(state, seq, f"Seat {body.seat} is playing this hand; it can "
                                "change seats when the hand is over.")
        return _seating(state, seq, lambda t: seating.change_seat(t, body.seat, body.to))
    if isinstance(body, PlayerAway):
        return _seating(state, seq, lambda t: seating.away(t, body.seat))
    step = _seating(state, seq, lambda t: seating.back(t, body.seat, post=body.post))
    h = step.state.hand
    if not step.findings and h is not None and body.seat in h.absent:
        # Back before the starting hands are complete: the hand is live (RR Section 15 r.13).
        h = replace(h, absent=tuple(s for s in h.absent if s != body.seat))
        return Step(replace(step.state, hand=h))
    return step


def button_draw(state: TableState, body: ButtonDraw, seq: int) -> Step:
    if state.seating.hand_number > 0 or hand_in_play(state):
        return out_of_place(state, seq, "The button is drawn for only before the first hand "
                            "(roberts-rules-v11.txt, Section 2, Seating, r.6).")

    def draw(t: Seating) -> Seating:
        return seating.with_button(t, seating.initial_button(t, body.cards,
                                                             settings=state.settings))

    return _seating(state, seq, draw)


def chip_race_event(state: TableState, body: ChipRaceStart | ChipRaceEnd, seq: int) -> Step:
    if hand_in_play(state):
        return out_of_place(state, seq, "A chip race is held between hands.")
    if isinstance(body, ChipRaceStart):
        # The colour-up deal (RR Section 15 r.11) is not a hand: its cards are no finding.
        return Step(replace(state, chip_race=True))
    if not state.chip_race:
        return out_of_place(state, seq, "No chip race is in progress.")
    empty = sorted(n for n in body.stacks if n not in state.seating.seats)
    zero = sorted(n for n, v in body.stacks.items() if v == 0)
    if empty or zero:
        detail = (f"seat(s) {empty} are empty" if empty else
                  f"seat(s) {zero} would have no chips: a player may not be eliminated by the "
                  "chip race (roberts-rules-v11.txt, Section 15, r.11)")
        return out_of_place(state, seq, f"Chip race result refused: {detail}.")
    table = state.seating
    for n, v in body.stacks.items():
        table = with_stack(table, n, v)
    return Step(replace(state, seating=table, chip_race=False))


def shuffle(state: TableState) -> Step:
    h = state.hand
    if h is not None and h.in_play and procedure.cards_out(h.game):
        # Mid-hand, once cards are out: a remedy's stub reshuffle (RR Section 5 Holdem r.7;
        # Section 3 r.16; STUD_INSUFFICIENT_CARDS). Before the first card it is the deal's own
        # shuffle.
        return Step(replace(state, hand=replace(h, game=procedure.stub_shuffled(h.game))))
    return Step(replace(state, shuffled=True))


def _dealt_in(state: TableState, seat: int) -> bool:
    h = state.hand
    return h is not None and h.in_play and h.game.pos(seat) is not None
