"""Dead hands at every game: the dealer's kill, and a hand fouled by a card's move once dealt.

The dealer kills a hand where the action is (an absent tournament player's hand, a hand the
cut-off makes dead). Once a hand is dealt, the zone antennas see its cards move: a hole card read
in another dealt-in hand (``thrown_into_hand``) or a whole live hand read in the muck
(``unprotected``) makes a hand dead, judged only while no remedy is moving cards and the monitor
is on. Pure: no I/O.
"""

from __future__ import annotations

from types import MappingProxyType

from controller.poker.records import replace
from controller.rules.findings import Finding, make_finding
from controller.rules.procedure.board import sync_board
from controller.rules.procedure.board_state import CardState
from controller.rules.procedure.game_hand import CardSeen, GameHand, run_or_keep


def kill(h: GameHand, seat: int) -> GameHand:
    """The dealer kills ``seat``'s hand where the action is (an absent tournament player's
    hand, RR Section 15 r.13; a hand the cut-off makes dead, RR Section 3 Dead Hands r.1(d))."""
    p = h.pos(seat)
    if p is None:
        return h
    return sync_board(run_or_keep(h, ("kill", p)))


def zone_of(h: GameHand, uid: str) -> str | None:
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


def _hands(h: GameHand) -> dict[int, list[CardState | CardSeen]]:
    """Every seat's hand as ``_hand_of`` has it (its cards, in the same order), in one pass
    over the hand's cards: ``unprotected`` looks at every seat before each card and action."""
    hands: dict[int, list[CardState | CardSeen]] = {}
    if h.deal is not None:
        gone = {*h.discarded, *(k[0] for k in h.deal.killed)}
        homes = {f"seat:{seat}": seat for seat in h.seats}
        for dealt in h.deal.cards.values():
            home = homes.get(dealt.home)
            if home is not None and dealt.uid not in gone and dealt.card is not None:
                hands.setdefault(home, []).append(dealt)
        return hands
    holes = h.eng.holes
    held = {seat: set(holes[p]) for p, seat in enumerate(h.seats)}
    for c in h.cards.values():
        seat = c.seat
        cards = held.get(seat) if seat is not None else None
        if seat is not None and cards is not None and c.fed and c.card in cards:
            hands.setdefault(seat, []).append(c)
    return hands


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


def thrown_into_hand(h: GameHand, uid: str, card: str | None, to: int, seq: int, out: list[Finding]
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
    # A seat none of whose cards lies in the muck keeps its hand: most seats before most cards
    # (the folded hands' cards are in the muck, and folded hands are passed over)
    mucked: set[int | None]
    if h.deal is not None:
        homes = {c.home for c in h.deal.cards.values() if c.zone == "muck"}
        mucked = {s for s in h.seats if f"seat:{s}" in homes}
    else:
        mucked = {c.seat for c in h.cards.values() if c.zone == "muck"}
    hands: dict[int, list[CardState | CardSeen]] | None = None
    folded = h.eng.folded
    for p, seat in enumerate(h.seats):
        if (folded[p] or seat not in mucked or seat in h.dead or seat in h.free_folds
                or seat == folding):
            continue
        if hands is None:
            hands = _hands(h)
        hand = hands.get(seat, ())
        gone = [c.name for c in hand if c.zone == "muck"]
        if gone and len(gone) == len(hand):  # the whole hand: one card mucked is a count error
            out.append(make_finding("UNPROTECTED_HAND_KILLED_OR_FOULED", seq, seats=[seat],
                                    cards=gone))
            h = _kill_for(h, seat, "UNPROTECTED_HAND_KILLED_OR_FOULED")
    return h, out
