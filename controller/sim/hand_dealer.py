"""One hand as the simulated dealer deals it: what every family shares.

``HandDealer`` is the base of the three family dealers (``board_hand``, ``stud_hand``,
``draw_hand``). It holds the hand's shoe (the game's deck as tag uids, shuffled; the top of the
shoe is the end of the list), the cards each seat holds on the felt, and the mistake the hand is
to make (``kind``, from ``mistakes.py``); it emits the hand's steps through the table dealer
(``dealer.SimDealer``), which applies each to its shadow table and makes the floor declare a
misdeal after a finding whose remedy it does not follow (``remedies.floor_stops``).

Shared here: the cards (off the shoe, moved on the felt, a folded hand to the muck), the betting
round (every action from ``players.choose`` on the hand engine), and the mistakes every family
can make after the deal: a mucked hand retrieved (RR Section 3, Dead Hands, r.2), a card shown
off the shoe after the hand (RR Section 2, Procedures, r.24), and the floor noticing a misdeal
after the misdeal cut-off (RR Section 3, Misdeals, r.1).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from controller.events import (
    Action,
    AttentionCalled,
    CardBoxed,
    CardExposed,
    DeckRegister,
    HandEnd,
    ShoeDraw,
)
from controller.poker.variants import JOKER, Variant
from controller.sim import players, table_view
from controller.sim.mistakes import KINDS, PLAY
from controller.sim.moves import CardMove, SimStep, new_uid
from controller.sim.table_port import SimTable
from controller.sim.table_view import Engine, GameHand


class HandDealer:
    """The dealing of one hand of ``v``; ``play()`` deals it to the end (or to the misdeal)."""

    def __init__(self, table: SimTable, v: Variant, kind: str | None,
                 order: Sequence[int], hand: Mapping[str, Any]) -> None:
        self.t = table
        self.hand = hand  # the snapshot's hand as it was dealt: button, blinds, posts
        self.v = v
        self.kind = kind
        self.rng: random.Random = table.rng
        self.order = list(order)  # the seats dealt in, in dealing order
        self.deck: list[str] = [table.uid_of[c] for c in v.deck_cards]
        self.rng.shuffle(self.deck)
        self.holes: dict[int, list[str]] = {s: [] for s in self.order}
        self.initial: set[str] = set()  # the cards of the initial deal
        self.drawn: dict[str, int] = {}  # uid -> its place in the order of cards off the shoe
        self.mucked: dict[int, list[str]] = {}  # seat -> its cards read in the muck, in order
        stage = KINDS[kind].stage if kind is not None else ""
        # A mistake on a later street needs a hand that gets there with its betting open.
        self.passive = stage == PLAY and kind != "mucked_hand_retrieved"
        self.keep = 0  # passive: fold facing a bet while more players than this are in
        self.retrieved = False
        self.folded_cards: list[str] = []  # the cards of the last hand folded
        self.astray_done = False  # cards_thrown / hand_killed_unprotected made

    # --- the shadow table ----------------------------------------------------------------------

    @property
    def g(self) -> GameHand:
        return table_view.current(self.t.state)

    @property
    def e(self) -> Engine:
        return self.g.eng

    def in_play(self) -> bool:
        return table_view.game(self.t.state) is not None

    def live(self) -> tuple[int, ...]:
        g = table_view.game(self.t.state)
        return g.live if g is not None else ()

    def emit(self, step: SimStep) -> None:
        self.t.emit(step)

    def record(self, kind: str, seats: Sequence[int], cards: Sequence[str],
               code: str | None = None) -> None:
        self.t.record(kind, seats, cards, code)

    def name(self, uid: str) -> str:
        return self.t.tags[uid]

    # --- cards ---------------------------------------------------------------------------------

    def draw(self) -> str:
        """The top card of the shoe."""
        return self.deck.pop()

    def shoe(self, zone: str, face_up: bool = False, uid: str | None = None) -> str:
        """The next card off the shoe (or ``uid``, already taken off it) to ``zone``."""
        if uid is None:
            uid = self.draw()
        self.drawn.setdefault(uid, len(self.drawn))
        if zone.startswith("seat:"):
            self.holes.setdefault(int(zone[5:]), []).append(uid)
        self.emit(CardMove(uid=uid, face_up=face_up, zone=zone, from_shoe=True))
        return uid

    def move(self, uid: str, from_zone: str, zone: str, face_up: bool = False) -> None:
        """A card moved on the felt."""
        if from_zone.startswith("seat:"):
            held = self.holes.get(int(from_zone[5:]), [])
            if uid in held:
                held.remove(uid)
        if zone.startswith("seat:"):
            self.holes.setdefault(int(zone[5:]), []).append(uid)
        if zone == "muck" and from_zone.startswith("seat:"):
            self.mucked.setdefault(int(from_zone[5:]), []).append(uid)
        self.emit(CardMove(uid=uid, face_up=face_up, zone=zone, from_shoe=False,
                           from_zone=from_zone))

    def deal_mistake(self, kind: str | None, uids: list[str], zones: list[str],
                     order: Sequence[int]) -> bool:
        """The initial-deal mistakes stud and draw share, made on the deal's ``uids`` (in the
        order they come off the shoe) and ``zones`` (where each lands); True when ``kind`` is
        one of them (a joker's place the caller draws: it deals the joker itself)."""
        rng = self.rng
        tags = self.t.tags
        n = len(order)
        total = len(uids)
        if kind == "first_card_wrong_seat":
            zones[0] = f"seat:{order[1]}"
            self.record(kind, [order[0], order[1]], [tags[uids[0]]])
        elif kind == "card_out_of_sequence":
            stop = rng.randrange(1, total - 1)
            due, landed = order[stop % n], order[(stop - 1) % n]
            zones[stop] = f"seat:{landed}"
            self.record(kind, [due, landed], [tags[uids[stop]]])
        elif kind == "seat_passed_over_dealt_next":
            stop = rng.randrange(1, total - 1)
            due, landed = order[stop % n], order[(stop + 1) % n]
            zones[stop], zones[stop + 1] = f"seat:{landed}", f"seat:{due}"
            self.record(kind, [due, landed], [tags[uids[stop]]])
        elif kind == "joker_dealt":
            # not a misdeal: "treated as a scrap of paper" (RR Section 3 Irregularities r.8):
            # out to the muck, and the card it hid goes where the joker went
            pass
        elif kind == "duplicate_card":
            q, stop = sorted(rng.sample(range(total), 2))
            twin = self.t.uid_of[tags[self.t.spare_uid]]
            if twin in uids:  # keep the twin where the duplicate can meet it
                uids[uids.index(twin)] = uids[q]
            elif twin in self.deck:
                self.deck[self.deck.index(twin)] = uids[q]
            uids[q], uids[stop] = twin, self.t.spare_uid
            self.record(kind, [order[q % n]], [tags[twin]])
        elif kind == "unknown_tag":
            p = rng.randrange(total)
            uids[p] = new_uid(rng, tags)
            self.record(kind, [], [])
        elif kind == "foreign_card":
            p = rng.randrange(total)
            uids[p] = self.foreign(uids[p])
        elif kind == "misdeal_noticed_late":
            # two cards of the first pass swapped; the floor notices once the action has passed
            # the misdeal cut-off (tests/scenarios/stud_misdeal_after_cutoff.jsonl)
            j = rng.randrange(n - 1)
            zones[j], zones[j + 1] = zones[j + 1], zones[j]
            self.t.late = (kind, (order[j], order[j + 1]), (tags[uids[j]],),
                           "MISDEAL_CARD_OUT_OF_SEQUENCE" if j else
                           "MISDEAL_FIRST_CARD_WRONG_POSITION")
        else:
            return False
        return True

    def foreign(self, uid: str) -> str:
        """A card of the table's idle deck (a different back) in place of ``uid``: the table
        learns of that deck now (an idle deck may be registered during a hand)."""
        other = new_uid(self.rng, self.t.tags)
        card = self.t.tags[uid]
        self.emit(DeckRegister(deck="sim-idle", tags={other: card}, idle=True))
        self.record("foreign_card", [], [card])
        return other

    def hands_astray(self) -> None:
        """Before the first betting action: a hole card thrown into another hand (then taken
        out into the muck), or a live hand swept into the muck by the dealer; the hand is dead
        and folds when the action reaches it (``act``)."""
        if self.astray_done or self.kind not in ("cards_thrown", "hand_killed_unprotected"):
            return
        self.astray_done = True
        g = self.g
        actor = g.seats[g.eng.actor] if g.eng.actor is not None else None
        seats = [s for s in g.live if self.holes.get(s) and s != actor]
        if len(seats) < 2:
            return
        seat, other = seats[0], seats[1]
        if self.kind == "cards_thrown":
            uid = self.holes[seat][0]
            self.record(self.kind, [seat, other], [self.name(uid)])
            self.move(uid, f"seat:{seat}", f"seat:{other}")
            self.move(uid, f"seat:{other}", "muck")  # the dealer takes it out of that hand
        else:
            self.record(self.kind, [seat], [self.name(u) for u in self.holes[seat]])
            self.muck_hand(seat)

    def muck_hand(self, seat: int) -> None:
        for uid in list(self.holes.get(seat, [])):
            self.move(uid, f"seat:{seat}", "muck")

    def expose_key(self, uid: str) -> None:
        """The dealer's exposed-card key on a card that went face down (docs/events.md: the
        ``card.exposed`` key is the dealer's evidence, the shoe's face-up flag the shoe's)."""
        self.emit(CardExposed(uid=uid, by="dealer"))

    def boxed(self, zone: str, dealt: bool = False) -> None:
        """A card found face up as it leaves the shoe: the boxed key, then it goes aside (RR
        Section 3, Irregularities, r.7); ``dealt``: the dealer deals it anyway (the remedy
        botched), then sets it aside."""
        uid = self.draw()
        self.record(self.kind or "", [], [self.name(uid)], "BOXED_CARD_SINGLE")
        self.emit(ShoeDraw(uid=uid, face_up=False))
        self.emit(CardBoxed(uid=uid))
        if dealt:
            self.record(self.kind or "", [], [self.name(uid)])
            self.emit(CardMove(uid, False, zone, False))
        self.emit(CardMove(uid, False, "aside", False))

    def joker(self, zone: str, seats: Sequence[int]) -> None:
        """The joker off the shoe in a game without it, toward ``zone``: a scrap of paper (RR
        Section 3, Irregularities, r.8), out to the muck; the next card goes where it went."""
        uid = self.t.joker_uid
        self.record(self.kind or "", seats, [JOKER])
        self.emit(CardMove(uid=uid, face_up=False, zone=zone, from_shoe=True))
        self.emit(CardMove(uid=uid, face_up=False, zone="muck", from_shoe=False,
                           from_zone=zone))

    # --- betting -------------------------------------------------------------------------------

    def act(self) -> Action:
        """One action of the player to act, as the players choose it."""
        self.hands_astray()
        g = self.g
        e = g.eng
        p = e.actor
        assert p is not None
        seat = g.seats[p]
        chips = self.t.chips
        if seat in g.dead:
            action = Action(seat=seat, kind="fold")  # a fouled hand is dead: it folds
        elif chips is not None and (planned := chips.before_action()) is not None:
            action = planned  # a chip mistake decided it (a seat bet out of turn: a check)
        else:
            action = players.choose(e, p, seat, self.v, self.rng, passive=self.passive,
                                    keep=self.keep)
        self.emit(action)
        if action.kind == "fold":
            self.folded(seat)
        return action

    def folded(self, seat: int) -> None:
        """A folded hand goes to the muck; the dealer's retrieval mistake reads it back."""
        self.folded_cards = list(self.holes.get(seat, []))
        self.muck_hand(seat)
        if self.kind == "mucked_hand_retrieved" and not self.retrieved and self.folded_cards:
            self.retrieve(seat)

    def retrieve(self, seat: int) -> None:
        """A folded hand's card read back in its seat (RR Section 3, Dead Hands, r.2: the floor
        rules on it), then put back in the muck."""
        self.retrieved = True
        mucked = self.mucked[seat]
        # the muck log names the hand (board games: the cards of its starting hand), in the order
        # they came off the shoe
        cards = sorted((u for u in mucked if u in self.initial or not self.v.board_cards),
                       key=lambda u: self.drawn.get(u, 0))
        uid = self.folded_cards[0]
        self.record("mucked_hand_retrieved", [seat], [self.name(u) for u in cards])
        self.move(uid, "muck", f"seat:{seat}")
        self.move(uid, f"seat:{seat}", "muck")
        self.mucked[seat].remove(uid)

    def betting_round(self) -> int:
        """The betting round open now, to its end; the actions taken. ``after_action`` is called
        after each one (a premature street, a held card, the floor noticing an error)."""
        e = self.e
        street = e.street
        acted = 0
        while self.in_play():
            e = self.e
            if e.actor is None or e.street != street or e.is_over:
                break
            self.act()
            acted += 1
            self.after_action(acted)
        return acted

    def after_action(self, acted: int) -> None:
        """A family's hook after each betting action."""
        self.notice_late()

    # --- the floor noticing an error late ------------------------------------------------------

    def notice_late(self, anyway: bool = False) -> None:
        """A misdeal the floor notices only once the action has passed the misdeal cut-off (the
        table's alert is not the attention call): attention is called now, and the monitor
        rules the deal played (MISDEAL_LOCKOUT) or the short hand dead
        (HAND_WRONG_CARD_COUNT_DEAD). ``anyway``: the betting round ended first; the error is
        noticed before the cut-off and the misdeal stands."""
        late = self.t.late
        if late is None or not self.in_play():
            return
        past = table_view.past_cutoff(self.t.state)
        if not past and not anyway:
            return
        kind, seats, cards, misdeal_code = late
        self.t.late = None
        code = KINDS[kind].code if past else misdeal_code
        self.record(kind, seats, cards, code)
        dead = list(self.live())
        self.emit(AttentionCalled(by="dealer"))
        if self.in_play():
            for seat in seats:
                if seat in dead and seat not in self.live():
                    self.muck_hand(seat)  # the dead hand is killed

    # --- the end -------------------------------------------------------------------------------

    def finish(self) -> None:
        """The award-pots key; then the mistake of a card shown off the shoe after the hand."""
        self.notice_late(anyway=True)
        g = table_view.game(self.t.state)
        if g is not None:
            for seat in g.dead:
                if seat in g.live and self.holes.get(seat):
                    # a fouled hand never to act again is killed before the pot is awarded
                    self.muck_hand(seat)
        self.emit(HandEnd())
        if self.kind == "draw_after_hand_end" and self.deck:
            uid = self.deck.pop()
            # the dealer shows the card that would have come next (rabbit hunting)
            self.emit(ShoeDraw(uid=uid, face_up=True))
            self.record("draw_after_hand_end", [], [self.name(uid)])

    def play(self) -> None:  # pragma: no cover - every family dealer has its own
        raise NotImplementedError
