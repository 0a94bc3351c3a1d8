"""The board games other than no-limit hold'em on the one rules path: Omaha (four hole cards, two
of them with three board cards), the Pineapples (three hole cards and a discard), six-plus hold'em
(36 cards). The board procedure (controller/rules/procedure/board_deal.py) judges their cards from
the variant's streets; the hand engine bets and makes the showdown."""

from __future__ import annotations

from controller.events import (
    Action,
    DeckRegister,
    HandEnd,
    HandStart,
    SeatTake,
    ShoeDraw,
    TableSetup,
    ZoneRead,
)
from tests.rules.helpers import TAGS, Table, uid


def _table(game: str, stacks: list[int], structure: str = "") -> Table:
    t = Table()
    t.feed(TableSetup(game=game, structure=structure, seats=6, small_blind=1, big_blind=2,
                      small_bet=2, big_bet=4),
           DeckRegister(deck="test", tags=TAGS))
    for seat, chips in enumerate(stacks, start=1):
        t.feed(SeatTake(seat=seat, player=f"P{seat}", stack=chips))
    t.feed(HandStart(button=1))
    for post in t.hand()["posts"]:
        t.feed(Action(seat=post["seat"], kind="post", amount=post["amount"], blind=post["kind"]))
    return t


def _deal(t: Table, hands: dict[int, list[str]]) -> None:
    """The starting hands, one card at a time in dealing order, pass by pass."""
    order = t.hand()["dealt_in"]
    for k in range(len(hands[order[0]])):
        for seat in order:
            t.card(hands[seat][k], f"seat:{seat}")


def _street(t: Table, burn: str, cards: list[str]) -> None:
    t.card(burn, "burn")
    for c in cards:
        t.card(c, "board")


def _checks(t: Table) -> None:
    while t.hand()["to_act"] is not None:
        t.act(t.hand()["to_act"], "call")


def _muck(t: Table, card: str) -> None:
    t.feed(ZoneRead(uid=uid(card), zone="muck"))


OMAHA = {2: ["Ah", "Kh", "2c", "3d"], 3: ["Qs", "Qd", "7c", "8c"], 1: ["Jh", "Th", "9s", "9d"]}
BOARD = (("5s", ["Qh", "4h", "6d"]), ("5c", ["Js"]), ("5d", ["2s"]))


def test_omaha_plays_two_hole_cards_with_three_board_cards_to_a_clean_showdown() -> None:
    t = _table("omaha", [100, 100, 100])
    _deal(t, OMAHA)
    _checks(t)
    for burn, cards in BOARD:
        _street(t, burn, cards)
        _checks(t)
    step = t.feed(HandEnd())
    assert t.findings == []
    # Seat 2 holds two hearts: Ah Kh with Qh 4h on the board is no flush (three board hearts are
    # needed: only two), so trips of queens (seat 3: Qs Qd + Qh) win (RR Section 6).
    main = step.results[-1]
    assert main.winners == (3,) and "Three of a kind" in main.hand
    assert sum(t.stacks().values()) == 300


def test_an_omaha_hand_with_three_cards_at_the_showdown_is_dead() -> None:
    t = _table("omaha", [100, 100, 100])
    _deal(t, OMAHA)
    _checks(t)
    for burn, cards in BOARD:
        _street(t, burn, cards)
        _checks(t)
    t.feed(ZoneRead(uid=uid("3d"), zone="muck"))  # seat 2's fourth card leaves its hand
    step = t.feed(HandEnd())
    codes = [(f.code, f.seats) for f in step.findings]
    assert codes == [("HAND_WRONG_CARD_COUNT_DEAD", (2,))]
    assert "an Omaha hand has exactly 4" in step.findings[0].message


def test_an_omaha_flop_before_the_betting_is_premature() -> None:
    t = _table("omaha", [100, 100, 100])
    _deal(t, OMAHA)
    t.act(1, "call")  # seats 2 and 3 still to act
    t.card("5s", "burn")
    t.card("Qh", "board")
    assert t.findings == ["FLOP_PREMATURE"]


def test_pineapple_discards_one_each_before_the_preflop_betting() -> None:
    t = _table("pineapple", [100, 100, 100])
    _deal(t, {2: ["Ah", "Kh", "2c"], 3: ["Qs", "Qd", "7c"], 1: ["Jh", "Th", "9s"]})
    assert t.hand()["to_act"] is None  # the discards come first (JPN Pineapple)
    for card in ("9s", "2c", "7c"):  # under the gun first: seat 1, then 2 and 3
        _muck(t, card)
    assert t.hand()["to_act"] == 1
    _checks(t)
    for burn, cards in BOARD:
        _street(t, burn, cards)
        _checks(t)
    step = t.feed(HandEnd())
    assert t.findings == []
    assert step.results[-1].winners == (3,)  # queens full... trips of queens with Qh
    assert {s["seat"]: len(s["hole"]) for s in t.snap()["seats"]} == {1: 2, 2: 2, 3: 2}


def test_lazy_pineapple_needs_the_discards_before_the_pots() -> None:
    t = _table("lazy_pineapple", [100, 100, 100])
    _deal(t, {2: ["Ah", "Kh", "2c"], 3: ["Qs", "Qd", "7c"], 1: ["Jh", "Th", "9s"]})
    _checks(t)
    for burn, cards in BOARD:
        _street(t, burn, cards)
        _checks(t)
    step = t.feed(HandEnd())
    assert [f.code for f in step.findings] == ["SHOWDOWN_INCOMPLETE"]
    assert "has not discarded" in step.findings[0].message
    for card in ("2c", "7c", "9s"):
        _muck(t, card)
    step = t.feed(HandEnd())
    assert step.findings == () and step.results[-1].winners == (3,)


def test_a_low_card_at_six_plus_holdem_is_the_wrong_deck() -> None:
    t = _table("short_deck", [100, 100, 100])
    t.feed(ShoeDraw(uid=uid("4c")))
    step = t.feed(ZoneRead(uid=uid("4c"), zone="seat:2"))
    found = [f for s in t.steps[-2:] for f in s.findings]
    assert [f.code for f in found] == ["CARD_NOT_IN_GAME_DECK"]
    assert found[0].cards == ("4c",) and "36 cards" in " ".join(found[0].remedy)
    assert step.state.hand is not None
