"""Fixtures of the cardroom tests: a real redis-server per test (tests/central/servers.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.central.servers import REDIS_SERVER, RedisServer


@pytest.fixture
def redis_server(tmp_path) -> Iterator[RedisServer]:
    if REDIS_SERVER is None:
        pytest.skip("redis-server is missing: apt-get install redis-server to run the cardroom "
                    "tests")
    (tmp_path / "redis").mkdir()
    server = RedisServer(tmp_path / "redis").start()
    try:
        yield server
    finally:
        server.stop()
