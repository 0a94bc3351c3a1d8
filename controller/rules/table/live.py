"""The table across hands: state and ``apply`` (state, event) -> Step.

Pure and deterministic: ``apply`` never mutates the state it is given (every state object is a
frozen dataclass; a change builds new objects and shares the rest), never reads a clock and never
raises. An event the table cannot apply now is recorded as a finding and leaves the state as it
was (docs/findings.md, EVENT_OUT_OF_PLACE), so a journal replays to the same states and findings.

Across hands the seating layer (``seating.py``, research/button-blinds-betting.md §1.18) owns
the seats, the button and every blind obligation, under the table's house-rules profile
(``house_rules.py``):
- ``hand.start``: ``seating.plan_hand`` gives the button (which may sit in front of an empty seat:
  dead button), the blinds, every forced post due and the seats dealt in, in dealing order. A
  button named by the event that differs from the plan raises MISDEAL_BUTTON_OUT_OF_POSITION
  (roberts-rules-v11.txt, Section 3, Misdeals, r.2(g)); the hand runs on the plan. So does the
  first small blind posted by a seat the plan does not make a blind (``_button_seen_in_posts``:
  the button not moved, or moved wrongly, seen through the blinds). Before the
  first hand a named button places it (as the draw would, Section 2, Seating, r.6). After a
  misdeal the redeal is an exact re-play of the same plan (azwine-tour-tournament-rules.txt,
  Misdeals (TDA #34) r.2: "the button does not move").
- ``hand.end`` awards the pots (``pots.settle``) when betting is over and hands the stacks to
  ``seating.finish_hand`` (obligations met, blinds missed, busts); ``misdeal.declared`` voids
  the hand and returns every chip.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from controller.events import (
    CARD_KEYS,
    Action,
    AttentionCalled,
    ButtonDraw,
    CardBoxed,
    CardExposed,
    CardFlashed,
    CardKept,
    CardKey,
    ChipRaceEnd,
    ChipRaceStart,
    ChipsRegister,
    ChipsZone,
    DeckAudit,
    DeckChange,
    DeckFault,
    DeckRegister,
    DrawQuery,
    Event,
    FloorRuling,
    GameChoose,
    HandEnd,
    HandStart,
    LevelUp,
    MisdealDeclared,
    PlayerAway,
    PlayerBack,
    ReaderHealth,
    SeatChange,
    SeatLeave,
    SeatTake,
    ShoeDraw,
    ShuffleDone,
    TableSetup,
    TournamentSetup,
    TrayCounts,
    Undo,
    ZoneLeave,
    ZoneRead,
)
from controller.poker.cards import DeckRegistry
from controller.poker.deck_count import count_deck
from controller.poker.house_rules import Settings, SettingsError, settings_for
from controller.poker.pots import PotAward, with_carry
from controller.poker.records import replace
from controller.poker.variants import VARIANTS, Variant, first_game, game_problem
from controller.rules.chips import betting as chip_betting
from controller.rules.chips import ledger as chip_ledger
from controller.rules.chips import pot as chip_pot
from controller.rules.chips.betting import NO_BETS, ChipBets, bet_seat
from controller.rules.chips.zones import (
    CHIP_TAG_CODES,
    NO_CHIPS,
    Chips,
    ChipZone,
    register,
    settle_zone,
    tray_counts,
)
from controller.rules.findings.catalogue import make_finding
from controller.rules.findings.finding import Finding
from controller.rules.procedure import monitor as procedure
from controller.rules.table import card_keys, deck_keys, lost_cards, mixed, seating
from controller.rules.table.devices import DEVICE_CODES, DeviceHealth, hand_findings, report
from controller.rules.table.mixed import Mix
from controller.rules.table.seating import HandPlan, Level, Seating, SeatingError, Stakes

_DEFAULT_SETUP = TableSetup()
_EMPTY_DECK = DeckRegistry()
_DEFAULT_SETTINGS = settings_for()
_NO_MIX = Mix()
# The tournament clock the core keeps: each level is this long (the levels change by the
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
    # The hand itself: the hand engine (betting, streets, pots) and the procedure monitor for
    # the game's family (procedure.py, with board.py for the board games).
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
    bets: ChipBets = NO_BETS  # what the bet zones' chips have done this hand (chip_betting.py)

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
    # The chip sets and each chip zone's settled chips (chips.py), across hands.
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


# --- apply ----------------------------------------------------------------------------------------


def apply(state: TableState, event: Event) -> Step:
    """Apply one table event. Pure; never raises on any sequence of well-typed events.

    ``undo`` returns the state before the last applied event (with the EVENT_UNDONE finding
    added); every other event keeps the state it was applied to for that."""
    if isinstance(event.body, Undo):
        return _undo(state, event.seq)
    if isinstance(event.body, ReaderHealth):
        # A device report is not the table's doing: it is never what an undo takes back.
        found, raised = report(state.devices, event.body, event.seq, event.ts)
        return Step(_raise(replace(state, last_seq=event.seq, devices=found), raised), raised)
    if isinstance(event.body, ChipsZone):
        # Where the chips lie is the antennas' report, like a reader's health: never undone
        # (the betting action a bet zone's chips make is: see _chips_in_front).
        before = state.chips.zones.get(event.body.zone)
        chips, raised = settle_zone(state.chips, event.body, event.seq)
        settled = _raise(replace(state, last_seq=event.seq, chips=chips), raised)
        settled, moved = _chips_moved(state.chips, settled, event.body, event.seq)
        raised = (*raised, *moved)
        step = _chips_in_front(settled, event.body.zone, before, event.seq)
        if step is None:
            return Step(settled, raised)
        kept = replace(state, previous=None, previous_event="")
        new = replace(step.state, previous=kept, previous_event=f"{event.type} (seq {event.seq})")
        return Step(new, raised + step.findings)
    if isinstance(event.body, TrayCounts):
        return Step(replace(state, last_seq=event.seq,
                            chips=tray_counts(state.chips, event.body, event.seq)))
    step = _apply(state, event)
    kept = replace(state, previous=None, previous_event="")
    new = replace(step.state, previous=kept, previous_event=f"{event.type} (seq {event.seq})")
    return Step(new, step.findings, step.results)


def _undo(state: TableState, seq: int) -> Step:
    prev = state.previous
    if prev is None:
        return _out_of_place(replace(state, last_seq=seq), seq,
                             "There is nothing to undo (an undo cannot itself be undone).")
    f = make_finding("EVENT_UNDONE", seq, fill={"event": state.previous_event})
    # the readers' health is now, whatever the table goes back to, and so are its findings
    # (and so are the chips the antennas settled: the registry goes back, the zones do not)
    told = tuple(d for d in state.findings if d.code in DEVICE_CODES | CHIP_TAG_CODES
                 and d not in prev.findings)
    chips = replace(prev.chips, zones=state.chips.zones, tray=state.chips.tray,
                    tray_seq=state.chips.tray_seq)
    return Step(replace(prev, last_seq=seq, findings=(*prev.findings, *told, f),
                        devices=state.devices, chips=chips), (f,))


def _apply(state: TableState, event: Event) -> Step:
    body = event.body
    seq = event.seq
    state = replace(state, last_seq=seq)
    if isinstance(body, TableSetup):
        return _setup(state, body, seq)
    if isinstance(body, SeatTake):
        return _seat_take(state, body, seq)
    if isinstance(body, SeatLeave):
        return _seat_leave(state, body, seq)
    if isinstance(body, (PlayerAway, PlayerBack, SeatChange)):
        return _presence(state, body, seq)
    if isinstance(body, ButtonDraw):
        return _button_draw(state, body, seq)
    if isinstance(body, TournamentSetup):
        return _tournament_setup(state, body, seq)
    if isinstance(body, LevelUp):
        return _level_up(state, body, seq)
    if isinstance(body, (ChipRaceStart, ChipRaceEnd)):
        return _chip_race(state, body, seq)
    if isinstance(body, DeckRegister):
        if state.hand is not None and state.hand.in_play and not body.idle:
            # (an idle deck changes nothing in play: it may be made known at any time)
            return _out_of_place(state, seq, "A new deck cannot be registered during a hand.")
        deck = (state.deck.with_idle(body.deck, body.tags) if body.idle
                else state.deck.put_in_play(body.deck, body.tags))
        return Step(replace(state, deck=deck))
    if isinstance(body, ChipsRegister):
        if _in_play(state) and not body.idle:
            # the chips in the pot and the bets are the set in play's (an idle set changes
            # nothing in play: it may be made known at any time)
            return _out_of_place(state, seq, "A new chip set cannot be put in play during a "
                                 "hand.")
        return Step(replace(state, chips=register(state.chips, body)))
    if isinstance(body, DeckAudit):
        return _audit(state, body, seq)
    if isinstance(body, DeckChange):
        return _deck_change(state, body, seq)
    if isinstance(body, HandStart):
        return _hand_start(state, body, seq)
    if isinstance(body, ShuffleDone):
        return _shuffle(state)
    if isinstance(body, CARD_KEYS) and not body.uid:
        named = resolve_card_key(state, body)
        if isinstance(named, str):
            return _out_of_place(state, seq, named)
        body = named
    if isinstance(body, (ShoeDraw, ZoneRead, ZoneLeave, CardExposed, CardFlashed, CardBoxed)):
        return _card_event(state, body, seq)
    if isinstance(body, CardKept):
        return _card_kept(state, body, seq)
    if isinstance(body, FloorRuling):
        return _floor_ruling(state, body, seq)
    if isinstance(body, Action):
        return _action(state, body, seq)
    if isinstance(body, HandEnd):
        return _hand_end(state, seq)
    if isinstance(body, MisdealDeclared):
        return _misdeal(state, seq)
    if isinstance(body, AttentionCalled):
        return _attention(state, body, seq)
    if isinstance(body, GameChoose):
        return _choose(state, body, seq)
    if isinstance(body, DeckFault):
        return _deck_fault(state, body, seq)
    if isinstance(body, DrawQuery):
        return _draw_query(state, body, seq)
    return _out_of_place(state, seq, f"Unknown event {type(body).__name__}.")  # pragma: no cover


def resolve_card_key(state: TableState, body: CardKey) -> CardKey | str:
    """A card key named by card (``As``, ``last``) with the tag it names, or why it names none
    (``card_keys.resolve``). The daemon calls it before journaling a key; ``apply`` calls it for
    a key read from a scenario."""
    h = state.hand
    return card_keys.resolve(state.deck, h.game if h is not None and h.in_play else None, body)


def _raise(state: TableState, findings: list[Finding] | tuple[Finding, ...]) -> TableState:
    if not findings:
        return state
    return replace(state, findings=state.findings + tuple(findings))


def _out_of_place(state: TableState, seq: int, detail: str) -> Step:
    f = make_finding("EVENT_OUT_OF_PLACE", seq, fill={"detail": detail}, message=detail)
    return Step(_raise(state, [f]), (f,))


def _in_play(state: TableState) -> bool:
    return state.hand is not None and state.hand.in_play


# --- set-up and seats -----------------------------------------------------------------------------


def _setup(state: TableState, body: TableSetup, seq: int) -> Step:
    if _in_play(state):
        return _out_of_place(state, seq, "The table cannot be set up again during a hand.")
    outside = sorted(s for s in state.seating.seats if s > body.seats)
    if outside:
        return _out_of_place(state, seq, f"Seats {outside} are occupied but the table would have "
                             f"only {body.seats} seats.")
    try:
        first = _first_game(body)
    except ValueError as exc:
        return _out_of_place(state, seq, f"Table set-up refused: {exc}.")
    try:
        cfg = settings_for(body.profile, body.settings)
        stakes = _seating_stakes(body, first)
        old = state.seating
        levels = old.levels or (Level(LEVEL_MS, stakes.small_blind, stakes.big_blind,
                                      body.ante),)
        seats = {n: replace(st) for n, st in old.seats.items()}
        table = replace(seating.new_table(max_seats=body.seats, stakes=stakes,
                                          tournament=cfg.tournament, levels=levels),
                        seats=MappingProxyType(seats))
    except (SettingsError, SeatingError) as exc:
        return _out_of_place(state, seq, f"Table set-up refused: {exc}.")
    return Step(replace(state, setup=body, settings=cfg, seating=table,
                        mix=mixed.new_mix(body.game)))


def _first_game(body: TableSetup) -> Variant:
    """The game the set-up names (a mixed game: its first game, or hold'em for the dealer's
    choice until the dealer names one); ValueError names an unknown game or structure."""
    problem = game_problem(body.game, body.structure)
    if problem is not None:
        raise ValueError(problem[1])
    return first_game(body.game, body.structure) or VARIANTS["nlhe"]


def _seating_stakes(body: TableSetup, v: Variant) -> Stakes:
    """The seating layer's stakes for the game: blinds (hold'em, lowball, badugi), antes only
    (draw high: RR Section 12 intro) or antes and a bring-in with no button (stud: Section 8)."""
    if v.forced == "antes_bring_in":
        return Stakes(small_blind=max(body.small_blind, 1), big_blind=body.big_blind,
                      ante=body.ante, bring_in=_bring_in(body), forced="bring_in")
    if v.forced == "antes":
        return Stakes(small_blind=max(body.small_blind, 1), big_blind=body.big_blind,
                      ante=body.ante or 1, forced="antes")
    return Stakes(small_blind=max(body.small_blind, 1), big_blind=body.big_blind,
                  ante=body.ante, lowball=v.rankings[0] != "high" and bool(v.draws))


def _small_bet(body: TableSetup) -> int:
    return body.small_bet or body.big_blind


def _big_bet(body: TableSetup) -> int:
    return body.big_bet or 2 * _small_bet(body)


def _bring_in(body: TableSetup) -> int:
    # NIS: the books leave the bring-in to the house; a third of the small bet is common
    return body.bring_in or max(1, _small_bet(body) // 3)


def _seating(state: TableState, seq: int, change: Callable[[Seating], Seating]) -> Step:
    """Apply a seating change; a change the seating layer refuses is EVENT_OUT_OF_PLACE."""
    try:
        table = change(state.seating)
    except SeatingError as exc:
        return _out_of_place(state, seq, f"{str(exc)[:1].upper()}{str(exc)[1:]}.")
    return Step(replace(state, seating=table))


def _seat_take(state: TableState, body: SeatTake, seq: int) -> Step:
    if body.seat > state.setup.seats:
        return _out_of_place(state, seq, f"Seat {body.seat} does not exist at this "
                             f"{state.setup.seats}-seat table.")
    if _dealt_in(state, body.seat):
        return _out_of_place(state, seq, f"Seat {body.seat} is playing this hand; "
                             f"{body.player} cannot take it now.")
    current = state.seating.seats.get(body.seat)
    if current is not None and current.player == body.player:
        # The same player: a re-buy (RR Section 4 r.12: not a new player) or a stack correction.
        if body.stack >= current.stack and not state.seating.tournament:
            extra = body.stack - current.stack
            return _seating(state, seq, lambda t: seating.rebuy(t, body.seat, extra)
                            if extra else t)
        return _seating(state, seq, lambda t: _with_stack(t, body.seat, body.stack))

    def take(t: Seating) -> Seating:
        if current is not None:
            t = seating.leave(t, body.seat)  # another player takes the seat over
        if body.stack == 0:
            raise SeatingError(f"{body.player} needs chips to sit down")
        return seating.sit_down(t, body.seat, body.player, body.stack, post=body.post)

    return _seating(state, seq, take)


def _with_stack(t: Seating, seat: int, stack: int) -> Seating:
    st = t.seats[seat]
    seats = dict(t.seats)
    seats[seat] = replace(st, stack=stack)
    return replace(t, seats=MappingProxyType(seats))


def _seat_leave(state: TableState, body: SeatLeave, seq: int) -> Step:
    if body.seat not in state.seating.seats:
        return _out_of_place(state, seq, f"Seat {body.seat} is already empty.")
    if _dealt_in(state, body.seat):
        return _out_of_place(state, seq, f"Seat {body.seat} is playing this hand; it can leave "
                             "when the hand is over.")
    return _seating(state, seq, lambda t: seating.leave(t, body.seat))


def _presence(state: TableState, body: PlayerAway | PlayerBack | SeatChange, seq: int) -> Step:
    if isinstance(body, SeatChange):
        if body.to > state.setup.seats:
            return _out_of_place(state, seq, f"Seat {body.to} does not exist at this "
                                 f"{state.setup.seats}-seat table.")
        if _dealt_in(state, body.seat):
            return _out_of_place(state, seq, f"Seat {body.seat} is playing this hand; it can "
                                 "change seats when the hand is over.")
        return _seating(state, seq, lambda t: seating.change_seat(t, body.seat, body.to))
    if isinstance(body, PlayerAway):
        return _seating(state, seq, lambda t: seating.away(t, body.seat))
    step = _seating(state, seq, lambda t: seating.back(t, body.seat, post=body.post))
    h = step.state.hand
    if not step.findings and h is not None and body.seat in h.absent:
        # Back before the starting hands are complete: the hand is live (RR Section 15 r.13).
        h = replace(h, absent=tuple(s for s in h.absent if s != body.seat))
        return Step(replace(step.state, hand=h))
    return step


def _button_draw(state: TableState, body: ButtonDraw, seq: int) -> Step:
    if state.seating.hand_number > 0 or _in_play(state):
        return _out_of_place(state, seq, "The button is drawn for only before the first hand "
                             "(roberts-rules-v11.txt, Section 2, Seating, r.6).")

    def draw(t: Seating) -> Seating:
        return seating.with_button(t, seating.initial_button(t, body.cards,
                                                             settings=state.settings))

    return _seating(state, seq, draw)


def _tournament_setup(state: TableState, body: TournamentSetup, seq: int) -> Step:
    if not state.settings.tournament:
        return _out_of_place(state, seq, f"Profile {state.setup.profile!r} is not a tournament: "
                             "set it up with a tournament profile or the setting "
                             "'tournament': true.")
    if _in_play(state):
        return _out_of_place(state, seq, "The blind schedule cannot change during a hand.")
    try:
        levels = tuple(Level(LEVEL_MS, lv["small_blind"], lv["big_blind"], lv.get("ante", 0))
                       for lv in body.levels)
    except SeatingError as exc:
        return _out_of_place(state, seq, f"Blind schedule refused: {exc}.")
    return Step(replace(state, seating=replace(state.seating, levels=levels), level=0,
                        level_next=None))


def _level_up(state: TableState, body: LevelUp, seq: int) -> Step:
    levels = state.seating.levels
    if not state.seating.tournament:
        return _out_of_place(state, seq, "This table is not a tournament: it has no levels.")
    index = min(body.level, len(levels)) - 1
    state = replace(state, level_next=index)
    h = state.hand
    if h is not None and h.in_play and h.plan is not None and not _marker_passed(state, h):
        # The hand has not begun by the profile's marker: it plays the new level.
        replanned = _replan(state, h, index)
        if replanned is not None:
            return Step(replanned)
    if h is None or not h.in_play:
        return Step(_apply_level(state))
    return Step(state)


def _marker_passed(state: TableState, h: Hand) -> bool:
    """Has this hand begun, by the profile's level-change marker? (RR Section 15 r.10: the
    first riffle; AZW Timer Use and Breaks: the blinds posted; JPN: the first card.) A post
    already made keeps the hand's stakes whatever the marker."""
    marker = seating.level_marker(state.settings)
    posted = h.game.ticked > 0
    if posted or procedure.cards_out(h.game):
        return True
    return marker == "first_riffle" and state.shuffled


def _apply_level(state: TableState) -> TableState:
    """A signalled level takes effect from the next hand (a hand already begun by the
    profile's marker keeps its stakes)."""
    if state.level_next is None:
        return state
    return replace(state, level=state.level_next, level_next=None)


def _replan(state: TableState, h: Hand, index: int) -> TableState | None:
    try:
        plan = seating.plan_hand(state.seating, state.settings, now_ms=index * LEVEL_MS)
    except SeatingError:
        return None
    nh = _new_hand(state, plan, h.number, h.game.variant)
    return replace(state, hand=nh, level=index, level_next=None)


def _chip_race(state: TableState, body: ChipRaceStart | ChipRaceEnd, seq: int) -> Step:
    if _in_play(state):
        return _out_of_place(state, seq, "A chip race is held between hands.")
    if isinstance(body, ChipRaceStart):
        # The colour-up deal (RR Section 15 r.11) is not a hand: its cards are no finding.
        return Step(replace(state, chip_race=True))
    if not state.chip_race:
        return _out_of_place(state, seq, "No chip race is in progress.")
    empty = sorted(n for n in body.stacks if n not in state.seating.seats)
    zero = sorted(n for n, v in body.stacks.items() if v == 0)
    if empty or zero:
        detail = (f"seat(s) {empty} are empty" if empty else
                  f"seat(s) {zero} would have no chips: a player may not be eliminated by the "
                  "chip race (roberts-rules-v11.txt, Section 15, r.11)")
        return _out_of_place(state, seq, f"Chip race result refused: {detail}.")
    table = state.seating
    for n, v in body.stacks.items():
        table = _with_stack(table, n, v)
    return Step(replace(state, seating=table, chip_race=False))


def _shuffle(state: TableState) -> Step:
    h = state.hand
    if h is not None and h.in_play and procedure.cards_out(h.game):
        # Mid-hand, once cards are out: a remedy's stub reshuffle (RR Section 5 Holdem r.7;
        # Section 3 r.16; STUD_INSUFFICIENT_CARDS). Before the first card it is the deal's own
        # shuffle.
        return Step(replace(state, hand=replace(h, game=procedure.stub_shuffled(h.game))))
    return Step(replace(state, shuffled=True))


def _dealt_in(state: TableState, seat: int) -> bool:
    h = state.hand
    return h is not None and h.in_play and h.game.pos(seat) is not None


# --- a new hand -----------------------------------------------------------------------------------


def _hand_start(state: TableState, body: HandStart, seq: int) -> Step:
    if _in_play(state):
        return _out_of_place(state, seq, "A hand is in progress: award the pots or declare a "
                             "misdeal before starting a new one.")
    redeal = state.redeal and state.hand is not None
    mix = state.mix
    if redeal and state.hand is not None:
        v = state.hand.game.variant  # the redeal is the same hand
    else:
        got = mixed.next_game(state.mix, state.setup.game, state.setup.structure)
        if isinstance(got, str):
            return _out_of_place(state, seq, f"{got}.")
        mix, v = got
    if sum(st.stack > 0 for st in state.seating.seats.values()) > v.max_players:
        return _out_of_place(state, seq, f"{v.name} is dealt to at most {v.max_players} "
                             "players.")
    if state.chip_race:
        return _out_of_place(state, seq, "A chip race is in progress: end it (chiprace.end) "
                             "before the next hand.")
    state, out = _chips_between_hands(state, seq)
    table = replace(state.seating, stakes=_seating_stakes(state.setup, v))
    replay = state.hand.plan if state.redeal and state.hand is not None else None
    if replay is not None and all(table.seats.get(n) is not None and table.seats[n].stack > 0
                                  for n in replay.dealt_in):
        plan = replay  # the redeal is an exact re-play (AZW TDA #34 r.2)
    else:
        # No redeal, or a player of the void hand has left since: plan afresh (the seating
        # layer's positions did not move on, the void hand was never finished).
        state = _apply_level(state)
        if table.button is None and (table.hand_number == 0 or v.forced != "antes_bring_in"):
            # The first hand with no draw (or, in a mixed game, the first button game after
            # stud hands): the named button places it, as the draw would; without one it goes
            # to the lowest seat with chips (v1).
            first = body.button if body.button in table.seats else next(
                (n for n, st in sorted(table.seats.items()) if st.stack > 0), None)
            if first is not None:
                table = seating.with_button(table, first)
        try:
            plan = seating.plan_hand(table, state.settings, now_ms=state.level * LEVEL_MS)
        except SeatingError as exc:
            return _out_of_place(state, seq, f"No hand can be dealt: {exc}.")
    if body.button is not None and plan.button is not None and body.button != plan.button:
        out.append(_button_misplaced(state, plan, body.button, plan.button, seq))
    late = _button_wrong_last_hand(state, plan, seq) if not redeal and not out else None
    number = state.hand_number + 1
    try:
        hand = _new_hand(replace(state, seating=table), plan, number, v)
    except ValueError as exc:  # the hand engine refuses these stakes for this game
        return _out_of_place(state, seq, f"No hand can be dealt: {exc}.")
    if out:
        hand = replace(hand, game=_voided(hand.game, out[0].code))
    new = replace(state, seating=table, hand=hand, hand_number=number, findings=(),
                  last_button=plan.button, redeal=False, shuffled=False,
                  mix=mixed.dealt(mix, len(plan.dealt_in)))
    if late is not None:
        out.append(late)
    out.extend(hand_findings(state.devices, seq))  # never a hand dealt blind, untold
    return Step(_raise(new, out), tuple(out))


def _button_wrong_last_hand(state: TableState, plan: HandPlan, seq: int) -> Finding | None:
    """The hand before was played to its end with the button out of position (the error was
    found past the misdeal cut-off, held with nobody calling attention, or let stand by the
    floor): "the button and blinds will be corrected for the new hand in a manner that gives
    every player one chance for each position on the round" (roberts-rules-v11.txt, Section 3,
    Irregularities, r.1). The seating layer moved the button on from where it belonged, so this
    hand's plan is the correction; the finding says so, and the last hand's result stands."""
    last = state.hand
    if last is None or last.phase != "complete" or plan.button is None:
        return None
    wrong = next((f for f in (*state.findings, *last.held) if f.code == BUTTON_MISPLACED), None)
    if wrong is None or len(wrong.seats) != 2:
        return None
    placed, expected = wrong.seats
    blinds = (f"small blind seat {plan.small_blind}" if plan.small_blind is not None
              else "no small blind") + f", big blind seat {plan.big_blind}"
    return make_finding("BUTTON_MISPLACED_PREVIOUS_HAND", seq, seats=[placed, expected],
                        fill={"previous": last.number, "placed": placed, "expected": expected,
                              "button": plan.button, "blinds": blinds})


def _engine_posts(plan: HandPlan) -> list[tuple[int, str, int, bool]]:
    """The plan's posts at their nominal size: the engine posts what each stack can, and a short
    big blind still counts at its full size for the others (RR Section 14 NL r.2)."""
    nominal = {"small_blind": plan.small_blind_amount, "big_blind": plan.big_blind_amount}
    return [(p.seat, p.kind, max(p.amount, nominal.get(p.kind, 0)), p.live) for p in plan.posts]


def _new_hand(state: TableState, plan: HandPlan, number: int, v: Variant) -> Hand:
    """The hand from its plan: the engine posts the plan's forced bets (the console's posts
    tick them off), the procedure monitor of the game's family judges every card."""
    table = state.seating
    order = list(plan.dealt_in)
    setup = state.setup
    owes = {n: " and ".join(procedure.POST_NAMES.get(k, k) for k in table.seats[n].owes)
            for n in plan.sitting_out if n in table.seats and table.seats[n].owes}
    why = {n: plan.why.get(n, "not dealt in") for n in plan.sitting_out}
    # Preflop action starts left of the last blind in position: the straddle, else the big
    # blind (RR §4 intro; §14 NL r.15); a kill acts in proper turn (RR §13 r.2).
    after = plan.straddles[-1] if plan.straddles else plan.big_blind
    big = max(plan.big_blind_amount, plan.kill_blind)  # a kill raises the limits (RR §13)
    game = procedure.start(
        v, order, [table.seats[s].stack for s in order],
        _engine_posts(plan),
        small_bet=_small_bet(setup), big_bet=_big_bet(setup),
        bring_in=plan.bring_in or _bring_in(setup), settings=state.settings,
        big_blind=big or setup.big_blind, after=after, killer=plan.kill, why=why, owes=owes)
    return Hand(number=number, game=game, phase=v.streets[0].name,
                button=plan.button if plan.button is not None else 0,
                small_blind=plan.small_blind, big_blind=plan.big_blind, plan=plan,
                absent=tuple(plan.absent))


# --- cards ----------------------------------------------------------------------------------------


CardBody = ShoeDraw | ZoneRead | ZoneLeave | CardExposed | CardFlashed | CardBoxed


def _card_event(state: TableState, body: CardBody, seq: int) -> Step:
    """A card event: the procedure monitor of the game's family judges it."""
    h = state.hand
    if h is None or not h.in_play:
        return _card_outside_hand(state, body, seq)
    g = h.game
    card = state.deck.card_of(body.uid)
    deck = state.deck.deck
    foreign = state.deck.foreign(body.uid) if card is None else None
    if foreign is not None or body.uid in h.foreign:
        return _foreign_card(state, h, body, foreign, seq)
    out: list[Finding] = []
    if isinstance(body, ShoeDraw):
        if not procedure.cards_out(g) and g.posts_due and not h.warned_blind:
            # Forced bets are posted before the cards are dealt (RR Section 4 intro; Section 8)
            seat, kind, amount = g.posts_due[0]
            out.append(make_finding("BLIND_NOT_POSTED", seq, seats=[seat], fill={
                "blind": procedure.POST_NAMES.get(kind, kind), "amount": amount}))
            h = replace(h, warned_blind=True)
        g, killed = procedure.unprotected(g, seq)
        out += killed
        g, more = procedure.draw(g, body.uid, card, body.face_up, seq, deck)
    elif isinstance(body, ZoneRead):
        g, more = procedure.read(g, body.uid, body.zone, seq, card, deck)
    elif isinstance(body, ZoneLeave):
        g, more = lost_cards.leave(g, body.uid, body.zone, body.lost, seq)
    elif isinstance(body, CardBoxed):
        g, more = procedure.boxed(g, body.uid, card, seq)
    else:
        # "A card that is flashed by a dealer is treated as an exposed card. A card that is
        # flashed by a player will play." (roberts-rules-v11.txt, Section 3, Irregularities, r.12)
        g, more = procedure.exposed(g, body.uid, body.by, seq)
    out += more
    if h.absent and procedure.starting_hands_out(g):
        window = (state.settings.absent_hand_kill == "stud_window_card_until_turn"
                  and g.family == "stud")
        # The dealer's duty now, said out loud: not silent bookkeeping (the cards of these
        # seats go to the muck as a fold's do, not judged as a dealing error)
        out.append(make_finding("ABSENT_PLAYER_TOURNAMENT", seq, seats=sorted(h.absent),
                                setting="stud_window_card_until_turn" if window else ""))
        if window:
            # WSOP Section 8 r.8: "kill the down cards of any absent player as soon as all the
            # players have received their entire starting hands, making sure to leave the window
            # card in place until it is that seat's turn to act" (research D-28)
            h = replace(h, window=h.absent, absent=())
        else:
            # Tournament: the dealer kills the hands of absent players once every player has a
            # starting hand (roberts-rules-v11.txt, Section 15, r.13).
            for seat in h.absent:
                g = procedure.kill(g, seat)
            h = replace(h, absent=())
    h = _window_kills(replace(h, game=g))
    h = _progress(replace(h, cards_seen=h.cards_seen + 1))
    h, out = _alerted(state.settings, h, out)
    return Step(_raise(replace(state, hand=h), out), tuple(out))


def _card_kept(state: TableState, body: CardKept, seq: int) -> Step:
    """The dealer's key that a player looked at a card or mixed it in (procedure.kept)."""
    h = state.hand
    if h is None or not h.in_play:
        return _out_of_place(state, seq, "There is no hand in progress for the kept-card key.")
    got = procedure.kept(h.game, body.uid, seq)
    if isinstance(got, str):
        return _out_of_place(state, seq, got)
    g, out = got
    return Step(_raise(replace(state, hand=replace(h, game=g)), out), tuple(out))


def _window_kills(h: Hand) -> Hand:
    """An absent stud player's hand kept by its window card (``Hand.window``) is killed when the
    action reaches the seat; a bring-in due from it is posted from its stack first (RR Section 15
    r.7: "have the forced lowcard bet put into the pot at stud")."""
    g = h.game
    window = h.window
    while window and g.to_act in window and not g.eng.can_post_bring_in():
        seat = g.to_act
        if seat is None:  # pragma: no cover - None is in no window
            break
        g = procedure.kill(g, seat)
        window = tuple(s for s in window if s != seat)
        if g.to_act == seat:  # pragma: no cover - the engine moves the action on a kill
            break
    if window == h.window:
        return h
    return replace(h, game=g, window=window)


def _progress(h: Hand) -> Hand:
    """The phase: the engine's street, or showdown once the betting is over. The live hands
    are tabled at the showdown (board games: once the board is complete)."""
    g = h.game
    if not procedure.betting_over(g):
        return replace(h, phase=g.variant.streets[min(g.street, len(g.variant.streets) - 1)].name,
                       showdown=())
    live = g.live
    board_done = g.deal is None or len(g.deal.board) == 5
    return replace(h, phase="showdown",
                   showdown=tuple(sorted(live)) if len(live) > 1 and board_done else ())


def _card_outside_hand(state: TableState, body: CardBody, seq: int) -> Step:
    # Cards gathered, mucked or shuffled between hands are not the monitor's business; only a
    # card dealt off the shoe after the hand ended and before the shuffle is (rabbit hunting).
    if state.chip_race:
        return Step(state)  # the colour-up deal is a legitimate deal, not a hand (RR §15 r.11)
    if isinstance(body, ShoeDraw) and state.phase == "complete" and not state.shuffled:
        card = state.deck.card_of(body.uid) or f"tag {body.uid}"
        f = make_finding("DRAW_AFTER_HAND_END", seq, cards=[card])
        return Step(_raise(state, [f]), (f,))
    return Step(state)


# --- betting --------------------------------------------------------------------------------------


def _chips_in_front(state: TableState, zone: str, before: ChipZone | None, seq: int
                    ) -> Step | None:
    """A bet zone settled during a hand: what its chips mean for the betting
    (``chip_betting.read_bet_zone``); the action they make goes through ``_action``, the one
    betting path. None: nothing for the hand (another zone, no hand in play)."""
    seat = bet_seat(zone)
    h = state.hand
    if seat is None or h is None or not h.in_play:
        return None
    r = chip_betting.read_bet_zone(h.game, h.bets, state.chips, before, seat, seq,
                                   state.settings)
    if r.action is None and r.bets == h.bets and not r.findings:
        return None
    state = _raise(replace(state, hand=replace(h, bets=r.bets)), r.findings)
    if r.action is None:
        return Step(state, r.findings)
    step = _action(state, r.action, seq, by_chips=True)
    return Step(step.state, r.findings + step.findings)


def _chips_moved(before: Chips, state: TableState, body: ChipsZone, seq: int
                 ) -> tuple[TableState, tuple[Finding, ...]]:
    """A zone settled: the pot's chips followed (``chip_pot.py``): during a hand, chips leaving
    or coming into the pot without a reason; after ``hand.end``, the award pushed out."""
    h = state.hand
    if h is None:
        return state, ()
    if h.in_play and body.zone == "pot":
        house, found = chip_pot.pot_during_hand(before, state.chips, body, seq)
        chips = replace(state.chips, to_house=state.chips.to_house + house)
        return _raise(replace(state, chips=chips), found), found
    award = h.bets.award
    if h.phase != "complete" or award is None or award.judged:
        return state, ()
    award = chip_pot.follow(award, body)
    state = replace(state, hand=replace(h, bets=replace(h.bets, award=award)))
    if not chip_pot.ready(award, state.chips):
        return state, ()
    return _judge_award(state, seq)


def _judge_award(state: TableState, seq: int) -> tuple[TableState, tuple[Finding, ...]]:
    """The award pushed out judged against the core's (``chip_pot.judge``); the house's legit
    rake comes off the winners' stacks."""
    h = state.hand
    award = h.bets.award if h is not None else None
    if h is None or award is None:  # pragma: no cover - the callers checked
        return state, ()
    judged = chip_pot.judge(award, seq)
    table = state.seating
    for seat, cut in judged.rake_paid.items():
        if seat in table.seats:
            table = _with_stack(table, seat, max(0, table.seats[seat].stack - cut))
    chips = replace(state.chips, to_house=state.chips.to_house + judged.to_house)
    h = replace(h, bets=replace(h.bets, award=replace(award, judged=True)))
    new = replace(state, hand=h, seating=table, chips=chips)
    return _raise(new, judged.findings), judged.findings


def _chips_between_hands(state: TableState, seq: int) -> tuple[TableState, list[Finding]]:
    """As a hand starts: the last hand's award judged if its push was never seen to end, then
    every player's chips and the ledger counted (``chip_ledger.py``)."""
    out: list[Finding] = []
    h = state.hand
    if h is not None and h.bets.award is not None and not h.bets.award.judged:
        state, found = _judge_award(state, seq)
        out += found
    if state.chips.zones:
        stacks = {n: st.stack for n, st in state.seating.seats.items()}
        chips, found = chip_ledger.between_hands(state.chips, stacks, state.carry, seq)
        state = replace(state, chips=chips)
        out += found
    return state, out


def _chips_read(state: TableState) -> bool:
    """The table's bet zones are read (a chip reader reported one): the chips judge the
    betting too."""
    return any(z.startswith("bet:") for z in state.chips.zones)


def _action(state: TableState, body: Action, seq: int, by_chips: bool = False,
            depth: int = 0) -> Step:
    """A betting action: entered at the console, or made by the chips in a bet zone
    (``by_chips``; ``depth`` counts the actions the chips make in a row, bounded)."""
    h = state.hand
    chips_read = _chips_read(state) and h is not None and h.in_play
    if chips_read and not by_chips and h is not None:
        verdict, told, bets = chip_betting.console(h.game, h.bets, body, seq)
        if verdict != "apply":
            return Step(_raise(replace(state, hand=replace(h, bets=bets)), told), told)
    step = _betting_action(state, body, seq)
    h2 = step.state.hand
    if not chips_read or h is None or h2 is None or not _applied(h.game, h2.game):
        return step
    bets, told, nxt = chip_betting.after_action(h.game, h2.game, h2.bets, state.chips, body,
                                                by_chips, seq, state.settings)
    state2 = _raise(replace(step.state, hand=replace(h2, bets=bets)), told)
    found = step.findings + told
    if nxt is None or depth >= _MAX_CHIP_ACTIONS:
        return Step(state2, found)
    more = _action(state2, nxt, seq, by_chips=True, depth=depth + 1)
    return Step(more.state, found + more.findings)


# The chips may make several actions in a row (posts settled together, a binding out-of-turn
# action): far fewer than this at any table; the bound keeps apply total whatever the events.
_MAX_CHIP_ACTIONS = 32


def _applied(g: procedure.GameHand, g2: procedure.GameHand) -> bool:
    """The action changed the betting (an action refused leaves the log and the posts)."""
    return g2.log != g.log or g2.ticked != g.ticked


def _betting_action(state: TableState, body: Action, seq: int) -> Step:
    h = state.hand
    if h is None or not h.in_play:
        f = make_finding("ACTION_NOT_AVAILABLE", seq, seats=[body.seat], fill={
            "detail": f"Seat {body.seat} {body.kind}: there is no hand in progress."})
        return Step(_raise(state, [f]), (f,))
    if body.kind == "draw" and not h.game.variant.draws:
        f = make_finding("ACTION_NOT_AVAILABLE", seq, seats=[body.seat], fill={
            "detail": f"Seat {body.seat} asked for cards: there is no draw in "
                      f"{h.game.variant.name}."})
        return Step(_raise(state, [f]), (f,))
    if body.kind == "post":
        special = _post(state, h, body, seq)
        if special is not None:
            return special
    # The dealer has moved on to the betting: what the deal left pending is ruled first, as of
    # before this action (a seat passed over is a misdeal only if attention comes before the
    # cut-off, RR Section 3, Misdeals, r.1).
    g, moved = procedure.moving_on(h.game, dealt=True)
    g, killed = procedure.unprotected(g, seq, body.seat if body.kind == "fold" else None)
    h, moved = _alerted(state.settings, replace(h, game=g), [*moved, *killed])
    g = h.game
    before = procedure.current_bet(g)
    g2, found = procedure.action(g, body.seat, body.kind, body.amount, body.blind, seq)
    found = moved + found
    cmd = procedure.first_command(g, g2)
    oot = any(f.code == "OOT_ACTION" for f in found)
    if body.kind not in ("post", "draw") and (cmd is not None or oot):
        raised = (cmd is not None and cmd[0] == procedure.RAISE
                  and int(str(cmd[2])) > before)
        h = replace(h, acts=(*h.acts, Act(body.seat, body.kind, in_turn=cmd is not None,
                                          raised=raised)))
    h = _progress(_window_kills(replace(h, game=g2)))
    return Step(_raise(replace(state, hand=h), found), tuple(found))


def _post(state: TableState, h: Hand, body: Action, seq: int) -> Step | None:
    """A post the procedure does not judge alone: a straddle, a post by the wrong seat, or a
    post naming another kind than the one due. None: post as usual."""
    g = h.game
    if body.blind == "straddle" and not g.posts_due:
        return _straddle(state, h, body, seq)
    if not g.posts_due:
        return None
    seat, kind, _ = g.posts_due[0]
    name = procedure.POST_NAMES.get(kind, kind)
    if procedure.is_void(g) and any(f.code == BUTTON_MISPLACED for f in state.findings):
        return Step(state)  # the hand is void for the button: its posts are moot
    if body.seat != seat:
        misplaced = _button_seen_in_posts(state, h, body, seq)
        if misplaced is not None:
            return misplaced
        why = h.plan.why.get(body.seat, "") if h.plan is not None else ""
        reason = why or (f"seat {seat} is the {name} by the seating plan")
        f = make_finding("BLIND_WRONG_SEAT", seq, seats=[body.seat, seat], fill={
            "blind": name, "due_seat": seat, "why": reason})
        return Step(_raise(state, [f]), (f,))
    if body.blind is not None and body.blind != kind:
        f = make_finding("ACTION_NOT_AVAILABLE", seq, seats=[body.seat], fill={
            "detail": f"Seat {body.seat} posted a "
                      f"{procedure.POST_NAMES.get(body.blind, body.blind)}; the {name} is due "
                      "from it now."})
        return Step(_raise(state, [f]), (f,))
    return None


BUTTON_MISPLACED = "MISDEAL_BUTTON_OUT_OF_POSITION"


def _button_misplaced(state: TableState, plan: HandPlan, placed: int, expected: int,
                      seq: int) -> Finding:
    """The button found on seat ``placed`` where the plan puts it on ``expected``: a misdeal
    (roberts-rules-v11.txt, Section 3, Misdeals, r.2(g): "The button was out of position")."""
    blinds = (f"small blind seat {plan.small_blind}" if plan.small_blind is not None
              else "no small blind") + f", big blind seat {plan.big_blind}"
    method = "dead" if state.settings.button_method == "dead" else "moving"
    return make_finding(BUTTON_MISPLACED, seq, seats=[placed, expected],
                        fill={"expected": expected, "method": method, "blinds": blinds})


def _button_seen_in_posts(state: TableState, h: Hand, body: Action, seq: int) -> Step | None:
    """The first post of the hand is the small blind (by its name or its amount) from a seat
    that is not this hand's small blind (nor, with three or more dealt in, its big blind): the
    button is where that post places it (the seat before it in the dealing order; heads-up the
    button itself posts the small blind), not where the seating plan puts it. The
    button was not moved, or moved wrongly (at a heads-up transition, after a big blind busts
    under TDA #31): a misdeal by RR Section 3, Misdeals, r.2(g), seen through the blinds when
    no button sensor or named button says so. The hand is void and its posts are moot."""
    plan = h.plan
    g = h.game
    # The hand's first post (with a dead small blind, TDA #31 after a big blind busts, the big
    # blind is the first due): no post has been made yet.
    first = plan.small_blind if plan is not None and plan.small_blind is not None else (
        plan.big_blind if plan is not None else None)
    if (plan is None or plan.button is None or first is None or not g.posts_due
            or g.posts_due[0][0] != first or h.acts or body.seat not in plan.dealt_in):
        return None
    says_small = body.blind == "small_blind" or (
        body.blind is None and body.amount == plan.small_blind_amount)
    heads_up = len(plan.dealt_in) == 2
    # With three or more, the big blind posting first is the blinds out of order; heads-up the
    # big blind posting the small blind is the button left (or put) on it.
    if not says_small or (body.seat == plan.big_blind and not heads_up):
        return None
    order = sorted(plan.dealt_in)
    placed = body.seat if heads_up else order[order.index(body.seat) - 1]
    if placed == plan.button:
        return None
    f = _button_misplaced(state, plan, placed, plan.button, seq)
    return Step(_raise(replace(state, hand=replace(h, game=_voided(g, f.code))), [f]), (f,))


def _voided(g: procedure.GameHand, code: str) -> procedure.GameHand:
    """The hand void for ``code`` from its start: it waits for ``misdeal.declared`` and the
    monitor judges nothing more of it."""
    if g.deal is not None:
        g = replace(g, deal=replace(g.deal, void=True, off=code))
    return replace(g, void=True, off=code)


def _straddle(state: TableState, h: Hand, body: Action, seq: int) -> Step:
    """The optional live straddle (RR §14 NL r.15; WSOP §4 r.11): the seating layer says
    whether this seat may straddle under the profile; the plan then carries it. It comes after
    the blinds and before any other action."""
    plan = h.plan
    detail = ""
    new_plan: HandPlan | None = None
    if plan is None or plan.big_blind is None:
        detail = (f"there is no straddle in {h.game.variant.name}: a straddle is a blind "
                  "(roberts-rules-v11.txt, Section 14, No-Limit, r.15)")
    elif plan.straddles:
        detail = "one straddle per hand (roberts-rules-v11.txt, Section 14, No-Limit, r.15)"
    elif h.game.acted or h.game.street:
        detail = "a straddle comes after the blinds and before any other action"
    else:
        try:
            new_plan = seating.plan_hand(state.seating, state.settings,
                                         now_ms=state.level * LEVEL_MS, straddle=body.seat)
        except SeatingError as exc:
            detail = str(exc)
        if new_plan is not None and not new_plan.straddles:  # pragma: no cover - blind games
            new_plan, detail = None, "the seating plan has no straddle for it"
    g = None
    if new_plan is not None:
        big = max(new_plan.big_blind_amount, new_plan.kill_blind)
        g = procedure.restake(h.game, _engine_posts(new_plan),
                              after=new_plan.straddles[-1], big_blind=big or
                              state.setup.big_blind, killer=new_plan.kill)
        if g is None:
            detail = "a straddle comes after the blinds and before any other action"
    if new_plan is None or g is None:
        f = make_finding("ACTION_NOT_AVAILABLE", seq, seats=[body.seat], fill={
            "detail": f"Seat {body.seat} may not straddle: {detail}."})
        return Step(_raise(state, [f]), (f,))
    amount = new_plan.posts[-1].amount
    out = []
    if body.amount is not None and body.amount != amount:
        out.append(make_finding("BLIND_WRONG_AMOUNT", seq, seats=[body.seat], fill={
            "seat": body.seat, "amount": body.amount, "due": amount, "blind": "straddle"}))
    h = _progress(replace(h, game=g, plan=new_plan))
    return Step(_raise(replace(state, hand=h), out), tuple(out))


# --- the deck: cards of another deck, deck audits --------------------------------------------


def _substantial(settings: Settings, h: Hand, book: Literal["wsop", "tda"]) -> bool:
    """Substantial action by ``book``'s own test (the misdeal cut-off's)."""
    return cutoff_passed(replace(settings, misdeal_cutoff=book), h)


def _foreign_card(state: TableState, h: Hand, body: CardBody, foreign: tuple[str, str] | None,
                  seq: int) -> Step:
    """A tag of another deck the table registered: a card with a different back (RR Section 3,
    Irregularities, r.3: "all action is void and all chips in the pot are returned to the
    respective bettors"; AZW: "unless substantial action has occurred", the ``foreign_card``
    setting). Raised once, where the card is first seen; the procedure monitor never counts it
    (it is not a card of this deal), so the hand waits for the award key or the misdeal key,
    which give every chip back (``VOIDS_ALL_ACTION``)."""
    if foreign is None or body.uid in h.foreign or isinstance(body, ZoneLeave):
        return Step(state)
    other, card = foreign
    rule = state.settings.foreign_card
    stands = rule == "tda" and _substantial(state.settings, h, "tda")
    zone = getattr(body, "zone", "")
    seats = [int(zone[5:])] if zone.startswith("seat:") else []
    f = make_finding(
        "FOREIGN_BACK_CARD_IN_PLAY", seq, seats=seats, cards=[card],
        setting="tda" if rule == "tda" else "",
        fill={"uid": body.uid, "foreign": other, "deck": state.deck.deck or "none",
              "stands": ("Substantial action has occurred: all action stands; the floor rules "
                         "on the hand that holds the card." if stands else
                         "No substantial action has occurred: all action is void, every chip "
                         "goes back to the player who wagered it.")},
        message=f"Tag {body.uid} is {card} of deck {other}: a card with a different back.")
    g = procedure.stand(h.game) if stands else _voided(h.game, f.code)
    h = replace(h, game=g, foreign=(*h.foreign, body.uid))
    return Step(_raise(replace(state, hand=h), [f]), (f,))


def _deck_change(state: TableState, body: DeckChange, seq: int) -> Step:
    """A resting deck of the rotation put in play between hands (RR Section 2, House Policies,
    r.22: "A new deck must be used for at least a full round ... before it may be changed ...
    unless a deck is defective or damaged"; the core does not count the round, the floor
    decides when). The one in play before rests, so a card of it in a later hand is a card with
    a different back (FOREIGN_BACK_CARD_IN_PLAY), not an unknown tag. During a hand the cards
    out are the deck in play's: a change then is refused (EVENT_OUT_OF_PLACE)."""
    if _in_play(state):
        return _out_of_place(state, seq, f"The deck cannot be changed to {body.deck} during a "
                             "hand: change decks between hands.")
    reg = state.deck
    if body.deck == reg.deck:
        return _out_of_place(state, seq, f"Deck {body.deck} is already in play.")
    changed = reg.change_to(body.deck)
    if changed is None:
        resting = ", ".join(reg.resting()) or "none"
        return _out_of_place(state, seq, f"Deck {body.deck} is not a registered resting deck "
                             f"of this table (resting: {resting}).")
    return Step(replace(state, deck=changed))


def _audit(state: TableState, body: DeckAudit, seq: int) -> Step:
    """The deck read through the shoe: between hands the whole deck, during a hand the stub
    (the cards out on the felt count as present). Cards missing "does not invalidate the
    results of a hand" (RR Section 3, Irregularities, r.10); a card of another deck in the stub
    leaves "all action stands" (r.3; WSOP: only after substantial action, the ``foreign_card``
    setting)."""
    reg = state.deck
    if not len(reg):
        return _out_of_place(state, seq, "No deck is registered to audit.")
    h = state.hand if _in_play(state) else None
    felt = procedure.seen(h.game) if h is not None else frozenset()
    count = count_deck(reg, body.uids, present=felt)
    out: list[Finding] = []
    if count.missing:
        cards = list(dict.fromkeys(reg.tags[u] for u in count.missing))
        out.append(make_finding("MISSING_CARDS_FROM_DECK", seq, cards=cards, fill={
            "count": len(count.missing), "size": len(reg), "deck": reg.deck or "none"}))
    if count.foreign or count.unknown:
        known = count.foreign
        names = [f"{c} of deck {d} (tag {u})" for u, d, c in known]
        names += [f"tag {u} of no registered deck" for u in count.unknown]
        void = (h is not None and state.settings.foreign_card == "wsop"
                and not _substantial(state.settings, h, "wsop"))
        f = make_finding(
            "FOREIGN_BACK_CARD_IN_STUB", seq, cards=[c for _, _, c in known],
            setting="wsop" if state.settings.foreign_card == "wsop" else "",
            fill={"foreign": "; ".join(names),
                  "stands": ("No substantial action has taken place: all action is void, every "
                             "chip goes back to the player who wagered it." if void else
                             "All action stands: substantial action has taken place, and the "
                             "card is taken out before it can appear in a hand or on the "
                             "board." if h is not None else "All action stands.")})
        out.append(f)
        if void and h is not None:
            state = replace(state, hand=replace(h, game=_voided(h.game, f.code)))
    return Step(_raise(state, out), tuple(out))


# --- the end of a hand ----------------------------------------------------------------------------


# Findings after which "all action is void and all chips in the pot are returned to the players
# who wagered them" (roberts-rules-v11.txt, Section 3, Irregularities, r.3 a card of another
# deck, r.4 two cards of the same rank and suit): not subject to the misdeal cut-off.
VOIDS_ALL_ACTION = frozenset({"DUPLICATE_CARD", "UNKNOWN_TAG", "CARD_NOT_IN_GAME_DECK",
                              "FOREIGN_BACK_CARD_IN_PLAY", "FOREIGN_BACK_CARD_IN_STUB"})


def _hand_end(state: TableState, seq: int) -> Step:
    h = state.hand
    if h is None or not h.in_play:
        return _out_of_place(state, seq, "There is no hand in progress to award.")
    if procedure.is_void(h.game) and any(f.code in VOIDS_ALL_ACTION for f in state.findings):
        # The award key on a hand whose action is void awards nothing: every chip goes back to
        # whoever wagered it, as at a misdeal (RR Section 3, Irregularities, r.3-4), with no
        # separate misdeal key needed. A floor ruling that the hand stands clears the void.
        return _misdeal(state, seq)
    return _game_end(state, h, h.game, seq)


def _game_end(state: TableState, h: Hand, g: procedure.GameHand, seq: int) -> Step:
    """``hand.end``: the procedure's last checks, then the engine settles the pots; the
    seating layer carries the stacks on."""
    g, out, awards, stacks, problem = procedure.end(g, seq)
    h = replace(h, game=g)
    carry = state.carry
    if not problem and g.eng.carry_over and not awards:
        carry += g.eng.carry_over  # nobody opened: the antes stay for the next deal
    elif not problem and carry and awards:
        awards, stacks = with_carry(awards, stacks, carry, g.seats)
        carry = 0
    if problem:
        detail = f"{problem[:1].upper()}{problem[1:]}."
        f = make_finding("SHOWDOWN_INCOMPLETE", seq, fill={"detail": detail}, message=detail)
        out.append(f)
        return Step(_raise(replace(state, hand=h), out), tuple(out))
    table = state.seating
    if h.plan is not None:
        forced = sum(p.amount for p in h.plan.posts)
        results = tuple(seating.PotResult(winners=a.winners, amount=a.amount,
                                          beyond_blinds=max(a.amount - forced, 0))
                        for a in awards if a.winners)
        after = {s: v for s, v in stacks.items() if s in table.seats}
        try:
            table = seating.finish_hand(table, h.plan, after, pots=results)
        except SeatingError as exc:  # pragma: no cover - the plan is the table's own
            detail = f"The seating layer refused the hand's end: {exc}."
            out.append(make_finding("EVENT_OUT_OF_PLACE", seq, fill={"detail": detail},
                                    message=detail))
    h = replace(h, phase="complete", showdown=g.live if len(g.live) > 1 else ())
    if awards and "pot" in state.chips.zones:
        # the chips of the hand followed to the winners (chip_pot.py)
        award, told = chip_pot.open_award(state.chips, awards, state.setup.rake_percent,
                                          state.setup.rake_cap, seq)
        h = replace(h, bets=replace(h.bets, award=award))
        out.extend(told)
    new = replace(state, hand=h, seating=table, results=awards, shuffled=False, carry=carry,
                  mix=mixed.completed(state.mix))
    return Step(_raise(new, out), tuple(out), awards)


def _misdeal(state: TableState, seq: int) -> Step:
    h = state.hand
    if h is None or not h.in_play:
        return _out_of_place(state, seq, "There is no hand in progress to declare a misdeal in.")
    g, out = procedure.moving_on(h.game)
    # The hand is void: every chip goes back to its owner (RR Section 3, Misdeals; Glossary,
    # MISDEAL: "the cards to be reshuffled and a new hand to be dealt").
    # The seating layer's stacks were never touched during the hand: the void hand leaves them
    # as they were, and the redeal re-plays the same plan.
    h = replace(h, game=g, phase="misdeal", showdown=())
    new = replace(state, hand=h, redeal=True, shuffled=False)
    return Step(_raise(new, out), tuple(out))


def _choose(state: TableState, body: GameChoose, seq: int) -> Step:
    """Dealer's choice: the dealer names the next hand's game (JPN Dealer's Choice)."""
    if _in_play(state):
        return _out_of_place(state, seq, "The next game is named between hands.")
    got = mixed.choose(state.mix, body.game, body.structure)
    if isinstance(got, str):
        return _out_of_place(state, seq, got)
    return Step(replace(state, mix=got))


# --- the misdeal cut-off --------------------------------------------------------------------------

CUTOFF_TEXT = {
    "rr": "two players after the blinds have acted (roberts-rules-v11.txt, Section 3, Misdeals, "
          "r.1)",
    "rr_home": "two players have acted in turn (roberts-rules-home.txt, Section 3, Misdeals, r.1)",
    "wsop": "substantial action: a raise, or a call and the next player acting "
            "(wsop-2009-live-action-rules.md, Section 3, Misdeals, r.2)",
    "tda": "substantial action: two actions in turn, one putting chips in, or three actions in "
           "turn (azwine-tour-tournament-rules.txt, Substantial Action (TDA #35), r.1)",
}
_CHIPS_IN = ("call", "bet", "raise", "allin")


def cutoff_passed(settings: Settings, h: Hand) -> bool:
    """Has the action gone past the point where an error can still make a misdeal, under the
    profile's ``misdeal_cutoff`` (research/irregularities.md §1.B MISDEAL_LOCKOUT)?"""
    rule = settings.misdeal_cutoff
    acts = h.acts
    if rule in ("rr", "rr_home"):
        # "two players after the blinds": the blinds and a straddle acting do not count.
        blinds = {h.small_blind, h.big_blind, *(h.plan.straddles if h.plan else ())}
        seats = {a.seat for a in acts if a.seat not in blinds and (a.in_turn or rule == "rr")}
        return len(seats) >= 2
    if rule == "wsop":
        # "a player has raised the pot or someone has called and the next player has acted"
        turns = [a for a in acts if a.in_turn]
        return any(a.raised for a in turns) or any(a.kind == "call" for a in turns[:-1])
    in_turn = [a for a in acts if a.in_turn]  # tda
    return len(in_turn) >= 3 or (len(in_turn) >= 2 and any(a.kind in _CHIPS_IN for a in in_turn))


def _cut_off_applies(f: Finding) -> bool:
    # The misdeals of RR Section 3, Misdeals, r.2 ("provided attention is called to the error
    # before two players have acted"). A duplicate or foreign card voids all action whenever it
    # is found (RR Section 3, Irregularities, r.4), so it is not subject to the cut-off.
    return f.code.startswith("MISDEAL_")


def _alerted(settings: Settings, h: Hand, out: list[Finding]) -> tuple[Hand, list[Finding]]:
    """The monitor raised misdeal-level findings: by the ``attention_on_alert`` setting either
    its alert is the attention called (the cut-off is judged now), or they wait for
    ``attention.called``."""
    misdeals = [f for f in out if _cut_off_applies(f)]
    if not misdeals:
        return h, out
    if not settings.attention_on_alert:
        # Held: nobody has called attention yet, so the hand goes on (the monitor stays off).
        rest = [f for f in out if not _cut_off_applies(f)]
        return replace(h, held=(*h.held, *misdeals),
                       game=procedure.set_void(h.game, False)), rest
    if not cutoff_passed(settings, h):
        return h, out
    return _after_cutoff(settings, h, out, "monitor", None)


def _after_cutoff(settings: Settings, h: Hand, found: list[Finding], by: str,
                  seq: int | None) -> tuple[Hand, list[Finding]]:
    """Past the cut-off the deal is played (RR Section 3, Misdeals, r.1): each misdeal-level
    finding becomes its non-misdeal remedy; a wrong card count makes that hand dead (RR Section
    3, Dead Hands, r.1(d))."""
    out: list[Finding] = []
    g = h.game
    cutoff = CUTOFF_TEXT[settings.misdeal_cutoff]
    for f in found:
        if not _cut_off_applies(f):
            out.append(f)
            continue
        at = f.seq if seq is None else seq
        if f.code == "MISDEAL_INCORRECT_CARD_COUNT":
            out.append(make_finding("HAND_WRONG_CARD_COUNT_DEAD", at, seats=f.seats,
                                    cards=f.cards, fill={"detail": f.message, "by": by,
                                                         "cutoff": cutoff}))
            for seat in f.seats:
                g = procedure.kill(g, seat)
        else:
            out.append(make_finding("MISDEAL_LOCKOUT", at, seats=f.seats, cards=f.cards,
                                    fill={"detail": f.message, "by": by, "cutoff": cutoff,
                                          "error": f.title}))
    h = replace(h, game=procedure.set_void(g, False))
    return _progress(h), out


def _attention(state: TableState, body: AttentionCalled, seq: int) -> Step:
    """Attention is called to an error: the held misdeal-level findings are judged against the
    cut-off now (research/irregularities.md §1.B: "evaluated at the moment attention is
    called"). With nothing held the call is recorded by the journal and changes nothing."""
    h = state.hand
    if h is None or not h.in_play or not h.held:
        return Step(state)
    held = list(h.held)
    h = replace(h, held=())
    if cutoff_passed(state.settings, h):
        h, out = _after_cutoff(state.settings, h, held, body.by, seq)
    else:
        out = held  # before the cut-off: the misdeal stands, as the monitor found it
        h = replace(h, game=procedure.set_void(h.game, True))
    return Step(_raise(replace(state, hand=h), out), tuple(out))


# --- the floor ------------------------------------------------------------------------------------


def _floor_ruling(state: TableState, body: FloorRuling, seq: int) -> Step:
    """The floor's ruling is recorded and shown to the dealer ("Decisions of the shift
    supervisor are final", roberts-rules-v11.txt, Section 2, Decision-Making, r.2). ``void``
    voids the hand as a misdeal does; ``stand`` lets a hand the monitor holds void go on."""
    h = state.hand
    on = f" on {body.code}" if body.code else ""
    if body.outcome == "void":
        if h is None or not h.in_play:
            return _out_of_place(state, seq, "The floor voided a hand, but there is no hand in "
                                 "progress.")
        outcome = "The hand is void: every chip goes back to its owner; redeal."
        f = make_finding("FLOOR_RULING", seq, fill={"on": on, "text": body.text,
                                                    "outcome": outcome}, message=body.text)
        step = _misdeal(state, seq)
        return Step(_raise(step.state, [f]), (*step.findings, f))
    outcome = "The hand stands: play on."
    if h is not None and h.in_play:
        # The monitor stays off for the rest of the hand: the floor has ruled on what it saw.
        state = replace(state, hand=replace(h, game=procedure.stand(h.game), held=()))
    f = make_finding("FLOOR_RULING", seq, fill={"on": on, "text": body.text, "outcome": outcome},
                     message=body.text)
    return Step(_raise(state, [f]), (f,))


# --- the dealer's and floor's keys for what the antennas cannot see (issue 11) -------------------


def _deck_fault(state: TableState, body: DeckFault, seq: int) -> Step:
    """A deck fault keyed by the dealer or floor (deck_keys.py): reported with its remedy; the
    monitor goes on judging the deal as it stands (a fouled stub is played out, RR Section 3,
    Irregularities, r.17)."""
    h = state.hand
    in_play = h is not None and h.in_play
    got = deck_keys.deck_fault(
        body.kind, body.cutter, seq,
        cards_out=procedure.cards_out(h.game) if h is not None and in_play else 0,
        acted=bool(h.acts) if h is not None and in_play else False,
        expect=procedure.expectation(h.game) if h is not None and in_play else "")
    if isinstance(got, str):
        return _out_of_place(state, seq, got)
    return Step(_raise(state, [got]), (got,))


def _draw_query(state: TableState, body: DrawQuery, seq: int) -> Step:
    """How many cards did ``seat`` draw? Answered from the draw log (the snapshot's
    ``hand.draw_answer``) until there is action after the draw; then it is locked
    (DRAW_CARDS_DRAWN_QUERY; roberts-rules-v11.txt, Section 11, r.13; Section 12, r.9)."""
    h = state.hand
    if h is None or not h.in_play or h.game.family != "draw":
        return _out_of_place(state, seq, "How many cards a player drew is asked in a draw game "
                             "during a hand.")
    g = h.game
    asker = body.asked_by
    if asker is not None and asker not in g.live:
        # "asked ... by another active player" (Section 11 r.13): nobody else is owed it
        return _out_of_place(state, seq, f"Seat {asker} is not in the hand: only another active "
                             "player is owed the answer.")
    if body.seat not in g.seats or not g.drawn.get(body.seat):
        return _out_of_place(state, seq, f"Seat {body.seat} has not drawn in this hand.")
    if procedure.drawn_answer(g, body.seat) is None:
        f = make_finding("DRAW_CARDS_DRAWN_QUERY", seq, seats=[body.seat])
        return Step(_raise(replace(state, hand=replace(h, asked=None)), [f]), (f,))
    return Step(replace(state, hand=replace(h, asked=body.seat)))
