"""A small run of the fault-injection benchmark: every mistake the simulated dealer makes is
caught under its code, and nothing else is raised (bench/monitor.py runs 5,000 hands)."""

from __future__ import annotations

from bench.monitor import run


def test_every_injected_mistake_is_caught_and_nothing_else_is_raised():
    made, caught, raised, kinds = run(hands=400, mistake_rate=0.6, seat_changes=0.1, seed=9)
    assert sum(made.values()) > 150
    assert len(made) >= 12  # most codes of the catalogue were exercised
    assert caught == made  # recall 100% for every code
    assert raised == made  # precision 100%: no false alarm
    assert all(kinds[code] for code in made)


def test_stud_and_draw_mistakes_are_caught_and_nothing_else_is_raised():
    from bench.monitor_games import run as run_games

    # 100 hands per game: long enough for a mistake to meet an earlier hand's aftermath
    made, caught, raised, kinds = run_games(hands=1000, mistake_rate=0.6, seed=4)
    assert sum(made.values()) > 400
    assert len(made) >= 18
    assert caught == made
    assert raised == made
    assert all(kinds[code] for code in made)
