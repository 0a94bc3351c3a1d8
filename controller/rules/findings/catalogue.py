"""The finding catalogue: every code the rules core can raise, as data.

Each entry gives the code's title (for people; never names a card, it reaches the public view),
severity, the rules it comes from (rulebook file, section, rule; the first is the one a finding
carries), the remedy as steps the dealer carries out, and the sensors it needs. Remedy steps are
templates: ``{seat}``, ``{seats}``, ``{card}``, ``{cards}`` and the other names an entry uses are
filled in from the specific case, so a remedy names the exact cards where the rules determine
them. House-rules profiles (a later issue) will swap remedy texts here, not in the code.

Codes in CAPITALS with a ``catalogue`` id are the ids of research/irregularities.md (dealing) and
research/button-blinds-betting.md §2.16 (betting). A few codes are the project's own, for
situations the rulebooks do not name (an unregistered tag, an event the procedure cannot place);
they say so (``catalogue=False``). docs/findings.md documents every entry.

Default behaviour is Robert's Rules of Poker v11 (roberts-rules-v11.txt), the project default
where the rulebooks disagree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from string import Formatter

from controller.rules.findings.betting import BETTING_ENTRIES
from controller.rules.findings.cards_lost import CARDS_LOST_ENTRIES
from controller.rules.findings.chips import CHIP_ENTRIES
from controller.rules.findings.dealing import DEALING_ENTRIES
from controller.rules.findings.deck import DECK_ENTRIES
from controller.rules.findings.devices import DEVICE_ENTRIES
from controller.rules.findings.entry import Entry
from controller.rules.findings.finding import Finding
from controller.rules.findings.games import GAME_ENTRIES
from controller.rules.findings.keys import KEY_ENTRIES
from controller.rules.findings.remedies import REMEDY_BY_SETTING

# One table of every code, from one module per topic: the board games' deal (dealing.py) and
# betting (betting.py), the stud and draw families (games.py), the cards that leave the table
# (cards_lost.py), the deck (deck.py), the dealer's and floor's keys (keys.py), the readers'
# health (devices.py) and the chips (chips.py).
CATALOGUE: Mapping[str, Entry] = {
    e.code: e for e in (*DEALING_ENTRIES, *BETTING_ENTRIES, *GAME_ENTRIES, *CARDS_LOST_ENTRIES,
                        *DECK_ENTRIES, *KEY_ENTRIES, *DEVICE_ENTRIES, *CHIP_ENTRIES)}

# The ordinals the exposed-card remedy names.
ORDINALS = ("first", "second")


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(template) if name}


class _Fill(dict[str, str]):
    """format_map helper: a missing key renders as a visible gap, never raises."""

    def __missing__(self, key: str) -> str:
        return "?"


def make_finding(
    code: str,
    seq: int,
    *,
    seats: Sequence[int] = (),
    cards: Sequence[str] = (),
    message: str = "",
    fill: Mapping[str, object] | None = None,
    expect: tuple[tuple[str, str | None], ...] = (),
    setting: str = "",
) -> Finding:
    """Build the Finding for ``code`` with the remedy filled in for this case.

    ``fill`` supplies the template names; ``seat``/``seats``/``card``/``cards`` default to the
    finding's own seats and cards. ``setting``: the house setting's value where the books
    disagree on this remedy (``REMEDY_BY_SETTING``; anything else: Robert's)."""
    entry = CATALOGUE[code]
    rule, steps = REMEDY_BY_SETTING.get((code, setting), (entry.rules[0], entry.remedy))
    values = _Fill()
    if seats:
        values["seat"] = str(seats[0])
    values["seats"] = ", ".join(str(s) for s in seats) or "none"
    if cards:
        values["card"] = cards[0]
    values["cards"] = ", ".join(cards) or "none"
    for key, value in (fill or {}).items():
        values[key] = str(value)
    remedy = tuple(step.format_map(values) for step in steps)
    if not message:
        message = remedy[0]
    return Finding(
        code=code,
        seq=seq,
        severity=entry.severity,
        title=entry.title,
        message=message,
        rule=rule,
        remedy=remedy,
        seats=tuple(seats),
        cards=tuple(cards),
        expect=expect,
    )


def template_fields(code: str) -> set[str]:
    """The names a code's remedy templates use (tests check every one is filled)."""
    variants = [steps for (c, _), (_, steps) in REMEDY_BY_SETTING.items() if c == code]
    return set().union(*(_fields(step) for steps in (CATALOGUE[code].remedy, *variants)
                         for step in steps))
