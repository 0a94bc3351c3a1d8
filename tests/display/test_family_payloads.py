"""The role payloads of each game family: what lies face up on the felt is public (the board in
Omaha, the upcards in stud, the draw counts in draw games), nothing dealt face down is, and the
dealer gets every card, in stud with the down and the up cards apart."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.events import (
    DeckRegister,
    HandStart,
    SeatTake,
    ShoeDraw,
    TableSetup,
    ZoneRead,
    read_scenario,
)
from controller.rules import apply, initial_state, snapshot
from display.payloads import dealer_payload, table_payload
from tests.display.family_snapshots import (
    BRING_IN,
    DRAW_HANDS,
    DRAW_STRAY,
    DRAW_TABLED,
    DRAWN,
    EXPOSED_DEALT_DOWN,
    EXPOSED_HOLE,
    EXPOSED_UP,
    FACE_UP,
    OMAHA_BOARD,
    OMAHA_HOLE,
    OMAHA_TABLED,
    STUD_DOWN,
    STUD_TABLED,
    STUD_UP,
    draw_hand,
    every_family_snapshot,
    hidden_at,
    omaha8_hand,
    stud_exposed_hand,
    stud_hand,
)
from tests.display.snapshots import short_hand
from tests.display.test_payloads import mentions
from tests.rules.helpers import TAGS, Table

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"

FAMILY_SNAPSHOTS = every_family_snapshot()
PUBLIC_TABLE = {"game", "name", "family", "hole_slots", "seats", "small_blind", "big_blind", "ante"}
PUBLIC_SEAT = {
    "seat", "player", "stack", "bet", "in_hand", "folded", "all_in", "hole_count", "down_count",
    "shown", "hole", "up", "drawn", "chips_in_front",
}


def ids(snaps: list[dict[str, Any]]) -> list[str]:
    return [f"{s['table']['game']}-{s['last_seq']}-{s['hand']['phase']}" for s in snaps]


def seat_of(payload: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(s for s in payload["seats"] if s["seat"] == seat)


# --- every family ---------------------------------------------------------------------------


@pytest.mark.parametrize("snap", FAMILY_SNAPSHOTS, ids=ids(FAMILY_SNAPSHOTS))
def test_no_card_dealt_face_down_appears_in_the_public_payload(snap: dict[str, Any]) -> None:
    text = json.dumps(table_payload(snap))
    # a finding's cards too, unless they lie face up (an exposed stud down card is an upcard)
    face_up = FACE_UP[(snap["table"]["game"], snap["hand"]["number"])]
    hidden = hidden_at(snap) | ({c for f in snap["findings"] for c in f["cards"]} - face_up)
    hidden -= {c for s in snap["seats"] if s["seat"] in snap["hand"]["showdown"] for c in s["hole"]}
    assert hidden, "a leak scan with nothing to find proves nothing"
    leaked = sorted(card for card in hidden if mentions(text, card))
    assert leaked == [], f"public payload at seq {snap['last_seq']} names {leaked}"


@pytest.mark.parametrize("snap", FAMILY_SNAPSHOTS, ids=ids(FAMILY_SNAPSHOTS))
def test_public_payload_keys_are_the_whitelist(snap: dict[str, Any]) -> None:
    pub = table_payload(snap)
    assert set(pub["table"]) == PUBLIC_TABLE
    assert all(set(s) == PUBLIC_SEAT for s in pub["seats"])
    for seat in pub["seats"]:
        # what the seat holds face down is a count; named only once the hand is tabled
        assert seat["down_count"] == seat["hole_count"] - len(seat["up"])
        assert seat["hole"] == [] or seat["shown"]


@pytest.mark.parametrize(
    ("hand", "game", "name", "family", "slots"),
    [
        (omaha8_hand, "omaha8", "Omaha high-low eight-or-better", "board", 4),
        (stud_hand, "stud", "Seven-card stud", "stud", 7),
        (draw_hand, "27_triple", "Deuce-to-seven triple draw", "draw", 5),
    ],
)
def test_both_payloads_name_the_game_and_its_family(
    hand: Any, game: str, name: str, family: str, slots: int
) -> None:
    for payload in (table_payload(hand()[0]), dealer_payload(hand()[0])):
        table = payload["table"]
        assert (table["game"], table["name"], table["family"]) == (game, name, family)
        assert table["hole_slots"] == slots


@pytest.mark.parametrize(
    ("game", "family", "cards"),
    [("nlhe", "board", 2), ("stud", "stud", 7), ("razz", "stud", 7), ("draw5", "draw", 5),
     ("27_triple", "draw", 5), ("badugi", "draw", 4)],
)
def test_a_real_tables_snapshot_carries_the_cards_each_seat_is_dealt(
    game: str, family: str, cards: int
) -> None:
    # the rules core fed table.setup, seat.take and hand.start (tests/rules/helpers.py)
    t = Table()
    t.feed(TableSetup(game=game, seats=4, small_blind=1, big_blind=2,
                      ante=1 if family == "stud" else 0),
           DeckRegister(deck="test", tags=TAGS))
    for seat in (1, 2, 3):
        t.feed(SeatTake(seat=seat, player=f"P{seat}", stack=100))
    before = t.snap()  # no hand yet: the game's count all the same
    t.feed(HandStart(button=None))
    snap = t.snap()
    assert snap["hand"]["number"] == 1 and snap["hand"]["phase"] != "idle"
    for s in (before, snap):
        assert (s["table"]["game"], s["table"]["family"]) == (game, family)
        assert s["table"]["hole_cards"] == cards
        for payload in (table_payload(s), dealer_payload(s)):
            assert payload["table"]["hole_slots"] == cards
            assert "hole_cards" not in payload["table"]  # copied under the pages' name only


def test_hole_slots_of_a_missing_or_malformed_count_are_zero() -> None:
    for bad in (None, "4", 4.0, True, -1, 54, 10**9, [4]):
        snap = omaha8_hand()[1]
        snap["table"]["hole_cards"] = bad
        assert table_payload(snap)["table"]["hole_slots"] == 0, bad
        assert dealer_payload(snap)["table"]["hole_slots"] == 0, bad
    snap = stud_hand()[1]
    del snap["table"]["hole_cards"]
    assert table_payload(snap)["table"]["hole_slots"] == 0
    snap["table"]["hole_cards"] = 0
    assert table_payload(snap)["table"]["hole_slots"] == 0


def test_a_snapshot_without_a_family_is_laid_out_as_holdem() -> None:
    snap = short_hand()[4]  # the flop
    del snap["table"]["family"], snap["table"]["name"], snap["table"]["hole_cards"]
    pub = table_payload(snap)
    assert pub["table"]["family"] == "board" and pub["table"]["name"] is None
    assert pub["table"]["hole_slots"] == 2  # every such table was hold'em
    assert dealer_payload(snap)["table"]["hole_slots"] == 2
    assert pub["hand"]["board"] == snap["hand"]["board"]
    snap["table"]["hole_cards"] = "2"  # malformed, and no family: hold'em all the same
    assert table_payload(snap)["table"]["hole_slots"] == 2


def test_an_unknown_family_shows_no_board_no_upcards_and_no_draws() -> None:
    for bad in ("holdem", 3, None, ["stud"]):
        snap = stud_hand()[3]
        snap["table"]["family"] = bad
        snap["hand"]["board"] = ["Qh"]
        snap["seats"][0]["drawn"] = [1]
        pub = table_payload(snap)
        assert pub["table"]["family"] == ""
        assert pub["hand"]["board"] == []
        assert all(s["up"] == [] and s["drawn"] == [] for s in pub["seats"])
        assert all(s["down_count"] == s["hole_count"] for s in pub["seats"])


# --- board games (Omaha high-low) -----------------------------------------------------------


def test_omaha_public_board_and_four_cards_face_down_until_tabled() -> None:
    snaps = omaha8_hand()
    dealing = table_payload(snaps[0])
    assert [s["hole_count"] for s in dealing["seats"]] == [1, 2, 2, 1]
    dealt = table_payload(snaps[1])
    assert [(s["hole_count"], s["down_count"]) for s in dealt["seats"]] == [(4, 4)] * 4
    assert all(s["up"] == [] and s["drawn"] == [] and s["hole"] == [] for s in dealt["seats"])
    assert table_payload(snaps[2])["hand"]["board"] == OMAHA_BOARD[:3]
    shown = table_payload(snaps[4])
    assert shown["hand"]["board"] == OMAHA_BOARD
    assert {s["seat"]: s["hole"] for s in shown["seats"] if s["shown"]} == {
        seat: OMAHA_HOLE[seat] for seat in OMAHA_TABLED
    }


def test_upcards_or_draws_in_a_board_game_snapshot_are_ignored() -> None:
    snap = omaha8_hand()[1]
    snap["seats"][0]["up"] = ["As"]  # never face up in Omaha: a wrong snapshot fails closed
    snap["seats"][0]["drawn"] = [2]
    seat = seat_of(table_payload(snap), 1)
    assert seat["up"] == [] and seat["drawn"] == [] and seat["down_count"] == 4


def test_omaha_dealer_sees_the_four_hole_cards() -> None:
    dealer = dealer_payload(omaha8_hand()[1])
    assert {s["seat"]: s["hole"] for s in dealer["seats"]} == OMAHA_HOLE
    assert all(s["down"] == s["hole"] and s["up"] == [] for s in dealer["seats"])


# --- stud -----------------------------------------------------------------------------------


def test_stud_upcards_are_public_in_the_order_dealt_and_down_cards_are_counted() -> None:
    for snap in stud_hand():
        pub = table_payload(snap)
        for seat in pub["seats"]:
            held = next(s for s in snap["seats"] if s["seat"] == seat["seat"])["hole"]
            assert seat["up"] == [c for c in STUD_UP[seat["seat"]] if c in held]
            assert seat["down_count"] == len([c for c in held if c in STUD_DOWN[seat["seat"]]])
    seventh = table_payload(stud_hand()[4])
    assert seat_of(seventh, 1)["up"] == ["9s", "9h", "3d", "Jh"]
    assert (seat_of(seventh, 1)["down_count"], seat_of(seventh, 1)["hole_count"]) == (3, 7)


def test_stud_bring_in_is_the_seats_bet() -> None:
    pub = table_payload(stud_hand()[1])
    assert seat_of(pub, BRING_IN)["bet"] == 1 and seat_of(pub, BRING_IN)["up"] == ["2h"]
    assert pub["hand"]["to_act"] == 3


def test_stud_has_no_public_board_even_with_a_card_in_the_middle() -> None:
    snap = stud_hand()[4]
    snap["hand"]["board"] = ["Qh"]  # a common card, or a card dropped face down: not told apart
    assert table_payload(snap)["hand"]["board"] == []
    assert dealer_payload(snap)["hand"]["board"] == ["Qh"]


def test_stud_showdown_tables_the_down_cards() -> None:
    pub = table_payload(stud_hand()[5])
    for seat in STUD_TABLED:
        s = seat_of(pub, seat)
        assert s["shown"] and set(s["hole"]) == set(STUD_DOWN[seat]) | set(STUD_UP[seat])
    assert seat_of(pub, 2)["hole"] == [] and seat_of(pub, 2)["up"] == ["2h"]


def test_stud_dealer_gets_down_and_up_cards_apart() -> None:
    dealer = dealer_payload(stud_hand()[4])
    for seat in dealer["seats"]:
        n = seat["hole_count"]
        assert seat["down"] == [c for c in STUD_DOWN[seat["seat"]] if c in seat["hole"]]
        assert seat["up"] == [c for c in STUD_UP[seat["seat"]] if c in seat["hole"]]
        assert len(seat["down"]) + len(seat["up"]) == n


def test_stud_seat_whose_down_card_was_exposed_shows_the_cards_as_they_lie() -> None:
    # RR Section 8 r.1: the exposed down card lies face up, the third card then comes face
    # down. The core's `up` follows each card's face, and the public view trusts it.
    third, fourth = (table_payload(s) for s in stud_exposed_hand())
    assert seat_of(third, 2)["up"] == ["7d"] and seat_of(third, 2)["down_count"] == 2
    assert seat_of(fourth, 2)["up"] == EXPOSED_UP[2] == ["7d", "Ah"]
    assert seat_of(fourth, 2)["down_count"] == 2
    for pub in (third, fourth):
        text = json.dumps(pub)
        assert not mentions(text, EXPOSED_DEALT_DOWN) and not mentions(text, "3h")
    assert seat_of(fourth, 1)["up"] == ["Kd", "4c"]  # the other seats are not affected
    dealer = dealer_payload(stud_exposed_hand()[1])
    assert seat_of(dealer, 2)["hole"] == EXPOSED_HOLE[2]
    assert seat_of(dealer, 2)["up"] == ["7d", "Ah"]
    assert seat_of(dealer, 2)["down"] == ["3h", EXPOSED_DEALT_DOWN]


def test_a_real_stud_hand_with_an_exposed_down_card_never_names_a_card_dealt_down() -> None:
    # tests/scenarios/stud_stud_downcard_exposed.jsonl through the rules core: seat 1's second
    # card, the 7d, comes off the shoe face up (STUD_ONE_HOLECARD_EXPOSED); its third card, the
    # Td, is dealt face down. The truth is each card's shoe flag, not the snapshot's `up`.
    state = initial_state()
    face: dict[str, bool] = {}
    tags: dict[str, str] = {}
    hidden: set[str] = set()
    ups: list[list[str]] = []
    for event in read_scenario(SCENARIOS / "stud_stud_downcard_exposed.jsonl"):
        state = apply(state, event).state
        body = event.body
        if isinstance(body, DeckRegister):
            tags = dict(body.tags)
        elif isinstance(body, ShoeDraw):
            face[body.uid] = body.face_up
        elif isinstance(body, ZoneRead) and body.zone.startswith("seat:") and not face[body.uid]:
            hidden.add(tags[body.uid])
        snap = snapshot(state)
        assert not snap["hand"]["showdown"]  # seat 2 wins uncontested: nobody is tabled
        pub = table_payload(snap)
        leaked = sorted(c for c in hidden if mentions(json.dumps(pub), c))
        assert leaked == [], f"public payload at seq {event.seq} names {leaked}"
        seat1 = next((s for s in snap["seats"] if s["seat"] == 1), None)
        # the upcards street by street, until seat 1 folds on seventh and mucks its cards
        if seat1 is not None and seat1["up"] and seat1["up"] not in ups and not seat1["folded"]:
            ups.append(seat1["up"])
            assert seat_of(pub, 1)["up"] == seat1["up"]
            assert seat_of(pub, 1)["down_count"] == len(seat1["hole"]) - len(seat1["up"])
    assert {"7h", "Td", "6h"} <= hidden
    assert ups == [["7d"], ["7d", "Kh"], ["7d", "Kh", "9d"], ["7d", "Kh", "9d", "2s"]]


# --- draw games -----------------------------------------------------------------------------


def test_draw_counts_are_public_and_the_hands_are_not() -> None:
    snaps = draw_hand()
    for snap in snaps:
        pub = table_payload(snap)
        assert pub["hand"]["board"] == []
        for seat in pub["seats"]:
            # only the draw under way, while it may still be told (RR Section 11 r.13)
            now = next(s for s in snap["seats"] if s["seat"] == seat["seat"])["drawn_now"]
            assert seat["drawn"] == ([] if now is None else [now])
            assert seat["up"] == []
    last = table_payload(snaps[4])
    assert {s["seat"]: s["drawn"] for s in last["seats"]} == {
        s: DRAWN[s][-1:] for s in DRAWN}
    assert [s["hole_count"] for s in last["seats"]] == [5, 5, 5, 5]


def test_a_card_dropped_in_the_middle_of_a_draw_table_is_not_public() -> None:
    snap = draw_hand()[2]
    assert snap["hand"]["board"] == [DRAW_STRAY]
    assert not mentions(json.dumps(table_payload(snap)), DRAW_STRAY)
    assert dealer_payload(snap)["hand"]["board"] == [DRAW_STRAY]


def test_draw_showdown_tables_only_the_hands_shown() -> None:
    pub = table_payload(draw_hand()[5])
    assert {s["seat"]: s["hole"] for s in pub["seats"] if s["shown"]} == {
        seat: DRAW_HANDS[seat][3] for seat in DRAW_TABLED
    }


def test_draw_dealer_sees_each_hand_and_its_draws() -> None:
    dealer = dealer_payload(draw_hand()[3])
    assert seat_of(dealer, 3)["hole"] == DRAW_HANDS[3][2]
    assert seat_of(dealer, 3)["drawn"] == [3, 2]
    assert seat_of(dealer, 1)["down"] == DRAW_HANDS[1][2]


def test_malformed_draw_counts_and_upcards_fail_closed() -> None:
    snap = draw_hand()[3]
    snap["seats"][0]["drawn_now"] = True
    snap["seats"][1]["drawn_now"] = "0"
    assert seat_of(table_payload(snap), 1)["drawn"] == []
    assert seat_of(table_payload(snap), 2)["drawn"] == []
    stud = stud_hand()[3]
    stud["seats"][0]["up"] = ["9s", "9s", "Ah", 7]  # twice, a card it does not hold, garbage
    seat = seat_of(table_payload(stud), 1)
    assert seat["up"] == ["9s"] and seat["down_count"] == seat["hole_count"] - 1


# --- random stud and draw tables ------------------------------------------------------------

CARDS = ["As", "Kd", "Qs", "Qh", "9c", "Td", "7h", "2c", "5s", "8d"]


@settings(max_examples=150, deadline=None)
@given(
    family=st.sampled_from(["board", "stud", "draw"]),
    seats=st.dictionaries(
        st.integers(min_value=1, max_value=8),
        st.tuples(st.lists(st.sampled_from(CARDS), max_size=7),
                  st.lists(st.sampled_from(CARDS), max_size=5),
                  st.lists(st.integers(min_value=0, max_value=5), max_size=3)),
        max_size=6,
    ),
    showdown=st.lists(st.integers(min_value=1, max_value=8), max_size=3),
    board=st.lists(st.sampled_from(CARDS), max_size=5),
    exposed=st.lists(st.integers(min_value=1, max_value=8), max_size=2),
)
def test_public_names_only_tabled_cards_upcards_and_the_board_of_a_board_game(
    family: str,
    seats: dict[int, tuple[list[str], list[str], list[int]]],
    showdown: list[int],
    board: list[str],
    exposed: list[int],
) -> None:
    snap = {
        "table": {"game": "x", "family": family},
        "hand": {"showdown": showdown, "board": board},
        "seats": [{"seat": s, "hole": h, "up": u, "drawn": d, "drawn_now": d[-1] if d else None}
                  for s, (h, u, d) in seats.items()],
        # a finding about a seat does not change what lies face up: `up` is trusted as is
        "findings": [{"code": "STUD_ONE_HOLECARD_EXPOSED", "seats": exposed,
                      "cards": [], "message": "", "remedy": []}],
    }
    pub = table_payload(snap)
    may_show = set(board) if family == "board" else set()
    for s, (hole, up, drawn) in seats.items():
        got = seat_of(pub, s)
        if s in showdown:
            may_show |= set(hole)
        if family == "stud":
            may_show |= set(hole) & set(up)
            assert got["up"] == list(dict.fromkeys(c for c in up if c in hole))
        else:
            assert got["up"] == []
        assert got["drawn"] == (drawn[-1:] if family == "draw" else [])
        assert got["down_count"] == len(hole) - len(got["up"])
    text = json.dumps(pub)
    assert [c for c in set(CARDS) - may_show if mentions(text, c)] == []
