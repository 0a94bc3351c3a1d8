"""The thread every serial device driver runs: open the port, parse frames, survive an unplug.

``SerialFrameReader`` holds one pyserial port on a daemon thread: it opens ``url`` (a device path
such as ``/dev/pokershoe``, or any pyserial URL: ``socket://``, ``rfc2217://``, ``spy://``), feeds
what arrives to a ``FrameParser`` of its device's ``FrameTable`` and hands the good frames to the
subclass's ``_handle``. When the device is unplugged it marks itself disconnected, retries with
backoff and carries on at the same path when the device comes back. ``CardReader``
(drivers/card_reader.py) and ``ChipReader`` (drivers/chip_reader.py) are its two kinds.

Latency: the path from a frame's last byte to ``_handle`` must stay sub-millisecond, so the
loop reads whatever is waiting (or blocks for one byte with a short timeout), never sleeps, and
the USB adapter's latency timer is lowered where the adapter allows it.
"""

from __future__ import annotations

import logging
import os
import termios
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Generic, TypeVar

import serial

from drivers.reader_protocol import FrameParser, HeartbeatFrame

__all__ = ["PORT_ERRORS", "SYSFS_USB_SERIAL", "SerialFrameReader", "set_ftdi_latency_timer"]

log = logging.getLogger(__name__)

SYSFS_USB_SERIAL = Path("/sys/bus/usb-serial/devices")

# What a vanished or busy port raises: SerialException from read()/open(), a raw OSError (EIO)
# from in_waiting, and termios.error (not an OSError) from termios calls on a dead port.
PORT_ERRORS = (serial.SerialException, OSError, termios.error)

F = TypeVar("F")


def set_ftdi_latency_timer(
    device: str, milliseconds: int = 1, sysfs_root: Path = SYSFS_USB_SERIAL
) -> bool:
    """Lower an FTDI adapter's latency timer (16 ms by default) for ``device``; best effort.

    Only USB serial adapters whose driver exposes ``latency_timer`` in sysfs have one (FTDI);
    a pty, a CDC-ACM device or a network URL has none. Returns True when the value was written.
    """
    if "://" in device:
        return False
    tty = os.path.basename(os.path.realpath(device))
    knob = sysfs_root / tty / "latency_timer"
    try:
        knob.write_text(f"{milliseconds}\n", encoding="ascii")
    except OSError as exc:  # absent for non-FTDI devices; read-only without a udev rule or root
        log.debug("latency timer of %s not lowered: %s", device, exc)
        return False
    log.debug("latency timer of %s set to %d ms", device, milliseconds)
    return True


class SerialFrameReader(threading.Thread, Generic[F]):
    """Reads frames from one serial port on a daemon thread; reconnects after an unplug.

    A subclass gives the parser (its device's frame table) and ``_handle``, which runs on this
    thread for every good frame and must never raise. ``connected`` is set while the port is
    open. Call ``start()``, then ``stop()``. ``kind`` names the device in the log.
    """

    kind = "serial device"

    def __init__(
        self,
        url: str,
        parser: FrameParser[F],
        *,
        baudrate: int,
        read_timeout: float,
        name: str,
        backoff: tuple[float, float],
        on_heartbeat: Callable[[HeartbeatFrame], Any] | None = None,
    ) -> None:
        super().__init__(daemon=True, name=name)
        if read_timeout <= 0:
            raise ValueError("read_timeout must be > 0 (0 would spin, None could never stop)")
        if not 0 < backoff[0] <= backoff[1]:
            raise ValueError(f"backoff must be (first, max) with 0 < first <= max, got {backoff}")
        self.url = url
        self.baudrate = baudrate
        self.read_timeout = read_timeout
        self.backoff = backoff
        self.connected = threading.Event()
        # Not `_stop`: that name would shadow Thread._stop() and break join().
        self._halt = threading.Event()
        self._lock = threading.Lock()
        self._parser = parser
        self._reconnects = 0
        self._last_error: str | None = None
        # what every device sends alike: heartbeats (hardware/reader-protocol.md), and the
        # callbacks' failures, counted and never raised into this thread
        self._on_heartbeat = on_heartbeat
        self._heartbeats = 0
        self._callback_errors = 0
        self._last_heartbeat: float | None = None
        self._last_status = 0
        self._last_reader: int | None = None
        # Each kind logs under its own module's name (drivers.card_reader, drivers.chip_reader).
        self._log = logging.getLogger(type(self).__module__)

    def stop(self, timeout: float | None = 5.0) -> None:
        """Ask the thread to finish and wait for it (at most ``timeout`` seconds)."""
        self._halt.set()
        if self.is_alive() and threading.current_thread() is not self:
            self.join(timeout)

    def run(self) -> None:
        delay = self.backoff[0]
        ever_connected = False
        failing = False
        while not self._halt.is_set():
            try:
                with self._open() as port:
                    self._lower_latency(port)
                    with self._lock:
                        self._parser.clear()  # a partial frame from before an unplug is junk
                        self._on_connect_locked()
                        if ever_connected:
                            self._reconnects += 1
                        self._last_error = None
                    ever_connected = True
                    failing = False
                    delay = self.backoff[0]
                    self.connected.set()
                    self._log.info("%s %s connected", self.kind, self.url)
                    self._read_loop(port)
            except PORT_ERRORS as exc:
                self._note_failure(exc, warn=not failing)
                failing = True
            except Exception as exc:  # a bug must not end the only thread that reads the device
                if not failing:
                    self._log.exception("%s %s: unexpected error", self.kind, self.url)
                self._note_failure(exc, warn=False)
                failing = True
            finally:
                self.connected.clear()
            if self._halt.wait(delay):
                break
            delay = min(delay * 2, self.backoff[1])
        self._log.info("%s %s stopped", self.kind, self.url)

    def _on_connect_locked(self) -> None:
        """Called under the lock each time the port is (re)opened; for a subclass's own state."""

    def _dispatch(self, frame: F, received: float) -> None:
        """One good frame, on this thread: the subclass's ``_handle``; a callback that raises
        is logged and counted (``callback_errors``), and the reader goes on."""
        try:
            self._handle(frame, received)
        except Exception:
            with self._lock:
                self._callback_errors += 1
            self._log.exception("%s %s: callback failed on %s", self.kind, self.url, frame)

    def _handle(self, frame: F, received: float) -> None:
        raise NotImplementedError

    def _heartbeat(self, frame: HeartbeatFrame, received: float) -> None:
        """A heartbeat: counted, its time, status and reader id kept, then ``on_heartbeat``."""
        with self._lock:
            self._heartbeats += 1
            self._last_heartbeat = received
            self._last_status = frame.status
            self._last_reader = frame.reader
        if self._on_heartbeat is not None:
            self._on_heartbeat(frame)

    def _common_stats_locked(self) -> dict[str, Any]:
        """The counters every device's stats share (the caller holds the lock)."""
        p = self._parser
        return {
            "connected": self.connected.is_set(), "frames_ok": p.frames_ok,
            "frames_bad": p.frames_bad, "frames_unknown": p.frames_unknown,
            "bytes_skipped": p.bytes_skipped, "frames_lost": p.frames_lost,
            "counter_resets": p.counter_resets, "heartbeats": self._heartbeats,
            "reconnects": self._reconnects, "callback_errors": self._callback_errors,
            "last_heartbeat": self._last_heartbeat, "last_error": self._last_error,
            "last_status": self._last_status, "last_reader": self._last_reader,
        }

    def _open(self) -> serial.SerialBase:
        # exclusive=True: a second process opening the port fails loudly instead of stealing bytes.
        return serial.serial_for_url(
            self.url, baudrate=self.baudrate, timeout=self.read_timeout, exclusive=True
        )

    def _note_failure(self, exc: BaseException, *, warn: bool) -> None:
        with self._lock:
            self._last_error = f"{type(exc).__name__}: {exc}"
        if self.connected.is_set() or warn:
            self._log.warning("%s %s: %s; retrying", self.kind, self.url, exc)
        else:
            self._log.debug("%s %s still unavailable: %s", self.kind, self.url, exc)

    def _lower_latency(self, port: serial.SerialBase) -> None:
        set_low_latency = getattr(port, "set_low_latency_mode", None)
        if set_low_latency is not None:
            try:
                set_low_latency(True)
            except (ValueError, OSError, NotImplementedError) as exc:  # a pty has no such flag
                self._log.debug("low-latency mode not set on %s: %s", self.url, exc)
        device = getattr(port, "port", None)
        set_ftdi_latency_timer(device if isinstance(device, str) else self.url)

    def _read_loop(self, port: serial.SerialBase) -> None:
        while not self._halt.is_set():
            # Blocks for the first byte (at most read_timeout, so stop() is noticed), then takes
            # everything already waiting: no sleep and no fixed-size read between byte and frame.
            chunk = port.read(port.in_waiting or 1)
            if not chunk:
                continue
            received = time.monotonic()
            with self._lock:
                frames = self._parser.feed(chunk)
            for frame in frames:
                self._dispatch(frame, received)
