"""``feltguard run``: the daemon at a real table, its configuration, deck registry and
listening port checked before anything starts."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from controller.cli.common import fail, text
from controller.cli.sim import listen_problem
from controller.journal import JournalError


def cmd_run(args: argparse.Namespace) -> int:
    from controller.cli.config_check import check
    from controller.config import ConfigError
    from controller.processes.table import run_table

    try:
        # everything `config check` checks (deck and chip files, LED pins, GPIO, host), before
        # anything is written: a refused start leaves no token, audit log or journal behind
        config = check(args.config)
    except ConfigError as exc:
        return fail("run", str(exc))
    if config.port:
        problem = listen_problem(config.host, config.port)
        if problem:
            return fail("run", f"{args.config}: display: {problem}")
    # The typed console only at a terminal (or --console): under systemd stdin is /dev/null.
    at_terminal = sys.stdin is not None and sys.stdin.isatty()  # (None: started with none)
    stdin = sys.stdin if args.console or at_terminal else None
    try:
        return run_table(config, stdin)
    except JournalError as exc:  # journal.path: not a journal, damaged, another key, ...
        return fail("run", f"{exc} (journal.path of {args.config})")


def add_run_parser(sub: Any) -> None:
    """Add ``run`` to the ``feltguard`` subcommands."""
    p = sub.add_parser("run", help="run the daemon at a real table")
    p.add_argument("--config", required=True, type=text("a file"),
                   help="table configuration (TOML)")
    p.add_argument("--console", action="store_true",
                   help="read dealer console lines on standard input even when it is not a "
                        "terminal (at a terminal it is read anyway)")
    p.set_defaults(func=cmd_run)

