"""Online hands as the sites write them (the HandHQ hands of the PHH dataset), one hand written
by hand per class: a losing hand mucked unseen (``sm ????``), an all-in run-out with ``sm ????``
before each board card, a winner showing after the last fold, unknown stacks (``inf``) played
deep or refused, a showdown where no hand is seen, a history that stops with betting due, and
``winnings`` after the site's rake compared with the pots."""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from bench.phh_online import _whole_unit_split
from controller.phh import loads
from controller.phh.replay import Refused, check, play, replay_hands, run

pokerkit = pytest.importorskip("pokerkit")

ROOT = Path(__file__).resolve().parents[2]

HAND = """\
variant = 'NT'
antes = [{antes}]
blinds_or_straddles = [0.50, 1{zeros}]
min_bet = 1
starting_stacks = [{stacks}]
actions = [{actions}]
{extra}
"""


def _hand(stacks: str, actions: list[str], extra: str = "") -> str:
    n = len(stacks.split(","))
    deal = [f"d dh p{i} ????" for i in range(1, n + 1)]
    return HAND.format(antes=", ".join(["0"] * n), zeros=", 0" * (n - 2), stacks=stacks,
                       actions=", ".join(f"'{a}'" for a in deal + actions), extra=extra)


def _pokerkit(text: str) -> list[Decimal]:
    *_, state = pokerkit.HandHistory.loads(text)
    return [Decimal(str(v)) for v in state.stacks]


# Class 1: three see the river; p1 shows, p2 and p3 muck unseen (Absolute's shape).
MUCKED_UNSEEN = _hand("247.10, 14.60, 200", [
    "p3 cc", "p1 cc", "p2 cc", "d db 9s7h2c", "p1 cc", "p2 cc", "p3 cc", "d db 9d", "p1 cc",
    "p2 cc", "p3 cc", "d db 9c", "p1 cc", "p2 cc", "p3 cc", "p1 sm 8dAs", "p2 sm ????",
    "p3 sm ????"])

# Class 2: p1 all in preflop, p3 calls; PokerStars writes "sm ????" before each board card and
# the real cards at the end.
RUN_OUT = _hand("180, 138.80, 239", [
    "p3 cbr 2.50", "p1 cbr 180", "p2 f", "p3 cc", "p1 sm ????", "p3 sm ????", "d db 6c3cTc",
    "p1 sm ????", "p3 sm ????", "d db 9h", "p1 sm ????", "p3 sm ????", "d db Ks",
    "p1 sm 6sAd", "p3 sm QhKh"])

# Class 3: everyone folds to p3's raise, who then shows his jacks.
SHOWN_AFTER_FOLDS = _hand("50, 80, 100", ["p3 cbr 3", "p1 f", "p2 f", "p3 sm JsJh"],
                          "winnings = [0, 0, 2.50]")


def test_a_losing_hand_mucked_unseen_loses_to_the_shown_hand() -> None:
    h = loads(MUCKED_UNSEEN)
    assert play(h) == (Decimal("249.10"), Decimal("13.60"), 199)
    assert list(play(h)) == _pokerkit(MUCKED_UNSEEN)


def test_an_all_in_run_out_with_unseen_hands_before_each_card() -> None:
    h = loads(RUN_OUT)
    # p3's kings beat p1's ace high: 180 + 180 + p2's big blind
    assert play(h) == (0, Decimal("137.80"), Decimal("420"))
    assert list(play(h)) == _pokerkit(RUN_OUT)


def test_a_winner_showing_after_everyone_folded_changes_nothing() -> None:
    h = loads(SHOWN_AFTER_FOLDS)
    assert play(h) == (Decimal("49.50"), 79, Decimal("101.50"))
    assert list(play(h)) == _pokerkit(SHOWN_AFTER_FOLDS)
    result = check(h)
    assert result.status == "winnings" and result.rake == 0


def test_unknown_stacks_are_played_deep_when_nobody_is_all_in() -> None:
    text = _hand("inf, inf, inf", [
        "p3 cbr 2.50", "p1 cc", "p2 f", "d db TdKs8h", "p1 cbr 4.50", "p3 f"])
    played = run(loads(text))
    assert played.deep and played.over
    assert played.stacks == (Decimal("inf"),) * 3
    assert played.net == (Decimal("3.50"), -1, Decimal("-2.50"))
    result = check(loads(text))
    assert result.status == "unchecked"
    assert result.line() == ("<phh>: the starting stacks are unknown (inf): played deep; "
                             "net [+3.5, -1, -2.5]")


def test_unknown_stacks_refused_where_an_all_in_makes_them_matter() -> None:
    # p1 is all in (his call is for everything he has): the site deals the rest without betting
    text = _hand("inf, inf", ["p2 cbr 3", "p1 cbr 60", "p2 cc", "d db 6c3cTc", "d db 9h"])
    with pytest.raises(Refused):
        run(loads(text))
    result = check(loads(text, source="ipn.phhs"))
    assert result.status == "refused"
    assert result.line() == (
        "ipn.phhs: refused: the starting stacks are unknown (inf) and played deep the hand "
        "breaks at action 7: 'd db 9h': NO_BOARD_CARDS_DUE: cannot deal board cards now "
        "(flop, betting, player 1 to act): an all-in made the stacks matter")


def test_a_showdown_where_no_hand_is_seen_is_refused() -> None:
    text = _hand("100, 100", ["p2 cc", "p1 cc", "d db 5hTs5s", "p1 cc", "p2 cc", "d db 6h",
                              "p1 cc", "p2 cc", "d db 4c", "p1 cc", "p2 cc", "p2 sm ????",
                              "p1 sm ????"])
    result = check(loads(text, source="x.phh"))
    assert result.status == "refused"
    assert result.line() == ("x.phh: refused: action 15: 'p1 sm ????': no hand was seen at "
                             "the showdown, so who won is not known")


def test_a_history_that_stops_with_betting_due_is_incomplete() -> None:
    text = _hand("100, 100", ["p2 cc", "p1 cc", "d db 5hTs5s", "p1 cc", "p2 cc", "d db 6h",
                              "p1 cbr 2", "p2 cc", "d db 4c"])
    h = loads(text, source="x.phh")
    played = run(h)
    assert not played.over and played.payouts is None
    result = check(h)
    assert result.status == "incomplete"
    assert result.line() == ("x.phh: incomplete: the history stops after 'd db 4c' with "
                             "betting due from p1")
    # PokerKit says the same: the hand is still in progress
    *_, state = pokerkit.HandHistory.loads(text)
    assert state.status


WON = ["p3 cbr 3", "p1 f", "p2 cc", "d db AcQsAs", "p2 cbr 5", "p3 f"]  # p2 takes 0.50 + 3 + 3


@pytest.mark.parametrize(("winnings", "status", "line"), [
    ("0, 6.20, 0", "winnings",
     "winnings [0, 6.2, 0] agree with the pots [0, 6.5, 0], rake 0.3"),
    ("0, 0, 6.20", "mismatched",
     "the winners differ: winnings pay p3, the pots go to p2 (winnings [0, 0, 6.2], "
     "pots [0, 6.5, 0])"),
    ("0, 7, 0", "mismatched",
     "p2's winnings 7 exceed his share of the pots 6.5 (winnings [0, 7, 0], pots [0, 6.5, 0])"),
])
def test_winnings_are_compared_with_the_pots(winnings: str, status: str, line: str) -> None:
    h = loads(_hand("50, 80, 100", WON, f"winnings = [{winnings}]"), source="abs.phhs")
    result = check(h)
    assert result.status == status
    assert result.line() == f"abs.phhs: {line}"


def test_a_walk_counts_the_big_blind_given_back_as_won() -> None:
    # Absolute writes the big blind's walk as winning all 1.50 (its own unmatched half too)
    h = loads(_hand("80, 197, 200", ["p3 f", "p1 f"], "winnings = [0, 1.50, 0]"))
    result = check(h)
    assert (result.status, result.rake) == ("winnings", 0)


def test_winnings_all_zero_are_not_recorded() -> None:
    result = check(loads(_hand("50, 80, 100", WON, "winnings = [0, 0, 0]")))
    assert result.status == "unchecked"


def test_the_summary_counts_each_class() -> None:
    hands = [loads(t) for t in (MUCKED_UNSEEN, RUN_OUT, SHOWN_AFTER_FOLDS,
                                _hand("50, 80, 100", WON, "winnings = [0, 6.20, 0]"),
                                _hand("inf, inf", ["p2 cbr 3", "p1 cbr 60", "p2 cc",
                                                   "d db 6c3cTc", "d db 9h"]),
                                _hand("100, 100", ["p2 cc", "p1 cbr 3"]))]
    s = replay_hands(hands)
    assert (s.unchecked, s.winnings, s.refused, s.incomplete, s.errors) == (2, 2, 1, 1, 0)
    assert s.rake == Decimal("0.30")
    assert s.ok
    assert ("6 hands: 0 matched, 0 mismatched, 0 errors, 2 agreeing with their winnings "
            "(rake 0.3 in all), 2 without finishing stacks, 1 incomplete, 1 refused") in s.line()


def test_the_command_line_reports_each_class(tmp_path: Path) -> None:
    path = tmp_path / "online.phhs"
    hands = [SHOWN_AFTER_FOLDS, _hand("50, 80, 100", WON, "winnings = [0, 0, 6.20]"),
             _hand("100, 100", ["p2 cc", "p1 cbr 3"]), MUCKED_UNSEEN]
    path.write_text("\n".join(f"[{i}]\n{t}" for i, t in enumerate(hands, start=1)), "utf-8")
    done = subprocess.run([sys.executable, "-m", "controller.cli", "phh", "replay", str(path)],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    lines = done.stdout.splitlines()
    assert lines[0] == ("online.phhs [1]: winnings [0, 0, 2.5] agree with the pots "
                        "[0, 0, 2.5], rake 0")
    assert lines[1].startswith("online.phhs [2]: the winners differ: winnings pay p3")
    assert lines[2] == ("online.phhs [3]: incomplete: the history stops after 'p1 cbr 3' "
                        "with betting due from p2")
    assert lines[3] == ("online.phhs [4]: no finishing_stacks recorded; replayed to "
                        "[249.1, 13.6, 199]")
    assert lines[4].startswith("4 hands: 0 matched, 1 mismatched, 0 errors, 1 agreeing with "
                               "their winnings (rake 0 in all), 1 without finishing stacks, "
                               "1 incomplete; replayed in ")
    assert done.returncode == 1  # the winners differ


def test_an_unknown_stack_hand_with_an_illegal_action_is_an_error_not_a_refusal() -> None:
    # a raise to 1.50 over a big blind of 1 is short of the minimum raise whatever the stacks
    result = check(loads(_hand("inf, inf, inf", ["p3 cbr 1.50", "p1 f", "p2 f"]), source="x"))
    assert result.status == "error"
    assert result.line().startswith("x: action 4: 'p3 cbr 1.50': ")


def test_a_side_pot_only_unseen_hands_contest_is_refused() -> None:
    # p1 is all in for 20 and shows; p2 and p3 bet on and both muck unseen: the main pot is
    # p1's, but no hand was seen for the side pot between p2 and p3
    text = _hand("20, 100, 100", [
        "p3 cbr 20", "p1 cc", "p2 cc", "d db 9s7h2c", "p2 cbr 10", "p3 cc", "d db 9d", "p2 cc",
        "p3 cc", "d db 9c", "p2 cc", "p3 cc", "p1 sm AsAd", "p2 sm ????", "p3 sm ????"])
    result = check(loads(text, source="x"))
    assert result.status == "refused"
    assert result.line() == ("x: refused: action 18: 'p3 sm ????': no hand was seen for a pot "
                             "of 20 (p2, p3), so who won it is not known")


# iPoker writes the cards shown at the showdown in the deal ("d dh p1 QsAd"; a folded hand is
# always "????") and "sm ????" for every hand at the showdown.
IPOKER_SHOWDOWN = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [{stacks}]
actions = ['d dh p1 {p1}', 'd dh p2 {p2}', 'd dh p3 ????', 'p3 f', 'p1 cc', 'p2 cbr 8', \
'p1 cc', 'd db 8hTh8s', 'p1 cbr 6', 'p2 cc', 'd db As', 'p1 cc', 'p2 cc', 'd db Jh', \
'p1 cc', 'p2 cbr 26', 'p1 cc', 'p1 sm ????', 'p2 sm ????']
winnings = [0, 0, 0]
"""


def test_ipoker_hands_dealt_known_are_shown_at_a_showdown_of_unseen_hands() -> None:
    # aces and eights with the queen (p1) beat aces and eights with the jack (p2): 40 each
    text = IPOKER_SHOWDOWN.format(stacks="100, 100, 100", p1="QsAd", p2="Ah4s")
    assert play(loads(text)) == (140, 60, 100)
    # PokerKit reads each "sm ????" as a show of unknown cards and gives each his 40 back
    assert _pokerkit(text) == [100, 100, 100]


def test_ipoker_a_hand_dealt_known_wins_over_one_mucked_unseen() -> None:
    # p2's cards were never shown (mucked unseen), p1's were: p1 wins; the stacks unknown
    text = IPOKER_SHOWDOWN.format(stacks="inf, inf, inf", p1="7c2d", p2="????")
    result = check(loads(text, source="ipn.phhs"))
    assert result.status == "unchecked"
    assert result.line() == ("ipn.phhs: the starting stacks are unknown (inf): played deep; "
                             "net [+40, -40, 0]")
    # the showdown's order does not matter: p2's unseen hand first, then p1's
    swapped = text.replace("'p1 sm ????', 'p2 sm ????'", "'p2 sm ????', 'p1 sm ????'")
    assert check(loads(swapped)).net == (40, -40, 0)


def test_a_hand_dealt_known_all_in_is_shown_after_the_run_out() -> None:
    # p1 (dealt known) all in preflop, p2 calls; "sm ????" before each board card, as PokerStars
    # writes a run-out, and p2 never shown: p1's hand wins the pot of 200 + p3's nothing
    text = IPOKER_SHOWDOWN.format(stacks="100, 100, 100", p1="KsKd", p2="????").replace(
        "'p1 cc', 'p2 cbr 8', 'p1 cc', 'd db 8hTh8s', 'p1 cbr 6', 'p2 cc', 'd db As', "
        "'p1 cc', 'p2 cc', 'd db Jh', 'p1 cc', 'p2 cbr 26', 'p1 cc', 'p1 sm ????', "
        "'p2 sm ????'",
        "'p1 cbr 100', 'p2 cc', 'p1 sm ????', 'p2 sm ????', 'd db 8hTh8s', 'p1 sm ????', "
        "'p2 sm ????', 'd db As', 'd db Jh', 'p1 sm ????', 'p2 sm ????'")
    assert play(loads(text)) == (200, 0, 100)


def test_a_showdown_with_no_hand_dealt_known_is_still_refused() -> None:
    text = IPOKER_SHOWDOWN.format(stacks="inf, inf, inf", p1="????", p2="????")
    result = check(loads(text, source="ipn.phhs"))
    assert result.status == "refused"
    assert "no hand was seen at the showdown" in result.line()


def test_a_tied_pot_in_a_game_of_cents_is_split_to_the_cent() -> None:
    # Absolute's and Full Tilt's shape: blinds and bets written whole, stacks in cents; the two
    # wheels tie for a pot of 13: 6.50 each. PokerKit splits it in whole units (7 and 6).
    text = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 99.30, 100]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 6', 'p1 f', 'p2 cc', \
'd db 2s3h5c', 'p2 cc', 'p3 cc', 'd db Ac', 'p2 cc', 'p3 cc', 'd db 4s', 'p2 cc', 'p3 cc', \
'p2 sm 8cKc', 'p3 sm AsTs']
"""
    ours = play(loads(text))
    assert ours == (99, Decimal("99.80"), Decimal("100.50"))
    theirs = _pokerkit(text)
    assert theirs == [99, Decimal("100.30"), 100]
    assert _whole_unit_split([Decimal(str(v)) for v in ours], theirs)
    assert not _whole_unit_split([Decimal(99), Decimal(101), Decimal(100)], theirs)
