"""Security: a whole simulated session, scanned for hole-card leaks on the public namespace.

The simulated table deals ten hands (mistakes on) through the real driver path and publishes
every snapshot through the real display server. A public Socket.IO client records every payload
it receives; each is checked against the snapshot it was built from: no hole card of a seat that
is not tabled at a showdown may appear anywhere in it (DESIGN.md, Security).
"""

from __future__ import annotations

import json
import queue
import re
import threading
from typing import Any

import socketio

from controller.simulator import SimOptions, simulated_table


def test_no_hole_card_reaches_the_public_namespace_in_a_simulated_session():
    snapshots: dict[int, dict[str, Any]] = {}
    lock = threading.Lock()

    def keep(snap: Any) -> None:
        with lock:
            snapshots[int(snap["last_seq"])] = json.loads(json.dumps(snap))

    opts = SimOptions(hands=10, mistake_rate=0.3, seed=77, pace=0, web=True, port=0,
                      leds=False, extra_outputs=[keep])
    got: queue.Queue[dict[str, Any]] = queue.Queue()
    with simulated_table(opts) as table:
        client = socketio.Client(reconnection=False)
        client.on("state", got.put, namespace="/table")
        client.connect(table.server.url, namespaces=["/table"], transports=["websocket"],
                       wait_timeout=10)
        try:
            table.run()
            last = table.daemon.seq
            payloads = []
            while True:
                p = got.get(timeout=10)
                payloads.append(p)
                if p.get("last_seq") == last:
                    break
        finally:
            client.disconnect()
    scanned = 0
    for payload in payloads:
        seq = payload.get("last_seq")
        if seq is None:
            continue  # the greeting before the first event
        snap = snapshots[seq]
        tabled = set(snap["hand"]["showdown"])
        hidden = {c for s in snap["seats"] if s["seat"] not in tabled for c in s.get("hole") or []}
        text = json.dumps(payload)
        for card in hidden:
            assert not re.search(rf"\b{card}\b", text), f"{card} leaked at seq {seq}"
        scanned += 1
    assert scanned > 500  # ten hands of events, every one of them scanned
    assert any(snap["hand"]["showdown"] for snap in snapshots.values())
