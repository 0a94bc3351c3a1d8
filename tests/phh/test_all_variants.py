"""All eleven PHH variant codes through our reader, writer and replay.

Random legal hands of each game (the engine's own random player, ``play_random``) are written
as PHH text by our writer, read back by our reader, then replayed:
the replay must end with the stacks the engine ended the hand with, and, where PokerKit can
replay the same text, with PokerKit's stacks too (PokerKit 0.7 raises KeyError on some stud
hands in its first-to-act look-up; those are skipped)."""

from __future__ import annotations

import random

import pytest

from controller.phh import HandHistory, loads
from controller.phh.notation import REQUIRED_STAKES, VARIANT_CODES, parse_action
from controller.phh.replay import check, play
from controller.phh.writer import dumps
from controller.poker.variants import phh_variant
from controller.rules.engine.hand import HouseSettings, Stakes
from tests.rules.test_clean_games import play_random

HANDS = 12


def phh_text(code: str, stakes: Stakes, stacks: list[int], actions: list[str]) -> str:
    """The hand as PHH, written by our writer with the stakes the variant code needs."""
    n = len(stacks)
    needed = REQUIRED_STAKES[code]
    blinds = list(stakes.blinds_or_straddles) + [0] * (n - len(stakes.blinds_or_straddles))
    return dumps(HandHistory(
        variant=code, ante_trimming_status=True, antes=tuple(stakes.antes) or (0,) * n,
        blinds_or_straddles=tuple(blinds) if "blinds_or_straddles" in needed else None,
        bring_in=stakes.bring_in if "bring_in" in needed else None,
        small_bet=stakes.small_bet if "small_bet" in needed else None,
        big_bet=stakes.big_bet if "big_bet" in needed else None,
        min_bet=stakes.min_bet if "min_bet" in needed else None,
        starting_stacks=tuple(stacks), actions=tuple(parse_action(a, n) for a in actions)))


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("code", VARIANT_CODES)
def test_random_hands_of_every_code(code: str) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    variant = phh_variant(code)
    codes: set[str] = set()
    done = with_pokerkit = 0
    for seed in range(HANDS * 3):
        if done >= HANDS:
            break
        n = random.Random(seed).randint(2, min(6, variant.max_players))
        game, actions, stakes = play_random(variant, n, seed, HouseSettings.phh(), muck_rate=0)
        if variant.forced == "antes_bring_in" and not stakes.bring_in:
            continue  # PHH stud games always have a bring-in
        text = phh_text(code, stakes, list(game.starting_stacks), actions)
        hand = loads(text, source=f"{code} seed {seed}")
        assert loads(dumps(hand)) == hand
        codes.update(a.code for a in hand.actions)
        ours = play(hand)
        assert list(ours) == list(game.stacks), hand.label
        recorded = loads(text + f"\nfinishing_stacks = {list(ours)}")
        assert check(recorded).status == "matched"
        done += 1
        try:
            *_, state = pokerkit.HandHistory.loads(text)
        except KeyError:
            continue
        assert list(state.stacks) == list(ours), hand.label
        with_pokerkit += 1
    assert done == HANDS and with_pokerkit >= HANDS // 2
    assert {"dh", "cc"} <= codes
    if code in ("F7S", "F7S/8", "FR"):
        assert "pb" in codes or "cbr" in codes
    if code in ("N2L1D", "F2L3D", "FB"):
        assert "sd" in codes
