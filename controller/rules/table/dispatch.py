"""``apply`` (state, event) -> Step: the live table's one entry, and its dispatch to the handlers.

Pure and deterministic: ``apply`` never mutates the state it is given, never reads a clock and
never raises. An event the table cannot apply now is recorded as a finding and leaves the state
as it was (docs/findings.md, EVENT_OUT_OF_PLACE), so a journal replays to the same states and
findings. ``undo`` returns the state before the last applied event; a reader's health and the
chips the antennas settled are sensor reports, never taken back."""

from __future__ import annotations

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
    TournamentPlayers,
    TournamentSetup,
    TrayCounts,
    Undo,
    ZoneLeave,
    ZoneRead,
)
from controller.poker.records import replace
from controller.rules.chips import CHIP_TAG_CODES, register, settle_zone, tray_counts
from controller.rules.findings import make_finding
from controller.rules.table import card_keys
from controller.rules.table.betting import action
from controller.rules.table.cards import card_event, card_kept
from controller.rules.table.chip_zones import chips_in_front, chips_moved
from controller.rules.table.cutoff import attention
from controller.rules.table.deck import audit, deck_change
from controller.rules.table.devices import DEVICE_CODES, report
from controller.rules.table.hand_end import choose, hand_end, misdeal
from controller.rules.table.hand_start import hand_start
from controller.rules.table.kernel import hand_in_play, out_of_place, with_findings
from controller.rules.table.levels import level_up, tournament_players, tournament_setup
from controller.rules.table.rulings import deck_fault, draw_query, floor_ruling
from controller.rules.table.seats import (
    button_draw,
    chip_race_event,
    presence,
    seat_leave,
    seat_take,
    shuffle,
    table_setup,
)
from controller.rules.table.state import Step, TableState


def apply(state: TableState, event: Event) -> Step:
    """Apply one table event. Pure; never raises on any sequence of well-typed events.

    ``undo`` returns the state before the last applied event (with the EVENT_UNDONE finding
    added); every other event keeps the state it was applied to for that."""
    if isinstance(event.body, Undo):
        return _undo(state, event.seq)
    if isinstance(event.body, ReaderHealth):
        # A device report is not the table's doing: it is never what an undo takes back.
        found, raised = report(state.devices, event.body, event.seq, event.ts)
        return Step(with_findings(replace(state, last_seq=event.seq, devices=found), raised),
                    raised)
    if isinstance(event.body, ChipsZone):
        # Where the chips lie is the antennas' report, like a reader's health: never undone
        # (the betting action a bet zone's chips make is: see chips_in_front).
        before = state.chips.zones.get(event.body.zone)
        chips, raised = settle_zone(state.chips, event.body, event.seq)
        settled = with_findings(replace(state, last_seq=event.seq, chips=chips), raised)
        settled, moved = chips_moved(state.chips, settled, event.body, event.seq)
        raised = (*raised, *moved)
        step = chips_in_front(settled, event.body.zone, before, event.seq)
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
    # (the seq set here, not on the way in: no handler reads it, and a replay makes one
    # record of the table fewer per event)
    new = replace(step.state, last_seq=event.seq, previous=kept,
                  previous_event=f"{event.type} (seq {event.seq})")
    return Step(new, step.findings, step.results)


def _undo(state: TableState, seq: int) -> Step:
    prev = state.previous
    if prev is None:
        return out_of_place(replace(state, last_seq=seq), seq,
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
    if isinstance(body, TableSetup):
        return table_setup(state, body, seq)
    if isinstance(body, SeatTake):
        return seat_take(state, body, seq)
    if isinstance(body, SeatLeave):
        return seat_leave(state, body, seq)
    if isinstance(body, (PlayerAway, PlayerBack, SeatChange)):
        return presence(state, body, seq)
    if isinstance(body, ButtonDraw):
        return button_draw(state, body, seq)
    if isinstance(body, TournamentSetup):
        return tournament_setup(state, body, seq)
    if isinstance(body, LevelUp):
        return level_up(state, body, seq)
    if isinstance(body, TournamentPlayers):
        return tournament_players(state, body, seq)
    if isinstance(body, (ChipRaceStart, ChipRaceEnd)):
        return chip_race_event(state, body, seq)
    if isinstance(body, DeckRegister):
        if state.hand is not None and state.hand.in_play and not body.idle:
            # (an idle deck changes nothing in play: it may be made known at any time)
            return out_of_place(state, seq, "A new deck cannot be registered during a hand.")
        deck = (state.deck.with_idle(body.deck, body.tags) if body.idle
                else state.deck.put_in_play(body.deck, body.tags))
        return Step(replace(state, deck=deck))
    if isinstance(body, ChipsRegister):
        if hand_in_play(state) and not body.idle:
            # the chips in the pot and the bets are the set in play's (an idle set changes
            # nothing in play: it may be made known at any time)
            return out_of_place(state, seq, "A new chip set cannot be put in play during a "
                                "hand.")
        return Step(replace(state, chips=register(state.chips, body)))
    if isinstance(body, DeckAudit):
        return audit(state, body, seq)
    if isinstance(body, DeckChange):
        return deck_change(state, body, seq)
    if isinstance(body, HandStart):
        return hand_start(state, body, seq)
    if isinstance(body, ShuffleDone):
        return shuffle(state)
    if isinstance(body, CARD_KEYS) and not body.uid:
        named = resolve_card_key(state, body)
        if isinstance(named, str):
            return out_of_place(state, seq, named)
        body = named
    if isinstance(body, (ShoeDraw, ZoneRead, ZoneLeave, CardExposed, CardFlashed, CardBoxed)):
        return card_event(state, body, seq)
    if isinstance(body, CardKept):
        return card_kept(state, body, seq)
    if isinstance(body, FloorRuling):
        return floor_ruling(state, body, seq)
    if isinstance(body, Action):
        return action(state, body, seq)
    if isinstance(body, HandEnd):
        return hand_end(state, seq)
    if isinstance(body, MisdealDeclared):
        return misdeal(state, seq)
    if isinstance(body, AttentionCalled):
        return attention(state, body, seq)
    if isinstance(body, GameChoose):
        return choose(state, body, seq)
    if isinstance(body, DeckFault):
        return deck_fault(state, body, seq)
    if isinstance(body, DrawQuery):
        return draw_query(state, body, seq)
    return out_of_place(state, seq, f"Unknown event {type(body).__name__}.")  # pragma: no cover


def resolve_card_key(state: TableState, body: CardKey) -> CardKey | str:
    """A card key named by card (``As``, ``last``) with the tag it names, or why it names none
    (``card_keys.resolve``). The daemon calls it before journaling a key; ``apply`` calls it for
    a key read from a scenario."""
    h = state.hand
    return card_keys.resolve(state.deck, h.game if h is not None and h.in_play else None, body)
