"""The chip sets a table knows, as pure data: the set in play (each chip's denomination by its
tag, each denomination's colour) and the table's other registered sets, so a chip of another set
is told apart from an unknown tag. The chip-set file (``controller.tags.chipfile``) loads into
it; the rules core keeps it (``controller.rules.chips``), as it keeps the deck registry
(``controller.poker.cards.DeckRegistry``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from controller.poker.records import replace

_EMPTY: Mapping[str, int] = MappingProxyType({})


@dataclass(frozen=True)
class ChipRegistry:
    """The chip set in play (uid -> denomination, and each denomination's colour) and the
    table's other registered sets (uid -> (set id, denomination))."""

    in_play: str = ""
    chips: Mapping[str, int] = field(default_factory=lambda: _EMPTY)
    colours: Mapping[int, str] = field(default_factory=lambda: MappingProxyType({}))
    others: Mapping[str, tuple[str, int]] = field(default_factory=lambda: MappingProxyType({}))

    def put_in_play(self, name: str, chips: Mapping[str, int],
                    colours: Mapping[int, str]) -> ChipRegistry:
        """``name`` becomes the set in play; the set in play before stays known as another."""
        others = {u: s for u, s in self.others.items() if u not in chips and s[0] != name}
        if self.in_play != name:
            others.update({u: (self.in_play, d) for u, d in self.chips.items()
                           if u not in chips})
        return ChipRegistry(name, MappingProxyType(dict(chips)),
                            MappingProxyType(dict(colours)), MappingProxyType(others))

    def with_idle(self, name: str, chips: Mapping[str, int]) -> ChipRegistry:
        """``name`` is known (a chip of it on the table is a chip of another set), not in play."""
        if name == self.in_play:
            return self
        others = {u: s for u, s in self.others.items() if s[0] != name}
        others.update({u: (name, d) for u, d in chips.items() if u not in self.chips})
        return replace(self, others=MappingProxyType(others))

    def denomination_of(self, uid: str) -> int | None:
        """The denomination of a chip of the set in play, or None."""
        return self.chips.get(uid)

    def foreign(self, uid: str) -> tuple[str, int] | None:
        """(set id, denomination) of a chip of another registered set, or None."""
        return None if uid in self.chips else self.others.get(uid)

    def sets(self) -> tuple[str, ...]:
        """Every registered set, the one in play first."""
        rest = sorted({s for s, _ in self.others.values()} - {self.in_play})
        return ((self.in_play,) if self.in_play else ()) + tuple(rest)
