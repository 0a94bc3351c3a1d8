"""bench.latency still measures what it says: every card frame timed on every path, in order."""

from __future__ import annotations

from bench.latency import floor, run


def test_every_frame_is_timed_at_the_socket_then_the_read_loop_then_the_handler() -> None:
    times = run(cards=20, seed=3)
    assert len(times["led"]) >= 20
    assert {len(v) for v in times.values()} == {len(times["led"])}
    for sock, loop, handler in zip(times["socketio"], times["loop"], times["handler"], strict=True):
        assert 0 < sock <= loop <= handler


def test_the_floor_times_every_frame() -> None:
    times = floor(20)
    assert len(times) == 20
    assert all(t > 0 for t in times)


def test_the_fan_out_bench_runs_and_prints_its_rows() -> None:
    """``python -m bench.latency --clients 3``: three /table clients, a /dealer and a /broadcast
    one in client processes of their own; a row each for the LED, the first and the slowest
    client, and the machine's floor."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "bench.latency", "--clients", "3", "--cards", "30", "--runs", "1"],
        capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "clients: 3 on /table, 1 on /dealer, 1 on /broadcast" in out
    for label in ("frame -> LED pin", "frame -> first client", "frame -> slowest client",
                  "machine floor"):
        row = next(line for line in out.splitlines() if line.startswith(label + "  "))
        p50, p99, top = (float(x) for x in row[len(label):].split()[:3])
        assert 0 < p50 <= p99 <= top


def test_the_slowest_client_is_never_ahead_of_the_first() -> None:
    times = run(cards=20, seed=3, clients=2, procs=2)
    assert len(times["led"]) >= 20
    assert {len(v) for v in times.values()} == {len(times["led"])}
    for first, slowest, read in zip(times["first"], times["slowest"], times["read"],
                                    strict=True):
        # reached the first socket, then the last, then the last client's process read it
        assert 0 < first <= slowest <= read


def test_the_fan_out_bench_runs_over_tls_and_the_direct_path_writes() -> None:
    """``--tls``: the product and the peer serve wss://, the clients trusting the bench's own
    authority; every frame still timed, and the direct path (display/direct_frames.py) carries
    the states over the TLS transports."""
    import re
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "bench.latency", "--clients", "3", "--cards", "30", "--runs", "1",
         "--tls"], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "TLS: the product and the peer serve wss://" in out
    fan_out = re.search(r"run on https://127\.0\.0\.1:\d+: fan-out \{'direct': (\d+)", out)
    assert fan_out and int(fan_out.group(1)) > 0, out
    assert next(line for line in out.splitlines() if line.startswith("peer: bare fan-out"))


def test_the_stage_clock_gives_each_frame_its_cpu_by_stage() -> None:
    """``--stages`` (bench/stages.py): every frame has a CPU figure for every stage, the path's
    total is the sum of its stages, each frame's journal, core, snapshot, LEDs, payloads and
    emit ran (a card frame goes through all of them), and nothing is left wrapped after."""
    import controller.guard as guard
    from bench.stages import PATH, STAGES

    apply_before = guard.apply
    times = run(cards=20, seed=3, clients=2, procs=2, stages=True)
    frames = len(times["led"])
    assert frames >= 20
    for stage in STAGES:
        assert len(times[f"cpu:{stage}"]) == frames
    for i in range(frames):
        assert abs(times["cpu"][i] - sum(times[f"cpu:{s}"][i] for s in PATH)) < 1e-9
        for stage in ("journal", "core", "snapshot", "leds", "payloads", "emit"):
            assert times[f"cpu:{stage}"][i] > 0, (stage, i)
    assert guard.apply is apply_before
