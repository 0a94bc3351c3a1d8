"""What every ``feltguard`` verb shares: one-line errors, argparse types, the journal check,
and the writability check of a file a command is about to write.

The verb modules (``controller.cli.run``, ``sim``, ``journal``, ...) import this module; nothing
here imports a verb, so the dispatcher (``controller.cli.main``) is the only module that knows
them all (as Mopidy's root command adds its children)."""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from controller.journal import JournalError, check, is_journal_file, key_path_for
from controller.surveillance.streams import table_id


def fail(command: str, message: str) -> int:
    """Bad input: one line on standard error, ``feltguard COMMAND: message``; returns 2.

    One line even when the message (a path, a library's text) holds a line break."""
    text = f"feltguard {command}: {message}".replace("\r", "\\r").replace("\n", "\\n")
    print(text, file=sys.stderr)
    return 2


def usage_error(prog: str, message: str) -> NoReturn:
    print(f"{prog}: {message} (see {prog} --help)".replace("\n", " "), file=sys.stderr)
    sys.exit(2)


class Parser(argparse.ArgumentParser):
    """argparse, with its errors on one line (``feltguard sim: argument --seats: ...``) instead
    of the usage block and the error; exit status 2 as argparse has it. Subcommand parsers are
    of this class too (add_subparsers makes them of the parent's class)."""

    def error(self, message: str) -> NoReturn:
        usage_error(self.prog, message)


def whole(lo: int, hi: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number in lo..hi, refused with the range."""
    allowed = f"a whole number {lo}..{hi}" if hi is not None else f"a whole number >= {lo}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {text!r}") from None
        if value < lo or (hi is not None and value > hi):
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {value}")
        return value

    return parse


def fraction(lo: float, hi: float) -> Callable[[str], float]:
    """An argparse type: a finite number in lo..hi (no NaN, no inf)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a number {lo:g}..{hi:g}, got {text!r}") \
                from None
        if not math.isfinite(value) or not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"must be a number {lo:g}..{hi:g}, got {text}")
        return value

    return parse


def text(what: str) -> Callable[[str], str]:
    """An argparse type: a string that is not blank."""

    def parse(value: str) -> str:
        if not value.strip():
            raise argparse.ArgumentTypeError(f"must be {what}, not empty")
        return value

    return parse


def table_name(value: str) -> str:
    """An argparse type: a table's id in the cardroom (controller.surveillance.streams.table_id)."""
    try:
        return table_id(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("table id ")) from None


def add_check_options(p: argparse.ArgumentParser, *, force: bool) -> None:
    """The journal key and anchor file options of every command that checks a journal."""
    p.add_argument("--key", default=None, type=text("a file"),
                   help="the journal's key file (default: JOURNAL.key beside it)")
    p.add_argument("--anchors", default=None, type=text("a file"),
                   help="the journal's anchor file (default: JOURNAL.anchors beside it)")
    if force:
        p.add_argument("--force", action="store_true",
                       help="read a journal that fails its check, under a loud warning")


def journal_gate(command: str, path: str, args: argparse.Namespace) -> int | None:
    """Check a journal before anything reads it for a person: its keyed chain and anchors
    (controller/journal.py). None to go on; otherwise the exit status. A journal that fails the
    check is refused (1) unless ``--force``, which goes on under a loud warning; a scenario
    file has no chain and passes."""
    if not is_journal_file(path):
        return None
    try:
        verdict = check(path, key_path=args.key, anchors=args.anchors)
        problem = verdict.problem
    except JournalError as exc:
        if not args.force or not str(exc).startswith(str(args.key or key_path_for(path))):
            return fail(command, str(exc))
        problem = f"not checked: {exc}"  # no key: --force reads it unchecked
    return refuse_or_force(command, path, problem, args)


def refuse_or_force(command: str, path: str, problem: str | None,
                    args: argparse.Namespace) -> int | None:
    """A journal's failed check: refused (1) unless ``--force``, which goes on under a loud
    warning (None: go on)."""
    if problem is None:
        return None
    if not args.force:
        print(f"feltguard {command}: {path}: {problem}; refusing to read it (--force to read "
              "it anyway)", file=sys.stderr)
        return 1
    print(f"feltguard {command}: WARNING: {path}: {problem}; read anyway (--force): what "
          "follows may not be what the table journaled", file=sys.stderr, flush=True)
    args.forced_problem = problem
    return None


def writable_problem(path: str) -> str | None:
    """Why a file could not be written at ``path``, or None (it may not exist yet): checked
    before a command reads a deck, deals a hand or opens a journal, so nothing is lost to a
    path that cannot take it. The folder must take new files too (a registry is replaced
    whole, SQLite keeps its journal files beside the database)."""
    p = Path(path)
    if p.is_dir():
        return "is a directory"
    parent = p.parent  # (Path("decks.json").parent is Path("."))
    if not parent.is_dir():
        return f"no directory {str(parent)!r} to write it in"
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        return "permission denied"
    return None


def add_redis_login_options(p: argparse.ArgumentParser, prefix: str, user_help: str) -> None:
    """The options of a login to the cardroom's Redis (docs/cardroom.md), named
    ``--PREFIX-user``, ``-password-file``, ``-ca``, ``-cert`` and ``-key`` as
    ``controller.surveillance.access``'s ``Names`` for them say; ``login_values`` reads them."""
    p.add_argument(f"--{prefix}-user", default=None, type=text("a user"), metavar="USER",
                   help=user_help)
    p.add_argument(f"--{prefix}-password-file", default=None, type=text("a file"),
                   metavar="FILE", help="the user's password, alone on one line, in a 0600 file")
    p.add_argument(f"--{prefix}-ca", default=None, type=text("a file"), metavar="FILE",
                   help="with rediss://: the cardroom CA the Redis server's certificate must "
                        "chain to")
    p.add_argument(f"--{prefix}-cert", default=None, type=text("a file"), metavar="FILE",
                   help=f"a client certificate for a Redis that requires one (with "
                        f"--{prefix}-key)")
    p.add_argument(f"--{prefix}-key", default=None, type=text("a file"), metavar="FILE",
                   help="the client certificate's key")


def login_values(args: argparse.Namespace, prefix: str) -> dict[str, str]:
    """``add_redis_login_options``' values as ``RedisAccess`` takes them ("": not given)."""
    return {field: getattr(args, f"{prefix}_{option}") or "" for field, option in (
        ("user", "user"), ("password_file", "password_file"), ("ca_file", "ca"),
        ("cert_file", "cert"), ("key_file", "key"))}

