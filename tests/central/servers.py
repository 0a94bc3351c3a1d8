"""The real servers the cardroom tests need, started by the test harness: Debian's
``redis-server`` on a free port with its own directory (append-only file on, so a killed
server keeps what it acknowledged), and a TCP link between the tables and it that a test can
cut and restore. Tests skip with a clear message where redis-server is not installed."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest
import redis

REDIS_SERVER = shutil.which("redis-server")
needs_redis = pytest.mark.skipif(
    REDIS_SERVER is None, reason="redis-server is missing: apt-get install redis-server to run "
                                 "the cardroom tests")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisServer:
    """A redis-server process of the test's own; ``kill()`` (SIGKILL) and ``start()`` again on
    the same port and directory."""

    def __init__(self, workdir: Path) -> None:
        self.dir = workdir
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        assert REDIS_SERVER is not None
        self.proc = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--dir",
             str(self.dir), "--appendonly", "yes", "--appendfsync", "always", "--save", "",
             "--protected-mode", "no"],
            stdout=(self.dir / "redis.log").open("ab"), stderr=subprocess.STDOUT)
        client = redis.Redis.from_url(self.url, socket_connect_timeout=1)
        deadline = time.monotonic() + 15
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise RuntimeError(f"redis-server did not start: "
                                       f"{(self.dir / 'redis.log').read_text()[-500:]}") from None
                time.sleep(0.05)
        client.close()
        return self

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class Link:
    """A TCP link from 127.0.0.1:port to a server: ``cut()`` drops every connection and
    refuses new ones (connections are accepted and closed at once) until ``restore()``."""

    def __init__(self, target_port: int) -> None:
        self.target = target_port
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._up = threading.Event()
        self._up.set()
        self._lock = threading.Lock()
        self._open: list[socket.socket] = []
        self.cuts = 0
        self.dropped = 0
        self._halt = False
        threading.Thread(target=self._accept, daemon=True, name="link").start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def cut(self) -> None:
        self._up.clear()
        self.cuts += 1
        with self._lock:
            for s in self._open:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            self.dropped += len(self._open) // 2
            self._open.clear()

    def restore(self) -> None:
        self._up.set()

    def close(self) -> None:
        self._halt = True
        self.cut()
        self._listener.close()

    def _accept(self) -> None:
        while not self._halt:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            if not self._up.is_set():
                conn.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=2)
            except OSError:
                conn.close()
                continue
            with self._lock:
                self._open += [conn, upstream]
            for a, b in ((conn, upstream), (upstream, conn)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
