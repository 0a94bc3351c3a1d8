"""Games as data: every game of the issue is defined, consistent, and cites its rulebook."""

from __future__ import annotations

import pytest

from controller.poker.variants import (
    DECKS,
    PHH_VARIANTS,
    ROTATIONS,
    VARIANTS,
    Street,
    Variant,
    phh_variant,
    variant,
)

ISSUE_GAMES = {
    "nlhe", "flhe", "plhe", "omaha", "omaha8", "omaha5", "pineapple", "crazy_pineapple",
    "lazy_pineapple", "short_deck", "stud", "razz", "stud8", "draw5", "draw5_jacks",
    "draw5_joker", "a5_lowball", "27_single", "27_triple", "badugi",
}


def test_every_game_of_the_issue_is_defined() -> None:
    assert set(VARIANTS) == ISSUE_GAMES


@pytest.mark.parametrize("vid", sorted(ISSUE_GAMES))
def test_each_game_is_consistent(vid: str) -> None:
    v = VARIANTS[vid]
    assert v.citations, f"{vid} cites no rulebook"
    # a game's cards fit its deck: at most max_players hands of the cards it deals up front
    dealt = sum(len(s.hole) for s in v.streets)
    assert dealt * 2 + v.board_cards <= len(v.deck_cards)
    assert v.streets[0].betting
    assert v.hole_cards >= 2


def test_card_counts_per_game() -> None:
    assert (VARIANTS["nlhe"].hole_cards, VARIANTS["nlhe"].board_cards) == (2, 5)
    assert VARIANTS["omaha"].hole_cards == 4 and VARIANTS["omaha"].hand == "omaha"
    assert VARIANTS["omaha5"].hole_cards == 5
    assert VARIANTS["pineapple"].hole_cards == 2  # three dealt, one discarded
    assert VARIANTS["stud"].hole_cards == 7 and VARIANTS["stud"].betting_rounds == 5
    ups = [u for s in VARIANTS["stud"].streets for u in s.hole]
    assert ups == [False, False, True, True, True, True, False]  # RR Section 8 intro
    assert VARIANTS["27_triple"].draws == 3 and VARIANTS["27_triple"].betting_rounds == 4
    assert VARIANTS["badugi"].hole_cards == 4
    assert VARIANTS["draw5"].betting_rounds == 2


def test_decks() -> None:
    assert len(DECKS["standard"]) == 52
    assert len(DECKS["short"]) == 36 and not any(c[0] in "2345" for c in DECKS["short"])
    assert len(DECKS["joker"]) == 53 and "Xx" in DECKS["joker"]
    assert VARIANTS["short_deck"].deck == "short"
    assert VARIANTS["a5_lowball"].deck == "joker"  # RR Section 11 A-5 r.1: joker assumed


def test_split_games_and_rankings() -> None:
    assert VARIANTS["omaha8"].rankings == ("high", "low8")
    assert VARIANTS["stud8"].rankings == ("high", "low8")
    assert VARIANTS["razz"].rankings == ("ace_five_low",)
    assert VARIANTS["27_single"].rankings == ("deuce_seven_low",)
    assert VARIANTS["badugi"].rankings == ("badugi",)


def test_with_structure() -> None:
    omaha = VARIANTS["omaha"]
    assert omaha.structure == "pot"
    fixed = omaha.with_structure("fixed")
    assert fixed.structure == "fixed" and fixed.streets == omaha.streets
    assert omaha.with_structure("pot") is omaha
    with pytest.raises(ValueError, match="structure"):
        omaha.with_structure("table")
    # A-5 lowball forbids check-raise at limit only (RR Section 11 NL/PL Lowball r.5)
    assert not VARIANTS["a5_lowball"].check_raise
    assert VARIANTS["a5_lowball"].with_structure("no").check_raise


def test_phh_codes() -> None:
    assert set(PHH_VARIANTS) == {"FT", "NT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D",
                                 "F2L3D", "FB"}
    assert phh_variant("NT") is VARIANTS["nlhe"]
    assert phh_variant("FO/8").structure == "fixed"
    assert phh_variant("N2L1D").structure == "no"
    with pytest.raises(ValueError, match="unknown PHH variant"):
        phh_variant("XX")


def test_rotations() -> None:
    horse = ROTATIONS["horse"]
    ids = [horse.game_at(k * 6, 6).id for k in range(6)]
    assert ids == ["flhe", "omaha8", "razz", "stud", "stud8", "flhe"]
    every8 = horse.every(8)
    assert [every8.game_at(k, 6).id for k in (0, 7, 8, 39, 40)] == [
        "flhe", "flhe", "omaha8", "stud8", "flhe"]
    dc = ROTATIONS["dealers_choice"]
    assert dc.choose("badugi").id == "badugi"
    with pytest.raises(ValueError, match="dealer"):
        dc.game_at(0, 6)
    with pytest.raises(ValueError, match="not one of"):
        ROTATIONS["horse"].choose("badugi")


def test_bad_definitions_are_refused() -> None:
    with pytest.raises(ValueError, match="opener"):
        Street("x", opener="left")
    with pytest.raises(ValueError, match="structure"):
        Variant("x", "x", (Street("a"),), "table")
    with pytest.raises(ValueError, match="unknown game"):
        variant("holdem")
