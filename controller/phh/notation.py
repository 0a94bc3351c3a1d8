"""PHH notation: the hand-history model, the fields and variant codes, and the action grammar.

The Poker Hand History format (PHH, https://phh.readthedocs.io, a TOML dialect) describes one
hand by its variant code, its stakes, the starting stacks and an ordered list of actions
written in a small grammar:

    d dh p1 AcKd        deal hole cards to player 1 (``??`` is an unknown card)
    d db 7d5h9d         deal board cards
    p3 f                fold            p3 cc        check or call
    p3 cbr 300          complete, bet or raise to 300 (the player's total for the street)
    p3 pb               post the bring-in
    p3 sd 7s2c          discard (``p3 sd`` alone stands pat)
    p3 sm AhKh          show (``p3 sm -`` shows the cards already dealt; ``p3 sm`` mucks)
    # a commentary      anything after ``#`` is a commentary; an empty action is a no-op

Players are numbered p1..pn in PHH order: in button games p1 is the first seat left of the
button (the small blind) and pn the button; in stud, p1 is the seat left of the dealer.

Amounts are kept exactly as written: an integer stays an ``int``, a number written with a
decimal point (``10112.5``) becomes a ``decimal.Decimal`` with the same digits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from controller.poker.variants import phh_variant

Number = int | Decimal
Card = str | None  # None is an unknown card, written ``??``

# The eleven variant codes of the PHH specification (required.rst, "Variant Code").
VARIANT_CODES: tuple[str, ...] = (
    "FT", "NT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB",
)
VARIANT_NAMES: dict[str, str] = {
    "FT": "fixed-limit Texas hold'em",
    "NT": "no-limit Texas hold'em",
    "NS": "no-limit short-deck hold'em",
    "PO": "pot-limit Omaha hold'em",
    "FO/8": "fixed-limit Omaha hold'em high/low-split eight or better",
    "F7S": "fixed-limit seven card stud",
    "F7S/8": "fixed-limit seven card stud high/low-split eight or better",
    "FR": "fixed-limit razz",
    "N2L1D": "no-limit deuce-to-seven lowball single draw",
    "F2L3D": "fixed-limit deuce-to-seven lowball triple draw",
    "FB": "fixed-limit badugi",
}
# Stakes each variant needs besides antes, starting stacks and actions (required.rst table).
_FIXED = ("blinds_or_straddles", "small_bet", "big_bet")
_UNFIXED = ("blinds_or_straddles", "min_bet")
_STUD = ("bring_in", "small_bet", "big_bet")
REQUIRED_STAKES: dict[str, tuple[str, ...]] = {
    "FT": _FIXED, "NT": _UNFIXED, "NS": _UNFIXED, "PO": _UNFIXED, "FO/8": _FIXED,
    "F7S": _STUD, "F7S/8": _STUD, "FR": _STUD, "N2L1D": _UNFIXED, "F2L3D": _FIXED, "FB": _FIXED,
}
STUD_CODES = frozenset({"F7S", "F7S/8", "FR"})
SHORT_DECK_CODES = frozenset({"NS"})
JOKER = "Xx"  # the joker, in Feltguard's extension codes of games dealt with it


def is_variant_code(code: object) -> bool:
    """A standard PHH code, or Feltguard's extension ``x:<game>/<structure>`` for a game PHH has
    no code for (``controller.poker.variants.phh_variant``; docs/phh.md, Export)."""
    if not isinstance(code, str):
        return False
    if code in REQUIRED_STAKES:
        return True
    try:
        phh_variant(code)
    except ValueError:
        return False
    return True


def required_stakes(code: str) -> tuple[str, ...]:
    """The stakes a variant code needs besides antes, starting stacks and actions (an extension
    code: as the standard code of the same family and structure)."""
    if code in REQUIRED_STAKES:
        return REQUIRED_STAKES[code]
    v = phh_variant(code)
    if v.forced == "antes_bring_in":
        return _STUD
    return _FIXED if v.structure in ("fixed", "spread") else _UNFIXED


def deck_of(code: str) -> str:
    """The deck of a variant code's game: "standard", "short" or "joker"."""
    if code in SHORT_DECK_CODES:
        return "short"
    if code in REQUIRED_STAKES:
        return "standard"
    return phh_variant(code).deck

# The fields the reader and writer know, in the order the writer puts them.
STATE_FIELDS: tuple[str, ...] = (
    "variant", "ante_trimming_status", "antes", "blinds_or_straddles", "bring_in", "small_bet",
    "big_bet", "min_bet", "starting_stacks", "actions",
)
# Optional fields of the specification (optional.rst), with their TOML types; the ones the
# model holds as attributes are listed in MODEL_FIELDS, the rest stay in ``HandHistory.optional``.
OPTIONAL_TYPES: dict[str, str] = {
    "author": "string", "event": "string", "url": "string", "venue": "string",
    "address": "string", "city": "string", "region": "string", "postal_code": "string",
    "country": "string", "time": "time", "time_zone": "string",
    "time_zone_abbreviation": "string", "day": "integer", "month": "integer", "year": "integer",
    "hand": "string or integer", "level": "integer", "seats": "integers", "seat_count": "integer",
    "table": "string or integer", "players": "strings", "finishing_stacks": "numbers",
    "winnings": "numbers", "currency": "string", "currency_symbol": "string",
    "time_limit": "number", "time_banks": "numbers",
}
MODEL_FIELDS = frozenset({"hand", "players", "finishing_stacks"})

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SHORT_DECK_RANKS = "6789TJQKA"  # six-plus hold'em: deuces to fives removed
_PLAYER_RE = re.compile(r"^p([1-9][0-9]*)$")
_AMOUNT_RE = re.compile(r"^[0-9]+(\.[0-9]+)?$")

DEALER_CODES = ("dh", "db")
PLAYER_CODES = ("f", "cc", "cbr", "pb", "sd", "sm")


class PhhError(ValueError):
    """A hand history that breaks the specification. The message names the hand (its file and
    table key) and, for a bad action, the action's number (from 1) and text."""

    def __init__(self, message: str, *, hand: str = "", action: int | None = None) -> None:
        self.detail = message
        self.hand = hand
        self.action = action
        where = hand
        if action is not None:
            where = f"{where}: action {action}" if where else f"action {action}"
        super().__init__(f"{where}: {message}" if where else message)


# --- cards ----------------------------------------------------------------------------------------


def parse_cards(text: str, *, short_deck: bool = False, joker: bool = False
                ) -> tuple[Card, ...]:
    """``AcKd??`` -> ("Ac", "Kd", None); with ``joker`` (a game dealt with the joker) ``Xx`` is
    the joker. Raises PhhError naming the bad card."""
    if not text or len(text) % 2:
        raise PhhError(f"{text!r} is not a list of two-character cards")
    ranks = SHORT_DECK_RANKS if short_deck else RANKS
    out: list[Card] = []
    for i in range(0, len(text), 2):
        card = text[i:i + 2]
        if card == "??":
            out.append(None)
        elif (joker and card == JOKER) or (card[0] in ranks and card[1] in SUITS):
            out.append(card)
        elif short_deck and card[0] in RANKS and card[1] in SUITS:
            raise PhhError(f"card {card!r} is not in the short deck (sixes to aces)")
        else:
            raise PhhError(f"{card!r} is not a card (rank 2-9TJQKA or ?, suit cdhs or ?)")
    return tuple(out)


def format_cards(cards: tuple[Card, ...] | list[Card]) -> str:
    return "".join("??" if c is None else c for c in cards)


# --- actions --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PhhAction:
    """One parsed action. ``actor`` is the player index from 0 (p1 -> 0), None for the dealer or
    a no-op; ``cards`` is None when the action has no cards argument."""

    text: str
    code: str  # "dh", "db", "f", "cc", "cbr", "pb", "sd", "sm", or "" for a no-op
    actor: int | None = None
    cards: tuple[Card, ...] | None = None
    amount: Number | None = None
    show_known: bool = False  # "pN sm -": show the hole cards already dealt
    commentary: str = ""


def parse_amount(text: str) -> Number:
    """A positive amount: ``300`` -> 300, ``2.5`` -> Decimal("2.5")."""
    if not _AMOUNT_RE.match(text):
        raise PhhError(f"{text!r} is not an amount (digits, optionally with a decimal point)")
    value: Number = int(text) if "." not in text else Decimal(text)
    if value <= 0:
        raise PhhError(f"amount {text} must be positive")
    return value


def _player(word: str, players: int) -> int:
    m = _PLAYER_RE.match(word)
    if not m:
        raise PhhError(f"{word!r} is not a player (p1..p{players})")
    index = int(m.group(1)) - 1
    if index >= players:
        raise PhhError(f"{word} is not one of the {players} players (p1..p{players})")
    return index


def parse_action(text: str, players: int, *, short_deck: bool = False,
                 joker: bool = False) -> PhhAction:
    """Parse one action string of a hand with ``players`` players; raise PhhError saying what
    is wrong (the caller adds the hand and the action number)."""
    if not isinstance(text, str):
        raise PhhError(f"an action must be a string, got {text!r}")
    body, hash_, comment = text.partition("#")
    commentary = comment.strip() if hash_ else ""
    words = body.split()
    stripped = text.strip()
    if not words:
        return PhhAction(stripped, "", commentary=commentary)
    if words[0] == "d":
        if len(words) >= 2 and words[1] == "db":
            if len(words) != 3:
                raise PhhError("'d db' takes the board cards, e.g. 'd db 7d5h9d'")
            return PhhAction(stripped, "db",
                             cards=parse_cards(words[2], short_deck=short_deck, joker=joker),
                             commentary=commentary)
        if len(words) >= 2 and words[1] == "dh":
            if len(words) != 4:
                raise PhhError("'d dh' takes a player and cards, e.g. 'd dh p1 AcKd'")
            return PhhAction(stripped, "dh", actor=_player(words[2], players),
                             cards=parse_cards(words[3], short_deck=short_deck, joker=joker),
                             commentary=commentary)
        what = words[1] if len(words) > 1 else ""
        raise PhhError(f"unknown dealer action {what!r} (one of dh, db)")
    actor = _player(words[0], players)
    if len(words) < 2:
        raise PhhError(f"{words[0]} has no action (one of {', '.join(PLAYER_CODES)})")
    code, args = words[1], words[2:]
    if code in ("f", "cc", "pb"):
        if args:
            raise PhhError(f"'{code}' takes no argument, got {' '.join(args)!r}")
        return PhhAction(stripped, code, actor=actor, commentary=commentary)
    if code == "cbr":
        if len(args) != 1:
            raise PhhError("'cbr' takes one amount, e.g. 'p1 cbr 300'")
        return PhhAction(stripped, code, actor=actor, amount=parse_amount(args[0]),
                         commentary=commentary)
    if code in ("sd", "sm"):
        if len(args) > 1:
            raise PhhError(f"'{code}' takes at most one list of cards")
        if not args:
            return PhhAction(stripped, code, actor=actor, commentary=commentary)
        if code == "sm" and args[0] == "-":
            return PhhAction(stripped, code, actor=actor, show_known=True, commentary=commentary)
        return PhhAction(stripped, code, actor=actor,
                         cards=parse_cards(args[0], short_deck=short_deck, joker=joker),
                         commentary=commentary)
    raise PhhError(f"unknown action {code!r} (one of {', '.join(PLAYER_CODES)})")


def format_number(value: Number) -> str:
    """An amount as PHH writes it: ``300``, ``10112.5``."""
    if isinstance(value, Decimal):
        return "inf" if value.is_infinite() else format(value, "f")
    return str(value)


def format_action(action: PhhAction) -> str:
    """The canonical text of an action (single spaces, ``# commentary`` at the end)."""
    if action.code in ("db", "dh"):
        words = ["d", action.code]
        if action.code == "dh":
            words.append(f"p{(action.actor or 0) + 1}")
        words.append(format_cards(action.cards or ()))
    elif action.code:
        words = [f"p{(action.actor or 0) + 1}", action.code]
        if action.code == "cbr" and action.amount is not None:
            words.append(format_number(action.amount))
        elif action.show_known:
            words.append("-")
        elif action.cards is not None:
            words.append(format_cards(action.cards))
    else:
        words = []
    if action.commentary:
        words += ["#", action.commentary]
    return " ".join(words)


# --- the hand -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandHistory:
    """One hand as PHH describes it. Per-player tuples are in PHH order (p1 first).

    ``optional`` holds the specification's other optional fields (author, event, seats, ...)
    and ``user`` the user-defined ``_`` fields, each in the order they were read or set.
    ``name`` says where the hand came from (file and table key) for messages; it is not
    written out."""

    variant: str
    antes: tuple[Number, ...]
    starting_stacks: tuple[Number, ...]
    actions: tuple[PhhAction, ...]
    blinds_or_straddles: tuple[Number, ...] | None = None
    bring_in: Number | None = None
    small_bet: Number | None = None
    big_bet: Number | None = None
    min_bet: Number | None = None
    ante_trimming_status: bool | None = None
    finishing_stacks: tuple[Number, ...] | None = None
    players: tuple[str, ...] | None = None
    hand: str | int | None = None
    optional: dict[str, Any] = field(default_factory=dict)
    user: dict[str, Any] = field(default_factory=dict)
    name: str = field(default="", compare=False)

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)

    @property
    def label(self) -> str:
        """How messages name this hand: its source and, when known, its ``hand`` field."""
        if self.hand is None:
            return self.name or "<hand>"
        return f"{self.name} (hand {self.hand})" if self.name else f"hand {self.hand}"
