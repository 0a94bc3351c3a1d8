"""``feltguard run`` with ``[journal] rollover = 1`` (the systemd unit's command line, a real
Socket.IO dealer's tablet): the journal rolls over at the hand's end; then, with its live
segment cut short, the table starts again from the sealed segment's end, keeps the damaged file
aside and says so in one log line and in /healthz's journal.restart."""

from __future__ import annotations

import json
import os
import time
import urllib.request
from pathlib import Path
from typing import Any

from controller.journal import last_seq, run_segments
from tests.run_harness import dealer_tablet, feltguard_run, free_port, table_config, tap

HAND = ({"type": "shuffle.done"}, {"type": "hand.start"},
        {"type": "action", "seat": 1, "kind": "post", "amount": 1},
        {"type": "action", "seat": 2, "kind": "post", "amount": 2})


def _healthz(port: int) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
                got: dict[str, Any] = json.loads(r.read())
                return got
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_run_rolls_over_and_comes_back_from_a_cut_live_segment(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    port = free_port()
    config = table_config(tmp_path, seats=6, leds='pin_factory = "mock"', journal="rollover = 1",
                          display=f'host = "127.0.0.1"\nport = {port}\ntls = false\n'
                                  'dealer_token = "d-tok-12"')
    with feltguard_run(config, tmp_path) as run:
        tablet = dealer_tablet(port, "d-tok-12", run)
        try:
            for body in (*HAND, {"type": "action", "seat": 1, "kind": "fold"},
                         {"type": "hand.end"}, *HAND):  # a hand, then the next one begun
                assert tap(tablet, body)["ok"], body
        finally:
            tablet.disconnect()
    assert run.returncode == 0, run.out[-3000:]
    segments = run_segments(journal)
    assert [s.path.name for s in segments] == ["journal.0000000001-0000000010.sqlite",
                                               "journal.sqlite"]
    assert "journal rolled over: seq 1..10 sealed as journal.0000000001-0000000010.sqlite" \
        in run.out
    assert last_seq(journal) == 14
    os.truncate(journal, journal.stat().st_size // 2)  # the live segment cut short
    with feltguard_run(config, tmp_path) as run:
        restart = _healthz(port)["journal"]["restart"]
    assert run.returncode == 0, run.out[-3000:]
    [aside] = [p.name for p in tmp_path.iterdir() if p.name.startswith("journal.sqlite.damaged-")
               and not p.name.endswith(("-wal", "-shm"))]
    assert restart["damaged"] == "cut short: set aside" and restart["checkpoint_seq"] == 10
    [line] = [x for x in run.out.splitlines() if aside in x]
    assert "ERROR" in line and "damaged or truncated" in line and "seq 10" in line
    assert "Traceback" not in run.out
    assert last_seq(journal) == 10  # the sealed segment's end: the state the table came back to
