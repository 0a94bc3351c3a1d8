"""The hold'em monitor follows remedies: after a finding whose remedy fixes the next cards it
expects exactly them, raises REMEDY_NOT_FOLLOWED when a card goes elsewhere, and judges the hand
normally again once the remedy is complete (a second, independent mistake is caught too)."""

from __future__ import annotations

from controller.events import CardBoxed, HandEnd, ShoeDraw, ShuffleDone, ZoneLeave, ZoneRead
from controller.rules.findings.finding import Finding
from controller.rules.procedure import board_deal as board
from controller.rules.procedure.board_deal import Deal
from controller.rules.table import Hand
from tests.rules.helpers import Table, deal_holes, table, uid

HOLES = ["2c", "7d", "Jh", "As", "2d", "7s", "Js", "Ac"]  # seats 2, 3, 4, 1, twice


def _four() -> Table:
    """Four players, button on seat 1, blinds posted, the starting hands dealt."""
    t = table([200] * 4, button=1)
    deal_holes(t, HOLES)
    return t


def _preflop(t: Table) -> None:
    t.act(4, "call")
    t.act(1, "call")
    t.act(2, "call")
    t.act(3, "check")


def _checks(t: Table) -> None:
    for seat in (2, 3, 4, 1):
        t.act(seat, "check")


def _move(t: Table, card: str, frm: str, to: str | None) -> None:
    """A card moved on the felt (``to`` None: back into the stub)."""
    t.feed(ZoneLeave(uid=uid(card), zone=frm))
    if to is not None:
        t.feed(ZoneRead(uid=uid(card), zone=to))


def _deal(t: Table) -> Deal:
    h = t.state.hand
    assert h is not None and h.game.deal is not None
    return h.game.deal


def _hand_end(h: Hand) -> tuple[Deal, list[Finding]]:
    g = h.game
    assert g.deal is not None
    return board.hand_end(g.deal, g.live, len(g.live) <= 1, 2, 99)


def _flop(t: Table, burn: str = "3h", cards: tuple[str, ...] = ("8h", "9h", "Kd")) -> None:
    t.card(burn, "burn")
    for c in cards:
        t.card(c, "board")


def _found(t: Table) -> list:  # type: ignore[type-arg]
    return [f for s in t.steps for f in s.findings]


# --- premature cards -----------------------------------------------------------------------------


def test_premature_turn_followed_then_the_hand_plays_on_clean():
    t = _four()
    _preflop(t)
    _flop(t)
    t.act(2, "check")
    t.card("4h", "burn")  # the turn burn while three players still have to act
    t.card("5s", "board")  # the premature turn card
    _move(t, "5s", "board", "aside")  # set aside (RR Section 5, Holdem, r.8)
    assert t.findings == ["TURN_PREMATURE"]
    assert "5s" in t.hand()["expect"] and "the aside" not in t.hand()["expect"]
    for seat in (3, 4, 1):
        t.act(seat, "check")
    t.card("6h", "burn")
    t.card("Qs", "board")  # what would have been the river, as the turn
    _checks(t)
    _move(t, "5s", "aside", None)  # reshuffled into the stub with the set-aside card
    t.feed(ShuffleDone())
    t.card("5s", "board")  # the river without a burn: the set-aside card may come again
    assert t.findings == ["TURN_PREMATURE"]
    assert _deal(t).remedy is None
    _checks(t)
    t.feed(HandEnd())
    assert t.findings == ["TURN_PREMATURE"]
    assert t.hand()["phase"] == "complete"


def test_premature_turn_finding_names_the_moves():
    t = _four()
    _preflop(t)
    _flop(t)
    t.act(2, "check")
    t.card("4h", "burn")
    [f] = _found(t)
    assert f.code == "TURN_PREMATURE" and f.cards == ("4h",)
    assert f.expect == (("aside", None), ("burn", None), ("board", None), ("board", None))
    assert "Burn and deal what would have been the river as the turn." in f.remedy


def test_premature_turn_river_burned_is_not_followed():
    t = _four()
    _preflop(t)
    _flop(t)
    t.act(2, "check")
    t.card("4h", "burn")
    t.card("5s", "board")
    _move(t, "5s", "board", "aside")
    for seat in (3, 4, 1):
        t.act(seat, "check")
    t.card("6h", "burn")
    t.card("Qs", "board")
    _checks(t)
    _move(t, "5s", "aside", None)
    t.feed(ShuffleDone())
    t.card("Th", "burn")  # the river is dealt without a burn after the reshuffle
    f = _found(t)[-1]
    assert f.code == "REMEDY_NOT_FOLLOWED" and f.cards == ("Th",)
    assert f.rule.section == "Section 3, Irregularities" and f.rule.rule == "16"
    remedy = " ".join(f.remedy)
    assert "TURN_PREMATURE (seq" in remedy and "the next card off the shoe to the board" in remedy
    t.card("Tc", "board")
    assert t.findings == ["TURN_PREMATURE", "REMEDY_NOT_FOLLOWED"]  # the monitor has stopped


def test_premature_turn_river_before_the_reshuffle_is_not_followed():
    t = _four()
    _preflop(t)
    _flop(t)
    t.act(2, "check")
    t.card("4h", "burn")
    t.card("5s", "board")
    _move(t, "5s", "board", "aside")
    for seat in (3, 4, 1):
        t.act(seat, "check")
    t.card("6h", "burn")
    t.card("Qs", "board")
    _checks(t)
    t.card("Tc", "board")  # no reshuffle with the set-aside card
    f = _found(t)[-1]
    assert f.code == "REMEDY_NOT_FOLLOWED"
    assert "reshuffle the stub and cut" in " ".join(f.remedy)


def test_premature_flop_followed_and_a_later_missing_burn_is_caught():
    t = _four()
    t.act(4, "call")
    _flop(t)  # burn and flop while seats 1, 2 and 3 still have to act
    for c in ("8h", "9h", "Kd"):
        _move(t, c, "board", None)  # back into the stub
    t.act(1, "call")
    t.act(2, "call")
    t.act(3, "check")
    t.feed(ShuffleDone())
    for c in ("Kd", "Qc", "8h"):  # a new flop without burning; old flop cards may come again
        t.card(c, "board")
    assert t.findings == ["FLOP_PREMATURE"]
    assert _deal(t).remedy is None
    _checks(t)
    t.card("4h", "board")  # an independent mistake: no burn before the turn
    assert t.findings == ["FLOP_PREMATURE", "BURN_MISSING_OR_EXTRA"]
    f = _found(t)[-1]
    assert f.cards == ("4h",) and f.expect == (("burn", "4h"), ("board", None))


def test_premature_flop_redealt_with_a_burn_is_not_followed():
    t = _four()
    t.act(4, "call")
    _flop(t)
    for c in ("8h", "9h", "Kd"):
        _move(t, c, "board", None)
    t.act(1, "call")
    t.act(2, "call")
    t.act(3, "check")
    t.feed(ShuffleDone())
    t.card("Tc", "burn")  # RR Section 5, Holdem, r.7: "a new flop without burning a card"
    assert t.findings == ["FLOP_PREMATURE", "REMEDY_NOT_FOLLOWED"]


def test_premature_river_followed():
    t = _four()
    _preflop(t)
    _flop(t)
    _checks(t)
    t.card("4h", "burn")
    t.card("5s", "board")
    t.act(2, "check")
    t.card("6h", "burn")  # the river while three players still have to act on the turn
    t.card("Qs", "board")
    _move(t, "Qs", "board", None)
    for seat in (3, 4, 1):
        t.act(seat, "check")
    t.feed(ShuffleDone())
    t.card("Qs", "board")  # reshuffled: the same card may come again, no burn
    _checks(t)
    t.feed(HandEnd())
    assert t.findings == ["RIVER_PREMATURE"]


def test_only_a_premature_burn_stands_as_the_burn():
    t = _four()
    _preflop(t)
    _flop(t)
    t.act(2, "check")
    t.card("4h", "burn")  # premature turn burn, caught before a turn card came out
    for seat in (3, 4, 1):
        t.act(seat, "check")
    t.card("5s", "board")  # nothing to set aside: the turn
    _checks(t)
    t.card("6h", "burn")
    t.card("Qs", "board")
    assert t.findings == ["TURN_PREMATURE"]


# --- burns ---------------------------------------------------------------------------------------


def test_flop_missing_burn_fixed():
    t = _four()
    _preflop(t)
    t.card("3h", "board")
    [f] = _found(t)
    assert f.code == "FLOP_BURN_ERROR"
    assert f.expect == (("burn", "3h"), ("board", None), ("board", None), ("board", None))
    _move(t, "3h", "board", "burn")
    for c in ("8h", "9h", "Kd"):
        t.card(c, "board")
    _checks(t)
    t.card("4h", "burn")
    t.card("5s", "board")
    assert t.findings == ["FLOP_BURN_ERROR"]


def test_flop_missing_burn_moved_after_the_rest_of_the_flop():
    t = _four()
    _preflop(t)
    t.card("3h", "board")
    t.card("8h", "board")
    t.card("9h", "board")
    _move(t, "3h", "board", "burn")
    t.card("Kd", "board")
    _checks(t)
    t.card("4h", "burn")
    assert t.findings == ["FLOP_BURN_ERROR"]


def test_flop_missing_burn_not_fixed():
    t = _four()
    _preflop(t)
    t.card("3h", "board")
    t.card("8h", "burn")  # a fresh burn instead of moving 3h
    assert t.findings == ["FLOP_BURN_ERROR", "REMEDY_NOT_FOLLOWED"]
    f = _found(t)[-1]
    assert "3h to the burn" in " ".join(f.remedy)


def test_flop_extra_burn_fixed():
    t = _four()
    _preflop(t)
    t.card("3h", "burn")
    t.card("8h", "burn")
    _move(t, "8h", "burn", "board")
    t.card("9h", "board")
    t.card("Kd", "board")
    _checks(t)
    t.card("4h", "burn")
    t.card("5s", "board")
    assert t.findings == ["FLOP_BURN_ERROR"]


def test_turn_extra_burn_then_river_missing_burn_two_findings():
    t = _four()
    _preflop(t)
    _flop(t)
    _checks(t)
    t.card("4h", "burn")
    t.card("5s", "burn")
    _move(t, "5s", "burn", "board")  # 5s is the proper turn card
    _checks(t)
    t.card("6h", "board")  # no river burn
    _move(t, "6h", "board", "burn")
    t.card("Qs", "board")
    _checks(t)
    t.feed(HandEnd())
    assert t.findings == ["BURN_MISSING_OR_EXTRA", "BURN_MISSING_OR_EXTRA"]
    assert t.hand()["phase"] == "complete"


def test_four_card_flop_redealt():
    t = _four()
    _preflop(t)
    _flop(t)
    t.card("Qc", "board")
    [f] = _found(t)
    assert f.code == "FLOP_TOO_MANY_CARDS"
    assert f.expect == (("board", None),) * 3
    for c in ("8h", "9h", "Kd", "Qc"):
        _move(t, c, "board", None)
    t.feed(ShuffleDone())
    for c in ("Qc", "9h", "Tc"):
        t.card(c, "board")
    _checks(t)
    t.card("4h", "burn")
    t.card("5s", "board")
    assert t.findings == ["FLOP_TOO_MANY_CARDS"]


# --- the initial deal ----------------------------------------------------------------------------


def test_extra_card_is_the_next_burn():
    t = _four()
    t.card("8c", "seat:2")  # one card too many
    t.act(4, "call")
    [f] = _found(t)
    assert f.code == "EXTRA_CARD_SINGLE_BECOMES_BURN" and f.expect == (("burn", "8c"),)
    _move(t, "8c", "seat:2", None)  # returned to the deck
    t.act(1, "call")
    t.act(2, "call")
    t.act(3, "check")
    t.card("8c", "burn")  # drawn again: the burncard, not a duplicate
    for c in ("8h", "9h", "Kd"):
        t.card(c, "board")
    _checks(t)
    t.card("4h", "burn")
    t.card("5s", "board")
    assert t.findings == ["EXTRA_CARD_SINGLE_BECOMES_BURN"]
    assert t.snap()["seats"][1]["seat"] == 2


def test_extra_card_not_burned():
    t = _four()
    t.card("8c", "seat:2")
    _move(t, "8c", "seat:2", None)
    _preflop(t)
    t.card("3h", "burn")
    assert t.findings == ["EXTRA_CARD_SINGLE_BECOMES_BURN", "REMEDY_NOT_FOLLOWED"]


def test_extra_card_burned_before_the_betting_is_complete():
    t = _four()
    t.card("8c", "seat:2")
    t.act(4, "call")
    _move(t, "8c", "seat:2", None)
    t.card("8c", "burn")
    f = _found(t)[-1]
    assert f.code == "REMEDY_NOT_FOLLOWED"
    assert "before the preflop betting was complete" in f.message


def test_exposed_hole_card_replaced_and_used_as_the_burn():
    t = table([200] * 4, button=1)
    for i, card in enumerate(HOLES):
        t.card(card, f"seat:{(2, 3, 4, 1)[i % 4]}", face_up=(i == 5))
    [f] = _found(t)
    assert f.code == "HOLECARD_EXPOSED_SINGLE_REPLACE" and f.seats == (3,)
    assert f.expect == (("seat:3", None), ("burn", "7s"))
    t.card("Td", "seat:3")  # the replacement after the deal
    _move(t, "7s", "seat:3", "burn")  # the exposed card is the burncard
    _preflop(t)
    for c in ("8h", "9h", "Kd"):  # the flop without another burn
        t.card(c, "board")
    _checks(t)
    t.card("4h", "burn")
    t.card("5s", "board")
    assert t.findings == ["HOLECARD_EXPOSED_SINGLE_REPLACE"]
    assert sorted(_deal(t).hole(3)) == ["7d", "Td"]


def test_exposed_hole_card_not_replaced():
    t = table([200] * 4, button=1)
    for i, card in enumerate(HOLES):
        t.card(card, f"seat:{(2, 3, 4, 1)[i % 4]}", face_up=(i == 5))
    _preflop(t)
    t.card("3h", "burn")  # a fresh burn: seat 3 was never given its replacement
    assert t.findings == ["HOLECARD_EXPOSED_SINGLE_REPLACE", "REMEDY_NOT_FOLLOWED"]
    assert "the next card off the shoe to seat 3" in " ".join(_found(t)[-1].remedy)


def test_boxed_card_dealt_anyway_is_not_followed():
    t = table([200] * 4, button=1)
    t.feed(ShoeDraw(uid=uid("9h")), CardBoxed(uid=uid("9h")),
           ZoneRead(uid=uid("9h"), zone="seat:2"))
    f = _found(t)
    assert [x.code for x in f] == ["BOXED_CARD_SINGLE", "REMEDY_NOT_FOLLOWED"]
    assert f[0].expect == (("aside", "9h"),) and f[1].cards == ("9h",)


def test_boxed_card_set_aside_is_fine():
    t = table([200] * 4, button=1)
    t.feed(ShoeDraw(uid=uid("9h")), CardBoxed(uid=uid("9h")),
           ZoneRead(uid=uid("9h"), zone="aside"))
    deal_holes(t, HOLES)
    assert t.findings == ["BOXED_CARD_SINGLE"]


# --- dead hands ----------------------------------------------------------------------------------


def test_mucked_hand_retrieved():
    t = _four()
    t.act(4, "fold")
    _move(t, "Jh", "seat:4", "muck")
    _move(t, "Js", "seat:4", "muck")
    _move(t, "Jh", "muck", "seat:4")  # picked back out of the muck
    _move(t, "Js", "muck", "seat:4")
    [f] = _found(t)
    assert f.code == "MUCKED_HAND_RETRIEVAL" and f.seats == (4,) and f.cards == ("Jh", "Js")
    assert f.rule.section == "Section 3, Dead Hands" and f.rule.rule == "2"
    assert f.severity == "warning" and "call the floor" in " ".join(f.remedy)


def test_a_folded_hand_in_the_muck_is_no_finding():
    t = _four()
    t.act(4, "fold")
    _move(t, "Jh", "seat:4", "muck")
    _move(t, "Js", "seat:4", "muck")
    t.act(1, "call")
    assert t.findings == []


def test_hand_end_a_live_hand_with_three_cards_is_dead():
    t = _four()
    _preflop(t)
    _flop(t)
    _checks(t)
    t.card("4h", "burn")
    t.card("5s", "board")
    _checks(t)
    t.card("6h", "burn")
    t.card("Qs", "board")
    _checks(t)
    _move(t, "6h", "burn", "seat:2")  # a third card in seat 2's hand
    h = t.state.hand
    assert h is not None
    _, found = _hand_end(h)
    assert [(f.code, f.seats, f.cards) for f in found] == [
        ("HAND_WRONG_CARD_COUNT_DEAD", (2,), ("2c", "2d", "6h"))]
    assert found[0].rule.section == "Section 3, Misdeals"
    assert "Seat 2 holds 3 card(s)" in found[0].remedy[0]


def test_hand_end_clean_showdown_and_a_hand_won_by_folds():
    t = _four()
    _preflop(t)
    _flop(t)
    _checks(t)
    t.card("4h", "burn")
    t.card("5s", "board")
    _checks(t)
    t.card("6h", "burn")
    t.card("Qs", "board")
    _checks(t)
    h = t.state.hand
    assert h is not None
    assert _hand_end(h)[1] == []
    t2 = _four()
    for seat in (4, 1, 2):
        t2.act(seat, "fold")
    h2 = t2.state.hand
    assert h2 is not None
    assert _hand_end(h2)[1] == []  # no showdown: nothing to count
