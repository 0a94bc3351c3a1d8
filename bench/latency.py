"""Latency from a card frame's last byte to the seat LEDs and to a Socket.IO client.

    .venv/bin/python -m bench.latency [--cards 1500] [--runs 3] [--gap 0] [--seed 7]
                                      [--clients N [--client-procs P] [--tls]]

Clean simulated hands are dealt through the whole real path: each card movement is written as a
wire-protocol frame into the simulated reader's pty; the real ``CardReader`` thread parses it,
sensing makes the event, the daemon journals it (SQLite WAL, a real file), applies it to the
rules core, sets the LEDs (gpiozero mock pins) and publishes the snapshot through the real
live server (display/live.py, as ``feltguard run`` serves it) to a real ``socketio.Client`` on
``/dealer`` over WebSocket.

The client runs in a process of its own, as a browser does: in the server's process its reader
threads would take the server's GIL and CPU time, and the figure would be the bench's, not the
product's. Both processes time with ``time.perf_counter`` (CLOCK_MONOTONIC on Linux, one clock
for the whole machine); the client sends its times back over a pipe.

Each frame is sent once the previous state has reached the client's handler and the client's
read loop is back at its socket, ``--gap`` ms later (default 0: back to back, so a frame may
meet the tail of the server's work on the previous one). The bench waits for the read loop
because the Python client, unlike a browser, is still busy with the previous state after its
handler has run (python-engineio starts a thread per message and waits for it to start): a
frame sent then waited in the client's socket for its read loop, up to the 5 ms GIL switch
interval, and that wait was the whole tail of the figure (p99 6.5 ms, against 2.7 ms with
the wait), the instrument's and not the product's. A real table is far slower: a card pitched every
300 ms makes two event frames (the shoe's read, then the seat's) 150 ms apart on average;
``--gap 20`` is still seven times faster than that. On a virtual machine a longer gap is not
kinder: idle virtual CPUs wake up late.

Per card frame it measures, from the moment just before the frame is written into the pty
(``os.write``, a few microseconds):
(a) the reader-activity LED's pin change (every card event toggles it); (b) the arrival at the
client of the state whose ``last_seq`` is that card's event: the moment the first bytes of its
WebSocket frame come out of the client's socket (``_TimedSocket``); (c) the moment the client's
WebSocket read loop has the whole frame; and (d) the moment the client's ``state`` handler
runs. (b) is the product's latency, the target's figure. (c) adds websocket-client's and
python-engineio's parsing in Python, most of a millisecond, which a browser does in
microseconds. (d) adds the Python client's own dispatch: for every message, python-engineio's
client starts a new thread to run the handler (``_trigger_event(..., run_async=True)``), which a
browser, dispatching on its event loop, does not have. Each of ``--runs`` runs starts a fresh
server, client process and journal. It prints p50, p99 and max over all the runs' frames, and
the p99 of each run (min / median / max: the machine is shared and noisy), against the target:
p99 under 5 ms on a 2-core machine. Each run then times the machine's own floor for the
same hops (``floor``: a frame into a pty, a thread reading it, a state-sized message over
loopback TCP to another process, with no product in between), printed as a row of its own and
as the ratio of each path's p99 to it: what the product adds, and whether the machine was
noisy during the run. On the real 115200-baud wire the frame itself adds about
1.7 ms before its last byte arrives.

``--clients N``: the fan-out. N clients on ``/table``, 1 on ``/dealer`` and 1 on ``/broadcast``
(its delay 0 here, a table that is not public: with a real delay it would receive nothing during
the run), all over WebSocket. A ``socketio.Client`` costs a thread per message and would measure
the Python client, not the server, so these are lightweight clients: ``--client-procs`` processes
(default 2; a browser tab is a process too), each holding its share of the connections in one
``selectors`` loop over plain websocket-client connections that speak Engine.IO/Socket.IO v4
(open, namespace connect, pong). When ``select`` says a connection is readable the loop notes
the time for every ready connection at once, before reading any: the moment the state's first
bytes were in that client's socket, as ``_TimedSocket`` times it. A state counts for a card
frame at the first state whose ``last_seq`` is at or past the frame's event (``/table`` may skip
to the latest). The next frame goes once every client has its state. It prints, per frame, the
LED, the first client and the slowest client (the last of the N + 2 to have the state), then
the slowest of each namespace apart: the ``/broadcast`` client at delay 0 gets each state in
the same turn of the loop, after the live views (at a real delay its emits come half an hour
later, at no particular moment).

``--tls``: the same fan-out served as ``feltguard run`` serves it by default, HTTPS and
``wss://`` (display/tls_port.py) with a certificate of an authority made for the bench, every
client trusting that authority only; the peer's bare server serves TLS with the same
certificate, so the ratio is the product's, not the cipher's. Run it interleaved with the plain
bench to see what TLS costs (docs/display.md, "The fan-out", TLS).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

TARGET_P99_MS = 5.0


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class _TimedSocket:
    """The client's TCP socket, noting when a WebSocket frame's first bytes came out of it: the
    moment the client process has the state, before any Python parses it (a browser parses in
    microseconds; websocket-client and python-engineio take most of a millisecond). It also calls
    ``waiting()`` when the read loop is back at the socket for the next frame."""

    def __init__(self, sock: Any, waiting: Any) -> None:
        self._sock = sock
        self._waiting = waiting
        self.frame_start: float | None = None

    def recv(self, bufsize: int) -> bytes:
        if self.frame_start is None:
            self._waiting()
        data: bytes = self._sock.recv(bufsize)
        if self.frame_start is None:
            self.frame_start = time.perf_counter()
        return data

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


def _client(url: str, token: str, conn: Any) -> None:
    """The client process: a ``socketio.Client`` on ``/dealer`` that sends back, for every
    ``state`` it gets, ``(kind, last_seq, perf_counter)``: kind "socket" when the frame's first
    bytes left the client's socket, "loop" when the WebSocket read loop has the whole frame,
    "handler" when the state handler runs. Ends when the parent says so."""
    import socketio
    from engineio import packet as eio_packet

    send_lock = threading.Lock()  # the read loop and the handler threads share the pipe

    def tell(kind: str, seq: int, t: float) -> None:
        with send_lock:
            conn.send((kind, seq, t))

    client = socketio.Client(reconnection=False)
    receive = client.eio._receive_packet
    timed: _TimedSocket | None = None
    last = [0]  # the last state's seq the read loop passed on

    def at_loop(pkt: Any) -> None:
        t = time.perf_counter()
        start = None
        if timed is not None:  # the frame is whole: the next recv starts the next one
            start, timed.frame_start = timed.frame_start, None
        data = pkt.data
        if pkt.packet_type == eio_packet.MESSAGE and isinstance(data, str) and '"state"' in data:
            # a Socket.IO EVENT packet: 2/dealer,["state",{...}]
            seq = int(json.loads(data[data.index("["):])[1].get("last_seq") or 0)
            last[0] = seq
            if start is not None:
                tell("socket", seq, start)
            tell("loop", seq, t)
        receive(pkt)

    def on_state(payload: dict[str, Any]) -> None:
        tell("handler", int(payload.get("last_seq") or 0), time.perf_counter())

    client.eio._receive_packet = at_loop
    client.on("state", on_state, namespace="/dealer")
    client.connect(url, namespaces=["/dealer"], auth={"token": token},
                   transports=["websocket"], wait_timeout=5)
    # websocket-client reads ``ws.sock`` afresh for every recv: from the next frame on, timed
    timed = client.eio.ws.sock = _TimedSocket(
        client.eio.ws.sock, lambda: tell("waiting", last[0], time.perf_counter()))
    tell("ready", 0, 0.0)
    conn.recv()  # the parent's "stop"
    client.disconnect()


def run(cards: int = 1500, seed: int = 7, gap: float = 0.0, clients: int = 0,
        procs: int = 2, tls_dir: Path | None = None, stages: bool = False,
        odds: bool = False) -> dict[str, list[float]]:
    """One run: a fresh server (``display.server.run_server`` in this process, as ``feltguard
    run`` serves), client process(es) and journal. ``clients`` > 0: the fan-out to that many
    ``/table`` clients, a ``/dealer`` and a ``/broadcast`` one, in ``procs`` client processes
    (``_measure_many``). ``tls_dir``: served over HTTPS with that folder's certificate (``--tls``),
    the clients trusting its authority only. ``odds``: the broadcast's odds worker on
    (``[broadcast] odds``, a process of its own, as ``feltguard run`` has it by default)."""
    from controller.daemon.odds_worker import broadcast_odds
    from display.server import close_app, create_app, run_server

    app, live, publisher = create_app(dealer_token="bench", broadcast_delay_s=0,
                                      odds=broadcast_odds(odds))
    context, ca = _tls(tls_dir)
    handle = run_server(app, live, "127.0.0.1", 0, tls=context)
    try:
        if clients:
            clock = None
            if stages:
                from bench.stages import StageClock

                clock = (StageClock(), live)
            got = _measure_many(handle.url, publisher, cards, seed, gap, clients, procs, ca,
                                clock)
            # how the states went out: the direct path (one frame written to each idle
            # screen's transport, TLS or not) or python-engineio's queue (display/fan_out.py)
            print(f"run on {handle.url}: fan-out {live.fan_out}", flush=True)
            return got
        return _measure(handle.url, publisher, cards, seed, gap)
    finally:
        handle.stop()
        close_app(app)


def _tls(folder: Path | None) -> tuple[Any, str | None]:
    """The server's TLS context and the authority clients trust, for ``--tls`` (else None)."""
    if folder is None:
        return None, None
    from controller.security.tls import TlsFolder, server_context

    tf = TlsFolder(folder)
    return server_context(tf.server_cert, tf.server_key), str(tf.ca_cert)


def _measure(url: str, publisher: Any, cards: int, seed: int,
             gap: float) -> dict[str, list[float]]:
    import multiprocessing

    from gpiozero.pins.mock import MockFactory, MockPin

    from controller.daemon.ledplan import led_plan
    from drivers.leds import DEFAULT_PIN_MAP_6_SEATS, TableLeds

    activity_pin = int(str(DEFAULT_PIN_MAP_6_SEATS["activity"]).removeprefix("GPIO"))
    led_changes: list[float] = []

    class TimedPin(MockPin):  # type: ignore[misc]
        """A mock pin that notes when the activity LED changes (perf_counter clock)."""

        def _change_state(self, value: Any) -> bool:
            did = bool(super()._change_state(value))
            if did and self._info.name == f"GPIO{activity_pin}":
                led_changes.append(time.perf_counter())
            return did

    times: dict[str, dict[int, float]] = {"socket": {}, "loop": {}, "handler": {}, "waiting": {}}

    def heard(kind: str, seq: int, timeout: float = 5.0) -> bool:
        """Read the client's reports until ``kind`` has come for ``seq`` (or the timeout)."""
        deadline = time.monotonic() + timeout
        while seq not in times[kind]:
            left = deadline - time.monotonic()
            if left <= 0 or not conn.poll(left):
                return False
            what, s, t = conn.recv()
            if what in times:
                times[what].setdefault(s, t)
        return True

    led_ms: list[float] = []
    sio_ms: list[float] = []
    loop_ms: list[float] = []
    handler_ms: list[float] = []
    context = multiprocessing.get_context("spawn")  # never fork a process that runs threads
    with tempfile.TemporaryDirectory(prefix="feltguard-bench-") as tmp:
        factory = MockFactory(pin_class=TimedPin)
        leds = TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=factory)
        conn, child_conn = context.Pipe()
        client = context.Process(target=_client, args=(url, "bench", child_conn),
                                 name="bench-client", daemon=True)
        client.start()
        # the greeting state (last_seq 0) may come before "ready": skip both
        while conn.poll(20):
            if conn.recv()[0] == "ready":
                break
        else:
            raise RuntimeError("the client process did not connect")
        try:
            with _bench_table(Path(tmp), [lambda s: leds.show(led_plan(s)),
                                          publisher.publish]) as (daemon, shoe):
                for rid, ant, uid, face_up in _card_frames(daemon, seed):
                    if len(led_ms) >= cards:
                        break
                    seq = daemon.seq + 1
                    n_led = len(led_changes)
                    # The client's read loop is back at its socket for the next frame:
                    # a browser is, at once; the Python client dispatches first.
                    heard("waiting", daemon.seq, 1.0)
                    if gap:
                        time.sleep(gap)
                    # t0 just before the write: taken after it, a bench thread preempted
                    # between the two (a loaded machine) would time less than the path
                    t0 = time.perf_counter()
                    shoe.send_read(rid, ant, uid, face_up)
                    # Only the client's reports wake this thread: woken by the daemon or the
                    # LED pin, it would take the server's GIL in the middle of the path timed.
                    arrived = heard("socket", seq) and heard("loop", seq)
                    handled = heard("handler", seq)
                    if not daemon.wait_until(lambda s=seq: daemon.seq >= s, 5):
                        raise RuntimeError(f"frame for seq {seq} never applied")
                    if len(led_changes) > n_led and arrived and handled:
                        led_ms.append((led_changes[n_led] - t0) * 1000)
                        sio_ms.append((times["socket"][seq] - t0) * 1000)
                        loop_ms.append((times["loop"][seq] - t0) * 1000)
                        handler_ms.append((times["handler"][seq] - t0) * 1000)
        finally:
            conn.send("stop")
            client.join(5)
            if client.is_alive():
                client.terminate()
            leds.close()
    return {"led": led_ms, "socketio": sio_ms, "loop": loop_ms, "handler": handler_ms}


# The server's CPU per card frame on the path, journal to the sockets, with 20 screens (issue
# 28): about 3 ms on a Pi 4 at these figures.
CPU_TARGET_P50_MS = 0.5
CPU_TARGET_P99_MS = 1.5

# The floor's state: about the size of a real one (a table payload is 1.5 to 2.5 KB).
FAN_OUT_PAYLOAD = 2300

# Linux's SO_TIMESTAMPNS (asm-generic/socket.h; also the control message's type): the kernel
# stamps each received segment with CLOCK_REALTIME. Python's socket module does not name it.
SO_TIMESTAMPNS = 35


_RAW: dict[int, Any] = {}  # a TLS connection's descriptor: a plain socket on a copy of it


def _arrived(sock: Any) -> float | None:
    """When the first unread bytes reached ``sock`` (the kernel's receive time of the segment
    at the head of its queue, peeked, not read), on ``time.perf_counter``'s clock; None if the
    kernel gave no time."""
    import socket
    import ssl
    import struct

    if isinstance(sock, ssl.SSLSocket):  # (--tls) the TCP socket beneath: its segments' times
        raw = _RAW.get(sock.fileno())
        if raw is None:
            raw = _RAW[sock.fileno()] = socket.fromfd(sock.fileno(), sock.family, sock.type)
        sock = raw
    try:
        _, ancillary, _, _ = sock.recvmsg(1, socket.CMSG_SPACE(16),
                                          socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except BlockingIOError:  # (TLS: the record was already taken into ssl's buffer)
        return None
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(data) >= 16:
            sec, nsec = struct.unpack("qq", data[:16])
            # realtime -> perf_counter: both tick together; the offset is read now
            return time.perf_counter() - (time.time() - (sec + nsec / 1e9))
    return None


def _fan_out_clients(url: str, namespaces: list[tuple[int, str]], conn: Any,
                     ca: str | None = None) -> None:
    """A client process: one websocket-client connection per ``(id, namespace)``, read in one
    ``selectors`` loop. Reports ``("states", [(id, last_seq, arrived, read), ...])`` once all
    its connections have the same latest state: ``arrived`` the moment the state's first bytes
    reached the connection's socket (the kernel's receive time, ``_arrived``), ``read`` the
    moment ``select`` told this process; ``("ready", [])`` once every connection has its
    greeting. Ends when the parent says so (anything on the pipe)."""
    import selectors
    import socket

    import websocket

    base = (url.replace("https://", "wss://").replace("http://", "ws://")
            + "/socket.io/?EIO=4&transport=websocket")
    # over TLS (--tls): trusting the run's own authority only, as a tablet does
    tls = {"sslopt": {"ca_certs": ca}} if ca else {}
    sel = selectors.DefaultSelector()
    conns: dict[int, tuple[Any, int, str]] = {}
    for cid, namespace in namespaces:
        ws = websocket.create_connection(base, timeout=10, enable_multithread=False,
                                         skip_utf8_validation=True, **tls)
        ws.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        ws.sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        opened = ws.recv()  # Engine.IO open: 0{"sid": ...}
        if not opened.startswith("0"):
            raise RuntimeError(f"not an Engine.IO open packet: {opened[:40]!r}")
        auth = '{"token":"bench"}' if namespace == "/dealer" else ""
        ws.send(f"40{namespace},{auth}")  # Socket.IO connect to the namespace
        conns[ws.sock.fileno()] = (ws, cid, namespace)
        sel.register(ws.sock, selectors.EVENT_READ)
    sel.register(conn, selectors.EVENT_READ)
    greeted: set[int] = set()
    told_ready = False
    latest: dict[int, int] = {}  # each connection's latest state's seq
    held: list[tuple[int, int, float, float]] = []  # arrivals not yet reported
    while True:
        ready = sel.select(timeout=30)
        t = time.perf_counter()  # every ready connection had its bytes by now
        for key, _ in ready:
            if key.fileobj is conn:
                for ws, _, _ in conns.values():
                    ws.close()
                return
            ws, cid, namespace = conns[key.fd]
            arrived = _arrived(ws.sock)
            while True:
                data = ws.recv()
                if data == "2":  # Engine.IO ping: pong, or the server drops us
                    ws.send("3")
                head = f"42{namespace},"
                if isinstance(data, str) and data.startswith(head):
                    event = json.loads(data[len(head):])
                    if event[0] == "state":
                        greeted.add(cid)
                        latest[cid] = int(event[1].get("last_seq") or 0)
                        held.append((cid, latest[cid], t if arrived is None else arrived, t))
                # TLS: a record ssl has already decrypted is not seen by select again
                if not getattr(ws.sock, "pending", lambda: 0)():
                    break
        # One report once all of this process's connections have the same latest state: a
        # message per state per connection would wake the measuring thread, which shares the
        # server's process (and its GIL), 22 times while the server is still sending.
        if held and len(latest) == len(conns) and len(set(latest.values())) == 1:
            conn.send(("states", held))
            held = []
        if not told_ready and len(greeted) == len(conns):
            told_ready = True
            conn.send(("ready", []))


class _Fleet:
    """The fan-out's clients: ``clients`` on ``/table``, one on ``/dealer`` and one on
    ``/broadcast``, spread over ``procs`` processes (``_fan_out_clients``), and what they report.
    """

    def __init__(self, url: str, clients: int, procs: int, ca: str | None = None) -> None:
        import multiprocessing
        import selectors

        self.namespaces = [(i, "/table") for i in range(clients)]
        self.namespaces += [(clients, "/dealer"), (clients + 1, "/broadcast")]
        self.procs = max(1, min(procs, len(self.namespaces)))
        context = multiprocessing.get_context("spawn")
        self._pipes, self._workers = [], []
        for p in range(self.procs):
            conn, child = context.Pipe()
            worker = context.Process(target=_fan_out_clients,
                                     args=(url, self.namespaces[p::self.procs], child, ca),
                                     name=f"bench-clients-{p}", daemon=True)
            worker.start()
            self._pipes.append(conn)
            self._workers.append(worker)
        self._sel = selectors.DefaultSelector()
        for conn in self._pipes:
            self._sel.register(conn, selectors.EVENT_READ)
        # per client, its states in order: (seq, reached its socket, read by its process)
        self._arrivals: dict[int, list[tuple[int, float, float]]] = {
            cid: [] for cid, _ in self.namespaces}
        self._ready = 0
        deadline = time.monotonic() + 60
        while self._ready < self.procs:
            if time.monotonic() > deadline:
                self.close()
                raise RuntimeError("the client processes did not connect")
            self._pump(1.0)

    def _pump(self, timeout: float) -> None:
        for key, _ in self._sel.select(timeout):
            kind, states = key.fileobj.recv()  # type: ignore[union-attr]
            if kind == "ready":
                self._ready += 1
            for cid, seq, reached, read in states:
                self._arrivals[cid].append((seq, reached, read))

    def _arrived(self, cid: int, seq: int) -> tuple[float, float] | None:
        for s, reached, read in self._arrivals[cid]:
            if s >= seq:
                return reached, read
        return None

    def everyone(self, seq: int, timeout: float = 10.0) -> list[tuple[float, float]] | None:
        """Each client's (reached, read) times of its first state at or past ``seq``, in
        ``namespaces`` order, once all have one (None on timeout)."""
        deadline = time.monotonic() + timeout
        while True:
            times = [self._arrived(cid, seq) for cid, _ in self.namespaces]
            if all(t is not None for t in times):
                return [t for t in times if t is not None]
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self._pump(left)

    def forget(self) -> None:
        """Keep only what later frames may still need."""
        for cid in self._arrivals:
            self._arrivals[cid] = self._arrivals[cid][-1:]

    def record(self, t0: float, times: list[tuple[float, float]],
               into: dict[str, list[float]]) -> None:
        """The first and slowest client, the slowest of each namespace (reached), and the
        slowest client's process reading it, in ms after ``t0``."""
        reached = [r for r, _ in times]
        into.setdefault("first", []).append((min(reached) - t0) * 1000)
        into.setdefault("slowest", []).append((max(reached) - t0) * 1000)
        into.setdefault("read", []).append((max(r for _, r in times) - t0) * 1000)
        for ns in dict.fromkeys(n for _, n in self.namespaces):
            into.setdefault(ns, []).append(
                (max(r for r, (_, n) in zip(reached, self.namespaces, strict=True) if n == ns)
                 - t0) * 1000)

    def close(self) -> None:
        for conn in self._pipes:
            with contextlib.suppress(OSError):
                conn.send("stop")
        for worker in self._workers:
            worker.join(5)
            if worker.is_alive():
                worker.terminate()


def _measure_many(url: str, publisher: Any, cards: int, seed: int, gap: float,
                  clients: int, procs: int, ca: str | None = None,
                  clock: tuple[Any, Any] | None = None) -> dict[str, list[float]]:
    """``_measure`` with ``clients`` on ``/table`` plus one on ``/dealer`` and one on
    ``/broadcast`` (see the module's docstring): per frame, the LED, the first and the slowest
    client. ``clock``: a ``bench.stages.StageClock`` and the live server, for ``--stages``: per
    frame, the server's CPU by stage (``cpu:<stage>``, ms) and on the path (``cpu``)."""
    from gpiozero.pins.mock import MockFactory, MockPin

    from controller.daemon.ledplan import led_plan
    from drivers.leds import DEFAULT_PIN_MAP_6_SEATS, TableLeds

    activity_pin = f"GPIO{str(DEFAULT_PIN_MAP_6_SEATS['activity']).removeprefix('GPIO')}"
    led_changes: list[float] = []

    class TimedPin(MockPin):  # type: ignore[misc]
        def _change_state(self, value: Any) -> bool:
            did = bool(super()._change_state(value))
            if did and self._info.name == activity_pin:
                led_changes.append(time.perf_counter())
            return did

    fleet = _Fleet(url, clients, procs, ca)
    out: dict[str, list[float]] = {"led": []}
    with tempfile.TemporaryDirectory(prefix="feltguard-bench-") as tmp:
        leds = TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=MockFactory(pin_class=TimedPin))
        try:
            with _bench_table(Path(tmp), [lambda s: leds.show(led_plan(s)),
                                          publisher.publish]) as (daemon, shoe):
                if clock is not None:
                    clock[0].install(daemon, publisher, clock[1])
                for rid, ant, uid, face_up in _card_frames(daemon, seed):
                    if len(out["led"]) >= cards:
                        break
                    fleet.everyone(daemon.seq)  # every client has the state before this frame
                    seq = daemon.seq + 1
                    n_led = len(led_changes)
                    if gap:
                        time.sleep(gap)
                    t0 = time.perf_counter()
                    shoe.send_read(rid, ant, uid, face_up)
                    times = fleet.everyone(seq)
                    if not daemon.wait_until(lambda s=seq: daemon.seq >= s, 5):
                        raise RuntimeError(f"frame for seq {seq} never applied")
                    if len(led_changes) > n_led and times is not None:
                        out["led"].append((led_changes[n_led] - t0) * 1000)
                        fleet.record(t0, times, out)
                        if clock is not None:
                            _record_stages(clock, range(seq, daemon.seq + 1), out)
                    fleet.forget()
        finally:
            if clock is not None:
                clock[0].uninstall()
            fleet.close()
            leds.close()
    return out


def _record_stages(clock: tuple[Any, Any], seqs: range, into: dict[str, list[float]]) -> None:
    """One frame's CPU by stage (``cpu:<stage>``) and on the path, journal to the sockets
    (``cpu``), in ms; a stage the frame did not run counts 0."""
    import asyncio

    from bench.stages import PATH, STAGES

    stage_clock, live = clock
    # the clients have the state once its bytes are written; the emit's own bookkeeping ends
    # a moment later on the loop: a turn of the loop behind it first
    live.run(asyncio.sleep(0))
    cpu = stage_clock.frame(seqs)
    for stage in STAGES:
        into.setdefault(f"cpu:{stage}", []).append(cpu.get(stage, 0.0))
    into.setdefault("cpu", []).append(sum(cpu.get(stage, 0.0) for stage in PATH))


def fan_out_floor(frames: int, clients: int, procs: int = 2,
                  gap: float = 0.0, tls_dir: Path | None = None) -> dict[str, list[float]]:
    """The peer of the fan-out: the same client processes on a bare WebSocket server that
    speaks just enough Engine.IO/Socket.IO for them (open, namespace connect) and writes each
    state with ``websockets.broadcast``: one prepared message per namespace, written to every
    connection in turn on one event loop thread, nothing else in between. Per state, from the
    moment before the first write: the first and the slowest client (reached, as the product's
    rows) and the slowest client's process reading it. What the product's ``LED -> slowest``
    adds beyond this is the product's; this much is the machine's and the clients'."""
    import asyncio

    from websockets.asyncio.server import broadcast, serve

    loop = asyncio.new_event_loop()
    context, ca = _tls(tls_dir)  # --tls: the peer serves TLS too, with the same certificate
    groups: dict[str, set[Any]] = {"/dealer": set(), "/table": set(), "/broadcast": set()}
    pad = "x" * FAN_OUT_PAYLOAD

    def state(namespace: str, seq: int) -> str:
        return f'42{namespace},["state",{{"last_seq":{seq},"pad":"{pad}"}}]'

    async def handler(ws: Any) -> None:
        await ws.send('0{"sid":"floor","upgrades":[],"pingInterval":25000,'
                      '"pingTimeout":20000,"maxPayload":1000000}')
        async for message in ws:
            if isinstance(message, str) and message.startswith("40"):
                namespace = message[2:].split(",", 1)[0]
                await ws.send(f'40{namespace},{{"sid":"floor"}}')
                await ws.send(state(namespace, 0))
                groups[namespace].add(ws)

    ready = threading.Event()
    port: list[int] = []

    async def main(stop: asyncio.Future[None]) -> None:
        async with serve(handler, "127.0.0.1", 0, compression=None, ping_interval=None,
                         ssl=context) as srv:
            port.append(srv.sockets[0].getsockname()[1])
            ready.set()
            await stop

    stop = loop.create_future()
    thread = threading.Thread(target=loop.run_until_complete, args=(main(stop),),
                              name="bench-fan-out-floor", daemon=True)
    thread.start()
    if not ready.wait(10):
        raise RuntimeError("the floor's server did not start")
    fleet = _Fleet(f"{'https' if ca else 'http'}://127.0.0.1:{port[0]}", clients, procs, ca)
    out: dict[str, list[float]] = {}

    def send(seq: int, sent: list[float]) -> None:  # on the loop, as the product's fan-out
        sent.append(time.perf_counter())
        for namespace in ("/dealer", "/table", "/broadcast"):
            broadcast(groups[namespace], state(namespace, seq))

    try:
        for seq in range(1, frames + 1):
            if gap:
                time.sleep(gap)
            sent: list[float] = []
            loop.call_soon_threadsafe(send, seq, sent)
            times = fleet.everyone(seq)
            if times is None or not sent:
                raise RuntimeError(f"the floor's state {seq} did not reach every client")
            fleet.record(sent[0], times, out)
            fleet.forget()
    finally:
        fleet.close()
        loop.call_soon_threadsafe(stop.set_result, None)
        thread.join(5)
    return out


@contextlib.contextmanager
def _bench_table(tmp: Path, outputs: list[Any]) -> Iterator[tuple[Any, Any]]:
    """The table both runs time: a journal in ``tmp``, the daemon feeding ``outputs``, the
    simulated shoe's pty read by the real ``CardReader``; (daemon, shoe), stopped and closed
    on exit."""
    from controller.daemon.table_daemon import TableDaemon
    from controller.journal import Journal
    from drivers.card_reader import CardReader
    from drivers.simulated_reader import SimulatedReader

    journal = Journal(tmp / "journal.sqlite")
    daemon = TableDaemon(journal, outputs)
    shoe = SimulatedReader(tmp / "shoe")
    reader = CardReader(str(tmp / "shoe"), daemon.on_read, name="bench-reader")
    reader.start()
    try:
        if not reader.connected.wait(5):
            raise RuntimeError("reader did not connect")
        yield daemon, shoe
    finally:
        reader.stop(2)
        shoe.close()
        journal.close()


def _card_frames(daemon: Any, seed: int) -> Iterator[tuple[int, int, str, bool]]:
    """Clean simulated hands, dealt for as long as the caller reads: every step that is not a
    card move is submitted here, and each card move gives its frames, (reader, antenna, uid,
    face up): the shoe's read, then the zone's."""
    from controller.sensing.cards import DEFAULT_ANTENNAS, SHOE
    from controller.sim.dealer import CardMove, SimDealer

    antenna_of = {zone: key for key, zone in DEFAULT_ANTENNAS.items()}
    dealer = SimDealer(random.Random(seed), seats=6, mistake_rate=0.0)
    while True:
        for step in dealer.next_hand():
            if not isinstance(step, CardMove):
                daemon.submit(step)
                continue
            if step.from_shoe:
                yield (*antenna_of[SHOE], step.uid, step.face_up)
            yield (*antenna_of[step.zone], step.uid, False)


FLOOR_PAYLOAD = 4096  # bytes: about the size of a dealer state


def _floor_client(port: int, conn: Any) -> None:
    """The floor's client process: reads ``FLOOR_PAYLOAD``-byte messages from a plain TCP socket
    and reports when each one's first bytes came out of it, as ``_TimedSocket`` does."""
    import socket

    sock = socket.create_connection(("127.0.0.1", port))
    conn.send(("ready", 0, 0.0))
    while True:
        conn.send(("waiting", 0, 0.0))
        data = sock.recv(FLOOR_PAYLOAD)
        if not data:
            return
        t = time.perf_counter()
        got = len(data)
        while got < FLOOR_PAYLOAD:
            got += len(sock.recv(FLOOR_PAYLOAD - got))
        conn.send(("socket", int.from_bytes(data[:4], "big"), t))


def floor(frames: int, gap: float = 0.0) -> list[float]:
    """The machine's own floor for the path ``run`` times, with no product in it: a frame's bytes
    written into a pty, read by a thread blocked on the other end, which sends a state-sized
    message over loopback TCP to a client in a process of its own. What the product adds is the
    difference; a floor that moves between runs says the machine was noisy."""
    import multiprocessing
    import os
    import socket
    import tty

    master, slave = os.openpty()
    tty.setraw(slave)  # no line discipline: each frame is read as it is written
    listener = socket.create_server(("127.0.0.1", 0))
    context = multiprocessing.get_context("spawn")
    conn, child_conn = context.Pipe()
    client = context.Process(target=_floor_client, args=(listener.getsockname()[1], child_conn),
                             name="bench-floor-client", daemon=True)
    client.start()
    listener.settimeout(20)
    server, _ = listener.accept()
    server.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def relay() -> None:
        try:
            while data := os.read(slave, 64):
                server.sendall(data[:4].ljust(FLOOR_PAYLOAD, b" "))
        except OSError:  # the bench closed the pty or the socket: done
            return

    thread = threading.Thread(target=relay, name="bench-floor-reader", daemon=True)
    thread.start()
    out: list[float] = []

    def heard(kind: str, seq: int | None = None) -> float | None:
        while conn.poll(5):
            what, s, t = conn.recv()
            if what == kind and (seq is None or s == seq):
                return float(t)
        return None

    try:
        heard("ready")
        for i in range(1, frames + 1):
            heard("waiting")
            if gap:
                time.sleep(gap)
            t0 = time.perf_counter()
            os.write(master, i.to_bytes(4, "big") + bytes(16))  # a card frame is 20 bytes
            arrived = heard("socket", i)
            if arrived is not None:
                out.append((arrived - t0) * 1000)
    finally:
        server.close()
        listener.close()
        client.join(5)
        if client.is_alive():
            client.terminate()
        os.close(master)
        os.close(slave)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=1500, help="card frames per run")
    parser.add_argument("--runs", type=int, default=3,
                        help="runs, each with a fresh server, client and journal")
    parser.add_argument("--gap", type=float, default=0.0,
                        help="ms between card frames (default 0: back to back)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--clients", type=int, default=0,
                        help="the fan-out: N clients on /table plus one on /dealer and one on "
                             "/broadcast (default 0: the single /dealer client above)")
    parser.add_argument("--client-procs", type=int, default=2,
                        help="processes the --clients connections are spread over (default 2)")
    parser.add_argument("--switch-interval", type=float, default=None, metavar="MS",
                        help="the server process's GIL switch interval (sys.setswitchinterval; "
                             "default: CPython's own, 5 ms, as feltguard run has it)")
    parser.add_argument("--tls", action="store_true",
                        help="serve HTTPS/wss:// (the product and the peer) with a certificate "
                             "of an authority made for the bench; needs --clients")
    parser.add_argument("--odds", choices=("off", "on", "both"), default="off",
                        help="the broadcast's odds worker ([broadcast] odds): off (default), on, "
                             "or both, interleaved run by run (off, on, off, on...), printing "
                             "each path's p99 per run with and without it and their ratio")
    parser.add_argument("--stages", action="store_true",
                        help="also the server's CPU per card frame by stage (bench/stages.py); "
                             "needs --clients")
    args = parser.parse_args(argv)
    if args.stages and not args.clients:
        parser.error("--stages measures the fan-out's path: give --clients N")
    if args.tls and not args.clients:
        parser.error("--tls measures the fan-out: give --clients N")
    if args.clients < 0 or args.client_procs < 1 or args.cards < 1 or args.runs < 1:
        parser.error("--clients must be >= 0; --client-procs, --cards and --runs >= 1")
    # the server runs in this process: as feltguard run has it, or as --switch-interval says
    if args.switch_interval is not None:
        if not 0 < args.switch_interval <= 100:
            parser.error("--switch-interval must be 0..100 ms")
        import sys

        sys.setswitchinterval(args.switch_interval / 1000)
    runs: list[dict[str, list[float]]] = []
    tls_tmp = tempfile.TemporaryDirectory(prefix="feltguard-bench-tls-") if args.tls else None
    tls_dir = None
    if tls_tmp is not None:
        from controller.security.tls import init_folder

        tls_dir = init_folder(Path(tls_tmp.name) / "tls", hosts=["127.0.0.1"]).folder.path
    modes = {"off": (False,), "on": (True,), "both": (False, True)}[args.odds]
    plan = [(i, odds) for i in range(args.runs) for odds in modes]
    for i, odds in plan:
        each_run = run(args.cards, args.seed + i, args.gap / 1000, args.clients,
                       args.client_procs, tls_dir, args.stages, odds)
        each_run["odds"] = [1.0] if odds else []
        each_run["floor"] = floor(args.cards, args.gap / 1000)
        if args.clients:
            # the display's own share: from the LED (the table's work done) to the slowest
            each_run["display"] = [s - led for s, led in zip(each_run["slowest"],
                                                             each_run["led"], strict=True)]
            peer = fan_out_floor(args.cards, args.clients, args.client_procs, args.gap / 1000,
                                 tls_dir)
            each_run["peer"] = peer["slowest"]
            each_run["peer read"] = peer["read"]
        runs.append(each_run)
    paths = [("led", "frame -> LED pin"), ("socketio", "frame -> Socket.IO"),
             ("loop", "  (client read loop)"), ("handler", "  (client handler)")]
    if args.clients:
        paths = [("led", "frame -> LED pin"), ("first", "frame -> first client"),
                 ("slowest", "frame -> slowest client"), ("/table", "  (slowest /table)"),
                 ("/dealer", "  (/dealer)"), ("/broadcast", "  (/broadcast, delay 0)"),
                 ("read", "slowest client's process reads it"),
                 ("display", "LED -> slowest client (display)"),
                 ("peer", "peer: bare fan-out -> slowest"),
                 ("peer read", "  (peer: its process reads it)")]
        paths = [(k, label) for k, label in paths if k in runs[0]]
    paths.append(("floor", "machine floor"))
    frames = sum(len(r[paths[0][0]]) for r in runs)
    print(f"card frame -> output latency: {frames} card frames in {len(runs)} run(s), "
          f"{args.gap:g} ms apart (target: p99 < "
          f"{TARGET_P99_MS:.0f} ms)")
    if args.clients:
        if args.tls:
            print("TLS: the product and the peer serve wss:// (TLS 1.3, EC P-256), the clients "
                  "trusting the run's own authority")
        print(f"clients: {args.clients} on /table, 1 on /dealer, 1 on /broadcast (delay 0), in "
              f"{min(args.client_procs, args.clients + 2)} client process(es)")
    print("machine floor: the same hops (pty, a reader thread, loopback TCP to another process)"
          " with no product in them")
    if args.clients:
        print("peer: the same client processes on a bare WebSocket server (websockets.broadcast "
              "of one prepared state per namespace, one loop thread): what the machine and the "
              "clients cost, to set beside the display's share")
    width = max(28, *(len(label) + 2 for _, label in paths))
    print(f"{'path':<{width}}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}"
          f"{'p99 per run: min / median / max':>36}{'p99/target':>12}{'p99/floor':>11}")
    floor_p99 = _percentile([x for r in runs for x in r["floor"]], 0.99)
    for name, label in paths:
        pooled = [x for r in runs for x in r[name]]
        p99 = _percentile(pooled, 0.99)
        each = [_percentile(r[name], 0.99) for r in runs]
        spread = f"{min(each):.3f} / {statistics.median(each):.3f} / {max(each):.3f}"
        print(f"{label:<{width}}{_percentile(pooled, 0.5):>9.3f}{p99:>9.3f}{max(pooled):>9.3f}"
              f"{spread:>36}{p99 / TARGET_P99_MS:>12.2f}{p99 / floor_p99:>11.1f}")
    if args.clients:
        ours = _percentile([x for r in runs for x in r["display"]], 0.99)
        peer = _percentile([x for r in runs for x in r["peer"]], 0.99)
        print(f"display p99 {ours:.3f} ms, peer p99 {peer:.3f} ms: ratio {ours / peer:.1f}")
    if args.stages:
        _print_stages(runs)
    if args.odds == "both":
        _print_odds(runs, [k for k, _ in paths if k in ("led", "socketio", "slowest")])
    return 0


def _print_odds(runs: list[dict[str, list[float]]], keys: list[str]) -> None:
    """Each path's p99 per run with the broadcast's odds worker off and on (interleaved runs of
    the same seeds), min / median / max, and the ratio of the medians (on / off)."""
    print("the broadcast's odds worker off and on, interleaved (p99 per run, ms: "
          "min / median / max)")
    print(f"{'path':<28}{'odds off':>26}{'odds on':>26}{'on / off':>10}")
    for key in keys:
        off = [_percentile(r[key], 0.99) for r in runs if not r["odds"]]
        on = [_percentile(r[key], 0.99) for r in runs if r["odds"]]
        cells = [f"{min(x):.3f} / {statistics.median(x):.3f} / {max(x):.3f}" for x in (off, on)]
        ratio = statistics.median(on) / statistics.median(off)
        print(f"{key:<28}{cells[0]:>26}{cells[1]:>26}{ratio:>10.2f}")


def _print_stages(runs: list[dict[str, list[float]]]) -> None:
    """The server's CPU per card frame by stage (bench/stages.py), against the target."""
    from bench.stages import STAGES

    print(f"server CPU per card frame (thread CPU time, ms; target on the path, journal to the "
          f"sockets: p50 <= {CPU_TARGET_P50_MS} and p99 <= {CPU_TARGET_P99_MS})")
    print(f"{'stage':<28}{'p50 ms':>9}{'p99 ms':>9}{'mean ms':>9}{'share':>8}"
          f"{'p50 per run: min / median / max':>36}")
    total = statistics.fmean([x for r in runs for x in r["cpu"]]) or 1.0
    for name in (*STAGES, ""):
        key = f"cpu:{name}" if name else "cpu"
        pooled = [x for r in runs for x in r[key]]
        each = [_percentile(r[key], 0.5) for r in runs]
        spread = f"{min(each):.3f} / {statistics.median(each):.3f} / {max(each):.3f}"
        mean = statistics.fmean(pooled)
        label = name or "path: journal to sockets"
        print(f"{label:<28}{_percentile(pooled, 0.5):>9.3f}{_percentile(pooled, 0.99):>9.3f}"
              f"{mean:>9.3f}{mean / total:>8.0%}{spread:>36}")


if __name__ == "__main__":
    raise SystemExit(main())
