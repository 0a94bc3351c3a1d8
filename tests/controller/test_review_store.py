"""The review's index kept with its journal (controller/surveillance/review_store.py): a review
opened again replays only the events after what the sidecar holds, answers exactly as a fresh
whole-journal index, and rebuilds a sidecar that is not this code's or this journal's."""

from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import controller.surveillance.review as review_module
from controller.events import Event
from controller.journal import archive_segments, key_path_for, last_seq, read_events, run_segments
from controller.surveillance.review import Query, Review, ReviewError
from controller.surveillance.review_store import sidecar_path
from tests.conftest import REPO
from tests.controller.review_journal import PREMATURE_HAND, simulated_journal
from tests.controller.segment_journal import build

ALL = Query(limit=1000)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many events the review reads from the journal (each refresh's replay goes through
    ``read_events``)."""
    read = [0]

    def counting(path: str | Path, *, after: int = 0) -> Iterator[Event]:
        for event in read_events(path, after=after):
            read[0] += 1
            yield event

    monkeypatch.setattr(review_module, "read_events", counting)
    return read


def answers(review: Review, hands: tuple[int, ...]) -> dict[str, Any]:
    """Everything the review's routes answer, for the hands given."""
    return {"hands": review.hands_page(ALL), "findings": review.timeline_page(ALL),
            "steps": {n: review.steps(n) for n in hands},
            "phh": {n: review.phh(n) for n in hands}}


def fresh(path: Path, hands: tuple[int, ...]) -> dict[str, Any]:
    """The same answers from a whole-journal index kept in memory only."""
    return answers(Review(path, kept=False), hands)


def test_a_second_review_replays_only_what_the_first_did_not_index(
        tmp_path: Path, counted: list[int]) -> None:
    path = tmp_path / "table.sqlite"
    dealer = simulated_journal(path, hands=20)
    first = Review(path)
    first.refresh()
    total = last_seq(path)
    assert counted[0] == total and first.stats.events == total
    assert sidecar_path(path).exists()
    first.close()

    counted[0] = 0
    again = Review(path)  # as in a new worker process, or after a restart
    ix = again.refresh()
    assert counted[0] == 0 and again.stats.events == 0
    assert ix.last_seq == total and len(ix.hands) == 20 and sorted(ix.starts) == [1, 17]

    simulated_journal(path, hands=5, first_seq=total + 1, dealer=dealer)
    grown = last_seq(path)
    counted[0] = 0
    third = Review(path)
    third.refresh()
    assert counted[0] == grown - total and third.stats.events == grown - total
    assert third.stats.total == grown and third.stats.hands == 25

    # every answer equals a fresh whole-journal index: the hands and the findings with their
    # statuses, a hand opened from a start the file kept (17), one brought forward from it,
    # one whose start was kept before the file was, and the premature flop's hand
    hands = (1, PREMATURE_HAND, 16, 17, 19, 20, 21, 25)
    assert answers(third, hands) == fresh(path, hands)


def test_the_index_is_kept_as_a_long_replay_goes(tmp_path: Path, counted: list[int],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A first index is saved every SAVE_EVERY events, not only at its end: a worker that
    dies in a month's first replay does not start it over."""
    path = tmp_path / "table.sqlite"
    simulated_journal(path, hands=10)
    total = last_seq(path)
    monkeypatch.setattr(review_module, "SAVE_EVERY", 100)

    class Died(Exception):
        pass

    feed = review_module.Indexer.feed

    def dies_late(self: review_module.Indexer, event: Event) -> None:
        if event.seq > total - 50:
            raise Died
        feed(self, event)

    monkeypatch.setattr(review_module.Indexer, "feed", dies_late)
    with pytest.raises(Died):
        Review(path).refresh()
    monkeypatch.setattr(review_module.Indexer, "feed", feed)
    counted[0] = 0
    again = Review(path)
    again.refresh()
    assert 0 < counted[0] <= 150  # what came after the last save, not the whole journal
    assert answers(again, (1, 10)) == fresh(path, (1, 10))


def _rebuilt(caplog: pytest.LogCaptureFixture) -> list[str]:
    said = [r.getMessage() for r in caplog.records if "rebuilt" in r.getMessage()]
    assert len(said) == 1, caplog.text
    return said


def _sidecar_set_aside(path: Path, hands: int) -> Path:
    """A journal of ``hands`` hands indexed, its sidecar copied aside and the journal removed
    (its key kept): the copy, to put back beside another journal at the same path."""
    simulated_journal(path, hands=hands, seed=3)
    made = Review(path)
    made.refresh()
    made.close()  # (its connection closed: the whole file, its WAL folded in)
    kept = path.with_name("kept.review.sqlite")
    shutil.copy(sidecar_path(path), kept)
    path.unlink()
    return kept


def test_a_sidecar_of_another_journal_is_rebuilt(tmp_path: Path, counted: list[int],
                                                  caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "table.sqlite"
    kept = _sidecar_set_aside(path, hands=6)
    key_path_for(path).unlink()  # another table's journal at the same path, under its own key
    simulated_journal(path, hands=8, seed=4)
    shutil.copy(kept, sidecar_path(path))
    counted[0] = 0
    with caplog.at_level(logging.WARNING):
        review = Review(path)
        review.refresh()
    assert counted[0] == last_seq(path)  # replayed whole
    [line] = _rebuilt(caplog)
    assert "another journal" in line and str(sidecar_path(path)) in line
    assert answers(review, (1, 8)) == fresh(path, (1, 8))


def test_a_sidecar_beyond_the_journal_is_rebuilt(tmp_path: Path, counted: list[int],
                                                 caplog: pytest.LogCaptureFixture) -> None:
    """The same table's journal, shorter than the index (restored from an older copy): its
    first record matches, its record at the index's last seq does not exist."""
    path = tmp_path / "table.sqlite"
    kept = _sidecar_set_aside(path, hands=9)
    simulated_journal(path, hands=5, seed=3)
    shutil.copy(kept, sidecar_path(path))
    counted[0] = 0
    with caplog.at_level(logging.WARNING):
        review = Review(path)
        review.refresh()
    [line] = _rebuilt(caplog)
    assert "does not hold its last seq" in line
    assert counted[0] == last_seq(path)
    assert answers(review, (1, 5)) == fresh(path, (1, 5))


@pytest.mark.parametrize("damage", ["garbage", "code", "state", "truncated"])
def test_a_stale_or_corrupt_sidecar_is_rebuilt(tmp_path: Path, counted: list[int],
                                               caplog: pytest.LogCaptureFixture,
                                               damage: str) -> None:
    path = tmp_path / "table.sqlite"
    simulated_journal(path, hands=7)
    Review(path).close()  # (opened at the first refresh only: nothing made yet)
    first = Review(path)
    first.refresh()
    first.close()
    side = sidecar_path(path)
    if damage == "garbage":
        for suffix in ("-wal", "-shm"):
            Path(f"{side}{suffix}").unlink(missing_ok=True)
        side.write_bytes(b"not a database at all" * 100)
    elif damage == "truncated":
        with sqlite3.connect(side) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        side.write_bytes(side.read_bytes()[:2048])
    else:
        with sqlite3.connect(side) as db:
            if damage == "code":  # as another version of the code would have written it
                db.execute("UPDATE meta SET value = 'another' WHERE name = 'code'")
            else:
                db.execute("UPDATE state SET data = x'00ff'")
    counted[0] = 0
    with caplog.at_level(logging.WARNING):
        review = Review(path)
        review.refresh()
    assert len(_rebuilt(caplog)) == 1, caplog.text
    assert counted[0] == last_seq(path)
    assert answers(review, (1, PREMATURE_HAND, 7)) == fresh(path, (1, PREMATURE_HAND, 7))
    review.close()
    counted[0] = 0
    Review(path).refresh()  # the rebuilt file is good again
    assert counted[0] == 0


READ_ONLY_CHILD = r"""
import json, logging, sys
logging.basicConfig(level=logging.WARNING, format="%(message)s")
from controller.surveillance.review import Query, Review, ReviewError
review = Review(sys.argv[1])
first = review.hands_page(Query(limit=1000))
again = review.hands_page(Query(limit=1000))
print(json.dumps({"total": first["total"], "last_seq": again["last_seq"],
                  "events": review.stats.events}))
"""


def test_a_read_only_journal_folder_keeps_the_index_in_memory(tmp_path: Path) -> None:
    """The review never writes the journal's folder when it may not: it indexes in memory,
    says so once, and answers as ever. The folder is mounted read-only (a bind mount in a
    mount namespace of the child's own) when the tests run as root, whom no mode stops, and
    has its write bits taken away otherwise."""
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "table.sqlite"
    simulated_journal(path, hands=4)
    want = Review(path, kept=False).hands_page(ALL)
    child = [sys.executable, "-c", READ_ONLY_CHILD, str(path)]
    if os.geteuid() == 0:
        mount = shutil.which("mount")
        unshare = shutil.which("unshare")
        assert mount and unshare, "util-linux's mount and unshare"
        child = [unshare, "--mount", "sh", "-c",
                 f'{mount} --bind "$1" "$1" && {mount} -o remount,ro,bind "$1" "$1" && '
                 'shift && exec "$@"', "sh", str(folder), *child]
    else:
        folder.chmod(0o555)
    try:
        done = subprocess.run(child, env={**os.environ, "PYTHONPATH": str(REPO)},
                              capture_output=True, text=True, timeout=120, check=False)
    finally:
        folder.chmod(0o755)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got == {"total": want["total"], "last_seq": want["last_seq"], "events": 0}
    said = [line for line in done.stderr.splitlines() if "kept in memory only" in line]
    assert len(said) == 1 and str(path) in said[0], done.stderr
    assert not sidecar_path(path).exists()


def test_a_kept_index_outlives_the_archiving_of_the_runs_start(tmp_path: Path) -> None:
    """The sidecar still lists the hands whose segments were archived; opening one says in one
    line that its events are archived, and a hand after the archive is stepped through from the
    run's opening checkpoint, exactly as a review of the archived run indexed afresh shows it."""
    path = tmp_path / "t.sqlite"
    build(path, hands=12, every=3)
    first = Review(path)
    listed = first.hands_page(ALL)
    first.close()
    segments = run_segments(path)
    archive = tmp_path / "archive"
    archive.mkdir()
    done = archive_segments(path, archive, keep=1)
    assert len(done) == len(segments) - 2  # the live segment and the newest sealed one stay
    cut = segments[len(done) - 1].last  # the last seq archived

    again = Review(path)
    assert again.hands_page(ALL) == listed and again.stats.events == 0
    hands = {h.number: h for h in again.refresh().hands}
    gone = [n for n, h in hands.items() if h.first_seq <= cut]
    here = [n for n, h in hands.items() if h.first_seq > cut]
    assert gone and here
    for n in (gone[0], gone[-1]):
        with pytest.raises(ReviewError, match=rf"^hand {n}: its events \(seq .*\) are archived; "
                                               rf"this journal holds seq {cut + 1} on$"):
            again.steps(n)
    cold = Review(path, kept=False)  # indexed from the opening checkpoint alone
    assert [h.number for h in cold.refresh().hands] == here
    for n in here:
        assert again.steps(n) == cold.steps(n)
        assert again.phh(n) == cold.phh(n)
