"""Property tests: clean hands raise nothing and conserve chips; no event sequence crashes apply.

The clean hands come from the simulated dealer with ``mistake_rate=0`` seeded by hypothesis;
the garbage sequences are well-typed events in random order and with random fields.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.events import (
    Action,
    CardExposed,
    DeckRegister,
    Event,
    HandEnd,
    HandStart,
    MisdealDeclared,
    SeatLeave,
    SeatTake,
    ShoeDraw,
    ShuffleDone,
    TableSetup,
    ZoneLeave,
    ZoneRead,
)
from controller.poker.cards import FULL_DECK
from controller.rules import apply, initial_state, snapshot
from controller.sim import SimDealer, expand


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 10))
def test_clean_hands_raise_nothing_and_conserve_chips(seed: int, seats: int):
    dealer = SimDealer(random.Random(seed), seats=seats, mistake_rate=0.0)
    state = initial_state()
    seq = 0
    for _ in range(4):
        steps = dealer.next_hand()
        before = None
        for step in steps:
            for body in expand(step):
                if isinstance(body, HandStart):
                    before = sum(s["stack"] for s in snapshot(state)["seats"])
                seq += 1
                result = apply(state, Event(seq, 0, body))
                state = result.state
                assert result.findings == (), [f.to_json() for f in result.findings]
        snap = snapshot(state)
        assert snap["hand"]["phase"] == "complete"
        assert sum(s["stack"] for s in snap["seats"]) == before  # chips are conserved
        assert all(s["stack"] >= 0 for s in snap["seats"])


UIDS = [f"T{c}" for c in FULL_DECK[:12]] + ["BAD1"]
ZONES = ["seat:1", "seat:2", "seat:3", "seat:7", "board", "burn", "muck", "aside"]
bodies = st.one_of(
    st.builds(TableSetup, seats=st.integers(2, 10), small_blind=st.integers(0, 2),
              big_blind=st.integers(2, 4)),
    st.builds(SeatTake, seat=st.integers(1, 10), player=st.just("P"),
              stack=st.integers(0, 50)),
    st.builds(SeatLeave, seat=st.integers(1, 10)),
    st.builds(DeckRegister, deck=st.just("d"),
              tags=st.dictionaries(st.sampled_from(UIDS), st.sampled_from(FULL_DECK[:14]),
                                   max_size=13)),
    st.builds(HandStart, button=st.one_of(st.none(), st.integers(1, 10))),
    st.just(ShuffleDone()),
    st.builds(ShoeDraw, uid=st.sampled_from(UIDS), face_up=st.booleans()),
    st.builds(ZoneRead, uid=st.sampled_from(UIDS), zone=st.sampled_from(ZONES)),
    st.builds(ZoneLeave, uid=st.sampled_from(UIDS), zone=st.sampled_from(ZONES)),
    st.builds(CardExposed, uid=st.sampled_from(UIDS),
              by=st.sampled_from(["dealer", "player"])),
    st.just(MisdealDeclared()),
    st.just(HandEnd()),
    st.builds(Action, seat=st.integers(1, 10),
              kind=st.sampled_from(["post", "bet", "call", "raise", "check", "fold", "allin"]),
              amount=st.integers(0, 60)),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(bodies, max_size=80))
def test_apply_never_raises_and_never_mutates(seq_bodies):
    state = initial_state()
    for i, body in enumerate(seq_bodies, start=1):
        before = snapshot(state)
        step = apply(state, Event(i, 0, body))
        assert snapshot(state) == before  # the old state is unchanged
        state = step.state
        snap = snapshot(state)
        assert snap["last_seq"] == i
        assert all(s["stack"] >= 0 for s in snap["seats"])


def test_replay_gives_the_same_states_and_findings():
    dealer = SimDealer(random.Random(7), mistake_rate=0.5)
    events = []
    for _ in range(30):
        for step in dealer.next_hand():
            events += [Event(len(events) + 1, 0, b) for b in expand(step)]

    def run() -> tuple[list[object], dict[str, object]]:
        state = initial_state()
        out: list[object] = []
        for e in events:
            step = apply(state, e)
            state = step.state
            out += [f.to_json() for f in step.findings] + [a.to_json() for a in step.results]
        return out, snapshot(state)

    assert run() == run()
