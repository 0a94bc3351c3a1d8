"""The deck file of ``feltguard run`` (``[deck] file = ...``): a JSON object of tag uid -> card.

Read once at start-up and turned into the ``deck.register`` event the daemon journals, so it is
checked here by the event parser's own rules (a deck the parser would refuse must never reach
the journal: the journal must always replay), plus two of its own. A uid must be one a reader
can report, or that tag could never be read. And no two tags may carry the same card: the event
vocabulary takes such a deck (a defective deck is a table fact the monitor flags as
DUPLICATE_CARD when the second copy is dealt, and the simulator deals one on purpose), but a
deck file that declares one is a mistake in the file, refused before the table starts. Every
error is a ConfigError naming the file and, for a bad tag, its uid.

```json
{"04A1B2C3D4E5F6": "As", "04A1B2C3D4E5F7": "Kd", "04A1B2C3D4E5F8": "Xx"}
```
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from controller.config import ConfigError
from controller.events import TAG_CARD_RE, DeckRegister, EventError, validate_body

# How the readers report a tag: its 4..10 bytes in upper-case hex (hardware/reader-protocol.md;
# drivers/reader_protocol.py). A uid written any other way would never match a read.
UID_RE = re.compile(r"(?:[0-9A-F]{2}){4,10}")


def load_deck(path: str) -> DeckRegister:
    """The ``deck.register`` body of the deck file at ``path``; raises ConfigError."""
    where = f"deck.file: {path}"
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ConfigError(f"{where}: cannot read: {exc.strerror}") from None
    try:
        tags = json.loads(data.decode("utf-8"), object_pairs_hook=_no_repeats)
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
        raise ConfigError(f"{where}: uid {exc.args[0]} is listed twice") from None
    body = DeckRegister(deck=Path(path).stem or "deck", tags=_tags(where, tags))
    try:
        validate_body(body)
    except EventError as exc:  # pragma: no cover - _tags checks all the parser does, and more
        raise ConfigError(f"{where}: {exc}") from None
    return body


class _Repeated(Exception):
    """A key written twice in one JSON object (json.loads would keep only the last)."""


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Repeated(key)
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


def _json_kind(value: Any) -> str:
    names = {list: "an array", str: "a string", bool: "true/false", int: "a number",
             float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)
