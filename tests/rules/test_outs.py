"""Outs with one board card to come (controller/poker/outs.py), and the broadcast's figure of a
spot (controller/poker/odds.py): hand-made spots a floor person can check, and random hold'em
and Omaha/8 turns against a count made another way (each river dealt, the pot shared by the
rankings' own ``strength``)."""

from __future__ import annotations

import random

import pytest

from controller.poker.hands.rankings import omaha_strength, strength
from controller.poker.odds import Spot, figure
from controller.poker.outs import outs
from controller.poker.variants import VARIANTS


def test_a_flush_and_overcards_draw_has_fifteen_outs_against_queens() -> None:
    # AhKh on 2h 7h 9c 4s: nine hearts, three aces and three kings beat the queens
    assert outs("nlhe", [("Ah", "Kh"), ("Qs", "Qd")], ("2h", "7h", "9c", "4s")) == (15, None)


def test_a_dead_card_is_not_an_out() -> None:
    got = outs("nlhe", [("Ah", "Kh"), ("Qs", "Qd")], ("2h", "7h", "9c", "4s"),
               dead=("3h", "Ac"))
    assert got == (13, None)


def test_omaha8_counts_only_the_cards_that_win_a_share() -> None:
    # KcKd makes kings full of nothing yet: trip kings with Ks on the board. The queens-jacks
    # need a ten for the king-high straight, and a ten of hearts gives Ah2h the flush: 3 outs.
    # No low is possible for anyone with one card to come (two low board cards).
    got = outs("omaha8", [("Ah", "2h", "Kc", "Kd"), ("Qs", "Qd", "Js", "Jd")],
               ("3h", "7h", "9c", "Ks"))
    assert got == (None, 3)


def test_outs_only_with_exactly_one_board_card_to_come() -> None:
    assert outs("nlhe", [("Ah", "Kh"), ("Qs", "Qd")], ("2h", "7h", "9c")) is None
    assert outs("nlhe", [("Ah", "Kh"), ("Qs", "Qd")], ("2h", "7h", "9c", "4s", "5s")) is None
    assert outs("stud", [("Ah", "Kh", "Qh", "Jh", "2c", "3c"),
                         ("As", "Ks", "Qs", "Js", "2d", "3d")], ()) is None


def test_bad_input_is_one_line() -> None:
    with pytest.raises(ValueError, match="appears twice"):
        outs("nlhe", [("Ah", "Kh"), ("Ah", "Qd")], ("2h", "7h", "9c", "4s"))
    with pytest.raises(ValueError, match="unknown game"):
        outs("texas", [("Ah", "Kh"), ("Qs", "Qd")], ())


def _shares(game: str, hands: list[tuple[str, ...]], board: list[str]) -> list[float]:
    """The pot's shares by the rankings' own ``strength`` (another way than outs.py's)."""
    v = VARIANTS[game]
    values = [[(omaha_strength(r, h, board) if v.hand == "omaha" else strength(r, [*h, *board]))
               for r in v.rankings] for h in hands]
    got = [0.0] * len(hands)
    high = [x[0] for x in values]
    best = max(high)  # type: ignore[type-var]
    winners = [i for i, x in enumerate(high) if x == best]
    lows = [x[1] for x in values] if v.split else []
    qualified = [x for x in lows if x is not None]
    pot = 0.5 if qualified else 1.0
    for i in winners:
        got[i] += pot / len(winners)
    if qualified:
        low_best = max(qualified)  # type: ignore[type-var]
        low_winners = [i for i, x in enumerate(lows) if x == low_best]
        for i in low_winners:
            got[i] += 0.5 / len(low_winners)
    return got


@pytest.mark.parametrize("game,hole", [("nlhe", 2), ("omaha8", 4)])
def test_random_turns_equal_a_count_made_another_way(game: str, hole: int) -> None:
    rng = random.Random(30)
    deck = list(VARIANTS[game].deck_cards)
    for _ in range(25):
        cards = rng.sample(deck, 3 * hole + 4)
        hands = [tuple(cards[i * hole:(i + 1) * hole]) for i in range(3)]
        board = cards[3 * hole:]
        now = _shares(game, hands, board)
        want: list[int | None] = [0, 0, 0]
        for c in deck:
            if c in cards:
                continue
            after = _shares(game, hands, [*board, c])
            for i in range(3):
                if after[i] > now[i]:
                    want[i] += 1  # type: ignore[operator]
        want = [None if now[i] == 1.0 else want[i] for i in range(3)]
        assert outs(game, hands, board) == tuple(want), (hands, board)


def test_the_quick_figure_is_monte_carlo_where_exact_does_not_fit_then_the_fine_one() -> None:
    spot = Spot("omaha8", (1, 2, 3), (("Ah", "2h", "3c", "Kd"), ("Ks", "Kc", "Qd", "Jd"),
                                       ("9s", "8s", "7d", "6d")), (), ())
    quick, final = figure(spot, first=True)
    assert quick["method"] == "monte carlo" and not final and not quick["final"]
    fine, final = figure(spot, first=False)
    assert final and fine["final"] and fine["deals"] > quick["deals"]
    assert fine["margin"] < quick["margin"] and fine["shown"] is (fine["margin"] < 0.01)
    assert [row["seat"] for row in fine["seats"]] == [1, 2, 3]
    assert all({"high", "low"} <= set(row) for row in fine["seats"])
    # a turn is exact at once, with its outs
    turn = Spot("nlhe", (4, 7), (("Ah", "Kh"), ("Qs", "Qd")), ("2h", "7h", "9c", "4s"), ())
    got, final = figure(turn, first=True)
    assert final and got["method"] == "exact" and got["shown"]
    assert [row["outs"] for row in got["seats"]] == [15, None]
    assert got["seats"][1]["labels"] == ["One pair, queens, kickers 9-7-4"]


def test_a_draw_still_to_come_is_said() -> None:
    spot = Spot("27_triple", (1, 2), (("7h", "5d", "4c"), ("8s", "6c", "4d", "3h", "2c")),
                (), (), draws_to_come=True)
    got, _ = figure(spot, first=False)
    assert got["assumes_draws"] is True
    assert abs(sum(row["equity"] for row in got["seats"]) - 1.0) < 1e-9


def test_feltguard_equity_gives_the_outs_with_one_card_to_come() -> None:
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parent.parent.parent
    run = subprocess.run([sys.executable, "-m", "controller.cli", "equity", "nlhe", "AhKh",
                          "QsQd", "--board", "2h7h9c4s", "--dead", "3h"], capture_output=True,
                         text=True, timeout=120, check=False,
                         env={**os.environ, "PYTHONPATH": str(repo)})
    assert run.returncode == 0, run.stderr
    ace_king = next(line for line in run.stdout.splitlines() if line.startswith("AhKh"))
    assert ace_king.endswith("; 14 outs")
    queens = next(line for line in run.stdout.splitlines() if line.startswith("QsQd"))
    assert "outs" not in queens
    run = subprocess.run([sys.executable, "-m", "controller.cli", "equity", "nlhe", "AhKh",
                          "QsQd", "--board", "2h7h9c4s", "--json"], capture_output=True,
                         text=True, timeout=120, check=False,
                         env={**os.environ, "PYTHONPATH": str(repo)})
    assert [p["outs"] for p in json.loads(run.stdout)["players"]] == [15, None]
