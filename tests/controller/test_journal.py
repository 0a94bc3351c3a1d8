"""The journal in a real SQLite file: append before apply, hash chain, append-only, recovery."""

from __future__ import annotations

import sqlite3

import pytest

from controller.events import Event, HandStart, SeatTake, ShoeDraw, TableSetup
from controller.journal import Journal, JournalError, is_journal_file, read_events, verify


def _events() -> list[Event]:
    return [
        Event(1, 1000, TableSetup()),
        Event(2, 1001, SeatTake(seat=1, player="Ann", stack=200)),
        Event(3, 1002, HandStart(button=1)),
        Event(4, 1003, ShoeDraw(uid="04A1", face_up=True)),
    ]


def test_events_round_trip_through_sqlite(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        for e in _events():
            j.append(e)
    assert is_journal_file(path)
    assert list(read_events(path)) == _events()
    assert verify(path) is None


def test_journal_uses_wal_and_normal_sync(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        assert j._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert j._db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL


def test_append_only_and_ordered(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        for e in _events():
            j.append(e)
        with pytest.raises(JournalError):
            j.append(Event(2, 0, HandStart()))
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            j._db.execute("UPDATE events SET ts = 0 WHERE seq = 2")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            j._db.execute("DELETE FROM events WHERE seq = 2")


def test_tampering_breaks_the_chain_at_the_edited_record(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        for e in _events():
            j.append(e)
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER events_no_update")  # an insider with the file
    db.execute("""UPDATE events SET line = replace(line, '"face_up":true', '"face_up":false')
                  WHERE seq = 4""")
    db.commit()
    db.close()
    assert verify(path) == 4


def test_reopen_continues_the_chain(tmp_path):
    path = tmp_path / "j.sqlite"
    events = _events()
    with Journal(path) as j:
        for e in events[:2]:
            j.append(e)
    with Journal(path) as j:
        assert j.last_seq == 2
        for e in events[2:]:
            j.append(e)
    assert verify(path) is None
    assert [e.seq for e in read_events(path)] == [1, 2, 3, 4]


def test_a_scenario_file_is_not_a_journal(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_text('{"type": "hand.start"}\n')
    assert not is_journal_file(p)
    with pytest.raises(JournalError, match="not an SQLite journal"):
        list(read_events(p))


def test_checkpoints_run_off_the_appending_thread(tmp_path):
    """Auto-checkpoints are off on the appender; the background checkpointer folds the WAL into
    the database file. Without it (the control) the database file stays as it was."""
    import time

    sizes = {}
    for every in (None, 0.05):
        path = tmp_path / f"j-{every}.sqlite"
        j = Journal(path, checkpoint_every=every)
        try:
            assert j._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
            before = path.stat().st_size
            for e in _events():
                j.append(e)
            deadline = time.monotonic() + (3 if every else 0.5)
            while time.monotonic() < deadline and path.stat().st_size == before:
                time.sleep(0.02)  # bounded wait for the background thread
            sizes[every] = (before, path.stat().st_size)
        finally:
            j._halt.set()  # look before close(), whose final checkpoint would hide the difference
            j.close()
        assert list(read_events(path)) == _events()
    assert sizes[None][1] == sizes[None][0]
    assert sizes[0.05][1] > sizes[0.05][0]
