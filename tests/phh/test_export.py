"""Export of table hands as PHH: hands the simulated dealer plays through the live rules core are
journalled, exported, read back with PokerKit's PHH reader and replayed in PokerKit."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.events import (
    Action,
    Body,
    DeckRegister,
    Event,
    HandEnd,
    HandStart,
    SeatTake,
    ShoeDraw,
    TableSetup,
    ZoneRead,
    read_scenario,
)
from controller.journal import Journal
from controller.phh import HandHistory, loads_all
from controller.phh.export import export_events, export_file
from controller.phh.writer import dumps, dumps_all
from controller.sim import SimDealer, expand

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"

pokerkit = pytest.importorskip("pokerkit")


def _events(seed: int, hands: int, seats: int, rate: float) -> tuple[list[Event], SimDealer]:
    dealer = SimDealer(random.Random(seed), seats=seats, mistake_rate=rate)
    events: list[Event] = []
    for _ in range(hands):
        for step in dealer.next_hand():
            for body in expand(step):
                events.append(Event(len(events) + 1, 1_700_000_000_000 + len(events), body))
    return events, dealer


def _journal(tmp_path: Path, events: list[Event], name: str) -> Path:
    path = tmp_path / name
    with Journal(path) as journal:
        for event in events:
            journal.append(event)
    return path


def _pokerkit_stacks(text: str) -> Iterator[list[int]]:
    """Replay each hand of a .phhs text in PokerKit; its final stacks per hand."""
    for hh in pokerkit.HandHistory.loads_all(text):
        *_, state = hh  # the last state of the replay
        yield list(state.stacks)


def _split_pots(hand: HandHistory) -> int:
    return sum(1 for pot in hand.user.get("_pots", []) if len(pot["winners"]) > 1)


@pytest.mark.parametrize(("seed", "seats", "hands"), [(1, 6, 40), (2, 3, 30), (3, 2, 30)])
def test_clean_hands_replay_in_pokerkit_to_our_stacks(tmp_path: Path, seed: int, seats: int,
                                                      hands: int) -> None:
    events, _ = _events(seed, hands, seats, 0.0)
    exported = export_file(_journal(tmp_path, events, "table.sqlite"))
    assert len(exported) == hands
    assert all(h.user["_outcome"] == "complete" and not h.user["_findings"] for h in exported)
    text = dumps_all(exported)
    assert loads_all(text) == exported  # our reader reads our export back exactly
    exact = split = 0
    for hand, theirs in zip(exported, _pokerkit_stacks(text), strict=True):
        ours = list(hand.finishing_stacks or ())
        if not _split_pots(hand):
            assert theirs == ours, hand.label
            exact += 1
            continue
        # A split pot: PokerKit merges pots whose winners are the same before splitting, so its
        # odd chips can fall elsewhere; the rulebook splits each pot on its own
        # (roberts-rules-v11.txt, Section 3, Ties, r.5(d)) with the odd chip to the first
        # winner left of the button (r.5(a)). Same chips in all, at most one odd chip apart
        # per split pot.
        assert sum(theirs) == sum(ours)
        assert max(abs(a - b) for a, b in zip(theirs, ours, strict=True)) <= _split_pots(hand)
        split += 1
    assert exact >= hands * 3 // 4, (exact, split)


def test_a_hand_with_side_pots_exports_exactly(tmp_path: Path) -> None:
    [hand] = export_events(read_scenario(SCENARIOS / "clean_side_pots.jsonl"))
    assert hand.players == ("Bob", "Cyd", "Dee", "Ann")  # p1 = small blind, p4 = button
    assert hand.optional == {"seats": [2, 3, 4, 1], "seat_count": 6}
    assert hand.starting_stacks == (50, 120, 200, 200)
    assert hand.blinds_or_straddles == (1, 2, 0, 0)
    assert [a.text for a in hand.actions] == [
        "d dh p1 AhAd", "d dh p2 KhKd", "d dh p3 QhQd", "d dh p4 2c7s",
        "p3 cbr 6", "p4 cc", "p1 cbr 50", "p2 cbr 120", "p3 cc", "p4 f",
        # all-in before the flop: the hands are tabled, the last raiser first (RR §3
        # Showdown r.8), then the board is run out
        "p2 sm KhKd", "p3 sm QhQd", "p1 sm AhAd",
        "d db 9cTc4s", "d db 2h", "d db 6d",
    ]
    assert hand.finishing_stacks == (156, 140, 80, 194)
    assert hand.user["_outcome"] == "complete"
    assert hand.user["_button"] == 1
    assert [p["amount"] for p in hand.user["_pots"]] == [140, 156]
    [theirs] = _pokerkit_stacks(dumps_all([hand]))
    assert theirs == [156, 140, 80, 194]
    # the export file of a scenario is the same as the export of its events
    assert export_file(SCENARIOS / "clean_side_pots.jsonl") == [hand]


def test_heads_up_the_button_is_last_and_posts_the_small_blind(tmp_path: Path) -> None:
    events, _ = _events(5, 3, 2, 0.0)
    hands = export_events(events)
    for hand in hands:
        seats = hand.optional["seats"]
        assert seats[-1] == hand.user["_button"]
        # PHH writes [small, big] and reverses it for two players (required.rst, Blinds)
        assert hand.blinds_or_straddles == (1, 2)
    assert [list(h.finishing_stacks or ()) for h in hands] == list(
        _pokerkit_stacks(dumps_all(hands)))


def test_irregular_hands_carry_their_findings(tmp_path: Path) -> None:
    events, dealer = _events(7, 40, 6, 0.5)
    exported = export_file(_journal(tmp_path, events, "messy.sqlite"))
    assert dealer.truth, "the dealer made no mistake"
    by_number = {h.hand: h for h in exported}
    for mistake in dealer.truth:
        hand = by_number[mistake.hand]
        findings = hand.user["_findings"]
        assert mistake.expected_code in [f["code"] for f in findings], hand.label
        for f in findings:
            assert set(f) == {"code", "seq", "severity", "seats", "cards", "rule", "message"}
            assert f["rule"]["file"].endswith((".txt", ".md"))
            assert hand.user["_seq"][0] <= f["seq"] <= hand.user["_seq"][1]
    misdeals = [h for h in exported if h.user["_outcome"] == "misdeal"]
    assert misdeals
    for hand in misdeals:
        assert hand.finishing_stacks == hand.starting_stacks  # every chip goes back
    for hand in exported:
        assert sum(hand.finishing_stacks or ()) == sum(hand.starting_stacks)
    # PokerKit reads every hand, irregular or not, and the clean ones replay to our stacks
    text = dumps_all(exported)
    read = list(pokerkit.HandHistory.loads_all(text))
    assert [r.user_defined_fields["_outcome"] for r in read] == [
        h.user["_outcome"] for h in exported]
    clean = [h for h in exported if h.user["_outcome"] == "complete"
             and not h.user["_findings"] and not _split_pots(h)]
    assert clean
    assert list(_pokerkit_stacks(dumps_all(clean))) == [
        list(h.finishing_stacks or ()) for h in clean]


def test_a_raise_nobody_can_answer_is_refused_and_the_call_exported() -> None:
    bodies: list[Body] = [TableSetup(seats=3), SeatTake(seat=1, player="Ann", stack=500),
                    SeatTake(seat=2, player="Bob", stack=40),
                    SeatTake(seat=3, player="Cyd", stack=500),
                    DeckRegister(deck="d", tags={f"T{c}": c for c in
                                                 ("As", "Ad", "Ks", "Kd", "Qs", "Qd", "2c",
                                                  "3c", "4h", "8d", "9h", "Tc", "Jd", "5s",
                                                  "6s", "7c")}),
                    HandStart(button=3), Action(seat=1, kind="post", amount=1),
                    Action(seat=2, kind="post", amount=2)]
    for card, seat in (("As", 1), ("Ks", 2), ("Qs", 3), ("Ad", 1), ("Kd", 2), ("Qd", 3)):
        bodies += [ShoeDraw(uid=f"T{card}"), ZoneRead(uid=f"T{card}", zone=f"seat:{seat}")]
    bodies += [Action(seat=3, kind="fold"), Action(seat=1, kind="raise", amount=10),
               Action(seat=2, kind="allin"),
               # seat 1 re-raises to 100 with only the all-in seat 2 left: nobody could call
               # it, so the core refuses it (not applied) and the dealer enters the call
               Action(seat=1, kind="raise", amount=100), Action(seat=1, kind="call")]
    for card, zone in (("2c", "burn"), ("3c", "board"), ("4h", "board"), ("8d", "board"),
                       ("9h", "burn"), ("Tc", "board"), ("Jd", "burn"), ("5s", "board")):
        bodies += [ShoeDraw(uid=f"T{card}"), ZoneRead(uid=f"T{card}", zone=zone)]
    bodies.append(HandEnd())
    [hand] = export_events([Event(i, 0, b) for i, b in enumerate(bodies, start=1)])
    texts = [a.text for a in hand.actions]
    assert "p1 cbr 100" not in texts and texts.count("p1 cc") == 1
    assert [f["code"] for f in hand.user["_findings"]] == ["RAISE_NOT_PERMITTED"]
    assert hand.finishing_stacks == (540, 0, 500)
    [theirs] = _pokerkit_stacks(dumps_all([hand]))
    assert theirs == [540, 0, 500]
    assert loads_all(dumps(hand)) == [hand]


def test_an_action_the_core_refused_is_not_exported_and_a_cut_off_hand_is_incomplete() -> None:
    # seat 1 folds out of turn (not applied: OOT_ACTION), seat 4 calls, seat 1 folds in turn;
    # the scenario stops there, in the middle of the preflop betting
    [hand] = export_file(SCENARIOS / "oot_action.jsonl")
    assert [a.text for a in hand.actions][4:] == ["p3 cc", "p4 f"]
    assert hand.user["_outcome"] == "incomplete"
    assert hand.finishing_stacks == (199, 198, 198, 200)  # the chips behind; the blinds are out
    [finding] = hand.user["_findings"]
    assert finding["code"] == "OOT_ACTION" and finding["seats"] == [1]
    assert finding["rule"]["file"] == "roberts-rules-v11.txt"
    assert finding["rule"]["section"] == "Section 3, Betting and Raising"
    assert finding["rule"]["rule"] == "11"
    assert hand.user["_seq"] == [7, 29]
