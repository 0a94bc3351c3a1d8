"""Hands played by chips equal the same hands played at the console (issue 13, Evidence).

Hypothesis draws a table (game, seats, a seed for the simulated dealer's players) and a few
legal hands. The simulated dealer (``controller/sim/dealer.py``, no mistakes) plays them at the
console: its event stream is the console run. The same hands are then played by chips: every
post, call, bet, raise and all-in becomes chips moved from the seat's stack zone into its bet
zone (as many as the console action put in, read from the core's own wager in front), the
dealer scoops the bets into the pot when each round ends, pushes each share of the award from the
pot to its winner, and the winners stack their chips. Only checks, folds and draws stay at the
console: no chip shows them. The chips run must give exactly the console run's betting (the
hand engine's command log), pots and stacks after every hand, raise no finding at all, and its
ledger (every zone read: stacks, bets, pot, tray) must balance as each hand starts.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.events import (
    Action,
    Body,
    ChipsRegister,
    ChipsZone,
    Event,
    HandEnd,
    SeatLeave,
    SeatTake,
    TableSetup,
)
from controller.rules import apply, initial_state, snapshot
from controller.rules.chips.betting import wager_in_front
from controller.rules.chips.ledger import between_hands
from controller.rules.table import TableState
from controller.sim import SimDealer
from controller.sim.moves import expand

GAMES = ("nlhe", "flhe", "omaha", "stud", "razz", "27_triple", "draw5")
CHIP_ACTIONS = ("post", "bet", "raise", "call", "allin")
TRAY = 25


class Chips:
    """Who holds which chip: every chip a 1 (exact amounts, no change to make)."""

    def __init__(self) -> None:
        self.next = 0
        self.zones: dict[str, list[str]] = {}

    def new(self, n: int) -> list[str]:
        out = [f"04F1{i:08d}" for i in range(self.next, self.next + n)]
        self.next += n
        return out

    def body(self, zone: str, added: list[str], removed: list[str]) -> ChipsZone:
        uids = tuple(sorted(self.zones.get(zone, [])))
        return ChipsZone(zone=zone, total=len(uids), counts={1: len(uids)} if uids else {},
                         uids=uids, added=tuple(sorted(added)), removed=tuple(sorted(removed)))

    def put(self, zone: str, uids: list[str]) -> ChipsZone:
        self.zones.setdefault(zone, []).extend(uids)
        return self.body(zone, uids, [])

    def take(self, zone: str, n: int) -> tuple[list[str], ChipsZone]:
        held = self.zones.setdefault(zone, [])
        moved, self.zones[zone] = held[:n], held[n:]
        return moved, self.body(zone, [], moved)

    def move(self, src: str, dst: str, n: int) -> list[ChipsZone]:
        """The zone the chips come to settles first (chip sensing's order)."""
        moved, left = self.take(src, n)
        return [self.put(dst, moved), left]


def _round_over(before: TableState, after: TableState) -> bool:
    g0 = before.hand.game if before.hand is not None else None
    g1 = after.hand.game if after.hand is not None else None
    if g0 is None or g1 is None:
        return False
    return g0.eng.street != g1.eng.street or (g0.eng.actor is not None and g1.eng.actor is None)


def by_chips(console: list[Body], pool: int) -> Iterator[Body]:
    """The console run's events with every chip-moving action played by chips instead."""
    chips = Chips()
    state = initial_state()
    registered = False
    for body in console:
        before = state
        state = apply(state, Event(0, 0, body)).state
        if isinstance(body, TableSetup):
            yield body
            if not registered:
                registered = True
                yield ChipsRegister(set="ones", chips={u: 1 for u in chips.new(pool)})
                chips.next = 0
                yield chips.put("tray", chips.new(TRAY))
            continue
        if isinstance(body, SeatTake):
            yield body
            have = len(chips.zones.get(f"stack:{body.seat}", []))
            if body.stack > have:  # a buy-in: chips from the cage
                yield chips.put(f"stack:{body.seat}", chips.new(body.stack - have))
            continue
        if isinstance(body, SeatLeave):
            yield body
            chips.take(f"stack:{body.seat}", len(chips.zones.get(f"stack:{body.seat}", [])))
            continue
        if isinstance(body, Action) and body.kind in CHIP_ACTIONS and before.hand is not None:
            h0, h1 = before.hand, state.hand
            assert h1 is not None
            w0 = wager_in_front(h0.game, h0.bets, body.seat) or 0
            w1 = wager_in_front(h1.game, h1.bets, body.seat) or 0
            if w1 > w0:
                yield from chips.move(f"stack:{body.seat}", f"bet:{body.seat}", w1 - w0)
            else:
                yield body
        else:
            yield body
        if isinstance(body, Action) and _round_over(before, state):
            # the dealer scoops every bet into the pot: the pot settles first, then the bets
            for zone in sorted(z for z, held in chips.zones.items()
                               if z.startswith("bet:") and held):
                yield from chips.move(zone, "pot", len(chips.zones[zone]))
        if isinstance(body, HandEnd):
            for award in state.results:
                for seat, n in sorted(award.shares.items()):
                    yield from chips.move("pot", f"bet:{seat}", n)
            for zone in sorted(z for z, held in chips.zones.items()
                               if z.startswith("bet:") and held):
                yield from chips.move(zone, f"stack:{zone[4:]}", len(chips.zones[zone]))


def _console_run(game: str, seats: int, seed: int, hands: int) -> tuple[list[Body], list[int]]:
    dealer = SimDealer(random.Random(seed), seats=seats, game=game, stack=40)
    bodies: list[Body] = []
    ends: list[int] = []
    for _ in range(hands):
        for step in dealer.next_hand():
            bodies += expand(step)
        assert not dealer.found, [f.code for _, f in dealer.found]
        ends.append(len(bodies))
    return bodies, ends


def _apply_all(bodies: list[Body]) -> Iterator[tuple[Body, TableState, list[str]]]:
    state = initial_state()
    for seq, body in enumerate(bodies, 1):
        step = apply(state, Event(seq, 0, body))
        state = step.state
        yield body, state, [f.code for f in step.findings]


def _at_hand_ends(bodies: list[Body]) -> tuple[list[tuple[object, ...]], list[str]]:
    """(engine log, pots, stacks) after each hand.end, and every finding raised."""
    out: list[tuple[object, ...]] = []
    found: list[str] = []
    for body, state, codes in _apply_all(bodies):
        found += codes
        if isinstance(body, HandEnd) and state.hand is not None:
            snap = snapshot(state)
            out.append((state.hand.game.log, snap["results"],
                        {s["seat"]: s["stack"] for s in snap["seats"]}))
    return out, found


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(game=st.sampled_from(GAMES), seats=st.integers(2, 5), seed=st.integers(0, 2**31),
       hands=st.integers(1, 3))
def test_hands_played_by_chips_equal_the_console(game: str, seats: int, seed: int,
                                                 hands: int) -> None:
    if game in ("stud", "razz"):
        seats = max(seats, 2)
    console, _ = _console_run(game, seats, seed, hands)
    chip_run = list(by_chips(console, pool=40 * seats * (hands + 2) + TRAY))
    assert any(isinstance(b, ChipsZone) for b in chip_run)
    assert not any(isinstance(b, Action) and b.kind in ("bet", "raise", "allin")
                   for b in chip_run), "every wager is made by chips"
    want, found_console = _at_hand_ends(console)
    got, found_chips = _at_hand_ends(chip_run)
    assert not found_console
    assert found_chips == [], found_chips
    assert len(got) == len(want) == hands
    for (log_c, pots_c, stacks_c), (log_k, pots_k, stacks_k) in zip(want, got, strict=True):
        assert log_k == log_c  # the same betting, command by command
        assert pots_k == pots_c
        assert stacks_k == stacks_c
    # the ledger, counted after the last hand's chips are home: it balances
    final = [state for _, state, _ in _apply_all(chip_run)][-1]
    assert final.chips.house is not None
    stacks = {n: s.stack for n, s in final.seating.seats.items()}
    _, told = between_hands(final.chips, stacks, final.carry, seq=0)
    assert told == ()
