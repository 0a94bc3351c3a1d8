"""Every blind obligation of a hand, planned and carried to the next: the seating layer's
``plan_hand`` and ``finish_hand``.

The algorithm is shared/research/button-blinds-betting.md §1.18 (every step cites its rule):
``plan_hand`` places the button and blinds (§1.18.3, dead or moving button, RR Section 4 r.2),
says who is dealt in (§1.18.4), applies the heads-up override (§1.18.5) and the tournament rules
(§1.18.6), and lists every forced post due; ``finish_hand`` records what happened and carries the
obligations to the next hand (missed blinds, busts, the kill a scoop or a win in a row makes).
The seats, the button and the records they work on are ``seating.py``'s.

Pure and immutable, as ``seating.py``: nothing reads a clock, nothing is random; bad input raises
``SeatingError``. Abbreviations in comments: RR = roberts-rules-v11.txt, RRH =
roberts-rules-home.txt, WSOP = wsop-2009-live-action-rules.md, AZW =
azwine-tour-tournament-rules.txt, JPN = jamies-poker-notes.md; NIS = not in the rulebooks (a
documented house choice).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from controller.poker.house_rules import Settings
from controller.poker.records import replace
from controller.rules.table.seating import (
    HandPlan,
    Post,
    PostKind,
    PotResult,
    Seating,
    SeatingError,
    SeatState,
    frozen_seats,
    level_index,
    occupied,
    players_left_after,
    seats_after,
    seats_before,
    seats_between,
)


class _Rules:
    """The predicates of research §1.18.2 for one table and one set of settings."""

    def __init__(self, s: Seating, settings: Settings, big_blind: int) -> None:
        self.s = s
        self.cfg = settings
        self.bb_amount = big_blind

    def bb_eligible(self, st: SeatState) -> bool:
        """May be the player due for the big blind (RR Section 4 r.2(b)); includes new players
        and players owing blinds, who enter on the big blind (RR Section 4 r.4(a), r.10)."""
        if st.stack <= 0:
            return False
        if self.s.tournament:
            return True  # absent players are blinded (RR Section 15 r.7)
        if not st.present:
            return False
        # WSOP Section 4 r.1: "if a player does not have enough to post the big blind they
        # should no longer be dealt into the game".
        return not (self.cfg.short_big_blind == "not_dealt" and st.stack < self.bb_amount)

    def in_game(self, st: SeatState) -> bool:
        """Takes part in the rotation: may be charged the small blind and hold the button."""
        if not self.bb_eligible(st):
            return False
        if self.s.tournament:
            return not st.new or self.cfg.tournament_new_player == "take_obligations"
        return not (st.new or st.owes_small or st.owes_big or st.wait_hands > 0)

    def established(self, st: SeatState) -> bool:
        """In the game already: blinds passing them are missed blinds (a new player letting the
        button go by is not, RR Section 4 r.5)."""
        return not st.new


def _first(s: Seating, start: int, pred: Collection[int]) -> int | None:
    for n in seats_after(s, start):
        if n in pred:
            return n
    return None


def _stakes_for(s: Seating, now_ms: int | None) -> tuple[int, int, int, int, int | None]:
    if not s.tournament:
        k = s.stakes
        return k.small_blind, k.big_blind, k.ante, k.bring_in, None
    if now_ms is None:
        raise SeatingError("a tournament hand needs the clock reading (now_ms) for its level")
    i = level_index(s, now_ms)
    lv = s.levels[i]
    if lv.is_break:
        raise SeatingError(
            f"level {i} is a break: no hand is started during a break (AZW Timer Use and Breaks)")
    return lv.small_blind, lv.big_blind, lv.ante, lv.bring_in, i


def plan_hand(s: Seating, settings: Settings, *, now_ms: int | None = None,
              straddle: int | None = None, kill_by: int | None = None) -> HandPlan:
    """The plan for the next hand: button, blinds, every forced post, who is dealt in and why
    the others are not. ``straddle``: a seat electing the optional live straddle; ``kill_by``:
    a seat electing a voluntary kill. Raises SeatingError when no hand can be dealt."""
    if not isinstance(settings, Settings):
        raise SeatingError("plan_hand needs the house-rules Settings")
    if settings.tournament != s.tournament:
        raise SeatingError(
            f"the settings say tournament={settings.tournament} but the table says "
            f"tournament={s.tournament}")
    if s.chip_race is not None:
        raise SeatingError("a chip race is in progress: finish it before the next hand")
    sb_amt, bb_amt, ante, bring_in, level = _stakes_for(s, now_ms)
    rules = _Rules(s, settings, bb_amt)
    if s.stakes.forced == "bring_in":
        return _plan_stud(s, settings, rules, ante, bring_in, level)
    eligible = [n for n, st in sorted(s.seats.items()) if rules.bb_eligible(st)]
    if len(eligible) < 2:
        raise SeatingError(f"fewer than two players can be dealt in (eligible: {eligible})")
    if s.stakes.forced == "antes":
        return _plan_antes_only(s, settings, rules, ante, level)
    if settings.blind_layout == "button_blind":
        return _plan_button_blind(s, eligible, bb_amt, ante, level)

    roles: _Roles | None = None
    if len(eligible) > 2:
        roles = _place(s, settings, rules, eligible)
    if roles is None:
        pair = eligible if len(eligible) == 2 else _in_game_pair(s, rules)
        roles = _heads_up(s, settings, pair)
    plan = _build(s, settings, rules, roles, sb_amt, bb_amt, ante, bring_in, level,
                  straddle, kill_by)
    if not roles.heads_up and len(plan.dealt_in) == 2:
        # Two players dealt in play heads-up whatever the seats say (RR Section 4 r.3): the
        # small blind is on the button. Anyone else waits (RR Section 4 r.7).
        pair = [n for n in sorted(plan.dealt_in)]
        plan = _build(s, settings, rules, _heads_up(s, settings, pair), sb_amt, bb_amt, ante,
                      bring_in, level, straddle, kill_by)
    if len(plan.dealt_in) < 2:
        raise SeatingError("fewer than two players can be dealt in")
    return plan


def _in_game_pair(s: Seating, rules: _Rules) -> list[int]:
    pair = [n for n, st in sorted(s.seats.items()) if rules.in_game(st)]
    if len(pair) != 2:
        raise SeatingError("no placement of the button and blinds fits these seats")
    return pair


@dataclass(frozen=True)
class _Roles:
    button: int | None
    sb_position: int | None
    small_blind: int | None   # None: dead small blind
    big_blind: int
    heads_up: bool = False
    missed: Mapping[int, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))


def _place(s: Seating, cfg: Settings, rules: _Rules, eligible: list[int]) -> _Roles | None:
    """Research §1.18.3 for three or more eligible players. None: cannot place (fall back to
    heads-up among the players in the game)."""
    in_game = {n for n, st in s.seats.items() if rules.in_game(st)}
    if len(in_game) < 2:
        # A game that has (re)started among new players: everyone present is in it (RR Section
        # 4 r.13(a) "Any player who drew for the button is considered active").
        in_game = set(eligible)
    elig = set(eligible)
    missed: dict[int, tuple[str, ...]] = {}

    if s.big_blind is None:
        # First hand: the drawn button; small blind and big blind the next players clockwise
        # (RR Section 4 intro).
        if s.button is None:
            raise SeatingError("no button yet: draw for it first (RR Section 2 Seating r.6)")
        btn = s.button if s.button in in_game else _first(s, s.button, in_game)
        assert btn is not None
        sb = _first(s, btn, in_game)
        assert sb is not None
        bb = _first(s, sb, elig)
        if bb is None or bb in (btn, sb):
            return None
        return _Roles(btn, sb, sb, bb)

    prev_bb = s.big_blind
    if s.heads_up:
        # Back from heads-up (NIS, research Part 6: "treat as new player entering, button
        # continues clockwise"): the big blind moves on to the player due; last hand's big blind
        # posts the small blind; the button is the seat before him.
        bb = _first(s, prev_bb, elig)
        assert bb is not None
        sb_pos = prev_bb
        btn = next((n for n in seats_before(s, sb_pos) if n in s.seats and n != bb), None)
        if btn is None or bb in (btn, sb_pos):
            return None
        sb_live = sb_pos in in_game
        return _Roles(btn, sb_pos, sb_pos if sb_live else None, bb)

    if cfg.button_method == "dead":
        # RR Section 4 r.2(b): "The big blind is posted by the player due for it, and the small
        # blind and button are positioned accordingly, even if this means the small blind or the
        # button is placed in front of an empty seat".
        bb = _first(s, prev_bb, elig)
        assert bb is not None
        sb_pos = prev_bb
        btn = s.small_blind if s.small_blind is not None else s.button
        assert btn is not None
        if (cfg.dead_button_on_sb_bust == "stay" and btn not in s.seats
                and btn in s.busted_last_hand and s.button is not None):
            # AZW Dead Button Rule (TDA #31): "When the small blind busts out ... the button
            # does not move."
            btn = s.button
        sb_live = sb_pos in in_game
        if bb in (btn, sb_pos):
            return None
        for n in seats_between(s, prev_bb, bb):
            st = s.seats.get(n)
            if st is not None and rules.established(st) and not s.tournament:
                # The big blind passed a player not eligible for it: a missed blind (RR Glossary
                # MISSED BLIND; RR Section 4 r.10); the small blind too by house choice.
                missed[n] = ("small_blind", "big_blind") if cfg.passed_big_owes_small \
                    else ("big_blind",)
        sb_st = s.seats.get(sb_pos)
        if (not sb_live and sb_st is not None and not s.tournament
                and rules.established(sb_st) and not sb_st.present):
            missed[sb_pos] = ("small_blind",)  # away when due for the small blind (NIS)
        return _Roles(btn, sb_pos, sb_pos if sb_live else None, bb,
                      missed=MappingProxyType(missed))

    # Moving button, RR Section 4 r.2(a): "The button always moves forward to the next player
    # and the blinds adjust accordingly."
    prev_btn = s.button if s.button is not None else prev_bb
    # The button moves on to a player who played the last hand: one who has just finished
    # waiting behind it (a seat change, RR Section 4 r.15) comes in behind the button, never onto
    # it ("You must wait until the button passes", RR Section 4 r.7).
    carried = {n for n in in_game if s.seats[n].player in s.last_dealt}
    btn = _first(s, prev_btn, carried or in_game)
    assert btn is not None
    sb = _first(s, btn, in_game)
    assert sb is not None
    # A waiting new player enters by taking the big blind (RR Section 4 r.4(a)).
    bb = _first(s, sb, elig)
    if bb is None or bb in (btn, sb) or sb == btn:
        return None
    for n in seats_between(s, prev_bb, bb):
        st = s.seats.get(n)
        if st is not None and rules.established(st) and n not in elig:
            missed[n] = ("small_blind", "big_blind") if cfg.passed_big_owes_small \
                else ("big_blind",)
    return _Roles(btn, sb, sb, bb, missed=MappingProxyType(missed))


def _heads_up(s: Seating, cfg: Settings, pair: list[int]) -> _Roles:
    """Research §1.18.5: the small blind is on the button (RR Section 4 r.3; AZW When Only Two
    Players Remain r.1)."""
    x, y = pair
    px, py = s.seats[x].player, s.seats[y].player
    btn: int
    if s.heads_up == frozenset((px, py)) and s.big_blind in (x, y):
        btn = s.big_blind  # the button moves one seat: to last hand's big blind
    elif cfg.heads_up_transition == "most_recent_bb" or s.big_blind is None:
        # RR Section 4 r.3: "the player who had the big blind the most recently is given the
        # button, and his opponent is given the big blind."
        hx = s.last_big_blind_hand.get(px, -1)
        hy = s.last_big_blind_hand.get(py, -1)
        if hx != hy:
            btn = x if hx > hy else y
        else:
            start = s.button if s.button is not None else y
            btn = x if start == x else (y if start == y else _first(s, start, (x, y)) or x)
    else:
        # AZW When Only Two Players Remain r.1: "determine which player would have been the next
        # big blind if no player had been eliminated, that player is the big blind"; an
        # eliminated would-be big blind is passed clockwise (research §1.5).
        nb = _first(s, s.big_blind, (x, y))
        btn = y if nb == x else x
    bb = y if btn == x else x
    return _Roles(btn, btn, btn, bb, heads_up=True)


def _build(s: Seating, cfg: Settings, rules: _Rules, r: _Roles, sb_amt: int, bb_amt: int,
           ante: int, bring_in: int, level: int | None, straddle: int | None,
           kill_by: int | None) -> HandPlan:
    """Research §1.18.4 (who is dealt in) and the posts due."""
    btn = r.button if r.button is not None else r.big_blind
    order = [n for n in seats_after(s, btn) if n in s.seats]
    arc = set()
    for n in seats_after(s, btn - 1 if btn > 1 else s.max_seats):
        if n == r.big_blind:
            break
        arc.add(n)  # "between the big blind and the button" (RR Section 4 r.7)
    dealt: list[int] = []
    why: dict[int, str] = {}
    entry: dict[int, SeatState] = {}
    absent: list[int] = []
    killer = _killer(s, cfg, kill_by, r)
    kill_on = killer is not None
    for n in order:
        st = s.seats[n]
        if st.stack <= 0:
            why[n] = "no chips (cash: may re-buy, RR Section 4 r.12)"
            continue
        if r.heads_up and n not in (r.button, r.big_blind):
            why[n] = ("the others play heads-up this hand: wait until the button passes "
                      "(RR Section 4 r.7)")
            continue
        if s.tournament:
            if (st.new and cfg.tournament_new_player == "wait_if_sb_or_button"
                    and n in (r.button, r.sb_position) and not r.heads_up):
                why[n] = ("moved in to the small blind or button position: dealt in next hand "
                          "(RR Section 15 r.16)")
                continue
            dealt.append(n)  # "A no-show or absent player is always dealt a hand" (RR §15 r.7)
            if not st.present:
                absent.append(n)
                why[n] = "absent: dealt in and blinded off (RR Section 15 r.7, r.13)"
            continue
        if not st.present:
            why[n] = "away: misses the blinds that pass (RR Section 4 r.10)"
            continue
        if not rules.bb_eligible(st):
            why[n] = "cannot post the big blind: not dealt in (WSOP Section 4 r.1)"
            continue
        if r.heads_up or n == r.big_blind or n == killer:
            dealt.append(n)  # entry on the big blind (RR Section 4 r.4(a), r.10)
            continue
        waiting = st.new or st.owes_small or st.owes_big or st.wait_hands > 0
        if not waiting:
            dealt.append(n)
            continue
        if kill_on and st.new and cfg.new_player_in_kill_pot == "no":
            why[n] = "new player: not entitled to play in a killed pot (RR Section 13 r.12)"
            continue
        if n in arc and not (cfg.between_blinds_entry == "buy_button" and st.post):
            why[n] = ("between the big blind and the button: wait until the button passes "
                      "(RR Section 4 r.7)")
            continue
        if st.post:
            if s.stakes.lowball and st.new and not st.owes_big:
                if kill_on:
                    why[n] = "lowball entry is by a kill and this pot is killed (RR §13 r.11)"
                    continue
                killer = n  # RR Section 4 r.4: "In lowball, a new player must ... post an
                kill_on = True  # amount double the big blind", i.e. kill (RR Section 11 r.3)
            dealt.append(n)
            entry[n] = st
            continue
        if st.wait_hands > 0:
            why[n] = (f"changed seats: waits {st.wait_hands} more hand(s) for the same relative "
                      "position (RR Section 4 r.15)")
        elif st.new:
            why[n] = "new player waiting for the big blind (RR Section 4 r.4(a))"
        else:
            why[n] = "owes missed blinds: waiting for the big blind (RR Section 4 r.10)"
    in_dealt = set(dealt)
    sb = r.small_blind if r.small_blind in in_dealt else None
    # Posts, with each seat's stack used up in order (a short post is all-in, RR Section 4 r.1).
    left = {n: s.seats[n].stack for n in dealt}
    posts: list[Post] = []

    def add(seat: int, kind: PostKind, amount: int, live: bool) -> None:
        amt = min(amount, left[seat])
        if amt > 0:
            left[seat] -= amt
            posts.append(Post(seat, kind, amt, live))

    if ante > 0:
        if cfg.ante_style == "big_blind":
            add(r.big_blind, "ante", ante, False)
        else:
            for n in dealt:
                add(n, "ante", ante, False)  # RR Glossary ANTE: "posted ... by all players"
    if sb is not None:
        add(sb, "small_blind", sb_amt, True)
    add(r.big_blind, "big_blind", bb_amt, True)
    kill_blind = 0
    if killer is not None:
        mult2 = 3 if cfg.kill == "half" else 4  # in halves of the big blind: RR Section 13 intro
        kill_blind = s.kill_due_amount if (s.kill_due and killer == s.seat_of(s.kill_due)
                                           and s.kill_due_amount) else bb_amt * mult2 // 2
        add(killer, "kill", kill_blind, True)
    live_cap = s.stakes.opening_bet if cfg.missed_blinds_live == "min_open" else bb_amt
    for n in dealt:
        es = entry.get(n)
        if es is None or n == killer:
            continue
        if es.owes_big or es.owes_small:
            if es.owes_big:
                add(n, "missed_big", bb_amt, True)
            if es.owes_small:
                # RR Section 4 r.10: up to the minimum opening bet is live, "The remainder is taken
                # by the dealer to the center of the pot"; WSOP Section 4 r.6 only the BB live.
                total = sb_amt + (bb_amt if es.owes_big else 0)
                small_live = total <= live_cap and cfg.missed_blinds_live == "min_open"
                add(n, "missed_small", sb_amt, small_live)
        else:
            add(n, "new_player", bb_amt, True)  # RR Section 4 r.4(b), r.15
    straddles: tuple[int, ...] = ()
    if straddle is not None:
        _check_straddle(s, cfg, r, straddle, dealt, kill_on, left, bb_amt)
        add(straddle, "straddle", 2 * bb_amt, True)
        straddles = (straddle,)
    dealing = [n for n in order if n in in_dealt]
    if r.heads_up:
        # AZW When Only Two Players Remain r.2: "The player who does not have the button shall
        # be dealt the first card."
        dealing = [r.big_blind, r.button] if r.button is not None else dealing
    sitting = tuple(n for n in order if n not in in_dealt)
    return HandPlan(
        button=r.button, small_blind=sb, big_blind=r.big_blind, posts=tuple(posts),
        dealt_in=tuple(dealing), sitting_out=sitting, why=MappingProxyType(why),
        hand_number=s.hand_number, sb_position=r.sb_position, heads_up=r.heads_up,
        straddles=straddles, kill=killer, kill_blind=kill_blind, small_blind_amount=sb_amt,
        big_blind_amount=bb_amt, ante=ante, bring_in=bring_in, level=level,
        absent=tuple(absent), missed=r.missed, tournament=s.tournament)


def _killer(s: Seating, cfg: Settings, kill_by: int | None, r: _Roles) -> int | None:
    """Who kills this pot: a required kill (RR Section 13 intro, r.6) or a voluntary one."""
    due = s.seat_of(s.kill_due) if s.kill_due else None
    if cfg.kill == "none":
        if kill_by is not None:
            raise SeatingError("this table plays no kill pots (house setting kill=none)")
        return None
    if kill_by is not None:
        st = occupied(s, kill_by)
        if due is not None and due != kill_by:
            raise SeatingError(f"seat {due} must kill this pot: only one kill per deal "
                               "(RR Section 13 r.11)")
        if not st.present or st.stack <= 0:
            raise SeatingError(f"seat {st.seat} cannot kill the pot: not present with chips")
        return kill_by
    if due is not None:
        killer = s.seats.get(due)
        if killer is None or not killer.present or killer.stack <= 0:
            # NOT IN THE RULEBOOKS: the player due to kill is away or out of chips, so not
            # dealt in (RR Section 4 r.10); this pot is played without the kill.
            return None
    return due


def _check_straddle(s: Seating, cfg: Settings, r: _Roles, seat: int, dealt: list[int],
                    kill_on: bool, left: Mapping[int, int], bb_amt: int) -> None:
    if cfg.straddle == "none" or s.tournament:
        raise SeatingError("no straddle at this table (RR Section 14 No-Limit r.15: "
                           "\"In non-tournament games\")")
    if kill_on:
        raise SeatingError("no straddle in a kill pot (WSOP Section 14 r.12)")
    if r.heads_up:
        raise SeatingError("no straddle heads-up (NIS: the seat left of the big blind is the "
                           "button)")
    if seat not in dealt:
        raise SeatingError(f"seat {seat} is not dealt in and cannot straddle")
    utg = next(n for n in seats_after(s, r.big_blind) if n in dealt)
    allowed = {utg} | ({r.button} if cfg.straddle == "utg_and_button" and r.button else set())
    if seat not in allowed:
        raise SeatingError(
            f"seat {seat} cannot straddle: only the immediate left of the big blind (RR Section 14"
            " NL r.15)" + (" or the button (WSOP Section 4 r.11)"
                           if cfg.straddle == "utg_and_button" else ""))
    if left[seat] < 2 * bb_amt:
        raise SeatingError(f"seat {seat} has too few chips to straddle: a straddle is twice the "
                           "big blind and dead straddles are not permitted (WSOP Section 4 r.11)")


def _plan_antes_only(s: Seating, cfg: Settings, rules: _Rules, ante: int,
                     level: int | None) -> HandPlan:
    """Ante-only button games: "the button moves forward" (RRH Jacks-or-Better r.1)."""
    players = [n for n, st in sorted(s.seats.items()) if rules.bb_eligible(st)]
    start = s.button if s.button is not None else players[0]
    btn = _first(s, start, players) if s.hand_number > 0 else start
    assert btn is not None
    order = [n for n in seats_after(s, btn) if n in s.seats]
    dealt = [n for n in order if n in players]
    why = {n: "away or without chips" for n in order if n not in players}
    posts = tuple(Post(n, "ante", min(ante or s.stakes.ante, s.seats[n].stack), False)
                  for n in dealt if (ante or s.stakes.ante) > 0)
    return HandPlan(button=btn, small_blind=None, big_blind=None, posts=posts,
                    dealt_in=tuple(dealt), sitting_out=tuple(n for n in order if n not in dealt),
                    why=MappingProxyType(why), hand_number=s.hand_number, sb_position=None,
                    ante=ante or s.stakes.ante, level=level, tournament=s.tournament)


def _plan_button_blind(s: Seating, players: list[int], bb_amt: int, ante: int,
                       level: int | None) -> HandPlan:
    """One blind, on the button: "There is only one blind (the big blind) posted by the dealer.
    Antes are also used" (JPN Six Plus Hold'em; the house setting ``blind_layout``). The button
    moves forward one player a hand; every player dealt in antes, the button posts the big blind
    (live), and the action starts left of it. ``players``: the seats that may be dealt in."""
    start = s.button if s.button is not None else players[0]
    btn = _first(s, start, players) if s.hand_number > 0 else start
    if btn is not None and btn not in players:
        btn = _first(s, btn, players)  # the drawn button is away: the next player has it
    assert btn is not None
    order = [n for n in seats_after(s, btn) if n in s.seats]
    dealt = [n for n in order if n in players]
    why = {n: "away or without chips" for n in order if n not in players}
    left = {n: s.seats[n].stack for n in dealt}
    posts: list[Post] = []
    each = ante or s.stakes.ante
    for n in dealt:
        if each > 0 and left[n] > 0:
            posts.append(Post(n, "ante", min(each, left[n]), False))
            left[n] -= posts[-1].amount
    if left[btn] > 0:
        posts.append(Post(btn, "big_blind", min(bb_amt, left[btn]), True))
    absent = tuple(n for n in dealt if not s.seats[n].present)
    return HandPlan(button=btn, small_blind=None, big_blind=btn, posts=tuple(posts),
                    dealt_in=tuple(dealt), sitting_out=tuple(n for n in order if n not in dealt),
                    why=MappingProxyType(why), hand_number=s.hand_number, sb_position=None,
                    big_blind_amount=bb_amt, ante=each, level=level,
                    absent=absent, tournament=s.tournament)


def _plan_stud(s: Seating, cfg: Settings, rules: _Rules, ante: int, bring_in: int,
               level: int | None) -> HandPlan:
    """Stud: no button, no blinds; antes, and a bring-in the engine assigns from the upcards
    (RR Section 8 r.2). Cards go clockwise from the dealer, seat 1 first (NIS: the house dealer
    is the fixed reference)."""
    dealt = [n for n, st in sorted(s.seats.items()) if st.stack > 0
             and (s.tournament or st.present)]
    if len(dealt) < 2:
        raise SeatingError("fewer than two players can be dealt in")
    why = {n: "away or without chips" for n in s.seats if n not in dealt}
    absent = tuple(n for n in dealt if not s.seats[n].present)
    posts = tuple(Post(n, "ante", min(ante, s.seats[n].stack), False) for n in dealt
                  if ante > 0)
    return HandPlan(button=None, small_blind=None, big_blind=None, posts=posts,
                    dealt_in=tuple(dealt), sitting_out=tuple(sorted(why)),
                    why=MappingProxyType(why), hand_number=s.hand_number, ante=ante,
                    bring_in=bring_in, level=level, absent=absent, tournament=s.tournament)


def finish_hand(s: Seating, plan: HandPlan, stacks_after: Mapping[int, int], *,
                pots: tuple[PotResult, ...] = ()) -> Seating:
    """Carry the table to the next hand: stacks, who posted what (obligations met), blinds
    missed, the positions the next plan starts from, busts (tournament: out; cash: may
    re-buy), and the kill button (from ``pots``). A misdeal is not finished: its redeal is an
    exact re-play of the same plan (AZW-RR Section 3 Misdeals r.2, TDA #34)."""
    if not isinstance(plan, HandPlan) or plan.hand_number != s.hand_number:
        raise SeatingError("this plan is not the plan of the table's current hand")
    for n, v in stacks_after.items():
        if n not in s.seats:
            raise SeatingError(f"a stack for seat {n!r}, which is empty")
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise SeatingError(f"seat {n}: stack must be a whole number >= 0, got {v!r}")
    dealt = set(plan.dealt_in)
    seats: dict[int, SeatState] = {}
    busted: set[int] = set()
    eliminated = list(s.eliminated)
    for n, st in s.seats.items():
        st = replace(st, stack=stacks_after.get(n, st.stack))
        if n in dealt:
            st = replace(st, new=False, owes_small=False, owes_big=False, post=False,
                         wait_hands=0)
        else:
            owed = plan.missed.get(n, ())
            st = replace(st, wait_hands=max(0, st.wait_hands - 1),
                         owes_small=st.owes_small or "small_blind" in owed,
                         owes_big=st.owes_big or "big_blind" in owed)
        if st.stack == 0 and n in dealt:
            busted.add(n)
            if s.tournament:
                eliminated.append(st.player)  # RR Section 15 r.21
                continue
        seats[n] = st
    # A seat dealt in may have been left during the hand (seat.leave): its player is gone, so
    # it counts for nobody's big blind, heads-up or last hand.
    still = [n for n in plan.dealt_in if n in s.seats]
    last_bb = dict(s.last_big_blind_hand)
    if plan.big_blind is not None and plan.big_blind in s.seats:
        last_bb[s.seats[plan.big_blind].player] = s.hand_number
    heads_up = frozenset(s.seats[n].player for n in still) if plan.heads_up else frozenset()
    positions: tuple[int | None, int | None, int | None] = (
        plan.button, plan.sb_position, plan.big_blind)
    if plan.button is None and plan.big_blind is None and s.button is not None:
        # A stud hand has no button (RR Section 8 r.2): in a mixed game (HORSE) the button
        # waits where the last button game left it and moves on with the next one.
        positions = (s.button, s.small_blind, s.big_blind)
        heads_up = s.heads_up
    out = replace(
        s, seats=frozen_seats(seats), button=positions[0],
        small_blind=positions[1], big_blind=positions[2],
        hand_number=s.hand_number + 1, last_big_blind_hand=MappingProxyType(last_bb),
        heads_up=heads_up, busted_last_hand=frozenset(busted), eliminated=tuple(eliminated),
        last_dealt=frozenset(s.seats[n].player for n in still))
    if s.tournament and s.players_left is not None:
        # each player eliminated here is one fewer left in the event (RR Section 15 r.21)
        out = replace(out, players_left=players_left_after(
            out, s.players_left, len(eliminated) - len(s.eliminated)))
    return _kill_after(out, s, plan, pots)


def _kill_after(out: Seating, before: Seating, plan: HandPlan,
                pots: tuple[PotResult, ...]) -> Seating:
    """The kill button (RR Section 13 intro, r.1-r.8)."""
    if not pots:
        return out
    holder = out.kill_button
    killer = (before.seats[plan.kill].player
              if plan.kill is not None and plan.kill in before.seats else None)
    winners = {before.seats[w].player for p in pots for w in p.winners if w in before.seats}
    single = [p for p in pots if len(p.winners) == 1]
    due: str | None = None
    new_holder: str | None = holder
    if len(winners) == 1 and single:
        w = next(iter(winners))
        pot = single[0]
        qualifies = pot.beyond_blinds >= plan.big_blind_amount  # RR Section 13 r.3
        if before.stakes.hi_lo:
            # RR Section 13 r.8: a scoop kills only if "at least five times the size of the
            # upper limit of the game".
            if pot.scoop and pot.amount >= 5 * before.stakes.upper_limit:
                due = w
            new_holder = w
        elif w == killer:
            due = w  # RR Section 13 r.7: "must kill it again"
            new_holder = w
        elif w == holder and qualifies:
            due = w  # the second leg (RR Section 13 intro)
            new_holder = w
        else:
            new_holder = w  # the first leg: "no pot-size requirement" (RR Section 13 r.3)
    else:
        # A split pot: a holder who splits keeps the leg; the killer who splits kills again
        # (RR Section 13 r.4); otherwise the button is neutral (RR Section 13 r.1(c)).
        if holder in winners:
            new_holder = holder
            if killer is not None and killer == holder:
                due = holder
        else:
            new_holder = None
    if not out.kill_button and not due and new_holder is None:
        return out
    amount = plan.kill_blind if (due is not None and due == killer) else 0
    return replace(out, kill_button=new_holder, kill_due=due,
                   kill_due_amount=amount if due else 0)
