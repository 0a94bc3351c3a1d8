"""The audit log: appended only, each entry chained under the journal's key."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from controller.journal import chain_hash, create_key
from controller.security.audit import AuditError, AuditLog, check_audit, read_audit


@pytest.fixture
def key(tmp_path):
    return create_key(tmp_path / "journal.key")


def test_entries_are_appended_in_order_and_read_back(tmp_path, key):
    log = AuditLog(tmp_path / "audit.sqlite", key)
    log.record("alice", "surveillance", "login", client="10.0.0.5")
    log.record("mallory", "", "login_failed", client="10.0.0.9")
    log.record("alice", "surveillance", "view_hand", subject="hand 12")
    log.close()
    again = AuditLog(tmp_path / "audit.sqlite", key)  # reopened: the chain goes on
    again.record("alice", "surveillance", "logout")
    again.close()
    got = read_audit(tmp_path / "audit.sqlite")
    assert [(e.seq, e.who, e.action, e.subject) for e in got] == [
        (1, "alice", "login", ""), (2, "mallory", "login_failed", ""),
        (3, "alice", "view_hand", "hand 12"), (4, "alice", "logout", "")]
    assert check_audit(tmp_path / "audit.sqlite", key) == []


def test_nobody_edits_it_and_an_edit_behind_the_triggers_back_is_found(tmp_path, key):
    path = tmp_path / "audit.sqlite"
    log = AuditLog(path, key)
    for n in range(5):
        log.record("sam", "surveillance", "view_hand", subject=f"hand {n}")
    log.close()
    with sqlite3.connect(path) as db, pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("UPDATE audit SET subject = 'hand 99' WHERE seq = 3")
    with sqlite3.connect(path) as db, pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("DELETE FROM audit WHERE seq = 3")
    # someone drops the triggers and rewrites an entry, rehashing it without the key
    forged = tmp_path / "forged.sqlite"
    shutil.copy(path, forged)
    with sqlite3.connect(forged) as db:
        db.execute("DROP TRIGGER audit_no_update")
        prev = db.execute("SELECT hash FROM audit WHERE seq = 2").fetchone()[0]
        line = '[3,"x","sam","surveillance","view_hand","hand 99",""]'
        db.execute("UPDATE audit SET subject = 'hand 99', hash = ? WHERE seq = 3",
                   (chain_hash(b"guessed key", prev, line),))
    assert check_audit(forged, key) == [
        "audit entry 3 does not follow the chain: edited or rehashed"]
    # an entry deleted from the middle
    cut = tmp_path / "cut.sqlite"
    shutil.copy(path, cut)
    with sqlite3.connect(cut) as db:
        db.execute("DROP TRIGGER audit_no_delete")
        db.execute("DELETE FROM audit WHERE seq = 2")
    assert check_audit(cut, key) == ["audit entry 2 is missing (found 3 next)"]


def test_unknown_actions_and_bad_files_are_refused_in_one_line(tmp_path, key):
    log = AuditLog(tmp_path / "audit.sqlite", key)
    with pytest.raises(ValueError, match="unknown audit action"):
        log.record("a", "admin", "delete_everything")
    with pytest.raises(AuditError, match="no audit log"):
        read_audit(tmp_path / "none.sqlite")
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"garbage" * 1000)
    with pytest.raises(AuditError, match="cannot open the audit log"):
        AuditLog(junk, key)
