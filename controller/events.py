"""Table events: the journal and scenario vocabulary (see docs/events.md).

Version 1 (one hand at a time) plus the additive table-layer events of issue 4: seats across
hands (away, back, seat change), the house-rules settings in ``table.setup``, posts of every kind
(``action post`` with a ``blind`` field), the tournament schedule and level changes (and the
players left in the event, issue 31), the initial-button draw and the chip race. A v1 file
parses and replays exactly as before.

Every fact about the table reaches the rules core as one of these events, in order. A scenario
file and the journal hold the same objects, one JSON object per line:
``{"seq": 12, "ts": 1700000000123, "type": "shoe.draw", "uid": "04A1B2C3", "face_up": false}``.

This module is pure: parsing and validation only, no I/O but the optional file reader at the end,
which names the file and line of any malformed event.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any, ClassVar, Literal

# The vocabulary checks games and settings against the pure poker data below it (no table).
from controller.poker.house_rules import SettingsError, settings_for
from controller.poker.variants import game_problem

# A lost zone.leave from the shoe: a card drawn that no zone read in time (sensing's time-out).
SHOE_ZONE = "shoe"
ZONE_RE = re.compile(r"^(seat:(?:[1-9]|10)|board|burn|muck|aside)$")
SEAT_KEY_RE = re.compile(r"0|[1-9][0-9]{0,2}")
CARD_RE = re.compile(r"^[23456789TJQKA][cdhs]$")
# A deck may register the joker, "Xx" (RR Glossary, DECK: 53 cards in ace-to-five lowball and
# draw high); in a game without it the monitor flags it as a scrap of paper.
TAG_CARD_RE = re.compile(r"^([23456789TJQKA][cdhs]|Xx)$")

ActionKind = Literal["post", "bet", "call", "raise", "check", "fold", "allin", "draw"]
ACTION_KINDS: tuple[str, ...] = ("post", "bet", "call", "raise", "check", "fold", "allin",
                                 "draw")
# post/bet/raise carry `amount` = the seat's total wager on this street after the action
# ("raise to", as entered at the dealer console); call/check/fold/allin need none. `draw` (draw
# games) carries the number of cards the player asks for, 0 = standing pat.
# A raise without an amount is a raise declared before the chips (TDA #45): the chips that follow
# say how much (controller/rules/chips/betting.py).
ACTIONS_WITH_AMOUNT = frozenset({"post", "bet", "draw"})

# The games a table is set up for are every variant of controller/poker/variants.py and its
# mixed games (``GAME_IDS``); ``structure`` names one of these (docs/games.md).
STRUCTURES: tuple[str, ...] = ("", "limit", "pot-limit", "no-limit", "spread")

ExposedBy = Literal["dealer", "player"]

# The kinds of forced post (docs/events.md, Betting actions): `action post` may name one in
# `blind`; without it the post is whatever the table's plan has due next (v1 behaviour).
POST_KINDS: tuple[str, ...] = (
    "small_blind", "big_blind", "straddle", "kill", "ante", "missed_small", "missed_big",
    "new_player", "bring_in",
)


class EventError(ValueError):
    """A malformed event: names the field and the problem (and the line, when read from a file)."""


# --- event bodies -------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableSetup:
    """The table's game and stakes. ``game`` is a game of docs/games.md (a variant id, or the
    mixed games ``horse`` and ``dealers_choice``), no-limit hold'em (``nlhe``) by default;
    ``structure`` its betting structure where the game is dealt at more than one (``limit``,
    ``pot-limit``, ``no-limit``, ``spread``; "" the game's usual one). Fixed-limit games bet
    ``small_bet`` and ``big_bet`` (0: the big blind and twice it); stud antes ``ante`` and brings
    in for ``bring_in`` (0: a third of the small bet, at least 1)."""

    TYPE: ClassVar[str] = "table.setup"
    game: str = "nlhe"
    structure: str = ""
    seats: int = 6
    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0
    profile: str = "roberts"
    # House-rules setting overrides on top of the profile (controller/poker/house_rules.py);
    # an unknown setting or value is an error naming it.
    settings: Mapping[str, Any] = field(default_factory=dict)
    # The house's rake of each hand's pots: ``rake_percent`` of them, at most ``rake_cap``
    # (0: no cap); the chips of a pot may go to the tray or drop up to it (chips/pot.py).
    rake_percent: int = 0
    rake_cap: int = 0


@dataclass(frozen=True)
class SeatTake:
    """A player sits down in ``seat`` with ``stack`` chips (also a re-buy into the same seat).
    ``post``: a new player posts a big blind to be dealt in at once instead of waiting for the
    big blind (roberts-rules-v11.txt, Section 4, Rules for Using Blinds, r.4)."""

    TYPE: ClassVar[str] = "seat.take"
    seat: int
    player: str
    stack: int
    post: bool = False


@dataclass(frozen=True)
class SeatLeave:
    """The player in ``seat`` leaves the table."""

    TYPE: ClassVar[str] = "seat.leave"
    seat: int


@dataclass(frozen=True)
class PlayerAway:
    """The player in ``seat`` steps away from the table (keeps the seat; misses blinds in a cash
    game, is dealt in and blinded off in a tournament)."""

    TYPE: ClassVar[str] = "player.away"
    seat: int


@dataclass(frozen=True)
class PlayerBack:
    """The player in ``seat`` is back. ``post``: make up the missed blinds now and be dealt in
    (else wait for the big blind; roberts-rules-v11.txt, Section 4, r.10)."""

    TYPE: ClassVar[str] = "player.back"
    seat: int
    post: bool = False


@dataclass(frozen=True)
class SeatChange:
    """The player in ``seat`` moves to the empty seat ``to`` (between hands)."""

    TYPE: ClassVar[str] = "seat.change"
    seat: int
    to: int


@dataclass(frozen=True)
class ButtonDraw:
    """The high-card deal for the initial button: the card each seat drew (seat -> card).
    The highest card wins, suits ranked spades, hearts, diamonds, clubs."""

    TYPE: ClassVar[str] = "button.draw"
    cards: Mapping[int, str]


@dataclass(frozen=True)
class TournamentSetup:
    """Tournament mode with its blind schedule: ``levels`` in order, each an object with
    ``small_blind``, ``big_blind``, ``ante`` (0) and ``minutes`` (0: not timed by the core)."""

    TYPE: ClassVar[str] = "tournament.setup"
    levels: tuple[Mapping[str, int], ...]
    # The entrants: the players left in the event until ``tournament.players`` says otherwise
    # (None: not told; the table then infers its last two, rules/table/new_hand.py last_two).
    players: int | None = None


@dataclass(frozen=True)
class LevelUp:
    """The level clock expired: the next level (``level``, 1-based) applies from the moment the
    profile's level-change marker names."""

    TYPE: ClassVar[str] = "tournament.level"
    level: int
    # The floor login that entered it at the touch console (display/console_inputs.py stamps
    # it from the login it checked); "" from the typed console or a file.
    ruled_by: str = ""


@dataclass(frozen=True)
class TournamentPlayers:
    """The players left in the whole event (``remaining``, 1 or more), as the tournament
    director or the tournament software counts them: at a multi-table event a table cannot see
    it. Fixed limit: the raise cap holds heads-up until the event is down to its last two (RR
    Section 3 r.5, Section 15 r.23; AZW Section 15 r.23); the count applies from the next hand,
    and each player busted at this table lowers it by one."""

    TYPE: ClassVar[str] = "tournament.players"
    remaining: int
    ruled_by: str = ""  # the floor login that entered it, as for ``tournament.level``


@dataclass(frozen=True)
class ChipRaceStart:
    """A colour-up: the chip race deal begins (cards dealt to players for odd chips; not a
    hand)."""

    TYPE: ClassVar[str] = "chiprace.start"


@dataclass(frozen=True)
class ChipRaceEnd:
    """The chip race is over; ``stacks`` gives each seat's stack after the colour-up."""

    TYPE: ClassVar[str] = "chiprace.end"
    stacks: Mapping[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class DeckRegister:
    """A deck's tags: RFID uid -> card (``As``, ``Td``, ``2c``). It becomes the deck in play and
    the deck in play before it stays known as another deck of the table (a card of it seen in a
    hand is a card with a different back). ``idle``: the deck is known but not put in play (the
    second deck of a two-deck rotation, RR Section 2 r.22)."""

    TYPE: ClassVar[str] = "deck.register"
    deck: str
    tags: Mapping[str, str]
    idle: bool = False


@dataclass(frozen=True)
class DeckAudit:
    """The deck read through the shoe (between hands: the whole deck; during a hand: the stub),
    every tag read once: ``uids``. The core compares it with the deck in play, counting the
    cards out on the felt as present (MISSING_CARDS_FROM_DECK, FOREIGN_BACK_CARD_IN_STUB)."""

    TYPE: ClassVar[str] = "deck.audit"
    uids: tuple[str, ...]


@dataclass(frozen=True)
class DeckChange:
    """The decks of a rotation changed between hands (RR Section 2 r.22): ``deck``, a deck the
    table registered and keeps resting, goes into play; the deck in play before rests, known as
    another deck of the table (a card of it in a hand is FOREIGN_BACK_CARD_IN_PLAY)."""

    TYPE: ClassVar[str] = "deck.change"
    deck: str


@dataclass(frozen=True)
class HandStart:
    """The dealer's new-hand key. ``button`` is the seat the button sits at (from the button
    sensor or the dealer); None lets the core move it to the next occupied seat."""

    TYPE: ClassVar[str] = "hand.start"
    button: int | None = None


@dataclass(frozen=True)
class ShuffleDone:
    """The dealer's shuffle-done key: the deck (or, in a remedy, the stub) is reshuffled."""

    TYPE: ClassVar[str] = "shuffle.done"


@dataclass(frozen=True)
class ShoeDraw:
    """A card leaves the shoe. ``face_up`` comes from the shoe's orientation sensor."""

    TYPE: ClassVar[str] = "shoe.draw"
    uid: str
    face_up: bool = False


@dataclass(frozen=True)
class ZoneRead:
    """A card is read in a zone under the felt: ``seat:N``, board, burn, muck or aside."""

    TYPE: ClassVar[str] = "zone.read"
    uid: str
    zone: str


@dataclass(frozen=True)
class ZoneLeave:
    """A card is no longer read in a zone. ``lost``: it was read nowhere else, sensing's time-out
    ran out (a card lifted off the felt); with ``lost`` the zone may be ``shoe``: a card drawn
    that no zone read in time."""

    TYPE: ClassVar[str] = "zone.leave"
    uid: str
    zone: str
    lost: bool = False


@dataclass(frozen=True)
class CardExposed:
    """The dealer's exposed-card key: a card was exposed, by the ``dealer`` or by a ``player``.
    Like every card key, it names the card by its tag (``uid``) or by ``card``: its name
    (``As``) or ``last``, the last card drawn, which the core resolves through the deck
    registry (``rules.card_keys``); the daemon journals the key with the tag it resolved to."""

    TYPE: ClassVar[str] = "card.exposed"
    uid: str = ""
    by: ExposedBy = "dealer"
    card: str = ""


@dataclass(frozen=True)
class CardFlashed:
    """The dealer's flashed-card key: ``uid`` was partly exposed (RR Glossary, FLASHED CARD), by
    the ``dealer`` or by a ``player``."""

    TYPE: ClassVar[str] = "card.flashed"
    uid: str = ""
    by: ExposedBy = "dealer"
    card: str = ""


@dataclass(frozen=True)
class CardBoxed:
    """The dealer's boxed-card key: ``uid`` was found face up in the deck or stub (RR Glossary,
    BOXED CARD), before it was dealt or as the card just drawn."""

    TYPE: ClassVar[str] = "card.boxed"
    uid: str = ""
    card: str = ""


@dataclass(frozen=True)
class CardKept:
    """The dealer's key: the player has looked at card ``uid`` or mixed it with the hole cards
    (stud: a premature final down card the player must then keep, RR Section 8 r.14)."""

    TYPE: ClassVar[str] = "card.kept"
    uid: str = ""
    card: str = ""


@dataclass(frozen=True)
class FloorRuling:
    """The floor's ruling: free ``text``, the finding ``code`` it rules on (optional), and the
    ``outcome``: ``stand`` (the hand goes on) or ``void`` (the hand is void, as a misdeal)."""

    TYPE: ClassVar[str] = "floor.ruling"
    text: str
    code: str | None = None
    outcome: str = "stand"
    # Who ruled: the floor account the touch console's ruling was admitted with (the server
    # stamps it, the page cannot); "" from the typed console at the machine.
    ruled_by: str = ""


@dataclass(frozen=True)
class Undo:
    """The dealer's undo key: revert the last applied event."""

    TYPE: ClassVar[str] = "undo"


@dataclass(frozen=True)
class AttentionCalled:
    """Attention is called to an error (by the ``dealer``, a ``player`` or the ``floor``): the
    moment the misdeal cut-off is judged (research/irregularities.md §1.B MISDEAL_LOCKOUT)."""

    TYPE: ClassVar[str] = "attention.called"
    by: str = "dealer"


@dataclass(frozen=True)
class GameChoose:
    """Dealer's choice: the game of the next hand, named before it starts (JPN Dealer's
    Choice), with its structure ("" its usual one)."""

    TYPE: ClassVar[str] = "game.choose"
    game: str
    structure: str = ""


@dataclass(frozen=True)
class MisdealDeclared:
    """The dealer or floor declares a misdeal: the hand is void, cards come back for a redeal."""

    TYPE: ClassVar[str] = "misdeal.declared"


@dataclass(frozen=True)
class Action:
    """A betting action entered at the dealer console (or read from the chip sensors)."""

    TYPE: ClassVar[str] = "action"
    seat: int
    kind: ActionKind
    amount: int | None = None
    blind: str | None = None  # with kind post: which forced post (POST_KINDS)


@dataclass(frozen=True)
class HandEnd:
    """The dealer's award-pots key: the core settles every pot of the hand and closes it."""

    TYPE: ClassVar[str] = "hand.end"


# The deck faults a dealer or floor key reports (docs/events.md, deck.fault): the antennas see
# cards, not how the deck was shuffled, cut or held.
DECK_FAULTS: tuple[str, ...] = ("shuffle_insufficient", "cut_missing", "cut_wrong_player",
                                "bottom_card_exposed", "stub_fouled")


@dataclass(frozen=True)
class DeckFault:
    """The dealer's or floor's deck-fault key: ``kind`` (DECK_FAULTS) is what went wrong with
    the shuffle, the cut, the cut card or the stub; ``cutter`` the seat that cut, with
    ``cut_wrong_player``."""

    TYPE: ClassVar[str] = "deck.fault"
    kind: str
    cutter: int | None = None


@dataclass(frozen=True)
class DrawQuery:
    """A player asks how many cards ``seat`` drew (draw games); ``asked_by`` is the asking seat
    when the console names it (RR Section 11 r.13: the question of another active player)."""

    TYPE: ClassVar[str] = "draw.query"
    seat: int
    asked_by: int | None = None


# A reader's health as the shell's monitor judges it (controller/sensing/health.py; docs/events.md,
# reader.health): the states, from healthy to the loudest.
READER_STATES: tuple[str, ...] = ("ok", "noisy", "unresolved", "fault", "silent", "offline")


@dataclass(frozen=True)
class ReaderHealth:
    """A reader's health changed (submitted on each change only, by controller/sensing/health.py):
    ``reader`` is its protocol id (1 the shoe, 2 the felt, 3, 4, ... the chip devices by
    default), ``name`` what the dealer calls it ("shoe", "felt"; "chip", "counting tray"),
    ``state`` one of READER_STATES, ``antenna`` the antenna when one is known to be at fault,
    ``detail`` what the monitor saw."""

    TYPE: ClassVar[str] = "reader.health"
    reader: int
    state: str
    name: str = ""
    antenna: int | None = None
    detail: str = ""


# The chip zones (docs/events.md, chips.zone): each seat's bet zone (the betting line) and stack,
# the pot, the dealer's tray (the float) and the drop (rake) slot.
CHIP_ZONE_RE = re.compile(r"^((bet|stack):(?:[1-9]|10)|pot|tray|drop)$")


@dataclass(frozen=True)
class ChipsRegister:
    """A chip set's tags: RFID uid -> denomination (whole units of the table's money), with the
    colour of each denomination (optional). Like a deck (``deck.register``): it becomes the set
    in play and the set in play before stays known, so a chip of another set is told apart from
    an unknown tag; ``idle``: the set is known but not put in play."""

    TYPE: ClassVar[str] = "chips.register"
    set: str
    chips: Mapping[str, int]
    colours: Mapping[int, str] = field(default_factory=dict)
    idle: bool = False


@dataclass(frozen=True)
class ChipsZone:
    """A chip zone's settled content (controller/sensing/chips.py): the ``total`` and the count
    of each denomination (``counts``) of the set in play's chips read there, every tag read
    there (``uids``, chips of no set in play too), and the tags that came (``added``) and went
    (``removed``) since the zone's last settled content."""

    TYPE: ClassVar[str] = "chips.zone"
    zone: str
    total: int
    counts: Mapping[int, int]
    uids: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()


@dataclass(frozen=True)
class TrayCounts:
    """A counting tray's settled count of each denomination (a tray without tags)."""

    TYPE: ClassVar[str] = "tray.counts"
    counts: Mapping[int, int]


Body = (
    TableSetup
    | SeatTake
    | SeatLeave
    | PlayerAway
    | PlayerBack
    | SeatChange
    | ButtonDraw
    | TournamentSetup
    | LevelUp
    | TournamentPlayers
    | ChipRaceStart
    | ChipRaceEnd
    | DeckRegister
    | DeckAudit
    | DeckChange
    | HandStart
    | ShuffleDone
    | ShoeDraw
    | ZoneRead
    | ZoneLeave
    | CardExposed
    | CardFlashed
    | CardBoxed
    | CardKept
    | FloorRuling
    | Undo
    | AttentionCalled
    | GameChoose
    | MisdealDeclared
    | Action
    | HandEnd
    | DeckFault
    | DrawQuery
    | ReaderHealth
    | ChipsRegister
    | ChipsZone
    | TrayCounts
)

# The dealer's card keys: the events that name a card the dealer points at.
CardKey = CardExposed | CardFlashed | CardBoxed | CardKept
CARD_KEYS = (CardExposed, CardFlashed, CardBoxed, CardKept)
LAST_CARD = "last"  # a card key's ``card``: the last card drawn

BODY_TYPES: dict[str, type[Any]] = {
    cls.TYPE: cls
    for cls in (
        TableSetup,
        SeatTake,
        SeatLeave,
        PlayerAway,
        PlayerBack,
        SeatChange,
        ButtonDraw,
        TournamentSetup,
        LevelUp,
        TournamentPlayers,
        ChipRaceStart,
        ChipRaceEnd,
        DeckRegister,
        DeckAudit,
        DeckChange,
        HandStart,
        ShuffleDone,
        ShoeDraw,
        ZoneRead,
        ZoneLeave,
        CardExposed,
        CardFlashed,
        CardBoxed,
        CardKept,
        FloorRuling,
        Undo,
        AttentionCalled,
        GameChoose,
        MisdealDeclared,
        Action,
        HandEnd,
        DeckFault,
        DrawQuery,
        ReaderHealth,
        ChipsRegister,
        ChipsZone,
        TrayCounts,
    )
}


@dataclass(frozen=True)
class Event:
    """One table event: a sequence number, a millisecond timestamp and a typed body."""

    seq: int
    ts: int
    body: Body = field()

    @property
    def type(self) -> str:
        return self.body.TYPE

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seq": self.seq, "ts": self.ts, "type": self.type}
        for f in fields(self.body):
            value = getattr(self.body, f.name)
            if isinstance(value, Mapping):
                value = dict(value)
            elif isinstance(value, tuple):
                value = [dict(v) if isinstance(v, Mapping) else v for v in value]
            if f.name in ("settings", "blind", "post", "bring_in", "small_bet", "big_bet",
                          "structure", "idle", "lost", "cutter", "asked_by", "card", "colours",
                          "rake_percent", "rake_cap", "ruled_by", "players") \
                    and not value:
                continue  # optional and unset: keep v1 lines as they were
            if f.name == "uid" and not value:
                continue  # a card key named by its card only
            out[f.name] = value
        return out

    def to_line(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"), sort_keys=False)


# --- validation -----------------------------------------------------------------------------------

# The largest whole number a browser's JSON keeps exact (the snapshot goes to the live view as
# JSON); every integer field, seq and ts included, must fit. Bigger ones are typos or garbage,
# and past 4,300 digits Python could not even write them back to the journal.
INT_MAX = 2**53 - 1

# How each body field is checked: its kind. ``validate_body`` checks every field by its kind, so
# a body built in code (the console, the simulator, the deck file) is refused exactly when its
# JSON line would be: nothing the parser refuses is ever journaled. A test checks that every
# field of every body type is listed here.
INT_FIELDS = frozenset({"seat", "seats", "stack", "small_blind", "big_blind", "ante", "bring_in",
                        "small_bet", "big_bet", "to", "level", "reader", "total",
                        "rake_percent", "rake_cap", "remaining"})
OPTIONAL_INT_FIELDS = frozenset({"button", "amount", "cutter", "asked_by", "antenna",
                                 "players"})
STR_FIELDS = frozenset({"uid", "zone", "player", "deck", "game", "profile", "kind", "by", "text",
                        "outcome", "state", "set"})
CHOICE_STR_FIELDS = frozenset({"structure", "card", "name", "detail",  # a string, "" default
                               "ruled_by"})
OPTIONAL_STR_FIELDS = frozenset({"blind", "code"})
BOOL_FIELDS = frozenset({"face_up", "post", "idle", "lost"})
STR_LIST_FIELDS = frozenset({"uids", "added", "removed"})  # a JSON list of strings, held as a tuple
MAPPING_FIELDS = frozenset({"settings", "cards", "stacks", "tags", "levels", "chips", "colours",
                            "counts"})


def _check_int(key: str, value: Any, *, lo: int | None = None, hi: int = INT_MAX) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EventError(f"field '{key}' must be an integer, got {value!r}")
    if lo is not None and value < lo:
        raise EventError(f"field '{key}' must be >= {lo}, got {value}")
    if value > hi:
        raise EventError(f"field '{key}' must be <= {hi}, got {_short(value)}")
    return value


def _short(value: int) -> str:
    """An int for a message: a huge one by its size, not its (maybe 4,000) digits."""
    return str(value) if value.bit_length() < 200 else f"a {value.bit_length()}-bit number"


def _int(obj: Mapping[str, Any], key: str, *, lo: int | None = None, hi: int = INT_MAX) -> int:
    return _check_int(key, obj[key], lo=lo, hi=hi)


def _check_str(key: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise EventError(f"field '{key}' must be a non-empty string, got {value!r}")
    return value


def _str(obj: Mapping[str, Any], key: str) -> str:
    return _check_str(key, obj[key])


def _check_types(body: Body) -> None:
    """Every field has the JSON type its kind needs (see INT_FIELDS and the others)."""
    for f in fields(body):
        name, value = f.name, getattr(body, f.name)
        if name in INT_FIELDS:
            _check_int(name, value)
        elif name in OPTIONAL_INT_FIELDS:
            if value is not None:
                _check_int(name, value)
        elif name in STR_FIELDS:
            if not (name == "uid" and value == "" and isinstance(body, CARD_KEYS)):
                _check_str(name, value)  # (a card key may name its card instead of its tag)
        elif name in OPTIONAL_STR_FIELDS:
            if value is not None:
                _check_str(name, value)
        elif name in CHOICE_STR_FIELDS:
            if not isinstance(value, str):
                raise EventError(f"field '{name}' must be a string, got {value!r}")
        elif name in BOOL_FIELDS:
            if not isinstance(value, bool):
                raise EventError(f"field '{name}' must be true or false, got {value!r}")
        elif name in STR_LIST_FIELDS:  # a JSON list, held as a tuple (the body is frozen)
            if not isinstance(value, tuple) or not all(isinstance(v, str) for v in value):
                raise EventError(f"field '{name}' must be a list of strings")
        elif name == "levels":  # a JSON list, held as a tuple (the body is frozen)
            if not isinstance(value, tuple) or not all(isinstance(v, Mapping) for v in value):
                raise EventError("field 'levels' must be a list of level objects")
        elif name in MAPPING_FIELDS:
            if not isinstance(value, Mapping):
                raise EventError(f"field '{name}' must be an object")
        else:  # pragma: no cover - a new field must be given a kind (tests check every field)
            raise EventError(f"field '{name}' has no kind to check it by")


def _check_game(game: str, structure: str, *, mixed: bool) -> None:
    """An unknown game, or a structure the game is not dealt at, names it."""
    problem = game_problem(game, structure, mixed=mixed)
    if problem is not None:
        raise EventError(f"field {problem[0]!r}: {problem[1]}")


def _check_card_key(body: CardKey) -> None:
    """A card key names its card by tag (``uid``), by name (``card``: ``As``, the joker ``Xx``)
    or as ``last`` (the last card drawn); after the core resolved it, by both."""
    if not body.uid and not body.card:
        raise EventError(f"{body.TYPE} needs field 'card' (a card like 'As', or "
                         f"'{LAST_CARD}' for the last card drawn) or field 'uid'")
    if body.card and body.card != LAST_CARD and not TAG_CARD_RE.fullmatch(body.card):
        raise EventError(f"field 'card': {body.card!r} is not a card like 'As' (or the joker "
                         f"'Xx', or '{LAST_CARD}' for the last card drawn)")
    if body.uid and body.card == LAST_CARD:
        raise EventError(f"field 'card': '{LAST_CARD}' is resolved to a tag, not journaled "
                         "beside one")


def validate_body(body: Body) -> None:
    """Every check on a body: the field types, then the domain; raise EventError naming the
    field. A body that passes reads back equal from its JSON line (tests/controller/
    test_events.py holds this for bodies of every type), so it can be journaled."""
    if type(body) not in BODY_TYPES.values():
        raise EventError(f"not an event body: {type(body).__name__}")
    _check_types(body)
    if isinstance(body, TableSetup):
        _check_game(body.game, body.structure, mixed=True)
        if not 2 <= body.seats <= 10:
            raise EventError(f"field 'seats' must be 2..10, got {body.seats}")
        if body.small_blind < 0 or body.big_blind <= 0 or body.small_blind > body.big_blind:
            raise EventError("fields 'small_blind'/'big_blind': need 0 <= small <= big, big > 0")
        if not 0 <= body.rake_percent <= 100:
            raise EventError(f"field 'rake_percent' must be 0..100, got {body.rake_percent}")
        for key in ("ante", "bring_in", "small_bet", "big_bet", "rake_cap"):
            if getattr(body, key) < 0:
                raise EventError(f"field '{key}' must be >= 0, got {getattr(body, key)}")
        if body.big_bet and body.big_bet < body.small_bet:
            raise EventError("fields 'small_bet'/'big_bet': the big bet is at least the small")
        _check_settings(body)
    elif isinstance(body, (SeatTake, SeatLeave, PlayerAway, PlayerBack, SeatChange, DrawQuery)):
        if not 1 <= body.seat <= 10:
            raise EventError(f"field 'seat' must be 1..10, got {body.seat}")
        if isinstance(body, SeatTake) and body.stack < 0:
            raise EventError(f"field 'stack' must be >= 0, got {body.stack}")
        if isinstance(body, DrawQuery) and body.asked_by is not None:
            if not 1 <= body.asked_by <= 10:
                raise EventError(f"field 'asked_by' must be 1..10, got {body.asked_by}")
            if body.asked_by == body.seat:
                raise EventError("fields 'seat' and 'asked_by' name the same seat")
        if isinstance(body, SeatChange):
            if not 1 <= body.to <= 10:
                raise EventError(f"field 'to' must be 1..10, got {body.to}")
            if body.to == body.seat:
                raise EventError("fields 'seat' and 'to' name the same seat")
    elif isinstance(body, ButtonDraw):
        if len(body.cards) < 2:
            raise EventError("field 'cards': the button draw needs a card for two seats or more")
        for seat, card in body.cards.items():
            if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= 10:
                raise EventError(f"field 'cards': seat {seat!r} is not 1..10")
            if not isinstance(card, str) or not CARD_RE.fullmatch(card):
                raise EventError(f"field 'cards': seat {seat} drew {card!r}, not a card like 'As'")
        if len(set(body.cards.values())) != len(body.cards):
            raise EventError("field 'cards': the same card is named twice")
    elif isinstance(body, TournamentSetup):
        if not body.levels:
            raise EventError("field 'levels' needs at least one level")
        for i, level in enumerate(body.levels, start=1):
            _check_level(i, level)
        if body.players is not None and body.players < 1:
            raise EventError(f"field 'players' must be >= 1 (the entrants), got {body.players}")
    elif isinstance(body, LevelUp):
        if body.level < 1:
            raise EventError(f"field 'level' must be >= 1, got {body.level}")
        if len(body.ruled_by) > 64:
            raise EventError("field 'ruled_by' is longer than 64 characters")
    elif isinstance(body, TournamentPlayers):
        if body.remaining < 1:
            raise EventError(f"field 'remaining' must be >= 1 (the players left in the event), "
                             f"got {body.remaining}")
        if len(body.ruled_by) > 64:
            raise EventError("field 'ruled_by' is longer than 64 characters")
    elif isinstance(body, ChipRaceEnd):
        for seat, stack in body.stacks.items():
            if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= 10:
                raise EventError(f"field 'stacks': seat {seat!r} is not 1..10")
            if isinstance(stack, bool) or not isinstance(stack, int) or \
                    not 0 <= stack <= INT_MAX:
                raise EventError(f"field 'stacks': seat {seat} stack {stack!r} is not a "
                                 f"whole number 0..{INT_MAX}")
    elif isinstance(body, DeckRegister):
        for uid, card in body.tags.items():
            if not isinstance(uid, str) or not uid.strip():
                raise EventError(f"field 'tags': bad uid {uid!r}")
            if not isinstance(card, str) or not TAG_CARD_RE.fullmatch(card):
                raise EventError(f"field 'tags': uid {uid} maps to {card!r}, not a card like "
                                 "'As' (or the joker 'Xx')")
    elif isinstance(body, DeckAudit):
        bad = next((u for u in body.uids if not u.strip()), None)
        if bad is not None:
            raise EventError(f"field 'uids': bad uid {bad!r}")
    elif isinstance(body, HandStart):
        if body.button is not None and not 1 <= body.button <= 10:
            raise EventError(f"field 'button' must be 1..10, got {body.button}")
    elif isinstance(body, ZoneLeave) and body.zone == SHOE_ZONE:
        if not body.lost:
            raise EventError("field 'zone': 'shoe' only with lost true (a card drawn that no "
                             "zone read in time)")
    elif isinstance(body, (ZoneRead, ZoneLeave)):
        if not ZONE_RE.fullmatch(body.zone):
            raise EventError(
                f"field 'zone': {body.zone!r} is not seat:1..seat:10, board, burn, muck or aside"
            )
    elif isinstance(body, CARD_KEYS):
        if isinstance(body, (CardExposed, CardFlashed)) and body.by not in ("dealer", "player"):
            raise EventError(f"field 'by' must be 'dealer' or 'player', got {body.by!r}")
        _check_card_key(body)
    elif isinstance(body, FloorRuling):
        if len(body.text) > RULING_TEXT_MAX:
            raise EventError(f"field 'text' is longer than {RULING_TEXT_MAX} characters")
        if len(body.ruled_by) > 64:
            raise EventError("field 'ruled_by' is longer than 64 characters")
        if body.outcome not in RULING_OUTCOMES:
            raise EventError(f"field 'outcome' must be one of {', '.join(RULING_OUTCOMES)}, "
                             f"got {body.outcome!r}")
        if body.code is not None and not re.fullmatch(r"[A-Z][A-Z0-9_]*", body.code):
            raise EventError(f"field 'code' must be a finding code like 'MISDEAL_LOCKOUT', "
                             f"got {body.code!r}")
    elif isinstance(body, GameChoose):
        _check_game(body.game, body.structure, mixed=False)
    elif isinstance(body, DeckFault):
        if body.kind not in DECK_FAULTS:
            raise EventError(f"field 'kind': unknown deck fault {body.kind!r}; one of "
                             f"{', '.join(DECK_FAULTS)}")
        if body.cutter is not None:
            if body.kind != "cut_wrong_player":
                raise EventError(f"field 'cutter' goes with kind 'cut_wrong_player', not "
                                 f"{body.kind!r}")
            if not 1 <= body.cutter <= 10:
                raise EventError(f"field 'cutter' must be 1..10, got {body.cutter}")
    elif isinstance(body, AttentionCalled):
        if body.by not in ATTENTION_BY:
            raise EventError(f"field 'by' must be one of {', '.join(ATTENTION_BY)}, "
                             f"got {body.by!r}")
    elif isinstance(body, ReaderHealth):
        if not 0 <= body.reader <= 255:
            raise EventError(f"field 'reader' must be 0..255, got {body.reader}")
        if body.antenna is not None and not 0 <= body.antenna <= 255:
            raise EventError(f"field 'antenna' must be 0..255, got {body.antenna}")
        if body.state not in READER_STATES:
            raise EventError(f"field 'state' must be one of {', '.join(READER_STATES)}, "
                             f"got {body.state!r}")
        if len(body.detail) > RULING_TEXT_MAX or len(body.name) > 40:
            raise EventError("field 'detail' or 'name' is too long")
    elif isinstance(body, ChipsRegister):
        _check_chips_register(body)
    elif isinstance(body, ChipsZone):
        _check_chips_zone(body)
    elif isinstance(body, TrayCounts):
        _check_counts("counts", body.counts)
    elif isinstance(body, Action):
        if not 1 <= body.seat <= 10:
            raise EventError(f"field 'seat' must be 1..10, got {body.seat}")
        if body.kind not in ACTION_KINDS:
            raise EventError(f"field 'kind': unknown action {body.kind!r}; one of {ACTION_KINDS}")
        if body.kind in ACTIONS_WITH_AMOUNT and body.amount is None:
            raise EventError(f"action '{body.kind}' needs field 'amount' (total on this street)")
        if body.amount is not None and body.amount < 0:
            raise EventError(f"field 'amount' must be >= 0, got {body.amount}")
        if body.blind is not None:
            if body.kind != "post":
                raise EventError(f"field 'blind' goes with kind 'post', not {body.kind!r}")
            if body.blind not in POST_KINDS:
                raise EventError(f"field 'blind': unknown post {body.blind!r}; one of "
                                 f"{POST_KINDS}")


# A chip set's id and a colour's name are short words for the dealer's view.
CHIP_NAME_MAX = 40
# A denomination written as a JSON object key ("25"): plain ASCII digits, no leading zero.
DENOMINATION_KEY_RE = re.compile(r"[1-9][0-9]{0,15}")


def _check_denomination(name: str, d: Any) -> int:
    if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= INT_MAX:
        raise EventError(f"field '{name}': denomination {d!r} is not a whole number "
                         f"1..{INT_MAX}")
    return d


def _check_chips_register(body: ChipsRegister) -> None:
    """A chip set: uid -> denomination (whole units of money), one chip at least; a colour for
    a denomination of the set only."""
    if len(body.set) > CHIP_NAME_MAX:
        raise EventError(f"field 'set' is longer than {CHIP_NAME_MAX} characters")
    if not body.chips:
        raise EventError("field 'chips' needs one chip at least")
    for uid, d in body.chips.items():
        if not isinstance(uid, str) or not uid.strip():
            raise EventError(f"field 'chips': bad uid {uid!r}")
        if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= INT_MAX:
            raise EventError(f"field 'chips': uid {uid} has denomination {d!r}, not a whole "
                             f"number 1..{INT_MAX}")
    held = set(body.chips.values())
    for d, colour in body.colours.items():
        _check_denomination("colours", d)
        if d not in held:
            raise EventError(f"field 'colours': denomination {d} is no chip of set {body.set}")
        if not isinstance(colour, str) or not colour.strip() or len(colour) > CHIP_NAME_MAX:
            raise EventError(f"field 'colours': denomination {d} has colour {colour!r}, not a "
                             f"name of 1..{CHIP_NAME_MAX} characters")


def _check_counts(name: str, counts: Mapping[Any, Any]) -> int:
    """denomination -> count; the total they make."""
    total = 0
    for d, n in counts.items():
        _check_denomination(name, d)
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= INT_MAX:
            raise EventError(f"field '{name}': denomination {d} has count {n!r}, not a whole "
                             f"number 0..{INT_MAX}")
        total += d * n
    return total


def _check_chips_zone(body: ChipsZone) -> None:
    """A chip zone's content: a zone of CHIP_ZONE_RE, counts that make the total, every tag
    once, the tags added among those read, the tags removed not among them."""
    if not CHIP_ZONE_RE.fullmatch(body.zone):
        raise EventError(f"field 'zone': {body.zone!r} is not bet:1..bet:10, stack:1..stack:10, "
                         "pot, tray or drop")
    if body.total < 0:
        raise EventError(f"field 'total' must be >= 0, got {body.total}")
    made = _check_counts("counts", body.counts)
    if made != body.total:
        raise EventError(f"field 'total': {body.total} is not what 'counts' make ({_short(made)})")
    for name in ("uids", "added", "removed"):
        tags: tuple[str, ...] = getattr(body, name)
        bad = next((u for u in tags if not u.strip()), None)
        if bad is not None:
            raise EventError(f"field '{name}': bad uid {bad!r}")
        if len(set(tags)) != len(tags):
            raise EventError(f"field '{name}': a uid is listed twice")
    if not set(body.added) <= set(body.uids):
        raise EventError("field 'added': a tag added must be among 'uids'")
    if set(body.removed) & set(body.uids):
        raise EventError("field 'removed': a tag removed cannot be among 'uids'")


ATTENTION_BY = ("dealer", "player", "floor")
RULING_OUTCOMES = ("stand", "void")
RULING_TEXT_MAX = 500
LEVEL_FIELDS = ("small_blind", "big_blind", "ante", "minutes")


def _check_level(i: int, level: Mapping[str, int]) -> None:
    extra = set(level) - set(LEVEL_FIELDS)
    if extra:
        raise EventError(f"field 'levels': level {i} has unknown field(s) "
                         f"{', '.join(sorted(extra))}")
    for key in ("small_blind", "big_blind"):
        if key not in level:
            raise EventError(f"field 'levels': level {i} needs '{key}'")
    for key, value in level.items():
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= INT_MAX:
            raise EventError(f"field 'levels': level {i} '{key}' must be a whole number "
                             f"0..{INT_MAX}, got {value!r}")
    if level["big_blind"] <= 0 or level["small_blind"] > level["big_blind"]:
        raise EventError(f"field 'levels': level {i} needs 0 <= small_blind <= big_blind, "
                         "big_blind > 0")


def _check_settings(body: TableSetup) -> None:
    """The profile and setting overrides must name a known profile, settings and values."""
    try:
        settings_for(body.profile, body.settings)
    except SettingsError as exc:
        raise EventError(f"table.setup: {exc}") from None


def parse_event(obj: Any, *, default_seq: int = 0) -> Event:
    """Build an Event from a decoded JSON object; raise EventError naming the bad field."""
    if not isinstance(obj, Mapping):
        raise EventError(f"an event must be a JSON object, got {type(obj).__name__}")
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise EventError("missing field 'type'")
    cls = BODY_TYPES.get(kind)
    if cls is None:
        raise EventError(f"unknown event type {kind!r}; known: {', '.join(sorted(BODY_TYPES))}")
    seq = _int(obj, "seq", lo=0) if "seq" in obj else default_seq
    ts = _int(obj, "ts", lo=0) if "ts" in obj else 0
    known = {f.name: f for f in fields(cls)}
    extra = set(obj) - set(known) - {"type", "seq", "ts"}
    if extra:
        raise EventError(f"unknown field(s) for {kind}: {', '.join(sorted(extra))}")
    kwargs: dict[str, Any] = {}
    for name, f in known.items():
        if name not in obj:
            if f.default is MISSING and f.default_factory is MISSING:
                raise EventError(f"{kind} needs field '{name}'")
            continue
        value = obj[name]
        # The scalar kinds fail here, on the JSON value, with the field's name; validate_body
        # checks them again on the body (and everything else).
        if name in INT_FIELDS:
            value = _int(obj, name)
        elif name in OPTIONAL_INT_FIELDS:
            value = None if value is None else _int(obj, name)
        elif name in STR_FIELDS and not (name == "uid" and cls in CARD_KEYS):
            value = _str(obj, name)
        elif name in OPTIONAL_STR_FIELDS:
            value = None if value is None else _str(obj, name)
        elif name == "settings":
            if not isinstance(value, Mapping):
                raise EventError("field 'settings' must be an object of setting -> value")
            value = dict(value)
        elif name in ("cards", "stacks"):
            value = _seat_keys(name, value)
        elif name == "levels":
            if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
                raise EventError("field 'levels' must be a list of level objects")
            value = tuple(dict(v) for v in value)
        elif name in STR_LIST_FIELDS:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise EventError(f"field '{name}' must be a list of strings")
            value = tuple(value)
        elif name == "tags":
            if not isinstance(value, Mapping):
                raise EventError("field 'tags' must be an object of uid -> card")
            value = dict(value)
        elif name == "chips":
            if not isinstance(value, Mapping):
                raise EventError("field 'chips' must be an object of uid -> denomination")
            value = dict(value)
        elif name in ("colours", "counts"):
            value = _denomination_keys(name, value)
        kwargs[name] = value
    body = cls(**kwargs)
    validate_body(body)
    return Event(seq=seq, ts=ts, body=body)


def _seat_keys(name: str, value: Any) -> dict[int, Any]:
    """A JSON object keyed by seat number ("1".."10") -> a dict keyed by int."""
    if not isinstance(value, Mapping):
        raise EventError(f"field '{name}' must be an object of seat -> value")
    out: dict[int, Any] = {}
    for key, v in value.items():
        text = str(key)
        # ASCII digits written plainly: "²" is a digit to str.isdigit and "01" would be seat 1
        # a second time
        if not SEAT_KEY_RE.fullmatch(text):
            raise EventError(f"field '{name}': {key!r} is not a seat number")
        out[int(text)] = v
    return out


def _denomination_keys(name: str, value: Any) -> dict[int, Any]:
    """A JSON object keyed by denomination ("25") -> a dict keyed by int."""
    if not isinstance(value, Mapping):
        raise EventError(f"field '{name}' must be an object of denomination -> value")
    out: dict[int, Any] = {}
    for key, v in value.items():
        if not DENOMINATION_KEY_RE.fullmatch(str(key)):
            raise EventError(f"field '{name}': {key!r} is not a denomination (a whole number "
                             "1 or more)")
        out[int(str(key))] = v
    return out


def parse_line(line: str, *, default_seq: int = 0) -> Event:
    """Parse one JSON Lines line; raise EventError on bad JSON or a bad event."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise EventError(f"not valid JSON: {exc.msg} at column {exc.colno}") from None
    except ValueError:  # an integer of more than 4,300 digits: Python will not read it
        raise EventError("not valid JSON: a number too long to read") from None
    except RecursionError:
        raise EventError("not valid JSON: nested too deeply") from None
    return parse_event(obj, default_seq=default_seq)


def iter_lines(lines: Iterable[str], *, source: str = "<events>") -> Iterator[Event]:
    """Parse JSON Lines; blank lines and lines starting with '#' are skipped.

    Events without ``seq`` are numbered after the previous one. A malformed line raises
    EventError("SOURCE:LINE: problem").
    """
    last_seq = 0
    for lineno, raw in enumerate(lines, start=1):
        # a byte-order mark before the first line is how some editors save UTF-8
        text = (raw.removeprefix("\ufeff") if lineno == 1 else raw).strip()
        if not text or text.startswith("#"):
            continue
        try:
            event = parse_line(text, default_seq=last_seq + 1)
        except EventError as exc:
            raise EventError(f"{source}:{lineno}: {exc}") from None
        if event.seq <= last_seq:
            raise EventError(f"{source}:{lineno}: seq {event.seq} does not follow seq {last_seq}")
        last_seq = event.seq
        yield event


def decode_lines(lines: Iterable[bytes], *, source: str = "<events>") -> Iterator[str]:
    """Lines of bytes -> text, one line at a time, so that a line that is not UTF-8 is an
    EventError naming the source and the line like any other malformed line (decoding the whole
    file at once would name neither)."""
    for lineno, raw in enumerate(lines, start=1):
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise EventError(f"{source}:{lineno}: not UTF-8 text (byte 0x{raw[exc.start]:02x} "
                             f"at column {exc.start + 1})") from None


def iter_scenario(path: str | Path) -> Iterator[Event]:
    """A scenario (JSON Lines) file's events, streamed: one line in memory at a time, so a
    month of events replays in constant memory. Errors name the file and the line."""
    p = Path(path)
    with p.open("rb") as fh:
        yield from iter_lines(decode_lines(fh, source=str(p)), source=str(p))


def read_scenario(path: str | Path) -> list[Event]:
    """Read a whole scenario (JSON Lines) file; errors name the file and the line."""
    return list(iter_scenario(path))


def make(seq: int, body: Body, ts: int = 0) -> Event:
    """Convenience constructor used by the simulator and tests."""
    _check_int("seq", seq, lo=0)
    _check_int("ts", ts, lo=0)
    validate_body(body)
    return Event(seq=seq, ts=ts, body=body)
