"""``python -m bench.send_cost``: what a screen's state costs the server to write, by its size.

Why it exists: issue 28 asks whether sending the screens deltas instead of whole states is
cheaper end to end. With 20 screens, a card frame's largest CPU stage is the emit
(``bench.latency --stages``), and most of that is one ``send`` per screen. This bench times
that send (thread CPU time, ``time.thread_time``: the kernel's work on loopback included) for
messages of a delta's size (300 bytes), a whole public state's (2,500) and a large dealer
state's (8,000), to a reader in another process, over loopback TCP with TCP_NODELAY as the
live server's sockets have it. Printed per size: min / median / max over the repeats of the
median send, and the ratio to the 300-byte send.

The peer figure beside it is what a delta would save on our side of the send: orjson's encoding
of a table payload of that size (the emit encodes each state once per namespace, not per
screen).

    python -m bench.send_cost [--sends 20000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import multiprocessing
import socket
import statistics
import time

SIZES = (300, 2500, 8000)


def _reader(port: int) -> None:
    conn = socket.create_connection(("127.0.0.1", port))
    while conn.recv(1 << 16):
        pass


def _median_send(conn: socket.socket, size: int, sends: int) -> float:
    data = b"x" * size
    times = []
    for i in range(sends):
        t = time.thread_time()
        conn.sendall(data)
        times.append(time.thread_time() - t)
        if i % 64 == 0:
            time.sleep(0.0005)  # let the reader drain: a screen reads as states come
    return statistics.median(times) * 1e6


def _encode_us(size: int, repeat: int = 2000) -> float:
    import orjson

    payload = {"seats": [{"seat": i, "player": f"p{i}", "hole": ["Ah", "Kd"], "stack": 1000}
                         for i in range(max(1, size // 80))]}
    t = time.thread_time()
    for _ in range(repeat):
        orjson.dumps(payload)
    return (time.thread_time() - t) / repeat * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sends", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    server = socket.create_server(("127.0.0.1", 0))
    reader = multiprocessing.get_context("spawn").Process(
        target=_reader, args=(server.getsockname()[1],), daemon=True)
    reader.start()
    conn, _ = server.accept()
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    runs: dict[int, list[float]] = {size: [] for size in SIZES}
    try:
        for _ in range(args.repeat):  # interleaved: a noisy spell hits every size alike
            for size in SIZES:
                runs[size].append(_median_send(conn, size, args.sends))
    finally:
        conn.close()
        reader.join(5)
        server.close()
    base = statistics.median(runs[SIZES[0]])
    print("one send to a screen over loopback, thread CPU us (median of "
          f"{args.sends} sends; min / median / max over {args.repeat} repeats)")
    print(f"{'bytes':>7}{'send us: min / median / max':>32}{'vs 300 B':>10}"
          f"{'peer: encode us':>17}")
    for size in SIZES:
        xs = runs[size]
        spread = f"{min(xs):.2f} / {statistics.median(xs):.2f} / {max(xs):.2f}"
        print(f"{size:>7}{spread:>32}{statistics.median(xs) / base:>10.2f}"
              f"{_encode_us(size):>17.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
