"""Journals of several segments for the tests: hands of dealer's choice (every game family in
rotation, mistakes and seat changes) dealt by the simulated dealer through the daemon's own
submit path, the journal rolling over every few hands as ``[journal] rollover = N`` does."""

from __future__ import annotations

import random
from pathlib import Path

from controller.daemon.segments import Rollover
from controller.daemon.table_daemon import TableDaemon
from controller.events import EventError
from controller.guard import guarded_apply
from controller.journal import Journal, read_events
from controller.rules import TableState, initial_state
from controller.sim import SimDealer, expand


def deal(daemon: TableDaemon, dealer: SimDealer, hands: int, tail: int = 0) -> None:
    """``hands`` whole hands, then the first ``tail`` steps of one more (a hand in play)."""
    for n in range(hands + (1 if tail else 0)):
        steps = dealer.next_hand()
        for step in steps if n < hands else steps[:tail]:
            for body in expand(step):
                try:
                    daemon.submit(body)
                except EventError:  # (a key the dealer named for a card not in play)
                    continue
        dealer.truth.clear()


def dealer(seed: int = 7) -> SimDealer:
    return SimDealer(random.Random(seed), mistake_rate=0.15, seat_changes=0.05,
                     redraw_returned=True, game="dealers_choice")


def build(path: Path, hands: int, every: int, tail: int = 0, seed: int = 7) -> int:
    """A run of segments at ``path`` (a rollover every ``every`` hands); the last seq."""
    with Journal(path, checkpoint_every=None) as journal:
        daemon = TableDaemon(journal, rollover=Rollover(every))
        deal(daemon, dealer(seed), hands, tail)
        return daemon.seq


def replayed(path: Path) -> TableState:
    """The run's events applied from a new table: what a restart must reach."""
    state = initial_state()
    for event in read_events(path):
        state = guarded_apply(state, event).step.state
    return state
