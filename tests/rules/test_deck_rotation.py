"""Decks rotated: ``deck.change`` puts a resting registered deck in play between hands, and the
deck it replaces rests, known as another deck of the table (roberts-rules-v11.txt Section 2,
House Policies, r.22; Section 3, Irregularities, r.3 for its cards in a later hand)."""

from __future__ import annotations

from controller.events import (
    DeckAudit,
    DeckChange,
    DeckRegister,
    HandEnd,
    HandStart,
    MisdealDeclared,
    SeatTake,
    ShoeDraw,
    TableSetup,
    ZoneRead,
    parse_event,
)
from controller.poker.cards import FULL_DECK, DeckRegistry
from controller.poker.deck_count import count_deck
from tests.rules.helpers import Table

RED = {f"R{c}": c for c in FULL_DECK}
BLUE = {f"B{c}": c for c in FULL_DECK}


def _two_deck_table() -> Table:
    """Two players, red in play and blue resting, no hand started."""
    t = Table()
    t.feed(TableSetup(seats=2, small_blind=1, big_blind=2),
           DeckRegister(deck="red", tags=RED), DeckRegister(deck="blue", tags=BLUE, idle=True),
           SeatTake(seat=1, player="Ann", stack=200), SeatTake(seat=2, player="Bob", stack=200))
    return t


def _hand(t: Table) -> None:
    t.feed(HandStart(button=1))
    h = t.hand()
    t.act(h["small_blind"], "post", 1)
    t.act(h["big_blind"], "post", 2)


def test_deck_change_puts_the_resting_deck_in_play_and_rests_the_old_one() -> None:
    t = _two_deck_table()
    step = t.feed(DeckChange(deck="blue"))
    assert step.findings == ()
    reg = t.state.deck
    assert reg.deck == "blue" and dict(reg.tags) == BLUE
    assert reg.foreign("RAs") == ("red", "As") and reg.resting() == ("red",)
    assert t.feed(DeckChange(deck="red")).findings == ()  # and back again
    assert t.state.deck.deck == "red" and t.state.deck.foreign("BAs") == ("blue", "As")


def test_a_card_of_the_resting_deck_after_a_change_is_a_foreign_card_not_an_unknown_tag() -> None:
    t = _two_deck_table()
    t.feed(DeckChange(deck="blue"))
    _hand(t)
    t.feed(ShoeDraw(uid="BAs", face_up=False), ZoneRead(uid="BAs", zone="seat:2"))
    t.feed(ShoeDraw(uid="RKd", face_up=False))  # a red card: red rests now
    step = t.feed(ZoneRead(uid="RKd", zone="seat:1"))
    assert t.findings == ["FOREIGN_BACK_CARD_IN_PLAY"], t.findings
    [f] = [f for s in t.steps for f in s.findings]
    assert f.cards == ("Kd",) and "RKd is Kd of deck red" in f.remedy[0]
    assert "(blue)" in f.remedy[0]  # the deck in play named
    assert f.rule.file == "roberts-rules-v11.txt" and f.rule.rule == "3"
    assert step.state.deck.deck == "blue"


def test_deck_change_during_a_hand_is_out_of_place_and_changes_nothing() -> None:
    t = _two_deck_table()
    _hand(t)
    [f] = t.feed(DeckChange(deck="blue")).findings
    assert f.code == "EVENT_OUT_OF_PLACE"
    assert "cannot be changed to blue during a hand" in f.message
    assert t.state.deck.deck == "red"
    t.feed(MisdealDeclared())  # the hand is over (void): now it may change
    assert t.feed(DeckChange(deck="blue")).findings == ()
    assert t.state.deck.deck == "blue"


def test_deck_change_to_a_deck_not_registered_or_already_in_play_is_out_of_place() -> None:
    t = _two_deck_table()
    [f] = t.feed(DeckChange(deck="green")).findings
    assert f.code == "EVENT_OUT_OF_PLACE"
    assert f.message == ("Deck green is not a registered resting deck of this table "
                         "(resting: blue).")
    [g] = t.feed(DeckChange(deck="red")).findings
    assert g.code == "EVENT_OUT_OF_PLACE" and g.message == "Deck red is already in play."
    assert t.state.deck.deck == "red" and t.state.deck.foreign("BAs") == ("blue", "As")
    bare = Table()
    [h] = bare.feed(DeckChange(deck="red")).findings
    assert "(resting: none)" in h.message


def test_deck_change_after_a_hand_ended_and_an_audit_of_the_new_deck() -> None:
    t = _two_deck_table()
    _hand(t)
    t.act(t.hand()["small_blind"], "fold")
    t.feed(HandEnd())
    assert t.feed(DeckChange(deck="blue")).findings == ()
    read = [u for u in BLUE if u != "B7d"] + ["RAs"]
    missing, stub = t.feed(DeckAudit(uids=tuple(read))).findings
    assert missing.code == "MISSING_CARDS_FROM_DECK" and missing.cards == ("7d",)
    assert stub.code == "FOREIGN_BACK_CARD_IN_STUB" and "As of deck red (tag RAs)" in \
        stub.remedy[0]


def test_deck_change_parses_and_undo_reverts_it() -> None:
    e = parse_event({"seq": 1, "ts": 0, "type": "deck.change", "deck": "blue"})
    assert e.body == DeckChange(deck="blue") and e.to_json()["deck"] == "blue"
    t = _two_deck_table()
    t.feed(DeckChange(deck="blue"))
    t.feed(parse_event({"type": "undo"}).body)
    assert t.state.deck.deck == "red"


def test_count_deck_names_missing_foreign_unknown_and_repeated_cards() -> None:
    reg = DeckRegistry().put_in_play("blue", BLUE).with_idle("red", RED)
    read = [u for u in BLUE if u not in ("BAs", "B2c")] + ["RKd", "ZZ01", "B3c"]
    c = count_deck(reg, read)
    assert [reg.tags[u] for u in c.missing] == ["2c", "As"]  # new-deck order
    assert c.foreign == (("RKd", "red", "Kd"),)
    assert c.unknown == ("ZZ01",)
    assert c.repeated == (("3c", ("B3c", "B3c")), ("Kd", ("BKd", "RKd")))
    assert not c.whole
    assert count_deck(reg, list(BLUE)).whole
