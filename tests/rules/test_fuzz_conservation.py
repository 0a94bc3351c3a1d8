"""bench.fuzz's chip-conservation check (``bench.fuzz.Conservation``) and its raked base streams:
real event streams keep the table's chips but for the events that bring chips in or take them out
and the rake, which the check takes as a legal outflow up to the set-up's schedule and no more."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.fuzz import (
    CheckFailed,
    Conservation,
    crash_site,
    holdem_stream,
    rake_schedule,
    raked_stream,
    run_events,
    table_chips,
)
from controller.events import Event, PlayerAway, SeatTake, TableSetup, Undo
from controller.journal import load_events
from controller.rules import TableState, apply, initial_state

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def _states(events: list[Event]) -> list[TableState]:
    """The state before each event, and after the last."""
    states = [initial_state()]
    for e in events:
        states.append(apply(states[-1], e).state)
    return states


def test_a_raked_stream_keeps_its_chips_but_for_buy_ins_and_a_rake_within_the_schedule() -> None:
    base = raked_stream(11, 8)
    assert base.name.startswith("raked holdem with chips")
    state = initial_state()
    check = Conservation(state)
    raked = 0
    for e in base.events:
        step = apply(state, e)
        before = check.total
        check.step(state, e, step.state, step.results)  # raises CheckFailed on a leak
        if e.type == "chips.zone" and check.total < before:
            raked += before - check.total
        state = step.state
    assert raked > 0  # the dealer dropped the rake and the core cut the winners by it
    setup = next(e.body for e in base.events if isinstance(e.body, TableSetup))
    assert setup.rake_percent in (5, 10)


def test_the_suites_other_base_streams_pass_the_check() -> None:
    run_events(initial_state(), holdem_stream(3, 4).events, full=True)
    for path in ("chips_rake_over_the_schedule.jsonl", "table/chip_race_colour_up.jsonl"):
        run_events(initial_state(), load_events(SCENARIOS / path), full=True)


def test_the_rake_is_a_legal_outflow_up_to_the_schedule_and_no_more() -> None:
    # the house drops 5 of a pot of 70 under a rake of 10% capped at 3: the core takes 3 off the
    # winners' stacks as the pot empties (seq 64) and calls the other 2 a skim
    events = list(load_events(SCENARIOS / "chips_rake_over_the_schedule.jsonl"))
    states = _states(events)
    end = next(i for i, e in enumerate(events) if e.type == "hand.end")
    judged = next(i for i, e in enumerate(events) if e.seq == 64)
    assert table_chips(states[judged]) - table_chips(states[judged + 1]) == 3
    assert rake_schedule(70, 10, 3) == 3
    check = Conservation(states[end])
    check.step(states[end], events[end], states[end + 1], apply(states[end], events[end]).results)
    assert check.rake_left == 3
    for i in range(end + 1, judged + 1):
        check.step(states[i], events[i], states[i + 1], ())
    assert check.rake_left == 0
    # the same cut where the schedule left less of the award to rake is a crash
    short = Conservation(states[judged])
    short.rake_left = 2
    with pytest.raises(CheckFailed) as caught:
        short.step(states[judged], events[judged], states[judged + 1], ())
    assert caught.value.site == "check: chips not conserved at chips.zone"


def test_chips_changed_by_an_event_that_brings_none_are_a_crash_at_its_site() -> None:
    events = [Event(1, 0, TableSetup(game="nlhe", seats=3)),
              Event(2, 0, SeatTake(seat=1, player="Ann", stack=200)),
              Event(3, 0, SeatTake(seat=2, player="Bob", stack=200))]
    states = _states(events)
    assert table_chips(states[-1]) == 400
    rebuy = Event(4, 0, SeatTake(seat=1, player="Ann", stack=300))
    after = apply(states[-1], rebuy).state
    check = Conservation(states[-1])
    check.step(states[-1], rebuy, after, ())  # a re-buy brings chips: legal
    assert check.total == 500
    # the same change of chips said to come from a player stepping away is not
    away = Event(4, 0, PlayerAway(seat=1))
    with pytest.raises(CheckFailed) as caught:
        Conservation(states[-1]).step(states[-1], away, after, ())
    assert caught.value.site == "check: chips not conserved at player.away"
    assert "400 -> 500" in str(caught.value)


def test_an_undo_goes_back_to_the_chips_before_the_undone_event() -> None:
    events = [Event(1, 0, TableSetup(game="nlhe", seats=3)),
              Event(2, 0, SeatTake(seat=1, player="Ann", stack=200)),
              Event(3, 0, SeatTake(seat=2, player="Bob", stack=200)),
              Event(4, 0, Undo()),
              Event(5, 0, Undo())]  # nothing left to undo: unchanged
    assert crash_site(events) is None
    assert table_chips(_states(events)[-1]) == 200
