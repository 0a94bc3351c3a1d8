"""``feltguard run`` (in a child process as systemd runs it, its live view served from that
process) takes the dealer's touch console inputs: a real Socket.IO client on ``/dealer`` logged in
with the dealer token sends an event body, the table journals it, a ruling without the floor's
token is refused, and the random floor token is kept in a 0600 file, never printed."""

from __future__ import annotations

from pathlib import Path

from controller.journal import read_events
from tests.run_harness import dealer_tablet, feltguard_run, free_port, table_config, tap


def test_the_served_table_takes_console_inputs_through_the_journal(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    port = free_port()
    config = table_config(tmp_path, seats=6,
                          display=f'host = "127.0.0.1"\nport = {port}\ntls = false\n'
                                  'dealer_token = "d-tok-9"')
    with feltguard_run(config, tmp_path) as run:
        client = dealer_tablet(port, "d-tok-9", run)
        try:
            started = tap(client, {"type": "hand.start"})
            ruling = tap(client, {"type": "floor.ruling", "text": "x"})
        finally:
            client.disconnect()
    out = run.out
    assert started["ok"] is True, started
    assert ruling == {"ok": False, "reason": "a ruling needs the floor's login", "findings": []}
    types = [e.type for e in read_events(journal)]
    assert types.count("hand.start") == 1 and "floor.ruling" not in types
    floor = tmp_path / "floor-token"
    assert floor.stat().st_mode & 0o777 == 0o600
    assert floor.read_text().strip() not in out and "Traceback" not in out
    assert f"127.0.0.1:{port}" in out  # the start-up line says where the live view is
