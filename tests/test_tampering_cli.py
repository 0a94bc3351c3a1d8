"""Tampering, seen from the command line: a journal whose chain or anchors fail their check is
refused by ``replay`` and ``phh export`` (exit 1, one line), read under a loud warning with
``--force``, and described by ``verify``; ``key`` makes a key and never overwrites one."""

from __future__ import annotations

import json
import sqlite3
import stat

import pytest

from controller.cli import main
from controller.events import iter_lines
from controller.journal import Journal, anchor_path_for, key_path_for
from tests.test_cli import HAND


@pytest.fixture
def journal(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        for event in iter_lines(HAND.splitlines()):
            j.append(event)
            if event.type == "hand.end":
                j.anchor("hand", 1)
    return path


def _cut_tail(path, keep: int) -> None:
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER events_no_delete")
    db.execute("DELETE FROM events WHERE seq > ?", (keep,))
    db.commit()
    db.close()


def test_an_intact_journal_replays_and_verifies(journal, capsys):
    assert main(["verify", str(journal)]) == 0
    out = capsys.readouterr().out
    assert "intact" in out and "anchor(s)" in out
    assert main(["replay", "--json", str(journal)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[-1]["type"] == "state" and not any(x["type"] == "warning" for x in lines)


@pytest.mark.parametrize("command", [["replay"], ["replay", "--json"], ["phh", "export"]])
def test_a_journal_with_a_cut_tail_is_refused(journal, capsys, command):
    _cut_tail(journal, 5)
    assert main([*command, str(journal)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing replayed
    err = captured.err.strip().splitlines()
    assert len(err) == 1 and "cut off" in err[0] and "--force" in err[0]


def test_force_replays_a_broken_journal_under_a_loud_warning(journal, capsys):
    _cut_tail(journal, 5)
    assert main(["replay", "--force", "--json", str(journal)]) == 0
    captured = capsys.readouterr()
    assert "WARNING" in captured.err and "cut off" in captured.err
    first = json.loads(captured.out.splitlines()[0])
    assert first["type"] == "warning" and first["forced"] is True
    assert main(["replay", "--force", str(journal)]) == 0
    assert capsys.readouterr().out.startswith("WARNING:")


def test_verify_names_the_problem(journal, capsys):
    _cut_tail(journal, 5)
    assert main(["verify", str(journal)]) == 1
    assert "the journal ends at seq 5" in capsys.readouterr().out


def test_a_journal_without_its_key_is_refused_unless_forced(journal, capsys):
    key_path_for(journal).rename(journal.with_name("elsewhere.key"))
    assert main(["replay", str(journal)]) == 2
    assert "no journal key there" in capsys.readouterr().err
    assert main(["replay", "--force", str(journal)]) == 0
    assert "not checked" in capsys.readouterr().err
    assert main(["verify", "--key", str(journal.with_name("elsewhere.key")), str(journal)]) == 0


def test_an_anchor_written_without_the_key_fails(journal, capsys):
    with open(anchor_path_for(journal), "a") as fh:
        fh.write(json.dumps({"journal": "x", "seq": 3, "hash": "00", "why": "hand",
                             "hand": 1, "mac": "00"}) + "\n")
    assert main(["verify", str(journal)]) == 1
    assert "not written with the journal's key" in capsys.readouterr().out


def test_key_creates_a_private_key_and_never_overwrites_one(tmp_path, capsys):
    path = tmp_path / "journal.key"
    assert main(["key", str(path)]) == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    before = path.read_bytes()
    assert main(["key", str(path)]) == 2
    assert "never overwritten" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_verify_since_the_checkpoint_checks_from_it(tmp_path):
    """``feltguard verify --since-checkpoint``: from the newest checkpoint that checks out (the
    records up to it were checked when it was kept), the rest of the chain and its anchors."""
    import subprocess
    import sys
    from pathlib import Path

    journal = tmp_path / "j.sqlite"
    repo = Path(__file__).resolve().parent.parent
    env = {**__import__("os").environ, "PYTHONPATH": str(repo)}
    sim = subprocess.run([sys.executable, "-m", "controller.cli", "sim", "--no-web", "--hands",
                          "3", "--pace", "0", "--seed", "4", "--journal", str(journal)],
                         capture_output=True, text=True, timeout=120, env=env, check=False)
    assert sim.returncode in (0, 1), sim.stderr
    done = subprocess.run([sys.executable, "-m", "controller.cli", "verify",
                           "--since-checkpoint", str(journal)], capture_output=True, text=True,
                          timeout=120, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert "intact from its checkpoint at seq" in done.stdout


def test_verify_checkpoints_names_one_that_does_not_match_its_replay(tmp_path):
    """``feltguard verify --checkpoints``: a checkpoint well signed with the key but not the
    state the journal's replay reaches (a bug, or whoever holds the key) is named."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    from controller.daemon.table_daemon import TableDaemon
    from controller.events import HandEnd, HandStart, SeatTake, TableSetup
    from controller.journal import Journal
    from controller.rules import state_to_text

    journal = tmp_path / "j.sqlite"
    with Journal(journal) as j:
        daemon = TableDaemon(j)
        for body in (TableSetup(), SeatTake(seat=1, player="A", stack=10),
                     SeatTake(seat=2, player="B", stack=10), HandStart(button=1), HandEnd()):
            daemon.submit(body)
    repo = Path(__file__).resolve().parent.parent
    env = {**__import__("os").environ, "PYTHONPATH": str(repo)}

    def verify() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "controller.cli", "verify", "--checkpoints",
                               str(journal)], capture_output=True, text=True, timeout=120,
                              env=env, check=False)

    good = verify()
    assert good.returncode == 0 and "every checkpoint (1) is the state its replay reaches" \
        in good.stdout
    with Journal(journal) as j:  # one more event, and a lie kept as its state
        daemon = TableDaemon(j)
        daemon.submit(SeatTake(seat=3, player="C", stack=10))
        lie = json.loads(state_to_text(daemon.state))
        lie["state"]["hand_number"] = 99
        j.save_state(json.dumps(lie, separators=(",", ":")))
    bad = verify()
    assert bad.returncode == 1
    assert "does not match its replay" in bad.stdout
