"""The chip devices' simulated twin: a pty speaking the chip protocol (hardware/chip-protocol.md).

``SimulatedChipReader(link_path)`` is a ``SimulatedReader`` (drivers/simulated_reader.py: the pty
pair, the symlink, ``plug()``/``unplug()``, ``send_raw``, heartbeats, frame counters) that plays
one chip device:

- ``kind="rfid"``: an RFID chip reader. Each antenna holds the uids placed there (``place``,
  ``remove``, ``move``); each scan cycle sends every antenna's full inventory, in parts, an empty
  antenna included. ``build(antenna, uids, per_cycle=n)`` puts a stack down a few chips a cycle,
  as a reader sees a stack being built; ``shift(moves)`` moves chips between antennas (or on
  and off them) in one motion, between two cycles.
- ``kind="tray"``: a counting tray; ``set_tray(tubes)`` sets its ``(tube, denomination, count)``
  and each cycle reports them.

``scan()`` runs one cycle at once (tests step it); ``start_scanning()`` runs a cycle every
``cycle_ms`` on a daemon thread, as the device does. Only send after the driver is connected:
pyserial flushes its input when it opens the port.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterable, Mapping
from functools import partial

from drivers.chip_protocol import (
    CYCLE_MODULUS,
    DEVICE_KINDS,
    encode_chip_heartbeat,
    encode_inventory_part,
    encode_tray,
    inventory_parts,
)
from drivers.reader_protocol import uid_bytes
from drivers.simulated_reader import SimulatedReader

__all__ = ["SimulatedChipReader"]

log = logging.getLogger(__name__)

class SimulatedChipReader(SimulatedReader):
    """A virtual RFID chip reader or counting tray behind a symlinked pty."""

    def __init__(
        self,
        link_path: str | os.PathLike[str],
        *,
        reader_id: int = 3,
        kind: str = "rfid",
        antennas: Iterable[int] = (),
        cycle_ms: int = 250,
        plugged: bool = True,
        write_timeout: float = 2.0,
    ) -> None:
        if kind not in DEVICE_KINDS:
            raise ValueError(f"kind must be one of {', '.join(DEVICE_KINDS)}, got {kind!r}")
        if cycle_ms <= 0:
            raise ValueError(f"cycle_ms must be > 0, got {cycle_ms}")
        self.kind = kind
        self.cycle_ms = cycle_ms
        self._state = threading.Lock()  # the chips and the cycle; never held while writing
        self._zones: dict[int, list[str]] = {a: [] for a in antennas}
        self._building: dict[int, tuple[list[str], int]] = {}
        self._tubes: tuple[tuple[int, int, int], ...] = ()
        self._cycle = 0
        self._scan_thread: threading.Thread | None = None
        self._scan_halt = threading.Event()
        super().__init__(link_path, reader_id=reader_id, plugged=plugged,
                         write_timeout=write_timeout)

    def plug(self, *, power_on: bool = True) -> None:
        """Connect the device; on power-on its frame counter and cycle number restart at 0."""
        fresh = not self.plugged
        super().plug(power_on=power_on)
        if fresh and power_on:
            with self._state:
                self._cycle = 0

    def close(self) -> None:
        self.stop_scanning()
        super().close()

    # --- the chips on the antennas -------------------------------------------------------------

    def place(self, antenna: int, uids: Iterable[str]) -> None:
        """Put chips down on ``antenna`` (seen from the next cycle on)."""
        new = [uid_bytes(u).hex().upper() for u in uids]
        with self._state:
            zone = self._zones.setdefault(antenna, [])
            zone += [u for u in new if u not in zone]

    def remove(self, antenna: int, uids: Iterable[str] | None = None) -> list[str]:
        """Take chips off ``antenna`` (all of them when ``uids`` is None); returns those taken."""
        with self._state:
            zone = self._zones.setdefault(antenna, [])
            gone = list(zone) if uids is None else [u.upper() for u in uids if u.upper() in zone]
            zone[:] = [u for u in zone if u not in gone]
            return gone

    def move(self, source: int, target: int, uids: Iterable[str] | None = None) -> list[str]:
        """Slide chips from ``source`` to ``target`` between two cycles; returns those moved."""
        with self._state:
            zone = self._zones.setdefault(source, [])
            moved = list(zone) if uids is None else [u.upper() for u in uids if u.upper() in zone]
            zone[:] = [u for u in zone if u not in moved]
            dest = self._zones.setdefault(target, [])
            dest += [u for u in moved if u not in dest]
            return moved

    def shift(self, moves: Iterable[tuple[int | None, int | None, Iterable[str]]]) -> None:
        """Several chips moved in one motion, all between the same two cycles: each move is
        (source, target, uids), None for off every antenna (a player's hand, the cage)."""
        with self._state:
            for source, target, uids in moves:
                chips = [uid_bytes(u).hex().upper() for u in uids]
                if source is not None:
                    zone = self._zones.setdefault(source, [])
                    zone[:] = [u for u in zone if u not in chips]
                if target is not None:
                    dest = self._zones.setdefault(target, [])
                    dest += [u for u in chips if u not in dest]

    def build(self, antenna: int, uids: Iterable[str], per_cycle: int = 2) -> None:
        """Build a stack on ``antenna``: ``per_cycle`` more of ``uids`` appear at each cycle."""
        if per_cycle < 1:
            raise ValueError(f"per_cycle must be at least 1, got {per_cycle}")
        todo = [uid_bytes(u).hex().upper() for u in uids]
        with self._state:
            self._zones.setdefault(antenna, [])
            queued, _ = self._building.get(antenna, ([], per_cycle))
            self._building[antenna] = (queued + todo, per_cycle)

    def chips(self, antenna: int) -> tuple[str, ...]:
        """The uids on ``antenna`` now (what the next cycle reports, builds aside)."""
        with self._state:
            return tuple(self._zones.get(antenna, ()))

    def set_tray(self, tubes: Iterable[tuple[int, int, int]]) -> None:
        """The tray's ``(tube, denomination, count)`` per tube, reported from the next cycle."""
        with self._state:
            self._tubes = tuple(tubes)

    # --- what the device sends -------------------------------------------------------------------

    def scan(self, *, lose: Mapping[int, int] | None = None) -> int:
        """Run one scan cycle now: send every antenna's inventory (rfid) or the tray's counts
        (tray). ``lose`` maps an antenna to the index of a part lost on the wire (its counter is
        spent, its bytes never sent). Returns the cycle's number."""
        with self._state:
            cycle = self._cycle
            self._cycle = (cycle + 1) % CYCLE_MODULUS
            for antenna, (queued, per_cycle) in list(self._building.items()):
                zone = self._zones[antenna]
                zone += [u for u in queued[:per_cycle] if u not in zone]
                if len(queued) > per_cycle:
                    self._building[antenna] = (queued[per_cycle:], per_cycle)
                else:
                    del self._building[antenna]
            zones = {a: tuple(z) for a, z in sorted(self._zones.items())}
            tubes = self._tubes
        rid = self.reader_id
        if self.kind == "tray":
            if tubes:
                self._send(rid, lambda counter: encode_tray(rid, tubes, counter))
            return cycle
        lost = dict(lose or {})
        for antenna, uids in zones.items():
            parts = inventory_parts(uids)
            for index, chunk in enumerate(parts):
                if lost.get(antenna) == index:
                    self.skip_counter(rid)
                    continue
                self._send(rid, partial(encode_inventory_part, rid, antenna, cycle, index,
                                        len(parts), chunk))
        return cycle

    def send_chip_heartbeat(self, status: int = 0) -> bytes:
        """One heartbeat with ``ChipStatus`` bits; returns the bytes sent."""
        rid = self.reader_id
        return self._send(rid, lambda counter: encode_chip_heartbeat(rid, counter, status))

    def start_scanning(self, cycle_ms: int | None = None) -> None:
        """Run a scan cycle every ``cycle_ms`` (default: the device's) while plugged."""
        if self._scan_thread is not None:
            return
        period = (cycle_ms or self.cycle_ms) / 1000
        self._scan_halt.clear()

        def cycles() -> None:
            while not self._scan_halt.wait(period):
                if not self.plugged:
                    continue
                try:
                    self.scan()
                except (OSError, TimeoutError, RuntimeError) as exc:  # unplugged meanwhile
                    log.debug("simulated scan cycle not sent: %s", exc)

        self._scan_thread = threading.Thread(target=cycles, name="simulated-chip-scan",
                                             daemon=True)
        self._scan_thread.start()

    def stop_scanning(self) -> None:
        thread = self._scan_thread
        if thread is None:
            return
        self._scan_halt.set()
        thread.join(5)
        self._scan_thread = None

    def _send(self, reader: int, encode: Callable[[int], bytes]) -> bytes:
        with self._lock:
            frame = encode(self._counters.get(reader, 0))
            self._write_locked(frame)
            self._advance(reader)
        return frame
