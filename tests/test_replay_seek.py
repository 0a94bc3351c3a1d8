"""``feltguard replay --hand N`` and ``--from SEQ --to SEQ``: a replay that seeks through the
journal's checkpoints prints exactly what a full replay prints for the same events.

The journal is dealt by the simulated dealer of dealer's choice (every game family in rotation,
mistakes and seat changes on) through the daemon's own path, which keeps a checkpoint at each
hand's end, as ``bench.restart`` builds its journals. Every replay is the real command in a
subprocess.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bench.restart import build
from controller.journal import read_events
from tests.test_end_to_end import _feltguard

EVENTS = 2500


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("seek") / "journal.sqlite"
    build(path, EVENTS)
    return path


@pytest.fixture(scope="module")
def full(journal: Path) -> list[dict[str, Any]]:
    """The full replay, a snapshot after every event."""
    return _lines(_replay(journal, "--snapshots", "every").stdout)


def _replay(path: Path, *more: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*_feltguard(), "replay", "--json", *more, str(path)],
                          capture_output=True, text=True, check=False, timeout=600)


def _lines(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines()]


def _hands_by_game(full: list[dict[str, Any]]) -> dict[str, list[int]]:
    """Hand numbers by game, from the full replay's hand-end snapshots."""
    games: dict[str, list[int]] = {}
    for line in full:
        snap = line.get("snapshot")
        if line["type"] == "state" and "seq" in line and snap["hand"]["phase"] == "complete":
            number = snap["hand"]["number"]
            hands = games.setdefault(snap["table"]["game"], [])
            if number not in hands:
                hands.append(number)
    return games


def _check_against_full(out: list[dict[str, Any]], full: list[dict[str, Any]]) -> dict[str, Any]:
    """The seeked replay's lines are the full replay's for its span, and its final state is
    the full replay's after the span's last event. Returns the span line."""
    *printed, span, final = out
    assert span["type"] == "span" and final["type"] == "state"
    first, last = span["first"], span["last"]
    expected = [line for line in full if "seq" in line and first <= line["seq"] <= last]
    assert printed == expected
    after_last = next(line for line in full if line["type"] == "state" and line.get("seq") == last)
    assert final["snapshot"] == after_last["snapshot"]
    return span


def test_the_journal_is_dealt_by_several_games(full):
    assert len(_hands_by_game(full)) >= 4


def test_a_hand_of_each_game_seeked_through_a_checkpoint_is_the_full_replays(journal, full):
    seeked = 0
    for game, hands in sorted(_hands_by_game(full).items()):
        number = hands[len(hands) // 2]
        done = _replay(journal, "--hand", str(number), "--snapshots", "every")
        assert done.returncode == 0, done.stderr
        assert done.stderr == ""
        span = _check_against_full(_lines(done.stdout), full)
        assert span["hand"] == number, game
        opened = next(line for line in full if line.get("seq") == span["first"]
                      and line["type"] == "state")
        assert opened["snapshot"]["hand"]["number"] == number
        if span["checkpoint"] is not None:
            assert span["checkpoint"] < span["first"]
            seeked += 1
    assert seeked >= 3  # (the first hands of the journal have no checkpoint before them)


def test_a_seq_range_and_its_findings_are_the_full_replays(journal, full):
    with_findings = [line["seq"] for line in full if line["type"] == "finding"]
    assert with_findings, "the dealer's mistakes raise findings"
    for first, last in ((EVENTS // 2, EVENTS // 2 + 300), (with_findings[-1] - 40,
                                                           with_findings[-1] + 5), (7, 60)):
        done = _replay(journal, "--from", str(first), "--to", str(last), "--snapshots", "every")
        assert done.returncode == 0, done.stderr
        span = _check_against_full(_lines(done.stdout), full)
        assert (span["first"], span["last"]) == (first, min(last, EVENTS))
    # the hand-end snapshots only, from a seq to the end
    hand_ends = _lines(_replay(journal, "--snapshots", "hand").stdout)
    done = _replay(journal, "--from", str(EVENTS - 500), "--snapshots", "hand")
    *printed, span, _ = _lines(done.stdout)
    assert span["checkpoint"] is not None and span["last"] == EVENTS
    assert printed == [line for line in hand_ends if line.get("seq", 0) >= EVENTS - 500]


def test_a_scenario_file_replays_from_its_start_and_prints_only_the_range(journal, full, tmp_path):
    scenario = tmp_path / "scenario.jsonl"
    scenario.write_text("".join(e.to_line() + "\n" for e in read_events(journal)))
    number = _hands_by_game(full)["stud"][0]
    done = _replay(scenario, "--hand", str(number), "--snapshots", "every")
    assert done.returncode == 0, done.stderr
    span = _check_against_full(_lines(done.stdout), full)
    assert span["checkpoint"] is None


def test_a_checkpoint_that_fails_its_check_falls_back_to_an_earlier_one(journal, full, tmp_path):
    copy = tmp_path / "copy.sqlite"
    for f in journal.parent.iterdir():
        if f.name.startswith(journal.name):
            shutil.copy(f, tmp_path / f.name.replace(journal.name, copy.name))
    number = max(n for hands in _hands_by_game(full).values() for n in hands)
    span = _lines(_replay(journal, "--hand", str(number)).stdout)[-2]
    with sqlite3.connect(copy) as db:  # the checkpoint this hand would start from, tampered
        db.execute("DROP TRIGGER states_no_update")  # (as someone with the file could)
        db.execute("UPDATE states SET mac = ? WHERE seq = ?", ("0" * 64, span["checkpoint"]))
    done = _replay(copy, "--hand", str(number), "--snapshots", "every")
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"feltguard replay: the checkpoint at seq {span['checkpoint']} is "
                               "passed over: its HMAC does not check out")
    fallback = _check_against_full(_lines(done.stdout), full)["checkpoint"]
    assert fallback is not None and fallback < span["checkpoint"]
    assert lines[0].endswith(f"replaying from the checkpoint at seq {fallback}")


@pytest.mark.parametrize(("args", "said"), [
    (["--hand", "100000"], "no hand 100000 in it"),
    (["--from", "90", "--to", "20"], "--from 90 is after --to 20"),
    (["--from", str(EVENTS + 1)], f"--from {EVENTS + 1} is beyond its last record "
                                  f"(seq {EVENTS})"),
    (["--hand", "3", "--to", "20"], "--hand or --from/--to, not both"),
    (["--hand", "0"], "argument --hand: must be a whole number >= 1, got 0"),
])
def test_bad_ranges_are_one_line_and_exit_2(journal, args, said):
    done = _replay(journal, *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1
    assert said in done.stderr
