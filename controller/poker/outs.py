"""Outs with one card to come: for each player, the cards that would give them more of the pot.

A broadcast says "nine outs" on the turn: the unseen cards with which a player behind would take
the pot, or a part of it, on the river. Here, in every board game with exactly one board card
still to come (hold'em and short deck on the turn, Omaha and Omaha/8 on the turn, the Pineapples
after the discard), each unseen card is dealt as the last board card and the pot is shared as at
the showdown (``equity._outcome``: the best hand; in a split game half to the best high and
half to the best qualifying low, RR Section 7 r.2). A player's out is a card after which their
share is larger than the share the hands make now, on the board as it lies. The player taking
the whole pot now has no outs to count (None): they are the one the others need to pass.

Stud and draw games have no shared card to come, so no one card changes every hand at once:
``outs`` is None there (and on any other street).

Pure, exact and small: at most 48 unseen cards, one valuation per hand for each.
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.poker.equity import _check_inputs, _outcome, _scorer
from controller.poker.variants import VARIANTS, family


def _shares(values: Sequence[tuple[int | None, ...]], split: bool) -> list[float]:
    high, low = _outcome(values, split)
    got = [0.0] * len(values)
    pot_high = 0.5 if low else 1.0
    for i in high:
        got[i] += pot_high / len(high)
    for i in low:
        got[i] += 0.5 / len(low)
    return got


def outs(game: str, hands: Sequence[Sequence[str]], board: Sequence[str],
         dead: Sequence[str] = ()) -> tuple[int | None, ...] | None:
    """Each player's outs with one board card to come, or None when the spot is not one (not a
    board game, or not exactly one board card to come). A player taking the whole pot now: None.
    ValueError, one line, for inputs ``equity`` refuses."""
    v = VARIANTS.get(game)
    if v is None:
        raise ValueError(f"unknown game {game!r}; one of {', '.join(VARIANTS)}")
    hands = [tuple(h) for h in hands]
    _check_inputs(v, hands, tuple(board), tuple(dead))
    if family(v) != "board" or v.board_cards - len(board) != 1:
        return None
    if any(len(h) != v.hole_cards for h in hands):
        return None  # a Pineapple hand before its discard: which two it keeps is a choice
    encode, score, _ = _scorer(v)
    known = {c for h in hands for c in h} | set(board) | set(dead)
    players = [[encode(c) for c in h] for h in hands]
    now_board = [encode(c) for c in board]
    now = _shares(score(players, now_board), v.split)
    counts = [0] * len(hands)
    for card in v.deck_cards:
        if card in known:
            continue
        after = _shares(score(players, [*now_board, encode(card)]), v.split)
        for i, share in enumerate(after):
            if share > now[i]:
                counts[i] += 1
    return tuple(None if now[i] == 1.0 else counts[i] for i in range(len(hands)))


__all__ = ["outs"]
