"""Equity (controller/poker/equity.py) against an independent reference: PokerKit's hand classes
and its ``calculate_equities``, on random spots of every game both model, and hand-made spots
from the rulebooks for what PokerKit does not model (stud dead cards, Omaha/8 with no low, the
2-7 and razz rankings, badugi, the joker in draw high)."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from itertools import combinations

import pytest
from pokerkit import (
    BadugiHand,
    Card,
    Deck,
    EightOrBetterLowHand,
    Hand,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    RegularLowHand,
    StandardHighHand,
    StandardLowHand,
    calculate_equities,
)

from controller.poker.cards import FULL_DECK
from controller.poker.equity import EXACT_BUDGET, Equity, equity, parse_cards

P = parse_cards


def _pk(cards: Sequence[str]) -> list[Card]:
    return list(Card.parse("".join(cards)))


def _brute_holdem(hands: Sequence[Sequence[str]], board: Sequence[str]) -> list[tuple[int, int,
                                                                                      float]]:
    """(wins alone, ties, pot shares) of each hand over every run-out, valued by PokerKit."""
    used = {c for h in hands for c in h} | set(board)
    unseen = [c for c in FULL_DECK if c not in used]
    wins = [0] * len(hands)
    ties = [0] * len(hands)
    shares = [0.0] * len(hands)
    for extra in combinations(unseen, 5 - len(board)):
        full = _pk([*board, *extra])
        hs = [StandardHighHand.from_game(_pk(h), full) for h in hands]
        best = max(hs)
        winners = [i for i, h in enumerate(hs) if h == best]
        for i in winners:
            if len(winners) == 1:
                wins[i] += 1
            else:
                ties[i] += 1
            shares[i] += 1 / len(winners)
    return [(wins[i], ties[i], shares[i]) for i in range(len(hands))]


def _random_spot(rng: random.Random, players: int, hole: int, board: int,
                 deck: Sequence[str] = FULL_DECK) -> tuple[list[tuple[str, ...]], tuple[str, ...]]:
    cards = rng.sample(list(deck), players * hole + board)
    hands = [tuple(cards[i * hole:(i + 1) * hole]) for i in range(players)]
    return hands, tuple(cards[players * hole:])


# --- exact figures against a brute force --------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_holdem_turn_and_flop_spots_equal_a_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    hands, board = _random_spot(rng, 2 + seed % 2, 2, 3 + seed % 2)
    got = equity("nlhe", hands, board)
    assert got.method == "exact"
    brute = _brute_holdem(hands, board)
    for p, (w, t, s) in zip(got.players, brute, strict=True):
        assert p.win == pytest.approx(w / got.deals)
        assert p.tie == pytest.approx(t / got.deals)
        assert p.equity == pytest.approx(s / got.deals)
    assert got.deals == math.comb(52 - 2 * len(hands) - len(board), 5 - len(board))


@pytest.fixture(scope="module")
def aces_kings() -> Equity:
    return equity("nlhe", [P("AhAs"), P("KdKc")], exact=True)


def test_aces_against_kings_preflop_exact(aces_kings: Equity) -> None:
    """Every one of the C(48, 5) boards. The figures match PokerKit's Monte Carlo within its own
    error, and the sum of the outcomes is the whole of the boards."""
    got = aces_kings
    assert got.method == "exact" and got.deals == math.comb(48, 5) == 1712304
    aces, kings = got.players
    assert aces.tie == kings.tie
    assert round(aces.win * got.deals) + round(kings.win * got.deals) + round(
        aces.tie * got.deals) == got.deals
    # 81.06 % / 0.38 % for these suits (no suit in common; other suits give other figures,
    # as the kings' flushes change); PokerKit's sampling must agree within 4 of its sigmas
    assert aces.win == pytest.approx(0.8106, abs=5e-5)
    assert aces.tie == pytest.approx(0.0038, abs=5e-5)
    random.seed(7)
    n = 1500
    pk = calculate_equities([[_pk(P("AhAs"))], [_pk(P("KdKc"))]], [], 2, 5, Deck.STANDARD,
                            (StandardHighHand,), sample_count=n)
    sigma = math.sqrt(aces.equity * (1 - aces.equity) / n)
    assert abs(pk[0] - aces.equity) < 4 * sigma


def test_the_default_preflop_holdem_is_monte_carlo_within_its_error(aces_kings: Equity) -> None:
    exact = aces_kings
    mc = equity("nlhe", [P("AhAs"), P("KdKc")], seed=3)
    assert mc.method == "monte carlo" and mc.seed == 3 and 0 < mc.margin < 0.01
    for e, m in zip(exact.players, mc.players, strict=True):
        for a, b in ((e.win, m.win), (e.tie, m.tie), (e.equity, m.equity)):
            assert abs(a - b) <= mc.margin
    assert equity("nlhe", [P("AhAs"), P("KdKc")], seed=3) == mc  # deterministic given the seed


# --- differential against PokerKit, every game both model ---------------------------------------

_PK_GAMES: dict[str, tuple[tuple[type[Hand], ...], int, int]] = {
    # game: (PokerKit hand types, hole cards, board cards)
    "nlhe": ((StandardHighHand,), 2, 5),
    "omaha": ((OmahaHoldemHand,), 4, 5),
    "omaha8": ((OmahaHoldemHand, OmahaEightOrBetterLowHand), 4, 5),
    "stud": ((StandardHighHand,), 7, 0),
    "stud8": ((StandardHighHand, EightOrBetterLowHand), 7, 0),
    "razz": ((RegularLowHand,), 7, 0),
    "27_single": ((StandardLowHand,), 5, 0),
    "badugi": ((BadugiHand,), 4, 0),
}


@pytest.mark.parametrize("game", list(_PK_GAMES))
def test_complete_hands_equal_pokerkit(game: str) -> None:
    """Every card dealt: both are exact (one run-out), so the pot shares must be equal."""
    types, hole, board_n = _PK_GAMES[game]
    rng = random.Random(game)
    for _ in range(25):
        players = rng.randint(2, 4 if hole > 4 else 5)
        hands, board = _random_spot(rng, players, hole, board_n)
        got = equity(game, hands, board)
        assert got.method == "exact" and got.deals == 1
        pk = calculate_equities([[_pk(h)] for h in hands], _pk(board), hole, board_n,
                                Deck.STANDARD, types, sample_count=1)
        assert [p.equity for p in got.players] == pytest.approx(pk), (hands, board)


@pytest.mark.parametrize("game", ["nlhe", "omaha", "omaha8"])
def test_turn_spots_within_pokerkit_monte_carlo_error(game: str) -> None:
    """One card to come: our exact figure against PokerKit's sampling (4 of its sigmas)."""
    types, hole, _ = _PK_GAMES[game]
    rng = random.Random(f"turn {game}")
    random.seed(11)
    n = 400
    for _ in range(2):
        hands, board = _random_spot(rng, 2, hole, 4)
        got = equity(game, hands, board)
        assert got.method == "exact"
        pk = calculate_equities([[_pk(h)] for h in hands], _pk(board), hole, 5, Deck.STANDARD,
                                types, sample_count=n)
        for p, q in zip(got.players, pk, strict=True):
            sigma = math.sqrt(max(p.equity * (1 - p.equity), 1e-4) / n)
            assert abs(p.equity - q) <= 4 * sigma + 1e-9, (hands, board)


def test_stud_sixth_street_monte_carlo_within_its_stated_error() -> None:
    hands = [P("AsAd9c4h7s3s"), P("KsKd8h8c2d")]
    exact = equity("stud", hands, exact=True)
    mc = equity("stud", hands, exact=False, samples=3000, seed=5)
    for e, m in zip(exact.players, mc.players, strict=True):
        assert abs(e.equity - m.equity) <= mc.margin


# --- hand-made spots ----------------------------------------------------------------------------


def test_omaha8_with_no_qualifying_low_the_high_scoops() -> None:
    """RR Section 7 r.2: no low of eight or better, the best high takes the whole pot."""
    got = equity("omaha8", [P("AhKh2c3d"), P("QsQdJcTc")], P("4h5s9dKcQh"))
    low_hand, trips = got.players
    assert trips.win == trips.scoop == trips.equity == trips.high_win == 1.0
    assert low_hand.equity == 0.0 and low_hand.low_win == trips.low_win == 0.0
    assert low_hand.labels == ("One pair, kings, kickers A-Q-9", "No low")
    assert trips.labels[0] == "Straight, king high"  # J-T with K-Q-9


def test_omaha8_split_gives_each_half() -> None:
    got = equity("omaha8", [P("Ah2h3cKd"), P("KsKcQdJd")], P("4s5dKh9c8c"))
    low, high = got.players
    assert low.low_win == 1.0 and low.high_win == 0.0 and low.equity == 0.5
    assert high.high_win == 1.0 and high.win == 0.0 and high.tie == 1.0
    assert low.labels[1] == "Low: Eight-five low (8-5-4-2-A)"


def test_stud_dead_cards_change_the_outs() -> None:
    """A stud straight draw on sixth street: a six or an ace makes it. With every six and ace
    seen folded (dead), no card helps: 0 %; with them live, the exact count of the outs."""
    draw, kings = P("2c3d4h5s9cJd"), P("KsKdQc8h7dTh")
    live = equity("stud", [draw, kings])
    unseen = 52 - 12
    outs = 8  # four sixes and four aces (A-2-3-4-5 or 2-3-4-5-6): only a straight beats kings
    # each player's seventh card: the draw's first, the kings' from the rest
    assert live.players[0].win == pytest.approx(outs * (unseen - 1) / (unseen * (unseen - 1)))
    dead = equity("stud", [draw, kings], dead=P("6c6d6h6sAcAdAhAs"))
    assert dead.players[0].win == 0.0 and dead.players[1].win == 1.0
    assert dead.deals == 32 * 31


def test_razz_ranking() -> None:
    """RR Section 9: ace low, straights and flushes do not count; the wheel is the best hand and
    a pair is worse than any five different ranks."""
    got = equity("razz", [P("Ah2h3h4h5h9sKs"), P("Ac2c3c4c6cQdQs")])
    assert [p.win for p in got.players] == [1.0, 0.0]
    assert got.players[0].labels == ("Five-four low (5-4-3-2-A)",)
    paired = equity("razz", [P("AhAd2s2c3h3dKs"), P("9h8c7d6s5hKcQd")])
    assert [p.win for p in paired.players] == [0.0, 1.0]


def test_deuce_to_seven_ranking() -> None:
    """RR Section 11, Deuce-to-seven: the ace is high, straights and flushes count: A-5-4-3-2
    loses to 8-6-5-4-3, and 7-6-5-4-3 (a straight) to K-Q-J-T-8."""
    got = equity("27_single", [P("As5d4c3h2s"), P("8h6c5c4s3d")])
    assert [p.win for p in got.players] == [0.0, 1.0]
    assert got.players[1].labels == ("Eight-six low (8-6-5-4-3)",)
    straight = equity("27_triple", [P("7h6c5d4s3c"), P("KhQcJdTs8c")])
    assert [p.win for p in straight.players] == [0.0, 1.0]


def test_badugi_four_cards_beat_three() -> None:
    got = equity("badugi", [P("Kc Qd Jh Ts"), P("Ac2d3h3s")])
    assert [p.win for p in got.players] == [1.0, 0.0]
    assert got.players[0].labels == ("Four-card badugi, K-Q-J-T",)


def test_the_joker_makes_five_aces_in_draw_high() -> None:
    """RR Section 12, The Joker: the joker plays as an ace; five aces beat a straight flush."""
    got = equity("draw5_joker", [P("XxAsAhAdAc"), P("KhQhJhTh9h")])
    assert [p.win for p in got.players] == [1.0, 0.0]
    assert got.players[0].labels == ("Five aces",)


def test_a_short_draw_hand_draws_the_rest_and_says_so() -> None:
    """2-7 triple draw before the last draw: the player keeping 7-5-4 draws two from the
    unseen cards; every pair of them is counted."""
    got = equity("27_triple", [P("7h5d4c"), P("8s6c4d3h2c")])
    assert got.assumes_draws and got.method == "exact" and got.deals == math.comb(44, 2)


def test_labels_in_the_rulebooks_words() -> None:
    got = equity("nlhe", [P("KhKd"), P("AsQs")], P("7c7d2s"))
    assert got.players[0].labels == ("Two pair, kings and sevens, two kicker",)
    assert got.players[1].labels == ("One pair, sevens, kickers A-Q-2",)


def test_the_exact_budget_chooses_the_method() -> None:
    assert equity("nlhe", [P("AhAs"), P("KdKc")], P("2c3c4c")).method == "exact"
    assert equity("nlhe", [P("AhAs"), P("KdKc")], budget=EXACT_BUDGET // 10 ** 6).method \
        == "monte carlo"


@pytest.mark.parametrize(("game", "hands", "board", "dead", "message"), [
    ("nlhe", ["AhAs", "AhKd"], "", "", "Ah appears twice"),
    ("nlhe", ["AhAs", "Kd"], "", "", "hands are 2 hole cards"),
    ("nlhe", ["AhAs", "KdKc"], "2c3c", "", "board is 0, 3, 4, 5 cards"),
    ("stud", [c + "s" for c in "AKQJT987"], "", "2c2d2h2s", "too many hands"),
    ("stud", ["AhAsKsKd5c6c7c8c", "2c2d"], "", "", "hands are 1 to 7 cards"),
    ("short_deck", ["AhAs", "2c3c"], "", "", "not in the short deck"),
    ("nlhe", ["XxAs", "KdKc"], "", "", "not in the standard deck"),
    ("stud", ["AhAs", "KdKc"], "2c3c4c", "", "only the common card"),
    ("draw5", ["AhAs", "KdKc"], "2c", "", "has no board"),
    ("holdem", ["AhAs", "KdKc"], "", "", "unknown game"),
    ("nlhe", ["AhAs"], "", "", "at least two hands"),
])
def test_bad_input_is_one_clear_error(game: str, hands: list[str], board: str, dead: str,
                                      message: str) -> None:
    with pytest.raises(ValueError, match=message):
        equity(game, [P(h) for h in hands], P(board) if board else (),
               P(dead) if dead else ())


def _brute_no_board(game: str, ranking: str, hands: Sequence[Sequence[str]],
                    size: int) -> list[float]:
    """Pot shares over every way to complete each hand to ``size`` cards from the unseen
    cards, valued by ``strength`` on the card strings (the rankings' public face)."""
    from controller.poker.hands.rankings import strength

    used = {c for h in hands for c in h}
    unseen = [c for c in FULL_DECK if c not in used]
    shares = [0.0] * len(hands)
    runs = 0

    def deal(i: int, left: list[str], done: list[list[str]]) -> None:
        nonlocal runs
        if i == len(hands):
            runs += 1
            values = [strength(ranking, h) for h in done]
            best = max(v for v in values if v is not None)
            winners = [k for k, v in enumerate(values) if v == best]
            for k in winners:
                shares[k] += 1 / len(winners)
            return
        for extra in combinations(left, size - len(hands[i])):
            rest = [c for c in left if c not in extra]
            deal(i + 1, rest, [*done, [*hands[i], *extra]])

    deal(0, unseen, [])
    return [s / runs for s in shares]


@pytest.mark.parametrize(("game", "ranking", "hands", "size"), [
    ("razz", "ace_five_low", ["Ah2s3d9c8h7s", "4c5c6hKdQsJs"], 7),
    ("stud", "high", ["AhAs3d9c8h7s", "KcKd6hKs2s"], 7),
    ("27_single", "deuce_seven_low", ["7h5d4c2s", "8s6c4d3h2c"], 5),
    ("draw5", "high", ["AhAsAd", "KcKdKh7s2c"], 5),
])
def test_unknown_cards_equal_a_brute_force_on_strength(game: str, ranking: str,
                                                       hands: list[str], size: int) -> None:
    """Razz, stud, 2-7 and draw high with cards to come: the hot loop on card codes gives the
    figures of ``strength`` itself over every completion."""
    got = equity(game, [P(h) for h in hands])
    assert got.method == "exact"
    want = _brute_no_board(game, ranking, [P(h) for h in hands], size)
    assert [p.equity for p in got.players] == pytest.approx(want)
