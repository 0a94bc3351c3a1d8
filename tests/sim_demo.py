"""``feltguard sim`` started as a newcomer starts it, for the tests that use its pages: the
process, the head it prints (every page's URL, the demo logins file), and the demo passwords
read from that 0600 file."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def start_sim(args: list[str], cwd: Path) -> subprocess.Popen[str]:
    """``feltguard sim ARGS`` in a process of its own, its output on one pipe."""
    return subprocess.Popen([sys.executable, "-m", "controller.cli", "sim", *args], cwd=cwd,
                            env={**os.environ, "PYTHONPATH": str(REPO)},
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def read_head(proc: subprocess.Popen[str]) -> str:
    """What the sim prints before it deals: up to its ``journal:`` line."""
    assert proc.stdout is not None
    head: list[str] = []
    for line in proc.stdout:
        head.append(line.rstrip("\n"))
        if line.startswith("journal:"):
            break
    return "\n".join(head)


def served_port(head: str) -> int:
    """The port the sim's pages are served on (http or https, on 127.0.0.1)."""
    found = re.search(r"https?://127\.0\.0\.1:(\d+)/", head)
    assert found, head
    return int(found.group(1))


def logins_file(head: str) -> Path:
    found = re.search(r"passwords in (\S+)", head)
    assert found, head
    return Path(found.group(1))


def demo_passwords(head: str) -> dict[str, str]:
    """Each demo account's password, by its name (the role), from the file the head names."""
    rows = [x.split() for x in logins_file(head).read_text().splitlines()
            if not x.startswith("#")]
    return {user: password for user, password in rows}
