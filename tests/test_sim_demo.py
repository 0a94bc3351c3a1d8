"""The demo a newcomer starts (``make demo``, ``feltguard sim``): it prints every page it serves
with who may open it, makes a demo account for each role whose passwords are in a 0600 file, so
the review is one login away; ``/healthz`` describes the simulated table (its shoe reader and
its journal); and log lines go to a file beside the journal, not between the hand lines."""

from __future__ import annotations

import re
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests

from tests.sim_demo import demo_passwords, logins_file, read_head, start_sim

REPO = Path(__file__).resolve().parents[1]
PAGES = ("public view", "broadcast", "dealer view", "touch console", "review", "audit log",
         "health")


def _until(what: Callable[[], Any], timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        got = what()
        if got or time.monotonic() > deadline:
            return got
        time.sleep(0.2)


def test_the_demo_prints_every_page_and_a_login_for_each_role(tmp_path: Path) -> None:
    journal = tmp_path / "demo.sqlite"
    proc = start_sim(["--pace", "0.01", "--port", "0", "--seed", "5", "--journal", str(journal)],
                     tmp_path)
    text = ""
    try:
        text = read_head(proc)
        urls = {name: re.search(rf"^  {name} +(http://127\.0\.0\.1:\d+/\S*)", text, re.M)
                for name in PAGES}
        assert all(urls.values()), text
        base = urls["public view"].group(1).rstrip("/")  # type: ignore[union-attr]
        assert urls["review"].group(1) == f"{base}/review"  # type: ignore[union-attr]
        logins = logins_file(text)
        assert stat.S_IMODE(logins.stat().st_mode) == 0o600
        password = demo_passwords(text)
        assert set(password) == {"dealer", "floor", "surveillance", "admin"}
        assert not any(pw in text for pw in password.values())  # never printed

        # the review is one login away for surveillance, and refused to the dealer
        for user, page, status in (("surveillance", "/review", 200), ("dealer", "/review", 403),
                                   ("admin", "/audit", 200), ("floor", "/dealer", 200)):
            s = requests.Session()
            r = s.post(f"{base}/login", data={"user": user, "password": password[user],
                                              "next": page}, timeout=30)
            assert (r.url, r.status_code) == (f"{base}{page}", status), (user, page)

        # /healthz: the simulated shoe reader and the journal, as at a real table
        def health() -> dict[str, Any] | None:
            got = requests.get(f"{base}/healthz", timeout=30).json()
            return got if got["readers"] and (got["journal"] or {}).get("last_seq") else None

        got = _until(health)
        assert got is not None, "healthz never described the table"
        assert got["journal"]["ok"] is True
        assert [(r["name"], r["state"]) for r in got["readers"]] == [("shoe", "ok")]
        assert got["status"] == "ok"
    finally:
        proc.terminate()
        rest, _ = proc.communicate(timeout=60)
    out = text + "\n" + rest
    assert "Traceback" not in out
    # log lines (logins, refusals) went to the log beside the journal, not the terminal
    assert not re.search(r"\b(INFO|WARNING)\b", out), out
    log = journal.with_suffix(".log").read_text()
    assert "logged in" in log and "refused" in log
    assert not logins.exists()  # the demo's passwords went with the run's folder
    # the closing hints name a command that works from here
    hint = re.search(r"review: (.+) replay ", out)
    assert hint is not None and "feltguard" in hint.group(1)
