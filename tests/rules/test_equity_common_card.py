"""The stud common card in equity (controller/poker/equity.py; RR Section 8 r.15): when the
deck cannot give every player a seventh card (eight players: 56 cards), the seventh is one
card face up in the centre that plays in everyone's hand. Hand-made spots against a brute force
over every common card and every card still to come, valued by ``strength``."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

import pytest

from controller.poker.cards import FULL_DECK
from controller.poker.equity import equity, parse_cards
from controller.poker.hands.rankings import strength

P = parse_cards


def _brute(rankings: Sequence[str], hands: Sequence[Sequence[str]],
           board: Sequence[str] = ()) -> list[float]:
    """Pot shares over every common card (or the one shown) and every way to bring each hand
    to six cards of its own; split pots as RR Section 10: half to the best high, half to the
    best qualifying low, the high scooping when no low qualifies."""
    used = {c for h in hands for c in h} | set(board)
    unseen = [c for c in FULL_DECK if c not in used]
    shares = [0.0] * len(hands)
    runs = 0

    def settle(done: list[list[str]], common: str) -> None:
        nonlocal runs
        runs += 1
        values = [[strength(r, [*h, common]) for h in done] for r in rankings]
        halves = [values[0]]
        if len(rankings) > 1 and any(x is not None for x in values[1]):
            halves.append(values[1])
        for vals in halves:
            best = max(x for x in vals if x is not None)
            winners = [i for i, x in enumerate(vals) if x == best]
            for i in winners:
                shares[i] += 1 / len(halves) / len(winners)

    def deal(i: int, left: list[str], done: list[list[str]], common: str) -> None:
        if i == len(hands):
            settle(done, common)
            return
        for extra in combinations(left, 6 - len(hands[i])):
            rest = [c for c in left if c not in extra]
            deal(i + 1, rest, [*done, [*hands[i], *extra]], common)

    for common in (board or unseen):
        deal(0, [c for c in unseen if c != common], [], common)
    return [s / runs for s in shares]


def _eight_hands(seed: int, short: int = 0) -> list[list[str]]:
    """Eight stud hands on sixth street, the last ``short`` of them with a card the table did
    not see."""
    deck = list(FULL_DECK)
    random.Random(seed).shuffle(deck)
    hands = [deck[i * 6:(i + 1) * 6] for i in range(8)]
    return [h[:5] if i >= 8 - short else h for i, h in enumerate(hands)]


@pytest.mark.parametrize(("game", "rankings", "seed", "short"), [
    ("stud", ("high",), 1, 0),
    ("stud", ("high",), 2, 2),
    ("razz", ("ace_five_low",), 3, 2),
    ("stud8", ("high", "low8"), 4, 2),
])
def test_eight_players_share_a_common_seventh(game: str, rankings: tuple[str, ...], seed: int,
                                              short: int) -> None:
    hands = _eight_hands(seed, short)
    got = equity(game, hands)
    assert got.method == "exact"
    # the common card, then one card each for the hands the table saw five of
    assert got.deals == 4 if not short else got.deals == 6 * 5 * 4
    assert [p.equity for p in got.players] == pytest.approx(_brute(rankings, hands))


def test_the_common_card_the_table_shows_plays_in_every_hand() -> None:
    hands = _eight_hands(5, 2)
    used = {c for h in hands for c in h}
    common = next(c for c in FULL_DECK if c not in used)
    got = equity("stud", hands, [common])
    assert got.method == "exact" and got.deals == 5 * 4
    assert [p.equity for p in got.players] == pytest.approx(_brute(("high",), hands, [common]))
    assert all(p.labels[0] for p in got.players[:6])  # six own cards and the common: a hand


def test_monte_carlo_with_the_common_card_within_its_error() -> None:
    hands = _eight_hands(6, 2)
    exact = equity("stud", hands, exact=True)
    mc = equity("stud", hands, exact=False, samples=3000, seed=1)
    for e, m in zip(exact.players, mc.players, strict=True):
        assert abs(e.equity - m.equity) <= 2 * mc.margin  # (the 95 % half-width: 4 sigmas)


def test_few_players_get_their_own_seventh() -> None:
    got = equity("stud", [P("AsAd9c4h7s3s"), P("KsKd8h8c2d2h")])
    assert got.deals == 40 * 39  # each its own seventh card


def test_a_stud_board_is_only_the_common_card() -> None:
    with pytest.raises(ValueError, match="board is only the common card"):
        equity("stud", _eight_hands(7), _unseen(_eight_hands(7), 2))


def _unseen(hands: Sequence[Sequence[str]], k: int) -> list[str]:
    used = {c for h in hands for c in h}
    return [c for c in FULL_DECK if c not in used][:k]


def test_a_seventh_own_card_with_the_common_card_is_one_clear_error() -> None:
    deck = list(FULL_DECK)
    random.Random(9).shuffle(deck)
    hands = [deck[:7], *(deck[7 + i * 6:13 + i * 6] for i in range(7))]
    with pytest.raises(ValueError, match="the seventh is the common card, so a Seven-card stud "
                                         "hand is at most 6 cards of its own; hand 1"):
        equity("stud", hands)
