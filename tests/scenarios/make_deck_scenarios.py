"""Writes the scenarios of the deck as a whole and of cards moving between hands (issue 11),
``deck_*.jsonl``: the simulated dealer's clean first hands (``SimDealer``, seed 0, 4 seats) of
one game per family, with the irregularity put in where the story needs it.

    .venv/bin/python tests/scenarios/make_deck_scenarios.py

Each ``# expect:`` line is written from what was put in (the code, the seats, the cards, the
seq of the event that must raise it, the remedy's words), never read back from the monitor;
the generator refuses to write a scenario the rules core does not meet (``_check`` of
make_key_scenarios.py, whose helpers this reuses).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
sys.path.insert(0, str(HERE))

from make_key_scenarios import GAMES, _clean, _events, _first, _voluntary, _write  # noqa: E402

from controller.events import (  # noqa: E402
    Action,
    Body,
    DeckAudit,
    DeckRegister,
    FloorRuling,
    HandStart,
    ZoneRead,
)
from controller.poker.cards import FULL_DECK  # noqa: E402
from controller.sim import SimDealer, expand  # noqa: E402

RR = "roberts-rules-v11.txt"
MAKER = "make_deck_scenarios.py: SimDealer seed 0, 4 seats, the irregularity put in"
BLUE = {"BLUE-9S": "9s"}  # the idle deck of the two-deck rotation: one tag is enough here


def _holes(bodies: list[Body], before: int) -> dict[int, list[str]]:
    """seat -> the uids read in its zone before index ``before``, in order."""
    out: dict[int, list[str]] = {}
    for b in bodies[:before]:
        if isinstance(b, ZoneRead) and b.zone.startswith("seat:"):
            out.setdefault(int(b.zone[5:]), []).append(b.uid)
    return out


def _tags(bodies: list[Body]) -> dict[str, str]:
    reg = next(b for b in bodies if isinstance(b, DeckRegister))
    return dict(reg.tags)


def _thrown(fam: str, bodies: list[Body]) -> tuple[str, list[Body], dict[str, object], str]:
    """Before the first betting action, a hole card of the first seat dealt to is read in the
    second seat's hand; the dealer puts it in the muck. The scenario ends there."""
    act = _first(bodies, _voluntary)
    holes = _holes(bodies, act)
    owner, to = list(holes)[:2]
    uid = holes[owner][0]
    card = _tags(bodies)[uid]
    head = bodies[:act]
    hand = [*head, ZoneRead(uid=uid, zone=f"seat:{to}"), ZoneRead(uid=uid, zone="muck")]
    expect = {"code": "CARDS_THROWN_INTO_ANOTHER_HAND", "seats": [owner, to], "cards": [card],
              "rule": {"file": RR, "section": "Section 3, Dead Hands", "rule": "3"},
              "remedy_has": [f"{card} of seat {owner} went into the hand of seat {to}",
                             f"The hand of seat {owner} is dead"], "seq": len(head) + 1}
    story = (f"before the first betting action, {card} of seat {owner} lands in seat {to}'s "
             f"hand: \"Cards thrown into another player's hand are dead\" "
             "(roberts-rules-v11.txt, Section 3, Dead Hands, r.3); the dealer takes it out "
             "into the muck")
    return f"deck_cards_thrown_into_another_hand_{fam}", hand, expect, story


def _unprotected(fam: str, bodies: list[Body]) -> tuple[str, list[Body], dict[str, object], str]:
    """Before the first betting action, the dealer sweeps every card of a seat that is not the
    first to act into the muck; the first action then finds the hand killed. The hand is played
    on to the end of that action."""
    act = _first(bodies, _voluntary)
    first = bodies[act]
    assert isinstance(first, Action)
    holes = _holes(bodies, act)
    seat = next(s for s in holes if s != first.seat)
    tags = _tags(bodies)
    cards = [tags[u] for u in holes[seat]]
    swept = [ZoneRead(uid=u, zone="muck") for u in holes[seat]]
    hand = [*bodies[:act], *swept, first]
    expect = {"code": "UNPROTECTED_HAND_KILLED_OR_FOULED", "seats": [seat],
              "cards": sorted(cards, key=cards.index),
              "rule": {"file": RR, "section": "Section 3, Irregularities", "rule": "2"},
              "remedy_has": [f"of seat {seat}, a live hand that has not folded, went into the "
                             "muck", "has no redress"], "seq": act + len(swept) + 1}
    story = (f"before the first betting action the dealer sweeps seat {seat}'s unprotected "
             "hand into the muck; at the next action it is found killed: \"If you fail to "
             "protect your hand, you will have no redress if it becomes fouled or the dealer "
             "accidentally kills it\" (roberts-rules-v11.txt, Section 3, Irregularities, r.2)")
    return f"deck_unprotected_hand_killed_{fam}", hand, expect, story


def _audit(fam: str, bodies: list[Body]) -> tuple[str, list[Body], list[dict[str, object]],
                                                   str]:
    """The table also knows an idle blue deck. After the first betting action the stub is read
    through: one card of the deck in play is missing and the blue card is in it. The hand is
    played to its end (the results stand)."""
    tags = _tags(bodies)
    at_reg = _first(bodies, lambda b: isinstance(b, DeckRegister))
    act = _first(bodies, _voluntary) + 1
    seen = {b.uid for b in bodies[:act] if isinstance(b, ZoneRead)}
    stub = [u for u in tags if u not in seen]
    gone = next(u for u in stub if tags[u] in FULL_DECK)
    read = (*(u for u in stub if u != gone), *BLUE)
    hand = [*bodies[:at_reg], DeckRegister(deck="blue", tags=BLUE, idle=True),
            *bodies[at_reg:act], DeckAudit(uids=read), *bodies[act:]]
    seq = act + 2  # the idle deck's register and the audit itself
    irreg = {"file": RR, "section": "Section 3, Irregularities"}
    expects: list[dict[str, object]] = [
        {"code": "MISSING_CARDS_FROM_DECK", "seats": [], "cards": [tags[gone]],
         "rule": {**irreg, "rule": "10"},
         "remedy_has": [f"did not find {tags[gone]}", "The results of the hand stand."],
         "seq": seq},
        {"code": "FOREIGN_BACK_CARD_IN_STUB", "seats": [], "cards": ["9s"],
         "rule": {**irreg, "rule": "3"},
         "remedy_has": ["9s of deck blue (tag BLUE-9S)", "All action stands."], "seq": seq},
    ]
    story = (f"the table keeps an idle blue deck; after the first betting action the stub is "
             f"read through the shoe: {tags[gone]} is missing (\"does not invalidate the "
             "results of a hand\", roberts-rules-v11.txt, Section 3, Irregularities, r.10) and "
             "the blue 9s is in it (\"discovered in the stub, all action stands\", r.3); the "
             "hand is played to its end")
    return f"deck_audit_missing_and_foreign_{fam}", hand, expects, story


def _button_last_hand(fam: str, game: str) -> tuple[str, list[Body], list[dict[str, object]],
                                                    str]:
    """Three hands: the second starts with the button sensor on the wrong seat, the floor lets
    it stand and it is played out; the third hand's start names the correction."""
    d = SimDealer(random.Random(0), seats=4, game=game)
    # the first hand places the button (a named button is the draw for it): the second is the
    # one with the button out of position
    first, second, third = ([b for s in d.next_hand() for b in expand(s)] for _ in range(3))
    i = _first(second, lambda b: isinstance(b, HandStart))
    blinds = [b for b in second if isinstance(b, Action) and b.kind == "post"]
    small = blinds[0].seat  # the plan's small blind; the button belongs just before it
    planned = max(s for s in range(1, 5) if s < small) if small > 1 else 4
    wrong = small  # the sensor reads the button on the small blind's seat
    hand = [*first, *second[:i], HandStart(button=wrong),
            FloorRuling(text="The button was on the wrong seat; the hand is played as dealt.",
                        code="MISDEAL_BUTTON_OUT_OF_POSITION", outcome="stand"),
            *second[i + 1:]]
    j = _first(third, lambda b: isinstance(b, HandStart))
    seq = len(hand) + j + 1
    hand += third
    at = len(first) + i + 1  # the seq of the second hand's start
    expects: list[dict[str, object]] = [
        {"code": "MISDEAL_BUTTON_OUT_OF_POSITION", "seats": [wrong, planned], "cards": [],
         "rule": {"file": RR, "section": "Section 3, Misdeals", "rule": "2(g)"},
         "remedy_has": [f"The button is on seat {wrong}"], "seq": at},
        {"code": "FLOOR_RULING", "seats": [], "cards": [],
         "rule": {"file": RR, "section": "Section 2, House Policies, Decision-Making",
                  "rule": "2"}, "remedy_has": ["The hand stands: play on."], "seq": at + 1},
        {"code": "BUTTON_MISPLACED_PREVIOUS_HAND", "seats": [wrong, planned], "cards": [],
         "rule": {"file": RR, "section": "Section 3, Irregularities", "rule": "1"},
         "remedy_has": [f"with the button on seat {wrong} where it belonged on seat "
                        f"{planned}; its result stands", "Correct the button and blinds"],
         "seq": seq},
    ]
    story = (f"the second hand starts with the button sensor on seat {wrong}, where the plan "
             f"has it on seat {planned}; the floor lets the hand stand and it is played out. "
             "At the third hand the button and blinds are corrected (roberts-rules-v11.txt, "
             "Section 3, Irregularities, r.1)")
    return f"deck_button_misplaced_previous_hand_{fam}", hand, expects, story


def main() -> int:
    problems = []
    for fam, game in GAMES.items():
        bodies = _clean(game)
        for make in (_thrown, _unprotected):
            name, hand, expect, story = make(fam, bodies)
            events, _ = _events(hand, [])
            problems.append(_write(name, f"{fam} family, {game}: {story}.", events, [expect],
                                   MAKER))
        name, hand, expects, story = _audit(fam, bodies)
        events, _ = _events(hand, [])
        problems.append(_write(name, f"{fam} family, {game}: {story}.", events, expects, MAKER))
        if fam != "stud":  # stud has no button
            name, hand, expects, story = _button_last_hand(fam, game)
            events, _ = _events(hand, [])
            problems.append(_write(name, f"{fam} family, {game}: {story}.", events, expects,
                                   MAKER))
    for p in filter(None, problems):
        print(p)
    return 1 if any(problems) else 0


if __name__ == "__main__":
    raise SystemExit(main())
