"""``feltguard phh replay`` and ``feltguard phh export`` as a person and a script use them."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from controller.cli import main
from controller.events import Event
from controller.journal import Journal
from controller.phh import load_all
from controller.phh.replay import replay_file
from controller.sim import SimDealer, expand

HAND = """\
[{key}]
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 200]
actions = ["d dh p1 AhKh", "d dh p2 7c2d", "d dh p3 QsQd", "p3 cbr 6", "p1 cc", "p2 f",
           "{act}"]
finishing_stacks = [{stacks}]
"""


def _file(tmp_path: Path, *hands: tuple[str, str]) -> Path:
    path = tmp_path / "hands.phhs"
    path.write_text("\n".join(HAND.format(key=i, act=act, stacks=stacks)
                              for i, (act, stacks) in enumerate(hands, start=1)), "utf-8")
    return path


def test_replay_all_matched(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _file(tmp_path, ("d db Qh9h3c", "194, 198, 194"), ("d db 2c3c4c", "194, 198, 194"))
    # after the flop the hand is not over: its stacks are the chips behind (PHH finishing_stacks)
    assert main(["phh", "replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1
    assert out[0].startswith("2 hands: 2 matched, 0 mismatched, 0 errors; replayed in ")
    assert "hands per second" in out[0]


def test_replay_prints_each_mismatch_and_error(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = _file(tmp_path, ("d db Qh9h3c", "194, 198, 194"), ("d db Qh9h3c", "194, 200, 192"),
                 ("p1 cbr 1", "194, 198, 194"))
    assert main(["phh", "replay", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "hands.phhs [2]: expected [194, 200, 192], got [194, 198, 194]"
    assert out[1].startswith("hands.phhs [3]: action 7: 'p1 cbr 1': ")
    assert out[2].startswith("3 hands: 1 matched, 1 mismatched, 1 errors;")
    assert main(["phh", "replay", "--verbose", str(path)]) == 1
    assert "hands.phhs [1]: matched [194, 198, 194]" in capsys.readouterr().out


def test_replay_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["phh", "replay", str(tmp_path / "nope.phhs")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_replay_the_famous_hands(shared: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(str(p) for p in (shared / "phh" / "famous").glob("*.phh"))
    assert main(["phh", "replay", *files]) == 0
    out = capsys.readouterr().out
    assert "dwan-ivey-2009.phh: no finishing_stacks recorded; replayed to " \
           "[572100, 1997500, 1109500]" in out
    assert "5 hands: 0 matched, 0 mismatched, 0 errors, 5 without finishing stacks" in out


def _journal(tmp_path: Path) -> Path:
    dealer = SimDealer(random.Random(11), seats=4, mistake_rate=0.3)
    path = tmp_path / "table.sqlite"
    seq = 0
    with Journal(path) as journal:
        for _ in range(12):
            for step in dealer.next_hand():
                for body in expand(step):
                    seq += 1
                    journal.append(Event(seq, 0, body))
    return path


def test_export_to_a_file_and_to_stdout(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    journal = _journal(tmp_path)
    out = tmp_path / "hands.phhs"
    assert main(["phh", "export", str(journal), "-o", str(out)]) == 0
    message = capsys.readouterr().out
    hands = load_all(out)
    assert len(hands) == 12
    with_findings = sum(1 for h in hands if h.user["_findings"])
    assert message == f"12 hands ({with_findings} with findings) written to {out}\n"
    assert main(["phh", "export", str(journal)]) == 0
    assert capsys.readouterr().out == out.read_text("utf-8")
    # the clean hands of the export replay through our own engine to the table's stacks
    summary = replay_file(out)
    clean = [r for h, r in zip(hands, summary.results, strict=True)
             if h.user["_outcome"] == "complete" and not h.user["_findings"]]
    assert clean and all(r.status == "matched" for r in clean), [r.line() for r in clean]


def test_export_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "nonsense"}\n', "utf-8")
    assert main(["phh", "export", str(bad)]) == 2
    assert "bad.jsonl:1: unknown event type 'nonsense'" in capsys.readouterr().err
    assert main(["phh", "export", str(tmp_path / "missing.sqlite")]) == 2
    assert "missing.sqlite" in capsys.readouterr().err
    journal = _journal(tmp_path)
    assert main(["phh", "export", str(journal), "-o", str(tmp_path / "no" / "dir.phhs")]) == 2
    assert "dir.phhs" in capsys.readouterr().err
