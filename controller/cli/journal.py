"""``feltguard replay | verify | key``: a scenario or a journal through the rules core for a
person, a journal's keyed chain and anchors checked, and a new journal key."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from typing import Any, TextIO

from controller.cli.common import add_check_options, fail, journal_gate, text
from controller.events import EventError
from controller.journal import (
    JournalError,
    check,
    create_key,
    iter_events,
    key_id,
    key_path_for,
    last_seq,
    load_key,
    read_checkpoints,
    read_events,
)


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
    # a stud game has no button (the bring-in, then the best board, opens: RR Section 8 r.4),
    # and only the board games a board
    family = snap["table"].get("family")
    where = "" if family == "stud" or not hand["button"] else f", button {hand['button']}"
    if family == "board":
        where += f", board {_fmt_cards(hand['board'])}"
    out.write(f"\nfinal state after seq {snap['last_seq']}: hand {hand['number']}, "
              f"phase {hand['phase']}{where}\n")
    for seat in snap["seats"]:
        flags = [k for k in ("folded", "all_in") if seat.get(k)]
        out.write(f"  seat {seat['seat']:>2}  {seat['player']:<12} stack {seat['stack']:>7}  "
                  f"hole {_fmt_cards(seat.get('hole') or [])} {' '.join(flags)}\n")


_HAND_ENDS = ("hand.end", "misdeal.declared")


def cmd_replay(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    from controller.guard import guarded_apply
    from controller.rules import initial_state, snapshot

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
    n_events = n_findings = 0
    every = args.snapshots == "every"
    try:
        # streamed: one event in memory at a time, whatever the file's length; a snapshot
        # only where asked (--snapshots), the final state's always
        for event in iter_events(args.file):
            n_events += 1
            applied = guarded_apply(state, event, view=every)
            step = applied.step
            state = step.state
            at_hand_end = args.snapshots == "hand" and event.type in _HAND_ENDS
            if every or at_hand_end:
                snap = applied.snap if every else snapshot(state)
                if args.json:
                    out.write(json.dumps({"type": "state", "seq": event.seq,
                                          "snapshot": snap}) + "\n")
                else:
                    _print_state(dict(snap), out)
            for finding in step.findings:
                n_findings += 1
                data = finding.to_json()
                if args.json:
                    out.write(json.dumps({"type": "finding", **data}) + "\n")
                else:
                    _print_finding(data, out)
            if step.results:
                hand = state.hand.number if state.hand is not None else 0
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
    snap = snapshot(state)
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
        since = None
        if args.since_checkpoint:
            last_seq(args.journal)  # (the journal named first when it is missing or broken)
            key = load_key(args.key or key_path_for(args.journal))
            since = next((c for c in read_checkpoints(args.journal, key, args.anchors)
                          if c.problem is None), None)
        for _ in read_events(args.journal, after=since.seq if since is not None else 0):
            pass
        if since is not None:
            verdict = check(args.journal, key_path=args.key, anchors=args.anchors,
                            since=since.seq, since_hash=since.hash, checkpoints=False)
        else:
            verdict = check(args.journal, key_path=args.key, anchors=args.anchors)
    except JournalError as exc:
        return fail("verify", str(exc))
    except OSError as exc:
        return fail("verify", f"{args.journal}: {exc.strerror or exc}")
    if verdict.ok and args.checkpoints:
        try:
            problem, compared = replayed_checkpoints(args.journal, args.key, args.anchors)
        except JournalError as exc:
            return fail("verify", str(exc))
        if problem:
            print(f"{args.journal}: {problem}")
            return 1
        print(f"{args.journal}: every checkpoint ({compared}) is the state its replay reaches")
    if verdict.ok:
        tail = (f"; {verdict.unanchored} record(s) after the last anchor (a crash's tail: "
                "checked, but a cut there would not show)" if verdict.unanchored else "")
        where = (f" from its checkpoint at seq {since.seq} (the records up to it were checked "
                 "when it was kept)" if since is not None else
                 " (no checkpoint checks out: from the start)" if args.since_checkpoint else "")
        print(f"{args.journal}: intact{where}: {verdict.events} records chained under the key, "
              f"{verdict.anchors} anchor(s) found in it{tail}")
        return 0
    print(f"{args.journal}: {verdict.problem}")
    return 1


def replayed_checkpoints(path: str, key_file: str | None, anchors: str | None
                         ) -> tuple[str | None, int]:
    """Replay the whole journal and compare each checkpoint with the state the replay reaches
    at its seq (the same text: the core is deterministic). Returns the first problem, or None,
    and how many checkpoints were compared."""
    from controller.guard import guarded_apply
    from controller.rules import initial_state, state_to_text

    key = load_key(key_file or key_path_for(path))
    kept = {c.seq: c for c in read_checkpoints(path, key, anchors)}
    state = initial_state()
    compared = 0
    for event in read_events(path):
        state = guarded_apply(state, event).step.state
        cp = kept.get(event.seq)
        if cp is None:
            continue
        if cp.problem is not None:
            return f"the checkpoint at seq {cp.seq}: {cp.problem}", compared
        if cp.text != state_to_text(state):
            return (f"the checkpoint at seq {cp.seq} does not match its replay: a restart from "
                    "it would not be the table the journal holds"), compared
        compared += 1
    return None, compared


def cmd_key(args: argparse.Namespace) -> int:
    """A new journal key, for the install (docs/security.md)."""
    try:
        key = create_key(args.path)
    except JournalError as exc:
        return fail("key", str(exc))
    print(f"{args.path}: a new journal key (id {key_id(key)}, mode 0600); keep a copy apart "
          "from the journal")
    return 0


def add_journal_parsers(sub: Any) -> None:
    """Add ``replay``, ``verify`` and ``key`` to the ``feltguard`` subcommands."""
    p = sub.add_parser("replay", help="replay a scenario or a journal through the rules core "
                       "(a journal is checked first)")
    p.add_argument("file", type=text("a file"), help="scenario (.jsonl) or journal (SQLite)")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.add_argument("--snapshots", choices=("none", "hand", "every"), default="none",
                   help="the table's state (the snapshot of docs/snapshot.md) after every "
                        "event, after each hand's end, or (default) only at the end: a "
                        "snapshot is two thirds of an event's replay")
    add_check_options(p, force=True)
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("verify", help="check a journal: its keyed hash chain and its anchors")
    p.add_argument("journal", type=text("a file"))
    add_check_options(p, force=False)
    p.add_argument("--checkpoints", action="store_true",
                   help="also replay the whole journal and compare every checkpoint with the "
                        "state its replay reaches (slow: an audit)")
    p.add_argument("--since-checkpoint", action="store_true",
                   help="check from the newest checkpoint that checks out (its HMAC, its place "
                        "in the chain, its anchor) to the end, not from the start")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("key", help="create a journal key file (0600; never overwritten)")
    p.add_argument("path", type=text("a file"))
    p.set_defaults(func=cmd_key)

