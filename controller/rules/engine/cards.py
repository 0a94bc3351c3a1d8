"""The cards of a hand (part of ``Hand``, ``hand.py``): dealing hole and board cards, the
stud common card, the draw and the Pineapple discards, and the checks every card passes.

A street's cards (and a draw's replacements) may be dealt in any order between players; when
the last one is in, the street moves on (``streets.py``). A known card must be of the
game's deck and not in play; None, a card nobody knows, always passes.
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.rules.engine.state import _DEAL, _DRAW, IllegalAction, _HandState


class _Cards(_HandState):
    """Dealing, drawing and discarding (see the module doc)."""

    __slots__ = ()

    # --- dealing ----------------------------------------------------------------------------------

    def _take_out(self, cards: Sequence[str | None], k: int) -> None:
        """Check ``k`` cards being dealt and mark them in play: each known card must be of this
        deck and not already dealt (None, an unknown card, always passes)."""
        seen = self._seen
        deck = self._deck
        try:
            # known cards of this deck, none in play: the usual deal, told by two set calls in C
            usual = deck.issuperset(cards) and seen.isdisjoint(cards)
        except TypeError:
            usual = False
        if not usual:  # card by card: an unknown card passes, the first bad one names itself
            try:
                for c in cards:
                    if (c in seen or c not in deck) and c is not None:
                        self._check_cards(cards)  # raises, naming the card
            except TypeError:  # an unhashable thing among the cards
                raise IllegalAction("NOT_A_CARD", f"not cards: {cards!r}") from None
        before = len(seen)
        seen.update(cards)  # (None too: harmless, never a card)
        if len(seen) - before != k:
            # the same card twice, or an unknown card (None) already recorded: none of these
            # cards was in play before this call, so taking them all out again undoes it
            seen.difference_update(cards)
            self._check_cards(cards)  # raises for a card dealt twice
            seen.update(cards)

    def deal_hole(self, player: int, cards: Sequence[str | None]) -> None:
        """Deal cards to a player: the street's hole cards (stud: down or up as the street
        says), or the replacement cards after a discard. None is an unknown card."""
        phase = self._phase
        if phase > _DRAW or (self._discard_queue and phase == _DEAL):
            raise IllegalAction("NO_HOLE_CARDS_DUE", self._not_now("deal hole cards"))
        if type(player) is not int or not 0 <= player < self.n:
            raise IllegalAction("NO_SUCH_PLAYER",
                                f"player index {player!r} is not 0..{self.n - 1}")
        need = self._hole_need[player]
        if not isinstance(cards, (list, tuple)):
            raise IllegalAction("BAD_CARDS", f"cards are a list like ['As', 'Kd'], not {cards!r}")
        k = len(cards)
        if not 0 < k <= need:
            raise IllegalAction(
                "WRONG_CARD_COUNT",
                f"player {player + 1} is due {need} card(s) now, not {k}"
                + (" (folded)" if self.folded[player] else ""),
            )
        # the last card due moves the hand on, and a settle that needs a card nobody knows
        # refuses it: kept so that the refused deal changes nothing (as show_or_muck undoes)
        saved = self.copy() if self._pending == k else None
        self._take_out(cards, k)
        self.holes[player].extend(cards)
        if self._ups:
            if phase == _DRAW:
                self._ups[player].extend([False] * k)  # replacements are dealt face down
            else:
                # RR Section 8 intro: the stud upcards
                flags = self._plan.hole_up[self.street]
                start = len(flags) - need
                self._ups[player].extend(flags[start:start + k])
        self._hole_need[player] = need - k
        self._pending -= k
        if not self._pending:
            self._advance_or_undo(saved)

    def deal_board(self, cards: Sequence[str | None]) -> None:
        """Turn board cards (the flop, the turn, the river; in stud, the common card)."""
        if not isinstance(cards, (list, tuple)):
            raise IllegalAction("BAD_CARDS", f"cards are a list like ['As', 'Kd'], not {cards!r}")
        if self._phase != _DEAL or self._discard_queue or not self._board_need:
            if self._common_card_possible(cards):
                self._common_card()
            else:
                raise IllegalAction("NO_BOARD_CARDS_DUE", self._not_now("deal board cards"))
        k = len(cards)
        if k == 0 or k > self._board_need:
            raise IllegalAction(
                "WRONG_CARD_COUNT", f"{self._board_need} board card(s) are due now, not {k}")
        saved = self.copy() if self._pending == k else None  # (deal_hole: why)
        self._take_out(cards, k)
        self.board.extend(cards)
        self._board_need -= k
        self._pending -= k
        if not self._pending:
            self._advance_or_undo(saved)

    def _advance_or_undo(self, saved: _HandState | None) -> None:
        """Move the hand on after its last card due; if that refuses (the showdown's settle
        needs a card nobody knows: UNKNOWN_CARD_AT_SHOWDOWN), put back the hand as it was
        before the card, so a refused call changes nothing."""
        try:
            self._advance_dealing()
        except IllegalAction:
            if saved is not None:
                self._restore(saved)
            raise

    def _common_card_possible(self, cards: Sequence[str | None]) -> bool:
        """Stud, seventh street, nobody dealt a card yet: one board card is the common card."""
        plan = self._plan
        st = self.street
        return (
            self._phase == _DEAL
            and plan.any_up
            and st == plan.last
            and len(cards) == 1
            and not any(plan.board)
            and all(self._hole_need[i] == plan.hole_count[st]
                    for i in range(self.n) if not self.folded[i])
        )

    def _common_card(self) -> None:
        """"If the dealer determines that there will not be enough fresh cards for all of the
        remaining players ... The dealer will burn a card and turn one card faceup in the center
        of the table as a common card that plays in everyone's hand. The player who is now high
        using the common card initiates the action for the last round." (RR Section 8 r.15)"""
        n_live = sum(1 for i in range(self.n) if not self.folded[i])
        self._pending -= self._plan.hole_count[self.street] * n_live
        self._hole_need = [0] * self.n
        self._board_need = 1
        self._pending += 1

    # --- the draw and the discards ----------------------------------------------------------------

    def stand_pat_or_discard(self, player: int, cards: Sequence[str | None] = ()) -> None:
        """Draw games: discard these cards (none = stand pat), to be replaced; Pineapple: the
        cards thrown away, not replaced. In turn, clockwise (RR Section 11 r.9; JPN Pineapple)."""
        d = self.discarder
        if d is None:
            raise IllegalAction("NO_DRAW_DUE", self._not_now("stand pat or discard"))
        if not isinstance(cards, (list, tuple)):
            raise IllegalAction("BAD_CARDS", f"cards are a list like ['As', 'Kd'], not {cards!r}")
        if player != d:
            raise IllegalAction("OUT_OF_TURN",
                                f"player {d + 1} draws next, not {_who(player)} "
                                "(RR Section 11 r.9: the draw is completed to each player in "
                                "order)")
        plan = self._plan
        st = self.street
        hole = self.holes[player]
        k = len(cards)
        if plan.draw[st]:
            if k > plan.max_draw:
                raise IllegalAction("DRAW_TOO_MANY",
                                    f"at most {plan.max_draw} cards may be drawn, not {k}")
        elif k != plan.discard[st]:
            raise IllegalAction("DISCARD_COUNT",
                                f"each player discards exactly {plan.discard[st]} card(s) here "
                                f"(JPN Pineapple), not {k}")
        if k > len(hole):
            raise IllegalAction("DISCARD_TOO_MANY", f"player {player + 1} holds {len(hole)}")
        # find the slot of each discarded card: a known card where it is, an unknown one in an
        # unknown slot
        slots: list[int] = []
        for c in cards:
            if c is not None and (type(c) is not str or c not in plan.deck):
                raise IllegalAction("NOT_A_CARD", f"not a card of this deck: {c!r}")
            j = -1
            if c is not None:
                for idx, h in enumerate(hole):
                    if h == c and idx not in slots:
                        j = idx
                        break
            if j < 0:
                for idx, h in enumerate(hole):
                    if h is None and idx not in slots:
                        j = idx
                        break
            if j < 0:
                raise IllegalAction("DISCARD_NOT_HELD",
                                    f"player {player + 1} does not hold {c or 'an unknown card'}")
            slots.append(j)
        # a stand-pat (or a Pineapple discard) that is the last thing due moves the hand on
        saved = self.copy() if self._pending == 1 and not (plan.draw[st] and k) else None
        for j in sorted(slots, reverse=True):
            c = hole.pop(j)
            if self._ups:
                self._ups[player].pop(j)
            if c is not None:
                # a discard may come back in a reshuffle of the discards (WSOP Section 12 r.10)
                self._seen.discard(c)
        self._discard_queue.pop(0)
        self._pending -= 1
        if plan.draw[st]:
            self._hole_need[player] += k
            self._pending += k
        if not self._pending:
            self._advance_or_undo(saved)

    # --- the card checks --------------------------------------------------------------------------

    def _check_cards(self, cards: Sequence[str | None]) -> None:
        deck = self._plan.deck
        seen = self._seen
        local: set[str] = set()
        for c in cards:
            if c is None:
                continue
            if type(c) is not str or c not in deck:
                raise IllegalAction("NOT_A_CARD", f"not a card of this game's deck: {c!r}")
            if c in seen or c in local:
                raise IllegalAction("DUPLICATE_CARD",
                                    f"{c} is already in play (RR Section 3 Irregularities r.4)")
            local.add(c)


# --- helpers --------------------------------------------------------------------------------------


def _who(player: object) -> str:
    return f"player {player + 1}" if type(player) is int else repr(player)
