"""The deck as a whole: a card of another registered deck in play or in the stub, cards missing
at a deck audit (roberts-rules-v11.txt, Section 3, Irregularities, r.3 and r.10; the
``foreign_card`` house setting for WSOP and AZW), in every family."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from controller.events import (
    DeckAudit,
    DeckRegister,
    Event,
    ShoeDraw,
    ZoneRead,
    parse_event,
    read_scenario,
)
from controller.poker.cards import DeckRegistry
from controller.rules import apply, initial_state, snapshot
from controller.rules.findings.catalogue import CATALOGUE
from tests.rules.helpers import TAGS, deal_holes, table

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def _as_foreign(events: list[Event]) -> tuple[list[Event], str]:
    """The scenario with its duplicate card's second tag moved to an idle deck "blue": the same
    card, now with a different back."""
    state = initial_state()
    dup = ""
    for e in events:
        step = apply(state, e)
        state = step.state
        if any(f.code == "DUPLICATE_CARD" for f in step.findings):
            dup = e.body.uid
            break
    assert dup
    out: list[Event] = []
    for e in events:
        if isinstance(e.body, DeckRegister):
            tags = dict(e.body.tags)
            card = tags.pop(dup)
            out.append(replace(e, body=DeckRegister(deck="blue", tags={dup: card}, idle=True)))
            out.append(replace(e, body=DeckRegister(deck=e.body.deck, tags=tags)))
        else:
            out.append(e)
    return out, dup


@pytest.mark.parametrize("name", ["board_duplicate_card_flhe", "stud_duplicate_card",
                                  "draw_duplicate_card"])
def test_a_card_of_another_deck_voids_all_action_in_every_family(name: str) -> None:
    events, dup = _as_foreign([e for e in read_scenario(SCENARIOS / f"{name}.jsonl")
                               if e.type != "misdeal.declared"])
    state = initial_state()
    start: dict[int, int] = {}
    raised = []
    for e in events:
        if e.type == "hand.start":
            start = {s["seat"]: s["stack"] for s in snapshot(state)["seats"]}
        step = apply(state, e)
        state = step.state
        raised += [(e.seq, f) for f in step.findings]
    [(seq, f)] = raised  # one finding, not UNKNOWN_TAG nor DUPLICATE_CARD beside it
    assert seq == next(e.seq for e in events if getattr(e.body, "uid", None) == dup)
    assert f.code == "FOREIGN_BACK_CARD_IN_PLAY" and f.severity == "misdeal"
    assert f.rule.section == "Section 3, Irregularities" and f.rule.rule == "3"
    assert f"tag {dup} is" in f.remedy[0] and "of deck blue" in f.remedy[0]
    assert "every chip in the pot goes back" in f.remedy[1]
    end = apply(state, parse_event({"type": "hand.end", "seq": state.last_seq + 1}))
    assert end.results == ()
    assert {s["seat"]: s["stack"] for s in snapshot(end.state)["seats"]} == start


def _foreign_after_action(profile: str) -> tuple[list[str], dict[str, object]]:
    """Hold'em, three players: the button raises, both blinds call (substantial action by
    every book), then the flop's first card is a card of the idle blue deck."""
    t = table([200, 200, 200], button=1, post=False)
    # (the table helper starts the hand: the idle deck and the setting go in directly)
    t.state = replace(t.state, settings=replace(t.state.settings, foreign_card=profile),
                      deck=t.state.deck.with_idle("blue", {"B9s": "9s"}))
    t.act(2, "post", 1)
    t.act(3, "post", 2)
    deal_holes(t, ["2c", "7d", "As", "2d", "7s", "Kd"])
    t.act(1, "raise", 6)
    t.act(2, "call")
    t.act(3, "call")
    t.card("3h", "burn")
    t.feed(ShoeDraw(uid="B9s", face_up=False))
    t.feed(ZoneRead(uid="B9s", zone="board"))
    return t.findings, t.hand()


def test_tda_lets_the_action_stand_after_substantial_action() -> None:
    """AZW Section 3 Irregularities r.3: "unless substantial action has occurred"."""
    codes, hand = _foreign_after_action("tda")
    assert codes == ["FOREIGN_BACK_CARD_IN_PLAY"]
    assert hand["phase"] != "misdeal"


def test_robert_voids_the_action_even_after_substantial_action() -> None:
    codes, hand = _foreign_after_action("rr")
    assert codes == ["FOREIGN_BACK_CARD_IN_PLAY"]
    assert hand["phase"] == "flop"  # void: it waits for the award or misdeal key


def test_the_deck_put_in_play_keeps_the_one_before_known() -> None:
    reg = DeckRegistry().put_in_play("red", {"R1": "As"}).put_in_play("blue", {"B1": "As"})
    assert reg.card_of("B1") == "As" and reg.foreign("R1") == ("red", "As")
    back = reg.put_in_play("red", {"R1": "As"})
    assert back.foreign("B1") == ("blue", "As") and back.foreign("R1") is None
    idle = DeckRegistry().put_in_play("red", {"R1": "As"}).with_idle("green", {"G1": "Kd"})
    assert idle.deck == "red" and idle.foreign("G1") == ("green", "Kd")


def _audit(t, uids) -> list:  # type: ignore[no-untyped-def]
    return list(t.feed(DeckAudit(uids=tuple(uids))).findings)


def test_an_audit_between_hands_names_the_missing_cards_and_the_foreign_ones() -> None:
    t = table([200, 200], button=1, post=False)
    t.feed(parse_event({"type": "misdeal.declared"}).body)  # no hand in play any more
    t.feed(DeckRegister(deck="blue", tags={"B9s": "9s"}, idle=True))
    read = [u for u in TAGS if u not in ("TAs", "T7d")] + ["B9s", "ZZ1"]
    missing, stub = _audit(t, read)
    assert missing.code == "MISSING_CARDS_FROM_DECK" and missing.cards == ("7d", "As")
    assert missing.rule.rule == "10" and "2 of 52 tags of deck test" in missing.remedy[0]
    assert missing.remedy[1] == "The results of the hand stand."
    assert stub.code == "FOREIGN_BACK_CARD_IN_STUB" and stub.cards == ("9s",)
    assert "9s of deck blue (tag B9s)" in stub.remedy[0]
    assert "tag ZZ1 of no registered deck" in stub.remedy[0]
    assert stub.remedy[1] == "All action stands."


def test_an_audit_of_the_stub_counts_the_cards_on_the_felt() -> None:
    t = table([200, 200, 200], button=1)
    deal_holes(t, ["2c", "7d", "As", "2d", "7s", "Kd"])
    out = {uid for uid in TAGS if uid[1:] in ("2c", "7d", "As", "2d", "7s", "Kd")}
    assert _audit(t, [u for u in TAGS if u not in out]) == []
    [f] = _audit(t, [u for u in TAGS if u not in out and u != "TQh"])
    assert f.code == "MISSING_CARDS_FROM_DECK" and f.cards == ("Qh",)
    assert t.hand()["phase"] == "preflop"  # the hand goes on: the result stands


@pytest.mark.parametrize(("acted", "void"), [(False, True), (True, False)])
def test_wsop_voids_a_stub_foreign_card_before_substantial_action(acted: bool, void: bool) -> None:
    t = table([200, 200, 200], button=1)
    t.state = replace(t.state, settings=replace(t.state.settings, foreign_card="wsop"),
                      deck=t.state.deck.with_idle("blue", {"B9s": "9s"}))
    deal_holes(t, ["2c", "7d", "As", "2d", "7s", "Kd"])
    if acted:
        t.act(1, "raise", 6)
        t.act(2, "call")
    out = {uid for uid in TAGS if uid[1:] in ("2c", "7d", "As", "2d", "7s", "Kd")}
    [f] = _audit(t, [*(u for u in TAGS if u not in out), "B9s"])
    assert f.code == "FOREIGN_BACK_CARD_IN_STUB" and f.rule.file == "wsop-2009-live-action-rules.md"
    assert ("all action is void" in f.remedy[1]) is void
    end = t.feed(parse_event({"type": "hand.end"}).body)
    # void: the award key gives every chip back; standing, the hand is not over yet
    assert (t.hand()["phase"] == "misdeal") is void
    if void:
        assert end.results == ()


def test_the_new_codes_are_in_the_catalogue() -> None:
    for code in ("FOREIGN_BACK_CARD_IN_PLAY", "FOREIGN_BACK_CARD_IN_STUB",
                 "MISSING_CARDS_FROM_DECK"):
        assert CATALOGUE[code].catalogue
