"""``feltguard replay | verify | key | journal archive``: a scenario or a journal through the
rules core for a person, a journal's keyed chain and anchors checked (a whole run of segments
as one chain: docs/segments.md), a new journal key, and a run's old segments archived."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from controller.cli.common import (
    add_check_options,
    fail,
    journal_gate,
    refuse_or_force,
    text,
    whole,
)
from controller.events import Event, EventError
from controller.journal import (
    Checkpoint,
    JournalDamaged,
    JournalError,
    archive_segments,
    check,
    create_key,
    is_journal_file,
    iter_events,
    key_id,
    key_path_for,
    last_seq,
    load_key,
    read_checkpoints,
    read_events,
    run_opening,
)

if TYPE_CHECKING:
    from controller.rules import TableState


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


@dataclass
class _Span:
    """The part of a replay to print (``--hand N``, or ``--from SEQ``/``--to SEQ``): the
    events from the one that opens hand N to the one that ends it (the first after which hand
    N is no longer in play), or the events of seq ``first`` to ``last``. ``inside`` says
    whether the event just applied is in it; ``done`` that nothing after it is."""

    hand: int | None = None
    first: int = 1
    last: int | None = None
    opened: int | None = None  # the seq of the first event printed
    closed: int | None = None  # the seq of the last event printed
    done: bool = False

    def step(self, seq: int, state: TableState) -> bool:
        if self.hand is not None:
            h = state.hand
            playing = h is not None and h.number == self.hand and h.in_play
            if self.opened is None and not playing:
                return False
            if not playing:
                self.done = True
        else:
            if seq < self.first:
                return False
            if self.last is not None and seq >= self.last:
                self.done = True
                if seq > self.last:
                    return False
        if self.opened is None:
            self.opened = seq
        self.closed = seq
        return True

    def before(self, seq: int, state: TableState) -> bool:
        """A state at ``seq`` (a checkpoint's) is before the span: replaying from it misses
        nothing to print."""
        if self.hand is not None:
            return state.hand_number < self.hand
        return seq < self.first

    def named(self) -> str:
        if self.hand is not None:
            return f"hand {self.hand}"
        return f"seq {self.first} to {self.last if self.last is not None else 'the end'}"


def _span(args: argparse.Namespace) -> _Span | str | None:
    """The span the options ask for, None for the whole file, or why the options are wrong."""
    first, last = getattr(args, "from_seq", None), getattr(args, "to_seq", None)
    hand = getattr(args, "hand", None)
    if hand is None and first is None and last is None:
        return None
    if hand is not None and (first is not None or last is not None):
        return "--hand or --from/--to, not both"
    if first is not None and last is not None and first > last:
        return f"--from {first} is after --to {last}"
    return _Span(hand=hand, first=first or 1, last=last)


# a walk back through the checkpoints rereads the anchor file's tail for each one
# (journal.read_checkpoints), so a walk far back costs more than the replay it saves: past this
# many seconds (or the replay's likely cost, when more) the replay starts from the beginning
_WALK_SECONDS = 1.0
_REPLAY_SECONDS_PER_EVENT = 40e-6


def _seek(path: str, args: argparse.Namespace, span: _Span
          ) -> tuple[TableState, Checkpoint | None, list[str]]:
    """The newest checkpoint before the span that checks out and loads, and its state (the
    initial state and None when there is none: a scenario, a journal without one, a span at
    the journal's start), with a line for each checkpoint passed over."""
    from controller.rules import CheckpointError, initial_state, state_from_text

    notes: list[str] = []
    if not is_journal_file(path) or (span.hand is None and span.first == 1):
        return initial_state(), None, notes
    try:
        key = load_key(args.key or key_path_for(path))
    except JournalError:
        return initial_state(), None, notes  # (the gate says it, or --force reads unchecked)
    budget = max(_WALK_SECONDS, span.first * _REPLAY_SECONDS_PER_EVENT)
    started = time.monotonic()
    estimated = False
    for walked, cp in enumerate(read_checkpoints(path, key, args.anchors), start=1):
        if span.hand is None and cp.seq >= span.first:
            pass  # (after the span's start: not read)
        elif cp.problem is not None:
            notes.append(f"the checkpoint at seq {cp.seq} is passed over: {cp.problem}")
        else:
            try:
                state = state_from_text(cp.text)
            except CheckpointError as exc:
                notes.append(f"the checkpoint at seq {cp.seq} is passed over: {exc}")
            else:
                if span.before(cp.seq, state):
                    return state, cp, notes
                if span.hand is not None and not estimated and state.hand_number:
                    estimated = True
                    # where hand N likely starts, from the hands dealt by this checkpoint's seq:
                    # the replay from the start that a longer walk would save
                    likely = cp.seq * span.hand // state.hand_number
                    budget = max(budget, likely * _REPLAY_SECONDS_PER_EVENT)
        if time.monotonic() - started > budget:
            notes.append(f"the checkpoints before {span.named()} lie too far back "
                         f"({walked} read)")
            break
    return initial_state(), None, notes


def _gate_since(path: str, args: argparse.Namespace, cp: Checkpoint) -> int | None:
    """``journal_gate`` for a replay from a checkpoint: the chain checked from it to the end
    (and the anchors after it), as ``verify --since-checkpoint`` checks it; the records up to
    it were checked when it was kept, and its own HMAC, chain hash and anchor were just
    checked."""
    try:
        verdict = check(path, key_path=args.key, anchors=args.anchors, since=cp.seq,
                        since_hash=cp.hash, checkpoints=False)
    except JournalError as exc:
        return fail("replay", str(exc))
    return refuse_or_force("replay", path, verdict.problem, args)


def cmd_replay(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    from controller.guard import guarded_apply
    from controller.rules import initial_state, snapshot

    span = _span(args)
    if isinstance(span, str):
        return fail("replay", span)
    state = initial_state()
    cp: Checkpoint | None = None
    if span is not None:
        if is_journal_file(args.file) and span.hand is None:
            try:
                end = last_seq(args.file)
            except JournalError as exc:
                return fail("replay", str(exc))
            if span.first > end:
                return fail("replay", f"{args.file}: --from {span.first} is beyond its last "
                                      f"record (seq {end})")
        try:
            state, cp, notes = _seek(args.file, args, span)
        except JournalError as exc:
            return fail("replay", str(exc))
        where = f"the checkpoint at seq {cp.seq}" if cp is not None else "the start"
        for note in notes:
            print(f"feltguard replay: {note}; replaying from {where}", file=sys.stderr)
    gate = (_gate_since(args.file, args, cp) if cp is not None
            else journal_gate("replay", args.file, args))
    if gate is not None:
        return gate
    forced = getattr(args, "forced_problem", None)
    if forced is not None:
        if args.json:
            out.write(json.dumps({"type": "warning", "file": args.file, "problem": forced,
                                  "forced": True}) + "\n")
        else:
            out.write(f"WARNING: {args.file}: {forced}; replayed anyway (--force)\n\n")
    n_events = n_findings = 0
    every = args.snapshots == "every"
    try:
        # streamed: one event in memory at a time, whatever the file's length; a snapshot
        # only where asked (--snapshots), the final state's always
        if cp is not None:
            events = read_events(args.file, after=cp.seq)
        else:  # (a run whose start is archived: from its first segment's opening checkpoint)
            state, events = run_start(args.file)
        for event in events:
            applied = guarded_apply(state, event, view=every)
            step = applied.step
            state = step.state
            if span is not None and not span.step(event.seq, state):
                if span.done:
                    break
                continue
            n_events += 1
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
            if span is not None and span.done:
                break
    except (EventError, JournalError) as exc:
        return fail("replay", str(exc))
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            raise
        return fail("replay", f"{args.file}: {exc.strerror or exc}")
    if span is not None and span.opened is None:
        what = (f"no hand {span.hand} in it" if span.hand is not None
                else f"no record from seq {span.first} on")
        return fail("replay", f"{args.file}: {what}")
    if not n_events:
        return fail("replay", f"{args.file}: no events in it")
    snap = snapshot(state)
    if args.json:
        if span is not None:
            out.write(json.dumps({"type": "span", "hand": span.hand, "first": span.opened,
                                  "last": span.closed,
                                  "checkpoint": cp.seq if cp is not None else None}) + "\n")
        out.write(json.dumps({"type": "state", "snapshot": snap}) + "\n")
    else:
        _print_state(dict(snap), out)
        if span is not None:
            from_cp = f"; replayed from the checkpoint at seq {cp.seq}" if cp is not None else ""
            out.write(f"{span.named()}: seq {span.opened} to {span.closed}{from_cp}\n")
        out.write(f"{n_events} events, {n_findings} findings\n")
    return 0


def run_start(path: str) -> tuple[TableState, Iterator[Event]]:
    """Where a reading of ``path`` starts: a new table and every event, or, for a run whose
    start was archived (docs/segments.md), the state of its first segment's opening checkpoint
    and the events after it. JournalError for an opening checkpoint that does not check out."""
    from controller.rules import CheckpointError, initial_state, state_from_text

    opening = run_opening(path) if is_journal_file(path) else None
    if opening is None:
        return initial_state(), iter_events(path)
    if opening.problem is not None:
        raise JournalError(f"{path}: the run's start is archived, and {opening.problem}")
    try:
        state = state_from_text(opening.text)
    except CheckpointError as exc:
        raise JournalError(f"{path}: the run's start is archived, and its opening checkpoint "
                           f"does not read back: {exc}") from None
    return state, read_events(path, after=opening.seq)


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
        if since is not None:
            verdict = check(args.journal, key_path=args.key, anchors=args.anchors,
                            since=since.seq, since_hash=since.hash, checkpoints=False)
        else:
            verdict = check(args.journal, key_path=args.key, anchors=args.anchors,
                            archive=args.archive)
        if verdict.ok:  # (a run with its start archived: from the first segment it has)
            opening = run_opening(args.journal) if since is None else None
            start = since.seq if since is not None else opening.seq if opening else 0
            for _ in read_events(args.journal, after=start):
                pass
    except JournalDamaged as exc:  # a segment cut short or damaged: the journal's own fault
        print(f"{exc}")
        return 1
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
    for note in verdict.notes:
        print(f"{args.journal}: {note}")
    if verdict.ok:
        tail = (f"; {verdict.unanchored} record(s) after the last anchor (a crash's tail: "
                "checked, but a cut there would not show)" if verdict.unanchored else "")
        where = (f" from its checkpoint at seq {since.seq} (the records up to it were checked "
                 "when it was kept)" if since is not None else
                 " (no checkpoint checks out: from the start)" if args.since_checkpoint else "")
        run = f" ({verdict.segments} segments)" if verdict.segments > 1 else ""
        print(f"{args.journal}: intact{where}{run}: {verdict.events} records chained under the "
              f"key, {verdict.anchors} anchor(s) found in it{tail}")
        if verdict.damaged:
            print(f"{args.journal}: {verdict.damaged}")
            return 1
        return 0
    print(f"{args.journal}: {verdict.problem}")
    return 1


def cmd_archive(args: argparse.Namespace) -> int:
    """``feltguard journal archive``: the run's old sealed segments compressed and moved."""
    try:
        done = archive_segments(args.journal, args.to, keep=args.keep,
                                older_than_s=(args.older_than * 86400
                                              if args.older_than is not None else None))
    except JournalError as exc:
        return fail("journal archive", str(exc))
    for a in done:
        print(f"{args.journal}: seq {a.first}..{a.last} archived: {a.segment} -> {a.file}")
    print(f"{args.journal}: {len(done)} segment(s) archived"
          + ("" if done else " (none old enough)"))
    return 0


def replayed_checkpoints(path: str, key_file: str | None, anchors: str | None
                         ) -> tuple[str | None, int]:
    """Replay the whole journal and compare each checkpoint with the state the replay reaches
    at its seq (the same text: the core is deterministic). Returns the first problem, or None,
    and how many checkpoints were compared."""
    from controller.guard import guarded_apply
    from controller.rules import state_to_text

    key = load_key(key_file or key_path_for(path))
    kept: dict[int, list[Any]] = {}  # (a run: a segment's last and the next one's opening)
    for c in read_checkpoints(path, key, anchors):
        kept.setdefault(c.seq, []).append(c)
    state, events = run_start(path)
    compared = 0
    for event in events:
        state = guarded_apply(state, event).step.state
        for cp in kept.get(event.seq, ()):
            if cp.problem is not None:
                return f"the checkpoint at seq {cp.seq}: {cp.problem}", compared
            if cp.text != state_to_text(state):
                return (f"the checkpoint at seq {cp.seq} does not match its replay: a restart "
                        "from it would not be the table the journal holds"), compared
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
    p.add_argument("--hand", type=whole(1), default=None, metavar="N",
                   help="print only hand N: from the event that opens it to the one that ends "
                        "it; a journal is replayed from its newest checkpoint before it")
    p.add_argument("--from", dest="from_seq", type=whole(1), default=None, metavar="SEQ",
                   help="print only the events from seq SEQ on (from the newest checkpoint "
                        "before it)")
    p.add_argument("--to", dest="to_seq", type=whole(1), default=None, metavar="SEQ",
                   help="print only the events up to seq SEQ, and stop there")
    add_check_options(p, force=True)
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("verify", help="check a journal: its keyed hash chain and its anchors")
    p.add_argument("journal", type=text("a file"))
    add_check_options(p, force=False)
    p.add_argument("--checkpoints", action="store_true",
                   help="also replay the whole journal and compare every checkpoint with the "
                        "state its replay reaches (slow: an audit)")
    p.add_argument("--archive", default=None, type=text("a folder"), metavar="DIR",
                   help="the folder of the run's archived segments (feltguard journal archive): "
                        "check them too, from the run's first record")
    p.add_argument("--since-checkpoint", action="store_true",
                   help="check from the newest checkpoint that checks out (its HMAC, its place "
                        "in the chain, its anchor) to the end, not from the start")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("key", help="create a journal key file (0600; never overwritten)")
    p.add_argument("path", type=text("a file"))
    p.set_defaults(func=cmd_key)

    p = sub.add_parser("journal", help="a journal's run of segments (docs/segments.md)")
    commands = p.add_subparsers(dest="journal_command", required=True)
    c = commands.add_parser("archive", help="compress the run's old sealed segments (xz) into "
                            "DIR and remove them from beside the live one; the running table "
                            "never needs them")
    c.add_argument("journal", type=text("a file"), help="the live segment (the configured "
                   "[journal] path)")
    c.add_argument("--to", required=True, type=text("a folder"), metavar="DIR",
                   help="where the compressed segments go (an existing folder)")
    c.add_argument("--keep", type=whole(0), default=1, metavar="N",
                   help="keep the newest N sealed segments beside the live one (default 1)")
    c.add_argument("--older-than", type=whole(0), default=None, metavar="DAYS",
                   help="only segments sealed at least DAYS days ago")
    c.set_defaults(func=cmd_archive)

