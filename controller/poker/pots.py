"""Pots: the uncalled bet, main and side pots, split pots and odd chips, and settling a hand.

Pure functions over chip counts per seat (ints, in the table's chips). The algorithm follows
research/button-blinds-betting.md §3.2 (pot building) and §3.4 (award order, odd chips); each rule
is cited beside the code that applies it.

Bad input (negative chips, a winner who is not in the odd-chip order, a live hand without known
cards at a showdown...) raises ValueError with a message saying what is wrong; nothing is
partially applied, because every function returns new values and changes none of its arguments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from controller.poker.hands.evaluate import hand_name, hand_value
from controller.poker.records import replace

UNCALLED = "uncalled bet returned"


@dataclass(frozen=True)
class Pot:
    """One pot: its chips and the seats that can win it (seat numbers, ascending)."""

    amount: int
    eligible: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"amount": self.amount, "eligible": list(self.eligible)}


@dataclass(frozen=True)
class PotAward:
    """A pot as awarded: who won it and how many chips each winner takes."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    hand: str = ""  # name of the winning hand ("" when won without showdown)

    def __post_init__(self) -> None:
        # frozen means frozen: keep a private read-only copy of the caller's mapping
        object.__setattr__(self, "shares", MappingProxyType(dict(self.shares)))
        object.__setattr__(self, "eligible", tuple(self.eligible))
        object.__setattr__(self, "winners", tuple(self.winners))

    def __hash__(self) -> int:
        # the read-only mapping is not hashable itself; awards are values, so hash by content
        shares = tuple(sorted(self.shares.items()))
        return hash((self.amount, self.eligible, self.winners, shares, self.hand))

    def to_json(self) -> dict[str, Any]:
        return {
            "amount": self.amount,
            "eligible": list(self.eligible),
            "winners": list(self.winners),
            "shares": {str(seat): chips for seat, chips in self.shares.items()},
            "hand": self.hand,
        }


def _check_chips(contributions: Mapping[int, int], dead: int = 0) -> None:
    for seat, chips in contributions.items():
        if not isinstance(chips, int) or isinstance(chips, bool) or chips < 0:
            raise ValueError(f"seat {seat}: contribution must be a non-negative int, got {chips!r}")
    if not isinstance(dead, int) or isinstance(dead, bool) or dead < 0:
        raise ValueError(f"dead money must be a non-negative int, got {dead!r}")


def return_uncalled(
    contributions: Mapping[int, int],
    folded: AbstractSet[int] = frozenset(),
) -> tuple[dict[int, int], tuple[int, int] | None]:
    """The part of the largest contribution nobody else matched goes back: (new contributions,
    (seat, amount returned) or None).

    Everyone else counts, folded or not: chips a folder put in did call that much
    (research/button-blinds-betting.md §3.2 step 1; jamies-poker-notes.md, All-ins: a side pot
    that "only belongs to one player" with nobody left to call it, "that player takes the side
    pot immediately").

    A player who folded gets nothing back, even the part nobody matched: folded chips stay in
    the pot (jamies-poker-notes.md, All-ins: "Any player who folds, forfeits all of their claims
    to all of the pots"); e.g. a tournament absent player's killed big blind."""
    _check_chips(contributions)
    new = dict(contributions)
    if not new:
        return new, None
    top_seat = max(new, key=lambda seat: new[seat])
    top = new[top_seat]
    second = max((chips for seat, chips in new.items() if seat != top_seat), default=0)
    if top <= second or top_seat in folded:
        return new, None
    new[top_seat] = second
    return new, (top_seat, top - second)


def build_pots(
    contributions: Mapping[int, int],
    folded: AbstractSet[int],
    dead: int = 0,
    *,
    all_in: AbstractSet[int] | None = None,
) -> tuple[Pot, ...]:
    """Main pot first, then side pots by all-in level; folded players' chips stay in, they are
    not eligible; `dead` money (antes) goes to the main pot.

    At the end of the betting every live player has either matched the top bet or is all-in, so
    each distinct live contribution is an all-in level. During a betting round pass ``all_in``
    (the seats that are all-in): then only their levels split the pot, and a live seat that has
    not yet matched the bet stays eligible for every pot.

    research/button-blinds-betting.md §3.2 [DERIVED] pot-building algorithm; a side pot is "a
    separate pot formed when one or more players are all in" (roberts-rules-v11.txt, Glossary,
    SIDE POT); "no player can win a pot that they didn't contribute to" and "any player who folds
    forfeits all of their claims to all of the pots" (jamies-poker-notes.md, All-ins). Dead money
    to the main pot is NOT IN THE RULEBOOKS (research note §3.2 step 4)."""
    _check_chips(contributions, dead)
    live = [seat for seat in contributions if seat not in folded]
    if not live:
        total = sum(contributions.values()) + dead
        return (Pot(total, ()),) if total else ()
    if all_in is None:
        levels = {contributions[seat] for seat in live}
    else:
        levels = {contributions[seat] for seat in live if seat in all_in}
        levels.add(max(contributions[seat] for seat in live))
    pots: list[Pot] = []
    prev = 0
    for level in sorted(levels):
        amount = sum(min(c, level) - min(c, prev) for c in contributions.values())
        if not pots:
            amount += dead
        eligible = tuple(
            sorted(
                seat
                for seat in live
                if contributions[seat] >= level or (all_in is not None and seat not in all_in)
            )
        )
        if pots and pots[-1].eligible == eligible:
            # the same seats contest both levels: one pot, not two
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        else:
            pots.append(Pot(amount, eligible))
        prev = level
    # Chips folded players put in above every live level: no live seat contested them, so they
    # stay in the top pot (a folder forfeits them, jamies-poker-notes.md, All-ins).
    excess = sum(max(c - prev, 0) for c in contributions.values())
    if excess:
        pots[-1] = Pot(pots[-1].amount + excess, pots[-1].eligible)
    # a pot that holds nothing (the zero level when there is no dead money) is no pot
    return tuple(pot for pot in pots if pot.amount)


def split(
    amount: int, winners: Sequence[int], order: Sequence[int], unit: int = 1
) -> dict[int, int]:
    """Equal shares; odd chips (in `unit`s, at most one each) go to the winners first in `order`.

    "An odd chip will be broken down to the smallest unit used in the game" and "No player may
    receive more than one odd chip" (roberts-rules-v11.txt, Section 3 General Poker Rules, Ties,
    rules 3 and 4). If `amount` is not a multiple of `unit`, the part of a unit left over goes
    with the last odd chip, so no chip is lost."""
    if not isinstance(amount, int) or amount < 0:
        raise ValueError(f"amount must be a non-negative int, got {amount!r}")
    if not isinstance(unit, int) or unit < 1:
        raise ValueError(f"unit must be a positive int, got {unit!r}")
    if not winners:
        raise ValueError("a pot needs at least one winner")
    if len(set(winners)) != len(winners):
        raise ValueError(f"a winner is listed twice: {list(winners)!r}")
    missing = [seat for seat in winners if seat not in order]
    if missing:
        raise ValueError(f"winners {missing!r} are not in the odd-chip order {list(order)!r}")
    n = len(winners)
    base = amount // (n * unit) * unit
    shares = {seat: base for seat in winners}
    rest = amount - n * base  # < n * unit: at most one odd unit each
    seen: set[int] = set()
    for seat in order:
        if rest <= 0:
            break
        if seat in shares and seat not in seen:
            seen.add(seat)
            odd = min(unit, rest)
            shares[seat] += odd
            rest -= odd
    return shares


def odd_chip_order(button: int, seats_clockwise: Sequence[int]) -> tuple[int, ...]:
    """The seats clockwise starting with the first seat left of the button, the button last
    ("In a button game, the first hand clockwise from the button gets the odd chip",
    roberts-rules-v11.txt, Section 3 General Poker Rules, Ties, rule 5(a))."""
    seats = list(seats_clockwise)
    if len(set(seats)) != len(seats):
        raise ValueError(f"a seat is listed twice in the clockwise order: {seats!r}")
    if button not in seats:
        raise ValueError(f"button seat {button!r} is not one of the table's seats {seats!r}")
    i = seats.index(button) + 1
    return tuple(seats[i:] + seats[:i])


def settle(
    contributions: Mapping[int, int],
    folded: AbstractSet[int],
    holes: Mapping[int, Sequence[str]],
    board: Sequence[str],
    button: int,
    seats_clockwise: Sequence[int],
    unit: int = 1,
    dead: int = 0,
) -> tuple[PotAward, ...]:
    """Settle a hold'em hand: return the uncalled bet, build the pots, award each pot separately
    (side pots first, highest level first: RR §3 Showdown r.7) to the best hand(s) among its
    eligible seats, odd chip to the first winner clockwise from the button (RR §3 Ties r.5(a)).
    A pot with one eligible seat goes to it without showdown. seats_clockwise lists the table's
    seat numbers in clockwise order (e.g. [1..6]). The returned awards list the uncalled-bet
    return first as an award with winners=(seat,) and hand="uncalled bet returned" if any.

    Raises ValueError, before awarding anything, when a pot has nobody to win it (every seat
    folded) or a seat that must show down has no known hole cards or an impossible hand."""
    order = odd_chip_order(button, seats_clockwise)
    outsiders = sorted(seat for seat in contributions if seat not in order)
    if outsiders:
        raise ValueError(f"seats {outsiders!r} put chips in but are not at the table {order!r}")
    remaining, returned = return_uncalled(contributions, folded)
    pots = build_pots(remaining, folded, dead)

    # Evaluate every hand that must be shown before awarding anything, so bad cards raise
    # before any award is made.
    contested = sorted({seat for pot in pots if len(pot.eligible) > 1 for seat in pot.eligible})
    values: dict[int, int] = {}
    for seat in contested:
        hole = holes.get(seat)
        if not hole:
            raise ValueError(f"seat {seat} is in a showdown but its hole cards are not known")
        try:
            values[seat] = hand_value([*hole, *board])
        except ValueError as exc:
            raise ValueError(f"seat {seat}: cannot read its hand at the showdown: {exc}") from None
    shown = [card for seat in contested for card in holes[seat]] + list(board)
    if len(set(shown)) != len(shown):
        dupes = sorted({card for card in shown if shown.count(card) > 1})
        raise ValueError(f"the same card is in two hands at the showdown: {', '.join(dupes)}")

    awards: list[PotAward] = []
    if returned is not None:
        seat, chips = returned
        awards.append(PotAward(chips, (seat,), (seat,), {seat: chips}, UNCALLED))
    # Side pots first, the highest level first, then the main pot (roberts-rules-v11.txt,
    # Section 3 General Poker Rules, Showdown, rule 7); each pot on its own ("All side pots and
    # the main pot will be split as separate pots, not mixed together", Ties, rule 5(d)).
    for pot in reversed(pots):
        if not pot.eligible:
            raise ValueError(f"a pot of {pot.amount} has no live seat to win it")
        if len(pot.eligible) == 1:
            seat = pot.eligible[0]
            awards.append(PotAward(pot.amount, pot.eligible, (seat,), {seat: pot.amount}))
            continue
        best = max(values[seat] for seat in pot.eligible)
        # equal values tie: suits never break a tie (Ties, rule 1)
        winners = tuple(seat for seat in pot.eligible if values[seat] == best)
        shares = split(pot.amount, winners, order, unit)
        awards.append(PotAward(pot.amount, pot.eligible, winners, shares, hand_name(best)))
    return tuple(awards)


def with_carry(awards: Sequence[PotAward], stacks: Mapping[int, int], carry: int,
               order: Sequence[int]) -> tuple[tuple[PotAward, ...], dict[int, int]]:
    """The carried antes join the main pot (the engine lists it last), split like any pot: odd
    chips to the winners first in ``order``, the seats from the left of the button (RR Section
    3, Ties, r.5(a)). The antes of deals nobody opened (draw high's pass and out, RR Section 12
    r.14) join the next pot won this way, at the table and in a replay of its hand."""
    i = max(k for k, a in enumerate(awards) if a.winners)
    main = awards[i]
    extra = split(carry, main.winners, order)
    shares = {w: main.shares.get(w, 0) + extra.get(w, 0) for w in {*main.shares, *extra}}
    stacks = {s: v + extra.get(s, 0) for s, v in stacks.items()}
    main = replace(main, amount=main.amount + carry, shares=shares)
    return (*awards[:i], main, *awards[i + 1:]), stacks
