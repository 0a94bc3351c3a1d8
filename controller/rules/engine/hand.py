"""The hand engine: one hand of any game in ``variants.py``, played by the cardroom betting rules.

``Hand`` is driven by the Variant's data (streets, cards, draws, betting structure, openers,
rankings), never by per-game flow. Its vocabulary is PHH's, so a recorded hand replays action by
action: deal hole cards, deal board cards, fold, check or call, complete/bet/raise to, post the
bring-in, stand pat or discard, show or muck. Every action is checked; an action the rules do not
allow raises ``IllegalAction`` (a ValueError) with a stable code and a message naming the rule,
and changes nothing. The hand settles itself when it is over: the uncalled bet goes back, the
pots are built by all-in level and each is awarded on its own, odd chips by the rulebooks.

Players are positions 0..n-1 in PHH order: in button games position 0 is the first seat left of
the button (the small blind) and n-1 the button; heads-up, as in PHH and PokerKit, the blinds
and antes are given small blind first but posted reversed, so position 1 is the button and
posts the small blind. In stud, positions are seat order from the dealer's left.

Speed: a replay of recorded no-limit hold'em hands runs through this class tens of thousands of
times a second, so the state is plain mutable lists and ints, everything the Variant implies is
worked out once per Variant (``_plan``), and an action allocates nothing it does not keep.

Where each part lives: ``Hand`` is composed of one class per concern, each in its own module,
over the state declared once (``state.py``) and the slots declared here.

- ``hand.py`` (this module): ``Hand`` itself: its slots, the constructor and the forced bets,
  ``replay`` and ``copy``, and every public query (what is due, whose turn, the legal actions);
- ``stakes.py``: ``Stakes``, ``HouseSettings``, the plan of a Variant (``_plan``) and the
  forced-bet layout of a Stakes (``_Forced``), with their caches;
- ``state.py``: ``IllegalAction``, the phases of a street, the attributes of a hand;
- ``cards.py``: dealing hole and board cards, the stud common card, the draw and the
  Pineapple discards, the card checks;
- ``betting.py``: the betting actions, the turn within a round, the raise rules (bounds,
  caps, reopening, openers, check-raise);
- ``streets.py``: the street transitions, who opens each round (stud's bring-in and
  high hand showing), the limit bet sizes;
- ``showdown.py``: show or muck, the settlement (the uncalled bet, pots, odd chips, the
  sevens rule) and the hand strengths.

Rules applied (button-blinds-betting.md Part 2 and Part 3; each one is cited where it is coded):
RR = roberts-rules-v11.txt, RRH = roberts-rules-home.txt, WSOP = wsop-2009-live-action-rules.md,
JPN = jamies-poker-notes.md, AZ = azwine-tour-tournament-rules.txt.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from controller.poker.pots import UNCALLED, Pot, PotAward, build_pots
from controller.poker.variants import Variant
from controller.rules.engine.betting import _Betting
from controller.rules.engine.cards import _Cards
from controller.rules.engine.showdown import _Showdown
from controller.rules.engine.stakes import (
    _DEFAULT_SETTINGS,
    HouseSettings,
    Stakes,
    _Forced,
    _layout,
)
from controller.rules.engine.state import _DEAL, _DRAW, _OVER, _SHOWDOWN, IllegalAction, _HandState
from controller.rules.engine.streets import _Streets

__all__ = [
    "Hand",
    "HouseSettings",
    "IllegalAction",
    "Stakes",
]


class Hand(_Cards, _Betting, _Streets, _Showdown):
    """One hand of poker, from the forced bets to the last chip awarded (see the module doc)."""

    __slots__ = (
        "_able",
        "_actor",
        "_awards",
        "_board_need",
        "_bring_in_due",
        "_bring_in_proxy",
        "_cap",
        "_capped",
        "_checked",
        "_completion",
        "_current",
        "_deck",
        "_discard_queue",
        "_full_level",
        "_hole_need",
        "_kill_factor",
        "_last_bet_street",
        "_last_inc",
        "_live",
        "_min_bet",
        "_muck_order",
        "_n_aggr",
        "_opened",
        "_opener_pos",
        "_pending",
        "_phase",
        "_plan",
        "_pre_draw",
        "_replaying",
        "_rot",
        "_round_heads_up",
        "_s",
        "_seen",
        "_table_ante",
        "_uncontested",
        "_unit",
        "_unit_big_taken",
        "_units",
        "_ups",
        "acted",
        "antes",
        "bets",
        "board",
        "carry_over",
        "folded",
        "holes",
        "levels",
        "mucked",
        "n",
        "settings",
        "shown",
        "stacks",
        "stakes",
        "starting_stacks",
        "street",
        "totals",
        "variant",
    )

    def __init__(
        self,
        variant: Variant,
        stakes: Stakes,
        starting_stacks: Sequence[int],
        settings: HouseSettings | None = None,
    ) -> None:
        if not isinstance(variant, Variant):
            raise ValueError(f"variant must be a Variant (variants.VARIANTS), got {variant!r}")
        if not isinstance(stakes, Stakes):
            raise ValueError(f"stakes must be a Stakes, got {stakes!r}")
        if settings is not None and not isinstance(settings, HouseSettings):
            raise ValueError(f"settings must be a HouseSettings or None, got {settings!r}")
        if not isinstance(starting_stacks, (list, tuple)):
            raise ValueError(f"starting_stacks must be a list of ints, got {starting_stacks!r}")
        s = _DEFAULT_SETTINGS if settings is None else settings
        n = len(starting_stacks)
        if n < 2:
            raise ValueError(f"a hand needs at least two players, got {n}")
        if n > variant.max_players:
            raise ValueError(f"{variant.name} is dealt to at most {variant.max_players} players")
        for chips in starting_stacks:
            if type(chips) is not int or chips <= 0:
                raise ValueError(f"every starting stack must be a positive int, got "
                                 f"{list(starting_stacks)!r}")
        plan, f = _layout(variant, stakes, n, s)
        self.variant = variant
        self.stakes = stakes
        self.settings = s
        self._plan = plan
        self._s = s
        self.n = n
        self.starting_stacks = tuple(starting_stacks)
        if min(starting_stacks) > f.max_post:
            # nobody is short of the forced bets (the usual case)
            self.stacks = [c - p for c, p in zip(starting_stacks, f.post, strict=True)]
            self.antes = list(f.antes)
            self.bets = list(f.blinds)
            self._able = n
            self._current = f.current_nominal
        else:
            self._post_short(starting_stacks, f)
        self.totals = list(self.bets)
        self.folded = [False] * n
        self.mucked = [False] * n
        self.shown = [False] * n
        self.acted = [False] * n
        self.levels = [0] * n
        self._checked = [False] * n
        self.holes = [[] for _ in range(n)]
        self._ups = [[] for _ in range(n)] if plan.any_up else []
        self.board = []
        self._seen = set()
        self._deck = plan.deck
        self._discard_queue = []
        self._awards = ()
        self._uncontested = None
        self.carry_over = 0
        self._kill_factor = f.kill_factor
        # One player posts the ante for the table (a big-blind or button ante): dead money.
        self._table_ante = n > 1 and sum(1 for a in f.antes if a) == 1
        self._opened = None  # who opened the first betting round (draw high)
        self._bring_in_due = False
        self._bring_in_proxy = False
        self._muck_order = []
        self._pre_draw = None
        self._last_bet_street = -1
        self._completion = False
        self._capped = False
        self._round_heads_up = False
        self._unit = 0
        self._units = ()
        self._unit_big_taken = False
        self._cap = f.cap
        self._rot = f.rot
        self._live = n
        self._min_bet = f.min_bet
        self._full_level = self._current
        self._last_inc = f.last_inc
        self._n_aggr = f.n_aggr
        self._opener_pos = f.opener_pos
        self._replaying = False
        # the street, its phase, the actor and the cards due are set here:
        self._begin_street(0)

    def _post_short(self, starting_stacks: Sequence[int], f: _Forced) -> None:
        """Post antes and blinds when a stack is short of them: a player posts what he has
        (table stakes; RR Section 15 r.19 "entitled to get action on whatever amount of money is
        left in his stack"), and the forced bet still counts at its full size for the others
        (RR Section 14 NL r.2) unless the house counts it as posted."""
        stacks = list(starting_stacks)
        antes = [0] * self.n
        bets = [0] * self.n
        posted_max = 0
        for i in range(self.n):
            a = min(f.antes[i], stacks[i])
            stacks[i] -= a
            antes[i] = a
            b = min(f.blinds[i], stacks[i])
            stacks[i] -= b
            bets[i] = b
            posted_max = max(posted_max, b)
        self.stacks = stacks
        self.antes = antes
        self.bets = bets
        self._able = sum(1 for c in stacks if c > 0)
        self._current = (f.current_nominal if self._s.short_forced_bet == "nominal"
                         else posted_max)

    def replay(self, commands: Callable[[Hand], None]) -> None:
        """Run ``commands`` on this hand as a replay of actions it already accepted once.

        An open is judged on the cards known when it is made; a hole card known only later
        (the card a short hand was missing, put into its placeholder) must not make it illegal
        after the fact. Whether the opener held openers is the showdown's question (RRH Section
        12 Jacks-or-Better r.3), so the openers check is off while the log is replayed."""
        self._replaying = True
        try:
            commands(self)
        finally:
            self._replaying = False

    def copy(self) -> Hand:
        """An independent copy (the live monitor keeps every state it hands out unchanged and
        applies the next command to a copy). Lists and sets are copied, one level into lists of
        lists; everything else held is immutable."""
        new = Hand.__new__(Hand)
        _copy_slots(self, new)
        return new

    def _restore(self, saved: _HandState) -> None:
        """Put back every slot of ``saved``, a copy this hand made (``_Cards._advance_or_undo``)."""
        _copy_slots(cast(Hand, saved), self)

    # --- public queries ---------------------------------------------------------------------------

    @property
    def awards(self) -> tuple[PotAward, ...]:
        """The pots as awarded once the hand is over: the uncalled bet returned first (hand
        "uncalled bet returned"), then the side pots from the highest level, the main pot last."""
        if self._awards is None:
            assert self._uncontested is not None
            top, back, w, pot = self._uncontested
            awards: list[PotAward] = []
            if back > 0:
                awards.append(PotAward(back, (top,), (top,), {top: back}, UNCALLED))
            if pot:
                awards.append(PotAward(pot, (w,), (w,), {w: pot}))
            self._awards = tuple(awards)
        return self._awards

    def pots(self) -> tuple[Pot, ...]:
        """The pots as they stand (main pot first, then side pots by all-in level), the antes
        as ``stakes_and_dead`` counts them."""
        n = self.n
        folded = {i for i in range(n) if self.folded[i]}
        all_in = {i for i in range(n) if self.stacks[i] == 0 and i not in folded}
        contrib, dead = self.stakes_and_dead(self.totals)
        return build_pots(contrib, folded, dead, all_in=all_in)

    @property
    def actor(self) -> int | None:
        """The player to act in the betting round, or None when no betting action is due."""
        return self._actor

    @property
    def is_over(self) -> bool:
        return self._phase == _OVER

    @property
    def street_index(self) -> int:
        return self.street

    @property
    def pot(self) -> int:
        """Every chip in the middle: antes, bets of earlier rounds and of this round."""
        return sum(self.antes) + sum(self.totals)

    @property
    def current_bet(self) -> int:
        """The bet to match on this round (a short big blind still counts at its full size
        unless the house counts it as posted)."""
        return self._current

    @property
    def betting_over(self) -> bool:
        """No more betting can happen in this hand (a showdown may already be made)."""
        if self._phase >= _SHOWDOWN:
            return True
        return self._actor is None and self._no_more_betting()

    @property
    def discarder(self) -> int | None:
        """Whose turn it is to stand pat or discard (draw games, Pineapple), if anyone's."""
        q = self._discard_queue
        return q[0] if q and self._phase in (_DEAL, _DRAW) and self._discard_phase() else None

    @property
    def board_needed(self) -> int:
        """Board cards still to be dealt on this street (0 while a discard comes first)."""
        if self._phase != _DEAL or self._discard_queue:
            return 0
        return self._board_need

    def hole_needed(self, player: int) -> int:
        """Hole cards (or replacement cards) this player is still to receive on this street."""
        if self._phase not in (_DEAL, _DRAW) or (self._phase == _DEAL and self._discard_queue):
            return 0
        if type(player) is not int or not 0 <= player < self.n:
            return 0
        return self._hole_need[player]

    @property
    def showdown_pending(self) -> tuple[int, ...]:
        """Players who may show or muck now (live hands not yet shown, once betting is over)."""
        if self._phase == _OVER or not self.betting_over:
            return ()
        return tuple(i for i in range(self.n) if not self.folded[i] and not self.mucked[i]
                     and not self.shown[i])

    def upcards(self, player: int) -> list[str | None]:
        """The player's cards dealt face up (stud), in the order dealt."""
        if not self._ups or type(player) is not int or not 0 <= player < self.n:
            return []
        return [c for c, u in zip(self.holes[player], self._ups[player], strict=True) if u]

    def can_fold(self, player: int | None = None) -> bool:
        a = self._actor
        return (a is not None and (player is None or player == a)
                and (not self._bring_in_due or self._bring_in_proxy))

    def can_check_or_call(self, player: int | None = None) -> bool:
        a = self._actor
        return a is not None and (player is None or player == a) and not self._bring_in_due

    def checking_or_calling_amount(self) -> int | None:
        a = self._actor
        if a is None or self._bring_in_due:
            return None
        return min(self.stacks[a], max(self._current - self.bets[a], 0))

    def can_post_bring_in(self, player: int | None = None) -> bool:
        a = self._actor
        return a is not None and (player is None or player == a) and self._bring_in_due

    def can_complete_bet_or_raise(self, player: int | None = None) -> bool:
        a = self._actor
        if a is None or (player is not None and player != a):
            return False
        return self._raise_problem(a) is None

    def raise_problem(self) -> tuple[str, str] | None:
        """Why the player to act may not complete, bet or raise now: (code, the rule), or
        None when it may (or nobody is to act)."""
        a = self._actor
        return None if a is None else self._raise_problem(a)

    def min_completion_betting_or_raising_to(self) -> int | None:
        """The smallest legal total for this round a complete, bet or raise may make (the
        player's all-in if less), or None when the actor may not raise."""
        a = self._actor
        if a is None or self._raise_problem(a) is not None:
            return None
        return self._raise_bounds(a)[0]

    def max_completion_betting_or_raising_to(self) -> int | None:
        a = self._actor
        if a is None or self._raise_problem(a) is not None:
            return None
        return self._raise_bounds(a)[1]

    def can_complete_bet_or_raise_to(self, amount: int, player: int | None = None) -> bool:
        a = self._actor
        if a is None or (player is not None and player != a):
            return False
        if self._raise_problem(a) is not None:
            return False
        lo, hi, allowed = self._raise_bounds(a)
        if allowed is not None:
            return amount in allowed
        return lo <= amount <= hi

    def can_stand_pat_or_discard(self, player: int | None = None) -> bool:
        d = self.discarder
        return d is not None and (player is None or player == d)

    def can_show_or_muck(self, player: int) -> bool:
        return player in self.showdown_pending


def _slot_copier() -> Callable[[Hand, Hand], None]:
    """``Hand.copy``'s work, compiled once from the slots' names: every betting action and
    card copies the engine, and a loop of ``getattr``/``setattr`` by name was a tenth of the
    rules core's time in a replay. For each slot set (one not set yet stays unset): a list
    copied (and the lists in it), a set copied, anything else shared (immutable)."""
    lines = ["def copy_slots(self, new):"]
    for name in Hand.__slots__:
        lines += [
            "    try:",
            f"        v = self.{name}",
            "    except AttributeError:",
            "        pass",
            "    else:",
            "        if type(v) is list:",
            "            v = [list(x) if type(x) is list else x for x in v]",
            "        elif type(v) is set:",
            "            v = set(v)",
            f"        new.{name} = v",
        ]
    space: dict[str, Callable[[Hand, Hand], None]] = {}
    exec(compile("\n".join(lines), "<engine copy>", "exec"), space)  # (our own source)
    return space["copy_slots"]


_copy_slots = _slot_copier()
