"""The broadcast's odds: what a table snapshot says of each live hand's chance, as the payload
the delayed broadcast carries (``equity``, docs/display.md).

Pure: ``spot_of`` reads a snapshot (docs/snapshot.md) into a ``Spot`` (the game, each live seat's
cards, the board, the known dead cards); ``figure`` values a spot with ``controller.poker.equity``
and ``controller.poker.outs`` and returns the JSON block. The worker that runs ``figure`` off the
daemon's thread is controller/daemon/odds_worker.py.

What the table knows, and so counts (issue 30):
- each live seat's cards as read (hole cards; in stud every card seen of the seat, up or down; in
  draw games the cards held, the kept cards while a draw is under way);
- the board, in board games, once a whole street of it lies there (a flop half read is skipped);
- the dead cards: every card read in the muck (folds, discards) and in a seat that folded; the
  burns only where the house lets the table know them (``[broadcast] odds_burns``), since a
  broadcast that counts a burn nobody on screen saw would show odds no viewer can check.

Draw games before the last draw: a seat that has declared holds only its kept cards, and the
rest are drawn from the unseen cards; a seat that has not declared yet is valued as it stands.
The block then says ``assumes_draws`` and the screen says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from controller.poker.equity import DEFAULT_SAMPLES, Equity, PlayerEquity, _cost, _wilson, equity
from controller.poker.outs import outs
from controller.poker.variants import VARIANTS, Variant, family

__all__ = ["CHUNK", "FIRST_BUDGET", "QUICK_S", "SHOW_MARGIN", "Spot", "block", "chunk", "figure",
           "merge", "spot_of"]

SHOW_MARGIN = 0.01
"""A Monte Carlo figure goes on screen only when its 95 % half-width is under one point."""

QUICK_S = 0.15
"""The quick figure's time here (so it is ready within 200 ms of its card; about 1 s on a Pi 4):
exact when the run-outs fit ``FIRST_BUDGET``, else as many Monte Carlo run-outs as fit. A second,
finer figure follows (``equity``'s own ``EXACT_BUDGET`` and ``DEFAULT_SAMPLES``)."""

FIRST_BUDGET = 300_000
"""The quick figure's exact budget, in ``equity``'s evaluation units (about ``QUICK_S``)."""

_SAMPLE_OVERHEAD = 7
"""A Monte Carlo run-out's cost beyond its valuations, in the same units (about a microsecond
each here): measured, 7.9 us a run-out for two hold'em hands (2 units), 238 us for three
Omaha/8 hands (240 units)."""


@dataclass(frozen=True)
class Spot:
    """The cards of one state, as ``equity`` takes them; hashable, so states with the same cards
    share one figure. ``seats``: the live seats, in order, one hand each."""

    game: str
    seats: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    board: tuple[str, ...]
    dead: tuple[str, ...]
    draws_to_come: bool = False


def _strs(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list | tuple) else []


def _board_sizes(v: Variant) -> set[int]:
    sizes, total = {0}, 0
    for st in v.streets:
        total += st.board
        sizes.add(total)
    return sizes


def _dealt(v: Variant) -> int:
    """Hole cards dealt to each player (Pineapple: three, before its discard)."""
    return sum(len(st.hole) for st in v.streets)


def spot_of(snapshot: Mapping[str, Any], *, burns_known: bool = False) -> Spot | None:
    """The spot of a snapshot, or None when there is nothing to value: no hand, fewer than two
    live hands with cards, a game the table does not know, a board street half dealt, or a
    board game's hole cards still being dealt."""
    table = snapshot.get("table")
    hand = snapshot.get("hand")
    if not isinstance(table, Mapping) or not isinstance(hand, Mapping):
        return None
    game = table.get("game")
    v = VARIANTS.get(game) if isinstance(game, str) else None
    if v is None or hand.get("phase") in (None, "idle"):
        return None
    kind = family(v)
    deck = set(v.deck_cards)
    seats: list[int] = []
    hands: list[tuple[str, ...]] = []
    dead: list[str] = [*_strs(hand.get("muck")), *(_strs(hand.get("burned")) if burns_known
                                                    else [])]
    draws_to_come = False
    draws = sum(1 for st in v.streets if st.draw)
    for s in snapshot.get("seats") or ():
        if not isinstance(s, Mapping) or not isinstance(s.get("seat"), int):
            continue
        hole = tuple(c for c in _strs(s.get("hole")) if c in deck)
        if not hole:
            continue
        if s.get("folded") is True or s.get("in_hand") is not True:
            dead.extend(hole)  # a folded hand still on the felt is as dead as the muck
            continue
        seats.append(s["seat"])
        hands.append(hole)
        drawn = s.get("drawn")
        if kind == "draw" and (len(drawn) if isinstance(drawn, list) else 0) < draws:
            draws_to_come = True  # this seat has a draw still to make
    if len(hands) < 2:
        return None
    board = tuple(c for c in _strs(hand.get("board")) if c in deck) if kind == "board" else ()
    if kind == "board":
        if len(board) not in _board_sizes(v):
            return None  # a street half turned: the next state has all of it
        sizes = {len(h) for h in hands}
        if len(sizes) != 1 or sizes.pop() not in (v.hole_cards, _dealt(v)):
            return None  # the deal is under way
    held = {c for h in hands for c in h} | set(board)
    seen: set[str] = set()
    known_dead = []
    for c in dead:  # once each, never a card also live (a misread cannot make a duplicate)
        if c in deck and c not in held and c not in seen:
            seen.add(c)
            known_dead.append(c)
    return Spot(v.id, tuple(seats), tuple(hands), board, tuple(known_dead), draws_to_come)


def block(spot: Spot, eq: Equity, spot_outs: tuple[int | None, ...] | None,
          final: bool) -> dict[str, Any]:
    """The JSON the broadcast carries for a spot (docs/display.md, ``equity``). ``final``: no
    finer figure will follow."""
    seats = []
    for i, p in enumerate(eq.players):
        row: dict[str, Any] = {
            "seat": spot.seats[i], "win": p.win, "tie": p.tie, "equity": p.equity,
            "labels": list(p.labels),
            "outs": None if spot_outs is None else spot_outs[i],
        }
        if eq.split:
            # the chance of at least a share of each half: "62% high, 40% low"
            row["high"] = (p.high_win or 0.0) + (p.high_tie or 0.0)
            row["low"] = (p.low_win or 0.0) + (p.low_tie or 0.0)
        seats.append(row)
    return {
        "game": spot.game,
        "method": eq.method,
        "deals": eq.deals,
        "margin": eq.margin,
        "shown": eq.margin < SHOW_MARGIN,
        "final": final,
        "split": eq.split,
        "assumes_draws": eq.assumes_draws or spot.draws_to_come,
        # Pineapple before its discard: each hand keeps the two that make its best hand
        "assumes_discard": eq.assumes_discard,
        "seats": seats,
    }


CHUNK = 500
"""Monte Carlo run-outs per piece of a figure made in pieces (``chunk``): 4 ms (hold'em) to
0.12 s (three Omaha/8 hands) here, so a worker between pieces can turn to a newer state."""

_FIGURES = tuple(f.name for f in fields(PlayerEquity) if f.name not in ("cards", "labels"))


def chunk(spot: Spot, k: int, *, budget: int = 0, seed: int = 0) -> Equity:
    """Piece ``k`` (0, 1, ...) of a spot's figure: the whole exact figure when it fits
    ``budget`` evaluations, else ``CHUNK`` Monte Carlo run-outs seeded by ``seed`` and ``k``, to
    be merged (``merge``) with the others."""
    return equity(spot.game, spot.hands, spot.board, spot.dead, budget=budget,
                  samples=CHUNK, seed=seed * 1_000_003 + k)


def merge(a: Equity, b: Equity) -> Equity:
    """Two Monte Carlo figures of the same spot as one (their run-outs pooled): each figure
    the run-out-weighted mean, the margin again the largest 95 % half-width of any figure."""
    n = a.deals + b.deals
    players = []
    worst = 0.0
    for pa, pb in zip(a.players, b.players, strict=True):
        values: dict[str, Any] = {}
        for name in _FIGURES:
            x, y = getattr(pa, name), getattr(pb, name)
            if isinstance(x, float | int) and isinstance(y, float | int) and \
                    not isinstance(x, bool):
                mean = (x * a.deals + y * b.deals) / n
                values[name] = mean
                worst = max(worst, _wilson(mean, n))
        players.append(replace(pa, **values))
    return replace(a, players=tuple(players), deals=n, margin=worst)


def figure(spot: Spot, *, first: bool, seed: int = 0,
           seconds: float = QUICK_S) -> tuple[dict[str, Any], bool]:
    """The odds block of a spot and whether it is final. ``first``: the quick figure, about
    ``seconds`` here (exact if that fits, else Monte Carlo with as many run-outs as fit);
    otherwise the fine one (``EXACT_BUDGET``, ``DEFAULT_SAMPLES``). ValueError (one line) for
    a spot ``equity`` refuses."""
    if first:
        scale = seconds / QUICK_S
        per_deal = len(spot.hands) * _cost(VARIANTS[spot.game]) + _SAMPLE_OVERHEAD
        samples = min(DEFAULT_SAMPLES, max(200, int(FIRST_BUDGET * scale) // per_deal))
        eq = equity(spot.game, spot.hands, spot.board, spot.dead,
                    budget=int(FIRST_BUDGET * scale), samples=samples, seed=seed)
    else:
        eq = equity(spot.game, spot.hands, spot.board, spot.dead, seed=seed)
    final = eq.method == "exact" or not first
    return block(spot, eq, outs(spot.game, spot.hands, spot.board, spot.dead), final), final
