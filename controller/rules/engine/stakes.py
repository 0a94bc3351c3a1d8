"""What a hand starts from: its stakes, the house's choices, and what both imply, worked out once.

``Stakes`` (the forced bets and limits) and ``HouseSettings`` (where the rulebooks differ) are
public, importable from ``hand.py``. ``_plan`` works out once per Variant what the game's data
implies (``_Plan``); ``_layout`` works out once per distinct Stakes, table size and house the
forced-bet layout of a new hand (``_Forced``: antes and blinds per position, the big blind, who
opens, the minimum raise, the raise cap, the turn order), so that starting a hand copies instead
of working out. Both are cached; the hand itself is ``Hand`` in ``hand.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from controller.poker.variants import Variant


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
