"""bench.chips still measures what it says: chip mistakes scored per code against the truth,
and bets timed from their first chip frame to the to-act LED through the real pty path."""

from __future__ import annotations

from bench.chips import fault_injection, measure
from controller.sim.score import rows


def test_fault_injection_scores_every_chip_mistake_made() -> None:
    tally, errors, fallbacks = fault_injection(36, 0.8, 0.0, seed=2,
                                               games=("nlhe", "stud", "27_triple"))
    per_code = rows(tally, "code")
    assert sum(m for m, _, _ in per_code.values()) >= 10
    for code, (made, caught, raised) in per_code.items():
        assert made == caught == raised, (code, made, caught, raised)
    assert errors == [] and fallbacks == 0
    assert sum(tally.hands.values()) == 36


def test_every_timed_bet_reaches_the_led_after_the_settle_time() -> None:
    """The to-act LED cannot move before the bet's zone has been still for the settle time,
    counted from the driver's read of the bet's frame (the time chip sensing counts from, on
    one monotonic clock): a loaded machine can only make the latency longer."""
    run = measure(hands=1, seed=4)
    assert len(run.led) >= 2 and run.cycle_ms > 0
    assert all(ms >= run.settle_s * 1000 for ms in run.led), run.led
    assert run.pty and all(ms >= 0 for ms in run.pty), run.pty  # each frame read after its write
