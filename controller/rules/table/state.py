"""The live table's state: the records ``apply`` takes and returns.

``TableState`` is the table across hands (seats, the seating layer's obligations, the level, the
deck and chips registries, the readers' health, the hand in play, every finding so far); ``Hand``
is one hand at the table around the procedure monitor's ``GameHand``; ``Step`` is what ``apply``
answers. Every record is a frozen dataclass: a change builds new records and shares the rest, so
``apply`` never mutates the state it is given (``controller.rules.table.dispatch``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from controller.events import (
    TableSetup,
)
from controller.poker.cards import DeckRegistry
from controller.poker.house_rules import Settings, settings_for
from controller.poker.pots import PotAward
from controller.rules import procedure
from controller.rules.chips import NO_BETS, NO_CHIPS, ChipBets, Chips
from controller.rules.findings import Finding
from controller.rules.table import seating
from controller.rules.table.devices import DeviceHealth
from controller.rules.table.mixed import Mix
from controller.rules.table.seating import HandPlan, Seating

_DEFAULT_SETUP = TableSetup()


_EMPTY_DECK = DeckRegistry()


_DEFAULT_SETTINGS = settings_for()


_NO_MIX = Mix()


# `tournament.level` event, not by the core reading a clock); a hand's clock reading is the
# start of its level.
LEVEL_MS = 60_000


@dataclass(frozen=True)
class SeatInfo:
    """A player at the table and the chips in front of them between hands."""

    player: str
    stack: int


@dataclass(frozen=True)
class Act:
    """A voluntary action as the misdeal cut-off counts it."""

    seat: int
    kind: str
    in_turn: bool
    raised: bool = False  # it raised the bet (a bet, a raise or an all-in above the bet)


@dataclass(frozen=True)
class Hand:
    """The hand in progress (or the last one, once complete or void)."""

    number: int
    button: int
    small_blind: int | None
    big_blind: int | None
    # The hand itself: the hand engine (betting, streets, pots) under the procedure monitor of
    # the game's family (controller/rules/procedure/).
    game: procedure.GameHand
    phase: str = "preflop"
    cards_seen: int = 0
    showdown: tuple[int, ...] = ()
    plan: HandPlan | None = None  # the seating layer's plan for this hand
    warned_blind: bool = False  # BLIND_NOT_POSTED raised (once a hand)
    absent: tuple[int, ...] = ()  # tournament: absent seats dealt in, killed after the deal
    # tournament stud under absent_hand_kill = stud_window_card_until_turn: absent seats whose
    # down cards are dead, the window card left until the action reaches the seat
    window: tuple[int, ...] = ()
    acts: tuple[Act, ...] = ()  # the voluntary actions so far (for the misdeal cut-off)
    held: tuple[Finding, ...] = ()  # misdeal-level errors waiting for attention to be called
    foreign: tuple[str, ...] = ()  # tags of another registered deck seen in this hand
    asked: int | None = None  # draw games: the seat whose draw count was last asked and told
    bets: ChipBets = NO_BETS  # what the bet zones' chips have done this hand (chips/betting.py)

    @property
    def in_play(self) -> bool:
        return self.phase not in ("complete", "misdeal")


@dataclass(frozen=True)
class TableState:
    """Everything the rules core knows about the table."""

    last_seq: int = 0
    setup: TableSetup = _DEFAULT_SETUP
    settings: Settings = _DEFAULT_SETTINGS
    seating: Seating = field(default_factory=lambda: seating.new_table(max_seats=6))
    deck: DeckRegistry = _EMPTY_DECK
    hand_number: int = 0
    hand: Hand | None = None
    findings: tuple[Finding, ...] = ()  # the current (or last) hand's findings
    results: tuple[PotAward, ...] = ()  # the pots awarded at the last hand.end
    last_button: int | None = None
    redeal: bool = False  # the last hand was a misdeal: the next hand keeps its button
    shuffled: bool = False  # the deck was shuffled since the last hand ended
    level: int = 0  # tournament: the level index in force
    level_next: int | None = None  # tournament: a level signalled, waiting for its marker
    chip_race: bool = False  # a colour-up chip race is being dealt
    # Draw high: antes of a deal nobody opened, waiting in the middle for the next deal (RR
    # Section 12 r.14; RRH Section 12 Jacks-or-Better r.1).
    carry: int = 0
    mix: Mix = _NO_MIX  # a mixed game: where its rotation stands (mixed.py)
    # Each card reader's last reported health (devices.py), across hands.
    devices: tuple[DeviceHealth, ...] = ()
    # The chip sets and each chip zone's settled chips (the chips wing), across hands.
    chips: Chips = NO_CHIPS
    # The state before the last applied event, for `undo` (one step: an undo cannot be undone;
    # the kept state holds no previous of its own, so the history never grows).
    previous: TableState | None = field(default=None, compare=False, repr=False)
    previous_event: str = field(default="", compare=False, repr=False)

    @property
    def phase(self) -> str:
        return self.hand.phase if self.hand is not None else "idle"

    @property
    def seats(self) -> Mapping[int, SeatInfo]:
        """The players at the table and their chips between hands (from the seating layer)."""
        return MappingProxyType({n: SeatInfo(st.player, st.stack)
                                 for n, st in sorted(self.seating.seats.items())})


@dataclass(frozen=True)
class Step:
    """What ``apply`` returns: the new state, the findings this event raised and, at
    ``hand.end``, the pots awarded."""

    state: TableState
    findings: tuple[Finding, ...] = ()
    results: tuple[PotAward, ...] = ()


def initial_state() -> TableState:
    return TableState()
