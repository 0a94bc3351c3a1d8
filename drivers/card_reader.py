"""The card-reader driver: a thread that reads the shoe or the felt multiplexer over pyserial.

``CardReader(url, on_read)`` opens ``url`` (a device path such as ``/dev/pokershoe``, or any
pyserial URL: ``socket://``, ``rfc2217://``, ``spy://``), parses the wire protocol
(``hardware/reader-protocol.md``) and calls ``on_read(TagRead(...))`` on its own thread for every
good read frame. It survives the device being unplugged: it marks itself disconnected, retries
with backoff, and carries on at the same path when the device comes back.

Latency: the path from a frame's last byte to ``on_read`` must stay sub-millisecond, so the loop
reads whatever is waiting (or blocks for one byte with a short timeout), never sleeps, and the
USB adapter's latency timer is lowered where the adapter allows it.
"""

from __future__ import annotations

import logging
import os
import termios
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import serial

from drivers.reader_protocol import Frame, FrameParser, HeartbeatFrame, ReadFrame

__all__ = ["CardReader", "ReaderStats", "TagRead", "set_ftdi_latency_timer"]

log = logging.getLogger(__name__)

SYSFS_USB_SERIAL = Path("/sys/bus/usb-serial/devices")

# What a vanished or busy port raises: SerialException from read()/open(), a raw OSError (EIO)
# from in_waiting, and termios.error (not an OSError) from termios calls on a dead port.
PORT_ERRORS = (serial.SerialException, OSError, termios.error)


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


class CardReader(threading.Thread):
    """Reads frames from one serial port on a daemon thread; reconnects after an unplug.

    ``on_read`` and ``on_heartbeat`` run on this thread and must be quick and thread-safe; an
    exception they raise is logged and counted in ``stats.callback_errors``, and the reader goes
    on. ``connected`` is set while the port is open. Call ``start()``, then ``stop()``.
    """

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
        self._on_read = on_read
        self._on_heartbeat = on_heartbeat
        # Not `_stop`: that name would shadow Thread._stop() and break join().
        self._halt = threading.Event()
        self._lock = threading.Lock()
        self._parser = FrameParser()
        self._reads = 0
        self._heartbeats = 0
        self._reconnects = 0
        self._callback_errors = 0
        self._last_heartbeat: float | None = None
        self._last_error: str | None = None
        self._last_status = 0
        self._last_reader: int | None = None

    @property
    def stats(self) -> ReaderStats:
        with self._lock:
            p = self._parser
            return ReaderStats(
                connected=self.connected.is_set(),
                frames_ok=p.frames_ok,
                frames_bad=p.frames_bad,
                frames_unknown=p.frames_unknown,
                bytes_skipped=p.bytes_skipped,
                frames_lost=p.frames_lost,
                counter_resets=p.counter_resets,
                reads=self._reads,
                heartbeats=self._heartbeats,
                reconnects=self._reconnects,
                callback_errors=self._callback_errors,
                last_heartbeat=self._last_heartbeat,
                last_error=self._last_error,
                last_status=self._last_status,
                last_reader=self._last_reader,
            )

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
                        if ever_connected:
                            self._reconnects += 1
                        self._last_error = None
                    ever_connected = True
                    failing = False
                    delay = self.backoff[0]
                    self.connected.set()
                    log.info("card reader %s connected", self.url)
                    self._read_loop(port)
            except PORT_ERRORS as exc:
                self._note_failure(exc, warn=not failing)
                failing = True
            except Exception as exc:  # a bug must not end the only thread that reads cards
                if not failing:
                    log.exception("card reader %s: unexpected error", self.url)
                self._note_failure(exc, warn=False)
                failing = True
            finally:
                self.connected.clear()
            if self._halt.wait(delay):
                break
            delay = min(delay * 2, self.backoff[1])
        log.info("card reader %s stopped", self.url)

    def _open(self) -> serial.SerialBase:
        # exclusive=True: a second process opening the shoe fails loudly instead of stealing bytes.
        return serial.serial_for_url(
            self.url, baudrate=self.baudrate, timeout=self.read_timeout, exclusive=True
        )

    def _note_failure(self, exc: BaseException, *, warn: bool) -> None:
        with self._lock:
            self._last_error = f"{type(exc).__name__}: {exc}"
        if self.connected.is_set() or warn:
            log.warning("card reader %s: %s; retrying", self.url, exc)
        else:
            log.debug("card reader %s still unavailable: %s", self.url, exc)

    def _lower_latency(self, port: serial.SerialBase) -> None:
        set_low_latency = getattr(port, "set_low_latency_mode", None)
        if set_low_latency is not None:
            try:
                set_low_latency(True)
            except (ValueError, OSError, NotImplementedError) as exc:  # a pty has no such flag
                log.debug("low-latency mode not set on %s: %s", self.url, exc)
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

    def _dispatch(self, frame: Frame, received: float) -> None:
        try:
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
                with self._lock:
                    self._heartbeats += 1
                    self._last_heartbeat = received
                    self._last_status = frame.status
                    self._last_reader = frame.reader
                if self._on_heartbeat is not None:
                    self._on_heartbeat(frame)
        except Exception:
            with self._lock:
                self._callback_errors += 1
            log.exception("card reader %s: callback failed on %s", self.url, frame)
