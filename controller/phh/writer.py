"""Write PHH: ``HandHistory`` values as a ``.phh`` (one hand) or ``.phhs`` (tables ``[1]``,
``[2]``, ...) document.

TOML is written by hand: PHH uses a small subset (strings, integers, decimals, booleans, local
times, arrays and inline tables), and the standard library reads TOML but does not write it.
Fields come out in the specification's order (state fields, then optional fields, then the
user-defined ``_`` fields); the actions one per line. ``reader.loads(dumps(hand)) == hand``.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

from controller.phh.notation import HandHistory, PhhError, format_number

_BARE_KEY_RE = re.compile(r"^[A-Za-z0-9_-]+$")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
            "\r": "\\r"}


def toml_key(key: str) -> str:
    return key if _BARE_KEY_RE.match(key) else toml_string(key)


def toml_string(text: str) -> str:
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_value(value: Any) -> str:
    """One TOML value. Raises PhhError for a value TOML cannot hold (None, NaN, objects)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal):
        if value.is_nan():
            raise PhhError("NaN cannot be written in PHH")
        text = format_number(value)
        if value.is_infinite():
            return text if value > 0 else "-inf"
        # A Decimal stays a float in TOML (10000.0, not 10000), so it reads back the same.
        return text if "." in text else text + ".0"
    if isinstance(value, float):
        if math.isnan(value):
            raise PhhError("NaN cannot be written in PHH")
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Mapping):
        pairs = ", ".join(f"{toml_key(str(k))} = {toml_value(v)}" for k, v in value.items())
        return "{" + pairs + "}" if pairs else "{}"
    if isinstance(value, Sequence):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise PhhError(f"{value!r} cannot be written in PHH")


def _fields(hand: HandHistory) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = [("variant", hand.variant)]
    if hand.ante_trimming_status is not None:
        out.append(("ante_trimming_status", hand.ante_trimming_status))
    out.append(("antes", hand.antes))
    for key in ("blinds_or_straddles", "bring_in", "small_bet", "big_bet", "min_bet"):
        value = getattr(hand, key)
        if value is not None:
            out.append((key, value))
    out.append(("starting_stacks", hand.starting_stacks))
    out.append(("actions", None))  # written on its own lines
    if hand.hand is not None:
        out.append(("hand", hand.hand))
    if hand.players is not None:
        out.append(("players", hand.players))
    if hand.finishing_stacks is not None:
        out.append(("finishing_stacks", hand.finishing_stacks))
    out.extend(hand.optional.items())
    for key, value in hand.user.items():
        if not key.startswith("_"):
            raise PhhError(f"user-defined field {key!r} must start with '_'", hand=hand.label)
        out.append((key, value))
    return out


def dumps(hand: HandHistory) -> str:
    """One hand as a ``.phh`` document (ends with a newline)."""
    lines = []
    for key, value in _fields(hand):
        if key == "actions":
            if not hand.actions:
                lines.append("actions = []")
                continue
            lines.append("actions = [")
            lines.extend(f"  {toml_string(a.text)}," for a in hand.actions)
            lines.append("]")
        else:
            try:
                lines.append(f"{toml_key(key)} = {toml_value(value)}")
            except PhhError as exc:
                raise PhhError(f"field '{key}': {exc.detail}", hand=hand.label) from None
    return "\n".join(lines) + "\n"


def dumps_all(hands: Iterable[HandHistory]) -> str:
    """Hands as a ``.phhs`` document: tables ``[1]``, ``[2]``, ... in order."""
    return "\n".join(f"[{i}]\n{dumps(hand)}" for i, hand in enumerate(hands, start=1))


def dump(hand: HandHistory, path: str | Path) -> None:
    Path(path).write_text(dumps(hand), encoding="utf-8")


def dump_all(hands: Iterable[HandHistory], path: str | Path) -> None:
    Path(path).write_text(dumps_all(hands), encoding="utf-8")
