"""What crosses the wire, counted: a simulated table served as a table serves it, a dealer's
socket and 20 public screens, and the table's relay to the cardroom's Redis, every byte of both
links recorded by a proxy in the test. Over HTTPS and ``rediss://`` (the cardroom's ACL user)
the capture holds no hole card (in the encodings the payloads and the relay use: a seat's cards
as the dealer payload lists them, and the tag uid of each card read at a seat), no password and
no session cookie; the same session in plain HTTP and plain Redis holds them, which proves the
instrument sees them (issue 27's evidence; docs/security.md, "Nothing secret crosses the
network in clear")."""

from __future__ import annotations

import time
from pathlib import Path

import orjson
import pytest
import requests
import socketio

from controller.events import ZoneRead
from controller.journal import read_events
from controller.security.tls import init_folder
from controller.surveillance.acl import password_file_name, write_cardroom
from tests.central.servers import Link, RedisServer, RedisTls, needs_redis
from tests.sim_demo import demo_passwords, read_head, served_port, start_sim

REPO = Path(__file__).resolve().parent.parent
SCREENS = 20


def _redis(tmp_path: Path, tls: bool) -> RedisServer:
    """The cardroom's Redis: TLS only with its ACL (a user per table), or plain."""
    if not tls:
        return RedisServer(tmp_path).start()
    pki = tmp_path / "pki"
    init_folder(pki, hosts=["127.0.0.1"], name="cardroom")
    write_cardroom(["t1"], tmp_path / "acl")
    return RedisServer(tmp_path, tls=RedisTls(
        pki / "server.pem", pki / "server.key", pki / "ca.pem",
        aclfile=tmp_path / "acl" / "users.acl")).start()


def _session(tmp_path: Path, tls: bool, redis_server: RedisServer
             ) -> tuple[Link, Link, dict[str, int], int]:
    """One simulated session through the recorders; (web, relay, counts, hole lists seen)."""
    relay = Link(redis_server.port, record=True)
    args = ["--port", "0", "--pace", "0.03",
            "--hands", "3", "--seed", "11", "--mistakes", "0",
            "--journal", str(tmp_path / "t.sqlite"), "--table-id", "t1"]
    redis_password = b""
    if tls:
        args += ["--tls", "--tls-dir", str(tmp_path / "tls"),
                 "--central", f"rediss://127.0.0.1:{relay.port}/0",
                 "--central-user", "table-t1", "--central-ca", str(tmp_path / "pki" / "ca.pem"),
                 "--central-password-file",
                 str(tmp_path / "acl" / password_file_name("table-t1"))]
        redis_password = (tmp_path / "acl" / password_file_name("table-t1")).read_bytes().strip()
    else:
        args += ["--central", f"redis://127.0.0.1:{relay.port}/0"]
    proc = start_sim(args, tmp_path)
    clients: list[socketio.Client] = []
    recorder = None
    try:
        head = read_head(proc)
        port = served_port(head)
        password = demo_passwords(head)["dealer"]
        recorder = Link(port, record=True)
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
        out, _ = proc.communicate(timeout=240)
        time.sleep(0.2)
        assert holes, "the dealer saw no hole card"
        # every event reached Redis through the relay's recorder (the store's side is
        # tests/central's): the journal's last seq is the stream's last id
        last = max(e.seq for e in read_events(tmp_path / "t.sqlite"))
        info = redis_server.admin().xinfo_stream("feltguard:events:t1")
        assert info["last-generated-id"] in (f"0-{last}", f"0-{last}".encode()), out[-2000:]
        # the tag of every card read at a seat: how the relay's journal lines name hole cards
        uids = {e.body.uid for e in read_events(tmp_path / "t.sqlite")
                if isinstance(e.body, ZoneRead) and e.body.zone.startswith("seat:")}
        counts = {
            "password": recorder.count(password.encode()),
            "cookie": recorder.count(cookie.encode()),
            # each seat's hole cards as the dealer payload carries them (orjson, compact)
            "hole cards": sum(recorder.count(b'"hole":' + orjson.dumps(list(h)))
                              for h in holes),
            "hole-card tags relayed": sum(relay.count(u.encode()) for u in uids),
        }
        if redis_password:
            counts["redis password"] = relay.count(redis_password)
        return recorder, relay, counts, len(holes)
    finally:
        for c in clients:
            c.disconnect()
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        if recorder is not None:
            recorder.close()
        relay.close()


@needs_redis
@pytest.mark.parametrize("tls", [True, False], ids=["https", "plain-control"])
def test_no_hole_card_password_or_cookie_crosses_the_wire_in_clear(tmp_path, tls):
    redis_server = _redis(tmp_path, tls)
    try:
        web, relay, counts, hole_lists = _session(tmp_path, tls, redis_server)
    finally:
        redis_server.stop()
    print(f"{'TLS' if tls else 'plain'}: {len(web.bytes)} bytes of pages and sockets, "
          f"{len(relay.bytes)} bytes of relay captured, {hole_lists} hole-card lists dealt; "
          f"occurrences {counts}")
    assert len(web.bytes) > 100_000  # 21 screens' states went through the recorder
    assert len(relay.bytes) > 10_000  # and every event to Redis
    if tls:
        assert set(counts.values()) == {0}, counts
        assert "redis password" in counts
    else:  # the instrument sees them when they are there
        assert all(n > 0 for n in counts.values()), counts
