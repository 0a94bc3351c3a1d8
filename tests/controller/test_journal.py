"""The journal in a real SQLite file: append before apply, the keyed chain and its anchors,
append-only, recovery, and one clear error for every file that is not a journal."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import stat

import pytest

from controller.events import Event, HandStart, SeatTake, ShoeDraw, TableSetup
from controller.journal import (
    Journal,
    JournalError,
    anchor_path_for,
    check,
    create_key,
    is_journal_file,
    key_path_for,
    load_key,
    read_events,
    verify,
)


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


@pytest.mark.parametrize("every", [0.02, None], ids=["with checkpointer", "appender alone"])
def test_the_wal_stays_bounded_while_the_table_never_stops_writing(tmp_path, every):
    """A busy table always has frames newer than the last PASSIVE checkpoint, so SQLite never
    starts the WAL over by itself: it grew by about 260 KB a hand (786 MB in 3,000 simulated
    hands). Past ``wal_limit_frames`` the appender empties it (a TRUNCATE checkpoint). It did
    that from the background thread before, which lost the race to a busy appender: in CI the
    WAL reached 2,923 frames against a limit of 64. Then the appender counted commits, and its
    TRUNCATE was refused while a background round ran: 275 frames in CI. Now it reads the WAL's
    size and, an eighth past the limit, waits for the round: the bound holds whoever gets the
    CPU."""
    path = tmp_path / "j.sqlite"
    wal = tmp_path / "j.sqlite-wal"
    limit, n = 64, 4000  # every commit writes at least one 4 KB frame
    largest = 0
    with Journal(path, checkpoint_every=every, wal_limit_frames=limit) as j:
        j.append(Event(1, 0, TableSetup()))
        for seq in range(2, n + 1):
            j.append(Event(seq, seq, SeatTake(seat=1 + seq % 6, player=f"P{seq}", stack=seq)))
            largest = max(largest, wal.stat().st_size if wal.exists() else 0)
    frames = largest // 4096
    # Unbounded, the WAL held one frame per commit: about 4,000 here. The limit, the eighth of
    # slack and the frames of the commit that crossed it.
    assert frames <= limit + limit // 8 + 4, \
        f"the WAL reached {frames} frames against a limit of {limit}"
    assert sum(1 for _ in read_events(path)) == n
    assert check(path).ok


# --- tamper evidence: a keyed chain and anchors outside the journal ---------------------------


def _long_journal(path, n=60):
    with Journal(path) as j:
        j.append(Event(1, 0, TableSetup()))
        for seq in range(2, n + 1):
            j.append(Event(seq, seq, SeatTake(seat=1 + seq % 6, player=f"P{seq}", stack=seq)))
            if seq % 20 == 0:
                j.anchor("hand", hand=seq // 20)


def test_the_key_lives_outside_the_journal_readable_only_by_its_owner(tmp_path):
    path = tmp_path / "j.sqlite"
    _long_journal(path, 5)
    key_file = key_path_for(path)
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    key = load_key(key_file)
    assert key.hex() not in path.read_bytes().hex()  # the key is nowhere in the journal
    with pytest.raises(JournalError, match="never overwritten"):
        create_key(key_file)
    assert check(path).ok


def test_an_edited_row_rehashed_without_the_key_is_found(tmp_path):
    """An insider edits a record and recomputes every hash after it (the old SHA-256 chain
    passed that); without the key the HMAC chain breaks at the edited record."""
    path = tmp_path / "j.sqlite"
    _long_journal(path)
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER events_no_update")
    db.execute("UPDATE events SET line = replace(line, '\"stack\":30', '\"stack\":3000') "
               "WHERE seq = 30")
    prev = "0" * 64
    for seq, line in db.execute("SELECT seq, line FROM events ORDER BY seq").fetchall():
        digest = hashlib.sha256((prev + "\n" + line).encode()).hexdigest()
        db.execute("UPDATE events SET prev = ?, hash = ? WHERE seq = ?", (prev, digest, seq))
        prev = digest
    db.commit()
    db.close()
    verdict = check(path)
    assert not verdict.ok and verdict.seq == 1  # nothing rehashed without the key checks out
    assert verify(path) == 1


def test_deleting_the_last_rows_is_found_through_the_anchors(tmp_path):
    path = tmp_path / "j.sqlite"
    _long_journal(path)
    assert check(path).ok
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER events_no_delete")
    db.execute("DELETE FROM events WHERE seq > 40")  # the last 20 rows
    db.commit()
    db.close()
    verdict = check(path)
    assert not verdict.ok
    assert "cut off" in verdict.problem and verdict.seq == 60  # the close anchored seq 60


def test_a_forged_or_missing_anchor_file_fails_the_check(tmp_path):
    path = tmp_path / "j.sqlite"
    _long_journal(path)
    anchors = anchor_path_for(path)
    with open(anchors, "a") as fh:
        fh.write('{"journal":"x","seq":1,"hash":"0","why":"hand","hand":1,"mac":"00"}\n')
    verdict = check(path)
    assert not verdict.ok and "not written with the journal's key" in verdict.problem
    os.remove(anchors)
    verdict = check(path)
    assert not verdict.ok and "no anchor file" in verdict.problem


def test_another_key_is_refused_to_write_and_fails_the_check(tmp_path):
    path = tmp_path / "j.sqlite"
    _long_journal(path, 3)
    other = tmp_path / "other.key"
    create_key(other)
    with pytest.raises(JournalError, match="written with another key"):
        Journal(path, key_path=other)
    verdict = check(path, key_path=other)
    assert not verdict.ok and "another key" in verdict.problem


def test_the_anchor_file_is_only_appended_to(tmp_path):
    path = tmp_path / "j.sqlite"
    _long_journal(path, 41)
    lines = anchor_path_for(path).read_text().splitlines()
    assert [json.loads(x)["why"] for x in lines] == ["open", "hand", "hand", "close"]
    Journal(path).close()
    assert anchor_path_for(path).read_text().splitlines()[:4] == lines  # nothing rewritten


@pytest.mark.parametrize("make, expected", [
    (lambda p: None, "no such file"),
    (lambda p: p.mkdir(), "is a directory"),
    (lambda p: p.write_bytes(os.urandom(4096)), "not an SQLite journal"),
    (lambda p: p.write_bytes(b"SQLite format 3\x00" + os.urandom(8192)), "damaged or truncated"),
    (lambda p: sqlite3.connect(p).execute("CREATE TABLE t (x)").connection.commit(),
     "no events table"),
])
def test_a_file_that_is_no_journal_is_one_clear_error(tmp_path, make, expected):
    path = tmp_path / "bad.sqlite"
    make(path)
    for read in (lambda: list(read_events(path)), lambda: check(path, b"k" * 32)):
        with pytest.raises(JournalError, match=expected) as info:
            read()
        assert str(info.value).startswith(str(path))


def test_a_truncated_journal_is_one_clear_error(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        for seq in range(1, 3001):
            j.append(Event(seq, seq, SeatTake(seat=1, player="P" * 50, stack=seq)))
        j.checkpoint()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    for side in ("-wal", "-shm"):  # what a copy of the main file alone looks like
        with contextlib.suppress(FileNotFoundError):
            os.remove(str(path) + side)
    with pytest.raises(JournalError, match="damaged or truncated"):
        list(read_events(path))
    with pytest.raises(JournalError, match="damaged or truncated"):
        check(path)


def test_another_programs_sqlite_file_is_never_written_into(tmp_path):
    path = tmp_path / "other.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE accounts (x)")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(JournalError, match="not a Feltguard journal"):
        Journal(path)
    assert path.read_bytes() == before  # not even switched to WAL


def test_a_file_refused_as_a_journal_leaves_no_key_behind(tmp_path):
    path = tmp_path / "random.bin"
    path.write_bytes(os.urandom(100))
    with pytest.raises(JournalError, match="not an SQLite journal"):
        Journal(path)
    assert not key_path_for(path).exists()


def test_a_reader_in_another_process_holds_the_truncate_back_and_loses_nothing(tmp_path):
    """A surveillance query or a replay in another process holds a read snapshot: the TRUNCATE
    waits ``RESTART_WAIT`` for it, then gives up for an eighth of the limit (not one wait per
    commit), and starts the WAL over once the reader is gone."""
    import itertools
    import sqlite3

    path = tmp_path / "j.sqlite"
    wal = tmp_path / "j.sqlite-wal"
    limit = 64
    with Journal(path, checkpoint_every=None, wal_limit_frames=limit) as j:
        j.append(Event(1, 0, TableSetup()))
        reader = sqlite3.connect(str(path), isolation_level=None)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM events").fetchone()  # holds its snapshot
        tries = []
        real = j._start_wal_over
        j._start_wal_over = lambda frames, wait: (tries.append(frames), real(frames, wait))[1]
        seq = 1
        while len(tries) < 3:
            seq += 1
            j.append(Event(seq, seq, SeatTake(seat=1 + seq % 6, player=f"P{seq}", stack=seq)))
        # One try at the limit, then one per eighth of it: not one per commit.
        assert tries[0] > limit and all(b - a >= limit // 8 for a, b in itertools.pairwise(tries))
        assert wal.stat().st_size > 0
        reader.execute("COMMIT")
        reader.close()
        while wal.stat().st_size:
            seq += 1
            j.append(Event(seq, seq, SeatTake(seat=1 + seq % 6, player=f"P{seq}", stack=seq)))
            assert seq < 400, "the WAL never started over once the reader left"
    assert sum(1 for _ in read_events(path)) == seq
    assert check(path).ok


def test_the_anchor_tail_is_the_anchors_at_or_after_a_seq_read_from_the_end(tmp_path):
    """``read_anchor_tail``: what a restart from a checkpoint reads of the anchor file, from its
    end back across 64 KB blocks, equals the whole file's anchors from that seq on."""
    from controller.journal import Anchor, AnchorLog, read_anchor_tail, read_anchors

    key = b"k" * 32
    path = tmp_path / "a.anchors"
    log = AnchorLog(path, key)
    for seq in range(0, 6000, 2):
        log.record(Anchor("j1", seq, f"{seq:064x}", "hand", seq // 70))
    log.close()
    assert path.stat().st_size > 3 * 65536
    everything, problems = read_anchors(path, key)
    assert not problems
    for down_to in (0, 1, 2999, 3000, 5998, 5999, 10**6):
        tail, problems = read_anchor_tail(path, key, down_to)
        assert not problems
        assert tail == [a for a in everything if a.seq >= down_to], down_to
