"""Fixtures shared by every suite: where the reference material lives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

REPO = Path(__file__).resolve().parent.parent

# Property tests run the same examples every time under `make test` and CI (`ci`): a case found
# by chance must not stop a submission that did not cause it. `make explore` draws new examples
# (`explore`); what it finds is fixed and kept as an @example.
settings.register_profile("ci", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def shared_dir() -> Path | None:
    """``$FELTGUARD_SHARED`` or ``../shared`` beside the repository, if present."""
    env = os.environ.get("FELTGUARD_SHARED")
    candidates = [Path(env)] if env else []
    candidates.append(REPO.parent / "shared")
    for c in candidates:
        if (c / "rulebooks").is_dir():
            return c
    return None


@pytest.fixture(scope="session")
def shared() -> Path:
    path = shared_dir()
    if path is None:
        pytest.skip("the shared reference folder is absent: set FELTGUARD_SHARED or put it at "
                    "../shared beside the repository")
    return path
