"""What crosses the wire, counted: a simulated table served as a table serves it, a dealer's
socket and 20 public screens, every byte between them and the table recorded by a proxy in the
test. Over HTTPS the capture holds no hole card (in the encodings the payloads use), no
password and no session cookie; the same session in plain HTTP holds all three, which proves
the instrument sees them (issue 27's evidence; docs/security.md, "Nothing secret crosses the
network in clear")."""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import orjson
import pytest
import requests
import socketio

REPO = Path(__file__).resolve().parent.parent
SCREENS = 20


class Recorder:
    """A TCP proxy from a port of its own to ``target``, keeping every byte both ways."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.bytes = bytearray()
        self._lock = threading.Lock()
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = self._server.getsockname()[1]
        self._socks: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=10)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            self._socks += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                with self._lock:
                    self.bytes += data
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self._server.close()
        for s in self._socks:
            s.close()

    def count(self, needle: bytes) -> int:
        with self._lock:
            return bytes(self.bytes).count(needle)


def _session(tmp_path: Path, tls: bool) -> tuple[Recorder, dict[str, int], int]:
    """One simulated session through the recorder; (recorder, counts, hole lists seen)."""
    args = [sys.executable, "-m", "controller.cli", "sim", "--port", "0", "--pace", "0.03",
            "--hands", "3", "--seed", "11", "--mistakes", "0",
            "--journal", str(tmp_path / "t.sqlite")]
    if tls:
        args += ["--tls", "--tls-dir", str(tmp_path / "tls")]
    proc = subprocess.Popen(args, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(REPO)},
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    clients: list[socketio.Client] = []
    recorder = None
    try:
        assert proc.stdout is not None
        head = []
        for line in proc.stdout:
            head.append(line)
            if line.startswith("journal:"):
                break
        text = "".join(head)
        port = int(re.search(r"https?://127\.0\.0\.1:(\d+)/", text).group(1))  # type: ignore[union-attr]
        logins = Path(re.search(r"passwords in (\S+)", text).group(1))  # type: ignore[union-attr]
        password = dict(x.split() for x in logins.read_text().splitlines()
                        if not x.startswith("#"))["dealer"]
        recorder = Recorder(port)
        base = f"{'https' if tls else 'http'}://127.0.0.1:{recorder.port}"
        http = requests.Session()
        http.trust_env = False  # (REQUESTS_CA_BUNDLE would override the verify below)
        http.verify = str(tmp_path / "tls" / "ca.pem") if tls else True
        r = http.post(f"{base}/login", data={"user": "dealer", "password": password,
                                             "next": "/dealer"}, timeout=30)
        assert r.status_code == 200, r.status_code
        cookie = http.cookies.get("feltguard_session")
        assert cookie
        holes: set[tuple[str, ...]] = set()

        def dealer_state(data: dict) -> None:
            for seat in data.get("seats", []):
                if seat.get("hole"):
                    holes.add(tuple(seat["hole"]))

        dealer = socketio.Client(http_session=http)
        dealer.on("state", dealer_state, namespace="/dealer")
        dealer.connect(base, namespaces=["/dealer"], transports=["websocket"],
                       headers={"Cookie": f"feltguard_session={cookie}"}, wait_timeout=20)
        clients.append(dealer)
        for _ in range(SCREENS):
            screen = socketio.Client(http_session=http)
            screen.connect(base, namespaces=["/table"], transports=["websocket"],
                           wait_timeout=20)
            clients.append(screen)
        proc.communicate(timeout=240)
        time.sleep(0.2)
        assert holes, "the dealer saw no hole card"
        counts = {
            "password": recorder.count(password.encode()),
            "cookie": recorder.count(cookie.encode()),
            # each seat's hole cards as the dealer payload carries them (orjson, compact)
            "hole cards": sum(recorder.count(b'"hole":' + orjson.dumps(list(h)))
                              for h in holes),
        }
        return recorder, counts, len(holes)
    finally:
        for c in clients:
            c.disconnect()
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        if recorder is not None:
            recorder.close()


@pytest.mark.parametrize("tls", [True, False], ids=["https", "plain-control"])
def test_no_hole_card_password_or_cookie_crosses_the_wire_in_clear(tmp_path, tls):
    recorder, counts, hole_lists = _session(tmp_path, tls)
    size = len(recorder.bytes)
    print(f"{'HTTPS' if tls else 'plain'}: {size} bytes captured, {hole_lists} hole-card lists "
          f"dealt; occurrences {counts}")
    assert size > 100_000  # 21 screens' states went through the recorder
    if tls:
        assert counts == {"password": 0, "cookie": 0, "hole cards": 0}
    else:  # the instrument sees them when they are there
        assert all(n > 0 for n in counts.values()), counts
