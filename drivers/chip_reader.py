"""The chip devices' driver: an RFID chip reader or a counting chip tray, over pyserial.

``ChipReader(url, on_inventory, on_tray=None)`` opens ``url`` on its own thread (the shared
``drivers.serial_reader.SerialFrameReader``: reconnect after an unplug, exclusive port, low
latency), parses the chip protocol (hardware/chip-protocol.md) with the one ``FrameParser`` and
the chip devices' frame table, puts each antenna's inventory parts back together and calls
``on_inventory(ChipInventory(...))`` once per antenna per scan cycle, and
``on_tray(TrayCounts(...))`` for each tray report. Both kinds of device are read the same way;
what a device sends says which it is.

The callbacks get raw cycles: a stack being built shows as growing inventories over several
cycles, and settling them is the sensing layer's job (controller/). Nothing raises into the
thread: a callback's exception is logged and counted in ``stats.callback_errors``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from drivers.chip_protocol import (
    CHIP_FRAMES,
    ChipFrame,
    ChipInventory,
    ChipStatus,
    InventoryAssembler,
    InventoryPart,
    TrayCounts,
    TrayFrame,
)
from drivers.reader_protocol import FrameParser, HeartbeatFrame
from drivers.serial_reader import SerialFrameReader

__all__ = ["ChipReader", "ChipReaderStats"]



@dataclass(frozen=True, slots=True)
class ChipReaderStats:
    """A consistent snapshot of a ``ChipReader``'s counters (hardware/chip-protocol.md,
    "Error counters"). The fields ``controller.sensing.health`` reads of a card reader's stats
    (connected, frames_bad, last_heartbeat, last_error, last_status) are here too."""

    connected: bool
    frames_ok: int
    frames_bad: int
    frames_unknown: int
    bytes_skipped: int
    frames_lost: int
    counter_resets: int
    inventories: int
    incomplete_cycles: int
    trays: int
    heartbeats: int
    reconnects: int
    callback_errors: int
    last_heartbeat: float | None
    last_error: str | None
    last_status: int = 0  # the STATUS byte of the last heartbeat: ChipStatus bits
    last_reader: int | None = None

    @property
    def status(self) -> ChipStatus:
        """The last heartbeat's status bits, decoded (reserved bits dropped)."""
        return ChipStatus(self.last_status & 0x1F)


class ChipReader(SerialFrameReader[ChipFrame]):
    """Reads one chip device (or a line of them, told apart by reader id) on a daemon thread.

    ``on_inventory``, ``on_tray`` and ``on_heartbeat`` run on this thread and must be quick and
    thread-safe. A tray report with no ``on_tray`` is counted and dropped.
    """

    kind = "chip reader"

    def __init__(
        self,
        url: str,
        on_inventory: Callable[[ChipInventory], Any],
        on_tray: Callable[[TrayCounts], Any] | None = None,
        *,
        baudrate: int = 115200,
        read_timeout: float = 0.05,
        on_heartbeat: Callable[[HeartbeatFrame], Any] | None = None,
        name: str = "chip-reader",
        backoff: tuple[float, float] = (0.05, 2.0),
    ) -> None:
        super().__init__(
            url,
            FrameParser(CHIP_FRAMES),
            baudrate=baudrate,
            read_timeout=read_timeout,
            name=name,
            backoff=backoff,
            on_heartbeat=on_heartbeat,
        )
        self._on_inventory = on_inventory
        self._on_tray = on_tray
        self._assembler = InventoryAssembler()
        self._trays = 0

    @property
    def stats(self) -> ChipReaderStats:
        with self._lock:
            return ChipReaderStats(inventories=self._assembler.inventories,
                                   incomplete_cycles=self._assembler.incomplete_cycles,
                                   trays=self._trays, **self._common_stats_locked())

    def _on_connect_locked(self) -> None:
        # Parts of a cycle sent before the line was cut can never be completed.
        self._assembler.reset()

    def _handle(self, frame: ChipFrame, received: float) -> None:
        if isinstance(frame, InventoryPart):
            with self._lock:
                inventory = self._assembler.add(frame, received)
            if inventory is not None:
                self._on_inventory(inventory)
        elif isinstance(frame, TrayFrame):
            with self._lock:
                self._trays += 1
            if self._on_tray is not None:
                self._on_tray(TrayCounts(frame.reader, frame.tubes, received))
        else:
            self._heartbeat(frame, received)
