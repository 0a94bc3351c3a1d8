"""Fixtures for the driver tests: a simulated reader on a pty, real CardReaders, mock GPIO pins."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from drivers.card_reader import CardReader, TagRead
from drivers.simulated_reader import SimulatedReader

DEADLINE = 5.0  # seconds; generous for a loaded CI box, never reached when things work


def wait_until(predicate: Callable[[], bool], timeout: float = DEADLINE) -> bool:
    """Poll ``predicate`` until it holds or ``timeout`` passes; the caller asserts the result."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.002)
    return predicate()


@pytest.fixture
def link(tmp_path: Path) -> Path:
    return tmp_path / "pokershoe"


@pytest.fixture
def sim(link: Path) -> Iterator[SimulatedReader]:
    reader = SimulatedReader(link, reader_id=1)
    try:
        yield reader
    finally:
        reader.close()


class StartedReader:
    """A started CardReader plus the queue its reads land in."""

    def __init__(self, url: str, **kwargs: Any) -> None:
        self.reads: queue.Queue[TagRead] = queue.Queue()
        kwargs.setdefault("backoff", (0.01, 0.05))
        self.reader = CardReader(url, self.reads.put, **kwargs)
        self.reader.start()

    def next_read(self, timeout: float = DEADLINE) -> TagRead:
        return self.reads.get(timeout=timeout)


@pytest.fixture
def start_reader() -> Iterator[Callable[..., StartedReader]]:
    started: list[StartedReader] = []

    def start(url: str | Path, **kwargs: Any) -> StartedReader:
        handle = StartedReader(str(url), **kwargs)
        started.append(handle)
        return handle

    try:
        yield start
    finally:
        for handle in started:
            handle.reader.stop()
        assert not any(h.reader.is_alive() for h in started), "a CardReader did not stop"


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    saved = Device.pin_factory
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()  # closes devices and frees the pins for the next test
        Device.pin_factory = saved
