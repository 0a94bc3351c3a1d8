"""A hand of a draw game as the simulated dealer deals it: five-card draw (high, jacks or better,
with the joker), ace-to-five and deuce-to-seven lowball, 2-7 triple draw, badugi, from the
``Variant`` data, mistakes included.

The procedure (roberts-rules-v11.txt, Sections 11 and 12; WSOP Section 12 Badugi;
research/irregularities.md §1.N DRAW_DEAL_BASELINE): the blinds (or an ante per player), the
deal one card at a time left of the button first and the button last (five passes, badugi
four), face down, no burn; after each betting round a draw round: each player in turn asks
(``action draw amount=k``), the k discards reach the muck, then k cards come off the shoe, the
round's first card off the shoe being the burn. A player drawing five gets four at once and the
fifth after everyone else; the last player to draw gets four, a burn, then the fifth (RR Section
11 Lowball r.10). The draws take what the stub holds: a player draws fewer cards rather than the
deck running out.

Mistakes and remedies: a card exposed on the deal is taken or replaced once the deal is complete
by the game's rule (``remedies.exposed_predraw_taken``); a card exposed on the draw goes to the
muck and is replaced after the others have drawn (RR Section 11 r.9); a fifth consecutive card;
the button's last card held back until after the first action (RR Section 12 r.5); a card too
many on the draw fouls the hand, which folds at its next turn or is killed before the award (RR
Section 11 r.12); a missing burn on the draw is corrected (RR Section 3 Irregularities r.16).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.events import Action
from controller.poker.variants import JOKER, Variant
from controller.sim.hand_dealer import HandDealer
from controller.sim.remedies import exposed_predraw_taken
from controller.sim.table_port import SimTable

# Cards kept back from the draws: the round's burn, a burn before a last player's fifth card,
# one for a card shown after the hand (DRAW_AFTER_HAND_END), two for a mistake's extra card.
DRAW_RESERVE = 5
ON_DRAW_KINDS = ("draw_exposed_on_draw", "draw_exposed_on_draw_key", "draw_five_consecutive",
                 "draw_wrong_count", "draw_burn_missing")
FIRST_TWO_KINDS = ("draw_first_card_exposed", "draw_first_card_exposed_key")
PREDRAW_KINDS = ("draw_predraw_exposed", "draw_predraw_exposed_key")


class DrawHand(HandDealer):
    """One draw-game hand."""

    def __init__(self, table: SimTable, v: Variant, kind: str | None,
                 order: Sequence[int], hand: Mapping[str, Any]) -> None:
        super().__init__(table, v, kind, order, hand)
        self.mistake_street = -1  # the draw (street index) of a mistake on the draw
        self.held: str | None = None  # the button's last card, held back until an action
        self.draw_burned = False  # the first draw's burn already made by a remedy
        if kind in ON_DRAW_KINDS:
            self.mistake_street = self.rng.randrange(1, len(v.streets))

    def play(self) -> None:
        self.deal_initial()
        for _ in range(200):  # bounded: a hand the table cannot go on with ends
            if not self.in_play():
                break
            e = self.e
            if e.is_over:
                break
            if e.discarder is not None:
                self.draw_round()
            elif e.actor is not None:
                self.betting_round()
            else:
                break  # the showdown (or a deal nobody opened)
        self.finish()

    # --- the deal ------------------------------------------------------------------------------

    def deal_initial(self) -> None:
        """The deal: one card at a time in dealing order, the button last."""
        rng = self.rng
        order = self.order
        tags = self.t.tags
        kind = self.kind
        n = len(order)
        total = len(self.v.streets[0].hole) * n
        uids = [self.draw() for _ in range(total)]
        zones = [f"seat:{order[i % n]}" for i in range(total)]
        face = [False] * total
        keyed = -1
        joker_at = -1
        replace_at = -1  # an exposed card replaced once the deal is complete
        hold = -1  # the button's last card, held back until the first action
        boxed = rng.randrange(total) if kind == "boxed_card" else -1
        if self.deal_mistake(kind, uids, zones, order):
            joker_at = rng.randrange(total) if kind == "joker_dealt" else -1
        elif kind in FIRST_TWO_KINDS:
            p = rng.randrange(2)
            if kind == "draw_first_card_exposed_key":
                keyed = p
            else:
                face[p] = True
            self.record(kind, [order[p]], [tags[uids[p]]])
        elif kind in PREDRAW_KINDS:
            cand = [i for i in range(2, total) if tags.get(uids[i]) != JOKER]
            i = rng.choice(cand)
            if kind == "draw_predraw_exposed_key":
                keyed = i
            else:
                face[i] = True
            card = tags[uids[i]]
            self.record(kind, [order[i % n]], [card])
            if not exposed_predraw_taken(self.v.id, card):
                replace_at = i
        elif kind == "draw_button_short":
            hold = total - 1  # the button is dealt last
            self.record(kind, [order[-1]], [])
        for i in range(total):
            if i == hold:
                self.held = uids[i]
                continue
            if i == boxed:
                self.boxed(zones[i])
            if i == joker_at:
                self.joker(zones[i], [order[i % n]])
            uid = self.shoe(zones[i], face[i], uid=uids[i])
            self.initial.add(uid)
            if i == keyed:
                self.expose_key(uid)
        if replace_at >= 0:
            # replaced once the deal is complete, then the exposed card is used as the burn
            # card (RR Section 11 Ace-to-Five r.3)
            seat = order[replace_at % n]
            self.shoe(f"seat:{seat}")
            self.move(uids[replace_at], f"seat:{seat}", "burn", face_up=True)
            self.draw_burned = True  # the first draw's burn: none more before it
        if self.held is not None:
            self.first_action_short()

    def first_action_short(self) -> None:
        """The button is a card short when the first player acts: the first action (a call of
        the blinds or a check), then "The button may receive the fifth card even if action has
        taken place" (RR Section 12 r.5). The engine has no actor until the table gives the
        short hand its placeholders, so the first to act is the plan's: left of the big blind
        (or of the button in an ante game)."""
        order = self.order
        bb = self.hand.get("big_blind")
        blinds = any(p["kind"] == "big_blind" for p in self.hand.get("posts", ()))
        first = order[(order.index(bb) + 1) % len(order)] if blinds and bb in order else order[0]
        self.emit(Action(seat=first, kind="call" if blinds else "check"))
        held, self.held = self.held, None
        assert held is not None
        self.shoe(f"seat:{order[-1]}", uid=held)

    # --- the draw ------------------------------------------------------------------------------

    def draw_round(self) -> None:
        """One draw, each player in turn: the request, the discards to the muck, the cards
        (RR Section 11 r.9-10; JPN Five Card Draw step 3)."""
        g = self.g
        e = g.eng
        rng = self.rng
        st = e.street
        kind = self.kind if st == self.mistake_street else None
        queue = [p for p in range(e.n) if not e.folded[p]]  # from left of the button
        most = self.v.max_draw
        want: dict[int, int] = {}
        target: int | None = None
        if kind is not None:
            able = [p for p in queue if e.stacks[p] > 0] or queue
            if kind == "draw_five_consecutive":
                target = rng.choice(queue[:-1])
                want[target] = 5
            elif kind == "draw_wrong_count":
                target = rng.choice(able)
                want[target] = rng.randint(1, 3)
            elif kind in ("draw_exposed_on_draw", "draw_exposed_on_draw_key"):
                target = rng.choice(queue)
                want[target] = rng.randint(1, min(4, most))
            elif kind == "draw_burn_missing":
                target = rng.choice(queue)
                want[target] = rng.randint(1, min(3, most))
        budget = len(self.deck) - DRAW_RESERVE - sum(want.values())
        if budget < 0:
            want, target, kind = {}, None, None  # no room left in the deck: no mistake now
            budget = max(0, len(self.deck) - DRAW_RESERVE)
        five_taken = kind is not None
        for p in queue:
            if p in want:
                continue
            if self.passive:
                k = rng.randint(0, 1)
            else:
                k = rng.choice((0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5))
            k = min(k, most, budget, 4 if five_taken else 5)
            five_taken = five_taken or k == 5  # one five-card draw a round (RR r.10 ordering)
            budget -= k
            want[p] = k
        # the first draw's burn may already be down: the exposed card of the deal (RR Section
        # 11 Ace-to-Five r.3 "This first exposed card is used as the burncard")
        burned, self.draw_burned = self.draw_burned, False
        deferred: list[int] = []  # seats owed a card after everyone else has drawn
        for p in queue:
            if not self.in_play():
                return
            seat = g.seats[p]
            k = want[p]
            if seat in self.g.dead:
                k = 0  # a fouled hand draws no more
            discards = rng.sample(self.holes[seat], k)
            self.emit(Action(seat=seat, kind="draw", amount=k))
            for uid in discards:
                self.move(uid, f"seat:{seat}", "muck")
            if k == 0:
                continue
            now = k
            if k == 5 and not (kind == "draw_five_consecutive" and p == target):
                now = 4  # "four are dealt right away" (RR Section 11 Lowball r.10)
            extra = 1 if kind == "draw_wrong_count" and p == target else 0
            for i in range(now + extra):
                if not burned:
                    burned = True
                    if kind == "draw_burn_missing":
                        uid = self.shoe(f"seat:{seat}")
                        self.record("draw_burn_missing", [seat], [self.name(uid)])
                        # the card is the burn (RR Section 3 Irregularities r.16)
                        self.move(uid, f"seat:{seat}", "burn")
                    else:
                        self.shoe("burn")
                exposed = (kind in ("draw_exposed_on_draw", "draw_exposed_on_draw_key")
                           and p == target and i == k - 1)
                keyed = exposed and kind == "draw_exposed_on_draw_key"
                uid = self.shoe(f"seat:{seat}", face_up=exposed and not keyed)
                if keyed:
                    self.expose_key(uid)
                if exposed:
                    self.record(kind or "", [seat], [self.name(uid)])
                    # "an exposed card cannot be taken. The draw is completed to each player in
                    # order, and then the exposed card is replaced" (RR Section 11 r.9)
                    self.move(uid, f"seat:{seat}", "muck", face_up=True)
                    deferred.append(seat)
                elif i >= k:
                    # one card too many: a fouled hand (RR Section 11 r.12); it folds at its
                    # next turn, or is killed before the pot is awarded
                    self.record("draw_wrong_count", [seat], [self.name(uid)])
                elif kind == "draw_five_consecutive" and p == target and i == 4:
                    self.record("draw_five_consecutive", [seat], [self.name(uid)])
            if now < k:
                if p == queue[-1]:
                    # "If the last player wishes to draw five new cards, four are dealt right
                    # away, and a card is burned before the player receives a fifth card."
                    self.shoe("burn")
                    self.shoe(f"seat:{seat}")
                else:
                    deferred.insert(0, seat)
        for seat in deferred:
            if self.in_play():
                self.shoe(f"seat:{seat}")
