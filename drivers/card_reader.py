"""The card-reader driver: a thread that reads the shoe or the felt multiplexer over pyserial.

``CardReader(url, on_read)`` opens ``url`` (a device path such as ``/dev/pokershoe``, or any
pyserial URL: ``socket://``, ``rfc2217://``, ``spy://``), parses the wire protocol
(``hardware/reader-protocol.md``) and calls ``on_read(TagRead(...))`` on its own thread for every
good read frame. It survives the device being unplugged: it marks itself disconnected, retries
with backoff, and carries on at the same path when the device comes back. The port, the thread
and the reconnection are ``drivers.serial_reader.SerialFrameReader``'s, shared with the chip
devices' driver; this module holds what is the card readers' own.

Latency: the path from a frame's last byte to ``on_read`` must stay sub-millisecond, so the loop
reads whatever is waiting (or blocks for one byte with a short timeout), never sleeps, and the
USB adapter's latency timer is lowered where the adapter allows it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from drivers.reader_protocol import Frame, FrameParser, HeartbeatFrame, ReadFrame
from drivers.serial_reader import (
    PORT_ERRORS,
    SYSFS_USB_SERIAL,
    SerialFrameReader,
    set_ftdi_latency_timer,
)

__all__ = [
    "PORT_ERRORS",
    "SYSFS_USB_SERIAL",
    "CardReader",
    "ReaderStats",
    "TagRead",
    "set_ftdi_latency_timer",
]



@dataclass(frozen=True, slots=True)
class TagRead:
    """One good read frame, stamped with ``time.monotonic()`` when its last byte was read."""

    reader: int
    antenna: int
    uid: str
    face_up: bool
    counter: int
    received_monotonic: float


@dataclass(frozen=True, slots=True)
class ReaderStats:
    """A consistent snapshot of a ``CardReader``'s counters (see hardware/reader-protocol.md)."""

    connected: bool
    frames_ok: int
    frames_bad: int
    frames_unknown: int
    bytes_skipped: int
    frames_lost: int
    counter_resets: int
    reads: int
    heartbeats: int
    reconnects: int
    callback_errors: int
    last_heartbeat: float | None
    last_error: str | None
    # The STATUS byte of the last heartbeat (antenna or face-sensor fault, overflow, collision:
    # hardware/reader-protocol.md) and the reader id that sent it; the health monitor reads them.
    last_status: int = 0
    last_reader: int | None = None


class CardReader(SerialFrameReader[Frame]):
    """Reads frames from one serial port on a daemon thread; reconnects after an unplug.

    ``on_read`` and ``on_heartbeat`` run on this thread and must be quick and thread-safe; an
    exception they raise is logged and counted in ``stats.callback_errors``, and the reader goes
    on. ``connected`` is set while the port is open. Call ``start()``, then ``stop()``.
    """

    kind = "card reader"

    def __init__(
        self,
        url: str,
        on_read: Callable[[TagRead], Any],
        *,
        baudrate: int = 115200,
        read_timeout: float = 0.05,
        on_heartbeat: Callable[[HeartbeatFrame], Any] | None = None,
        name: str = "card-reader",
        backoff: tuple[float, float] = (0.05, 2.0),
    ) -> None:
        super().__init__(
            url,
            FrameParser(),
            baudrate=baudrate,
            read_timeout=read_timeout,
            name=name,
            backoff=backoff,
            on_heartbeat=on_heartbeat,
        )
        self._on_read = on_read
        self._reads = 0

    @property
    def stats(self) -> ReaderStats:
        with self._lock:
            return ReaderStats(reads=self._reads, **self._common_stats_locked())

    def _handle(self, frame: Frame, received: float) -> None:
        if isinstance(frame, ReadFrame):
            with self._lock:
                self._reads += 1
            self._on_read(
                TagRead(
                    reader=frame.reader,
                    antenna=frame.antenna,
                    uid=frame.uid,
                    face_up=frame.face_up,
                    counter=frame.counter,
                    received_monotonic=received,
                )
            )
        else:
            self._heartbeat(frame, received)
