"""The table across hands: seats, the button, every blind obligation, from one hand to the next.

Pure and immutable: every function takes a ``Seating`` and returns a new one (or a ``HandPlan``);
nothing reads a clock (tournament time comes in as ``now_ms``), nothing is random. Bad input
raises ``SeatingError`` with a message naming the seat or value and leaves the state as it was.

Here are the records (``Seating``, ``SeatState``, ``Stakes``, ``Level``, ``HandPlan``), the seats
(sit down, leave, away and back, change seats, bust and rebuy), the button's first place and the
tournament levels, the chip race, and the order of the seats around the table. The plan of each
hand and the obligations carried to the next (``plan_hand``, ``finish_hand``: the algorithm of
shared/research/button-blinds-betting.md §1.18) are ``blinds.py``'s. Seats are numbered
1..max_seats clockwise.

Abbreviations in comments: RR = roberts-rules-v11.txt, RRH = roberts-rules-home.txt, WSOP =
wsop-2009-live-action-rules.md, AZW = azwine-tour-tournament-rules.txt, JPN =
jamies-poker-notes.md; NIS = not in the rulebooks (a documented house choice).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from controller.poker.cards import RANKS, SUITS, is_card
from controller.poker.house_rules import Settings
from controller.poker.records import replace

PostKind = Literal["small_blind", "big_blind", "straddle", "kill", "ante", "missed_small",
                   "missed_big", "new_player"]


class SeatingError(ValueError):
    """A seating request the table cannot take (the message says which seat and why)."""


def frozen_seats(m: Mapping[int, SeatState] | None = None) -> Mapping[int, SeatState]:
    return MappingProxyType(dict(m or {}))


@dataclass(frozen=True)
class Stakes:
    """The forced-bet sizes of a cash game (tournaments take them from the level)."""

    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0
    bring_in: int = 0
    # The minimum opening bet (RR Section 4 r.10: the live part of made-up blinds); None: the BB.
    min_open: int | None = None
    # blinds: a button game with two blinds; antes: a button game with antes only (draw, RR
    # Section 12 intro); bring_in: stud, no button (RR Section 8 r.2).
    forced: Literal["blinds", "antes", "bring_in"] = "blinds"
    # Lowball: a new player enters by a kill (RR Section 4 r.4, Section 11 r.3).
    lowball: bool = False
    # High-low split: a scoop kills the next pot only if it is 5x the upper limit (RR Section 13
    # r.8); ``upper_limit`` is that limit.
    hi_lo: bool = False
    upper_limit: int = 0

    def __post_init__(self) -> None:
        for name in ("small_blind", "big_blind", "ante", "bring_in", "upper_limit"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise SeatingError(f"stakes {name} must be a whole number >= 0, got {v!r}")
        if self.forced == "blinds" and not 0 < self.small_blind <= self.big_blind:
            raise SeatingError(
                "stakes need 0 < small blind <= big blind, got "
                f"{self.small_blind}/{self.big_blind}")
        if self.forced not in ("blinds", "antes", "bring_in"):
            raise SeatingError(f"stakes forced must be blinds, antes or bring_in: {self.forced!r}")
        if self.min_open is not None and (not isinstance(self.min_open, int) or self.min_open < 1):
            raise SeatingError(
                f"stakes min_open must be a whole number >= 1, got {self.min_open!r}")

    @property
    def opening_bet(self) -> int:
        return self.big_blind if self.min_open is None else self.min_open


@dataclass(frozen=True)
class Level:
    """One tournament level: its length on the clock and its forced bets, or a break."""

    duration_ms: int
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    bring_in: int = 0
    is_break: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.duration_ms, int) or self.duration_ms <= 0:
            raise SeatingError(f"a level needs a duration > 0 ms, got {self.duration_ms!r}")
        if not self.is_break and not 0 < self.small_blind <= self.big_blind:
            raise SeatingError(
                f"a level needs 0 < small blind <= big blind, got "
                f"{self.small_blind}/{self.big_blind}")


@dataclass(frozen=True)
class SeatState:
    """A player in a seat between hands."""

    seat: int
    player: str
    stack: int
    present: bool = True
    # Not yet dealt in since sitting down (RR Section 4 r.4: waits for the big blind or posts).
    new: bool = False
    # Missed blinds (RR Section 4 r.10; Glossary MISSED BLIND).
    owes_small: bool = False
    owes_big: bool = False
    # Elected to post now rather than wait for the big blind (RR Section 4 r.4(b), r.10, r.15).
    post: bool = False
    # Seat change: hands to wait for the same relative position (RR Section 4 r.15).
    wait_hands: int = 0

    @property
    def owes(self) -> tuple[str, ...]:
        return tuple(k for k, v in (("small_blind", self.owes_small),
                                    ("big_blind", self.owes_big)) if v)

    @property
    def wait_for_bb(self) -> bool:
        """Waiting to come in on the big blind rather than posting."""
        return (self.new or self.owes_small or self.owes_big or self.wait_hands > 0) \
            and not self.post


@dataclass(frozen=True)
class Seating:
    """The table across hands. ``button``/``small_blind``/``big_blind`` are the last hand's
    positions (the small blind's seat is kept even when it was dead, RR Section 4 r.2(b)); before
    the first hand ``button`` is the drawn button."""

    seats: Mapping[int, SeatState] = field(default_factory=frozen_seats)
    max_seats: int = 10
    button: int | None = None
    small_blind: int | None = None
    big_blind: int | None = None
    hand_number: int = 0
    last_big_blind_hand: Mapping[str, int] = field(
        default_factory=lambda: MappingProxyType({}))
    stakes: Stakes = field(default_factory=Stakes)
    tournament: bool = False
    levels: tuple[Level, ...] = ()
    # The two players of the last hand if it was heads-up (RR Section 4 r.3).
    heads_up: frozenset[str] = frozenset()
    # Seats whose player busted in the last hand (AZW Dead Button Rule, TDA #31).
    busted_last_hand: frozenset[int] = frozenset()
    # Kill pots (RR Section 13): who holds the kill button, who must kill the next pot and for
    # how much.
    kill_button: str | None = None
    kill_due: str | None = None
    kill_due_amount: int = 0
    eliminated: tuple[str, ...] = ()
    # Tournament: the players left in the whole event as the director last told it
    # (``tournament.players``, or the entrants of ``tournament.setup``), less each player busted
    # here since (no re-buy: a bust here is a player out of the event, RR Section 15 r.21). None:
    # not told (``new_hand.last_two`` then infers the last two from this table).
    players_left: int | None = None
    # The players dealt in on the last hand.
    last_dealt: frozenset[str] = frozenset()
    # A colour-up chip race is being dealt (RR Section 15 r.11): the monitor accepts face-up
    # cards one seat at a time.
    chip_race: tuple[int, ...] | None = None

    def seat_of(self, player: str) -> int | None:
        for n, st in self.seats.items():
            if st.player == player:
                return n
        return None


@dataclass(frozen=True)
class Post:
    """One forced post due before the deal."""

    seat: int
    kind: PostKind
    amount: int
    live: bool


@dataclass(frozen=True)
class HandPlan:
    """Where the button and blinds are and who is dealt in, for one hand."""

    button: int | None            # may be an empty seat (dead button)
    small_blind: int | None       # None: no small blind this hand
    big_blind: int | None
    posts: tuple[Post, ...]
    dealt_in: tuple[int, ...]     # in dealing order, first left of the button
    sitting_out: tuple[int, ...]
    why: Mapping[int, str]
    hand_number: int = 0
    # The small blind's position even when dead (the next hand's button under the dead button).
    sb_position: int | None = None
    heads_up: bool = False
    straddles: tuple[int, ...] = ()
    kill: int | None = None
    kill_blind: int = 0           # the kill's size; limits scale by kill_blind / big_blind_amount
    small_blind_amount: int = 0
    big_blind_amount: int = 0
    ante: int = 0
    bring_in: int = 0
    level: int | None = None      # tournament level index
    absent: tuple[int, ...] = ()  # tournament: absent players dealt in and blinded off
    # Blinds this hand passes: seat -> ("small_blind", "big_blind") newly owed after the hand.
    missed: Mapping[int, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    tournament: bool = False

    def posts_by(self, seat: int) -> tuple[Post, ...]:
        return tuple(p for p in self.posts if p.seat == seat)


@dataclass(frozen=True)
class PotResult:
    """One pot awarded at the end of a hand, for the kill-pot bookkeeping (RR Section 13)."""

    winners: tuple[int, ...]      # several: a split pot
    amount: int = 0
    beyond_blinds: int = 0        # what the winner won beyond the blind structure (RR §13 r.3)
    scoop: bool = False           # high-low: one player won both halves (RR Section 13 r.8)


def new_table(*, max_seats: int = 10, stakes: Stakes | None = None, tournament: bool = False,
              levels: tuple[Level, ...] = ()) -> Seating:
    if not isinstance(max_seats, int) or not 2 <= max_seats <= 12:
        raise SeatingError(f"a table has 2 to 12 seats, got {max_seats!r}")
    if tournament and not levels:
        raise SeatingError("a tournament table needs its blind levels (RR Section 15 r.9)")
    if any(not isinstance(lv, Level) for lv in levels):
        raise SeatingError("levels must be Level values")
    return Seating(max_seats=max_seats, stakes=stakes or Stakes(), tournament=tournament,
                   levels=tuple(levels))


def _check_seat(s: Seating, seat: object) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= s.max_seats:
        raise SeatingError(f"no seat {seat!r} at a {s.max_seats}-seat table")
    return seat


def occupied(s: Seating, seat: object) -> SeatState:
    n = _check_seat(s, seat)
    st = s.seats.get(n)
    if st is None:
        raise SeatingError(f"seat {n} is empty")
    return st


def _with_seat(s: Seating, seat: int, st: SeatState | None) -> Seating:
    seats = dict(s.seats)
    if st is None:
        seats.pop(seat, None)
    else:
        seats[seat] = st
    return replace(s, seats=frozen_seats(seats))


def _started(s: Seating) -> bool:
    return s.hand_number > 0 or s.button is not None


def sit_down(s: Seating, seat: int, player: str, stack: int, *, post: bool = False) -> Seating:
    """A player takes an empty seat. Once the game has started the player is new: waits for the
    big blind or (``post``) posts a big blind to be dealt in now (RR Section 4 r.4; lowball: a
    kill, RR Section 11 r.3). Players seated before the button is drawn are in the game (RR
    Section 4 r.13(a)). In a tournament a player seated after the start was moved in (RR Section
    15 r.16; AZW Balancing, TDA #10)."""
    n = _check_seat(s, seat)
    if n in s.seats:
        raise SeatingError(f"seat {n} is taken by {s.seats[n].player}")
    if not isinstance(player, str) or not player.strip():
        raise SeatingError(f"a player needs a name, got {player!r}")
    if s.seat_of(player) is not None:
        raise SeatingError(f"{player} already sits in seat {s.seat_of(player)}")
    if not isinstance(stack, int) or isinstance(stack, bool) or stack <= 0:
        raise SeatingError(f"{player} needs chips to sit down, got {stack!r}")
    if s.tournament and player in s.eliminated:
        raise SeatingError(f"{player} is out of the tournament")
    st = SeatState(seat=n, player=player, stack=stack, new=_started(s), post=bool(post))
    return _with_seat(s, n, st)


def leave(s: Seating, seat: int) -> Seating:
    """The player leaves the table; the seat is empty. A kill button held by the player becomes
    neutral (RR Section 13 r.1(b))."""
    st = occupied(s, seat)
    out = _with_seat(s, st.seat, None)
    if s.kill_button == st.player:
        out = replace(out, kill_button=None)
    if s.kill_due == st.player:
        out = replace(out, kill_due=None, kill_due_amount=0)
    return out


def away(s: Seating, seat: int) -> Seating:
    """The player steps away: a cash player is not dealt in and misses the blinds that pass
    (RR Section 4 r.10); a tournament player is dealt in and blinded off (RR Section 15 r.7)."""
    st = occupied(s, seat)
    if not st.present:
        raise SeatingError(f"seat {st.seat} ({st.player}) is already away")
    return _with_seat(s, st.seat, replace(st, present=False, post=False))


def back(s: Seating, seat: int, *, post: bool = False) -> Seating:
    """The player returns: posts the missed blinds (``post``) or waits for the big blind (RR
    Section 4 r.10)."""
    st = occupied(s, seat)
    if st.present:
        raise SeatingError(f"seat {st.seat} ({st.player}) is not away")
    return _with_seat(s, st.seat, replace(st, present=True, post=bool(post)))


def set_post(s: Seating, seat: int, post: bool = True) -> Seating:
    """A waiting player (new, owing missed blinds, or after a seat change) chooses to post and be
    dealt in now, or (``post=False``) to wait for the big blind (RR Section 4 r.4, r.10, r.15)."""
    st = occupied(s, seat)
    return _with_seat(s, st.seat, replace(st, post=bool(post)))


def bust(s: Seating, seat: int) -> Seating:
    """The player has no chips. Tournament: out of the event, the seat is empty, one player
    fewer left in the event (RR Section 15 r.21). Cash: stays seated with no chips and may
    re-buy (RR Section 4 r.12)."""
    st = occupied(s, seat)
    if s.tournament:
        out = _with_seat(s, st.seat, None)
        return replace(out, eliminated=(*s.eliminated, st.player),
                       kill_button=None if s.kill_button == st.player else s.kill_button,
                       players_left=players_left_after(out, s.players_left, 1))
    return _with_seat(s, st.seat, replace(st, stack=0, post=False))


def with_chips(s: Seating) -> int:
    """The players seated here with chips: each of them is still in the event."""
    return sum(1 for st in s.seats.values() if st.stack > 0)


def players_left_after(s: Seating, told: int | None, out: int) -> int | None:
    """The players left in the event once ``out`` players busted here (``s``: the table after
    them): the told count less them, never fewer than the players still seated here with
    chips; None while nothing was told."""
    if told is None:
        return None
    return max(told - out, with_chips(s), 1)


def rebuy(s: Seating, seat: int, amount: int) -> Seating:
    """Cash re-buy. A player who went all-in and lost still owes blinds missed meanwhile and is
    not a new player (RR Section 4 r.12)."""
    st = occupied(s, seat)
    if s.tournament:
        raise SeatingError("no re-buy at this table: it is a tournament")
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise SeatingError(f"a re-buy needs a whole number of chips > 0, got {amount!r}")
    return _with_seat(s, st.seat, replace(st, stack=st.stack + amount))


def change_seat(s: Seating, old: int, new: int, *, post: bool = False) -> Seating:
    """The player moves to an empty seat. Moving k active positions farther from the big blind
    means waiting k hands, unless the player posts a big blind (allowed only if no blind is
    owed); moving closer costs nothing (RR Section 4 r.14, r.15). Not in a tournament (RR
    Section 15 r.3: seats change only as the director assigns)."""
    st = occupied(s, old)
    m = _check_seat(s, new)
    if s.tournament:
        raise SeatingError("no seat changes in a tournament (RR Section 15 r.3)")
    if m in s.seats:
        raise SeatingError(f"seat {m} is taken by {s.seats[m].player}")
    if post and (st.owes_small or st.owes_big):
        raise SeatingError(
            f"{st.player} owes missed blinds and cannot post just a big blind to move "
            "(RR Section 4 r.15: \"have not yet missed a blind\")")
    wait = 0
    if s.big_blind is not None and not st.new:
        rest = replace(s, seats=frozen_seats({k: v for k, v in s.seats.items() if k != st.seat}))
        wait = max(0, _distance_from_bb(rest, m) - _distance_from_bb(rest, st.seat))
    moved = replace(st, seat=m, wait_hands=max(st.wait_hands, wait), post=bool(post))
    return _with_seat(_with_seat(s, st.seat, None), m, moved)


def _distance_from_bb(s: Seating, seat: int) -> int:
    """How many other players the big blind reaches before it reaches ``seat``."""
    assert s.big_blind is not None
    count = 0
    for n in seats_after(s, s.big_blind):
        if n == seat:
            break
        if n in s.seats:
            count += 1
    return count


def initial_button(s: Seating, high_cards: Mapping[int, str], *, low: bool = False,
                   settings: Settings | None = None) -> int:
    """The seat that wins the draw for the button: the highest card, suits ranked spades,
    hearts, diamonds, clubs (RR Section 2 Seating r.6; RR Section 3 Ties r.1). In a low game
    (``low``) the lowest card wins under RR Section 2 Seating r.6, the highest under RRH Seating
    r.1 and WSOP Section 2 Seating r.6 (``settings.button_draw_low_games``); the ace counts low
    there (NIS)."""
    if not high_cards:
        raise SeatingError("the button draw needs a card for each player")
    seen: set[str] = set()
    for seat, card in high_cards.items():
        st = occupied(s, seat)
        if not isinstance(card, str) or not is_card(card):
            raise SeatingError(f"seat {st.seat} drew {card!r}, which is not a card")
        if card in seen:
            raise SeatingError(f"{card} was drawn twice")
        seen.add(card)
    lowest = low and (settings is None or settings.button_draw_low_games == "lowest")

    def key(item: tuple[int, str]) -> tuple[int, int]:
        card = item[1]
        rank = RANKS.index(card[0])
        if lowest:
            rank = -1 if card[0] == "A" else rank
            return (-rank, -SUITS.index(card[1]))
        return (rank, SUITS.index(card[1]))  # SUITS is "cdhs": spades highest

    return max(high_cards.items(), key=key)[0]


def with_button(s: Seating, seat: int) -> Seating:
    """Place the button for the first hand (after the draw, ``initial_button``)."""
    occupied(s, seat)
    if s.hand_number > 0:
        raise SeatingError("the button is placed by drawing only before the first hand")
    return replace(s, button=seat)


def set_stakes(s: Seating, stakes: Stakes) -> Seating:
    if not isinstance(stakes, Stakes):
        raise SeatingError("stakes must be a Stakes value")
    return replace(s, stakes=stakes)


def seats_after(s: Seating, seat: int) -> Iterator[int]:
    """Seats clockwise after ``seat``, ending with ``seat`` itself."""
    for i in range(1, s.max_seats + 1):
        yield (seat - 1 + i) % s.max_seats + 1


def seats_before(s: Seating, seat: int) -> Iterator[int]:
    """Seats counter-clockwise before ``seat``, ending with ``seat`` itself."""
    for i in range(1, s.max_seats + 1):
        yield (seat - 1 - i) % s.max_seats + 1


def seats_between(s: Seating, a: int, b: int) -> list[int]:
    """Seats strictly clockwise between a and b."""
    out = []
    for n in seats_after(s, a):
        if n == b:
            break
        out.append(n)
    return out


def _level_index(levels: tuple[Level, ...], elapsed_ms: int) -> int:
    t = 0
    for i, lv in enumerate(levels):
        t += lv.duration_ms
        if elapsed_ms < t:
            return i
    return len(levels) - 1  # the last level runs on


def level_index(s: Seating, elapsed_ms: int) -> int:
    """The tournament level in effect ``elapsed_ms`` after the clock started (the caller stops
    the clock for breaks and disputes, AZW Timer Use and Breaks)."""
    if not s.levels:
        raise SeatingError("this table has no blind levels")
    if not isinstance(elapsed_ms, int) or isinstance(elapsed_ms, bool) or elapsed_ms < 0:
        raise SeatingError(f"the tournament clock reading must be ms >= 0, got {elapsed_ms!r}")
    return _level_index(s.levels, elapsed_ms)


def level_marker(settings: Settings) -> Literal["first_riffle", "blinds_posted", "first_card"]:
    """Which instant's clock reading decides a hand's level (``plan_hand(now_ms=...)``): RR
    Section 15 r.10 the first riffle; AZW Timer Use and Breaks the blinds posted; JPN the first
    card dealt."""
    return {"next_deal_first_riffle": "first_riffle",
            "next_hand_blinds_posted": "blinds_posted",
            "next_hand_first_card": "first_card"}[settings.level_change]  # type: ignore[return-value]


def seat_status(s: Seating, seat: int, plan: HandPlan | None = None) -> str:
    """``playing``, ``away``, ``sitting_out``, ``waiting_for_bb`` or ``empty`` (docs/snapshot.md
    seats[].status)."""
    n = _check_seat(s, seat)
    found = s.seats.get(n)
    if found is None:
        return "empty"
    st = found
    if plan is not None and n in plan.dealt_in:
        return "playing"
    if not st.present:
        return "away"
    if st.stack <= 0:
        return "sitting_out"
    if st.new or st.owes_small or st.owes_big or st.wait_hands > 0:
        return "waiting_for_bb"
    return "playing" if plan is None else "sitting_out"


def start_chip_race(s: Seating, odd_chips: Mapping[int, int]) -> Seating:
    """A colour-up chip race begins (RR Section 15 r.11): one card face up per odd chip, "dealt
    clockwise starting with the 1-seat, with each player receiving all cards before any cards
    are dealt to the next player". ``Seating.chip_race`` is then the expected order of seats, one
    entry per card, so the table monitor accepts this deal as legitimate."""
    if not s.tournament:
        raise SeatingError("a chip race is a tournament colour-up (RR Section 15 r.11)")
    order: list[int] = []
    for seat in sorted(odd_chips):
        st = occupied(s, seat)
        k = odd_chips[seat]
        if not isinstance(k, int) or isinstance(k, bool) or k < 0:
            raise SeatingError(f"seat {st.seat}: odd chips must be a whole number >= 0, got {k!r}")
        order.extend([seat] * k)
    return replace(s, chip_race=tuple(order))


def chip_race_awards(cards: Mapping[int, tuple[str, ...]], odd_chips: Mapping[int, int],
                     per_new_chip: int, no_chips: Collection[int] = ()) -> dict[int, int]:
    """New chips won in the race (RR Section 15 r.11): a player left with no chips gets one
    first; then one each by highest card (rank, then suit spades, hearts, diamonds, clubs) while
    a full new chip's worth of odd chips is left; a remainder of half a chip or more goes to the
    next highest card."""
    if per_new_chip < 2:
        raise SeatingError("a new chip is worth at least two of the old ones")
    pool = sum(odd_chips.values())
    best: dict[int, tuple[int, int]] = {}
    for seat, held in cards.items():
        if not held or any(not is_card(c) for c in held):
            raise SeatingError(f"seat {seat}: chip-race cards must be cards, got {held!r}")
        best[seat] = max((RANKS.index(c[0]), SUITS.index(c[1])) for c in held)
    awards: dict[int, int] = {}
    for seat in sorted(no_chips):
        if pool >= per_new_chip / 2:   # NIS: RR gives the chip "before anyone else"
            awards[seat] = 1
            pool = max(0, pool - per_new_chip)
    for seat in sorted(best, key=lambda n: best[n], reverse=True):
        if seat in awards:
            continue
        if pool >= per_new_chip:
            awards[seat] = 1
            pool -= per_new_chip
        elif pool * 2 >= per_new_chip:
            awards[seat] = 1
            pool = 0
        else:
            break
    return awards


def end_chip_race(s: Seating) -> Seating:
    if s.chip_race is None:
        raise SeatingError("no chip race is in progress")
    return replace(s, chip_race=None)
