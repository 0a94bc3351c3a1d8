"""``python -m bench.idle``: what a table costs while no card moves (issue 28, "Pi-sized
resource checks"). A Pi in a closed table base gets hot; an idle table must not keep a core busy.

The real ``feltguard run`` as a table runs it: HTTPS with its own certificate (``feltguard tls
init``), the LEDs on gpiozero's mock pins, its card reader a pty twin that sends a heartbeat
every 0.5 s as a real reader does, and ``--screens`` public screens (default 3) connected over
``wss://``, each answering Engine.IO's pings. Once it serves, the process's CPU time
(``/proc/PID/stat``: user and system) is read over ``--seconds`` windows (default 20, three of
them): the share of one core, min / median / max.

The peer, in the same run: an idle Python process with what any such daemon holds: an asyncio
loop (uvloop) waiting on nothing and a thread blocked reading the same kind of pty with the
same heartbeats. The ratio says what the table adds to that floor.

    python -m bench.idle [--seconds 20] [--windows 3] [--screens 3] [--tree OTHER_CHECKOUT]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

PEER = r"""
import asyncio, os, sys, threading
import uvloop
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NOCTTY)
def read():
    while os.read(fd, 4096):
        pass
threading.Thread(target=read, daemon=True).start()
loop = uvloop.new_event_loop()
print("ready", flush=True)
loop.run_forever()
"""


def cpu_seconds(pid: int) -> float:
    """The process's user and system CPU time so far (all its threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def shares(pid: int, seconds: float, windows: int) -> list[float]:
    """The process's share of one core (%) in each window."""
    out = []
    for _ in range(windows):
        c0, t0 = cpu_seconds(pid), time.monotonic()
        time.sleep(seconds)
        out.append(100 * (cpu_seconds(pid) - c0) / (time.monotonic() - t0))
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _fmt(xs: list[float]) -> str:
    return f"{min(xs):6.2f} / {statistics.median(xs):6.2f} / {max(xs):6.2f}"


@contextlib.contextmanager
def idle_table(folder: Path, tree: Path, screens: int) -> Iterator[int]:
    """An idle ``feltguard run`` from the source ``tree`` in ``folder`` (HTTPS, a pty shoe
    beating twice a second, ``screens`` screens on wss://), serving: its pid."""
    import requests
    import socketio

    from controller.cli.main import main as feltguard
    from drivers.simulated_reader import SimulatedReader

    folder.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    config = folder / "table.toml"
    config.write_text(f'[[readers]]\nurl = "{folder / "shoe"}"\n[leds]\npin_factory = "mock"\n'
                      f'[display]\nhost = "127.0.0.1"\nport = {port}\n'
                      f'[journal]\npath = "{folder / "journal.sqlite"}"\n')
    shoe = SimulatedReader(folder / "shoe")
    shoe.start_heartbeats(0.5)
    with contextlib.redirect_stdout(io.StringIO()):  # (its fingerprint lines)
        made = feltguard(["tls", "init", "--config", str(config), "--host", "127.0.0.1"])
    if made != 0:
        raise RuntimeError("feltguard tls init failed")
    env = {**os.environ, "PYTHONPATH": str(tree)}
    table = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config",
                              str(config)], cwd=folder, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    clients: list[socketio.Client] = []
    try:
        http = requests.Session()
        http.trust_env = False  # (REQUESTS_CA_BUNDLE would override the authority below)
        http.verify = str(folder / "tls" / "ca.pem")
        base = f"https://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if http.get(f"{base}/healthz", timeout=5).ok:
                    break
            except requests.RequestException:
                pass
            if time.monotonic() > deadline or table.poll() is not None:
                raise RuntimeError(f"the table from {tree} did not start")
            time.sleep(0.2)
        for _ in range(screens):
            screen = socketio.Client(http_session=http)
            screen.connect(base, namespaces=["/table"], transports=["websocket"])
            clients.append(screen)
        yield table.pid
    finally:
        for screen in clients:
            screen.disconnect()
        table.terminate()
        table.wait(30)
        shoe.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--windows", type=int, default=3)
    parser.add_argument("--screens", type=int, default=3)
    parser.add_argument("--tree", type=Path, default=None,
                        help="also run an idle table from this source tree (another checkout, "
                             "say main's), its windows interleaved with ours: before and after")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.windows < 1 or args.screens < 0:
        parser.error("--seconds > 0, --windows >= 1, --screens >= 0")
    from drivers.simulated_reader import SimulatedReader

    repo = Path(__file__).resolve().parent.parent
    ours: list[float] = []
    floor: list[float] = []
    other: list[float] = []
    with tempfile.TemporaryDirectory(prefix="feltguard-bench-idle-") as tmp, \
            contextlib.ExitStack() as stack:
        folder = Path(tmp)
        pid = stack.enter_context(idle_table(folder / "ours", repo, args.screens))
        other_pid = (stack.enter_context(idle_table(folder / "other", args.tree.resolve(),
                                                    args.screens))
                     if args.tree is not None else None)
        peer_shoe = SimulatedReader(folder / "peer-shoe")
        stack.callback(peer_shoe.close)
        peer_shoe.start_heartbeats(0.5)
        peer = subprocess.Popen([sys.executable, "-c", PEER, str(folder / "peer-shoe")],
                                stdout=subprocess.PIPE, text=True)
        stack.callback(peer.wait, 30)
        stack.callback(peer.terminate)
        assert peer.stdout is not None and peer.stdout.readline().strip() == "ready"
        time.sleep(5)  # past the start-up's own work
        for _ in range(args.windows):  # interleaved: the same machine state for each
            ours += shares(pid, args.seconds, 1)
            floor += shares(peer.pid, args.seconds, 1)
            if other_pid is not None:
                other += shares(other_pid, args.seconds, 1)
    print(f"idle CPU, % of one core, {args.windows} windows of {args.seconds:g} s "
          f"(min / median / max); {args.screens} screen(s) on wss://, reader heartbeats 2/s")
    print(f"  feltguard run, idle       {_fmt(ours)}")
    if other:
        print(f"  the same from {args.tree}  {_fmt(other)}")
    print(f"  peer: an idle loop + pty  {_fmt(floor)}")
    med = statistics.median(floor)
    print(f"  ratio of medians          {statistics.median(ours) / med:6.1f}" if med else
          "  ratio of medians          (the peer used no measurable CPU)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
