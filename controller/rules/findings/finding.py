"""Findings: what the rules core reports when the table departs from the rulebooks.

A finding names the irregularity by a stable code (the catalogue id of
``research/irregularities.md`` wherever one exists), the event that raised it, the seats and cards
involved, the rule it comes from, and the remedy as steps the dealer carries out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Severity = Literal["misdeal", "error", "warning"]


@dataclass(frozen=True)
class Citation:
    """Where a rule is written: rulebook file (in ``shared/rulebooks/``), section and rule."""

    file: str
    section: str
    rule: str
    text: str = ""

    def __str__(self) -> str:
        return f"{self.file}, {self.section}, rule {self.rule}"

    def to_json(self) -> dict[str, str]:
        out = {"file": self.file, "section": self.section, "rule": self.rule}
        if self.text:
            out["text"] = self.text
        return out


@dataclass(frozen=True)
class Finding:
    """One detected irregularity."""

    code: str
    seq: int
    severity: Severity
    title: str  # the code's name for people; never names a card (it reaches the public view)
    message: str  # the specific case; may name cards (dealer and surveillance only)
    rule: Citation
    remedy: tuple[str, ...]
    seats: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()
    # Cards the remedy says must come next, in order, as (destination zone, card or None).
    expect: tuple[tuple[str, str | None], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "seq": self.seq,
            "severity": self.severity,
            "title": self.title,
            "message": self.message,
            "seats": list(self.seats),
            "cards": list(self.cards),
            "rule": self.rule.to_json(),
            "remedy": list(self.remedy),
        }
