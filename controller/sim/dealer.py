"""The simulated dealer: what physically happens at a table, hand after hand, mistakes included,
for every game the table deals (``controller/sim/games.py``: each variant of
``controller/poker/variants.py`` at each structure it is dealt at, HORSE and dealer's choice).

Pure and deterministic given its ``random.Random``: no clock, no I/O. Each ``next_hand()``
returns the ordered steps of one hand:

- console inputs as event bodies (``TableSetup``, ``SeatTake`` and ``DeckRegister`` before the
  first hand, re-buys and seat changes between hands, then at a dealer's choice table the
  ``GameChoose``, then ``HandStart``, ``ShuffleDone``, ``Action``, ``CardExposed``,
  ``CardBoxed``, ``AttentionCalled``, ``HandEnd`` or ``MisdealDeclared``), and
- card movements ``CardMove``: ``from_shoe`` means the reader path produces ``shoe.draw`` then
  ``zone.read``; otherwise the card moved on the felt (a folded hand to the muck).

``expand(step)`` gives the exact event bodies a step yields at the table.

One dealer for every game: the hand is dealt by the dealer of its family (``board_hand``,
``stud_hand``, ``draw_hand``), each driven by the game's ``Variant`` data and by the table
itself. The dealer applies every event it makes to a shadow table (the real rules core) and
deals from what it says: the forced posts and the seats dealt in (the snapshot's ``hand.posts``
and ``hand.dealt_in``), who acts and the legal amounts, who is still due cards, whose turn it is
to draw or discard (the hand engine, ``table_view``). Every action is legal, so a clean hand
raises no finding.

With probability ``mistake_rate`` a hand holds a dealing mistake of its family (catalogue:
``mistakes.py``); the dealer records the truth in ``truth`` (one ``Mistake`` per finding the
core must raise). A finding with a remedy the dealer follows does not stop the hand: the dealer
carries out the remedy move by move and plays the hand to the end; after any other finding the
simulated floor ends the hand with ``misdeal.declared`` (``remedies.py``: the remedy choice, in
one place). At a table whose monitor alert is not the attention call (``attention_on_alert``
False) the dealer calls attention (``attention.called``) the moment it errs, except for the
mistakes the floor notices only after the misdeal cut-off.

Between hands, with probability ``seat_changes``, the table changes (issue 4): a player steps
away or comes back (posting the missed blinds or waiting for the big blind), leaves, or a new
player sits down in an empty seat (posting or waiting); busted players re-buy. The dealer posts
whatever the seating plan has due and deals to the plan's seats, so these changes never raise a
finding of their own.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Mapping, Sequence
from typing import Any

from controller.events import (
    Action,
    AttentionCalled,
    DeckRegister,
    Event,
    GameChoose,
    HandStart,
    MisdealDeclared,
    PlayerAway,
    PlayerBack,
    SeatLeave,
    SeatTake,
    ShuffleDone,
    TableSetup,
)
from controller.poker.house_rules import settings_for
from controller.poker.variants import JOKER, ROTATIONS, Variant, family, table_game
from controller.rules import Finding, TableState, apply, initial_state, snapshot
from controller.sim import table_view
from controller.sim.board_hand import BoardHand
from controller.sim.chip_dealer import CHIP_ACTIONS, ChipDealer
from controller.sim.chip_mistakes import CHIP_KINDS
from controller.sim.draw_hand import DrawHand
from controller.sim.games import SIM_GAMES, deck_cards, games_of, sim_seats, uses_antes
from controller.sim.hand_dealer import HandDealer
from controller.sim.mistakes import DEAL, KINDS, MISTAKES, PLAY, mistakes_for, players_needed
from controller.sim.moves import NAMES, CardMove, Mistake, SimStep, deck_roles, expand, new_uid
from controller.sim.remedies import floor_stops
from controller.sim.stud_hand import StudHand
from controller.sim.table_port import Late

__all__ = ["MISTAKES", "NAMES", "CardMove", "Mistake", "SimDealer", "SimStep", "expand"]

FAMILY_DEALERS: dict[str, type[HandDealer]] = {
    "board": BoardHand, "stud": StudHand, "draw": DrawHand}

# Dealing mistakes the dealer does not make at a table that reads its chips: the wrong stud
# bring-in, a console post the core takes as corroborating the seat's ante posted by chips (the
# wrong low card is never judged); the button dealt a card short, whose typed first action (the
# engine has no actor yet) is now and then OOT_ACTION at a chips table (draw5, 1 hand in 200).
NOT_WITH_CHIPS = frozenset({"stud_wrong_bring_in", "draw_button_short"})

class _Stop(Exception):
    """The floor stopped the hand (a finding was raised)."""


class SimDealer:
    """A simulated dealer at one table of ``game`` (any id of ``games.SIM_GAMES``)."""

    def __init__(
        self,
        rng: random.Random,
        seats: int = 6,
        mistake_rate: float = 0.0,
        small_blind: int = 1,
        big_blind: int = 2,
        stack: int = 200,
        seat_changes: float = 0.0,
        redraw_returned: bool = False,
        *,
        game: str = "nlhe",
        structure: str = "",
        ante: int | None = None,
        bring_in: int = 0,
        small_bet: int = 0,
        big_bet: int = 0,
        profile: str = "roberts",
        attention_on_alert: bool = True,
        chips: bool = False,
        chip_mistake_rate: float = 0.0,
        chips_console: bool = False,
        rake_percent: int = 0,
        rake_cap: int = 0,
    ) -> None:
        if game not in SIM_GAMES:
            raise ValueError(f"unknown game {game!r}; one of {', '.join(SIM_GAMES)}")
        if game in ROTATIONS:
            if structure:
                raise ValueError(f"{ROTATIONS[game].name} deals each game at its own structure; "
                                 "no structure is given")
            self.variants = games_of(game)
        else:
            self.variants = (table_game(game, structure),)  # ValueError names the problem
        lo, hi = sim_seats(game)
        if type(seats) is not int or not lo <= seats <= hi:
            raise ValueError(f"{game} is simulated at {lo}..{hi} seats, not {seats!r}")
        for name, value in (("stack", stack), ("small_blind", small_blind),
                            ("big_blind", big_blind)):
            if type(value) is not int or value <= 0:
                raise ValueError(f"{name} must be a positive int, got {value!r}")
        for name, value in (("ante", ante or 0), ("bring_in", bring_in),
                            ("small_bet", small_bet), ("big_bet", big_bet),
                            ("rake_cap", rake_cap)):
            if type(value) is not int or value < 0:
                raise ValueError(f"{name} must be an int >= 0, got {value!r}")
        if small_blind > big_blind or (big_bet and small_bet > big_bet):
            raise ValueError("need small_blind <= big_blind and small_bet <= big_bet")
        for name, rate in (("mistake_rate", mistake_rate),
                           ("chip_mistake_rate", chip_mistake_rate)):
            if not 0.0 <= rate <= 1.0:
                raise ValueError(f"{name} must be in 0..1, got {rate!r}")
        if type(rake_percent) is not int or not 0 <= rake_percent <= 100:
            raise ValueError(f"rake_percent must be an int in 0..100, got {rake_percent!r}")
        settings_for(profile)  # SettingsError names an unknown profile
        self.rng = rng
        self.game = game
        self.structure = structure
        self.seats = seats
        self.mistake_rate = mistake_rate
        self.small_blind = small_blind
        self.big_blind = big_blind
        self.stack = stack
        self.ante = (1 if uses_antes(game) else 0) if ante is None else ante
        # the limits and the bring-in as the table's set-up names them (0: the core's defaults,
        # spelt out so that a reader of the journal sees the stakes)
        self.small_bet = small_bet or big_blind
        self.big_bet = big_bet or 2 * self.small_bet
        self.bring_in = bring_in or max(1, self.small_bet // 3)
        self.profile = profile
        # the house's rake of each pot (table.setup's schedule); off by default. At a table that
        # reads its chips the dealer drops it in the drop as it pushes the pot (chip_dealer.py)
        self.rake_percent = rake_percent
        self.rake_cap = rake_cap
        self.attention_on_alert = attention_on_alert
        self.seat_changes = seat_changes
        # Cards a remedy returns to the stub may come out again in the same hand after the
        # reshuffle (the rules core must take them as new draws). Off by default: a live reader
        # debounces a second shoe read of a tag that comes within its window (sensing/cards.py),
        # which at pace 0 a same-hand re-draw does; the pure bench turns it on.
        self.redraw_returned = redraw_returned
        kinds: set[str] = set()
        for v in self.variants:
            kinds.update(mistakes_for(v))
        # The mistakes this table's dealer makes: the floor notices an error late only where
        # the monitor's alert is not the attention call.
        self.mistakes: tuple[str, ...] = tuple(sorted(
            k for k in kinds if (attention_on_alert is False or not KINDS[k].late)
            and not (chips and k in NOT_WITH_CHIPS)))
        self.truth: list[Mistake] = []
        self.hand = 0
        self.state: TableState = initial_state()
        self.seq = 0
        self.tags: dict[str, str] = {}
        self.uid_of: dict[str, str] = {}
        self.spare_uid = ""
        self.joker_uid = ""
        self.late: Late | None = None  # a misdeal the floor will notice after the cut-off
        # The findings the shadow table raised in the last ``next_hand`` (set-up included), with
        # the hand number each belongs to: what the rules core says of the steps it returned.
        self.found: list[tuple[int, Finding]] = []
        self._family = family(self.variants[0])  # the family of the hand being dealt
        self._steps: list[SimStep] = []
        self._opened = False  # the table is set up (by this dealer, or recovered: ``resume``)
        self._pending: list[SimStep] = []  # set-up a resumed table still lacks
        # The chips (``chip_dealer.py``): players who bet with chips, the dealer's scoops and
        # pushes, chip mistakes; None at a table without chip sensors. Its own random stream,
        # drawn once from the table's.
        self.chips: ChipDealer | None = None
        if chips:
            self.chips = ChipDealer(self, random.Random(rng.getrandbits(64)),
                                    console=chips_console, mistake_rate=chip_mistake_rate)

    # --- the shadow table ----------------------------------------------------------------------

    def emit(self, step: SimStep) -> None:
        """Make the step at the table: apply it to the shadow table; after a finding the dealer
        does not put right, the floor declares a misdeal and the hand stops. At a table that
        reads its chips a betting action is the player's chips (``chip_dealer.py``)."""
        if self.chips is not None and isinstance(step, Action) and step.kind in CHIP_ACTIONS:
            if self.chips.takes(step):
                self.chips.act(step)
            else:
                self.chips.declared(step)
            return
        self.raw_emit(step)

    def pending_step(self, step: SimStep) -> None:
        """A set-up step a resumed table still lacks, made before the next hand."""
        self._pending.append(step)

    def raw_emit(self, step: SimStep) -> None:
        """``emit`` as it is: the step itself, then what the chips' dealer does after it."""
        self._steps.append(step)
        stop = False
        for body in expand(step):
            self.seq += 1
            result = apply(self.state, Event(self.seq, 0, body))
            self.state = result.state
            if result.findings:
                number = self.state.hand_number
                self.found += [(number, f) for f in result.findings]
                stop = stop or any(floor_stops(f.code, self._family) for f in result.findings)
        if self.chips is not None:
            self.chips.observe(step)
        if stop and not isinstance(step, MisdealDeclared) and table_view.game(self.state):
            self.late = None
            self.emit(MisdealDeclared())
            raise _Stop
        if (self.late is None and not isinstance(step, AttentionCalled)
                and table_view.held(self.state)):
            # The dealer calls attention to its error at once (the table's alert does not).
            self.emit(AttentionCalled(by="dealer"))

    def record(self, kind: str, seats: Sequence[int], cards: Sequence[str],
               code: str | None = None) -> None:
        self.truth.append(Mistake(self.hand, kind, code or MISTAKES[kind], tuple(seats),
                                  tuple(cards)))

    def _snap(self) -> dict[str, Any]:
        return snapshot(self.state)

    @property
    def stacks(self) -> dict[int, int]:
        """Each seated player's chips between hands."""
        return {n: s.stack for n, s in self.state.seats.items()}

    # --- hands ---------------------------------------------------------------------------------

    def next_hand(self, mistake: str | None = None,
                  chip_mistake: str | None = None) -> list[SimStep]:
        """Play one hand; ``mistake`` forces a mistake kind (else one at ``mistake_rate``). A
        kind this hand cannot hold (too few players or deep stacks, or at a mixed table a
        hand of another family) is replaced by a mistake of the deal that it can.
        ``chip_mistake`` (a table that reads its chips) forces a chip mistake kind instead
        (``chip_mistakes.py``), made if the hand gives it a chance."""
        if mistake is not None and mistake not in self.mistakes:
            raise ValueError(f"unknown mistake kind {mistake!r} for {self.game}; one of "
                             f"{list(self.mistakes)}")
        if chip_mistake is not None and (self.chips is None or chip_mistake not in CHIP_KINDS):
            raise ValueError(f"unknown chip mistake kind {chip_mistake!r} (a table that reads "
                             f"its chips: one of {list(CHIP_KINDS)})")
        self._steps = []
        self.found = []
        try:
            if not self._opened:
                self._open_table()
            for pending in self._pending:
                self.emit(pending)
            self._pending = []
            for seat in self._snap()["seats"]:
                if seat["stack"] == 0:  # re-buy a busted player between hands
                    self.emit(SeatTake(seat=seat["seat"], player=seat["player"],
                                       stack=self.stack))
            if self.hand > 0 and self.rng.random() < self.seat_changes:
                self._change_seats()
            if self.chips is not None:
                self.chips.between_hands()
        except _Stop:  # pragma: no cover - set-up never raises a finding
            pass
        self.hand += 1
        make = chip_mistake is None and (mistake is not None
                                         or self.rng.random() < self.mistake_rate)
        if self.chips is not None:
            self.chips.new_hand(card_mistake=make, force=chip_mistake)
        self.late = None
        with contextlib.suppress(_Stop):
            self._play(mistake, make)
        self.late = None
        return self._steps

    def resume(self, state: TableState, tags: Mapping[str, str] | None) -> None:
        """Deal on at a table recovered from its journal (``feltguard sim`` restarted after a
        crash): the shadow table becomes the recovered one, the deck the registered one. What
        the journal lacks (no deck registered yet, fewer than two players) is set up before the
        next hand."""
        snap = snapshot(state)
        self.state = state
        self.seq = int(snap["last_seq"])
        self.hand = int(snap["hand"]["number"])
        self._opened = True
        if tags:
            self.tags = dict(tags)
            self.uid_of, self.spare_uid, self.joker_uid = deck_roles(tags, JOKER)
            if self.joker_uid:
                self.uid_of[JOKER] = self.joker_uid
        else:
            self._pending.append(self._new_deck())
        seated = {s["seat"] for s in snap["seats"]}
        if len(seated) < 2:
            self._pending += [SeatTake(seat=n, player=NAMES[n - 1], stack=self.stack)
                              for n in range(1, self.seats + 1) if n not in seated]
        if self.chips is not None:
            self.chips.resume(state)

    def _open_table(self) -> None:
        self._opened = True
        settings = {} if self.attention_on_alert else {"attention_on_alert": False}
        self.emit(TableSetup(
            game=self.game, structure=self.structure, seats=self.seats,
            small_blind=self.small_blind, big_blind=self.big_blind, ante=self.ante,
            bring_in=self.bring_in, small_bet=self.small_bet, big_bet=self.big_bet,
            profile=self.profile, settings=settings, rake_percent=self.rake_percent,
            rake_cap=self.rake_cap))
        for seat in range(1, self.seats + 1):
            self.emit(SeatTake(seat=seat, player=NAMES[seat - 1], stack=self.stack))
        self.emit(self._new_deck())
        if self.chips is not None:
            self.chips.open()

    def _new_deck(self) -> DeckRegister:
        for card in deck_cards(self.game):
            uid = new_uid(self.rng, self.tags)
            self.tags[uid] = card
            self.uid_of[card] = uid
        # The joker's tag: a card of the games that play it; elsewhere kept out of the shoe but
        # in a joker mistake. A spare tag carrying a duplicate of a card every game deals (a
        # defective deck): registered, but kept out of the shoe except in a duplicate-card hand.
        self.joker_uid = new_uid(self.rng, self.tags)
        self.tags[self.joker_uid] = JOKER
        self.uid_of[JOKER] = self.joker_uid
        common = set(deck_cards(self.game))
        for v in self.variants:
            common &= set(v.deck_cards)
        self.spare_uid = new_uid(self.rng, self.tags)
        self.tags[self.spare_uid] = self.rng.choice(sorted(common))
        return DeckRegister(deck=f"sim-{self.game}", tags=dict(self.tags))

    def _change_seats(self) -> None:
        """One change at the table between hands; at least three players stay present."""
        seats = {s["seat"]: s for s in self._snap()["seats"]}
        present = [n for n, s in seats.items() if s["status"] != "away"]
        away = [n for n, s in seats.items() if s["status"] == "away"]
        empty = [n for n in range(1, self.seats + 1) if n not in seats]
        r = self.rng.random()
        if away and r < 0.4:
            self.emit(PlayerBack(seat=self.rng.choice(away), post=self.rng.random() < 0.5))
        elif len(present) > 3 and r < 0.7:
            self.emit(PlayerAway(seat=self.rng.choice(present)))
        elif empty and r < 0.85:
            names = [n for n in NAMES + tuple(f"P{i}" for i in range(99))
                     if n not in {s["player"] for s in seats.values()}]
            self.emit(SeatTake(seat=self.rng.choice(empty), player=names[0], stack=self.stack,
                               post=self.rng.random() < 0.5))
        elif len(present) > 3:
            self.emit(SeatLeave(seat=self.rng.choice(present)))

    def _play(self, forced: str | None, make: bool) -> None:
        rot = ROTATIONS.get(self.game)
        if rot is not None and rot.dealers_choice and not self.state.redeal:
            # the dealer names the game of the hand (JPN Dealer's Choice)
            self.emit(GameChoose(game=self.rng.choice(rot.games)[0]))
        self.emit(HandStart())
        if table_view.game(self.state) is None:
            return  # the table refused the hand (EVENT_OUT_OF_PLACE names why)
        self.hand = self.state.hand_number  # the truth's hand numbers are the table's
        self.emit(ShuffleDone())
        v = table_view.variant(self.state)
        assert v is not None
        self._family = family(v)
        hand = self._snap()["hand"]
        order = list(hand["dealt_in"])
        kind = self._pick(forced, v, order) if make else None
        if kind == "button_not_moved":
            # the button left where it was (or, on the first hand, put one seat short): the
            # seat it should be on posts the small blind a button one seat before would make it
            # post (RR Section 3, Misdeals, r.2(g))
            button = hand["button"]
            seats = sorted(order)
            self.record(kind, [seats[seats.index(button) - 1], button], [])
            small = next(p["amount"] for p in hand["posts"] if p["kind"] == "small_blind")
            self.emit(Action(seat=button, kind="post", amount=small))
        for post in hand["posts"]:  # every forced post the seating plan has due, in order
            self.emit(Action(seat=post["seat"], kind="post", amount=post["amount"],
                             blind=post["kind"]))
        FAMILY_DEALERS[self._family](self, v, kind, order, hand).play()

    def _pick(self, forced: str | None, v: Variant, order: list[int]) -> str:
        """The mistake of this hand: ``forced``, or one of the game's at random; one the hand
        cannot hold is replaced by a mistake of the deal that it can."""
        fam = family(v)
        own = [k for k in mistakes_for(v) if k in self.mistakes]
        kind = forced if forced is not None else self.rng.choice(own)
        if kind in own and self._feasible(kind, fam, v, order):
            return kind
        deal = [k for k in own if KINDS[k].stage == DEAL and not KINDS[k].late
                and self._feasible(k, fam, v, order)]
        return self.rng.choice(deal)

    def _feasible(self, kind: str, fam: str, v: Variant, order: list[int]) -> bool:
        n = len(order)
        if n < players_needed(kind, fam):
            return False
        if kind == "draw_button_short" and v.forced == "blinds" and n <= 3:
            return False  # the first to act would be the button itself
        if kind == "button_not_moved":
            # blinds, a small blind, and the button on a seat dealt in (not a dead button)
            hand = self._snap()["hand"]
            return (v.forced == "blinds" and hand.get("small_blind") is not None
                    and hand.get("button") in order
                    and any(p["kind"] == "small_blind" for p in hand["posts"]))
        if fam == "board" and KINDS[kind].stage == PLAY:
            # the hand must reach the street of the mistake with its betting open
            stacks = self.stacks
            deep = sum(1 for s in order if stacks.get(s, 0) >= 10 * self.big_blind)
            return deep >= 3
        return True
