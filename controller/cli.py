"""``feltguard``: the command line.

    feltguard run --config table.toml     the daemon at a real table
    feltguard sim [--hands N] [--mistakes RATE] ...
                                          a simulated 6-seat table with its live view
    feltguard replay FILE [--json]        replay a scenario (.jsonl) or a journal (.sqlite)
    feltguard verify JOURNAL              check a journal's hash chain
    feltguard phh replay FILE             replay PHH hands, compare with finishing_stacks
    feltguard phh export JOURNAL [-o OUT] the table's hands as PHH (.phhs)
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from controller.events import EventError
from controller.journal import JournalError, load_events, verify


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


def cmd_replay(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    from controller.rules import apply, initial_state, snapshot

    try:
        events = load_events(args.file)
    except (EventError, JournalError) as exc:
        print(f"feltguard replay: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"feltguard replay: {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    state = initial_state()
    n_findings = 0
    for event in events:
        step = apply(state, event)
        state = step.state
        for finding in step.findings:
            n_findings += 1
            data = finding.to_json()
            if args.json:
                out.write(json.dumps({"type": "finding", **data}) + "\n")
            else:
                _print_finding(data, out)
        if step.results:
            hand = int(snapshot(state)["hand"]["number"])
            pots = [a.to_json() for a in step.results]
            if args.json:
                out.write(json.dumps({"type": "pots", "hand": hand, "seq": event.seq,
                                      "pots": pots}) + "\n")
            else:
                _print_pots(hand, event.seq, pots, out)
    snap = snapshot(state)
    if args.json:
        out.write(json.dumps({"type": "state", "snapshot": snap}) + "\n")
    else:
        _print_state(snap, out)
        out.write(f"{len(events)} events, {n_findings} findings\n")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    try:
        bad = verify(args.journal)
    except JournalError as exc:
        print(f"feltguard verify: {exc}", file=sys.stderr)
        return 2
    if bad is None:
        print(f"{args.journal}: hash chain intact")
        return 0
    print(f"{args.journal}: hash chain broken at seq {bad}")
    return 1


def cmd_sim(args: argparse.Namespace) -> int:
    from controller.simulator import SimOptions, run_simulation

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
        truth_path=args.truth,
        seat_changes=args.seat_changes,
        game=args.game,
        seats=args.seats,
    )
    try:
        return run_simulation(opts)
    except ValueError as exc:
        print(f"feltguard sim: {exc}", file=sys.stderr)
        return 2


def cmd_run(args: argparse.Namespace) -> int:
    from controller.config import ConfigError, load
    from controller.runner import run_table

    try:
        config = load(args.config)
    except ConfigError as exc:
        print(f"feltguard run: {exc}", file=sys.stderr)
        return 2
    return run_table(config)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="feltguard", description=__doc__.split("\n\n")[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("run", help="run the daemon at a real table")
    p.add_argument("--config", required=True, help="table configuration (TOML)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("sim", help="a simulated table, dealt through the real driver path")
    p.add_argument("--hands", type=int, default=0, help="hands to deal (0: until Ctrl-C)")
    p.add_argument("--mistakes", type=float, default=0.2,
                   help="chance per hand that the dealer makes a mistake (0..1, default 0.2)")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    p.add_argument("--pace", type=float, default=0.35,
                   help="seconds between the dealer's moves (0: as fast as possible)")
    p.add_argument("--no-web", action="store_true", help="do not start the live view")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5000)
    p.add_argument("--journal", default=None,
                   help="journal file (default: a temporary file, removed at exit)")
    p.add_argument("--dealer-token", default=None,
                   help="token for the dealer view (default: random, printed at start)")
    p.add_argument("--seat-changes", type=float, default=0.05,
                   help="chance per hand that, before it, a player goes away or comes back, "
                        "leaving, or a new player sitting down (default 0.05)")
    p.add_argument("--truth", default=None,
                   help="write the mistakes the dealer made to this file (JSON Lines)")
    p.add_argument("--game", default="nlhe",
                   help="nlhe (default), or a stud game (stud, razz, stud8) or a draw game "
                        "(draw5, draw5_jacks, draw5_joker, a5_lowball, 27_single, 27_triple, "
                        "badugi)")
    p.add_argument("--seats", type=int, default=6, help="players at the table (default 6)")
    p.set_defaults(func=cmd_sim)

    p = sub.add_parser("replay", help="replay a scenario or a journal through the rules core")
    p.add_argument("file", help="scenario (.jsonl) or journal (SQLite)")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("verify", help="check a journal's hash chain")
    p.add_argument("journal")
    p.set_defaults(func=cmd_verify)

    from controller.phh.commands import add_phh_parser

    add_phh_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if not args.verbose:
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per poll otherwise
    return int(args.func(args))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

