"""The board games on the hand engine: ``board_deal.py``'s dealing procedure fed the engine's
betting.

The engine plays a board game's hand on placeholder cards (its betting and streets need only the
counts); ``board_deal.py`` judges the cards. This module is the glue: the engine's betting as the
board procedure sees it (``BoardBetting``), the board streets and Pineapple discards given to the
engine as they are dealt, and at the end the real cards given to the engine for the showdown.
Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.poker.pots import PotAward
from controller.poker.records import replace
from controller.poker.variants import JOKER
from controller.rules import engine
from controller.rules.findings import Finding, make_finding
from controller.rules.procedure import board_deal as board
from controller.rules.procedure.game_hand import (
    BOARD,
    DISCARD,
    HOLE,
    POST_NAMES,
    Cmd,
    GameHand,
    build,
    is_void,
    run,
    show_down,
    with_str_key,
)


@dataclass(frozen=True)
class BoardBetting:
    """The engine's betting as the board procedure sees it (``board.BettingView``)."""

    h: GameHand

    @property
    def rounds_done(self) -> int:
        # the engine's street is the round open now, or the street whose cards are awaited
        # once the rounds before it are complete
        return self.h.eng.street

    @property
    def no_more_betting(self) -> bool:
        e = self.h.eng
        return e.is_over or e.betting_over

    @property
    def hand_over(self) -> bool:
        return len(self.h.live) <= 1

    @property
    def street(self) -> int:
        return self.h.bet_street

    @property
    def actions(self) -> int:
        return self.h.street_acts

    @property
    def to_act(self) -> int | None:
        return self.h.to_act

    @property
    def post_due(self) -> tuple[int, str] | None:
        if not self.h.posts_due:
            return None
        seat, kind, _ = self.h.posts_due[0]
        return seat, POST_NAMES.get(kind, kind)


def sync_street(h: GameHand) -> GameHand:
    """A betting round has opened on a new street: its action count starts again."""
    e = h.eng
    if e.actor is not None and e.street != h.bet_street:
        return replace(h, bet_street=e.street, street_acts=0)
    return h


def _sync_discards(h: GameHand) -> GameHand:
    """Pineapple: the seat due to discard has thrown a card into the muck: that is its discard
    (JPN Pineapple: "discard one", in turn). A card thrown before the seat's turn counts when the
    turn comes."""
    d = h.deal
    while d is not None:
        e = h.eng
        p = e.discarder
        if p is None:
            break
        seat = h.seats[p]
        home = f"seat:{seat}"
        uid = next((u for u in d.sequence if u not in h.discarded and d.cards[u].zone == "muck"
                    and u not in h.thrown  # a card thrown into another hand: no discard
                    and (d.cards[u].home == home or h.last_seat.get(u) == seat)), None)
        if uid is None:
            break
        try:
            h = run(h, (DISCARD, p, (None,)))
        except engine.IllegalAction:  # pragma: no cover - the engine named the discarder
            break
        h = replace(h, discarded=(*h.discarded, uid))
    return h


def sync_board(h: GameHand) -> GameHand:
    """Board games: give the engine the street's board (as placeholders) once its cards are on
    the board and the betting before them is over, so the next round opens; and the Pineapple
    discards as they are made."""
    d = h.deal
    if d is None:
        return h
    on_board = len(d.board)
    while True:
        h = _sync_discards(h)
        e = h.eng
        need = e.board_needed
        if e.is_over or e.actor is not None or not need or on_board < h.fed_board + need:
            break
        try:
            h = run(h, (BOARD, (None,) * need))
        except engine.IllegalAction:  # pragma: no cover - the engine asked for these cards
            break
        h = replace(h, fed_board=h.fed_board + need)
    return sync_street(h)


def board_step(h: GameHand, d: board.Deal, out: list[Finding]) -> tuple[GameHand, list[Finding]]:
    return sync_board(replace(h, deal=d)), out


def board_draw(h: GameHand, uid: str, card: str | None, face_up: bool, seq: int, deck: str
               ) -> tuple[GameHand, list[Finding]]:
    assert h.deal is not None
    if card == JOKER and h.variant.deck != "joker":
        if uid in h.jokers:
            return h, []
        # roberts-rules-v11.txt, Section 3, Irregularities, r.8: "A joker that appears in a game
        # where it is not used is treated as a scrap of paper."
        # During the initial deal the seat it was going to is the seat due the next card.
        d = h.deal
        due = (d.target(d.draws) if d.draws < d.hole_total and d.remedy is None
               and not d.void else None)
        f = make_finding("JOKER_IN_NON_JOKER_GAME", seq, seats=[due] if due else [],
                         cards=[JOKER],
                         fill={"where": f"seat {due}" if due else "where it was going"})
        return replace(h, jokers=(*h.jokers, uid)), [f]
    d, out = board.draw(h.deal, uid, card, face_up, seq, BoardBetting(h), deck)
    h = replace(h, deal=d)
    if not out:
        h = foreign_card(h, card, seq, out)
    return sync_board(h), out


def foreign_card(h: GameHand, card: str | None, seq: int, out: list[Finding]) -> GameHand:
    """A card of the registered deck that this game's deck does not hold (a two to five at
    six-plus hold'em): the wrong deck is in play (jamies-poker-notes.md, Six Plus Hold'em;
    roberts-rules-v11.txt, Section 3, Irregularities, r.3)."""
    if card is None or card == JOKER or card in h.variant.deck_cards or is_void(h):
        return h
    f = make_finding("CARD_NOT_IN_GAME_DECK", seq, cards=[card], fill={
        "game": h.variant.name, "deck_size": len(h.variant.deck_cards)})
    out.append(f)
    if h.deal is not None:
        return replace(h, deal=replace(h.deal, void=True, off=f.code, remedy=None))
    return replace(h, void=True, off=f.code, expect=())


def board_read(h: GameHand, uid: str, zone: str, seq: int, card: str | None, deck: str
               ) -> tuple[GameHand, list[Finding]]:
    assert h.deal is not None
    if uid in h.jokers:
        return h, []  # the joker is a scrap of paper: its moves are not dealing
    out: list[Finding] = []
    if uid not in h.deal.cards:
        # The shoe did not report this card: count it as drawn now, then read.
        h, out = board_draw(h, uid, card, False, seq, deck)
        if uid in h.jokers:
            return h, out
    assert h.deal is not None
    d, more = board.read(h.deal, uid, zone, seq)
    # (the seat it was read in and the deal in one new record: board.read reads the deal only)
    if zone.startswith("seat:") and zone[5:].isdigit():
        h = replace(h, last_seat=with_str_key(h.last_seat, uid, int(zone[5:])), deal=d)
    else:
        h = replace(h, deal=d)
    return sync_board(h), out + more


def board_end(h: GameHand, seq: int) -> tuple[GameHand, list[Finding], tuple[PotAward, ...],
                                                dict[int, int], str]:
    """``hand.end`` of a board game: every live hand must hold the game's cards, else it is
    dead (RR Section 3, Dead Hands, r.1(d)); then the engine, given the cards the procedure
    saw in place of its placeholders, makes the showdown and settles the pots."""
    assert h.deal is not None
    e = h.eng
    hand_over = len(h.live) <= 1
    if e.discarder is not None and not hand_over:
        return h, [], (), {}, f"seat {h.seats[e.discarder]} has not discarded (Pineapple)"
    size = len(h.variant.streets[0].hole) - sum(st.discard for st in h.variant.streets)
    # A hand already dead (its cards thrown into another hand, or swept into the muck) is not
    # counted again: it is mucked at the showdown.
    counted = tuple(s for s in h.live if s not in h.dead)
    d, out = board.hand_end(h.deal, counted, hand_over, size, seq)
    dead = {s for f in out if f.code == "HAND_WRONG_CARD_COUNT_DEAD" for s in f.seats}
    dead |= {s for s in h.dead if s in h.live}
    h = replace(h, deal=d)
    if not (e.betting_over or e.is_over):
        return h, out, (), {}, f"the {_board_street(e.street)} betting is not complete"
    if not hand_over and len(d.board) != 5:
        return h, out, (), {}, f"the board has {len(d.board)} cards; a showdown needs 5"
    try:
        e = e if e.is_over else _showdown(h, dead)
        awards = by_seat(h, e)
    except (engine.IllegalAction, ValueError, AssertionError) as exc:
        return h, out, (), {}, f"the pots cannot be settled: {exc}"
    if not e.is_over:
        # the engine did not settle: awarding nothing would lose the pot, so keep it
        return h, out, (), {}, "the pots cannot be settled: the hand has not reached its showdown"
    stacks = {s: e.stacks[i] for i, s in enumerate(h.seats)}
    return replace(h, _engine=e), out, awards, stacks, ""


def by_seat(h: GameHand, e: engine.Hand) -> tuple[PotAward, ...]:
    """The engine's awards (by position) by seat, seats in order."""
    return tuple(
        PotAward(amount=a.amount, eligible=tuple(sorted(h.seats[i] for i in a.eligible)),
                 winners=tuple(sorted(h.seats[i] for i in a.winners)),
                 shares={h.seats[i]: v for i, v in a.shares.items()}, hand=a.hand)
        for a in e.awards)


def _board_street(st: int) -> str:
    return ("preflop", "flop", "turn", "river")[min(st, 3)]


def _showdown(h: GameHand, dead: set[int]) -> engine.Hand:
    """The engine replayed with the cards seen in place of its placeholders, then the
    showdown: dead hands are mucked, every other live hand is shown."""
    assert h.deal is not None
    d = h.deal
    board_cards = list(d.board)
    thrown = iter(h.discarded)  # the discards, in the order the engine took them
    real: set[int] = set()  # positions given their real cards
    log: list[Cmd] = []
    for cmd in h.log:
        if cmd[0] == HOLE:
            p = int(str(cmd[1]))
            k = len(cmd[2])  # type: ignore[arg-type]
            home = f"seat:{h.seats[p]}"
            gone = tuple(d.cards[u].name for u in h.discarded
                         if d.cards[u].home == home or h.last_seat.get(u) == h.seats[p])
            held = (*d.hole(h.seats[p]), *gone)
            if h.seats[p] in dead or len(held) != k:
                log.append((HOLE, p, (None,) * k))
            else:
                real.add(p)
                log.append((HOLE, p, tuple(held)))
        elif cmd[0] == DISCARD:
            p = int(str(cmd[1]))
            uid = next(thrown, None)
            card = d.cards[uid].name if uid is not None and p in real else None
            log.append((DISCARD, p, (card,)))
        elif cmd[0] == BOARD:
            k = len(cmd[1])  # type: ignore[arg-type]
            log.append((BOARD, tuple(board_cards[:k])))
            board_cards = board_cards[k:]
        else:
            log.append(cmd)
    e = build(h.variant, h.stakes, h.stacks, h.house, log)
    show_down(h, e, sorted(dead))
    return e
