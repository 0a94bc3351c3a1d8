"""End to end: ``feltguard sim --chips``, the players betting with chips through the real path.

The simulated dealer's chip motions go to the chip reader's pty twin, the real ``ChipReader``
reads the scan cycles, the daemon's chip sensing settles them into ``chips.zone`` events and the
rules core reads the betting from them, while the cards go through the card reader's pty as
always. The journal's findings must be exactly the truth of the card and chip mistakes together;
a clean run raises nothing, and every player's chips equal the core's stack after every hand.
"""

from __future__ import annotations

import json
import subprocess
from collections import Counter

from controller.journal import read_events, read_findings, verify
from controller.sim.chip_mistakes import CHIP_MISTAKE_CODES
from tests.test_end_to_end import _feltguard

STACKS_OK = "stacks: every player's chips equal the table's stack after every hand"


def _sim(tmp_path, *args: str) -> tuple[subprocess.CompletedProcess[str], list[dict]]:
    journal = tmp_path / "journal.sqlite"
    truth = tmp_path / "truth.jsonl"
    proc = subprocess.run(
        [*_feltguard(), "sim", "--pace", "0", "--no-web", "--journal", str(journal),
         "--truth", str(truth), *args],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = truth.read_text().splitlines() if truth.exists() else []
    return proc, [json.loads(line) for line in lines]


def test_sim_with_chips_finds_exactly_the_card_and_chip_mistakes_made(tmp_path):
    proc, truth = _sim(tmp_path, "--chips", "--hands", "12", "--mistakes", "0.3",
                       "--chip-mistakes", "0.6", "--seed", "5")
    journal = tmp_path / "journal.sqlite"
    codes = Counter(m["expected_code"] for m in truth)
    assert sum(n for c, n in codes.items() if c in CHIP_MISTAKE_CODES) >= 3, codes
    assert sum(n for c, n in codes.items() if c not in CHIP_MISTAKE_CODES) >= 2, codes
    expected = Counter((m["hand"], m["expected_code"]) for m in truth)
    found = Counter((f.hand, f.code) for f in read_findings(journal))
    assert found == expected
    assert STACKS_OK in proc.stdout
    assert verify(journal) is None
    events = list(read_events(journal))
    types = Counter(e.type for e in events)
    assert types["hand.start"] == 12 and types["chips.register"] >= 1
    assert types["chips.zone"] > 12 * 10
    # the betting came from the chips: the console typed only checks, folds and the dealer's
    # keys (a dealing mistake's post by the wrong seat aside)
    typed = Counter(e.body.kind for e in events if e.type == "action")
    assert set(typed) <= {"check", "fold", "post"}, typed


def test_a_clean_chip_run_with_the_console_too_raises_nothing(tmp_path):
    """--chips-console: the dealer also types each chip action, which the core corroborates."""
    proc, truth = _sim(tmp_path, "--chips-console", "--hands", "4", "--mistakes", "0",
                       "--chip-mistakes", "0", "--seed", "3")
    journal = tmp_path / "journal.sqlite"
    assert truth == []
    assert list(read_findings(journal)) == []
    assert STACKS_OK in proc.stdout
    assert "the dealer made 0, the table caught 0" in proc.stdout
    typed = Counter(e.body.kind for e in read_events(journal) if e.type == "action")
    assert typed["call"] + typed["raise"] + typed["bet"] + typed["allin"] > 0
