"""``snapshot(state)``: the whole table as plain JSON-able data (schema: docs/snapshot.md).

The snapshot is the only thing the LED plan and the display see of the rules core. It holds
everything, hole cards included; the display's role payloads copy from it by whitelist.
"""

from __future__ import annotations

from typing import Any

from controller.rules import betting, dealing, procedure, seating
from controller.rules.pots import build_pots, return_uncalled
from controller.rules.table import Hand, TableState
from controller.rules.variants import VARIANTS, family


def _game_pots(g: procedure.GameHand) -> list[dict[str, Any]]:
    """A stud or draw hand's pots from the engine (positions mapped to seats)."""
    e = g.eng
    contrib = {s: e.totals[i] + e.antes[i] for i, s in enumerate(g.seats)}
    if not sum(contrib.values()):
        return []
    folded = frozenset(s for i, s in enumerate(g.seats) if e.folded[i])
    all_in = frozenset(s for i, s in enumerate(g.seats) if e.stacks[i] == 0 and not e.folded[i])
    return [p.to_json() for p in build_pots(contrib, folded, all_in=all_in)]


def _game_hand(h: Hand, g: procedure.GameHand, in_play: bool) -> dict[str, Any]:
    """The keys of ``_hand`` that a stud or draw hand takes from its engine and monitor."""
    e = g.eng
    to_act = g.to_act if in_play else None
    lo = e.min_completion_betting_or_raising_to() if to_act is not None else None
    return {
        "to_act": to_act,
        "board": list(g.in_zone("board")),
        "burns": len(g.in_zone("burn")),
        "current_bet": max(e.bets, default=0) if in_play else 0,
        "min_raise_to": lo or 0,
        "can_raise": bool(to_act is not None and e.can_complete_bet_or_raise()),
        "pots": _game_pots(g) if in_play else [],
    }


def _pots(h: Hand) -> list[dict[str, Any]]:
    """Main pot first, then side pots: chips gathered plus bets on the felt."""
    b = h.betting
    contrib = betting.contributions(b)
    if not sum(contrib.values()):
        return []
    folded = betting.folded(b)
    if b.closed or b.no_more_betting:
        contrib, _ = return_uncalled(contrib, folded)
        pots = build_pots(contrib, folded)
    else:
        all_in = frozenset(p.seat for p in b.players if p.all_in)
        pots = build_pots(contrib, folded, all_in=all_in)
    return [p.to_json() for p in pots]


def _hand(state: TableState) -> dict[str, Any]:
    h = state.hand
    if h is None:
        return {
            "number": 0, "phase": "idle", "button": None, "small_blind": None, "big_blind": None,
            "to_act": None, "board": [], "burns": 0, "current_bet": 0, "min_raise_to": 0,
            "can_raise": False, "pots": [], "expect": "a new hand (hand.start)", "showdown": [],
            "cards_seen": 0, "straddles": [], "kill": None, "posts": [], "dealt_in": [],
            "level": _level(state),
        }
    b = h.betting
    in_play = h.in_play
    if h.phase == "complete":
        expect = "shuffle, then a new hand (hand.start)"
    elif h.phase == "misdeal":
        expect = f"reshuffle and redeal with the button on seat {h.button} (hand.start)"
    elif h.game is not None:
        expect = ("award the pots (hand.end)" if h.phase == "showdown"
                  else procedure.expectation(h.game))
    elif (h.phase == "showdown" and len(h.deal.board) == 5) or b.hand_over:
        expect = "award the pots (hand.end)"
    else:
        expect = dealing.expectation(h.deal, b)
    to_act = b.to_act if in_play else None
    out = {
        "number": h.number,
        "phase": h.phase,
        "button": h.button,
        "small_blind": h.small_blind,
        "big_blind": h.big_blind,
        "to_act": to_act,
        "board": list(h.deal.board),
        "burns": h.deal.burns,
        "current_bet": b.current_bet if in_play else 0,
        "min_raise_to": b.min_raise_to if in_play else 0,
        "can_raise": bool(to_act is not None and b.can_raise(to_act)),
        "pots": _pots(h) if in_play else [],
        "expect": expect,
        "showdown": list(h.showdown),
        "cards_seen": h.cards_seen,
        "straddles": list(h.plan.straddles) if h.plan is not None else [],
        "kill": h.plan.kill if h.plan is not None else None,
        "posts": [{"seat": p.seat, "kind": p.kind, "amount": p.amount, "live": p.live}
                  for p in h.plan.posts] if h.plan is not None else [],
        "dealt_in": list(h.plan.dealt_in) if h.plan is not None else [],
        "level": _level(state),
    }
    if h.game is not None:
        out.update(_game_hand(h, h.game, in_play))
    return out


def _level(state: TableState) -> int | None:
    """The tournament level in force (1-based), or None at a cash table."""
    return state.level + 1 if state.seating.tournament else None


def _game_seat(state: TableState, h: Hand, g: procedure.GameHand, seat: int
               ) -> dict[str, Any]:
    """A seat at a stud or draw table: chips and cards from the engine and the monitor; ``up``
    holds the stud upcards (public, as on the felt)."""
    info = state.seats[seat]
    i = g.pos(seat)
    live = h.in_play and i is not None
    e = g.eng
    st = state.seating.seats.get(seat)
    try:
        status = seating.seat_status(state.seating, seat, h.plan if h.in_play else None)
    except seating.SeatingError:  # pragma: no cover - a seat beyond the table
        status = "empty"
    return {
        "seat": seat,
        "player": info.player,
        "stack": e.stacks[i] if live and i is not None else info.stack,
        "bet": e.bets[i] if live and i is not None else 0,
        "in_hand": live,
        "folded": bool(live and i is not None and e.folded[i]),
        "all_in": bool(live and i is not None and e.stacks[i] == 0 and not e.folded[i]),
        "hole": list(g.hole(seat)) if i is not None or seat in g.dead else [],
        "up": [c for c in g.upcards(seat) if c in g.hole(seat)],
        "drawn": list(g.drawn.get(seat, ())),
        "status": status,
        "owes": list(st.owes) if st is not None else [],
    }


def snapshot(state: TableState) -> dict[str, Any]:
    """The table as plain data: see docs/snapshot.md."""
    s = state.setup
    variant = VARIANTS.get(s.game, VARIANTS["nlhe"])
    h = state.hand
    seats: list[dict[str, Any]] = []
    g = h.game if h is not None else None
    for seat in sorted(state.seats):
        info = state.seats[seat]
        if h is not None and g is not None:
            seats.append(_game_seat(state, h, g, seat))
            continue
        p = h.betting.player(seat) if h is not None else None
        live = h is not None and h.in_play and p is not None
        st = state.seating.seats.get(seat)
        plan = h.plan if h is not None and h.in_play else None
        try:
            status = seating.seat_status(state.seating, seat, plan)
        except seating.SeatingError:  # pragma: no cover - a seat beyond the table
            status = "empty"
        seats.append({
            "seat": seat,
            "player": info.player,
            "stack": p.stack if live and p is not None else info.stack,
            "bet": p.bet if live and p is not None else 0,
            "in_hand": live,
            "folded": bool(live and p is not None and p.folded),
            "all_in": bool(live and p is not None and p.all_in),
            "hole": list(h.deal.hole(seat)) if h is not None and p is not None else [],
            "up": [],
            "drawn": [],
            "status": status,
            "owes": list(st.owes) if st is not None else [],
        })
    return {
        "last_seq": state.last_seq,
        "table": {"game": s.game, "name": variant.name, "family": family(variant),
                  "seats": s.seats, "small_blind": s.small_blind,
                  "big_blind": s.big_blind, "ante": s.ante, "profile": s.profile},
        "hand": _hand(state),
        "seats": seats,
        "findings": [f.to_json() for f in state.findings],
        "results": [a.to_json() for a in state.results],
    }
