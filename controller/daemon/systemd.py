"""systemd's notify protocol for ``feltguard run`` (``Type=notify``, hardware/feltguard.service).

Thin on purpose: the ``sdnotify`` library speaks the protocol (research/ecosystem.md §5.2),
and this module says what the table tells systemd and when:

- ``READY=1`` once the journal is recovered, the readers are open and the web server listens
  (the caller knows when; ``Service.ready``);
- ``STATUS=`` the hand number and phase and each reader's health (``CardReader.stats``,
  ``ChipReader.stats``: connected, bad frames, a chip device's incomplete cycles, how long ago
  its last heartbeat), sent when the hand changes and
  refreshed every watchdog period;
- ``WATCHDOG=1`` every half of ``WATCHDOG_USEC`` (sd_watchdog_enabled(3)), but only while the
  thread that applies events is alive: each ping asks the daemon, under its lock, when the
  applying path last ran (``TableDaemon.heartbeat``). A core hung inside ``submit`` holds the
  lock, so the pings stop and systemd restarts the table; a blind timer would ping on;
- ``STOPPING=1`` on shutdown.

Without ``NOTIFY_SOCKET`` (a terminal, the tests' in-process tables) every notify is a no-op.
Device health is DESIGN.md's concern ("Durability and latency", the readers' heartbeats), not
a rulebook's.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import sdnotify

log = logging.getLogger("feltguard.service")

# Without a watchdog, how often STATUS is refreshed (the readers' health changes between events).
STATUS_EVERY_S = 5.0


class Notifier(Protocol):
    def notify(self, state: str) -> None: ...


class Readable(Protocol):
    """What the service reads of a card reader (drivers.card_reader.CardReader)."""

    name: str
    url: str

    @property
    def stats(self) -> Any: ...


class Heart(Protocol):
    """What the service asks of the daemon (controller.daemon.table_daemon.TableDaemon)."""

    @property
    def last_snapshot(self) -> Mapping[str, Any]: ...

    def heartbeat(self, timeout: float) -> float | None: ...


def notifier() -> Notifier:
    """A notifier on ``$NOTIFY_SOCKET`` (connected now: make it after the environment is set;
    a silent no-op without one)."""
    return sdnotify.SystemdNotifier()  # type: ignore[no-any-return]


def watchdog_period(environ: Mapping[str, str] | None = None) -> float | None:
    """systemd's watchdog period in seconds (``WATCHDOG_USEC``), or None when it is off."""
    env = os.environ if environ is None else environ
    try:
        usec = int(env.get("WATCHDOG_USEC", "0"))
    except ValueError:
        return None
    return usec / 1e6 if usec > 0 else None


def reader_health(reader: Readable, now: float) -> str:
    """One reader's health for STATUS: ``reader-0 /dev/pokershoe: connected, 0 bad frames,
    heartbeat 0.4 s ago``; a chip device (``ChipReaderStats``) also says its scan cycles
    dropped for a missing part, ``chips-0 /dev/feltchips: connected, 0 bad frames, 0 incomplete
    cycles, heartbeat 0.4 s ago`` (what the health monitor judges it by)."""
    stats = reader.stats
    beat = ("no heartbeat yet" if stats.last_heartbeat is None
            else f"heartbeat {max(now - stats.last_heartbeat, 0.0):.1f} s ago")
    state = "connected" if stats.connected else "disconnected"
    incomplete = getattr(stats, "incomplete_cycles", None)  # a card reader has none
    lost = "" if incomplete is None else f"{incomplete} incomplete cycles, "
    return f"{reader.name} {reader.url}: {state}, {stats.frames_bad} bad frames, {lost}{beat}"


def status_line(snapshot: Mapping[str, Any], readers: Sequence[Readable], now: float) -> str:
    """The STATUS= text: the hand and every reader's health."""
    hand = snapshot.get("hand", {})
    parts = [f"hand {hand.get('number', 0)} {hand.get('phase', 'idle')}"]
    parts += [reader_health(r, now) for r in readers] or ["no readers"]
    return "; ".join(parts)


class Service:
    """The table's side of the notify protocol. ``start()`` the status/watchdog thread,
    ``ready()`` once the table is up, ``stopping()`` first thing on shutdown; ``on_snapshot``
    is a daemon output (STATUS as the hand changes)."""

    def __init__(self, daemon: Heart, readers: Sequence[Readable],
                 notify: Notifier | None = None, *, watchdog_s: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.daemon = daemon
        self.readers = list(readers)
        self._notifier = notify if notify is not None else notifier()
        self.watchdog_s = watchdog_s
        self._clock = clock
        self._halt = threading.Event()
        self._thread: threading.Thread | None = None
        self._hand: tuple[Any, Any] | None = None
        self.pings = 0
        self.missed = 0  # periods without a ping: the applying path did not answer

    def notify(self, state: str) -> None:
        try:
            self._notifier.notify(state)
        except Exception:  # systemd gone: never a reason to stop the table
            log.debug("sd_notify %r failed", state, exc_info=True)

    def status(self) -> str:
        text = status_line(self.daemon.last_snapshot, self.readers, self._clock())
        self.notify(f"STATUS={text}")
        return text

    def on_snapshot(self, snapshot: Mapping[str, Any]) -> None:
        """A daemon output: STATUS when the hand's number or phase changes (not every event)."""
        hand = snapshot.get("hand", {})
        key = (hand.get("number"), hand.get("phase"))
        if key != self._hand:
            self._hand = key
            self.notify("STATUS=" + status_line(snapshot, self.readers, self._clock()))

    def ready(self) -> None:
        self.status()
        self.notify("READY=1")

    def stopping(self) -> None:
        """STOPPING=1, once (the first of the shutdown's steps to call it says it)."""
        if self._halt.is_set():
            return
        self._halt.set()
        self.notify("STOPPING=1")
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(5)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, daemon=True, name="sd-watchdog")
        self._thread.start()

    def _loop(self) -> None:
        # sd_watchdog_enabled(3): ping at half the period. The applying path (the daemon's
        # sensing tick, every 0.1 s, and every submit) must have run within the whole period.
        every = self.watchdog_s / 2 if self.watchdog_s else STATUS_EVERY_S
        while not self._halt.wait(every):
            if self.watchdog_s:
                beat = self.daemon.heartbeat(timeout=every)
                if beat is not None and self._clock() - beat < self.watchdog_s:
                    self.notify("WATCHDOG=1")
                    self.pings += 1
                else:
                    self.missed += 1
                    why = ("holds the daemon's lock" if beat is None
                           else f"last ran {self._clock() - beat:.1f} s ago")
                    log.error("no watchdog ping: the path that applies events %s (systemd "
                              "restarts the table)", why)
            if not self._halt.is_set():
                self.status()
