"""Table snapshots (docs/snapshot.md) that crowd a screen most, for the layout tests of the live
pages (tests/display/test_browser_layout.py) and the broadcast's words
(tests/display/test_broadcast_words.py).

- `side_pots()`: six-handed no-limit hold'em at the showdown after three all-ins: a main pot, two
  side pots and the part of Dee's bet nobody could call (`hand.uncalled`, back to her), every
  hand that went all in tabled, a long player name;
- `awarded()`: the same hand after `hand.end`: the main pot and the first side pot split between
  Ann and Dee, the second side pot to Dee, the uncalled bet returned to her;
- `ten_seats()`: ten-handed hold'em preflop, every seat dealt, blinds, raises, a fold and a
  finding (the flashed card of tests/display/snapshots.py);
- `stud_seventh()`: seven-card stud on seventh street, seven players with seven cards each (two
  down, four up, one down), an eighth seat empty.

Each function returns a fresh dict, so a test may change what it gets.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from tests.display.snapshots import FLASHED

Snapshot = dict[str, Any]

NAMES = ["Ann", "Bob", "Cat", "Dee", "Eve", "Maximilian Oberhauser", "Gus", "Hal", "Ivy", "Jo"]

# side_pots(): blinds 5/10; Bob all in for 60, Ann for 120, Cat for 200; Dee bet 817, of which
# 617 nobody could call. Eve (big blind) and seat 6 (small blind) folded.
SIDE_HOLE = {1: ["As", "Kh"], 2: ["Qd", "Qc"], 3: ["7h", "7d"], 4: ["Ac", "Kd"],
             5: ["9s", "4c"], 6: ["6h", "3s"]}
SIDE_BOARD = ["9h", "Td", "Jc", "Qs", "2d"]
SIDE_POTS = [{"amount": 255, "eligible": [1, 2, 3, 4]},
             {"amount": 180, "eligible": [1, 3, 4]},
             {"amount": 160, "eligible": [3, 4]}]
UNCALLED = {"seat": 4, "amount": 617}
SIDE_TABLED = [1, 2, 3, 4]
# as the core awards them (controller/poker/pots.py): the uncalled bet first, then the side pots
# from the highest, the main pot last
SIDE_RESULTS = [
    {"amount": 617, "eligible": [4], "winners": [4], "shares": {"4": 617},
     "hand": "uncalled bet returned"},
    {"amount": 160, "eligible": [3, 4], "winners": [4], "shares": {"4": 160},
     "hand": "Straight, ace high"},
    {"amount": 180, "eligible": [1, 3, 4], "winners": [1, 4], "shares": {"1": 90, "4": 90},
     "hand": "Straight, ace high"},
    {"amount": 255, "eligible": [1, 2, 3, 4], "winners": [1, 4],
     "shares": {"1": 128, "4": 127}, "hand": "Straight, ace high"},
]

STUD_SEATS = 7  # of an eight-seat table: 49 of the 52 cards are out
BRING_IN = 5


def _seat(seat: int, hole: list[str], *, stack: int, bet: int = 0, up: list[str] | None = None,
          folded: bool = False, all_in: bool = False, in_hand: bool = True) -> Snapshot:
    return {
        "seat": seat, "player": NAMES[seat - 1], "stack": stack, "bet": bet,
        "in_hand": in_hand, "folded": folded, "all_in": all_in, "hole": list(hole),
        "up": list(up or []), "drawn": [], "drawn_now": None, "status": "playing", "owes": [],
        "chips_in_front": None,
    }


def _snap(seq: int, *, game: tuple[str, str, str, int], seats: int, phase: str,
          seat_list: list[Snapshot], blinds: tuple[int, int], ante: int = 0,
          button: int | None = None, small_blind: int | None = None,
          big_blind: int | None = None, to_act: int | None = None,
          board: list[str] | None = None, pots: list[Snapshot] | None = None,
          uncalled: Snapshot | None = None, showdown: list[int] | None = None,
          findings: list[Snapshot] | None = None, results: list[Snapshot] | None = None,
          current_bet: int = 0, expect: str = "") -> Snapshot:
    game_id, name, family, hole_cards = game
    return {
        "last_seq": seq,
        "table": {"game": game_id, "name": name, "family": family, "structure": "no-limit",
                  "mixed": None, "hole_cards": hole_cards, "seats": seats,
                  "small_blind": blinds[0], "big_blind": blinds[1], "ante": ante,
                  "profile": "roberts"},
        "hand": {
            "number": 37, "phase": phase, "button": button, "small_blind": small_blind,
            "big_blind": big_blind, "to_act": to_act, "board": list(board or []),
            "burns": 3 if board else 0, "current_bet": current_bet,
            "min_raise_to": 2 * current_bet, "can_raise": to_act is not None,
            "to_call": current_bet if to_act is not None else 0,
            "max_raise_to": 0, "all_in_to": 0,
            "pots": copy.deepcopy(pots or []),
            "uncalled": copy.deepcopy(uncalled),
            "expect": expect, "showdown": list(showdown or []), "cards_seen": 0,
            "straddles": [], "kill": None, "posts": [], "dealt_in": [], "level": None,
            "draw_answer": None, "remedy_now": None, "post_due": None, "to_draw": None,
        },
        "seats": seat_list,
        "findings": copy.deepcopy(findings or []),
        "results": copy.deepcopy(results or []),
    }


NLHE = ("nlhe", "No-limit hold'em", "board", 2)
STUD = ("stud", "Seven-card stud", "stud", 7)


def side_pots() -> Snapshot:
    """The showdown: three pots on the felt, Dee's uncalled 617 going back to her."""
    seats = [
        _seat(1, SIDE_HOLE[1], stack=0, all_in=True),
        _seat(2, SIDE_HOLE[2], stack=0, all_in=True),
        _seat(3, SIDE_HOLE[3], stack=0, all_in=True),
        _seat(4, SIDE_HOLE[4], stack=1183),
        _seat(5, SIDE_HOLE[5], stack=490, folded=True),
        _seat(6, SIDE_HOLE[6], stack=995, folded=True),
    ]
    return _snap(101, game=NLHE, seats=6, phase="showdown", seat_list=seats, blinds=(5, 10),
                 button=4, small_blind=6, big_blind=5, board=SIDE_BOARD, pots=SIDE_POTS,
                 uncalled=UNCALLED, showdown=SIDE_TABLED, expect="award the pots (hand.end)")


def awarded() -> Snapshot:
    """The same hand once the pots are awarded: splits, and the uncalled bet returned."""
    snap = side_pots()
    stacks = {1: 218, 4: 1183 + 617 + 127 + 90 + 160}
    for seat in snap["seats"]:
        seat["stack"] = stacks.get(seat["seat"], seat["stack"])
        seat["all_in"] = False
    snap["last_seq"] = 102
    snap["hand"].update(phase="complete", pots=[], uncalled=None, expect="hand.start")
    snap["results"] = copy.deepcopy(SIDE_RESULTS)
    return snap


def ten_seats() -> Snapshot:
    """Ten-handed preflop: seat 3 raised to 30, seat 4 folded, seat 5 to act."""
    deck = [r + s for s in "shdc" for r in "AKQJT98765432"]
    stacks = [1000, 2480, 1970, 1500, 12345, 800, 995, 1500, 640, 3025]
    bets = {1: 5, 2: 10, 3: 30}
    seats = [
        _seat(n, deck[2 * n - 2:2 * n], stack=stacks[n - 1] - bets.get(n, 0),
              bet=bets.get(n, 0), folded=n == 4)
        for n in range(1, 11)
    ]
    return _snap(201, game=NLHE, seats=10, phase="preflop", seat_list=seats, blinds=(5, 10),
                 button=10, small_blind=1, big_blind=2, to_act=5,
                 pots=[{"amount": 45, "eligible": list(range(1, 11))}], current_bet=30,
                 findings=[FLASHED], expect="betting: seat 5 to act")


def stud_cards() -> dict[int, tuple[list[str], list[str]]]:
    """Each seat's seven cards in the order dealt, and its four upcards among them."""
    deck = [r + s for s in "shdc" for r in "AKQJT98765432"]
    random.Random(7).shuffle(deck)  # a fixed order: the same cards every run
    out = {}
    for n in range(1, STUD_SEATS + 1):
        cards = deck[7 * (n - 1):7 * n]
        out[n] = (cards, cards[2:6])
    return out


def stud_seventh() -> Snapshot:
    """Seventh street: every seat holds two down cards, four up and the last card down."""
    seats = [
        _seat(n, hole, up=up, stack=600 - 95 + 10 * n, bet=40 if n in (2, 3) else 0)
        for n, (hole, up) in stud_cards().items()
    ]
    return _snap(301, game=STUD, seats=8, phase="seventh", seat_list=seats, blinds=(0, 0),
                 ante=BRING_IN, to_act=4, pots=[{"amount": 665,
                                                 "eligible": list(range(1, STUD_SEATS + 1))}],
                 current_bet=40, findings=[FLASHED], expect="betting: seat 4 to act")


CASES = {"sidepots": side_pots, "award": awarded, "tenseats": ten_seats, "stud": stud_seventh}
