"""The rows of the rulebooks' disagreement table (research/irregularities.md Part 2) that are house
settings: each ``tests/scenarios/setting_*.jsonl`` shows a non-default value's remedy; here the
same events under Robert's Rules (the default) give Robert's remedy, the remedies a setting swaps
in cite real rulebook text, and no profile makes the core raise on any of those scenarios."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from controller.events import read_scenario
from controller.poker.house_rules import PROFILES, setting_choices, setting_names
from controller.poker.pots import PotAward
from controller.rules import apply, initial_state, snapshot
from controller.rules.findings.catalogue import REMEDY_BY_SETTING
from controller.rules.findings.finding import Finding
from controller.rules.procedure import board_deal as board

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
SETTING_SCENARIOS = sorted(SCENARIOS.glob("setting_*.jsonl"))


def _run(path: Path, tmp_path: Path, profile: str | None = None,
         settings: dict[str, Any] | None = None
         ) -> tuple[list[Finding], tuple[PotAward, ...], dict[int, int]]:
    """The scenario's events with the table set up under another profile or settings."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith('{"type":"table.setup"'):
            body = json.loads(line)
            if profile is not None:
                body["profile"] = profile
            if settings is not None:
                body["settings"] = settings
            if body.get("settings", {}).get("tournament"):
                body["settings"]["button_method"] = "dead"  # roberts-home moves it otherwise
            line = json.dumps(body)
        lines.append(line)
    copy = tmp_path / path.name
    copy.write_text("\n".join(lines) + "\n", encoding="utf-8")
    state = initial_state()
    found: list[Finding] = []
    results: tuple[PotAward, ...] = ()
    for event in read_scenario(copy):
        step = apply(state, event)
        state = step.state
        found += step.findings
        results = step.results or results
    stacks = {s["seat"]: s["stack"] for s in snapshot(state)["seats"]}
    return found, results, stacks


def _codes(found: list[Finding]) -> list[str]:
    return [f.code for f in found]


class _Betting:
    """The betting before the first round (board.BettingView)."""

    rounds_done, no_more_betting, hand_over, street, actions = 0, False, False, 0, 0
    to_act = None
    post_due = None


def _hole(deal: board.Deal, seq: int, card: str, seat: int, face_up: bool = False
          ) -> tuple[board.Deal, list[str]]:
    """A hole card off the shoe and read in a seat: the codes raised."""
    deal, a = board.draw(deal, f"u{card}", card, face_up, seq, _Betting(), "d")
    deal, b = board.read(deal, f"u{card}", f"seat:{seat}", seq)
    return deal, [f.code for f in (*a, *b)]


def test_every_remedy_a_setting_swaps_in_cites_a_rulebook(shared: Path) -> None:
    def norm(text: str) -> str:
        return re.sub(r"[^a-z0-9]", "", text.lower())

    values = {str(v) for name in setting_names() for v in setting_choices(name)}
    # ... or a boolean setting's name, for when it is on (RAISE_CAPPED's "tournament")
    values |= {name for name in setting_names() if setting_choices(name) == (True, False)}
    for (code, value), (rule, steps) in REMEDY_BY_SETTING.items():
        assert value in values, f"{code}: {value!r} is no setting's value"
        book = shared / "rulebooks" / rule.file
        assert book.is_file(), rule.file
        assert rule.section and rule.rule and steps
        assert norm(rule.text) in norm(book.read_text(encoding="utf-8")), (code, value)


@pytest.mark.parametrize("path", SETTING_SCENARIOS, ids=[p.stem for p in SETTING_SCENARIOS])
@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_every_profile_judges_every_setting_scenario(path: Path, profile: str,
                                                     tmp_path: Path) -> None:
    # apply is total: another profile judges the same events differently, and never raises
    _run(path, tmp_path, profile=profile)


# --- D-03 ---------------------------------------------------------------------------------------


def test_second_card_exposed_is_a_misdeal_under_roberts(tmp_path: Path) -> None:
    found, _, _ = _run(SCENARIOS / "setting_first_cards_exposed_first.jsonl", tmp_path,
                       profile="roberts")
    assert _codes(found)[0] == "MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED"


def test_first_card_exposed_is_a_misdeal_under_roberts_home() -> None:
    deal = board.new_deal((2, 3, 4, 1), first_exposed="first")
    deal, codes = _hole(deal, 1, "2c", 2, face_up=True)
    assert codes == ["MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED"] and deal.void


# --- D-04 ---------------------------------------------------------------------------------------


def test_card_to_an_empty_seat_is_a_misdeal_under_roberts(tmp_path: Path) -> None:
    path = SCENARIOS / "setting_empty_seat_cards_killed_except_lowball.jsonl"
    found, _, _ = _run(path, tmp_path, profile="roberts")
    assert _codes(found)[0] == "MISDEAL_DEALT_TO_EMPTY_OR_INELIGIBLE_SEAT"
    found, results, _ = _run(path, tmp_path)
    assert _codes(found) == ["CARD_TO_EMPTY_SEAT_KILLED"] and results


# --- D-12 ---------------------------------------------------------------------------------------


def test_reshuffled_asides_are_not_followed_under_roberts(tmp_path: Path) -> None:
    path = SCENARIOS / "setting_stud_premature_removed_reshuffled_at_final_street.jsonl"
    found, results, _ = _run(path, tmp_path, settings={})
    assert "REMEDY_NOT_FOLLOWED" in _codes(found) and not results
    found, results, _ = _run(path, tmp_path, profile="tda-tournament", settings={})
    assert _codes(found) == ["STUD_PREMATURE_STREET"] and results


# --- D-15 ---------------------------------------------------------------------------------------


def test_stud_exposed_down_card(tmp_path: Path) -> None:
    path = SCENARIOS / "setting_stud_exposed_downcard_misdeal.jsonl"
    found, _, _ = _run(path, tmp_path, settings={})  # roberts cash: the third card down
    assert _codes(found) == ["STUD_ONE_HOLECARD_EXPOSED"]
    found, _, _ = _run(path, tmp_path, profile="tda-tournament", settings={})
    assert _codes(found) == ["STUD_EXPOSED_HOLECARD_TOURNAMENT_MISDEAL"]
    assert found[0].rule.file == "azwine-tour-tournament-rules.txt"
    path = SCENARIOS / "setting_stud_exposed_downcard_third_card_down.jsonl"
    found, _, _ = _run(path, tmp_path, settings={"tournament": True, "straddle": "none"})
    assert _codes(found)[0] == "STUD_EXPOSED_HOLECARD_TOURNAMENT_MISDEAL"
    assert found[0].rule.file == "roberts-rules-v11.txt"


# --- D-20 ---------------------------------------------------------------------------------------


def test_five_consecutive_cards_under_roberts(tmp_path: Path) -> None:
    found, _, _ = _run(SCENARIOS / "setting_draw_max_consecutive_5.jsonl", tmp_path,
                       settings={})
    assert _codes(found) == ["DRAW_FIVE_CARDS_RULE"]


# --- D-21 ---------------------------------------------------------------------------------------


def test_stud_hand_missing_its_last_card(tmp_path: Path) -> None:
    path = SCENARIOS / "setting_dead_hand_card_count_no_exceptions.jsonl"
    found, results, _ = _run(path, tmp_path, profile="roberts")
    assert _codes(found) == ["STUD_HAND_CARD_COUNT"]
    assert "the floor may rule it live" in " ".join(found[0].remedy)
    assert results[0].winners == (3,)  # the floor's call; the monitor saw four kings
    found, results, _ = _run(path, tmp_path)
    assert results[0].winners == (1,) and 3 not in results[0].eligible


def test_draw_hand_short_before_the_draw(tmp_path: Path) -> None:
    path = SCENARIOS / "setting_dead_hand_card_count_no_exceptions_draw.jsonl"
    found, _, _ = _run(path, tmp_path, profile="roberts")
    # seat 5's short hand is live: it draws its missing card (the scenario's draws then differ)
    assert _codes(found)[:3] == ["DRAW_SHORT_HAND_PREDRAW", "DRAW_SHORT_HAND_PREDRAW",
                                 "ACTION_NOT_AVAILABLE"]
    assert "draws the missing card(s) on the draw" in " ".join(found[0].remedy)


# --- D-22 ---------------------------------------------------------------------------------------


def test_allin_burn_error_under_roberts_needs_the_cards_intact(tmp_path: Path) -> None:
    found, results, _ = _run(SCENARIOS / "setting_allin_burn_fix_before_award.jsonl", tmp_path,
                             profile="roberts")
    assert _codes(found) == ["BURN_MISSING_OR_EXTRA"] and results
    assert found[0].rule.rule == "16" and "intact" in " ".join(found[0].remedy)


def test_a_burn_error_with_betting_left_keeps_the_default_remedy(tmp_path: Path) -> None:
    found, _, _ = _run(SCENARIOS / "burn_missing_turn.jsonl", tmp_path, profile="wsop-2009")
    assert found[0].code == "BURN_MISSING_OR_EXTRA"
    assert found[0].rule.file == "roberts-rules-v11.txt"
    assert "all-in" not in " ".join(found[0].remedy)


# --- D-28 ---------------------------------------------------------------------------------------


def test_absent_stud_hand_killed_after_the_deal_under_roberts(tmp_path: Path) -> None:
    path = SCENARIOS / "setting_absent_hand_kill_stud_window_card_until_turn.jsonl"
    _, _, stacks = _run(path, tmp_path, profile="roberts")
    assert stacks[2] == 199  # killed before its bring-in: only the ante is gone
    _, _, stacks = _run(path, tmp_path)
    assert stacks[2] == 198


# --- D-34 ---------------------------------------------------------------------------------------


def test_button_passed_over_is_a_misdeal_under_roberts(tmp_path: Path) -> None:
    path = SCENARIOS / "setting_short_hand_exception_button_two_consecutive.jsonl"
    found, _, _ = _run(path, tmp_path, profile="roberts")
    # Every seat ends the round with two cards, but the button's came out of sequence
    # (RR Section 3, Misdeals, r.2(f)): ruled once the round is complete, at its last card.
    assert _codes(found)[0] == "MISDEAL_CARD_OUT_OF_SEQUENCE"
    assert found[0].seats == (1, 2) and found[0].cards == ("As",)


def test_the_button_passed_over_twice_is_still_a_misdeal() -> None:
    deal = board.new_deal((2, 3, 1), hole_cards=4, short_hand="button_two_consecutive")
    codes: list[str] = []
    cards = iter(["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "Tc", "Jc", "Qc", "Kc"])
    # pass 1 passes over the button (seat 1), pass 2 goes on one seat further and passes it again
    for seq, seat in enumerate((2, 3, 2, 3, 1, 2, 3, 2), start=1):
        deal, got = _hole(deal, seq, next(cards), seat)
        codes += got
    assert codes == ["BUTTON_DEALT_TWO_CONSECUTIVE"]  # the second pass-over: not ruled yet
    deal, found = board.moving_on(deal)  # the dealer moves on to the betting: counts are final
    assert [(f.code, f.seats) for f in found] == [("MISDEAL_INCORRECT_CARD_COUNT", (1, 3))]


def test_heads_up_button_two_consecutive() -> None:
    deal = board.new_deal((2, 1), short_hand="button_two_consecutive")
    codes: list[str] = []
    for seq, (card, seat) in enumerate((("2c", 2), ("3c", 2), ("4c", 1), ("5c", 1)), start=1):
        deal, got = _hole(deal, seq, card, seat)
        codes += got
    assert codes == ["BUTTON_DEALT_TWO_CONSECUTIVE"] and not deal.off and not deal.void
    assert deal.hole(1) == ("4c", "5c") and deal.hole(2) == ("2c", "3c")


def test_the_button_passed_over_on_the_last_pass_is_no_exception() -> None:
    deal = board.new_deal((2, 3, 1), short_hand="button_two_consecutive")
    codes: list[str] = []
    for seq, (card, seat) in enumerate((("2c", 2), ("3c", 3), ("4c", 1), ("5c", 2), ("6c", 3),
                                        ("7c", 2)), start=1):
        deal, got = _hole(deal, seq, card, seat)
        codes += got
    assert "BUTTON_DEALT_TWO_CONSECUTIVE" not in codes


# --- D-19 ---------------------------------------------------------------------------------------


def test_sevens_rule_under_roberts(tmp_path: Path) -> None:
    _, results, stacks = _run(SCENARIOS / "setting_a5_sevens_rule_five.jsonl", tmp_path,
                              profile="roberts")
    assert results[0].amount == 6 and stacks == {1: 198, 2: 204, 3: 198}
