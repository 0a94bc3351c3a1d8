"""Hand-built table snapshots (docs/snapshot.md) for the display tests.

One short no-limit hold'em hand at a four-seat table, blinds 1/2, as the rules core would
snapshot it after each event that matters: set-up, the deal, preflop betting (with a flashed hole
card), flop, turn (with a burn finding), river, the showdown where seats 3 and 1 table their
hands, and the pot awarded. Seats 2 and 4 fold and are never tabled.

Each function returns a fresh list of fresh dicts, so a test may mutate what it gets. The lead
will later add a variant driven by the real rules core: anything returning a list of snapshots
in this schema can be swapped in.
"""

from __future__ import annotations

import copy
from typing import Any

Snapshot = dict[str, Any]

PLAYERS = {1: "Ann", 2: "Bob", 3: "Cat", 4: "Dan"}
HOLE = {1: ["As", "Kd"], 2: ["7h", "2c"], 3: ["Qs", "Qh"], 4: ["9c", "Td"]}
BURNS = ["5s", "6d", "Kh"]  # flop, turn, river burn cards: never public, never in a snapshot key
FLOP, TURN, RIVER = ["Ah", "8d", "4s"], ["Jc"], ["3h"]
TABLED = [3, 1]  # Cat shows first (last aggressor on the river), then Ann

FLASHED = {
    "code": "CARD_FLASHED_BY_DEALER",
    "seq": 14,
    "severity": "warning",
    "title": "Hole card flashed by the dealer",
    "message": "Seat 4's 9c was flashed while dealing; no other player saw its face.",
    "seats": [4],
    "cards": ["9c"],
    "rule": {"file": "roberts-rules-v11.txt", "section": "Section 3, Irregularities", "rule": "4"},
    "remedy": ["The 9c stays in seat 4's hand.", "Continue the deal."],
    "remedy_due": [],
}
BURN_FINDING = {
    "code": "BURN_MISSING_OR_EXTRA",
    "seq": 33,
    "severity": "error",
    "title": "Burn card missing or extra",
    "message": "A second card, 6d, went to the burn before the turn.",
    "seats": [],
    "cards": ["6d"],
    "rule": {"file": "roberts-rules-v11.txt", "section": "Section 3, Irregularities", "rule": "16"},
    "remedy": ["Leave the 6d in the burn.", "Deal the turn from the top of the stub."],
    "remedy_due": [],
}
MISDEAL_FINDING = {
    "code": "MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED",
    "seq": 9,
    "severity": "misdeal",
    "title": "Misdeal: first or second card of the deal exposed",
    "message": "The first card of the deal, Kd, left the shoe face up.",
    "seats": [2],
    "cards": ["Kd"],
    "rule": {"file": "roberts-rules-v11.txt", "section": "Section 3, Irregularities", "rule": "1"},
    "remedy": ["Declare a misdeal.", "Gather every card and reshuffle.", "Deal again."],
    "remedy_due": [],
}


def _snap(
    seq: int,
    phase: str,
    *,
    number: int = 1,
    to_act: int | None = None,
    board: list[str] | None = None,
    burns: int = 0,
    bets: dict[int, int] | None = None,
    stacks: dict[int, int] | None = None,
    folded: tuple[int, ...] = (),
    pot: int = 0,
    eligible: tuple[int, ...] = (1, 2, 3, 4),
    current_bet: int = 0,
    min_raise_to: int = 2,
    expect: str = "",
    showdown: list[int] | None = None,
    cards_seen: int = 0,
    findings: list[dict[str, Any]] | None = None,
    results: list[dict[str, Any]] | None = None,
    dealt: bool = True,
) -> Snapshot:
    bets = bets or {}
    stacks = {1: 200, 2: 200, 3: 200, 4: 200, **(stacks or {})}
    in_hand = phase != "idle"
    seats = [
        {
            "seat": s,
            "player": PLAYERS[s],
            "stack": stacks[s],
            "bet": bets.get(s, 0),
            "in_hand": in_hand,
            "folded": s in folded,
            "all_in": False,
            "hole": list(HOLE[s]) if in_hand and dealt else [],
            "up": [],
            "drawn": [],
            "drawn_now": None,
            "chips_in_front": None,  # no chip antennas at this table
        }
        for s in PLAYERS
    ]
    snap: Snapshot = {
        "last_seq": seq,
        "table": {
            "game": "nlhe",
            "name": "No-limit hold'em",
            "family": "board",
            "hole_cards": 2,
            "seats": 4,
            "small_blind": 1,
            "big_blind": 2,
            "ante": 0,
            "profile": "roberts",
        },
        "hand": {
            "number": number,
            "phase": phase,
            "button": 1 if phase != "idle" else None,
            "small_blind": 2 if phase != "idle" else None,
            "big_blind": 3 if phase != "idle" else None,
            "to_act": to_act,
            "board": list(board or []),
            "burns": burns,
            "current_bet": current_bet,
            "min_raise_to": min_raise_to,
            "pots": [{"amount": pot, "eligible": list(eligible)}] if pot else [],
            "uncalled": None,  # no bet beyond what another seat can call
            "expect": expect,
            "showdown": list(showdown or []),
            "cards_seen": cards_seen,
            "draw_answer": None,
            # the touch console's keys (docs/snapshot.md)
            "can_raise": to_act is not None,
            "to_call": max(current_bet - bets.get(to_act, 0), 0) if to_act is not None else 0,
            "max_raise_to": stacks[to_act] + bets.get(to_act, 0) if to_act is not None else 0,
            "all_in_to": stacks[to_act] + bets.get(to_act, 0) if to_act is not None else 0,
            "posts": [{"seat": 2, "kind": "small_blind", "amount": 1, "live": True},
                      {"seat": 3, "kind": "big_blind", "amount": 2, "live": True}]
            if phase != "idle" else [],
            "post_due": None,
            "to_draw": None,
            "remedy_now": None,
            "level": None,  # a cash table: no tournament level, no players left
            "players_left": None,
        },
        "seats": seats,
        "findings": copy.deepcopy(findings or []),
        "results": copy.deepcopy(results or []),
    }
    return snap


def short_hand() -> list[Snapshot]:
    """The whole hand, one snapshot per step, in order of `last_seq`."""
    pre = {"bets": {2: 1, 3: 2}, "stacks": {2: 199, 3: 198}, "pot": 3, "current_bet": 2}
    flop_board = FLOP
    turn_board = FLOP + TURN
    river_board = FLOP + TURN + RIVER
    after_pre = {1: 194, 2: 199, 3: 194, 4: 198}
    two = (1, 3)
    return [
        _snap(6, "idle", number=0, dealt=False, min_raise_to=0, expect="hand.start"),
        _snap(
            8, "preflop", **pre, min_raise_to=4, expect="deal: seat 2 first, two rounds",
            dealt=False,
        ),
        _snap(
            17, "preflop", **pre, min_raise_to=4, to_act=4, cards_seen=8,
            findings=[FLASHED], expect="betting: seat 4 to act",
        ),
        _snap(
            19, "preflop", bets={1: 6, 2: 1, 3: 2, 4: 2}, stacks={1: 194, 2: 199, 3: 198, 4: 198},
            pot=11, current_bet=6, min_raise_to=10, to_act=2, cards_seen=8, findings=[FLASHED],
            expect="betting: seat 2 to act",
        ),
        _snap(
            23, "flop", board=flop_board, burns=1, stacks=after_pre, folded=(2, 4), pot=15,
            eligible=two, to_act=3, cards_seen=12, findings=[FLASHED],
            expect="betting: seat 3 to act",
        ),
        _snap(
            26, "flop", board=flop_board, burns=1, bets={1: 10, 3: 10},
            stacks={**after_pre, 1: 184, 3: 184}, folded=(2, 4), pot=35, eligible=two,
            current_bet=10, min_raise_to=20, cards_seen=12, findings=[FLASHED],
            expect="burn, then the turn",
        ),
        _snap(
            34, "turn", board=turn_board, burns=2, stacks={**after_pre, 1: 184, 3: 184},
            folded=(2, 4), pot=35, eligible=two, to_act=3, cards_seen=15,
            findings=[FLASHED, BURN_FINDING], expect="betting: seat 3 to act",
        ),
        _snap(
            38, "river", board=river_board, burns=3, stacks={**after_pre, 1: 184, 3: 184},
            folded=(2, 4), pot=35, eligible=two, to_act=3, cards_seen=17,
            findings=[FLASHED, BURN_FINDING], expect="betting: seat 3 to act",
        ),
        _snap(
            40, "river", board=river_board, burns=3, bets={1: 20, 3: 20},
            stacks={**after_pre, 1: 164, 3: 164}, folded=(2, 4), pot=75, eligible=two,
            current_bet=20, min_raise_to=40, cards_seen=17, findings=[FLASHED, BURN_FINDING],
            expect="showdown: seat 3 shows first",
        ),
        _snap(
            42, "showdown", board=river_board, burns=3, stacks={**after_pre, 1: 164, 3: 164},
            folded=(2, 4), pot=75, eligible=two, showdown=TABLED, cards_seen=17,
            findings=[FLASHED, BURN_FINDING], expect="award the pot (hand.end)",
        ),
        _snap(
            43, "complete", board=river_board, burns=3, stacks={**after_pre, 1: 239, 3: 164},
            folded=(2, 4), showdown=TABLED, cards_seen=17, findings=[FLASHED, BURN_FINDING],
            results=[
                {"amount": 75, "eligible": [1, 3], "winners": [1], "shares": {"1": 75},
                 "hand": "Pair of aces"},
            ],
            expect="hand.start",
        ),
    ]


def misdeal_hand() -> list[Snapshot]:
    """A second hand voided at once: the first card of the deal came out face up."""
    return [
        _snap(50, "preflop", number=2, bets={2: 1, 3: 2}, stacks={2: 199, 3: 198}, pot=3,
              current_bet=2, min_raise_to=4, dealt=False, expect="deal: seat 2 first"),
        _snap(52, "misdeal", number=2, cards_seen=1, dealt=False, min_raise_to=0,
              findings=[MISDEAL_FINDING], expect="misdeal.declared, then shuffle and redeal"),
    ]


def hole_cards_hidden_at(snap: Snapshot) -> set[str]:
    """Every hole card in `snap` that the public may not see yet: cards of seats not tabled."""
    tabled = set(snap["hand"]["showdown"])
    return {c for s in snap["seats"] if s["seat"] not in tabled for c in s["hole"]}


def every_hole_card() -> set[str]:
    return {c for cards in HOLE.values() for c in cards}
