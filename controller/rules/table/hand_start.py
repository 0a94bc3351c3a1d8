"""A new hand: ``hand.start``.

``blinds.plan_hand`` gives the button (which may sit in front of an empty seat: dead button),
the blinds, every forced post due and the seats dealt in, in dealing order. A button named by the
event that differs from the plan raises MISDEAL_BUTTON_OUT_OF_POSITION (roberts-rules-v11.txt,
Section 3, Misdeals, r.2(g)); the hand runs on the plan. After a misdeal the redeal is an exact
re-play of the same plan (azwine-tour-tournament-rules.txt, Misdeals (TDA #34) r.2: "the button
does not move"). Between hands the chips are counted first (``chip_zones``)."""

from __future__ import annotations

from controller.events import (
    HandStart,
)
from controller.poker.records import replace
from controller.rules.findings import Finding, make_finding
from controller.rules.table import blinds, mixed, seating
from controller.rules.table.betting import BUTTON_MISPLACED, button_misplaced
from controller.rules.table.chip_zones import chips_between_hands
from controller.rules.table.devices import hand_findings
from controller.rules.table.kernel import hand_in_play, out_of_place, voided, with_findings
from controller.rules.table.levels import apply_level
from controller.rules.table.new_hand import new_hand, seating_stakes
from controller.rules.table.seating import HandPlan, SeatingError
from controller.rules.table.state import LEVEL_MS, Step, TableState


def hand_start(state: TableState, body: HandStart, seq: int) -> Step:
    if hand_in_play(state):
        return out_of_place(state, seq, "A hand is in progress: award the pots or declare a "
                            "misdeal before starting a new one.")
    redeal = state.redeal and state.hand is not None
    mix = state.mix
    if redeal and state.hand is not None:
        v = state.hand.game.variant  # the redeal is the same hand
    else:
        got = mixed.next_game(state.mix, state.setup.game, state.setup.structure)
        if isinstance(got, str):
            return out_of_place(state, seq, f"{got}.")
        mix, v = got
    if sum(st.stack > 0 for st in state.seating.seats.values()) > v.max_players:
        return out_of_place(state, seq, f"{v.name} is dealt to at most {v.max_players} "
                            "players.")
    if state.chip_race:
        return out_of_place(state, seq, "A chip race is in progress: end it (chiprace.end) "
                            "before the next hand.")
    state, out = chips_between_hands(state, seq)
    table = replace(state.seating, stakes=seating_stakes(state.setup, v))
    replay = state.hand.plan if state.redeal and state.hand is not None else None
    if replay is not None and all(table.seats.get(n) is not None and table.seats[n].stack > 0
                                  for n in replay.dealt_in):
        plan = replay  # the redeal is an exact re-play (AZW TDA #34 r.2)
    else:
        # No redeal, or a player of the void hand has left since: plan afresh (the seating
        # layer's positions did not move on, the void hand was never finished).
        state = apply_level(state)
        if table.button is None and (table.hand_number == 0 or v.forced != "antes_bring_in"):
            # The first hand with no draw (or, in a mixed game, the first button game after
            # stud hands): the named button places it, as the draw would; without one it goes
            # to the lowest seat with chips (v1).
            first = body.button if body.button in table.seats else next(
                (n for n, st in sorted(table.seats.items()) if st.stack > 0), None)
            if first is not None:
                table = seating.with_button(table, first)
        try:
            plan = blinds.plan_hand(table, state.settings, now_ms=state.level * LEVEL_MS)
        except SeatingError as exc:
            return out_of_place(state, seq, f"No hand can be dealt: {exc}.")
    if body.button is not None and plan.button is not None and body.button != plan.button:
        out.append(button_misplaced(state, plan, body.button, plan.button, seq))
    late = _button_wrong_last_hand(state, plan, seq) if not redeal and not out else None
    number = state.hand_number + 1
    try:
        hand = new_hand(replace(state, seating=table), plan, number, v)
    except ValueError as exc:  # the hand engine refuses these stakes for this game
        return out_of_place(state, seq, f"No hand can be dealt: {exc}.")
    if out:
        hand = replace(hand, game=voided(hand.game, out[0].code))
    new = replace(state, seating=table, hand=hand, hand_number=number, findings=(),
                  last_button=plan.button, redeal=False, shuffled=False,
                  mix=mixed.dealt(mix, len(plan.dealt_in)))
    if late is not None:
        out.append(late)
    out.extend(hand_findings(state.devices, seq))  # never a hand dealt blind, untold
    return Step(with_findings(new, out), tuple(out))


def _button_wrong_last_hand(state: TableState, plan: HandPlan, seq: int) -> Finding | None:
    """The hand before was played to its end with the button out of position (the error was
    found past the misdeal cut-off, held with nobody calling attention, or let stand by the
    floor): "the button and blinds will be corrected for the new hand in a manner that gives
    every player one chance for each position on the round" (roberts-rules-v11.txt, Section 3,
    Irregularities, r.1). The seating layer moved the button on from where it belonged, so this
    hand's plan is the correction; the finding says so, and the last hand's result stands."""
    last = state.hand
    if last is None or last.phase != "complete" or plan.button is None:
        return None
    wrong = next((f for f in (*state.findings, *last.held) if f.code == BUTTON_MISPLACED), None)
    if wrong is None or len(wrong.seats) != 2:
        return None
    placed, expected = wrong.seats
    blinds = (f"small blind seat {plan.small_blind}" if plan.small_blind is not None
              else "no small blind") + f", big blind seat {plan.big_blind}"
    return make_finding("BUTTON_MISPLACED_PREVIOUS_HAND", seq, seats=[placed, expected],
                        fill={"previous": last.number, "placed": placed, "expected": expected,
                              "button": plan.button, "blinds": blinds})
