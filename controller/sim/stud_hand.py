"""A hand of a stud game as the simulated dealer deals it: seven-card stud, razz, stud/8, from
the ``Variant`` data, mistakes included.

The procedure (roberts-rules-v11.txt, Section 8 intro and r.2; research/irregularities.md §1.M
STUD_DEAL_BASELINE): no button; an ante per seat; third street as three passes in seat order
(down, down, up; no burn); the bring-in by the low card (razz: the high card), which the hand
engine names; then for fourth to seventh street a burn and one card to each player still in,
face up on fourth to sixth, face down on seventh, each once the betting before it is over.

Mistakes and remedies (Section 8 r.1, r.5, r.13, r.14, r.17): a down card dealt face up makes the
third card come face down (both down cards up: the hand is dead and its ante goes back); the
bring-in by the wrong seat is taken back and the real low card brings it in; no burn or an extra
burn is corrected to the proper positions; a premature street's card is set aside, and once the
round is over one more card per player still in; the last card face up is kept (heads-up, when it
is the first, the other last card comes face up too).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.events import Action
from controller.poker.variants import Variant
from controller.sim import table_view
from controller.sim.hand_dealer import HandDealer
from controller.sim.remedies import stud_rest_up
from controller.sim.table_port import SimTable

# the last card turned up: by the shoe (dealt face up) or by the dealer's exposed key
FINAL_UP_KINDS = ("stud_final_card_faceup", "stud_final_card_exposed_key")
EXPOSED_KINDS = ("stud_downcard_exposed", "stud_downcard_exposed_key",
                 "stud_exposed_remedy_ignored", "stud_both_downcards_exposed")


class StudHand(HandDealer):
    """One stud hand."""

    def __init__(self, table: SimTable, v: Variant, kind: str | None,
                 order: Sequence[int], hand: Mapping[str, Any]) -> None:
        super().__init__(table, v, kind, order, hand)
        self.mistake_street = -1  # the street (engine index) of a mistake after the deal
        self.dead: int | None = None  # the seat whose hand is dead (both down cards up)
        self.aside_due = False  # the premature remedy's set-aside cards are still due
        self.round_street = -1  # the street of the betting round being played
        rng = self.rng
        if kind == "stud_both_downcards_exposed":
            self.dead = rng.choice(self.order)
        if kind in ("stud_premature_street", *FINAL_UP_KINDS):
            # fewer players, so that the set-aside cards fit in the deck (no common card)
            self.keep = rng.choice((2, 3, 4) if kind == "stud_premature_street" else (2, 3))
            self.mistake_street = rng.choice((1, 2, 3)) if kind == "stud_premature_street" else 4
        elif kind in ("stud_burn_missing", "stud_burn_extra"):
            self.mistake_street = rng.randrange(1, 5)

    def play(self) -> None:
        self.deal_initial()
        for _ in range(200):  # bounded: a hand the table cannot go on with ends
            if not self.in_play():
                break
            g = self.g
            if g.eng.is_over:
                break
            if table_view.due_cards(g):
                self.deal_street()
            elif g.eng.actor is not None:
                self.betting_round()
            else:
                break  # the showdown
        self.finish()

    # --- third street --------------------------------------------------------------------------

    def deal_initial(self) -> None:
        """Third street: one card at a time in seat order (RR Section 8 intro)."""
        rng = self.rng
        order = self.order
        tags = self.t.tags
        kind = self.kind
        n = len(order)
        flags = self.v.streets[0].hole
        total = len(flags) * n
        uids = [self.draw() for _ in range(total)]
        zones = [f"seat:{order[i % n]}" for i in range(total)]
        face = [flags[i // n] for i in range(total)]
        keyed = -1
        joker_at = -1
        boxed = rng.randrange(total) if kind == "boxed_card" else -1
        if self.deal_mistake(kind, uids, zones, order):
            joker_at = rng.randrange(total) if kind == "joker_dealt" else -1
        elif kind in EXPOSED_KINDS:
            j = order.index(self.dead) if self.dead is not None else rng.randrange(n)
            seat = order[j]
            downs = [j, n + j] if self.dead is not None else [rng.choice((j, n + j))]
            for k, i in enumerate(downs):
                if kind == "stud_downcard_exposed_key":
                    keyed = i
                else:
                    face[i] = True
                if k == 0:
                    self.record(kind, [seat], [tags[uids[i]]], code="STUD_ONE_HOLECARD_EXPOSED")
                else:
                    self.record(kind, [seat], [tags[uids[d]] for d in downs])
            if kind == "stud_exposed_remedy_ignored":
                self.record(kind, [seat], [tags[uids[2 * n + j]]])
            elif self.dead is not None:
                # a dead hand gets no more cards: the third pass skips it and the next card
                # goes to the next seat (the card it would have had goes back on the stub)
                del zones[2 * n + j], face[2 * n + j]
                self.deck.append(uids.pop())
                total -= 1
            else:
                # "your third card will be dealt down" (RR Section 8 r.1)
                face[2 * n + j] = False
        for i in range(total):
            if i == boxed:
                self.boxed(zones[i])
            if i == joker_at:
                self.joker(zones[i], [order[i % n]])
            uid = self.shoe(zones[i], face[i], uid=uids[i])
            self.initial.add(uid)
            if i == keyed:
                self.expose_key(uid)
        if self.dead is not None:
            # a dead hand: its cards go to the muck, no more cards to it (RR Section 8 r.1)
            self.muck_hand(self.dead)

    # --- fourth to seventh street --------------------------------------------------------------

    def deal_street(self) -> None:
        """A burn, then a card to each player in, in seat order (RR Section 8 intro)."""
        g = self.g
        e = g.eng
        st = e.street
        face = self.v.streets[st].hole[0]
        due = table_view.due_cards(g)
        kind = self.kind if st == self.mistake_street else None
        if self.aside_due:
            # "an additional card for each remaining player still active in the hand is also
            # eliminated from play" (RR Section 8 r.14)
            self.aside_due = False
            for _ in due:
                self.shoe("aside")
        faces = dict.fromkeys(due, face)
        keyed = None
        if kind in FINAL_UP_KINDS:
            able = [s for s in due if e.stacks[g.seats.index(s)] > 0]
            if able:
                target = self.rng.choice(able)
                if stud_rest_up(len(due), target == due[0]):
                    for s in due:
                        faces[s] = True
                if kind == "stud_final_card_exposed_key":
                    faces[target], keyed = False, target  # dealt down, then turned up
                else:
                    faces[target] = True
                self.record(kind, [target], [self.name(self.deck[-2 - due.index(target)])])
        if kind == "stud_burn_missing":
            first = due[0]
            uid = self.shoe(f"seat:{first}", faces[first])
            self.record(kind, [first], [self.name(uid)])
            # corrected to its proper position: it is the burn (RR Section 8 r.13)
            self.move(uid, f"seat:{first}", "burn")
        elif kind == "stud_burn_extra":
            self.shoe("burn")
            uid = self.shoe("burn")
            first = due[0]
            self.record(kind, [first], [self.name(uid)])
            self.move(uid, "burn", f"seat:{first}", faces[first])
            due = due[1:]
        else:
            self.shoe("burn")
        for seat in due:
            uid = self.shoe(f"seat:{seat}", faces[seat])
            if seat == keyed:
                self.expose_key(uid)

    # --- betting -------------------------------------------------------------------------------

    def betting_round(self) -> int:
        g = self.g
        e = g.eng
        if (e.street == 0 and self.kind == "stud_wrong_bring_in" and e.actor is not None
                and e.can_post_bring_in(e.actor)):
            low = g.seats[e.actor]
            others = [s for i, s in enumerate(g.seats) if s != low and e.stacks[i] > 0]
            if others:
                wrong = self.rng.choice(others)
                self.emit(Action(seat=wrong, kind="post", amount=g.stakes.bring_in,
                                 blind="bring_in"))
                door = self.holes[low][-1]  # the real low card's upcard
                self.record("stud_wrong_bring_in", [wrong, low], [self.name(door)])
                # "the action will be corrected to the real lowcard, who now must bet. The
                # incorrect lowcard takes back the wager" (RR Section 8 r.5)
        self.round_street = e.street
        return super().betting_round()

    def after_action(self, acted: int) -> None:
        super().after_action(acted)
        if (acted == 1 and self.kind == "stud_premature_street" and self.in_play()
                and self.round_street == self.mistake_street):
            e = self.e
            if e.actor is not None and e.street == self.round_street:
                self.premature()

    def premature(self) -> None:
        """The burn and the next street's first card dealt with the betting round still open
        (RR Section 8 r.14): the premature card goes aside, the round is finished, then one card
        per player still in goes aside, then the street is dealt."""
        g = self.g
        e = g.eng
        live = [s for i, s in enumerate(g.seats) if not e.folded[i]]
        streets = len(self.v.streets) - 1 - e.street  # streets still to deal
        if len(self.deck) < 2 + len(live) + streets * (1 + len(live)):
            return  # the stub could not take it: no mistake this hand
        nxt = self.v.streets[e.street + 1].hole[0]
        burn = self.shoe("burn")
        self.record("stud_premature_street", [], [self.name(burn)])
        first = live[0]
        uid = self.shoe(f"seat:{first}", nxt)
        self.move(uid, f"seat:{first}", "aside", nxt)
        self.aside_due = True
