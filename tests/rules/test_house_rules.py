"""House-rules profiles and settings_for: every profile is valid, each differs from Robert's
where its rulebook does, and bad names and values are refused with the name in the message."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from controller.poker.house_rules import (
    PROFILES,
    Settings,
    SettingsError,
    setting_choices,
    setting_citation,
    setting_names,
    settings_for,
)


def test_profiles_named_in_the_brief_exist_and_default_is_roberts() -> None:
    assert set(PROFILES) == {"roberts", "roberts-home", "wsop-2009", "tda-tournament"}
    assert settings_for() == PROFILES["roberts"] == Settings()


def test_profile_values_follow_their_rulebooks() -> None:
    rr, wsop, tda = (settings_for(p) for p in ("roberts", "wsop-2009", "tda-tournament"))
    assert rr.between_blinds_entry == "wait"           # RR Section 4 r.7
    assert wsop.between_blinds_entry == "buy_button"   # WSOP Section 4 r.4
    assert rr.missed_blinds_live == "min_open"         # RR Section 4 r.10
    assert wsop.missed_blinds_live == "big_blind"      # WSOP Section 4 r.6
    assert wsop.straddle == "utg_and_button"           # WSOP Section 4 r.11
    assert tda.tournament and tda.button_method == "dead"
    assert tda.dead_button_on_sb_bust == "stay"        # AZW TDA #31
    assert tda.heads_up_transition == "next_bb"
    assert tda.level_change == "next_hand_blinds_posted"
    assert rr.level_change == "next_deal_first_riffle"
    assert tda.straddle == "none"


def test_overrides_apply() -> None:
    s = settings_for("roberts", {"button_method": "moving", "kill": "half"})
    assert s.button_method == "moving" and s.kill == "half"
    assert settings_for("roberts").button_method == "dead"  # the profile itself is untouched


def test_unknown_profile_is_named() -> None:
    with pytest.raises(SettingsError, match="'nope'"):
        settings_for("nope")


def test_unknown_setting_is_named() -> None:
    with pytest.raises(SettingsError, match="'button_mode'"):
        settings_for("roberts", {"button_mode": "dead"})


@pytest.mark.parametrize(("name", "value"), [
    ("button_method", "sideways"), ("straddle", "mississippi"), ("tournament", 1),
    ("kill", None), ("passed_big_owes_small", "yes"),
])
def test_bad_value_names_setting_and_value(name: str, value: object) -> None:
    with pytest.raises(SettingsError) as exc:
        settings_for("roberts", {name: value})
    assert repr(name) in str(exc.value) and repr(value) in str(exc.value)


def test_tournament_needs_dead_button_and_no_straddle() -> None:
    with pytest.raises(SettingsError, match="button_method"):
        settings_for("tda-tournament", {"button_method": "moving"})
    with pytest.raises(SettingsError, match="straddle"):
        settings_for("tda-tournament", {"straddle": "utg"})


def test_every_setting_has_choices_citation_and_a_doc_entry() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "house-rules.md").read_text("utf-8")
    for name in setting_names():
        assert getattr(Settings(), name) in setting_choices(name)
        assert ".txt" in setting_citation(name) or ".md" in setting_citation(name)
        assert f"`{name}`" in doc, f"docs/house-rules.md does not describe {name}"
    assert len(setting_names()) == len(fields(Settings))
    with pytest.raises(SettingsError):
        setting_choices("nope")


def test_disagreement_rows_follow_their_books() -> None:
    # research/irregularities.md Part 2: each profile's value from its own book, RR's where the
    # book is silent (docs/house-rules.md, "The disagreement table, row by row")
    rr, rrh, wsop, tda = (settings_for(p) for p in
                          ("roberts", "roberts-home", "wsop-2009", "tda-tournament"))
    assert (rr.first_cards_exposed, rrh.first_cards_exposed) == ("first_or_second", "first")
    assert wsop.empty_seat_cards == "killed_except_lowball" and tda.empty_seat_cards == "misdeal"
    assert (rr.stud_premature_removed, wsop.stud_premature_removed,
            tda.stud_premature_removed) == ("aside", "aside_shuffled_with_stub_if_short",
                                            "reshuffled_at_final_street")
    assert rr.stud_exposed_downcard == "misdeal_in_tournament"
    assert tda.stud_exposed_downcard == "misdeal"
    assert {p.stud_short_deck for p in (rr, rrh, wsop, tda)} == {"last_card_burns_and_removed"}
    assert {p.draw_max_consecutive for p in (rr, rrh, wsop, tda)} == {4}
    assert tda.dead_hand_card_count == "no_exceptions" and wsop.dead_hand_card_count == (
        "rr_exceptions")
    assert (rr.allin_burn_fix, wsop.allin_burn_fix) == ("if_intact", "before_award")
    assert wsop.absent_hand_kill == "stud_window_card_until_turn"
    assert tda.short_hand_exception == "button_two_consecutive"
    assert (rr.a5_sevens_rule, rrh.a5_sevens_rule, wsop.a5_sevens_rule) == ("seven", "off", "five")
    with pytest.raises(SettingsError, match="draw_max_consecutive"):
        settings_for("roberts", {"draw_max_consecutive": 6})


def test_every_row_of_the_disagreement_table_is_accounted_for() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "house-rules.md").read_text("utf-8")
    section = doc.split("## The disagreement table, row by row", 1)[1]
    rows = {line.split("|")[1].strip(): line.split("|")[3] for line in section.splitlines()
            if line.startswith("| D-")}
    assert sorted(rows) == [f"D-{n:02d}" for n in range(1, 37)]
    names = set(setting_names())
    for row, covered in rows.items():
        named = set(re.findall(r"`([a-z0-9_]+)`", covered)) & names
        assert named or covered.strip().startswith("none:"), row
