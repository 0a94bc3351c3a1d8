"""The card reader's simulated twin: a pty pair that speaks the reader wire protocol.

``SimulatedReader(link_path)`` owns the master side of a pseudo-terminal and symlinks the slave
at ``link_path``, so the real ``CardReader`` opens ``link_path`` exactly as it opens
``/dev/pokershoe`` and runs its real pyserial/termios code. ``unplug()`` closes the master and
removes the link, which the driver sees exactly as a USB unplug; ``plug()`` brings a fresh
device back at the same path. The simulator, the demo and the driver tests all use it.

Only send after the driver reports ``connected``: pyserial flushes the input buffer when it
opens a port, so bytes written before that are lost (as they would be on the wire).
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import threading
import tty
from types import TracebackType

from drivers.reader_protocol import encode_heartbeat, encode_read, next_counter

__all__ = ["SimulatedReader"]

log = logging.getLogger(__name__)


class SimulatedReader:
    """A virtual card reader (or a bus of them, by reader id) behind a symlinked pty."""

    def __init__(
        self,
        link_path: str | os.PathLike[str],
        *,
        reader_id: int = 1,
        plugged: bool = True,
        write_timeout: float = 2.0,
    ) -> None:
        self.link_path = os.fspath(link_path)
        self.reader_id = reader_id
        self.write_timeout = write_timeout
        self._master: int | None = None
        self._slave_name: str | None = None
        # One lock for every write, so a heartbeat thread never splices into another frame.
        self._lock = threading.Lock()
        # The counter each reader will put in its next frame; absent = just powered on (0).
        self._counters: dict[int, int] = {}
        self._heartbeat_thread: threading.Thread | None = None
        self._heartbeat_halt = threading.Event()
        if plugged:
            self.plug()

    # --- the device's presence -------------------------------------------------------------

    @property
    def plugged(self) -> bool:
        return self._master is not None

    @property
    def slave_name(self) -> str | None:
        """The pty slave currently behind ``link_path`` (``/dev/pts/N``), or None if unplugged."""
        return self._slave_name

    def plug(self, *, power_on: bool = True) -> None:
        """Connect a fresh device at ``link_path``; its counters restart at 0 if ``power_on``."""
        with self._lock:
            if self._master is not None:
                return
            master, slave = os.openpty()
            try:
                # Raw at once: no echo back, no newline translation, no line buffering.
                tty.setraw(master)
                slave_name = os.ttyname(slave)
                tmp = f"{self.link_path}.{os.getpid()}.tmp"
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(tmp)
                os.symlink(slave_name, tmp)
                os.replace(tmp, self.link_path)  # atomic: the driver never sees a half-made link
            except BaseException:
                os.close(master)
                raise
            finally:
                # The driver opens the slave by path; the master alone keeps the pty alive.
                os.close(slave)
            self._master = master
            self._slave_name = slave_name
            if power_on:
                self._counters.clear()
        log.debug("simulated reader plugged at %s -> %s", self.link_path, slave_name)

    def unplug(self) -> None:
        """Remove the device: the link disappears and the driver's reads fail as on a USB unplug."""
        with self._lock:
            if self._master is None:
                return
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.link_path)
            os.close(self._master)
            self._master = None
            self._slave_name = None
        log.debug("simulated reader unplugged from %s", self.link_path)

    def close(self) -> None:
        """Stop the heartbeat thread and unplug; safe to call twice."""
        self.stop_heartbeats()
        self.unplug()

    def __enter__(self) -> SimulatedReader:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # --- what the device sends --------------------------------------------------------------

    def send_read(
        self,
        reader: int,
        antenna: int,
        uid: bytes | bytearray | str,
        face_up: bool = False,
    ) -> bytes:
        """Send one read frame from ``reader`` with its next counter; returns the bytes sent."""
        with self._lock:
            frame = encode_read(reader, antenna, uid, face_up, self._counters.get(reader, 0))
            self._write_locked(frame)
            self._advance(reader)
        return frame

    def send_heartbeat(self, reader: int | None = None, status: int = 0) -> bytes:
        """Send one heartbeat from ``reader`` (default: ``reader_id``); returns the bytes sent."""
        rid = self.reader_id if reader is None else reader
        with self._lock:
            frame = encode_heartbeat(rid, self._counters.get(rid, 0), status)
            self._write_locked(frame)
            self._advance(rid)
        return frame

    def send_raw(self, data: bytes | bytearray) -> None:
        """Send arbitrary bytes: line noise, a truncated or corrupted frame."""
        with self._lock:
            self._write_locked(bytes(data))

    def skip_counter(self, reader: int, frames: int = 1) -> None:
        """Pretend ``frames`` frames from ``reader`` were lost on the wire."""
        with self._lock:
            for _ in range(frames):
                self._advance(reader)

    def next_counter(self, reader: int) -> int:
        """The counter ``reader``'s next frame will carry."""
        with self._lock:
            return self._counters.get(reader, 0)

    def start_heartbeats(self, interval: float = 0.5, reader: int | None = None) -> None:
        """Send a heartbeat every ``interval`` seconds while plugged, on a daemon thread."""
        if self._heartbeat_thread is not None:
            return
        self._heartbeat_halt.clear()

        def beat() -> None:
            while not self._heartbeat_halt.wait(interval):
                if not self.plugged:
                    continue
                try:
                    self.send_heartbeat(reader)
                except (OSError, TimeoutError, RuntimeError) as exc:  # unplugged meanwhile
                    log.debug("simulated heartbeat not sent: %s", exc)

        self._heartbeat_thread = threading.Thread(
            target=beat, name="simulated-reader-heartbeat", daemon=True
        )
        self._heartbeat_thread.start()

    def stop_heartbeats(self) -> None:
        thread = self._heartbeat_thread
        if thread is None:
            return
        self._heartbeat_halt.set()
        thread.join(5)
        self._heartbeat_thread = None

    # --- internals ----------------------------------------------------------------------------

    def _advance(self, reader: int) -> None:
        self._counters[reader] = next_counter(self._counters.get(reader, 0))

    def _write_locked(self, data: bytes) -> None:
        if self._master is None:
            raise RuntimeError(f"simulated reader at {self.link_path} is unplugged")
        view = memoryview(data)
        while view:
            # A pty buffer is small; if nobody drains the slave, fail instead of hanging a test.
            _, writable, _ = select.select([], [self._master], [], self.write_timeout)
            if not writable:
                raise TimeoutError(
                    f"simulated reader at {self.link_path}: nobody is reading the port"
                )
            written = os.write(self._master, view)
            view = view[written:]
