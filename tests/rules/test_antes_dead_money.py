"""An ante one player posts for the table (a big-blind or button ante) is dead money in the main
pot: it never comes back to the player who posted it as an uncalled bet or a pot of his own
(roberts-rules-v11.txt, Glossary, DEAD MONEY: "not considered part of a particular player's
bet"; research/button-blinds-betting.md §1.13). Found on a recorded no-limit 2-7 single draw hand
with a big-blind ante and an all-in caller (issue 11)."""

from __future__ import annotations

import pytest

from controller.phh import loads
from controller.phh.replay import play
from controller.poker.variants import VARIANTS
from controller.rules.engine.hand import Hand, Stakes

# 3-handed no-limit 2-7 single draw, blinds 50/100 and a big-blind ante of 100. The button (p3)
# calls all in for 60, the small blind folds; the big blind has nobody left to bet against (no
# check is recorded); both stand pat and the button's 7-5 low wins. Main pot: 60 + 60 (the big
# blind's called part) + 50 (the folded small blind) + 100 (the ante, dead) = 270; the big
# blind's uncalled 40 goes back to it.
NS_BB_ANTE = """\
variant = "N2L1D"
antes = [0, 100, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [1000, 1000, 60]
actions = ["d dh p1 KsQsJs9d8d", "d dh p2 AcKcQd6h5h", "d dh p3 7c5d4h3s2c", "p3 cc", "p1 f",
           "p2 sd", "p3 sd", "p2 sm AcKcQd6h5h", "p3 sm 7c5d4h3s2c"]
"""
DEAD = (950, 840, 270)


def test_a_big_blind_ante_stays_in_the_main_pot() -> None:
    assert play(loads(NS_BB_ANTE, source="ns.phh")) == DEAD


def test_the_pots_during_the_hand_hold_the_ante_as_dead_money() -> None:
    stakes = Stakes(antes=(0, 100, 0), blinds_or_straddles=(50, 100, 0), min_bet=100)
    h = Hand(VARIANTS["27_single"], stakes, [1000, 1000, 60])
    for p, cards in enumerate((["Ks", "Qs", "Js", "9d", "8d"], ["Ac", "Kc", "Qd", "6h", "5h"],
                               ["7c", "5d", "4h", "3s", "2c"])):
        h.deal_hole(p, cards)
    h.check_or_call(2)  # the button, all in for 60
    h.fold(0)  # the small blind
    main, side = h.pots()
    # the ante in the main pot the all-in button contests; the big blind's unmatched 40 apart
    assert (main.amount, main.eligible) == (60 + 60 + 50 + 100, (1, 2))
    assert (side.amount, side.eligible) == (40, (1,))


def test_pokerkit_agrees_when_told_not_to_trim_antes() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    automations = (pokerkit.Automation.ANTE_POSTING, pokerkit.Automation.BET_COLLECTION,
                   pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
                   pokerkit.Automation.HAND_KILLING, pokerkit.Automation.CHIPS_PUSHING,
                   pokerkit.Automation.CHIPS_PULLING, pokerkit.Automation.CARD_BURNING)
    finals = {}
    for trimming in (False, True):
        st = pokerkit.NoLimitDeuceToSevenLowballSingleDraw.create_state(
            automations, trimming, {1: 100}, (50, 100), 100, (1000, 1000, 60), 3)
        for cards in ("KsQsJs9d8d", "AcKcQd6h5h", "7c5d4h3s2c"):
            st.deal_hole(cards)
        st.check_or_call()
        st.fold()
        st.check_or_call()  # PokerKit still asks the big blind to check
        while st.stand_patter_or_discarder_index is not None:
            st.stand_pat_or_discard()
        while st.showdown_index is not None:
            st.show_or_muck_hole_cards(True)
        finals[trimming] = tuple(st.stacks)
    # PokerKit's ante_trimming_status=False is this rule; with True it hands the big blind its
    # ante back (950, 940, 170), the ruling issue 11 found wrong.
    assert finals[False] == DEAD
    assert finals[True] == (950, 940, 170)
