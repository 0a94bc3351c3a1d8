"""Mutation fuzzing of the rules core: ``apply`` never raises, whatever the table does.

    .venv/bin/python -m bench.fuzz [--streams 1000000] [--seed 1] [--workers 2]
                                   [--crashes fuzz-crashes.jsonl]

The core's contract (docs/architecture.md) is that ``controller.rules.apply(state, event)`` never
raises on any sequence of well-typed events. Random events in random order (the property test of
``tests/rules/test_clean_deal.py``) rarely get past the first hole card; the states where the
core is fragile are deep ones: a remedy half followed, a stub reshuffled, a draw round in
progress. So this fuzzer starts from real, deep event streams and mutates them.

What a stream is. A *base stream* is a real sequence of table events:

- hold'em hands dealt by ``controller.sim.SimDealer`` with dealing mistakes (and the remedies it
  follows or botches) and seat changes between hands; its deck also registers a joker tag that
  the dealer never draws, so that a mutation can bring the joker in;
- hold'em played with chips (``SimDealer(chips=True)``: bets, scoops and pushes as
  ``chips.zone`` events) at a table set up with a rake (``rake_percent``, ``rake_cap``), the
  dealer dropping the rake into the drop as it pushes the pot, with card and chip mistakes
  (``raked_stream``);
- hands of every stud and draw game dealt by the same dealer (``SimDealer(game=...)``) with its
  mistakes;
- every scenario file of ``tests/scenarios/**.jsonl`` (``controller.journal.load_events``).

A *mutated stream* is a base stream cut at a position ``k``: its first ``k`` events unchanged,
then a *tail* (the next events of the base) changed by one to three mutations (one time in five:
three to eight, a table far off the book), then nothing more.
Since the state is immutable and ``apply`` pure, the state after the first ``k`` events is kept
once per base stream (``Track``) and every mutated stream starts from it: only the tail is
applied. The tail is ``window`` events long (the suite's test: a short window; the bench: 16);
with ``hands=True`` it runs on to the end of the hand of position ``k`` and through the next
hand, so that what a mutation leaves behind meets a whole new hand. Such a deep stream costs
about four times a 16-event one, so the bench makes one stream in ``--deep-every`` (8) deep:
1,000,000 streams then take about 50 minutes on 2 cores rather than three hours. Events are numbered
again from ``k + 1`` on, as the daemon would number them.

What is mutated (``Mutation``: an operation, a position in the tail and two free integers that
pick the values, so any integers are a valid mutation, which hypothesis can draw and shrink):

- drop an event, duplicate it, swap it with its neighbour, move it up to four places earlier or
  later;
- change one field of it: a tag to another tag of the deck, an unknown tag or a joker tag; a
  zone; a seat (empty seats too); an amount; the action kind; the post kind; ``face_up``; the
  button; who exposed a card; the game, seats, stakes or rake of a set-up; a ruling's outcome;
- insert an event: a ``hand.start`` or ``shuffle.done`` mid-hand, a ``table.setup`` of another
  game, a ``deck.register`` of another deck, ``seat.leave`` / ``seat.take`` / ``player.away`` /
  ``player.back`` / ``seat.change`` of a seat in the hand, ``undo``, ``floor.ruling``,
  ``misdeal.declared``, ``attention.called``, ``card.exposed`` / ``card.boxed`` /
  ``card.flashed``, ``hand.end``, tournament, level and chip-race events, a card read, a betting
  action, or any event taken from another base stream (another game's draw request or bring-in);
- splice: the rest of the tail is replaced by a piece of another base stream.

Every mutated event is well-typed: it is round-tripped through
``parse_event(event.to_json())`` and a mutation the parser refuses is not made (the daemon only
ever applies parsed events).

What is checked, for every mutated stream: ``apply`` raises nothing; every finding's and every
award's ``to_json()`` is JSON-serialisable; no award is negative; at the end of the stream
``snapshot(state)`` and ``json.dumps`` of it work and no stack (seat or in-hand) is negative;
and after every event, chip conservation (``Conservation``): the table's chips (every seated
player's stack, the hand engine's for a seat dealt in, plus the hand's bets and pots, plus the
antes carried to the next deal) change only at ``seat.take`` / ``seat.leave`` / ``chiprace.end``
(chips brought in or taken away), at ``undo`` (back to what they were before the event undone)
and by the rake, a legal
outflow: at most the schedule of the set-up in force at ``hand.end`` applied to the pots it
awarded, taken as the award is judged (a ``chips.zone`` or the next ``hand.start``). On
a sample (one stream in ``PURITY_EVERY``) every state of the stream is snapshotted before and
after it is applied to, and must be unchanged (purity), and the snapshot checks run after every
event. A failure is a *crash*; its *site* is where it happened (the exception and the innermost
line of ``controller/``, or the check that failed). The first crash of each site is shrunk
(``minimize``: delta debugging over the whole event sequence from the empty table, keeping the
site) and written as a replayable scenario file (``feltguard replay FILE``).

How many: the bench runs ``--streams`` mutated streams (1,000,000 by default) in batches over
``--workers`` processes and prints the streams run, the crashes, the distinct crash sites and
the streams per second per batch (min/median/max). ``tests/rules/test_core_never_raises.py``
runs at least 100,000 in the suite.
"""

from __future__ import annotations

import argparse
import bisect
import functools
import itertools
import json
import multiprocessing
import random
import statistics
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from controller.events import (
    ACTION_KINDS,
    ATTENTION_BY,
    LAST_CARD,
    POST_KINDS,
    READER_STATES,
    Action,
    AttentionCalled,
    Body,
    ButtonDraw,
    CardBoxed,
    CardExposed,
    CardFlashed,
    CardKept,
    CardKey,
    ChipRaceEnd,
    ChipRaceStart,
    ChipsRegister,
    ChipsZone,
    DeckChange,
    DeckRegister,
    Event,
    EventError,
    FloorRuling,
    HandEnd,
    HandStart,
    LevelUp,
    MisdealDeclared,
    PlayerAway,
    PlayerBack,
    ReaderHealth,
    SeatChange,
    SeatLeave,
    SeatTake,
    ShoeDraw,
    ShuffleDone,
    TableSetup,
    TournamentPlayers,
    TournamentSetup,
    TrayCounts,
    Undo,
    ZoneLeave,
    ZoneRead,
    parse_event,
)
from controller.journal import load_events
from controller.poker.cards import FULL_DECK
from controller.poker.house_rules import PROFILES as HOUSE_PROFILES
from controller.poker.house_rules import setting_choices, setting_names
from controller.poker.variants import GAME_IDS, VARIANTS, family
from controller.rules import TableState, apply, initial_state, snapshot
from controller.rules.findings.catalogue import CATALOGUE
from controller.sim import SimDealer, expand

# The stud and draw games, each a base stream of its own (the hold'em streams cover the board).
STUD_AND_DRAW = tuple(g for g, v in VARIANTS.items() if family(v) != "board")

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"
ZONES = ("board", "burn", "muck", "aside", *(f"seat:{n}" for n in range(1, 11)))
UNKNOWN_UID = "FZUNKNOWN0000001"
JOKER_UID = "FZJOKER000000001"  # registered as the joker in the hold'em base streams' decks
PURITY_EVERY = 16  # one stream in this many gets the per-event purity and snapshot checks
AMOUNTS = (0, 1, 2, 3, 4, 5, 7, 10, 20, 50, 99, 100, 199, 200, 201, 400, 10_000)
PROFILES = tuple(HOUSE_PROFILES)  # in the order house_rules lists them


def random_settings(rng: random.Random) -> dict[str, Any]:
    """A few house-rules settings (controller/poker/house_rules.py) with random values."""
    names = rng.sample(sorted(setting_names()), k=rng.randint(1, 4))
    return {n: rng.choice(setting_choices(n)) for n in names}


def varied_setup(body: TableSetup, rng: random.Random) -> TableSetup:
    """``body`` under a random profile, and now and then a few settings overridden (the base
    streams are dealt by the book of Robert's Rules; other tables play other books)."""
    for _ in range(8):
        settings = random_settings(rng) if rng.random() < 0.5 else {}
        candidate = well_typed(replace(body, profile=rng.choice(PROFILES), settings=settings))
        if isinstance(candidate, TableSetup):
            return candidate
    return body


# --- base streams ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Base:
    """A real event stream: its name (where it comes from) and its events."""

    name: str
    events: tuple[Event, ...]


def _numbered(bodies: Iterable[Body], start: int = 1) -> tuple[Event, ...]:
    return tuple(Event(seq, 0, body) for seq, body in enumerate(bodies, start=start))


def holdem_stream(seed: int, hands: int) -> Base:
    """Hold'em hands with mistakes (rate 0.5), seat changes (0.1), 2 to 10 seats, cards a
    remedy returned drawn again; the deck also holds a joker tag the dealer never draws."""
    rng = random.Random(seed)
    seats = rng.randint(2, 10)
    dealer = SimDealer(rng, seats=seats, mistake_rate=0.5, seat_changes=0.1,
                       redraw_returned=True)
    bodies: list[Body] = []
    for _ in range(hands):
        for step in dealer.next_hand():
            for body in expand(step):
                if isinstance(body, TableSetup) and seed % 2:
                    body = varied_setup(body, rng)
                if isinstance(body, DeckRegister) and not body.idle:
                    body = DeckRegister(deck=body.deck, tags={**body.tags, JOKER_UID: "Xx"})
                bodies.append(body)
    return Base(f"holdem seed {seed} seats {seats}", _numbered(bodies))


def raked_stream(seed: int, hands: int) -> Base:
    """Hold'em played with chips (``SimDealer(chips=True)``: every bet, scoop and push a
    ``chips.zone``) at a table set up with a rake (5 or 10 per cent, capped at 3 or 5 or not
    at all: the dealer drops it into the drop as it pushes the pot), with card mistakes (0.3),
    chip mistakes (0.3) and seat changes (0.1), 2 to 9 seats."""
    rng = random.Random(seed)
    seats = rng.randint(2, 9)
    percent, cap = rng.choice((5, 10)), rng.choice((0, 3, 5))
    dealer = SimDealer(rng, seats=seats, mistake_rate=0.3, seat_changes=0.1, chips=True,
                       chip_mistake_rate=0.3, rake_percent=percent, rake_cap=cap)
    bodies = [b for _ in range(hands) for step in dealer.next_hand() for b in expand(step)]
    return Base(f"raked holdem with chips seed {seed} seats {seats} rake {percent}% cap {cap}",
                _numbered(bodies))


def game_stream(game: str, seed: int, hands: int) -> Base:
    """Hands of a stud or draw game with mistakes (rate 0.5), 2 to 6 seats."""
    rng = random.Random(seed)
    seats = rng.randint(2, 6)
    dealer = SimDealer(rng, seats=seats, mistake_rate=0.5, game=game)
    bodies = [b for _ in range(hands) for step in dealer.next_hand() for b in expand(step)]
    if seed % 2:
        bodies = [varied_setup(b, rng) if isinstance(b, TableSetup) else b for b in bodies]
    return Base(f"{game} seed {seed} seats {seats}", _numbered(bodies))


def scenario_streams() -> list[Base]:
    """Every scenario file of the suite (``tests/scenarios/**.jsonl``)."""
    out = []
    for path in sorted(SCENARIOS.rglob("*.jsonl")):
        events = tuple(load_events(path))
        if events:
            out.append(Base(str(path.relative_to(ROOT)), events))
    return out


def corpus(seed: int, *, holdem: int, hands: int, game_hands: int, games_each: int = 1,
           raked: int = 0, scenarios: bool = True) -> list[Base]:
    """The base streams: ``holdem`` hold'em streams of ``hands`` hands, ``raked`` streams of
    ``hands`` hands of hold'em with chips and a rake, ``games_each`` streams of ``game_hands``
    hands for every stud and draw game, and the scenario files."""
    out = [holdem_stream(seed * 1000 + i, hands) for i in range(holdem)]
    out += [raked_stream(seed * 1000 + 500 + i, hands) for i in range(raked)]
    for g, game in enumerate(STUD_AND_DRAW):
        out += [game_stream(game, seed * 1000 + 100 + 10 * g + i, game_hands)
                for i in range(games_each)]
    if scenarios:
        out += scenario_streams()
    return out


class Track:
    """A base stream with the state before each of its events (computed once, then shared by
    every mutated stream cut from it), and where its hands start."""

    def __init__(self, base: Base) -> None:
        self.base = base
        states = [initial_state()]
        for e in base.events:
            states.append(apply(states[-1], e).state)
        self.states: tuple[TableState, ...] = tuple(states)
        self.hand_starts = tuple(i for i, e in enumerate(base.events)
                                 if isinstance(e.body, HandStart))

    def __len__(self) -> int:
        return len(self.base.events)

    def through_next_hand(self, k: int) -> int:
        """The end of the hand running at position ``k`` and of the hand after it: the index
        of the second ``hand.start`` after ``k`` (or the stream's end)."""
        later = [i for i in self.hand_starts if i > k]
        return later[1] if len(later) > 1 else len(self)


@functools.cache
def _ends(tracks: tuple[Track, ...]) -> tuple[int, ...]:
    return tuple(itertools.accumulate(len(t) for t in tracks))


def locate(tracks: Sequence[Track], g: int) -> tuple[Track, int]:
    """The ``g``-th event of all the base streams end to end (modulo their total): its track
    and position. Positions are drawn this way, uniformly over events, so that a long stream
    of many hands weighs what it holds and a short scenario file what it holds."""
    ends = _ends(tuple(tracks))
    g %= ends[-1]
    i = bisect.bisect_right(ends, g)
    return tracks[i], g - (ends[i - 1] if i else 0)


# --- mutations ------------------------------------------------------------------------------------

DROP, DUP, SWAP, MOVE, FIELD, INSERT, SPLICE = range(7)
OPS = ("drop", "duplicate", "swap", "move", "field", "insert", "splice")


@dataclass(frozen=True)
class Mutation:
    """One change to a tail: ``op`` (``OPS``), the position ``pos`` in the tail, and ``a``,
    ``b`` that pick what changes and to what. Every value is taken modulo what it picks from,
    so any integers make a valid mutation."""

    op: int
    pos: int
    a: int = 0
    b: int = 0

    def __str__(self) -> str:
        return f"{OPS[self.op % len(OPS)]}@{self.pos}({self.a},{self.b})"


@dataclass
class Pools:
    """What insertions and splices draw from: every base stream, every event body by type, the
    set-ups and decks of every game."""

    bases: Sequence[Base]
    by_type: dict[str, list[Body]] = field(default_factory=dict)
    setups: list[TableSetup] = field(default_factory=list)
    decks: list[DeckRegister] = field(default_factory=list)
    codes: tuple[str, ...] = ()

    @classmethod
    def of(cls, bases: Sequence[Base]) -> Pools:
        pools = cls(bases=bases, codes=tuple(sorted(CATALOGUE)))
        for base in bases:
            for e in base.events:
                kinds = pools.by_type.setdefault(e.type, [])
                if len(kinds) < 400:
                    kinds.append(e.body)
                if isinstance(e.body, TableSetup):
                    pools.setups.append(e.body)
                elif isinstance(e.body, DeckRegister) and len(pools.decks) < 40:
                    pools.decks.append(e.body)
        pools.setups += [TableSetup(game=g, seats=s) for g in GAME_IDS for s in (2, 6, 10)]
        rng = random.Random(len(bases))
        pools.setups += [varied_setup(TableSetup(game=rng.choice(GAME_IDS),
                                                 seats=rng.randint(2, 10)), rng)
                         for _ in range(60)]
        return pools


def _pick(seq: Sequence[Any], n: int) -> Any:
    return seq[n % len(seq)]


def _uids(state: TableState, tail: Sequence[Event]) -> list[str]:
    """Tags to switch to: the tail's own, the deck's, an unknown one and a joker."""
    out = [u for e in tail if isinstance(u := getattr(e.body, "uid", None), str)]
    tags = state.deck.tags
    out += [u for u, c in tags.items() if c == "Xx"][:2]
    out += list(tags)[:64]
    return [*out, UNKNOWN_UID, JOKER_UID] if out else [UNKNOWN_UID, JOKER_UID]


def _hand_seats(state: TableState) -> list[int]:
    h = state.hand
    seats = list(h.game.seats) if h is not None else []
    return seats or sorted(state.seating.seats) or [1]


def changed(body: Body, a: int, b: int, state: TableState, tail: Sequence[Event],
             pools: Pools) -> Body:
    """``body`` with one field changed (``a`` picks the field, ``b`` the value)."""
    if isinstance(body, ShoeDraw):
        if a % 3 == 0:
            return replace(body, face_up=not body.face_up)
        return replace(body, uid=_pick(_uids(state, tail), b))
    if isinstance(body, (ZoneRead, ZoneLeave)):
        if a % 2 == 0:
            return replace(body, zone=_pick(ZONES, b))
        return replace(body, uid=_pick(_uids(state, tail), b))
    if isinstance(body, (CardExposed, CardFlashed)):
        if a % 3 == 0:
            return replace(body, by="player" if body.by == "dealer" else "dealer")
        if a % 3 == 1:
            return _named(body, state, tail, b)
        return replace(body, uid=_pick(_uids(state, tail), b), card="")
    if isinstance(body, CardBoxed):
        if a % 2:
            return _named(body, state, tail, b)
        return replace(body, uid=_pick(_uids(state, tail), b), card="")
    if isinstance(body, ReaderHealth):
        return replace(body, state=_pick(READER_STATES, b), reader=b % 4)
    if isinstance(body, Action):
        which = a % 5
        if which == 0:
            return replace(body, seat=1 + b % 10)
        if which == 1:
            return replace(body, amount=_pick(AMOUNTS, b))
        if which == 2:
            kind = _pick(ACTION_KINDS, b)
            amount = body.amount if body.amount is not None else _pick(AMOUNTS, b // 8)
            return replace(body, kind=kind, amount=amount,
                           blind=body.blind if kind == "post" else None)
        if which == 3:
            return replace(body, kind="post", amount=body.amount or _pick(AMOUNTS, b),
                           blind=_pick((None, *POST_KINDS), b))
        return replace(body, amount=None)
    if isinstance(body, HandStart):
        return replace(body, button=_pick((None, *range(1, 11)), b))
    if isinstance(body, SeatTake):
        which = a % 3
        if which == 0:
            return replace(body, seat=1 + b % 10)
        if which == 1:
            return replace(body, stack=_pick(AMOUNTS, b))
        return replace(body, post=not body.post)
    if isinstance(body, (SeatLeave, PlayerAway, PlayerBack)):
        return replace(body, seat=1 + b % 10)
    if isinstance(body, SeatChange):
        return replace(body, to=1 + b % 10) if a % 2 else replace(body, seat=1 + b % 10)
    if isinstance(body, TableSetup):
        which = a % 7
        if which == 5:
            return varied_setup(body, random.Random(b))
        if which == 0:
            return replace(body, game=_pick(GAME_IDS, b))
        if which == 1:
            return replace(body, seats=2 + b % 9)
        if which == 2:
            return replace(body, profile=_pick(PROFILES, b))
        if which == 3:
            return replace(body, ante=b % 4, bring_in=(b // 4) % 3)
        if which == 6:
            return replace(body, rake_percent=_pick((0, 5, 10, 100), b),
                           rake_cap=_pick((0, 1, 3, 5), b // 4))
        return replace(body, small_blind=b % 3, big_blind=1 + (b // 3) % 4)
    if isinstance(body, FloorRuling):
        return replace(body, outcome="void" if body.outcome == "stand" else "stand")
    if isinstance(body, AttentionCalled):
        return replace(body, by=_pick(ATTENTION_BY, b))
    return body


def _named(body: CardKey, state: TableState, tail: Sequence[Event], b: int) -> CardKey:
    """A card key named the dealer's way: ``last``, or the name of a card in play or not."""
    if b % 3 == 0:
        return replace(body, uid="", card=LAST_CARD)
    uid = _pick(_uids(state, tail), b)
    card = state.deck.card_of(uid) or _pick(FULL_DECK, b)
    return replace(body, uid="", card=card)


def _chips_zone(state: TableState, b: int) -> ChipsZone:
    """A zone's settled chips: registered chips, a chip of no set, or none."""
    reg = state.chips.registry
    pool = [*sorted(reg.chips), "04EE000001", "04CF000003"]
    uids = tuple(sorted({_pick(pool, b + i * 7) for i in range(b % 5)}))
    counts: dict[int, int] = {}
    for uid in uids:
        d = reg.denomination_of(uid)
        if d is not None:
            counts[d] = counts.get(d, 0) + 1
    zone = _pick((*(f"bet:{n}" for n in range(1, 11)), "stack:1", "pot", "tray", "drop"), b)
    return ChipsZone(zone=zone, total=sum(d * n for d, n in counts.items()), counts=counts,
                     uids=uids, added=uids[: b % 3])


def foreign(a: int, b: int, state: TableState, tail: Sequence[Event], pools: Pools) -> Body:
    """An event to insert (``a`` picks the kind, ``b`` the values)."""
    seats = _hand_seats(state)
    seat = _pick(seats, b) if b % 4 else 1 + b % 10
    uid = _pick(_uids(state, tail), b)
    kinds: tuple[Callable[[], Body], ...] = (
        lambda: HandStart(button=_pick((None, *range(1, 11)), b)),
        ShuffleDone,
        lambda: _pick(pools.setups, b),
        lambda: _pick(pools.decks, b) if pools.decks else DeckRegister("fz", {}),
        lambda: SeatLeave(seat=seat),
        lambda: SeatTake(seat=seat, player=_pick(("Ann", "Bob", "Zed", "Yan"), b // 3),
                         stack=_pick(AMOUNTS, b // 5), post=bool(b % 2)),
        Undo,
        lambda: FloorRuling(text="ruling", code=_pick((None, *pools.codes), b // 2),
                            outcome="void" if b % 2 else "stand"),
        MisdealDeclared,
        lambda: AttentionCalled(by=_pick(ATTENTION_BY, b)),
        lambda: CardExposed(uid=uid, by="player" if b % 3 == 0 else "dealer"),
        lambda: CardBoxed(uid=uid),
        lambda: CardFlashed(uid=uid, by="player" if b % 3 == 0 else "dealer"),
        HandEnd,
        lambda: _pick(pools.by_type[_pick(sorted(pools.by_type), b)], b // 31),
        lambda: Action(seat=seat, kind=_pick(ACTION_KINDS, b // 7),
                       amount=_pick(AMOUNTS, b // 3), blind=None),
        lambda: _pick((PlayerAway(seat=seat), PlayerBack(seat=seat, post=bool(b % 2)),
                       SeatChange(seat=seat, to=1 + (seat + b) % 10)), b // 2),
        lambda: _pick((TournamentSetup(levels=({"small_blind": 1, "big_blind": 2},
                                               {"small_blind": 2, "big_blind": 4, "ante": 1})),
                       LevelUp(level=1 + b % 3), TournamentPlayers(remaining=1 + b % 6),
                       ChipRaceStart(),
                       ChipRaceEnd(stacks={s: 1 + b % 50 for s in seats[:2]}),
                       ButtonDraw(cards={1: "As", 2: "Kd", 3: "2c"})), b // 2),
        lambda: ShoeDraw(uid=uid, face_up=b % 5 == 0),
        lambda: ZoneRead(uid=uid, zone=_pick(ZONES, b // 3)),
        lambda: ZoneLeave(uid=uid, zone=_pick(ZONES, b // 3)),
        lambda: _named(_pick((CardExposed(), CardBoxed(), CardFlashed(), CardKept()), b // 5),
                       state, tail, b),
        lambda: DeckChange(deck=_pick(("fz", state.deck.deck or "d",
                                       *sorted({d for d, _ in state.deck.others.values()})),
                                      b)),
        lambda: ReaderHealth(reader=b % 3, state=_pick(READER_STATES, b // 3),
                             name=_pick(("", "shoe", "felt"), b // 7)),
        lambda: ChipsRegister(set=_pick(("fz", "fy"), b), idle=b % 3 == 0,
                              chips={f"04CF{i:06X}": _pick((1, 5, 25, 100), i + b)
                                     for i in range(b % 7)}),
        lambda: _chips_zone(state, b),
        lambda: TrayCounts(counts={d: (b // d) % 40 for d in (1, 5, 25, 100)}),
    )
    return _pick(kinds, a)()


def well_typed(body: Body) -> Body | None:
    """The body as the parser gives it back, or None if the parser refuses it."""
    try:
        return parse_event(Event(0, 0, body).to_json()).body
    except EventError:
        return None


def mutate(tail: Sequence[Event], mutations: Iterable[Mutation], state: TableState,
           pools: Pools) -> list[Event]:
    """The tail after the mutations, in order; a mutation that would make an event the parser
    refuses, or that has nothing to act on, is not made."""
    out = list(tail)
    for m in mutations:
        op = m.op % len(OPS)
        if not out and op not in (INSERT, SPLICE):
            continue
        pos = m.pos % max(len(out), 1)
        if op == DROP:
            del out[pos]
        elif op == DUP:
            out.insert(pos, out[pos])
        elif op == SWAP:
            if pos + 1 < len(out):
                out[pos], out[pos + 1] = out[pos + 1], out[pos]
        elif op == MOVE:
            d = m.a % 8 - 4 or 4
            to = min(max(pos + d, 0), len(out) - 1)
            out.insert(to, out.pop(pos))
        elif op == FIELD:
            body = well_typed(changed(out[pos].body, m.a, m.b, state, out, pools))
            if body is not None:
                out[pos] = Event(0, 0, body)
        elif op == INSERT:
            body = well_typed(foreign(m.a, m.b, state, out, pools))
            if body is not None:
                out.insert(pos if out else 0, Event(0, 0, body))
        else:  # SPLICE
            other = _pick(pools.bases, m.a).events
            j = m.b % len(other)
            out = out[:pos] + list(other[j:j + len(out) - pos + 4])
    return out


def random_mutations(rng: random.Random, length: int) -> list[Mutation]:
    """Mutations in the first ``length`` events of a tail: mostly one to three in its first
    eight, one time in five three to eight anywhere in it (a table far off the book)."""
    if rng.random() < 0.2:
        n = rng.randint(3, 8)
        reach = max(1, length)
    else:
        n = 1 + (rng.random() < 0.35) + (rng.random() < 0.15)
        reach = max(1, min(length, 8))
    return [Mutation(rng.choice((DROP, DUP, SWAP, MOVE, FIELD, FIELD, INSERT, INSERT, INSERT,
                                 SPLICE)) if rng.random() < 0.97 else SPLICE,
                     rng.randrange(reach), rng.randrange(1 << 16), rng.randrange(1 << 16))
            for _ in range(n)]


# --- running a stream and checking it ------------------------------------------------------------


@dataclass(frozen=True)
class Crash:
    """A failure: where (``site``), what (``what``), and the whole event sequence from the empty
    table that produced it (``events``, the prefix of the base stream then the mutated tail)."""

    site: str
    what: str
    events: tuple[Event, ...]


class CheckFailed(Exception):
    """A check on the core's output failed (not an exception of the core itself)."""

    def __init__(self, site: str, what: str) -> None:
        super().__init__(what)
        self.site = site


def site_of(exc: BaseException) -> str:
    """Where an exception was raised: its type and the innermost frame of ``controller/``."""
    if isinstance(exc, CheckFailed):
        return exc.site
    frames = traceback.extract_tb(exc.__traceback__)
    inner = [f for f in frames if "/controller/" in f.filename.replace("\\", "/")]
    where = inner[-1] if inner else (frames[-1] if frames else None)
    if where is None:
        return type(exc).__name__
    path = where.filename.replace("\\", "/")
    path = path[path.rfind("/controller/") + 1:] if "/controller/" in path else path
    return f"{type(exc).__name__} at {path}:{where.lineno} in {where.name}"


def check_step(findings: Sequence[Any], results: Sequence[Any]) -> None:
    """Every finding and award serialises to JSON; no award is negative."""
    try:
        for f in findings:
            json.dumps(f.to_json())
        for a in results:
            json.dumps(a.to_json())
    except Exception as exc:  # the fuzzer catches every failure of the core
        raise CheckFailed("check: finding or award to_json/json.dumps",
                          f"{type(exc).__name__}: {exc}") from exc
    for a in results:
        if a.amount < 0 or any(v < 0 for v in a.shares.values()):
            raise CheckFailed("check: negative award", f"award {a.to_json()}")


def check_state(state: TableState) -> dict[str, Any]:
    """``snapshot`` and ``json.dumps`` of it work; no stack is negative. The snapshot."""
    try:
        snap = snapshot(state)
        json.dumps(snap)
    except Exception as exc:  # the fuzzer catches every failure of the core
        raise CheckFailed(f"snapshot: {site_of(exc)}", f"{type(exc).__name__}: {exc}") from exc
    for s in snap.get("seats", ()):
        if s.get("stack", 0) < 0:
            raise CheckFailed("check: negative stack", f"seat {s.get('seat')}: {s}")
    return snap


# --- chip conservation ---------------------------------------------------------------------------

# Events that bring chips to the table or take them away: a buy-in, a re-buy or a stack
# corrected (``seat.take``), a cash-out (``seat.leave``), a colour-up's rounding
# (``chiprace.end``). Every other event leaves the table's chips as they were, but for the rake.
CHIPS_IN_OR_OUT = frozenset({"seat.take", "seat.leave", "chiprace.end"})
# Where the core takes the house's rake off the winners' stacks: the award judged as the push
# settles (``chips.zone``), or at the next ``hand.start`` when the push was never seen to end.
RAKE_EVENTS = frozenset({"chips.zone", "hand.start"})


def table_chips(state: TableState) -> int:
    """The players' chips as the core holds them: every seated player's stack (a seat dealt into
    the hand in play: its stack in the hand engine) plus the chips in play in the hand (the
    engine's pot: antes, blinds and bets of every street; once the hand is over and the engine
    has settled it, in the winners' stacks already, but for the antes a deal nobody opened
    leaves to the next), plus those antes carried to the next deal (``TableState.carry``)."""
    stacks = {n: st.stack for n, st in state.seating.seats.items()}
    total = state.carry
    h = state.hand
    g = h.game if h is not None and h.in_play else None
    if g is not None:
        e = g.eng
        for i, seat in enumerate(g.seats):
            stacks.pop(seat, None)
            total += e.stacks[i]
        total += e.carry_over if e.is_over else e.pot
    return total + sum(stacks.values())


def rake_schedule(pot: int, percent: int, cap: int) -> int:
    """The most the house may rake from ``pot`` (docs/chips.md, table.setup's ``rake_percent``
    and ``rake_cap``): the percentage, rounded down, at most the cap (0: none)."""
    r = pot * percent // 100
    return min(r, cap) if cap else r


class Conservation:
    """The chip-conservation check, event by event (``table_chips`` before and after).

    Conserved: the table's chips (``table_chips``: the stacks plus the pot and bets of the hand
    in play plus the antes carried). They may change only at ``CHIPS_IN_OR_OUT`` (any amount,
    as the event says), at ``undo`` (back to the total before the undone event, or unchanged
    when the undo is refused), and by the rake, the one legal outflow: they may fall at a
    ``RAKE_EVENTS`` event by no more than the rake left of the last award, the schedule of the
    ``table.setup`` in force at ``hand.end`` applied to the pots it awarded (its ``results``),
    used up as the core takes it, and none once the next hand has started. A stream cut (or
    undone) between a ``hand.end`` and its award's judging starts with that schedule (at most:
    the part already taken is not known). Anything else is a crash at site ``check: chips not
    conserved at <event type>``."""

    def __init__(self, state: TableState) -> None:
        self.total = table_chips(state)
        self.rake_left = self._rake_at(state)

    @classmethod
    def _rake_at(cls, state: TableState) -> int:
        """The rake an award not yet judged may still take, at most (its schedule), for a
        stream that starts at ``state`` or goes back to it."""
        return cls._award_rake(state, state.results) if state.phase == "complete" else 0

    @staticmethod
    def _award_rake(state: TableState, results: Sequence[Any]) -> int:
        pot = sum(n for a in results for n in a.shares.values())
        return rake_schedule(pot, state.setup.rake_percent, state.setup.rake_cap)

    def step(self, before: TableState, event: Event, after: TableState,
             results: Sequence[Any]) -> None:
        """Check one applied event (``results``: the awards it made); raise CheckFailed."""
        total = table_chips(after)
        kind = event.type
        was, self.total = self.total, total
        if kind == "undo":
            # back to the state before the last event an undo takes back (``previous``: a
            # chips.zone that made no betting action and a reader's report are not such events)
            # or, with nothing to undo, unchanged
            back = table_chips(before.previous) if before.previous is not None else was
            if total != back:
                raise CheckFailed(f"check: chips not conserved at {kind}",
                                  f"table chips {was} -> {total}, {back} before the undone "
                                  f"event (event {event.seq})")
            self.rake_left = self._rake_at(after)
            return
        if kind not in CHIPS_IN_OR_OUT and total != was:
            if not (kind in RAKE_EVENTS and 0 < was - total <= self.rake_left):
                raise CheckFailed(f"check: chips not conserved at {kind}",
                                  f"table chips {was} -> {total} (event {event.seq}); the "
                                  f"rake left to take: {self.rake_left}")
            self.rake_left -= was - total
        if kind == "hand.end" and results:
            self.rake_left = self._award_rake(after, results)
        elif kind == "hand.start" and after.hand_number != before.hand_number:
            self.rake_left = 0  # the last award is judged as a hand starts


def run_events(state: TableState, events: Sequence[Event], *, full: bool) -> TableState:
    """Apply ``events`` from ``state``, checking as described in the module docstring; a
    failure raises (the core's own exception, or CheckFailed). ``full``: the per-event purity
    and snapshot checks."""
    before = check_state(state) if full else None
    chips = Conservation(state)
    for e in events:
        step = apply(state, e)
        check_step(step.findings, step.results)
        chips.step(state, e, step.state, step.results)
        if full:
            if snapshot(state) != before:
                raise CheckFailed("check: apply changed the state it was given",
                                  f"event {e.to_line()}")
            before = check_state(step.state)
        state = step.state
    if not full:
        check_state(state)
    return state


def renumbered(events: Iterable[Event], start: int) -> list[Event]:
    return [Event(seq, 0, e.body) for seq, e in enumerate(events, start=start)]


def branch(track: Track, k: int, mutations: Sequence[Mutation], pools: Pools, *,
           window: int, hands: bool, full: bool) -> Crash | None:
    """Run one mutated stream: the base cut at ``k``, its tail (``window`` events, or with
    ``hands`` through the next hand) mutated. None, or the crash."""
    end = track.through_next_hand(k) if hands else min(len(track), k + window)
    state = track.states[k]
    tail = renumbered(mutate(track.base.events[k:max(end, k + 1)], mutations, state, pools),
                      k + 1)
    try:
        run_events(state, tail, full=full)
    except Exception as exc:  # the fuzzer catches every failure of the core
        return Crash(site_of(exc), f"{type(exc).__name__}: {exc}",
                     (*track.base.events[:k], *tail))
    return None


def crash_site(events: Sequence[Event]) -> str | None:
    """Replay ``events`` from the empty table with every check on: the crash site, or None."""
    try:
        run_events(initial_state(), renumbered(events, 1), full=True)
    except Exception as exc:  # the fuzzer catches every failure of the core
        return site_of(exc)
    return None


def minimize(events: Sequence[Event], site: str, budget: int = 4000) -> list[Event]:
    """The shortest sequence found (delta debugging, at most ``budget`` replays) that still
    crashes at ``site``, renumbered from 1."""
    current = list(events)
    tries = 0
    n = 2
    while len(current) >= 2 and tries < budget:
        size = len(current) // n
        reduced = False
        for i in range(n):
            candidate = current[:i * size] + current[(i + 1) * size:] if i < n - 1 \
                else current[:i * size]
            tries += 1
            if candidate and crash_site(candidate) == site:
                current = candidate
                n = max(n - 1, 2)
                reduced = True
                break
        if not reduced:
            if n >= len(current):
                break
            n = min(n * 2, len(current))
    return renumbered(current, 1)


# --- the bench ------------------------------------------------------------------------------------


@dataclass
class Batch:
    """What one batch of streams found."""

    index: int
    streams: int
    seconds: float
    crashes: list[Crash]


_WORKER: dict[str, Any] = {}


def _setup_worker(seed: int, size: str) -> None:
    bases = bench_corpus(seed, size)
    _WORKER["tracks"] = [Track(b) for b in bases]
    _WORKER["pools"] = Pools.of(bases)


def bench_corpus(seed: int, size: str = "full") -> list[Base]:
    """The bench's base streams (``size`` small: for a quick look)."""
    if size == "small":
        return corpus(seed, holdem=2, hands=10, game_hands=6, raked=1)
    return corpus(seed, holdem=8, hands=40, game_hands=20, games_each=2, raked=4)


def run_batch(index: int, seed: int, streams: int, window: int, deep_every: int) -> Batch:
    """``streams`` mutated streams drawn from ``random.Random((seed, index))``; one in
    ``deep_every`` runs through the next hand (0: none)."""
    tracks: list[Track] = _WORKER["tracks"]
    pools: Pools = _WORKER["pools"]
    rng = random.Random(f"{seed}:{index}")
    crashes: list[Crash] = []
    started = time.perf_counter()
    for n in range(streams):
        track, k = locate(tracks, rng.randrange(1 << 30))
        muts = random_mutations(rng, window)
        hands = deep_every > 0 and n % deep_every == 0
        crash = branch(track, k, muts, pools, window=window, hands=hands,
                       full=n % PURITY_EVERY == 0)
        if crash is not None and len(crashes) < 50:
            crashes.append(crash)
    return Batch(index, streams, time.perf_counter() - started, crashes)


def _run_batch(args: tuple[int, int, int, int, int]) -> Batch:
    return run_batch(*args)


def write_crashes(path: Path, firsts: Sequence[tuple[Crash, list[Event]]]) -> None:
    """Each crash site's minimal sequence as a scenario file (comment lines name the site)."""
    with path.open("w", encoding="utf-8") as fh:
        for crash, events in firsts:
            fh.write(f"# site: {crash.site}\n# {crash.what}\n")
            for e in events:
                fh.write(e.to_line() + "\n")
            fh.write("\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--batch", type=int, default=5000, help="streams per batch")
    parser.add_argument("--window", type=int, default=16,
                        help="tail events mutations are made in (the tail runs on through "
                             "the next hand)")
    parser.add_argument("--deep-every", type=int, default=8,
                        help="one stream in this many runs on through the next hand (0: none, "
                             "1: all)")
    parser.add_argument("--corpus", choices=("full", "small"), default="full")
    parser.add_argument("--crashes", type=Path, default=Path("fuzz-crashes.jsonl"),
                        help="where the minimal sequences of the first crash sites go")
    args = parser.parse_args(argv)
    if args.streams < 1 or args.workers < 1 or args.batch < 1 or args.deep_every < 0:
        print("bench.fuzz: --streams, --workers and --batch must be at least 1, --deep-every "
              "at least 0", file=sys.stderr)
        return 2
    started = time.perf_counter()
    batches = [(i, args.seed, min(args.batch, args.streams - i * args.batch), args.window,
                args.deep_every) for i in range((args.streams + args.batch - 1) // args.batch)]
    print(f"fuzz: {args.streams} mutated streams, seed {args.seed}, {args.workers} worker(s), "
          f"{len(batches)} batch(es) of {args.batch}, tails of {args.window} events, one "
          f"stream in {args.deep_every or 'none'} through the next hand; building the base "
          "streams ...", flush=True)
    results: list[Batch] = []
    if args.workers == 1:
        _setup_worker(args.seed, args.corpus)
        for b in batches:
            results.append(_run_batch(b))
            _progress(results, len(batches))
    else:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(args.workers, initializer=_setup_worker,
                      initargs=(args.seed, args.corpus)) as pool:
            for batch in pool.imap_unordered(_run_batch, batches):
                results.append(batch)
                _progress(results, len(batches))
    took = time.perf_counter() - started
    streams = sum(b.streams for b in results)
    crashes = [c for b in sorted(results, key=lambda b: b.index) for c in b.crashes]
    sites: dict[str, list[Crash]] = {}
    for c in crashes:
        sites.setdefault(c.site, []).append(c)
    rates = sorted(b.streams / b.seconds for b in results if b.seconds > 0)
    print(f"streams run: {streams} in {took:.0f} s")
    print(f"crashes: {sum(len(b.crashes) for b in results)} (at most 50 kept per batch)")
    print(f"distinct crash sites: {len(sites)}")
    for site, cs in sorted(sites.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(cs):>6}  {site}")
    if rates:
        print(f"streams per second per batch ({len(rates)} batches of up to {args.batch}, "
              f"{args.workers} worker(s)): min {rates[0]:.0f} / median "
              f"{statistics.median(rates):.0f} / max {rates[-1]:.0f}")
    if sites:
        firsts = [(cs[0], minimize(cs[0].events, site)) for site, cs in list(sites.items())[:5]]
        write_crashes(args.crashes, firsts)
        print(f"minimal sequences of the first {len(firsts)} crash site(s): {args.crashes}")
        return 1
    return 0


def _progress(results: Sequence[Batch], total: int) -> None:
    done = len(results)
    if done == total or done % max(1, total // 20) == 0:
        streams = sum(b.streams for b in results)
        crashes = sum(len(b.crashes) for b in results)
        print(f"  {done}/{total} batches, {streams} streams, {crashes} crashes", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
