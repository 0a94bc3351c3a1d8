"""The simulated table's chips: players who bet with chips, a dealer who scoops and pushes them.

At a table that reads its chips (``SimDealer(chips=True)``, ``feltguard sim --chips``) the
betting actions the players choose (``players.choose``: post, call, bet, raise-to, all-in, the
bring-in) are not typed at the console: the player puts that many chips into its bet zone
(``bet:N``) and the rules core reads the action from them (``controller/rules/chip_betting.py``).
Check and fold are no chips: they stay console actions, as do the dealer's other keys. With
``console`` on, the dealer also enters each chip action at the console (after the chips, or
before them when the seat would be to act again at once: then the console line could only mean
a new action), and the core corroborates it.

The dealer's part (RR Section 2 and AZW The Pot): at each betting round's end it scoops every
bet zone into the pot; at ``hand.end`` it pushes each seat's award (its share of each pot, an
uncalled bet back to the bettor: the core's ``results``) from the pot to the seat's bet zone,
and the players take their chips back to their stacks. After a misdeal every chip goes back to
the player who put it in. Between hands a player whose stack could not make every amount
changes it at the cage, and the stacks are checked against the core's (``stack_errors``).

Each step is a ``ChipMove`` (``chip_moves.py``) emitted through the table dealer, which applies
its ``chips.zone`` events to the shadow table, as the daemon applies what sensing settles.

At ``mistake_rate`` a hand without a dealing mistake holds one chip mistake
(``chip_mistakes.py``), made at the first chance the hand gives and then recorded.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from controller.events import (
    Action,
    Event,
    FloorRuling,
    HandEnd,
    HandStart,
    MisdealDeclared,
    SeatLeave,
    SeatTake,
)
from controller.rules import TableState, apply, snapshot
from controller.rules.chip_betting import wager_in_front
from controller.sim import table_view
from controller.sim.chip_mistakes import CHIP_KINDS
from controller.sim.chip_moves import ChipMove
from controller.sim.chip_table import (
    CAGE,
    DEALER,
    DENOMINATIONS,
    FLOAT,
    POT,
    TRAY,
    ChipTable,
    Move,
    bet,
    payable_counts,
    player,
)
from controller.sim.moves import SimStep
from controller.sim.table_view import GameHand

if TYPE_CHECKING:
    from controller.sim.dealer import SimDealer

log = logging.getLogger(__name__)

# The actions a player makes with chips (the rest are console inputs).
CHIP_ACTIONS = frozenset({"post", "call", "bet", "raise", "allin"})


class ChipDealer:
    """The chips of one simulated table: ``table`` is its ``SimDealer``."""

    def __init__(self, table: SimDealer, rng: random.Random, *, console: bool = False,
                 mistake_rate: float = 0.0) -> None:
        self.t = table
        self.rng = rng
        self.console = console
        self.mistake_rate = mistake_rate
        self.chips = ChipTable(rng, table.seats)
        self.kind: str | None = None  # this hand's chip mistake, until it is made
        # per seat, the chips the dealer scooped from its bet zone into the pot this hand
        self.scooped: dict[int, list[str]] = {}
        self.round: tuple[int, int, bool] | None = None  # (hand, street, betting open)
        self.busy = False  # a chip action under way: no scoop until it is complete
        self.fallbacks = 0  # actions the chips did not make: entered at the console instead
        # (hand, seat, the player's chips, the core's stack) after a hand, where they differ
        self.stack_errors: list[tuple[int, int, int, int]] = []
        self.made: list[str] = []  # the chip mistakes made, in order

    # --- the shadow table ------------------------------------------------------------------------

    @property
    def state(self) -> TableState:
        return self.t.state

    def motion(self, moves: Sequence[Move], why: str) -> None:
        """Chips moved in one motion; emitted as a step when an antenna sees the change."""
        moves = [(tuple(uids), src, dst) for uids, src, dst in moves if uids]
        events = self.chips.motion(moves)
        if events:
            self.t.raw_emit(ChipMove(tuple(moves), events, why))

    def record(self, kind: str, seats: Sequence[int]) -> None:
        self.made.append(kind)
        for code in CHIP_KINDS[kind]:
            self.t.record(kind, seats, [], code)
        self.kind = None

    # --- the table -------------------------------------------------------------------------------

    def open(self) -> None:
        """At set-up: the chip set registered, the float in the tray, each player's stack."""
        self.t.raw_emit(self.chips.register())
        float_chips = [u for d, n in FLOAT.items() for u in self.chips.take(CAGE, d, n)]
        self.motion([(float_chips, CAGE, TRAY)], "the float")
        for seat in self.state.seats:
            self.sync_seat(seat)

    def resume(self, state: TableState) -> None:
        """At a table recovered from its journal: the set as registered there (or a new one
        registered now), the zones as they lie, each player's stack as the core has it."""
        reg = state.chips.registry
        if reg.chips and all(d in DENOMINATIONS for d in reg.chips.values()):
            self.chips = ChipTable(self.rng, self.t.seats, known=dict(reg.chips))
            self.chips.restore({z: c.uids for z, c in state.chips.zones.items()})
        if len(self.chips.denomination) != len(reg.chips):  # a new set, or more chips enrolled
            self.t.pending_step(self.chips.register())
        for seat in state.seats:
            self.chips.set_value(player(seat), state.seats[seat].stack)

    def sync_seat(self, seat: int) -> None:
        """A player sat down, re-bought or left: its chips from or to the cage."""
        st = self.state.seats.get(seat)
        self.chips.set_value(player(seat), st.stack if st is not None else 0)

    def between_hands(self) -> None:
        """Before a hand: stacks that cannot make every amount are changed at the cage; the
        house enrols more chips when the cage runs low (the set registered again)."""
        for seat in self.state.seats:
            if not self.chips.payable(player(seat)):
                self.chips.recompose(player(seat))
        if self.chips.enrol():
            self.t.raw_emit(self.chips.register())

    def new_hand(self, card_mistake: bool) -> None:
        """The hand's chip mistake, if any (never with a dealing mistake: one per hand)."""
        self.kind = None
        if not card_mistake and self.mistake_rate and self.rng.random() < self.mistake_rate:
            self.kind = self.rng.choice(list(CHIP_KINDS))

    # --- what happens at the table ---------------------------------------------------------------

    def takes(self, step: SimStep) -> bool:
        """Is ``step`` a betting action the player makes with chips?"""
        return (isinstance(step, Action) and step.kind in CHIP_ACTIONS
                and table_view.game(self.state) is not None)

    def observe(self, step: SimStep) -> None:
        """After the table applied ``step``: the dealer's scoops, pushes and returns."""
        if isinstance(step, HandStart):
            self.scooped = {}
            self.round = None
        elif isinstance(step, HandEnd):
            self.settle_round()
            self.push()
        elif isinstance(step, MisdealDeclared) or (
                isinstance(step, FloorRuling) and step.outcome == "void"):
            self.return_all()
        elif isinstance(step, (SeatTake, SeatLeave)):
            self.sync_seat(step.seat)
        elif not self.busy and not isinstance(step, ChipMove):
            self.settle_round()

    def _round(self) -> tuple[int, int, bool] | None:
        g = table_view.game(self.state)
        if g is None:
            return None
        e = g.eng
        return (self.state.hand_number, e.street, e.actor is not None and not e.is_over)

    def settle_round(self) -> None:
        """A betting round that was open is over: the dealer scoops the bets into the pot."""
        now = self._round()
        was = self.round
        self.round = now
        if was is None or not was[2]:
            return
        if now is None or now[0] != was[0] or now[1] != was[1] or not now[2]:
            self.scoop()

    # --- betting with chips ------------------------------------------------------------------

    def act(self, action: Action) -> None:
        """The player puts the action's chips in its bet zone (the console too, with
        ``console``); an action the chips cannot make is entered at the console."""
        g = table_view.current(self.state)
        seat = action.seat
        put = self._put(g, action)
        if put is None or put <= 0:
            self._fallback(action)
            return
        self.busy = True
        try:
            if self._oversized(g, action, put):
                return
            e = g.eng
            p = g.pos(seat)
            facing = p is not None and (e.checking_or_calling_amount() or 0) > 0
            # a single chip facing a bet is a call (RR Section 3 r.14, oversized_chip): a raise
            # goes out in two chips or more
            raising = facing and action.kind in ("bet", "raise")
            uids = self._pay(seat, put, min_chips=2 if raising else 1)
            before = self.state.hand.bets.by_chips.get(seat) if self.state.hand else None
            declare = self.console and self._acts_again(seat, uids)
            if declare:
                self.t.raw_emit(action)
            self.motion([(uids, player(seat), bet(seat))], f"seat {seat} {action.kind}")
            h = self.state.hand
            made = h is not None and h.bets.by_chips.get(seat) is not before
            if not made and not declare:
                log.debug("hand %d: seat %d's chips did not make its %s", self.state.hand_number,
                          seat, action.kind)
                self._fallback(action)
                return
            if self.console and not declare:
                self.t.raw_emit(action)
            if self.kind == "chip_string_raise" and not declare:
                self._string_raise(seat, action)
        finally:
            self.busy = False
        self.settle_round()

    def _put(self, g: GameHand, action: Action) -> int | None:
        """The chips the action puts in front of the seat (None: none it can make)."""
        e = g.eng
        p = g.pos(action.seat)
        if p is None:
            return None
        if action.kind == "post":
            return action.amount
        if action.kind == "call":
            return min(e.checking_or_calling_amount() or 0, e.stacks[p])
        if action.kind == "allin":
            return e.stacks[p]
        if action.amount is None:
            return None
        return action.amount - e.bets[p]

    def _pay(self, seat: int, amount: int, min_chips: int = 1) -> list[str]:
        """The player's chips for ``amount``: changed at the cage first when its stack cannot
        make it exactly (or only in one chip where it needs two)."""
        holder = player(seat)
        uids = self.chips.exact(holder, amount, min_chips)
        if uids is None:
            counts = payable_counts(self.chips.value(holder))
            if min_chips > 1:  # keep the amount out of any single chip: break the big ones
                counts = _without_single(counts, amount)
            self.chips.recompose(holder, counts)
            uids = self.chips.exact(holder, amount, min_chips)
        if uids is None:  # pragma: no cover - a payable stack makes every amount up to it
            raise RuntimeError(f"seat {seat} cannot pay {amount} from "
                               f"{self.chips.value(holder)}")
        return uids

    def _acts_again(self, seat: int, uids: Sequence[str]) -> bool:
        """Would the seat be the one to act again right after these chips made its action
        (heads-up, a round's last action before the seat opens the next)? Tried on a copy of
        the shadow table (the state is immutable)."""
        events = self.chips.copy().motion([(tuple(uids), player(seat), bet(seat))])
        state = self.state
        for body in events:
            state = apply(state, Event(state.last_seq + 1, 0, body)).state
        g = table_view.game(state)
        return g is not None and g.to_act == seat

    def _fallback(self, action: Action) -> None:
        """The console enters an action the chips did not make (chips already out stay: the
        action makes them the seat's wager)."""
        self.fallbacks += 1
        self.t.raw_emit(action)

    # --- the dealer ------------------------------------------------------------------------------

    def scoop(self) -> None:
        """Every bet zone into the pot; what lies beyond a seat's wager (a returned ante, the
        dealer's wrong change) goes back to the player."""
        h = self.state.hand
        g = h.game if h is not None else None
        moves: list[Move] = []
        for seat in sorted(self.state.seats):
            zone = bet(seat)
            here = self.chips.chips(zone)
            if not here:
                continue
            wager = wager_in_front(g, h.bets, seat) if g is not None and h is not None else None
            value = self.chips.value(zone)
            to_pot = list(here)
            if wager is not None and 0 <= wager < value:
                part = self.chips.exact(zone, wager)
                if part is not None:
                    to_pot = part
                    moves.append((tuple(u for u in here if u not in part), zone, player(seat)))
            self.scooped.setdefault(seat, []).extend(to_pot)
            moves.append((tuple(to_pot), zone, POT))
        self.motion(moves, "the scoop")

    def push(self) -> None:
        """At hand.end: each seat's award from the pot to its bet zone, then the players take
        their chips back to their stacks; their stacks are checked against the core's."""
        results = snapshot(self.state).get("results", [])
        awards: dict[int, int] = {}
        for pot in results:
            for seat, n in pot["shares"].items():
                awards[int(seat)] = awards.get(int(seat), 0) + int(n)
        pushes: list[Move] = []
        for seat, amount in sorted(awards.items(), key=lambda kv: (-kv[1], kv[0])):
            if amount <= 0:
                continue
            uids = self.chips.exact(POT, amount)
            if uids is None:
                log.warning("hand %d: the pot (%d) cannot make seat %d's %d exactly",
                            self.state.hand_number, self.chips.value(POT), seat, amount)
                continue
            self.chips.move(uids, DEALER)  # out of the pot's reach for the next share
            pushes.append((tuple(uids), POT, bet(seat)))
        left = self.chips.value(POT)
        if left and awards:
            log.warning("hand %d: %d left in the pot after the awards", self.state.hand_number,
                        left)
        for uids, _, _ in pushes:  # back in the pot until the push moves them
            self.chips.move(uids, POT)
        self.motion(pushes, "the pots pushed")
        self.take_back()
        self.check_stacks()

    def take_back(self) -> None:
        """The players take the chips in their bet zones back to their stacks."""
        self.motion([(self.chips.chips(bet(s)), bet(s), player(s))
                     for s in range(1, self.t.seats + 1)], "chips taken back")

    def return_all(self) -> None:
        """A misdeal or a void hand: every chip goes back to the player who put it in."""
        moves: list[Move] = [(self.chips.chips(bet(s)), bet(s), player(s))
                             for s in range(1, self.t.seats + 1)]
        moves += [(tuple(u for u in uids if self.chips.holder.get(u) == POT), POT, player(s))
                  for s, uids in sorted(self.scooped.items())]
        self.scooped = {}
        self.round = None
        self.motion(moves, "every chip back")
        self.check_stacks()

    def check_stacks(self) -> None:
        """Each player's chips against the core's stack for the seat."""
        for seat, st in sorted(self.state.seats.items()):
            have = self.chips.value(player(seat))
            if have != st.stack:
                self.stack_errors.append((self.state.hand_number, seat, have, st.stack))

    # --- mistakes (filled in by the chip mistakes) ---------------------------------------------

    def _oversized(self, g: GameHand, action: Action, put: int) -> bool:
        return False

    def _string_raise(self, seat: int, action: Action) -> None:
        return None


def _without_single(counts: dict[int, int], amount: int) -> dict[int, int]:
    """A composition of the same value in which ``amount`` is never one chip: a chip of that
    denomination is broken into chips of the next smaller one."""
    out = dict(counts)
    if out.get(amount, 0) and amount in DENOMINATIONS and amount != DENOMINATIONS[0]:
        smaller = DENOMINATIONS[DENOMINATIONS.index(amount) - 1]
        out[amount] -= 1
        out[smaller] = out.get(smaller, 0) + amount // smaller
    return out
