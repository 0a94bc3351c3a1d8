"""The procedure monitor for every game, card by card and action by action, on the hand engine.

Every live game runs here, from its ``Variant`` data (``controller/poker/variants.py``), with the
generic hand engine (``controller/rules/engine/hand.py``) keeping the betting, the streets and the
pots. This module is the monitor's face to the table layer and its dispatch: a hand starts here,
and each card off the shoe, zone read and dealer key goes to its family's procedure:

- the board games: the dealing procedure ``board_deal.py`` (the deal, burns, flop, turn and river
  and their remedies), fed the engine's betting by ``board.py`` (``BoardBetting``); the engine
  plays their hands on placeholder cards and is given the real cards at the showdown;
- stud and draw: ``stud_draw.py`` judges each card against the card due next
  (``game_hand.expected``), with each family's own rules in ``stud_family.py`` and
  ``draw_family.py``.

For every game alike: the console's actions are judged once (``betting.py``); a card thrown into
another hand and a live hand swept into the muck make a hand dead (``dead_hands.py``); what the
monitor waits for is worded for the dealer's screen (``waiting_for.py``). The monitor keeps the
engine's command log and an engine built from it (``game_hand.GameHand``); every state it hands
out is frozen, and a new command is applied to a copy. Two rules are shared by every family:
``initial_deal.py`` (a card of the initial deal in the wrong place) and ``remedy.py`` (the moves
a remedy calls for, REMEDY_NOT_FOLLOWED).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from controller.poker.house_rules import Settings
from controller.poker.pots import PotAward
from controller.poker.records import replace
from controller.poker.variants import Variant, family
from controller.rules import engine
from controller.rules.findings import Finding
from controller.rules.procedure import board_deal as board
from controller.rules.procedure import stud_draw
from controller.rules.procedure.board import (
    board_draw,
    board_end,
    board_read,
    board_step,
    sync_board,
    sync_street,
)
from controller.rules.procedure.dead_hands import thrown_into_hand, zone_of
from controller.rules.procedure.game_hand import (
    HOLE,
    Cmd,
    GameHand,
    build,
    rebuilt,
)
from controller.rules.procedure.stud_family import pass_free_folds

# The engine's house settings at the live table: the cardroom defaults. One shared instance per
# distinct choice: the engine caches each hand's forced-bet layout by it.
_HOUSE = engine.HouseSettings()
# The house setting a5_sevens_rule (research/irregularities.md D-19: RR Section 11 Ace-to-Five
# r.4 a seven, WSOP Section 11 Ace-to-Five r.4 a five, RRH optional) ...
_SEVENS: Mapping[str, int] = MappingProxyType({"seven": 7, "five": 5, "off": 0})
# ... and limit_raise_cap: bets and raises on a round (None: RR Section 3 r.4 by the rounds).
_CAPS: Mapping[str, int | None] = MappingProxyType(
    {"rr": None, "bet_and_three": 4, "bet_and_four": 5})
_HOUSES: dict[tuple[int, str, int | None], engine.HouseSettings] = {
    (7, "becomes", None): _HOUSE}


def engine_house(settings: Settings, *, last_two: bool = False) -> engine.HouseSettings:
    """The hand engine's house settings for the table's house rules. Fixed limit heads-up:
    in a tournament the cap holds until the event is down to its last two players (``last_two``;
    RR Section 3 r.5, Section 15 r.23; AZW Section 15 r.23), else the house's
    ``heads_up_raising`` (RR Section 3 r.5 "becomes"; WSOP Section 3 r.4 "starts")."""
    heads_up = "never" if settings.tournament and not last_two else settings.heads_up_raising
    key = (_SEVENS.get(settings.a5_sevens_rule, 7), heads_up,
           _CAPS.get(settings.limit_raise_cap))
    house = _HOUSES.get(key)
    if house is None:
        house = _HOUSES[key] = engine.HouseSettings(
            sevens_rule=key[0], heads_up_uncapped=key[1], raise_cap=key[2])
    return house


def start(variant: Variant, seats: Sequence[int], stacks: Sequence[int],
          posts: Sequence[tuple[int, str, int, bool]], *, small_bet: int, big_bet: int,
          bring_in: int, settings: Settings, big_blind: int = 0, after: int | None = None,
          killer: int | None = None, why: Mapping[int, str] | None = None,
          owes: Mapping[int, str] | None = None, last_two: bool = False) -> GameHand:
    """A new hand of ``variant`` dealt to ``seats`` (dealing order) with these ``stacks``;
    ``posts`` are the seating plan's forced posts (seat, kind, amount, live): a live post is
    part of the poster's bet, a dead one (an ante, the dead part of made-up blinds) is not
    (roberts-rules-v11.txt, Section 4, Rules for Using Blinds, r.10). ``after``: the seat the
    first round's action starts after (the big blind, or the straddle); ``killer``: the seat
    killing the pot; ``why`` and ``owes``: the seats not dealt in and what they owe (board
    games judge a card dealt to them); ``last_two``: a tournament is down to its last two
    players (fixed limit: no raise cap heads-up). Raises ValueError when the engine refuses the
    stakes."""
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
    house = engine_house(settings, last_two=last_two)
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


def draw(h: GameHand, uid: str, card: str | None, face_up: bool, seq: int, deck: str
         ) -> tuple[GameHand, list[Finding]]:
    """A card left the shoe: the tag checks (unknown, joker, duplicate) happen now, before any
    player can act on the card; where it went is judged at its zone read."""
    if h.deal is not None:
        return board_draw(h, uid, card, face_up, seq, deck)
    return stud_draw.draw(h, uid, card, face_up, seq, deck)


def read(h: GameHand, uid: str, zone: str, seq: int, card: str | None, deck: str
         ) -> tuple[GameHand, list[Finding]]:
    """A card is read in a zone: its first read is judged; later reads are moves. A hole card
    that moves from its seat into another player's hand is judged here, for every family."""
    seen = h.deal.cards.get(uid) if h.deal is not None else h.cards.get(uid)
    known = seen is not None and seen.judged  # placed before: this read is a move
    was = zone_of(h, uid)
    if h.deal is not None:
        h, out = board_read(h, uid, zone, seq, card, deck)
    else:
        h, out = stud_draw.read(h, uid, zone, seq, card, deck)
    if known and was != zone and zone.startswith("seat:"):
        h = thrown_into_hand(h, uid, card, int(zone[5:]), seq, out)
    return pass_free_folds(h), out


def leave(h: GameHand, uid: str, zone: str) -> GameHand:
    """A card read leaving its zone (a lift, a move under way)."""
    if h.deal is not None:
        if uid in h.jokers:
            return h
        return sync_board(replace(h, deal=board.leave(h.deal, uid, zone)))
    return stud_draw.leave(h, uid, zone)


def exposed(h: GameHand, uid: str, by: str, seq: int) -> tuple[GameHand, list[Finding]]:
    """The dealer's exposed (or flashed-by-the-dealer) key on a card already dealt. A card a
    player exposes plays (roberts-rules-v11.txt, Section 3, Irregularities, r.12)."""
    if h.deal is not None:
        if uid in h.jokers:
            return h, []
        d, found = board.exposed(h.deal, uid, by, seq)
        return board_step(h, d, found)
    return stud_draw.exposed(h, uid, by, seq)


def boxed(h: GameHand, uid: str, card: str | None, seq: int) -> tuple[GameHand, list[Finding]]:
    """The dealer's boxed-card key: a card found face up in the deck is a scrap of paper
    (roberts-rules-v11.txt, Section 3, Irregularities, r.7); two in the initial deal are a
    misdeal (Section 3, Misdeals, r.2(c))."""
    if h.deal is not None:
        d, found = board.boxed(h.deal, uid, card, seq)
        return board_step(h, d, found)
    return stud_draw.boxed(h, uid, card, seq)


def end(h: GameHand, seq: int) -> tuple[GameHand, list[Finding], tuple[PotAward, ...],
                                          dict[int, int], str]:
    """``hand.end``: the showdown and the pots. Returns the hand, findings, the awards (by seat),
    every dealt-in seat's stack after the hand, and a problem ("" when the pots were awarded)."""
    if h.deal is not None:
        return board_end(h, seq)
    return stud_draw.end(h, seq)
