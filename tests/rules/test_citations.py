"""Every rule the catalogue cites is in the rulebooks: the file exists, and a quoted sentence is
really there (whitespace and punctuation aside). Needs the shared rulebooks folder."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from controller.rules.findings.catalogue import CATALOGUE


def _norm(text: str) -> str:
    # The rulebook texts were rebuilt from PDF extracts ("reshuff le", "all -in"): compare
    # letters and digits only.
    return re.sub(r"[^a-z0-9]", "", text.lower())


CITATIONS = [(code, c) for code, entry in CATALOGUE.items() for c in entry.rules]


@pytest.mark.parametrize(("code", "citation"), CITATIONS, ids=[f"{c}-{i}" for i, (c, _) in
                                                                 enumerate(CITATIONS)])
def test_citation_points_into_a_rulebook(shared: Path, code: str, citation) -> None:
    # where no rulebook speaks (the devices' health) an entry cites the design brief beside them
    book = shared / ("DESIGN.md" if citation.file == "DESIGN.md" else f"rulebooks/{citation.file}")
    assert book.is_file(), f"{code} cites {citation.file}, which is not in the rulebooks"
    assert citation.section and citation.rule, f"{code}: a citation needs section and rule"
    if citation.text:
        assert _norm(citation.text) in _norm(book.read_text(encoding="utf-8")), (
            f"{code}: the quoted text is not in {citation.file}: {citation.text!r}"
        )


def test_every_entry_has_a_citation_and_a_remedy() -> None:
    for code, entry in CATALOGUE.items():
        assert entry.rules, code
        assert entry.remedy and all(step.strip() for step in entry.remedy), code
        assert not re.search(r"\b[2-9TJQKA][cdhs]\b", entry.title), f"{code}: title names a card"
