"""Debian's chromium for the browser tests (Playwright with ``executable_path``): where it is,
how it is started headless on a shared CI machine, and the marks that skip a browser test with a
clear message where it is absent. The ``browser`` fixture is tests/display/conftest.py's."""

from __future__ import annotations

import shutil

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
needs_chromium = pytest.mark.skipif(
    shutil.which(CHROMIUM) is None,
    reason=f"{CHROMIUM} is missing: apt-get install chromium to run the browser tests",
)
BROWSER_MARKS = [pytest.mark.browser, needs_chromium]  # a browser test module's pytestmark
