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

Rules applied (button-blinds-betting.md Part 2 and Part 3; each one is cited where it is coded):
RR = roberts-rules-v11.txt, RRH = roberts-rules-home.txt, WSOP = wsop-2009-live-action-rules.md,
JPN = jamies-poker-notes.md, AZ = azwine-tour-tournament-rules.txt.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from controller.rules.cards import RANKS
from controller.rules.evaluate import CARD_CODES, hand_name, value_of_code
from controller.rules.pots import UNCALLED, Pot, PotAward, build_pots, return_uncalled, split
from controller.rules.rankings import board_strength, describe, omaha_strength, strength, suit_rank
from controller.rules.variants import JOKER, LOW_RANKINGS, Variant

__all__ = [
    "Hand",
    "HouseSettings",
    "IllegalAction",
    "Stakes",
]


_RANK_HIGH = {r: i for i, r in enumerate(RANKS)}  # deuce 0 .. ace 12
_RANK_LOW = {r: (i + 1) % 13 for i, r in enumerate(RANKS)}  # ace 0, deuce 1 .. king 12


class IllegalAction(ValueError):
    """An action the rules do not allow now; nothing was changed. ``code`` is stable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Stakes:
    """The forced bets and limits of one hand, per player position in PHH order.

    ``antes`` and ``blinds_or_straddles`` may be shorter than the number of players (the rest
    post nothing). ``killer`` is the position posting a kill blind (RR Section 13): its entry in
    ``blinds_or_straddles`` is the kill, and the fixed limits are multiplied by 2 (``kill``
    "full") or 1.5 ("half") for this deal."""

    antes: tuple[int, ...] = ()
    blinds_or_straddles: tuple[int, ...] = ()
    bring_in: int = 0
    small_bet: int = 0  # fixed limit; spread limit: the lowest bet
    big_bet: int = 0  # fixed limit; spread limit: the highest bet
    min_bet: int = 0  # no limit / pot limit (0: the big blind)
    killer: int | None = None
    kill: str = "full"
    # The position that acts first before the flop, when it is not the one left of the largest
    # blind: at a live table a returning player's or a new player's big blind posted out of
    # position is live, yet the action still starts left of the big blind (RR Section 4 r.10,
    # r.11; Section 4 intro). None: left of the largest blind, as in PHH.
    opener: int | None = None


@dataclass(frozen=True)
class HouseSettings:
    """House choices where the rulebooks differ or are silent; defaults follow Robert's Rules
    (the house convention, shared/rulebooks/README.md). docs/games.md lists each one."""

    # Fixed limit: bets + raises allowed on a round. None: RR Section 3 Betting r.4 -- a bet and
    # three raises with three or more betting rounds, a bet and four raises with two.
    raise_cap: int | None = None
    # "becomes": uncapped once the action is heads-up before the cap (RR Section 3 r.5);
    # "starts": only when the round starts heads-up (WSOP Section 3 r.4, JPN Fixed Limit);
    # "never": tournaments (RR Section 15 r.23).
    heads_up_uncapped: str = "becomes"
    # Fixed limit preflop: the big blind is the bet of "a bet and three raises" (cardroom
    # practice; PokerKit counts only the raises).
    blind_counts_as_bet: bool = True
    # Fixed/spread limit short all-in: "half_bet" (RR Section 3 r.7) or "full_bet" (JPN).
    limit_short_all_in: str = "half_bet"
    # Pot limit: count the small blind as a big blind until the big blind acts (RR Section 14
    # Pot-Limit r.5, "many structures" in money games); off = strict (tournaments, PHH).
    pot_limit_small_blind_as_big: bool = False
    # After a straddle the minimum raise is the straddle ("straddle": RR Section 14 NL r.15, "a
    # straddle bet sets a new minimum bring-in") or the big blind ("big_blind": WSOP Section 4
    # r.11, "three times the big blind"; PokerKit).
    straddle_min_raise: str = "straddle"
    # A big blind (or bring-in) posted short still counts at its full size for callers
    # ("nominal": RR Section 14 NL r.2, RR Section 8 r.4) or only as posted ("posted": PokerKit).
    short_forced_bet: str = "nominal"
    # Stud: an open pair on fourth street allows the big bet (RR Section 8 intro).
    open_pair_big_bet: bool = True
    # Limit ace-to-five lowball: check-raise allowed after an alert (RR Section 11 A-5 r.2).
    a5_check_raise: bool = False
    # Draw high after the draw: "opener" (RR Section 12 intro) or "button" (JPN Five Card Draw).
    draw_high_after_draw: str = "opener"
    # Stud: the player due to open is all-in: "left" -- first active player to the left (RR
    # Section 8 r.4) -- or "next_card": the next qualifying card opens (JPN Seven Card Stud).
    stud_all_in_opener: str = "left"
    # The smallest chip: odd chips are broken down to it (RR Section 3 Ties r.3).
    odd_chip_unit: int = 1
    # Limit ace-to-five lowball: a player who checks a seven or better after the draw and has
    # the best hand wins nothing of the action after the draw (RR Section 11 A-5 r.4, "assumed
    # to be in use"); 5 for WSOP Section 11 A-5 r.4 (a five); 0 turns it off (RRH: optional).
    sevens_rule: int = 7
    # Six-plus hold'em: the rulebook order (a straight beats trips; a flush beats a full house,
    # JPN Six Plus Hold'em); many rooms rank trips over a straight (NOT IN THE RULEBOOKS).
    short_deck_trips_beat_straight: bool = False
    short_deck_flush_beats_full_house: bool = True

    def __post_init__(self) -> None:
        choices = {
            "heads_up_uncapped": ("becomes", "starts", "never"),
            "limit_short_all_in": ("half_bet", "full_bet"),
            "straddle_min_raise": ("straddle", "big_blind"),
            "short_forced_bet": ("nominal", "posted"),
            "draw_high_after_draw": ("opener", "button"),
            "stud_all_in_opener": ("left", "next_card"),
        }
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, got {getattr(self, name)!r}")
        if self.raise_cap is not None and self.raise_cap < 1:
            raise ValueError(f"raise_cap must be >= 1 or None, got {self.raise_cap!r}")
        if self.odd_chip_unit < 1:
            raise ValueError(f"odd_chip_unit must be >= 1, got {self.odd_chip_unit!r}")
        if self.sevens_rule not in (0, 5, 6, 7, 8):
            raise ValueError(f"sevens_rule is 0 (off) or the card (5..8), got {self.sevens_rule!r}")

    @classmethod
    def phh(cls) -> HouseSettings:
        """PokerKit's conventions, for replaying PHH files recorded under them: raise caps count
        raises only and apply heads-up too, the straddle does not raise the minimum raise, short
        forced bets count as posted, the full-bet rule in limit, draw games act from the button,
        no big bet for an open pair on fourth street."""
        return cls(
            heads_up_uncapped="never",
            blind_counts_as_bet=False,
            limit_short_all_in="full_bet",
            straddle_min_raise="big_blind",
            short_forced_bet="posted",
            draw_high_after_draw="button",
            open_pair_big_bet=False,
        )


_DEFAULT_SETTINGS = HouseSettings()

# phases of a street
_DEAL = 0  # cards of the street being dealt (and a discard that comes first)
_DRAW = 1  # draw / discard in turn, and the replacement cards
_BET = 2  # the betting round
_SHOWDOWN = 3  # every street done: hands shown or mucked
_OVER = 4  # settled


class _Plan:
    """What a Variant implies, worked out once (cached on the Variant object)."""

    __slots__ = (
        "any_up",
        "betting",
        "big_bet",
        "board",
        "burn",
        "button",
        "deck",
        "discard",
        "discard_first",
        "draw",
        "fast_high",
        "fixed",
        "hole_count",
        "hole_up",
        "last",
        "limit",
        "max_draw",
        "no_limit",
        "opener",
        "pot_limit",
        "rankings",
        "reuse_muck",
        "rounds",
        "spread",
        "track_checks",
    )

    def __init__(self, v: Variant) -> None:
        self.hole_up: tuple[tuple[bool, ...], ...] = tuple(s.hole for s in v.streets)
        self.hole_count = tuple(len(s.hole) for s in v.streets)
        self.any_up = any(u for s in v.streets for u in s.hole)
        self.reuse_muck = any(s.draw for s in v.streets)
        # who checked this round matters only where check-raise is barred or the sevens rule
        # applies (limit ace-to-five lowball)
        self.track_checks = not v.check_raise or v.rankings == ("ace_five_low_joker",)
        self.board = tuple(s.board for s in v.streets)
        self.burn = tuple(s.burn for s in v.streets)
        self.draw = tuple(s.draw for s in v.streets)
        self.discard = tuple(s.discard for s in v.streets)
        self.discard_first = tuple(s.discard_first for s in v.streets)
        self.betting = tuple(s.betting for s in v.streets)
        self.opener = tuple(s.opener for s in v.streets)
        self.big_bet = tuple(s.big_bet for s in v.streets)
        self.last = len(v.streets) - 1
        self.fixed = v.structure == "fixed"
        self.spread = v.structure == "spread"
        self.limit = self.fixed or self.spread
        self.pot_limit = v.structure == "pot"
        self.no_limit = v.structure == "no"
        self.rounds = v.betting_rounds
        self.deck = frozenset(v.deck_cards)
        self.button = v.button
        self.max_draw = v.max_draw
        self.rankings = v.rankings
        # hold'em-type high hands: sum card codes, one table look-up (evaluate.py)
        self.fast_high = v.rankings == ("high",) and v.hand == "any"


_PLANS: dict[int, tuple[Variant, _Plan]] = {}

_ROTATIONS: dict[int, tuple[tuple[int, ...], ...]] = {}


def _rotations(n: int) -> tuple[tuple[int, ...], ...]:
    """For each position, the other positions clockwise after it, itself last."""
    rot = _ROTATIONS.get(n)
    if rot is None:
        rot = tuple(tuple((p + k) % n for k in range(1, n + 1)) for p in range(n))
        _ROTATIONS[n] = rot
    return rot


def _plan(v: Variant) -> _Plan:
    hit = _PLANS.get(id(v))
    if hit is not None and hit[0] is v:
        return hit[1]
    plan = _Plan(v)
    if len(_PLANS) > 256:
        _PLANS.clear()  # bounded: with_structure() makes a new Variant object per call
    _PLANS[id(v)] = (v, plan)  # keeps v alive, so the id is never reused for another variant
    return plan


class _Forced:
    """The forced bets of a Stakes at a table of n players, worked out once (cached by value):
    per-position antes and blinds (reversed heads-up), the big blind, who opens preflop, the
    minimum raise and the raises the blinds count as; with them the rest of a new hand that
    depends only on the game, the stakes, the table size and the house (the raise cap, the
    turn order), so that starting a hand copies instead of working out."""

    __slots__ = (
        "antes",
        "bb",
        "blinds",
        "cap",
        "current_nominal",
        "kill_factor",
        "last_inc",
        "max_post",
        "min_bet",
        "n_aggr",
        "opener_pos",
        "post",
        "rot",
    )

    def __init__(self, stakes: Stakes, n: int, s: HouseSettings, plan: _Plan) -> None:
        antes = _per_player(stakes.antes, n, "antes")
        blinds = _per_player(stakes.blinds_or_straddles, n, "blinds_or_straddles")
        for name in ("bring_in", "small_bet", "big_bet", "min_bet"):
            value = getattr(stakes, name)
            if type(value) is not int or value < 0:
                raise ValueError(f"{name} must be a non-negative int, got {value!r}")
        if plan.limit and (stakes.small_bet <= 0 or stakes.big_bet <= 0):
            raise ValueError("limit betting needs small_bet and big_bet > 0")
        if plan.spread and stakes.small_bet > stakes.big_bet:
            raise ValueError("spread limit: small_bet (lowest bet) must not exceed big_bet")
        if n == 2:
            # Heads-up the small blind is on the button (RR Section 4 r.3); PHH lists the blinds
            # small blind first and PokerKit posts them reversed, position 1 being the button.
            antes = antes[::-1]
            blinds = blinds[::-1]
        killer = stakes.killer
        self.kill_factor = (1, 1)
        if killer is not None:
            if type(killer) is not int or not 0 <= killer < n or not blinds[killer]:
                raise ValueError(f"killer {killer!r} must be a position posting a blind")
            if stakes.kill not in ("full", "half"):
                raise ValueError(f"kill is 'full' or 'half', got {stakes.kill!r}")
            # "A full kill is double the amount of the big blind, and doubles the betting limits.
            # A half kill is one-and-a-half times the big blind" (RR Section 13 intro)
            self.kill_factor = (2, 1) if stakes.kill == "full" else (3, 2)
        # Antes: "A prescribed amount posted before the start of a hand by all players" (RR
        # Glossary, ANTE). Blinds and straddles are live bets (RR Glossary, LIVE BLIND).
        self.antes = tuple(antes)
        self.blinds = tuple(blinds)
        self.post = tuple(a + b for a, b in zip(antes, blinds, strict=True))
        self.max_post = max(self.post)
        # The big blind: the second blind (position 1), or the largest when position 1 posts
        # none (six-plus hold'em's single blind on the button, JPN Six Plus Hold'em).
        bb = max(blinds[:2]) if n == 2 else blinds[1]
        if not bb:
            bb = max(blinds)
        if killer is not None:
            bb = max(b for i, b in enumerate(blinds) if i != killer)
        self.bb = bb
        self.min_bet = stakes.min_bet or bb or stakes.small_bet or 1
        nominal_max = max(blinds)
        self.current_nominal = nominal_max
        self.last_inc = 0
        self.n_aggr = 0
        if nominal_max:
            # Preflop the blind is the opening bet; a straddle "sets a new minimum bring-in"
            # (RR Section 14 NL r.15) unless the house follows WSOP Section 4 r.11.
            self.last_inc = nominal_max if s.straddle_min_raise == "straddle" else bb
            if killer is not None:
                self.last_inc = nominal_max
            straddles = sum(1 for i in range(2, n) if blinds[i] > bb and i != killer)
            self.n_aggr = (1 if s.blind_counts_as_bet else 0) + straddles
        # who opens preflop: the first player left of the blinds (RR Section 4 intro; a
        # straddler "has last action for the first round", RR Section 14 NL r.15); a kill blind
        # acts in proper turn (RR Section 13 r.2), so the opener is left of the regular blinds
        top, top_i = 0, n - 1
        for i in range(n):
            b = blinds[i]
            if i != killer and b and b >= top:
                top, top_i = b, i
        self.opener_pos = (top_i + 1) % n if top else 0
        if stakes.opener is not None:
            if type(stakes.opener) is not int or not 0 <= stakes.opener < n:
                raise ValueError(f"opener {stakes.opener!r} must be a position 0..{n - 1}")
            self.opener_pos = stakes.opener
        cap = s.raise_cap
        if cap is None:
            # RR Section 3 Betting r.4: a bet and three raises (three or more betting rounds),
            # a bet and four raises (two rounds)
            cap = 4 if plan.rounds >= 3 else 5
        self.cap: int | None = cap if plan.limit else None
        self.rot = _rotations(n)


_FORCED: dict[tuple[Stakes, int, int], tuple[HouseSettings, _Plan, _Forced]] = {}


# The last layout worked out: a replay of a corpus starts hand after hand with the same game,
# stakes, table size and house (the same objects), so one identity check finds both.
_LAST_LAYOUT: list[tuple[Variant, Stakes, int, HouseSettings, _Plan, _Forced]] = []


def _layout(variant: Variant, stakes: Stakes, n: int, s: HouseSettings) -> tuple[_Plan, _Forced]:
    if _LAST_LAYOUT:
        v, st, k, hs, plan, f = _LAST_LAYOUT[0]
        if v is variant and st is stakes and k == n and hs is s:
            return plan, f
    plan = _plan(variant)
    f = _forced_by_value(stakes, n, s, plan)
    _LAST_LAYOUT[:] = [(variant, stakes, n, s, plan, f)]
    return plan, f


def _forced_by_value(stakes: Stakes, n: int, s: HouseSettings, plan: _Plan) -> _Forced:
    key = (stakes, n, id(s))
    try:
        hit = _FORCED.get(key)
    except TypeError:  # a Stakes holding lists is not hashable: work it out every time
        return _Forced(stakes, n, s, plan)
    if hit is not None and hit[0] is s and hit[1] is plan:
        return hit[2]
    f = _Forced(stakes, n, s, plan)
    if len(_FORCED) > 512:
        _FORCED.clear()  # a bounded cache: a replay meets few distinct stakes
    _FORCED[key] = (s, plan, f)
    return f


class Hand:
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
            self.stacks: list[int] = [c - p for c, p in zip(starting_stacks, f.post,
                                                             strict=True)]
            self.antes: list[int] = list(f.antes)
            self.bets: list[int] = list(f.blinds)
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
        self.holes: list[list[str | None]] = [[] for _ in range(n)]
        self._ups: list[list[bool]] = [[] for _ in range(n)] if plan.any_up else []
        self.board: list[str | None] = []
        self._seen: set[str | None] = set()
        self._deck = plan.deck
        self._discard_queue: list[int] = []
        self._awards: tuple[PotAward, ...] | None = ()
        self._uncontested: tuple[int, int, int, int] | None = None
        self.carry_over = 0
        self._kill_factor = f.kill_factor
        self._opened: int | None = None  # who opened the first betting round (draw high)
        self._bring_in_due = False
        self._bring_in_proxy = False
        self._muck_order: list[int] = []
        self._pre_draw: list[int] | None = None
        self._last_bet_street = -1
        self._completion = False
        self._capped = False
        self._round_heads_up = False
        self._unit = 0
        self._units: tuple[int, ...] = ()
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
        for name in Hand.__slots__:
            try:
                v = getattr(self, name)
            except AttributeError:  # a slot not set yet
                continue
            if type(v) is list:
                v = [list(x) if type(x) is list else x for x in v]
            elif type(v) is set:
                v = set(v)
            setattr(new, name, v)
        return new

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
        """The pots as they stand (main pot first, then side pots by all-in level); antes are
        counted with the player who posted them."""
        n = self.n
        folded = {i for i in range(n) if self.folded[i]}
        all_in = {i for i in range(n) if self.stacks[i] == 0 and i not in folded}
        contrib = {i: self.totals[i] + self.antes[i] for i in range(n)}
        return build_pots(contrib, folded, all_in=all_in)

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

    # --- dealing ----------------------------------------------------------------------------------

    def _take_out(self, cards: Sequence[str | None], k: int) -> None:
        """Check ``k`` cards being dealt and mark them in play: each known card must be of this
        deck and not already dealt (None, an unknown card, always passes)."""
        seen = self._seen
        deck = self._deck
        try:
            # known cards of this deck, none in play: the usual deal, told by two set calls in C
            usual = deck.issuperset(cards) and seen.isdisjoint(cards)
        except TypeError:
            usual = False
        if not usual:  # card by card: an unknown card passes, the first bad one names itself
            try:
                for c in cards:
                    if (c in seen or c not in deck) and c is not None:
                        self._check_cards(cards)  # raises, naming the card
            except TypeError:  # an unhashable thing among the cards
                raise IllegalAction("NOT_A_CARD", f"not cards: {cards!r}") from None
        before = len(seen)
        seen.update(cards)  # (None too: harmless, never a card)
        if len(seen) - before != k:
            # the same card twice, or an unknown card (None) already recorded: none of these
            # cards was in play before this call, so taking them all out again undoes it
            seen.difference_update(cards)
            self._check_cards(cards)  # raises for a card dealt twice
            seen.update(cards)

    def deal_hole(self, player: int, cards: Sequence[str | None]) -> None:
        """Deal cards to a player: the street's hole cards (stud: down or up as the street
        says), or the replacement cards after a discard. None is an unknown card."""
        phase = self._phase
        if phase > _DRAW or (self._discard_queue and phase == _DEAL):
            raise IllegalAction("NO_HOLE_CARDS_DUE", self._not_now("deal hole cards"))
        if type(player) is not int or not 0 <= player < self.n:
            raise IllegalAction("NO_SUCH_PLAYER",
                                f"player index {player!r} is not 0..{self.n - 1}")
        need = self._hole_need[player]
        if not isinstance(cards, (list, tuple)):
            raise IllegalAction("BAD_CARDS", f"cards are a list like ['As', 'Kd'], not {cards!r}")
        k = len(cards)
        if not 0 < k <= need:
            raise IllegalAction(
                "WRONG_CARD_COUNT",
                f"player {player + 1} is due {need} card(s) now, not {k}"
                + (" (folded)" if self.folded[player] else ""),
            )
        self._take_out(cards, k)
        self.holes[player].extend(cards)
        if self._ups:
            if phase == _DRAW:
                self._ups[player].extend([False] * k)  # replacements are dealt face down
            else:
                # RR Section 8 intro: the stud upcards
                flags = self._plan.hole_up[self.street]
                start = len(flags) - need
                self._ups[player].extend(flags[start:start + k])
        self._hole_need[player] = need - k
        self._pending -= k
        if not self._pending:
            self._advance_dealing()

    def deal_board(self, cards: Sequence[str | None]) -> None:
        """Turn board cards (the flop, the turn, the river; in stud, the common card)."""
        if not isinstance(cards, (list, tuple)):
            raise IllegalAction("BAD_CARDS", f"cards are a list like ['As', 'Kd'], not {cards!r}")
        if self._phase != _DEAL or self._discard_queue or not self._board_need:
            if self._common_card_possible(cards):
                self._common_card()
            else:
                raise IllegalAction("NO_BOARD_CARDS_DUE", self._not_now("deal board cards"))
        k = len(cards)
        if k == 0 or k > self._board_need:
            raise IllegalAction(
                "WRONG_CARD_COUNT", f"{self._board_need} board card(s) are due now, not {k}")
        self._take_out(cards, k)
        self.board.extend(cards)
        self._board_need -= k
        self._pending -= k
        if not self._pending:
            self._advance_dealing()

    def _common_card_possible(self, cards: Sequence[str | None]) -> bool:
        """Stud, seventh street, nobody dealt a card yet: one board card is the common card."""
        plan = self._plan
        st = self.street
        return (
            self._phase == _DEAL
            and plan.any_up
            and st == plan.last
            and len(cards) == 1
            and not any(plan.board)
            and all(self._hole_need[i] == plan.hole_count[st]
                    for i in range(self.n) if not self.folded[i])
        )

    def _common_card(self) -> None:
        """"If the dealer determines that there will not be enough fresh cards for all of the
        remaining players ... The dealer will burn a card and turn one card faceup in the center
        of the table as a common card that plays in everyone's hand. The player who is now high
        using the common card initiates the action for the last round." (RR Section 8 r.15)"""
        n_live = sum(1 for i in range(self.n) if not self.folded[i])
        self._pending -= self._plan.hole_count[self.street] * n_live
        self._hole_need = [0] * self.n
        self._board_need = 1
        self._pending += 1

    def stand_pat_or_discard(self, player: int, cards: Sequence[str | None] = ()) -> None:
        """Draw games: discard these cards (none = stand pat), to be replaced; Pineapple: the
        cards thrown away, not replaced. In turn, clockwise (RR Section 11 r.9; JPN Pineapple)."""
        d = self.discarder
        if d is None:
            raise IllegalAction("NO_DRAW_DUE", self._not_now("stand pat or discard"))
        if not isinstance(cards, (list, tuple)):
            raise IllegalAction("BAD_CARDS", f"cards are a list like ['As', 'Kd'], not {cards!r}")
        if player != d:
            raise IllegalAction("OUT_OF_TURN",
                                f"player {d + 1} draws next, not {_who(player)} "
                                "(RR Section 11 r.9: the draw is completed to each player in "
                                "order)")
        plan = self._plan
        st = self.street
        hole = self.holes[player]
        k = len(cards)
        if plan.draw[st]:
            if k > plan.max_draw:
                raise IllegalAction("DRAW_TOO_MANY",
                                    f"at most {plan.max_draw} cards may be drawn, not {k}")
        elif k != plan.discard[st]:
            raise IllegalAction("DISCARD_COUNT",
                                f"each player discards exactly {plan.discard[st]} card(s) here "
                                f"(JPN Pineapple), not {k}")
        if k > len(hole):
            raise IllegalAction("DISCARD_TOO_MANY", f"player {player + 1} holds {len(hole)}")
        # find the slot of each discarded card: a known card where it is, an unknown one in an
        # unknown slot
        slots: list[int] = []
        for c in cards:
            if c is not None and (type(c) is not str or c not in plan.deck):
                raise IllegalAction("NOT_A_CARD", f"not a card of this deck: {c!r}")
            j = -1
            if c is not None:
                for idx, h in enumerate(hole):
                    if h == c and idx not in slots:
                        j = idx
                        break
            if j < 0:
                for idx, h in enumerate(hole):
                    if h is None and idx not in slots:
                        j = idx
                        break
            if j < 0:
                raise IllegalAction("DISCARD_NOT_HELD",
                                    f"player {player + 1} does not hold {c or 'an unknown card'}")
            slots.append(j)
        for j in sorted(slots, reverse=True):
            c = hole.pop(j)
            if self._ups:
                self._ups[player].pop(j)
            if c is not None:
                # a discard may come back in a reshuffle of the discards (WSOP Section 12 r.10)
                self._seen.discard(c)
        self._discard_queue.pop(0)
        self._pending -= 1
        if plan.draw[st]:
            self._hole_need[player] += k
            self._pending += k
        if not self._pending:
            self._advance_dealing()

    # --- betting ----------------------------------------------------------------------------------

    def fold(self, player: int) -> None:
        if player != self._actor or player is None:
            self._check_actor(player, "fold")
        if self._bring_in_due and not self._bring_in_proxy:
            raise IllegalAction("BRING_IN_DUE", "the low card must post the bring-in or complete "
                                "(RR Section 8 r.2-3)")
        self.folded[player] = True
        self.acted[player] = True
        self._live -= 1
        if self.stacks[player]:
            self._able -= 1
        if self._plan.reuse_muck:
            # draw games: the muck may be shuffled in to complete the draws (WSOP Section 12
            # r.10), so a folded card may come back; elsewhere it stays out of play
            seen = self._seen
            for c in self.holes[player]:
                if c is not None:
                    seen.discard(c)
        self._after_action(player)

    def kill(self, player: int) -> None:
        """Declare ``player``'s hand dead wherever the action is: the dealer kills it (an absent
        tournament player's hand once the starting hands are out, RR Section 15 r.13; a hand
        with the wrong number of cards once the deal must be played, RR Section 3 Dead Hands
        r.1(d)). Its chips stay in the pot; if it was to act, the action moves on."""
        if type(player) is not int or not 0 <= player < self.n:
            raise IllegalAction("NO_SUCH_PLAYER", f"there is no player {player!r}")
        if self._phase == _OVER:
            raise IllegalAction("HAND_OVER", "cannot kill a hand: the hand is over")
        if self.folded[player]:
            raise IllegalAction("NOT_LIVE", f"player {player + 1}'s hand is already dead")
        self.folded[player] = True
        self._live -= 1
        if self.stacks[player]:
            self._able -= 1
        actor = self._actor
        if actor == player or self._live <= 1:
            self._after_action(player)
            return
        if actor is not None and self.bets[actor] >= self._current and (
                self.acted[actor] or self._able <= 1):
            # the last player the round was waiting for is gone: the round may be over
            self._after_action(actor)

    def check_or_call(self, player: int) -> None:
        if player != self._actor or player is None:
            self._check_actor(player, "check or call")
        if self._bring_in_due:
            raise IllegalAction("BRING_IN_DUE", "the low card must post the bring-in or complete "
                                "(RR Section 8 r.2-3)")
        owe = self._current - self.bets[player]
        if owe > 0:
            stacks = self.stacks
            put = owe if owe < stacks[player] else stacks[player]
            stacks[player] -= put
            self.bets[player] += put
            self.totals[player] += put
            if not stacks[player]:
                self._able -= 1
        elif self._plan.track_checks:
            self._checked[player] = True  # for the check-raise and sevens rules
        self.acted[player] = True
        self.levels[player] = self._current
        self._after_action(player)

    def post_bring_in(self, player: int) -> None:
        """Stud: the low card's forced bet (RR Section 8 r.2)."""
        self._check_actor(player, "post the bring-in")
        if not self._bring_in_due:
            raise IllegalAction("NO_BRING_IN", "no bring-in is due now")
        amount = self.stakes.bring_in
        put = min(amount, self.stacks[player])
        self.stacks[player] -= put
        self.bets[player] += put
        self.totals[player] += put
        if not self.stacks[player]:
            self._able -= 1
        # "If the player with the lowcard has only enough chips for a portion of the forced bet,
        # the wager is made. All other players must enter for at least the normal amount"
        # (RR Section 8 r.4)
        self._current = amount if self._s.short_forced_bet == "nominal" else put
        self._bring_in_due = False
        if self._current >= self._unit:
            # a bring-in as large as the bet is the bet: nothing left to complete
            self._completion = False
            self._full_level = self._current
            self._n_aggr += 1
        self.acted[player] = True
        self.levels[player] = self._current
        self._after_action(player)

    def complete_bet_or_raise_to(self, player: int, amount: int) -> None:
        """Complete (stud), bet or raise to ``amount``: the player's total for this round."""
        if player != self._actor or player is None:
            self._check_actor(player, "complete, bet or raise")
        problem = self._raise_problem(player)
        if problem is not None:
            raise IllegalAction(*problem)
        if type(amount) is not int:
            raise IllegalAction("BAD_AMOUNT", f"an amount is an int, got {amount!r}")
        lo, hi, allowed = self._raise_bounds(player)
        if allowed is not None:
            if amount not in allowed:
                raise IllegalAction(
                    "WRONG_AMOUNT",
                    f"at fixed limit the only raise now is to {' or '.join(map(str, allowed))} "
                    f"(or all-in for less), not {amount} (RR Section 3 Betting r.6, r.16)")
        elif amount < lo:
            raise IllegalAction(
                "UNDERSIZED_WAGER",
                f"the minimum is {lo}, not {amount} (RR Section 14 NL r.2-3: at least the "
                "minimum bet and the last full bet or raise, unless all-in)")
        elif amount > hi:
            code = "PL_OVERBET" if self._plan.pot_limit else "OVERSIZED_WAGER"
            why = ("the pot after the call (RR Section 14 Pot-Limit)" if self._plan.pot_limit
                   else "the player's chips (table stakes)" if self._plan.no_limit
                   else "the limit")
            raise IllegalAction(code, f"the maximum is {hi}, {why}; not {amount}")
        stacks = self.stacks
        put = amount - self.bets[player]
        stacks[player] -= put
        if not stacks[player]:
            self._able -= 1
        self.bets[player] = amount
        self.totals[player] += put
        old = self._current
        inc = amount - old
        full = False
        plan = self._plan
        if plan.fixed:
            unit = self._unit
            if self._units and inc >= max(self._units):
                self._unit_big_taken = True
            unit = max(self._units) if self._unit_big_taken else unit
            if self._completion and amount >= unit:
                full = True
            elif amount - self._full_level >= self._limit_threshold(unit):
                # "An all-in wager of a half a bet or more is treated as a full bet" and several
                # short all-ins that add up to it act as a raise (RR Section 3 Betting r.7)
                full = True
        else:
            need = self._last_inc if self._last_inc > self._min_bet else self._min_bet
            if plan.spread:
                need = max(self._last_inc, self.stakes.small_bet * self._kill_factor[0]
                           // self._kill_factor[1])
            if self._completion:
                full = amount >= need
                if full:
                    self._last_inc = amount
            elif inc >= need:
                full = True
                self._last_inc = inc
            elif plan.spread and amount - self._full_level >= self._limit_threshold(need):
                full = True  # spread limit is limit poker: the half-bet rule (RR r.7)
            elif amount - self._full_level >= need:
                full = True  # several short all-ins make a full raise (RR Section 3 r.7)
        self._current = amount
        if full:
            self._full_level = amount
            self._n_aggr += 1
            self._completion = False
            if (
                not self._capped
                and self._cap is not None
                and self._n_aggr >= self._cap
                and not self._heads_up_uncapped()
            ):
                # "Once the raising is capped on a betting round, it cannot be uncapped by a
                # subsequent fold that leaves two players heads-up" (RR Section 3 r.5)
                self._capped = True
        if self._opened is None and self.street == 0:
            self._opened = player
        self._bring_in_due = False
        self.acted[player] = True
        self.levels[player] = amount
        self._after_action(player)

    # --- showdown ---------------------------------------------------------------------------------

    def show_or_muck(self, player: int, cards: Sequence[str | None] | None) -> None:
        """At the showdown (or once betting is over at an all-in): show these hole cards, or
        muck with None. An empty sequence shows the cards as dealt (PHH "sm -")."""
        if self._phase == _OVER:
            raise IllegalAction("HAND_OVER", "the hand is over")
        if type(player) is not int or not 0 <= player < self.n:
            raise IllegalAction("NO_SUCH_PLAYER", f"player index {player!r}")
        if not self.betting_over:
            raise IllegalAction("NO_SHOWDOWN_YET", self._not_now("show or muck"))
        if self.folded[player] or self.mucked[player] or self.shown[player]:
            raise IllegalAction("NOT_IN_SHOWDOWN",
                                f"player {player + 1} has already folded, mucked or shown")
        if cards is None:
            if self._count_live() <= 1:
                raise IllegalAction("LAST_HAND", f"player {player + 1} holds the last live hand: "
                                    "it wins the pot and cannot be mucked")
            self.mucked[player] = True
            self._live -= 1
            self._muck_order.append(player)
            try:
                self._maybe_settle()
            except IllegalAction:
                # settling needs a card nobody knows: undo the muck, so nothing is lost
                self.mucked[player] = False
                self._live += 1
                self._muck_order.pop()
                raise
            return
        if not isinstance(cards, (list, tuple)):
            raise IllegalAction("BAD_CARDS", f"cards are a list like ['As', 'Kd'], not {cards!r}")
        hole = self.holes[player]
        if len(cards) == 0:
            cards = list(hole)
        if len(cards) != len(hole):
            raise IllegalAction("WRONG_CARD_COUNT",
                                f"player {player + 1} holds {len(hole)} cards, shows {len(cards)}")
        old = list(hole)
        for c in old:
            if c is not None:
                self._seen.discard(c)
        try:
            self._check_cards(cards)
        except IllegalAction:
            for c in old:
                if c is not None:
                    self._seen.add(c)
            raise
        hole[:] = cards
        for c in cards:
            if c is not None:
                self._seen.add(c)
        self.shown[player] = True
        try:
            self._maybe_settle()
        except IllegalAction:
            # settling needs a card nobody knows: undo the show, so nothing is lost
            for c in cards:
                if c is not None:
                    self._seen.discard(c)
            hole[:] = old
            for c in old:
                if c is not None:
                    self._seen.add(c)
            self.shown[player] = False
            raise

    def show_all(self) -> None:
        """Show every live hand still to be shown, as dealt (a convenience for replays and for
        tables whose reader has already seen every card)."""
        for i in self.showdown_pending:
            if self._phase != _OVER:
                self.show_or_muck(i, ())

    # --- internals: streets -----------------------------------------------------------------------

    def _not_now(self, what: str) -> str:
        phase = ("dealing", "drawing", "betting", "showdown", "over")[self._phase]
        name = self.variant.streets[min(self.street, self._plan.last)].name
        actor = f", player {self._actor + 1} to act" if self._actor is not None else ""
        return f"cannot {what} now ({name}, {phase}{actor})"

    def _discard_phase(self) -> bool:
        plan = self._plan
        st = self.street
        if self._phase == _DEAL:
            return plan.discard_first[st]
        return True

    def _begin_street(self, st: int) -> None:
        plan = self._plan
        self.street = st
        self._phase = _DEAL
        self._actor: int | None = None
        n = self.n
        folded = self.folded
        if st:
            if plan.draw[st] and self._pre_draw is None:
                self._pre_draw = list(self.totals)  # the pot before the (first) draw
            # a new round: no bets yet (each round's bets start from nothing)
            self.bets = [0] * n
            self._current = 0
            self._full_level = 0
            self._last_inc = 0
            self._n_aggr = 0
        if plan.discard[st] and plan.discard_first[st]:
            self._discard_queue = self._order([i for i in range(n) if not folded[i]], st)
        elif self._discard_queue:
            self._discard_queue = []
        k = plan.hole_count[st]
        if k or not st:
            # every player is in at the start of the hand: no need to look at who folded
            self._hole_need = ([k] * n if self._live == n
                               else [0 if folded[i] else k for i in range(n)])
        board = self._board_need = plan.board[st]
        self._pending: int = k * self._live + board + len(self._discard_queue)
        if not self._pending:
            self._advance_dealing()

    def _order(self, players: list[int], st: int) -> list[int]:
        """Players in turn for a draw or discard: from the street's first position clockwise."""
        start = self._opener_pos if self._plan.opener[st] == "blinds" else 0
        n = self.n
        return sorted(players, key=lambda i: (i - start) % n)

    def _advance_dealing(self) -> None:
        """Every card and discard of this street's deal (or draw) is in: on to the draw, or the
        betting."""
        plan = self._plan
        st = self.street
        if self._phase == _DEAL and (
            plan.draw[st] or (plan.discard[st] and not plan.discard_first[st])
        ):
            self._phase = _DRAW
            self._discard_queue = self._order(
                [i for i in range(self.n) if not self.folded[i]], st)
            self._pending = len(self._discard_queue)
            if self._pending:
                return
        self._begin_betting()

    def _begin_betting(self) -> None:
        plan = self._plan
        st = self.street
        if not plan.betting[st] or (self._able <= 1 and self._no_more_betting()):
            self._end_street(False)
            return
        self._phase = _BET
        self._last_bet_street = st
        if st:
            n = self.n
            self.acted = [False] * n
            # levels are read only for players who have acted this round: no reset needed
            if self._plan.track_checks:
                self._checked = [False] * n
        self._capped = False
        self._completion = False
        self._bring_in_due = False
        self._round_heads_up = self._able <= 2
        if plan.limit:
            self._limit_round(st)
        opener = plan.opener[st]
        if opener == "button":
            start = 0
        elif opener == "blinds":
            start = self._opener_pos
        elif opener == "draw_opener":
            # "Action after the draw starts with the opener, or next player proceeding clockwise
            # if the opener has folded" (RR Section 12 intro)
            start = self._opened if (self._opened is not None
                                     and self._s.draw_high_after_draw == "opener") else 0
        else:
            start = self._stud_opener(opener)
            if opener in ("low_card", "high_card") and self.stakes.bring_in:
                self._bring_in_due = True
                self._completion = True
        self._actor = None
        folded = self.folded
        stacks = self.stacks
        bets = self.bets
        acted = self.acted
        cur = self._current
        others = self._able > 1
        for i in self._rot[start - 1]:
            if folded[i] or not stacks[i]:
                continue
            if bets[i] < cur or (not acted[i] and others):
                self._actor = i
                break
        if self._actor is None:
            self._end_street(True)
            return
        # the low card is all-in for the ante: "betting action proceeds to the first active
        # player to the left ... That player may fold, open for the forced bet, or open for a
        # full bet" (RR Section 8 r.4, RRH Section 8 r.8)
        self._bring_in_proxy = self._bring_in_due and self._actor != start

    def _limit_round(self, st: int) -> None:
        """Fixed and spread limit: the bet sizes of this round."""
        plan = self._plan
        # fixed limit: the small bet on the first rounds, the big bet later (RR Section 8 intro;
        # JPN Texas Hold'em); a kill scales both (RR Section 13 intro)
        kf = self._kill_factor
        small = self.stakes.small_bet * kf[0] // kf[1]
        big = self.stakes.big_bet * kf[0] // kf[1]
        self._unit = big if plan.big_bet[st] else small
        self._units = ()
        self._unit_big_taken = False
        if (
            plan.fixed
            and st == 1
            and self.variant.open_pair_option
            and self._s.open_pair_big_bet
            and self._open_pair_showing()
        ):
            # "If there is an open pair on the fourth card, any player has the option of making
            # the smaller or larger bet" (RR Section 8 intro, r.7)
            self._units = (small, big)

    def _stud_opener(self, opener: str) -> int:
        """Stud first to act: the bring-in by the lowest upcard by suit, ace high (RR Section 8
        r.2; Section 10 r.4), or the highest by suit with the ace low in razz (RR Section 9 r.2);
        on later streets the best hand showing, the worst in razz, a tie going to the player who
        received cards first (RR Section 8 r.2; Section 9 r.2)."""
        n = self.n
        best_key: tuple[int, ...] | None = None
        best = 0
        skip_all_in = self._s.stud_all_in_opener == "next_card"
        for i in range(n):
            if self.folded[i] or (skip_all_in and self.stacks[i] == 0):
                continue
            upcards = [c for c, u in zip(self.holes[i], self._ups[i], strict=True) if u]
            if opener in ("low_card", "high_card"):
                door = upcards[-1] if upcards else None
                if door is None:
                    key: tuple[int, ...] = (-100,)  # unknown: never chosen over a known card
                elif opener == "low_card":
                    # lowest card by suit opens: the key is larger for lower cards
                    key = (-_RANK_HIGH[door[0]], -suit_rank(door))
                else:
                    key = (_RANK_LOW[door[0]], suit_rank(door))
            else:
                known = [c for c in upcards if c is not None]
                known += [c for c in self.board if c is not None]  # the common card
                # the high hand on board opens, the low hand in razz (RR Section 8 r.2,
                # Section 9 r.2); unknown upcards count for nothing
                ranking = "high" if opener == "high_board" else "ace_five_low"
                if len(known) > 4:
                    # four upcards and the common card: the best five-card hand showing
                    key = (1, strength(ranking, known) or 0)
                else:
                    key = (0, board_strength(ranking, known)) if known else (-1,)
            if best_key is None or key > best_key:
                best_key, best = key, i
        return best

    def _open_pair_showing(self) -> bool:
        for i in range(self.n):
            if self.folded[i]:
                continue
            ranks = [c[0] for c, u in zip(self.holes[i], self._ups[i], strict=True)
                     if u and c is not None]
            if len(ranks) != len(set(ranks)):
                return True
        return False

    def _end_street(self, betting_happened: bool) -> None:
        self._actor = None
        if self._live <= 1:
            self._settle()
            return
        plan = self._plan
        if (
            betting_happened
            and self.street == 0
            and self.variant.pass_and_out
            and self._current == 0
        ):
            # Nobody opened: the deal ends and the antes stay for the next deal (RRH Section 12
            # Jacks-or-Better r.1; RR Section 12 r.14 "If no one opens and there is another
            # ante")
            self.carry_over = sum(self.antes)
            self._phase = _OVER
            self._awards = ()
            return
        if self.street >= plan.last:
            self._phase = _SHOWDOWN
            self._maybe_settle()
            return
        self._begin_street(self.street + 1)

    # --- internals: betting -----------------------------------------------------------------------

    def _count_live(self) -> int:
        return self._live

    def _no_more_betting(self) -> bool:
        """At most one live player has chips behind and nobody faces a bet: the rest is dealt
        without betting (JPN All-ins; button-blinds-betting.md §2.15)."""
        able = self._able
        if able > 1:
            return False
        if able == 0:
            return True
        for i in range(self.n):
            if not self.folded[i] and self.stacks[i] > 0:
                return self.bets[i] >= self._current
        return True  # pragma: no cover - able counts such a player

    def _check_actor(self, player: int, what: str) -> None:
        a = self._actor
        if a is None:
            if self._phase == _OVER:
                raise IllegalAction("HAND_OVER", f"cannot {what}: the hand is over")
            raise IllegalAction("NO_BETTING_NOW", self._not_now(what))
        if player != a:
            who = f"player {player + 1}" if type(player) is int else repr(player)
            raise IllegalAction(
                "OUT_OF_TURN",
                f"player {a + 1} is to act, not {who} (RR Section 3 Betting r.11: action out "
                "of turn)",
            )

    def _after_action(self, player: int) -> None:
        if self._live <= 1:
            self._actor = None
            self._settle()
            return
        folded = self.folded
        stacks = self.stacks
        bets = self.bets
        acted = self.acted
        cur = self._current
        others = self._able > 1
        for i in self._rot[player]:
            if folded[i] or not stacks[i]:
                continue
            if bets[i] < cur or (not acted[i] and others):
                self._actor = i
                return
        self._end_street(True)

    def _heads_up_uncapped(self) -> bool:
        mode = self._s.heads_up_uncapped
        if mode == "never":
            return False
        if mode == "starts":
            return self._round_heads_up
        # "Unlimited raising is allowed in heads-up play ... any time the action becomes
        # heads-up before the raising has been capped"; the caps apply "for a pot involving
        # three or more players who are not all-in" (RR Section 3 Betting r.4-5)
        return self._able <= 2

    def _limit_threshold(self, unit: int) -> int:
        if self._s.limit_short_all_in == "half_bet":
            return (unit + 1) // 2
        return unit

    def _raise_problem(self, i: int) -> tuple[str, str] | None:
        """Why the actor may not complete, bet or raise now, or None when it may."""
        if self._bring_in_due:
            return None  # the low card may open for a full bet (RR Section 8 r.3)
        stack = self.stacks[i]
        owe = self._current - self.bets[i]
        if stack <= owe:
            return ("CANNOT_RAISE", f"player {i + 1} can only call (all-in)")
        # a raise needs someone who could put in more than the current bet; otherwise the
        # excess would only come back as an uncalled bet (PokerKit refuses it too)
        cur = self._current
        folded = self.folded
        stacks = self.stacks
        bets = self.bets
        for j in range(self.n):
            if j != i and not folded[j] and stacks[j] + bets[j] > cur:
                break
        else:
            return ("NO_ONE_TO_RAISE", "no other player can call more than the current bet "
                    "(everyone else has folded or is all-in); call or fold")
        if self._capped or (
            self._cap is not None and self._n_aggr >= self._cap and not self._heads_up_uncapped()
        ):
            return ("RAISE_CAPPED", "the raising is capped (RR Section 3 Betting r.4)")
        if self.acted[i] and self.levels[i] >= self._full_level:
            return ("NOT_REOPENED",
                    "the betting was not reopened to this player: the all-in was less than a "
                    "full raise (RR Section 3 Betting r.7, Section 14 NL r.3-4)")
        if (
            self.variant.openers == "jacks"
            and self.street == 0
            and self._current == 0
            and not self._replaying
            and not self._has_openers(i)
        ):
            return ("OPENERS_REQUIRED",
                    f"player {i + 1} cannot open without jacks or better (RRH Section 12 "
                    "Jacks-or-Better r.1-2)")
        if (
            self._checked[i]
            and not self.variant.check_raise
            and not self._s.a5_check_raise
        ):
            return ("CHECK_RAISE_PROHIBITED",
                    "check-raise is not permitted in limit ace-to-five lowball (RR Section 11 "
                    "Ace-to-Five r.2)")
        return None

    def _raise_bounds(self, i: int) -> tuple[int, int, tuple[int, ...] | None]:
        """(min, max, the only amounts allowed or None) for the actor's complete/bet/raise."""
        plan = self._plan
        all_in = self.stacks[i] + self.bets[i]
        cur = self._current
        if plan.fixed:
            # a full raise on the last full bet: "raising a $15 all-in bet to $35", and facing an
            # all-in of less than half a bet, "complete the wager" (RR Section 3 r.7); under the
            # full-bet rule a short all-in counts as a call and the raise goes on top of it
            base = self._full_level if self._s.limit_short_all_in == "half_bet" else cur
            if self._units and not self._unit_big_taken:
                targets = tuple(sorted({base + u for u in self._units}))
            else:
                unit = max(self._units) if self._unit_big_taken else self._unit
                # completing the bring-in to a full bet (RR Section 8 r.6)
                targets = (base + unit,) if not self._completion else (unit,)
            capped = tuple(min(t, all_in) for t in targets)
            return capped[0], capped[-1], capped
        if plan.spread:
            kf = self._kill_factor
            low = self.stakes.small_bet * kf[0] // kf[1]
            high = self.stakes.big_bet * kf[0] // kf[1]
            # any amount between the limits; a raise at least the previous bet or raise
            need = max(self._last_inc, low)
            lo = (need if self._completion else cur + need)
            hi = cur + high
            lo = min(lo, hi)
            return min(lo, all_in), min(hi, all_in), None
        need = self._last_inc if self._last_inc > self._min_bet else self._min_bet
        # "The minimum bet size is the amount of the minimum bring-in"; "All raises must be
        # equal to or greater than the size of the previous bet or raise" (RR Section 14 NL
        # r.2-3); a bring-in is completed to at least the minimum bet (JPN Seven Card Stud)
        lo = need if self._completion else cur + need
        if plan.pot_limit:
            # "The maximum amount a player can raise is the amount in the pot after the call is
            # made" (RR Section 14 Pot-Limit intro): raise-to = current + pot + to-call
            pot = sum(self.antes) + sum(self.totals)
            if self._s.pot_limit_small_blind_as_big and self.street == 0:
                pot += self._sb_as_bb_extra()
            hi = cur + pot + (cur - self.bets[i])
            if hi < lo:
                hi = lo
            return min(lo, all_in), min(hi, all_in), None
        return min(lo, all_in), all_in, None

    def _sb_as_bb_extra(self) -> int:
        """RR Section 14 Pot-Limit r.5: until the big blind acts, the small blind counts as a big
        blind in the pot size."""
        blinds = _per_player(self.stakes.blinds_or_straddles, self.n, "blinds_or_straddles")
        if self.n == 2:
            blinds = blinds[::-1]
        if self.n < 2:
            return 0
        sb_pos = 1 if self.n == 2 else 0
        bb_pos = 0 if self.n == 2 else 1
        if self.acted[bb_pos] or self.acted[sb_pos]:
            return 0
        return max(0, blinds[bb_pos] - self.bets[sb_pos])

    def _has_openers(self, player: int) -> bool:
        """Jacks or better: "A pair of jacks or better is required to open the pot" (RRH Section
        12 Jacks-or-Better r.1). A hand not fully known is given the benefit of the doubt (the
        opener must prove openers to win the pot, r.3: a matter for the showdown)."""
        hole = self.holes[player]
        if len(hole) != 5 or any(c is None for c in hole):
            return True
        value = value_of_code(sum(CARD_CODES[c] for c in hole if c is not None))
        # a pair of jacks: category 1 (one pair) with the pair rank >= jack (index 9)
        return value >> 20 >= 2 or (value >> 20 == 1 and (value >> 16 & 15) >= 9)

    def _check_cards(self, cards: Sequence[str | None]) -> None:
        deck = self._plan.deck
        seen = self._seen
        local: set[str] = set()
        for c in cards:
            if c is None:
                continue
            if type(c) is not str or c not in deck:
                raise IllegalAction("NOT_A_CARD", f"not a card of this game's deck: {c!r}")
            if c in seen or c in local:
                raise IllegalAction("DUPLICATE_CARD",
                                    f"{c} is already in play (RR Section 3 Irregularities r.4)")
            local.add(c)

    # --- internals: settling ----------------------------------------------------------------------

    def _maybe_settle(self) -> None:
        if self._phase == _OVER:
            return
        if self._live <= 1:
            self._settle()
            return
        if self._phase != _SHOWDOWN:
            return
        for i in range(self.n):
            if not self.folded[i] and not self.mucked[i] and not self.shown[i]:
                return
        self._settle()

    def _settle(self) -> None:
        """Award every pot: the uncalled bet back, the pots by all-in level, each pot on its
        own (RR Section 3 Ties r.5(d)), side pots first (RR Section 3 Showdown r.7)."""
        n = self.n
        if self._live == 1 and not self._muck_order:
            self._settle_uncontested()
            return
        if self._pre_draw is not None and self._sevens_rule_applies():
            return
        folded_l = self.folded
        stacks = self.stacks
        if all(stacks[i] or folded_l[i] for i in range(n)):
            self._settle_one_pot()
            return
        contrib = {i: self.totals[i] for i in range(n)}
        folded = {i for i in range(n) if self.folded[i]}
        remaining, returned = return_uncalled(contrib, folded)
        all_in = {i for i in range(n) if self.stacks[i] == 0 and i not in folded}
        # antes count toward a player's stake, so a player all-in for the ante plays for the
        # antes matched (RR Section 12 r.14)
        with_antes = {i: remaining[i] + self.antes[i] for i in range(n)}
        pots = build_pots(with_antes, folded, all_in=all_in)
        live = [i for i in range(n) if i not in folded]
        # A hand mucked at the showdown gives up the pots it contests, not a pot nobody else is
        # eligible for (RR Section 3 Showdown: a pot goes to the best hand among its players).
        mucked = self.mucked
        contests: list[tuple[int, ...]] = []
        for pot in pots:
            contenders = tuple(i for i in pot.eligible if not mucked[i])
            if not contenders:
                contenders = ((self._muck_order[-1],) if self._muck_order[-1] in pot.eligible
                              else pot.eligible[:1]) if pot.eligible else ()
            contests.append(contenders)
        contested = sorted({i for c in contests if len(c) > 1 for i in c})
        strengths = self._strengths(contested) if contested else {}
        awards: list[PotAward] = []
        if returned is not None:
            seat, chips = returned
            awards.append(PotAward(chips, (seat,), (seat,), {seat: chips}, UNCALLED))
        for pot, contenders in zip(reversed(pots), reversed(contests), strict=True):
            eligible = contenders
            if not eligible:
                # only folded chips above every live level: no live player can win them;
                # the last live hand takes them (cannot happen with a live player all-in)
                eligible = tuple(live)
            if len(eligible) == 1:
                w = eligible[0]
                awards.append(PotAward(pot.amount, pot.eligible or eligible, (w,),
                                       {w: pot.amount}))
                continue
            awards.append(self._award(pot.amount, eligible, strengths))
        for award in awards:
            for seat, chips in award.shares.items():
                stacks[seat] += chips
        self._awards = tuple(awards)
        self._actor = None
        self._phase = _OVER

    def _sevens_rule_applies(self) -> bool:
        """Limit ace-to-five lowball's sevens rule: "If you check a seven or better and it is the
        best hand, all action after the draw is void, and you cannot win any money on any
        subsequent bets. You are still eligible to win whatever existed in the pot before the
        draw" (RR Section 11 A-5 r.4). When it applies, the chips put in after the draw go back
        to the players who put them in and the pot before the draw is settled; returns True."""
        top = self._s.sevens_rule
        if (not top or self._plan.rankings != ("ace_five_low_joker",) or not self._plan.fixed
                or self._pre_draw is None):
            return False
        n = self.n
        live = [i for i in range(n) if not self.folded[i] and not self.mucked[i]]
        if self._last_bet_street != self._plan.last:
            return False  # no betting after the draw (an all-in): nothing to void
        checkers = [i for i in live if self._checked[i]]
        if not checkers or len(live) < 2:
            return False
        strengths = self._strengths(live)
        best = max(strengths[i][0] or 0 for i in live)
        ranks = "A23456789TJQK"
        # the worst hand that is "a seven or better": 7-6-5-4-3 (WSOP: 5-4-3-2-A)
        bar_cards = [ranks[top - 1 - k] + "cdhsc"[k] for k in range(5)]
        bar = strength("ace_five_low_joker", bar_cards) or 0
        if not any((strengths[i][0] or 0) >= bar and strengths[i][0] == best for i in checkers):
            return False
        pre = self._pre_draw
        for i in range(n):
            back = self.totals[i] - pre[i]
            self.stacks[i] += back
            self.totals[i] = pre[i]
        self._pre_draw = None  # settle again on the pot before the draw
        self._settle()
        return True

    def _settle_one_pot(self) -> None:
        """Nobody live is all-in: one pot, every live hand eligible (the usual showdown)."""
        totals = self.totals
        n = self.n
        # the largest total (its first holder) and the next largest, by one sort in C
        ordered = sorted(totals)
        top = totals.index(ordered[-1])
        back = ordered[-1] - ordered[-2]
        awards: list[PotAward] = []
        if back > 0:
            awards.append(PotAward(back, (top,), (top,), {top: back}, UNCALLED))
        pot = sum(totals) - back + sum(self.antes)
        folded = self.folded
        mucked = self.mucked
        contenders = tuple(i for i in range(n) if not folded[i] and not mucked[i])
        if len(contenders) == 1:
            w = contenders[0]
            awards.append(PotAward(pot, contenders, contenders, {w: pot}))
        else:
            awards.append(self._award(pot, contenders, self._strengths(list(contenders))))
        stacks = self.stacks
        for award in awards:
            for seat, chips in award.shares.items():
                stacks[seat] += chips
        self._awards = tuple(awards)
        self._actor = None
        self._phase = _OVER

    def _settle_uncontested(self) -> None:
        """Everyone else folded: the one live hand wins every chip without a showdown, after
        the uncalled part of the largest bet goes back to whoever made it (the same result as
        the general path, without building pots)."""
        totals = self.totals
        w = self.folded.index(False)
        # the largest total (its first holder) and the next largest, by one sort in C
        ordered = sorted(totals)
        top = totals.index(ordered[-1])
        back = ordered[-1] - ordered[-2]
        if back > 0:
            self.stacks[top] += back
        pot = sum(totals) - back + sum(self.antes)
        self.stacks[w] += pot
        # the award records are built when first asked for (a replay never asks)
        self._uncontested = (top, back, w, pot)
        self._awards = None
        self._actor = None
        self._phase = _OVER

    def _strengths(self, players: list[int]) -> dict[int, tuple[int | None, ...]]:
        """Each contested hand's value under each of the game's rankings (higher is better;
        None: no qualifying low)."""
        plan = self._plan
        board = self.board
        if any(c is None for c in board):
            raise IllegalAction("UNKNOWN_CARD_AT_SHOWDOWN",
                                "a board card needed at the showdown is not known")
        out: dict[int, tuple[int | None, ...]] = {}
        for i in players:
            hole = self.holes[i]
            if any(c is None for c in hole):
                raise IllegalAction(
                    "UNKNOWN_CARD_AT_SHOWDOWN",
                    f"player {i + 1} is in a showdown but not all of its hole cards are known")
            cards: list[str] = [c for c in hole if c is not None]
            brd: list[str] = [c for c in board if c is not None]
            if plan.fast_high:
                total = len(cards) + len(brd)
                if not 5 <= total <= 7:
                    raise IllegalAction("WRONG_CARD_COUNT",
                                        f"player {i + 1} has {total} cards for a five-card hand")
                code = 0
                for c in cards:
                    code += CARD_CODES[c]
                for c in brd:
                    code += CARD_CODES[c]
                out[i] = (value_of_code(code),)
                continue
            values: list[int | None] = []
            for ranking in plan.rankings:
                values.append(_strength(ranking, self.variant.hand, cards, brd, self._s))
            out[i] = tuple(values)
        return out

    def _award(self, amount: int, eligible: tuple[int, ...],
               strengths: dict[int, tuple[int | None, ...]]) -> PotAward:
        plan = self._plan
        unit = self._s.odd_chip_unit
        rankings = plan.rankings
        high_vals = {i: strengths[i][0] for i in eligible}
        best = max((v for v in high_vals.values() if v is not None), default=None)
        if best is None:
            raise IllegalAction("NO_HAND", "no hand qualifies for this pot")
        high_w = tuple(i for i in eligible if high_vals[i] == best)
        high_order = self._odd_chip_order(high_w, rankings[0])
        low_w: tuple[int, ...] = ()
        if len(rankings) == 2:
            low_vals = {i: strengths[i][1] for i in eligible}
            lbest = max((v for v in low_vals.values() if v is not None), default=None)
            if lbest is not None:
                low_w = tuple(i for i in eligible if low_vals[i] == lbest)
        if not low_w:
            shares = split(amount, high_w, high_order, unit)
            return PotAward(amount, eligible, high_w, shares, _describe(rankings[0], best))
        if set(low_w) == set(high_w):
            # "If two players split the pot by tying for both the high and the low, the pot shall
            # be split as evenly as possible, and the player with the highest card by suit
            # receives the odd chip" (RR Section 10 r.8; Section 3 Ties r.5(c))
            shares = split(amount, high_w, high_order, unit)
        else:
            # "the high hand receives the odd chip in a split between the high and the low
            # hands" (RR Section 3 Ties r.5(c)): the high half is rounded up to the unit
            units = amount // unit
            high_half = (units - units // 2) * unit
            low_half = amount - high_half
            shares = split(high_half, high_w, high_order, unit)
            low_order = self._odd_chip_order(low_w, rankings[1])
            for seat, chips in split(low_half, low_w, low_order, unit).items():
                shares[seat] = shares.get(seat, 0) + chips
        winners = tuple(i for i in eligible if i in shares)
        lv = strengths[low_w[0]][1]
        assert lv is not None
        name = f"High: {_describe(rankings[0], best)}; low: {_describe(rankings[1], lv)}"
        return PotAward(amount, eligible, winners, shares, name)

    def _odd_chip_order(self, winners: tuple[int, ...], ranking: str) -> tuple[int, ...]:
        """Who gets an odd chip first: "In a button game, the first hand clockwise from the
        button" (position 0 first); "In a stud game, the odd chip will be given to the highest
        card by suit in all high games, and to the lowest card by suit in all low games ... all
        cards are used" (RR Section 3 Ties r.5(a)-(b))."""
        if self._plan.button or len(winners) < 2:
            return winners
        low = ranking in LOW_RANKINGS
        # aces are low in the low games (RR Section 9 intro; Section 10 r.3), high otherwise
        rank = _RANK_LOW if low and ranking != "deuce_seven_low" else _RANK_HIGH

        def key(i: int) -> tuple[int, int]:
            cards = [c for c in self.holes[i] if c is not None and c != JOKER]
            if not cards:
                return (-99, -99)
            if low:
                r, s = min((rank[c[0]], suit_rank(c)) for c in cards)
                return (-r, -s)
            return max((rank[c[0]], suit_rank(c)) for c in cards)

        return tuple(sorted(winners, key=key, reverse=True))


# --- helpers -------------------------------------------------------------------------------------


def _who(player: object) -> str:
    return f"player {player + 1}" if type(player) is int else repr(player)


def _per_player(values: Sequence[int], n: int, name: str) -> list[int]:
    if not isinstance(values, (list, tuple)):
        raise ValueError(f"{name} must be a tuple of ints, one per player, got {values!r}")
    if len(values) > n:
        raise ValueError(f"{name} lists {len(values)} players, the hand has {n}")
    out = list(values) + [0] * (n - len(values))
    for v in out:
        if type(v) is not int or v < 0:
            raise ValueError(f"{name} must be non-negative ints, got {v!r}")
    return out


def _omaha_high(hole: Sequence[str], board: Sequence[str]) -> int:
    """Best high hand of exactly two hole cards and three board cards (RR Section 6)."""
    best = -1
    board_codes = [sum(CARD_CODES[c] for c in b) for b in combinations(board, 3)]
    for h in combinations(hole, 2):
        hc = CARD_CODES[h[0]] + CARD_CODES[h[1]]
        for bc in board_codes:
            v = value_of_code(hc + bc)
            if v > best:
                best = v
    return best


def _strength(ranking: str, hand: str, hole: list[str], board: list[str],
              s: HouseSettings = _DEFAULT_SETTINGS) -> int | None:
    if ranking == "high" and hand == "omaha":
        if len(hole) < 2 or len(board) < 3:
            raise IllegalAction("WRONG_CARD_COUNT", "an Omaha hand needs two hole and three "
                                "board cards")
        return _omaha_high(hole, board)
    if ranking == "high":
        cards = hole + board
        if not 5 <= len(cards) <= 7:
            raise IllegalAction("WRONG_CARD_COUNT", f"{len(cards)} cards for a five-card hand")
        return value_of_code(sum(CARD_CODES[c] for c in cards))
    try:
        if hand == "omaha":
            value = omaha_strength(ranking, hole, board)
        elif ranking == "short_deck":
            value = strength(ranking, hole + board,
                             trips_beat_straight=s.short_deck_trips_beat_straight,
                             flush_beats_full_house=s.short_deck_flush_beats_full_house)
        else:
            value = strength(ranking, hole + board)
    except ValueError as exc:
        raise IllegalAction("BAD_HAND", f"cannot read a hand at the showdown: {exc}") from None
    return value


def _describe(ranking: str, value: int) -> str:
    if ranking == "high":
        return hand_name(value)
    return describe(ranking, value)
