"""Export the hands the live table played as PHH: journal -> rules core -> one hand per table hand.

The journal's events are replayed through the live rules core (``controller.rules.apply`` under
the daemon's guard, ``controller.guard``, read through its public view ``snapshot``), which is
the only authority on what happened: which seats were dealt in, the stacks, which action it
applied (and how: an undersized bet it raised to the minimum is exported at the size it was
applied), the cards in each seat and on the board, and the pots. For each table hand this module
writes one ``HandHistory``:

- variant ``NT`` (the live table plays no-limit hold'em), players in PHH order: p1 is the first
  seat left of the button, pn the button (heads-up: p1 the big blind, p2 the button, and PHH
  reverses ``blinds_or_straddles`` for two players, as the table does: roberts-rules-v11.txt,
  Section 4, Rules for Using Blinds, r.3);
- ``players``, ``seats`` (table seat of each player), ``seat_count``, ``hand`` (the table's hand
  number), ``starting_stacks`` (before the blinds), ``finishing_stacks`` (after the pots, or
  every chip back after a misdeal, or the chips behind for a hand the journal stops in);
- ``actions``: the hole cards (``??`` for a tag that is not in the deck), each betting action
  the core applied, street by street with the board cards between, and the hands tabled at the
  showdown in the order of roberts-rules-v11.txt, Section 3, The Showdown, r.8 (the last bettor
  or raiser of the final round first, else the first to act; then clockwise). At an all-in
  before the river the hands are tabled before the rest of the board, as PokerKit deals it;
- user-defined fields: ``_findings`` (code, seq, severity, seats, cards, rule, message of every
  irregularity the core raised during the hand), ``_outcome`` (``complete``, ``misdeal`` or
  ``incomplete``), ``_button`` (the button's seat), ``_seq`` (first and last journal seq of the
  hand) and ``_pots`` (the pots as awarded).

Blinds are not actions in PHH (``blinds_or_straddles`` posts them), so ``post`` events are not
exported. v1 of the rules core collects no antes, so ``antes`` are zeros.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.events import Action, Event, HandStart
from controller.guard import guarded_apply
from controller.journal import iter_events
from controller.phh.notation import HandHistory, Number, PhhAction, parse_action
from controller.rules import Finding, PotAward, TableState, initial_state, snapshot
from controller.rules.cards import is_card


@dataclass
class _Record:
    """What the exporter learns about one table hand while the events go by."""

    number: int
    button: int
    order: tuple[int, ...]  # table seats in PHH order
    names: tuple[str, ...]
    starting: tuple[int, ...]
    small_blind: int
    big_blind: int
    seat_count: int
    first_seq: int
    last_seq: int = 0
    holes: dict[int, tuple[str, ...]] = field(default_factory=dict)
    bets: list[tuple[int, str]] = field(default_factory=list)  # (street, PHH action text)
    aggressor: dict[int, int] = field(default_factory=dict)  # street -> last bettor's seat
    board: tuple[str, ...] = ()
    findings: list[Finding] = field(default_factory=list)
    outcome: str = "incomplete"
    finishing: tuple[int, ...] | None = None
    runout: bool = False  # the betting ended (all-in) before the river was dealt
    showdown: tuple[int, ...] = ()
    awards: tuple[PotAward, ...] = ()


def _player(rec: _Record, seat: int) -> str:
    return f"p{rec.order.index(seat) + 1}"


def _card_text(name: str) -> str:
    return name if is_card(name) else "??"  # a tag outside the deck is an unknown card


_STREETS = {"preflop": 0, "flop": 1, "turn": 2, "river": 3}
_IN_PLAY = (*_STREETS, "showdown")

Snapshot = dict[str, Any]


def _seats(snap: Snapshot) -> dict[int, dict[str, Any]]:
    return {s["seat"]: s for s in snap["seats"]}


def _betting_text(rec: _Record, before: Snapshot, after: Snapshot, seat: int) -> str | None:
    """The PHH action for what the core applied to ``seat`` (None: it applied nothing)."""
    seats0, seats1 = _seats(before), _seats(after)
    s0, s1 = seats0.get(seat), seats1.get(seat)
    if s0 is None or s1 is None or not s0["in_hand"]:
        return None
    h0, h1 = before["hand"], after["hand"]
    who = _player(rec, seat)
    if s1["folded"] and not s0["folded"]:
        return f"{who} f"
    put = s0["stack"] - s1["stack"]
    if put == 0:
        # a check moves the turn on; an action the core refused changes nothing
        moved = h1["to_act"] != h0["to_act"] or h1["phase"] != h0["phase"]
        return f"{who} cc" if moved else None
    street_bet = s0["bet"] + put
    if street_bet > h0["current_bet"]:
        # (The core allows no raise that nobody left could call: betting.Betting.can_raise.)
        rec.aggressor[_STREETS[h0["phase"]]] = seat
        return f"{who} cbr {street_bet}"
    return f"{who} cc"


class _Exporter:
    """Feeds the events to the rules core and learns each hand from the snapshots."""

    def __init__(self) -> None:
        self.state: TableState = initial_state()
        self.snap: Snapshot = snapshot(self.state)
        self.records: list[_Record] = []
        self.current: _Record | None = None

    def feed(self, event: Event) -> None:
        before = self.snap
        applied = guarded_apply(self.state, event)  # the daemon's path: the same states
        step = applied.step
        self.state = step.state
        after = self.snap = dict(applied.snap)
        h0, h1 = before["hand"], after["hand"]
        body = event.body
        rec = self.current
        if isinstance(body, HandStart) and h1["number"] != h0["number"]:
            rec = self.current = self._start(after, event.seq)
            self.records.append(rec)
        if rec is None:
            return
        rec.last_seq = event.seq
        rec.findings.extend(step.findings)
        if h1["number"] != rec.number:
            return
        if isinstance(body, Action) and body.kind != "post" and h0["number"] == rec.number \
                and h0["phase"] in _STREETS:
            text = _betting_text(rec, before, after, body.seat)
            if text is not None:
                rec.bets.append((_STREETS[h0["phase"]], text))
        phase = h1["phase"]
        if phase in _IN_PLAY:
            self._cards(rec, after)
            live = sum(1 for s in after["seats"] if s["in_hand"] and not s["folded"])
            if phase == "showdown" and live > 1 and len(h1["board"]) < 5:
                rec.runout = True
        elif phase == "complete" and rec.outcome != "complete":
            rec.outcome = "complete"
            rec.showdown = tuple(h1["showdown"])
            rec.awards = step.results
            rec.finishing = self._stacks(rec, after)
        elif phase == "misdeal" and rec.outcome != "misdeal":
            rec.outcome = "misdeal"
            rec.finishing = self._stacks(rec, after)

    @staticmethod
    def _stacks(rec: _Record, snap: Snapshot) -> tuple[int, ...]:
        seats = _seats(snap)
        return tuple(int(seats[s]["stack"]) for s in rec.order)

    def _start(self, snap: Snapshot, seq: int) -> _Record:
        h, table = snap["hand"], snap["table"]
        button, count = h["button"], table["seats"]
        dealt = [s for s in snap["seats"] if s["in_hand"]]
        # PHH order: the first seat left of the button first, the button last.
        dealt.sort(key=lambda s: (s["seat"] - button - 1) % count)
        return _Record(number=h["number"], button=button,
                       order=tuple(s["seat"] for s in dealt),
                       names=tuple(s["player"] for s in dealt),
                       starting=tuple(s["stack"] + s["bet"] for s in dealt),  # before blinds
                       small_blind=table["small_blind"], big_blind=table["big_blind"],
                       seat_count=count, first_seq=seq)

    @staticmethod
    def _cards(rec: _Record, snap: Snapshot) -> None:
        for s in snap["seats"]:
            cards = tuple(s["hole"])
            # A folded hand goes to the muck: keep the cards the seat held.
            if s["seat"] in rec.order and cards and \
                    len(cards) >= len(rec.holes.get(s["seat"], ())):
                rec.holes[s["seat"]] = cards
        board = tuple(snap["hand"]["board"])
        if len(board) >= len(rec.board):
            rec.board = board

    def finish(self) -> list[HandHistory]:
        out = []
        for rec in self.records:
            if rec.finishing is None:
                # The journal stops in the middle of this hand: the chips behind (PHH's
                # finishing_stacks of a hand that is not over).
                rec.finishing = self._stacks(rec, self.snap)
            out.append(_history(rec))
        return out


def _history(rec: _Record) -> HandHistory:
    texts: list[str] = []
    for seat in rec.order:
        cards = rec.holes.get(seat)
        if cards:
            texts.append(f"d dh {_player(rec, seat)} {''.join(_card_text(c) for c in cards)}")
    board = [_card_text(c) for c in rec.board]
    ends = (0, 3, 4, 5)  # board cards once each street's cards are out
    shown = 0
    for street in range(4):
        bets = [t for s, t in rec.bets if s == street]
        if street and bets and len(board) >= ends[street]:
            texts.append(f"d db {''.join(board[ends[street - 1]:ends[street]])}")
            shown = ends[street]
        texts.extend(bets)
    shows = _shows(rec)
    if rec.runout and shows:
        texts.extend(shows)  # the hands are tabled at the all-in, then the board is run out
        shows = []
    for street in (1, 2, 3):  # the rest of the board, dealt without betting, street by street
        if shown < ends[street] <= len(board):
            texts.append(f"d db {''.join(board[max(shown, ends[street - 1]):ends[street]])}")
            shown = ends[street]
    texts.extend(shows)
    n = len(rec.order)
    blinds: list[Number] = [0] * n
    if n == 2:
        blinds = [rec.small_blind, rec.big_blind]  # PHH reverses them for two players
    else:
        blinds[0], blinds[1] = rec.small_blind, rec.big_blind
    user: dict[str, Any] = {
        "_outcome": rec.outcome,
        "_button": rec.button,
        "_seq": [rec.first_seq, rec.last_seq],
        "_findings": [_finding(f) for f in rec.findings],
    }
    if rec.awards:
        user["_pots"] = [_pot(a) for a in rec.awards]
    actions: tuple[PhhAction, ...] = tuple(parse_action(t, n) for t in texts)
    return HandHistory(
        variant="NT", antes=(0,) * n, blinds_or_straddles=tuple(blinds), min_bet=rec.big_blind,
        starting_stacks=rec.starting, actions=actions, hand=rec.number, players=rec.names,
        finishing_stacks=rec.finishing,
        optional={"seats": list(rec.order), "seat_count": rec.seat_count},
        user=user, name=f"hand {rec.number}",
    )


def _shows(rec: _Record) -> list[str]:
    """The tabled hands in showdown order (roberts-rules-v11.txt, Section 3, The Showdown,
    r.8): the last player to bet or raise on the final betting round first, else the first
    player to act on it; then clockwise."""
    if not rec.showdown:
        return []
    last_street = max((s for s, _ in rec.bets), default=0)
    first = rec.aggressor.get(last_street)
    seats = [s for s in rec.order if s in rec.showdown]
    if first in seats:
        i = seats.index(first)
        seats = seats[i:] + seats[:i]
    out = []
    for seat in seats:
        cards = rec.holes.get(seat, ())
        out.append(f"{_player(rec, seat)} sm {''.join(_card_text(c) for c in cards)}"
                   if cards else f"{_player(rec, seat)} sm")
    return out


def _finding(f: Finding) -> dict[str, Any]:
    return {"code": f.code, "seq": f.seq, "severity": f.severity, "seats": list(f.seats),
            "cards": list(f.cards), "rule": f.rule.to_json(), "message": f.message}


def _pot(a: PotAward) -> dict[str, Any]:
    data = a.to_json()
    return {"amount": data["amount"], "eligible": data["eligible"], "winners": data["winners"],
            "shares": data["shares"], "hand": data["hand"]}


# --- entry points ---------------------------------------------------------------------------------


def export_events(events: Iterable[Event]) -> list[HandHistory]:
    """One HandHistory per hand the table started in ``events`` (in order)."""
    exporter = _Exporter()
    for event in events:
        exporter.feed(event)
    return exporter.finish()


def export_file(path: str | Path) -> list[HandHistory]:
    """The hands of a journal (SQLite) or a scenario file (JSON Lines). Raises
    ``controller.journal.JournalError`` or ``controller.events.EventError`` for a bad file."""
    return export_events(iter_events(path))
