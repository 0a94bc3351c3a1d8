"""The showdown and the settlement of a hand (part of ``Hand``, ``hand.py``): show or muck,
then the uncalled bet back, the pots by all-in level, each awarded on its own to the best hand
(or hands: high-low splits) among its players, odd chips by the rulebooks, and limit
ace-to-five lowball's sevens rule.

The hand settles itself when it is over: one live hand left, or every live hand shown or mucked
after the last street. Hand strengths come from ``rankings.py`` and ``evaluate.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from controller.poker.hands.evaluate import CARD_CODES, hand_name, value_of_code
from controller.poker.hands.rankings import describe, omaha_strength, strength, suit_rank
from controller.poker.pots import UNCALLED, PotAward, build_pots, return_uncalled, split
from controller.poker.variants import JOKER, LOW_RANKINGS
from controller.rules.engine.stakes import _DEFAULT_SETTINGS, HouseSettings
from controller.rules.engine.state import (
    _OVER,
    _RANK_HIGH,
    _RANK_LOW,
    _SHOWDOWN,
    IllegalAction,
    _HandState,
)


class _Showdown(_HandState):
    """Show or muck, and settling the hand (see the module doc)."""

    __slots__ = ()

    # --- show or muck -----------------------------------------------------------------------------

    def show_or_muck(self, player: int, cards: Sequence[str | None] | None) -> None:
        """At the showdown (or once betting is over at an all-in): show these hole cards, or
        muck with None. An empty sequence shows the cards as dealt (PHH "sm -")."""
        if self._phase == _OVER:
            raise IllegalAction("HAND_OVER", "the hand is over")
        if type(player) is not int or not 0 <= player < self.n:
            raise IllegalAction("NO_SUCH_PLAYER", f"player index {player!r}")
        if not self.betting_over:
            raise IllegalAction("NO_SHOWDOWN_YET", self._not_now("show or muck"))
        if self.folded[player] or self.mucked[player] or self.shown[player]:
            raise IllegalAction("NOT_IN_SHOWDOWN",
                                f"player {player + 1} has already folded, mucked or shown")
        if cards is None:
            if self._count_live() <= 1:
                raise IllegalAction("LAST_HAND", f"player {player + 1} holds the last live hand: "
                                    "it wins the pot and cannot be mucked")
            self.mucked[player] = True
            self._live -= 1
            self._muck_order.append(player)
            try:
                self._maybe_settle()
            except IllegalAction:
                # settling needs a card nobody knows: undo the muck, so nothing is lost
                self.mucked[player] = False
                self._live += 1
                self._muck_order.pop()
                raise
            return
        if not isinstance(cards, (list, tuple)):
            raise IllegalAction("BAD_CARDS", f"cards are a list like ['As', 'Kd'], not {cards!r}")
        hole = self.holes[player]
        if len(cards) == 0:
            cards = list(hole)
        if len(cards) != len(hole):
            raise IllegalAction("WRONG_CARD_COUNT",
                                f"player {player + 1} holds {len(hole)} cards, shows {len(cards)}")
        old = list(hole)
        for c in old:
            if c is not None:
                self._seen.discard(c)
        try:
            self._check_cards(cards)
        except IllegalAction:
            for c in old:
                if c is not None:
                    self._seen.add(c)
            raise
        hole[:] = cards
        for c in cards:
            if c is not None:
                self._seen.add(c)
        self.shown[player] = True
        try:
            self._maybe_settle()
        except IllegalAction:
            # settling needs a card nobody knows: undo the show, so nothing is lost
            for c in cards:
                if c is not None:
                    self._seen.discard(c)
            hole[:] = old
            for c in old:
                if c is not None:
                    self._seen.add(c)
            self.shown[player] = False
            raise

    def show_all(self) -> None:
        """Show every live hand still to be shown, as dealt (a convenience for replays and for
        tables whose reader has already seen every card)."""
        for i in self.showdown_pending:
            if self._phase != _OVER:
                self.show_or_muck(i, ())

    def _count_live(self) -> int:
        return self._live

    # --- settling ---------------------------------------------------------------------------------

    def _maybe_settle(self) -> None:
        if self._phase == _OVER:
            return
        if self._live <= 1:
            self._settle()
            return
        if self._phase != _SHOWDOWN:
            return
        for i in range(self.n):
            if not self.folded[i] and not self.mucked[i] and not self.shown[i]:
                return
        self._settle()

    def stakes_and_dead(self, chips: Sequence[int]) -> tuple[dict[int, int], int]:
        """Each position's stake for building the pots (``chips``: what it put in beyond its
        ante) and the dead money for the main pot. An ante one player posts for the table (a
        big-blind or button ante) is dead money, "not considered part of a particular player's
        bet" (roberts-rules-v11.txt, Glossary, DEAD MONEY; research/button-blinds-betting.md
        §1.13: antes are dead money, never matched): it never comes back as an uncalled bet or a
        pot of its own. Antes every player posts for himself are his own stake, which comes to
        the same as dead money while every ante is whole; a player all in for less than his ante
        plays for the part of the antes he matched (RR Section 12 r.14)."""
        n = self.n
        if self._table_ante:
            return {i: chips[i] for i in range(n)}, sum(self.antes)
        return {i: chips[i] + self.antes[i] for i in range(n)}, 0

    def _settle(self) -> None:
        """Award every pot: the uncalled bet back, the pots by all-in level, each pot on its
        own (RR Section 3 Ties r.5(d)), side pots first (RR Section 3 Showdown r.7)."""
        n = self.n
        if self._live == 1 and not self._muck_order:
            self._settle_uncontested()
            return
        if self._pre_draw is not None and self._sevens_rule_applies():
            return
        folded_l = self.folded
        stacks = self.stacks
        if all(stacks[i] or folded_l[i] for i in range(n)):
            self._settle_one_pot()
            return
        contrib = {i: self.totals[i] for i in range(n)}
        folded = {i for i in range(n) if self.folded[i]}
        remaining, returned = return_uncalled(contrib, folded)
        all_in = {i for i in range(n) if self.stacks[i] == 0 and i not in folded}
        # the antes: dead money, or each player's own stake (Hand.stakes_and_dead)
        stakes, dead = self.stakes_and_dead([remaining[i] for i in range(n)])
        pots = build_pots(stakes, folded, dead, all_in=all_in)
        live = [i for i in range(n) if i not in folded]
        # A hand mucked at the showdown gives up the pots it contests, not a pot nobody else is
        # eligible for (RR Section 3 Showdown: a pot goes to the best hand among its players).
        mucked = self.mucked
        contests: list[tuple[int, ...]] = []
        for pot in pots:
            contenders = tuple(i for i in pot.eligible if not mucked[i])
            if not contenders:
                contenders = ((self._muck_order[-1],) if self._muck_order[-1] in pot.eligible
                              else pot.eligible[:1]) if pot.eligible else ()
            contests.append(contenders)
        contested = sorted({i for c in contests if len(c) > 1 for i in c})
        strengths = self._strengths(contested) if contested else {}
        awards: list[PotAward] = []
        if returned is not None:
            seat, chips = returned
            awards.append(PotAward(chips, (seat,), (seat,), {seat: chips}, UNCALLED))
        for pot, contenders in zip(reversed(pots), reversed(contests), strict=True):
            eligible = contenders
            if not eligible:
                # only folded chips above every live level: no live player can win them;
                # the last live hand takes them (cannot happen with a live player all-in)
                eligible = tuple(live)
            if len(eligible) == 1:
                w = eligible[0]
                awards.append(PotAward(pot.amount, pot.eligible or eligible, (w,),
                                       {w: pot.amount}))
                continue
            awards.append(self._award(pot.amount, eligible, strengths))
        for award in awards:
            for seat, chips in award.shares.items():
                stacks[seat] += chips
        self._awards = tuple(awards)
        self._actor = None
        self._phase = _OVER

    def _sevens_rule_applies(self) -> bool:
        """Limit ace-to-five lowball's sevens rule: "If you check a seven or better and it is the
        best hand, all action after the draw is void, and you cannot win any money on any
        subsequent bets. You are still eligible to win whatever existed in the pot before the
        draw" (RR Section 11 A-5 r.4). When it applies, the chips put in after the draw go back
        to the players who put them in and the pot before the draw is settled; returns True."""
        top = self._s.sevens_rule
        if (not top or self._plan.rankings != ("ace_five_low_joker",) or not self._plan.fixed
                or self._pre_draw is None):
            return False
        n = self.n
        live = [i for i in range(n) if not self.folded[i] and not self.mucked[i]]
        if self._last_bet_street != self._plan.last:
            return False  # no betting after the draw (an all-in): nothing to void
        checkers = [i for i in live if self._checked[i]]
        if not checkers or len(live) < 2:
            return False
        strengths = self._strengths(live)
        best = max(strengths[i][0] or 0 for i in live)
        ranks = "A23456789TJQK"
        # the worst hand that is "a seven or better": 7-6-5-4-3 (WSOP: 5-4-3-2-A)
        bar_cards = [ranks[top - 1 - k] + "cdhsc"[k] for k in range(5)]
        bar = strength("ace_five_low_joker", bar_cards) or 0
        if not any((strengths[i][0] or 0) >= bar and strengths[i][0] == best for i in checkers):
            return False
        pre = self._pre_draw
        for i in range(n):
            back = self.totals[i] - pre[i]
            self.stacks[i] += back
            self.totals[i] = pre[i]
        self._pre_draw = None  # settle again on the pot before the draw
        self._settle()
        return True

    def _settle_one_pot(self) -> None:
        """Nobody live is all-in: one pot, every live hand eligible (the usual showdown)."""
        totals = self.totals
        n = self.n
        # the largest total (its first holder) and the next largest, by one sort in C
        ordered = sorted(totals)
        top = totals.index(ordered[-1])
        back = ordered[-1] - ordered[-2]
        awards: list[PotAward] = []
        if back > 0:
            awards.append(PotAward(back, (top,), (top,), {top: back}, UNCALLED))
        pot = sum(totals) - back + sum(self.antes)
        folded = self.folded
        mucked = self.mucked
        contenders = tuple(i for i in range(n) if not folded[i] and not mucked[i])
        if len(contenders) == 1:
            w = contenders[0]
            awards.append(PotAward(pot, contenders, contenders, {w: pot}))
        else:
            awards.append(self._award(pot, contenders, self._strengths(list(contenders))))
        stacks = self.stacks
        for award in awards:
            for seat, chips in award.shares.items():
                stacks[seat] += chips
        self._awards = tuple(awards)
        self._actor = None
        self._phase = _OVER

    def _settle_uncontested(self) -> None:
        """Everyone else folded: the one live hand wins every chip without a showdown, after
        the uncalled part of the largest bet goes back to whoever made it (the same result as
        the general path, without building pots)."""
        totals = self.totals
        w = self.folded.index(False)
        # the largest total (its first holder) and the next largest, by one sort in C
        ordered = sorted(totals)
        top = totals.index(ordered[-1])
        # A folded (killed) hand's chips stay in the pot, even the part nobody matched (an
        # absent tournament player's big blind, killed, and everyone folds to the small blind:
        # pots.return_uncalled)
        back = ordered[-1] - ordered[-2] if not self.folded[top] else 0
        if back > 0:
            self.stacks[top] += back
        pot = sum(totals) - back + sum(self.antes)
        self.stacks[w] += pot
        # the award records are built when first asked for (a replay never asks)
        self._uncontested = (top, back, w, pot)
        self._awards = None
        self._actor = None
        self._phase = _OVER

    # --- hand strengths and the award of a pot ----------------------------------------------------

    def _strengths(self, players: list[int]) -> dict[int, tuple[int | None, ...]]:
        """Each contested hand's value under each of the game's rankings (higher is better;
        None: no qualifying low)."""
        plan = self._plan
        board = self.board
        if any(c is None for c in board):
            raise IllegalAction("UNKNOWN_CARD_AT_SHOWDOWN",
                                "a board card needed at the showdown is not known")
        out: dict[int, tuple[int | None, ...]] = {}
        for i in players:
            hole = self.holes[i]
            if any(c is None for c in hole):
                raise IllegalAction(
                    "UNKNOWN_CARD_AT_SHOWDOWN",
                    f"player {i + 1} is in a showdown but not all of its hole cards are known")
            cards: list[str] = [c for c in hole if c is not None]
            brd: list[str] = [c for c in board if c is not None]
            if plan.fast_high:
                total = len(cards) + len(brd)
                if not 5 <= total <= 7:
                    raise IllegalAction("WRONG_CARD_COUNT",
                                        f"player {i + 1} has {total} cards for a five-card hand")
                code = 0
                for c in cards:
                    code += CARD_CODES[c]
                for c in brd:
                    code += CARD_CODES[c]
                out[i] = (value_of_code(code),)
                continue
            values: list[int | None] = []
            for ranking in plan.rankings:
                values.append(_strength(ranking, self.variant.hand, cards, brd, self._s))
            out[i] = tuple(values)
        return out

    def _award(self, amount: int, eligible: tuple[int, ...],
               strengths: dict[int, tuple[int | None, ...]]) -> PotAward:
        plan = self._plan
        unit = self._s.odd_chip_unit
        rankings = plan.rankings
        high_vals = {i: strengths[i][0] for i in eligible}
        best = max((v for v in high_vals.values() if v is not None), default=None)
        if best is None:
            raise IllegalAction("NO_HAND", "no hand qualifies for this pot")
        high_w = tuple(i for i in eligible if high_vals[i] == best)
        high_order = self._odd_chip_order(high_w, rankings[0])
        low_w: tuple[int, ...] = ()
        if len(rankings) == 2:
            low_vals = {i: strengths[i][1] for i in eligible}
            lbest = max((v for v in low_vals.values() if v is not None), default=None)
            if lbest is not None:
                low_w = tuple(i for i in eligible if low_vals[i] == lbest)
        if not low_w:
            shares = split(amount, high_w, high_order, unit)
            return PotAward(amount, eligible, high_w, shares, _describe(rankings[0], best))
        if set(low_w) == set(high_w):
            # "If two players split the pot by tying for both the high and the low, the pot shall
            # be split as evenly as possible, and the player with the highest card by suit
            # receives the odd chip" (RR Section 10 r.8; Section 3 Ties r.5(c))
            shares = split(amount, high_w, high_order, unit)
        else:
            # "the high hand receives the odd chip in a split between the high and the low
            # hands" (RR Section 3 Ties r.5(c)): the high half is rounded up to the unit
            units = amount // unit
            high_half = (units - units // 2) * unit
            low_half = amount - high_half
            shares = split(high_half, high_w, high_order, unit)
            low_order = self._odd_chip_order(low_w, rankings[1])
            for seat, chips in split(low_half, low_w, low_order, unit).items():
                shares[seat] = shares.get(seat, 0) + chips
        winners = tuple(i for i in eligible if i in shares)
        lv = strengths[low_w[0]][1]
        assert lv is not None
        name = f"High: {_describe(rankings[0], best)}; low: {_describe(rankings[1], lv)}"
        return PotAward(amount, eligible, winners, shares, name)

    def _odd_chip_order(self, winners: tuple[int, ...], ranking: str) -> tuple[int, ...]:
        """Who gets an odd chip first: "In a button game, the first hand clockwise from the
        button" (position 0 first); "In a stud game, the odd chip will be given to the highest
        card by suit in all high games, and to the lowest card by suit in all low games ... all
        cards are used" (RR Section 3 Ties r.5(a)-(b))."""
        if self._plan.button or len(winners) < 2:
            return winners
        low = ranking in LOW_RANKINGS
        # aces are low in the low games (RR Section 9 intro; Section 10 r.3), high otherwise
        rank = _RANK_LOW if low and ranking != "deuce_seven_low" else _RANK_HIGH

        def key(i: int) -> tuple[int, int]:
            cards = [c for c in self.holes[i] if c is not None and c != JOKER]
            if not cards:
                return (-99, -99)
            if low:
                r, s = min((rank[c[0]], suit_rank(c)) for c in cards)
                return (-r, -s)
            return max((rank[c[0]], suit_rank(c)) for c in cards)

        return tuple(sorted(winners, key=key, reverse=True))


# --- hand strengths -------------------------------------------------------------------------------


def _omaha_high(hole: Sequence[str], board: Sequence[str]) -> int:
    """Best high hand of exactly two hole cards and three board cards (RR Section 6)."""
    best = -1
    board_codes = [sum(CARD_CODES[c] for c in b) for b in combinations(board, 3)]
    for h in combinations(hole, 2):
        hc = CARD_CODES[h[0]] + CARD_CODES[h[1]]
        for bc in board_codes:
            v = value_of_code(hc + bc)
            if v > best:
                best = v
    return best


def _strength(ranking: str, hand: str, hole: list[str], board: list[str],
              s: HouseSettings = _DEFAULT_SETTINGS) -> int | None:
    if ranking == "high" and hand == "omaha":
        if len(hole) < 2 or len(board) < 3:
            raise IllegalAction("WRONG_CARD_COUNT", "an Omaha hand needs two hole and three "
                                "board cards")
        return _omaha_high(hole, board)
    if ranking == "high":
        cards = hole + board
        if not 5 <= len(cards) <= 7:
            raise IllegalAction("WRONG_CARD_COUNT", f"{len(cards)} cards for a five-card hand")
        return value_of_code(sum(CARD_CODES[c] for c in cards))
    try:
        if hand == "omaha":
            value = omaha_strength(ranking, hole, board)
        elif ranking == "short_deck":
            value = strength(ranking, hole + board,
                             trips_beat_straight=s.short_deck_trips_beat_straight,
                             flush_beats_full_house=s.short_deck_flush_beats_full_house)
        else:
            value = strength(ranking, hole + board)
    except ValueError as exc:
        raise IllegalAction("BAD_HAND", f"cannot read a hand at the showdown: {exc}") from None
    return value


def _describe(ranking: str, value: int) -> str:
    if ranking == "high":
        return hand_name(value)
    return describe(ranking, value)
