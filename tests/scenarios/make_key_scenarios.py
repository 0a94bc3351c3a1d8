"""Writes the scenarios of the dealer's and floor's keys (issue 11), ``keys_*.jsonl``: a clean
first hand of the simulated dealer (``SimDealer``, seed 0, 4 seats) of one game per family, with
the key inserted where the story needs it.

    .venv/bin/python tests/scenarios/make_key_scenarios.py

Each ``# expect:`` line is written from where the key was put (the code, the seats, the seq of
the inserted event, the remedy's words for that point of the deal), never read back from the
monitor; the generator refuses to write a scenario the rules core does not meet.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from controller.events import (  # noqa: E402
    Action,
    Body,
    DeckFault,
    DrawQuery,
    Event,
    ShoeDraw,
    ShuffleDone,
)
from controller.rules import apply, initial_state  # noqa: E402
from controller.sim import SimDealer, expand  # noqa: E402

GAMES = {"board": "omaha", "stud": "stud", "draw": "27_triple"}
RRH = {"file": "roberts-rules-home.txt", "section": "Section 3, The Shuffle and Cut"}
RR = "roberts-rules-v11.txt"


def _clean(game: str) -> list[Body]:
    d = SimDealer(random.Random(0), seats=4, game=game)
    return [b for s in d.next_hand() for b in expand(s)]


def _first(bodies: list[Body], test: Callable[[Body], bool], start: int = 0) -> int:
    return next(i for i in range(start, len(bodies)) if test(bodies[i]))


def _voluntary(b: Body) -> bool:
    return isinstance(b, Action) and b.kind not in ("post", "draw")


def _deck_cases(fam: str, bodies: list[Body]) -> list[tuple[str, int, Body, dict[str, object]]]:
    """(name, index to insert at, the key, its expectation) for the four deck faults."""
    shuffled = _first(bodies, lambda b: isinstance(b, ShuffleDone)) + 1
    dealt = _first(bodies, lambda b: isinstance(b, ShoeDraw)) + 4  # a few cards out
    acted = _first(bodies, _voluntary) + 1
    return [
        ("shuffle_insufficient", shuffled, DeckFault(kind="shuffle_insufficient"),
         {"code": "SHUFFLE_INSUFFICIENT", "seats": [], "cards": [],
          "rule": {**RRH, "rule": "2"}, "remedy_has": ["No card is out yet: shuffle the deck "
                                                       "again (at least four riffles)"]}),
        ("cut_wrong_player", dealt, DeckFault(kind="cut_wrong_player", cutter=2),
         {"code": "CUT_MISSING_OR_BY_WRONG_PLAYER", "seats": [2], "cards": [],
          "rule": {**RRH, "rule": "1"},
          "remedy_has": ["seat 2 cut the deck", "a player who has not looked at his hand may "
                         "still complain"]}),
        ("bottom_card_exposed", acted, DeckFault(kind="bottom_card_exposed"),
         {"code": "BOTTOM_CARD_UNPROTECTED", "seats": [], "cards": [],
          "rule": {**RRH, "rule": "3"},
          "remedy_has": ["Put the cut card under the deck", "a complaint is too late and the "
                         "hand is played on"]}),
        ("stub_fouled", acted, DeckFault(kind="stub_fouled"),
         {"code": "DECK_STUB_FOULED", "seats": [], "cards": [],
          "rule": {"file": RR, "section": "Section 3, Irregularities", "rule": "17"},
          "remedy_has": ["Do not declare a misdeal: the deal must still be played out"]}),
    ]


STORY = {
    "shuffle_insufficient": "the dealer keys that the deck was riffled fewer than four times, "
                            "before the first card: shuffle again before dealing",
    "cut_wrong_player": "with a few cards out and no betting yet, the dealer keys that seat 2 "
                        "cut the deck: the complaint window (RRH Section 3 r.4) is still open",
    "bottom_card_exposed": "after the first betting action the dealer keys that the bottom card "
                           "showed (no cut card): too late to complain, the hand plays on",
    "stub_fouled": "after the first betting action the dealer drops the stub: the deal is "
                   "played out (roberts-rules-v11.txt, Section 3, Irregularities, r.17)",
}


def _draw_cases(bodies: list[Body]) -> list[tuple[str, list[tuple[int, Body]],
                                                   list[dict[str, object]], str]]:
    """The draw's two questions: a changed request (allowed, then refused) and how many cards a
    seat drew (answered, then locked)."""
    first = _first(bodies, lambda b: isinstance(b, Action) and b.kind == "draw"
                   and (b.amount or 0) > 0)
    req = bodies[first]
    assert isinstance(req, Action) and req.amount is not None
    other = 1 if req.amount != 1 else 2
    burn = _first(bodies, lambda b: isinstance(b, ShoeDraw), first)
    # on the second draw, a seat drawing cards asks again once its cards are coming
    second = _first(bodies, lambda b: isinstance(b, Action) and b.kind == "draw"
                    and (b.amount or 0) > 0, _first(bodies, _voluntary, burn))
    req2 = bodies[second]
    assert isinstance(req2, Action) and req2.amount is not None
    dealt2 = _first(bodies, lambda b: isinstance(b, ShoeDraw), second) + 1
    change = [(first, Action(seat=req.seat, kind="draw", amount=other)),
              (dealt2, Action(seat=req2.seat, kind="draw", amount=req2.amount + 1))]
    lowball = {"file": RR, "section": "Section 11, Lowball"}
    change_expect: list[dict[str, object]] = [
        {"code": "DRAW_CHANGE_NUMBER_REQUESTED", "seats": [req.seat], "cards": [],
         "rule": {**lowball, "rule": "11"},
         "remedy_has": [f"Seat {req.seat} asked for {req.amount} card(s) after asking for "
                        f"{other}", "the change is allowed"]},
        {"code": "DRAW_CHANGE_NUMBER_REQUESTED", "seats": [req2.seat], "cards": [],
         "rule": {**lowball, "rule": "11"},
         "remedy_has": ["Too late to change: a card has been dealt off the deck",
                        f"seat {req2.seat} draws {req2.amount}"]},
    ]
    # the first draw over, before the first betting action after it: answered; after: locked
    after = _first(bodies, _voluntary, burn)
    query = [(after, DrawQuery(seat=req.seat)), (after + 1, DrawQuery(seat=req.seat))]
    query_expect: list[dict[str, object]] = [
        {"code": "DRAW_CARDS_DRAWN_QUERY", "seats": [req.seat], "cards": [],
         "rule": {**lowball, "rule": "13"},
         "remedy_has": [f"the dealer cannot say how many cards seat {req.seat} drew"]}]
    return [
        ("draw_change_number", change, change_expect,
         f"seat {req.seat} asks for {other} card(s), then, before any card comes, for "
         f"{req.amount}: allowed (roberts-rules-v11.txt, Section 11, r.11(a), (b)); on the "
         f"second draw seat {req2.seat} asks again after its first card came off the deck: "
         "refused, the first number stands"),
        ("draw_cards_drawn_query", query, query_expect,
         f"seat {req.seat}'s draw is asked about before the first betting action after the "
         "draw (answered: hand.draw_answer) and again after it: the dealer cannot answer "
         "(roberts-rules-v11.txt, Section 11, r.13)"),
    ]


def _events(bodies: list[Body], inserts: list[tuple[int, Body]]) -> tuple[list[Event],
                                                                             list[int]]:
    """The hand with the keys inserted (before the body at each index); their seqs."""
    at: dict[int, list[Body]] = {}
    for i, b in inserts:
        at.setdefault(i, []).append(b)
    out: list[Event] = []
    seqs: list[int] = []
    for i, b in enumerate([*bodies, None]):
        for key in at.get(i, []):
            out.append(Event(len(out) + 1, 0, key))
            seqs.append(len(out))
        if b is not None:
            out.append(Event(len(out) + 1, 0, b))
    return out, seqs


def _check(events: list[Event], expects: list[dict[str, object]]) -> str:
    state, got = initial_state(), []
    for e in events:
        step = apply(state, e)
        state = step.state
        got += list(step.findings)
    if [f.code for f in got] != [x["code"] for x in expects]:
        return f"core {[f.code for f in got]}"
    for f, x in zip(got, expects, strict=True):
        remedy = " ".join(f.remedy)
        if f.seq != x["seq"] or list(f.seats) != x["seats"] or list(f.cards) != x["cards"]:
            return f"{f.code}: seq {f.seq}, seats {f.seats}, cards {f.cards}"
        for text in x["remedy_has"]:  # type: ignore[attr-defined]
            if text not in remedy:
                return f"{f.code}: remedy lacks {text!r}: {remedy}"
    return ""


def _write(name: str, head: str, events: list[Event], expects: list[dict[str, object]],
           maker: str = "make_key_scenarios.py: SimDealer seed 0, 4 seats, the key inserted"
           ) -> str:
    problem = _check(events, expects)
    if problem:
        return f"{name}: {problem}"
    lines = [f"# {head}", f"# (tests/scenarios/{maker})"]
    lines += [f"# expect: {json.dumps(x)}" for x in expects]
    lines += [e.to_line() for e in events]
    (HERE / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return ""


def main() -> int:
    problems = []
    for fam, game in GAMES.items():
        bodies = _clean(game)
        for kind, index, key, expect in _deck_cases(fam, bodies):
            events, seqs = _events(bodies, [(index, key)])
            head = f"{fam} family, {game}: {STORY[kind]}."
            problems.append(_write(f"keys_{kind}_{fam}", head, events, [{**expect,
                                                                          "seq": seqs[0]}]))
        if fam == "draw":
            for name, inserts, expects, story in _draw_cases(bodies):
                events, seqs = _events(bodies, inserts)
                # which events raise the findings: the change is the hand's own request
                # after the inserted one; an answered query raises none
                raised = ([seqs[0] + 1, seqs[1]] if name == "draw_change_number"
                          else seqs[1:])
                problems.append(_write(f"keys_{name}", f"draw family, {game}: {story}.",
                                       events, [{**x, "seq": s}
                                                for x, s in zip(expects, raised, strict=True)]))
    for p in filter(None, problems):
        print(p)
    return 1 if any(problems) else 0


if __name__ == "__main__":
    raise SystemExit(main())
