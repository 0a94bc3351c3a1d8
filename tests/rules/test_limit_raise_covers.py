"""Fixed limit: a raise to less than the limit's amount that puts every opponent who can still
call all in is complete in effect; what nobody can call goes back (table stakes,
roberts-rules-v11.txt, Section 2, r.8). Found on a recorded razz hand (issue 11): a raise "to
750,000" with the last opponent all in at 750,000, where a full raise was to 1,200,000."""

from __future__ import annotations

import pytest

from controller.phh import loads
from controller.phh.replay import ReplayError, play

# Heads-up limit hold'em 50/100, bets 100/200. On the flop the short stack (p1, 150 left)
# bets 100; p2's full raise would be to 200, but p1 can reach only 150.
FT = """\
variant = "FT"
antes = [0, 0]
blinds_or_straddles = [50, 100]
small_bet = 100
big_bet = 200
starting_stacks = [250, 1000]
actions = ["d dh p1 7c2d", "d dh p2 AsAh", "p2 cc", "p1 cc", "d db Kd9s4c", "p1 cbr 100",
           "p2 cbr {raise_to}", "p1 cc", "d db 3h", "d db Jd", "p1 sm 7c2d", "p2 sm AsAh"]
"""


@pytest.mark.parametrize("raise_to", [150, 180, 200])
def test_a_raise_that_puts_the_last_opponent_all_in_is_taken(raise_to: int) -> None:
    # p1 calls all in for 150; p2 wins 250 + 250; what p2 raised beyond 150 came back
    assert play(loads(FT.format(raise_to=raise_to), source="ft.phh")) == (0, 1250)


def test_a_short_raise_that_does_not_cover_the_opponent_is_refused() -> None:
    with pytest.raises(ReplayError, match="WRONG_AMOUNT: at fixed limit the only raise now is "
                                          "to 200"):
        play(loads(FT.format(raise_to=140), source="ft.phh"))
