"""docs/findings.md's coverage table stays true to the observability matrix of
research/irregularities.md §3.2, the catalogue and the scenarios (issue 11)."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest

from controller.events import TableSetup, read_scenario
from controller.poker.variants import VARIANTS, family
from controller.rules.findings.catalogue import CATALOGUE

ROOT = Path(__file__).resolve().parent.parent.parent
FAMILIES = ("board", "stud", "draw")


def _matrix(shared: Path) -> list[str]:
    """The entries of §3.2, with the short forms (``_BY_PLAYER``, ``_IN_STUB``) spelt out."""
    text = (shared / "research" / "irregularities.md").read_text(encoding="utf-8")
    part = text[text.index("## 3.2 Observability matrix"):text.index("## 3.3")]
    out: list[str] = []
    for row in (r for r in part.splitlines() if r.startswith("| `")):
        names: list[str] = []
        for name in re.findall(r"`([A-Z_0-9]+)`", row.split("|")[1]):
            if name.startswith("_"):  # a suffix of the name before it
                stem = names[-1]
                name = stem[:stem.rindex("_BY_") if "_BY_" in stem else stem.rindex("_IN_")] + name
            names.append(name)
        out += [n for n in names if n not in out]
    return out


def _table() -> dict[str, list[str]]:
    text = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    part = text[text.index("## Coverage of the observability matrix"):text.index("## Codes")]
    rows = {}
    for line in part.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 6 and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = cells
    return rows


@functools.cache
def _scenario_families() -> dict[str, set[str]]:
    """code -> the families of the scenarios that expect it."""
    out: dict[str, set[str]] = {}
    folder = ROOT / "tests" / "scenarios"
    for path in [*folder.glob("*.jsonl"), *(folder / "table").glob("*.jsonl")]:
        setup = next((e.body for e in read_scenario(path) if isinstance(e.body, TableSetup)),
                     None)
        game = setup.game if setup is not None else "nlhe"
        fam = family(VARIANTS[game]) if game in VARIANTS else ""
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("# expect:"):
                code = json.loads(line[len("# expect:"):]).get("code")
                if code:
                    out.setdefault(code, set()).add(fam)
    return out


def test_every_matrix_entry_has_a_row(shared: Path) -> None:
    matrix = _matrix(shared)
    assert len(matrix) == 63, "the matrix of research/irregularities.md §3.2 changed"
    rows = _table()
    assert [e for e in matrix if e not in rows] == []
    assert [r for r in rows if r not in matrix] == []


@pytest.mark.parametrize("entry", sorted(_table()))
def test_each_row_is_true(entry: str) -> None:
    _, _, raised, sensors, families, status = _table()[entry]
    codes = re.findall(r"`([A-Z_0-9]+)`", raised)
    assert sensors and sensors != "—", f"{entry}: name the sensors"
    assert all(code in CATALOGUE for code in codes), f"{entry}: {codes} not in the catalogue"
    if status == "detected":
        assert codes == [entry], f"{entry}: detected under its own code"
    elif status.startswith("detected as"):
        assert codes and entry not in CATALOGUE
    else:  # no finding by rule, not an irregularity, not detected: say why
        assert not codes and entry not in CATALOGUE
        assert status.split(":")[0] in ("no finding by rule", "not an irregularity",
                                        "not detected"), status
        assert len(status.split(":", 1)[1].split()) >= 8, f"{entry}: give the reason"
    named = [f.strip() for f in families.split(",") if f.strip()]
    assert named and set(named) <= set(FAMILIES), f"{entry}: families {families!r}"
    if codes:
        shown = set().union(*(_scenario_families().get(c, set()) for c in codes))
        assert set(named) <= shown, f"{entry}: no scenario of {set(named) - shown} expects it"
