"""Enrolling chips into a chip set: the tags read on the enrolment antenna, all of one
denomination, added to a set of the chip-set file (``controller/tags/chipfile.py``), and every way
that can be wrong named by the tag it happened at.

Like a deck's enrolment (``controller/tags/deck_enrol.py``): pure, no I/O; the command that reads
the chips and writes the file is ``controller/cli/chips.py``. A tag belongs to one
denomination of one set (the chip-set file's own rule: "no uid may be in two sets"), so a tag
already in the file is refused unless it is already this very chip (same set, same
denomination: the cardroom may enrol a denomination in several batches, and a chip left on the
antenna is then no error). A denomination has one colour in its set (DESIGN.md, "Table
events": chip sets are registered like decks; the colour is what the dealer's view names).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from controller.tags.chipfile import ChipSets
from controller.tags.deckfile import UID_RE


class EnrolError(ValueError):
    """The chips read cannot be enrolled: the message names the tag (or the colour) at fault."""


@dataclass(frozen=True)
class Enrolled:
    """The file's sets with the chips added, the tags new to the set and those it held already
    at this denomination."""

    sets: ChipSets
    new: tuple[str, ...]
    already: tuple[str, ...]


def check_colour(sets: ChipSets | None, set_id: str, denomination: int,
                 colour: str | None) -> None:
    """EnrolError when ``colour`` is not the one the set already has for ``denomination``, or
    is another denomination's colour in the set (checked before any chip is read)."""
    if colour is None or sets is None:
        return
    held = sets.colours.get(set_id, {})
    mine = held.get(denomination)
    if mine is not None and mine.casefold() != colour.casefold():
        raise EnrolError(f"set {set_id} has colour {mine} for denomination {denomination}, not "
                         f"{colour} (leave --colour out, or give {mine})")
    for d, c in held.items():
        if d != denomination and c.casefold() == colour.casefold():
            raise EnrolError(f"colour {colour} is denomination {d}'s in set {set_id}: one "
                             f"colour, two denominations")


def enrol(sets: ChipSets | None, set_id: str, denomination: int, colour: str | None,
          uids: Iterable[str]) -> Enrolled:
    """Add ``uids`` to set ``set_id`` as chips of ``denomination`` (of ``colour``); a new file
    (``sets`` None) has this set in play. EnrolError naming the first tag at fault."""
    check_colour(sets, set_id, denomination, colour)
    chips: dict[str, dict[str, int]] = {s: dict(c) for s, c in (sets.chips if sets else {}).items()}
    colours: dict[str, dict[int, str]] = {s: dict(c)
                                          for s, c in (sets.colours if sets else {}).items()}
    owner = {u: (s, d) for s, held in chips.items() for u, d in held.items()}
    new: list[str] = []
    already: list[str] = []
    wrong: list[str] = []
    for uid in sorted(set(uids)):
        if not UID_RE.fullmatch(uid):
            raise EnrolError(f"tag {uid!r} is not a uid the chip-set file can hold (upper-case "
                             "hex, 4 to 10 bytes)")
        if uid not in owner:
            new.append(uid)
        elif owner[uid] == (set_id, denomination):
            already.append(uid)
        else:
            wrong.append(uid)
    if wrong:
        s, d = owner[wrong[0]]
        where = f"a chip of {d} in this set" if s == set_id else f"a chip of {d} of set {s}"
        more = f" ({len(wrong) - 1} more tags read are enrolled already)" if len(wrong) > 1 else ""
        raise EnrolError(f"tag {wrong[0]} is {where}, enrolled already: take it off the "
                         f"antenna{more}")
    chips.setdefault(set_id, {}).update(dict.fromkeys(new, denomination))
    if colour is not None and denomination not in colours.setdefault(set_id, {}):
        colours[set_id][denomination] = colour
    colours.setdefault(set_id, {})
    in_play = sets.in_play if sets is not None else set_id
    return Enrolled(ChipSets(in_play, chips, colours), tuple(new), tuple(already))


def totals(sets: ChipSets, set_id: str) -> dict[int, int]:
    """The set's chips per denomination, lowest first."""
    counts: dict[int, int] = {}
    for d in sets.chips.get(set_id, {}).values():
        counts[d] = counts.get(d, 0) + 1
    return dict(sorted(counts.items()))


def describe(sets: ChipSets, set_id: str) -> str:
    """``1 (white) x 20, 5 (red) x 20: 40 chips worth 120``: the set's totals."""
    counts = totals(sets, set_id)
    colours: Mapping[int, str] = sets.colours.get(set_id, {})
    parts = [f"{d}{f' ({colours[d]})' if d in colours else ''} x {n}" for d, n in counts.items()]
    worth = sum(d * n for d, n in counts.items())
    return f"{', '.join(parts)}: {sum(counts.values())} chips worth {worth}"
