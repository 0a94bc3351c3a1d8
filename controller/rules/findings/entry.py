"""The shape of one finding code in the catalogue (``catalogue.py``, ``games.py``).

Kept apart from the tables so both catalogue modules can build entries without importing each
other.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.rules.findings.finding import Citation, Severity

RR = "roberts-rules-v11.txt"


@dataclass(frozen=True)
class Entry:
    """One finding code."""

    code: str
    title: str
    severity: Severity
    rules: tuple[Citation, ...]
    remedy: tuple[str, ...]
    sensors: str
    catalogue: bool = True  # False: a project code the research catalogue does not list


def cite(section: str, rule: str, text: str = "", file: str = RR) -> Citation:
    """A citation: rulebook file (in shared/rulebooks/), section, rule and the quoted text."""
    return Citation(file=file, section=section, rule=rule, text=text)
