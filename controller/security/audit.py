"""The audit log: who logged in, who failed to, and every look surveillance takes at a hand.

An append-only SQLite file beside the journal (``audit.sqlite``). It is evidence in the same way
the journal is, and protected the same way (controller/journal.py): triggers refuse UPDATE and
DELETE, and each record carries an HMAC-SHA256 chained to the previous one under a key of its
own (``audit.sqlite.key`` beside it, 0600, made once and never overwritten: the journal's
``load_or_create_key``), which lives outside the file. One key per audit file, whoever writes
it: the daemon, ``feltguard user`` and the surveillance service. So nobody who can only write
the file (a surveillance officer, a dealer with a shell) can edit, insert or reorder an entry
without ``check`` naming the first one that no longer follows. Surveillance and admin read it;
nobody edits it.

Entries hold who (the user name and role; a failed login's name only if it is an account),
what (an action from ``ACTIONS``), on what (a hand, a user), from where (the client's address),
and when (UTC). Never a password, a token or a cookie.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from controller.journal import chain_hash, key_path_for, load_or_create_key

__all__ = ["ACTIONS", "AuditEntry", "AuditError", "AuditLog", "audit_path_for", "check_audit",
           "read_audit"]

ACTIONS = (
    "login",  # a login admitted (form or Socket.IO auth)
    "login_failed",  # wrong credentials; `who` is the name typed, if any
    "login_limited",  # refused by the rate limit before the credentials were checked
    "logout",
    "refused",  # a logged-in user asked for a page or namespace their role may not open
    "view_hand",  # surveillance opened a hand (its hole cards)
    "export_hand",  # surveillance exported a hand (PHH or JSON Lines)
    "user_add",
    "user_passwd",
    "user_remove",
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS audit (
    seq INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    who TEXT NOT NULL,
    role TEXT NOT NULL,
    action TEXT NOT NULL,
    subject TEXT NOT NULL,
    client TEXT NOT NULL,
    hash TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS audit_no_update BEFORE UPDATE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS audit_no_delete BEFORE DELETE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
"""

GENESIS = "feltguard-audit"


class AuditError(RuntimeError):
    """The audit file cannot be opened or read: one line naming it."""


@dataclass(frozen=True)
class AuditEntry:
    seq: int
    at: str
    who: str
    role: str
    action: str
    subject: str
    client: str

    def line(self) -> str:
        """The canonical text the chain hashes."""
        return json.dumps([self.seq, self.at, self.who, self.role, self.action, self.subject,
                           self.client], separators=(",", ":"), ensure_ascii=False)


def audit_path_for(journal: str | os.PathLike[str]) -> Path:
    """The audit log that goes with a journal: beside it."""
    return Path(journal).with_name("audit.sqlite")


class AuditLog:
    """Appends entries; one writer per process (a lock), any number of readers."""

    def __init__(self, path: str | os.PathLike[str], key: bytes | None = None) -> None:
        """`key` None: the audit file's own key beside it (made on first use)."""
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self._key = key if key is not None else load_or_create_key(key_path_for(self.path))
            if not self.path.exists():
                os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            self._db = sqlite3.connect(self.path, timeout=5.0, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(_SCHEMA)
            row = self._db.execute("SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1"
                                   ).fetchone()
        except (OSError, sqlite3.Error) as exc:
            raise AuditError(f"{self.path}: cannot open the audit log ({exc})") from None
        self._seq: int = row[0] if row else 0
        self._head: str = row[1] if row else GENESIS

    def record(self, who: str, role: str, action: str, subject: str = "",
               client: str = "") -> AuditEntry:
        """Append one entry and commit it before returning. `action` must be one of ACTIONS."""
        if action not in ACTIONS:
            raise ValueError(f"unknown audit action {action!r}")
        with self._lock:
            entry = AuditEntry(self._seq + 1, datetime.now(UTC).isoformat(timespec="milliseconds"),
                               str(who)[:128], str(role)[:32], action, str(subject)[:256],
                               str(client)[:64])
            digest = chain_hash(self._key, self._head, entry.line())
            with self._db:
                self._db.execute("INSERT INTO audit VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                 (entry.seq, entry.at, entry.who, entry.role, entry.action,
                                  entry.subject, entry.client, digest))
            self._seq, self._head = entry.seq, digest
        return entry

    def entries(self) -> list[AuditEntry]:
        """Every entry, oldest first (read from the file, as any reader would)."""
        return read_audit(self.path)

    def check(self) -> list[str]:
        """``check_audit`` of this log under its key."""
        return check_audit(self.path, self._key)

    def close(self) -> None:
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._db.close()


def _rows(path: Path) -> Iterator[tuple[AuditEntry, str]]:
    if not path.exists():
        raise AuditError(f"{path}: no audit log")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            for row in db.execute("SELECT seq, at, who, role, action, subject, client, hash "
                                  "FROM audit ORDER BY seq"):
                yield AuditEntry(*row[:7]), row[7]
        finally:
            db.close()
    except sqlite3.Error as exc:
        raise AuditError(f"{path}: cannot read the audit log ({exc})") from None


def read_audit(path: str | os.PathLike[str]) -> list[AuditEntry]:
    """Every entry, oldest first."""
    return [entry for entry, _ in _rows(Path(path))]


def check_audit(path: str | os.PathLike[str], key: bytes) -> list[str]:
    """Problems with the chain (empty: intact): the first entry edited, inserted, reordered or
    rehashed without the key is named."""
    head, expected = GENESIS, 1
    for entry, digest in _rows(Path(path)):
        if entry.seq != expected:
            return [f"audit entry {expected} is missing (found {entry.seq} next)"]
        if digest != chain_hash(key, head, entry.line()):
            return [f"audit entry {entry.seq} does not follow the chain: edited or rehashed"]
        head, expected = digest, expected + 1
    return []
