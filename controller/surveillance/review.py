"""The surveillance review: a table's past hands, read from its journal, never from the live table.

Everything here is built by replaying the journal's events through the rules core on the
daemon's path (``controller.guard.guarded_apply``: ``apply`` then ``snapshot``), so a review
shows exactly the states and findings the table had, and reading it cannot disturb the table.
Three things come out (docs/review.md):

- the hand index (``HandSummary``): number, first/last seq and time, game, seats and players,
  finding codes, outcome and pots; searchable (``Query``: time, seat, player, finding code,
  game), newest first;
- a hand stepped through (``hand_steps``): each event with the snapshot after it cut to what
  the officer reads (the board, each seat's cards and bets, the pots, the findings with their
  remedy moves still due, the readers' and chips' health), and every card's trail;
- the findings timeline (``FindingRecord``), each finding with its status:

  - ``ruled``: a later ``floor.ruling`` in the same hand names its code (the ruling's text);
  - ``remedied``: the monitor saw the remedy carried out, by the core's own remedy tracking
    (the snapshot's ``remedy_due``): moves were due for it and then none were, while the hand
    was still in play and no REMEDY_NOT_FOLLOWED named it; or it is a misdeal-level finding
    and ``misdeal.declared`` voided the hand (the remedy such findings call for);
  - ``open``: anything else (the monitor cannot see a spoken remedy carried out).

Cost (``Review``; measured figures in docs/review.md): the index is one replay of the journal,
kept per journal together with the state after the last event and the table at the start of
every 16th hand, and kept with the journal too (``review_store``: ``<journal>.review.sqlite``),
so a review opened again, in another process or after a restart, replays only the events
after the seq the file holds. When the journal grows, only the new events are replayed
(``read_events(after=...)``); a hand opened replays the hands between the nearest kept start
and it (at most 15), then its own events with a snapshot each. A request therefore costs one
indexed ``MAX(seq)`` query plus the new events, and a hand opened at most 16 hands' events.

The pure part (``Indexer``, ``hand_steps``, ``search``, ``parse_query``) takes events and
returns plain data; ``Review`` is the imperative shell around one journal file.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from controller.events import (
    Event,
    FloorRuling,
    HandStart,
    MisdealDeclared,
    ShoeDraw,
    ZoneLeave,
    ZoneRead,
)
from controller.guard import guarded_apply
from controller.journal import (
    JournalError,
    is_journal_file,
    iter_events,
    last_seq,
    read_events,
    run_opening,
)
from controller.poker.odds import Spot, figure, spot_of
from controller.rules import (
    CheckpointError,
    TableState,
    initial_state,
    snapshot,
    state_from_text,
)
from controller.surveillance.central_store import read_store_events, store_last_seq
from controller.surveillance.review_store import KeptStarts, Loaded, ReviewStore
from controller.surveillance.review_words import event_words, pot_lines, result_words

Snapshot = Mapping[str, Any]
log = logging.getLogger(__name__)

OPEN, REMEDIED, RULED = "open", "remedied", "ruled"
NOT_IN_PLAY = frozenset({"complete", "misdeal", "idle"})
# REMEDY_NOT_FOLLOWED names the finding whose remedy was missed as "CODE (seq N)" in its text
# (controller/rules/procedure/remedy.py, ``not_followed``).
_AFTER = re.compile(r"\b([A-Z][A-Z0-9_]+) \(seq ([0-9]+)\)")
MAX_LIMIT = 1000


class QueryError(ValueError):
    """A search the review cannot run: one line that says why."""


class ReviewError(LookupError):
    """A hand the journal does not hold: one line that says which."""


# --- the index --------------------------------------------------------------------------------


@dataclass
class FindingRecord:
    """A finding as surveillance follows it across hands: where it was raised and its status."""

    hand: int
    seq: int  # the finding's own seq: the event it is about (a card's draw, say)
    raised_seq: int  # the event at which the core raised it (the zone read that showed it)
    ts: int  # the time of the event that raised it
    data: dict[str, Any]  # Finding.to_json(): code, severity, title, message, rule, remedy...
    status: str = OPEN
    status_seq: int | None = None  # the event that remedied or ruled it
    status_ts: int | None = None
    ruling: str | None = None  # the floor's text (status ruled)
    outcome: str | None = None  # the ruling's outcome: stand or void
    had_due: bool = False  # the monitor waited for moves of its remedy at some event
    not_followed: int | None = None  # the seq of a REMEDY_NOT_FOLLOWED that named it

    @property
    def code(self) -> str:
        return str(self.data["code"])

    @property
    def key(self) -> str:
        return f"{self.code} (seq {self.seq})"

    def record(self) -> dict[str, Any]:
        """Every field, as the kept index holds it (``from_record`` reads it back)."""
        return asdict(self)

    @classmethod
    def from_record(cls, d: dict[str, Any]) -> FindingRecord:
        return cls(**d)

    def to_json(self) -> dict[str, Any]:
        return {**self.data, "hand": self.hand, "raised_seq": self.raised_seq, "ts": self.ts,
                "status": self.status,
                "status_seq": self.status_seq, "status_ts": self.status_ts,
                "ruling": self.ruling, "outcome": self.outcome,
                "remedy_not_followed_seq": self.not_followed}


@dataclass
class HandSummary:
    """One hand of the index (a hand runs from its ``hand.start`` to the event before the
    next one: the shuffle and seat changes after its end belong to it)."""

    number: int
    first_seq: int
    last_seq: int
    start_ts: int
    end_ts: int
    game: str
    game_name: str
    button: int | None
    seats: tuple[tuple[int, str], ...]  # (seat, player) dealt in
    outcome: str = "incomplete"  # complete | misdeal | incomplete
    pots: list[dict[str, Any]] = field(default_factory=list)
    findings: list[FindingRecord] = field(default_factory=list)
    rulings: list[dict[str, Any]] = field(default_factory=list)

    @property
    def codes(self) -> list[str]:
        return sorted({f.code for f in self.findings})

    def result(self) -> str:
        """The outcome in a few words, for the list: what each seat took, summed over the pots,
        and each uncalled bet returned apart (review_words.result_words)."""
        if self.outcome == "misdeal":
            return "misdeal"
        if self.outcome != "complete":
            return "in progress" if not self.pots else "incomplete"
        return result_words(self.pots, dict(self.seats)) or "no pot awarded"

    def record(self) -> dict[str, Any]:
        """Every field, as the kept index holds it (``from_record`` reads it back)."""
        return {**{f.name: getattr(self, f.name) for f in fields(self)},
                "seats": [list(s) for s in self.seats],
                "findings": [f.record() for f in self.findings]}

    @classmethod
    def from_record(cls, d: dict[str, Any]) -> HandSummary:
        return cls(**{**d, "seats": tuple((int(s), str(p)) for s, p in d["seats"]),
                      "findings": [FindingRecord.from_record(f) for f in d["findings"]]})

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "first_seq": self.first_seq, "last_seq": self.last_seq,
                "start_ts": self.start_ts, "end_ts": self.end_ts, "game": self.game,
                "game_name": self.game_name, "button": self.button,
                "seats": [{"seat": s, "player": p} for s, p in self.seats],
                "codes": self.codes, "findings": len(self.findings), "outcome": self.outcome,
                "result": self.result(), "pots": self.pots,
                "pot_lines": pot_lines(self.pots, dict(self.seats)),
                "open": sum(1 for f in self.findings if f.status == OPEN)}


class Indexer:
    """Feeds events to the rules core and learns the hands and the findings' statuses.

    Pure apart from its own state: no I/O, no clock. ``starts`` keeps the table before the
    ``hand.start`` of every ``keep_every``-th hand (1, 1 + keep_every, ...): a hand replays from
    the nearest one before it (``Review.start_state``). A kept state costs about 23 KB (a
    hand's summary about 2.4 KB), so keeping one in 16 holds a month of hands in tens of MB."""

    def __init__(self, keep_every: int = 16) -> None:
        self.keep_every = max(1, keep_every)
        self.state: TableState = initial_state()
        self.snap: Snapshot = snapshot(self.state)
        self.last_seq = 0
        self.events = 0
        self.hands: list[HandSummary] = []
        self.starts = KeptStarts()
        self.before: list[FindingRecord] = []  # findings before the first hand (set-up)
        self._open: dict[str, FindingRecord] = {}  # this hand's findings by key

    def feed(self, event: Event) -> None:
        before_state, before = self.state, self.snap
        applied = guarded_apply(before_state, event)
        self.state, self.snap = applied.step.state, applied.snap
        self.last_seq, self.events = event.seq, self.events + 1
        after = self.snap
        h0, h1 = before["hand"], after["hand"]
        if isinstance(event.body, HandStart) and h1["number"] != h0["number"]:
            self._start(event, before_state, after)
        hand = self.hands[-1] if self.hands else None
        if hand is not None:
            hand.last_seq, hand.end_ts = event.seq, event.ts
        for f in applied.step.findings:
            rec = FindingRecord(hand.number if hand else 0, f.seq, event.seq, event.ts,
                                f.to_json())
            (hand.findings if hand else self.before).append(rec)
            self._open[rec.key] = rec
            if f.code == "REMEDY_NOT_FOLLOWED":
                self._missed(f.to_json(), f.seq)
        if hand is None:
            return
        if h1["number"] == hand.number:
            self._remedies(after, event)
            if isinstance(event.body, FloorRuling):
                self._ruling(hand, event, event.body)
            if isinstance(event.body, MisdealDeclared) and h1["phase"] == "misdeal":
                self._misdeal(hand, event)
            if h1["phase"] == "complete" and hand.outcome != "complete":
                hand.outcome = "complete"
                hand.pots = [a.to_json() for a in applied.step.results]
            elif h1["phase"] == "misdeal":
                hand.outcome = "misdeal"

    def restore(self, kept: Loaded) -> None:
        """Take up the index as the journal's sidecar kept it (a new indexer only)."""
        self.state, self.snap = kept.state, snapshot(kept.state)
        self.last_seq, self.events = kept.last_seq, kept.events
        self.hands = [HandSummary.from_record(h) for h in kept.hands]
        self.before = [FindingRecord.from_record(f) for f in kept.before]
        for number, data in kept.starts.items():
            self.starts.put_packed(number, data)
        # this hand's findings by key, as the indexer had them (the findings before the first
        # hand while there is none)
        self._open = {f.key: f for f in (self.hands[-1].findings if self.hands else self.before)}

    def _start(self, event: Event, state: TableState, snap: Snapshot) -> None:
        h, table = snap["hand"], snap["table"]
        names = {s["seat"]: s["player"] for s in snap["seats"]}
        self.hands.append(HandSummary(
            number=int(h["number"]), first_seq=event.seq, last_seq=event.seq,
            start_ts=event.ts, end_ts=event.ts, game=str(table["game"]),
            game_name=str(table["name"]), button=h["button"],
            seats=tuple((int(s), str(names.get(s, ""))) for s in h["dealt_in"])))
        if (int(h["number"]) - 1) % self.keep_every == 0 or not self.starts:
            self.starts[int(h["number"])] = state
        self._open = {}

    def _missed(self, data: Mapping[str, Any], seq: int) -> None:
        text = " ".join([str(data.get("message", "")), *map(str, data.get("remedy", []))])
        for code, n in _AFTER.findall(text):
            rec = self._open.get(f"{code} (seq {n})")
            if rec is not None and rec.not_followed is None:
                rec.not_followed = seq

    def _remedies(self, snap: Snapshot, event: Event) -> None:
        """The core's own remedy tracking: a finding whose moves were due and are no longer,
        with the hand still in play and nothing said it was missed, was remedied."""
        in_play = snap["hand"]["phase"] not in NOT_IN_PLAY
        for f in snap["findings"]:
            rec = self._open.get(f"{f['code']} (seq {f['seq']})")
            if rec is None or rec.status != OPEN:
                continue
            if f.get("remedy_due"):
                rec.had_due = True
            elif rec.had_due and in_play and rec.not_followed is None:
                rec.status, rec.status_seq, rec.status_ts = REMEDIED, event.seq, event.ts

    def _ruling(self, hand: HandSummary, event: Event, body: FloorRuling) -> None:
        hand.rulings.append({"seq": event.seq, "ts": event.ts, "code": body.code,
                             "text": body.text, "outcome": body.outcome})
        if not body.code:
            return
        for rec in hand.findings:
            if rec.code == body.code and rec.seq < event.seq and rec.status != RULED:
                rec.status, rec.status_seq, rec.status_ts = RULED, event.seq, event.ts
                rec.ruling, rec.outcome = body.text, body.outcome

    def _misdeal(self, hand: HandSummary, event: Event) -> None:
        # the remedy a misdeal-level finding calls for is the misdeal (RR Section 3, Misdeals)
        for rec in hand.findings:
            if rec.status == OPEN and rec.data.get("severity") == "misdeal":
                rec.status, rec.status_seq, rec.status_ts = REMEDIED, event.seq, event.ts

    def findings(self) -> Iterator[FindingRecord]:
        yield from self.before
        for hand in self.hands:
            yield from hand.findings


def build_index(events: Iterable[Event], indexer: Indexer | None = None) -> Indexer:
    """Feed ``events`` to ``indexer`` (default a new one) and return it."""
    ix = indexer or Indexer()
    for event in events:
        ix.feed(event)
    return ix


# --- search -----------------------------------------------------------------------------------

QUERY_FIELDS = ("since", "until", "seat", "player", "code", "game", "limit", "offset")


@dataclass(frozen=True)
class Query:
    """A search of the hand index; every field optional (None: any)."""

    since: int | None = None  # ms: hands that end at or after it
    until: int | None = None  # ms: hands that start at or before it
    seat: int | None = None
    player: str | None = None  # a part of a player's name, any case
    code: str | None = None  # a finding code raised in the hand
    game: str | None = None  # the game's id (nlhe, razz...) or a part of its name
    limit: int = 100
    offset: int = 0


def _time(name: str, text: str) -> int:
    """Milliseconds since the epoch, from a whole number of them or an ISO 8601 time (UTC when
    it names no zone)."""
    if text.isascii() and text.isdigit() and len(text) <= 16:  # "²" is a digit to isdigit
        return int(text)
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise QueryError(f"{name}: not a time (milliseconds or ISO 8601): {text[:40]!r}"
                         ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return int(when.timestamp() * 1000)


def _whole(name: str, text: str, lo: int, hi: int) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 9 or not lo <= int(text) <= hi:
        raise QueryError(f"{name}: a whole number {lo}..{hi} is needed, not {text[:40]!r}")
    return int(text)


def _word(name: str, text: str, pattern: str) -> str:
    if not text or len(text) > 64 or not re.fullmatch(pattern, text):
        raise QueryError(f"{name}: not a valid {name}: {text[:40]!r}")
    return text


def parse_query(args: Mapping[str, str]) -> Query:
    """A search from a request's parameters; QueryError (one line) for anything else. An
    empty parameter means any."""
    unknown = sorted(k for k in args if k not in QUERY_FIELDS)
    if unknown:
        raise QueryError(f"unknown search parameter {unknown[0][:40]!r}; the parameters are "
                         + ", ".join(QUERY_FIELDS))
    got = {k: v.strip() for k, v in args.items() if v.strip()}
    q = Query(
        since=_time("since", got["since"]) if "since" in got else None,
        until=_time("until", got["until"]) if "until" in got else None,
        seat=_whole("seat", got["seat"], 1, 10) if "seat" in got else None,
        player=_word("player", got["player"], r"[^\x00-\x1f\x7f]+") if "player" in got
        else None,
        code=_word("code", got["code"].upper(), r"[A-Z][A-Z0-9_]*") if "code" in got else None,
        game=_word("game", got["game"], r"[A-Za-z0-9 ,'/()+-]+") if "game" in got else None,
        limit=_whole("limit", got["limit"], 1, MAX_LIMIT) if "limit" in got else 100,
        offset=_whole("offset", got["offset"], 0, 10**9) if "offset" in got else 0,
    )
    if q.since is not None and q.until is not None and q.since > q.until:
        raise QueryError("since is after until")
    return q


def matches(hand: HandSummary, q: Query) -> bool:
    if q.since is not None and hand.end_ts < q.since:
        return False
    if q.until is not None and hand.start_ts > q.until:
        return False
    if q.seat is not None and q.seat not in {s for s, _ in hand.seats}:
        return False
    if q.player is not None and not any(q.player.casefold() in p.casefold()
                                        for _, p in hand.seats):
        return False
    if q.code is not None and q.code not in hand.codes:
        return False
    return q.game is None or q.game.casefold() == hand.game.casefold() \
        or q.game.casefold() in hand.game_name.casefold()


def search(hands: Sequence[HandSummary], q: Query) -> tuple[int, list[HandSummary]]:
    """The hands that match, newest first, cut to the page; and how many matched in all."""
    found = [h for h in reversed(hands) if matches(h, q)]
    return len(found), found[q.offset:q.offset + q.limit]


# --- one hand, step by step -------------------------------------------------------------------

_SEAT_KEYS = ("seat", "player", "stack", "bet", "in_hand", "folded", "all_in", "hole", "up",
              "drawn", "status", "chips_in_front")
_HAND_KEYS = ("number", "phase", "button", "small_blind", "big_blind", "to_act", "board",
              "burns", "current_bet", "pots", "uncalled", "expect", "showdown", "remedy_now")


def _step(event: Event, snap: Snapshot, raised: Sequence[str],
          card: dict[str, Any] | None, text: str, odds: dict[str, Any] | None) -> dict[str, Any]:
    h = snap["hand"]
    return {
        # each live hand's odds after this event, as the broadcast shows them (the officer
        # sees every card anyway: controller/poker/odds.py); null when nothing to value
        "equity": odds,
        "seq": event.seq, "ts": event.ts, "type": event.type, "event": event.to_json(),
        "text": text, "card": card, "raised": list(raised),
        "hand": {k: h.get(k) for k in _HAND_KEYS},
        "seats": [{k: s.get(k) for k in _SEAT_KEYS} for s in snap["seats"]],
        "findings": [{k: f.get(k) for k in ("code", "seq", "severity", "title", "remedy_due")}
                     for f in snap["findings"]],
        "results": snap.get("results", []),
        "devices": snap.get("devices", []),
        # the chips each zone holds (their totals: the tags themselves stay in the journal)
        "chips": {z: {"total": c.get("total"), "seq": c.get("seq")}
                  for z, c in (snap.get("chips") or {}).items()},
    }


REVIEW_ODDS_S = 0.03
"""Each step's figure: exact where that fits about 30 ms here, else Monte Carlo with its margin
(a hand opened has about 5 to 20 spots: its odds then cost well under a second)."""


def _odds(snap: Snapshot, valued: dict[Spot, dict[str, Any] | None]) -> dict[str, Any] | None:
    """The figure of a step's spot (``REVIEW_ODDS_S``), computed once per spot of the hand."""
    spot = spot_of(snap)
    if spot is None:
        return None
    if spot not in valued:
        try:
            valued[spot] = figure(spot, first=True, seconds=REVIEW_ODDS_S)[0]
        except ValueError:  # a spot equity refuses (more hands than the deck holds, ...)
            valued[spot] = None
    return valued[spot]


def hand_steps(start: TableState, events: Iterable[Event], summary: HandSummary
               ) -> dict[str, Any]:
    """One hand as the officer steps through it: ``steps`` (one per event, from its
    ``hand.start``: the event and the table after it), ``cards`` (each card's trail: where it
    went and when), and the summary with its findings and their statuses. Each step's
    ``text`` is its event in words (review_words.event_words). ``start`` is the table before
    the ``hand.start`` (``Indexer.starts``); ``events`` the hand's events."""
    state = start
    # each seat's player as the next event finds them (one who leaves is still named by it)
    names = {s["seat"]: s["player"] for s in snapshot(start)["seats"]}
    steps: list[dict[str, Any]] = []
    valued: dict[Spot, dict[str, Any] | None] = {}  # a spot's figure, once per hand
    trails: dict[str, list[dict[str, Any]]] = {}
    order: list[str] = []
    for event in events:
        applied = guarded_apply(state, event)
        state = applied.step.state
        body = event.body
        card = None
        uid = getattr(body, "uid", "")
        # the card a tag is, for the words (card.exposed and the like name a tag or a card)
        named = (state.deck.card_of(uid) or f"tag {uid}") if uid else None
        if isinstance(body, (ShoeDraw, ZoneRead, ZoneLeave)):
            name = named or f"tag {body.uid}"
            where = ("shoe" if isinstance(body, ShoeDraw) else body.zone)
            how = ("left the shoe" if isinstance(body, ShoeDraw) else
                   "read in" if isinstance(body, ZoneRead) else "left")
            card = {"card": name, "zone": where, "how": how}
            if name not in trails:
                order.append(name)
            trails.setdefault(name, []).append({
                "seq": event.seq, "ts": event.ts, "how": how, "zone": where,
                "face_up": getattr(body, "face_up", None)})
        raised = [f"{f.code} (seq {f.seq})" for f in applied.step.findings]
        text = event_words(event.to_json(), applied.snap, names, named)
        steps.append(_step(event, applied.snap, raised, card, text,
                           _odds(applied.snap, valued)))
        names = {s["seat"]: s["player"] for s in applied.snap["seats"]}
    return {"hand": summary.to_json(),
            "findings": [f.to_json() for f in summary.findings],
            "rulings": summary.rulings,
            "cards": [{"card": c, "moves": trails[c]} for c in order],
            "steps": steps}


# --- the shell: one journal ---------------------------------------------------------------------


@dataclass(frozen=True)
class Stats:
    """What the last refresh cost (docs/review.md, Cost)."""

    events: int  # events replayed by the last refresh (0: the journal had not grown)
    total: int  # events in the index
    hands: int


SAVE_EVERY = 20_000
"""Events indexed between two saves of the kept index during one long replay."""


class Review:
    """The review of one journal (or scenario file): the index kept and brought up to date on
    each request, hands opened from their kept start state, a few hands' steps cached."""

    def __init__(self, path: str | Path, cached_hands: int = 8, keep_every: int = 16,
                 table: str | None = None, *, kept: bool = True) -> None:
        self.path = Path(path)
        self.table = table  # a table of the central store at ``path`` (docs/cardroom.md)
        self._lock = threading.Lock()
        self._keep = keep_every
        self._ix = Indexer(keep_every)
        # the index kept with a journal (``kept``; review_store), opened at the first refresh
        self._kept = kept and table is None
        self._store: ReviewStore | None = None
        self._opened = False
        self._head: tuple[int, int] | None = None  # a scenario file's (size, mtime_ns)
        self._steps: OrderedDict[tuple[int, int], dict[str, Any]] = OrderedDict()
        # start states brought forward lately (a hand opened, then exported: one replay)
        self._brought: OrderedDict[int, TableState] = OrderedDict()
        self._cached = cached_hands
        self.stats = Stats(0, 0, 0)

    def refresh(self) -> Indexer:
        """The index, with whatever the journal gained since the last call replayed (a journal
        that shrank, or a scenario file that changed, is indexed again from the start)."""
        with self._lock:
            ix = self._ix
            before = ix.events
            if self.table is not None or is_journal_file(self.path):
                if not self._opened:
                    if self._kept:
                        store = ReviewStore(self.path, self._keep)
                        kept = store.load()  # (a journal that cannot be read: tried again)
                        if kept is not None:
                            ix.restore(kept)
                        self._store = store
                        before = ix.events  # (what the file held was not replayed)
                    self._opened = True
                head = self._last_seq()
                if head < ix.last_seq:  # another journal at this path: start again
                    ix = self._ix = Indexer(self._keep)
                    before = 0
                    self._steps.clear()
                    self._brought.clear()
                    if self._store is not None:
                        self._store.reset("the journal is shorter than the index")
                if head > ix.last_seq:
                    if not ix.events and self.table is None:
                        self._open_run(ix)
                    self._feed(self._read(after=ix.last_seq), ix)
            else:
                st = self.path.stat()
                mark = (st.st_size, st.st_mtime_ns)
                if mark != self._head:
                    ix = self._ix = build_index(iter_events(self.path), Indexer(self._keep))
                    self._steps.clear()
                    self._brought.clear()
                    self._head, before = mark, 0
            self.stats = Stats(ix.events - before, ix.events, len(ix.hands))
            return ix

    def _feed(self, events: Iterable[Event], ix: Indexer) -> None:
        """Index ``events``, keeping the index with the journal as it goes (every
        ``SAVE_EVERY`` events, and at the end): a long first index interrupted loses little."""
        store, mark = self._store, ix.events
        for event in events:
            ix.feed(event)
            if store is not None and ix.events - mark >= SAVE_EVERY:
                store.save(ix)
                mark = ix.events
        if store is not None and ix.events != mark:
            store.save(ix)

    def close(self) -> None:
        """Close the file the index is kept in (the review can still be used: it reopens)."""
        with self._lock:
            if self._store is not None:
                self._store.close()

    def hand(self, number: int) -> HandSummary:
        ix = self.refresh()
        for h in ix.hands:
            if h.number == number:
                return h
        raise ReviewError(f"hand {number}: not in the journal")

    def _events(self, first: int, last: int) -> list[Event]:
        """The events with seqs ``first``..``last``, as the journal holds them."""
        source = (self._read(after=first - 1)
                  if self.table is not None or is_journal_file(self.path)
                  else iter_events(self.path))
        out = []
        for event in source:
            if event.seq > last:
                break
            if event.seq >= first:
                out.append(event)
        if hasattr(source, "close"):
            source.close()  # stops the stream early: the journal's connection is closed
        return out

    def _open_run(self, ix: Indexer) -> None:
        """A run of journal segments whose start was archived (docs/segments.md) is indexed
        from its first segment's opening checkpoint: the hands before it are in the archive."""
        opening = run_opening(self.path)
        if opening is None:
            return
        if opening.problem is not None:
            raise JournalError(f"{self.path}: the run's start is archived, and "
                               f"{opening.problem}")
        try:
            ix.state = state_from_text(opening.text)
        except CheckpointError as exc:
            raise JournalError(f"{self.path}: its opening checkpoint does not read back: "
                               f"{exc}") from None
        ix.snap, ix.last_seq = snapshot(ix.state), opening.seq

    def _last_seq(self) -> int:
        if self.table is not None:
            return store_last_seq(self.path, self.table)
        return last_seq(self.path)

    def _read(self, after: int) -> Iterator[Event]:
        """The events above ``after``: the journal's, or the table's in the central store."""
        if self.table is not None:
            return read_store_events(self.path, self.table, after=after)
        return read_events(self.path, after=after)

    def hand_events(self, number: int) -> list[Event]:
        """The hand's events, as the journal holds them."""
        h = self.hand(number)
        self._not_archived(h)
        return self._events(h.first_seq, h.last_seq)

    def _archived_to(self) -> TableState | None:
        """For a run whose start was archived (docs/segments.md): the state at its opening
        checkpoint, from which the events still here are read; None for a whole journal."""
        if self.table is not None or not is_journal_file(self.path):
            return None
        opening = run_opening(self.path)
        if opening is None or opening.problem is not None:
            return None  # (a bad opening is said by the read that needs it)
        try:
            state = state_from_text(opening.text)
        except CheckpointError:
            return None
        return state if state.last_seq == opening.seq else None

    def _not_archived(self, h: HandSummary) -> None:
        """A hand the kept index lists from before the run's archived start has no events
        here to step through: one line that says so (the index kept it; the archive holds it)."""
        opening = self._archived_to()
        if opening is not None and h.first_seq <= opening.last_seq:
            raise ReviewError(f"hand {h.number}: its events (seq {h.first_seq}..{h.last_seq}) "
                              f"are archived; this journal holds seq {opening.last_seq + 1} on")

    def start_state(self, number: int) -> TableState:
        """The table before hand ``number``'s ``hand.start``: the nearest kept state at or
        before it, brought forward through the hands between (at most ``keep_every - 1``).
        A kept state from before a run's archived start gives way to the run's opening
        checkpoint (the events between are no longer here)."""
        ix = self.refresh()
        kept = max(n for n in ix.starts if n <= number)
        state = ix.starts[kept]
        if kept == number:
            return state
        with self._lock:
            if self._brought.get(number) is not None:
                self._brought.move_to_end(number)
                return self._brought[number]
        first = next(h.first_seq for h in ix.hands if h.number == kept)
        opening = self._archived_to()
        if opening is not None and first <= opening.last_seq:
            self._not_archived(self.hand(number))
            state, first = opening, opening.last_seq + 1
        for event in self._events(first, self.hand(number).first_seq - 1):
            state = guarded_apply(state, event).step.state
        with self._lock:
            self._brought[number] = state
            while len(self._brought) > self._cached:
                self._brought.popitem(last=False)
        return state

    def steps(self, number: int) -> dict[str, Any]:
        h = self.hand(number)
        key = (number, h.last_seq)
        with self._lock:
            if key in self._steps:
                self._steps.move_to_end(key)
                return self._steps[key]
        data = hand_steps(self.start_state(number), self.hand_events(number), h)
        with self._lock:
            self._steps[key] = data
            while len(self._steps) > self._cached:
                self._steps.popitem(last=False)
        return data

    def phh(self, number: int) -> str:
        """The hand as PHH (controller/phh/export.py, from its kept start state)."""
        # (imported here: the PHH writer is for this export only, not for every start of the
        # table's process, which imports this module with the review's routes)
        from controller.phh.export import export_events
        from controller.phh.writer import dumps

        hands = export_events(self.hand_events(number), self.start_state(number))
        return dumps(hands[0]) if hands else ""

    def jsonl(self, number: int) -> str:
        """The hand's journal lines (the canonical ``Event.to_line``), one event a line."""
        return "".join(e.to_line() + "\n" for e in self.hand_events(number))

    def timeline(self, q: Query) -> tuple[int, list[dict[str, Any]]]:
        """The findings of the hands that match ``q``, newest first (and their count)."""
        ix = self.refresh()
        found = [f for h in reversed(ix.hands) if matches(h, q)
                 for f in reversed(h.findings)]
        if all(v is None for v in (q.since, q.until, q.seat, q.player, q.code, q.game)):
            found += list(reversed(ix.before))  # set-up findings belong to no hand
        if q.code is not None:
            found = [f for f in found if f.code == q.code]
        return len(found), [f.to_json() for f in found[q.offset:q.offset + q.limit]]

    def hands_page(self, q: Query) -> dict[str, Any]:
        """The hands that match ``q``, as the review's JSON."""
        ix = self.refresh()
        total, page = search(ix.hands, q)
        return {"total": total, "hands": [h.to_json() for h in page], "last_seq": ix.last_seq,
                "offset": q.offset, "limit": q.limit}

    def timeline_page(self, q: Query) -> dict[str, Any]:
        total, found = self.timeline(q)
        return {"total": total, "findings": found, "offset": q.offset, "limit": q.limit}


# --- out of the table's process ------------------------------------------------------------------

# in the worker process: one Review per journal, or per table of a central store
_REVIEWS: dict[tuple[str, str | None], Review] = {}


def _worker_start() -> None:
    # the table's own threads come first for the CPU too
    with contextlib.suppress(OSError):
        os.nice(10)


def _worker_call(path: str, table: str | None, method: str, *args: Any) -> Any:
    review = _REVIEWS.get((path, table))
    if review is None:
        review = _REVIEWS[(path, table)] = Review(path, table=table)
    return getattr(review, method)(*args)


class _Worker:
    """The one worker process (and its lock) that a journal's review, or every table's review
    of a central store, shares."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pool: ProcessPoolExecutor | None = None


class ReviewProcess:
    """The review of one journal, run in a worker process of its own (started at the first
    request, ``nice`` 10).

    Replaying is pure Python: in the table's process it would hold the interpreter lock in 5 ms
    slices, and every wake-up of the card reader's thread would wait for one (measured: 5 ms
    median lateness while a replay runs, against 0.06 ms idle; docs/review.md). In a process of
    its own it shares only the CPU, and the table's process keeps its lock. The answers are
    plain data; errors (ReviewError, JournalError, EventError, OSError) are raised here as
    the worker raised them. A worker that died is replaced once per call."""

    def __init__(self, path: str | Path, table: str | None = None, *,
                 worker: _Worker | None = None) -> None:
        self.path = str(Path(path).resolve())
        self.table = table  # a table of the central store at ``path`` (None: a journal)
        self._worker = worker or _Worker()

    def for_table(self, table: str) -> ReviewProcess:
        """The review of ``table`` of this central store, in the same worker process."""
        return ReviewProcess(self.path, table, worker=self._worker)

    def _executor(self) -> ProcessPoolExecutor:
        with self._worker.lock:
            if self._worker.pool is None:
                # spawn: never fork a process that runs threads (the reader's, the server's)
                self._worker.pool = ProcessPoolExecutor(
                    max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_worker_start)
            return self._worker.pool

    def call(self, method: str, *args: Any) -> Any:
        for attempt in (1, 2):
            pool = self._executor()
            try:
                return pool.submit(_worker_call, self.path, self.table, method, *args).result()
            except BrokenProcessPool:
                with self._worker.lock:
                    if self._worker.pool is pool:
                        self._worker.pool = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def hands_page(self, q: Query) -> dict[str, Any]:
        result: dict[str, Any] = self.call("hands_page", q)
        return result

    def timeline_page(self, q: Query) -> dict[str, Any]:
        result: dict[str, Any] = self.call("timeline_page", q)
        return result

    def steps(self, number: int) -> dict[str, Any]:
        result: dict[str, Any] = self.call("steps", number)
        return result

    def phh(self, number: int) -> str:
        return str(self.call("phh", number))

    def jsonl(self, number: int) -> str:
        return str(self.call("jsonl", number))

    def close(self) -> None:
        with self._worker.lock:
            pool, self._worker.pool = self._worker.pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
