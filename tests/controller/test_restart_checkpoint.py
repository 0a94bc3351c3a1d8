"""A restart from the journal's newest checkpoint reaches exactly the state a full replay does:
for every recorded scenario (every game family), cut between hands and mid-hand, the daemon
reopened over the journal (the checkpoint loaded, the events after it replayed) against the
journal's events applied from the start, field by field. A checkpoint that does not check out
or is of an older format is passed over, said in the log and in ``restart``, never silently;
``check`` names a checkpoint forged without the key."""

from __future__ import annotations

import json
import logging
import sqlite3
import zlib
from pathlib import Path

import pytest

from controller.daemon.table_daemon import TableDaemon
from controller.events import EventError, read_scenario
from controller.guard import guarded_apply
from controller.journal import Journal, check, read_events
from controller.rules import TableState, initial_state, snapshot, state_to_text
from tests.rules.test_checkpoint_text import STREAMS


def _write(path: Path, events) -> None:
    with Journal(path) as journal:
        daemon = TableDaemon(journal)
        for event in events:
            daemon.submit(event.body, ts=event.ts)


def _full_replay(path: Path) -> TableState:
    state = initial_state()
    for event in read_events(path):
        state = guarded_apply(state, event).step.state
    return state


def _cuts(events) -> dict[str, int]:
    ends = [i + 1 for i, e in enumerate(events) if e.type in ("hand.end", "misdeal.declared")]
    cuts = {"mid-hand": max(1, len(events) // 2 + 1)}
    if ends:
        cuts["between hands"] = ends[0]
        cuts["after a hand, mid-hand"] = min(len(events), ends[0] + 3)
    return cuts


@pytest.mark.parametrize("path", STREAMS, ids=[p.stem for p in STREAMS])
def test_a_restart_from_the_checkpoint_is_a_full_replay(tmp_path: Path, path: Path) -> None:
    events = read_scenario(path)
    for name, cut in _cuts(events).items():
        journal_path = tmp_path / f"{name.replace(' ', '-')}.sqlite"
        try:
            _write(journal_path, events[:cut])
        except EventError:  # (a card key the daemon itself resolves: not a replayable stream)
            pytest.skip("a stream the daemon does not take as it is recorded")
        with Journal(journal_path) as journal:
            daemon = TableDaemon(journal)
            full = _full_replay(journal_path)
            assert daemon.state == full, name
            assert daemon.state.previous == full.previous, name
            assert daemon.last_snapshot == snapshot(full), name
            assert daemon.seq == journal.last_seq
            has_checkpoint = any(e.type in ("hand.end", "misdeal.declared")
                                 for e in events[:cut])
            assert daemon.restart is not None
            assert daemon.restart["from"] == ("checkpoint" if has_checkpoint
                                              else "the whole journal"), name


def _two_hand_journal(tmp_path: Path) -> Path:
    """A journal with a checkpoint at each of two hands' ends, and events after."""
    events = read_scenario(Path(STREAMS[0]).with_name("clean_heads_up.jsonl"))
    setup = [e for e in events if e.type in ("table.setup", "seat.take", "deck.register")]
    hand = [e for e in events if e not in setup]
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        daemon = TableDaemon(journal)
        for event in (*setup, *hand, *hand[:2]):
            daemon.submit(event.body, ts=event.ts)
    return path


def test_a_checkpoint_that_fails_its_check_is_passed_over_and_said(tmp_path, caplog):
    path = _two_hand_journal(tmp_path)
    db = sqlite3.connect(path)
    seqs = [r[0] for r in db.execute("SELECT seq FROM states ORDER BY seq")]
    assert len(seqs) >= 1
    db.execute("DROP TRIGGER states_no_update")
    text = zlib.decompress(db.execute("SELECT data FROM states WHERE seq = ?",
                                      (seqs[-1],)).fetchone()[0]).decode()
    edited = text.replace('"hand_number":', '"hand_number": ')
    assert edited != text
    db.execute("UPDATE states SET data = ? WHERE seq = ?",
               (zlib.compress(edited.encode()), seqs[-1]))
    db.commit()
    db.close()
    caplog.set_level(logging.WARNING, logger="feltguard.daemon")
    with Journal(path) as journal:
        daemon = TableDaemon(journal)
        assert daemon.state == _full_replay(path)
        assert daemon.restart is not None and daemon.restart["checkpoints_passed_over"] == 1
    assert f"the checkpoint at seq {seqs[-1]} is passed over: its HMAC does not check out" \
        in caplog.text
    verdict = check(path)  # and verify names it
    assert not verdict.ok and f"checkpoint at seq {seqs[-1]}" in str(verdict.problem)


def test_a_checkpoint_of_an_older_format_is_passed_over(tmp_path, caplog):
    path = _two_hand_journal(tmp_path)
    with Journal(path) as journal:
        state = _full_replay(path)
        old = json.loads(state_to_text(state))
        old["version"] = 0
        journal.save_state(json.dumps(old))  # well signed, but not this code's format
    caplog.set_level(logging.WARNING, logger="feltguard.daemon")
    with Journal(path) as journal:
        daemon = TableDaemon(journal)
        assert daemon.state == state
        assert daemon.restart is not None and daemon.restart["checkpoints_passed_over"] == 1
        assert daemon.restart["from"] == "checkpoint"  # the one before it
    assert "an older format" in caplog.text
