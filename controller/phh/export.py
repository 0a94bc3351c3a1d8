"""Export the hands the live table played as PHH: journal -> rules core -> one hand per table hand.

The journal's events are replayed through the live rules core (``controller.rules.apply``), which
is the only authority on what happened: which seats were dealt in, the stacks, which action it
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

from controller.events import Action, Event, HandStart, read_scenario
from controller.journal import is_journal_file, read_events
from controller.phh.notation import HandHistory, Number, PhhAction, parse_action
from controller.rules import TableState, apply, initial_state
from controller.rules.betting import Betting
from controller.rules.cards import is_card
from controller.rules.findings import Finding
from controller.rules.pots import PotAward


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


def _betting_text(rec: _Record, before: Betting, after: Betting, seat: int) -> str | None:
    """The PHH action for what the core applied to ``seat`` (None: it applied nothing)."""
    p0, p1 = before.player(seat), after.player(seat)
    if p0 is None or p1 is None:
        return None
    who = _player(rec, seat)
    if p1.folded and not p0.folded:
        return f"{who} f"
    put = p1.total - p0.total
    if put == 0:
        # a check (the core advanced the turn) or an action it refused (nothing changed)
        changed = after.actions != before.actions or after.street != before.street
        return f"{who} cc" if changed else None
    street_bet = p0.bet + put
    if street_bet > before.current_bet:
        reach = max((p.bet + p.stack for p in before.players
                     if p.seat != seat and not p.folded), default=0)
        if reach <= before.current_bet:
            # Nobody left can put in more than the bet (the others are all-in or can only
            # call all-in): for PHH (and PokerKit) this is a call, and the table returns the
            # rest as an uncalled bet.
            return f"{who} cc # to {street_bet}; the excess is returned uncalled"
        rec.aggressor[before.street] = seat
        return f"{who} cbr {street_bet}"
    return f"{who} cc"


class _Exporter:
    def __init__(self) -> None:
        self.state: TableState = initial_state()
        self.records: list[_Record] = []
        self.current: _Record | None = None

    def feed(self, event: Event) -> None:
        before = self.state
        step = apply(before, event)
        after = self.state = step.state
        rec = self.current
        body = event.body
        if isinstance(body, HandStart) and after.hand_number != before.hand_number:
            rec = self.current = self._start(after, event.seq)
            self.records.append(rec)
        if rec is None:
            return
        rec.last_seq = event.seq
        rec.findings.extend(step.findings)
        h0, h1 = before.hand, after.hand
        if h1 is None or h1.number != rec.number:
            return
        if isinstance(body, Action) and body.kind != "post" and h0 is not None and h0.in_play:
            text = _betting_text(rec, h0.betting, h1.betting, body.seat)
            if text is not None:
                rec.bets.append((h0.betting.street, text))
        if h1.in_play:
            self._cards(rec, after)
            b = h1.betting
            if b.no_more_betting and not b.hand_over and len(h1.deal.board) < 5:
                rec.runout = True
        if h1.phase == "complete" and rec.outcome != "complete":
            rec.outcome = "complete"
            rec.showdown = h1.showdown
            rec.awards = step.results
            rec.finishing = tuple(after.seats[s].stack for s in rec.order)
        elif h1.phase == "misdeal" and rec.outcome != "misdeal":
            rec.outcome = "misdeal"
            rec.finishing = tuple(after.seats[s].stack for s in rec.order)

    def _start(self, state: TableState, seq: int) -> _Record:
        h = state.hand
        assert h is not None  # a hand.start the core accepted
        order = tuple(p.seat for p in h.betting.players)
        setup = state.setup
        # The stacks before the blinds: the chips behind plus what each seat has posted.
        starting = tuple(p.stack + p.total for p in h.betting.players)
        return _Record(number=h.number, button=h.button, order=order,
                       names=tuple(state.seats[s].player for s in order), starting=starting,
                       small_blind=setup.small_blind, big_blind=setup.big_blind,
                       seat_count=setup.seats, first_seq=seq)

    def _cards(self, rec: _Record, state: TableState) -> None:
        h = state.hand
        assert h is not None
        for seat in rec.order:
            cards = h.deal.hole(seat)
            # A folded hand goes to the muck: keep the cards the seat held.
            if cards and len(cards) >= len(rec.holes.get(seat, ())):
                rec.holes[seat] = cards
        if len(h.deal.board) >= len(rec.board):
            rec.board = h.deal.board

    def finish(self) -> list[HandHistory]:
        out = []
        for rec in self.records:
            if rec.finishing is None:  # the journal stops in the middle of this hand
                h = self.state.hand
                if h is not None and h.number == rec.number:
                    rec.finishing = tuple(p.stack for p in h.betting.players)
                else:  # pragma: no cover - a new hand cannot start while one is in play
                    rec.finishing = rec.starting
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
    if is_journal_file(path):
        return export_events(read_events(path))
    return export_events(read_scenario(path))
