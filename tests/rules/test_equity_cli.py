"""``feltguard equity`` through a real subprocess of ``python -m controller.cli``: the table and
JSON outputs, and bad input as one line on standard error with exit status 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from controller.poker.equity import equity, parse_cards

REPO = Path(__file__).resolve().parent.parent.parent
ENV = {**os.environ, "PYTHONPATH": str(REPO)}


def feltguard(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", "equity", *args],
                          capture_output=True, text=True, timeout=120, env=ENV, check=False)


def test_holdem_on_the_flop_prints_each_hand_exact() -> None:
    run = feltguard("nlhe", "KhKd", "AsQs", "--board", "7c7d2s")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "No-limit hold'em, board 7c7d2s"
    kings = next(line for line in lines if line.startswith("KhKd"))
    assert kings.endswith("Two pair, kings and sevens, two kicker")
    want = equity("nlhe", [parse_cards("KhKd"), parse_cards("AsQs")], parse_cards("7c7d2s"))
    assert f"{100 * want.players[0].win:6.2f}%" in kings
    assert lines[-1] == "method: exact, 990 run-outs"


def test_split_game_json_has_scoop_and_halves() -> None:
    run = feltguard("omaha8", "Ah2h3cKd", "KsKcQdJd", "--board", "4s5dKh9c8c", "--json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    low, high = out["players"]
    assert out["method"] == "exact" and out["split"] is True and out["deals"] == 1
    assert (low["low_win"], low["equity"], high["high_win"], high["scoop"]) == (1.0, 0.5, 1.0,
                                                                               0.0)
    assert low["labels"][1] == "Low: Eight-five low (8-5-4-2-A)"


def test_monte_carlo_states_its_error_and_is_seeded() -> None:
    a = feltguard("stud", "AhAsKd", "QcQd7s", "--dead", "Qh", "--samples", "2000", "--seed",
                  "4", "--json")
    b = feltguard("stud", "AhAsKd", "QcQd7s", "--dead", "Qh", "--samples", "2000", "--seed",
                  "4", "--json")
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    out = json.loads(a.stdout)
    assert out["method"] == "monte carlo" and out["deals"] == 2000 and out["seed"] == 4
    assert 0 < out["margin"] < 0.03
    text = feltguard("stud", "AhAsKd", "QcQd7s", "--samples", "500")
    assert "method: Monte Carlo, 500 run-outs (seed 0), +/- " in text.stdout


def test_a_draw_hand_kept_short_says_it_assumes_the_draws() -> None:
    run = feltguard("27_triple", "7h5d4c", "8s6c4d3h2c")
    assert run.returncode == 0, run.stderr
    assert "assumes the draws declared" in run.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["nlhe", "AhAs", "KdKx"], "not a card: 'Kx'"),
    (["nlhe", "AhAs", "AhKd"], "Ah appears twice"),
    (["nlhe", "AhAs", "KdKc", "--board", "Ah2c3c"], "Ah appears twice"),
    (["stud", *(c + "s" for c in "AKQJT987"), "--dead", "2c2d2h2s"], "too many hands for the deck"),
    (["omaha", "AhAsKd", "QcQd7s5c"], "Omaha hands are 4 hole cards"),
    (["razz", "AhAs2c3c4c5c6c7c", "KdKc"], "hands are 1 to 7 cards"),
    (["nlhe", "AhAs", "KdKc", "--exact", "--samples", "10"], "not allowed with argument"),
    (["nlhe", "AhAs", "KdKc", "--samples", "0"], "must be a whole number"),
    (["texas", "AhAs", "KdKc"], "unknown game 'texas'"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    run = feltguard(*args)
    assert run.returncode == 2
    assert run.stdout == ""
    assert len(run.stderr.splitlines()) == 1 and "Traceback" not in run.stderr
    assert message in run.stderr
