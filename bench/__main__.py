"""``python -m bench`` (``make bench``): every benchmark, one after the other."""

from __future__ import annotations

import sys
from collections.abc import Callable

from bench import (
    chips,
    clean_hands,
    equity,
    evaluator,
    firmware_scan,
    fuzz,
    idle,
    kill,
    latency,
    memory,
    monitor,
    odds_ready,
    replay,
    replay_scale,
    restart,
    review_index,
    send_cost,
    startup,
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
    ("restart from a checkpoint on 10^4..10^6-event journals, and its RSS (bench.restart)",
     restart.main),
    ("the review's first request, cold and with its index kept (bench.review_index)",
     review_index.main),
    ("feltguard run from process start to the first card frame, its imports (bench.startup)",
     startup.main),
    ("an idle table's CPU (bench.idle)", idle.main),
    ("one send to a screen by its size: what deltas would save (bench.send_cost)",
     send_cost.main),
    ("equity run-outs per second against PokerKit and eval7 (bench.equity)", equity.main),
    ("a state's first odds after its card, every game, at a table's pace (bench.odds_ready)",
     odds_ready.main),
    ("LED and slowest screen with the broadcast's odds worker off and on (bench.latency "
     "--odds both)", lambda _: latency.main(["--clients", "20", "--gap", "150", "--cards", "300",
                                             "--odds", "both"])),
    ("the reader firmware's scan rate in the simulator and at the board's SPI speed "
     "(bench.firmware_scan)", firmware_scan.main),
)


def main() -> int:
    for i, (title, run) in enumerate(BENCHES):
        print(f"{'' if i == 0 else chr(10)}== {title} ==", flush=True)
        run([])
    return 0


if __name__ == "__main__":
    sys.exit(main())
