"""The state of a hand, declared once for every part of ``Hand`` (``hand.py``).

``Hand`` is one class composed of a class per concern (``cards.py``,
``betting.py``, ``streets.py``, ``showdown.py``); each reads and writes the
same attributes, whose slots are on ``Hand``. Here: ``IllegalAction``, the phases of a street,
the card orders the stud rules use, and ``_HandState``, the base of every part: the hand's
attributes with their types, the methods one part calls in another, and the message for an
action out of its time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from controller.poker.cards import RANKS
from controller.poker.pots import PotAward
from controller.poker.variants import Variant
from controller.rules.engine.stakes import HouseSettings, Stakes, _Plan

_RANK_HIGH = {r: i for i, r in enumerate(RANKS)}  # deuce 0 .. ace 12
_RANK_LOW = {r: (i + 1) % 13 for i, r in enumerate(RANKS)}  # ace 0, deuce 1 .. king 12


class IllegalAction(ValueError):
    """An action the rules do not allow now; nothing was changed. ``code`` is stable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


# phases of a street
_DEAL = 0  # cards of the street being dealt (and a discard that comes first)
_DRAW = 1  # draw / discard in turn, and the replacement cards
_BET = 2  # the betting round
_SHOWDOWN = 3  # every street done: hands shown or mucked
_OVER = 4  # settled


class _HandState:
    """The attributes of a hand, declared for every part of it (set by ``Hand.__init__`` and
    the street transitions; the slots are ``Hand.__slots__``)."""

    if not TYPE_CHECKING:
        # Empty, so that a Hand has no __dict__: its slots are Hand.__slots__. Hidden from the
        # type checker, which would otherwise refuse every assignment in a part to a name not in
        # that part's own (empty) __slots__.
        __slots__ = ()

    # the game, the stakes, the house
    variant: Variant
    stakes: Stakes
    settings: HouseSettings
    _s: HouseSettings  # the same settings, the name the hot paths read
    _plan: _Plan
    n: int
    starting_stacks: tuple[int, ...]
    # the chips: behind, posted as antes, bet this round, live chips this hand (antes apart)
    stacks: list[int]
    antes: list[int]
    bets: list[int]
    totals: list[int]
    carry_over: int  # antes left for the next deal when nobody opened
    # the players
    folded: list[bool]
    mucked: list[bool]
    shown: list[bool]
    acted: list[bool]  # this round
    levels: list[int]  # the bet each player last matched or made this round
    _checked: list[bool]  # checked this round (check-raise, the sevens rule)
    _live: int  # hands not folded or mucked
    _able: int  # hands not folded with chips behind
    _muck_order: list[int]
    # the cards
    holes: list[list[str | None]]
    _ups: list[list[bool]]  # per hole card: dealt face up (stud); [] in games without upcards
    board: list[str | None]
    _seen: set[str | None]  # cards in play
    _deck: frozenset[str]
    # the street and what it is waiting for
    street: int
    _phase: int
    _actor: int | None
    _hole_need: list[int]
    _board_need: int
    _pending: int  # cards and discards still due before the street moves on
    _discard_queue: list[int]
    # the betting round
    _current: int  # the bet to match
    _full_level: int  # the level of the last full bet or raise (a short all-in reopens nothing)
    _last_inc: int  # the size of the last full bet or raise
    _min_bet: int
    _n_aggr: int  # bets and raises this round, toward the cap
    _cap: int | None
    _capped: bool
    _round_heads_up: bool
    _completion: bool  # stud: the bring-in is still to be completed to a full bet
    _bring_in_due: bool
    _bring_in_proxy: bool
    _unit: int  # limit: the bet of this round (the small or the big bet)
    _units: tuple[int, ...]  # fourth street's open pair: the small and the big bet
    _unit_big_taken: bool
    _kill_factor: tuple[int, int]
    _table_ante: bool  # one player posts the ante for the table: dead money
    _opener_pos: int  # who acts first on the first round
    _opened: int | None  # who opened the first betting round (draw high)
    _rot: tuple[tuple[int, ...], ...]  # per position, the others clockwise after it
    _last_bet_street: int
    _pre_draw: list[int] | None  # the totals before the first draw (the sevens rule)
    _replaying: bool  # Hand.replay: the openers check is off
    # the settlement
    _awards: tuple[PotAward, ...] | None  # None: an uncontested pot, built when asked for
    _uncontested: tuple[int, int, int, int] | None  # (top bettor, back, winner, pot)

    if TYPE_CHECKING:
        # Where one part calls another: declared here for the type checker, defined where named.

        @property
        def betting_over(self) -> bool: ...  # hand.py

        @property
        def discarder(self) -> int | None: ...  # hand.py

        @property
        def showdown_pending(self) -> tuple[int, ...]: ...  # hand.py

        def _check_cards(self, cards: Sequence[str | None]) -> None: ...  # cards.py

        def _no_more_betting(self) -> bool: ...  # betting.py

        def _advance_dealing(self) -> None: ...  # streets.py

        def _end_street(self, betting_happened: bool) -> None: ...  # streets.py

        def _maybe_settle(self) -> None: ...  # showdown.py

        def _settle(self) -> None: ...  # showdown.py

        def copy(self) -> _HandState: ...  # hand.py

        def _restore(self, saved: _HandState) -> None: ...  # hand.py

    def _not_now(self, what: str) -> str:
        """Why an action cannot be taken now: the street, its phase, who is to act."""
        phase = ("dealing", "drawing", "betting", "showdown", "over")[self._phase]
        name = self.variant.streets[min(self.street, self._plan.last)].name
        actor = f", player {self._actor + 1} to act" if self._actor is not None else ""
        return f"cannot {what} now ({name}, {phase}{actor})"
