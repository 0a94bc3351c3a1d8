"""Hand-made table snapshots (docs/snapshot.md) for the broadcast overlay's browser tests: the
four spots issue 30 asks screenshots of, each one state as the rules core would snapshot it.

- ``holdem_allin()``: no-limit hold'em, six seats, three players all in before the flop, the
  flop out; a main pot and a side pot; seat 2 folded its blind (its cards are dead), seat 4
  sits out.
- ``stud_sixth()``: seven-card stud on sixth street, three players (two down cards and four up
  each), seat 3 folded on fourth street; seat 1 has bet and seat 4 is to act.
- ``omaha8_split()``: Omaha high-low on the turn, three players, three low cards on the board
  (a low is possible): the odds have high and low figures, and outs with one card to come.
- ``triple_draw_second()``: deuce-to-seven triple draw after the second draw, the third under
  way (two seats have said how many they draw, the third is to say): the odds assume the draws
  declared.

Names are of several lengths (a long one among them): the overlay must fit them. Each function
returns a fresh dict, so a test may mutate what it gets.
"""

from __future__ import annotations

import random
from typing import Any

from controller.poker.variants import VARIANTS

Snapshot = dict[str, Any]


def _seat(seat: int, player: str, hole: list[str], *, stack: int, bet: int = 0,
          up: list[str] | None = None, drawn: list[int] | None = None,
          drawn_now: int | None = None, folded: bool = False, all_in: bool = False,
          in_hand: bool = True) -> dict[str, Any]:
    return {
        "seat": seat, "player": player, "stack": stack, "bet": bet, "in_hand": in_hand,
        "folded": folded, "all_in": all_in, "hole": list(hole), "up": list(up or []),
        "drawn": list(drawn or []),
        # the count asked for on the draw under way, while the table may still tell it (RR
        # Section 11 r.13); None before the seat has asked
        "drawn_now": drawn_now,
        "status": "playing" if in_hand else "sitting out", "owes": [],
    }


def _snap(game: str, seq: int, phase: str, seats: list[dict[str, Any]], *, table_seats: int,
          small_blind: int, big_blind: int, ante: int = 0, board: list[str] | None = None,
          to_act: int | None = None, button: int | None = None,
          blinds: tuple[int | None, int | None] = (None, None),
          pots: list[tuple[int, list[int]]] | None = None, number: int = 41) -> Snapshot:
    v = VARIANTS[game]
    family = "stud" if game == "stud" else "draw" if v.draws else "board"
    return {
        "last_seq": seq,
        "table": {
            "game": game, "name": v.name, "family": family, "hole_cards": v.hole_cards,
            "seats": table_seats, "small_blind": small_blind, "big_blind": big_blind,
            "ante": ante, "profile": "roberts",
        },
        "hand": {
            "number": number, "phase": phase, "button": button, "small_blind": blinds[0],
            "big_blind": blinds[1], "to_act": to_act, "board": list(board or []), "burns": 0,
            "current_bet": 0, "min_raise_to": 0, "can_raise": to_act is not None,
            "pots": [{"amount": a, "eligible": e} for a, e in (pots or [])],
            "expect": "", "showdown": [], "cards_seen": 0, "straddles": [], "kill": None,
            "posts": [], "dealt_in": [], "level": None, "draw_answer": None,
        },
        "seats": seats,
        "findings": [],
        "results": [],
    }


def holdem_allin() -> Snapshot:
    """Hold'em: aces, kings and a suited connector all in preflop; the flop Kh 7s 2s."""
    seats = [
        _seat(1, "Maria Ortega-Villanueva", ["As", "Ah"], stack=0, all_in=True),
        _seat(2, "Bob", ["Qc", "Jd"], stack=8_450, folded=True),
        _seat(3, "Jin Park", ["Kd", "Kc"], stack=0, all_in=True),
        _seat(4, "Sam", [], stack=12_000, in_hand=False),
        _seat(5, "Dmitri", ["9s", "8s"], stack=5_200, all_in=False),
        _seat(6, "Lee", ["4c", "3d"], stack=9_900, folded=True),
    ]
    return _snap("nlhe", 1_204, "flop", seats, table_seats=6, small_blind=50, big_blind=100,
                 board=["Kh", "7s", "2s"], button=1, blinds=(2, 3),
                 pots=[(4_550, [1, 3, 5]), (1_800, [3, 5])], number=87)


def stud_sixth() -> Snapshot:
    """Stud on sixth street: each live seat's two down cards, then four upcards."""
    seats = [
        _seat(1, "Ann", ["Ac", "7d", "Ah", "9c", "4s", "Kd"], up=["Ah", "9c", "4s", "Kd"],
              stack=1_460, bet=40),
        _seat(3, "Bob", ["Qs", "3h", "5c", "8d"], up=["5c", "8d"], stack=1_915, folded=True),
        _seat(4, "Catherine Duval", ["Js", "Jd", "Tc", "Ts", "6h", "2c"],
              up=["Tc", "Ts", "6h", "2c"], stack=2_280),
        _seat(6, "Dee", ["8h", "9h", "Th", "7h", "Qd", "2s"], up=["Th", "7h", "Qd", "2s"],
              stack=905),
    ]
    return _snap("stud", 2_310, "sixth", seats, table_seats=8, small_blind=0, big_blind=0,
                 ante=5, to_act=4, pots=[(310, [1, 4, 6])], number=112)


def omaha8_split() -> Snapshot:
    """Omaha/8 on the turn: A-7-3 on the board make a low possible; one card to come."""
    seats = [
        _seat(2, "Ann", ["As", "2s", "5d", "Kd"], stack=2_120, bet=40),
        _seat(5, "Roberto", ["Ad", "2c", "Kh", "Qs"], stack=3_050),
        _seat(7, "Cy", ["6h", "5h", "4c", "Jc"], stack=1_780),
        _seat(8, "Dan", ["9d", "9c", "Td", "8s"], stack=2_400, folded=True),
    ]
    return _snap("omaha8", 3_077, "turn", seats, table_seats=9, small_blind=10, big_blind=20,
                 board=["Ah", "7d", "3c", "Kc"], to_act=5, button=8, blinds=(2, 5),
                 pots=[(480, [2, 5, 7])], number=64)


def triple_draw_second() -> Snapshot:
    """2-7 triple draw after the second draw, the third under way: seat 1 drew 2 then 1 and
    now asks for 1 (it holds the four cards it keeps), seat 2 stood pat twice and stands pat
    again, seat 3 (3 then 2) is to say how many it wants; seat 4 folded before the first draw.
    The odds assume the draws declared: seat 1's card to come, seat 3's hand as it stands."""
    seats = [
        _seat(1, "Ann", ["2c", "3d", "7h", "8s"], stack=640, drawn=[2, 1, 1],
              drawn_now=1),
        _seat(2, "Bartholomew", ["4c", "5s", "6d", "8h", "9c"], stack=1_130, drawn=[0, 0, 0],
              drawn_now=0),
        _seat(3, "Cat", ["2h", "4d", "6s", "7c", "Kc"], stack=875, drawn=[3, 2]),
        _seat(4, "Dan", ["As", "Ad", "Qc", "Qs", "Th"], stack=1_010, folded=True),
    ]
    return _snap("27_triple", 4_420, "draw3", seats, table_seats=6, small_blind=10,
                 big_blind=20, to_act=3, button=4, blinds=(1, 2), pots=[(240, [1, 2, 3])],
                 number=23)


_NAMES = ["Ann", "Bartholomew Ashworth", "Cat", "Dmitri", "Eve", "Fumiko Tanaka", "Gus", "Hal",
          "Ines"]


def _shuffled(seed: int) -> list[str]:
    """A deck in a fixed shuffled order: hands as a real deal gives them, the same each run."""
    deck = [r + s for r in "AKQJT98765432" for s in "shdc"]
    random.Random(seed).shuffle(deck)
    return deck


def full_holdem() -> Snapshot:
    """Nine-handed hold'em on the flop, every seat still in: the overlay's two rows."""
    deck = _shuffled(9)
    board, rest = deck[:3], deck[3:]
    seats = [_seat(i + 1, _NAMES[i], rest[2 * i:2 * i + 2], stack=10_000 - 500 * i,
                   bet=200 if i == 0 else 0) for i in range(9)]
    return _snap("nlhe", 5_000, "flop", seats, table_seats=9, small_blind=50, big_blind=100,
                 board=board, to_act=2, button=9, blinds=(1, 2), pots=[(2_700, list(range(1, 10)))],
                 number=7)


def full_stud() -> Snapshot:
    """Six-handed stud on seventh street, every seat still in: seven cards a seat."""
    deck = _shuffled(6)
    seats = []
    for i in range(6):
        hole = deck[7 * i:7 * i + 7]  # in the order dealt: down, down, four up, down
        seats.append(_seat(i + 1, _NAMES[i], hole, up=hole[2:6], stack=1_000 + 100 * i))
    return _snap("stud", 6_000, "seventh", seats, table_seats=8, small_blind=0, big_blind=0,
                 ante=5, to_act=6, pots=[(600, list(range(1, 7)))], number=9)


FULL_TABLES = {"holdem-9": full_holdem, "stud-6": full_stud}
"""Full tables: two rows of players, the smallest cards the overlay draws."""


SCENARIOS = {
    "holdem-allin": holdem_allin,
    "stud-sixth": stud_sixth,
    "omaha8-split": omaha8_split,
    "triple-draw": triple_draw_second,
}
"""The four spots by the name of their screenshot (docs/img/overlay-NAME.png)."""
