"""``feltguard phh``: the command-line side of PHH.

    feltguard phh replay FILE [FILE ...]      replay .phh/.phhs hands through the rules engine
    feltguard phh export JOURNAL [-o OUT]      the table's hands as PHH (.phhs)

``replay`` prints one line per hand that does not match its ``finishing_stacks`` (the hand,
expected and got, or the error naming the action), a line per hand matched only by the odd-chip
rule or replayed without recorded stacks, and a summary; the exit status is 1 on any mismatch
or error, 2 when a file cannot be read at all.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO


def cmd_phh_replay(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from controller.phh.replay import Summary, replay_file

    out = out or sys.stdout
    total = Summary()
    for path in args.files:
        if not Path(path).is_file():
            print(f"feltguard phh replay: {path}: no such file", file=sys.stderr)
            return 2
        summary = replay_file(path)
        for result in summary.results:
            if result.status != "matched" or args.verbose:
                out.write(result.line() + "\n")
        for name in ("hands", "matched", "odd_chip", "mismatched", "errors", "unchecked",
                     "seconds", "read_seconds"):
            setattr(total, name, getattr(total, name) + getattr(summary, name))
    out.write(total.line() + "\n")
    return 0 if total.ok else 1


def cmd_phh_export(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from controller.events import EventError
    from controller.journal import JournalError
    from controller.phh.export import export_file
    from controller.phh.writer import dumps_all

    out = out or sys.stdout
    try:
        hands = export_file(args.journal)
    except (EventError, JournalError) as exc:
        print(f"feltguard phh export: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"feltguard phh export: {args.journal}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    text = dumps_all(hands)
    if args.output in (None, "-"):
        out.write(text)
        return 0
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"feltguard phh export: {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    irregular = sum(1 for h in hands if h.user.get("_findings"))
    out.write(f"{len(hands)} hands ({irregular} with findings) written to {args.output}\n")
    return 0


def add_phh_parser(sub: Any) -> None:
    """Add ``phh replay`` and ``phh export`` to the ``feltguard`` subcommands."""
    phh = sub.add_parser("phh", help="PHH hand histories: replay them, export the table's hands")
    cmds = phh.add_subparsers(dest="phh_command", required=True)

    p = cmds.add_parser("replay", help="replay .phh/.phhs hands and compare the final stacks "
                        "with finishing_stacks")
    p.add_argument("files", nargs="+", metavar="FILE", help=".phh or .phhs file")
    p.add_argument("--verbose", action="store_true", help="a line for every hand, matched too")
    p.set_defaults(func=cmd_phh_replay)

    p = cmds.add_parser("export", help="export the hands of a journal (or a scenario) as PHH")
    p.add_argument("journal", help="journal (SQLite) or scenario (.jsonl)")
    p.add_argument("-o", "--output", default=None, help="output .phhs file (default: stdout)")
    p.set_defaults(func=cmd_phh_export)
