"""The surveillance review wired into the simulated table: ``feltguard sim --accounts`` serves
``/review`` over its own journal, to surveillance only, and the audit log beside the accounts
file records the login, the refusal and the hand viewed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import requests
from argon2 import PasswordHasher

from controller.security.accounts import Accounts
from controller.security.audit import read_audit

REPO = Path(__file__).resolve().parents[1]


def test_sim_serves_the_review_of_its_journal_to_surveillance_only(tmp_path):
    accounts = Accounts(tmp_path / "accounts.sqlite", create=True,
                        hasher=PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    accounts.add("sam", "surveillance", "surveillance-pw-1")
    accounts.add("dee", "dealer", "dealer-password-1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "sim", "--hands", "500", "--pace", "0.005",
         "--port", "0", "--seed", "3", "--accounts", str(tmp_path / "accounts.sqlite"),
         "--journal", str(tmp_path / "j.sqlite")],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)
    try:
        base = None
        for line in proc.stdout:  # type: ignore[union-attr]
            if m := re.search(r"public view +(http://127\.0\.0\.1:\d+)/", line):
                base = m.group(1)
            if "your name and password: 2 accounts" in line:
                break
        assert base is not None
        sam, dee = requests.Session(), requests.Session()
        # each logs in from the review's form and is sent back to it: the page, or refused
        for session, user, password, status in ((sam, "sam", "surveillance-pw-1", 200),
                                                (dee, "dee", "dealer-password-1", 403)):
            r = session.post(f"{base}/login", data={"user": user, "password": password,
                                                    "next": "/review"}, timeout=10)
            assert r.url == f"{base}/review" and r.status_code == status, (user, r.url)
        deadline = time.monotonic() + 60
        while True:
            hands = sam.get(f"{base}/review/api/hands", timeout=30).json()
            if hands["total"] >= 2 or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert hands["total"] >= 2
        number = hands["hands"][-1]["number"]
        steps = sam.get(f"{base}/review/api/hand/{number}", timeout=30)
        assert steps.status_code == 200 and steps.json()["steps"]
        assert dee.get(f"{base}/review/api/hands", timeout=10).status_code == 403
        assert dee.get(f"{base}/review", timeout=10).status_code == 403
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=60)
    assert "Traceback" not in out
    got = [(e.who, e.action, e.subject) for e in read_audit(tmp_path / "audit.sqlite")]
    assert ("sam", "login", "") in got and ("dee", "login", "") in got
    assert ("sam", "view_hand", f"hand {number}") in got
    assert ("dee", "refused", "/review") in got and ("dee", "refused", "/review/api/hands") in got
