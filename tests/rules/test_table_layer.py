"""The table layer across hands, end to end through the rules core: the simulated dealer with
seat changes between hands (away and back, leaving, new players posting or waiting, re-buys)
makes exactly the findings of its own mistakes, and the snapshot keeps the issue-4 keys
consistent with the seating plan at every step."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from controller.events import Event
from controller.rules import apply, initial_state, snapshot
from controller.sim import SimDealer, expand


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_seat_changes_raise_nothing_but_the_dealers_mistakes(seed: int):
    dealer = SimDealer(random.Random(seed), seats=6, mistake_rate=0.3, seat_changes=0.4)
    state, seq = initial_state(), 0
    found: Counter[tuple[int, str]] = Counter()
    statuses: Counter[str] = Counter()
    for _ in range(40):
        for step in dealer.next_hand():
            for body in expand(step):
                seq += 1
                result = apply(state, Event(seq, 0, body))
                state = result.state
                for f in result.findings:
                    found[(state.hand_number, f.code)] += 1
                snap = snapshot(state)
                hand = snap["hand"]
                if hand["phase"] == "preflop" and hand["dealt_in"]:
                    roles = [hand["small_blind"], hand["big_blind"]]
                    assert hand["big_blind"] in hand["dealt_in"]
                    assert hand["small_blind"] is None or hand["small_blind"] in hand["dealt_in"]
                    assert len(set(r for r in roles if r is not None)) == len(
                        [r for r in roles if r is not None]) or len(hand["dealt_in"]) == 2
                for s in snap["seats"]:
                    statuses[s["status"]] += 1
                    assert s["in_hand"] == (s["seat"] in hand["dealt_in"] and hand["phase"]
                                            not in ("complete", "misdeal", "idle"))
    expected = Counter((m.hand, m.expected_code) for m in dealer.truth)
    assert found == expected
    assert statuses["away"] and statuses["waiting_for_bb"], statuses  # the layer was exercised


# --- the vocabulary: events and console words --------------------------------------------------

from controller.console.lines import parse_command  # noqa: E402
from controller.events import EventError, iter_lines, parse_event  # noqa: E402

NEW_EVENTS = [
    {"type": "table.setup", "seats": 6, "profile": "wsop-2009",
     "settings": {"straddle": "utg"}},
    {"type": "seat.take", "seat": 4, "player": "Dee", "stack": 200, "post": True},
    {"type": "player.away", "seat": 3},
    {"type": "player.back", "seat": 3, "post": True},
    {"type": "seat.change", "seat": 3, "to": 5},
    {"type": "button.draw", "cards": {"1": "Kh", "2": "Ks"}},
    {"type": "tournament.setup", "levels": [{"small_blind": 1, "big_blind": 2},
                                            {"small_blind": 2, "big_blind": 4, "ante": 1}]},
    {"type": "tournament.level", "level": 2},
    {"type": "tournament.players", "remaining": 5},
    {"type": "chiprace.start"},
    {"type": "chiprace.end", "stacks": {"2": 205}},
    {"type": "action", "seat": 4, "kind": "post", "amount": 4, "blind": "straddle"},
]


@pytest.mark.parametrize("obj", NEW_EVENTS, ids=[o["type"] for o in NEW_EVENTS])
def test_new_events_round_trip(obj):
    event = parse_event(obj, default_seq=1)
    assert parse_event(event.to_json()) == event


@pytest.mark.parametrize(("obj", "names"), [
    ({"type": "table.setup", "profile": "casino-x"}, "casino-x"),
    ({"type": "table.setup", "settings": {"button_metod": "dead"}}, "button_metod"),
    ({"type": "table.setup", "settings": {"button_method": "sideways"}}, "sideways"),
    ({"type": "action", "seat": 2, "kind": "bet", "amount": 4, "blind": "straddle"}, "blind"),
    ({"type": "action", "seat": 2, "kind": "post", "amount": 4, "blind": "bribe"}, "bribe"),
    ({"type": "button.draw", "cards": {"1": "Kh", "2": "Kh"}}, "twice"),
    ({"type": "button.draw", "cards": {"x": "Kh", "2": "As"}}, "seat number"),
    ({"type": "seat.change", "seat": 3, "to": 3}, "same seat"),
    ({"type": "tournament.setup", "levels": [{"small_blind": 3, "big_blind": 2}]}, "level 1"),
    ({"type": "tournament.setup", "levels": [{"big_blind": 2}]}, "small_blind"),
    ({"type": "chiprace.end", "stacks": {"2": -1}}, "seat 2"),
    ({"type": "player.back", "seat": 3, "post": "yes"}, "post"),
])
def test_bad_new_events_name_the_problem(obj, names):
    with pytest.raises(EventError, match=names):
        parse_event(obj)


def test_v1_lines_are_unchanged_by_the_new_optional_fields():
    line = '{"seq":1,"ts":0,"type":"table.setup","game":"nlhe","seats":6,"small_blind":1,' \
           '"big_blind":2,"ante":0,"profile":"roberts"}'
    (event,) = iter_lines([line])
    assert event.to_line() == line
    post = '{"seq":2,"ts":0,"type":"action","seat":2,"kind":"post","amount":1}'
    (event,) = iter_lines([post])
    assert event.to_line() == post


@pytest.mark.parametrize(("line", "want"), [
    ("straddle 4 4", {"type": "action", "kind": "post", "blind": "straddle", "amount": 4}),
    ("post 5 1 missed_small", {"type": "action", "blind": "missed_small"}),
    ("away 3", {"type": "player.away", "seat": 3}),
    ("back 3 post", {"type": "player.back", "post": True}),
    ("move 3 5", {"type": "seat.change", "to": 5}),
    ("sit 4 Dee 200 post", {"type": "seat.take", "post": True}),
    ("draw 1=Kh 2=As", {"type": "button.draw", "cards": {1: "Kh", 2: "As"}}),
    ("level 3", {"type": "tournament.level", "level": 3}),
    ("players 5", {"type": "tournament.players", "remaining": 5}),
    ("race start", {"type": "chiprace.start"}),
    ("race end 2=205", {"type": "chiprace.end", "stacks": {2: 205}}),
])
def test_console_words_for_the_table_layer(line, want):
    from controller.events import make

    got = make(1, parse_command(line)).to_json()
    assert {k: got[k] for k in want} == want


@pytest.mark.parametrize("line", ["draw 1", "race end 2=x", "back 3 now", "post 3 2 bribe",
                                  "level", "move 3", "race stop"])
def test_bad_console_words_are_errors(line):
    with pytest.raises(EventError):
        parse_command(line)
