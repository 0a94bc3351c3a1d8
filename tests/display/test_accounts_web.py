"""Per-user logins in the live view: each role opens what it may and is refused the rest, every
login, failure and refusal is in the audit log, and no password reaches a log or the audit.

HTTP through Flask's test client; Socket.IO through real python-socketio clients against the
live server (display/live.py, as `feltguard run` serves).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
import socketio
from argon2 import PasswordHasher
from flask.testing import FlaskClient

from controller.security.accounts import Accounts
from controller.security.audit import AuditLog
from display.access import LoginLimiter
from display.console_inputs import ConsoleInputs
from display.server import AUDIT, CONSOLE, DEALER, SESSION_COOKIE, create_app, run_server
from tests.display.test_server import WAIT

PASSWORDS = {"dee": "dealer-password-1", "flo": "floor-password-22",
             "sam": "surveillance-pw-333", "ada": "admin-password-4444"}
ROLES = {"dee": "dealer", "flo": "floor", "sam": "surveillance", "ada": "admin"}
FAST = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)

# What each role may open: (page, status when logged in as it).
OPENS = {
    "dealer": {DEALER: 200, CONSOLE: 200, AUDIT: 403},
    "floor": {DEALER: 200, CONSOLE: 403, AUDIT: 403},
    "surveillance": {DEALER: 200, CONSOLE: 403, AUDIT: 200},
    "admin": {DEALER: 403, CONSOLE: 403, AUDIT: 200},
}


@pytest.fixture
def table(tmp_path) -> Iterator[tuple[Any, Accounts, AuditLog]]:
    accounts = Accounts(tmp_path / "accounts.sqlite", create=True, hasher=FAST)
    for name, password in PASSWORDS.items():
        accounts.add(name, ROLES[name], password)
    audit = AuditLog(tmp_path / "audit.sqlite")
    app, live, publisher = create_app(accounts=accounts, audit=audit)
    yield (app, live, publisher), accounts, audit
    audit.close()


def log_in(client: FlaskClient, user: str, password: str, *, addr: str = "10.0.0.1") -> Any:
    return client.post("/login", data={"user": user, "password": password, "next": DEALER},
                       environ_base={"REMOTE_ADDR": addr})


@pytest.mark.parametrize("user", sorted(PASSWORDS))
def test_each_role_opens_what_it_may_and_is_refused_the_rest(table, user):
    (app, _, _), _, audit = table
    client = app.test_client()
    for page in OPENS[ROLES[user]]:  # nothing opens before the login: the form
        got = client.get(page)
        assert got.status_code == 200 and b'<form id="login"' in got.data
        assert b'name="user"' in got.data and b'name="password"' in got.data
    assert log_in(client, user, PASSWORDS[user]).status_code == 303
    for page, status in OPENS[ROLES[user]].items():
        got = client.get(page)
        assert got.status_code == status, (user, page)
        if status == 403:
            assert f"A {ROLES[user]} login may not open {page}".encode() in got.data
    actions = [(e.who, e.role, e.action, e.subject) for e in audit.entries()]
    refused = [page for page, status in OPENS[ROLES[user]].items() if status == 403]
    assert actions == [(user, ROLES[user], "login", "")] + [
        (user, ROLES[user], "refused", page) for page in refused]
    assert audit.check() == []


def test_the_shared_token_is_not_accepted_once_there_are_accounts(table):
    (app, _, _), _, _ = table
    client = app.test_client()
    got = client.post("/dealer/login", data={"token": "anything", "next": DEALER})
    assert got.status_code == 401 and b"Wrong name or password." in got.data


def test_failed_logins_are_audited_without_the_password_and_limited_per_account(table, caplog):
    (app, _, _), _, audit = table
    caplog.set_level(logging.DEBUG)
    client = app.test_client()
    assert log_in(client, "sam", "not-the-password").status_code == 401
    assert log_in(client, "nobody", "whatever-typed").status_code == 401
    # a password typed into the name field is not an account: the audit does not keep it
    assert log_in(client, PASSWORDS["dee"], "x" * 12).status_code == 401
    got = [(e.who, e.action) for e in audit.entries()]
    assert got == [("sam", "login_failed"), ("(unknown user)", "login_failed"),
                   ("(unknown user)", "login_failed")]
    # a guesser spread over many addresses meets the per-account limit (10 in 15 minutes)
    for n in range(10):  # the name written any way the login takes it is one account
        name = ("flo", "FLO", " flo", "flo ", "Flo")[n % 5]
        log_in(app.test_client(), name, f"guess-number-{n}", addr=f"10.1.0.{n}")
    blocked = log_in(app.test_client(), "flo", PASSWORDS["flo"], addr="10.2.0.1")
    assert blocked.status_code == 429 and "Retry-After" in blocked.headers
    assert audit.entries()[-1].action == "login_limited"
    # another account from a fresh address is not held up by it
    assert log_in(app.test_client(), "dee", PASSWORDS["dee"], addr="10.3.0.1").status_code == 303
    raw = audit.path.read_bytes() + b"".join(
        p.read_bytes() for p in audit.path.parent.glob("audit.sqlite*"))
    for secret in [*PASSWORDS.values(), "not-the-password", "whatever-typed"]:
        assert secret.encode() not in raw
        assert all(secret not in r.getMessage() for r in caplog.records)


def test_a_changed_password_or_a_removed_account_closes_the_logins_made_before(table):
    (app, _, _), accounts, _ = table
    client = app.test_client()
    assert log_in(client, "sam", PASSWORDS["sam"]).status_code == 303
    assert client.get(AUDIT).status_code == 200
    accounts.passwd("sam", "a-brand-new-password")
    assert b'<form id="login"' in client.get(AUDIT).data  # logged out: the form again
    assert log_in(client, "sam", "a-brand-new-password").status_code == 303
    assert client.get(AUDIT).status_code == 200
    accounts.remove("sam")
    assert b'<form id="login"' in client.get(AUDIT).data


def test_the_audit_page_lists_newest_first_and_says_the_chain_is_intact(table):
    (app, _, _), _, audit = table
    client = app.test_client()
    log_in(client, "dee", "wrong-password-here")
    log_in(client, "ada", PASSWORDS["ada"])
    page = client.get(AUDIT).data.decode()
    assert "Chain intact: 2 entries." in page
    assert page.index("<td>login</td>") < page.index("<td>login_failed</td>")
    client.post("/logout")
    assert audit.entries()[-1].action == "logout"
    assert b'<form id="login"' in client.get(AUDIT).data
    assert client.get_cookie(SESSION_COOKIE) is None  # the logout removed the cookie


def test_the_dealer_namespace_admits_by_role_over_real_socketio(table):
    (app, live, _), _, audit = table
    handle = run_server(app, live, "127.0.0.1", 0)
    try:
        def connect(user: str, password: str) -> socketio.Client | str:
            client = socketio.Client(reconnection=False)
            try:
                client.connect(handle.url, namespaces=[DEALER], transports=["websocket"],
                               auth={"user": user, "password": password}, wait_timeout=WAIT)
            except socketio.exceptions.ConnectionError as exc:
                return str(exc)
            return client

        for user in ("dee", "flo", "sam"):
            got = connect(user, PASSWORDS[user])
            assert isinstance(got, socketio.Client), (user, got)
            # only the dealer's socket may send inputs; the rest are told so
            answer = got.call("input", '{"type": "undo"}', namespace=DEALER, timeout=WAIT)
            assert answer["ok"] is False
            if user != "dee":
                assert answer["reason"] == "only the dealer's console may send inputs"
            got.disconnect()
        assert isinstance(connect("ada", PASSWORDS["ada"]), str)  # the admin sees no cards
        assert isinstance(connect("dee", "not-the-password"), str)
        actions = [(e.who, e.action) for e in audit.entries()]
        assert actions == [("dee", "login"), ("flo", "login"), ("sam", "login"),
                           ("ada", "login"), ("ada", "refused"), ("dee", "login_failed")]
    finally:
        handle.stop()


def test_a_ruling_needs_a_floor_account_in_the_same_message(table):
    _, accounts, _ = table
    submitted: list[str] = []
    inputs = ConsoleInputs(lambda body: (submitted.append(body) or (True, "", [])),
                           floor=accounts.authenticate, limiter=LoginLimiter())
    dealer = accounts.authenticate({"user": "dee", "password": PASSWORDS["dee"]})
    ruling = '{"type": "floor.ruling", "text": "the hand stands"}'
    for creds in (None, {"user": "dee", "password": PASSWORDS["dee"]},
                  {"user": "flo", "password": "not-the-password"}, {"token": "anything"}):
        got = inputs.input(dealer, {"body": ruling, "floor": creds}, "10.0.0.1")
        assert got == {"ok": False, "reason": "a ruling needs the floor's login", "findings": []}
    got = inputs.input(dealer, {"body": ruling, "floor": {"user": "flo",
                                                          "password": PASSWORDS["flo"]}},
                       "10.0.0.1")
    # who ruled is stamped from the login checked, whatever the page claims
    assert got["ok"] is True and json.loads(submitted[0]) == {
        "type": "floor.ruling", "text": "the hand stands", "ruled_by": "flo"}
    claimed = '{"type": "floor.ruling", "text": "x", "ruled_by": "the boss"}'
    inputs.input(dealer, {"body": claimed, "floor": {"user": "flo", "password": PASSWORDS["flo"]}},
                 "10.0.0.1")
    assert json.loads(submitted[1])["ruled_by"] == "flo"
