"""No-limit betting for one hand: blinds, the betting rounds, whose turn it is, when a round ends.

Pure and immutable: every function returns a new ``Betting`` and leaves its argument alone. An
action the rules do not allow comes back as a ``Problem`` (a finding code for the table to raise)
instead of an exception; whether the action was applied is part of the problem (the table's
policy, documented in docs/findings.md):

- out of turn, a check facing a bet, a raise when the betting was not reopened: not applied (the
  console enters the right action; roberts-rules-v11.txt, Section 3, Betting and Raising, r.11);
- a bet or raise below the minimum: applied, increased to the minimum (Section 14, No-Limit and
  Pot-Limit, r.11: "the wager must be increased to the proper size (but no greater)");
- a wager larger than the player's chips: the player is all-in (table stakes).

Rules (research/button-blinds-betting.md §2.4, 2.6, 2.15):
- the minimum bet is the big blind on every round (RR §14 NL r.2);
- a raise must be at least the last full bet or raise on the round (RR §14 NL r.3);
- preflop the big blind counts as a full bet at its nominal size even if the big blind is short
  (RR §14 NL r.2; azwine-tour-tournament-rules.txt, How to Deal No Limit, The Pot r.6);
- an all-in for less than a full raise does not reopen the betting for players who already acted
  (RR §14 NL r.3, r.4), but several short all-ins that add up to a full raise do (RR §3 Betting
  and Raising r.7); a blind keeps its option to raise (RR §4 Rules for Using Blinds r.9);
- the round is complete when every player who is not folded and not all-in has acted and matched
  the bet (research/button-blinds-betting.md §2.15).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

STREETS = ("preflop", "flop", "turn", "river")

# A forced post due: (seat, amount, name, live). A dead post (an ante, the dead part of made-up
# blinds) goes into the pot but is not part of the poster's bet (roberts-rules-v11.txt,
# Section 4, Button and Blind Use, intro: "A blind other than the big blind may be treated as
# dead"; Section 4, Rules for Using Blinds, r.10: "The remainder ... is not part of your bet").
Due = tuple[int, int, str, bool]


@dataclass(frozen=True)
class Player:
    """One player dealt into the hand."""

    seat: int
    stack: int  # chips behind (not yet wagered)
    bet: int = 0  # wagered on this street
    total: int = 0  # wagered this hand, this street included
    folded: bool = False
    acted: bool = False  # has acted voluntarily on this street (a blind post is not acting)
    level: int = 0  # the bet to match when the player last acted (for the reopen rule)

    @property
    def all_in(self) -> bool:
        return not self.folded and self.stack == 0

    @property
    def can_act(self) -> bool:
        return not self.folded and self.stack > 0


@dataclass(frozen=True)
class Problem:
    """An action the rules do not allow as entered: a finding code and what the table did."""

    code: str
    fill: Mapping[str, object]
    applied: bool


@dataclass(frozen=True)
class Betting:
    """The betting state of a hand. ``players`` are in dealing order: the first seat left of the
    button first, the button last."""

    players: tuple[Player, ...]
    big_blind: int
    street: int = 0
    current_bet: int = 0
    last_full: int = 0  # size of the last full bet or raise on this street
    blinds_due: tuple[Due, ...] = ()  # forced posts still to make, in order
    after_blinds: int | None = None  # preflop action starts left of this seat (None: last post)
    to_act: int | None = None
    closed: bool = False
    actions: int = 0  # voluntary actions on this street

    # --- questions -----------------------------------------------------------------------------

    def player(self, seat: int) -> Player | None:
        for p in self.players:
            if p.seat == seat:
                return p
        return None

    @property
    def live(self) -> tuple[int, ...]:
        """Seats not folded (all-in players included)."""
        return tuple(p.seat for p in self.players if not p.folded)

    @property
    def hand_over(self) -> bool:
        """Everyone but one has folded: the pot goes to that player without a showdown."""
        return len(self.live) <= 1

    @property
    def no_more_betting(self) -> bool:
        """No betting round remains: one player left, or the river round is complete, or the
        round is complete and at most one live player has chips behind (the rest of the board
        is then dealt without betting: research/irregularities.md ALLIN_RUNOUT_NOT_PREMATURE)."""
        if self.hand_over:
            return True
        if not self.closed:
            return False
        return self.street >= 3 or sum(p.can_act for p in self.players) <= 1

    @property
    def rounds_done(self) -> int:
        """Betting rounds completed: 0 while the preflop round is open, 1 after it, ..."""
        return self.street + (1 if self.closed else 0)

    @property
    def min_raise_to(self) -> int:
        """The smallest legal bet or raise, as a total for the street (RR §14 NL r.2, r.3)."""
        return self.current_bet + max(self.last_full, self.big_blind)

    def can_raise(self, seat: int) -> bool:
        """May this seat bet or raise now? (RR §14 NL r.3; RR §3 Betting and Raising r.7)."""
        p = self.player(seat)
        if p is None or not p.can_act or self.blinds_due:
            return False
        if p.stack <= self.current_bet - p.bet:
            return False  # can only call all-in
        if not any(o.can_act and o.bet + o.stack > self.current_bet
                   for o in self.players if o.seat != seat):
            # Nobody else can put in more than the bet already made (folded, all-in, or short
            # of calling it): a raise could never be called, so there is none to make (the
            # excess would only come back as an uncalled bet; PokerKit and PHH agree).
            return False
        if not p.acted:
            return True
        return self.current_bet - p.level >= max(self.last_full, self.big_blind)


# --- building --------------------------------------------------------------------------------


def start(
    order: Sequence[int],
    stacks: Mapping[int, int],
    blinds: Sequence[tuple[int, int, str] | Due],
    big_blind: int,
    after_blinds: int | None = None,
) -> Betting:
    """A new hand: ``order`` is the dealing order (left of the button first, the button last);
    ``blinds`` the posts due in order as (seat, amount, name[, live]); ``after_blinds`` the seat
    preflop action starts after (the big blind, or the straddle or kill; RR §4 intro: "action
    starts with the first player to the left of the blinds")."""
    players = tuple(Player(seat=s, stack=stacks[s]) for s in order)
    due = tuple((b[0], b[1], b[2], b[3] if len(b) > 3 else True)
                for b in blinds if b[1] > 0)
    b = Betting(players=players, big_blind=big_blind, last_full=big_blind, blinds_due=due,
                after_blinds=after_blinds)
    if due:
        return replace(b, to_act=due[0][0])
    return _blinds_done(b, None)


def next_street(b: Betting) -> Betting:
    """Open the next betting round (after the flop, turn or river is on the board)."""
    players = tuple(replace(p, bet=0, acted=False, level=0) for p in b.players)
    nb = replace(
        b,
        players=players,
        street=b.street + 1,
        current_bet=0,
        last_full=b.big_blind,
        closed=False,
        to_act=None,
        actions=0,
    )
    # First to act after the flop: the first active player left of the button (RR §4 intro).
    return _advance(nb, len(players) - 1)


# --- acting ----------------------------------------------------------------------------------


Result = tuple["Betting", tuple[Problem, ...]]


def act(b: Betting, seat: int, kind: str, amount: int | None) -> Result:
    """Apply one action; return the new state and what was wrong with the action, if anything."""
    idx = next((i for i, p in enumerate(b.players) if p.seat == seat), None)
    if idx is None:
        return b, (_na(f"Seat {seat} is not dealt in this hand ({kind})."),)
    if b.to_act is None:
        return b, (_na(f"Seat {seat} {kind}: no betting round is open."),)
    if seat != b.to_act:
        fill = {"seat": seat, "to_act": b.to_act, "action": kind}
        return b, (Problem("OOT_ACTION", fill, False),)
    p = b.players[idx]
    if b.blinds_due:
        if kind != "post":
            name = b.blinds_due[0][2]
            return b, (_na(f"Seat {seat} must post the {name} before acting ({kind})."),)
        return _post(b, idx, amount or 0)
    if kind == "post":
        return b, (_na(f"Seat {seat} posted, but no blind is due."),)
    to_call = b.current_bet - p.bet
    if kind == "fold":
        return _done(b, idx, replace(p, folded=True, acted=True, level=b.current_bet)), ()
    if kind == "check" or (kind == "call" and to_call == 0):
        if to_call > 0:
            return b, (_na(f"Seat {seat} checked facing a bet of {b.current_bet}; it may call "
                           f"{to_call}, raise or fold."),)
        return _done(b, idx, replace(p, acted=True, level=b.current_bet)), ()
    if kind == "call":
        return _wager(b, idx, min(b.current_bet, p.bet + p.stack)), ()
    cap = p.bet + p.stack
    if kind == "allin" and not b.can_raise(seat):
        # Pushing every chip where no raise is open (not reopened, or nobody left who could
        # call it) is a call: the chips that could never be called stay with the player.
        return _wager(b, idx, min(b.current_bet, cap)), ()
    target = cap if kind == "allin" else min(amount if amount is not None else 0, cap)
    if target <= b.current_bet:
        if target == cap:
            return _wager(b, idx, target), ()  # all-in for a call or less
        return _raise(b, idx, target, undersized=True)
    return _raise(b, idx, target, undersized=False)


def _na(detail: str) -> Problem:
    return Problem("ACTION_NOT_AVAILABLE", {"detail": detail}, False)


def _post(b: Betting, idx: int, amount: int) -> Result:
    p = b.players[idx]
    seat, due, name, live = b.blinds_due[0]
    # A short stack posts all it has (RR §15 r.19: "entitled to get action on whatever amount
    # of money is left in his stack"); the blind's size does not change (RR §4 r.1).
    proper = min(due, p.stack)
    problems: tuple[Problem, ...] = ()
    if amount != proper:
        problems = (Problem("BLIND_WRONG_AMOUNT",
                            {"seat": seat, "amount": amount, "due": proper,
                             "blind": post_name(name)}, True),)
    bet = p.bet + proper if live else p.bet
    np = replace(p, stack=p.stack - proper, bet=bet, total=p.total + proper)
    players = _put(b.players, idx, np)
    nb = replace(b, players=players, blinds_due=b.blinds_due[1:],
                 current_bet=max(b.current_bet, np.bet))
    if nb.blinds_due:
        return replace(nb, to_act=nb.blinds_due[0][0]), problems
    return _blinds_done(nb, idx), problems


def _blinds_done(b: Betting, last_poster: int | None) -> Betting:
    # The big blind is a full bet at its nominal size, even when posted short (RR §14 NL r.2).
    nb = replace(b, current_bet=max(b.current_bet, b.big_blind), last_full=b.big_blind)
    # Preflop the action starts left of the blinds (RR §4 intro).
    after = next((i for i, p in enumerate(b.players) if p.seat == b.after_blinds), None)
    if after is None:
        after = last_poster if last_poster is not None else len(b.players) - 1
    return _advance(nb, after)


POST_NAMES = {
    "small_blind": "small blind", "big_blind": "big blind", "straddle": "straddle",
    "kill": "kill blind", "ante": "ante", "missed_small": "missed small blind (dead)",
    "missed_big": "missed big blind", "new_player": "new player's big blind",
}


def post_name(kind: str) -> str:
    """A post kind (docs/events.md) as people say it."""
    return POST_NAMES.get(kind, kind)


def straddle(b: Betting, seat: int, amount: int) -> Result:
    """An optional live straddle, posted after the blinds and before any voluntary action: it
    sets a new minimum bring-in and is not a raise, and the straddler acts last on the first
    round with the option to raise (roberts-rules-v11.txt, Section 14, No-Limit, r.15)."""
    idx = next((i for i, p in enumerate(b.players) if p.seat == seat), None)
    if idx is None or b.street != 0 or b.blinds_due or b.actions or b.closed:
        return b, (_na(f"Seat {seat} may not straddle now: a straddle comes after the blinds "
                       "and before any other action."),)
    p = b.players[idx]
    proper = min(amount, p.stack)
    np = replace(p, stack=p.stack - proper, bet=p.bet + proper, total=p.total + proper)
    nb = replace(b, players=_put(b.players, idx, np), current_bet=max(b.current_bet, np.bet),
                 last_full=max(b.last_full, np.bet), after_blinds=seat)
    return _advance(nb, idx), ()


def kill_hand(b: Betting, seat: int) -> Betting:
    """The dealer kills a hand that is not played (a tournament player absent when the starting
    hands are complete, roberts-rules-v11.txt, Section 15, r.13): folded without acting."""
    idx = next((i for i, p in enumerate(b.players) if p.seat == seat), None)
    if idx is None or b.players[idx].folded:
        return b
    nb = replace(b, players=_put(b.players, idx, replace(b.players[idx], folded=True)))
    if nb.to_act == seat or nb.hand_over:
        return _advance(nb, idx)
    return nb


def _raise(b: Betting, idx: int, target: int, *, undersized: bool) -> Result:
    p = b.players[idx]
    cap = p.bet + p.stack
    if not b.can_raise(p.seat):
        call = min(b.current_bet, cap) - p.bet
        return b, (Problem("RAISE_NOT_PERMITTED", {"seat": p.seat, "call": call}, False),)
    minimum = min(b.min_raise_to, cap)
    problems: tuple[Problem, ...] = ()
    if undersized or target < minimum:
        problems = (Problem("UNDERSIZED_WAGER", {
            "seat": p.seat, "amount": target, "minimum": minimum,
            "fix": f"Feltguard has applied it as {minimum} (the minimum; no greater).",
        }, True),)
        target = minimum
    return _wager(b, idx, target), problems


def _wager(b: Betting, idx: int, target: int) -> Betting:
    """Seat at ``idx`` brings its bet on this street to ``target`` (a call, bet or raise)."""
    p = b.players[idx]
    put = max(target - p.bet, 0)
    put = min(put, p.stack)
    target = p.bet + put
    current, last_full = b.current_bet, b.last_full
    if target > current:
        increment = target - current
        if increment >= max(last_full, b.big_blind):
            last_full = increment  # a full bet or raise: it sets the next minimum raise
        current = target
    np = replace(p, stack=p.stack - put, bet=target, total=p.total + put, acted=True,
                 level=current)
    nb = replace(b, current_bet=current, last_full=last_full)
    return _done(nb, idx, np)


def _done(b: Betting, idx: int, np: Player) -> Betting:
    nb = replace(b, players=_put(b.players, idx, np), actions=b.actions + 1)
    return _advance(nb, idx)


def _put(players: tuple[Player, ...], idx: int, p: Player) -> tuple[Player, ...]:
    return (*players[:idx], p, *players[idx + 1:])


def _owes(b: Betting, p: Player, others_can_act: bool) -> bool:
    if not p.can_act:
        return False
    if p.bet < b.current_bet:
        return True
    # A player who has matched the bet still acts if it has not acted yet (the big blind's
    # option), unless nobody else could answer a bet.
    return not p.acted and others_can_act


def _advance(b: Betting, after: int) -> Betting:
    """Whose turn after the player at index ``after``; close the round if nobody owes action."""
    if b.hand_over:
        return replace(b, to_act=None, closed=True)
    n = len(b.players)
    able = sum(p.can_act for p in b.players)
    for k in range(1, n + 1):
        p = b.players[(after + k) % n]
        if _owes(b, p, able - (1 if p.can_act else 0) > 0):
            return replace(b, to_act=p.seat, closed=False)
    return replace(b, to_act=None, closed=True)


def contributions(b: Betting) -> dict[int, int]:
    """Chips each seat has put in this hand."""
    return {p.seat: p.total for p in b.players}


def folded(b: Betting) -> frozenset[int]:
    return frozenset(p.seat for p in b.players if p.folded)
