"""The simulated players' betting: a legal action for the player to act, from the hand engine.

The engine (``controller/rules/engine/hand.py``, read through ``table_view``) says what a call
costs, whether the player may bet or raise and between which totals (fixed limit: one size; pot
limit: at most the pot), and whether a bring-in is due. Every action the players take is legal, so a
clean hand raises no betting finding.

Two styles: ``active`` players fold, call, bet and raise at random; ``passive`` players only
call and check (a hand whose mistake comes on a later street must get there with its betting
open), but fold facing a bet while more than ``keep`` players are in (``keep`` 0: never), and
open a pass-and-out draw deal so that it is played.
"""

from __future__ import annotations

import random

from controller.events import Action, ActionKind
from controller.poker.variants import Variant
from controller.sim.table_view import Engine


def choose(e: Engine, p: int, seat: int, v: Variant, rng: random.Random, *,
           passive: bool = False, keep: int = 0) -> Action:
    """The action of the player at engine position ``p`` (the actor), seated at ``seat``."""
    if e.can_post_bring_in(p):
        if not passive and e.can_complete_bet_or_raise(p) and rng.random() < 0.2:
            return _raise(e, p, seat, v, rng)  # the low card completes (RR Section 8 r.3)
        return Action(seat=seat, kind="post", amount=min(e.stakes.bring_in, e.stacks[p]),
                      blind="bring_in")
    owe = e.checking_or_calling_amount() or 0
    can_raise = e.can_complete_bet_or_raise(p)
    if can_raise and v.pass_and_out and e.street == 0 and max(e.bets) == 0 and (
            passive or rng.random() < 0.7):
        return _raise(e, p, seat, v, rng)  # open, so that the deal is mostly played
    if passive:
        in_hand = sum(1 for f in e.folded if not f)
        if owe > 0 and keep and in_hand > keep and e.can_fold(p):
            return Action(seat=seat, kind="fold")
        return Action(seat=seat, kind="call" if owe > 0 else "check")
    r = rng.random()
    if owe <= 0:
        if can_raise and r < 0.30:
            return _raise(e, p, seat, v, rng)
        if can_raise and r < 0.33:
            return _all_in(e, p, seat, v, rng)
        return Action(seat=seat, kind="check")
    if r < 0.25 and e.can_fold(p):
        return Action(seat=seat, kind="fold")
    if can_raise and r < 0.36:
        return _raise(e, p, seat, v, rng)
    if can_raise and r < 0.39:
        return _all_in(e, p, seat, v, rng)
    return Action(seat=seat, kind="call")


def _kind(e: Engine) -> ActionKind:
    return "bet" if max(e.bets) == 0 else "raise"


def _raise(e: Engine, p: int, seat: int, v: Variant, rng: random.Random) -> Action:
    """Complete, bet or raise: ``amount`` is the seat's total on this street."""
    lo = e.min_completion_betting_or_raising_to()
    hi = e.max_completion_betting_or_raising_to()
    if lo is None or hi is None:  # pragma: no cover - asked only when a raise is allowed
        return Action(seat=seat, kind="call")
    if v.structure == "fixed":
        amount = rng.choice((lo, hi))  # an open pair on fourth street: the small or big bet
    else:
        amount = rng.randint(lo, max(lo, min(hi, 3 * lo)))
    top = e.stacks[p] + e.bets[p]
    if amount >= top:
        return _all_in(e, p, seat, v, rng)
    if not e.can_complete_bet_or_raise_to(amount, p):  # pragma: no cover - within the bounds
        return Action(seat=seat, kind="call")
    return Action(seat=seat, kind=_kind(e), amount=amount)


def _all_in(e: Engine, p: int, seat: int, v: Variant, rng: random.Random) -> Action:
    """Everything in: as an all-in where the structure lets the whole stack go in, else the
    largest raise allowed (pot limit, fixed limit)."""
    top = e.stacks[p] + e.bets[p]
    if e.can_complete_bet_or_raise_to(top, p):
        return Action(seat=seat, kind="allin")
    hi = e.max_completion_betting_or_raising_to()
    if hi is None or not e.can_complete_bet_or_raise_to(hi, p):
        return Action(seat=seat, kind="call")
    return Action(seat=seat, kind=_kind(e), amount=hi)
