"""The simulated dealer waits for each card's own events before its next move, whatever else
the daemon journals meanwhile: a reader's health change (the demo watches its readers, as a
table does) landed between a card's frames and let the next console action go before the card,
so the hand fell apart into out-of-turn findings (a flaky public-view scan under load)."""

from __future__ import annotations

import threading

from controller.events import ReaderHealth
from controller.processes.sim import SimOptions, simulated_table
from controller.sim.score import exit_status


def test_events_from_elsewhere_do_not_hurry_the_simulated_dealer() -> None:
    opts = SimOptions(hands=4, mistake_rate=0.0, seat_changes=0.0, seed=7, pace=0, web=False,
                      leds=False, game="stud", seats=5)
    with simulated_table(opts) as table:
        halt, moved = threading.Event(), threading.Event()
        states = ("ok", "noisy")
        sent = 0

        def flap() -> None:  # a reader's health changing all the time, off the dealer's thread
            nonlocal sent
            while not halt.is_set():
                # after each of the dealer's events (between a card's frames too), not on a
                # clock: on a busy machine a clock's pace would decide how often it came
                if moved.wait(0.05):
                    moved.clear()
                    table.daemon.submit(ReaderHealth(reader=3, state=states[sent % 2],
                                                     name="chip"))
                    sent += 1

        other = threading.Thread(target=flap, daemon=True)

        def dealer_moved(_snapshot: object) -> None:
            if threading.current_thread() is not other:
                moved.set()

        table.daemon.outputs.append(dealer_moved)
        other.start()
        try:
            table.run()
        finally:
            halt.set()
            other.join(5)
        table.score.settle()
        tally = table.score.tally
        hand = table.daemon.last_snapshot["hand"]
    assert sent > 50, sent  # the other source really interleaved with the dealing
    assert hand["number"] == 4 and hand["phase"] == "complete"
    assert exit_status(tally) == 0
    # no finding but the health ones: every card reached its place before the next move
    raised = {code for (_, code), n in tally.raised.items() if n}
    assert raised <= {"READER_NOISY", "READER_RESTORED"}, raised
