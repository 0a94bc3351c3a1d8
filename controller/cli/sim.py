"""``feltguard sim``: the simulated table, its options checked before anything is dealt or
journaled (the port it will listen on, the files it will write, the seats and structure of
the game)."""

from __future__ import annotations

import argparse
import contextlib
import logging
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from controller.cli.common import (
    add_redis_login_options,
    fail,
    fraction,
    login_values,
    table_name,
    text,
    usage_error,
    whole,
    writable_problem,
)
from controller.journal import JournalError

# The dealer's pause between moves: a minute is already a table asleep.
PACE_MAX = 60.0


def sim_seats(game: str) -> tuple[int, int]:
    """The table sizes the simulated dealer deals ``game`` at: from two up to the game's most
    players and what its deck holds (a mixed game: its smallest game), as
    ``controller.sim.games.sim_seats`` says (tests/test_cli.py holds it to the dealer)."""
    from controller.sim.games import sim_seats as seats

    return seats(game)


def listen_problem(host: str, port: int) -> str | None:
    """Why the live view could not listen on host:port, or None: found before anything is
    started or journaled (the server itself fails in its own thread, with a traceback)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port,
                                                             type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as exc:
        return f"cannot resolve host {host!r}: {getattr(exc, 'strerror', None) or exc}"
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
        try:
            probe.bind(address)
        except OSError as exc:
            return f"cannot listen on {host}:{port}: {exc.strerror or exc}"
    return None


def cmd_sim(args: argparse.Namespace) -> int:
    from controller.processes.sim import SimOptions, new_journal_name, run_simulation
    from controller.security.audit import AuditError

    if args.journal is None:  # kept for review, in the current folder (docs: README)
        args.journal = str(new_journal_name(Path.cwd()))
    if not args.no_web:
        problem = listen_problem(args.host, args.port)
        if problem:
            return fail("sim", f"--host/--port: {problem}")
    for option, path in (("--truth", args.truth), ("--journal", args.journal)):
        problem = writable_problem(path) if path else None
        if problem:
            return fail("sim", f"{option} {path}: {problem}")

    opts = SimOptions(
        hands=args.hands,
        mistake_rate=args.mistakes,
        seed=args.seed,
        pace=args.pace,
        web=not args.no_web,
        host=args.host,
        port=args.port,
        journal_path=args.journal,
        rollover_hands=args.rollover_hands,
        dealer_token=args.dealer_token,
        accounts_path=args.accounts,
        central_url=args.central,
        table_id=args.table_id,
        central_login=login_values(args, "central"),
        truth_path=args.truth,
        seat_changes=args.seat_changes,
        game=args.game,
        structure=args.structure,
        seats=args.seats,
        chips=args.chips or args.chips_console,
        chips_console=args.chips_console,
        chip_mistake_rate=args.chip_mistakes,
        broadcast_delay_s=args.broadcast_delay,
        broadcast_findings=args.broadcast_findings,
        odds=not args.no_odds,
        tls=args.tls,
        tls_dir=args.tls_dir,
    )
    if opts.central_url:  # the login's settings and files, before the table starts
        from controller.processes.sim import central_access

        try:
            central_access(opts).check_files()
        except ValueError as exc:  # AccessError: one line naming the option
            return fail("sim", str(exc))
    opts.log_path = str(Path(args.journal).with_suffix(".log"))
    with log_beside(Path(opts.log_path), quiet=not args.verbose):
        try:
            return run_simulation(opts)
        except (ValueError, JournalError, AuditError) as exc:  # AccountError is a ValueError
            return fail("sim", str(exc))
        except OSError as exc:
            return fail("sim", f"{exc.filename or 'the table'}: {exc.strerror or exc}")


@contextlib.contextmanager
def log_beside(path: Path, *, quiet: bool) -> Iterator[None]:
    """The sim's log lines (logins, refusals, warnings) go to ``path``, beside its journal,
    instead of between the hand lines on the terminal, which keeps only errors; ``quiet``
    False (``-v``): everything stays on the terminal too."""
    root = logging.getLogger()
    handler = logging.FileHandler(path, encoding="utf-8", delay=True)
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    terminal = [h for h in root.handlers if type(h) is logging.StreamHandler]
    levels = [h.level for h in terminal]
    root.addHandler(handler)
    if quiet:
        for h in terminal:
            h.setLevel(max(h.level, logging.ERROR))
    try:
        yield
    finally:
        root.removeHandler(handler)
        handler.close()
        for h, level in zip(terminal, levels, strict=True):
            h.setLevel(level)


def check_sim(args: argparse.Namespace) -> None:
    """What one option alone cannot say: the seats and the structure the chosen game is
    simulated at."""
    lo, hi = sim_seats(args.game)
    if not lo <= args.seats <= hi:
        usage_error("feltguard sim", f"argument --seats: {args.game} is simulated at {lo}..{hi} "
                                     f"seats, got {args.seats}")
    if args.structure:
        from controller.poker.variants import ROTATIONS, table_game

        if args.game in ROTATIONS:
            usage_error("feltguard sim", f"argument --structure: {ROTATIONS[args.game].name} "
                                         "deals each game at its own structure")
        try:
            table_game(args.game, args.structure)
        except ValueError as exc:
            usage_error("feltguard sim", f"argument --structure: {exc}")


def add_sim_parser(sub: Any) -> None:
    """Add ``sim`` to the ``feltguard`` subcommands."""
    p = sub.add_parser("sim", help="a simulated table, dealt through the real driver path")
    p.add_argument("--hands", type=whole(0), default=0, help="hands to deal (0: until Ctrl-C)")
    p.add_argument("--mistakes", type=fraction(0, 1), default=0.2,
                   help="chance per hand that the dealer makes a mistake (0..1, default 0.2)")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    p.add_argument("--pace", type=fraction(0, PACE_MAX), default=None,
                   help=f"seconds between the dealer's moves (default 0.35 with the live view, "
                        f"0 with --no-web; 0: as fast as possible; at most {PACE_MAX:g})")
    p.add_argument("--no-web", action="store_true", help="do not start the live view")
    p.add_argument("--host", default="127.0.0.1", type=text("a host name or address"),
                   help="address the live view listens on (default 127.0.0.1, this machine "
                        "only, plain HTTP; any other: HTTPS, as a table serves, with an "
                        "authority made for the run or --tls-dir's: docs/security.md)")
    p.add_argument("--tls", action="store_true",
                   help="serve HTTPS on 127.0.0.1 too")
    p.add_argument("--tls-dir", default=None, type=text("a folder"), metavar="DIR",
                   help="the authority and server certificate to serve with (made there by "
                        "feltguard tls init's rules if absent, and kept)")
    p.add_argument("--port", type=whole(0, 65535), default=5000,
                   help="port of the live view (0: any free port)")
    p.add_argument("--journal", default=None, type=text("a file"),
                   help="journal file, kept (default: feltguard-sim-YYYYmmdd-HHMMSS.sqlite in "
                        "the current folder, its .key and .anchors beside it)")
    p.add_argument("--rollover-hands", type=whole(0), default=0, metavar="N",
                   help="roll the journal over to a new segment every N hands (default 0: one "
                        "file; docs/segments.md)")
    p.add_argument("--dealer-token", default=None, type=text("a token"),
                   help="token for the dealer view (default: random, written to a 0600 file "
                        "whose path is printed)")
    p.add_argument("--accounts", default=None, type=text("a file"), metavar="FILE",
                   help="per-user logins from this accounts file (feltguard user add "
                        "--accounts FILE), its audit log beside it; instead of the token")
    p.add_argument("--central", default=None, type=text("a redis:// URL"), metavar="URL",
                   help="forward every journaled event to the cardroom's Redis at URL "
                        "(feltguard surveillance collects them; docs/cardroom.md)")
    p.add_argument("--table-id", default="sim", type=table_name, metavar="ID",
                   help="this table's name in the cardroom (default sim)")
    add_redis_login_options(p, "central", "the table's ACL user at the cardroom's Redis "
                                          "(default table-ID)")
    p.add_argument("--seat-changes", type=fraction(0, 1), default=0.05,
                   help="chance per hand that, before it, a player goes away or comes back, "
                        "leaving, or a new player sitting down (0..1, default 0.05)")
    p.add_argument("--truth", default=None, type=text("a file"),
                   help="write the mistakes the dealer made to this file (JSON Lines)")
    from controller.sim.games import SIM_GAMES, STRUCTURE_CHOICES

    p.add_argument("--game", default="nlhe", choices=SIM_GAMES, metavar="GAME",
                   help="any game of docs/games.md: a variant id (nlhe by default, flhe, omaha, "
                        "omaha5, short_deck, pineapple, stud, razz, badugi, ...) or a mixed game "
                        "(horse, dealers_choice)")
    p.add_argument("--structure", default="", choices=STRUCTURE_CHOICES, metavar="STRUCTURE",
                   help="the betting structure (limit, pot-limit, no-limit, spread) where the "
                        "game is dealt at more than one (default: its usual one; none for a "
                        "mixed game)")
    p.add_argument("--seats", type=whole(2, 10), default=6,
                   help="players at the table (default 6; 2..the game's most players and what "
                        "its deck holds: hold'em 10, five-card Omaha 8, stud 6, ...)")
    p.add_argument("--chips", action="store_true",
                   help="the players bet with chips, read by a simulated chip reader "
                        "(docs/chips.md, Simulation)")
    p.add_argument("--chips-console", action="store_true",
                   help="with --chips, the dealer also enters each chip action at the console")
    p.add_argument("--chip-mistakes", type=fraction(0, 1), default=0.2,
                   help="with --chips, chance per hand without a dealing mistake that a chip "
                        "mistake is made (0..1, default 0.2)")
    p.add_argument("--broadcast-delay", type=fraction(0, 86_400), default=30.0,
                   metavar="SECONDS",
                   help="the /broadcast page shows every hole card this many seconds late "
                        "(default 30 for a demo on this machine; a real table's is [broadcast] "
                        "delay_s, 1800: docs/security.md)")
    p.add_argument("--broadcast-findings", action="store_true",
                   help="show the irregularity findings on /broadcast too (off air by default, "
                        "as [broadcast] findings = false)")
    p.add_argument("--no-odds", action="store_true",
                   help="no odds on /broadcast (they are computed in a worker process; as "
                        "[broadcast] odds = false)")
    p.set_defaults(func=cmd_sim, check=check_sim)

