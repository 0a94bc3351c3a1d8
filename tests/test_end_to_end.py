"""End to end: ``feltguard sim`` with mistakes on, through the real driver path.

The simulated dealer's cards travel as wire-protocol frames through a pty into the real serial
driver; the daemon journals every event before applying it. Afterwards the findings in the
journal must be exactly the mistakes the dealer says it made: none missed, none invented.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections import Counter

from controller.journal import read_events, read_findings, verify


def _feltguard() -> list[str]:
    exe = shutil.which("feltguard")
    return [exe] if exe else [sys.executable, "-m", "controller.cli"]


def test_sim_findings_in_the_journal_match_the_dealers_mistakes(tmp_path):
    journal = tmp_path / "journal.sqlite"
    truth_file = tmp_path / "truth.jsonl"
    proc = subprocess.run(
        [*_feltguard(), "sim", "--hands", "30", "--mistakes", "0.6", "--seed", "2026",
         "--seat-changes", "0.1",
         "--pace", "0", "--no-web", "--journal", str(journal), "--truth", str(truth_file)],
        capture_output=True, text=True, timeout=240,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    truth = [json.loads(line) for line in truth_file.read_text().splitlines()]
    assert len(truth) >= 8, "the dealer should have made several mistakes in 30 hands"

    findings = read_findings(journal)
    expected = Counter((m["hand"], m["expected_code"]) for m in truth)
    found = Counter((f.hand, f.code) for f in findings)
    assert found == expected

    # Seats and cards of each finding are the ones the dealer got wrong.
    by_hand = {(f.hand, f.code): f.data for f in findings}
    for m in truth:
        data = by_hand[(m["hand"], m["expected_code"])]
        assert sorted(data["seats"]) == sorted(m["seats"]), m
        assert sorted(data["cards"]) == sorted(m["cards"]), m
        assert data["rule"]["file"].endswith(".txt") or data["rule"]["file"].endswith(".md")
        assert data["remedy"], m

    # The journal is intact and holds every hand from set-up to the last award.
    assert verify(journal) is None
    types = Counter(e.type for e in read_events(journal))
    assert types["hand.start"] == 30
    assert types["seat.take"] + types["seat.leave"] + types["player.away"] > 6  # seats changed
    assert types["shoe.draw"] > 30 * 10


def test_sim_of_a_stud_and_a_draw_game_matches_the_dealers_mistakes(tmp_path):
    """``feltguard sim --game``: the stud and draw dealer through the same real path."""
    for game, seed in (("stud8", 11), ("27_triple", 12)):
        journal = tmp_path / f"{game}.sqlite"
        truth_file = tmp_path / f"{game}.jsonl"
        proc = subprocess.run(
            [*_feltguard(), "sim", "--game", game, "--seats", "5", "--hands", "12",
             "--mistakes", "0.7", "--seed", str(seed), "--pace", "0", "--no-web",
             "--journal", str(journal), "--truth", str(truth_file)],
            capture_output=True, text=True, timeout=240,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        truth = [json.loads(line) for line in truth_file.read_text().splitlines()]
        assert len(truth) >= 4, game
        expected = Counter((m["hand"], m["expected_code"]) for m in truth)
        found = Counter((f.hand, f.code) for f in read_findings(journal))
        assert found == expected, game
        assert verify(journal) is None
        assert Counter(e.type for e in read_events(journal))["hand.start"] == 12


def test_sim_refuses_a_game_it_cannot_deal(tmp_path):
    proc = subprocess.run([*_feltguard(), "sim", "--game", "holdem", "--hands", "1", "--no-web"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "--game" in proc.stderr and "'holdem'" in proc.stderr


def test_sim_of_a_board_game_and_a_mixed_game_matches_the_dealers_mistakes(tmp_path):
    """``feltguard sim --game --structure``: five-card Omaha and the dealer's choice through
    the same real path."""
    for game, structure, seed in (("omaha5", "pot-limit", 5), ("dealers_choice", "", 6)):
        journal = tmp_path / f"{game}.sqlite"
        truth_file = tmp_path / f"{game}.jsonl"
        more = ["--structure", structure] if structure else []
        proc = subprocess.run(
            [*_feltguard(), "sim", "--game", game, *more, "--seats", "2", "--hands", "6",
             "--mistakes", "0.7", "--seed", str(seed), "--pace", "0", "--no-web",
             "--journal", str(journal), "--truth", str(truth_file)],
            capture_output=True, text=True, timeout=240,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        truth = [json.loads(line) for line in truth_file.read_text().splitlines()]
        assert truth, game
        expected = Counter((m["hand"], m["expected_code"]) for m in truth)
        found = Counter((f.hand, f.code) for f in read_findings(journal))
        assert found == expected, game
        types = Counter(e.type for e in read_events(journal))
        assert types["hand.start"] == 6
        assert (types["game.choose"] > 0) == (game == "dealers_choice")
