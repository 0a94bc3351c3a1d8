"""Betting read from the chips: the bet zones' settled chips judged against the hand's betting
(issue 13, items 4 and 5).

Pure. Each seat's bet zone (``bet:N``, the betting line) holds what the seat has put in front
this hand and the dealer has not yet taken to the pot: its **wager in front** is the engine's
live chips and antes for the seat (``totals`` + ``antes``), less the posts still due from it,
less what the dealer has taken from the zone (``ChipBets.scooped``). A zone's settled total is
compared with it:

- **equal**: the chips agree with the betting (a console action corroborated);
- **more**, from the seat to act (or due to post): the chips are its action, read by the
  chip-handling rules (research ``button-blinds-betting.md`` Section 2.10, each a house
  setting): a single oversized chip facing a bet is a call (``oversized_chip``); chips beyond
  the call and short of a raise are a call or a full raise (``overcall``: RR Section 14 r.11,
  TDA #43a; limit: a full bet plus a half bet, RR Section 3 r.14); a multiple-chip bet is a call
  when every chip is needed to make it, whatever it adds up to (TDA #46); chips smaller than the
  smallest chip that plays do not play (``smallest_chip``, RR Section 3 r.1). ``decide`` gives
  the console ``Action`` the chips make; the table applies it through the one betting path
  (``table.py``), so the engine judges it like a typed action. Change given for chips over the
  wager (an oversized call, TDA #46, over the pot) is no bet taken back (RR Section 14
  Pot-Limit r.1);
- **more**, from another seat: a second motion after the seat's own action is a string raise
  (RR Section 3 r.14); chips beyond a console declaration are a mismatch (the declaration
  stands, RR Section 3 r.9); otherwise chips out of turn (RR Section 3 r.11), binding or not
  when the action reaches the seat (``oot_chips_after_call``);
- **less**: chips of a closed round (or antes) taken to the pot are the dealer's scoop; chips of
  the open round leaving are taken back (RR Section 3 r.13) or, when they are now in the pot,
  scooped early (AZW How to Deal No Limit, The Pot r.2-3).

As a round ends, a seat whose chips in front are short of its wager is told (RR Section 3 r.16).
Nothing here runs for a seat whose bet zone was never read: a table without chip sensors is
judged by its console alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from controller.events import Action, ActionKind
from controller.poker.house_rules import Settings
from controller.poker.records import replace
from controller.rules.chips.pot import Award
from controller.rules.chips.zones import Chips, ChipZone, zone_seat
from controller.rules.findings import Finding, make_finding
from controller.rules.procedure import GameHand

_NO_INTS: Mapping[int, int] = MappingProxyType({})


@dataclass(frozen=True)
class OutOfTurn:
    """Chips a seat put out while another seat was to act: how much, the bet to match then,
    the betting street, and the calls made since (RR Section 3 r.11's intervening call)."""

    amount: int
    bet: int
    street: int
    calls: int = 0


@dataclass(frozen=True)
class ChipAct:
    """The last action a seat's chips made: the street, the kind (post, call, raise, allin)
    and its bet on the street after it; ``corroborated`` once the console entered it too."""

    street: int
    kind: str
    total: int
    corroborated: bool = False
    blind: str | None = None  # a post: which one
    called: bool = False  # an all-in that only called: a console "call" is the same action


@dataclass(frozen=True)
class ChipBets:
    """What the chips have done in this hand (part of ``table.Hand``)."""

    # seat -> chips the dealer took from its bet zone to the pot (its wager in front is less)
    scooped: Mapping[int, int] = field(default_factory=lambda: _NO_INTS)
    by_chips: Mapping[int, ChipAct] = field(default_factory=lambda: MappingProxyType({}))
    # seat -> the street of its last action entered at the console
    declared: Mapping[int, int] = field(default_factory=lambda: _NO_INTS)
    oot: Mapping[int, OutOfTurn] = field(default_factory=lambda: MappingProxyType({}))
    last_seat: int | None = None  # the seat of the last betting action applied
    told_short: frozenset[tuple[int, int]] = frozenset()  # (seat, street) told CHIP_BET_SHORT
    # seat -> the chips it called (or bet) with that make more than its wager: an oversized chip,
    # or a multiple-chip call (TDA #46). Change is due: one of them leaving the bet zone is the
    # dealer making change, judged when chips come back (RR Section 3 r.15).
    change: Mapping[int, frozenset[str]] = field(default_factory=lambda: MappingProxyType({}))
    award: Award | None = None  # from hand.end: the hand's chips followed to the winners
    # seat -> the street on which it declared a raise with no amount (TDA #45): its chips say
    # how much
    raise_declared: Mapping[int, int] = field(default_factory=lambda: _NO_INTS)


NO_BETS = ChipBets()


@dataclass(frozen=True)
class Reading:
    """What a settled bet zone means: the action its chips make (None: none), the findings, and
    the hand's chip record after it."""

    action: Action | None
    findings: tuple[Finding, ...]
    bets: ChipBets


def bet_seat(zone: str) -> int | None:
    """The seat of a bet zone (``bet:3`` -> 3), None for any other zone."""
    return zone_seat(zone) if zone.startswith("bet:") else None


def wager_in_front(g: GameHand, bets: ChipBets, seat: int) -> int | None:
    """The chips that should lie in the seat's bet zone now (see the module doc), or None for
    a seat not dealt in."""
    p = g.pos(seat)
    if p is None:
        return None
    e = g.eng
    pending = sum(a for s, _, a in g.posts_due if s == seat)
    return e.totals[p] + e.antes[p] - pending - bets.scooped.get(seat, 0)


def _open_bet(g: GameHand, seat: int) -> int:
    """The seat's bet on the betting round still open (0 once it is closed): chips the dealer
    may not take to the pot yet."""
    p = g.pos(seat)
    e = g.eng
    if p is None or e.actor is None:
        return 0
    return e.bets[p]


# --- a settled bet zone -----------------------------------------------------------------------


def read_bet_zone(g: GameHand, bets: ChipBets, chips: Chips, before: ChipZone | None,
                  seat: int, seq: int, settings: Settings) -> Reading:
    """Judge seat ``seat``'s bet zone as just settled (``chips``: after it; ``before``: its
    content before)."""
    zone = chips.zones.get(f"bet:{seat}")
    wager = wager_in_front(g, bets, seat)
    if zone is None or wager is None or g.void:
        return Reading(None, (), bets)
    total = zone.total
    was = before.total if before is not None else 0
    pending = bets.change.get(seat)
    if pending is not None and not pending <= set(zone.uids):
        return _change(bets, before, zone, seat, wager, seq)
    if total < was:
        if pending is not None and total == wager:
            # the excess came back without change being made (a chip of the call's own)
            bets = _change_made(bets, seat)
        return _removed(g, bets, chips, before, zone, seat, wager, seq)
    if total <= wager:
        return Reading(None, (), bets)
    e = g.eng
    if any(s == seat for s, _, _ in g.posts_due):
        return Reading(_post(g, seat, total - wager), (), bets)
    p = g.pos(seat)
    if e.actor is not None and e.actor == p and not g.posts_due:
        return decide(g, bets, chips, before, seat, total - wager, seq, settings)
    extra = total - max(was, wager)
    if extra <= 0:
        return Reading(None, (), bets)
    last = bets.by_chips.get(seat)
    if (bets.last_seat == seat and last is not None and last.street == e.street
            and last.kind != "post"):  # (a forced post is no motion of the player's own)
        f = make_finding("CHIP_STRING_RAISE", seq, seats=[seat], fill={
            "seat": seat, "extra": extra, "action": _act_name(last)})
        return Reading(None, (f,), bets)
    if (bets.last_seat == seat and bets.declared.get(seat) == e.street
            and not (last is not None and last.kind == "post" and last.street == e.street)):
        detail = (f"the console entered its action; {total} lies in front, {total - wager} more "
                  f"than its wager of {wager}.")
        f = make_finding("CHIP_ACTION_MISMATCH", seq, seats=[seat], fill={
            "seat": seat, "detail": detail,
            "fix": f"The declared action stands (RR Section 3 r.9): give seat {seat} its "
                   f"{total - wager} back."})
        return Reading(None, (f,), bets)
    if e.actor is not None and p is not None and not e.folded[p]:
        to_act = g.seats[e.actor]
        f = make_finding("CHIP_OUT_OF_TURN", seq, seats=[seat, to_act], fill={
            "seat": seat, "amount": total - wager, "to_act": to_act})
        oot = OutOfTurn(total - wager, e.current_bet, e.street)
        return Reading(None, (f,), replace(bets, oot=MappingProxyType({**bets.oot, seat: oot})))
    return Reading(None, (), bets)


def _post(g: GameHand, seat: int, put: int) -> Action | None:
    """The forced post the chips make: the first post due, once its seat has put it in front
    (a post of a later seat waits for the ones before it: ``sweep_posts``)."""
    if not g.posts_due:
        return None
    first, kind, amount = g.posts_due[0]
    if first != seat or put < amount:
        return None
    return Action(seat=seat, kind="post", amount=amount, blind=kind)


def sweep_posts(g: GameHand, bets: ChipBets, chips: Chips) -> Action | None:
    """The next post due, if its seat's chips are already in front (they settled while an
    earlier post was due)."""
    if not g.posts_due:
        return None
    seat = g.posts_due[0][0]
    zone = chips.zones.get(f"bet:{seat}")
    wager = wager_in_front(g, bets, seat)
    if zone is None or wager is None:
        return None
    return _post(g, seat, zone.total - wager)


def _removed(g: GameHand, bets: ChipBets, chips: Chips, before: ChipZone | None, zone: ChipZone,
             seat: int, wager: int, seq: int) -> Reading:
    """Chips left the bet zone: returned excess, the dealer's scoop of a closed round, or chips
    of the open round taken back or scooped early."""
    was = before.total if before is not None else 0
    gone = set(before.uids if before is not None else ()) - set(zone.uids)
    out: list[Finding] = []
    excess = max(0, was - wager)  # an overcall's excess, a string raise: theirs to take
    removed = was - zone.total
    from_wager = removed - min(removed, excess)
    if from_wager <= 0:
        return Reading(None, tuple(out), bets)
    may_take = max(0, wager - _open_bet(g, seat))
    taken = min(from_wager, may_take)
    early = from_wager - taken
    if early:
        pot = chips.zones.get("pot")
        if pot is not None and gone & set(pot.uids):
            # they are in the pot: still the seat's bet, only in the wrong place
            taken += early
            out.append(make_finding("CHIP_BETS_SCOOPED_EARLY", seq, seats=[seat], fill={
                "seat": seat, "amount": early, "bet": _open_bet(g, seat)}))
        else:
            out.append(make_finding("CHIP_BET_TAKEN_BACK", seq, seats=[seat], fill={
                "seat": seat, "amount": early}))
    scooped = MappingProxyType({**bets.scooped, seat: bets.scooped.get(seat, 0) + taken})
    return Reading(None, tuple(out), replace(bets, scooped=scooped))


def _change(bets: ChipBets, before: ChipZone | None, zone: ChipZone, seat: int, wager: int,
            seq: int) -> Reading:
    """A chip a seat called with (an oversized chip, or one of a multiple-chip call) has left its
    bet zone: the dealer is making change. Once chips come back in front (one motion or several
    settles later), they must be the seat's wager: the call (RR Section 3 r.15)."""
    done = _change_made(bets, seat)
    if zone.total == wager:
        return Reading(None, (), done)  # the surplus is back (chips of the wager's own)
    if not set(zone.uids) - set(before.uids if before is not None else ()):
        return Reading(None, (), bets)  # the chip went to the tray; the change is still to come
    bets = done
    return Reading(None, (_change_wrong(seat, zone.total, wager, seq),), bets)


def _change_wrong(seat: int, chips: int, wager: int, seq: int) -> Finding:
    """The bet an oversized chip made, after the change, is not the seat's wager."""
    diff = chips - wager
    detail = (f"{diff} more than its bet: the player got {diff} too little change" if diff > 0
              else f"{-diff} less than its bet: the player got {-diff} too much change")
    fix = (f"Give seat {seat} the {diff} extra back." if diff > 0
           else f"Take the {-diff} extra change back from seat {seat}.")
    return make_finding("CHIP_CHANGE_WRONG", seq, seats=[seat], fill={
        "seat": seat, "chips": chips, "wager": wager, "detail": detail, "fix": fix})


# --- the chip-handling rules ------------------------------------------------------------------


def smallest_playing(g: GameHand, chips: Chips, settings: Settings) -> int:
    """The smallest chip that plays: the largest denomination of the set in play that makes
    every forced bet (RR Section 3 r.1: "the smallest chip used in the antes, blinds"), or with
    ``smallest_chip = bring_in`` the bring-in's (RR Section 14 r.13). 1 when no set is known."""
    st = g.stakes
    if settings.smallest_chip == "bring_in":
        forced = [st.min_bet or st.small_bet or st.bring_in]
    else:
        forced = [*st.antes, *st.blinds_or_straddles, st.bring_in]
    amounts = [a for a in forced if a > 0]
    denominations = sorted(set(chips.registry.chips.values()))
    best = 1
    for d in denominations:
        if amounts and all(a % d == 0 for a in amounts):
            best = d
    return best


def _change_due(bets: ChipBets, seat: int, chips: frozenset[str]) -> ChipBets:
    """``chips`` of the seat's bet make more than its wager: change is due for them."""
    return replace(bets, change=MappingProxyType({**bets.change, seat: chips}))


def _change_made(bets: ChipBets, seat: int) -> ChipBets:
    """The seat's change is settled (made, or the surplus back in its own chips)."""
    return replace(bets, change=MappingProxyType(
        {s: c for s, c in bets.change.items() if s != seat}))


def decide(g: GameHand, bets: ChipBets, chips: Chips, before: ChipZone | None, seat: int,
           put: int, seq: int, settings: Settings) -> Reading:
    """The action of the seat to act whose chips in front grew by ``put`` (no declaration: a
    console action before the chips is applied before them)."""
    e = g.eng
    p = g.pos(seat)
    zone = chips.zones.get(f"bet:{seat}")
    if p is None or zone is None:  # pragma: no cover - the caller checked both
        return Reading(None, (), bets)
    out: list[Finding] = []
    old = set(before.uids) if before is not None else set()
    new = frozenset(u for u in zone.uids if u not in old)  # this motion's chips
    reg = chips.registry
    added = [d for u in zone.uids if u not in old and (d := reg.denomination_of(u)) is not None]
    smallest = smallest_playing(g, chips, settings)
    small = sorted(d for d in added if d < smallest)
    if small and sum(small) <= put:
        put -= sum(small)
        added = [d for d in added if d >= smallest]
        out.append(make_finding("CHIP_DOES_NOT_PLAY", seq, seats=[seat], fill={
            "seat": seat, "chips": ", ".join(f"a {d} chip" for d in small),
            "smallest": smallest}))
    if put <= 0:
        return Reading(None, tuple(out), bets)
    b, stack, cur = e.bets[p], e.stacks[p], e.current_bet
    total = b + put
    if put >= stack:
        return Reading(Action(seat=seat, kind="allin"), tuple(out), bets)
    if e.can_post_bring_in(p):
        if put <= g.stakes.bring_in:
            return Reading(Action(seat=seat, kind="post", blind="bring_in"), tuple(out), bets)
        return Reading(Action(seat=seat, kind="bet", amount=total), tuple(out), bets)
    call = e.checking_or_calling_amount() or 0
    single = len(added) == 1 and added[0] == put
    lo = e.min_completion_betting_or_raising_to()
    hi = e.max_completion_betting_or_raising_to()
    if bets.raise_declared.get(seat) == e.street:
        bets = replace(bets, raise_declared=MappingProxyType(
            {s: st for s, st in bets.raise_declared.items() if s != seat}))
        if lo is not None and hi is not None and put > call:
            # "If raise is declared but no amount, the raise is the maximum allowable for the
            # chip" (AZW Section 3 r.15, TDA #45): a raise to all the chips make, a single
            # oversized chip too; at least the minimum raise (a declared raise is completed,
            # RR Section 3 r.14), at most what the structure allows (the surplus comes back)
            to = min(max(total, lo), hi)
            if total > to:
                bets = _change_due(bets, seat, new)
            return Reading(Action(seat=seat, kind="bet" if cur == 0 else "raise", amount=to),
                           tuple(out), bets)
    kind: ActionKind = "bet" if cur == 0 else "raise"
    fill: dict[str, object] = {"seat": seat, "amount": put, "call": call}
    if call > 0 and put < call:
        # bound by the chips released: a call, made up (RR Section 3 r.13; TDA #39b)
        out.append(make_finding("CHIP_BET_SHORT", seq, seats=[seat], fill={
            "seat": seat, "chips": zone.total, "wager": zone.total + call - put,
            "short": call - put}))
        told = bets.told_short | {(seat, e.street)}
        return Reading(Action(seat=seat, kind="call"), tuple(out), replace(bets, told_short=told))
    if call > 0 and put == call:
        return Reading(Action(seat=seat, kind="call"), tuple(out), bets)
    if call > 0 and single and settings.oversized_chip == "call":
        out.append(make_finding("CHIP_OVERSIZED_CALL", seq, seats=[seat], fill={
            "seat": seat, "chip": put, "call": call, "change": put - call}))
        chip = next((u for u in zone.uids if u not in old
                     and reg.denomination_of(u) == put), "")
        bets = _change_due(bets, seat, frozenset({chip}))
        return Reading(Action(seat=seat, kind="call"), tuple(out), bets)
    if call > 0 and len(added) > 1 and put - min(added) < call:
        # "When facing a bet, unless raise is declared first, a multiple-chip bet is a call if
        # every chip is needed to make the call; i.e. removal of just one of the smallest chips
        # leaves less than the call amount" (AZW Section 3 r.16, TDA #46), whatever the chips
        # add up to: facing a raise to 1,200, two 1,000 chips are a call. No book says
        # otherwise (RR Section 14 No-Limit r.11: chips put in unintentionally to call).
        out.append(make_finding("CHIP_OVERCALL", seq, seats=[seat], fill={
            **fill, "minimum": lo if lo is not None else cur, "excess": put - call,
            "why": "every chip was needed to make the call (TDA #46)"}))
        bets = _change_due(bets, seat, new)
        return Reading(Action(seat=seat, kind="call"), tuple(out), bets)
    if lo is None or hi is None:
        if call == 0:
            return Reading(None, tuple(out), bets)  # nothing to bet into: the chips wait
        out.append(make_finding("CHIP_OVERCALL", seq, seats=[seat], fill={
            **fill, "minimum": cur, "excess": put - call,
            "why": "the betting is not open to a raise"}))
        return Reading(Action(seat=seat, kind="call"), tuple(out), bets)
    if total > hi:
        limit = "the pot" if g.variant.structure == "pot" else "the limit"
        if single and g.variant.structure == "pot" and call == 0:
            # "a player who puts a chip or a bill larger than the pot size into the pot without
            # comment is considered to be making a bet of the pot size" (RR Section 14
            # Pot-Limit r.6)
            limit = ("the pot: a single chip larger than the pot is a bet of the pot's size, RR "
                     "Section 14 Pot-Limit r.6")
        out.append(make_finding("CHIP_OVER_POT", seq, seats=[seat], fill={
            "seat": seat, "amount": put, "maximum": hi, "excess": total - hi, "limit": limit},
            ))
        # "the surplus will be given back to the bettor as soon as possible" (RR Section 14
        # Pot-Limit r.1): a chip of it leaving the zone is change being made, not a bet taken
        # back; what comes back in front must be the wager (CHIP_CHANGE_WRONG otherwise)
        bets = _change_due(bets, seat, new)
        return Reading(Action(seat=seat, kind=kind, amount=hi), tuple(out), bets)
    if total >= lo or call == 0:
        # a bet of the chips' value (a single chip not facing a bet: its full value, TDA #45);
        # below the minimum bet, the engine brings it up (undersized_wager)
        return Reading(Action(seat=seat, kind=kind, amount=total), tuple(out), bets)
    # between the call and a full raise, with no raise declared
    if g.variant.structure in ("fixed", "spread"):
        unit = lo - cur
        if 2 * (put - call) >= unit:
            return _made_up(seat, put, call, lo, total, tuple(out), bets, seq)
        why = "less than a full bet plus a half bet (RR Section 3 r.14)"
    elif settings.overcall == "fifty_percent":
        if 2 * (total - cur) >= lo - cur:
            return _made_up(seat, put, call, lo, total, tuple(out), bets, seq)
        why = "less than half a raise (TDA #43a)"
    else:
        why = "put in unintentionally, more than the call (RR Section 14 r.11)"
    out.append(make_finding("CHIP_OVERCALL", seq, seats=[seat], fill={
        **fill, "minimum": lo, "excess": put - call, "why": why}))
    return Reading(Action(seat=seat, kind="call"), tuple(out), bets)


def _made_up(seat: int, put: int, call: int, raise_to: int, total: int,
             found: tuple[Finding, ...], bets: ChipBets, seq: int) -> Reading:
    """Half a raise or more: a full minimum raise (TDA #43a; RR Section 3 r.14 in limit)."""
    f = make_finding("CHIP_RAISE_MADE_UP", seq, seats=[seat], fill={
        "seat": seat, "amount": put, "call": call, "minimum": raise_to,
        "short": raise_to - total})
    return Reading(Action(seat=seat, kind="raise", amount=raise_to), (*found, f), bets)


def _act_name(a: ChipAct) -> str:
    if a.kind in ("raise", "bet"):
        return f"raise to {a.total}"
    if a.kind == "allin":
        return f"all in for {a.total}"
    return a.kind


# --- the console and the chips ------------------------------------------------------------------


def console(g: GameHand, bets: ChipBets, body: Action, seq: int
            ) -> tuple[str, tuple[Finding, ...], ChipBets]:
    """A console action for a seat whose chips already made its action: ``corroborated`` (the
    same action: nothing more to apply), ``mismatch`` (a finding; the chips' action stands), or
    ``apply`` (a new action: the usual path)."""
    last = bets.by_chips.get(body.seat)
    if (last is None or last.corroborated or body.kind not in _CHIP_KINDS
            or g.to_act == body.seat or (last.kind == "post") != (body.kind == "post")
            # a post of another kind than the chips' (a stud bring-in after the ante) is new
            or (body.kind == "post" and body.blind not in (None, last.blind))
            or (body.kind == "post" and any(s == body.seat for s, _, _ in g.posts_due))):
        return "apply", (), bets
    done = replace(last, corroborated=True)
    bets = replace(bets, by_chips=MappingProxyType({**bets.by_chips, body.seat: done}))
    if _same(last, body):
        return "corroborated", (), bets
    entered = body.kind + (f" {body.amount}" if body.amount is not None else "")
    f = make_finding("CHIP_ACTION_MISMATCH", seq, seats=[body.seat], fill={
        "seat": body.seat,
        "detail": f"its chips made its action ({_act_name(last)}); the console entered "
                  f"{entered}.",
        "fix": f"Feltguard keeps the chips' action. If seat {body.seat} declared {entered} "
               "before its chips went out, the declaration stands (RR Section 3 r.9): call the "
               "floor to correct the action."})
    return "mismatch", (f,), bets


# The console actions the chips could have made (a fold and a draw are no chips; a check is
# the console's word for a call of nothing).
_CHIP_KINDS = frozenset({"post", "bet", "raise", "call", "allin", "check"})


def _same(last: ChipAct, body: Action) -> bool:
    if last.kind == "post":
        return body.kind == "post"
    if last.kind == "call":
        return body.kind in ("call", "check")
    if last.kind == "allin":
        return (body.kind == "allin" or (body.kind == "call" and last.called)
                or (body.kind in ("bet", "raise") and body.amount == last.total))
    return body.kind in ("bet", "raise") and body.amount == last.total


def after_action(before: GameHand, after: GameHand, bets: ChipBets, chips: Chips, body: Action,
                 by_chips: bool, seq: int, settings: Settings
                 ) -> tuple[ChipBets, tuple[Finding, ...], Action | None]:
    """Record an action the table applied (``by_chips``: the chips made it), tell the seats
    short of their wager as a round ends, and give the action the chips make next, if any: a
    seat's chips put out of turn, binding now that the action reached it, or a post whose chips
    settled while an earlier post was due."""
    e0, e1 = before.eng, after.eng
    seat = body.seat
    p = after.pos(seat)
    out: list[Finding] = []
    if p is not None:
        if by_chips:
            total = e1.totals[p] - e0.totals[p] + e0.bets[p] + e1.antes[p] - e0.antes[p]
            act = ChipAct(e0.street, body.kind, total, blind=body.blind,
                          called=total <= e0.current_bet)
            bets = replace(bets, by_chips=MappingProxyType({**bets.by_chips, seat: act}))
        else:
            bets = replace(bets, declared=MappingProxyType({**bets.declared, seat: e0.street}))
        called = body.kind in ("call", "check") and e1.totals[p] > e0.totals[p]
        if called and bets.oot:
            bets = replace(bets, oot=MappingProxyType({
                s: replace(o, calls=o.calls + 1) if s != seat else o
                for s, o in bets.oot.items()}))
    bets = replace(bets, last_seat=seat)
    if e0.street != e1.street or (e0.actor is not None and e1.actor is None):
        bets, short = _short_as_round_ends(after, bets, chips, e0.street, seat, seq)
        out += short
    nxt: Action | None = None
    q = after.to_act
    if q is not None and q in bets.oot:
        bets, told, nxt = _out_of_turn_reached(after, bets, chips, q, seq, settings)
        out += told
    if nxt is None:
        nxt = sweep_posts(after, bets, chips)
    return bets, tuple(out), nxt


def _short_as_round_ends(g: GameHand, bets: ChipBets, chips: Chips, street: int, last: int,
                         seq: int) -> tuple[ChipBets, list[Finding]]:
    """CHIP_BET_SHORT for each seat (the last to act apart: its chips may still be moving)
    whose chips in front are short of its wager as the round ends (RR Section 3 r.16)."""
    out: list[Finding] = []
    told = set(bets.told_short)
    for seat in g.seats:
        zone = chips.zones.get(f"bet:{seat}")
        wager = wager_in_front(g, bets, seat)
        if (seat == last or zone is None or wager is None or (seat, street) in told
                or seat in bets.change):
            continue
        if zone.total < wager:
            told.add((seat, street))
            out.append(make_finding("CHIP_BET_SHORT", seq, seats=[seat], fill={
                "seat": seat, "chips": zone.total, "wager": wager,
                "short": wager - zone.total}))
    return replace(bets, told_short=frozenset(told)), out


def _out_of_turn_reached(g: GameHand, bets: ChipBets, chips: Chips, seat: int, seq: int,
                         settings: Settings) -> tuple[ChipBets, list[Finding], Action | None]:
    """The action reached a seat that put chips out of turn: binding when the action to it did
    not change (RR Section 3 r.11; TDA #40A), returned after a bet or raise, and after an
    intervening call as the house rules (``oot_chips_after_call``)."""
    e = g.eng
    o = bets.oot[seat]
    bets = replace(bets, oot=MappingProxyType({s: x for s, x in bets.oot.items() if s != seat}))
    if o.street != e.street:
        return bets, [], None
    call = e.checking_or_calling_amount() or 0
    fill: dict[str, object] = {"seat": seat, "amount": o.amount, "call": call}
    if e.current_bet > o.bet:
        return bets, [make_finding("CHIP_OUT_OF_TURN_RETURNED", seq, seats=[seat], fill={
            **fill, "why": "a bet or raise came first"})], None
    if o.calls and settings.oot_chips_after_call == "floor":
        return bets, [make_finding("CHIP_OUT_OF_TURN_FLOOR", seq, seats=[seat], fill=fill)], None
    if o.calls and settings.oot_chips_after_call == "not_binding":
        return bets, [make_finding("CHIP_OUT_OF_TURN_RETURNED", seq, seats=[seat], fill={
            **fill, "why": "a call came first"})], None
    zone = chips.zones.get(f"bet:{seat}")
    wager = wager_in_front(g, bets, seat)
    if zone is None or wager is None or zone.total <= wager:
        return bets, [], None
    r = decide(g, bets, chips, None, seat, zone.total - wager, seq, settings)
    return r.bets, list(r.findings), r.action
