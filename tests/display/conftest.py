"""A live display server per test: a fresh app (the Socket.IO test client patches its server,
research/ecosystem.md §3.4) on Werkzeug at 127.0.0.1 and a free port. The dealer token is the
test module's ``TOKEN``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from display.server import Publisher, ServerHandle, create_app, run_server


@pytest.fixture
def live(request: pytest.FixtureRequest) -> Iterator[tuple[ServerHandle, Publisher]]:
    app, sio, publisher = create_app(dealer_token=request.module.TOKEN)
    handle = run_server(app, sio, "127.0.0.1", 0)
    try:
        yield handle, publisher
    finally:
        handle.stop()
