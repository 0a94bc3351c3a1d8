"""The betting of a hand (part of ``Hand``, ``hand.py``): fold, check or call, post the
bring-in, complete, bet or raise, and the dealer's kill; whose turn it is within a round; the
rules a complete, bet or raise must meet (its bounds under each structure, the cap, reopening
after a short all-in, openers, check-raise).

The betting round's start (who opens it, the limit bet sizes) and its end are the streets'
(``streets.py``); a hand with one live player left is settled (``showdown.py``).
"""

from __future__ import annotations

from controller.poker.hands.evaluate import CARD_CODES, value_of_code
from controller.rules.engine.stakes import _per_player
from controller.rules.engine.state import _OVER, IllegalAction, _HandState


class _Betting(_HandState):
    """The betting actions and their rules (see the module doc)."""

    __slots__ = ()

    # --- the actions ------------------------------------------------------------------------------

    def fold(self, player: int) -> None:
        if player != self._actor or player is None:
            self._check_actor(player, "fold")
        if self._bring_in_due and not self._bring_in_proxy:
            raise IllegalAction("BRING_IN_DUE", "the low card must post the bring-in or complete "
                                "(RR Section 8 r.2-3)")
        self.folded[player] = True
        self.acted[player] = True
        self._live -= 1
        if self.stacks[player]:
            self._able -= 1
        if self._plan.reuse_muck:
            # draw games: the muck may be shuffled in to complete the draws (WSOP Section 12
            # r.10), so a folded card may come back; elsewhere it stays out of play
            seen = self._seen
            for c in self.holes[player]:
                if c is not None:
                    seen.discard(c)
        self._after_action(player)

    def kill(self, player: int) -> None:
        """Declare ``player``'s hand dead wherever the action is: the dealer kills it (an absent
        tournament player's hand once the starting hands are out, RR Section 15 r.13; a hand
        with the wrong number of cards once the deal must be played, RR Section 3 Dead Hands
        r.1(d)). Its chips stay in the pot; if it was to act, the action moves on."""
        if type(player) is not int or not 0 <= player < self.n:
            raise IllegalAction("NO_SUCH_PLAYER", f"there is no player {player!r}")
        if self._phase == _OVER:
            raise IllegalAction("HAND_OVER", "cannot kill a hand: the hand is over")
        if self.folded[player]:
            raise IllegalAction("NOT_LIVE", f"player {player + 1}'s hand is already dead")
        self.folded[player] = True
        self._live -= 1
        if self.stacks[player]:
            self._able -= 1
        actor = self._actor
        if actor == player or self._live <= 1:
            self._after_action(player)
            return
        if actor is not None and self.bets[actor] >= self._current and (
                self.acted[actor] or self._able <= 1):
            # the last player the round was waiting for is gone: the round may be over
            self._after_action(actor)

    def check_or_call(self, player: int) -> None:
        if player != self._actor or player is None:
            self._check_actor(player, "check or call")
        if self._bring_in_due:
            raise IllegalAction("BRING_IN_DUE", "the low card must post the bring-in or complete "
                                "(RR Section 8 r.2-3)")
        owe = self._current - self.bets[player]
        if owe > 0:
            stacks = self.stacks
            put = owe if owe < stacks[player] else stacks[player]
            stacks[player] -= put
            self.bets[player] += put
            self.totals[player] += put
            if not stacks[player]:
                self._able -= 1
        elif self._plan.track_checks:
            self._checked[player] = True  # for the check-raise and sevens rules
        self.acted[player] = True
        self.levels[player] = self._current
        self._after_action(player)

    def post_bring_in(self, player: int) -> None:
        """Stud: the low card's forced bet (RR Section 8 r.2)."""
        self._check_actor(player, "post the bring-in")
        if not self._bring_in_due:
            raise IllegalAction("NO_BRING_IN", "no bring-in is due now")
        amount = self.stakes.bring_in
        put = min(amount, self.stacks[player])
        self.stacks[player] -= put
        self.bets[player] += put
        self.totals[player] += put
        if not self.stacks[player]:
            self._able -= 1
        # "If the player with the lowcard has only enough chips for a portion of the forced bet,
        # the wager is made. All other players must enter for at least the normal amount"
        # (RR Section 8 r.4)
        self._current = amount if self._s.short_forced_bet == "nominal" else put
        self._bring_in_due = False
        if self._current >= self._unit:
            # a bring-in as large as the bet is the bet: nothing left to complete
            self._completion = False
            self._full_level = self._current
            self._n_aggr += 1
        self.acted[player] = True
        self.levels[player] = self._current
        self._after_action(player)

    def complete_bet_or_raise_to(self, player: int, amount: int) -> None:
        """Complete (stud), bet or raise to ``amount``: the player's total for this round."""
        if player != self._actor or player is None:
            self._check_actor(player, "complete, bet or raise")
        problem = self._raise_problem(player)
        if problem is not None:
            raise IllegalAction(*problem)
        if type(amount) is not int:
            raise IllegalAction("BAD_AMOUNT", f"an amount is an int, got {amount!r}")
        lo, hi, allowed = self._raise_bounds(player)
        if allowed is not None:
            if amount not in allowed and not self._covers_every_caller(player, amount, allowed):
                raise IllegalAction(
                    "WRONG_AMOUNT",
                    f"at fixed limit the only raise now is to {' or '.join(map(str, allowed))} "
                    f"(or all-in for less), not {amount} (RR Section 3 Betting r.6, r.16)")
        elif amount < lo:
            raise IllegalAction(
                "UNDERSIZED_WAGER",
                f"the minimum is {lo}, not {amount} (RR Section 14 NL r.2-3: at least the "
                "minimum bet and the last full bet or raise, unless all-in)")
        elif amount > hi:
            code = "PL_OVERBET" if self._plan.pot_limit else "OVERSIZED_WAGER"
            why = ("the pot after the call (RR Section 14 Pot-Limit)" if self._plan.pot_limit
                   else "the player's chips (table stakes)" if self._plan.no_limit
                   else "the limit")
            raise IllegalAction(code, f"the maximum is {hi}, {why}; not {amount}")
        stacks = self.stacks
        put = amount - self.bets[player]
        stacks[player] -= put
        if not stacks[player]:
            self._able -= 1
        self.bets[player] = amount
        self.totals[player] += put
        old = self._current
        inc = amount - old
        full = False
        plan = self._plan
        if plan.fixed:
            unit = self._unit
            if self._units and inc >= max(self._units):
                self._unit_big_taken = True
            unit = max(self._units) if self._unit_big_taken else unit
            if self._completion and amount >= unit:
                full = True
            elif amount - self._full_level >= self._limit_threshold(unit):
                # "An all-in wager of a half a bet or more is treated as a full bet" and several
                # short all-ins that add up to it act as a raise (RR Section 3 Betting r.7)
                full = True
        else:
            need = self._last_inc if self._last_inc > self._min_bet else self._min_bet
            if plan.spread:
                need = max(self._last_inc, self.stakes.small_bet * self._kill_factor[0]
                           // self._kill_factor[1])
            if self._completion:
                full = amount >= need
                if full:
                    self._last_inc = amount
            elif inc >= need:
                full = True
                self._last_inc = inc
            elif plan.spread and amount - self._full_level >= self._limit_threshold(need):
                full = True  # spread limit is limit poker: the half-bet rule (RR r.7)
            elif amount - self._full_level >= need:
                full = True  # several short all-ins make a full raise (RR Section 3 r.7)
        self._current = amount
        if full:
            self._full_level = amount
            self._n_aggr += 1
            self._completion = False
            if (
                not self._capped
                and self._cap is not None
                and self._n_aggr >= self._cap
                and not self._heads_up_uncapped()
            ):
                # "Once the raising is capped on a betting round, it cannot be uncapped by a
                # subsequent fold that leaves two players heads-up" (RR Section 3 r.5)
                self._capped = True
        if self._opened is None and self.street == 0:
            self._opened = player
        self._bring_in_due = False
        self.acted[player] = True
        self.levels[player] = amount
        self._after_action(player)

    # --- the turn ---------------------------------------------------------------------------------

    def _no_more_betting(self) -> bool:
        """At most one live player has chips behind and nobody faces a bet: the rest is dealt
        without betting (JPN All-ins; button-blinds-betting.md §2.15)."""
        able = self._able
        if able > 1:
            return False
        if able == 0:
            return True
        for i in range(self.n):
            if not self.folded[i] and self.stacks[i] > 0:
                return self.bets[i] >= self._current
        return True  # pragma: no cover - able counts such a player

    def _check_actor(self, player: int, what: str) -> None:
        a = self._actor
        if a is None:
            if self._phase == _OVER:
                raise IllegalAction("HAND_OVER", f"cannot {what}: the hand is over")
            raise IllegalAction("NO_BETTING_NOW", self._not_now(what))
        if player != a:
            who = f"player {player + 1}" if type(player) is int else repr(player)
            raise IllegalAction(
                "OUT_OF_TURN",
                f"player {a + 1} is to act, not {who} (RR Section 3 Betting r.11: action out "
                "of turn)",
            )

    def _after_action(self, player: int) -> None:
        if self._live <= 1:
            self._actor = None
            self._settle()
            return
        folded = self.folded
        stacks = self.stacks
        bets = self.bets
        acted = self.acted
        cur = self._current
        others = self._able > 1
        for i in self._rot[player]:
            if folded[i] or not stacks[i]:
                continue
            if bets[i] < cur or (not acted[i] and others):
                self._actor = i
                return
        self._end_street(True)

    # --- the raise rules --------------------------------------------------------------------------

    def _heads_up_uncapped(self) -> bool:
        mode = self._s.heads_up_uncapped
        if mode == "never":
            return False
        if mode == "starts":
            return self._round_heads_up
        # "Unlimited raising is allowed in heads-up play ... any time the action becomes
        # heads-up before the raising has been capped"; the caps apply "for a pot involving
        # three or more players who are not all-in" (RR Section 3 Betting r.4-5)
        return self._able <= 2

    def cap_rule(self) -> str:
        """Which rule keeps the raising capped: "" the cap itself (RR Section 3 Betting r.4),
        "becomes" capped before the action became heads-up (r.5), "tournament" heads-up in a
        tournament (RR Section 15 r.23), "starts" a round begun with more than two players
        (WSOP Section 3 r.4)."""
        if self._able > 2:
            return ""
        mode = self._s.heads_up_uncapped
        if mode == "becomes":
            return "becomes"  # capped before the action became heads-up (r.5)
        return "tournament" if mode == "never" else "starts"

    def _cap_reason(self) -> str:
        """Why the raising is capped, worded for the dealer: the cap and the rule keeping it."""
        raises = (self._cap or 1) - 1
        words = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
        made = f"a bet and {words[raises] if raises < len(words) else raises} raises have been made"
        return made + {
            "": " (RR Section 3 Betting r.4)",
            "becomes": "; capped before the action became heads-up, it stays capped (RR "
                      "Section 3 Betting r.5)",
            "tournament": "; in a tournament the cap applies heads-up too until the last two "
                          "players (RR Section 3 Betting r.5, Section 15 r.23)",
            "starts": "; the round began with more than two players (WSOP Section 3 Betting "
                      "and Raising r.4)",
        }[self.cap_rule()]

    def _limit_threshold(self, unit: int) -> int:
        if self._s.limit_short_all_in == "half_bet":
            return (unit + 1) // 2
        return unit

    def _raise_problem(self, i: int) -> tuple[str, str] | None:
        """Why the actor may not complete, bet or raise now, or None when it may."""
        if self._bring_in_due:
            return None  # the low card may open for a full bet (RR Section 8 r.3)
        stack = self.stacks[i]
        owe = self._current - self.bets[i]
        if stack <= owe:
            return ("CANNOT_RAISE", f"player {i + 1} can only call (all-in)")
        # a raise needs someone who could put in more than the current bet; otherwise the
        # excess would only come back as an uncalled bet (PokerKit refuses it too)
        cur = self._current
        folded = self.folded
        stacks = self.stacks
        bets = self.bets
        for j in range(self.n):
            if j != i and not folded[j] and stacks[j] + bets[j] > cur:
                break
        else:
            return ("NO_ONE_TO_RAISE", "no other player can call more than the current bet "
                    "(everyone else has folded or is all-in); call or fold")
        if self._capped or (
            self._cap is not None and self._n_aggr >= self._cap and not self._heads_up_uncapped()
        ):
            return ("RAISE_CAPPED", self._cap_reason())
        if self.acted[i] and self.levels[i] >= self._full_level:
            return ("NOT_REOPENED",
                    "the betting was not reopened to this player: the all-in was less than a "
                    "full raise (RR Section 3 Betting r.7, Section 14 NL r.3-4)")
        if (
            self.variant.openers == "jacks"
            and self.street == 0
            and self._current == 0
            and not self._replaying
            and not self._has_openers(i)
        ):
            return ("OPENERS_REQUIRED",
                    f"player {i + 1} cannot open without jacks or better (RRH Section 12 "
                    "Jacks-or-Better r.1-2)")
        if (
            self._checked[i]
            and not self.variant.check_raise
            and not self._s.a5_check_raise
        ):
            return ("CHECK_RAISE_PROHIBITED",
                    "check-raise is not permitted in limit ace-to-five lowball (RR Section 11 "
                    "Ace-to-Five r.2)")
        return None

    def _covers_every_caller(self, i: int, amount: int, allowed: tuple[int, ...]) -> bool:
        """Fixed limit: a raise to less than the limit's amount that puts every opponent who can
        still call all in is complete in effect. All games are table stakes ("Only the chips in
        front of a player at the start of a deal may play for that hand", roberts-rules-v11.txt,
        Section 2, r.8): the rest of a full raise could never be called and would come straight
        back as the uncalled bet. So any raise-to from the largest opponent's all-in total up to
        the limit's amount is taken; what nobody can call goes back at the settlement. Found on
        a recorded razz hand: a raise "to 750,000", the full raise being to 1,200,000, with the
        last opponent all in at 750,000 (issue 11)."""
        if not self._current < amount < allowed[-1] or amount > self.stacks[i] + self.bets[i]:
            return False
        reach = [self.bets[j] + self.stacks[j] for j in range(self.n)
                 if j != i and not self.folded[j] and self.stacks[j] > 0]
        return bool(reach) and amount >= max(reach)

    def _raise_bounds(self, i: int) -> tuple[int, int, tuple[int, ...] | None]:
        """(min, max, the only amounts allowed or None) for the actor's complete/bet/raise."""
        plan = self._plan
        all_in = self.stacks[i] + self.bets[i]
        cur = self._current
        if plan.fixed:
            # a full raise on the last full bet: "raising a $15 all-in bet to $35", and facing an
            # all-in of less than half a bet, "complete the wager" (RR Section 3 r.7); under the
            # full-bet rule a short all-in counts as a call and the raise goes on top of it
            base = self._full_level if self._s.limit_short_all_in == "half_bet" else cur
            if self._units and not self._unit_big_taken:
                targets = tuple(sorted({base + u for u in self._units}))
            else:
                unit = max(self._units) if self._unit_big_taken else self._unit
                # completing the bring-in to a full bet (RR Section 8 r.6)
                targets = (base + unit,) if not self._completion else (unit,)
            capped = tuple(min(t, all_in) for t in targets)
            return capped[0], capped[-1], capped
        if plan.spread:
            kf = self._kill_factor
            low = self.stakes.small_bet * kf[0] // kf[1]
            high = self.stakes.big_bet * kf[0] // kf[1]
            # any amount between the limits; a raise at least the previous bet or raise
            need = max(self._last_inc, low)
            lo = (need if self._completion else cur + need)
            hi = cur + high
            lo = min(lo, hi)
            return min(lo, all_in), min(hi, all_in), None
        need = self._last_inc if self._last_inc > self._min_bet else self._min_bet
        # "The minimum bet size is the amount of the minimum bring-in"; "All raises must be
        # equal to or greater than the size of the previous bet or raise" (RR Section 14 NL
        # r.2-3); a bring-in is completed to at least the minimum bet (JPN Seven Card Stud)
        lo = need if self._completion else cur + need
        if plan.pot_limit:
            # "The maximum amount a player can raise is the amount in the pot after the call is
            # made" (RR Section 14 Pot-Limit intro): raise-to = current + pot + to-call
            pot = sum(self.antes) + sum(self.totals)
            if self._s.pot_limit_small_blind_as_big and self.street == 0:
                pot += self._sb_as_bb_extra()
            hi = cur + pot + (cur - self.bets[i])
            if hi < lo:
                hi = lo
            return min(lo, all_in), min(hi, all_in), None
        return min(lo, all_in), all_in, None

    def _sb_as_bb_extra(self) -> int:
        """RR Section 14 Pot-Limit r.5: until the big blind acts, the small blind counts as a big
        blind in the pot size."""
        blinds = _per_player(self.stakes.blinds_or_straddles, self.n, "blinds_or_straddles")
        if self.n == 2:
            blinds = blinds[::-1]
        if self.n < 2:
            return 0
        sb_pos = 1 if self.n == 2 else 0
        bb_pos = 0 if self.n == 2 else 1
        if self.acted[bb_pos] or self.acted[sb_pos]:
            return 0
        return max(0, blinds[bb_pos] - self.bets[sb_pos])

    def _has_openers(self, player: int) -> bool:
        """Jacks or better: "A pair of jacks or better is required to open the pot" (RRH Section
        12 Jacks-or-Better r.1). A hand not fully known is given the benefit of the doubt (the
        opener must prove openers to win the pot, r.3: a matter for the showdown)."""
        hole = self.holes[player]
        if len(hole) != 5 or any(c is None for c in hole):
            return True
        value = value_of_code(sum(CARD_CODES[c] for c in hole if c is not None))
        # a pair of jacks: category 1 (one pair) with the pair rank >= jack (index 9)
        return value >> 20 >= 2 or (value >> 20 == 1 and (value >> 16 & 15) >= 9)
