"""The streets of a hand (part of ``Hand``, ``hand.py``): each street's deal, its draw or
discard, and its betting round, in the order the Variant gives them, then the showdown.

A street begins by saying what cards (and discards) are due; when they are in
(``cards.py``) the draw or the betting begins: who opens the round (left of the blinds,
the button, the draw's opener, stud's bring-in and high hand showing) and, in limit, its bet
size. A round over, the next street begins, or the showdown (``showdown.py``).
"""

from __future__ import annotations

from controller.poker.hands.rankings import board_strength, strength, suit_rank
from controller.rules.engine.state import (
    _BET,
    _DEAL,
    _DRAW,
    _OVER,
    _RANK_HIGH,
    _RANK_LOW,
    _SHOWDOWN,
    _HandState,
)


class _Streets(_HandState):
    """Street transitions, turn order at the start of a round, stud openers (see the module
    doc)."""

    __slots__ = ()

    # --- a street's deal and draw -----------------------------------------------------------------

    def _discard_phase(self) -> bool:
        plan = self._plan
        st = self.street
        if self._phase == _DEAL:
            return plan.discard_first[st]
        return True

    def _begin_street(self, st: int) -> None:
        plan = self._plan
        self.street = st
        self._phase = _DEAL
        self._actor = None
        n = self.n
        folded = self.folded
        if st:
            if plan.draw[st] and self._pre_draw is None:
                self._pre_draw = list(self.totals)  # the pot before the (first) draw
            # a new round: no bets yet (each round's bets start from nothing)
            self.bets = [0] * n
            self._current = 0
            self._full_level = 0
            self._last_inc = 0
            self._n_aggr = 0
        if plan.discard[st] and plan.discard_first[st]:
            self._discard_queue = self._order([i for i in range(n) if not folded[i]], st)
        elif self._discard_queue:
            self._discard_queue = []
        k = plan.hole_count[st]
        if k or not st:
            # every player is in at the start of the hand: no need to look at who folded
            self._hole_need = ([k] * n if self._live == n
                               else [0 if folded[i] else k for i in range(n)])
        board = self._board_need = plan.board[st]
        self._pending = k * self._live + board + len(self._discard_queue)
        if not self._pending:
            self._advance_dealing()

    def _order(self, players: list[int], st: int) -> list[int]:
        """Players in turn for a draw or discard: from the street's first position clockwise."""
        start = self._opener_pos if self._plan.opener[st] == "blinds" else 0
        n = self.n
        return sorted(players, key=lambda i: (i - start) % n)

    def _advance_dealing(self) -> None:
        """Every card and discard of this street's deal (or draw) is in: on to the draw, or the
        betting."""
        plan = self._plan
        st = self.street
        if self._phase == _DEAL and (
            plan.draw[st] or (plan.discard[st] and not plan.discard_first[st])
        ):
            self._phase = _DRAW
            self._discard_queue = self._order(
                [i for i in range(self.n) if not self.folded[i]], st)
            self._pending = len(self._discard_queue)
            if self._pending:
                return
        self._begin_betting()

    # --- a betting round's start: who opens, the limit bet sizes ----------------------------------

    def _begin_betting(self) -> None:
        plan = self._plan
        st = self.street
        if not plan.betting[st] or (self._able <= 1 and self._no_more_betting()):
            self._end_street(False)
            return
        self._phase = _BET
        self._last_bet_street = st
        if st:
            n = self.n
            self.acted = [False] * n
            # levels are read only for players who have acted this round: no reset needed
            if self._plan.track_checks:
                self._checked = [False] * n
        self._capped = False
        self._completion = False
        self._bring_in_due = False
        self._round_heads_up = self._able <= 2
        if plan.limit:
            self._limit_round(st)
        opener = plan.opener[st]
        if opener == "button":
            start = 0
        elif opener == "blinds":
            start = self._opener_pos
        elif opener == "draw_opener":
            # "Action after the draw starts with the opener, or next player proceeding clockwise
            # if the opener has folded" (RR Section 12 intro)
            start = self._opened if (self._opened is not None
                                     and self._s.draw_high_after_draw == "opener") else 0
        else:
            start = self._stud_opener(opener)
            if opener in ("low_card", "high_card") and self.stakes.bring_in:
                self._bring_in_due = True
                self._completion = True
        self._actor = None
        folded = self.folded
        stacks = self.stacks
        bets = self.bets
        acted = self.acted
        cur = self._current
        others = self._able > 1
        for i in self._rot[start - 1]:
            if folded[i] or not stacks[i]:
                continue
            if bets[i] < cur or (not acted[i] and others):
                self._actor = i
                break
        if self._actor is None:
            self._end_street(True)
            return
        # the low card is all-in for the ante: "betting action proceeds to the first active
        # player to the left ... That player may fold, open for the forced bet, or open for a
        # full bet" (RR Section 8 r.4, RRH Section 8 r.8)
        self._bring_in_proxy = self._bring_in_due and self._actor != start

    def _limit_round(self, st: int) -> None:
        """Fixed and spread limit: the bet sizes of this round."""
        plan = self._plan
        # fixed limit: the small bet on the first rounds, the big bet later (RR Section 8 intro;
        # JPN Texas Hold'em); a kill scales both (RR Section 13 intro)
        kf = self._kill_factor
        small = self.stakes.small_bet * kf[0] // kf[1]
        big = self.stakes.big_bet * kf[0] // kf[1]
        self._unit = big if plan.big_bet[st] else small
        self._units = ()
        self._unit_big_taken = False
        if (
            plan.fixed
            and st == 1
            and self.variant.open_pair_option
            and self._s.open_pair_big_bet
            and self._open_pair_showing()
        ):
            # "If there is an open pair on the fourth card, any player has the option of making
            # the smaller or larger bet" (RR Section 8 intro, r.7)
            self._units = (small, big)

    def _stud_opener(self, opener: str) -> int:
        """Stud first to act: the bring-in by the lowest upcard by suit, ace high (RR Section 8
        r.2; Section 10 r.4), or the highest by suit with the ace low in razz (RR Section 9 r.2);
        on later streets the best hand showing, the worst in razz, a tie going to the player who
        received cards first (RR Section 8 r.2; Section 9 r.2)."""
        n = self.n
        best_key: tuple[int, ...] | None = None
        best = 0
        skip_all_in = self._s.stud_all_in_opener == "next_card"
        for i in range(n):
            if self.folded[i] or (skip_all_in and self.stacks[i] == 0):
                continue
            upcards = [c for c, u in zip(self.holes[i], self._ups[i], strict=True) if u]
            if opener in ("low_card", "high_card"):
                door = upcards[-1] if upcards else None
                if door is None:
                    key: tuple[int, ...] = (-100,)  # unknown: never chosen over a known card
                elif opener == "low_card":
                    # lowest card by suit opens: the key is larger for lower cards
                    key = (-_RANK_HIGH[door[0]], -suit_rank(door))
                else:
                    key = (_RANK_LOW[door[0]], suit_rank(door))
            else:
                known = [c for c in upcards if c is not None]
                known += [c for c in self.board if c is not None]  # the common card
                # the high hand on board opens, the low hand in razz (RR Section 8 r.2,
                # Section 9 r.2); unknown upcards count for nothing
                ranking = "high" if opener == "high_board" else "ace_five_low"
                if len(known) > 4:
                    # four upcards and the common card: the best five-card hand showing
                    key = (1, strength(ranking, known) or 0)
                else:
                    key = (0, board_strength(ranking, known)) if known else (-1,)
            if best_key is None or key > best_key:
                best_key, best = key, i
        return best

    def _open_pair_showing(self) -> bool:
        for i in range(self.n):
            if self.folded[i]:
                continue
            ranks = [c[0] for c, u in zip(self.holes[i], self._ups[i], strict=True)
                     if u and c is not None]
            if len(ranks) != len(set(ranks)):
                return True
        return False

    # --- a street's end ---------------------------------------------------------------------------

    def _end_street(self, betting_happened: bool) -> None:
        self._actor = None
        if self._live <= 1:
            self._settle()
            return
        plan = self._plan
        if (
            betting_happened
            and self.street == 0
            and self.variant.pass_and_out
            and self._current == 0
        ):
            # Nobody opened: the deal ends and the antes stay for the next deal (RRH Section 12
            # Jacks-or-Better r.1; RR Section 12 r.14 "If no one opens and there is another
            # ante")
            self.carry_over = sum(self.antes)
            self._phase = _OVER
            self._awards = ()
            return
        if self.street >= plan.last:
            self._phase = _SHOWDOWN
            self._maybe_settle()
            return
        self._begin_street(self.street + 1)
