"""The odds worker's order of work (controller/daemon/odds_worker.py ``_serve``), run on queues in
a thread with a clock the test controls: the newest spot first, a quick figure, then the fine
one in pieces; a refused spot said, never fatal. Then the pieces pooled (``merge``) against one
figure of as many run-outs."""

from __future__ import annotations

import queue
import threading
from typing import Any

import pytest

from controller.daemon import odds_worker
from controller.poker.equity import DEFAULT_SAMPLES, equity
from controller.poker.odds import CHUNK, Spot, chunk, merge

OMAHA8 = Spot("omaha8", (1, 2, 3), (("Ah", "2h", "3c", "Kd"), ("Ks", "Kc", "Qd", "Jd"),
                                    ("9s", "8s", "7d", "6d")), (), ())
TURN = Spot("nlhe", (4, 7), (("Ah", "Kh"), ("Qs", "Qd")), ("2h", "7h", "9c", "4s"), ())
STUD = Spot("stud", (1, 2), (("Ah", "As", "Kd"), ("Qc", "Qd", "7s")), (), ("2c",))
BAD = Spot("nlhe", (1, 2), (("Ah", "Kh"), ("Ah", "Qd")), (), ())


class Ticks:
    """A clock that moves a fixed step each time it is read: the quick figure gets a known
    number of pieces whatever the machine's speed."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _settled(spots: list[Spot]) -> Any:
    """Done when every spot has a final figure or was refused."""
    def done(got: list[tuple[Spot, Any, str]]) -> bool:
        over = {spot for spot, out, _ in got if out is None or out["final"]}
        return over >= set(spots)
    return done


def _serve(spots: list[Spot], until: Any) -> list[tuple[Spot, Any, str]]:
    requests: queue.Queue[Any] = queue.Queue()
    results: queue.Queue[Any] = queue.Queue()
    for spot in spots:
        requests.put(spot)
    # the quick figure: a deadline 0.15 s on, the clock 0.05 s later at each read
    child = threading.Thread(target=odds_worker._serve,
                             args=(requests, results, 0.15, Ticks(0.05)), daemon=True)
    child.start()
    got: list[tuple[Spot, Any, str]] = []
    while not until(got):
        got.append(results.get(timeout=120))
    requests.put(None)
    child.join(60)
    assert not child.is_alive()
    while not results.empty():
        got.append(results.get())
    return got


@pytest.fixture(autouse=True)
def _no_priority_change(monkeypatch: pytest.MonkeyPatch) -> None:
    # the child's SCHED_IDLE is for its own process; here it would be pytest's thread
    monkeypatch.setattr(odds_worker, "_lowest_priority", lambda: None)


def test_newest_first_quick_figures_then_the_fine_one() -> None:
    got = _serve([OMAHA8, STUD, TURN], until=_settled([OMAHA8, STUD, TURN]))
    order = [spot for spot, _, _ in got]
    # the newest (the turn: exact at once, final), then the stud, then Omaha/8: quick ones
    assert order[:3] == [TURN, STUD, OMAHA8]
    assert got[0][1]["final"] and got[0][1]["method"] == "exact"
    assert [row["outs"] for row in got[0][1]["seats"]] == [15, None]
    quick = next(out for spot, out, _ in got if spot == OMAHA8)
    assert quick["method"] == "monte carlo" and not quick["final"]
    assert quick["deals"] == 3 * CHUNK  # the deadline is 3 clock reads after the start
    # then, with nothing new, the fine figures: each final with DEFAULT_SAMPLES run-outs (or
    # exact), one of them maybe first sent when it became fine enough for the screen
    finals = {spot: out for spot, out, _ in got if out["final"]}
    assert set(finals) == {TURN, STUD, OMAHA8}
    for spot, out in finals.items():
        assert out["method"] == "exact" or out["deals"] >= DEFAULT_SAMPLES, spot


def test_the_fine_figures_are_made_while_nothing_new_comes() -> None:
    got = _serve([OMAHA8], until=_settled([OMAHA8]))
    assert [out["final"] for _, out, _ in got][:1] == [False]
    fine = [out for _, out, _ in got if out["final"]]
    assert fine, got
    assert fine[-1]["deals"] >= DEFAULT_SAMPLES and fine[-1]["margin"] < 0.01
    assert fine[-1]["shown"]


def test_a_refused_spot_is_said_and_the_rest_go_on() -> None:
    got = _serve([TURN, BAD], until=_settled([TURN, BAD]))
    bad = next(item for item in got if item[0] == BAD)
    assert bad[1] is None and "appears twice" in bad[2]
    assert any(spot == TURN and out and out["final"] for spot, out, _ in got)


def test_pieces_pooled_equal_one_figure_of_as_many_run_outs_within_its_error() -> None:
    pooled = chunk(OMAHA8, 1)
    for k in range(2, 9):
        pooled = merge(pooled, chunk(OMAHA8, k))
    assert pooled.deals == 8 * CHUNK
    whole = equity(OMAHA8.game, OMAHA8.hands, samples=40_000, seed=11)
    for a, b in zip(pooled.players, whole.players, strict=True):
        assert abs(a.equity - b.equity) < pooled.margin + whole.margin
        assert abs(a.win - b.win) < pooled.margin + whole.margin
        assert a.labels == b.labels and a.cards == b.cards
    # each pooled figure is the run-out-weighted mean of its pieces
    first, second = chunk(OMAHA8, 1), chunk(OMAHA8, 2)
    both = merge(first, second)
    assert both.players[0].win == pytest.approx((first.players[0].win + second.players[0].win) / 2)
    assert both.margin < first.margin


def test_a_spot_exact_within_the_fine_budget_only_ends_exact() -> None:
    """Heads-up hold'em before the flop with ten cards dead: 501,942 boards, too many for the
    quick figure (Monte Carlo pieces), few enough for the fine one, which is then exact."""
    spot = Spot("nlhe", (1, 2), (("Ah", "Kh"), ("Qs", "Qd")), (),
                ("2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "Tc", "Jc"))
    got = _serve([spot], until=_settled([spot]))
    assert got[0][1]["method"] == "monte carlo" and not got[0][1]["final"]
    final = got[-1][1]
    assert final["final"] and final["method"] == "exact" and final["deals"] == 501_942
    exact = equity(spot.game, spot.hands, spot.board, spot.dead, exact=True)
    assert [row["win"] for row in final["seats"]] == [p.win for p in exact.players]
