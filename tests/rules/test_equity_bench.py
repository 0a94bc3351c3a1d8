"""``python -m bench.equity`` through a real subprocess, at a tiny size: it prints every spot's
min/median/max against PokerKit and its verdict, then eval7's rows where eval7 is installed, or
one line saying why it is not."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

from bench.equity import SPOTS

REPO = Path(__file__).resolve().parent.parent.parent


def test_the_bench_prints_every_spot_and_eval7_or_why_not() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bench.equity", "--samples", "40", "--pokerkit-samples", "4",
         "--rounds", "1", "--eval7-samples", "40"],
        capture_output=True, text=True, timeout=240, check=False,
        env={**os.environ, "PYTHONPATH": str(REPO)})
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    for spot in SPOTS:
        row = next(line for line in lines if line.strip().startswith(spot))
        assert re.search(r"x[\d,.]+$", row), row  # three figures each side, then the ratio
        assert len(re.findall(r"[\d,]+", row.removeprefix(f"  {spot}"))) >= 7
    assert any(line.startswith("goal 100 x PokerKit") for line in lines)
    if importlib.util.find_spec("eval7") is None:
        assert any(line.startswith("eval7 (hold'em): not installed") for line in lines)
    else:
        assert any("eval7's compiled loop" in line for line in lines)
        assert any("eval7.evaluate in our loop" in line for line in lines)
