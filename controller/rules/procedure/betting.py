"""The betting at every game: the dealer console's actions, forced posts and draw requests,
judged once for every game on the hand engine's betting (``action``).

A forced post ticks off the seating plan's posts in order (``_post``); a voluntary action becomes
one engine command (``_wager``) or is refused with the finding that says why
(``_not_available``); after it, the stud remedies that wait for the end of a round are armed and
a stub too short for seventh street is foreseen (``_after_round``). What only one family does is
its own module's: a stud seat folded with no wager (``stud_family.py``), a draw request
(``draw_family.py``). Pure: no I/O.
"""

from __future__ import annotations

from controller.poker.records import replace
from controller.rules import engine
from controller.rules.findings import Finding, make_finding
from controller.rules.procedure import board_deal as board
from controller.rules.procedure.board import sync_board
from controller.rules.procedure.draw_family import close_turn, draw_request, short_deal
from controller.rules.procedure.game_hand import (
    BRING_IN,
    CALL,
    FOLD,
    POST_NAMES,
    RAISE,
    Cmd,
    GameHand,
    put,
    run,
)
from controller.rules.procedure.remedy import not_followed
from controller.rules.procedure.stud_family import (
    give_kept,
    kill_free_folds,
    pass_free_folds,
    wrong_bring_in,
)
from controller.rules.procedure.waiting_for import expectation


def action(h: GameHand, seat: int, kind: str, amount: int | None, blind: str | None, seq: int
           ) -> tuple[GameHand, list[Finding]]:
    """A betting action, a forced post, or a draw request, from the dealer console: one set of
    betting rules for every game (the engine's), judged as the rulebooks say for a live table
    (docs/findings.md):

    - the forced posts come first, in the plan's order: the seat due to post is the seat to
      act (roberts-rules-v11.txt, Section 4 intro: blinds are posted before the cards);
    - out of turn, a check facing a bet, a raise when the betting was not reopened: not applied
      (the console enters the right action; Section 3, Betting and Raising, r.11);
    - a bet or raise below the minimum: by the house setting ``undersized_wager``, brought up
      to the minimum ("the wager must be increased to the proper size (but no greater)",
      Section 14, No-Limit r.11; Section 3, Betting and Raising, r.16) or refused;
    - a wager larger than the player's chips: the player is all-in (table stakes).
    """
    out: list[Finding] = []
    if h.void and h.deal is None:
        return h, out
    e = h.eng
    if kind == "post" and blind != "bring_in" and not (
            blind is None and e.can_post_bring_in() and h.to_act == seat):
        return _post(h, seat, amount, seq, out), out
    if h.posts_due and kind != "post":
        due, name, _ = h.posts_due[0]
        if seat != due:
            out.append(make_finding("OOT_ACTION", seq, seats=[seat], fill={
                "seat": seat, "action": kind, "to_act": due}))
        else:
            detail = (f"Seat {seat} must post the {POST_NAMES.get(name, name)} before acting "
                      f"({kind}).")
            out.append(make_finding("ACTION_NOT_AVAILABLE", seq, seats=[seat],
                                    fill={"detail": detail}, message=detail))
        return h, out
    if kind == "draw":
        return draw_request(h, seat, amount or 0, seq, out), out
    if seat in h.dead and kind != "fold":
        after = h.dead_after.get(seat, "DRAW_WRONG_COUNT_AFTER_DRAW")
        what = "hand" if seat in h.dead_after else "fouled hand"
        out.append(not_followed(seq, f"Seat {seat} acted ({kind}) with a dead hand.", after,
                                f"seat {seat}'s {what} is dead: it folds", seats=[seat]))
        kind = "fold"
    h = close_turn(h, seq, out)
    h = short_deal(h, seq, out)
    if h.deal is not None:
        d, more = board.moving_on(h.deal)  # the dealer has moved on to the betting
        out += more
        h = replace(h, deal=d)
    e = h.eng
    p = h.pos(seat)
    if p is None:
        return _not_available(h, seat, f"Seat {seat} is not dealt in this hand ({kind}).",
                              seq, out)
    if e.actor is None:
        return _not_available(h, seat, f"Seat {seat} {kind}: no betting action is due now "
                              f"({expectation(h).rstrip('.')}).", seq, out)
    if kind == "post" and e.can_post_bring_in() and p != e.actor:
        return wrong_bring_in(h, seat, seq, out), out
    if p != e.actor:
        out.append(make_finding("OOT_ACTION", seq, seats=[seat], fill={
            "seat": seat, "action": kind, "to_act": h.seats[e.actor]}))
        return h, out
    if seat in h.capped and (kind in ("bet", "raise") or (
            kind == "allin" and e.stacks[p] > (e.checking_or_calling_amount() or 0))):
        return _not_available(h, seat, f"Seat {seat} keeps its premature final down card: on "
                              f"sixth street it may not bet or raise ({kind}; "
                              "roberts-rules-v11.txt, Section 8, r.14).", seq, out)
    free = (kind == "fold" and h.family == "stud" and not e.can_post_bring_in()
            and not e.checking_or_calling_amount()
            # the last other hand left: nobody is left to bet, the fold ends the hand
            and sum(1 for s in h.live if s != seat and s not in h.free_folds) >= 2)
    if kind == "fold" and h.free_folds and not free:
        h = kill_free_folds(h)  # a fold that ends the hand: those folded hands are out too
        e = h.eng
        if e.actor is None or h.seats[e.actor] != seat:
            return h, out
    if free:
        # "If a hand is folded when there is no wager, that seat will continue to receive cards
        # until the hand is killed as a result of a bet (so the fold does not affect who gets
        # the cards to come)" (roberts-rules-v11.txt, Section 8, r.9): it passes for now.
        kind = "check"
        h = replace(h, free_folds=(*h.free_folds, seat) if seat not in h.free_folds
                    else h.free_folds)
    cmd: Cmd | None = (BRING_IN, p) if kind == "post" else _wager(h, p, kind, amount, seq, out)
    if cmd is None:
        return h, out
    top_bet = max(e.bets)
    try:
        h = run(h, cmd)
    except engine.IllegalAction as exc:
        return _not_available(h, seat, f"Seat {seat} {kind}{f' {amount}' if amount else ''}: "
                              f"{exc.message}.", seq, out)
    h = replace(h, acted=True, street_acts=h.street_acts + 1,
                draw_locked=e.street if h.family == "draw" else h.draw_locked)
    if h.free_folds and kind not in ("check", "fold") and max(h.eng.bets) > top_bet:
        h = kill_free_folds(h)  # the bet kills the hands folded with no wager
    h = sync_board(h)
    return give_kept(pass_free_folds(_after_round(h, seq, out))), out


def _not_available(h: GameHand, seat: int, detail: str, seq: int, out: list[Finding]
                   ) -> tuple[GameHand, list[Finding]]:
    out.append(make_finding("ACTION_NOT_AVAILABLE", seq, seats=[seat], fill={"detail": detail},
                            message=detail))
    return h, out


_NOT_REOPENED = ("CANNOT_RAISE", "NO_ONE_TO_RAISE", "NOT_REOPENED")


def _wager(h: GameHand, p: int, kind: str, amount: int | None, seq: int, out: list[Finding]
           ) -> Cmd | None:
    """The engine command for a voluntary action by the player to act, or None (a finding
    says why) when the action is not applied."""
    e = h.eng
    seat = h.seats[p]
    to_call = e.checking_or_calling_amount() or 0
    top = e.stacks[p] + e.bets[p]  # everything the player has on this round
    if kind == "fold":
        return (FOLD, p) if e.can_fold(p) else (CALL, p)
    if kind == "check" and to_call > 0:
        detail = (f"Seat {seat} checked facing a bet of {e.current_bet}; it may call {to_call}, "
                  "raise or fold.")
        _not_available(h, seat, detail, seq, out)
        return None
    if kind in ("check", "call"):
        return (CALL, p)
    if kind == "allin":
        return (RAISE, p, top) if e.can_complete_bet_or_raise_to(top, p) else (CALL, p)
    target = min(amount or 0, top)
    if not e.can_complete_bet_or_raise(p):
        problem = e.raise_problem()
        if problem is not None and problem[0] == "RAISE_CAPPED":
            out.append(make_finding("RAISE_CAPPED", seq, seats=[seat], fill={
                "seat": seat, "why": problem[1], "call": min(to_call, e.stacks[p])},
                setting=e.cap_rule()))
            return None
        if problem is not None and problem[0] in _NOT_REOPENED:
            out.append(make_finding("RAISE_NOT_PERMITTED", seq, seats=[seat],
                                    fill={"seat": seat, "call": min(to_call, e.stacks[p])}))
            return None
        return (RAISE, p, target)  # the engine names the rule that forbids it
    lo = e.min_completion_betting_or_raising_to() or target
    if target == top and target < lo:
        # all in for less than a full bet or raise
        return (RAISE, p, target) if e.can_complete_bet_or_raise_to(target, p) else (CALL, p)
    if target < lo:
        if h.rules.undersized_wager == "refused":
            detail = (f"Seat {seat} {kind} {amount or 0}: the minimum is {lo} (the console "
                      "enters the wager again).")
            _not_available(h, seat, detail, seq, out)
            return None
        out.append(make_finding("UNDERSIZED_WAGER", seq, seats=[seat], fill={
            "seat": seat, "amount": amount or 0, "minimum": lo,
            "fix": f"Feltguard has applied it as {lo} (the minimum; no greater)."}))
        target = lo
    return (RAISE, p, target)


def _post(h: GameHand, seat: int, amount: int | None, seq: int, out: list[Finding]
          ) -> GameHand:
    """A forced post from the console. The engine posted the plan's forced bets as the hand
    began; the console's posts tick them off in the plan's order. A post not due is refused;
    a wrong amount is posted as due (RR Section 4 r.1: the blind's size does not change)."""
    if not h.posts_due:
        _not_available(h, seat, f"Seat {seat} posted, but no blind is due.", seq, out)
        return h
    due, kind, proper = h.posts_due[0]
    if seat != due:  # the table layer judges a post by another seat first
        _not_available(h, seat, f"Seat {seat} posted; seat {due} is due to post.", seq, out)
        return h
    if (amount or 0) != proper:
        out.append(make_finding("BLIND_WRONG_AMOUNT", seq, seats=[seat], fill={
            "seat": seat, "amount": amount or 0, "due": proper,
            "blind": POST_NAMES.get(kind, kind)}))
    return replace(h, posts_due=h.posts_due[1:], ticked=h.ticked + 1)


def _after_round(h: GameHand, seq: int, out: list[Finding]) -> GameHand:
    """After an action: arm the premature-card remedy once the round is over; predict a stub
    too short for seventh street (roberts-rules-v11.txt, Section 8, r.15)."""
    e = h.eng
    if h.premature and e.actor is None:
        n = len(h.live)
        after = h.premature_finding
        more = n
        if h.rules.stud_premature_removed == "reshuffled_at_final_street":
            # AZW Section 3 r.16(4): the premature card(s) and the additional cards "represent
            # an entire round of cards for the remaining live players" (a premature burn is no
            # player's card)
            dealt = sum(1 for u in h.premature if u in h.cards and h.cards[u].zone != "burn")
            more = max(0, n - dealt)
        asides = tuple(put("aside", None, None, after,
                              f"one card for each of the {n} players still in goes aside "
                              f"({n - more + k + 1} of {n}), then the burn")
                       for k in range(more))
        h = replace(h, premature=(), premature_finding="",
                    expect=(*h.expect, *asides))
    last = len(h.variant.streets) - 1
    if (h.family == "stud" and e.street == last and e.actor is None and not e.betting_over
            and not h.relaxed and h.burned != last):
        left = len(h.variant.deck_cards) - h.draws
        if h.rules.stud_premature_removed == "reshuffled_at_final_street":
            left += len(h.aside)  # back into the stub for the final street (AZW r.16(4))
        need = len(h.live) + 1 + sum(1 for x in h.expect if x.zone == "aside" and not x.uid)
        if left < need:
            f = make_finding("STUD_INSUFFICIENT_CARDS", seq, seats=list(h.live), fill={
                "left": left, "players": len(h.live)}, setting=h.rules.stud_short_deck)
            out.append(f)
            h = replace(h, relaxed=True, expect=())
    return h
