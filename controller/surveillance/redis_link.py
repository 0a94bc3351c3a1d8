"""A Redis connection kept up on a thread of its own: the table's relay and the cardroom's
collector each hold one.

Each round connects, has the owner ``greet`` Redis (its first commands: the link is up once they
are answered) and ``serve`` until halted. A failure the owner names in ``errors`` ends the round:
the owner's ``failed`` says what went wrong, the client is closed, and the next round starts
after a wait that doubles from the backoff's first bound to its second, back to the first once
the link was up. A halt ends the wait at once.

The doubling is kept here rather than in redis-py's ``ExponentialBackoff``, whose
``base * 2**failures`` overflows a float after about a thousand failures: at a 5 s cap, an
outage of an hour and a half would end the thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import redis

__all__ = ["RedisLink", "one_line"]


def one_line(exc: BaseException) -> str:
    """An error as one line, for a status or a log (Redis's messages may span lines)."""
    return " ".join(str(exc).split()) or type(exc).__name__


class RedisLink:
    """Keeps a client of ``url`` (made by ``client``) up for ``serve``, on thread ``name``.

    ``failed(exc, delay, first)`` returns the error to show; ``delay`` is the wait before the
    next round, ``first`` whether it is the first failure since the link was up (or started),
    so an owner can say an outage once. ``connected`` and ``error`` say how the link is now."""

    def __init__(self, url: str, *, name: str, client: Callable[[str], Any],
                 greet: Callable[[Any], None], serve: Callable[[Any], None],
                 failed: Callable[[Exception, float, bool], str],
                 errors: tuple[type[Exception], ...] = (redis.RedisError,),
                 backoff: tuple[float, float] = (0.2, 5.0)) -> None:
        self.url = url
        self.halt = threading.Event()  # serve returns once it is set
        self.connected = False
        self.error = ""
        self._name = name
        self._client = client
        self._greet = greet
        self._serve = serve
        self._failed = failed
        self._errors = errors
        self._backoff = backoff
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
        self._thread.start()

    def stop(self, timeout: float, *wake: threading.Event) -> None:
        """Halt, then set each of the owner's ``wake`` events (so a serve waiting on one sees
        the halt at once), and wait up to ``timeout`` seconds for the thread."""
        self.halt.set()
        for event in wake:
            event.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        delay = self._backoff[0]
        while not self.halt.is_set():
            client = None
            try:
                client = self._client(self.url)
                self._greet(client)
                self.connected, self.error, delay = True, "", self._backoff[0]
                self._serve(client)
            except self._errors as exc:
                first = self.connected or not self.error
                self.connected, self.error = False, self._failed(exc, delay, first)
            finally:
                if client is not None:
                    client.close()
            self.halt.wait(delay)
            delay = min(delay * 2, self._backoff[1])
