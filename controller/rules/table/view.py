"""``snapshot(state)``: the whole table as plain JSON-able data (schema: docs/snapshot.md).

The snapshot is the only thing the LED plan and the display see of the rules core. It holds
everything, hole cards included; the display's role payloads copy from it by whitelist.

Incremental (``ViewMemo``): an event changes a few parts of the state and leaves the others the
same objects (the state is made of frozen records, each event makes new ones only where it
changes something). ``snapshot(state, memo)`` reuses each part of the previous snapshot whose
inputs are the same objects, or (a seat) equal values, and builds only the rest: the same
snapshot as ``snapshot(state)``, field by field, at a fraction of the cost per card
(docs/snapshot.md, "Incremental"). The reused parts are shared between snapshots, so a snapshot
is read-only (it always was: the display and the LEDs read it from other threads); and a
consumer may tell a part unchanged by its identity (display/payloads.py does).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from typing import Any, TypeVar

from controller.poker.pots import build_pots, return_uncalled
from controller.poker.variants import ROTATIONS, family, first_game, structure_name
from controller.rules import procedure
from controller.rules.chips import Chips, snapshot_chips
from controller.rules.findings import Finding
from controller.rules.table import seating
from controller.rules.table.state import Hand, SeatInfo, TableState

T = TypeVar("T")


class ViewMemo:
    """The parts the last snapshot built, each with the inputs it was built from: a part is
    built again only when one of its inputs is not the same object as last time (or, for a
    seat, not an equal value). Holds one snapshot's parts, so its memory does not grow. Used by
    one thread at a time (the daemon's, under its lock; a replay's)."""

    def __init__(self) -> None:
        self._parts: dict[Any, tuple[Any, ...]] = {}

    def same(self, name: Any, inputs: tuple[Any, ...], build: Callable[[], T],
             equal: Any = None) -> T:
        """The part ``name``: the last one if every input is the same object (and ``equal``, a
        value computed anew each time, equals the last one), else ``build()``. Every input must
        be immutable (a frozen record, a tuple, a number or a string), so the same object means
        the same value."""
        kept = self._parts.get(name)
        if kept is not None:
            was, was_equal, value = kept
            if (len(was) == len(inputs) and all(map(operator.is_, was, inputs))
                    and was_equal == equal):
                return value  # type: ignore[no-any-return]
        value = build()
        self._parts[name] = (inputs, equal, value)
        return value

    def reuse(self, name: Any, key: tuple[Any, ...]) -> Any:
        """The part last kept under ``name`` if it was kept with a key equal to ``key``, else
        None: a part whose inputs are values computed anew (a seat's)."""
        kept = self._parts.get(name)
        return kept[1] if kept is not None and kept[0] == key else None

    def keep(self, name: Any, key: tuple[Any, ...], value: T) -> T:
        self._parts[name] = (key, value)
        return value


def _pots(g: procedure.GameHand) -> tuple[list[dict[str, Any]], dict[str, int] | None]:
    """Main pot first, then side pots, from the engine: chips gathered plus bets on the felt
    (the antes as ``Hand.stakes_and_dead`` counts them: a table ante is dead money); and the
    uncalled bet, ``{"seat", "amount"}`` or None.

    A bet is uncalled once nobody else can put in another chip (every other seat has folded or
    is all in for less): that part goes back to its owner and is in no pot
    (research/button-blinds-betting.md §3.2 step 1; jamies-poker-notes.md, All-ins: a side pot
    that "only belongs to one player" with nobody left to call it). It is the same
    ``return_uncalled`` the hand's settlement applies, so the screens' pots are the pots the hand
    awards. While another seat still has chips to call with, the bet is a live bet, in the pot."""
    e = g.eng
    stakes, dead = e.stakes_and_dead(e.totals)
    contrib = {s: stakes[i] for i, s in enumerate(g.seats)}
    if not sum(contrib.values()) + dead:
        return [], None
    folded = frozenset(s for i, s in enumerate(g.seats) if e.folded[i])
    all_in = frozenset(s for i, s in enumerate(g.seats) if e.stacks[i] == 0 and not e.folded[i])
    uncalled = None
    top = max(contrib, key=lambda seat: contrib[seat])
    if not any(s != top and s not in folded and s not in all_in for s in g.seats):
        contrib, returned = return_uncalled(contrib, folded)
        if returned is not None:
            uncalled = {"seat": returned[0], "amount": returned[1]}
    pots = [p.to_json() for p in build_pots(contrib, folded, dead, all_in=all_in)]
    return pots, uncalled


def _expect(h: Hand) -> str:
    g = h.game
    if h.phase == "complete":
        return "shuffle, then a new hand (hand.start)"
    if h.phase == "misdeal":
        return f"reshuffle and redeal with the button on seat {h.button} (hand.start)"
    board_done = g.deal is None or len(g.deal.board) == 5
    if (h.phase == "showdown" and board_done) or len(g.live) <= 1:
        return "award the pots (hand.end)"
    return procedure.expectation(g)


def _hand(state: TableState, due: tuple[tuple[str, str], ...], zones: Mapping[str, list[str]],
          memo: ViewMemo) -> dict[str, Any]:
    """The snapshot's ``hand``; ``due``: the remedy moves still due (``procedure.remedy_due``,
    computed once per snapshot for ``hand.remedy_now`` and each finding's ``remedy_due``);
    ``zones``: the cards in each zone (``_zones``)."""
    h = state.hand
    if h is None:
        return {
            "number": 0, "phase": "idle", "button": None, "small_blind": None, "big_blind": None,
            "to_act": None, "board": [], "burns": 0, "burned": [], "muck": [],
            "current_bet": 0, "min_raise_to": 0,
            "can_raise": False, "pots": [], "uncalled": None,
            "expect": "a new hand (hand.start)", "showdown": [],
            "cards_seen": 0, "straddles": [], "kill": None, "posts": [], "dealt_in": [],
            "level": _level(state), "players_left": _players_left(state),
            "draw_answer": None, "stakes": None, "house": None,
            "carry": state.carry, "to_call": 0, "max_raise_to": 0, "all_in_to": 0,
            "remedy_now": None, "post_due": None, "to_draw": None,
        }
    g = h.game
    e = g.eng
    in_play = h.in_play
    to_act = g.to_act if in_play else None
    lo = e.min_completion_betting_or_raising_to() if to_act is not None else None
    # the pots change only with the engine (a bet, a fold, a deal): not with most card reads
    pots, uncalled = memo.same("pots", (e, g.seats), lambda: _pots(g)) if in_play else ([], None)
    plan = h.plan
    return {
        "number": h.number,
        "phase": h.phase,
        "button": h.button,
        "small_blind": h.small_blind,
        "big_blind": h.big_blind,
        "to_act": to_act,
        "board": list(zones.get("board", ())),
        "burns": len(zones.get("burn", ())),
        # the cards the antennas read in the burn and the muck (folded, discarded): known dead
        # cards for the broadcast's odds; the dealer's and public views never copy them
        "burned": list(zones.get("burn", ())),
        "muck": list(zones.get("muck", ())),
        "current_bet": procedure.current_bet(g) if in_play else 0,
        "min_raise_to": lo or 0,
        "can_raise": bool(to_act is not None and e.can_complete_bet_or_raise()),
        "pots": pots,
        "uncalled": uncalled,
        "expect": _expect(h),
        "showdown": list(h.showdown),
        "cards_seen": h.cards_seen,
        "straddles": list(plan.straddles) if plan is not None else [],
        "kill": plan.kill if plan is not None else None,
        "posts": memo.same("posts", (plan,), lambda: [
            {"seat": p.seat, "kind": p.kind, "amount": p.amount, "live": p.live}
            for p in plan.posts] if plan is not None else []),
        "dealt_in": list(plan.dealt_in) if plan is not None else [],
        "level": _level(state),
        "players_left": _players_left(state),
        "draw_answer": _draw_answer(h),
        "stakes": memo.same("stakes", (g.stakes, g.seats, g.stacks), lambda: _stakes(g)),
        "house": memo.same("house", (g.house,), lambda: _house(g)),
        "carry": state.carry,
        **_wagers(g, to_act),
        "remedy_now": {"after": due[0][0], "move": due[0][1]} if due else None,
        "post_due": _post_due(g, to_act) if in_play else None,
        # draw games (and Pineapple's discard): the seat whose request is due, in turn
        "to_draw": g.seats[e.discarder] if in_play and e.discarder is not None else None,
    }


def _wagers(g: procedure.GameHand, to_act: int | None) -> dict[str, int]:
    """What the seat to act may put in, from the engine that judges the bet (so the console
    never computes a limit itself): the call, the largest complete/bet/raise-to (pot-limit: the
    pot after the call, RR Section 14 Pot-Limit; no-limit: all in; fixed limit: the fixed bet
    or raise; spread limit: the spread's top), and
    all in as a raise-to total (its bet on the street plus its stack)."""
    e = g.eng
    i = g.pos(to_act) if to_act is not None else None
    if i is None:
        return {"to_call": 0, "max_raise_to": 0, "all_in_to": 0}
    return {"to_call": e.checking_or_calling_amount() or 0,
            "max_raise_to": e.max_completion_betting_or_raising_to() or 0,
            "all_in_to": e.stacks[i] + e.bets[i]}


def _post_due(g: procedure.GameHand, to_act: int | None) -> dict[str, Any] | None:
    """The next forced post the engine waits for (the console's one-tap post), as posted: a
    short stack posts what it has; in stud, once the antes are in, the bring-in of the seat
    the engine names (it may complete instead: a bet)."""
    if g.posts_due:
        seat, kind, amount = g.posts_due[0]
        return {"seat": seat, "kind": kind, "amount": amount}
    if to_act is not None and g.eng.can_post_bring_in():
        return {"seat": to_act, "kind": "bring_in", "amount": g.stakes.bring_in}
    return None


def _finding(f: Finding, due: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    """A finding, with the moves of its remedy the monitor still waits for (``remedy_due``,
    in order; the first of the whole queue is ``hand.remedy_now``)."""
    after = f"{f.code} (seq {f.seq})"
    return {**f.to_json(), "remedy_due": [move for who, move in due if who == after]}


def _draw_answer(h: Hand) -> dict[str, int] | None:
    """The answer to the last ``draw.query``, while the table may still give it."""
    if h.asked is None or not h.in_play:
        return None
    drawn = procedure.drawn_answer(h.game, h.asked)
    return None if drawn is None else {"seat": h.asked, "drawn": drawn}


def _stakes(g: procedure.GameHand) -> dict[str, Any]:
    """The stakes the hand engine plays this hand at, per seat of ``seats`` (PHH's fields:
    what the exporter writes, ``controller/phh/export.py``), and the stacks before them."""
    s = g.stakes
    return {"seats": list(g.seats), "antes": list(s.antes),
            "blinds_or_straddles": list(s.blinds_or_straddles), "bring_in": s.bring_in,
            "small_bet": s.small_bet, "big_bet": s.big_bet, "min_bet": s.min_bet,
            "starting_stacks": list(g.stacks)}


def _house(g: procedure.GameHand) -> dict[str, Any]:
    """The hand engine's house settings that differ from its defaults (Robert's Rules,
    ``engine.HouseSettings()``): what a replay of the hand needs to play it as the table did."""
    house = g.house
    return {f.name: getattr(house, f.name) for f in fields(house)
            if getattr(house, f.name) != f.default}


def _level(state: TableState) -> int | None:
    """The tournament level in force (1-based), or None at a cash table."""
    return state.level + 1 if state.seating.tournament else None


def _players_left(state: TableState) -> int | None:
    """Tournament: the players left in the event as told (``tournament.players``, less the
    busts here since), or None when not told or at a cash table."""
    return state.seating.players_left if state.seating.tournament else None


def _zones(g: procedure.GameHand | None) -> dict[str, list[str]]:
    """The cards in each zone, in the order ``GameHand.in_zone`` gives them: one pass over the
    hand's cards for the whole snapshot, not one per seat and zone."""
    out: dict[str, list[str]] = {}
    if g is None:
        return out
    if g.deal is not None:
        cards = g.deal.cards
        for uid in g.deal.sequence:
            dealt = cards[uid]
            if dealt.zone is not None:
                out.setdefault(dealt.zone, []).append(dealt.name)
    else:
        for c in g.cards.values():
            if c.zone is not None:
                out.setdefault(c.zone, []).append(c.name)
    return out


def _face_up(g: procedure.GameHand) -> dict[str, list[str]]:
    """Stud: the cards lying face up in each zone, in the order dealt (``GameHand.face_up``)."""
    out: dict[str, list[str]] = {}
    if g.deal is None:
        for c in sorted(g.cards.values(), key=lambda c: c.n):
            if c.face_up and c.zone is not None:
                out.setdefault(c.zone, []).append(c.name)
    return out


def _seated(state: TableState, h: Hand | None, seats: Sequence[int]
            ) -> dict[int, tuple[str, tuple[str, ...], int | None]]:
    """Each seat's part that only the seating, the hand's plan and the chips change: its status,
    the blinds it owes, and the settled total of its bet zone (chip sensing; None before any
    is read)."""
    plan = h.plan if h is not None and h.in_play else None
    out = {}
    for seat in seats:
        st = state.seating.seats.get(seat)
        try:
            status = seating.seat_status(state.seating, seat, plan)
        except seating.SeatingError:  # pragma: no cover - a seat beyond the table
            status = "empty"
        out[seat] = (status, tuple(st.owes) if st is not None else (),
                     state.chips.total(f"bet:{seat}"))
    return out


def _seat(h: Hand | None, seat: int, info: SeatInfo,
          seated: tuple[str, tuple[str, ...], int | None],
          zones: Mapping[str, list[str]], up: Mapping[str, list[str]], fam: str,
          memo: ViewMemo) -> dict[str, Any]:
    """A seat: chips and cards from the engine and the monitor while a hand is on; ``up``
    holds the stud upcards (public, as on the felt); ``seated``: its part from ``_seated``.
    The same object as the last snapshot's when nothing of the seat changed
    (``ViewMemo.reuse``)."""
    g = h.game if h is not None else None
    i = g.pos(seat) if g is not None else None
    live = h is not None and h.in_play and i is not None
    status, owes, chips_in_front = seated
    stack, bet, folded, all_in = info.stack, 0, False, False
    hole: tuple[str, ...] | list[str] = ()
    upcards: tuple[str, ...] | list[str] = ()
    drawn: tuple[int, ...] = ()
    drawn_now = None
    if g is not None:
        e = g.eng
        if live and i is not None:
            stack, bet = e.stacks[i], e.bets[i]
            folded, all_in = bool(e.folded[i]), bool(e.stacks[i] == 0 and not e.folded[i])
        if i is not None or seat in g.dead:
            zone = f"seat:{seat}"
            hole = zones.get(zone, ())
            upcards = up.get(zone, ()) if fam == "stud" else ()
        drawn = tuple(g.drawn.get(seat, ()))
        # what the table may still tell of it (RR Section 11 r.13): the public view shows only
        # this (draw games only: ``drawn_answer`` is None in any other)
        drawn_now = procedure.drawn_answer(g, seat) if live and fam == "draw" else None
    key = (info.player, stack, bet, live, folded, all_in, tuple(hole), tuple(upcards), drawn,
           drawn_now, status, owes, chips_in_front)
    kept = memo.reuse(("seat", seat), key)
    if kept is not None:
        return kept  # type: ignore[no-any-return]
    out = {
        "seat": seat, "player": info.player, "stack": stack, "bet": bet, "in_hand": live,
        "folded": folded, "all_in": all_in, "hole": list(hole), "up": list(upcards),
        "drawn": list(drawn), "drawn_now": drawn_now, "status": status, "owes": list(owes),
        "chips_in_front": chips_in_front,
    }
    return memo.keep(("seat", seat), key, out)


def snapshot(state: TableState, memo: ViewMemo | None = None) -> dict[str, Any]:
    """The table as plain data: see docs/snapshot.md. With ``memo`` (the one the previous
    snapshot of this table was made with), the parts that did not change are the previous
    snapshot's own objects (the module's docstring)."""
    memo = ViewMemo() if memo is None else memo
    s = state.setup
    h = state.hand
    g = h.game if h is not None else None
    variant = g.variant if g is not None else first_game(s.game, s.structure)
    infos = memo.same("infos", (state.seating,), lambda: state.seats)
    zones = memo.same("zones", (g.deal if g is not None and g.deal is not None else
                                g.cards if g is not None else None,), lambda: _zones(g))
    up = (memo.same("up", (g.cards,), lambda: _face_up(g))
          if g is not None and g.deal is None else {})
    fam = g.family if g is not None else ""
    order = memo.same("order", (infos,), lambda: sorted(infos))
    plan = h.plan if h is not None and h.in_play else None
    seated = memo.same("seated", (state.seating, plan, state.chips, infos),
                       lambda: _seated(state, h, order))
    seats = [_seat(h, seat, infos[seat], seated[seat], zones, up, fam, memo) for seat in order]
    due = procedure.remedy_due(g) if h is not None and g is not None and h.in_play else ()
    rot = ROTATIONS.get(s.game)
    chips = state.chips
    return {
        "last_seq": state.last_seq,
        "table": memo.same("table", (s, variant), lambda: _table(s, variant, rot)),
        "hand": _hand(state, due, zones, memo),
        "seats": seats,
        "findings": memo.same("findings", (state.findings,), lambda: [
            _finding(f, due) for f in state.findings], equal=due),
        "results": memo.same("results", (state.results,), lambda: [
            a.to_json() for a in state.results]),
        "devices": memo.same("devices", (state.devices,), lambda: [
            d.to_json() for d in state.devices]),
        "chips": memo.same("chips", (chips,), lambda: snapshot_chips(chips)),
        "chip_sets": memo.same("chip_sets", (chips.registry,), lambda: _chip_sets(chips)),
        "tray_counts": memo.same("tray", (chips.tray, chips.tray_seq), lambda: _tray(chips)),
    }


def _table(s: Any, variant: Any, rot: Any) -> dict[str, Any]:
    """The snapshot's ``table``: the game and the set-up."""
    return {"game": variant.id if variant is not None else s.game,
            "name": variant.name if variant is not None else rot.name if rot else s.game,
            "family": family(variant) if variant is not None else "",
            "structure": structure_name(variant.structure) if variant is not None else "",
            "mixed": s.game if rot is not None else None,
            "hole_cards": sum(len(st.hole) for st in variant.streets)
            if variant is not None else 0,
            "seats": s.seats, "small_blind": s.small_blind,
            "big_blind": s.big_blind, "ante": s.ante, "profile": s.profile}


def _chip_sets(chips: Chips) -> dict[str, Any]:
    """The chip set in play (its colours) and the table's other registered sets."""
    reg = chips.registry
    return {"in_play": reg.in_play or None,
            "colours": {str(d): c for d, c in sorted(reg.colours.items())},
            "others": [s for s in reg.sets() if s != reg.in_play]}


def _tray(chips: Chips) -> dict[str, Any] | None:
    """The counting tray's last counts, or null before any report."""
    if chips.tray is None:
        return None
    return {"total": sum(d * n for d, n in chips.tray),
            "counts": {str(d): n for d, n in chips.tray}, "seq": chips.tray_seq}
