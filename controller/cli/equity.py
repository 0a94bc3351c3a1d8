"""``feltguard equity``: each hand's chance to win in any game the table deals, from the cards seen.

    feltguard equity GAME HAND HAND... [--board CARDS] [--dead CARDS] [--exact|--samples N]
                     [--seed N] [--json]

GAME is a game id (``feltguard equity --help`` lists them); a HAND is the cards a player is
known to hold, written together ("AsKd") or comma-separated ("As,Kd"); a stud hand is the cards
seen of the player, a short draw hand the cards kept. The figures come from
``controller.poker.equity`` (docs/equity.md): exact when the run-outs fit the budget (or with
``--exact``), Monte Carlo otherwise (``--samples``, seeded by ``--seed``), with its 95 % error.
With one board card to come, each hand behind is given its outs (``controller.poker.outs``).

Bad input (a bad or repeated card, a hand size the game does not deal, more hands than the
deck holds): one line on standard error, exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from controller.cli.common import fail, whole
from controller.poker.equity import DEFAULT_SAMPLES, Equity, equity, parse_cards
from controller.poker.outs import outs
from controller.poker.variants import VARIANTS

COMMAND = "equity"


def add_equity_parser(sub: Any) -> None:
    p = sub.add_parser(COMMAND, help="each hand's chance to win, in any game",
                       description="Each hand's chance to win and tie (scoop and each half "
                                   "in a split game), exact or Monte Carlo. Games: "
                                   + ", ".join(VARIANTS))
    p.add_argument("game", metavar="GAME", help="the game id (e.g. nlhe, omaha8, stud, razz)")
    p.add_argument("hands", metavar="HAND", nargs="+",
                   help="a player's known cards, e.g. AsKd (at least two hands)")
    p.add_argument("--board", default="", metavar="CARDS", help="the board cards, e.g. 2c7d9h")
    p.add_argument("--dead", default="", metavar="CARDS",
                   help="cards known out of play (folded, mucked, burns the table saw)")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true",
                     help="count every run-out, however many (up to a ceiling)")
    how.add_argument("--samples", type=whole(1), default=None, metavar="N",
                     help=f"Monte Carlo with N run-outs (default {DEFAULT_SAMPLES} when the "
                          "exact count does not fit the budget)")
    p.add_argument("--seed", type=whole(0), default=0, metavar="N",
                   help="the Monte Carlo seed (default 0): the same seed, the same figures")
    p.add_argument("--json", action="store_true", help="the figures as one JSON object")
    p.set_defaults(func=run_equity)


def run_equity(args: argparse.Namespace) -> int:
    try:
        hands = [parse_cards(h) for h in args.hands]
        board = parse_cards(args.board) if args.board.strip() else ()
        dead = parse_cards(args.dead) if args.dead.strip() else ()
        exact: bool | None = True if args.exact else (False if args.samples else None)
        result = equity(args.game, hands, board, dead, exact=exact,
                        samples=args.samples or DEFAULT_SAMPLES, seed=args.seed)
        # with one board card to come: each hand's outs (controller/poker/outs.py)
        spot_outs = outs(args.game, hands, board, dead)
    except ValueError as exc:
        return fail(COMMAND, str(exc))
    if args.json:
        print(json.dumps(as_json(result, board, spot_outs), sort_keys=True))
    else:
        sys.stdout.write(as_text(result, board, spot_outs))
    return 0


def as_json(r: Equity, board: tuple[str, ...],
            spot_outs: tuple[int | None, ...] | None = None) -> dict[str, Any]:
    players = []
    for i, p in enumerate(r.players):
        row: dict[str, Any] = {"cards": "".join(p.cards), "win": p.win, "tie": p.tie,
                               "equity": p.equity, "labels": list(p.labels),
                               "outs": None if spot_outs is None else spot_outs[i]}
        if r.split:
            row.update(scoop=p.scoop, high_win=p.high_win, high_tie=p.high_tie,
                       low_win=p.low_win, low_tie=p.low_tie)
        players.append(row)
    return {"game": r.game, "board": "".join(board), "method": r.method, "deals": r.deals,
            "margin": r.margin, "seed": r.seed, "split": r.split,
            "assumes_draws": r.assumes_draws, "players": players}


def _pct(x: float | None) -> str:
    return "" if x is None else f"{100 * x:6.2f}%"


def as_text(r: Equity, board: tuple[str, ...],
            spot_outs: tuple[int | None, ...] | None = None) -> str:
    game = VARIANTS[r.game]
    lines = [f"{game.name}" + (f", board {''.join(board)}" if board else "")]
    if r.split:
        lines.append(f"{'hand':<16}{'scoop':>8}{'split':>8}{'high':>8}{'hi tie':>8}"
                     f"{'low':>8}{'lo tie':>8}{'equity':>8}  hand now")
    else:
        lines.append(f"{'hand':<16}{'win':>8}{'tie':>8}{'equity':>8}  hand now")
    for i, p in enumerate(r.players):
        label = "; ".join(x for x in p.labels if x) or "-"
        if spot_outs is not None and spot_outs[i] is not None:
            label += f"; {spot_outs[i]} out{'' if spot_outs[i] == 1 else 's'}"
        figures: tuple[float | None, ...]
        if r.split:
            figures = (p.win, p.tie, p.high_win, p.high_tie, p.low_win, p.low_tie, p.equity)
        else:
            figures = (p.win, p.tie, p.equity)
        lines.append(f"{''.join(p.cards):<16}" + "".join(f"{_pct(x):>8}" for x in figures)
                     + f"  {label}")
    if r.method == "exact":
        lines.append(f"method: exact, {r.deals} run-outs")
    else:
        lines.append(f"method: Monte Carlo, {r.deals} run-outs (seed {r.seed}), "
                     f"+/- {100 * r.margin:.2f} points at 95%")
    if r.assumes_draws:
        lines.append("assumes the draws declared (short hands draw the rest)")
    if spot_outs is not None:
        lines.append("outs: the cards to come with which a hand behind takes more of the pot")
    return "\n".join(lines) + "\n"
