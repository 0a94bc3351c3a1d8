"""Export of every game the table deals: a simulated session (the simulated dealer's mistakes
on, so misdeals, dead hands and remedies occur) is played through the live rules core and
journalled, exported, replayed by our replay and read by PokerKit.

Our replay must match every clean hand and every void hand (``_outcome = "misdeal"``: every
chip back); PokerKit must read the export of every game it has a code for and replay the clean
hands to our finishing stacks. Hands with findings that our replay cannot follow yet are known
gaps (``KNOWN_GAPS``: the finding codes whose remedies PHH cannot express); each must carry one.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from controller.events import Event
from controller.journal import Journal
from controller.phh import HandHistory, loads_all
from controller.phh.export import export_file
from controller.phh.notation import VARIANT_CODES
from controller.phh.replay import check
from controller.phh.writer import dumps_all
from controller.rules.variants import VARIANTS, phh_code
from controller.sim import SimDealer, expand
from controller.sim.games import sim_seats

pokerkit = pytest.importorskip("pokerkit")

HANDS = 10

# Findings after which the table's hand cannot be written as a PHH hand our replay follows:
# a board card dealt early and put back (the board is reshuffled: PHH deals each card once),
# a burn missing or extra (the remedy moves cards between streets), a mucked hand retrieved,
# the draw's irregularities (a card exposed on the draw, a short hand before the draw) and the
# stud bring-in by the wrong seat (taken back: PHH has no take-back).
KNOWN_GAPS = frozenset({
    "TURN_PREMATURE", "FLOP_PREMATURE", "RIVER_PREMATURE", "BURN_MISSING_OR_EXTRA",
    "FLOP_BURN_ERROR", "MUCKED_HAND_RETRIEVAL", "DRAW_EXPOSED_ON_DRAW",
    "DRAW_SHORT_HAND_PREDRAW", "HOLECARD_EXPOSED_SINGLE_REPLACE", "STUD_WRONG_BRING_IN",
    "DRAW_AFTER_HAND_END",
})


def _journal(tmp_path: Path, game: str, seed: int, hands: int, rate: float) -> Path:
    _, most = sim_seats(game)
    dealer = SimDealer(random.Random(seed), seats=min(4, most), mistake_rate=rate, game=game)
    path = tmp_path / f"{game}.sqlite"
    seq = 0
    with Journal(path) as journal:
        for _ in range(hands):
            for step in dealer.next_hand():
                for body in expand(step):
                    seq += 1
                    journal.append(Event(seq, 1_700_000_000_000 + seq, body))
    return path


def _clean(hand: HandHistory) -> bool:
    return hand.user["_outcome"] == "complete" and not hand.user["_findings"]


def _split(hand: HandHistory) -> bool:
    return any(len(pot["winners"]) > 1 for pot in hand.user.get("_pots", []))


# Not done yet (issue 11): draw high's pass and out carries the antes to the next deal, which
# PHH cannot say, and its first to act after the draw is the opener (RR Section 12).
DRAW_HIGH = ("draw5", "draw5_jacks", "draw5_joker")
# Not done yet (issue 11): PokerKit 0.7 does not accept our draw rounds ("Unable to repair the
# hand history"), though our replay does.
POKERKIT_DRAW = ("27_single", "27_triple", "badugi")


def _games() -> list[object]:
    return [pytest.param(g, marks=pytest.mark.xfail(strict=True, reason="draw high: not done"))
            if g in DRAW_HIGH else g for g in VARIANTS]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("game", _games())
def test_every_game_exports_replays_and_reads_in_pokerkit(tmp_path: Path, game: str) -> None:
    exported = export_file(_journal(tmp_path, game, 1, HANDS, 0.3))
    assert len(exported) == HANDS
    code = phh_code(VARIANTS[game])
    assert {h.variant for h in exported} == {code}
    assert all(h.user["_game"] == game for h in exported)
    text = dumps_all(exported)
    assert loads_all(text) == exported  # our reader reads our export back exactly
    unmatched = []
    for hand in exported:
        result = check(hand)
        if hand.user["_outcome"] == "misdeal":
            assert hand.finishing_stacks == hand.starting_stacks, hand.label
        if result.status == "matched":
            continue
        codes = {f["code"] for f in hand.user["_findings"]}
        open_pair = VARIANTS[game].open_pair_option and "WRONG_AMOUNT" in result.message
        # stud's open pair on fourth street allows the big bet (RR Section 8 r.7); PHH's
        # replay (PokerKit's conventions) has no such option: a known gap too
        assert codes & KNOWN_GAPS or open_pair, (result.line(), sorted(codes))
        unmatched.append(hand.label)
    assert len(unmatched) <= HANDS // 4, unmatched
    if code not in VARIANT_CODES:
        assert code == f"x:{game}/{VARIANTS[game].structure}"
        return
    read = list(pokerkit.HandHistory.loads_all(text))
    assert [r.user_defined_fields["_outcome"] for r in read] == [
        h.user["_outcome"] for h in exported]
    if game in POKERKIT_DRAW:
        return
    clean = [h for h in exported if _clean(h) and not _split(h)]
    matched = 0
    for hand, theirs in zip(clean, pokerkit.HandHistory.loads_all(dumps_all(clean)),
                            strict=True):
        try:
            *_, state = theirs
        except KeyError:
            # PokerKit 0.7's stud first-to-act look-up (as in test_all_variants.py)
            assert VARIANTS[game].forced == "antes_bring_in", hand.label
            continue
        assert list(state.stacks) == list(hand.finishing_stacks or ()), hand.label
        matched += 1
    assert matched >= 1
