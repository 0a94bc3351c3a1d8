"""Pineapple hands before their discard (controller/poker/equity.py): a hand of three hole
cards keeps the two that make the best final hand, in Pineapple (discard before the flop),
Crazy Pineapple (before the turn) and Lazy Pineapple (before the showdown). Every figure equals
a brute force over every run-out and every discard, valued by ``strength``."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

import pytest

from controller.poker.cards import FULL_DECK
from controller.poker.equity import _scorer, equity, parse_cards
from controller.poker.hands.evaluate import CARD_CODES
from controller.poker.hands.rankings import strength
from controller.poker.variants import VARIANTS

P = parse_cards


def _best(hand: Sequence[str], board: Sequence[str]) -> int:
    """The best final hand over every discard down to two (a two-card hand as it is)."""
    return max(strength("high", [*keep, *board])  # type: ignore[type-var]
               for keep in combinations(hand, 2))


def _brute(hands: Sequence[Sequence[str]], board: Sequence[str],
           dead: Sequence[str] = ()) -> list[tuple[float, float, float]]:
    used = {c for h in hands for c in h} | set(board) | set(dead)
    unseen = [c for c in FULL_DECK if c not in used]
    wins = [0] * len(hands)
    ties = [0] * len(hands)
    shares = [0.0] * len(hands)
    runs = 0
    for extra in combinations(unseen, 5 - len(board)):
        runs += 1
        values = [_best(h, [*board, *extra]) for h in hands]
        top = max(values)
        winners = [i for i, x in enumerate(values) if x == top]
        for i in winners:
            if len(winners) == 1:
                wins[i] += 1
            else:
                ties[i] += 1
            shares[i] += 1 / len(winners)
    return [(wins[i] / runs, ties[i] / runs, shares[i] / runs) for i in range(len(hands))]


@pytest.mark.parametrize(("game", "hands", "board", "dead"), [
    ("crazy_pineapple", ["AhKhQh", "2c2d7s"], "Jh5c9d", ""),
    ("crazy_pineapple", ["AhKdQc", "JsJd", "9h8h7c"], "Ts6h2c", ""),
    ("lazy_pineapple", ["AhKhQh", "2c2d7s", "9c9s8s"], "Jh5c9d8d", ""),
    # preflop: most of the deck dead, so that every board can be counted by the brute force
    ("pineapple", ["AhKhQh", "2c2d7s"], "",
     "3c3d3h3s4c4d4h4s5c5d5h5s6c6d6h6s8c8h9h9c9dTcTdTh"),
])
def test_the_best_discard_equals_a_brute_force(game: str, hands: list[str], board: str,
                                               dead: str) -> None:
    hs = [P(h) for h in hands]
    b = P(board) if board else ()
    d = P(dead) if dead else ()
    got = equity(game, hs, b, d)
    assert got.method == "exact" and got.assumes_discard
    for p, (w, t, s) in zip(got.players, _brute(hs, b, d), strict=True):
        assert p.win == pytest.approx(w)
        assert p.tie == pytest.approx(t)
        assert p.equity == pytest.approx(s)


def test_monte_carlo_of_the_best_discard_within_its_error() -> None:
    hands = [P("AhKhQh"), P("2c2d7s"), P("JsTs")]
    dead = P("3c3d3h3s4c4d4h4s5c5d5h5s6c6d6h6s8c8h9h9c")
    exact = equity("pineapple", hands, (), dead, exact=True)
    mc = equity("pineapple", hands, (), dead, exact=False, samples=3000, seed=8)
    assert mc.assumes_discard and mc.method == "monte carlo"
    for e, m in zip(exact.players, mc.players, strict=True):
        for a, b in ((e.win, m.win), (e.tie, m.tie), (e.equity, m.equity)):
            assert abs(a - b) <= 2 * mc.margin  # (the 95 % half-width: 4 sigmas)


def test_after_the_discard_nothing_is_assumed() -> None:
    got = equity("pineapple", [P("AhKh"), P("2c2d")], P("Jh5c9d"))
    assert not got.assumes_discard


def test_the_label_is_the_best_keep() -> None:
    """Two of the three play: the kings make quads with the board's seven as the kicker (any
    five of all six cards would have the ace kick)."""
    got = equity("crazy_pineapple", [P("AhKsKc"), P("QcQd2h")], P("KhKd7c"))
    assert got.players[0].labels == ("Four of a kind, kings, seven kicker",)
    assert got.players[1].labels == ("Two pair, kings and queens, seven kicker",)


def test_the_scorer_values_a_hand_before_its_discard_as_its_best_keep() -> None:
    """``_scorer`` (which controller/poker/outs.py uses) on random three-card hands."""
    encode, score, _ = _scorer(VARIANTS["crazy_pineapple"])
    rng = random.Random(3)
    for _ in range(300):
        cards = rng.sample(list(FULL_DECK), 8)
        hand, board = cards[:3], cards[3:]
        got = score([[encode(c) for c in hand]], [encode(c) for c in board])
        assert got == [(_best(hand, board),)]
        assert encode(hand[0]) == CARD_CODES[hand[0]]


@pytest.mark.parametrize(("game", "hands", "board", "message"), [
    ("pineapple", ["AhKhQh", "2c2d"], "Jh5c9d", "discarded to 2 by a board of 0"),
    ("crazy_pineapple", ["AhKhQh", "2c2d"], "Jh5c9d8d", "discarded to 2 by a board of 3"),
    ("pineapple", ["AhKhQhJh", "2c2d"], "", r"2 hole cards at the showdown \(3 before"),
    ("nlhe", ["AhKhQh", "2c2d"], "", "hands are 2 hole cards at the showdown; hand 1"),
])
def test_a_hand_that_should_have_been_discarded_is_one_clear_error(
        game: str, hands: list[str], board: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        equity(game, [P(h) for h in hands], P(board) if board else ())
