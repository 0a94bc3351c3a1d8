"""The procedure monitor for every game, card by card and action by action, on the hand engine.

Every live game runs here, from its ``Variant`` data (``variants.py``), with the generic hand
engine (``engine.py``) keeping the betting, the streets and the pots: the console's actions are
judged once for every game (``action``). The board games' dealing procedure (the deal, burns,
flop, turn and river and their remedies) is ``board.py``, fed the engine's betting through
``BoardBetting``; the engine plays their hands on placeholder cards and is given the real cards
at the showdown. Stud and draw are judged here. The monitor keeps the engine's command log and
an engine built from it; every state it hands out is frozen, and a new command is applied to a
copy. Two rules are shared with ``board.py``: ``initial_deal.py`` (a card of the initial deal in
the wrong place) and ``remedy.py`` (the moves a remedy calls for, REMEDY_NOT_FOLLOWED).

What the procedure expects at stud and draw (research/irregularities.md §1.M
STUD_DEAL_BASELINE, §1.N DRAW_DEAL_BASELINE):

- stud (roberts-rules-v11.txt, Section 8, intro and r.2): no burn before third street; two down
  cards and one up card, one card at a time, seat 1 first (the dealer is the fixed reference);
  then for each of fourth to seventh street a burn and one card to each player still in, face up
  on fourth to sixth, face down on seventh; each street only once the betting before it is over;
- draw (RR Section 11 Lowball, Section 12 Draw High; WSOP Section 12 Badugi): five cards (badugi
  four) one at a time, left of the button first, no burn; after the betting, each draw in turn:
  the player asks (``action draw``), the discards reach the muck, the replacements follow; the
  first card off the deck in a draw round is the burn; at most four consecutive cards to one
  player (RR Section 11 r.10).

Every card is judged on its first zone read against what is expected then. A finding whose
remedy fixes the next cards (an exposed stud down card: the third card comes face down; a
missing burn: that card goes to the burn; a premature stud street: the cards set aside) leaves an
expectation the monitor checks; a card elsewhere raises REMEDY_NOT_FOLLOWED. A misdeal-level
finding voids the hand: the monitor stops judging until ``misdeal.declared``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from controller.poker.house_rules import Settings
from controller.poker.pots import PotAward
from controller.poker.records import replace
from controller.poker.variants import JOKER, Variant, family
from controller.rules.engine import hand as engine
from controller.rules.findings.catalogue import make_finding
from controller.rules.findings.finding import Finding
from controller.rules.procedure import board_deal as board
from controller.rules.procedure.board import (
    BoardBetting,
    board_draw,
    board_end,
    board_read,
    board_step,
    by_seat,
    foreign_card,
    sync_board,
    sync_street,
)
from controller.rules.procedure.draw import (
    HAND_SIZE_AFTER_DRAW,
    close_turn,
    draw_exposed_deal,
    draw_exposed_on_draw,
    draw_extra,
    draw_request,
    drawn_answer,
    short_deal,
)
from controller.rules.procedure.game_hand import (
    BOARD,
    BRING_IN,
    CALL,
    FIVE_BURN,
    FOLD,
    HOLE,
    POST_NAMES,
    RAISE,
    CardSeen,
    Cmd,
    GameHand,
    Slot,
    build,
    counted,
    expected,
    feed,
    flag,
    is_void,
    put,
    rebuilt,
    ref,
    run,
    run_or_keep,
    show_down,
    street_name,
    unexpected,
    unfeed,
    with_card,
    with_key,
)
from controller.rules.procedure.initial_deal import (
    KILLED,
    LOWBALL_MISDEALS,
    MISSED_BLIND,
    wrong_place,
)
from controller.rules.procedure.remedy import not_followed, went_to
from controller.rules.procedure.stud import (
    back_from_aside,
    premature_card,
    stud_exposed,
    stud_final_up,
    wrong_bring_in,
)

# The monitor's interface: what the table layer (table.py, view.py) and the tests use.
__all__ = [
    "POST_NAMES",
    "RAISE",
    "GameHand",
    "action",
    "betting_over",
    "boxed",
    "cards_out",
    "current_bet",
    "draw",
    "drawn_answer",
    "end",
    "expectation",
    "expected",
    "exposed",
    "first_command",
    "is_void",
    "kill",
    "leave",
    "moving_on",
    "read",
    "restake",
    "set_void",
    "stand",
    "start",
    "starting_hands_out",
    "stub_shuffled",
]

# The engine's house settings at the live table: the cardroom defaults. One shared instance: the
# engine caches each hand's forced-bet layout by it.
_HOUSE = engine.HouseSettings()
# ... and one per value of the house setting a5_sevens_rule (research/irregularities.md D-19:
# RR Section 11 Ace-to-Five r.4 a seven, WSOP Section 11 Ace-to-Five r.4 a five, RRH optional).
_HOUSES: Mapping[str, engine.HouseSettings] = MappingProxyType({
    "seven": _HOUSE,
    "five": engine.HouseSettings(sevens_rule=5),
    "off": engine.HouseSettings(sevens_rule=0),
})


def start(variant: Variant, seats: Sequence[int], stacks: Sequence[int],
          posts: Sequence[tuple[int, str, int, bool]], *, small_bet: int, big_bet: int,
          bring_in: int, settings: Settings, big_blind: int = 0, after: int | None = None,
          killer: int | None = None, why: Mapping[int, str] | None = None,
          owes: Mapping[int, str] | None = None) -> GameHand:
    """A new hand of ``variant`` dealt to ``seats`` (dealing order) with these ``stacks``;
    ``posts`` are the seating plan's forced posts (seat, kind, amount, live): a live post is
    part of the poster's bet, a dead one (an ante, the dead part of made-up blinds) is not
    (roberts-rules-v11.txt, Section 4, Rules for Using Blinds, r.10). ``after``: the seat the
    first round's action starts after (the big blind, or the straddle); ``killer``: the seat
    killing the pot; ``why`` and ``owes``: the seats not dealt in and what they owe (board
    games judge a card dealt to them). Raises ValueError when the engine refuses the stakes."""
    n = len(seats)
    order = list(seats)
    antes = [0] * n
    blinds = [0] * n
    for seat, kind, amount, live in posts:
        i = order.index(seat)
        if kind != "bring_in" and live and kind != "ante":
            blinds[i] += amount
        elif kind != "bring_in":
            antes[i] += amount
    opener = None
    if n > 2 and after in order and any(blinds):
        opener = (order.index(after) + 1) % n  # RR Section 4 intro; Section 14 NL r.15
    if n == 2 and variant.button and any(blinds):
        # the engine takes heads-up blinds small first and posts them reversed (PHH order)
        blinds = blinds[::-1]
        antes = antes[::-1]
    structure = variant.structure
    limit = structure in ("fixed", "spread")
    big = big_blind or max(blinds, default=0)
    kill = settings.kill if settings.kill in ("full", "half") else "full"
    stakes = engine.Stakes(
        antes=tuple(antes), blinds_or_straddles=tuple(blinds) if any(blinds) else (),
        bring_in=bring_in if variant.forced == "antes_bring_in" else 0,
        small_bet=small_bet if limit else 0, big_bet=big_bet if limit else 0,
        min_bet=0 if limit else max(small_bet, big, 1),
        killer=order.index(killer) if killer in order and any(blinds) else None, kill=kill,
        opener=opener)
    house = _HOUSES.get(settings.a5_sevens_rule, _HOUSE)
    h = GameHand(variant=variant, seats=tuple(seats), stacks=tuple(stacks), stakes=stakes,
                 house=house, rules=settings, not_dealt=MappingProxyType(dict(why or {})),
                 owes_blinds=MappingProxyType(dict(owes or {})),
                 posts_due=_as_posted(posts, seats, stacks),
                 _engine=build(variant, stakes, stacks, house, ()))
    if family(variant) != "board":
        return h
    if not board.board_layout(variant):  # pragma: no cover - every board game of variants.py
        raise ValueError(f"{variant.name}: the board procedure knows only flop, turn and river")
    # The engine is given each starting hand as placeholders now: the betting opens with the
    # blinds, whatever the cards (the procedure judges them as they come).
    k = len(variant.streets[0].hole)
    log = tuple((HOLE, p, (None,) * k) for p in range(n))
    deal = board.new_deal(seats, why=why, owes=owes, hole_cards=k, game=variant.name,
                          four_card_flop=settings.four_card_flop,
                          flop_no_burn=settings.flop_no_burn,
                          first_exposed=settings.first_cards_exposed,
                          empty_seat=settings.empty_seat_cards,
                          allin_burn=settings.allin_burn_fix,
                          short_hand=settings.short_hand_exception)
    return rebuilt(replace(h, deal=deal), log)


def _as_posted(posts: Sequence[tuple[int, str, int, bool]], seats: Sequence[int],
               stacks: Sequence[int]) -> tuple[tuple[int, str, int], ...]:
    """The posts due, each at what the seat can post: a short stack posts all it has (RR
    Section 15 r.19; Section 4 r.1: the blind's size does not change)."""
    left = dict(zip(seats, stacks, strict=True))
    due: list[tuple[int, str, int]] = []
    for seat, kind, amount, _ in posts:
        if kind == "bring_in" or seat not in left:
            continue
        paid = min(amount, left[seat])
        left[seat] -= paid
        due.append((seat, kind, paid))
    return tuple(due)


def stub_shuffled(h: GameHand) -> GameHand:
    """The stub was reshuffled during the hand (a remedy's reshuffle)."""
    if h.deal is not None:
        return replace(h, deal=board.stub_shuffled(h.deal))
    return h


def kill(h: GameHand, seat: int) -> GameHand:
    """The dealer kills ``seat``'s hand where the action is (an absent tournament player's
    hand, RR Section 15 r.13; a hand the cut-off makes dead, RR Section 3 Dead Hands r.1(d))."""
    p = h.pos(seat)
    if p is None:
        return h
    return sync_board(run_or_keep(h, ("kill", p)))


def restake(h: GameHand, posts: Sequence[tuple[int, str, int, bool]], *, after: int | None,
            big_blind: int, killer: int | None) -> GameHand | None:
    """The hand with a new set of forced posts, all of them made: a live straddle posted after
    the blinds (RR Section 14 NL r.15), the log replayed on it. None when the log no longer
    replays (the betting has gone on since)."""
    try:
        fresh = start(h.variant, h.seats, h.stacks, posts, small_bet=h.stakes.small_bet or 1,
                      big_bet=h.stakes.big_bet or 2, bring_in=h.stakes.bring_in,
                      settings=h.rules, big_blind=big_blind, after=after, killer=killer)
        e = build(h.variant, fresh.stakes, h.stacks, h.house, h.log)
    except (engine.IllegalAction, ValueError):
        return None
    return sync_street(replace(h, stakes=fresh.stakes, posts_due=(), _engine=e))


def set_void(h: GameHand, void: bool) -> GameHand:
    """The table layer's word on a held misdeal: void (before the cut-off) or played on."""
    if h.deal is not None:
        return replace(h, deal=replace(h.deal, void=void))
    return replace(h, void=void)


def stand(h: GameHand) -> GameHand:
    """The floor ruled the hand stands: play on; the monitor stays off for the rest of it."""
    if h.deal is not None:
        return replace(h, deal=replace(h.deal, void=False, off=h.deal.off or "FLOOR_RULING"))
    return replace(h, void=False, off=h.off or "FLOOR_RULING", expect=())


def moving_on(h: GameHand, dealt: bool = False) -> tuple[GameHand, list[Finding]]:
    """The dealer has moved on (``dealt``: to the betting, so the round of dealing is over; or a
    misdeal declared): a single extra card waiting to be judged is one extra card; a seat
    passed over is ruled (from the counts if the round is over)."""
    if h.deal is None:
        return h, []
    d, out = board.moving_on(h.deal, dealt=dealt)
    return replace(h, deal=d), out


def betting_over(h: GameHand) -> bool:
    """No betting round remains (or the hand is over)."""
    e = h.eng
    return e.is_over or e.betting_over


def seen(h: GameHand) -> frozenset[str]:
    """Every tag this hand has seen (dealt, burned, mucked, set aside): out of the stub."""
    if h.deal is not None:
        return frozenset((*h.deal.cards, *h.jokers))
    return frozenset(h.cards)


def dealt_cards(h: GameHand) -> list[tuple[str, str | None, int]]:
    """Every tag this hand has seen as (uid, card, draw ordinal): what a card key may name."""
    if h.deal is not None:
        return [(c.uid, c.card, c.n) for c in h.deal.cards.values()]
    return [(c.uid, c.card, c.n) for c in h.cards.values()]


def cards_out(h: GameHand) -> int:
    """Cards off the shoe this hand."""
    return h.deal.draws if h.deal is not None else h.draws


def starting_hands_out(h: GameHand) -> bool:
    """Has every player been dealt a complete starting hand?"""
    if h.deal is not None:
        return h.deal.draws >= h.deal.hole_total
    e = h.eng
    return e.street > 0 or all(e.hole_needed(i) == 0 for i in range(len(h.seats)))


def current_bet(h: GameHand) -> int:
    """The bet to match on this round."""
    return h.eng.current_bet


def first_command(before: GameHand, after: GameHand) -> Cmd | None:
    """The first engine command ``after`` ran that ``before`` had not: the action applied."""
    return after.log[len(before.log)] if len(after.log) > len(before.log) else None


def remedy_due(h: GameHand) -> tuple[tuple[str, str], ...]:
    """The remedy moves the monitor waits for, in order, each as (the finding it remedies,
    "CODE (seq N)"; what to do): the first is the move expected now (``expectation`` words it).
    Board games follow one remedy at a time (``board.remedy_due``); stud and draw queue the
    moves of several findings, each step naming its finding."""
    if h.deal is not None:
        return board.remedy_due(h.deal)
    if h.void or h.off:
        return ()
    return tuple((x.after, x.says()) for x in h.expect)


def expectation(h: GameHand) -> str:
    """A short sentence of what the monitor expects next (the dealer's screen)."""
    if h.deal is not None:
        return board.expectation(h.deal, BoardBetting(h))
    if h.void:
        return f"Misdeal ({h.off}): waiting for the misdeal to be declared."
    if h.off and h.to_act is None:
        return f"The floor's word on {h.off} (the monitor has stopped for this hand)."
    if h.expect:
        x = h.expect[0]
        return f"Remedy of {x.after}: {x.says()}"
    s = expected(h)
    if s.kind == "burn":
        return "Next: the burn card."
    if s.kind == "board":
        return "Next: the common card, face up in the centre."
    if s.kind == "seat":
        return f"Next: a card to seat {s.seat}, face {'up' if s.face_up else 'down'}."
    if h.to_act is not None:
        return f"Seat {h.to_act} to act."
    return s.why.capitalize() + "." if s.why else ""


def draw(h: GameHand, uid: str, card: str | None, face_up: bool, seq: int, deck: str
         ) -> tuple[GameHand, list[Finding]]:
    """A card left the shoe: the tag checks (unknown, joker, duplicate) happen now, before any
    player can act on the card; where it went is judged at its zone read."""
    if h.deal is not None:
        return board_draw(h, uid, card, face_up, seq, deck)
    out: list[Finding] = []
    old = h.cards.get(uid)
    redrawn = old is not None and (
        (h.relaxed and old.zone in ("burn", "aside", "muck", None)) or back_from_aside(h, old))
    if old is not None and not redrawn:
        return h, out  # the same tag read again at the shoe: one card, not two
    if old is not None and old.uid in h.aside:
        # a set-aside card back in the stub for the final street: a new card, at the end of the
        # deal's order
        h = replace(h, aside=tuple(u for u in h.aside if u != uid),
                    cards=MappingProxyType({u: x for u, x in h.cards.items() if u != uid}))
    c = CardSeen(uid=uid, card=card, n=h.draws, seq=seq, face_up=face_up,
                 betting_open=h.betting_open)
    h = replace(h, draws=h.draws + 1)
    if h.void:
        return with_card(h, replace(c, judged=True)), out
    if h.off:
        # The monitor has stopped judging (a misdeal-level finding the cut-off made the hand
        # play on, or a floor ruling): the card is taken where it lands, for the engine.
        return with_card(h, c), out
    if card is None:
        h = flag(h, make_finding("UNKNOWN_TAG", seq, fill={"uid": uid, "deck": deck or "none"}),
                 out)
        return with_card(h, replace(c, judged=True)), out
    if card == JOKER and h.variant.deck != "joker":
        # "A joker that appears in a game where it is not used is treated as a scrap of paper.
        # Discovery of a joker does not cause a misdeal." (roberts-rules-v11.txt, Section 3,
        # Irregularities, r.8): the shoe sees it before any player can act on it, so it is
        # replaced like a boxed card: the next card goes where it was going.
        slot = expected(h)
        where = f"seat {slot.seat}" if slot.kind == "seat" else f"the {slot.kind}"
        f = make_finding("JOKER_IN_NON_JOKER_GAME", seq, seats=[slot.seat] if slot.seat else [],
                         cards=[JOKER], fill={"where": where})
        out.append(f)
        return with_card(h, replace(c, judged=True)), out
    if card not in h.variant.deck_cards:
        h = foreign_card(h, card, seq, out)
        return with_card(h, replace(c, judged=True)), out
    if not h.relaxed:
        twins = [o for o in h.cards.values() if o.card == card and o.uid != uid]
        if twins:
            held_at = [o.seat for o in twins if o.seat is not None]
            h = flag(h, make_finding("DUPLICATE_CARD", seq, seats=held_at, cards=[card]), out)
            return with_card(h, replace(c, judged=True)), out
    return with_card(h, c), out


def read(h: GameHand, uid: str, zone: str, seq: int, card: str | None, deck: str
         ) -> tuple[GameHand, list[Finding]]:
    """A card is read in a zone: its first read is judged; later reads are moves. A hole card
    that moves from its seat into another player's hand is judged here, for every family."""
    seen = h.deal.cards.get(uid) if h.deal is not None else h.cards.get(uid)
    known = seen is not None and seen.judged  # placed before: this read is a move
    was = _zone_of(h, uid)
    h, out = _read(h, uid, zone, seq, card, deck)
    if known and was != zone and zone.startswith("seat:"):
        h = _thrown(h, uid, card, int(zone[5:]), seq, out)
    return _pass_free_folds(h), out


def _zone_of(h: GameHand, uid: str) -> str | None:
    """Where the card lies now (None: read leaving a zone, or not seen yet)."""
    c = h.deal.cards.get(uid) if h.deal is not None else h.cards.get(uid)
    return None if c is None else c.zone


def _hand_of(h: GameHand, seat: int) -> dict[str, str | None]:
    """The tags of ``seat``'s hand (uid -> zone): board games, the hole cards dealt to it that
    are neither a Pineapple discard nor a card a remedy killed; stud and draw, the cards the
    engine holds for it (the draw's discards are out of it once the draw closes)."""
    if h.deal is not None:
        gone = {*h.discarded, *(k[0] for k in h.deal.killed)}
        return {c.uid: c.zone for c in h.deal.cards.values()
                if c.home == f"seat:{seat}" and c.uid not in gone and c.card is not None}
    p = h.pos(seat)
    held = set(h.eng.holes[p]) if p is not None else set()
    return {c.uid: c.zone for c in h.cards.values() if c.seat == seat and c.fed
            and c.card in held}


def _holder(h: GameHand, uid: str) -> int | None:
    """The seat whose hand holds tag ``uid``, if any."""
    return next((s for s in h.seats if uid in _hand_of(h, s)), None)


def _judging_moves(h: GameHand) -> bool:
    """Moves between hands are judged when no remedy is moving cards and the monitor is on."""
    board_remedy = h.deal is not None and (h.deal.remedy is not None or h.deal.void
                                          or bool(h.deal.off))
    return not (h.void or h.off or h.relaxed or h.expect or board_remedy)


def _kill_for(h: GameHand, seat: int, code: str) -> GameHand:
    """``seat``'s hand is dead by ``code``: it folds when the action reaches it (a dead hand
    acting is a remedy not followed, as for the other fouled hands)."""
    if seat in h.dead:
        return h
    return replace(h, dead=(*h.dead, seat),
                   dead_after=MappingProxyType({**h.dead_after, seat: code}))


def _thrown(h: GameHand, uid: str, card: str | None, to: int, seq: int, out: list[Finding]
            ) -> GameHand:
    """A hole card of one hand read in another dealt-in hand: "Cards thrown into another
    player's hand are dead, whether they are faceup or facedown" (roberts-rules-v11.txt,
    Section 3, Dead Hands, r.3). The zone antennas name the exact card and both seats."""
    if card is None or not _judging_moves(h):
        return h
    owner = _holder(h, uid)
    p = h.pos(to)
    # (the card may have been read leaving its seat first: a lift is a zone.leave, then the
    # read where it lands)
    if owner is None or owner == to or p is None or h.eng.folded[p]:
        return h
    out.append(make_finding("CARDS_THROWN_INTO_ANOTHER_HAND", seq, seats=[owner, to],
                            cards=[card], fill={"from_seat": owner, "to_seat": to}))
    h = replace(h, thrown=(*h.thrown, uid))
    return _kill_for(h, owner, "CARDS_THROWN_INTO_ANOTHER_HAND")


def unprotected(h: GameHand, seq: int, folding: int | None = None
                ) -> tuple[GameHand, list[Finding]]:
    """Before the next action or card: a live hand (not folded, not dead) whose cards were all
    read in the muck was killed without a fold. "If you fail to protect your hand, you will
    have no redress if it becomes fouled or the dealer accidentally kills it"
    (roberts-rules-v11.txt, Section 3, Irregularities, r.2). Judged only then, so a player who
    pushes the cards in before the fold is keyed (``folding``) raises nothing; not once the
    betting is over, when the dealer kills the losing hands."""
    out: list[Finding] = []
    if not _judging_moves(h) or h.eng.betting_over or h.turn is not None:
        return h, out  # (a draw turn open: its discards are in the muck until it closes)
    names = ({c.uid: c.name for c in h.deal.cards.values()} if h.deal is not None
             else {c.uid: c.name for c in h.cards.values()})
    for p, seat in enumerate(h.seats):
        if h.eng.folded[p] or seat in h.dead or seat in h.free_folds or seat == folding:
            continue
        hand = _hand_of(h, seat)
        gone = [names[u] for u, zone in hand.items() if zone == "muck"]
        if gone and len(gone) == len(hand):  # the whole hand: one card mucked is a count error
            out.append(make_finding("UNPROTECTED_HAND_KILLED_OR_FOULED", seq, seats=[seat],
                                    cards=gone))
            h = _kill_for(h, seat, "UNPROTECTED_HAND_KILLED_OR_FOULED")
    return h, out


def _read(h: GameHand, uid: str, zone: str, seq: int, card: str | None, deck: str
          ) -> tuple[GameHand, list[Finding]]:
    if h.deal is not None:
        return board_read(h, uid, zone, seq, card, deck)
    out: list[Finding] = []
    if uid not in h.cards:
        # The shoe did not report it: count it as drawn now, then read it.
        h, out = draw(h, uid, card, False, seq, deck)
    c = h.cards[uid]
    if c.zone == zone:
        return h, out
    if zone == "aside" and uid not in h.aside:
        h = replace(h, aside=(*h.aside, uid))
    if not c.judged:
        h = with_card(h, replace(c, zone=zone, judged=True))
        h = _judge(h, replace(c, zone=zone, judged=True), zone, seq, out)
    else:
        h = with_card(h, replace(c, zone=zone))
        h = _moved(h, replace(c, zone=zone), zone, seq, out, was=c.zone)
    return h, out


def leave(h: GameHand, uid: str, zone: str) -> GameHand:
    if h.deal is not None:
        if uid in h.jokers:
            return h
        return sync_board(replace(h, deal=board.leave(h.deal, uid, zone)))
    c = h.cards.get(uid)
    if c is None or c.zone != zone:
        return h
    return with_card(h, replace(c, zone=None))


def _not_followed(h: GameHand, c: CardSeen, zone: str, seq: int, out: list[Finding]
                  ) -> GameHand:
    x = h.expect[0]
    out.append(not_followed(seq, went_to(c.name, zone, c.face_up), x.after, x.says(),
                            cards=[c.name]))
    return replace(h, expect=h.expect[1:])  # that step is missed; the rest of the remedy stands


def _moved(h: GameHand, c: CardSeen, zone: str, seq: int, out: list[Finding],
           was: str | None = None) -> GameHand:
    """A card already judged moves: a remedy's move, a discard, a fold to the muck, a folded
    hand read back out of the muck."""
    if h.void:
        return h
    seat = c.seat
    p = h.pos(seat) if seat is not None else None
    if zone == "muck" and seat is not None and not c.mucked:
        h = with_card(h, replace(c, mucked=True))
        c = h.cards[c.uid]
    if ((was == "muck" or c.mucked) and seat is not None and zone == f"seat:{seat}"
            and p is not None and h.eng.folded[p] and seat not in h.retrieved and not h.off):
        # roberts-rules-v11.txt, Section 3, Dead Hands, r.2: "a hand that is clearly
        # identifiable may be retrieved and ruled live at management's discretion": the floor
        # decides; the muck log names the cards (as at the board games, board.py).
        cards = [x.name for x in sorted(h.cards.values(), key=lambda x: x.n)
                 if x.seat == seat and x.fed]
        out.append(make_finding("MUCKED_HAND_RETRIEVAL", seq, seats=[seat], cards=cards))
        return replace(h, retrieved=(*h.retrieved, seat))
    if h.expect and h.expect[0].uid == c.uid:
        if h.expect[0].fits(c.uid, zone, c.face_up):
            return _fulfil(h, c, zone)
        return _not_followed(h, c, zone, seq, out)
    later = _fits_later(h, c, zone)
    if later:
        return _fulfil(h, c, zone, later)
    t = h.turn
    if (zone == "muck" and t is not None and c.fed and c.seat == t.seat and not t.fed
            and c.uid not in t.discards):
        # a discard of the player drawing now (RR Section 11 r.9: the draw in order)
        h = replace(h, turn=replace(t, discards=(*t.discards, c.uid)))
    return h


def _fits_later(h: GameHand, c: CardSeen, zone: str) -> int:
    """The index of a later step of the remedy now expected that this card meets (0: none).
    Where a remedy's steps may come in any order the rulebooks leave open, a step met before
    the one listed first is taken: at ace-to-five lowball the exposed card's replacement comes
    first and "this first exposed card is used as the burncard" (roberts-rules-v11.txt, Section
    11, Ace-to-Five Lowball, r.3), but a dealer who burns it first ends with the same cards."""
    if not h.expect:
        return 0
    after = h.expect[0].after
    for i, x in enumerate(h.expect[1:], start=1):
        if x.after != after or not x.any_order:
            return 0
        if x.fits(c.uid, zone, c.face_up):
            return i
    return 0


def _fulfil(h: GameHand, c: CardSeen, zone: str, i: int = 0) -> GameHand:
    """The card goes where the remedy said: take the expectation (the ``i``-th) off and apply
    the card."""
    h = replace(h, expect=h.expect[:i] + h.expect[i + 1:])
    if zone == "burn":
        return replace(h, burned=h.eng.street)
    if zone.startswith("seat:") and not c.fed:
        return feed(h, c, int(zone[5:]))
    return h


def _judge(h: GameHand, c: CardSeen, zone: str, seq: int, out: list[Finding]) -> GameHand:
    """The first zone read of a card off the shoe, against what is expected now."""
    if h.void or c.card is None or (c.card == JOKER and h.variant.deck != "joker"):
        return h
    if h.off:
        # not judged (see ``draw``): taken where it lands (a replacement on the draw counted)
        if zone == "board":
            return run_or_keep(h, (BOARD, (c.card,)))
        if not zone.startswith("seat:"):
            return h
        return counted(feed(h, c, int(zone[5:])), int(zone[5:]))
    h = _arm(h)
    if h.expect:
        x = h.expect[0]
        if x.fits(c.uid, zone, c.face_up):
            return _fulfil(h, c, zone)
        later = _fits_later(h, c, zone)
        if later:
            return _fulfil(h, c, zone, later)
        if not x.uid or x.uid not in h.cards or h.cards[x.uid].zone != x.zone:
            h = _not_followed(h, c, zone, seq, out)
            if h.expect and h.expect[0].fits(c.uid, zone, c.face_up):
                return _fulfil(h, c, zone)
    if h.relaxed:
        # The stub ran short (STUD_INSUFFICIENT_CARDS, DRAW_DECK_EXHAUSTED): the dealer
        # reshuffles and may deal a common card; cards are taken where they land.
        if zone == "board":
            return run_or_keep(h, (BOARD, (c.card,)))
        if zone.startswith("seat:"):
            return feed(h, c, int(zone[5:]))
        return h
    if c.betting_open and h.family == "stud":
        return premature_card(h, c, zone, seq, out)
    slot = expected(h)
    e = h.eng
    street = e.street
    if slot.kind == "burn":
        if zone == "burn":
            if slot.why == FIVE_BURN:
                return replace(h, five_burned=street)
            return replace(h, burned=street)
        if zone.startswith("seat:"):
            return _burn_error(h, c, zone, seq, out, missing=True, slot=slot)
        return unexpected(h, c, zone, seq, out, "the burn card was due")
    if slot.kind == "board":
        if zone == "board":
            return run_or_keep(h, (BOARD, (c.card,)))
        return unexpected(h, c, zone, seq, out, "the common card was due in the centre")
    if slot.kind == "seat":
        assert slot.seat is not None
        if zone == f"seat:{slot.seat}":
            return _to_due_seat(h, c, slot, seq, out)
        extra_burn = zone == "burn" and (
            (h.family == "stud" and street > 0 and h.burned == street)
            or (h.family == "draw" and street > 0 and h.burned == street))
        if extra_burn:
            return _burn_error(h, c, zone, seq, out, missing=False, slot=slot)
        if zone.startswith("seat:") and street == 0 and e.actor is None and not h.acted:
            return _deal_sequence(h, c, int(zone[5:]), slot.seat, seq, out)
        if zone.startswith("seat:") and slot.seat in h.free_folds:
            return _free_fold_passed(h, c, int(zone[5:]), slot.seat, seq, out)
        if zone.startswith("seat:") and h.family == "draw":
            return draw_extra(h, c, int(zone[5:]), seq, out, due=slot.seat)
        return unexpected(h, c, zone, seq, out, f"the next card was due to seat {slot.seat}")
    # no card is due
    if zone.startswith("seat:") and h.family == "draw":
        return draw_extra(h, c, int(zone[5:]), seq, out, due=None)
    return unexpected(h, c, zone, seq, out, slot.why or "no card is due now")


def _arm(h: GameHand) -> GameHand:
    """Expectations that wait for the deal: armed once only the owed cards are missing."""
    if not h.owed_after_deal or h.eng.street != 0:
        return h
    slot = expected(h)
    if slot.kind == "seat" and slot.seat in h.owed and all(
            h.eng.hole_needed(i) <= h.owed.get(s, 0) for i, s in enumerate(h.seats)):
        return replace(h, expect=(*h.expect, *h.owed_after_deal), owed_after_deal=())
    return h


def _to_due_seat(h: GameHand, c: CardSeen, slot: Slot, seq: int, out: list[Finding]
                 ) -> GameHand:
    """The card went to the seat due it: check which way up it came, then give it to it."""
    seat = slot.seat
    assert seat is not None
    e = h.eng
    if h.family == "stud":
        flags = h.variant.streets[e.street].hole
        natural = flags[len(flags) - e.hole_needed(h.seats.index(seat))] if flags else False
        if c.face_up and not slot.face_up:
            if natural and seat in h.face:
                # the remedy of an exposed down card said this card comes face down
                out.append(not_followed(
                    seq, f"{c.name} was dealt face up to seat {seat}.",
                    h.face_why.get(seat, "STUD_ONE_HOLECARD_EXPOSED"),
                    f"seat {seat}'s third card is dealt face down", seats=[seat], cards=[c.name]))
            elif e.street == 0:
                return stud_exposed(h, c, seat, seq, out)
            elif e.street == len(h.variant.streets) - 1:
                h = stud_final_up(h, c, seat, seq, out)
        elif not c.face_up and slot.face_up and not natural and seat in h.face:
            out.append(not_followed(
                seq, f"{c.name} was dealt face down to seat {seat}.",
                h.face_why.get(seat, "STUD_FINAL_CARD_FACEUP"),
                f"seat {seat}'s last card is dealt face up too (Section 8 r.17)", seats=[seat],
                cards=[c.name]))
        if natural and seat in h.face:
            h = replace(h, face=with_key(h.face, seat, None))
        return feed(h, c, seat)
    # draw family
    if c.face_up:
        if e.street == 0:
            return draw_exposed_deal(h, c, seat, seq, out)
        return draw_exposed_on_draw(h, c, seat, seq, out)
    h = feed(h, c, seat)
    return counted(h, seat)


def _burn_error(h: GameHand, c: CardSeen, zone: str, seq: int, out: list[Finding], *,
                missing: bool, slot: Slot) -> GameHand:
    """No burn, or a second burn (stud: roberts-rules-v11.txt, Section 8, r.13, "the cards will
    be corrected, if at all possible, to their proper positions"; draw: Section 3,
    Irregularities, r.16): the card is moved where it belongs."""
    street = h.eng.street
    if missing:
        seat = int(zone[5:])
        fix = f"{c.name} is the burn: move it to the burn; the next card goes to seat {seat}"
        x = put("burn", c.uid, None, "", fix)
        detail = f"{c.name} went to seat {seat} with no burn before it."
    else:
        seat = slot.seat or 0
        up = slot.face_up
        fix = (f"{c.name} is seat {seat}'s card: move it from the burn to seat {seat}"
               + (" face up" if up else ""))
        x = put(f"seat:{seat}", c.uid, None, "", fix)
        detail = f"{c.name} was burned as a second burn card."
    if h.family == "stud":
        f = make_finding("STUD_BURN_ERROR", seq, seats=[seat], cards=[c.name], fill={
            "detail": detail, "fix": fix, "street": street_name(street)})
    else:
        f = make_finding("BURN_MISSING_OR_EXTRA", seq, seats=[seat], cards=[c.name], fill={
            "detail": detail, "fix": fix, "street": f"draw {street}"})
    out.append(f)
    if missing:
        h = replace(h, burned=street)
    return replace(h, expect=(*h.expect, replace(x, after=ref(f))))


def _deal_sequence(h: GameHand, c: CardSeen, landed: int, due: int, seq: int,
                   out: list[Finding]) -> GameHand:
    """The initial deal went to the wrong seat: the misdeal list (roberts-rules-v11.txt,
    Section 3, Misdeals, r.2; the same rules for stud, Section 8, and draw, Section 11 r.1,
    Section 12 r.3)."""
    ruling = wrong_place(first=c.n == 0, due=due, zone=f"seat:{landed}", dealt_in=h.seats,
                         owes=h.owes_blinds, why=h.not_dealt,
                         empty_seat=h.rules.empty_seat_cards,
                         lowball=h.variant.id in LOWBALL_MISDEALS)
    f = ruling.finding(seq, c.name)
    if ruling.code in (MISSED_BLIND, KILLED):
        # not a misdeal: a killed card is given to nobody, so the next card is still due to
        # the seat this one was due to
        out.append(f)
        return h
    if landed in h.seats:
        # The card is where it landed: if attention comes after the cut-off the deal is played
        # (RR Section 3, Misdeals, r.1), and the engine needs every card of it.
        h = feed(h, c, landed)
    return flag(h, f, out)


def exposed(h: GameHand, uid: str, by: str, seq: int) -> tuple[GameHand, list[Finding]]:
    """The dealer's exposed (or flashed-by-the-dealer) key on a card already dealt. A card a
    player exposes plays (roberts-rules-v11.txt, Section 3, Irregularities, r.12)."""
    if h.deal is not None:
        if uid in h.jokers:
            return h, []
        d, found = board.exposed(h.deal, uid, by, seq)
        return board_step(h, d, found)
    out: list[Finding] = []
    c = h.cards.get(uid)
    if (h.void or h.off) or c is None or by != "dealer" or c.face_up:
        return h, out
    c = replace(c, face_up=True)
    h = with_card(h, c)
    seat = c.seat
    if seat is None or not c.fed:
        return h, out
    e = h.eng
    if h.family == "stud":
        p = h.seats.index(seat)
        if e.street == 0 and len(e.holes[p]) <= 2 and not e.upcards(p) and not h.acted:
            # a down card of third street: as if dealt face up (the card is already given)
            return stud_exposed(h, c, seat, seq, out, fed=True), out
        last = len(h.variant.streets) - 1
        full = sum(len(st.hole) for st in h.variant.streets)
        if (e.street == last and len(e.holes[p]) == full and e.holes[p][-1] == c.card
                and _dealt_since_betting(h, p, c.card)):
            # the last card, just dealt down, turned up by the dealer: as if dealt face up
            # (roberts-rules-v11.txt, Section 8, r.16-17; the profile's stud_last_card_up)
            return stud_final_up(h, c, seat, seq, out), out
        return h, out
    if e.street == 0 and not h.acted:
        return draw_exposed_deal(h, c, seat, seq, out, fed=True), out
    if _given_this_turn(h, c):
        h = unfeed(h, c)
        h = _counted_back(h, seat)
        return draw_exposed_on_draw(h, c, seat, seq, out), out
    return h, out


def _dealt_since_betting(h: GameHand, p: int, card: str | None) -> bool:
    """Was ``card`` given to position ``p`` with nothing but cards dealt since (no bet, no
    discard)?"""
    for cmd in reversed(h.log):
        if cmd[0] != HOLE:
            return False
        if cmd[1] == p and cmd[2] == (card,):
            return True
    return False


def _given_this_turn(h: GameHand, c: CardSeen) -> bool:
    """Is ``c`` a replacement card of the player drawing now (given after the discard)? Only
    such a card is "exposed on the draw" (roberts-rules-v11.txt, Section 11 Lowball r.9);
    a card the player held from before is not taken back out of the engine, whose later
    commands (the betting, the discard) depend on it."""
    t = h.turn
    p = h.pos(t.seat) if t is not None else None
    if t is None or not t.fed or p is None or c.seat != t.seat:
        return False
    # the discard (or a bet) after the card: it was dealt before the draw
    return _dealt_since_betting(h, p, c.card)


def _last_logged(h: GameHand, c: CardSeen) -> bool:
    """Is the engine's last command the one that gave ``c`` to its seat?"""
    p = h.pos(c.seat) if c.seat is not None else None
    return bool(h.log) and h.log[-1] == (HOLE, p, (c.card,))


def _counted_back(h: GameHand, seat: int) -> GameHand:
    t = h.turn
    if t is None or t.seat != seat or t.given == 0:
        return h
    return replace(h, turn=replace(t, given=t.given - 1))


def boxed(h: GameHand, uid: str, card: str | None, seq: int) -> tuple[GameHand, list[Finding]]:
    """The dealer's boxed-card key: a card found face up in the deck is a scrap of paper
    (roberts-rules-v11.txt, Section 3, Irregularities, r.7); two in the initial deal are a
    misdeal (Section 3, Misdeals, r.2(c))."""
    if h.deal is not None:
        d, found = board.boxed(h.deal, uid, card, seq)
        return board_step(h, d, found)
    out: list[Finding] = []
    if (h.void or h.off):
        return h, out
    name = card or f"tag {uid}"
    c = h.cards.get(uid)
    if c is not None and (c.n != h.draws - 1 or (c.fed and not _last_logged(h, c))):
        # As in hold'em (dealing.boxed): the key names the card just drawn; once another card
        # or an action has followed it, the card has been played as dealt.
        detail = (f"{name} was dealt before it was reported boxed; a boxed card is reported "
                  "as it is found in the deck or as it leaves the shoe.")
        return h, [make_finding("EVENT_OUT_OF_PLACE", seq, fill={"detail": detail},
                                message=detail)]
    if c is not None and c.fed:
        h = unfeed(h, c)
    h = with_card(h, CardSeen(uid=uid, card=card, n=c.n if c else h.draws, seq=seq, face_up=True,
                              betting_open=False, zone=c.zone if c else None, judged=True))
    in_deal = h.eng.street == 0 and not h.acted
    if in_deal and h.boxed:
        names = [h.cards[u].name for u in h.boxed if u in h.cards]
        return flag(h, make_finding("MISDEAL_TWO_OR_MORE_BOXED_CARDS", seq,
                                    cards=[*names, name]), out), out
    out.append(make_finding("BOXED_CARD_SINGLE", seq, cards=[name]))
    return replace(h, boxed=(*h.boxed, uid) if in_deal else h.boxed), out


def kept(h: GameHand, uid: str, seq: int) -> tuple[GameHand, list[Finding]] | str:
    """The dealer's key that a player looked at a card or mixed it with the hole cards. Stud,
    the final down card dealt before the sixth-street betting was over: "the player must keep
    the card, and on sixth street betting may not bet or raise" (roberts-rules-v11.txt,
    Section 8, r.14; WSOP the same). Anywhere else the key changes nothing: a reason why."""
    c = h.cards.get(uid) if h.deal is None else None
    last = len(h.variant.streets) - 1
    if (h.family != "stud" or c is None or uid not in h.premature or c.face_up
            or not (c.zone or "").startswith("seat:") or h.eng.street != last - 1):
        return ("The kept-card key is for a stud player's final down card dealt before the "
                "sixth-street betting was over (RR Section 8 r.14).")
    seat = int(str(c.zone)[5:])
    if h.pos(seat) is None or seat in h.kept:
        return f"Seat {seat} is not a hand that can keep a card now."
    f = make_finding("STUD_PREMATURE_FINAL_DOWNCARD_KEPT", seq, seats=[seat],
                     cards=[c.name])
    premature = tuple(u for u in h.premature if u != uid)
    # Only the kept card was dealt early (a premature burn aside): nothing more is eliminated.
    cards_left = any(u in h.cards and h.cards[u].zone != "burn" for u in premature)
    h = replace(h, premature=premature if cards_left else (),
                premature_finding=h.premature_finding if cards_left else "",
                expect=tuple(x for x in h.expect if x.uid != uid),
                kept=with_key(h.kept, seat, uid), capped=(*h.capped, seat))
    return h, [f]


def _give_kept(h: GameHand) -> GameHand:
    """Seventh street has come: a kept final down card is that seat's seventh card."""
    if not h.kept or h.eng.street != len(h.variant.streets) - 1 or h.eng.actor is not None:
        return h
    for seat, uid in h.kept.items():
        c = h.cards.get(uid)
        if c is not None and not c.fed:
            h = feed(h, c, seat)
    return replace(h, kept=MappingProxyType({}), capped=())


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
        h = _kill_free_folds(h)  # a fold that ends the hand: those folded hands are out too
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
        h = _kill_free_folds(h)  # the bet kills the hands folded with no wager
    h = sync_board(h)
    return _give_kept(_pass_free_folds(_after_round(h, seq, out))), out


def _pass_free_folds(h: GameHand) -> GameHand:
    """A stud seat that folded with no wager does not act again: while nobody bets, the action
    passes it by (it is still dealt to, RR Section 8 r.9)."""
    e = h.eng
    while (h.free_folds and e.actor is not None and h.seats[e.actor] in h.free_folds
           and not e.checking_or_calling_amount()):
        try:
            h = run(h, (CALL, e.actor))
        except engine.IllegalAction:  # pragma: no cover - a check with nothing to call
            break
        e = h.eng
    return h


def _free_fold_passed(h: GameHand, c: CardSeen, landed: int, due: int, seq: int,
                      out: list[Finding]) -> GameHand:
    """The dealer passed over a stud seat that folded with no wager (RR Section 8 r.9): the
    card is moved to it, and the order goes on from there."""
    f = make_finding("STUD_FOLDED_SEAT_KEEPS_RECEIVING", seq, seats=[due, landed],
                     cards=[c.name], fill={"landed": landed})
    out.append(f)
    return replace(h, expect=(put(f"seat:{due}", c.uid, None, ref(f),
                                  f"{c.name} goes to seat {due}"), *h.expect))


def _kill_free_folds(h: GameHand) -> GameHand:
    """The stud hands folded with no wager are killed, "as a result of a bet" (RR Section 8
    r.9), or at the hand's end: they win nothing."""
    for seat in h.free_folds:
        p = h.pos(seat)
        if p is not None and not h.eng.folded[p] and not h.eng.betting_over:
            h = kill(h, seat)
    return replace(h, free_folds=())


def _not_available(h: GameHand, seat: int, detail: str, seq: int, out: list[Finding]
                   ) -> tuple[GameHand, list[Finding]]:
    out.append(make_finding("ACTION_NOT_AVAILABLE", seq, seats=[seat], fill={"detail": detail},
                            message=detail))
    return h, out


_NOT_REOPENED = ("CANNOT_RAISE", "NO_ONE_TO_RAISE", "RAISE_CAPPED", "NOT_REOPENED")


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


def end(h: GameHand, seq: int) -> tuple[GameHand, list[Finding], tuple[PotAward, ...],
                                          dict[int, int], str]:
    """``hand.end``: the showdown and the pots. Returns the hand, findings, the awards (by seat),
    every dealt-in seat's stack after the hand, and a problem ("" when the pots were awarded)."""
    if h.deal is not None:
        return board_end(h, seq)
    out: list[Finding] = []
    h = close_turn(h, seq, out)
    e = h.eng
    if not e.betting_over:
        return h, out, (), {}, "the betting is not complete"
    if h.free_folds:  # folded with no wager and never killed by a bet: still out of the pot
        h = replace(h, dead=(*h.dead, *(s for s in h.free_folds if s not in h.dead)),
                    free_folds=())
    showdown = len(h.live) > 1
    if showdown:
        size = (HAND_SIZE_AFTER_DRAW.get(h.variant.id, 5) if h.family == "draw"
                else h.variant.hole_cards)
        strict = h.rules.dead_hand_card_count == "no_exceptions"
        for seat in h.live:
            held = len(h.hole(seat))
            if held != size and seat not in h.dead and not h.relaxed:
                if h.family == "stud":
                    # the house setting dead_hand_card_count (research D-21): with no
                    # exceptions (AZW Dead Hands r.1(d)) the hand is dead and is not shown
                    out.append(make_finding("STUD_HAND_CARD_COUNT", seq, seats=[seat], fill={
                        "held": held, "ruling": (
                            "missing only the seventh card: the floor may rule it live"
                            if held == size - 1 else "the hand is dead")},
                        setting="no_exceptions" if strict else ""))
                    if strict:
                        h = replace(h, dead=(*h.dead, seat))
                else:
                    out.append(make_finding("DRAW_WRONG_COUNT_AFTER_DRAW", seq, seats=[seat],
                                            fill={"held": held, "size": size}))
    e = e.copy()
    try:
        show_down(h, e, h.dead)
        awards = by_seat(h, e)
    except (engine.IllegalAction, ValueError, AssertionError) as exc:
        return h, out, (), {}, f"the pots cannot be settled: {exc}"
    stacks = {s: e.stacks[i] for i, s in enumerate(h.seats)}
    return replace(h, _engine=e), out, awards, stacks, ""
