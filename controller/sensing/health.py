"""The readers' health monitor: a thin shell thread that turns the device drivers' ``stats``
into events.

Every ``poll_s`` it judges each configured device from its stats: the card readers
(``[[readers]]``, ``drivers.card_reader``) and the chip devices (``[[chip_readers]]``,
``drivers.chip_reader``: an RFID chip reader or a counting tray, which speak the same heartbeat):

- ``offline``: the port is not open (unplugged, or never opened);
- ``silent``: open, but no heartbeat for ``missed_heartbeats`` periods (three missed heartbeats,
  1.5 s, by default: hardware/reader-protocol.md, "Error counters");
- ``fault``: the last heartbeat's STATUS has a fault bit set: ANTENNA_FAULT or FACE_SENSOR_FAULT
  of a card reader, ANTENNA_FAULT or SENSOR_FAULT of a chip device (hardware/chip-protocol.md:
  the same two bit positions);
- ``unresolved``: a chip reader's heartbeats have said COLLISION (hardware/chip-protocol.md:
  an anticollision it gave up on) for ``unresolved_heartbeats`` heartbeats in a row: a stack
  too tall to resolve lies on an antenna, and its chips are not all read. A single cycle's
  collision, like OVERFLOW and CYCLE_OVERRUN, is not judged: it says one cycle may have missed
  chips, which chip sensing's settle time absorbs;
- ``noisy``: more than ``bad_frames_per_minute`` bad frames in the last minute; for a chip
  device also more than ``incomplete_cycles_per_minute`` scan cycles dropped for a missing part
  (``incomplete_cycles``: an antenna's inventory lost whole, the same loss a bad frame is to a
  card read);
- ``ok`` otherwise (the loudest state wins, in that order).

On each change of a reader's state (never on every poll) it submits a ``reader.health`` event
through the daemon's one submit path (journal first, then the rules core, which raises the
finding: controller/rules/table/devices.py; then the LEDs and the views). Where no rulebook speaks
it follows the design brief (shared/DESIGN.md, "Data flows one way": the drivers own device health).
The state it starts from is the one the journal holds, so a restart reports only what changed.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from controller.events import Body, ReaderHealth
from controller.rules import CHIP_READER, COUNTING_TRAY
from drivers.chip_protocol import ChipStatus  # the pure codec: its status bits, no I/O

__all__ = ["HealthMonitor", "Watched", "chip_reader_name", "judge", "reader_name"]

log = logging.getLogger("feltguard.health")

ANTENNA_FAULT = 0x01  # hardware/reader-protocol.md, heartbeat STATUS bit 0
FACE_SENSOR_FAULT = 0x02  # bit 1
# What each fault bit means, per kind of device (a chip device's own bits: ChipStatus,
# hardware/chip-protocol.md, "Heartbeat").
FAULTS: dict[str, tuple[tuple[int, str], ...]] = {
    "card": ((ANTENNA_FAULT, "an antenna is open or shorted: cards on it are not seen"),
             (FACE_SENSOR_FAULT, "the face-up sensor does not answer: a card dealt face up is "
                                 "not seen")),
    "chip": ((ChipStatus.ANTENNA_FAULT, "an antenna is open or shorted: chips on it are not "
                                        "seen"),
             (ChipStatus.SENSOR_FAULT, "a tube sensor or multiplexer channel does not answer: "
                                       "chips there are not counted")),
}
# bad_frames_per_minute and incomplete_cycles_per_minute count over this trailing window
NOISE_WINDOW_S = 60.0


class StatsLike(Protocol):
    """What the monitor reads of ``drivers.card_reader.ReaderStats``."""

    @property
    def connected(self) -> bool: ...
    @property
    def frames_bad(self) -> int: ...
    @property
    def last_heartbeat(self) -> float | None: ...
    @property
    def last_error(self) -> str | None: ...
    @property
    def last_status(self) -> int: ...


@dataclass
class Watched:
    """One reader under watch: its id, the name the dealer knows it by, and its stats;
    ``kind`` "card" (``CardReader``) or "chip" (``ChipReader``, whose stats also count
    ``incomplete_cycles``)."""

    reader: int
    name: str
    stats: Callable[[], StatsLike]
    kind: str = "card"
    # what the monitor remembers between polls
    connected_since: float | None = None
    seen_offline: bool = False
    bad_samples: deque[tuple[float, int, int]] = field(default_factory=deque)
    collision_since: float | None = None  # the first of the heartbeats in a row with COLLISION


def judge(w: Watched, s: StatsLike, now: float, *, silent_after_s: float,
          bad_per_minute: int, incomplete_per_minute: int = 20,
          unresolved_after_s: float = 1.0) -> tuple[str, str]:
    """(state, detail) of one reader now (state "" while undecided); updates ``w``'s memory
    of connections and noise."""
    if not s.connected:
        w.connected_since = None
        w.seen_offline = True
        return "offline", s.last_error or "the port is not open"
    if w.connected_since is None:
        # reopened since we saw it closed: from now; else it was open before we first looked
        w.connected_since = now if w.seen_offline or s.last_heartbeat is None else \
            min(now, s.last_heartbeat)
    # a heartbeat from before the port was last opened says nothing about the device now
    beat = s.last_heartbeat if s.last_heartbeat is not None and \
        s.last_heartbeat >= w.connected_since else None
    quiet = now - (beat if beat is not None else w.connected_since)
    if quiet > silent_after_s:
        return "silent", f"no heartbeat for {quiet:.1f} s"
    if beat is None:
        return "", ""  # just (re)opened: undecided until a heartbeat comes or the limit passes
    faults = [what for bit, what in FAULTS[w.kind] if s.last_status & bit]
    if faults:
        return "fault", "; ".join(faults)
    if w.kind == "chip" and s.last_status & ChipStatus.COLLISION:
        if w.collision_since is None or w.collision_since > beat:
            w.collision_since = beat
        if beat - w.collision_since >= unresolved_after_s:
            return "unresolved", (f"its anticollision has left chips unread in every "
                                  f"heartbeat for {unresolved_after_s:.1f} s")
    else:
        w.collision_since = None
    # a card reader's stats have no incomplete cycles: 0, never noisy for them
    incomplete = int(getattr(s, "incomplete_cycles", 0))
    samples = w.bad_samples
    if samples and (s.frames_bad < samples[-1][1] or incomplete < samples[-1][2]):
        samples.clear()  # a fresh driver: its counters started again
    samples.append((now, s.frames_bad, incomplete))
    while len(samples) > 1 and samples[1][0] <= now - NOISE_WINDOW_S:
        samples.popleft()  # keep one sample at or before the window's start
    bad = s.frames_bad - samples[0][1]
    if bad > bad_per_minute:
        return "noisy", f"{bad} bad frames in the last minute (limit {bad_per_minute})"
    lost = incomplete - samples[0][2]
    if lost > incomplete_per_minute:
        return "noisy", (f"{lost} scan cycles lost for a missing part in the last minute "
                         f"(limit {incomplete_per_minute})")
    return "ok", ""


class HealthMonitor:
    """Polls the readers on its own daemon thread and submits each change of state.

    ``submit`` is the daemon's ``TableDaemon.submit``; ``known`` the reader states the journal
    already holds (the snapshot's ``devices``), so nothing already journaled is said twice.
    For ``startup_s`` after ``start`` only an ``ok`` is reported: the ports are still opening.
    """

    def __init__(
        self,
        readers: Sequence[Watched],
        submit: Callable[[Body], Any],
        *,
        heartbeat_ms: int = 500,
        missed_heartbeats: int = 3,
        bad_frames_per_minute: int = 20,
        incomplete_cycles_per_minute: int = 20,
        unresolved_heartbeats: int = 3,
        known: Sequence[Mapping[str, Any]] = (),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.readers = list(readers)
        self.submit = submit
        self.silent_after_s = heartbeat_ms * missed_heartbeats / 1000
        self.bad_per_minute = bad_frames_per_minute
        self.incomplete_per_minute = incomplete_cycles_per_minute
        # the first heartbeat with COLLISION and the next ones, all in a row
        self.unresolved_after_s = heartbeat_ms * max(unresolved_heartbeats - 1, 0) / 1000
        self.poll_s = min(max(heartbeat_ms / 5000, 0.02), 0.5)
        self.startup_s = self.silent_after_s
        self._clock = clock
        self._started = clock()
        self.reported: dict[int, str] = {
            d["reader"]: d["state"] for d in known
            if isinstance(d.get("reader"), int) and isinstance(d.get("state"), str)}
        self.submit_errors = 0
        self._halt = threading.Event()
        self._thread: threading.Thread | None = None

    def poll(self) -> list[ReaderHealth]:
        """Judge every reader once and submit what changed; returns the bodies submitted."""
        now = self._clock()
        starting = now - self._started < self.startup_s
        sent = []
        for w in self.readers:
            state, detail = judge(w, w.stats(), now, silent_after_s=self.silent_after_s,
                                  bad_per_minute=self.bad_per_minute,
                                  incomplete_per_minute=self.incomplete_per_minute,
                                  unresolved_after_s=self.unresolved_after_s)
            if not state or state == self.reported.get(w.reader) or \
                    (starting and state != "ok"):
                continue
            body = ReaderHealth(reader=w.reader, state=state, name=w.name, detail=detail)
            try:
                self.submit(body)
            except Exception:  # the journal refused it: say so, and try again next poll
                self.submit_errors += 1
                log.exception("reader.health for reader %d not submitted", w.reader)
                continue
            log.log(logging.INFO if state == "ok" else logging.WARNING,
                    "reader %d (%s): %s %s", w.reader, w.name, state, detail)
            self.reported[w.reader] = state
            sent.append(body)
        return sent

    def start(self) -> None:
        self._started = self._clock()
        self._thread = threading.Thread(target=self._run, daemon=True, name="reader-health")
        self._thread.start()

    def stop(self) -> None:
        self._halt.set()
        if self._thread is not None:
            self._thread.join(5)

    def _run(self) -> None:
        while not self._halt.wait(self.poll_s):
            try:
                self.poll()
            except Exception:  # a bug here must not end the watch
                log.exception("reader health poll failed")


def reader_name(reader: int, antennas: Mapping[tuple[int, int], str]) -> str:
    """What the dealer calls reader ``reader``: "shoe" if an antenna of it is the shoe's."""
    zones = {zone for (rid, _), zone in antennas.items() if rid == reader}
    return "shoe" if "shoe" in zones else "felt" if zones else ""


def chip_reader_name(kind: str) -> str:
    """What the dealer calls a chip device of ``kind`` (``[[chip_readers]] kind``): "chip"
    (the core shows it as "the chip reader (reader 3)") or "counting tray"."""
    return COUNTING_TRAY if kind == "tray" else CHIP_READER
