"""The chip-set file (``[chips] file = ...`` of ``feltguard run``): every chip set of the table,
tag uid -> denomination, with each denomination's colour, and the set in play.

Like the deck registry file (``controller/tags/deckfile.py``), several sets, one in play when a
table starts on a new journal (the others are known, so a chip of one of them on the table is a
chip of another set, CHIP_FOREIGN_SET, not an unknown tag)::

    {"in_play": "house",
     "sets": {"house": {"colours": {"1": "white", "5": "red", "25": "green"},
                        "chips": {"04C1A2B3": 1, "04C1A2B4": 5, "04C1A2B5": 25, ...}},
              "old":   {"chips": {"04D0D1D2": 5, ...}}}}

Denominations are whole units of the table's money (1 or more). Read once at start-up and
turned into the ``chips.register`` events the daemon journals (the set in play, then each other
set with ``idle``), so it is checked by the event parser's own rules plus the file's own: a uid
must be one a reader can report, no uid may be in two sets, a denomination is a whole number of
1 or more, a colour names a denomination of its set. Every error is one ConfigError naming the
file, the set and the uid at fault.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from controller.config import Config, ConfigError
from controller.events import (
    CHIP_NAME_MAX,
    DENOMINATION_KEY_RE,
    INT_MAX,
    ChipsRegister,
    EventError,
    validate_body,
)
from controller.poker.chip_sets import ChipRegistry
from controller.tags.deckfile import DECK_ID_RE, UID_RE, _read_json, write_json

SET_KEYS = ("chips", "colours")


@dataclass(frozen=True)
class ChipSets:
    """The sets of a chip-set file: id -> (uid -> denomination) and (denomination -> colour),
    in the file's order, and the set put in play when the table starts on a new journal."""

    in_play: str
    chips: Mapping[str, Mapping[str, int]]
    colours: Mapping[str, Mapping[int, str]]

    def bodies(self, in_play: str | None = None) -> list[ChipsRegister]:
        """The ``chips.register`` events: ``in_play`` (default: the file's) first, then every
        other set ``idle``."""
        first = in_play if in_play is not None and in_play in self.chips else self.in_play
        out = [ChipsRegister(set=first, chips=dict(self.chips[first]),
                             colours=dict(self.colours[first]))]
        out += [ChipsRegister(set=s, chips=dict(c), colours=dict(self.colours[s]), idle=True)
                for s, c in self.chips.items() if s != first]
        return out


def registered_sets(reg: ChipRegistry) -> dict[str, dict[str, int]]:
    """The chip sets the rules core holds: the set in play and the others, id -> chips."""
    out: dict[str, dict[str, int]] = {reg.in_play: dict(reg.chips)} if reg.in_play else {}
    for uid, (name, d) in reg.others.items():
        out.setdefault(name, {})[uid] = d
    return out


def load_chip_sets(path: str, *, label: str = "chips.file") -> ChipSets:
    """The chip-set file at ``path``; raises ConfigError ("chips.file: PATH: ...")."""
    where = f"{label}: {path}"
    data = _read_json(where, path)
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: must hold a JSON object with 'sets' and 'in_play'")
    unknown = sorted(set(data) - {"sets", "in_play"})
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r} (a chip-set file holds 'sets' "
                          "and 'in_play')")
    sets = data.get("sets")
    if not isinstance(sets, dict) or not sets:
        raise ConfigError(f"{where}: 'sets' must be a JSON object of set id -> {{\"chips\": "
                          "{uid: denomination}, \"colours\": {denomination: colour}}, with one "
                          "set at least")
    in_play = data.get("in_play", next(iter(sets)))
    if not isinstance(in_play, str) or in_play not in sets:
        raise ConfigError(f"{where}: in_play {in_play!r} is not a set of the file "
                          f"({', '.join(map(str, sets))})")
    chips: dict[str, dict[str, int]] = {}
    colours: dict[str, dict[int, str]] = {}
    owner: dict[str, str] = {}  # uid -> its set
    for name, body in sets.items():
        if not DECK_ID_RE.fullmatch(name):
            raise ConfigError(f"{where}: set id {name!r}: one word of letters, digits, '_', '.' "
                              "or '-' (at most 32)")
        here = f"{where}: set {name}"
        if not isinstance(body, dict):
            raise ConfigError(f"{here}: must be a JSON object with 'chips' (and 'colours')")
        extra = sorted(set(body) - set(SET_KEYS))
        if extra:
            raise ConfigError(f"{here}: unknown key {extra[0]!r} (a set holds 'chips' and "
                              "'colours')")
        chips[name] = _chips(here, body.get("chips"))
        colours[name] = _colours(here, body.get("colours", {}), set(chips[name].values()))
        for uid in chips[name]:
            if uid in owner:
                raise ConfigError(f"{where}: uid {uid} is in set {owner[uid]} and in set "
                                  f"{name}: one tag, two sets")
            owner[uid] = name
    out = ChipSets(in_play, chips, colours)
    for reg in out.bodies():
        try:
            validate_body(reg)
        except EventError as exc:  # pragma: no cover - the checks above cover the parser's
            raise ConfigError(f"{where}: set {reg.set}: {exc}") from None
    return out


def write_chip_sets(path: str, sets: ChipSets) -> None:
    """Write ``sets`` to ``path`` in the format ``load_chip_sets`` reads, atomically (a crash
    leaves the old file or the new one, never half of one); OSError if it cannot be written."""
    write_json(path, {"in_play": sets.in_play, "sets": {
        name: {"colours": {str(d): c for d, c in sorted(sets.colours.get(name, {}).items())},
               "chips": dict(chips)}
        for name, chips in sets.chips.items()}})


def table_chip_sets(config: Config) -> ChipSets | None:
    """The chip sets of the table's ``[chips] file``, or None when it names none."""
    return load_chip_sets(config.chips_file) if config.chips_file else None


def _chips(where: str, chips: Any) -> dict[str, int]:
    if not isinstance(chips, dict) or not chips:
        raise ConfigError(f"{where}: 'chips' must be a JSON object of tag uid -> denomination, "
                          "with one chip at least")
    for uid, d in chips.items():
        if not UID_RE.fullmatch(uid):
            raise ConfigError(f"{where}: uid {uid!r}: not a uid as the readers report it "
                              "(upper-case hex, 4 to 10 bytes, e.g. '04C1A2B3'): it could "
                              "never be read")
        if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= INT_MAX:
            raise ConfigError(f"{where}: uid {uid}: denomination {d!r} is not a whole number "
                              "of the table's money, 1 or more")
    return dict(chips)


def _colours(where: str, colours: Any, held: set[int]) -> dict[int, str]:
    if not isinstance(colours, dict):
        raise ConfigError(f"{where}: 'colours' must be a JSON object of denomination -> colour")
    out: dict[int, str] = {}
    for key, colour in colours.items():
        if not DENOMINATION_KEY_RE.fullmatch(key):
            raise ConfigError(f"{where}: colours: {key!r} is not a denomination (a whole "
                              "number, 1 or more)")
        d = int(key)
        if d not in held:
            raise ConfigError(f"{where}: colours: denomination {d} is no chip of the set")
        if not isinstance(colour, str) or not colour.strip() or len(colour) > CHIP_NAME_MAX:
            raise ConfigError(f"{where}: colours: denomination {d}: {colour!r} is not a colour "
                              f"name of 1..{CHIP_NAME_MAX} characters")
        out[d] = colour
    return out
