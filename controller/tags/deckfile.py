"""The deck registry file (``[deck] file = ...`` of ``feltguard run``; written by ``feltguard
deck enrol``, read by ``feltguard deck check``): every deck of the table, tag uid -> card.

Two formats are read. The registry of several decks, each tag under its deck's id, and the
deck ``in_play`` when a table starts on a new journal (the others rest, for a rotation through
``deck.change``; docs/events.md)::

    {"in_play": "red",
     "decks": {"red":  {"04A1B2C3D4E5F6": "As", "04A1B2C3D4E5F7": "Kd", ...},
               "blue": {"04B0B1B2B3B4B5": "As", ...}}}

and, for compatibility, the single-deck file of before: one JSON object of tag uid -> card, the
deck's id being the file's name without its extension (``deck-red.json``: ``deck-red``)::

    {"04A1B2C3D4E5F6": "As", "04A1B2C3D4E5F7": "Kd", ...}

Read once at start-up and turned into the ``deck.register`` events the daemon journals (the
deck in play, then each resting deck with ``idle``), so it is checked here by the event
parser's own rules (a deck the parser would refuse must never reach the journal: the journal
must always replay), plus the file's own. A uid must be one a reader can report, or that tag
could never be read. A deck must hold every card of the table's full deck (``table_cards``:
the game's deck, every game's for a mixed game; a joker only where a game plays it); no two
tags of a deck may carry one card; no uid may be in two decks. The event vocabulary takes a
defective deck (a table fact the monitor flags as DUPLICATE_CARD when the second copy is
dealt, and the simulator deals one on purpose), but a file that declares one is a mistake in
the file, refused before the table starts. Every error is one ConfigError naming the file and
the deck, uid or card at fault.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.config import Config, ConfigError
from controller.events import TAG_CARD_RE, DeckRegister, EventError, validate_body
from controller.poker.cards import FULL_DECK, DeckRegistry
from controller.poker.deck_count import in_deck_order

# How the readers report a tag: its 4..10 bytes in upper-case hex (hardware/reader-protocol.md;
# drivers/reader_protocol.py). A uid written any other way would never match a read.
UID_RE = re.compile(r"(?:[0-9A-F]{2}){4,10}")
# A deck id is one word (the console's ``deck ID`` line splits on spaces).
DECK_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")
# How many missing cards an error names before it counts the rest.
NAMED = 8


@dataclass(frozen=True)
class Registry:
    """The decks of a registry file: id -> (uid -> card), in the file's order, and the deck
    put in play when the table starts on a new journal."""

    in_play: str
    decks: Mapping[str, Mapping[str, str]]

    def bodies(self, in_play: str | None = None) -> list[DeckRegister]:
        """The ``deck.register`` events: ``in_play`` (default: the file's) first, then every
        other deck resting (``idle``)."""
        first = in_play if in_play is not None and in_play in self.decks else self.in_play
        out = [DeckRegister(deck=first, tags=dict(self.decks[first]))]
        out += [DeckRegister(deck=d, tags=dict(t), idle=True)
                for d, t in self.decks.items() if d != first]
        return out

    def deck_of(self, uid: str) -> str | None:
        return next((d for d, tags in self.decks.items() if uid in tags), None)


def table_cards(game: str, structure: str = "") -> tuple[str, ...]:
    """The table's full deck: the cards of the game's deck (a mixed game: of every game it
    deals, so a dealer's choice that may call a joker game needs the joker), in new-deck
    order. An unknown game (refused elsewhere, by the config) needs the standard deck."""
    from controller.poker.variants import ROTATIONS, table_game

    rot = ROTATIONS.get(game)
    try:
        games = ([table_game(g) for g, _ in rot.games] if rot is not None
                 else [table_game(game, structure)])
    except ValueError:
        return FULL_DECK
    cards = {c for v in games for c in v.deck_cards}
    return tuple(sorted(cards, key=in_deck_order))


def registered_decks(reg: DeckRegistry) -> dict[str, dict[str, str]]:
    """The decks the rules core holds: the deck in play and the resting ones, id -> tags."""
    out: dict[str, dict[str, str]] = {reg.deck: dict(reg.tags)} if reg.deck else {}
    for uid, (deck, card) in reg.others.items():
        out.setdefault(deck, {})[uid] = card
    return out


def load_registry(path: str, cards: Collection[str] = FULL_DECK, *,
                  label: str = "deck.file") -> Registry:
    """The registry file at ``path``, each deck holding at least ``cards``; raises ConfigError
    ("deck.file: PATH: ...", ``label`` naming where the path came from)."""
    where = f"{label}: {path}"
    data = _read_json(where, path)
    if isinstance(data, dict) and "decks" in data:
        unknown = sorted(set(data) - {"decks", "in_play"})
        if unknown:
            raise ConfigError(f"{where}: unknown key {unknown[0]!r} (a registry holds 'decks' "
                              "and 'in_play')")
        decks = data["decks"]
        if not isinstance(decks, dict) or not decks:
            raise ConfigError(f"{where}: 'decks' must be a JSON object of deck id -> "
                              "{uid: card}, with one deck at least")
        in_play = data.get("in_play", next(iter(decks)))
        if not isinstance(in_play, str) or in_play not in decks:
            raise ConfigError(f"{where}: in_play {in_play!r} is not a deck of the file "
                              f"({', '.join(map(str, decks))})")
        named = True
    else:  # the single-deck file of before: its deck is named after the file
        in_play = Path(path).stem or "deck"
        decks = {in_play: data}
        named = False  # (its errors read as they always did)
    checked: dict[str, dict[str, str]] = {}
    owner: dict[str, str] = {}  # uid -> its deck
    for deck, tags in decks.items():
        if named and not DECK_ID_RE.fullmatch(deck):  # (a single deck keeps its file's name)
            raise ConfigError(f"{where}: deck id {deck!r}: one word of letters, digits, '_', "
                              "'.' or '-' (at most 32)")
        checked[deck] = _tags(f"{where}: deck {deck}" if named else where, tags)
        for uid in checked[deck]:
            if uid in owner:
                raise ConfigError(f"{where}: uid {uid} is in deck {owner[uid]} "
                                  f"({checked[owner[uid]][uid]}) and in deck {deck} "
                                  f"({checked[deck][uid]}): one tag, two decks")
            owner[uid] = deck
    for deck, tags in checked.items():  # each tag first, then each deck as a whole
        _full(f"{where}: deck {deck}", tags, cards)  # "...: deck red has 1 tag; ..."
    registry = Registry(in_play=in_play, decks=checked)
    for body in registry.bodies():
        try:
            validate_body(body)
        except EventError as exc:  # pragma: no cover - _tags checks all the parser does
            raise ConfigError(f"{where}: deck {body.deck}: {exc}") from None
    return registry


def table_registry(config: Config) -> Registry | None:
    """The registry of the table's ``[deck] file``, each deck checked against the table's full
    deck, or None when the config names no file; raises ConfigError."""
    if not config.deck_file:
        return None
    return load_registry(config.deck_file, table_cards(config.table.game, config.table.structure))


def write_registry(path: str, registry: Registry) -> None:
    """Write ``registry`` to ``path`` in the several-decks format, atomically (a crash leaves
    the old file or the new one, never half of one); OSError if it cannot be written."""
    write_json(path, {"in_play": registry.in_play,
                      "decks": {d: dict(t) for d, t in registry.decks.items()}})


def write_json(path: str, data: Any) -> None:
    """Write ``data`` as JSON to ``path`` atomically (the registry and the chip-set file):
    a temporary file beside it, synced, then renamed over it; OSError if it cannot."""
    text = json.dumps(data, indent=1)
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text + "\n")
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _read_json(where: str, path: str) -> Any:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ConfigError(f"{where}: cannot read: {exc.strerror}") from None
    try:
        return json.loads(data.decode("utf-8"), object_pairs_hook=_no_repeats)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ConfigError(f"{where}: not UTF-8 text (byte 0x{data[exc.start]:02x} on line "
                          f"{line})") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{where}: not valid JSON: {exc.msg} (line {exc.lineno}, column "
                          f"{exc.colno})") from None
    except ValueError:  # an integer of more than 4,300 digits: Python will not read it
        raise ConfigError(f"{where}: not valid JSON: a number too long to read") from None
    except RecursionError:
        raise ConfigError(f"{where}: not valid JSON: nested too deeply") from None
    except _Repeated as exc:
        raise ConfigError(f"{where}: {exc.args[0]} is listed twice") from None


class _Repeated(Exception):
    """A key written twice in one JSON object (json.loads would keep only the last)."""


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Repeated(f"uid {key}" if UID_RE.fullmatch(key) else repr(key))
        out[key] = value
    return out


def _tags(where: str, tags: Any) -> dict[str, str]:
    if not isinstance(tags, dict):
        raise ConfigError(f"{where}: must hold a JSON object of tag uid -> card, not "
                          f"{_json_kind(tags)}")
    if not tags:
        raise ConfigError(f"{where}: holds no tags")
    seen: dict[str, str] = {}  # card -> the first uid that carries it
    for uid, card in tags.items():
        if not UID_RE.fullmatch(uid):
            raise ConfigError(f"{where}: uid {uid!r}: not a uid as the readers report it "
                              "(upper-case hex, 4 to 10 bytes, e.g. '04A1B2C3'): it could "
                              "never be read")
        if not isinstance(card, str) or not TAG_CARD_RE.fullmatch(card):
            raise ConfigError(f"{where}: uid {uid}: {card!r} is not a card like 'As' (or the "
                              "joker 'Xx')")
        if card in seen:
            raise ConfigError(f"{where}: uid {uid}: {card} is already the card of uid "
                              f"{seen[card]} (two tags, one card)")
        seen[card] = uid
    return dict(tags)


def _full(where: str, tags: Mapping[str, str], cards: Collection[str]) -> None:
    """Every card of the table's deck is in ``tags`` (whose cards are distinct by now)."""
    held = set(tags.values())
    missing = sorted((c for c in cards if c not in held), key=in_deck_order)
    if not missing:
        return
    names = ", ".join(missing[:NAMED])
    more = f" and {len(missing) - NAMED} more" if len(missing) > NAMED else ""
    n = len(tags)
    raise ConfigError(f"{where} has {n} tag{'s' if n != 1 else ''}; a deck has {len(cards)} "
                      f"cards: missing {names}{more}")


def _json_kind(value: Any) -> str:
    names = {list: "an array", str: "a string", bool: "true/false", int: "a number",
             float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)
