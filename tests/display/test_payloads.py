"""The role payloads: the public view is a whitelist that never leaks a hole card before the seat
is tabled; the dealer view carries everything documented in docs/snapshot.md."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.events import (
    LevelUp,
    SeatTake,
    TableSetup,
    TournamentPlayers,
    TournamentSetup,
    make,
)
from controller.rules import apply, initial_state
from controller.rules import snapshot as core_snapshot
from display.payloads import dealer_payload, table_payload
from tests.display.snapshots import (
    BURNS,
    HOLE,
    TABLED,
    hole_cards_hidden_at,
    misdeal_hand,
    short_hand,
)

ALL_SNAPSHOTS = short_hand() + misdeal_hand()

PUBLIC_TOP = {"role", "last_seq", "table", "hand", "seats", "findings", "results"}
PUBLIC_TABLE = {"game", "name", "family", "hole_slots", "seats", "small_blind", "big_blind", "ante"}
PUBLIC_HAND = {
    "number", "phase", "button", "small_blind", "big_blind", "to_act", "board", "pots", "showdown",
    "draw_answer", "uncalled",
}
PUBLIC_SEAT = {
    "seat", "player", "stack", "bet", "in_hand", "folded", "all_in", "hole_count", "down_count",
    "shown", "hole", "up", "drawn", "chips_in_front",
}
PUBLIC_FINDING = {"code", "seq", "severity", "title", "seats"}
RESULT = {"amount", "eligible", "winners", "shares", "hand"}


def mentions(text: str, card: str) -> bool:
    """Whether a card string appears as a token in the text (not inside another word)."""
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(card)}(?![A-Za-z0-9])", text) is not None


def ids(snaps: list[dict[str, Any]]) -> list[str]:
    return [f"{s['last_seq']}-{s['hand']['phase']}" for s in snaps]


@pytest.mark.parametrize("snap", ALL_SNAPSHOTS, ids=ids(ALL_SNAPSHOTS))
def test_public_payload_has_only_whitelisted_keys(snap: dict[str, Any]) -> None:
    pub = table_payload(snap)
    assert set(pub) == PUBLIC_TOP
    assert set(pub["table"]) == PUBLIC_TABLE
    assert set(pub["hand"]) == PUBLIC_HAND
    assert all(set(s) == PUBLIC_SEAT for s in pub["seats"])
    assert all(set(f) == PUBLIC_FINDING for f in pub["findings"])
    assert all(set(r) == RESULT for r in pub["results"])
    assert pub["last_seq"] == snap["last_seq"]
    assert pub["role"] == "table"


@pytest.mark.parametrize("snap", ALL_SNAPSHOTS, ids=ids(ALL_SNAPSHOTS))
def test_no_hidden_hole_card_or_burn_card_in_public_json(snap: dict[str, Any]) -> None:
    text = json.dumps(table_payload(snap))
    hidden = hole_cards_hidden_at(snap) | set(BURNS)
    for s in snap["findings"]:
        hidden |= set(s["cards"])  # a finding's cards are dealer-only (e.g. a flashed hole card)
    hidden -= set(snap["hand"]["board"])
    for seat in snap["hand"]["showdown"]:
        hidden -= set(HOLE[seat])
    leaked = sorted(card for card in hidden if mentions(text, card))
    assert leaked == [], f"public payload at seq {snap['last_seq']} names {leaked}"


def test_the_leak_scan_would_catch_a_leak() -> None:
    # The scanner itself must be able to fail: a hole card copied into any string is found.
    assert mentions(json.dumps({"x": "seat 4 holds 9c"}), "9c")
    assert mentions(json.dumps(["As"]), "As")
    assert not mentions(json.dumps({"player": "Ann", "hand": "Pair of aces"}), "As")


def test_hole_cards_are_held_face_down_until_showdown_then_tabled() -> None:
    snaps = short_hand()
    dealt = next(s for s in snaps if s["last_seq"] == 17)
    pub = table_payload(dealt)
    assert [s["hole_count"] for s in pub["seats"]] == [2, 2, 2, 2]
    assert all(s["hole"] == [] and s["shown"] is False for s in pub["seats"])

    for snap in snaps:
        pub = table_payload(snap)
        shown = {s["seat"]: s["hole"] for s in pub["seats"] if s["shown"]}
        if snap["hand"]["phase"] in ("showdown", "complete"):
            assert shown == {seat: HOLE[seat] for seat in TABLED}
            assert pub["hand"]["showdown"] == sorted(TABLED)
        else:
            assert shown == {}


def test_public_findings_carry_no_cards_message_rule_or_remedy() -> None:
    snap = short_hand()[-1]
    pub = table_payload(snap)
    assert [f["code"] for f in pub["findings"]] == [f["code"] for f in snap["findings"]]
    first = pub["findings"][0]
    assert first == {
        "code": "CARD_FLASHED_BY_DEALER",
        "seq": 14,
        "severity": "warning",
        "title": "Hole card flashed by the dealer",
        "seats": [4],
    }


def test_public_results_and_board_are_copied() -> None:
    pub = table_payload(short_hand()[-1])
    assert pub["hand"]["board"] == ["Ah", "8d", "4s", "Jc", "3h"]
    assert pub["results"] == [
        {"amount": 75, "eligible": [1, 3], "winners": [1], "shares": {"1": 75},
         "hand": "Pair of aces"},
    ]
    assert pub["table"] == {
        "game": "nlhe", "name": "No-limit hold'em", "family": "board", "hole_slots": 2,
        "seats": 4, "small_blind": 1, "big_blind": 2, "ante": 0,
    }


@pytest.mark.parametrize("snap", ALL_SNAPSHOTS, ids=ids(ALL_SNAPSHOTS))
def test_dealer_payload_has_everything(snap: dict[str, Any]) -> None:
    dealer = dealer_payload(snap)
    assert dealer["role"] == "dealer"
    assert dealer["last_seq"] == snap["last_seq"]
    # every table key, `hole_cards` under the name the pages use
    table = {k: v for k, v in snap["table"].items() if k != "hole_cards"}
    assert dealer["table"] == {**table, "hole_slots": snap["table"]["hole_cards"]}
    assert dealer["hand"] == snap["hand"]  # every documented hand key, expect included
    for got, want in zip(dealer["seats"], snap["seats"], strict=True):
        skip = ("hole_count", "down", "chip_counts")
        assert {k: v for k, v in got.items() if k not in skip} == want
        assert got["chip_counts"] == {}  # no chip read: tests/display/test_chip_payloads.py
        assert got["hole_count"] == len(want["hole"])
        assert got["down"] == want["hole"]  # hold'em: every hole card lies face down
    assert dealer["findings"] == snap["findings"]  # message, cards, rule and remedy
    assert dealer["results"] == snap["results"]


def test_unknown_keys_reach_no_payload() -> None:
    snap = short_hand()[2]
    snap["deck_order"] = ["2c", "3c"]
    snap["hand"]["stub"] = ["Jd"]
    snap["seats"][0]["secret"] = "Jd"
    snap["findings"][0]["surveillance_note"] = "Jd"
    snap["table"]["operator"] = "Jd"
    for payload in (table_payload(snap), dealer_payload(snap)):
        assert not mentions(json.dumps(payload), "Jd")


def test_builders_neither_change_nor_share_the_snapshot() -> None:
    snap = short_hand()[-1]
    before = copy.deepcopy(snap)
    pub, dealer = table_payload(snap), dealer_payload(snap)
    assert snap == before
    snap["hand"]["board"].append("2d")
    snap["seats"][1]["hole"].append("2d")
    snap["findings"][0]["remedy"].append("2d")
    snap["results"][0]["shares"]["3"] = 1
    for payload in (pub, dealer):
        assert not mentions(json.dumps(payload), "2d")
        assert payload["results"][0]["shares"] == {"1": 75}


def test_a_snapshot_that_is_not_a_dict_is_refused_clearly() -> None:
    for bad in (None, [], "snapshot", 3):
        with pytest.raises(TypeError, match="snapshot must be a dict"):
            table_payload(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="snapshot must be a dict"):
            dealer_payload(bad)  # type: ignore[arg-type]


def test_malformed_fields_fail_closed() -> None:
    snap = short_hand()[9]  # showdown: seats 3 and 1 tabled
    snap["hand"]["showdown"] = ["3", True, None]  # not seat numbers: nobody counts as tabled
    snap["seats"][1]["seat"] = "2"  # a seat without a number is dropped
    snap["seats"][2]["hole"] = "QsQh"  # not a list: no cards
    snap["hand"]["board"] = "Ah8d4s"
    snap["findings"].append("not an object")
    snap["hand"]["pots"] = [{"amount": "75", "eligible": [1, "x", 3]}]
    pub = table_payload(snap)
    assert [s["seat"] for s in pub["seats"]] == [1, 3, 4]
    assert all(not s["shown"] and s["hole"] == [] for s in pub["seats"])
    assert pub["hand"]["board"] == []
    assert pub["hand"]["pots"] == [{"amount": 0, "eligible": [1, 3]}]
    assert len(pub["findings"]) == 2
    text = json.dumps(pub)
    assert not any(mentions(text, c) for c in ("As", "Kd", "Qs", "Qh", "9c", "Td", "7h", "2c"))
    json.dumps(dealer_payload(snap))


# Arbitrary JSON-like values whose object keys are mostly the snapshot's own key names, so the
# garbage lands where the builders look.
KEY_NAMES = sorted(
    PUBLIC_TOP | PUBLIC_TABLE | PUBLIC_HAND | PUBLIC_SEAT | RESULT
    | {"message", "cards", "rule", "remedy", "expect", "burns", "text", "file", "section"}
)
keys = st.sampled_from(KEY_NAMES) | st.text(max_size=3)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=4) | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=5),
    max_leaves=30,
)
cards = st.sampled_from(["As", "Kd", "Qs", "Qh", "9c", "Td", "7h", "2c"])
seat_numbers = st.integers(min_value=1, max_value=10)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    top=st.dictionaries(
        st.sampled_from(["last_seq", "table", "hand", "seats", "findings", "results", "x"]),
        json_values,
    ),
)
def test_garbage_never_raises(top: dict[str, Any]) -> None:
    json.dumps(table_payload(top))
    json.dumps(dealer_payload(top))


@settings(max_examples=150, deadline=None)
@given(
    holes=st.dictionaries(seat_numbers, st.lists(cards, max_size=3), max_size=6),
    showdown=st.lists(st.one_of(seat_numbers, st.text(max_size=2), st.booleans()), max_size=4),
    phase=st.sampled_from(["preflop", "flop", "river", "showdown", "complete", "misdeal", "x"]),
)
def test_public_never_shows_a_hole_card_of_a_seat_not_tabled(
    holes: dict[int, list[str]], showdown: list[Any], phase: str
) -> None:
    snap = {
        "last_seq": 1,
        "hand": {"phase": phase, "showdown": showdown},
        "seats": [{"seat": s, "hole": h} for s, h in holes.items()],
    }
    tabled = {s for s in showdown if isinstance(s, int) and not isinstance(s, bool)}
    pub = table_payload(snap)
    for seat in pub["seats"]:
        assert seat["hole"] == (holes[seat["seat"]] if seat["seat"] in tabled else [])
        assert seat["hole_count"] == len(holes[seat["seat"]])
    visible = {c for s, h in holes.items() if s in tabled for c in h}
    text = json.dumps(pub)
    for card in {c for h in holes.values() for c in h} - visible:
        assert not mentions(text, card)


def test_the_dealer_payload_carries_the_tournament_level_and_players_left() -> None:
    """The console's floor part reads them (docs/display.md): the core's values at a tournament
    table, null at a cash table and when malformed; the public payload carries neither."""
    levels = ({"small_blind": 25, "big_blind": 50}, {"small_blind": 50, "big_blind": 100})
    bodies: list[Any] = [TableSetup(seats=3, profile="tda-tournament"),
                         *(SeatTake(seat=s, player=f"P{s}", stack=1000) for s in (1, 2, 3)),
                         TournamentSetup(levels=levels, players=40), LevelUp(level=2),
                         TournamentPlayers(remaining=17)]
    state = initial_state()
    for seq, body in enumerate(bodies, start=1):
        state = apply(state, make(seq, body)).state
    snap = core_snapshot(state)
    assert dealer_payload(snap)["hand"]["level"] == snap["hand"]["level"] == 2
    assert dealer_payload(snap)["hand"]["players_left"] == snap["hand"]["players_left"] == 17
    assert not {"level", "players_left"} & set(table_payload(snap)["hand"])
    cash = dealer_payload(short_hand()[0])["hand"]
    assert (cash["level"], cash["players_left"]) == (None, None)
    bad = copy.deepcopy(snap)
    bad["hand"].update(level="2", players_left=True)
    assert (dealer_payload(bad)["hand"]["level"], dealer_payload(bad)["hand"]["players_left"]) \
        == (None, None)
