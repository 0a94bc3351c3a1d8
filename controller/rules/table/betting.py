"""The betting at the live table: every action, entered at the console or made by a bet zone's
chips (bounded in a row), judged by the procedure monitor; posts the monitor does not judge alone
(a straddle, a post by the wrong seat); and the button seen out of position through the blinds
posted (``button_seen_in_posts``: the button not moved, or moved wrongly; roberts-rules-v11.txt,
Section 3, Misdeals, r.2(g))."""

from __future__ import annotations

from types import MappingProxyType

from controller.events import (
    Action,
)
from controller.poker.records import replace
from controller.rules import chips as chip_rules
from controller.rules import procedure
from controller.rules.findings import Finding, make_finding
from controller.rules.table import blinds
from controller.rules.table.cutoff import alerted
from controller.rules.table.kernel import (
    progress,
    reads_chips,
    voided,
    window_kills,
    with_findings,
)
from controller.rules.table.new_hand import engine_posts
from controller.rules.table.seating import HandPlan, SeatingError
from controller.rules.table.state import LEVEL_MS, Act, Hand, Step, TableState


def action(state: TableState, body: Action, seq: int, by_chips: bool = False,
           depth: int = 0) -> Step:
    """A betting action: entered at the console, or made by the chips in a bet zone
    (``by_chips``; ``depth`` counts the actions the chips make in a row, bounded)."""
    h = state.hand
    chips_read = reads_chips(state) and h is not None and h.in_play
    if body.kind == "raise" and body.amount is None and not by_chips:
        return _raise_declared(state, body, seq, chips_read)
    if chips_read and not by_chips and h is not None:
        verdict, told, bets = chip_rules.console(h.game, h.bets, body, seq)
        if verdict != "apply":
            return Step(with_findings(replace(state, hand=replace(h, bets=bets)), told), told)
    step = _betting_action(state, body, seq)
    h2 = step.state.hand
    if not chips_read or h is None or h2 is None or not _applied(h.game, h2.game):
        return step
    bets, told, nxt = chip_rules.after_action(h.game, h2.game, h2.bets, state.chips, body,
                                              by_chips, seq, state.settings)
    state2 = with_findings(replace(step.state, hand=replace(h2, bets=bets)), told)
    found = step.findings + told
    if nxt is None or depth >= _MAX_CHIP_ACTIONS:
        return Step(state2, found)
    more = action(state2, nxt, seq, by_chips=True, depth=depth + 1)
    return Step(more.state, found + more.findings)


def _raise_declared(state: TableState, body: Action, seq: int, chips_read: bool) -> Step:
    """A raise declared with no amount (TDA #45): at a table reading the chips, the raise the
    seat's chips make next (``chips.betting.decide``); without chip sensors the console must
    give the amount."""
    h = state.hand
    # a table with a chip set registered has chip sensors, whether or not a bet zone has
    # reported yet this session
    chips_read = chips_read or bool(state.chips.registry.chips)
    if h is None or not h.in_play or not chips_read or h.game.to_act != body.seat:
        why = ("the chips are not read at this table: enter the raise's amount"
               if h is not None and h.in_play and not chips_read
               else "it is not the seat's turn" if h is not None and h.in_play
               else "there is no hand in progress")
        detail = f"Seat {body.seat} declared a raise with no amount: {why}."
        f = make_finding("ACTION_NOT_AVAILABLE", seq, seats=[body.seat], fill={"detail": detail},
                         message=detail)
        return Step(with_findings(state, [f]), (f,))
    declared = MappingProxyType({**h.bets.raise_declared, body.seat: h.game.eng.street})
    return Step(replace(state, hand=replace(h, bets=replace(h.bets, raise_declared=declared))))


# The chips may make several actions in a row (posts settled together, a binding out-of-turn
# action): far fewer than this at any table; the bound keeps apply total whatever the events.
_MAX_CHIP_ACTIONS = 32


def _applied(g: procedure.GameHand, g2: procedure.GameHand) -> bool:
    """The action changed the betting (an action refused leaves the log and the posts)."""
    return g2.log != g.log or g2.ticked != g.ticked


def _betting_action(state: TableState, body: Action, seq: int) -> Step:
    h = state.hand
    if h is None or not h.in_play:
        f = make_finding("ACTION_NOT_AVAILABLE", seq, seats=[body.seat], fill={
            "detail": f"Seat {body.seat} {body.kind}: there is no hand in progress."})
        return Step(with_findings(state, [f]), (f,))
    if body.kind == "draw" and not h.game.variant.draws:
        f = make_finding("ACTION_NOT_AVAILABLE", seq, seats=[body.seat], fill={
            "detail": f"Seat {body.seat} asked for cards: there is no draw in "
                      f"{h.game.variant.name}."})
        return Step(with_findings(state, [f]), (f,))
    if body.kind == "post":
        special = _post(state, h, body, seq)
        if special is not None:
            return special
    # The dealer has moved on to the betting: what the deal left pending is ruled first, as of
    # before this action (a seat passed over is a misdeal only if attention comes before the
    # cut-off, RR Section 3, Misdeals, r.1).
    g, moved = procedure.moving_on(h.game, dealt=True)
    g, killed = procedure.unprotected(g, seq, body.seat if body.kind == "fold" else None)
    h, moved = alerted(state.settings, h if g is h.game else replace(h, game=g),
                       [*moved, *killed])
    g = h.game
    before = procedure.current_bet(g)
    g2, found = procedure.action(g, body.seat, body.kind, body.amount, body.blind, seq)
    found = moved + found
    cmd = procedure.first_command(g, g2)
    oot = any(f.code == "OOT_ACTION" for f in found)
    if body.kind not in ("post", "draw") and (cmd is not None or oot):
        raised = (cmd is not None and cmd[0] == procedure.RAISE
                  and int(str(cmd[2])) > before)
        # (the act and the game in one new record: nothing between reads the game)
        h = replace(h, game=g2, acts=(*h.acts, Act(body.seat, body.kind,
                                                   in_turn=cmd is not None, raised=raised)))
    else:
        h = replace(h, game=g2)
    h = progress(window_kills(h))
    return Step(with_findings(replace(state, hand=h), found), tuple(found))


def _post(state: TableState, h: Hand, body: Action, seq: int) -> Step | None:
    """A post the procedure does not judge alone: a straddle, a post by the wrong seat, or a
    post naming another kind than the one due. None: post as usual."""
    g = h.game
    if body.blind == "straddle" and not g.posts_due:
        return _straddle(state, h, body, seq)
    if not g.posts_due:
        return None
    seat, kind, _ = g.posts_due[0]
    name = procedure.POST_NAMES.get(kind, kind)
    if procedure.is_void(g) and any(f.code == BUTTON_MISPLACED for f in state.findings):
        return Step(state)  # the hand is void for the button: its posts are moot
    if body.seat != seat:
        misplaced = _button_seen_in_posts(state, h, body, seq)
        if misplaced is not None:
            return misplaced
        why = h.plan.why.get(body.seat, "") if h.plan is not None else ""
        reason = why or (f"seat {seat} is the {name} by the seating plan")
        f = make_finding("BLIND_WRONG_SEAT", seq, seats=[body.seat, seat], fill={
            "blind": name, "due_seat": seat, "why": reason})
        return Step(with_findings(state, [f]), (f,))
    if body.blind is not None and body.blind != kind:
        f = make_finding("ACTION_NOT_AVAILABLE", seq, seats=[body.seat], fill={
            "detail": f"Seat {body.seat} posted a "
                      f"{procedure.POST_NAMES.get(body.blind, body.blind)}; the {name} is due "
                      "from it now."})
        return Step(with_findings(state, [f]), (f,))
    return None


BUTTON_MISPLACED = "MISDEAL_BUTTON_OUT_OF_POSITION"


def button_misplaced(state: TableState, plan: HandPlan, placed: int, expected: int,
                     seq: int) -> Finding:
    """The button found on seat ``placed`` where the plan puts it on ``expected``: a misdeal
    (roberts-rules-v11.txt, Section 3, Misdeals, r.2(g): "The button was out of position")."""
    blinds = (f"small blind seat {plan.small_blind}" if plan.small_blind is not None
              else "no small blind") + f", big blind seat {plan.big_blind}"
    method = "dead" if state.settings.button_method == "dead" else "moving"
    return make_finding(BUTTON_MISPLACED, seq, seats=[placed, expected],
                        fill={"expected": expected, "method": method, "blinds": blinds})


def _button_seen_in_posts(state: TableState, h: Hand, body: Action, seq: int) -> Step | None:
    """The first post of the hand is the small blind (by its name or its amount) from a seat
    that is not this hand's small blind (nor, with three or more dealt in, its big blind): the
    button is where that post places it (the seat before it in the dealing order; heads-up the
    button itself posts the small blind), not where the seating plan puts it. The
    button was not moved, or moved wrongly (at a heads-up transition, after a big blind busts
    under TDA #31): a misdeal by RR Section 3, Misdeals, r.2(g), seen through the blinds when
    no button sensor or named button says so. The hand is void and its posts are moot."""
    plan = h.plan
    g = h.game
    # The hand's first post (with a dead small blind, TDA #31 after a big blind busts, the big
    # blind is the first due): no post has been made yet.
    first = plan.small_blind if plan is not None and plan.small_blind is not None else (
        plan.big_blind if plan is not None else None)
    if (plan is None or plan.button is None or first is None or not g.posts_due
            or g.posts_due[0][0] != first or h.acts or body.seat not in plan.dealt_in):
        return None
    says_small = body.blind == "small_blind" or (
        body.blind is None and body.amount == plan.small_blind_amount)
    heads_up = len(plan.dealt_in) == 2
    # With three or more, the big blind posting first is the blinds out of order; heads-up the
    # big blind posting the small blind is the button left (or put) on it.
    if not says_small or (body.seat == plan.big_blind and not heads_up):
        return None
    order = sorted(plan.dealt_in)
    placed = body.seat if heads_up else order[order.index(body.seat) - 1]
    if placed == plan.button:
        return None
    f = button_misplaced(state, plan, placed, plan.button, seq)
    return Step(with_findings(replace(state, hand=replace(h, game=voided(g, f.code))), [f]), (f,))


def _straddle(state: TableState, h: Hand, body: Action, seq: int) -> Step:
    """The optional live straddle (RR §14 NL r.15; WSOP §4 r.11): the seating layer says
    whether this seat may straddle under the profile; the plan then carries it. It comes after
    the blinds and before any other action."""
    plan = h.plan
    detail = ""
    new_plan: HandPlan | None = None
    if plan is None or plan.big_blind is None:
        detail = (f"there is no straddle in {h.game.variant.name}: a straddle is a blind "
                  "(roberts-rules-v11.txt, Section 14, No-Limit, r.15)")
    elif plan.straddles:
        detail = "one straddle per hand (roberts-rules-v11.txt, Section 14, No-Limit, r.15)"
    elif h.game.acted or h.game.street:
        detail = "a straddle comes after the blinds and before any other action"
    else:
        try:
            new_plan = blinds.plan_hand(state.seating, state.settings,
                                        now_ms=state.level * LEVEL_MS, straddle=body.seat)
        except SeatingError as exc:
            detail = str(exc)
        if new_plan is not None and not new_plan.straddles:  # pragma: no cover - blind games
            new_plan, detail = None, "the seating plan has no straddle for it"
    g = None
    if new_plan is not None:
        big = max(new_plan.big_blind_amount, new_plan.kill_blind)
        g = procedure.restake(h.game, engine_posts(new_plan),
                              after=new_plan.straddles[-1], big_blind=big or
                              state.setup.big_blind, killer=new_plan.kill)
        if g is None:
            detail = "a straddle comes after the blinds and before any other action"
    if new_plan is None or g is None:
        f = make_finding("ACTION_NOT_AVAILABLE", seq, seats=[body.seat], fill={
            "detail": f"Seat {body.seat} may not straddle: {detail}."})
        return Step(with_findings(state, [f]), (f,))
    amount = new_plan.posts[-1].amount
    out = []
    if body.amount is not None and body.amount != amount:
        out.append(make_finding("BLIND_WRONG_AMOUNT", seq, seats=[body.seat], fill={
            "seat": body.seat, "amount": body.amount, "due": amount, "blind": "straddle"}))
    h = progress(replace(h, game=g, plan=new_plan))
    return Step(with_findings(replace(state, hand=h), out), tuple(out))
