"""Accounts: Argon2id hashes in a 0600 file, roles and what each may do, stale logins."""

from __future__ import annotations

import sqlite3
import stat

import pytest
from argon2 import PasswordHasher
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.security.accounts import (
    PERMISSIONS,
    READ_AUDIT,
    REVIEW,
    ROLES,
    RULE,
    SEND_INPUT,
    VIEW_DEALER,
    AccountError,
    Accounts,
    Identity,
    may,
)

# cheap parameters: the tests check the logic, not Argon2's cost
FAST = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


@pytest.fixture
def accounts(tmp_path):
    return Accounts(tmp_path / "accounts.sqlite", create=True, hasher=FAST)


def test_a_user_logs_in_with_their_password_and_gets_their_role(accounts):
    accounts.add("Alice", "surveillance", "correct horse battery")
    who = accounts.authenticate({"user": " alice ", "password": "correct horse battery"})
    assert who == Identity("alice", "surveillance", 1)
    assert accounts.authenticate({"user": "alice", "password": "wrong horse battery"}) is None
    assert accounts.authenticate({"user": "bob", "password": "correct horse battery"}) is None


def test_the_file_is_private_and_holds_no_password(accounts):
    accounts.add("dee", "dealer", "a long enough secret")
    assert stat.S_IMODE(accounts.path.stat().st_mode) == 0o600
    raw = accounts.path.read_bytes()
    assert b"a long enough secret" not in raw
    with sqlite3.connect(accounts.path) as db:
        (digest,) = db.execute("SELECT hash FROM accounts").fetchone()
    assert digest.startswith("$argon2id$")


def test_refusals_say_why_in_one_line(accounts):
    accounts.add("dee", "dealer", "a long enough secret")
    cases = [
        (lambda: accounts.add("dee", "dealer", "another long secret"), "already exists"),
        (lambda: accounts.add("eve", "croupier", "another long secret"), "role must be one of"),
        (lambda: accounts.add("eve", "dealer", "short"), "at least 10 characters"),
        (lambda: accounts.add("e ve", "dealer", "another long secret"), "user name must be"),
        (lambda: accounts.passwd("nobody", "another long secret"), "no user 'nobody'"),
        (lambda: accounts.remove("nobody"), "no user 'nobody'"),
    ]
    for call, message in cases:
        with pytest.raises(AccountError, match=message) as exc:
            call()
        assert "\n" not in str(exc.value)


def test_a_changed_password_or_a_removed_account_ends_the_logins_made_before(accounts):
    accounts.add("flo", "floor", "first long password")
    before = accounts.authenticate({"user": "flo", "password": "first long password"})
    assert before is not None and accounts.still_valid(before)
    accounts.passwd("flo", "second long password")
    assert not accounts.still_valid(before)
    assert accounts.authenticate({"user": "flo", "password": "first long password"}) is None
    after = accounts.authenticate({"user": "flo", "password": "second long password"})
    assert after is not None and after.version == 2 and accounts.still_valid(after)
    accounts.remove("flo")
    assert not accounts.still_valid(after)
    assert [a.name for a in accounts.list()] == [] and len(accounts) == 0


def test_an_old_hash_is_upgraded_at_the_next_login(tmp_path):
    path = tmp_path / "accounts.sqlite"
    Accounts(path, create=True, hasher=FAST).add("sam", "surveillance", "a long enough secret")
    strong = PasswordHasher(time_cost=2, memory_cost=16, parallelism=1)
    later = Accounts(path, hasher=strong)
    assert later.authenticate({"user": "sam", "password": "a long enough secret"}) is not None
    with sqlite3.connect(path) as db:
        (digest,) = db.execute("SELECT hash FROM accounts").fetchone()
    assert not strong.check_needs_rehash(digest)


def test_a_missing_or_foreign_file_is_one_line(tmp_path):
    with pytest.raises(AccountError, match="no accounts file"):
        Accounts(tmp_path / "none.sqlite")
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not sqlite at all" * 100)
    with pytest.raises(AccountError, match="not an accounts file"):
        Accounts(junk)


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.none(), st.integers(), st.text(), st.lists(st.text()),
                 st.dictionaries(st.text(), st.one_of(st.text(), st.integers(), st.none()))))
def test_authenticate_never_raises_on_any_input(tmp_path_factory, credentials):
    accounts = Accounts(tmp_path_factory.mktemp("a") / "a.sqlite", create=True, hasher=FAST)
    assert accounts.authenticate(credentials) is None  # type: ignore[arg-type]


def test_what_each_role_may_do():
    assert set(PERMISSIONS) == set(ROLES)
    assert may(Identity("d", "dealer"), SEND_INPUT) and may(Identity("d", "dealer"), VIEW_DEALER)
    assert not may(Identity("d", "dealer"), REVIEW) and not may(Identity("d", "dealer"), RULE)
    assert may(Identity("f", "floor"), RULE) and not may(Identity("f", "floor"), SEND_INPUT)
    assert may(Identity("s", "surveillance"), REVIEW)
    assert not may(Identity("s", "surveillance"), SEND_INPUT)
    # the admin runs the accounts and reads the audit, and sees no cards
    assert may(Identity("a", "admin"), READ_AUDIT) and not may(Identity("a", "admin"), REVIEW)
    assert not may(Identity("a", "admin"), VIEW_DEALER)
    assert not may(None, VIEW_DEALER) and not may(Identity("x", "root"), READ_AUDIT)
