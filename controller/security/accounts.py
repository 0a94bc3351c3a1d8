"""Who may use the table's screens: user accounts, their roles, and what each role may do.

Each person logs in with their own name and password; the password is kept only as an Argon2id
hash (argon2-cffi's ``PasswordHasher``, its RFC 9106 low-memory profile), in a small SQLite file
beside the journal, readable only by the service user (0600). ``feltguard user add|passwd|remove``
manage it (controller/cli/users.py); the daemon and the surveillance service read it at every
login, so an account removed or a password changed takes effect at the next login, and the
logins it had are closed at their next check (``Accounts.still_valid``).

The roles and what each may do (docs/security.md, "Roles"):

- ``dealer``: the live dealer view with hole cards and the touch console's inputs;
- ``floor``: the live dealer view, and rulings (``floor.ruling``) at the dealer's console;
- ``surveillance``: the live dealer view (read only), the review of past hands from the journal,
  and the audit log;
- ``admin``: the audit log. Accounts are managed on the machine itself (the CLI), so an admin
  login opens no hand and sends nothing to the table: whoever runs the accounts does not also
  see the cards.

Nothing here logs or returns a password or a hash.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from argon2.profiles import RFC_9106_LOW_MEMORY

__all__ = [
    "PERMISSIONS",
    "READ_AUDIT",
    "REVIEW",
    "ROLES",
    "RULE",
    "SEND_INPUT",
    "VIEW_DEALER",
    "Account",
    "AccountError",
    "Accounts",
    "Identity",
    "may",
]

ROLES = ("dealer", "floor", "surveillance", "admin")

VIEW_DEALER = "view_dealer"  # the live dealer view: hole cards as they are dealt
SEND_INPUT = "send_input"  # the dealer console's keys and betting actions
RULE = "rule"  # a floor ruling
REVIEW = "review"  # the surveillance review: past hands from the journal, their hole cards
READ_AUDIT = "read_audit"  # the audit log: logins and every review of a hand

PERMISSIONS: Mapping[str, frozenset[str]] = {
    "dealer": frozenset({VIEW_DEALER, SEND_INPUT}),
    "floor": frozenset({VIEW_DEALER, RULE}),
    "surveillance": frozenset({VIEW_DEALER, REVIEW, READ_AUDIT}),
    "admin": frozenset({READ_AUDIT}),
}

# Shorter passwords are refused when an account is made or changed (NIST SP 800-63B §5.1.1.2:
# at least 8 characters; a cardroom's shared terminals call for a little more).
MIN_PASSWORD = 10
MAX_PASSWORD = 256  # a bound on the hashing work one login attempt may ask for
MAX_NAME = 64


@dataclass(frozen=True)
class Identity:
    """Who logged in, and as what. ``version`` is the account's credential version at the login:
    a password change or removal makes it stale (``Accounts.still_valid``); 0 for the shared
    dealer token of a table without accounts."""

    name: str
    role: str
    version: int = 0


def may(identity: Identity | None, permission: str) -> bool:
    """Whether `identity`'s role grants `permission` (None, an unknown role: never)."""
    return identity is not None and permission in PERMISSIONS.get(identity.role, frozenset())


class AccountError(ValueError):
    """A refused account change: one line that says why (never the password)."""


@dataclass(frozen=True)
class Account:
    name: str
    role: str
    version: int
    changed: str  # UTC, ISO 8601


_SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    name TEXT PRIMARY KEY,
    role TEXT NOT NULL,
    hash TEXT NOT NULL,
    version INTEGER NOT NULL,
    changed TEXT NOT NULL
);
"""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def normal_name(name: Any) -> str:
    """A user name as stored: NFC, stripped, lower case. Raises AccountError for a bad one."""
    if not isinstance(name, str):
        raise AccountError("a user name must be text")
    got = unicodedata.normalize("NFC", name).strip().lower()
    if not got or len(got) > MAX_NAME or not all(c.isalnum() or c in "._-" for c in got):
        raise AccountError(f"user name must be 1-{MAX_NAME} letters, digits, '.', '_' or '-'")
    return got


def check_password(password: str) -> None:
    """Raise AccountError when `password` may not be set (too short, too long)."""
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        raise AccountError(f"a password needs at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise AccountError(f"a password has at most {MAX_PASSWORD} characters")


class Accounts:
    """The accounts file: add, change, remove and check logins. Thread-safe; each call opens
    and closes its own connection, so the CLI and a running daemon may share the file."""

    def __init__(self, path: str | os.PathLike[str], *, create: bool = False,
                 hasher: PasswordHasher | None = None) -> None:
        self.path = Path(path)
        self._hasher = hasher or PasswordHasher.from_parameters(RFC_9106_LOW_MEMORY)
        self._lock = threading.Lock()
        if not self.path.exists():
            if not create:
                raise AccountError(f"{self.path}: no accounts file (feltguard user add makes it)")
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            os.close(fd)
        try:
            with self._db() as db:
                db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise AccountError(f"{self.path}: not an accounts file ({exc})") from None
        self._dummy: str | None = None

    @contextlib.contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=5.0)
        try:
            with db:
                yield db
        finally:
            db.close()

    def add(self, name: str, role: str, password: str) -> Account:
        user = normal_name(name)
        if role not in ROLES:
            raise AccountError(f"role must be one of {', '.join(ROLES)}, not {role!r}")
        check_password(password)
        digest = self._hasher.hash(password)
        with self._lock, self._db() as db:
            try:
                db.execute("INSERT INTO accounts VALUES (?, ?, ?, 1, ?)",
                           (user, role, digest, _now()))
            except sqlite3.IntegrityError:
                raise AccountError(f"user {user!r} already exists") from None
        return self._get(user)

    def passwd(self, name: str, password: str) -> Account:
        user = normal_name(name)
        check_password(password)
        digest = self._hasher.hash(password)
        with self._lock, self._db() as db:
            cur = db.execute("UPDATE accounts SET hash = ?, version = version + 1, changed = ? "
                             "WHERE name = ?", (digest, _now(), user))
            if cur.rowcount == 0:
                raise AccountError(f"no user {user!r}")
        return self._get(user)

    def remove(self, name: str) -> Account:
        user = normal_name(name)
        account = self._get(user)
        with self._lock, self._db() as db:
            db.execute("DELETE FROM accounts WHERE name = ?", (user,))
        return account

    def list(self) -> list[Account]:
        with self._db() as db:
            rows = db.execute("SELECT name, role, version, changed FROM accounts "
                              "ORDER BY name").fetchall()
        return [Account(*row) for row in rows]

    def __len__(self) -> int:
        with self._db() as db:
            count: int = db.execute("SELECT count(*) FROM accounts").fetchone()[0]
        return count

    def _get(self, user: str) -> Account:
        with self._db() as db:
            row = db.execute("SELECT name, role, version, changed FROM accounts WHERE name = ?",
                             (user,)).fetchone()
        if row is None:
            raise AccountError(f"no user {user!r}")
        return Account(*row)

    def authenticate(self, credentials: Mapping[str, Any]) -> Identity | None:
        """The Identity of the `user` whose `password` this is; None for anything else. Never
        raises on any input (a form, a Socket.IO auth dict)."""
        if not isinstance(credentials, Mapping):
            return None
        name, password = credentials.get("user"), credentials.get("password")
        if not isinstance(password, str) or not password or len(password) > MAX_PASSWORD:
            return None
        try:
            user = normal_name(name)
        except AccountError:
            user = ""
        with self._db() as db:
            row = db.execute("SELECT role, hash, version FROM accounts WHERE name = ?",
                             (user,)).fetchone() if user else None
        try:
            if row is None:
                # verified against a hash all the same: the refusal takes as long as for a
                # wrong password, and says nothing about which names exist
                if self._dummy is None:
                    self._dummy = self._hasher.hash("not a password of anyone's")
                self._hasher.verify(self._dummy, password)
                return None
            self._hasher.verify(row[1], password)
        except (VerifyMismatchError, VerificationError, InvalidHashError, UnicodeError):
            return None
        if self._hasher.check_needs_rehash(row[1]):  # stronger parameters since: rehash now
            with contextlib.suppress(sqlite3.Error), self._lock, self._db() as db:
                db.execute("UPDATE accounts SET hash = ? WHERE name = ? AND version = ?",
                           (self._hasher.hash(password), user, row[2]))
        return Identity(name=user, role=row[0], version=row[2])

    def known(self, name: Any) -> bool:
        """Whether `name` is an account (the audit names a failed login's user only then: a
        password typed into the name field must not land in the log)."""
        try:
            user = normal_name(name)
        except AccountError:
            return False
        with self._db() as db:
            return db.execute("SELECT 1 FROM accounts WHERE name = ?", (user,)).fetchone() \
                is not None

    def still_valid(self, identity: Identity) -> bool:
        """Whether the account `identity` logged in as still exists with the same password and
        role: a removed account or a changed password ends the logins made before."""
        try:
            with self._db() as db:
                row = db.execute("SELECT role, version FROM accounts WHERE name = ?",
                                 (identity.name,)).fetchone()
        except sqlite3.Error:
            return False
        return row is not None and row[0] == identity.role and row[1] == identity.version
