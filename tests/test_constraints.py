"""constraints.txt, the tested versions: it pins every package the install can pull in, for
this machine and for the table's (aarch64, Bookworm's Python 3.11.2), each within
pyproject.toml's bounds, at exactly the version installed here, the one the suite runs
against. The direct path's seams (display/direct_frames.py) above all: its seam test
(tests/display/test_direct_frames.py) holds python-engineio's internals to these versions."""

from __future__ import annotations

import ast
import importlib.metadata as md
import re
import tomllib

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.conftest import REPO

LOCK = REPO / "constraints.txt"
# Packaging's own tools, which the venv brings (ensurepip, Debian's python3-venv): the lock
# leaves them to it (uv's --no-emit-package setuptools). colorzero declares setuptools but
# never imports it.
UNPINNED = {"pip", "setuptools"}
# The seam test's packages: the direct path imports the first three; python-socketio makes the
# python-engineio server whose internals it uses.
SEAMS = {"python-engineio", "python-socketio", "uvicorn", "websockets"}
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)\s*(?:;.*)?$")


def pins() -> dict[str, str]:
    """constraints.txt as {canonical name: version}; every line an exact pin, none twice."""
    found: dict[str, str] = {}
    for n, raw in enumerate(LOCK.read_text().splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = _PIN.match(line)
        assert m, f"constraints.txt:{n}: not an exact pin: {raw!r}"
        name = canonicalize_name(m[1])
        assert name not in found, f"constraints.txt:{n}: {name} pinned twice"
        found[name] = m[2]
    return found


def project() -> dict[str, list[Requirement]]:
    meta = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    return {
        "": [Requirement(r) for r in meta["dependencies"]],
        **{k: [Requirement(r) for r in v] for k, v in meta["optional-dependencies"].items()},
    }


# Where the lock must hold: here, and on the table (Raspberry Pi OS Bookworm, arm64).
HERE = default_environment()
TABLE = {**HERE, "platform_machine": "aarch64", "python_full_version": "3.11.2",
         "python_version": "3.11", "sys_platform": "linux", "platform_system": "Linux"}


def applies(req: Requirement, env: dict[str, str], extra: str = "") -> bool:
    return req.marker is None or req.marker.evaluate({**env, "extra": extra})


def test_every_line_is_an_exact_pin_and_the_header_names_the_tool() -> None:
    assert len(pins()) > 20
    assert "uv pip compile pyproject.toml --extra test" in LOCK.read_text().splitlines()[1]


def test_every_dependency_of_pyproject_is_pinned_within_its_bounds() -> None:
    lock = pins()
    for group, reqs in project().items():
        for req in reqs:
            name = canonicalize_name(req.name)
            assert name in lock, f"{req} ({group or 'runtime'}) is not in constraints.txt"
            assert req.specifier.contains(lock[name], prereleases=True), (
                f"constraints.txt pins {name}=={lock[name]}, outside pyproject's {req}")


@pytest.mark.parametrize("env", [HERE, TABLE], ids=["here", "table-aarch64-py3.11.2"])
def test_the_lock_covers_everything_the_install_pulls_in(env: dict[str, str]) -> None:
    """Walks the requirements from pyproject.toml (runtime and the test extra) through each
    installed package's metadata, with the markers of `env`: every package reached is pinned."""
    lock = pins()
    todo: list[tuple[Requirement, str]] = [
        (r, "feltguard") for reqs in project().values() for r in reqs if applies(r, env)]
    seen: set[tuple[str, frozenset[str]]] = set()
    while todo:
        req, via = todo.pop()
        name = canonicalize_name(req.name)
        if name in UNPINNED:
            continue
        assert name in lock, f"{name} (needed by {via}) is not in constraints.txt"
        key = (name, frozenset(req.extras))
        if key in seen:
            continue
        seen.add(key)
        try:
            dist = md.distribution(name)
        except md.PackageNotFoundError:
            continue  # not installed here (e.g. async-timeout below Python 3.11.3): pinned anyway
        for raw in dist.requires or []:
            sub = Requirement(raw)
            if applies(sub, env) or any(applies(sub, env, e) for e in req.extras):
                todo.append((sub, name))
    assert {canonicalize_name(r.name) for r in project()[""]} <= {n for n, _ in seen}


def test_the_installed_versions_are_the_pinned_ones() -> None:
    """What the suite runs against here is what the lock pins (make installs with -c it)."""
    drift = []
    for name, version in pins().items():
        try:
            installed = md.version(name)
        except md.PackageNotFoundError:
            continue
        if installed != version:
            drift.append(f"{name}: installed {installed}, pinned {version}")
    assert not drift, "installed versions differ from constraints.txt: " + "; ".join(drift)


def test_the_direct_paths_seams_are_pinned_to_what_the_seam_test_runs_against() -> None:
    source = (REPO / "display" / "direct_frames.py").read_text()
    imported = {
        (node.module or "").split(".")[0]
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom) and node.level == 0
    } | {a.name.split(".")[0] for node in ast.walk(ast.parse(source))
         if isinstance(node, ast.Import) for a in node.names}
    owners = md.packages_distributions()
    third_party = {canonicalize_name(d) for mod in imported for d in owners.get(mod, [])}
    assert third_party <= SEAMS, f"direct_frames.py now also leans on {third_party - SEAMS}"
    assert {"python-engineio", "uvicorn", "websockets"} <= third_party
    lock = pins()
    for name in sorted(SEAMS):
        assert lock.get(name) == md.version(name), (
            f"{name}: the seam test runs against {md.version(name)}, constraints.txt pins "
            f"{lock.get(name)}")


def test_every_install_uses_the_lock() -> None:
    stamp = (REPO / "Makefile").read_text().split("$(STAMP):", 1)[1].split("\n\n", 1)[0]
    assert "constraints.txt" in stamp.splitlines()[0]  # a new lock reinstalls the venv
    assert "pip install -q -c constraints.txt -e '.[test]'" in stamp
    install = (REPO / "hardware" / "INSTALL.md").read_text()
    assert "pip install -c /opt/feltguard/constraints.txt /opt/feltguard" in install
    assert "uv pip compile pyproject.toml --extra test" in install  # the refresh command
