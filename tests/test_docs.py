"""The docs say what the code does: every finding code, house-rules setting and event type is
documented (docs/findings.md, docs/house-rules.md, docs/events.md)."""

from __future__ import annotations

import re
from pathlib import Path

from controller.events import BODY_TYPES
from controller.poker.house_rules import setting_names
from controller.rules.findings.catalogue import CATALOGUE

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_every_finding_code_is_in_findings_md():
    text = (DOCS / "findings.md").read_text(encoding="utf-8")
    assert [c for c in CATALOGUE if f"`{c}`" not in text] == []


def test_every_house_rules_setting_is_in_house_rules_md():
    text = (DOCS / "house-rules.md").read_text(encoding="utf-8")
    assert [s for s in setting_names() if s not in text] == []


def test_every_event_type_is_in_events_md():
    text = (DOCS / "events.md").read_text(encoding="utf-8")
    missing = [t for t in BODY_TYPES if f"`{t}`" not in text and f'"type": "{t}"' not in text]
    assert missing == []


def test_every_source_path_the_docs_name_exists():
    """A module the docs point a reader to is where they say (the tree was re-laid once)."""
    repo = DOCS.parent
    pattern = re.compile(r"(?<![\w/.])((?:controller|drivers|display|bench)/[\w/]+\.py)")
    texts = [*DOCS.glob("*.md"), repo / "README.md", *(repo / "hardware").glob("*.md")]
    missing = sorted({(t.name, m) for t in texts
                      for m in pattern.findall(t.read_text(encoding="utf-8"))
                      if not (repo / m).is_file()})
    assert missing == []
