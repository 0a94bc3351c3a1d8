"""Journals for the review tests: a simulated session (the pure simulated dealer, the events it
makes written to a real journal) with a premature flop forced into one hand."""

from __future__ import annotations

import random
from pathlib import Path

from controller.events import Event
from controller.journal import Journal
from controller.sim import SimDealer, expand

T0 = 1_767_225_600_000  # 2026-01-01 00:00 UTC, in ms
STEP_MS = 500  # one event every half second
PREMATURE_HAND = 6  # the hand in which the dealer turns the flop early


def simulated_journal(path: Path, hands: int = 12, seed: int = 3, first_seq: int = 1,
                      dealer: SimDealer | None = None) -> SimDealer:
    """Deal ``hands`` hands of a 4-seat no-limit hold'em table into the journal at ``path``
    (created, or appended to from ``first_seq``), a mistake in a fifth of them and a premature
    flop in hand ``PREMATURE_HAND``; the dealer is returned to deal on."""
    d = dealer or SimDealer(random.Random(seed), seats=4, mistake_rate=0.2)
    seq = first_seq - 1
    with Journal(path, checkpoint_every=None) as journal:
        for _ in range(hands):
            forced = "premature_flop" if d.hand + 1 == PREMATURE_HAND else None
            for step in d.next_hand(mistake=forced):
                for body in expand(step):
                    seq += 1
                    journal.append(Event(seq, T0 + seq * STEP_MS, body))
    return d
