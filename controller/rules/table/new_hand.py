"""A hand's stakes and its new ``Hand`` record, from the seating layer's plan.

The seating layer (``seating.py``, research/button-blinds-betting.md §1.18) plans each hand: the
button, the blinds, every forced post due, the seats dealt in. This module turns the table's
set-up and that plan into the stakes of the hand engine (the fixed-limit bets, the bring-in) and
the ``Hand`` the monitor judges: used when a hand starts and when a level changes its plan."""

from __future__ import annotations

from controller.events import (
    TableSetup,
)
from controller.poker.variants import VARIANTS, Variant, first_game, game_problem
from controller.rules import procedure
from controller.rules.table.seating import HandPlan, Stakes
from controller.rules.table.state import Hand, TableState


def game_of_setup(body: TableSetup) -> Variant:
    """The game the set-up names (a mixed game: its first game, or hold'em for the dealer's
    choice until the dealer names one); ValueError names an unknown game or structure."""
    problem = game_problem(body.game, body.structure)
    if problem is not None:
        raise ValueError(problem[1])
    return first_game(body.game, body.structure) or VARIANTS["nlhe"]


def seating_stakes(body: TableSetup, v: Variant) -> Stakes:
    """The seating layer's stakes for the game: blinds (hold'em, lowball, badugi), antes only
    (draw high: RR Section 12 intro) or antes and a bring-in with no button (stud: Section 8)."""
    if v.forced == "antes_bring_in":
        return Stakes(small_blind=max(body.small_blind, 1), big_blind=body.big_blind,
                      ante=body.ante, bring_in=_bring_in(body), forced="bring_in")
    if v.forced == "antes":
        return Stakes(small_blind=max(body.small_blind, 1), big_blind=body.big_blind,
                      ante=body.ante or 1, forced="antes")
    return Stakes(small_blind=max(body.small_blind, 1), big_blind=body.big_blind,
                  ante=body.ante, lowball=v.rankings[0] != "high" and bool(v.draws))


def _small_bet(body: TableSetup) -> int:
    return body.small_bet or body.big_blind


def _big_bet(body: TableSetup) -> int:
    return body.big_bet or 2 * _small_bet(body)


def _bring_in(body: TableSetup) -> int:
    # NIS: the books leave the bring-in to the house; a third of the small bet is common
    return body.bring_in or max(1, _small_bet(body) // 3)


def engine_posts(plan: HandPlan) -> list[tuple[int, str, int, bool]]:
    """The plan's posts at their nominal size: the engine posts what each stack can, and a short
    big blind still counts at its full size for the others (RR Section 14 NL r.2)."""
    nominal = {"small_blind": plan.small_blind_amount, "big_blind": plan.big_blind_amount}
    return [(p.seat, p.kind, max(p.amount, nominal.get(p.kind, 0)), p.live) for p in plan.posts]


def new_hand(state: TableState, plan: HandPlan, number: int, v: Variant) -> Hand:
    """The hand from its plan: the engine posts the plan's forced bets (the console's posts
    tick them off), the procedure monitor of the game's family judges every card."""
    table = state.seating
    order = list(plan.dealt_in)
    setup = state.setup
    owes = {n: " and ".join(procedure.POST_NAMES.get(k, k) for k in table.seats[n].owes)
            for n in plan.sitting_out if n in table.seats and table.seats[n].owes}
    why = {n: plan.why.get(n, "not dealt in") for n in plan.sitting_out}
    # Preflop action starts left of the last blind in position: the straddle, else the big
    # blind (RR §4 intro; §14 NL r.15); a kill acts in proper turn (RR §13 r.2).
    after = plan.straddles[-1] if plan.straddles else plan.big_blind
    big = max(plan.big_blind_amount, plan.kill_blind)  # a kill raises the limits (RR §13)
    game = procedure.start(
        v, order, [table.seats[s].stack for s in order],
        engine_posts(plan),
        small_bet=_small_bet(setup), big_bet=_big_bet(setup),
        bring_in=plan.bring_in or _bring_in(setup), settings=state.settings,
        big_blind=big or setup.big_blind, after=after, killer=plan.kill, why=why, owes=owes,
        last_two=last_two(state, plan))
    return Hand(number=number, game=game, phase=v.streets[0].name,
                button=plan.button if plan.button is not None else 0,
                small_blind=plan.small_blind, big_blind=plan.big_blind, plan=plan,
                absent=tuple(plan.absent))


def last_two(state: TableState, plan: HandPlan) -> bool:
    """Is the tournament down to its last two players? Fixed limit: only then is the raising
    heads-up unlimited (RR Section 3 Betting and Raising r.5, Section 15 r.23; AZW Section 3
    r.5, Section 15 r.23 "except the last two players in a tournament"). Read when a hand is
    planned: a hand already dealt keeps what it was dealt with.

    Told (``Seating.players_left``: ``tournament.players``, or the entrants of
    ``tournament.setup``, less the players busted here since): the count is the rule, a hand
    dealt to two players when two or fewer are left in the event. Not told, the table infers
    it: a tournament table dealing two players with nobody else seated with chips (absent
    players are dealt in, RR Section 15 r.7), taking a table of a multi-table event to be
    balanced or broken before it is left two-handed (AZW Balancing). The inference is wrong at
    a table left two-handed while other tables still play: tell the count there."""
    table = state.seating
    if not table.tournament or len(plan.dealt_in) != 2:
        return False
    if table.players_left is not None:
        return table.players_left <= 2
    return not any(st.stack > 0 for n, st in table.seats.items() if n not in plan.dealt_in)
