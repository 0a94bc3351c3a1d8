"""Table events v1: the journal and scenario vocabulary (see docs/events.md).

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

ZONE_RE = re.compile(r"^(seat:(?:[1-9]|10)|board|burn|muck|aside)$")
CARD_RE = re.compile(r"^[23456789TJQKA][cdhs]$")

ActionKind = Literal["post", "bet", "call", "raise", "check", "fold", "allin"]
ACTION_KINDS: tuple[str, ...] = ("post", "bet", "call", "raise", "check", "fold", "allin")
# post/bet/raise carry `amount` = the seat's total wager on this street after the action
# ("raise to", as entered at the dealer console); call/check/fold/allin need none.
ACTIONS_WITH_AMOUNT = frozenset({"post", "bet", "raise"})

ExposedBy = Literal["dealer", "player"]


class EventError(ValueError):
    """A malformed event: names the field and the problem (and the line, when read from a file)."""


# --- event bodies -------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableSetup:
    """The table's game and stakes. v1 knows one game: no-limit hold'em (``nlhe``)."""

    TYPE: ClassVar[str] = "table.setup"
    game: str = "nlhe"
    seats: int = 6
    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0
    profile: str = "roberts"


@dataclass(frozen=True)
class SeatTake:
    """A player sits down in ``seat`` with ``stack`` chips."""

    TYPE: ClassVar[str] = "seat.take"
    seat: int
    player: str
    stack: int


@dataclass(frozen=True)
class SeatLeave:
    """The player in ``seat`` leaves the table."""

    TYPE: ClassVar[str] = "seat.leave"
    seat: int


@dataclass(frozen=True)
class DeckRegister:
    """A deck's tags: RFID uid -> card (``As``, ``Td``, ``2c``). Replaces any earlier deck."""

    TYPE: ClassVar[str] = "deck.register"
    deck: str
    tags: Mapping[str, str]


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
    """A card is no longer read in a zone."""

    TYPE: ClassVar[str] = "zone.leave"
    uid: str
    zone: str


@dataclass(frozen=True)
class CardExposed:
    """The dealer's exposed-card key: ``uid`` was exposed, by the ``dealer`` or by a ``player``."""

    TYPE: ClassVar[str] = "card.exposed"
    uid: str
    by: ExposedBy = "dealer"


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


@dataclass(frozen=True)
class HandEnd:
    """The dealer's award-pots key: the core settles every pot of the hand and closes it."""

    TYPE: ClassVar[str] = "hand.end"


Body = (
    TableSetup
    | SeatTake
    | SeatLeave
    | DeckRegister
    | HandStart
    | ShuffleDone
    | ShoeDraw
    | ZoneRead
    | ZoneLeave
    | CardExposed
    | MisdealDeclared
    | Action
    | HandEnd
)

BODY_TYPES: dict[str, type[Any]] = {
    cls.TYPE: cls
    for cls in (
        TableSetup,
        SeatTake,
        SeatLeave,
        DeckRegister,
        HandStart,
        ShuffleDone,
        ShoeDraw,
        ZoneRead,
        ZoneLeave,
        CardExposed,
        MisdealDeclared,
        Action,
        HandEnd,
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
            out[f.name] = value
        return out

    def to_line(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"), sort_keys=False)


# --- validation -----------------------------------------------------------------------------------


def _int(obj: Mapping[str, Any], key: str, *, lo: int | None = None, hi: int | None = None) -> int:
    value = obj[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise EventError(f"field '{key}' must be an integer, got {value!r}")
    if lo is not None and value < lo:
        raise EventError(f"field '{key}' must be >= {lo}, got {value}")
    if hi is not None and value > hi:
        raise EventError(f"field '{key}' must be <= {hi}, got {value}")
    return value


def _str(obj: Mapping[str, Any], key: str) -> str:
    value = obj[key]
    if not isinstance(value, str) or not value:
        raise EventError(f"field '{key}' must be a non-empty string, got {value!r}")
    return value


def validate_body(body: Body) -> None:
    """Domain checks beyond the field types; raise EventError naming the field."""
    if isinstance(body, TableSetup):
        if body.game != "nlhe":
            raise EventError(f"field 'game': unknown game {body.game!r} (v1 knows 'nlhe')")
        if not 2 <= body.seats <= 10:
            raise EventError(f"field 'seats' must be 2..10, got {body.seats}")
        if body.small_blind < 0 or body.big_blind <= 0 or body.small_blind > body.big_blind:
            raise EventError("fields 'small_blind'/'big_blind': need 0 <= small <= big, big > 0")
        if body.ante < 0:
            raise EventError(f"field 'ante' must be >= 0, got {body.ante}")
    elif isinstance(body, (SeatTake, SeatLeave)):
        if not 1 <= body.seat <= 10:
            raise EventError(f"field 'seat' must be 1..10, got {body.seat}")
        if isinstance(body, SeatTake) and body.stack < 0:
            raise EventError(f"field 'stack' must be >= 0, got {body.stack}")
    elif isinstance(body, DeckRegister):
        for uid, card in body.tags.items():
            if not isinstance(uid, str) or not uid:
                raise EventError(f"field 'tags': bad uid {uid!r}")
            if not isinstance(card, str) or not CARD_RE.match(card):
                raise EventError(f"field 'tags': uid {uid} maps to {card!r}, not a card like 'As'")
    elif isinstance(body, HandStart):
        if body.button is not None and not 1 <= body.button <= 10:
            raise EventError(f"field 'button' must be 1..10, got {body.button}")
    elif isinstance(body, (ZoneRead, ZoneLeave)):
        if not ZONE_RE.match(body.zone):
            raise EventError(
                f"field 'zone': {body.zone!r} is not seat:1..seat:10, board, burn, muck or aside"
            )
    elif isinstance(body, CardExposed):
        if body.by not in ("dealer", "player"):
            raise EventError(f"field 'by' must be 'dealer' or 'player', got {body.by!r}")
    elif isinstance(body, Action):
        if not 1 <= body.seat <= 10:
            raise EventError(f"field 'seat' must be 1..10, got {body.seat}")
        if body.kind not in ACTION_KINDS:
            raise EventError(f"field 'kind': unknown action {body.kind!r}; one of {ACTION_KINDS}")
        if body.kind in ACTIONS_WITH_AMOUNT and body.amount is None:
            raise EventError(f"action '{body.kind}' needs field 'amount' (total on this street)")
        if body.amount is not None and body.amount < 0:
            raise EventError(f"field 'amount' must be >= 0, got {body.amount}")


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
        if name in ("seat", "seats", "stack", "small_blind", "big_blind", "ante"):
            value = _int(obj, name)
        elif name in ("button", "amount"):
            value = None if value is None else _int(obj, name)
        elif name in ("uid", "zone", "player", "deck", "game", "profile", "kind", "by"):
            value = _str(obj, name)
        elif name == "face_up":
            if not isinstance(value, bool):
                raise EventError(f"field 'face_up' must be true or false, got {value!r}")
        elif name == "tags":
            if not isinstance(value, Mapping):
                raise EventError("field 'tags' must be an object of uid -> card")
            value = dict(value)
        kwargs[name] = value
    body = cls(**kwargs)
    validate_body(body)
    return Event(seq=seq, ts=ts, body=body)


def parse_line(line: str, *, default_seq: int = 0) -> Event:
    """Parse one JSON Lines line; raise EventError on bad JSON or a bad event."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise EventError(f"not valid JSON: {exc.msg} at column {exc.colno}") from None
    return parse_event(obj, default_seq=default_seq)


def iter_lines(lines: Iterable[str], *, source: str = "<events>") -> Iterator[Event]:
    """Parse JSON Lines; blank lines and lines starting with '#' are skipped.

    Events without ``seq`` are numbered after the previous one. A malformed line raises
    EventError("SOURCE:LINE: problem").
    """
    last_seq = 0
    for lineno, raw in enumerate(lines, start=1):
        text = raw.strip()
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


def read_scenario(path: str | Path) -> list[Event]:
    """Read a scenario (JSON Lines) file; errors name the file and the line."""
    p = Path(path)
    with p.open(encoding="utf-8") as fh:
        return list(iter_lines(fh, source=str(p)))


def make(seq: int, body: Body, ts: int = 0) -> Event:
    """Convenience constructor used by the simulator and tests."""
    validate_body(body)
    return Event(seq=seq, ts=ts, body=body)
