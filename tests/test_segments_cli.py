"""A run of journal segments through the real ``feltguard`` commands (subprocesses): ``sim
--rollover-hands`` writes one, and ``verify``, ``replay``, ``phh export`` and the review read
it as one journal: the same output as a single file holding the same events. ``journal
archive`` moves the old segments out, and ``verify`` says so; a damaged run is one line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controller.journal import Journal, key_path_for, load_key, read_events, run_segments
from controller.surveillance.review import Review

REPO = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(REPO)}


def feltguard(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], capture_output=True,
                          text=True, timeout=300, env=ENV, check=False)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """``feltguard sim --rollover-hands 3`` over 10 hands, and a single file holding the same
    events (the reference a run must read as)."""
    folder = tmp_path_factory.mktemp("sim")
    path = folder / "table.sqlite"
    sim = feltguard("sim", "--no-web", "--hands", "10", "--pace", "0", "--seed", "4",
                    "--game", "dealers_choice", "--rollover-hands", "3", "--journal", str(path))
    assert sim.returncode in (0, 1), sim.stderr
    assert len(run_segments(path)) == 4  # sealed after hands 3, 6 and 9, and the live one
    one = folder / "one" / "single.sqlite"
    one.parent.mkdir()
    with Journal(one, checkpoint_every=None, key=load_key(key_path_for(path))) as single:
        for event in read_events(path):
            single.append(event)
    shutil.copy(key_path_for(path), key_path_for(one))
    return path, one


def _copy(path: Path, tmp_path: Path) -> Path:
    shutil.copytree(path.parent, tmp_path / "copy", ignore=shutil.ignore_patterns("one"))
    return tmp_path / "copy" / path.name


def test_verify_checks_the_run_as_one_chain(run: tuple[Path, Path]) -> None:
    path, one = run
    done = feltguard("verify", str(path))
    assert done.returncode == 0, done.stderr
    records = sum(1 for _ in read_events(one))
    assert f"intact (4 segments): {records} records chained under the key" in done.stdout
    done = feltguard("verify", "--checkpoints", str(path))
    assert done.returncode == 0 and "is the state its replay reaches" in done.stdout


@pytest.mark.parametrize("args", [["--json"], ["--snapshots", "hand"]])
def test_replay_of_the_run_is_the_replay_of_one_file(run: tuple[Path, Path],
                                                     args: list[str]) -> None:
    path, one = run
    a, b = feltguard("replay", *args, str(path)), feltguard("replay", *args, str(one))
    assert a.returncode == b.returncode == 0, a.stderr + b.stderr
    assert a.stdout == b.stdout and a.stdout


def test_phh_export_of_the_run_is_the_export_of_one_file(run: tuple[Path, Path]) -> None:
    path, one = run
    a, b = feltguard("phh", "export", str(path)), feltguard("phh", "export", str(one))
    assert a.returncode == b.returncode == 0, a.stderr + b.stderr
    assert a.stdout == b.stdout and a.stdout.count("[") >= 10


def test_the_review_of_the_run_is_the_review_of_one_file(run: tuple[Path, Path]) -> None:
    path, one = run
    ours, ref = Review(path), Review(one)
    assert ours.refresh().hands == ref.refresh().hands and len(ref.refresh().hands) >= 10
    for hand in ref.refresh().hands:
        assert ours.hand_events(hand.number) == ref.hand_events(hand.number)


def test_journal_archive_moves_old_segments_and_verify_says_so(run: tuple[Path, Path],
                                                               tmp_path: Path) -> None:
    path = _copy(run[0], tmp_path)
    before = feltguard("replay", "--json", str(path)).stdout.splitlines()[-1]
    store = tmp_path / "archive"
    store.mkdir()
    done = feltguard("journal", "archive", str(path), "--to", str(store))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == f"{path}: 2 segment(s) archived"
    assert len(run_segments(path)) == 2 and len(list(store.glob("*.xz"))) == 2
    done = feltguard("verify", str(path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "archived (2 segment(s) in" in lines[0] and "opening checkpoint" in lines[0]
    assert "intact (2 segments)" in lines[1]
    done = feltguard("verify", "--archive", str(store), str(path))
    assert done.returncode == 0 and "intact (4 segments)" in done.stdout, done.stdout
    # the running table's check and a replay need no archived segment
    assert feltguard("verify", "--since-checkpoint", str(path)).returncode == 0
    after = feltguard("replay", "--json", str(path))
    assert after.returncode == 0 and after.stdout.splitlines()[-1] == before
    done = feltguard("journal", "archive", str(path), "--to", str(tmp_path / "nowhere"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "no such directory to archive into" in done.stderr
    done = feltguard("journal", "archive", str(tmp_path / "none.sqlite"), "--to", str(store))
    assert done.returncode == 2 and done.stderr == (
        f"feltguard journal archive: {tmp_path / 'none.sqlite'}: no such journal (no live "
        "segment, no sealed one beside it)\n")


def test_verify_names_a_missing_segment_and_a_cut_live_one_in_one_line(
        run: tuple[Path, Path], tmp_path: Path) -> None:
    path = _copy(run[0], tmp_path)
    gone = run_segments(path)[1]
    os.unlink(gone.path)
    done = feltguard("verify", str(path))
    assert done.returncode == 1 and done.stdout.count("\n") == 1
    assert f"seq {gone.first}..{gone.last} missing from the run" in done.stdout
    path = _copy(run[0], tmp_path / "second")
    os.truncate(path, path.stat().st_size // 2)
    done = feltguard("verify", str(path))
    assert done.returncode == 1 and done.stdout.count("\n") == 1, done.stdout + done.stderr
    assert "damaged or truncated" in done.stdout


def test_a_sealed_segment_verifies_and_replays_on_its_own(run: tuple[Path, Path]) -> None:
    import json

    from controller.guard import guarded_apply
    from controller.rules import initial_state, snapshot

    path, _ = run
    seg = run_segments(path)[1]
    done = feltguard("verify", str(seg.path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[0].endswith(
        f"{seg.path.name} alone: checked from its opening checkpoint at seq {seg.first - 1}")
    assert f"intact: {seg.last - seg.first + 1} records" in done.stdout
    state = initial_state()
    for event in read_events(path):
        if event.seq > seg.last:
            break
        state = guarded_apply(state, event).step.state
    done = feltguard("replay", "--json", str(seg.path))
    assert done.returncode == 0, done.stderr
    final = json.loads(done.stdout.splitlines()[-1])
    assert final == {"type": "state", "snapshot": json.loads(json.dumps(snapshot(state)))}


def test_verify_checkpoints_names_an_opening_checkpoint_that_does_not_match(
        tmp_path: Path) -> None:
    import json

    from controller.daemon.table_daemon import TableDaemon
    from controller.rules import state_to_text
    from tests.controller.segment_journal import deal, dealer

    path = tmp_path / "t.sqlite"
    with Journal(path, checkpoint_every=None) as journal:
        daemon = TableDaemon(journal)
        deal(daemon, dealer(), hands=2)
        lie = json.loads(state_to_text(daemon.state))
        lie["state"]["hand_number"] = 99  # well signed with the key, but not the table
        journal.rollover(json.dumps(lie, separators=(",", ":")))
        deal(daemon, dealer(3), hands=1)
        at = journal.first_seq - 1
    done = feltguard("verify", str(path))
    assert done.returncode == 0, done.stdout  # its HMAC and place check out: only a replay tells
    done = feltguard("verify", "--checkpoints", str(path))
    assert done.returncode == 1
    assert done.stdout == (f"{path}: the checkpoint at seq {at} does not match its replay: a "
                           "restart from it would not be the table the journal holds\n")


@pytest.mark.parametrize("args", [["--hand", "8"], ["--from", "350", "--to", "420"]])
def test_replay_seeks_through_a_run_as_through_one_file(run: tuple[Path, Path],
                                                        args: list[str]) -> None:
    path, one = run
    import json

    a = feltguard("replay", "--json", *args, str(path))
    b = feltguard("replay", "--json", *args, str(one))  # (no checkpoints: from its start)
    assert a.returncode == b.returncode == 0, a.stderr + b.stderr
    ours, ref = ([json.loads(x) for x in r.stdout.splitlines()] for r in (a, b))
    [span] = [x for x in ours if x["type"] == "span"]
    assert span["checkpoint"] is not None  # sought through the run's checkpoints
    for x in (*ours, *ref):
        x.pop("checkpoint", None)
    assert ours == ref and len(ours) >= 2
