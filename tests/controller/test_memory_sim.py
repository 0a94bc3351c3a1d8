"""Memory of the simulated table does not grow with every hand (a table runs for weeks).

The real simulated table (pty, card reader driver, sensing, journal, rules core, LEDs on
gpiozero mock pins) deals hands in-process; what Python allocates between the end of a warm-up
and the end of the run must stay far below the ~9 KB per hand the mock pins' recorded history
alone used to add. The bound is generous (caches warming up, seat changes, a mistake hand), so
the test is about growth per hand, not exact sizes; RSS over 5,000 hands is ``bench.memory``.
"""

from __future__ import annotations

import gc
import tracemalloc

import pytest

from controller.processes.sim import SimOptions, simulated_table
from drivers.pin_history import PIN_HISTORY
from tests.sizes import sizes

WARM_UP = 30
MEASURED = 120  # under ``long`` (make test-long); the default suite measures 40
# 2.5 KB a hand over 120 hands; the unbounded pin history alone was ~9 KB a hand, so the bound
# catches it over 40 hands too (360 KB)
BOUND_BYTES = 300_000


@pytest.mark.parametrize("measured", sizes(MEASURED // 3, MEASURED))
def test_simulated_table_memory_does_not_grow_per_hand(measured: int) -> None:
    opts = SimOptions(seed=11, pace=0, web=False, mistake_rate=0.2, seat_changes=0.05)
    with simulated_table(opts) as table:
        for _ in range(WARM_UP):
            table.play_hand()
        writer = table.daemon.checkpoints
        assert writer is not None
        tracemalloc.start(1)
        try:
            # a checkpoint being written aside holds its text for a moment: none at either end
            writer.flush()
            gc.collect()
            before = tracemalloc.get_traced_memory()[0]
            for _ in range(measured):
                table.play_hand()
            writer.flush()
            gc.collect()
            after = tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
        longest = max(len(pin.states) for pin in table.pin_factory.pins.values())
    assert after - before < BOUND_BYTES, (
        f"{(after - before) / measured:.0f} bytes a hand over {measured} hands")
    # the activity light alone changes thousands of times in these hands
    assert longest <= PIN_HISTORY + 1
