"""The simulated dealer at the stud and draw games (controller/sim/stud_hand.py, draw_hand.py):
clean hands replay through a fresh engine and follow the event contract, each mistake emits its
sequence and its truth, and the same seed gives the same hands."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from controller.events import (
    Action,
    AttentionCalled,
    CardBoxed,
    CardExposed,
    DeckRegister,
    HandEnd,
    HandStart,
    MisdealDeclared,
    SeatTake,
    ShoeDraw,
    TableSetup,
    validate_body,
)
from controller.poker.variants import VARIANTS, family, table_game
from controller.rules.engine.hand import Hand, Stakes
from controller.sim import MISTAKES, CardMove, Mistake, SimDealer, expand
from controller.sim.mistakes import KINDS
from controller.sim.moves import SimStep
from controller.sim.remedies import MUST_TAKE, floor_stops

STUD_GAMES = tuple(g for g, v in VARIANTS.items() if family(v) == "stud")
DRAW_GAMES = tuple(g for g, v in VARIANTS.items() if family(v) == "draw")
GAMES = STUD_GAMES + DRAW_GAMES
# The mistakes after which the floor declares a misdeal right after the mistaken card.
MISDEAL_KINDS = frozenset({"first_card_wrong_seat", "card_out_of_sequence", "duplicate_card",
                           "draw_first_card_exposed", "seat_passed_over_dealt_next"})


class ContractError(AssertionError):
    """A clean hand departed from the event contract."""


@dataclass
class Table:
    """An independent reading of the dealer's steps: the table set-up, and each hand replayed
    through a fresh ``engine.Hand`` while checking the order of the cards (the event contract
    of docs in controller/sim/stud_hand.py and draw_hand.py)."""

    setup: TableSetup | None = None
    tags: dict[str, str] = field(default_factory=dict)
    stacks: dict[int, int] = field(default_factory=dict)
    carry: int = 0  # antes of deals nobody opened, waiting for the next pot
    spent: int = 0  # carried antes the last hand's pot took

    def table_step(self, step: SimStep) -> bool:
        if isinstance(step, TableSetup):
            self.setup = step
        elif isinstance(step, DeckRegister):
            if not step.idle:  # an idle deck (a foreign card's) is not the deck in play
                self.tags = dict(step.tags)
        elif isinstance(step, SeatTake):
            self.stacks[step.seat] = step.stack
        else:
            return False
        return True

    def replay(self, steps: Sequence[SimStep], button: int | None = None) -> Hand:
        """Replay one clean hand (``button``: where the table's plan put the button in a draw
        game); the engine raises IllegalAction on any illegal action."""
        body = [s for s in steps if not self.table_step(s)]
        assert self.setup is not None
        game = self.setup.game
        v = table_game(game, self.setup.structure)
        stud = game in STUD_GAMES
        start = body[0]
        assert isinstance(start, HandStart)
        seats = sorted(self.stacks)
        assert start.button is None  # the dealer names no button: the table's plan places it
        if stud:
            assert button is None
            order = seats
        else:
            assert button is not None
            b = seats.index(button)
            order = seats[b + 1:] + seats[:b + 1]
        n = len(order)
        pos = {s: i for i, s in enumerate(order)}
        posts = [s for s in body if isinstance(s, Action) and s.kind == "post"
                 and s.blind != "bring_in"]
        first_card = next(i for i, s in enumerate(body) if isinstance(s, CardMove))
        if any(isinstance(s, Action) and s.kind == "post" and s.blind != "bring_in"
               for s in body[first_card:]):
            raise ContractError("a forced post after the first card")
        setup = self.setup
        fixed = v.structure == "fixed"
        small, big = (setup.small_bet, setup.big_bet) if fixed else (0, 0)
        if stud or v.forced == "antes":
            if [(p.seat, p.blind, p.amount) for p in posts] != [
                    (s, "ante", min(setup.ante, self.stacks[s])) for s in order]:
                raise ContractError(f"antes {posts}")
            stakes = Stakes(antes=(setup.ante,) * n, bring_in=setup.bring_in if stud else 0,
                            small_bet=small, big_bet=big)
        else:
            sb, bb = (order[1], order[0]) if n == 2 else (order[0], order[1])
            if [(p.seat, p.blind) for p in posts] != [(sb, "small_blind"), (bb, "big_blind")]:
                raise ContractError(f"blinds {posts}")
            stakes = Stakes(blinds_or_straddles=(setup.small_blind, setup.big_blind),
                            small_bet=small, big_bet=big,
                            min_bet=0 if fixed else setup.big_blind)
        h = Hand(v, stakes, [self.stacks[s] for s in order])
        flags = v.streets[0].hole
        dealt = 0  # cards of the initial deal
        burns: dict[int, int] = {}  # street -> burns seen
        drawing: tuple[int, int, list[str]] | None = None  # (position, asked, discards)
        run = (0, 0)  # (seat, consecutive shoe cards to it)
        prev: SimStep | None = None
        for step in body[first_card:]:
            if isinstance(step, CardMove) and step.from_shoe:
                card = self.tags[step.uid]
                st = h.street
                if step.zone == "burn":
                    burns[st] = burns.get(st, 0) + 1
                    if st == 0 or burns[st] > (1 if stud else 2):
                        raise ContractError(f"burn on street {st}")
                    run = (0, 0)
                elif step.zone.startswith("seat:"):
                    seat = int(step.zone[5:])
                    p = pos[seat]
                    if st == 0:
                        if seat != order[dealt % n] or step.face_up != flags[dealt // n]:
                            raise ContractError(f"deal card {dealt} to seat {seat}")
                        dealt += 1
                    elif stud:
                        due = [s for s in order if h.hole_needed(pos[s])]
                        if burns.get(st) != 1 or seat != due[0] or \
                                step.face_up != v.streets[st].hole[0]:
                            raise ContractError(f"street {st} card to seat {seat}")
                    else:
                        if not burns.get(st) or (burns[st] == 1 and not h.hole_needed(p)):
                            raise ContractError("no burn before the draw's first card")
                        if step.face_up:
                            raise ContractError("a replacement card face up")
                    run = (seat, run[1] + 1 if run[0] == seat else 1)
                    if not stud and st > 0 and run[1] > 4:
                        raise ContractError(f"five consecutive cards to seat {seat}")
                    h.deal_hole(p, [card])
                else:
                    raise ContractError(f"a card to {step.zone} in a clean hand")
            elif isinstance(step, CardMove):
                seat = int(str(step.from_zone)[5:])
                if step.zone != "muck":
                    raise ContractError(f"a felt move to {step.zone} in a clean hand")
                if drawing is not None and drawing[0] == pos[seat]:
                    drawing[2].append(self.tags[step.uid])
                    if len(drawing[2]) == drawing[1]:
                        h.stand_pat_or_discard(drawing[0], drawing[2])
                        drawing = None
                elif not h.folded[pos[seat]]:
                    raise ContractError(f"seat {seat}'s cards mucked while it is in")
            elif isinstance(step, Action):
                p = pos[step.seat]
                if step.seat != run[0]:
                    run = (0, 0)  # another player's turn: the cards are no longer consecutive
                if step.kind == "draw":
                    assert step.amount is not None
                    if step.amount == 0:
                        h.stand_pat_or_discard(p, [])
                    else:
                        drawing = (p, step.amount, [])
                elif step.kind == "post":
                    h.post_bring_in(p)
                elif step.kind in ("bet", "raise"):
                    assert step.amount is not None
                    if (step.kind == "bet") != (max(h.bets) == 0):
                        raise ContractError(f"{step.kind} with bets {h.bets}")
                    h.complete_bet_or_raise_to(p, step.amount)
                elif step.kind in ("call", "check"):
                    owe = h.checking_or_calling_amount()
                    if (step.kind == "check") != (owe == 0):
                        raise ContractError(f"{step.kind} owing {owe}")
                    h.check_or_call(p)
                elif step.kind == "fold":
                    h.fold(p)
                elif step.kind == "allin":
                    # everything in: a bet or raise as its size makes it, or a call
                    top = h.stacks[p] + h.bets[p]
                    if h.can_complete_bet_or_raise_to(top, p):
                        h.complete_bet_or_raise_to(p, top)
                    else:
                        h.check_or_call(p)
                else:
                    raise ContractError(f"action {step.kind}")
            elif isinstance(step, HandEnd):
                if not h.betting_over:
                    raise ContractError("hand.end with betting still open")
                if not h.is_over:
                    h.show_all()
                assert h.is_over
            prev = step
        assert isinstance(prev, HandEnd)
        for i, seat in enumerate(order):
            self.stacks[seat] = h.stacks[i]
        # Draw high: a deal nobody opened keeps its antes for the next one (RR Section 12
        # r.14); the table adds them to the next pot awarded, which this replay does not split.
        self.spent = 0
        if h.carry_over and not h.awards:
            self.carry += h.carry_over
        elif self.carry and h.awards:
            self.spent, self.carry = self.carry, 0
        return h

    def check_stacks(self, dealer: SimDealer) -> None:
        """The replay settled the same pots as the table (a carried pot: the same chips)."""
        if self.spent or self.carry:
            assert sum(self.stacks.values()) + self.spent + self.carry == sum(
                dealer.stacks.values()) + dealer.state.carry
            self.stacks = dict(dealer.stacks)
        else:
            assert self.stacks == dealer.stacks


# --- clean hands -----------------------------------------------------------------------------


def _button(dealer: SimDealer) -> int | None:
    """Where the table's plan put the button in the hand just dealt (None: a stud game)."""
    h = dealer.state.hand
    assert h is not None
    return None if h.game.family == "stud" else h.button


@pytest.mark.parametrize("game", GAMES)
def test_clean_hands_replay_through_a_fresh_engine(game: str) -> None:
    showdowns = draws = fives = 0
    for seed in (1, 2):
        dealer = SimDealer(random.Random(seed), game=game)
        table = Table()
        for _ in range(30):
            steps = dealer.next_hand()
            h = table.replay(steps, _button(dealer))
            table.check_stacks(dealer)  # the engine settled the same pots
            showdowns += sum(1 for f in h.folded if not f) > 1
            for s in steps:
                if isinstance(s, Action) and s.kind == "draw":
                    draws += 1
                    fives += s.amount == 5
        assert dealer.truth == []
    assert showdowns > 5  # hands reach the showdown, not only folds
    if game in DRAW_GAMES:
        assert draws > 100
        assert (fives > 0) == (VARIANTS[game].max_draw == 5)


def test_every_body_is_a_valid_event() -> None:
    for game in GAMES:
        dealer = SimDealer(random.Random(5), mistake_rate=0.5, game=game)
        for _ in range(20):
            for step in dealer.next_hand():
                for body in expand(step):
                    if not isinstance(body, DeckRegister):  # the joker tag: the lead's part
                        validate_body(body)


def test_the_deck_register_has_the_joker_where_the_game_plays_it() -> None:
    for game, joker_deck in (("stud", False), ("draw5_joker", True), ("a5_lowball", True),
                             ("badugi", False)):
        dealer = SimDealer(random.Random(1), game=game)
        steps = [s for _ in range(12) for s in dealer.next_hand()]
        reg = next(s for s in steps if isinstance(s, DeckRegister))
        cards = list(reg.tags.values())
        # 52 cards, the joker's tag and a spare duplicate tag
        assert len(cards) == 54 and cards.count("Xx") == 1
        assert len(set(cards)) == 53
        assert reg.tags[dealer.joker_uid] == "Xx"
        # a game that plays the joker deals it like any card; another never does, clean
        dealt = {s.uid for s in steps if isinstance(s, CardMove) and s.from_shoe}
        assert (dealer.joker_uid in dealt) == joker_deck, game


def test_stud_antes_then_three_passes_in_seat_order() -> None:
    dealer = SimDealer(random.Random(3), seats=4, game="razz")
    steps = dealer.next_hand()
    body = [s for s in steps if isinstance(s, (HandStart, Action, CardMove))]
    assert body[0] == HandStart(button=None)
    assert [(a.seat, a.blind) for a in body[1:5]] == [(s, "ante") for s in (1, 2, 3, 4)]
    third = body[5:17]
    assert all(isinstance(c, CardMove) and c.from_shoe for c in third)
    assert [c.zone for c in third] == [f"seat:{s}" for s in (1, 2, 3, 4)] * 3
    assert [c.face_up for c in third] == [False] * 8 + [True] * 4
    assert isinstance(body[17], Action) and body[17].blind == "bring_in"


def test_draw_button_moves_and_a_misdeal_redeals_on_the_same_button() -> None:
    dealer = SimDealer(random.Random(4), seats=5, game="27_triple")
    buttons = []
    for kind in (None, None, "first_card_wrong_seat", None, None):
        dealer.next_hand(kind)
        buttons.append(_button(dealer))
    assert buttons == [1, 2, 3, 3, 4]


# --- mistakes --------------------------------------------------------------------------------


def _cases() -> list[tuple[str, str]]:
    return [(g, k) for g in GAMES for k in SimDealer(random.Random(0), game=g).mistakes]


def _moves(steps: Sequence[SimStep]) -> list[tuple[int, CardMove]]:
    return [(i, s) for i, s in enumerate(steps) if isinstance(s, CardMove)]


def _actions(steps: Sequence[SimStep], start: int = 0) -> list[tuple[int, Action]]:
    return [(i, s) for i, s in enumerate(steps) if isinstance(s, Action) and i >= start]


def _initial_deal(steps: Sequence[SimStep], game: str) -> list[tuple[int, CardMove]]:
    """The cards of the initial deal (third street): the shoe cards before the first action
    that is not an ante or blind post."""
    first = next((i for i, a in _actions(steps) if a.kind != "post" or a.blind == "bring_in"),
                 len(steps))
    return [(i, m) for i, m in _moves(steps) if m.from_shoe and m.zone.startswith("seat:")
            and i < first]


def _check_misdeal(steps: list[SimStep], truth: list[Mistake], dealer: SimDealer) -> None:
    (t,) = truth
    assert isinstance(steps[-1], MisdealDeclared) and not any(
        isinstance(s, HandEnd) for s in steps)
    last = steps[-2]
    assert isinstance(last, CardMove) and last.from_shoe
    assert dealer.tags[last.uid] == t.cards[-1]
    shoe = [m for _, m in _moves(steps) if m.from_shoe]
    if t.kind == "first_card_wrong_seat":
        assert len(shoe) == 1 and last.zone == f"seat:{t.seats[1]}"
    elif t.kind == "card_out_of_sequence":
        assert len(shoe) > 1 and last.zone == f"seat:{t.seats[1]}" != f"seat:{t.seats[0]}"
    elif t.kind == "seat_passed_over_dealt_next":
        # stud and draw rule the first card at once; the misdeal comes before the second
        due, landed = t.seats
        assert len(shoe) > 1 and last.zone == f"seat:{landed}" != f"seat:{due}"
    elif t.kind == "joker_dealt":
        assert t.cards == ("Xx",) and last.uid == dealer.joker_uid
    elif t.kind == "duplicate_card":
        assert last.uid == dealer.spare_uid
        assert [dealer.tags[m.uid] for m in shoe].count(t.cards[0]) == 2
    elif t.kind == "draw_first_card_exposed":
        assert len(shoe) <= 2 and last.face_up and last.zone == f"seat:{t.seats[0]}"


def _third_street(steps: list[SimStep], seat: int) -> list[CardMove]:
    return [m for _, m in _initial_deal(steps, "stud") if m.zone == f"seat:{seat}"]


def _check_stud(kind: str, steps: list[SimStep], truth: list[Mistake], dealer: SimDealer,
                before: dict[int, int]) -> None:
    tags = dealer.tags
    t = truth[-1]
    if kind in ("stud_downcard_exposed", "stud_both_downcards_exposed",
                "stud_exposed_remedy_ignored"):
        seat = t.seats[0]
        faces = [m.face_up for m in _third_street(steps, seat)]
        assert truth[0].expected_code == "STUD_ONE_HOLECARD_EXPOSED"
        if kind == "stud_downcard_exposed":
            assert len(truth) == 1 and faces in ([True, False, False], [False, True, False])
        elif kind == "stud_exposed_remedy_ignored":
            assert [x.expected_code for x in truth] == ["STUD_ONE_HOLECARD_EXPOSED",
                                                        "REMEDY_NOT_FOLLOWED"]
            assert faces in ([True, False, True], [False, True, True])
            assert tags[_third_street(steps, seat)[2].uid] == t.cards[0]
        else:
            assert [x.expected_code for x in truth] == ["STUD_ONE_HOLECARD_EXPOSED",
                                                        "STUD_BOTH_HOLECARDS_EXPOSED"]
            assert faces == [True, True] and len(t.cards) == 2
            # the dead hand goes to the muck before the betting, gets no more cards, and its
            # ante comes back
            first_bet = _actions(steps)[len(before)][0]
            mucked = [m for i, m in _moves(steps) if not m.from_shoe and i < first_bet]
            assert [m.from_zone for m in mucked] == [f"seat:{seat}"] * 2
            assert all(m.zone == "muck" for m in mucked)
            assert len([m for _, m in _moves(steps) if m.zone == f"seat:{seat}"]) == 2
            # the third pass skips it: the mucking comes right after the last card of the deal
            assert mucked == [steps[i] for i in range(first_bet - 2, first_bet)]
            assert dealer.stacks[seat] == before[seat]
    elif kind == "stud_wrong_bring_in":
        wrong, low = t.seats
        acts = [a for _, a in _actions(steps) if a.blind != "ante"]
        assert (acts[0].seat, acts[0].blind) == (wrong, "bring_in")
        assert (acts[1].seat, acts[1].blind) == (low, "bring_in")
        # the real low card, by a fresh engine
        seats = sorted(before)
        g = Hand(VARIANTS[dealer.game], Stakes(antes=(1,) * len(seats), bring_in=1,
                                               small_bet=2, big_bet=4),
                 [before[s] for s in seats])
        for _, m in _initial_deal(steps, "stud"):
            g.deal_hole(seats.index(int(m.zone[5:])), [tags[m.uid]])
        assert g.actor is not None and seats[g.actor] == low != wrong
        assert t.cards == (g.upcards(g.actor)[0],)
    elif kind == "stud_burn_missing":
        i, m = next((i, m) for i, m in _moves(steps) if m.from_shoe and tags[m.uid] == t.cards[0])
        assert m.zone == f"seat:{t.seats[0]}" and isinstance(steps[i - 1], Action)
        assert steps[i + 1] == CardMove(m.uid, False, "burn", False, f"seat:{t.seats[0]}")
        nxt = steps[i + 2]
        assert isinstance(nxt, CardMove) and nxt.from_shoe and nxt.zone == m.zone
    elif kind == "stud_burn_extra":
        i, m = next((i, m) for i, m in _moves(steps) if m.from_shoe and tags[m.uid] == t.cards[0])
        prev, fix = steps[i - 1], steps[i + 1]
        assert m.zone == "burn" and isinstance(prev, CardMove) and prev.zone == "burn"
        assert isinstance(fix, CardMove) and not fix.from_shoe and fix.from_zone == "burn"
        assert fix.uid == m.uid and fix.zone == f"seat:{t.seats[0]}"
    elif kind == "stud_premature_street":
        i, burn = next((i, m) for i, m in _moves(steps) if tags[m.uid] == t.cards[0])
        assert burn.zone == "burn" and isinstance(steps[i - 1], Action)
        card, aside = steps[i + 1], steps[i + 2]
        assert isinstance(card, CardMove) and card.from_shoe and card.zone.startswith("seat:")
        assert aside == CardMove(card.uid, card.face_up, "aside", False, card.zone)
        # the round goes on, then a card per player still in is set aside, then the burn
        # and the street
        rest = steps[i + 3:]
        assert isinstance(rest[0], Action)
        shoe = [m for m in rest if isinstance(m, CardMove) and m.from_shoe]
        aside = 0
        while shoe[aside].zone == "aside":
            aside += 1
        assert aside >= 2 and shoe[aside].zone == "burn"
        street = shoe[aside + 1:aside + 1 + aside]
        assert len({m.zone for m in street}) == aside
        assert all(m.zone.startswith("seat:") for m in street)
    elif kind == "stud_final_card_faceup":
        last_burn = max(i for i, m in _moves(steps) if m.zone == "burn")
        seventh = [m for i, m in _moves(steps) if i > last_burn and m.from_shoe]
        up = {m.zone for m in seventh if m.face_up}
        target = f"seat:{t.seats[0]}"
        assert target in up and tags[next(m.uid for m in seventh if m.zone == target)] \
            == t.cards[0]
        heads_up_first = len(seventh) == 2 and seventh[0].zone == target
        assert up == ({m.zone for m in seventh} if heads_up_first else {target})


def _check_draw(kind: str, steps: list[SimStep], truth: list[Mistake], dealer: SimDealer
                ) -> None:
    tags = dealer.tags
    (t,) = truth
    moves = _moves(steps)
    if kind == "draw_predraw_exposed":
        deal = _initial_deal(steps, dealer.game)
        up = [(n, m) for n, (_, m) in enumerate(deal) if m.face_up]
        ((n, m),) = up
        assert n >= 2 and tags[m.uid] == t.cards[0] and m.zone == f"seat:{t.seats[0]}"
        must = MUST_TAKE[dealer.game]
        out = [(i, x) for i, x in moves if x.uid == m.uid and x.zone == "burn"]
        if must is None or t.cards[0][0] in must:
            assert out == []
        else:
            # after the deal is complete: a new card to the seat, then the exposed card to
            # the burn (RR Section 11 Ace-to-Five r.3)
            ((i, x),) = out
            assert x.zone == "burn" and x.from_zone == m.zone
            new = steps[i - 1]
            assert isinstance(new, CardMove) and new.from_shoe and new.zone == m.zone
            assert not new.face_up
    elif kind == "draw_exposed_on_draw":
        i, m = next((i, m) for i, m in moves if m.from_shoe and m.face_up)
        assert tags[m.uid] == t.cards[0] and m.zone == f"seat:{t.seats[0]}"
        assert steps[i + 1] == CardMove(m.uid, True, "muck", False, m.zone)
        # the draw is completed to the others, then the seat's replacement comes last
        j = i + 2
        while not (isinstance(steps[j], Action) and steps[j].kind != "draw"):  # type: ignore
            j += 1
        last = steps[j - 1]
        assert isinstance(last, CardMove) and last.from_shoe and last.zone == m.zone
    elif kind == "draw_five_consecutive":
        seat = t.seats[0]
        i = next(i for i, a in _actions(steps) if a.kind == "draw" and a.seat == seat
                 and a.amount == 5 and any(tags[m.uid] == t.cards[0] for j, m in moves
                                           if j > i))
        cards = [m for j, m in moves if j > i and m.from_shoe and m.zone != "burn"][:5]
        assert all(m.zone == f"seat:{seat}" for m in cards) and tags[cards[4].uid] == t.cards[0]
        # not the last to draw: another player draws after it in this round
        after = [a for _, a in _actions(steps, i + 1)]
        assert after[0].kind == "draw"
    elif kind == "draw_button_short":
        button = _button(dealer)
        assert t.seats == (button,)
        first = next(i for i, a in _actions(steps) if a.kind != "post")
        passes = len(VARIANTS[dealer.game].streets[0].hole)
        got = [m for j, m in moves if j < first and m.zone == f"seat:{button}"]
        assert len(got) == passes - 1
        nxt = steps[first + 1]
        assert isinstance(nxt, CardMove) and nxt.from_shoe and nxt.zone == f"seat:{button}"
    elif kind == "draw_wrong_count":
        seat = t.seats[0]
        i, m = next((i, m) for i, m in moves if tags[m.uid] == t.cards[0])
        ask = [a for j, a in _actions(steps) if j < i and a.kind == "draw"][-1]
        assert ask.seat == seat and ask.amount is not None and 1 <= ask.amount <= 3
        start = steps.index(ask)
        got = [x for j, x in moves if start < j <= i and x.from_shoe and x.zone != "burn"]
        assert len(got) == ask.amount + 1 and all(x.zone == f"seat:{seat}" for x in got)
        # a dead hand: it folds at its next turn or is killed before hand.end
        end = next(j for j, s in enumerate(steps) if isinstance(s, HandEnd))
        folds = [a for j, a in _actions(steps, i) if a.seat == seat and a.kind == "fold"]
        killed = [x for j, x in moves if i < j < end and x.from_zone == f"seat:{seat}"]
        assert folds or killed
        assert [a.kind for j, a in _actions(steps, i) if a.seat == seat] in ([], ["fold"])
    elif kind == "draw_burn_missing":
        i, m = next((i, m) for i, m in moves if tags[m.uid] == t.cards[0])
        assert m.from_shoe and m.zone == f"seat:{t.seats[0]}"
        assert steps[i + 1] == CardMove(m.uid, False, "burn", False, m.zone)
        # no burn since the round began (its first card off the shoe)
        ask = max(j for j, a in _actions(steps) if j < i and a.kind != "draw")
        assert not any(x.zone == "burn" for j, x in moves if ask < j < i)


def _check_new(kind: str, steps: list[SimStep], truth: list[Mistake], dealer: SimDealer
               ) -> None:
    """The mistakes both families share with the board games, and the exposed-key ones."""
    tags = dealer.tags
    t = truth[-1]
    if kind == "unknown_tag":
        assert isinstance(steps[-1], MisdealDeclared)
        last = steps[-2]
        assert isinstance(last, CardMove) and last.from_shoe and last.uid not in tags
    elif kind == "boxed_card":
        i, boxed = next((i, s) for i, s in enumerate(steps) if isinstance(s, CardBoxed))
        assert tags[boxed.uid] == t.cards[0]
        # drawn, keyed boxed, set aside; the next card goes where it was going
        assert steps[i - 1] == ShoeDraw(boxed.uid, False)
        assert steps[i + 1] == CardMove(boxed.uid, False, "aside", False)
    elif kind == "mucked_hand_retrieved":
        seat = t.seats[0]
        back = [(i, s) for i, s in _moves(steps) if s.from_zone == "muck"]
        ((i, m),) = back
        fold = max(j for j, a in _actions(steps) if j < i and a.seat == seat)
        assert steps[fold] == Action(seat=seat, kind="fold") and m.zone == f"seat:{seat}"
        assert steps[i + 1] == CardMove(m.uid, False, "muck", False, f"seat:{seat}")
    elif kind == "foreign_card":
        # the idle deck is made known, then its card comes off the shoe in the deal
        ((i, idle),) = [(i, s) for i, s in enumerate(steps) if isinstance(s, DeckRegister)]
        (uid, card), = idle.tags.items()
        assert idle.idle and uid not in tags and card == t.cards[0]
        assert any(isinstance(s, CardMove) and s.uid == uid and s.from_shoe
                   for s in steps[i + 1:])
    elif kind == "cards_thrown":
        # before the first betting action: a card of one seat read in another, then the muck
        seat, other = t.seats
        first = next(j for j, a in _actions(steps) if a.kind != "post")
        ((i, m),) = [(i, s) for i, s in _moves(steps) if s.from_zone == f"seat:{seat}"
                     and s.zone == f"seat:{other}"]
        assert i < first and tags[m.uid] == t.cards[0]
        assert steps[i + 1] == CardMove(m.uid, False, "muck", False, f"seat:{other}")
        # the thrower's hand is dead: its first action after that is a fold
        own = [a for _, a in _actions(steps, first) if a.seat == seat]
        assert not own or own[0] == Action(seat=seat, kind="fold")
    elif kind == "hand_killed_unprotected":
        # before the first betting action the dealer sweeps every card of a live seat
        (seat,) = t.seats
        first = next(j for j, a in _actions(steps) if a.kind != "post")
        swept = [tags[s.uid] for i, s in _moves(steps) if i < first and s.zone == "muck"
                 and s.from_zone == f"seat:{seat}"]
        assert swept == list(t.cards)
    elif kind.endswith("_key"):
        keyed = [(i, s) for i, s in enumerate(steps) if isinstance(s, CardExposed)]
        ((i, key),) = keyed
        card = steps[i - 1]
        assert isinstance(card, CardMove) and card.from_shoe and not card.face_up
        assert card.uid == key.uid and key.by == "dealer" and tags[key.uid] == truth[0].cards[0]


# Made only if the hand gets there: a player folds (the retrieval), the deal is opened (draw
# high with jacks or better: a deal nobody opens is over before the draw).
PLAY_MAYBE = frozenset(k for k, v in KINDS.items() if v.stage == "play")


@pytest.mark.parametrize(("game", "kind"), _cases())
def test_each_mistake_emits_its_sequence_and_truth(game: str, kind: str) -> None:
    made = 0
    for seed in range(5):
        if made == 2:
            break
        dealer = SimDealer(random.Random(seed), game=game)
        t = Table()
        for s in dealer.next_hand():  # a clean first hand sets the table up
            t.table_step(s)
        # the stacks the mistake's hand starts with (a busted player re-buys first)
        before = {n: v or dealer.stack for n, v in dealer.stacks.items()}
        t.stacks = dict(before)
        steps = dealer.next_hand(kind)
        for s in steps:
            t.table_step(s)
        truth = [m for m in dealer.truth if m.hand == dealer.hand]
        if not truth and kind in PLAY_MAYBE:
            continue
        made += 1
        assert truth and all(m.kind == kind for m in truth)
        assert truth[-1].expected_code == MISTAKES[kind]
        if kind in MISDEAL_KINDS:
            _check_misdeal(steps, truth, dealer)
            assert dealer.stacks == before
        elif kind == "button_not_moved":
            # the first post is the small blind from the seat the button should be on; the
            # floor declares the misdeal before a card is dealt
            (made_it,) = truth
            assert isinstance(steps[-1], MisdealDeclared) and not _moves(steps)
            post = steps[-2]
            assert isinstance(post, Action) and post.kind == "post"
            assert post.seat == made_it.seats[1]
            assert dealer.stacks == before
        elif kind == "draw_after_hand_end":
            assert isinstance(steps[-2], HandEnd)
            assert steps[-1] == ShoeDraw(steps[-1].uid, True)  # type: ignore[union-attr]
            assert dealer.tags[steps[-1].uid] == truth[0].cards[0]  # type: ignore[union-attr]
        elif kind in ("unknown_tag", "draw_first_card_exposed_key", "foreign_card"):
            _check_new(kind, steps, truth, dealer)
            assert isinstance(steps[-1], MisdealDeclared) and dealer.stacks == before
        else:
            assert isinstance(steps[-1], HandEnd)
            if kind in ("boxed_card", "mucked_hand_retrieved", "cards_thrown",
                        "hand_killed_unprotected") or kind.endswith("_key"):
                _check_new(kind, steps, truth, dealer)
            elif game in STUD_GAMES:
                _check_stud(kind, steps, truth, dealer, before)
            else:
                _check_draw(kind, steps, truth, dealer)
        # the next hand is clean and replays through a fresh engine
        t.stacks = dict(dealer.stacks)
        t.carry = dealer.state.carry
        t.replay(dealer.next_hand(), _button(dealer))
        t.check_stacks(dealer)
        assert len(dealer.truth) == len(truth)
    assert made


@pytest.mark.parametrize("game", [
    "stud", "razz", "badugi", "27_triple"])
def test_the_floor_notices_a_stud_or_draw_misdeal_after_the_cutoff(game: str) -> None:
    """Two cards of the first pass swapped; with the alert apart from the attention call, the
    floor calls attention once two players have acted: the deal is played (MISDEAL_LOCKOUT;
    tests/scenarios/stud_misdeal_after_cutoff.jsonl), and the hand is played to its end."""
    dealer = SimDealer(random.Random(2), seats=5, game=game, attention_on_alert=False)
    steps = dealer.next_hand("misdeal_noticed_late")
    (m,) = dealer.truth
    assert m.expected_code == "MISDEAL_LOCKOUT" and len(m.seats) == 2
    i = next(i for i, s in enumerate(steps) if isinstance(s, AttentionCalled))
    assert sum(isinstance(s, Action) and s.kind != "post" for s in steps[:i]) >= 2
    assert isinstance(steps[-1], HandEnd)
    assert [(f.code, f.seats, f.cards) for _, f in dealer.found] == [
        ("MISDEAL_LOCKOUT", m.seats, m.cards)]


def test_predraw_exposed_card_kept_and_replaced_both_happen() -> None:
    seen = set()
    for seed in range(12):
        dealer = SimDealer(random.Random(seed), game="27_triple")
        steps = dealer.next_hand("draw_predraw_exposed")
        seen.add(any(isinstance(s, CardMove) and s.zone == "burn" and not s.from_shoe
                     for s in steps))
    assert seen == {True, False}


def test_final_card_face_up_heads_up_and_multiway_both_happen() -> None:
    sizes = set()
    for seed in range(12):
        dealer = SimDealer(random.Random(seed), game="stud")
        steps = dealer.next_hand("stud_final_card_faceup")
        last_burn = max(i for i, m in _moves(steps) if m.zone == "burn")
        sizes.add(len([m for i, m in _moves(steps) if i > last_burn]))
    assert {2, 3} <= sizes


def test_mistake_rate_records_truth_for_some_hands() -> None:
    dealer = SimDealer(random.Random(9), mistake_rate=0.4, game="badugi")
    for _ in range(50):
        dealer.next_hand()
    hands = {m.hand for m in dealer.truth}
    assert 8 < len(hands) < 35
    assert all("draw" in KINDS[m.kind].families for m in dealer.truth)


# --- determinism and bad input ---------------------------------------------------------------


@pytest.mark.parametrize("game", ["stud8", "a5_lowball", "27_single"])
def test_same_seed_same_hands(game: str) -> None:
    def run(seed: int) -> tuple[list[list[SimStep]], list[Mistake]]:
        dealer = SimDealer(random.Random(seed), mistake_rate=0.5, game=game)
        return [dealer.next_hand() for _ in range(25)], dealer.truth

    assert run(7) == run(7)
    assert run(7) != run(8)


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        SimDealer(random.Random(1), game="holdem")
    with pytest.raises(ValueError, match="seats"):
        SimDealer(random.Random(1), seats=7, game="stud")
    with pytest.raises(ValueError, match="positive"):
        SimDealer(random.Random(1), game="badugi", stack=0)
    with pytest.raises(ValueError, match="not dealt at"):
        SimDealer(random.Random(1), game="stud", structure="no-limit")
    with pytest.raises(ValueError, match="its own structure"):
        SimDealer(random.Random(1), game="horse", structure="limit")
    with pytest.raises(ValueError, match="unknown mistake kind"):
        SimDealer(random.Random(1), game="draw5_joker").next_hand("joker_dealt")
    with pytest.raises(ValueError, match="unknown mistake kind"):
        SimDealer(random.Random(1), game="badugi").next_hand("draw_five_consecutive")
    with pytest.raises(ValueError, match="unknown mistake kind"):
        SimDealer(random.Random(1), game="stud").next_hand("draw_wrong_count")


# --- the monitor's word on each mistake ------------------------------------------------------

CORE_PROBLEMS: dict[tuple[str, str], str] = {}


def _monitor_cases() -> list[object]:
    return [pytest.param(g, k, id=f"{g}-{k}", marks=[pytest.mark.xfail(
                reason=CORE_PROBLEMS[(g, k)], strict=True)] if (g, k) in CORE_PROBLEMS else [])
            for g, k in _cases()]


@pytest.mark.parametrize(("game", "kind"), _monitor_cases())
def test_each_mistake_raises_exactly_its_codes(game: str, kind: str) -> None:
    """The rules core raises exactly the findings the dealer's truth holds (codes, seats and
    cards), the floor stops the hand after a misdeal, and the next hand is clean."""
    made = 0
    for seed in range(4):
        dealer = SimDealer(random.Random(100 + seed), game=game)
        dealer.next_hand()
        steps = dealer.next_hand(kind)
        truth = sorted((m.expected_code, m.seats, m.cards) for m in dealer.truth)
        found = sorted((f.code, f.seats, f.cards) for n, f in dealer.found
                       if n == dealer.hand)
        if not truth and kind in PLAY_MAYBE:
            assert found == []
            continue
        made += 1
        assert found == truth
        if any(floor_stops(code, family(VARIANTS[game])) for code, _, _ in found):
            assert isinstance(steps[-1], MisdealDeclared)  # the floor declared the misdeal
        dealer.next_hand()
        assert [f.code for _, f in dealer.found] == []
        if made == 2:
            break
    assert made
