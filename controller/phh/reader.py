"""Read PHH: one hand (``.phh``) or many (``.phhs``: tables ``[1]``, ``[2]``, ...) from TOML.

``tomllib`` does the TOML; this module checks every field the specification defines (the
variant code, the stakes each variant needs, per-player arrays of the right length, the action
grammar, the cards of the variant's deck) and builds ``HandHistory`` values. A malformed hand
is a ``PhhError`` naming the file, the hand (its table key and ``hand`` field) and, for an action,
the action's number and text.

Numbers are read as written: an integer stays an ``int``, a number with a decimal point becomes a
``Decimal`` with the same digits (the pluribus corpus records split pots as ``10112.5``).

Two ways in: the strict ``loads``/``loads_all``/``load`` raise on the first bad hand; the
tolerant ``read_text``/``read_file`` return each hand or its error, so one bad hand in a file of
ten thousand loses nothing else.
"""

from __future__ import annotations

import datetime
import re
import tomllib
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

from controller.phh.notation import (
    MODEL_FIELDS,
    OPTIONAL_TYPES,
    STATE_FIELDS,
    VARIANT_CODES,
    HandHistory,
    Number,
    PhhAction,
    PhhError,
    deck_of,
    is_variant_code,
    parse_action,
    required_stakes,
)

# A top-level table header of a .phhs file: [1], ["7"], [hand-12]
_HEADER_RE = re.compile(r"""^\[\s*(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*\]\s*(?:#.*)?$""")
_TOML_LINE_RE = re.compile(r"\(at line (\d+), column (\d+)\)")


# --- values ---------------------------------------------------------------------------------------


def _is_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, Decimal) and not value.is_nan()


def _number(key: str, value: Any, *, positive: bool = False, infinite: bool = False) -> Number:
    if not _is_number(value):
        raise PhhError(f"field '{key}' must be a number, got {value!r}")
    number: Number = value
    if isinstance(number, Decimal) and number.is_infinite() and not (infinite and number > 0):
        raise PhhError(f"field '{key}' must be finite, got {value}")
    if number < 0 or (positive and number == 0):
        kind = "positive" if positive else "non-negative"
        raise PhhError(f"field '{key}' must be {kind}, got {value}")
    return number


def _numbers(key: str, value: Any, count: int | None, *, positive: bool = False,
             infinite: bool = False) -> tuple[Number, ...]:
    if not isinstance(value, list):
        raise PhhError(f"field '{key}' must be an array of numbers, got {value!r}")
    if count is not None and len(value) != count:
        raise PhhError(f"field '{key}' has {len(value)} values for {count} players")
    out = []
    for i, item in enumerate(value, start=1):
        try:
            out.append(_number(key, item, positive=positive, infinite=infinite))
        except PhhError as exc:
            raise PhhError(f"{exc.detail} (value {i})") from None
    return tuple(out)


def _strings(key: str, value: Any, count: int) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise PhhError(f"field '{key}' must be an array of strings, got {value!r}")
    if len(value) != count:
        raise PhhError(f"field '{key}' has {len(value)} values for {count} players")
    return tuple(value)


def _check_optional(key: str, value: Any, count: int) -> Any:
    kind = OPTIONAL_TYPES[key]
    ok = {
        "string": isinstance(value, str),
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "number": _is_number(value),
        "time": isinstance(value, datetime.time),
        "string or integer": isinstance(value, str | int) and not isinstance(value, bool),
        "integers": isinstance(value, list)
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value),
        "numbers": isinstance(value, list) and all(_is_number(v) for v in value),
        "strings": isinstance(value, list) and all(isinstance(v, str) for v in value),
    }[kind]
    if not ok:
        raise PhhError(f"field '{key}' must be {_article(kind)}, got {value!r}")
    if key in ("seats", "winnings", "time_banks") and len(value) != count:
        raise PhhError(f"field '{key}' has {len(value)} values for {count} players")
    return value


def _article(kind: str) -> str:
    if kind in ("integers", "numbers", "strings"):
        return f"an array of {kind}"
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


# --- one hand -------------------------------------------------------------------------------------


def from_mapping(data: Mapping[str, Any], *, name: str = "") -> HandHistory:
    """Build and check a hand from decoded TOML. Raises PhhError naming the hand."""
    label = name
    hand_field = data.get("hand")
    if isinstance(hand_field, str | int) and not isinstance(hand_field, bool):
        label = f"{name} (hand {hand_field})" if name else f"hand {hand_field}"
    try:
        return _build(data, name, label)
    except PhhError as exc:
        if exc.hand:
            raise
        raise PhhError(exc.detail, hand=label, action=exc.action) from None


def _build(data: Mapping[str, Any], name: str, label: str) -> HandHistory:
    for key in ("variant", "antes", "starting_stacks", "actions"):
        if key not in data:
            raise PhhError(f"missing required field '{key}'")
    variant = data["variant"]
    if not is_variant_code(variant):
        raise PhhError(f"unknown variant {variant!r} (one of {', '.join(VARIANT_CODES)}, or "
                       "Feltguard's x:<game>/<structure>)")
    starting = _numbers("starting_stacks", data["starting_stacks"], None, positive=True,
                        infinite=True)
    n = len(starting)
    if n < 2:
        raise PhhError(f"a hand needs at least two players, 'starting_stacks' has {n}")
    stakes: dict[str, Any] = {"antes": _numbers("antes", data["antes"], n)}
    for key in required_stakes(variant):
        if key not in data:
            raise PhhError(f"variant {variant} needs field '{key}'")
    if "blinds_or_straddles" in data:
        stakes["blinds_or_straddles"] = _numbers("blinds_or_straddles",
                                                 data["blinds_or_straddles"], n)
    for key in ("bring_in", "small_bet", "big_bet", "min_bet"):
        if key in data:
            stakes[key] = _number(key, data[key], positive=True)
    trimming = data.get("ante_trimming_status")
    if trimming is not None and not isinstance(trimming, bool):
        raise PhhError(f"field 'ante_trimming_status' must be true or false, got {trimming!r}")

    raw_actions = data["actions"]
    if not isinstance(raw_actions, list):
        raise PhhError(f"field 'actions' must be an array of strings, got {raw_actions!r}")
    deck = deck_of(variant)
    short, joker = deck == "short", deck == "joker"
    actions: list[PhhAction] = []
    for i, text in enumerate(raw_actions, start=1):
        try:
            actions.append(parse_action(text, n, short_deck=short, joker=joker))
        except PhhError as exc:
            raise PhhError(f"{text!r}: {exc.detail}", hand=label, action=i) from None

    finishing = None
    if "finishing_stacks" in data:
        finishing = _numbers("finishing_stacks", data["finishing_stacks"], n)
    players = _strings("players", data["players"], n) if "players" in data else None
    hand = data.get("hand")
    if hand is not None:
        _check_optional("hand", hand, n)
    optional: dict[str, Any] = {}
    user: dict[str, Any] = {}
    for key, value in data.items():
        if key in STATE_FIELDS or key in MODEL_FIELDS:
            continue
        if key.startswith("_"):
            user[key] = value
        elif key in OPTIONAL_TYPES:
            optional[key] = _check_optional(key, value, n)
        else:
            raise PhhError(f"unknown field '{key}' (user-defined fields start with '_')")
    return HandHistory(
        variant=variant, starting_stacks=starting, actions=tuple(actions),
        ante_trimming_status=trimming, finishing_stacks=finishing, players=players, hand=hand,
        optional=optional, user=user, name=name, **stakes,
    )


# --- text -----------------------------------------------------------------------------------------


def _toml(text: str) -> dict[str, Any]:
    return tomllib.loads(text, parse_float=Decimal)


def _is_single(doc: Mapping[str, Any]) -> bool:
    return "variant" in doc or "actions" in doc or not all(
        isinstance(v, dict) for v in doc.values())


def loads(text: str, *, source: str = "<phh>") -> HandHistory:
    """One hand (a ``.phh`` document). Raises PhhError."""
    try:
        doc = _toml(text)
    except tomllib.TOMLDecodeError as exc:
        raise PhhError(f"not valid TOML: {exc}", hand=source) from None
    return from_mapping(doc, name=source)


def loads_all(text: str, *, source: str = "<phhs>") -> list[HandHistory]:
    """Every hand of a ``.phhs`` (or ``.phh``) document; raises PhhError at the first bad one."""
    hands = []
    for item in read_text(text, source=source):
        if isinstance(item, PhhError):
            raise item
        hands.append(item)
    return hands


def read_text(text: str, *, source: str = "<phh>") -> list[HandHistory | PhhError]:
    """Each hand of a ``.phh`` or ``.phhs`` document, or the error that hand has. A document
    with top-level ``variant``/``actions`` is one hand; one made of tables is a ``.phhs``."""
    try:
        doc = _toml(text)
    except tomllib.TOMLDecodeError as exc:
        if any(_HEADER_RE.match(line.strip()) for line in text.splitlines()):
            return _read_sections(text, source)
        return [PhhError(f"not valid TOML: {exc}", hand=source)]
    if not doc:
        return []
    if _is_single(doc):
        return [_one(doc, source)]
    return [_one(value, f"{source} [{key}]") for key, value in doc.items()]


def _one(doc: Mapping[str, Any], name: str) -> HandHistory | PhhError:
    try:
        return from_mapping(doc, name=name)
    except PhhError as exc:
        return exc


def _read_sections(text: str, source: str) -> list[HandHistory | PhhError]:
    """The document is not valid TOML as a whole: read it table by table, so the error names
    the hand it is in and the other hands are still read."""
    sections: list[tuple[str, int, list[str]]] = [("", 1, [])]
    for lineno, line in enumerate(text.splitlines(), start=1):
        m = _HEADER_RE.match(line.strip()) if line[:1] == "[" else None
        if m:
            key = next(g for g in m.groups() if g is not None)
            sections.append((key, lineno + 1, []))
        else:
            sections[-1][2].append(line)
    out: list[HandHistory | PhhError] = []
    for key, first, lines in sections:
        body = "\n".join(lines)
        name = f"{source} [{key}]" if key else source
        try:
            doc = _toml(body)
        except tomllib.TOMLDecodeError as exc:
            message = _shift_lines(str(exc), first - 1)
            out.append(PhhError(f"not valid TOML: {message}", hand=name))
            continue
        if not key:
            if doc:
                out.append(PhhError("fields before the first table [1]", hand=source))
            continue
        out.append(_one(doc, name))
    return out


def _shift_lines(message: str, offset: int) -> str:
    """tomllib counts lines from the start of the table's text; count them in the file."""

    def shift(m: re.Match[str]) -> str:
        return f"(at line {int(m.group(1)) + offset}, column {m.group(2)})"

    return _TOML_LINE_RE.sub(shift, message)


# --- files ----------------------------------------------------------------------------------------


def read_file(path: str | Path) -> list[HandHistory | PhhError]:
    """Each hand of a ``.phh`` or ``.phhs`` file, or its error (see ``read_text``). A file that
    cannot be read at all is one PhhError."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        return [PhhError(exc.strerror or str(exc), hand=str(p))]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return [PhhError(f"not UTF-8 text (byte {exc.start})", hand=str(p))]
    return read_text(text, source=p.name)


def load(path: str | Path) -> HandHistory:
    """The one hand of a ``.phh`` file. Raises PhhError (also when the file has several)."""
    hands = load_all(path)
    if len(hands) != 1:
        raise PhhError(f"expected one hand, found {len(hands)}", hand=str(path))
    return hands[0]


def load_all(path: str | Path) -> list[HandHistory]:
    """Every hand of a ``.phh`` or ``.phhs`` file. Raises PhhError at the first bad hand."""
    hands = []
    for item in read_file(path):
        if isinstance(item, PhhError):
            raise item
        hands.append(item)
    return hands
