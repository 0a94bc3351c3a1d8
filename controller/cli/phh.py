"""``feltguard phh``: the command-line side of PHH.

    feltguard phh replay FILE [FILE ...]      replay .phh/.phhs hands through the rules engine
    feltguard phh export JOURNAL [-o OUT]      the table's hands as PHH (.phhs)

``replay`` prints one line per hand that does not match its ``finishing_stacks`` (the hand,
expected and got, or the error naming the action), a line per hand matched only by the odd-chip
rule, compared with its ``winnings`` (the implied rake), replayed without recorded stacks (with
each player's net where the stacks are unknown), stopping before its end or refused (each with
its reason), and a summary; the exit status is 1 on any mismatch (stacks or winnings) or error,
2 when a file cannot be read at all (missing, a directory, not UTF-8 text, or not one
hand in it can be read): then, as for every bad input of ``export`` too, one line on standard
error names the file and the problem.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any, TextIO


def _unreadable(path: Path, items: list[Any]) -> str | None:
    """Why not one hand could be read from the file at ``path`` (``items``: its hands and
    PhhErrors), or None."""
    from controller.phh.notation import PhhError

    if not items:
        return "no hands in it"
    if any(not isinstance(item, PhhError) for item in items):
        return None
    first = items[0]
    hand = first.hand  # the file (already named) and, in a .phhs, the hand's [key]
    for name in (str(path), path.name):
        if hand.startswith(name):
            hand = hand[len(name):].strip()
            break
    where = "".join(f"{part}: " for part in (hand, first.action and f"action {first.action}")
                    if part)
    more = f" (and {len(items) - 1} more like it)" if len(items) > 1 else ""
    return f"not one hand could be read: {where}{first.detail}{more}"


def cmd_phh_replay(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from controller.cli.common import fail
    from controller.phh.reader import read_file
    from controller.phh.replay import Summary, replay_hands

    out = out or sys.stdout
    total = Summary()
    for path in args.files:  # the cheap checks on every file before any is replayed
        if not os.path.lexists(path):
            return fail("phh replay", f"{path}: no such file")
        if Path(path).is_dir():
            return fail("phh replay", f"{path}: is a directory")
    for path in args.files:
        # A file that cannot be read at all (not UTF-8, not TOML, not one readable hand) is
        # exit status 2 and one line on standard error; a file with some bad hands is replayed,
        # each bad hand a line of the report and exit status 1.
        start = time.perf_counter()
        items = read_file(path)
        read_seconds = time.perf_counter() - start
        problem = _unreadable(Path(path), items)
        if problem:
            return fail("phh replay", f"{path}: {problem}")
        summary = replay_hands(items)
        summary.read_seconds = read_seconds
        for result in summary.results:
            if result.status != "matched" or args.verbose:
                out.write(result.line() + "\n")
        for name in ("hands", "matched", "odd_chip", "mismatched", "errors", "unchecked",
                     "winnings", "incomplete", "refused", "rake", "seconds", "read_seconds"):
            setattr(total, name, getattr(total, name) + getattr(summary, name))
    out.write(total.line() + "\n")
    return 0 if total.ok else 1


def cmd_phh_export(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from controller.cli.common import fail, journal_gate
    from controller.events import EventError
    from controller.journal import JournalError
    from controller.phh.export import export_file
    from controller.phh.writer import dumps_all

    out = out or sys.stdout
    output = args.output if args.output not in (None, "-") else None
    if output is not None:
        problem = _output_problem(args.journal, output)
        if problem:
            return fail("phh export", f"-o {output}: {problem}")
    gate = journal_gate("phh export", args.journal, args)  # a journal is checked first
    if gate is not None:
        return gate
    try:
        hands = export_file(args.journal)
    except (EventError, JournalError) as exc:
        return fail("phh export", str(exc))
    except OSError as exc:
        return fail("phh export", f"{args.journal}: {exc.strerror or exc}")
    if not hands and not _has_events(args.journal):
        return fail("phh export", f"{args.journal}: no events in it")
    text = dumps_all(hands)
    if output is None:
        out.write(text)
        return 0
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        return fail("phh export", f"{output}: {exc.strerror or exc}")
    irregular = sum(1 for h in hands if h.user.get("_findings"))
    out.write(f"{len(hands)} hands ({irregular} with findings) written to {args.output}\n")
    return 0


def _output_problem(source: str, output: str) -> str | None:
    """Why ``output`` must not be written: it is the journal being exported, or another SQLite
    file (a journal, most likely: a typo must not overwrite the table's record), or a
    directory. None if it may be written."""
    from controller.journal import is_journal_file

    p = Path(output)
    if p.is_dir():
        return "is a directory"
    if p.exists():
        try:
            if Path(source).exists() and os.path.samefile(source, p):
                return "is the file being exported; refusing to overwrite it"
        except OSError:
            pass
        if is_journal_file(p):
            return "is an SQLite file (a journal?); refusing to overwrite it"
    return None


def _has_events(path: str) -> bool:
    from controller.journal import iter_events

    return next(iter(iter_events(path)), None) is not None


def add_phh_parser(sub: Any) -> None:
    """Add ``phh replay`` and ``phh export`` to the ``feltguard`` subcommands."""
    from controller.cli.common import add_check_options, text

    phh = sub.add_parser("phh", help="PHH hand histories: replay them, export the table's hands")
    cmds = phh.add_subparsers(dest="phh_command", required=True)

    p = cmds.add_parser("replay", help="replay .phh/.phhs hands and compare the final stacks "
                        "with finishing_stacks")
    p.add_argument("files", nargs="+", metavar="FILE", type=text("a file"),
                   help=".phh or .phhs file")
    p.add_argument("--verbose", action="store_true", help="a line for every hand, matched too")
    p.set_defaults(func=cmd_phh_replay)

    p = cmds.add_parser("export", help="export the hands of a journal (or a scenario) as PHH")
    p.add_argument("journal", type=text("a file"), help="journal (SQLite) or scenario (.jsonl)")
    p.add_argument("-o", "--output", default=None, type=text("a file or -"),
                   help="output .phhs file (default: stdout)")
    add_check_options(p, force=True)
    p.set_defaults(func=cmd_phh_export)
