"""``python -m bench`` (``make bench``): every benchmark, one after the other."""

from __future__ import annotations

import sys
from collections.abc import Callable

from bench import (
    chips,
    clean_hands,
    evaluator,
    fuzz,
    kill,
    latency,
    memory,
    monitor,
    replay,
    replay_scale,
)

BENCHES: tuple[tuple[str, Callable[[list[str]], object]], ...] = (
    ("7-card high-hand evaluations per second (bench.evaluator)", evaluator.main),
    ("card frame -> LED and Socket.IO latency (bench.latency)", latency.main),
    ("pluribus corpus replay, hands per second against PokerKit (bench.replay)", replay.main),
    ("fault injection: monitor recall and precision per code and family, every game "
     "(bench.monitor)", monitor.main),
    ("no false alarms: 11,000 clean hands of every game (bench.clean_hands)", clean_hands.main),
    ("chips: recall and precision per chip finding code, 2,100 hands; settled bet -> to-act "
     "LED (bench.chips)", chips.main),
    ("the rules core never raises: 1,000,000 mutated event streams (bench.fuzz)", fuzz.main),
    ("kill -9 of a dealing table, 60 times: nothing lost (bench.kill)", kill.main),
    ("RSS of the simulated table, 500 against 5,000 hands (bench.memory)", memory.main),
    ("feltguard replay of 10^4..10^6-event files: linear time (bench.replay_scale)",
     replay_scale.main),
)


def main() -> int:
    for i, (title, run) in enumerate(BENCHES):
        print(f"{'' if i == 0 else chr(10)}== {title} ==", flush=True)
        run([])
    return 0


if __name__ == "__main__":
    sys.exit(main())
