"""Journal segments (docs/segments.md): the daemon rolls the journal over between hands, a run of
segments reads, checks and restarts as one journal, and each bad input (a segment missing from
the middle, a live segment cut short or with garbage after its end, an archived start) is said
in one line while the table starts from the best good state it has. Real SQLite files."""

from __future__ import annotations

import itertools
import logging
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

import controller.journal as journal_module
from controller.config import ConfigError, from_mapping
from controller.daemon.segments import Rollover, open_run
from controller.daemon.table_daemon import TableDaemon
from controller.journal import (
    Journal,
    JournalDamaged,
    archive_segments,
    archived,
    check,
    last_seq,
    read_checkpoints,
    read_events,
    read_findings,
    read_records,
    run_gaps,
    run_segments,
)
from controller.rules import snapshot
from tests.controller.segment_journal import build, deal, dealer, replayed


def _meta(path: Path) -> dict[str, str]:
    with sqlite3.connect(path) as db:
        return dict(db.execute("SELECT name, value FROM meta").fetchall())


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """A run of four sealed segments (a rollover every 4 hands) and a live one, mid-hand."""
    path = tmp_path_factory.mktemp("run") / "table.sqlite"
    return path, build(path, hands=17, every=4, tail=6)


def _copy(run: tuple[Path, int], tmp_path: Path) -> Path:
    src = run[0].parent
    dst = tmp_path / "copy"
    shutil.copytree(src, dst)
    return dst / run[0].name


def test_the_daemon_rolls_over_between_hands_into_one_chained_run(run: tuple[Path, int]) -> None:
    path, last = run
    segments = run_segments(path)
    assert [s.sealed for s in segments] == [True] * 4 + [False]
    names = [s.path.name for s in segments[:-1]]
    assert names == sorted(names) and all(n.startswith("table.") for n in names)
    # each sealed segment holds its seqs, ends on a hand's end and is out of WAL mode
    follows, head = 1, "0" * 64
    for seg in segments:
        with sqlite3.connect(seg.path) as db:
            rows = db.execute("SELECT seq, type, prev, hash FROM events ORDER BY seq").fetchall()
            mode = db.execute("PRAGMA journal_mode").fetchone()[0]
        meta = _meta(seg.path)
        assert int(meta.get("first_seq", "1")) == follows == rows[0][0]
        assert meta.get("prev_hash", "0" * 64) == head == rows[0][2]
        if seg.sealed:
            assert (seg.first, seg.last) == (rows[0][0], rows[-1][0])
            assert rows[-1][1] in ("hand.end", "misdeal.declared")
            assert mode == "delete"
            assert not Path(f"{seg.path}-wal").exists()
        follows, head = rows[-1][0] + 1, rows[-1][3]
    assert follows - 1 == last
    # read as one journal: every seq once, in order
    seqs = [e.seq for e in read_events(path)]
    assert seqs == list(range(1, last + 1))
    assert last_seq(path) == last
    verdict = check(path)
    assert verdict.ok and verdict.events == last and verdict.segments == 5, verdict
    assert read_findings(path) and {f.seq for f in read_findings(path)} <= set(seqs)


def test_each_new_segment_opens_on_a_checkpoint_that_checks_out(run: tuple[Path, int]) -> None:
    path, _ = run
    key = journal_module.load_key(journal_module.key_path_for(path))
    for seg in run_segments(path)[1:]:
        first = int(_meta(seg.path)["first_seq"])
        # (a sealed segment's name reads that segment; the live path, the run, newest first)
        opening = [c for c in read_checkpoints(seg.path, key, journal_module.anchor_path_for(path))
                   if c.seq == first - 1]
        assert opening and opening[0].problem is None
        # a segment verifies on its own, from that checkpoint
        assert check(seg.path, since=opening[0].seq, since_hash=opening[0].hash).ok


def test_a_restart_after_rollovers_is_a_full_replay_of_the_run(run: tuple[Path, int],
                                                              tmp_path: Path) -> None:
    path = _copy(run, tmp_path)
    with Journal(path) as journal:
        daemon = TableDaemon(journal, rollover=Rollover(4))
        full = replayed(path)
        assert daemon.state == full and daemon.state.previous == full.previous
        assert daemon.last_snapshot == snapshot(full)
        assert daemon.restart is not None and daemon.restart["from"] == "checkpoint"
        assert daemon.restart["checkpoint_seq"] >= journal.first_seq - 1
        assert "gaps" not in daemon.restart
        # the table deals on, rolls over again, and still restarts to the same state
        deal(daemon, dealer(11), hands=5)
        before = len(run_segments(path))
    assert len(run_segments(path)) == before
    with Journal(path) as journal:
        daemon = TableDaemon(journal)
        assert daemon.state == replayed(path)
    assert check(path).ok


def test_a_restart_right_after_a_rollover_comes_up_from_the_opening_checkpoint(
        tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    last = build(path, hands=4, every=4)  # the fourth hand's end rolled the journal over
    assert run_segments(path)[-1].sealed is False and last_seq(path) == last
    with Journal(path) as journal:
        assert journal.first_seq == last + 1
        daemon = TableDaemon(journal)
        assert daemon.restart == {"from": "checkpoint", "checkpoint_seq": last, "replayed": 0,
                                  "checkpoints_passed_over": 0}
        assert daemon.state == replayed(path)


def test_the_relays_read_spans_a_rollover(run: tuple[Path, int]) -> None:
    path, last = run
    sealed = run_segments(path)[0]
    batch = read_records(path, after=sealed.last - 3, limit=10)
    assert [r.seq for r in batch] == list(range(sealed.last - 2, sealed.last + 8))
    assert all(b.prev == a.hash for a, b in itertools.pairwise(batch))
    assert read_records(path, after=last, limit=10) == []


def test_a_segment_missing_from_the_middle_is_named_and_the_table_still_comes_up(
        run: tuple[Path, int], tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = _copy(run, tmp_path)
    gone = run_segments(path)[1]
    os.unlink(gone.path)
    verdict = check(path)
    assert verdict.problem == (f"seq {gone.first}..{gone.last} missing from the run: no segment "
                               f"holds them (between {run_segments(path)[0].path.name} and "
                               f"{run_segments(path)[1].path.name})")
    assert verdict.seq == gone.first
    with caplog.at_level(logging.WARNING, logger="feltguard.daemon"):
        daemon = open_run(path, lambda j: TableDaemon(j))
    try:
        assert daemon.restart is not None and daemon.restart["from"] == "checkpoint"
        assert daemon.restart["gaps"] == [[gone.first, gone.last]]
        [line] = [r.getMessage() for r in caplog.records if "missing" in r.getMessage()]
        assert line.endswith(f"seq {gone.first}..{gone.last} missing from the run (no segment "
                             f"holds them, before {run_segments(path)[1].path.name})")
        assert daemon.seq == run[1]
    finally:
        assert daemon.journal is not None
        daemon.journal.close()
    assert [[g.first, g.last] for g in run_gaps(path)] == daemon.restart["gaps"]


def test_a_live_segment_cut_short_is_set_aside_and_the_table_starts_from_the_run_before(
        run: tuple[Path, int], tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = _copy(run, tmp_path)
    sealed_end = run_segments(path)[-2].last
    with sqlite3.connect(path) as db:  # (the WAL folded in: the file alone holds the segment)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = path.stat().st_size
    os.truncate(path, size // 2)
    cut = path.read_bytes()
    with pytest.raises(JournalDamaged, match="damaged or truncated"):
        check(path)
    with caplog.at_level(logging.ERROR, logger="feltguard.daemon"):
        daemon = open_run(path, lambda j: TableDaemon(j))
    assert daemon.journal is not None
    daemon.journal.close()
    [aside] = [p for p in path.parent.iterdir() if ".damaged-" in p.name
               and not p.name.endswith(("-wal", "-shm"))]
    assert aside.read_bytes() == cut  # kept as it was, not deleted
    assert daemon.seq == sealed_end
    assert daemon.state == replayed(path)  # the run's good state: the sealed segments' end
    assert daemon.restart is not None and daemon.restart["damaged"] == "cut short: set aside"
    assert daemon.restart["kept"] == aside.name
    [line] = [r.getMessage() for r in caplog.records if aside.name in r.getMessage()]
    assert "\n" not in line and "the table starts from the end of its previous segment" in line
    verdict = check(path)  # the run checks out, but says what it lacks
    assert verdict.ok and verdict.damaged is not None and aside.name in verdict.damaged


def test_a_single_file_journal_cut_short_is_left_as_it_is_and_refused(tmp_path: Path) -> None:
    path = tmp_path / "one.sqlite"
    build(path, hands=3, every=100)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    os.truncate(path, path.stat().st_size // 2)
    cut = path.read_bytes()
    with pytest.raises(JournalDamaged) as info:
        open_run(path, lambda j: TableDaemon(j))
    assert "no sealed segment before it to start from" in str(info.value)
    assert "\n" not in str(info.value)
    assert path.read_bytes() == cut and not [p for p in tmp_path.iterdir() if ".damaged-" in p.name]


def test_garbage_after_the_live_segment_is_cut_off_and_nothing_is_lost(
        run: tuple[Path, int], tmp_path: Path) -> None:
    path = _copy(run, tmp_path)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with open(path, "ab") as fh:
        fh.write(os.urandom(3000))
    damaged = path.read_bytes()
    verdict = check(path)
    assert verdict.problem == ("table.sqlite: 3000 bytes past the end of its database (garbage "
                               "appended: damaged, or written by something else)")
    daemon = open_run(path, lambda j: TableDaemon(j))
    assert daemon.journal is not None
    daemon.journal.close()
    [aside] = [p for p in path.parent.iterdir() if ".damaged-" in p.name]
    assert aside.read_bytes() == damaged
    assert daemon.seq == run[1] and daemon.state == replayed(path)
    assert daemon.restart is not None
    assert daemon.restart["damaged"] == "bytes past its end cut off"
    assert "nothing it held is lost" in daemon.restart["said"]
    assert check(path).ok


def test_archived_segments_leave_the_table_verifiable_and_restartable(
        run: tuple[Path, int], tmp_path: Path) -> None:
    path = _copy(run, tmp_path)
    full = replayed(path)
    store = tmp_path / "archive"
    store.mkdir()
    segments = run_segments(path)
    done = archive_segments(path, store, keep=1)
    assert [a.segment for a in done] == [s.path.name for s in segments[:3]]
    assert [s.path.name for s in run_segments(path)] == [s.path.name for s in segments[3:]]
    assert sorted(p.name for p in store.iterdir()) == [f"{a.segment}.xz" for a in done]
    assert archived(path) == done
    verdict = check(path)
    assert verdict.ok and len(verdict.notes) == 1
    assert verdict.notes[0].startswith(f"seq 1..{segments[2].last} archived (3 segment(s) in ")
    assert verdict.events == run[1] - segments[2].last
    whole = check(path, archive=store)  # the compressed ones read too: the whole chain
    assert whole.ok and whole.events == run[1] and whole.notes == ()
    with Journal(path) as journal:
        daemon = TableDaemon(journal)
        assert daemon.state == full
    with pytest.raises(journal_module.JournalError, match="archived"):
        next(iter(read_events(path)))
    # nothing more to archive with the newest sealed segment kept
    assert archive_segments(path, store, keep=1) == []


def test_a_missing_archive_start_is_missing_not_archived(run: tuple[Path, int],
                                                         tmp_path: Path) -> None:
    path = _copy(run, tmp_path)
    first = run_segments(path)[0]
    os.unlink(first.path)
    verdict = check(path)
    assert verdict.problem is not None
    assert verdict.problem.startswith(f"seq 1..{first.last} missing from the run")


def test_a_rollover_held_back_by_a_reader_changes_nothing(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(journal_module, "ROLLOVER_WAIT", 0.05)
    path = tmp_path / "t.sqlite"
    with Journal(path, checkpoint_every=None) as journal:
        daemon = TableDaemon(journal)
        deal(daemon, dealer(), hands=1)
        reader = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            reader.execute("BEGIN")
            reader.execute("SELECT COUNT(*) FROM events").fetchone()
            assert journal.rollover() is None
        finally:
            reader.close()
        assert run_segments(path)[-1].sealed is False and len(run_segments(path)) == 1
        deal(daemon, dealer(5), hands=1)  # the journal goes on in the same segment
        sealed = journal.rollover()
        assert sealed is not None and sealed.exists()
    assert check(path).ok


@pytest.mark.parametrize(("value", "want"), [("off", "off"), ("day", "day"), (50, 50)])
def test_the_rollover_key(value: object, want: object) -> None:
    assert from_mapping({"journal": {"rollover": value}}).journal_rollover == want


@pytest.mark.parametrize("value", ["weekly", 0, -3, True, 1.5, ""])
def test_a_bad_rollover_names_the_key_in_one_line(value: object) -> None:
    with pytest.raises(ConfigError) as info:
        from_mapping({"journal": {"rollover": value}})
    assert str(info.value).startswith("journal.rollover: ") and "\n" not in str(info.value)


def test_a_day_rollover_seals_at_the_first_hand_end_of_a_new_day(tmp_path: Path) -> None:
    clock = [1_780_000_000.0]
    path = tmp_path / "t.sqlite"
    with Journal(path, checkpoint_every=None) as journal:
        daemon = TableDaemon(journal, clock=lambda: clock[0],
                             rollover=Rollover("day", clock=lambda: clock[0]))
        deal(daemon, dealer(), hands=2)
        assert len(run_segments(path)) == 1
        clock[0] += 86_400
        deal(daemon, dealer(3), hands=1)
        assert len(run_segments(path)) == 2
        deal(daemon, dealer(4), hands=1)
        assert len(run_segments(path)) == 2
    assert check(path).ok


def test_a_crash_between_sealing_and_the_new_segment_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    last = build(path, hands=3, every=100)  # one file, ending on a hand's end (a checkpoint)
    # the crash: the live segment renamed to its sealed name, no new live one yet
    os.rename(path, journal_module.segment_name(path, 1, last))
    assert [s.sealed for s in run_segments(path)] == [True]
    assert last_seq(path) == last and check(path).ok
    with Journal(path) as journal:  # the next open follows on from the sealed segment
        assert journal.first_seq == last + 1 and journal.last_seq == last
        daemon = TableDaemon(journal)
        assert daemon.restart is not None and daemon.restart["checkpoint_seq"] == last
        assert daemon.restart["replayed"] == 0 and daemon.state == replayed(path)
        deal(daemon, dealer(2), hands=1)
    assert check(path).ok and check(path).segments == 2


def test_archive_older_than_takes_only_a_start_of_old_segments(run: tuple[Path, int],
                                                               tmp_path: Path) -> None:
    path = _copy(run, tmp_path)
    store = tmp_path / "archive"
    store.mkdir()
    sealed = run_segments(path)[:-1]
    now = 2_000_000_000.0
    ages = [10, 3, 20, 30]  # days: the second is young, so only the first may go
    for seg, days in zip(sealed, ages, strict=True):
        os.utime(seg.path, (now - days * 86400, now - days * 86400))
    done = archive_segments(path, store, keep=1, older_than_s=7 * 86400, now=now)
    assert [a.segment for a in done] == [sealed[0].path.name]
    assert [s.path.name for s in run_segments(path)][:3] == [s.path.name for s in sealed[1:]]
    assert check(path).ok


def test_rollovers_with_checkpoints_made_aside(tmp_path: Path) -> None:
    """As ``feltguard run`` and ``sim`` keep them: each checkpoint's text made on the writer's
    thread. Every sealed segment still ends on a checkpoint at its last seq, none lands in the
    wrong segment, and a restart is the full replay, no checkpoint passed over."""
    path = tmp_path / "t.sqlite"
    with Journal(path, checkpoint_every=None) as journal:
        daemon = TableDaemon(journal, checkpoints_aside=True, rollover=Rollover(2))
        deal(daemon, dealer(), hands=9, tail=4)
        daemon.close()
    key = journal_module.load_key(journal_module.key_path_for(path))
    anchors = journal_module.anchor_path_for(path)
    for seg in run_segments(path)[:-1]:
        kept = {c.seq: c.problem for c in read_checkpoints(seg.path, key, anchors)}
        assert kept.get(seg.last, "none") is None, seg.path.name
    assert all(c.problem is None for c in read_checkpoints(path, key, anchors))
    assert check(path).ok
    with Journal(path) as journal:
        daemon = TableDaemon(journal)
        assert daemon.restart is not None and daemon.restart["checkpoints_passed_over"] == 0
        assert daemon.state == replayed(path)


def test_a_boundary_in_hands_counts_the_hands_before_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    build(path, hands=2, every=4)
    assert len(run_segments(path)) == 1
    with Journal(path, checkpoint_every=None) as journal:
        daemon = TableDaemon(journal, rollover=Rollover(4))
        deal(daemon, dealer(8), hands=1)
        assert len(run_segments(path)) == 1
        deal(daemon, dealer(9), hands=1)  # the fourth hand of the segment: sealed
        assert len(run_segments(path)) == 2
    assert check(path).ok
