"""Three simulated tables deal at once into one central service; the link between the tables
and the cardroom is cut mid-session and the central service is killed and restarted. Every
event of every table arrives exactly once, in order, with its chain, and each table kept
dealing while cut off.

Everything is real: three ``feltguard sim`` processes (each through its pty shoe and the real
driver, journaling to its own SQLite file and relaying to Redis), ``feltguard surveillance``
as a process of its own, Debian's ``redis-server``, and a TCP link the test cuts.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from tests.central.servers import Link, needs_redis

pytestmark = needs_redis

REPO = Path(__file__).resolve().parents[2]
TABLES = ("t1", "t2", "t3")
HANDS = 18
PACE = "0.01"
CUT_S = 3.0


def last_seq(path: Path) -> int:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            return int(db.execute("SELECT max(seq) FROM events").fetchone()[0] or 0)
    except sqlite3.Error:  # not made yet
        return 0


def rows(path: Path, sql: str, *args: object) -> list[tuple]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return db.execute(sql, args).fetchall()


def surveillance(tmp: Path, redis_url: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "surveillance", "--redis", redis_url,
         "--store", str(tmp / "central.sqlite"), "--no-web"],
        cwd=tmp, env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True)


def test_three_tables_into_one_service_with_the_link_cut_mid_session(tmp_path, redis_server):
    link = Link(redis_server.port)
    central = surveillance(tmp_path, redis_server.url)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    sims = {t: subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "sim", "--no-web", "--hands", str(HANDS),
         "--pace", PACE, "--seed", str(n), "--journal", str(tmp_path / f"{t}.sqlite"),
         "--central", link.url, "--table-id", t],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for n, t in enumerate(TABLES, 1)}
    journals = {t: tmp_path / f"{t}.sqlite" for t in TABLES}
    outputs: dict[str, tuple[str, str]] = {}
    try:
        # mid-session: every table has dealt for a while
        deadline = time.monotonic() + 120
        while min(last_seq(j) for j in journals.values()) < 300:
            assert time.monotonic() < deadline, "the tables did not start dealing"
            assert all(p.poll() is None for p in sims.values()), "a table ended early"
            time.sleep(0.1)
        # the link goes down, and the central service dies (SIGKILL: no goodbye)
        link.cut()
        central.send_signal(signal.SIGKILL)
        central.wait(10)
        at_cut = {t: last_seq(j) for t, j in journals.items()}
        time.sleep(CUT_S)
        during = {t: last_seq(j) for t, j in journals.items()}
        central = surveillance(tmp_path, redis_server.url)
        link.restore()
        for t, p in sims.items():
            outputs[t] = p.communicate(timeout=240)
            assert p.returncode in (0, 1), outputs[t][1][-2000:]  # 1: a mistake went uncaught
        # the tables kept dealing while cut off
        assert all(during[t] > at_cut[t] for t in TABLES), (at_cut, during)
        # every event of every table arrives, exactly once: the store holds each journal's
        # events, seq for seq, line for line, hash for hash
        store = tmp_path / "central.sqlite"
        want = {t: rows(j, "SELECT seq, line, prev, hash FROM events ORDER BY seq")
                for t, j in journals.items()}
        deadline = time.monotonic() + 60
        while any(rows(store, "SELECT count(*) FROM events WHERE table_id = ?", t)[0][0]
                  < len(want[t]) for t in TABLES):
            assert time.monotonic() < deadline, "the store did not catch up"
            time.sleep(0.2)
        for t in TABLES:
            got = rows(store, "SELECT seq, line, prev, hash FROM events WHERE table_id = ? "
                              "ORDER BY seq", t)
            assert got == want[t], t
        assert rows(store, "SELECT count(*) FROM problems") == [(0,)]
        assert link.cuts == 1 and link.dropped >= 1  # the relays' connections were cut
        for t in TABLES:  # each table said it lost the link and went on, in the log it
            # keeps beside its journal (the terminal keeps the hand lines and errors)
            log = journals[t].with_suffix(".log").read_text(encoding="utf-8")
            assert "the table goes on, and catches up later" in log, t
            assert "Traceback" not in outputs[t][1]
    finally:
        for p in sims.values():
            if p.poll() is None:
                p.kill()
        central.send_signal(signal.SIGTERM)
        try:
            out, _ = central.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            central.kill()
            out, _ = central.communicate()
        link.close()
    assert central.returncode == 0, out[-2000:]
    assert "Traceback" not in out
