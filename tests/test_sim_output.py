"""``feltguard sim`` as a person and CI use it: no pace without a view, a line per hand and each
finding as it is raised, made against caught, the reader's health as a line, the journal kept
with how to review it, and the exit status (0 every mistake caught, 1 one went uncaught)."""

from __future__ import annotations

import io
import re
import time
from collections import Counter
from pathlib import Path

import pytest

from controller.cli.main import build_parser, main
from controller.journal import read_findings
from controller.processes.sim import (
    VIEW_PACE,
    SimOptions,
    new_journal_name,
    print_score,
    reader_line,
)
from controller.sim.moves import Mistake
from controller.sim.score import (
    EXIT_ALL_CAUGHT,
    EXIT_UNCAUGHT,
    RunningScore,
    Tally,
    exit_status,
    score,
    uncaught,
)

HAND_LINE = re.compile(r"^hand +(\d+)  (\S+) .*findings (\d+)$")
FINDING_LINE = re.compile(r"^  ! hand (\d+) ([A-Z_]+) \((seats [\d,]+|table)\): \S")


def _mistake(hand: int, code: str) -> Mistake:
    return Mistake(hand, "some_kind", code, (), ())


def test_sim_without_a_view_deals_at_full_speed_and_says_what_happens(tmp_path, capsys,
                                                                      monkeypatch):
    """No --pace, no view: the 0.35 s pause is gone (four hands of ~60 steps took 80 s and
    more); each finding is printed as raised, each hand on a line; the summary's made and
    caught are the journal's findings against the dealer's truth; exit 0. Without --journal
    the journal is kept in the current folder and the way to review it is printed."""
    import controller.processes.sim as simulator

    monkeypatch.chdir(tmp_path)
    truth_file = tmp_path / "truth.jsonl"
    paces: list[float] = []
    real_run = simulator.run_simulation

    def run_simulation(opts, *args, **kwargs):  # the real run, its options noted
        paces.append(opts.delay)
        return real_run(opts, *args, **kwargs)

    monkeypatch.setattr(simulator, "run_simulation", run_simulation)
    status = main(["sim", "--no-web", "--hands", "4", "--mistakes", "1", "--seed", "7",
                   "--truth", str(truth_file)])
    out = capsys.readouterr().out
    assert status == 0, out
    # no pause between the dealer's moves (a speed is a bench's business, not a unit test's)
    assert paces == [0.0]

    lines = out.splitlines()
    hands = [(i, HAND_LINE.match(x)) for i, x in enumerate(lines) if HAND_LINE.match(x)]
    assert [int(m.group(1)) for _, m in hands if m] == [1, 2, 3, 4]
    assert all(m.group(2) == "nlhe" for _, m in hands if m)
    findings = [(i, FINDING_LINE.match(x)) for i, x in enumerate(lines) if x.startswith("  ! ")]
    assert findings and all(m for _, m in findings), out
    # each finding is printed as it is raised, before its hand's line, which counts them
    for at, m in hands:
        assert m is not None
        hand = int(m.group(1))
        before = [i for i, f in findings if f is not None and int(f.group(1)) == hand
                  and i < at]
        assert int(m.group(3)) == len(before)

    [journal] = tmp_path.glob("feltguard-sim-*.sqlite")
    assert journal.with_name(journal.name + ".key").exists()
    assert journal.with_name(journal.name + ".anchors").exists()
    made = len(truth_file.read_text().splitlines())
    caught = Counter((f.hand, f.code) for f in read_findings(journal))
    assert made >= 4
    assert f"mistakes: the dealer made {made}, the table caught {made}" in out
    for code, n in Counter(f.code for f in read_findings(journal)).items():
        assert re.search(rf"^  {code} +made +{n}  caught +{n}$", out, re.M), code
    assert sum(caught.values()) == made
    assert "UNCAUGHT" not in out
    assert re.search(r"^reader connected: \d+ frames ok, 0 bad, ", out, re.M)
    assert "ReaderStats(" not in out
    # a command that works from here: the venv's script when feltguard is not on the PATH
    assert re.search(rf"review: \S*feltguard replay {re.escape(str(journal))}$", out, re.M)
    assert re.search(rf"check:  \S*feltguard verify {re.escape(str(journal))}$", out, re.M)
    assert main(["verify", str(journal)]) == 0


def test_the_pace_is_the_views_unless_given():
    assert SimOptions(web=False).delay == 0
    assert SimOptions(web=True).delay == VIEW_PACE
    assert SimOptions(web=False, pace=0.2).delay == 0.2
    assert SimOptions(web=True, pace=0).delay == 0
    assert build_parser().parse_args(["sim", "--no-web"]).pace is None
    assert build_parser().parse_args(["sim", "--pace", "0.5"]).pace == 0.5


def test_the_exit_status_is_1_when_a_mistake_went_uncaught():
    """The exit decision on a scored tally: one matcher (same hand, same code) for the bench
    and the sim."""
    truth = [_mistake(1, "BURN_MISSING"), _mistake(2, "FLOP_PREMATURE")]
    fam = {1: "board", 2: "board"}
    every = score(Counter({(1, "BURN_MISSING"): 1, (2, "FLOP_PREMATURE"): 1}), truth, fam,
                  Tally())
    assert exit_status(every) == EXIT_ALL_CAUGHT == 0
    # the right code in the wrong hand is not a catch
    wrong_hand = score(Counter({(1, "BURN_MISSING"): 1, (1, "FLOP_PREMATURE"): 1}), truth, fam,
                       Tally())
    assert uncaught(wrong_hand) == {"FLOP_PREMATURE": 1}
    assert exit_status(wrong_hand) == EXIT_UNCAUGHT == 1
    # a false alarm alone is reported, not failed
    alarm = score(Counter({(1, "BURN_MISSING"): 1, (2, "FLOP_PREMATURE"): 1,
                           (3, "DUPLICATE_CARD"): 1}), truth, fam, Tally())
    assert exit_status(alarm) == 0
    out = io.StringIO()
    print_score(wrong_hand, out)
    text = out.getvalue()
    assert "mistakes: the dealer made 2, the table caught 1" in text
    assert "UNCAUGHT: FLOP_PREMATURE x1 (exit status 1)" in text
    out = io.StringIO()
    print_score(alarm, out)
    assert "1 finding(s) with no mistake behind them" in out.getvalue()
    assert "DUPLICATE_CARD" in out.getvalue() and "UNCAUGHT" not in out.getvalue()


def test_the_running_score_waits_a_hand_for_late_findings_and_drops_an_unfinished_one():
    run = RunningScore()
    run.finding(1, "BURN_MISSING")
    run.hand_dealt(1, "board", [_mistake(1, "BURN_MISSING"), _mistake(1, "SEAT_SKIPPED")])
    assert not run.tally.made  # hand 1 waits: a finding may still come between hands
    run.finding(1, "SEAT_SKIPPED")  # raised after hand 1's end, before hand 2 starts
    run.finding(2, "FLOP_PREMATURE")
    run.hand_dealt(2, "board", [_mistake(2, "FLOP_PREMATURE")])
    assert uncaught(run.tally) == {} and sum(run.tally.caught.values()) == 2
    run.finding(3, "DUPLICATE_CARD")  # hand 3 stopped mid-deal: its truth never came
    run.settle()
    assert sum(run.tally.made.values()) == sum(run.tally.caught.values()) == 3
    assert sum(run.tally.raised.values()) == 3
    assert exit_status(run.tally) == 0


def test_the_reader_line_is_for_people():
    from drivers.card_reader import ReaderStats

    stats = ReaderStats(connected=False, frames_ok=120, frames_bad=3, frames_unknown=1,
                        bytes_skipped=7, frames_lost=2, counter_resets=0, reads=100,
                        heartbeats=4, reconnects=1, callback_errors=0, last_heartbeat=None,
                        last_error="device reports readiness to read but returned no data")
    assert reader_line(stats) == (
        "reader disconnected: 120 frames ok, 3 bad, 1 unknown, 2 lost, 7 bytes skipped, "
        "1 reconnects, 0 callback errors; last error: device reports readiness to read but "
        "returned no data")


def test_a_new_journal_name_never_takes_another_runs_files(tmp_path: Path):
    now = time.mktime((2026, 11, 26, 21, 5, 9, 0, 0, -1))
    first = new_journal_name(tmp_path, now)
    assert first.name == "feltguard-sim-20261126-210509.sqlite"
    first.with_name(first.name + ".key").write_text("")  # its key alone is enough to skip it
    second = new_journal_name(tmp_path, now)
    assert second.name == "feltguard-sim-20261126-210509-2.sqlite"


@pytest.mark.parametrize(("host", "port", "first"), [
    ("127.0.0.1", 5000, "http://127.0.0.1:5000"),
    ("::1", 80, "http://[::1]:80"),
    ("table7.local", 5000, "http://table7.local:5000"),
])
def test_a_bound_address_is_browsed_as_it_is(host, port, first):
    from display.addresses import browse_urls

    assert browse_urls(host, port) == [first]


def test_every_interface_is_browsed_at_this_machines_addresses():
    import socket

    from display.addresses import browse_urls

    urls = browse_urls("0.0.0.0", 5000)
    assert "http://0.0.0.0:5000" not in urls
    assert urls[-1] == "http://127.0.0.1:5000"
    assert f"http://{socket.gethostname()}:5000" in urls


@pytest.mark.parametrize("game", ["nlhe", "razz", "badugi"])
def test_a_hand_line_says_number_game_button_board_result_and_findings(game):
    """On the rules core's own snapshots of simulated hands of each family."""
    import random

    from controller.processes.sim import hand_line
    from controller.rules import snapshot
    from controller.sim import SimDealer

    dealer = SimDealer(random.Random(3), game=game, mistake_rate=0.5)
    phases = set()
    for _ in range(12):
        dealer.next_hand()
        snap = snapshot(dealer.state)
        hand = snap["hand"]
        line = hand_line(snap, len(snap["findings"]))
        phases.add(hand["phase"])
        assert line.startswith(f"hand {hand['number']:>4}  {game} ")
        assert line.endswith(f"  findings {len(snap['findings'])}")
        assert ("button" in line) == (game != "razz")  # stud has no button
        assert ("board " + " ".join(hand["board"]) in line) == bool(hand["board"])
        if hand["phase"] == "complete":
            winners = {str(s) for pot in snap["results"] for s in pot["shares"]
                       if pot["hand"] != "uncalled bet returned"}
            assert all(f"seat {s} " in line for s in winners), line
        else:
            assert f"  {hand['phase']}  findings" in line
    assert "complete" in phases
