"""Hand-built table snapshots (docs/snapshot.md) of the game families other than hold'em.

One short hand of each, at a four-seat table, as the rules core would snapshot it:

- `omaha8_hand()`: Omaha high-low, a board game with four hole cards per seat;
- `stud_hand()`: seven-card stud, two down cards and an upcard on third street, the bring-in,
  upcards on fourth to sixth street, the last card down on seventh, no board;
- `stud_exposed_hand()`: stud, where the dealer exposed seat 2's first down card, so its third
  card was dealt face down (roberts-rules-v11.txt, Section 8, r.1); the snapshot's `up` lists
  the cards as they lie, as the core reports them (controller/rules/table/view.py): the exposed down
  card is up, the third card dealt down after it is not;
- `draw_hand()`: deuce-to-seven triple draw, five closed cards per seat and three draws, with a
  replacement card dropped face down in the middle of the table on the first draw.

Besides the snapshots, the module records what the felt shows: `FACE_UP` holds, per hand, the
cards lying face up (board, upcards, an exposed card). `hidden_at(snap)` is every card the public
may not see at that moment, from that record rather than from the snapshot's own `up` lists.

Each function returns fresh dicts, so a test may mutate what it gets.
"""

from __future__ import annotations

import copy
from typing import Any

Snapshot = dict[str, Any]

PLAYERS = {1: "Ann", 2: "Bob", 3: "Cat", 4: "Dan"}
GAMES = {  # name, family, hole cards dealt to a seat (docs/snapshot.md, `table`)
    "omaha8": ("Omaha high-low eight-or-better", "board", 4),
    "stud": ("Seven-card stud", "stud", 7),
    "27_triple": ("Deuce-to-seven triple draw", "draw", 5),
}

# --- Omaha high-low ------------------------------------------------------------------------------
OMAHA_HOLE = {
    1: ["As", "2d", "Kh", "Qc"],
    2: ["7h", "7c", "8s", "9d"],
    3: ["3s", "4s", "Jd", "Jc"],
    4: ["5h", "6h", "Tc", "Ts"],
}
OMAHA_BOARD = ["Ah", "8d", "4c", "Kd", "2c"]
OMAHA_TABLED = [3, 1]

# --- seven-card stud -----------------------------------------------------------------------------
# In the order dealt: two down, one up (third street), three up (fourth to sixth), one down.
STUD_DOWN = {1: ["Kc", "Qd", "2s"], 2: ["Ac", "5d"], 3: ["Th", "Td", "Js"], 4: ["3c", "4h"]}
STUD_UP = {1: ["9s", "9h", "3d", "Jh"], 2: ["2h"], 3: ["8c", "Ks", "4d", "6c"], 4: ["Qs", "Ad"]}
STUD_TABLED = [1, 3]
BRING_IN = 2  # the 2h is the lowest upcard (RR Section 8 r.2)

# Hand 2: seat 2's first down card, the 7d, came off the shoe face up. Its third card, the Tc,
# was then dealt face down as the rule says (by the street's plan it would have been up). The
# core's `up` follows each card's face, in the order dealt: the 7d is up, the Tc is not.
EXPOSED_HOLE = {
    1: ["8h", "6s", "Kd", "4c"], 2: ["7d", "3h", "Tc", "Ah"], 3: ["5c", "9c", "Qh", "Jc"],
}
EXPOSED_UP = {1: ["Kd", "4c"], 2: ["7d", "Ah"], 3: ["Qh", "Jc"]}  # what `up` says
EXPOSED_DEALT_DOWN = "Tc"  # the third card, dealt face down after the 7d was exposed
EXPOSED_FACE_UP = ["Kd", "4c", "7d", "Ah", "Qh", "Jc"]  # how the cards lie
EXPOSED_FINDING = {
    "code": "STUD_ONE_HOLECARD_EXPOSED",
    "seq": 64,
    "severity": "warning",
    "title": "Stud: one down card exposed by the dealer",
    "message": "Seat 2's 7d was dealt face up.",
    "seats": [2],
    "cards": ["7d"],
    "rule": {"file": "roberts-rules-v11.txt", "section": "Section 8, Seven-Card Stud", "rule": "1"},
    "remedy": ["Deal seat 2's third card face down."],
}

# --- deuce-to-seven triple draw ------------------------------------------------------------------
# Each seat's hand before the draws and after each of them; the counts are what it asked for.
DRAW_HANDS = {
    1: [["2c", "3d", "7h", "Kd", "Ks"], ["2c", "3d", "7h", "8s", "Qh"],
        ["2c", "3d", "7h", "8s", "5c"], ["2c", "3d", "7h", "8s", "5c"]],
    2: [["4c", "5s", "6d", "8h", "9c"]] * 4,
    3: [["Ah", "Jd", "Jc", "Tc", "3h"], ["Tc", "3h", "4d", "6s", "9h"],
        ["3h", "4d", "6s", "2h", "7c"], ["3h", "4d", "6s", "2h", "5d"]],
    4: [["As", "Ad", "Qc", "Qs", "Th"]],
}
DRAWN = {1: [2, 1, 0], 2: [0, 0, 0], 3: [3, 2, 1], 4: []}
DRAW_STRAY = "Js"  # a replacement card dropped face down in the middle on the first draw
DRAW_TABLED = [2, 1]

FACE_UP: dict[tuple[str, int], set[str]] = {
    ("omaha8", 1): set(OMAHA_BOARD),
    ("stud", 1): {c for cards in STUD_UP.values() for c in cards},
    ("stud", 2): set(EXPOSED_FACE_UP),
    ("27_triple", 1): set(),
}


def _seat(
    seat: int,
    hole: list[str],
    *,
    up: list[str] | None = None,
    drawn: list[int] | None = None,
    drawn_now: int | None = None,
    folded: bool = False,
    bet: int = 0,
    stack: int = 200,
    in_hand: bool = True,
) -> dict[str, Any]:
    return {
        "seat": seat,
        "player": PLAYERS[seat],
        "stack": stack,
        "bet": bet,
        "in_hand": in_hand,
        "folded": folded,
        "all_in": False,
        "hole": list(hole),
        "up": list(up or []),
        "drawn": list(drawn or []),
        "drawn_now": drawn_now,
        "status": "playing",
        "owes": [],
    }


def _snap(
    game: str,
    seq: int,
    phase: str,
    seats: list[dict[str, Any]],
    *,
    number: int = 1,
    board: list[str] | None = None,
    to_act: int | None = None,
    button: int | None = None,
    small_blind: int | None = None,
    big_blind: int | None = None,
    pot: int = 0,
    eligible: tuple[int, ...] = (1, 2, 3, 4),
    showdown: list[int] | None = None,
    findings: list[dict[str, Any]] | None = None,
    results: list[dict[str, Any]] | None = None,
    expect: str = "",
    ante: int = 0,
) -> Snapshot:
    name, family, hole_cards = GAMES[game]
    return {
        "last_seq": seq,
        "table": {
            "game": game, "name": name, "family": family, "hole_cards": hole_cards, "seats": 4,
            "small_blind": 1, "big_blind": 2, "ante": ante, "profile": "roberts",
        },
        "hand": {
            "number": number, "phase": phase, "button": button, "small_blind": small_blind,
            "big_blind": big_blind, "to_act": to_act, "board": list(board or []), "burns": 0,
            "current_bet": 0, "min_raise_to": 0, "can_raise": to_act is not None,
            "pots": [{"amount": pot, "eligible": list(eligible)}] if pot else [],
            "expect": expect, "showdown": list(showdown or []), "cards_seen": 0,
            "straddles": [], "kill": None, "posts": [], "dealt_in": [], "level": None,
            "draw_answer": None,
        },
        "seats": seats,
        "findings": copy.deepcopy(findings or []),
        "results": copy.deepcopy(results or []),
    }


def omaha8_hand() -> list[Snapshot]:
    """Omaha high-low: the deal (four cards a seat), preflop, flop, river, showdown, award."""
    blinds: dict[str, Any] = {"button": 1, "small_blind": 2, "big_blind": 3}

    def seats(cards: int, folded: tuple[int, ...] = ()) -> list[dict[str, Any]]:
        return [_seat(s, OMAHA_HOLE[s][:cards], folded=s in folded) for s in PLAYERS]

    partial = seats(4)
    for s, n in ((2, 2), (3, 2), (4, 1), (1, 1)):  # dealt one at a time from seat 2
        partial[s - 1]["hole"] = OMAHA_HOLE[s][:n]
    gone = (2, 4)
    return [
        _snap("omaha8", 10, "preflop", partial, **blinds, pot=3, expect="a hole card to seat 4"),
        _snap("omaha8", 20, "preflop", seats(4), **blinds, to_act=4, pot=3),
        _snap("omaha8", 30, "flop", seats(4, gone), **blinds, board=OMAHA_BOARD[:3], to_act=3,
              pot=8, eligible=(1, 3)),
        _snap("omaha8", 40, "river", seats(4, gone), **blinds, board=OMAHA_BOARD, to_act=3,
              pot=16, eligible=(1, 3)),
        _snap("omaha8", 45, "showdown", seats(4, gone), **blinds, board=OMAHA_BOARD, pot=16,
              eligible=(1, 3), showdown=OMAHA_TABLED),
        _snap("omaha8", 46, "complete", seats(4, gone), **blinds, board=OMAHA_BOARD,
              showdown=OMAHA_TABLED, results=[
                  {"amount": 16, "eligible": [1, 3], "winners": [1, 3],
                   "shares": {"1": 8, "3": 8}, "hand": "Three kings; 8-4-3-2-A low"},
              ]),
    ]


def _stud_cards(seat: int, n: int) -> tuple[list[str], list[str]]:
    """Seat's first n cards in the order dealt, and its upcards among them."""
    down, up = STUD_DOWN[seat], STUD_UP[seat]
    order = [*down[:2], *up, *down[2:]]
    hole = order[:n]
    return hole, [c for c in hole if c in up]


def stud_hand() -> list[Snapshot]:
    """Seven-card stud: third street dealt, the bring-in, fourth, sixth and seventh street, the
    showdown of seats 1 and 3, the pot awarded. Seats 2 and 4 fold on fourth street."""

    def seats(counts: dict[int, int], folded: tuple[int, ...] = (),
              bets: dict[int, int] | None = None) -> list[dict[str, Any]]:
        out = []
        for s in PLAYERS:
            hole, up = _stud_cards(s, counts[s])
            out.append(_seat(s, hole, up=up, folded=s in folded, bet=(bets or {}).get(s, 0)))
        return out

    third = dict.fromkeys(PLAYERS, 3)
    fourth = {1: 4, 2: 3, 3: 4, 4: 4}
    later = {n: {1: n, 2: 3, 3: n, 4: 4} for n in (6, 7)}
    results = [{"amount": 30, "eligible": [1, 3], "winners": [3], "shares": {"3": 30},
                "hand": "Pair of tens"}]
    return [
        _snap("stud", 12, "third", seats({1: 3, 2: 3, 3: 2, 4: 2}), ante=1, pot=4,
              expect="an upcard to seat 3"),
        _snap("stud", 20, "third", seats(third, bets={BRING_IN: 1}), ante=1, to_act=3, pot=5),
        _snap("stud", 30, "fourth", seats(fourth, (2,)), ante=1, to_act=1, pot=9),
        _snap("stud", 40, "sixth", seats(later[6], (2, 4)), ante=1, to_act=1, pot=13,
              eligible=(1, 3)),
        _snap("stud", 50, "seventh", seats(later[7], (2, 4)), ante=1, to_act=1, pot=21,
              eligible=(1, 3)),
        _snap("stud", 55, "showdown", seats(later[7], (2, 4)), ante=1, pot=30, eligible=(1, 3),
              showdown=STUD_TABLED),
        _snap("stud", 56, "complete", seats(later[7], (2, 4)), ante=1, showdown=STUD_TABLED,
              results=results),
    ]


def stud_exposed_hand() -> list[Snapshot]:
    """Stud, hand 2, three players: seat 2's 7d exposed on the deal, its third card dealt down."""

    def seats(n: int) -> list[dict[str, Any]]:
        return [
            _seat(s, EXPOSED_HOLE[s][:n], up=[c for c in EXPOSED_UP[s]
                                             if c in EXPOSED_HOLE[s][:n]])
            for s in (1, 2, 3)
        ]

    return [
        _snap("stud", 70, "third", seats(3), number=2, ante=1, to_act=1, pot=3,
              eligible=(1, 2, 3), findings=[EXPOSED_FINDING]),
        _snap("stud", 75, "fourth", seats(4), number=2, ante=1, to_act=2, pot=5,
              eligible=(1, 2, 3), findings=[EXPOSED_FINDING]),
    ]


def draw_hand() -> list[Snapshot]:
    """Deuce-to-seven triple draw: the deal, predraw betting, after each draw, the showdown of
    seats 2 and 1 (seat 3 mucks), the pot awarded. Seat 4 folds before the draw."""
    blinds: dict[str, Any] = {"button": 4, "small_blind": 1, "big_blind": 2}

    def seats(after: int, draws: int, *, cards: dict[int, int] | None = None,
              told: bool = False) -> list[dict[str, Any]]:
        # told: no action yet after the last draw, so its counts may still be told (RR
        # Section 11 r.13)
        out = []
        for s in PLAYERS:
            hands = DRAW_HANDS[s]
            hole = hands[min(after, len(hands) - 1)]
            if cards is not None:
                hole = hole[: cards[s]]
            drawn = DRAWN[s][:draws]
            out.append(_seat(s, hole, drawn=drawn, folded=s == 4 and after > 0,
                             drawn_now=drawn[-1] if told and len(drawn) == draws > 0 else None))
        return out

    mid_draw = seats(1, 1, told=True)
    mid_draw[2]["hole"] = DRAW_HANDS[3][0]  # seat 3 has not drawn yet
    mid_draw[2]["drawn"] = []
    mid_draw[2]["drawn_now"] = None
    results = [{"amount": 24, "eligible": [1, 2, 3], "winners": [1], "shares": {"1": 24},
                "hand": "Eight-seven low"}]
    three = (1, 2, 3)
    return [
        _snap("27_triple", 10, "predraw", seats(0, 0, cards={1: 3, 2: 3, 3: 2, 4: 2}), **blinds,
              pot=3, expect="a card to seat 3"),
        _snap("27_triple", 20, "predraw", seats(0, 0), **blinds, to_act=3, pot=3),
        _snap("27_triple", 30, "draw1", mid_draw, **blinds, board=[DRAW_STRAY], pot=6,
              eligible=three, expect="seat 3 draws"),
        _snap("27_triple", 40, "draw2", seats(2, 2, told=True), **blinds, to_act=1, pot=12,
              eligible=three),
        _snap("27_triple", 50, "draw3", seats(3, 3, told=True), **blinds, to_act=1, pot=24,
              eligible=three),
        _snap("27_triple", 55, "showdown", seats(3, 3), **blinds, pot=24, eligible=three,
              showdown=DRAW_TABLED),
        _snap("27_triple", 56, "complete", seats(3, 3), **blinds, showdown=DRAW_TABLED,
              results=results),
    ]


def every_family_snapshot() -> list[Snapshot]:
    return omaha8_hand() + stud_hand() + stud_exposed_hand() + draw_hand()


def hidden_at(snap: Snapshot) -> set[str]:
    """Every card in `snap` that the public may not see: cards of seats not tabled that do not
    lie face up, and at a stud or draw table (no board) a card read in the middle."""
    tabled = set(snap["hand"]["showdown"])
    cards = {c for s in snap["seats"] if s["seat"] not in tabled for c in s["hole"]}
    if snap["table"]["family"] != "board":
        cards |= set(snap["hand"]["board"])
    return cards - FACE_UP[(snap["table"]["game"], snap["hand"]["number"])]
