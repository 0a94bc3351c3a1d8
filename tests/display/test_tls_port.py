"""The HTTPS port (display/tls_port.py): pages, the dealer namespace and the public one over TLS
from real clients that trust only the table's authority; a plain-HTTP request on the same port
redirected when that repeats nothing, refused when it would; a client that does not trust the
certificate gets nothing; the fan-out's direct path still writes over TLS."""

from __future__ import annotations

import http.client
import socket
import ssl
import time

import pytest
import requests
import socketio

from controller.security import tls
from display.server import close_app, create_app, run_server
from display.tls_port import TlsPortServer
from tests.display.snapshots import short_hand

TOKEN = "tls-port-test-token"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> tls.TlsFolder:
    return tls.init_folder(tmp_path_factory.mktemp("tls") / "tls",
                           hosts=["localhost", "127.0.0.1"]).folder


@pytest.fixture()
def served(folder: tls.TlsFolder):
    app, live, publisher = create_app(dealer_token=TOKEN, broadcast_delay_s=0.0)
    handle = run_server(app, live, "127.0.0.1", 0,
                        tls=tls.server_context(folder.server_cert, folder.server_key))
    try:
        yield handle, publisher, app
    finally:
        handle.stop()
        close_app(app)


def _https(folder: tls.TlsFolder, port: int) -> http.client.HTTPSConnection:
    return http.client.HTTPSConnection(
        "localhost", port, context=tls.client_context(folder.ca_cert), timeout=10)


def trusting(folder: tls.TlsFolder) -> requests.Session:
    """An HTTP session (python-socketio's client takes its ``verify`` for its WebSocket too)
    that trusts only the table's authority."""
    session = requests.Session()
    session.verify = str(folder.ca_cert)
    return session


def _plain(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request)
        chunks = []
        while chunk := s.recv(4096):
            chunks.append(chunk)
    return b"".join(chunks)


def test_pages_over_https_with_hsts_and_a_secure_cookie(served, folder):
    handle, _, _ = served
    assert handle.url.startswith("https://")
    conn = _https(folder, handle.port)
    conn.request("GET", "/")
    response = conn.getresponse()
    response.read()
    assert response.status == 200
    assert response.getheader("Strict-Transport-Security") == "max-age=31536000"
    conn.request("POST", "/dealer/login", body=f"token={TOKEN}",
                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    response = conn.getresponse()
    response.read()
    cookie = response.getheader("Set-Cookie")
    assert cookie and "Secure" in cookie and "HttpOnly" in cookie


def test_a_plain_get_is_redirected_to_https_without_its_query(served):
    handle, _, _ = served
    answer = _plain(handle.port, b"GET /dealer?x=1 HTTP/1.1\r\nHost: table.local:%d\r\n\r\n"
                    % handle.port)
    head = answer.split(b"\r\n\r\n", 1)[0].decode()
    assert head.startswith("HTTP/1.1 307")
    assert f"Location: https://table.local:{handle.port}/dealer\r\n" in head + "\r\n"


@pytest.mark.parametrize("request_bytes", [
    b"POST /dealer/login HTTP/1.1\r\nHost: t\r\nContent-Length: 11\r\n\r\ntoken=abcde",
    b"GET /dealer HTTP/1.1\r\nHost: t\r\nCookie: feltguard_session=x\r\n\r\n",
    b"GET /socket.io/?EIO=4&transport=polling HTTP/1.1\r\nHost: t\r\n\r\n",
])
def test_a_plain_request_that_carried_something_is_refused_not_redirected(served, request_bytes):
    handle, _, _ = served
    answer = _plain(handle.port, request_bytes)
    assert answer.startswith(b"HTTP/1.1 403")
    assert b"Location" not in answer and b"HTTPS only" in answer


def test_garbage_on_the_port_closes_the_connection(served):
    handle, _, _ = served
    assert _plain(handle.port, b"\x00\x01 not http\r\n\r\n") == b""


def test_a_client_that_does_not_trust_the_authority_gets_nothing(served, tmp_path):
    handle, _, _ = served
    other = tls.init_folder(tmp_path / "other", hosts=["localhost"]).folder
    conn = http.client.HTTPSConnection("localhost", handle.port,
                                       context=tls.client_context(other.ca_cert), timeout=10)
    with pytest.raises(ssl.SSLCertVerificationError):
        conn.request("GET", "/")
    # the table goes on serving those who do trust it
    assert served[0].url.startswith("https://")


def test_socketio_clients_over_wss_get_states_by_the_direct_path(served, folder):
    handle, publisher, app = served
    public, dealer = (socketio.Client(http_session=trusting(folder)) for _ in range(2))
    got: dict[str, list[dict]] = {"/table": [], "/dealer": []}
    public.on("state", lambda data: got["/table"].append(data), namespace="/table")
    dealer.on("state", lambda data: got["/dealer"].append(data), namespace="/dealer")
    url = f"https://localhost:{handle.port}"
    public.connect(url, namespaces=["/table"], transports=["websocket"])
    dealer.connect(url, namespaces=["/dealer"], transports=["websocket"],
                   auth={"token": TOKEN})
    try:
        assert public.transport() == "websocket"
        deadline = time.monotonic() + 10
        hand = short_hand()
        for snapshot in hand:
            publisher.publish(snapshot)
            time.sleep(0.05)
        while (len(got["/table"]) < len(hand) or len(got["/dealer"]) < len(hand)) \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(got["/table"]) >= len(hand) and len(got["/dealer"]) >= len(hand)
        fan_out = app.extensions["feltguard.live"].fan_out
        assert fan_out["direct"] > 0, fan_out  # framed once, written to the TLS transport
    finally:
        public.disconnect()
        dealer.disconnect()


def test_the_server_class_is_uvicorns_with_its_startup_replaced():
    import uvicorn

    assert issubclass(TlsPortServer, uvicorn.Server)
    # what our startup relies on of uvicorn's
    config = uvicorn.Config(lambda *a: None, lifespan="off")
    config.load()
    server = uvicorn.Server(config)
    assert hasattr(server, "server_state") and hasattr(config, "http_protocol_class")
