"""The simulated table's chips: players who bet with chips, a dealer who scoops and pushes them.

At a table that reads its chips (``SimDealer(chips=True)``, ``feltguard sim --chips``) the
betting actions the players choose (``players.choose``: post, call, bet, raise-to, all-in, the
bring-in) are not typed at the console: the player puts that many chips into its bet zone
(``bet:N``) and the rules core reads the action from them (``controller/rules/chips/betting.py``).
Check and fold are no chips: they stay console actions, as do the dealer's other keys. With
``console`` on, the dealer also enters each chip action at the console (after the chips, or
before them when the seat would be to act again at once: then the console line could only mean
a new action), and the core corroborates it.

The dealer's part (RR Section 2 and AZW The Pot): at each betting round's end it scoops every
bet zone into the pot; at ``hand.end`` it pushes each seat's award (its share of each pot, an
uncalled bet back to the bettor: the core's ``results``) from the pot to the seat's bet zone,
and the players take their chips back to their stacks. At a table set up with a rake
(``SimDealer(rake_percent=..., rake_cap=...)``, off by default) the dealer drops the house's
rake, as the set-up's schedule allows it, from the pot into the drop in the same motion. After
a misdeal every chip goes back to the player who put it in. Between hands a player whose stack
could not make every amount changes it at the cage, and the stacks are checked against the
core's (``stack_errors``).

Each step is a ``ChipMove`` (``chip_moves.py``) emitted through the table dealer, which applies
its ``chips.zone`` events to the shadow table, as the daemon applies what sensing settles.

At ``mistake_rate`` a hand without a dealing mistake holds one chip mistake
(``chip_mistakes.py``), made at the first chance the hand gives and then recorded.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence

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
from controller.rules import TableState, apply, snapshot, wager_in_front
from controller.sim import table_view
from controller.sim.chip_mistakes import CHIP_KINDS
from controller.sim.chip_moves import ChipMove
from controller.sim.chip_table import (
    CAGE,
    DEALER,
    DENOMINATIONS,
    DROP,
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
from controller.sim.table_port import SimTable
from controller.sim.table_view import GameHand

log = logging.getLogger(__name__)

# The actions a player makes with chips (the rest are console inputs).
CHIP_ACTIONS = frozenset({"post", "call", "bet", "raise", "allin"})


class ChipDealer:
    """The chips of one simulated table: ``table`` is its ``SimDealer``, seen as a ``SimTable``."""

    def __init__(self, table: SimTable, rng: random.Random, *, console: bool = False,
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
        # with ``console``: the action a binding out-of-turn bet made, entered once the seat
        # to act has checked
        self.after_check: Action | None = None

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
        if not self.chips.chips(TRAY):  # a table that played without chips until now
            float_chips = [u for d, n in FLOAT.items() for u in self.chips.take(CAGE, d, n)]
            moves: list[Move] = [(tuple(float_chips), CAGE, TRAY)]
            self.t.pending_step(ChipMove(tuple(moves), self.chips.motion(moves), "the float"))
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
        self.restock_float()

    def restock_float(self) -> None:
        """The float back to its make-up (change for oversized chips takes its small chips and
        leaves big ones): the surplus to the cage, what it lacks from the cage, value for
        value, in one motion."""
        have = self.chips.counts(TRAY)
        if all(have[d] == n for d, n in FLOAT.items()):
            return
        if self.chips.value(TRAY) != sum(d * n for d, n in FLOAT.items()):
            log.warning("the tray holds %d, its float is %d", self.chips.value(TRAY),
                        sum(d * n for d, n in FLOAT.items()))
            return
        out = [u for d, n in FLOAT.items() if have[d] > n
               for u in self.chips.take(TRAY, d, have[d] - n)]
        back = [u for d, n in FLOAT.items() if have[d] < n
                for u in self.chips.take(CAGE, d, n - have[d])]
        self.motion([(out, TRAY, CAGE), (back, CAGE, TRAY)], "the float restocked")

    def new_hand(self, card_mistake: bool, force: str | None = None) -> None:
        """The hand's chip mistake, if any (never with a dealing mistake: one per hand);
        ``force``: this kind."""
        self.kind = force
        if (force is None and not card_mistake and self.mistake_rate
                and self.rng.random() < self.mistake_rate):
            self.kind = self.rng.choice(list(CHIP_KINDS))

    # --- what happens at the table ---------------------------------------------------------------

    def takes(self, step: SimStep) -> bool:
        """Is ``step`` a betting action the player makes with chips: a post due now, or the
        action of the seat to act? Anything else (a dealing mistake's post by the wrong seat:
        the button not moved, the wrong stud bring-in) the dealer enters at the console."""
        if not isinstance(step, Action) or step.kind not in CHIP_ACTIONS:
            return False
        g = table_view.game(self.state)
        if g is None:
            return False
        if g.posts_due:
            seat, _, amount = g.posts_due[0]
            return step.kind == "post" and step.seat == seat and step.amount == amount
        return g.to_act == step.seat

    def declared(self, action: Action) -> None:
        """A betting action the dealer enters at the console (``takes`` said no: not the
        seat's turn as the table sees it, a dealing mistake's post); once the table applied it,
        the player's chips follow it, the seat's wager in front (they corroborate it)."""
        self.busy = True
        try:
            self.t.raw_emit(action)
            h = self.state.hand
            g = table_view.game(self.state)
            if h is None or g is None or g.pos(action.seat) is None:
                return
            wager = wager_in_front(g, h.bets, action.seat)
            short = (wager or 0) - self.chips.value(bet(action.seat))
            if short > 0:
                uids = self._pay(action.seat, short)
                self.motion([(uids, player(action.seat), bet(action.seat))],
                            f"seat {action.seat}'s chips for its {action.kind}")
        finally:
            self.busy = False
        self.settle_round()

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
            if self.after_check is not None and isinstance(step, Action) and step.kind == "check":
                entered, self.after_check = self.after_check, None
                self.t.raw_emit(entered)
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
        ``console``); an action the chips cannot make is entered at the console. The round's
        scoop waits until the action and what follows it (change, a mistake) are done."""
        self.busy = True
        try:
            self._act(action)
        finally:
            self.busy = False
        self.settle_round()

    def _act(self, action: Action) -> None:
        g = table_view.current(self.state)
        seat = action.seat
        put = self._put(g, action)
        if put is None or put <= 0:
            self._fallback(action)
            return
        if self._oversized(g, action, put):
            return
        e = g.eng
        # a single chip facing a bet is a call (RR Section 3 r.14, oversized_chip): a raise
        # goes out in two chips or more
        raising = (e.checking_or_calling_amount() or 0) > 0 and action.kind in ("bet", "raise")
        uids = self._pay(seat, put, min_chips=2 if raising else 1)
        p = g.pos(seat)
        if p is not None and put >= e.stacks[p] and action.kind != "post":
            # every chip the player has: the console says all in, as the chips do
            action = Action(seat=seat, kind="allin")
        # with the console, a post is entered before its chips (after them, a seat owing a
        # second post, a missed blind, would have the console's post applied again) and so is
        # an action after which the seat is to act again (a console line then is a new action)
        call = e.checking_or_calling_amount() or 0
        every_chip = (raising and len(uids) > 1
                      and put - min(self.chips.denomination[u] for u in uids) < call)
        # a raise in chips every one of which the call needs is a call (TDA #46, "unless raise
        # is declared first"): the player declares the raise before its chips go out
        declare = every_chip or (
            self.console and (action.kind == "post" or self._acts_again(seat, uids)))
        if declare:
            self.t.raw_emit(action)
        if not self._chips_act(seat, uids, action.kind) and not declare:
            self._fallback(action)
            return
        if self.console and not declare:
            self.t.raw_emit(action)
        if self.kind == "chip_string_raise" and not declare:
            self._string_raise(seat, action)

    def _chips_act(self, seat: int, uids: Sequence[str], what: str) -> bool:
        """The player's chips into its bet zone; True when the core read an action from them."""
        h = self.state.hand
        before = h.bets.by_chips.get(seat) if h is not None else None
        self.motion([(uids, player(seat), bet(seat))], f"seat {seat} {what}")
        h = self.state.hand
        made = h is not None and h.bets.by_chips.get(seat) is not before
        if not made:
            log.debug("hand %d: seat %d's chips did not make its %s", self.state.hand_number,
                      seat, what)
        return made

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
        if uids is None:
            # the player's chips and the table's stack parted (a stack error, told after the
            # hand): the cage makes up the difference so that the table goes on
            have = self.chips.value(holder)
            log.error("hand %d: seat %d cannot pay %d from %d", self.state.hand_number, seat,
                      amount, have)
            self.chips.set_value(holder, max(have, amount))
            uids = self.chips.exact(holder, amount, 1)
            assert uids is not None
        return uids

    def _acts_again(self, seat: int, uids: Sequence[str]) -> bool:
        """Would the seat be the one to act again right after these chips made its action
        (heads-up, a round's last action before the seat opens the next)? Tried on a copy of
        the shadow table (the state is immutable)."""
        g = table_view.game(self._tried(seat, uids))
        return g is not None and g.to_act == seat

    def _tried(self, seat: int, uids: Sequence[str]) -> TableState:
        """The shadow table after the seat's chips went into its bet zone, tried on copies (the
        state is immutable)."""
        events = self.chips.copy().motion([(tuple(uids), player(seat), bet(seat))])
        state = self.state
        for body in events:
            state = apply(state, Event(state.last_seq + 1, 0, body)).state
        return state

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
            if g is not None and g.pos(seat) is None:
                # a seat taken out of the hand (a stud hand dead before any betting): its ante
                # goes back (RR Section 8 r.1)
                moves.append((tuple(here), zone, player(seat)))
                continue
            if wager is not None and 0 <= wager < value:
                part = self.chips.exact(zone, wager)
                if part is None:
                    log.warning("hand %d: bet:%d (%d) cannot make the wager %d exactly",
                                self.state.hand_number, seat, value, wager)
                else:
                    to_pot = part
                    moves.append((tuple(u for u in here if u not in part), zone, player(seat)))
            self.scooped.setdefault(seat, []).extend(to_pot)
            moves.append((tuple(to_pot), zone, POT))
        self.motion(moves, "the scoop")

    def push(self) -> None:
        """At hand.end: each seat's award from the pot to its bet zone, then the players take
        their chips back to their stacks; their stacks are checked against the core's. The
        award mistakes: a chip of a share kept back, or dropped in the tray (a skim), or a share
        pushed to another seat; each put right once the core has judged the push. With a rake
        set up, the rake goes from the pot to the drop in the push's motion (``_rake``)."""
        results = snapshot(self.state).get("results", [])
        awards: dict[int, int] = {}
        for pot in results:
            for seat, n in pot["shares"].items():
                awards[int(seat)] = awards.get(int(seat), 0) + int(n)
        awards, rake = self._rake(awards)
        shares = self._shares(awards)
        left = self.chips.value(POT)
        if left and awards:
            log.warning("hand %d: %d left in the pot after the awards", self.state.hand_number,
                        left)
        for uids in (*(u for _, u in shares), rake):  # back in the pot until the push
            self.chips.move(uids, POT)
        owner = {s: s for s in range(1, self.t.seats + 1)}  # bet zone -> whose chips lie there
        pushes: list[Move] = [(tuple(uids), POT, bet(seat)) for seat, uids in shares]
        if rake:  # the house's rake into the drop, in the same motion as the push
            pushes.append((tuple(rake), POT, DROP))
        kept: tuple[int, list[str]] | None = None
        if shares and self.kind == "chip_award_short":
            seat, uids = shares[0]
            chip = [min(uids, key=lambda u: (self.chips.denomination[u], u))]
            pushes[0] = (tuple(u for u in uids if u not in chip), POT, bet(seat))
            pushes.append((tuple(chip), POT, DEALER))
            kept = (seat, chip)
            self.record("chip_award_short", [seat])
        elif shares and self.kind == "chip_pot_skim":
            seat, uids = shares[0]
            chip = [min(uids, key=lambda u: (self.chips.denomination[u], u))]
            pushes[0] = (tuple(u for u in uids if u not in chip), POT, bet(seat))
            pushes.append((tuple(chip), POT, TRAY))
            kept = (seat, chip)
            self.record("chip_pot_skim", [])
        elif shares and self.kind == "chip_award_wrong_seat":
            seat, uids = shares[0]
            others = [s for s in sorted(self.state.seats) if s not in awards]
            if others:
                wrong = self.rng.choice(others)
                pushes[0] = (tuple(uids), POT, bet(wrong))
                owner[wrong] = seat
                self.record("chip_award_wrong_seat", [seat, wrong])
        self.motion(pushes, "the pots pushed")
        if kept is not None:  # the chip kept back (or from the tray) to its winner's stack
            self.motion([(kept[1], self.chips.holder[kept[1][0]], player(kept[0]))],
                        "the chip kept back to its winner")
        self.take_back(owner)
        self.check_stacks()
        self._settle_leftover()

    def _rake(self, awards: dict[int, int]) -> tuple[dict[int, int], list[str]]:
        """The house's rake of the pots, at a table set up with one (``table.setup``'s
        ``rake_percent`` and ``rake_cap``, as the core holds them): the awards less the rake
        (taken from the largest shares first) and the pot's chips that make it, set apart in
        the dealer's hand. The schedule is the core's (chips/pot.py): ``rake_percent`` of the
        pots awarded, rounded down, at most ``rake_cap`` (0: no cap). Where the pot's chips
        cannot make that rake and still make every share exactly, the dealer takes the most
        below it that they can (the house may take less than its schedule, never more); the
        core cuts each winner's stack by what its share came short."""
        setup = self.state.setup
        pot = sum(awards.values())
        if not setup.rake_percent or pot <= 0:
            return awards, []
        allowed = pot * setup.rake_percent // 100
        if setup.rake_cap:
            allowed = min(allowed, setup.rake_cap)
        for rake in range(allowed, 0, -1):
            uids = self.chips.exact(POT, rake)
            if uids is None:
                continue
            left = dict(awards)
            todo = rake
            for seat in sorted(left, key=lambda s: (-left[s], s)):
                cut = min(todo, left[seat])
                left[seat] -= cut
                todo -= cut
            trial = self.chips.copy()
            trial.move(uids, DEALER)
            if self._makes(trial, left):
                self.chips.move(uids, DEALER)
                return {s: n for s, n in left.items() if n > 0}, uids
        return awards, []

    @staticmethod
    def _makes(chips: ChipTable, awards: dict[int, int]) -> bool:
        """Can the pot's chips of ``chips`` (a copy: it is changed) make every award exactly,
        the largest first, as ``_shares`` takes them?"""
        for _, amount in sorted(awards.items(), key=lambda kv: (-kv[1], kv[0])):
            uids = chips.exact(POT, amount) if amount > 0 else []
            if uids is None:
                return False
            chips.move(uids, DEALER)
        return True

    def _shares(self, awards: dict[int, int]) -> list[tuple[int, list[str]]]:
        """Each seat's award in chips of the pot (the largest first), set apart in the
        dealer's hand. Where the pot's chips cannot make the awards (a split pot of 25s), the
        dealer changes a chip of the pot for smaller ones from the tray and tries again. The
        core follows the pot's chips by their tags, so it tells that change as pot chips gone
        to the tray (CHIP_POT_SKIM) and a share paid in chips not of the hand; no pot of
        bench.chips's 2,100 hands needed it (a warning is logged when one does)."""
        for _ in range(8):
            shares: list[tuple[int, list[str]]] = []
            for seat, amount in sorted(awards.items(), key=lambda kv: (-kv[1], kv[0])):
                uids = self.chips.exact(POT, amount) if amount > 0 else []
                if uids is None:
                    break
                self.chips.move(uids, DEALER)  # out of the pot's reach for the next share
                shares.append((seat, uids))
            else:
                return shares
            for _, uids in shares:
                self.chips.move(uids, POT)
            if not self._break_pot_chip():
                break
        log.warning("hand %d: the pot (%d) cannot make the awards %s exactly",
                    self.state.hand_number, self.chips.value(POT), awards)
        return []

    def _break_pot_chip(self) -> bool:
        """The smallest chip of the pot above the smallest denomination changed for smaller
        chips of the tray, in one motion; False when the tray cannot change any."""
        chips = sorted((self.chips.denomination[u], u) for u in self.chips.chips(POT))
        for d, uid in chips:
            if d == DENOMINATIONS[0]:
                continue
            small = [u for u in self.chips.chips(TRAY) if self.chips.denomination[u] < d]
            tray = self.chips.copy()
            tray.move([u for u in self.chips.chips(TRAY) if u not in small], DEALER)
            change = tray.exact(TRAY, d, min_chips=2)
            if change is not None:
                log.warning("hand %d: a %d chip of the pot changed at the tray to split it",
                            self.state.hand_number, d)
                self.motion([((uid,), POT, TRAY), (tuple(change), TRAY, POT)],
                            "a chip of the pot changed at the tray")
                return True
        return False

    def take_back(self, owner: dict[int, int] | None = None) -> None:
        """The players take the chips in their bet zones back to their stacks (``owner``:
        whose chips lie in each seat's bet zone, when the dealer pushed a share astray)."""
        owner = owner or {}
        self.motion([(self.chips.chips(bet(s)), bet(s), player(owner.get(s, s)))
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

    def _settle_leftover(self) -> None:
        """Chips left in the pot after the awards (the core's stacks moved by more than its
        results paid: a fault the stacks check has told) go to the players the core's stacks
        say are owed them, so that the next hand starts from the table's word."""
        moves: list[Move] = []
        for seat, st in sorted(self.state.seats.items()):
            owed = st.stack - self.chips.value(player(seat))
            uids = self.chips.exact(POT, owed) if owed > 0 else None
            if uids is not None:
                self.chips.move(uids, DEALER)
                moves.append((tuple(uids), POT, player(seat)))
        for uids, _, _ in moves:
            self.chips.move(uids, POT)
        self.motion(moves, "chips left in the pot to the players owed them")

    def check_stacks(self) -> None:
        """Each player's chips against the core's stack for the seat."""
        for seat, st in sorted(self.state.seats.items()):
            have = self.chips.value(player(seat))
            if have != st.stack:
                self.stack_errors.append((self.state.hand_number, seat, have, st.stack))

    # --- the chip mistakes ----------------------------------------------------------------------

    def before_action(self) -> Action | None:
        """Before the player to act chooses: the out-of-turn bet, when it is this hand's
        mistake and the table allows it now; the action the player to act then takes."""
        if self.kind != "chip_out_of_turn":
            return None
        plan = self._out_of_turn_plan()
        if plan is None:
            return None
        actor, seat, amount = plan
        uids = self._pay(seat, amount)
        self.motion([(uids, player(seat), bet(seat))], f"seat {seat} bets out of turn")
        self.record("chip_out_of_turn", [seat, actor])
        if self.console:  # entered once its chips made the action, when the actor has checked
            self.after_check = Action(seat=seat, kind="bet", amount=amount)
        return Action(seat=actor, kind="check")

    def _out_of_turn_plan(self) -> tuple[int, int, int] | None:
        """(the seat to act, the next seat, its bet) where the next seat's bet out of turn will
        be binding: nobody has bet on the street, the seat to act checks and the action then
        reaches the next seat with the street still open (RR Section 3 r.11)."""
        g = table_view.game(self.state)
        if g is None or g.posts_due or g.to_act is None:
            return None
        e = g.eng
        actor = g.to_act
        p = g.pos(actor)
        if (p is None or max(e.bets) != 0 or e.can_post_bring_in(p)
                or (e.checking_or_calling_amount() or 0) != 0 or actor in g.dead):
            return None
        seq = self.state.last_seq + 1
        after = apply(self.state, Event(seq, 0, Action(seat=actor, kind="check"))).state
        g2 = table_view.game(after)
        if g2 is None or g2.to_act in (None, actor) or g2.eng.street != e.street:
            return None
        seat = g2.to_act
        assert seat is not None
        h = self.state.hand
        if h is not None and h.bets.last_seat == seat:
            # its chips would be read as more than its last action (a string raise, or beyond
            # a console declaration), not as chips out of turn
            return None
        q = g2.pos(seat)
        e2 = g2.eng
        lo = e2.min_completion_betting_or_raising_to()
        if (q is None or seat in g2.dead or lo is None or lo <= 0 or e2.stacks[q] <= lo
                or not e2.can_complete_bet_or_raise_to(lo, q)):
            return None
        return actor, seat, lo

    def _string_raise(self, seat: int, action: Action) -> None:
        """The player adds a chip after its action settled, before anyone else acted (RR
        Section 3 r.14); the dealer gives it back."""
        g = table_view.game(self.state)
        h = self.state.hand
        last = h.bets.by_chips.get(seat) if h is not None else None
        p = g.pos(seat) if g is not None else None
        if (g is None or p is None or last is None or action.kind not in ("call", "bet", "raise")
                or g.to_act in (None, seat) or last.street != g.eng.street
                or g.eng.stacks[p] <= 0):
            return
        smallest = min(self.chips.denomination[u] for u in self.chips.chips(player(seat)))
        extra = self._pay(seat, smallest)
        self.motion([(extra, player(seat), bet(seat))], f"seat {seat} adds a chip")
        self.record("chip_string_raise", [seat])
        self.motion([(extra, bet(seat), player(seat))], f"seat {seat}'s chip given back")

    def _oversized(self, g: GameHand, action: Action, put: int) -> bool:
        """A call made with one chip larger than the call (RR Section 3 r.14: a call), then
        the dealer's change from the tray: the chip to the tray, the call into the bet zone,
        the rest to the player; ``chip_change_wrong`` puts a chip more in the bet zone."""
        if self.kind not in ("chip_oversized_call", "chip_change_wrong") or action.kind != "call":
            return False
        seat = action.seat
        e = g.eng
        p = g.pos(seat)
        call = e.checking_or_calling_amount() or 0
        big = next((d for d in DENOMINATIONS if d > call), None)
        if p is None or call <= 0 or big is None or big >= e.stacks[p]:
            return False
        # the call, and with the wrong change a 1 chip more (the chips of the call apart from
        # it: the scoop hands it back to the player)
        wrong = 1 if self.kind == "chip_change_wrong" else 0
        tray = self.chips.copy()
        into_bet: list[str] = []
        for amount in (call, wrong):
            part = tray.exact(TRAY, amount) if amount else []
            if part is None:
                return False
            tray.move(part, DEALER)
            into_bet += part
        change = tray.exact(TRAY, big - call - wrong) if big - call - wrong else []
        if change is None or (self.console and self._acts_again(seat, ())):
            return False
        holder = player(seat)
        counts = payable_counts(self.chips.value(holder) - big)
        counts[big] = counts.get(big, 0) + 1
        self.chips.recompose(holder, counts)
        chip = self.chips.take(holder, big, 1)
        if not self._chips_act(seat, chip, "call with an oversized chip"):
            self.motion([(chip, bet(seat), holder)], f"seat {seat}'s chip back")
            return False
        self.record(self.kind, [seat])
        if self.console:
            self.t.raw_emit(action)
        self.motion([(chip, bet(seat), TRAY), (into_bet, TRAY, bet(seat)),
                     (change, TRAY, holder)], f"change for seat {seat}")
        if wrong:  # the core tells it (CHIP_CHANGE_WRONG): the dealer gives the chip back
            self.motion([(into_bet[-1:], bet(seat), holder)], f"seat {seat}'s change put right")
        return True

def _without_single(counts: dict[int, int], amount: int) -> dict[int, int]:
    """A composition of the same value in which ``amount`` is never one chip: a chip of that
    denomination is broken into chips of the next smaller one."""
    out = dict(counts)
    if out.get(amount, 0) and amount in DENOMINATIONS and amount != DENOMINATIONS[0]:
        smaller = DENOMINATIONS[DENOMINATIONS.index(amount) - 1]
        out[amount] -= 1
        out[smaller] = out.get(smaller, 0) + amount // smaller
    return out
