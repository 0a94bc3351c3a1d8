"""``feltguard user``: the table's accounts, managed on the machine itself.

    feltguard user add NAME --role dealer|floor|surveillance|admin [--config FILE | --accounts FILE]
    feltguard user passwd NAME  [...]
    feltguard user remove NAME  [...]
    feltguard user list         [...]

The accounts file is the config's (``[accounts] file``, or accounts.sqlite beside the journal;
``--accounts`` names one directly). ``add`` makes it (0600) when it does not exist yet. The
password is asked twice at the terminal (never echoed, never an argument: an argument would
sit in the shell's history and in ``ps``), or read as one line from standard input with
``--password-stdin`` (provisioning scripts). Every change is written to the audit log beside
it, chained under its own key (controller/security/audit.py), as done by the local user running
the command. A refusal is one line and exit status 2; the file is left as it was.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from pathlib import Path
from typing import Any

from controller.security.accounts import ROLES, AccountError, Accounts


def _paths(args: argparse.Namespace) -> tuple[Path, Path]:
    """The accounts file and the audit log this command uses."""
    from controller.config import Config, load

    if args.accounts:  # the audit log beside it
        accounts = Path(args.accounts).resolve()
        return accounts, accounts.with_name("audit.sqlite")
    config = load(args.config) if args.config else Config()
    return config.accounts_path(), config.audit_path()


def _password(args: argparse.Namespace) -> str:
    if args.password_stdin:
        line = sys.stdin.readline()
        return line[:-1] if line.endswith("\n") else line
    first = getpass.getpass("new password: ")
    if getpass.getpass("again: ") != first:
        raise AccountError("the two passwords differ")
    return first


def _operator() -> str:
    """Who ran the command, as the audit names them: the local login."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return f"uid {os.getuid()}"


def cmd_user(args: argparse.Namespace) -> int:
    from controller.cli.common import fail
    from controller.config import ConfigError
    from controller.journal import JournalError
    from controller.security.audit import AuditError, AuditLog

    command = f"user {args.user_command}"
    try:
        accounts_path, audit_path = _paths(args)
        accounts = Accounts(accounts_path, create=args.user_command == "add")
        if args.user_command == "list":
            for a in accounts.list():
                print(f"{a.name}\t{a.role}\tchanged {a.changed}")
            return 0
        if args.user_command == "add":
            account = accounts.add(args.name, args.role, _password(args))
            done = f"added {account.name} ({account.role})"
        elif args.user_command == "passwd":
            account = accounts.passwd(args.name, _password(args))
            done = f"changed the password of {account.name}: their logins are closed"
        else:
            account = accounts.remove(args.name)
            done = f"removed {account.name} ({account.role}): their logins are closed"
        audit = AuditLog(audit_path)
        audit.record(_operator(), "local", f"user_{args.user_command}",
                     f"{account.name} ({account.role})", "console")
        audit.close()
    except (AccountError, ConfigError, AuditError, JournalError, OSError) as exc:
        return fail(command, str(exc))
    except (EOFError, KeyboardInterrupt):
        return fail(command, "no password given")
    print(done)
    return 0


def add_user_parser(sub: Any) -> None:
    """Add ``user add|passwd|remove|list`` to the ``feltguard`` subcommands."""
    user = sub.add_parser("user", help="the table's accounts: who may log in, as what")
    cmds = user.add_subparsers(dest="user_command", required=True)
    for name, help_text in (("add", "add an account (asks for its password)"),
                            ("passwd", "change an account's password (closes its logins)"),
                            ("remove", "remove an account (closes its logins)"),
                            ("list", "list the accounts and their roles")):
        p = cmds.add_parser(name, help=help_text)
        if name != "list":
            p.add_argument("name", metavar="NAME", help="the person's user name")
        if name == "add":
            p.add_argument("--role", required=True, choices=ROLES,
                           help="what they may do (docs/security.md, Roles)")
        if name in ("add", "passwd"):
            p.add_argument("--password-stdin", action="store_true",
                           help="read the password as one line from standard input")
        where = p.add_mutually_exclusive_group()
        where.add_argument("--config", metavar="FILE",
                           help="the table's config: its [accounts] and [journal] files")
        where.add_argument("--accounts", metavar="FILE",
                           help="the accounts file itself (its audit log and key beside it)")
        p.set_defaults(func=cmd_user)
