"""``python -m bench`` (``make bench``): every benchmark, one after the other."""

from __future__ import annotations

import sys

from bench import (
    evaluator,
    fuzz,
    kill,
    latency,
    memory,
    monitor,
    monitor_games,
    replay,
    replay_scale,
)


def main() -> int:
    print("== 7-card high-hand evaluations per second (bench.evaluator) ==", flush=True)
    evaluator.main([])
    print("\n== card frame -> LED and Socket.IO latency (bench.latency) ==", flush=True)
    latency.main([])
    print("\n== pluribus corpus replay, hands per second against PokerKit (bench.replay) ==",
          flush=True)
    replay.main([])
    print("\n== fault injection: monitor recall and precision per code (bench.monitor) ==",
          flush=True)
    monitor.main([])
    print("\n== fault injection, stud and draw families (bench.monitor_games) ==", flush=True)
    monitor_games.main([])
    print("\n== the rules core never raises: 1,000,000 mutated event streams (bench.fuzz) ==",
          flush=True)
    fuzz.main([])
    print("\n== kill -9 of a dealing table, 60 times: nothing lost (bench.kill) ==", flush=True)
    kill.main([])
    print("\n== RSS of the simulated table, 500 against 5,000 hands (bench.memory) ==",
          flush=True)
    memory.main([])
    print("\n== feltguard replay of 10^4..10^6-event files: linear time (bench.replay_scale) ==",
          flush=True)
    replay_scale.main([])
    return 0


if __name__ == "__main__":
    sys.exit(main())
