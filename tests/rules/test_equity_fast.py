"""The equity hot loops' fast paths (controller/poker/equity.py) against the one implementation
of each ranking: Omaha's two-and-three on precomputed sums equals ``omaha_strength`` on
thousands of random hands, Omaha's run-out loop equals a brute force over every run-out valued
by ``omaha_strength``, and the Monte Carlo sampler draws uniformly."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import pytest

from controller.poker.cards import FULL_DECK
from controller.poker.equity import _draws, _omaha_values, equity, parse_cards
from controller.poker.hands.evaluate import CARD_CODES
from controller.poker.hands.rankings import omaha_strength

P = parse_cards


def _decks(rng: random.Random) -> list[str]:
    """The full deck, or a thin one (two suits, or the low ranks) where flushes and lows come
    often enough to test them."""
    kind = rng.randrange(3)
    if kind == 0:
        return list(FULL_DECK)
    if kind == 1:
        suits = rng.sample("cdhs", 2)
        return [c for c in FULL_DECK if c[1] in suits]
    return [c for c in FULL_DECK if c[0] in "A2345678T"]


@pytest.mark.parametrize("hole", [4, 5])
def test_omaha_two_and_three_on_sums_equal_omaha_strength(hole: int) -> None:
    """6 000 random hands per hole size, boards of 3, 4 and 5 cards: the high is
    ``omaha_strength("high")`` itself; the low is None exactly when it is, and otherwise differs
    from it by one constant (the two only flip the badness differently), so it orders hands the
    same."""
    rng = random.Random(f"omaha {hole}")
    offsets = set()
    lows = flushes = 0
    for k in range(6000):
        deck = _decks(rng)
        cards = rng.sample(deck, hole + 3 + k % 3)
        hand, board = cards[:hole], cards[hole:]
        codes = [CARD_CODES[c] for c in hand]
        got = _omaha_values(codes, [CARD_CODES[c] for c in board], True)
        high = omaha_strength("high", hand, board)
        low = omaha_strength("low8", hand, board)
        assert got[0] == high, (hand, board)
        assert (got[1] is None) == (low is None), (hand, board)
        if low is not None and got[1] is not None:
            offsets.add(low - got[1])
            lows += 1
        flushes += high >> 20 in (5, 8)
    assert len(offsets) == 1
    assert lows > 500 and flushes > 200  # (the thin decks reach both)


def _brute_omaha(game: str, hands: Sequence[Sequence[str]],
                 board: Sequence[str]) -> list[tuple[float, float, float]]:
    """(win alone, tie, pot share) of each hand over every run-out, valued by omaha_strength."""
    split = game == "omaha8"
    used = {c for h in hands for c in h} | set(board)
    unseen = [c for c in FULL_DECK if c not in used]
    wins = [0] * len(hands)
    ties = [0] * len(hands)
    shares = [0.0] * len(hands)
    runs = 0
    for extra in combinations(unseen, 5 - len(board)):
        runs += 1
        full = [*board, *extra]
        highs = [omaha_strength("high", h, full) for h in hands]
        got = [0.0] * len(hands)
        lows = [omaha_strength("low8", h, full) for h in hands] if split else []
        best_low = max((x for x in lows if x is not None), default=None)
        pot = 0.5 if best_low is not None else 1.0
        top = max(highs)
        winners = [i for i, x in enumerate(highs) if x == top]
        for i in winners:
            got[i] += pot / len(winners)
        if best_low is not None:
            low_winners = [i for i, x in enumerate(lows) if x == best_low]
            for i in low_winners:
                got[i] += 0.5 / len(low_winners)
        for i, g in enumerate(got):
            if g == 1.0:
                wins[i] += 1
            elif g:
                ties[i] += 1
            shares[i] += g
    return [(wins[i] / runs, ties[i] / runs, shares[i] / runs) for i in range(len(hands))]


@pytest.mark.parametrize(("game", "hole", "seed"), [
    ("omaha", 4, 0), ("omaha", 4, 1), ("omaha8", 4, 0), ("omaha8", 4, 1), ("omaha8", 4, 2),
    ("omaha5", 5, 0),
])
def test_omaha_run_outs_equal_a_brute_force_on_omaha_strength(game: str, hole: int,
                                                              seed: int) -> None:
    """Flop spots (every turn and river) of two or three hands: the loop that keeps what a
    board's ranks decide and adds the flushes per run-out gives omaha_strength's figures."""
    rng = random.Random(f"{game} {seed}")
    deck = list(FULL_DECK) if seed % 2 else [c for c in FULL_DECK if c[0] in "A2345678TK"]
    players = 2 + seed % 2
    cards = rng.sample(deck, players * hole + 3)
    hands = [cards[i * hole:(i + 1) * hole] for i in range(players)]
    board = cards[players * hole:]
    got = equity(game, hands, board)
    assert got.method == "exact"
    for p, (w, t, s) in zip(got.players, _brute_omaha(game, hands, board), strict=True):
        assert p.win == pytest.approx(w)
        assert p.tie == pytest.approx(t)
        assert p.equity == pytest.approx(s)


def test_omaha8_monte_carlo_within_its_stated_error_of_the_exact_figure() -> None:
    hands = [P("Ah2h3cKd"), P("KsKcQdJd"), P("9s8s7c6c")]
    board = P("4h5hTc")
    exact = equity("omaha8", hands, board)
    mc = equity("omaha8", hands, board, exact=False, samples=4000, seed=9)
    assert exact.method == "exact" and mc.method == "monte carlo"
    for e, m in zip(exact.players, mc.players, strict=True):
        for a, b in ((e.win, m.win), (e.tie, m.tie), (e.equity, m.equity),
                     (e.low_win, m.low_win), (e.high_win, m.high_win)):
            assert a is not None and b is not None
            assert abs(a - b) <= 2 * mc.margin  # (the 95 % half-width: 4 sigmas)


def test_the_sampler_draws_every_pair_alike() -> None:
    """45 pairs of 10 cards, 45 000 draws: each pair's count within 5 sigmas of 1 000, every
    draw two distinct cards, the same draws for the same seed."""
    pool = list(range(10))
    draws = list(_draws(pool, 2, 45_000, random.Random(4)))
    assert all(len(set(d)) == 2 for d in draws)
    counts = Counter(frozenset(d) for d in draws)
    assert len(counts) == 45
    sigma = math.sqrt(1000 * (1 - 1 / 45))
    assert all(abs(n - 1000) < 5 * sigma for n in counts.values())
    assert list(_draws(pool, 2, 50, random.Random(4))) == draws[:50]


@pytest.mark.parametrize(("game", "hands"), [
    ("stud8", ["Ah2s3d9c8h7s", "KcKd6h5h4s"]),
    ("razz", ["Ah2s3d9c8h", "4c5c6hKdQs7s"]),
    ("27_single", ["7h5d4c2s", "8s6c4d3h2c"]),
    ("stud", ["AsAd9c4h7s3s", "KsKd8h8c2d"]),
])
def test_summed_monte_carlo_within_its_stated_error_of_the_exact_figure(
        game: str, hands: list[str]) -> None:
    """The Monte Carlo loop of the games on summed codes (the cards still to come drawn for
    each player, the known sums added once) against the exact enumeration."""
    exact = equity(game, [P(h) for h in hands], exact=True)
    mc = equity(game, [P(h) for h in hands], exact=False, samples=3000, seed=2)
    for e, m in zip(exact.players, mc.players, strict=True):
        assert abs(e.equity - m.equity) <= 2 * mc.margin  # (the 95 % half-width: 4 sigmas)
        assert abs(e.win - m.win) <= 2 * mc.margin  # (the 95 % half-width: 4 sigmas)
        if game == "stud8":
            assert e.low_win is not None and m.low_win is not None
            assert abs(e.low_win - m.low_win) <= 2 * mc.margin  # (the 95 % half-width: 4 sigmas)


@pytest.mark.parametrize(("trips", "flush"), [(False, False), (True, True), (True, False)])
def test_short_deck_on_a_code_sum_equals_strength(trips: bool, flush: bool) -> None:
    """``short_deck_of_code`` (the equity loops' short deck) against ``strength`` on 3 000 random
    hands of 5 to 7 cards of the 36-card deck, at each house setting."""
    from controller.poker.hands.rankings import short_deck_of_code, strength

    deck = [c for c in FULL_DECK if c[0] in "6789TJQKA"]
    rng = random.Random(f"short {trips} {flush}")
    for k in range(3000):
        cards = rng.sample(deck, 5 + k % 3)
        assert short_deck_of_code(sum(CARD_CODES[c] for c in cards), trips_beat_straight=trips,
                                  flush_beats_full_house=flush) == strength(
            "short_deck", cards, trips_beat_straight=trips, flush_beats_full_house=flush)


def _brute_board(game: str, ranking: str, hands: Sequence[Sequence[str]],
                 board: Sequence[str], deck: Sequence[str]) -> list[float]:
    from controller.poker.hands.rankings import strength

    used = {c for h in hands for c in h} | set(board)
    unseen = [c for c in deck if c not in used]
    shares = [0.0] * len(hands)
    runs = 0
    for extra in combinations(unseen, 5 - len(board)):
        runs += 1
        values = [strength(ranking, [*h, *board, *extra]) for h in hands]
        best = max(x for x in values if x is not None)
        winners = [i for i, x in enumerate(values) if x == best]
        for i in winners:
            shares[i] += 1 / len(winners)
    return [s / runs for s in shares]


def test_short_deck_run_outs_equal_a_brute_force_on_strength() -> None:
    deck = [c for c in FULL_DECK if c[0] in "6789TJQKA"]
    hands, board = [P("AhKh"), P("9c9d"), P("7s8s")], P("6h9hTs")
    got = equity("short_deck", hands, board)
    assert got.method == "exact"
    want = _brute_board("short_deck", "short_deck", hands, board, deck)
    assert [p.equity for p in got.players] == pytest.approx(want)


@pytest.mark.parametrize(("game", "hands"), [
    ("27_single", ["7h5d4c", "8s6c4d3h2c"]),
    ("badugi", ["Ac2d3h", "Kc7h5s4d"]),
    ("a5_lowball", ["Ah2s3dXx", "4c5c6h7d8d"]),
    ("draw5_joker", ["AhAsXx", "KcKdKh7s2c"]),
    ("short_deck", ["AhAs", "KdKc"]),
])
def test_draw_and_short_deck_monte_carlo_within_its_stated_error(game: str,
                                                                  hands: list[str]) -> None:
    """The summed loop (2-7 of five cards, short deck) and ``strength`` kept by card set (badugi,
    the joker games) against the exact enumeration."""
    hs = [P(h) for h in hands]
    board = P("6h9hTs") if game == "short_deck" else ()
    exact = equity(game, hs, board, exact=True)
    mc = equity(game, hs, board, exact=False, samples=3000, seed=4)
    for e, m in zip(exact.players, mc.players, strict=True):
        assert abs(e.equity - m.equity) <= 2 * mc.margin  # (the 95 % half-width: 4 sigmas)
        assert abs(e.win - m.win) <= 2 * mc.margin  # (the 95 % half-width: 4 sigmas)
