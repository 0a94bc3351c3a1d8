"""``feltguard user``: accounts made, changed and removed on the machine, each change audited;
``feltguard run`` picks the accounts up, or says it runs on the shared token without them."""

from __future__ import annotations

import io
import stat

import pytest

from controller.cli import main
from controller.config import from_mapping
from controller.processes.table import StartError, open_accounts
from controller.security.accounts import Accounts
from controller.security.audit import read_audit


def user(capsys, monkeypatch, *args: str, password: str | None = None) -> tuple[int, str, str]:
    if password is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(password + "\n"))
    code = main(["user", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_add_passwd_list_remove_each_audited(tmp_path, capsys, monkeypatch):
    acc = str(tmp_path / "accounts.sqlite")
    assert user(capsys, monkeypatch, "add", "Sam", "--role", "surveillance", "--accounts", acc,
                "--password-stdin", password="first password") == (
        0, "added sam (surveillance)\n", "")
    assert stat.S_IMODE((tmp_path / "accounts.sqlite").stat().st_mode) == 0o600
    assert Accounts(acc).authenticate({"user": "sam", "password": "first password"})
    code, out, _ = user(capsys, monkeypatch, "passwd", "sam", "--accounts", acc,
                        "--password-stdin", password="second password")
    assert code == 0 and "their logins are closed" in out
    assert Accounts(acc).authenticate({"user": "sam", "password": "first password"}) is None
    code, out, _ = user(capsys, monkeypatch, "list", "--accounts", acc)
    assert code == 0 and out.startswith("sam\tsurveillance\tchanged ")
    assert user(capsys, monkeypatch, "remove", "sam", "--accounts", acc)[0] == 0
    assert len(Accounts(acc)) == 0
    entries = read_audit(tmp_path / "audit.sqlite")
    assert [(e.role, e.action, e.subject) for e in entries] == [
        ("local", "user_add", "sam (surveillance)"), ("local", "user_passwd", "sam (surveillance)"),
        ("local", "user_remove", "sam (surveillance)")]
    assert b"first password" not in (tmp_path / "audit.sqlite").read_bytes()


@pytest.mark.parametrize(("args", "password", "message"), [
    (("add", "bob", "--role", "dealer"), "short", "a password needs at least 10 characters"),
    (("passwd", "nobody"), "long enough password", "no user 'nobody'"),
    (("remove", "nobody"), None, "no user 'nobody'"),
    (("add", "b b", "--role", "dealer"), "long enough password", "user name must be"),
])
def test_refusals_are_one_line_and_change_nothing(tmp_path, capsys, monkeypatch, args, password,
                                                  message):
    acc = tmp_path / "accounts.sqlite"
    Accounts(acc, create=True).add("ann", "dealer", "ann's password")
    before = acc.read_bytes()
    extra = ("--password-stdin",) if password is not None else ()
    code, out, err = user(capsys, monkeypatch, *args, "--accounts", str(acc), *extra,
                          password=password)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"feltguard user {args[0]}: ") and message in err
    assert acc.read_bytes() == before


def test_passwd_without_an_accounts_file_says_so(tmp_path, capsys, monkeypatch):
    code, _, err = user(capsys, monkeypatch, "passwd", "ann", "--accounts",
                        str(tmp_path / "none.sqlite"), "--password-stdin", password="x" * 12)
    assert code == 2 and "no accounts file (feltguard user add makes it)" in err
    assert not (tmp_path / "none.sqlite").exists()


def test_the_table_uses_its_accounts_or_says_it_runs_on_the_token(tmp_path, caplog):
    config = from_mapping({"journal": {"path": str(tmp_path / "journal.sqlite")}})
    accounts, audit = open_accounts(config)  # none yet: the shared token
    assert accounts is None and audit.path == tmp_path / "audit.sqlite"
    assert "no accounts in" in caplog.text and "feltguard user add" in caplog.text
    Accounts(tmp_path / "accounts.sqlite", create=True).add("dee", "dealer", "dee's password")
    accounts, _ = open_accounts(config)
    assert accounts is not None and [a.name for a in accounts.list()] == ["dee"]
    (tmp_path / "bad.sqlite").write_bytes(b"garbage" * 500)
    bad = from_mapping({"journal": {"path": str(tmp_path / "journal.sqlite")},
                        "accounts": {"file": str(tmp_path / "bad.sqlite")}})
    with pytest.raises(StartError, match=r"^accounts: .*bad\.sqlite: not an accounts file"):
        open_accounts(bad)


def test_a_bad_accounts_key_is_named(tmp_path):
    from controller.config import ConfigError

    with pytest.raises(ConfigError, match=r"^accounts\.session_hours: must be 1\.\.24, got 48$"):
        from_mapping({"accounts": {"session_hours": 48}})
    with pytest.raises(ConfigError, match=r"^accounts\.passwords: unknown key"):
        from_mapping({"accounts": {"passwords": "x"}})
