"""House-rules profiles and settings_for: every profile is valid, each differs from Robert's
where its rulebook does, and bad names and values are refused with the name in the message."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from controller.rules.house_rules import (
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
