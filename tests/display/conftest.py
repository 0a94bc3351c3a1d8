"""The browser (headless chromium, one per test module), and a live display server per test: a
fresh app served as ``feltguard run`` serves it (display/live.py) at 127.0.0.1 and a free port,
closed after the test. The dealer token is the test module's ``TOKEN``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from display.server import Publisher, ServerHandle, close_app, create_app, run_server
from tests.display.chromium import ARGS, CHROMIUM


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Debian chromium through Playwright, one per test module."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def live(request: pytest.FixtureRequest) -> Iterator[tuple[ServerHandle, Publisher]]:
    app, live_server, publisher = create_app(dealer_token=request.module.TOKEN)
    handle = run_server(app, live_server, "127.0.0.1", 0)
    try:
        yield handle, publisher
    finally:
        handle.stop()
        close_app(app)
