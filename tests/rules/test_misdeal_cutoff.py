"""The misdeal cut-off per profile (research/irregularities.md §1.B MISDEAL_LOCKOUT) and the
``attention.called`` input: the counting rules on their own, the event and console word, and the
table holding a misdeal until attention is called. The scenarios tests/scenarios/cutoff_*.jsonl
play each profile's cut-off before and after."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from controller.console.lines import parse_command
from controller.events import AttentionCalled, EventError, parse_event, read_scenario
from controller.poker.house_rules import PROFILES, SettingsError, settings_for
from controller.rules import apply, initial_state, procedure
from controller.rules.table import Act, Hand, cutoff_passed

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def _hand_with(acts: list[Act]) -> Hand:
    """A preflop hand at the table of tests/scenarios/cutoff_rr_before.jsonl (button 1, small
    blind 2, big blind 3), with the given actions counted."""
    state = initial_state()
    for event in read_scenario(SCENARIOS / "cutoff_rr_before.jsonl"):
        if event.type == "action" and event.to_json().get("kind") != "post":
            break
        state = apply(state, event).state
    assert state.hand is not None
    return replace(state.hand, acts=tuple(acts))


CALL4 = Act(4, "call", in_turn=True)
FOLD4 = Act(4, "fold", in_turn=True)
RAISE4 = Act(4, "raise", in_turn=True, raised=True)
CALL1 = Act(1, "call", in_turn=True)
FOLD1 = Act(1, "fold", in_turn=True)
FOLD1_OOT = Act(1, "fold", in_turn=False)
CALL2 = Act(2, "call", in_turn=True)
CHECK3 = Act(3, "check", in_turn=True)


@pytest.mark.parametrize(
    ("acts", "rr", "rr_home", "wsop", "tda"),
    [
        ([], False, False, False, False),
        ([CALL4], False, False, False, False),
        ([RAISE4], False, False, True, False),
        ([CALL4, FOLD1], True, True, True, True),
        ([FOLD4, FOLD1], True, True, False, False),
        ([FOLD4, FOLD1, CALL2], True, True, False, True),
        ([FOLD1_OOT, CALL4], True, False, False, False),
        # the blinds acting do not count for RR ("two players after the blinds"); they do for
        # WSOP (the small blind called and the next player acted) and TDA (three actions)
        ([FOLD4, CALL2, CHECK3], False, False, True, True),
    ],
)
def test_each_profile_counts_the_action_its_own_way(acts, rr, rr_home, wsop, tda) -> None:
    h = _hand_with(acts)
    got = {rule: cutoff_passed(settings_for(overrides={"misdeal_cutoff": rule}), h)
           for rule in ("rr", "rr_home", "wsop", "tda")}
    assert got == {"rr": rr, "rr_home": rr_home, "wsop": wsop, "tda": tda}


def test_profiles_pick_their_rulebooks_cutoff() -> None:
    assert {name: p.misdeal_cutoff for name, p in PROFILES.items()} == {
        "roberts": "rr", "roberts-home": "rr_home", "wsop-2009": "wsop", "tda-tournament": "tda"}
    assert all(p.attention_on_alert for p in PROFILES.values())
    with pytest.raises(SettingsError, match="misdeal_cutoff"):
        settings_for("roberts", {"misdeal_cutoff": "never"})


def test_attention_called_event_and_console_word() -> None:
    event = parse_event({"type": "attention.called", "by": "floor"})
    assert event.body == AttentionCalled(by="floor")
    assert parse_event({"type": "attention.called"}).body == AttentionCalled(by="dealer")
    with pytest.raises(EventError, match="'by'"):
        parse_event({"type": "attention.called", "by": "dog"})
    assert parse_command("attention player") == AttentionCalled(by="player")
    assert parse_command("attention") == AttentionCalled(by="dealer")
    with pytest.raises(EventError, match="usage: attention"):
        parse_command("attention everyone")


def _play(path: Path, settings: dict[str, object] | None = None) -> list[str]:
    state = initial_state()
    codes: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("{"):
            continue
        obj = json.loads(line)
        if obj["type"] == "table.setup" and settings is not None:
            obj["settings"] = settings
        step = apply(state, parse_event(obj))
        state = step.state
        codes += [f.code for f in step.findings]
    return codes


def test_the_alert_is_the_attention_by_default() -> None:
    # With the default setting the misdeal is raised at the card, before any action: the
    # attention call afterwards finds nothing held and changes nothing.
    codes = _play(SCENARIOS / "cutoff_rr_after.jsonl", settings={})
    assert codes == ["MISDEAL_INCORRECT_CARD_COUNT"]


def test_a_held_misdeal_is_silent_until_attention_is_called() -> None:
    path = SCENARIOS / "cutoff_rr_before.jsonl"
    state = initial_state()
    for event in read_scenario(path):
        step = apply(state, event)
        if event.type == "attention.called":
            assert state.hand is not None and state.hand.held
            assert not procedure.is_void(state.hand.game)  # the hand went on while nobody noticed
            assert [f.code for f in step.findings] == ["MISDEAL_INCORRECT_CARD_COUNT"]
            assert step.state.hand is not None and procedure.is_void(step.state.hand.game)
            assert not step.state.hand.held
        else:
            assert step.findings == ()
        state = step.state
    # A second call: nothing is held any more.
    again = apply(state, parse_event({"type": "attention.called", "seq": 999}))
    assert again.findings == () and again.state == replace(state, last_seq=999)


def test_attention_outside_a_hand_changes_nothing() -> None:
    state = initial_state()
    step = apply(state, parse_event({"type": "attention.called", "seq": 1}))
    assert step.findings == ()
    assert step.state == replace(state, last_seq=1)
