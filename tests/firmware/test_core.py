"""The reader firmware's portable core (hardware/firmware/core/), built for the host with the
system gcc and run: framing and CRC against the protocol documents' worked examples, the
counter, the frame queue, debounce and repeats, roles and the scan schedule, the ISO 15693
anticollision, the PN5180 command layer against the PN5180 model, and the whole reader on a
virtual clock. Each C program prints what it checked and a summary line; here we require exit 0,
no failure, and at least the checks each program is known to make (a program cut short by a
crash or an early return cannot pass with fewer)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

# The checks each program makes when it runs to its end.
EXPECTED_CHECKS = {"test_proto": 31, "test_policy": 22, "test_iso": 14, "test_pn5180": 20,
                   "test_app": 40}


@pytest.mark.parametrize("name", sorted(EXPECTED_CHECKS))
def test_core_unit_tests_pass(core_tests: dict[str, Path], name: str) -> None:
    proc = subprocess.run([str(core_tests[name])], capture_output=True, text=True, timeout=120)
    print(proc.stdout)
    summary = re.search(rf"^{name}: (\d+) checks, (\d+) failed$", proc.stdout, re.M)
    assert summary, proc.stdout[-3000:] + proc.stderr[-2000:]
    checks, failed = int(summary.group(1)), int(summary.group(2))
    assert proc.returncode == 0 and failed == 0, proc.stdout[-3000:]
    assert checks >= EXPECTED_CHECKS[name]
    assert "FAIL" not in proc.stdout
