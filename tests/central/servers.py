"""The real servers the cardroom tests need, started by the test harness: Debian's
``redis-server`` on a free port with its own directory (append-only file on, so a killed
server keeps what it acknowledged), and a TCP link between the tables and it that a test can
cut and restore. Tests skip with a clear message where redis-server is not installed.

``RedisServer(..., tls=RedisTls(...))`` serves TLS only (``--port 0 --tls-port P``) with the
test's own certificates (controller/security/tls.py) and, with ``aclfile``, the cardroom's ACL;
``admin`` then is a client of a user the test adds to the ACL file for its own checks."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import threading
import time
from dataclasses import dataclass
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


@dataclass(frozen=True)
class RedisTls:
    """What a TLS Redis serves with: its certificate, the CA it takes client certificates from,
    whether it requires one (``tls-auth-clients``), and the ACL file."""

    cert: Path
    key: Path
    ca: Path
    auth_clients: str = "optional"  # "yes": mutual TLS
    aclfile: Path | None = None
    admin_password: str = "admin-pw"  # the test's own user, appended to the ACL file
    admin_cert: Path | None = None  # its client certificate, where one is required
    admin_key: Path | None = None


class RedisServer:
    """A redis-server process of the test's own; ``kill()`` (SIGKILL) and ``start()`` again on
    the same port and directory."""

    def __init__(self, workdir: Path, tls: RedisTls | None = None) -> None:
        self.dir = workdir
        self.port = free_port()
        self.tls = tls
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"{'rediss' if self.tls else 'redis'}://127.0.0.1:{self.port}/0"

    def admin(self) -> redis.Redis:
        """A client with every right: the default user, or the ACL's test admin over TLS."""
        if self.tls is None:
            return redis.Redis.from_url(self.url, socket_connect_timeout=1)
        extra = {"username": "admin", "password": self.tls.admin_password} \
            if self.tls.aclfile else {}
        t = self.tls
        return redis.Redis.from_url(
            self.url, socket_connect_timeout=1, ssl_ca_certs=str(t.ca),
            ssl_certfile=str(t.admin_cert) if t.admin_cert else None,
            ssl_keyfile=str(t.admin_key) if t.admin_key else None, **extra)

    def _options(self) -> list[str]:
        if self.tls is None:
            return ["--port", str(self.port)]
        t = self.tls
        options = ["--port", "0", "--tls-port", str(self.port), "--tls-cert-file", str(t.cert),
                   "--tls-key-file", str(t.key), "--tls-ca-cert-file", str(t.ca),
                   "--tls-auth-clients", t.auth_clients]
        if t.aclfile is not None:
            acl = self.dir / "users.acl"  # the cardroom's, and the test's admin
            acl.write_text(t.aclfile.read_text() +
                           f"user admin on >{t.admin_password} ~* &* +@all\n")
            options += ["--aclfile", str(acl)]
        return options

    def start(self) -> RedisServer:
        assert REDIS_SERVER is not None
        self.proc = subprocess.Popen(
            [REDIS_SERVER, *self._options(), "--bind", "127.0.0.1", "--dir",
             str(self.dir), "--appendonly", "yes", "--appendfsync", "always", "--save", "",
             "--protected-mode", "no"],
            stdout=(self.dir / "redis.log").open("ab"), stderr=subprocess.STDOUT)
        client = self.admin()
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
    refuses new ones (connections are accepted and closed at once) until ``restore()``.
    ``record``: every byte it carries, both ways, is kept in ``bytes`` (a capture of the wire:
    ``count`` tells how often a secret crossed it)."""

    def __init__(self, target_port: int, *, record: bool = False) -> None:
        self.target = target_port
        self.record = record
        self.bytes = bytearray()
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
            upstream.settimeout(None)  # (a quiet connection is not a broken one)
            with self._lock:
                self._open += [conn, upstream]
            for a, b in ((conn, upstream), (upstream, conn)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def count(self, needle: bytes) -> int:
        """How many times ``needle`` is in the bytes carried so far (``record``)."""
        with self._lock:
            return bytes(self.bytes).count(needle)

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                if self.record:
                    with self._lock:
                        self.bytes += data
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
