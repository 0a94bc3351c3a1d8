"""``feltguard``: the command line.

    feltguard run --config table.toml     the daemon at a real table
    feltguard udev-rules --config FILE    udev rules naming every reader (at install)
    feltguard sim [--hands N] [--mistakes RATE] ...
                                          a simulated 6-seat table with its live view
    feltguard replay FILE [--json]        replay a scenario (.jsonl) or a journal (.sqlite)
    feltguard verify JOURNAL              check a journal's keyed hash chain and anchors
    feltguard key PATH                    create a journal key (at install)
    feltguard phh replay FILE             replay PHH hands, compare with finishing_stacks
    feltguard phh export JOURNAL [-o OUT] the table's hands as PHH (.phhs)
    feltguard config check FILE           check a table's configuration, show what it sets up
    feltguard --version                   the package's version
    feltguard deck enrol --deck ID --reader URL -o FILE
                                          read a new deck through the shoe into the registry
    feltguard deck check --registry FILE --reader URL
                                          read a deck through: missing, extra, foreign cards
    feltguard equity GAME HAND HAND... [--board CARDS] [--exact|--samples N] [--json]
                                          each hand's chance to win, in any game
    feltguard chips enrol --set ID --denomination N --reader URL -o FILE
                                          chips of one denomination into a chip set
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence

from controller.cli.chips import add_chips_parser
from controller.cli.common import Parser, fail
from controller.cli.config_check import add_config_parser
from controller.cli.deck import add_deck_parser
from controller.cli.equity import add_equity_parser
from controller.cli.journal import add_journal_parsers
from controller.cli.phh import add_phh_parser
from controller.cli.run import add_run_parser
from controller.cli.sim import add_sim_parser
from controller.cli.surveillance import add_surveillance_parser
from controller.cli.tls import add_tls_parser
from controller.cli.udev import add_udev_parser
from controller.cli.users import add_user_parser

DESCRIPTION = "feltguard: the controller of an instrumented live poker table"
# The status of a command whose reader went away (`feltguard replay ... | head`), as the shell
# gives one a SIGPIPE stopped: not 1, which says a journal was tampered with, nor 2, bad input.
BROKEN_PIPE = 128 + 13


def build_parser() -> Parser:
    parser = Parser(prog="feltguard", description=DESCRIPTION)
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="show the package's version and exit")
    sub = parser.add_subparsers(dest="command", required=True)
    for add in (add_run_parser, add_udev_parser, add_sim_parser, add_journal_parsers,
                add_phh_parser, add_config_parser, add_deck_parser, add_chips_parser,
                add_user_parser, add_surveillance_parser, add_tls_parser, add_equity_parser):
        add(sub)
    return parser


class _Version(argparse.Action):
    """``--version``: the version looked up only when asked (``importlib.metadata`` scans the
    path for the distribution: about 10 ms of every start, ``feltguard run``'s too)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f"feltguard {package_version()}")  # (to standard output, as argparse's own)
        parser.exit()


def package_version() -> str:
    """The installed package's version (pyproject.toml), as pip knows it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("feltguard")
    except PackageNotFoundError:  # run from a source tree never installed
        return "unknown (not installed)"


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    check = getattr(args, "check", None)  # what one option alone cannot say (sim's seats)
    if check is not None:
        check(args)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if not args.verbose:
        # a line per request and per screen otherwise (the access log; WebSocket accepts)
        for name in ("uvicorn.access", "uvicorn.error"):
            logging.getLogger(name).setLevel(logging.WARNING)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        fail(args.command, "interrupted")
        return 130  # the shell's status for a SIGINT
    except BrokenPipeError:  # `feltguard replay ... | head`: the reader has gone, so be quiet
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return BROKEN_PIPE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
