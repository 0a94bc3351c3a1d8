"""Findings and their catalogue: the ``Finding`` record and every code the rules core can raise,
as data, one module per topic.

This ``__init__`` is the wing's face: the rest of the core imports these names, never the
modules below. ``finding.py`` is the record (``Finding``, ``Citation``); ``catalogue.py`` merges
the entries of every topic into ``CATALOGUE`` and fills a finding's remedy for its case
(``make_finding``), with the remedies the house settings choose where the rulebooks disagree
(``remedies.py``). The topics: ``dealing.py`` and ``betting.py`` (the board games' deal and the
betting, citing the names of ``rulebooks.py``), ``games.py`` (stud and draw), ``cards_lost.py``,
``deck.py``, ``keys.py`` (the dealer's and floor's keys), ``devices.py`` (the readers' health)
and ``chips.py``; ``entry.py`` is the shape of one entry.
"""

from controller.rules.findings.catalogue import CATALOGUE, ORDINALS, make_finding
from controller.rules.findings.chips import CHIP_ENTRIES
from controller.rules.findings.devices import DEVICE_ENTRIES, STATE_CODES
from controller.rules.findings.finding import Citation, Finding
from controller.rules.findings.remedies import REMEDY_BY_SETTING

__all__ = [
    "CATALOGUE",
    "CHIP_ENTRIES",
    "DEVICE_ENTRIES",
    "ORDINALS",
    "REMEDY_BY_SETTING",
    "STATE_CODES",
    "Citation",
    "Finding",
    "make_finding",
]
