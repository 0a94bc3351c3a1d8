"""The surveillance review's data (controller/surveillance/review.py): the hand index and its
search, one hand stepped through, the findings' statuses (open, remedied, ruled), the exports, and
the cost of keeping the index of a growing journal."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from controller.events import read_scenario
from controller.guard import guarded_apply
from controller.journal import read_events
from controller.phh.export import export_file
from controller.phh.writer import dumps
from controller.rules import initial_state
from controller.surveillance.review import (
    OPEN,
    REMEDIED,
    RULED,
    Query,
    QueryError,
    Review,
    ReviewError,
    ReviewProcess,
    build_index,
    parse_query,
    search,
)
from tests.controller.review_journal import PREMATURE_HAND, STEP_MS, T0, simulated_journal

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("review") / "table.sqlite"
    simulated_journal(path)
    return path


@pytest.fixture(scope="module")
def review(journal: Path) -> Review:
    return Review(journal)


def _premature(review: Review) -> int:
    total, hands = search(review.refresh().hands, Query(code="FLOP_PREMATURE"))
    assert total == 1
    return hands[0].number


# --- the index and its search -----------------------------------------------------------------


def test_the_index_holds_every_hand_newest_first(review: Review) -> None:
    ix = review.refresh()
    assert [h.number for h in ix.hands] == list(range(1, 13))
    total, page = search(ix.hands, Query())
    assert total == 12 and [h.number for h in page] == list(range(12, 0, -1))
    for a, b in zip(ix.hands, ix.hands[1:], strict=False):
        assert a.last_seq + 1 == b.first_seq  # a hand runs to the event before the next one
    first = ix.hands[0]
    assert first.start_ts == T0 + first.first_seq * STEP_MS
    assert first.game == "nlhe" and first.game_name
    assert {p for _, p in first.seats} == {"Ann", "Bob", "Cyd", "Dee"}
    assert first.outcome in ("complete", "misdeal")


def test_the_premature_flop_is_found_by_its_code(review: Review) -> None:
    assert _premature(review) == PREMATURE_HAND
    hand = review.hand(PREMATURE_HAND)
    assert "FLOP_PREMATURE" in hand.codes
    assert hand.to_json()["codes"] == hand.codes


def test_search_by_seat_player_game_and_time(review: Review) -> None:
    hands = review.refresh().hands
    assert search(hands, Query(seat=3))[0] == sum(1 for h in hands if 3 in dict(h.seats))
    assert search(hands, Query(seat=9))[0] == 0
    assert search(hands, Query(player="cY"))[0] == 12  # a part of a name, any case
    assert search(hands, Query(player="Zed"))[0] == 0
    assert search(hands, Query(game="NLHE"))[0] == 12
    assert search(hands, Query(game="hold'em"))[0] == 12  # a part of the game's name
    assert search(hands, Query(game="razz"))[0] == 0
    h5 = hands[4]
    total, page = search(hands, Query(since=h5.start_ts, until=h5.end_ts))
    # the hands that overlap the window: the fifth, and the ends of its neighbours' events
    assert h5 in page and all(h.end_ts >= h5.start_ts and h.start_ts <= h5.end_ts
                              for h in page)
    assert total == len(page) <= 3
    total, page = search(hands, Query(limit=5, offset=10))
    assert total == 12 and [h.number for h in page] == [2, 1]


def test_parse_query_reads_times_numbers_and_codes() -> None:
    q = parse_query({"since": "2026-01-01T00:00:10", "until": "1767225700000", "seat": "2",
                     "player": "ann", "code": "flop_premature", "game": "nlhe", "limit": "5",
                     "offset": "0"})
    assert q == Query(since=T0 + 10_000, until=1767225700000, seat=2, player="ann",
                      code="FLOP_PREMATURE", game="nlhe", limit=5, offset=0)
    assert parse_query({"since": "2026-01-01T01:00:00+01:00"}).since == T0
    assert parse_query({"seat": " ", "code": ""}) == Query()  # empty: any


@pytest.mark.parametrize(("args", "error"), [
    ({"seat": "x"}, "seat: a whole number 1..10 is needed"),
    ({"seat": "0"}, "seat: a whole number 1..10 is needed"),
    ({"limit": "100000"}, "limit: a whole number 1..1000 is needed"),
    ({"since": "yesterday"}, "since: not a time"),
    ({"code": "DROP TABLE;"}, "code: not a valid code"),
    ({"seats": "1"}, "unknown search parameter 'seats'"),
    ({"since": "2000", "until": "1000"}, "since is after until"),
])
def test_bad_searches_are_one_line_errors(args: dict[str, str], error: str) -> None:
    with pytest.raises(QueryError, match="^" + error) as info:
        parse_query(args)
    assert "\n" not in str(info.value)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["since", "until", "seat", "player", "code", "game",
                                        "limit", "offset", "x", ""]),
                       st.text(max_size=30), max_size=5))
@example({"since": "²"})  # a digit to str.isdigit that int() refuses
@example({"seat": "٣", "limit": "１"})  # Arabic-Indic and full-width digits
def test_any_search_parses_or_is_refused_in_one_line(args: dict[str, str]) -> None:
    try:
        parse_query(args)
    except QueryError as exc:
        assert str(exc) and "\n" not in str(exc)


# --- statuses ---------------------------------------------------------------------------------


def test_a_remedy_carried_out_is_remedied_when_its_last_move_is_made(review: Review) -> None:
    data = review.steps(PREMATURE_HAND)
    (f,) = [f for f in data["findings"] if f["code"] == "FLOP_PREMATURE"]
    assert f["status"] == REMEDIED and f["hand"] == PREMATURE_HAND
    assert f["rule"]["file"] == "roberts-rules-v11.txt" and f["remedy"]
    by_seq = {s["seq"]: s for s in data["steps"]}
    raised = by_seq[f["raised_seq"]]  # the zone read that showed where the card went
    assert f"FLOP_PREMATURE (seq {f['seq']})" in raised["raised"]
    assert f["seq"] <= f["raised_seq"] and f["ts"] == T0 + f["raised_seq"] * STEP_MS
    # the monitor waited for its moves, and at the status event waits for none
    due = [s for s in data["steps"] if any(x["code"] == "FLOP_PREMATURE" and x["remedy_due"]
                                           for x in s["findings"])]
    assert due and due[-1]["seq"] < f["status_seq"]
    done = by_seq[f["status_seq"]]
    assert [x["remedy_due"] for x in done["findings"] if x["code"] == "FLOP_PREMATURE"] == [[]]
    assert done["hand"]["phase"] not in ("complete", "misdeal")
    assert f["status_ts"] == T0 + f["status_seq"] * STEP_MS


def test_a_floor_ruling_on_the_code_rules_it() -> None:
    ix = build_index(read_scenario(SCENARIOS / "floor_ruling_stand.jsonl"))
    (f,) = [f for f in ix.hands[0].findings
            if f.code == "MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED"]
    assert f.status == RULED
    assert f.ruling == "seat 2 keeps the exposed card; the hand plays" and f.outcome == "stand"
    assert ix.hands[0].rulings[0]["code"] == "MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED"
    # the ruling's own finding names what was ruled; nothing rules it
    (ruling,) = [f for f in ix.hands[0].findings if f.code == "FLOOR_RULING"]
    assert ruling.status == OPEN


def test_a_misdeal_declared_remedies_the_misdeal_it_called_for(tmp_path: Path) -> None:
    text = (SCENARIOS / "misdeal_first_card_exposed.jsonl").read_text("utf-8")
    path = tmp_path / "misdeal.jsonl"
    path.write_text(text + '\n{"type":"misdeal.declared"}\n', "utf-8")
    ix = Review(path).refresh()
    (f,) = ix.hands[0].findings
    assert f.code == "MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED" and f.status == REMEDIED
    assert f.status_seq == ix.last_seq and ix.hands[0].outcome == "misdeal"
    # without the misdeal declared, the same finding stays open
    (g,) = Review(SCENARIOS / "misdeal_first_card_exposed.jsonl").refresh().hands[0].findings
    assert g.status == OPEN


def test_a_remedy_not_followed_leaves_its_finding_open() -> None:
    ix = build_index(read_scenario(SCENARIOS / "board_missing_burn_flop_not_fixed_omaha.jsonl"))
    missed = [f for f in ix.findings() if f.code == "REMEDY_NOT_FOLLOWED"]
    assert missed
    named = [f for f in ix.findings() if f.not_followed == missed[0].seq]
    assert named and all(f.status == OPEN for f in named)
    assert named[0].to_json()["remedy_not_followed_seq"] == missed[0].seq


# --- one hand, step by step -------------------------------------------------------------------


def test_the_steps_are_the_live_tables_states(journal: Path, review: Review) -> None:
    """A hand replayed from its kept start state gives the snapshots a replay of the whole
    journal gives at the same events: the hole cards, the board, bets and findings."""
    data = review.steps(PREMATURE_HAND)
    hand = review.hand(PREMATURE_HAND)
    state, want = initial_state(), {}
    for event in read_events(journal):
        applied = guarded_apply(state, event)
        state = applied.step.state
        if hand.first_seq <= event.seq <= hand.last_seq:
            want[event.seq] = applied.snap
    assert [s["seq"] for s in data["steps"]] == sorted(want)
    for step in data["steps"]:
        snap = want[step["seq"]]
        assert step["hand"]["board"] == snap["hand"]["board"]
        assert [s["hole"] for s in step["seats"]] == [s["hole"] for s in snap["seats"]]
        assert [s["bet"] for s in step["seats"]] == [s["bet"] for s in snap["seats"]]
        assert [(f["code"], f["remedy_due"]) for f in step["findings"]] == \
            [(f["code"], f["remedy_due"]) for f in snap["findings"]]
    assert data["steps"][0]["type"] == "hand.start"


def test_every_card_has_its_trail(review: Review) -> None:
    data = review.steps(PREMATURE_HAND)
    last = data["steps"][-1]
    board = last["hand"]["board"]
    trails = {c["card"]: c["moves"] for c in data["cards"]}
    for card in board:
        moves = trails[card]
        assert moves[0]["how"] == "left the shoe" and moves[0]["zone"] == "shoe"
        assert moves[-1] == {**moves[-1], "how": "read in", "zone": "board"}
        assert all(m["ts"] == T0 + m["seq"] * STEP_MS for m in moves)
    # the card burned too early has its trail; the flop dealt early went to the board and
    # was taken off it again (the remedy: back into the stub)
    (f,) = [f for f in data["findings"] if f["code"] == "FLOP_PREMATURE"]
    assert f["cards"] and all(trails[c][0]["seq"] == f["seq"] for c in f["cards"])
    early = [c for c, moves in trails.items()
             if any(m["how"] == "left" and m["zone"] == "board" for m in moves)]
    assert len(early) == 3


def test_a_hand_the_journal_lacks(review: Review) -> None:
    with pytest.raises(ReviewError, match=r"^hand 99: not in the journal$"):
        review.steps(99)


# --- exports ----------------------------------------------------------------------------------


def test_the_phh_of_one_hand_is_the_whole_exports(journal: Path, review: Review) -> None:
    whole = export_file(journal)
    for number in (1, PREMATURE_HAND, 12):
        assert review.phh(number) == dumps(whole[number - 1])


def test_the_jsonl_export_is_the_journals_own_lines(journal: Path, review: Review) -> None:
    hand = review.hand(PREMATURE_HAND)
    db = sqlite3.connect(journal)
    lines = [r[0] for r in db.execute("SELECT line FROM events WHERE seq BETWEEN ? AND ? "
                                      "ORDER BY seq", (hand.first_seq, hand.last_seq))]
    db.close()
    assert review.jsonl(PREMATURE_HAND) == "".join(line + "\n" for line in lines)


# --- cost: a growing journal --------------------------------------------------------------------


def test_a_growing_journal_is_indexed_by_its_new_events_only(tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite"
    dealer = simulated_journal(path, hands=4)
    live = Review(path)
    ix = live.refresh()
    first = live.stats
    assert first.events == first.total == ix.last_seq and first.hands == 4
    assert live.refresh().last_seq == ix.last_seq and live.stats.events == 0
    simulated_journal(path, hands=3, first_seq=ix.last_seq + 1, dealer=dealer)
    grown = live.refresh()
    assert live.stats.hands == 7
    assert live.stats.events == grown.last_seq - first.total  # only the new ones replayed
    fresh = Review(path).refresh()
    summary: list[dict[str, Any]] = [h.to_json() for h in fresh.hands]
    assert [h.to_json() for h in grown.hands] == summary
    assert [f.to_json() for f in grown.findings()] == [f.to_json() for f in fresh.findings()]


@pytest.mark.parametrize("keep_every", [1, 5])
def test_a_hand_opens_the_same_from_any_kept_start(journal: Path, review: Review,
                                                   keep_every: int) -> None:
    """Start states are kept for one hand in ``keep_every`` (memory); a hand in between is
    brought forward from the nearest, and opens exactly as from its own."""
    other = Review(journal, keep_every=keep_every)
    ix = other.refresh()
    assert sorted(ix.starts) == list(range(1, 13, keep_every))
    for number in (PREMATURE_HAND, 7, 12):
        assert other.steps(number) == review.steps(number)
        assert other.phh(number) == review.phh(number)


def test_the_review_process_answers_as_the_review_and_survives_its_worker(
        journal: Path, review: Review) -> None:
    """The blueprint's review runs in a worker process (the table's threads keep the
    interpreter lock): the same answers, the same errors, and a worker killed is replaced."""
    import os
    import signal

    worker = ReviewProcess(journal)
    try:
        q = Query(code="FLOP_PREMATURE")
        page = worker.hands_page(q)
        assert page == review.hands_page(q) and page["total"] == 1
        assert worker.timeline_page(Query()) == review.timeline_page(Query())
        assert worker.steps(PREMATURE_HAND) == review.steps(PREMATURE_HAND)
        assert worker.jsonl(3) == review.jsonl(3)
        with pytest.raises(ReviewError, match=r"^hand 99: not in the journal$"):
            worker.phh(99)
        (child,) = [p.pid for p in worker._executor()._processes.values()]
        assert child is not None and child != os.getpid()
        os.kill(child, signal.SIGKILL)
        assert worker.phh(PREMATURE_HAND) == review.phh(PREMATURE_HAND)  # a new worker
    finally:
        worker.close()


def test_each_step_carries_the_odds_of_its_own_live_hands(review: Review) -> None:
    """The officer reads each live hand's odds at every step (controller/poker/odds.py), the
    figure of that step's own cards: the live seats holding cards, their shares summing to the
    pot, exact once the board is out."""
    from controller.poker.odds import figure, spot_of
    from controller.surveillance.review import REVIEW_ODDS_S

    shown = 0
    for number in range(1, 13):
        data = review.steps(number)
        hand_seen = False
        for step in data["steps"]:
            odds = step["equity"]
            if odds is None:
                continue
            shown += 1
            hand_seen = True
            live = [s["seat"] for s in step["seats"]
                    if s["in_hand"] and not s["folded"] and s["hole"]]
            assert [row["seat"] for row in odds["seats"]] == live
            assert abs(sum(row["equity"] for row in odds["seats"]) - 1.0) < 1e-9
            if len(step["hand"]["board"]) == 5:
                assert odds["method"] == "exact" and odds["margin"] == 0.0
            if len(step["hand"]["board"]) == 4:
                assert any(row["outs"] is not None for row in odds["seats"])
        assert hand_seen or not any(s["type"] == "shoe.draw" for s in data["steps"])
    assert shown > 50
    # the figure made from the same cards
    step = next(s for s in review.steps(2)["steps"] if s["equity"] is not None)
    snap = {"table": {"game": "nlhe"}, "hand": step["hand"], "seats": step["seats"]}
    spot = spot_of(snap)
    assert spot is not None and figure(spot, first=True, seconds=REVIEW_ODDS_S)[0] == step["equity"]
