"""Export the hands the live table played as PHH: journal -> rules core -> one hand per table hand.

The journal's events are replayed through the live rules core (``controller.rules.apply`` under
the daemon's guard, ``controller.guard``, read through its public view ``snapshot``), which is
the only authority on what happened: which seats were dealt in, the stacks, which action it
applied (and how: an undersized bet it raised to the minimum is exported at the size it was
applied), the cards in each seat and on the board, and the pots. For each table hand this module
writes one ``HandHistory``:

- ``variant``: the standard PHH code of the game the hand was dealt at (``variants.phh_code``:
  the code of ``PHH_VARIANTS`` whose game is dealt and bet the same, so limit hold'em is ``FT``
  whatever the table calls it), else Feltguard's extension ``x:<game>/<structure>`` (five-card
  Omaha, the Pineapples, pot-limit hold'em, draw high, ace-to-five lowball, ...), which our
  reader and replay know and PokerKit does not; ``_game`` and ``_structure`` name it too;
- the stakes as the hand engine posts them (the snapshot's ``hand.stakes``): ``antes``,
  ``blinds_or_straddles`` (heads-up reversed, as PHH does), ``bring_in`` (stud),
  ``small_bet``/``big_bet`` (limit), ``min_bet`` (no-limit, pot-limit); ``starting_stacks``
  before any of them;
- players in the engine's order (``hand.dealt_in``: board and draw games p1 left of the button,
  the button last; stud from seat 1); ``players``, ``seats``, ``seat_count``, ``hand``;
- ``actions``: the cards dealt, written before the next action (board games the hole cards,
  then each street's board; stud the three cards of third street, then one card a street; a
  draw round ``pN sd CARDS`` (``pN sd`` standing pat) for every player, then ``d dh pN`` the
  cards drawn, as PokerKit reads it; a Pineapple discard ``pN sd CARD``), each betting
  action the core applied (``f``, ``cc``, ``cbr``, the
  bring-in ``pb``), and the hands tabled (``sm``) in the order of roberts-rules-v11.txt,
  Section 3, The Showdown, r.8; at an all-in the hands are tabled before the rest is dealt;
- user-defined fields: ``_outcome`` (``complete``, ``misdeal`` or ``incomplete``), ``_findings``,
  ``_button``, ``_seq``, ``_pots``; ``_dead`` (hands the dealer killed, a wrong card count
  once the deal is played: ``{player, seat, before_action}``, which our replay kills there);
  ``_set_aside`` (cards a remedy took from a hand); ``_house`` (the engine's house settings
  that differ from its defaults, snapshot ``hand.house``: our replay plays the hand under
  them) and ``_profile``; ``_carry_in`` and ``_carry_out`` (draw high's antes carried into
  the hand and left for the next deal, snapshot ``hand.carry``);
  ``_extra_cards`` (cards beyond the game's count, left out of ``d dh``); ``_taken_out`` (a
  stud hand dead before the betting, its ante returned: not among the players).

What the table played after a remedy: the board as it finally stands (a card turned early is
written when its street comes), a hand's cards without those a remedy took (the replacement is
written where the card was), a short starting hand completed late in the starting deal.

A void hand (``_outcome = "misdeal"``) is written with what was dealt and bet before the
misdeal and ``finishing_stacks`` equal to ``starting_stacks``: our replay does not play it and
expects every chip back (``replay.is_void``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.events import Action, Event, HandStart, ZoneLeave, ZoneRead
from controller.guard import guarded_apply
from controller.journal import (
    JournalError,
    is_journal_file,
    iter_events,
    read_events,
    run_opening,
)
from controller.phh.notation import (
    JOKER,
    HandHistory,
    Number,
    PhhAction,
    parse_action,
    required_stakes,
)
from controller.poker.cards import is_card
from controller.poker.variants import Variant, family, phh_code, table_game
from controller.rules import (
    CheckpointError,
    Finding,
    PotAward,
    TableState,
    initial_state,
    snapshot,
    state_from_text,
)

Snapshot = dict[str, Any]

# The outcomes of a hand (``_outcome``); a void hand returns every chip, whatever its actions.
VOID_OUTCOMES = frozenset({"misdeal"})


@dataclass
class _Record:
    """What the exporter learns about one table hand while the events go by."""

    number: int
    button: int
    order: tuple[int, ...]  # table seats in PHH order (the snapshot's dealt_in)
    names: tuple[str, ...]
    game: Variant
    seat_count: int
    first_seq: int
    stakes: dict[str, Any] = field(default_factory=dict)
    house: dict[str, Any] = field(default_factory=dict)  # the engine's settings (hand.house)
    profile: str = ""
    carry_in: int = 0  # antes carried into the hand from deals nobody opened (hand.carry)
    carry_out: int = 0  # antes the hand leaves for the next deal (nobody opened)
    last_seq: int = 0
    texts: list[str] = field(default_factory=list)  # the PHH actions so far
    written: dict[int, list[str]] = field(default_factory=dict)  # seat -> cards held, as written
    pending: dict[int, list[str]] = field(default_factory=dict)  # seat -> cards dealt, unwritten
    discards: dict[int, list[str]] = field(default_factory=dict)  # seat -> discards, unwritten
    drawing: set[int] = field(default_factory=set)  # seats whose draw is not written yet
    extra: dict[int, list[str]] = field(default_factory=dict)  # seat -> cards beyond the game's
    dealt_texts: dict[int, tuple[int, list[str]]] = field(default_factory=dict)  # d dh texts
    vacant: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # seat -> (text, pos)
    set_aside: list[str] = field(default_factory=list)  # cards a remedy took from a hand
    thrown: dict[int, int] = field(default_factory=dict)  # seat -> cards discarded in the hand
    board: list[str] = field(default_factory=list)  # the board as it stands (the last read)
    board_written: int = 0
    board_texts: list[tuple[int, int, int]] = field(default_factory=list)  # (text, start, end)
    street: int = 0  # the betting round of the last action
    aggressor: dict[int, int] = field(default_factory=dict)  # street -> last bettor's seat
    opener: dict[int, int] = field(default_factory=dict)  # street -> first seat to act
    dead: list[dict[str, Any]] = field(default_factory=list)  # hands the dealer killed
    findings: list[Finding] = field(default_factory=list)
    outcome: str = "incomplete"
    finishing: tuple[int, ...] | None = None
    betting_over_at: int | None = None  # len(texts) when the betting ended with hands live
    showdown: tuple[int, ...] = ()
    awards: tuple[PotAward, ...] = ()


def _player(rec: _Record, seat: int) -> str:
    """The seat in an action's text; ``_render`` makes it the player (pN) once the hand's
    players are known (a stud hand taken out before the betting is not one)."""
    return f"@{seat}"


_SEAT_RE = re.compile(r"@([0-9]+)")


def _render(text: str, order: tuple[int, ...]) -> str | None:
    """The action with its seats as players; None when it names a seat not among them."""
    seats = [int(m) for m in _SEAT_RE.findall(text)]
    if any(s not in order for s in seats):
        return None
    return _SEAT_RE.sub(lambda m: f"p{order.index(int(m.group(1))) + 1}", text)


def _card_text(name: str) -> str:
    # a tag outside the deck is an unknown card; the joker is written as PHH's extension ``Xx``
    return name if is_card(name) or name == JOKER else "??"


def _cards_text(cards: Iterable[str]) -> str:
    return "".join(_card_text(c) for c in cards)


def _seats(snap: Snapshot) -> dict[int, dict[str, Any]]:
    return {s["seat"]: s for s in snap["seats"]}


def _street(rec: _Record, phase: str) -> int | None:
    """The betting round (index of the game's street) of a phase, None off the streets."""
    for i, st in enumerate(rec.game.streets):
        if st.name == phase:
            return i
    return None


def _board_ends(game: Variant) -> list[int]:
    ends, total = [], 0
    for st in game.streets:
        if st.board:
            total += st.board
            ends.append(total)
    return ends


def _most(game: Variant) -> int:
    """The most cards a player holds: stud seven, else the starting hand."""
    return game.hole_cards if family(game) == "stud" else len(game.streets[0].hole)


def _held(rec: _Record, seat: int) -> list[str]:
    """The cards the exporter has seen in a seat and not seen go."""
    return rec.written.get(seat, []) + rec.pending.get(seat, []) + rec.extra.get(seat, [])


def _board_due(game: Variant, phase: str) -> int:
    """How many board cards are due by ``phase`` (a street's name; all of them past the
    streets: the showdown, the end of the hand)."""
    total = 0
    for st in game.streets:
        total += st.board
        if st.name == phase:
            return total
    return total


def _betting_text(rec: _Record, before: Snapshot, after: Snapshot, body: Action) -> str | None:
    """The PHH action for what the core applied to ``body.seat`` (None: it applied nothing)."""
    seat = body.seat
    s0, s1 = _seats(before).get(seat), _seats(after).get(seat)
    if s0 is None or s1 is None or not s0["in_hand"]:
        return None
    h0, h1 = before["hand"], after["hand"]
    who = _player(rec, seat)
    if s1["folded"] and not s0["folded"]:
        return f"{who} f"
    put = s0["stack"] - s1["stack"]
    if body.kind == "post":
        # Blinds and antes are the stakes' (the engine posts them); a post that moves chips
        # during the betting is the stud bring-in.
        return f"{who} pb" if put > 0 else None
    if put == 0:
        # a check moves the turn on; an action the core refused changes nothing
        moved = h1["to_act"] != h0["to_act"] or h1["phase"] != h0["phase"]
        return f"{who} cc" if moved else None
    street_bet = s0["bet"] + put
    if street_bet > h0["current_bet"]:
        # (The core allows no raise that nobody left could call: betting.Betting.can_raise.)
        rec.aggressor[rec.street] = seat
        return f"{who} cbr {street_bet}"
    return f"{who} cc"


# Findings after which a card gone from a seat is still that seat's card (``_cards``).
_LEFT_ITS_SEAT = frozenset({"CARDS_THROWN_INTO_ANOTHER_HAND", "UNPROTECTED_HAND_KILLED_OR_FOULED",
                            "PLAYER_DROPS_CARDS_ON_FLOOR"})


class _Exporter:
    """Feeds the events to the rules core and learns each hand from the snapshots."""

    def __init__(self, state: TableState | None = None) -> None:
        self.state: TableState = initial_state() if state is None else state
        self.snap: Snapshot = snapshot(self.state)
        self.records: list[_Record] = []
        self.current: _Record | None = None
        self.zones: dict[str, str | None] = {}  # card -> the zone it was last read in

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
        if h1["stakes"]:
            rec.stakes = h1["stakes"]  # a straddle restakes the hand
        if isinstance(body, Action) and h0["number"] == rec.number:
            street = _street(rec, h0["phase"])
            if street is not None or body.kind == "draw":  # (the draw after an all-in too)
                self._action(rec, before, after, body, rec.street if street is None else street)
        if isinstance(body, (ZoneRead, ZoneLeave)):
            card = self.state.deck.card_of(body.uid)
            if card is not None:
                self.zones[card] = body.zone if isinstance(body, ZoneRead) else None
        # a card read leaving a zone is in the dealer's hand: where it lands decides
        self._cards(rec, after, self.zones, transit=isinstance(body, ZoneLeave))
        self._kills(rec, before, after, body)
        phase = h1["phase"]
        live = [s for s in after["seats"] if s["in_hand"] and not s["folded"]]
        if phase == "showdown" and h0["phase"] != "showdown" and len(live) > 1 \
                and rec.betting_over_at is None:
            self._flush(rec)
            rec.betting_over_at = len(rec.texts)
        if phase == "complete" and rec.outcome != "complete":
            rec.outcome = "complete"
            # no pot awarded: nobody opened, the antes stay for the next deal (pass and out)
            rec.showdown = tuple(h1["showdown"]) if step.results else ()
            rec.awards = step.results
            if not step.results:
                rec.carry_out = int(h1.get("carry") or 0)
            rec.finishing = self._stacks(rec, after)
        elif phase == "misdeal" and rec.outcome != "misdeal":
            rec.outcome = "misdeal"
            rec.finishing = self._stacks(rec, after)

    @staticmethod
    def _action(rec: _Record, before: Snapshot, after: Snapshot, body: Action,
                street: int) -> None:
        if body.kind == "draw":
            if body.seat in rec.order and _seats(after)[body.seat]["drawn"] != \
                    _seats(before)[body.seat]["drawn"]:
                # the seats before it have drawn: their discards now, the cards they drew once
                # every seat has (PHH: all stand pat or discard, then the dealer deals)
                _Exporter._flush(rec, discards_only=True)
                rec.drawing.add(body.seat)
            return
        _Exporter._flush(rec)
        rec.street = street
        text = _betting_text(rec, before, after, body)
        if text is not None:
            rec.opener.setdefault(street, body.seat)
            rec.texts.append(text)

    @staticmethod
    def _kills(rec: _Record, before: Snapshot, after: Snapshot, body: object) -> None:
        """A hand the dealer killed (a wrong card count once the deal is played, an absent
        player's hand): folded with no fold of its own. PHH has no such action: ``_dead``."""
        seats0, seats1 = _seats(before), _seats(after)
        for seat in rec.order:
            s0, s1 = seats0.get(seat), seats1.get(seat)
            if s0 is None or s1 is None or not s0["in_hand"] or s0["folded"] \
                    or not s1["folded"]:
                continue
            if isinstance(body, Action) and body.seat == seat and body.kind == "fold":
                continue
            _Exporter._flush(rec)
            rec.dead.append({"player": _player(rec, seat), "seat": seat,
                             "before_action": len(rec.texts) + 1})

    @staticmethod
    def _stacks(rec: _Record, snap: Snapshot) -> tuple[int, ...]:
        seats = _seats(snap)
        return tuple(int(seats[s]["stack"]) for s in rec.order)

    def _start(self, snap: Snapshot, seq: int) -> _Record:
        h, table = snap["hand"], snap["table"]
        seats = _seats(snap)
        order = tuple(h["dealt_in"])
        game = table_game(table["game"], table["structure"])
        return _Record(number=h["number"], button=h["button"], order=order,
                       names=tuple(seats[s]["player"] for s in order), game=game,
                       seat_count=table["seats"], first_seq=seq, stakes=h["stakes"] or {},
                       house=dict(h["house"] or {}), profile=str(table["profile"]),
                       carry_in=int(h.get("carry") or 0))

    @staticmethod
    def _cards(rec: _Record, snap: Snapshot, zones: Mapping[str, str | None],
               transit: bool = False) -> None:
        """New cards in a seat are pending until the next action writes them. A card gone from
        a seat that has not folded is its discard when the seat draws (``pN sd``) or when every
        hand holds its cards at a Pineapple discard; otherwise a remedy took it (an exposed card
        replaced, a card too many taken back): it is no card of the hand (``_set_aside``), and
        the card that replaces it takes its place where it was written."""
        most = _most(rec.game)
        discard_game = any(st.discard for st in rec.game.streets)
        live = [s for s in snap["seats"]
                if s["seat"] in rec.order and s["in_hand"] and not s["folded"]]
        # A card that leaves its seat without a remedy is still that seat's card in the hand it
        # was dealt: thrown into another hand or swept into the muck (the hand is dead and
        # folds in turn), dropped off the table (the player must play it).
        still_theirs = {f["seats"][0] for f in snap.get("findings") or []
                        if f.get("code") in _LEFT_ITS_SEAT and f.get("seats")}
        for s in live:
            seat = s["seat"]
            hole = list(s["hole"])
            written = rec.written.setdefault(seat, [])
            pending = rec.pending.setdefault(seat, [])
            extra = rec.extra.get(seat, [])
            held = written + pending + extra
            gone = [c for c in held if c not in hole]
            discard = bool(gone) and (seat in rec.drawing or (
                discard_game and len(held) <= most
                and all(len(_held(rec, o["seat"])) + rec.thrown.get(o["seat"], 0) >= most
                        for o in live)))
            if transit and not discard:
                gone = []  # lifted: where the card lands decides (a remedy, a throw, a sweep)
            if gone:
                if discard and discard_game and seat not in rec.drawing and \
                        any(c in pending for c in gone):
                    for other in rec.order:  # a Pineapple discard: the cards it came from first
                        _Exporter._deal(rec, other)
                for c in gone:
                    away = zones.get(c) or ""
                    # (at a Pineapple a card into the muck is most often its discard)
                    if not discard and c != JOKER and (
                            seat in still_theirs or (away == "muck" and not discard_game)
                            or (away.startswith("seat:") and away != f"seat:{seat}")):
                        continue  # still the seat's card: thrown, swept, dropped (no remedy)
                    if c in rec.extra.get(seat, []):
                        rec.extra[seat].remove(c)
                    elif c in pending:
                        pending.remove(c)  # replaced before it was written (a remedy)
                        rec.set_aside.append(c)
                    elif discard:
                        written.remove(c)
                        rec.discards.setdefault(seat, []).append(c)
                        rec.thrown[seat] = rec.thrown.get(seat, 0) + 1
                    else:
                        _Exporter._vacate(rec, seat, c)
                if seat not in rec.drawing and rec.discards.get(seat):
                    _Exporter._flush(rec, discards_only=True)
            held = _held(rec, seat)
            new = [c for c in hole if c not in held]
            while new and rec.vacant.get(seat):
                i, pos = rec.vacant[seat].pop(0)
                _, cards = rec.dealt_texts[i]
                cards[pos] = new.pop(0)
                written.append(cards[pos])
                rec.texts[i] = f"d dh {_player(rec, seat)} {_cards_text(cards)}"
            if new:
                rec.pending.setdefault(seat, []).extend(new)
        # The board cards due by the core's phase: a card turned early (a premature flop,
        # turn or river, put back by the remedy) is not written until its street comes.
        rec.board = board = list(snap["hand"]["board"])
        due = _board_due(rec.game, snap["hand"]["phase"])
        for end in _board_ends(rec.game):
            if rec.board_written < end <= min(len(board), due):
                _Exporter._flush(rec)
                rec.board_texts.append((len(rec.texts), rec.board_written, end))
                rec.texts.append(f"d db {_cards_text(board[rec.board_written:end])}")
                rec.board_written = end

    @staticmethod
    def _flush(rec: _Record, discards_only: bool = False) -> None:
        """Write what the table did since the last action: each discard (``pN sd``), then the
        cards dealt (the cards drawn among them), player by player in PHH order. A discard that
        is no draw (Pineapple) comes after the cards dealt before it. ``discards_only``: the
        discards, the cards dealt waiting (a draw round: every discard before the cards drawn,
        as PokerKit reads a draw)."""
        if any(s not in rec.drawing for s in rec.discards):
            for seat in rec.order:
                _Exporter._deal(rec, seat)
        for seat in rec.order:
            gone = rec.discards.pop(seat, None)
            drawing = seat in rec.drawing
            if gone is None and not drawing:
                continue
            rec.drawing.discard(seat)
            who = _player(rec, seat)
            rec.texts.append(f"{who} sd {_cards_text(gone)}" if gone else f"{who} sd")
        if discards_only:
            return
        for seat in rec.order:
            _Exporter._deal(rec, seat)

    @staticmethod
    def _deal(rec: _Record, seat: int) -> None:
        cards = rec.pending.pop(seat, [])
        if not cards:
            return
        held = rec.written.setdefault(seat, [])
        # At most the cards the game deals a player (stud: seven; else the starting hand); more
        # is a dealing error that the core has voided or made dead (``_extra_cards``).
        most = _most(rec.game)
        room = max(most - len(held), 0)
        if len(cards) > room:
            rec.extra.setdefault(seat, []).extend(cards[room:])
            cards = cards[:room]
        if not cards:
            return
        first = len(rec.game.streets[0].hole)
        mine = [i for i, (owner, _) in rec.dealt_texts.items() if owner == seat]
        short = len(held) + rec.thrown.get(seat, 0) < first
        held.extend(cards)
        if mine and short:
            # a short starting hand completed after the betting began (the remedy of a hand
            # dealt a card short): the card is of the starting deal, written there
            i = mine[0]
            rec.dealt_texts[i][1].extend(cards)
            rec.texts[i] = f"d dh {_player(rec, seat)} {_cards_text(rec.dealt_texts[i][1])}"
            return
        rec.dealt_texts[len(rec.texts)] = (seat, list(cards))
        rec.texts.append(f"d dh {_player(rec, seat)} {_cards_text(cards)}")

    @staticmethod
    def _vacate(rec: _Record, seat: int, card: str) -> None:
        """A written card a remedy took from the seat: its place waits for its replacement."""
        rec.written[seat].remove(card)
        rec.set_aside.append(card)
        for i, (owner, cards) in rec.dealt_texts.items():
            if owner == seat and card in cards and (i, cards.index(card)) not in \
                    rec.vacant.get(seat, []):
                rec.vacant.setdefault(seat, []).append((i, cards.index(card)))
                return

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
    if rec.outcome != "misdeal":
        _Exporter._flush(rec)
    texts = list(rec.texts)
    if rec.outcome == "complete":
        # the board as it finally stands (a remedy may have replaced a card after it was read)
        for i, start, end in rec.board_texts:
            if len(rec.board) >= end:
                texts[i] = f"d db {_cards_text(rec.board[start:end])}"
    shows = _shows(rec)
    drawn = any(st.draw for st in rec.game.streets)  # an all-in player still draws, then shows
    if shows and rec.betting_over_at is not None and rec.betting_over_at < len(texts) \
            and not drawn:
        # the hands are tabled when the betting ends, then the rest of the cards are dealt
        texts[rec.betting_over_at:rec.betting_over_at] = shows
    else:
        texts.extend(shows)
    st = rec.stakes
    order = tuple(st.get("seats") or rec.order)  # the players the engine kept
    rendered = [_render(t, order) for t in texts]
    texts = [t for t in rendered if t is not None]
    n = len(order)
    code = phh_code(rec.game)
    needed = required_stakes(code)

    def per_player(key: str) -> tuple[Number, ...]:
        values = list(st.get(key) or [])
        return tuple((values + [0] * n)[:n])

    stakes: dict[str, Any] = {"antes": per_player("antes")}
    if "blinds_or_straddles" in needed:
        stakes["blinds_or_straddles"] = per_player("blinds_or_straddles")
    for key in ("bring_in", "small_bet", "big_bet", "min_bet"):
        if key in needed:
            stakes[key] = st.get(key) or 0
    starting = per_player("starting_stacks")
    user: dict[str, Any] = {
        "_outcome": rec.outcome,
        "_game": rec.game.id,
        "_structure": rec.game.structure,
        "_button": rec.button,
        "_profile": rec.profile,
        "_house": dict(rec.house),
        "_seq": [rec.first_seq, rec.last_seq],
        "_findings": [_finding(f) for f in rec.findings],
    }
    if rec.set_aside:
        user["_set_aside"] = [_card_text(c) for c in rec.set_aside]
    if rec.carry_in:
        user["_carry_in"] = rec.carry_in
    if rec.carry_out:
        user["_carry_out"] = rec.carry_out
    if rec.dead:
        user["_dead"] = [{"player": _render(d["player"], order), "seat": d["seat"],
                          "before_action": d["before_action"]} for d in rec.dead]
    out = [s for s in rec.order if s not in order]
    if out:
        # a stud hand dead before the betting, its ante returned (RR Section 8, r.1)
        user["_taken_out"] = [{"seat": s, "cards": list(rec.written.get(s, []))} for s in out]
    if rec.extra:
        user["_extra_cards"] = [{"player": _render(_player(rec, s), order), "seat": s,
                                 "cards": list(c)} for s, c in rec.extra.items()]
    if rec.awards:
        user["_pots"] = [_pot(a) for a in rec.awards]
    deck = rec.game.deck
    actions: tuple[PhhAction, ...] = tuple(
        parse_action(t, n, short_deck=deck == "short", joker=deck == "joker") for t in texts)
    names = dict(zip(rec.order, rec.names, strict=True))
    finishing = None if rec.finishing is None else tuple(
        rec.finishing[rec.order.index(s)] for s in order)
    return HandHistory(
        variant=code, starting_stacks=starting, actions=actions, hand=rec.number,
        players=tuple(names[s] for s in order), finishing_stacks=finishing,
        optional={"seats": list(order), "seat_count": rec.seat_count},
        user=user, name=f"hand {rec.number}", **stakes,
    )


def _shows(rec: _Record) -> list[str]:
    """The tabled hands in showdown order (roberts-rules-v11.txt, Section 3, The Showdown,
    r.8): the last player to bet or raise on the final betting round first, else the first
    player to act on it; then clockwise (in PHH order)."""
    if not rec.showdown:
        return []
    first = rec.aggressor.get(rec.street, rec.opener.get(rec.street))
    seats = [s for s in rec.stakes.get("seats", rec.order) if s in rec.showdown]
    if first in seats:
        i = seats.index(first)
        seats = seats[i:] + seats[:i]
    out = []
    for seat in seats:
        cards = rec.written.get(seat, ())
        who = _player(rec, seat)
        out.append(f"{who} sm {_cards_text(cards)}" if cards else f"{who} sm")
    return out


def _finding(f: Finding) -> dict[str, Any]:
    return {"code": f.code, "seq": f.seq, "severity": f.severity, "seats": list(f.seats),
            "cards": list(f.cards), "rule": f.rule.to_json(), "message": f.message}


def _pot(a: PotAward) -> dict[str, Any]:
    data = a.to_json()
    return {"amount": data["amount"], "eligible": data["eligible"], "winners": data["winners"],
            "shares": data["shares"], "hand": data["hand"]}


# --- entry points ---------------------------------------------------------------------------------


def export_events(events: Iterable[Event], state: TableState | None = None
                  ) -> list[HandHistory]:
    """One HandHistory per hand the table started in ``events`` (in order). ``state``: the
    table before the first event (default: a new table), so one hand exports from the state
    at its ``hand.start`` without replaying the journal before it
    (controller/surveillance/review.py)."""
    exporter = _Exporter(state)
    for event in events:
        exporter.feed(event)
    return exporter.finish()


def export_file(path: str | Path) -> list[HandHistory]:
    """The hands of a journal (SQLite) or a scenario file (JSON Lines). Raises
    ``controller.journal.JournalError`` or ``controller.events.EventError`` for a bad file. A
    run of segments whose start was archived exports from its first segment's opening
    checkpoint on (docs/segments.md)."""
    opening = run_opening(path) if is_journal_file(path) else None
    if opening is None:
        return export_events(iter_events(path))
    if opening.problem is not None:
        raise JournalError(f"{path}: the run's start is archived, and {opening.problem}")
    try:
        start = state_from_text(opening.text)
    except CheckpointError as exc:
        raise JournalError(f"{path}: its opening checkpoint does not read back: {exc}") from None
    return export_events(read_events(path, after=opening.seq), start)
