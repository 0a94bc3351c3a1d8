"""A table that is killed comes back: ``kill -9`` of the real ``feltguard sim`` loses no event,
and the next run on the same journal continues from the recovered state. It sets nothing up
again, voids the hand the crash interrupted, and deals clean hands with no false finding. The
truth file is written as the simulation goes, so a crash keeps it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest

from controller.journal import check, read_events, read_findings
from tests.test_end_to_end import _feltguard


def _sim(journal: Path, *more: str) -> list[str]:
    return [*_feltguard(), "sim", "--pace", "0", "--no-web", "--journal", str(journal), *more]


def _events_in(journal: Path) -> int:
    try:
        return sum(1 for _ in read_events(journal))
    except Exception:  # the writer may hold the file mid-transaction: try again
        return 0


def _kill_mid_run(cmd: list[str], journal: Path, at_least: int) -> None:
    """Start ``cmd``, wait until the journal holds ``at_least`` events, then SIGKILL it."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and _events_in(journal) < at_least:
            assert proc.poll() is None, proc.stderr.read().decode()[-2000:] if proc.stderr else ""
            time.sleep(0.05)  # polling another process's journal; the deadline bounds it
        assert _events_in(journal) >= at_least
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        if proc.stderr:
            proc.stderr.close()


@pytest.mark.parametrize("game, seats", [("nlhe", 6), ("razz", 5), ("badugi", 4)])
def test_a_killed_sim_resumes_and_deals_clean_hands(tmp_path, game, seats):
    journal = tmp_path / "journal.sqlite"
    truth = tmp_path / "truth.jsonl"
    base = ["--game", game, "--seats", str(seats), "--mistakes", "0", "--truth", str(truth)]
    killed_at = []
    for round_, target in enumerate((150, 400, 700)):
        _kill_mid_run(_sim(journal, *base, "--seed", str(round_)), journal, target)
        events = [e.seq for e in read_events(journal)]
        assert events == list(range(1, len(events) + 1))  # nothing lost, nothing out of order
        killed_at.append(len(events))
        assert check(journal).ok  # the chain holds; the unanchored tail is only the crash's
    starts_before = Counter(e.type for e in read_events(journal))["hand.start"]
    findings_before = len(read_findings(journal))

    proc = subprocess.run(_sim(journal, *base, "--seed", "9", "--hands", "5"),
                          capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "resumed the table" in proc.stdout

    after = list(read_events(journal))
    types = Counter(e.type for e in after)
    assert types["table.setup"] == 1  # set up once, never again
    assert types["hand.start"] == starts_before + 5
    new = read_findings(journal)[findings_before:]
    # The only finding after the restart is the floor voiding the interrupted hand, if one was
    # in play; before the fix, 5 clean hands gave 121 false findings.
    assert all(f.code == "FLOOR_RULING" for f in new), [(f.code, f.data["message"]) for f in new]
    assert len(new) <= 1
    assert check(journal).ok
    # every restart also voided its interrupted hand: rulings are the only findings at all
    assert {f.code for f in read_findings(journal)} <= {"FLOOR_RULING"}
    assert truth.exists()


def test_the_truth_file_is_written_as_the_simulation_goes(tmp_path):
    journal = tmp_path / "journal.sqlite"
    truth = tmp_path / "truth.jsonl"
    _kill_mid_run(_sim(journal, "--mistakes", "1", "--seed", "4", "--truth", str(truth)),
                  journal, 600)
    lines = truth.read_text().splitlines()
    assert lines, "a killed run kept no truth"
    mistakes = [json.loads(x) for x in lines]
    finished = {e.seq for e in read_events(journal) if e.type == "hand.end"}
    assert finished
    # each recorded mistake is of a hand dealt to its end, and raised in the journal
    found = Counter((f.hand, f.code) for f in read_findings(journal))
    for m in mistakes:
        assert found[(m["hand"], m["expected_code"])] >= 1, m


def test_sim_refuses_to_continue_another_games_journal(tmp_path):
    journal = tmp_path / "journal.sqlite"
    proc = subprocess.run(_sim(journal, "--hands", "1", "--seed", "1"),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run(_sim(journal, "--hands", "1", "--game", "razz", "--seats", "5"),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    last = proc.stderr.splitlines()[-1]  # after the daemon's log line of the recovery
    assert last.startswith("feltguard sim: ") and "holds a nlhe table of 6 seats" in last
    assert "Traceback" not in proc.stderr
    assert os.path.exists(journal)


def test_sim_prints_where_the_demo_passwords_are_never_a_password(tmp_path, monkeypatch,
                                                                   capsys):
    """No password travels in a URL or an output line (stdout lands in journald under
    systemd): the sim prints the path of a file only its owner can read."""
    import stat

    import display.access
    from controller.processes.sim import SimOptions, run_simulation

    written = {}
    real = display.access.write_token_file

    def spy(token, path=None):
        out = real(token, path)
        written.update(token=token, path=out, mode=stat.S_IMODE(out.stat().st_mode))
        return out

    monkeypatch.setattr(display.access, "write_token_file", spy)
    opts = SimOptions(hands=1, pace=0, port=0, leds=False,
                      journal_path=str(tmp_path / "j.sqlite"))
    assert run_simulation(opts) == 0
    out = capsys.readouterr()
    assert written["mode"] == 0o600
    assert f"passwords in {written['path']}" in out.out and "(mode 0600;" in out.out
    passwords = [line.split()[1] for line in written["token"].splitlines()
                 if not line.startswith("#")]
    assert len(passwords) == 4
    assert not any(pw in out.out + out.err for pw in passwords) and "?token=" not in out.out
