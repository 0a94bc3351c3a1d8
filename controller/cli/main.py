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
    feltguard chips enrol --set ID --denomination N --reader URL -o FILE
                                          chips of one denomination into a chip set
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import socket
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from controller.events import EventError
from controller.journal import (
    JournalError,
    check,
    create_key,
    is_journal_file,
    iter_events,
    key_id,
    key_path_for,
    read_events,
)


def fail(command: str, message: str) -> int:
    """Bad input: one line on standard error, ``feltguard COMMAND: message``; returns 2.

    One line even when the message (a path, a library's text) holds a line break."""
    text = f"feltguard {command}: {message}".replace("\r", "\\r").replace("\n", "\\n")
    print(text, file=sys.stderr)
    return 2


def _fmt_cards(cards: Iterable[str]) -> str:
    return " ".join(cards) or "-"


def _print_finding(f: dict[str, Any], out: TextIO) -> None:
    rule = f["rule"]
    seats = ", ".join(str(s) for s in f["seats"]) or "-"
    out.write(f"seq {f['seq']:>5}  {f['code']} [{f['severity']}]  seats {seats}  "
              f"cards {_fmt_cards(f['cards'])}\n")
    out.write(f"           {f['message']}\n")
    out.write(f"           rule: {rule['file']}, {rule['section']}, rule {rule['rule']}\n")
    steps = [s for s in f["remedy"] if s != f["message"]]  # the remedy may restate the case
    for i, step in enumerate(steps, start=1):
        out.write(f"           {i}. {step}\n")


def _print_pots(hand: int, seq: int, pots: list[dict[str, Any]], out: TextIO) -> None:
    out.write(f"seq {seq:>5}  hand {hand} pots:\n")
    for pot in pots:
        shares = ", ".join(f"seat {s}: {c}" for s, c in pot["shares"].items())
        eligible = ",".join(str(s) for s in pot["eligible"])
        hand_name = f"  ({pot['hand']})" if pot.get("hand") else ""
        out.write(f"           {pot['amount']} (eligible {eligible}) -> {shares}{hand_name}\n")


def _print_state(snap: dict[str, Any], out: TextIO) -> None:
    hand = snap["hand"]
    out.write(f"\nfinal state after seq {snap['last_seq']}: hand {hand['number']}, "
              f"phase {hand['phase']}, button {hand['button']}, "
              f"board {_fmt_cards(hand['board'])}\n")
    for seat in snap["seats"]:
        flags = [k for k in ("folded", "all_in") if seat.get(k)]
        out.write(f"  seat {seat['seat']:>2}  {seat['player']:<12} stack {seat['stack']:>7}  "
                  f"hole {_fmt_cards(seat.get('hole') or [])} {' '.join(flags)}\n")


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


def cmd_replay(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    from controller.guard import guarded_apply
    from controller.rules import initial_state

    gate = journal_gate("replay", args.file, args)
    if gate is not None:
        return gate
    forced = getattr(args, "forced_problem", None)
    if forced is not None:
        if args.json:
            out.write(json.dumps({"type": "warning", "file": args.file, "problem": forced,
                                  "forced": True}) + "\n")
        else:
            out.write(f"WARNING: {args.file}: {forced}; replayed anyway (--force)\n\n")
    state = initial_state()
    snap: Mapping[str, Any] = {}
    n_events = n_findings = 0
    try:
        # streamed: one event in memory at a time, whatever the file's length
        for event in iter_events(args.file):
            n_events += 1
            applied = guarded_apply(state, event)
            step, snap = applied.step, applied.snap
            state = step.state
            for finding in step.findings:
                n_findings += 1
                data = finding.to_json()
                if args.json:
                    out.write(json.dumps({"type": "finding", **data}) + "\n")
                else:
                    _print_finding(data, out)
            if step.results:
                hand = int(snap["hand"]["number"])
                pots = [a.to_json() for a in step.results]
                if args.json:
                    out.write(json.dumps({"type": "pots", "hand": hand, "seq": event.seq,
                                          "pots": pots}) + "\n")
                else:
                    _print_pots(hand, event.seq, pots, out)
    except (EventError, JournalError) as exc:
        return fail("replay", str(exc))
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            raise
        return fail("replay", f"{args.file}: {exc.strerror or exc}")
    if not n_events:
        return fail("replay", f"{args.file}: no events in it")
    if args.json:
        out.write(json.dumps({"type": "state", "snapshot": snap}) + "\n")
    else:
        _print_state(dict(snap), out)
        out.write(f"{n_events} events, {n_findings} findings\n")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    try:
        # every record first: a missing or broken journal is the problem to name (not the key
        # file beside it, missing too), and a chain intact over a record that no longer parses
        # is still a journal that cannot be replayed
        for _ in read_events(args.journal):
            pass
        verdict = check(args.journal, key_path=args.key, anchors=args.anchors)
    except JournalError as exc:
        return fail("verify", str(exc))
    except OSError as exc:
        return fail("verify", f"{args.journal}: {exc.strerror or exc}")
    if verdict.ok:
        tail = (f"; {verdict.unanchored} record(s) after the last anchor (a crash's tail: "
                "checked, but a cut there would not show)" if verdict.unanchored else "")
        print(f"{args.journal}: intact: {verdict.events} records chained under the key, "
              f"{verdict.anchors} anchor(s) found in it{tail}")
        return 0
    print(f"{args.journal}: {verdict.problem}")
    return 1


def cmd_key(args: argparse.Namespace) -> int:
    """A new journal key, for the install (docs/security.md)."""
    try:
        key = create_key(args.path)
    except JournalError as exc:
        return fail("key", str(exc))
    print(f"{args.path}: a new journal key (id {key_id(key)}, mode 0600); keep a copy apart "
          "from the journal")
    return 0


def add_check_options(p: argparse.ArgumentParser, *, force: bool) -> None:
    """The journal key and anchor file options of every command that checks a journal."""
    p.add_argument("--key", default=None, type=text("a file"),
                   help="the journal's key file (default: JOURNAL.key beside it)")
    p.add_argument("--anchors", default=None, type=text("a file"),
                   help="the journal's anchor file (default: JOURNAL.anchors beside it)")
    if force:
        p.add_argument("--force", action="store_true",
                       help="read a journal that fails its check, under a loud warning")


def sim_seats(game: str) -> tuple[int, int]:
    """The table sizes the simulated dealer deals ``game`` at: from two up to the game's most
    players and what its deck holds (a mixed game: its smallest game), as
    ``controller.sim.games.sim_seats`` says (tests/test_cli.py holds it to the dealer)."""
    from controller.sim.games import sim_seats as seats

    return seats(game)


def _listen_problem(host: str, port: int) -> str | None:
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


def _writable_problem(path: str) -> str | None:
    """Why a file could not be written at ``path``, or None (it may not exist yet)."""
    p = Path(path)
    if p.is_dir():
        return "is a directory"
    parent = p.parent
    if not parent.is_dir():
        return f"no directory {str(parent)!r} to write it in"
    if not os.access(p if p.exists() else parent, os.W_OK):
        return "permission denied"
    return None


def cmd_sim(args: argparse.Namespace) -> int:
    from controller.processes.sim import SimOptions, new_journal_name, run_simulation
    from controller.security.audit import AuditError

    if args.journal is None:  # kept for review, in the current folder (docs: README)
        args.journal = str(new_journal_name(Path.cwd()))
    if not args.no_web:
        problem = _listen_problem(args.host, args.port)
        if problem:
            return fail("sim", f"--host/--port: {problem}")
    for option, path in (("--truth", args.truth), ("--journal", args.journal)):
        problem = _writable_problem(path) if path else None
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
        dealer_token=args.dealer_token,
        accounts_path=args.accounts,
        central_url=args.central,
        table_id=args.table_id,
        truth_path=args.truth,
        seat_changes=args.seat_changes,
        game=args.game,
        structure=args.structure,
        seats=args.seats,
        chips=args.chips or args.chips_console,
        chips_console=args.chips_console,
        chip_mistake_rate=args.chip_mistakes,
        broadcast_delay_s=args.broadcast_delay,
    )
    try:
        return run_simulation(opts)
    except (ValueError, JournalError, AuditError) as exc:  # AccountError is a ValueError
        return fail("sim", str(exc))
    except OSError as exc:
        return fail("sim", f"{exc.filename or 'the table'}: {exc.strerror or exc}")


def cmd_surveillance(args: argparse.Namespace) -> int:
    from controller.processes.cardroom import SurveillanceOptions, run_surveillance

    if not args.redis.startswith(("redis://", "rediss://", "unix://")):
        return fail("surveillance", f"--redis: must be a redis://, rediss:// or unix:// URL, "
                                    f"got {args.redis!r}")
    return run_surveillance(SurveillanceOptions(
        redis_url=args.redis, store_path=args.store, host=args.host, port=args.port,
        web=not args.no_web, accounts_path=args.accounts))


def cmd_run(args: argparse.Namespace) -> int:
    from controller.config import ConfigError, load
    from controller.processes.table import run_table

    try:
        config = load(args.config)
    except ConfigError as exc:
        return fail("run", str(exc))
    if config.deck_file:  # checked before anything starts, and named with the config
        from controller.tags.deckfile import table_registry

        try:
            table_registry(config)
        except ConfigError as exc:
            return fail("run", f"{args.config}: {exc}")
    if config.port:
        problem = _listen_problem(config.host, config.port)
        if problem:
            return fail("run", f"{args.config}: display: {problem}")
    # The typed console only at a terminal (or --console): under systemd stdin is /dev/null.
    at_terminal = sys.stdin is not None and sys.stdin.isatty()  # (None: started with none)
    stdin = sys.stdin if args.console or at_terminal else None
    try:
        return run_table(config, stdin)
    except JournalError as exc:  # journal.path: not a journal, damaged, another key, ...
        return fail("run", f"{exc} (journal.path of {args.config})")


class Parser(argparse.ArgumentParser):
    """argparse, with its errors on one line (``feltguard sim: argument --seats: ...``) instead
    of the usage block and the error; exit status 2 as argparse has it. Subcommand parsers are
    of this class too (add_subparsers makes them of the parent's class)."""

    def error(self, message: str) -> NoReturn:
        usage_error(self.prog, message)


def usage_error(prog: str, message: str) -> NoReturn:
    print(f"{prog}: {message} (see {prog} --help)".replace("\n", " "), file=sys.stderr)
    sys.exit(2)


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
    """An argparse type: a table's id in the cardroom (controller.surveillance.relay.table_id)."""
    from controller.surveillance.relay import table_id

    try:
        return table_id(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("table id ")) from None


# The dealer's pause between moves: a minute is already a table asleep.
PACE_MAX = 60.0


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="feltguard", description=__doc__.split("\n\n")[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    parser.add_argument("--version", action="version", version=f"feltguard {package_version()}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("run", help="run the daemon at a real table")
    p.add_argument("--config", required=True, type=text("a file"),
                   help="table configuration (TOML)")
    p.add_argument("--console", action="store_true",
                   help="read dealer console lines on standard input even when it is not a "
                        "terminal (at a terminal it is read anyway)")
    p.set_defaults(func=cmd_run)

    from controller.cli.udev import add_udev_parser

    add_udev_parser(sub)

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
                        "only; 0.0.0.0 for a tablet on the network: docs/display.md)")
    p.add_argument("--port", type=whole(0, 65535), default=5000,
                   help="port of the live view (0: any free port)")
    p.add_argument("--journal", default=None, type=text("a file"),
                   help="journal file, kept (default: feltguard-sim-YYYYmmdd-HHMMSS.sqlite in "
                        "the current folder, its .key and .anchors beside it)")
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
    p.set_defaults(func=cmd_sim)

    p = sub.add_parser("replay", help="replay a scenario or a journal through the rules core "
                       "(a journal is checked first)")
    p.add_argument("file", type=text("a file"), help="scenario (.jsonl) or journal (SQLite)")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    add_check_options(p, force=True)
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("verify", help="check a journal: its keyed hash chain and its anchors")
    p.add_argument("journal", type=text("a file"))
    add_check_options(p, force=False)
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("key", help="create a journal key file (0600; never overwritten)")
    p.add_argument("path", type=text("a file"))
    p.set_defaults(func=cmd_key)

    from controller.cli.phh import add_phh_parser

    add_phh_parser(sub)
    from controller.cli.config_check import add_config_parser

    add_config_parser(sub)
    from controller.cli.deck import add_deck_parser

    add_deck_parser(sub)
    from controller.cli.chips import add_chips_parser

    add_chips_parser(sub)
    from controller.cli.users import add_user_parser

    add_user_parser(sub)
    p = sub.add_parser("surveillance", help="the cardroom's central service: every table's "
                       "events from Redis into one store, and the review of every table")
    p.add_argument("--redis", required=True, type=text("a redis:// URL"), metavar="URL",
                   help="the Redis the tables relay to ([central] url of each table)")
    p.add_argument("--store", required=True, type=text("a file"), metavar="FILE",
                   help="the central store (SQLite), created if absent")
    p.add_argument("--host", default="127.0.0.1", help="where the review listens")
    p.add_argument("--port", type=whole(0, 65535), default=5100,
                   help="port of the review (default 5100; 0: any free port)")
    p.add_argument("--accounts", default=None, type=text("a file"), metavar="FILE",
                   help="the surveillance accounts (feltguard user add --accounts FILE; "
                        "the audit log beside it); needed unless --no-web")
    p.add_argument("--no-web", action="store_true", help="collect only")
    p.set_defaults(func=cmd_surveillance)
    return parser


def package_version() -> str:
    """The installed package's version (pyproject.toml), as pip knows it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("feltguard")
    except PackageNotFoundError:  # run from a source tree never installed
        return "unknown (not installed)"


def _check_sim(args: argparse.Namespace) -> None:
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


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.func is cmd_sim:
        _check_sim(args)
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
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

