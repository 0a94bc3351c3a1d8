"""A hand of a board game as the simulated dealer deals it: hold'em, Omaha, five-card Omaha, the
Pineapples and short deck, from the ``Variant`` data, mistakes included.

The procedure (roberts-rules-v11.txt, Section 4 intro and Section 5; docs/findings.md): the
forced posts, the hole cards one at a time from the first seat left of the button, as many
passes as the game deals (two, Omaha four, five-card Omaha five, the Pineapples three), no burn;
a Pineapple discard where the game has it (in turn, to the muck: before the preflop betting,
before the turn, or after the river betting); the preflop betting; then burn and three cards,
burn and one, burn and one, each after the betting round before it.

The board mistakes (``mistakes.py``) and their remedies (RR Section 5 Holdem r.1-8, Section 3
Irregularities r.11, r.16): an exposed hole card is replaced after the deal and becomes the flop
burn; a single extra card goes back and is the flop burn; a missing or extra burn is put right
with the proper burn and board cards; a four-card flop and a premature flop or river go back
into the stub, which is reshuffled, and are dealt again without a burn; a premature turn card is
set aside, the would-be river is the turn, and the set-aside card is reshuffled in for the
river. Some kinds botch the remedy, some make two independent mistakes in one hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.events import ShuffleDone, ZoneLeave
from controller.poker.variants import Variant
from controller.sim.hand_dealer import HandDealer
from controller.sim.moves import CardMove, new_uid
from controller.sim.table_port import SimTable

STREETS = ("flop", "turn", "river")
COUNT = {"flop": 3, "turn": 1, "river": 1}
# The premature street a kind deals, and the code it raises.
PREMATURE_STREET = {"premature_flop": "flop", "premature_turn": "turn",
                    "premature_river": "river", "premature_flop_burned_again": "flop",
                    "premature_turn_river_burned": "turn",
                    "exposed_card_then_premature_turn": "turn"}
PREMATURE_CODE = {"flop": "FLOP_PREMATURE", "turn": "TURN_PREMATURE", "river": "RIVER_PREMATURE"}
# The burn errors a kind makes: street -> "missing" | "extra" | "four" | "not_fixed".
STREET_ERRORS: dict[str, dict[str, str]] = {
    "missing_burn_flop": {"flop": "missing"}, "extra_burn_flop": {"flop": "extra"},
    "missing_burn_turn": {"turn": "missing"}, "extra_burn_turn": {"turn": "extra"},
    "missing_burn_river": {"river": "missing"}, "extra_burn_river": {"river": "extra"},
    "four_card_flop": {"flop": "four"}, "missing_burn_flop_not_fixed": {"flop": "not_fixed"},
    "missing_burn_flop_then_extra_burn_river": {"flop": "missing", "river": "extra"},
}
# A redealt street (after a premature one) where the dealer burns although the remedy says not.
BURNS_ON_REDEAL = {"premature_flop_burned_again": "flop", "premature_turn_river_burned": "river"}
EXPOSED_KINDS = ("hole_card_face_up", "hole_card_exposed_key", "exposed_card_not_replaced",
                 "exposed_card_then_premature_turn")
FIRST_TWO_KINDS = ("first_or_second_face_up", "first_or_second_exposed_key",
                   "misdeal_noticed_late")


class BoardHand(HandDealer):
    """One board-game hand."""

    def __init__(self, table: SimTable, v: Variant, kind: str | None,
                 order: Sequence[int], hand: Mapping[str, Any]) -> None:
        super().__init__(table, v, kind, order, hand)
        self.redo: dict[str, list[str]] = {}  # street redealt after a reshuffle -> cards aside
        self.burn_from_hand = False  # the exposed hole card is the flop burn
        self.extra: tuple[str, str] | None = None  # a single extra card: the flop burn
        self.returned: set[str] = set()  # cards a remedy put back into the stub this hand
        # exposed_card_not_replaced: the exposed card and its seat, until the botch shows
        self.unreplaced: tuple[str, int] | None = None

    def play(self) -> None:
        self.deal_holes()
        self.discards()
        premature = PREMATURE_STREET.get(self.kind or "")
        self.betting("flop" if premature == "flop" else None)
        for i, street in enumerate(STREETS):
            if len(self.live()) < 2:
                break  # won by folds: no more cards
            self.discards()
            self.deal_street(street)
            nxt = STREETS[i + 1] if i + 1 < len(STREETS) else None
            self.betting(nxt if premature == nxt else None)
        if len(self.live()) >= 2:
            self.discards()
        self.finish()

    # --- the deal ------------------------------------------------------------------------------

    def deal_holes(self) -> None:
        order = self.order
        n = len(order)
        kind = self.kind
        tags = self.t.tags
        total = len(self.v.streets[0].hole) * n
        uids = [self.draw() for _ in range(total)]
        zones = [f"seat:{order[i % n]}" for i in range(total)]
        face = [False] * total
        keyed = -1  # the dealer's exposed key after this card
        joker_at = -1  # the joker comes off the shoe in front of this card
        if kind == "duplicate_card":
            q, p = sorted(self.rng.sample(range(total), 2))
            twin = self.t.uid_of[tags[self.t.spare_uid]]
            if twin in uids:  # keep the twin where the duplicate can meet it
                uids[uids.index(twin)] = uids[q]
            elif twin in self.deck:
                self.deck[self.deck.index(twin)] = uids[q]
            uids[q], uids[p] = twin, self.t.spare_uid
            self.record(kind, [order[q % n]], [tags[twin]])
        elif kind == "unknown_tag":
            p = self.rng.randrange(total)
            uids[p] = new_uid(self.rng, tags)
            self.record(kind, [], [])
        elif kind == "foreign_card":
            p = self.rng.randrange(total)
            uids[p] = self.foreign(uids[p])
        elif kind == "joker_dealt":
            joker_at = self.rng.randrange(total)
        elif kind in FIRST_TWO_KINDS:
            p = self.rng.randrange(2)
            if kind == "first_or_second_exposed_key":
                keyed = p
            else:
                face[p] = True
            if kind == "misdeal_noticed_late":
                # the floor notices it once the action has passed the misdeal cut-off
                self.t.late = (kind, (order[p],), (tags[uids[p]],),
                               "MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED")
            else:
                self.record(kind, [order[p]], [tags[uids[p]]])
        elif kind in ("card_out_of_sequence", "seat_one_card_short"):
            p = self.rng.randrange(1, total - 1)
            due = order[p % n]
            if kind == "seat_one_card_short":
                landed: int | None = order[(p + 1) % n]  # the due seat is skipped
            else:
                landed = order[(p - 1) % n] if n >= 3 else None
            zones[p] = f"seat:{landed}" if landed is not None else "burn"
            seats = [due] if kind == "seat_one_card_short" or landed is None else [due, landed]
            self.record(kind, seats, [tags[uids[p]]])
        elif kind == "seat_passed_over_dealt_next":
            p = self.rng.randrange(1, total - 1)
            due, landed = order[p % n], order[(p + 1) % n]
            zones[p], zones[p + 1] = f"seat:{landed}", f"seat:{due}"
            self.record(kind, [due, landed], [tags[uids[p]]])
        elif kind == "first_card_wrong_seat":
            zones[0] = f"seat:{order[1]}"
            self.record(kind, [order[0], order[1]], [tags[uids[0]]])
        elif kind == "seat_skipped_noticed_late":
            # On the last pass a seat is skipped: every later card goes one seat on and the deal
            # ends a card short (tests/scenarios/cutoff_rr_after.jsonl).
            j = self.rng.randrange(n - 1)
            p = (total // n - 1) * n + j
            for i in range(p, total - 1):
                zones[i] = f"seat:{order[(i + 1) % n]}"
            self.deck.append(uids.pop())
            zones.pop()
            face.pop()
            total -= 1
            self.t.late = (kind, (order[j],), (tags[uids[p]],), "MISDEAL_INCORRECT_CARD_COUNT")
        exposed = -1
        if kind in EXPOSED_KINDS:
            exposed = self.rng.randrange(2, total)  # not the first or second card: no misdeal
            if kind == "hole_card_exposed_key":
                keyed = exposed
            else:
                face[exposed] = True
            self.record(kind or "", [order[exposed % n]], [tags[uids[exposed]]],
                        "HOLECARD_EXPOSED_SINGLE_REPLACE")
        boxed = self.rng.randrange(total) if kind in ("boxed_card", "boxed_card_dealt") else -1
        for i, (uid, zone, up) in enumerate(zip(uids, zones, face, strict=True)):
            if i == boxed:
                self.boxed(zone, dealt=kind == "boxed_card_dealt")
            if i == joker_at:
                self.joker(zone, [int(zone[5:])] if zone.startswith("seat:") else [])
            self.shoe(zone, up, uid=uid)
            self.initial.add(uid)
            if i == keyed:
                self.expose_key(uid)
        if exposed >= 0:
            self.replace_exposed(uids[exposed], zones[exposed])
        if kind in ("one_extra_card", "two_extra_cards", "extra_card_not_burned"):
            self.extra_cards(order)

    def extra_cards(self, order: Sequence[int]) -> None:
        kind = self.kind or ""
        extra = 2 if kind == "two_extra_cards" else 1
        got = [self.draw() for _ in range(extra)]
        self.record(kind, order[:extra], [self.name(u) for u in got],
                    "EXTRA_CARD_SINGLE_BECOMES_BURN" if extra == 1 else None)
        for i, uid in enumerate(got):
            self.shoe(f"seat:{order[i]}", uid=uid)
        if extra == 1:
            # It is the flop burn (RR Section 3, Irregularities, r.11): the dealer moves it there
            # at the flop (not through the shoe: a live reader could take a quick second read
            # for the first); the dealer who botches it sets it aside.
            uid = got[0]
            self.holes[order[0]].remove(uid)
            if kind == "extra_card_not_burned":
                self.emit_move(uid, f"seat:{order[0]}", "aside")
            else:
                self.extra = (uid, f"seat:{order[0]}")

    def emit_move(self, uid: str, from_zone: str, zone: str) -> None:
        """A felt move of a card no longer counted in any seat's hand."""
        self.emit(CardMove(uid, False, zone, False, from_zone))

    def replace_exposed(self, uid: str, zone: str) -> None:
        """RR Section 5, Holdem, r.1: after the deal the seat gets the top card and the exposed
        card is the burncard (the flop then comes without another burn)."""
        if self.kind == "exposed_card_not_replaced":
            # the botch: no replacement; it shows when the flop burn comes off the shoe, or
            # when the exposed card goes to the muck with a folded hand (not to the burn)
            self.unreplaced = (uid, int(zone[5:]))
            return
        self.shoe(zone)
        self.move(uid, zone, "burn")
        self.burn_from_hand = True

    def discards(self) -> None:
        """Pineapple discards, in turn: one hole card from the seat due to discard to the
        muck (JPN Pineapple)."""
        while self.in_play():
            g = self.g
            d = g.eng.discarder
            if d is None:
                return
            seat = g.seats[d]
            held = self.holes.get(seat, [])
            if not held:  # pragma: no cover - a seat due to discard holds its cards
                return
            uid = self.rng.choice(held)
            if self.unreplaced is not None and self.unreplaced[0] == uid:
                self.botch_shows()
            self.move(uid, f"seat:{seat}", "muck")
            if self.in_play() and self.g.eng.discarder == d:
                return  # the table did not take the discard: the hand cannot go on

    # --- the board -----------------------------------------------------------------------------

    def deal_street(self, street: str) -> None:
        kind = self.kind or ""
        count = COUNT[street]
        error = STREET_ERRORS.get(kind, {}).get(street)
        if street in self.redo:
            self.redeal(street, count)
            return
        if street == "flop" and self.extra is not None:
            uid, zone = self.extra
            self.emit_move(uid, zone, "burn")
            self.burn_from_hand = True
        if street == "flop" and self.burn_from_hand:
            for _ in range(count):
                self.shoe("board")
            return
        if (kind == "extra_card_not_burned" or self.unreplaced) and street == "flop":
            # The remedy wanted a card to the seat (or the extra card as the burn).
            self.unreplaced = None
            self.record(kind, [], [self.name(self.deck[-1])])
        code = "FLOP_BURN_ERROR" if street == "flop" else "BURN_MISSING_OR_EXTRA"
        top = [self.name(u) for u in self.deck[::-1][:5]]
        if error in ("missing", "not_fixed"):
            # No burn: the first card goes to the board; the dealer moves it to the burn and
            # deals the street from the next cards (RR Section 5, Holdem, r.4; Section 3,
            # Irregularities, r.16), or, botching it, burns a fresh card.
            self.record(kind, [], [top[0]], code)
            first = self.shoe("board")
            if error == "not_fixed":
                self.record(kind, [], [top[1]])
                self.shoe("burn")
                return
            self.move(first, "board", "burn")
            for _ in range(count):
                self.shoe("board")
            return
        if error == "extra":
            # Two burns: the second is the proper first card; it goes to the board.
            self.record(kind, [], [top[1]], code)
            self.shoe("burn")
            second = self.shoe("burn")
            self.move(second, "burn", "board")
            for _ in range(count - 1):
                self.shoe("board")
            return
        self.shoe("burn")
        if error == "four":
            # Four cards on the board: they go back into the stub, which is reshuffled, and
            # three are dealt without a burn (RR Section 5, Holdem, r.3 and r.7).
            self.record(kind, [], top[1:5])
            flop = [self.shoe("board") for _ in range(4)]
            for uid in flop:
                self.emit(ZoneLeave(uid=uid, zone="board"))
            self.deck.extend(flop)
            self.returned.update(flop)
            self.redo[street] = []
            self.redeal(street, count)
            return
        for _ in range(count):
            self.shoe("board")

    def premature(self, street: str) -> None:
        """Deal ``street`` while its betting round is still open, then take it back as the
        remedy says (RR Section 5, Holdem, r.5, r.7, r.8): the burn stays; the flop and river
        cards go back into the stub; the turn card is set aside until the river."""
        self.record(self.kind or "", [], [self.name(self.deck[-1])], PREMATURE_CODE[street])
        self.shoe("burn")
        cards = [self.shoe("board") for _ in range(COUNT[street])]
        if street == "turn":
            self.move(cards[0], "board", "aside")
            self.redo["river"] = cards
            self.returned.update(cards)
            return
        for uid in cards:
            self.emit(ZoneLeave(uid=uid, zone="board"))
        self.deck.extend(cards)
        self.returned.update(cards)
        self.redo[street] = []

    def redeal(self, street: str, count: int) -> None:
        """The street after a premature or four-card street: the set-aside cards back into the
        stub, the stub reshuffled, the cards dealt without a burn."""
        aside = self.redo.pop(street)
        for uid in aside:
            self.emit(ZoneLeave(uid=uid, zone="aside"))
        self.deck.extend(aside)
        self.rng.shuffle(self.deck)
        if not self.t.redraw_returned:
            returned = [u for u in self.deck if u in self.returned]
            self.deck = returned + [u for u in self.deck if u not in self.returned]
        self.emit(ShuffleDone())
        if BURNS_ON_REDEAL.get(self.kind or "") == street:
            self.record(self.kind or "", [], [self.name(self.deck[-1])])
            self.shoe("burn")
        for _ in range(count):
            self.shoe("board")

    # --- betting -------------------------------------------------------------------------------

    def folded(self, seat: int) -> None:
        if self.unreplaced is not None and self.unreplaced[1] == seat:
            self.botch_shows()
        super().folded(seat)

    def botch_shows(self) -> None:
        """The exposed card never replaced goes to the muck (folded or discarded), not to the
        burn: the remedy not followed shows there."""
        assert self.unreplaced is not None
        self.record(self.kind or "", [], [self.name(self.unreplaced[0])])
        self.unreplaced = None

    def betting(self, premature: str | None) -> None:
        """One betting round; ``premature`` deals that street in the middle of it."""
        inject_at = self.rng.randrange(2) if premature else -1
        done = 0
        while self.in_play():
            e = self.e
            if e.actor is None or e.is_over:
                return
            if done == inject_at and premature:
                self.premature(premature)
            self.act()
            done += 1
            self.after_action(done)
