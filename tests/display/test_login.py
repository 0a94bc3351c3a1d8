"""The dealer's login: the form, the session cookie, and the `/dealer` namespace admitting it.

HTTP through Flask's test client (unit level) and through `requests` against the live server
(display/live.py); Socket.IO through real python-socketio clients carrying the cookie in their
handshake.
"""

from __future__ import annotations

import queue
import threading
import time
from datetime import timedelta
from typing import Any

import requests
import socketio
from flask.testing import FlaskClient

from display.access import SECURITY_HEADERS, LoginLimiter
from display.payloads import dealer_payload
from display.server import (
    DEALER,
    SESSION_COOKIE,
    Publisher,
    ServerHandle,
    create_app,
    run_server,
)
from tests.display.snapshots import HOLE, short_hand
from tests.display.test_server import WAIT, Listener

TOKEN = "login-s3cret"


def make_client(**kw: Any) -> FlaskClient:
    app, _, _ = create_app(dealer_token=TOKEN, **kw)
    return app.test_client()


def set_cookie_header(response: Any) -> str:
    [header] = [h for h in response.headers.getlist("Set-Cookie") if h.startswith(SESSION_COOKIE)]
    return str(header)


def attributes(header: str) -> dict[str, str]:
    parts = [p.strip() for p in header.split(";")[1:]]
    return {p.split("=", 1)[0].lower(): (p.split("=", 1)[1] if "=" in p else "") for p in parts}


def log_in(base: str, token: str = TOKEN) -> str:
    """Log in through the live server's form; the session cookie's value."""
    r = requests.post(f"{base}/dealer/login", data={"token": token}, allow_redirects=False,
                      timeout=WAIT)
    assert r.status_code == 303, r.status_code
    return str(r.cookies[SESSION_COOKIE])


def cookie_header(value: str) -> dict[str, str]:
    return {"Cookie": f"{SESSION_COOKIE}={value}"}


def refused(url: str, **connect: Any) -> bool:
    """Whether `/dealer` refuses this connection (and sent it nothing)."""
    client = socketio.Client(reconnection=False)
    got: queue.Queue[Any] = queue.Queue()
    client.on("state", got.put, namespace=DEALER)
    try:
        client.connect(url, namespaces=[DEALER], transports=["polling"], wait_timeout=WAIT,
                       **connect)
    except socketio.exceptions.ConnectionError:
        client.disconnect()
        assert got.empty()  # not even the greeting went out
        return True
    client.disconnect()
    return False


# --- the form and the cookie (Flask's test client) ------------------------------------------


def test_without_a_session_the_dealer_page_is_the_login_form() -> None:
    http = make_client()
    page = http.get("/dealer")
    assert page.status_code == 200
    assert b'<form id="login"' in page.data and b'action="/login"' in page.data
    assert b'method="post"' in page.data and b'name="token"' in page.data
    assert b'data-role="dealer"' not in page.data and b"socket.io" not in page.data
    assert "Set-Cookie" not in page.headers


def test_a_token_in_the_url_is_never_accepted() -> None:
    http = make_client()
    page = http.get(f"/dealer?token={TOKEN}")
    assert page.status_code == 303 and page.headers["Location"] == "/dealer"  # out of the URL
    assert "Set-Cookie" not in page.headers
    assert b'data-role="dealer"' not in http.get("/dealer").data
    # Not as a login either: the form's POST takes the body, never the query.
    assert http.post(f"/dealer/login?token={TOKEN}").status_code == 401


def test_a_wrong_token_is_refused_without_a_cookie() -> None:
    http = make_client()
    page = http.post("/dealer/login", data={"token": "wrong"})
    assert page.status_code == 401
    assert b'id="login-error"' in page.data and b"Wrong token." in page.data
    assert b"wrong" not in page.data  # the typed value is not echoed
    assert "Set-Cookie" not in page.headers
    assert b'data-role="dealer"' not in http.get("/dealer").data


def test_the_right_token_sets_a_strict_http_only_cookie_for_a_shift() -> None:
    http = make_client()
    login = http.post("/dealer/login", data={"token": TOKEN})
    assert login.status_code == 303 and login.headers["Location"] == "/dealer"
    header = set_cookie_header(login)
    attrs = attributes(header)
    assert "httponly" in attrs
    assert attrs["samesite"] == "Strict"
    assert attrs["path"] == "/"
    assert attrs["max-age"] == str(12 * 3600)
    assert "secure" not in attrs  # plain http here: a Secure cookie would never come back
    assert TOKEN not in header
    page = http.get("/dealer")
    assert page.status_code == 200 and b'data-role="dealer"' in page.data
    assert b'<form id="logout"' in page.data


def test_the_cookie_is_secure_over_https() -> None:
    http = make_client()
    login = http.post("https://feltguard.local/dealer/login", data={"token": TOKEN})
    assert "secure" in attributes(set_cookie_header(login))


def test_the_session_lifetime_is_configurable() -> None:
    http = make_client(session_lifetime=timedelta(hours=8))
    login = http.post("/dealer/login", data={"token": TOKEN})
    assert attributes(set_cookie_header(login))["max-age"] == str(8 * 3600)


def test_a_forged_cookie_gets_the_login_form() -> None:
    http = make_client()
    http.set_cookie(SESSION_COOKIE, "forged")
    assert b'<form id="login"' in http.get("/dealer").data


def test_logout_clears_the_cookie_and_closes_the_login() -> None:
    http = make_client()
    http.post("/dealer/login", data={"token": TOKEN})
    cookie = http.get_cookie(SESSION_COOKIE)
    assert cookie is not None
    value = cookie.value
    out = http.post("/dealer/logout")
    assert out.status_code == 303 and out.headers["Location"] == "/dealer"
    attrs = attributes(set_cookie_header(out))
    assert attrs["max-age"] == "0" and "httponly" in attrs and attrs["samesite"] == "Strict"
    assert http.get_cookie(SESSION_COOKIE) is None
    assert b'<form id="login"' in http.get("/dealer").data
    # A copy of the cookie taken before the logout opens nothing either.
    http.set_cookie(SESSION_COOKIE, value)
    assert b'<form id="login"' in http.get("/dealer").data


def test_the_rate_limit_answers_429_then_lets_the_address_try_again() -> None:
    clock = [0.0]
    http = make_client(login_limiter=LoginLimiter(clock=lambda: clock[0]))
    for _ in range(5):
        assert http.post("/dealer/login", data={"token": "guess"}).status_code == 401
    blocked = http.post("/dealer/login", data={"token": TOKEN})  # even the right one
    assert blocked.status_code == 429
    assert blocked.headers["Retry-After"] == "60"
    assert b"Too many failed logins. Try again in 60 seconds." in blocked.data
    assert "Set-Cookie" not in blocked.headers
    # Another address is not blocked.
    other = http.post("/dealer/login", data={"token": TOKEN},
                      environ_base={"REMOTE_ADDR": "10.1.2.3"})
    assert other.status_code == 303
    clock[0] = 60.0
    assert http.post("/dealer/login", data={"token": TOKEN}).status_code == 303


def test_the_rate_limit_through_the_live_server(live: tuple[ServerHandle, Publisher]) -> None:
    handle, _ = live
    url = f"{handle.url}/dealer/login"
    codes = [requests.post(url, data={"token": f"guess{i}"}, allow_redirects=False,
                           timeout=WAIT).status_code for i in range(6)]
    assert codes == [401] * 5 + [429]
    blocked = requests.post(url, data={"token": TOKEN}, allow_redirects=False, timeout=WAIT)
    assert blocked.status_code == 429 and SESSION_COOKIE not in blocked.cookies
    assert 55 <= int(blocked.headers["Retry-After"]) <= 60
    # The socket's auth path shares the limit: no guessing there instead.
    assert refused(handle.url, auth={"token": TOKEN})


def test_headers_and_the_form_action_in_the_policy() -> None:
    http = make_client()
    assert "form-action 'self'" in SECURITY_HEADERS["Content-Security-Policy"]
    http.post("/dealer/login", data={"token": "wrong"})
    responses = [http.get("/dealer"), http.post("/dealer/login", data={"token": "wrong"}),
                 http.post("/dealer/login", data={"token": TOKEN}), http.get("/dealer"),
                 http.post("/dealer/logout")]
    for response in responses:
        for name, value in SECURITY_HEADERS.items():
            assert response.headers[name] == value


def test_an_open_dealer_view_needs_no_login() -> None:
    app, _, _ = create_app()
    http = app.test_client()
    assert b'data-role="dealer"' in http.get("/dealer").data


# --- the /dealer namespace and the cookie (live server, real Socket.IO clients) -------------


def test_the_namespace_admits_the_session_cookie(live: tuple[ServerHandle, Publisher]) -> None:
    handle, publisher = live
    snap = short_hand()[2]
    publisher.publish(snap)
    cookie = log_in(handle.url)
    for transport in ("polling", "websocket"):
        dealer = Listener(handle.url, DEALER, transport, headers=cookie_header(cookie))
        try:
            assert dealer.next() == dealer_payload(snap)
            assert dealer.client.transport() == transport
        finally:
            dealer.close()
    assert dealer_payload(snap)["seats"][0]["hole"] == HOLE[1]


def test_the_namespace_refuses_without_a_valid_cookie(
    live: tuple[ServerHandle, Publisher],
) -> None:
    handle, _ = live
    cookie = log_in(handle.url)
    assert refused(handle.url)  # no cookie
    assert refused(handle.url, headers=cookie_header("forged"))
    assert refused(handle.url, headers=cookie_header(cookie[:-2] + "xx"))  # tampered signature
    assert refused(handle.url, headers={"Cookie": f"session={cookie}"})  # another cookie's name
    assert refused(f"{handle.url}/?token={TOKEN}")  # a token in the URL's query
    assert refused(handle.url, headers={"Authorization": f"Bearer {TOKEN}"})
    assert not refused(handle.url, headers=cookie_header(cookie))  # the real one, for contrast


def test_non_browser_clients_keep_the_auth_token(live: tuple[ServerHandle, Publisher]) -> None:
    handle, _ = live
    dealer = Listener(handle.url, DEALER, auth={"token": TOKEN})
    try:
        assert dealer.next() == dealer_payload({})
    finally:
        dealer.close()


def test_logout_closes_the_live_socket_and_the_cookie(live: tuple[ServerHandle, Publisher]) -> None:
    handle, _ = live
    cookie = log_in(handle.url)
    other = log_in(handle.url)  # a second screen, logged in on its own
    closed = threading.Event()
    dealer = Listener(handle.url, DEALER, headers=cookie_header(cookie))
    dealer.client.on("disconnect", lambda *_: closed.set(), namespace=DEALER)
    second = Listener(handle.url, DEALER, headers=cookie_header(other))
    try:
        dealer.next(), second.next()
        out = requests.post(f"{handle.url}/dealer/logout", headers=cookie_header(cookie),
                            allow_redirects=False, timeout=WAIT)
        assert out.status_code == 303
        assert closed.wait(WAIT), "the logged-out screen's socket stayed open"
        assert refused(handle.url, headers=cookie_header(cookie))
        assert second.client.connected  # the other login is untouched
    finally:
        dealer.close()
        second.close()


def test_a_session_expires_and_its_socket_is_closed() -> None:
    app, live, _ = create_app(dealer_token=TOKEN, session_lifetime=timedelta(seconds=1))
    handle = run_server(app, live, "127.0.0.1", 0)
    try:
        started = time.monotonic()
        cookie = log_in(handle.url)
        closed = threading.Event()
        dealer = Listener(handle.url, DEALER, headers=cookie_header(cookie))
        dealer.client.on("disconnect", lambda *_: closed.set(), namespace=DEALER)
        try:
            dealer.next()
            assert closed.wait(WAIT), "the socket outlived its session"
            assert time.monotonic() - started >= 1.0
        finally:
            dealer.close()
        assert refused(handle.url, headers=cookie_header(cookie))
        page = requests.get(f"{handle.url}/dealer", headers=cookie_header(cookie), timeout=WAIT)
        assert 'id="login"' in page.text
    finally:
        handle.stop()


def test_socket_auth_failures_count_towards_the_limit() -> None:
    app, live, _ = create_app(dealer_token=TOKEN, login_limiter=LoginLimiter(max_failures=2))
    handle = run_server(app, live, "127.0.0.1", 0)
    try:
        assert refused(handle.url, auth={"token": "guess1"})
        assert refused(handle.url, auth={"token": "guess2"})
        assert refused(handle.url, auth={"token": TOKEN})  # blocked now
        blocked = requests.post(f"{handle.url}/dealer/login", data={"token": TOKEN},
                                allow_redirects=False, timeout=WAIT)
        assert blocked.status_code == 429
        # A client without credentials (a page whose session ended) is no guess: not counted.
        app2, sio2, _ = create_app(dealer_token=TOKEN, login_limiter=LoginLimiter(max_failures=1))
        handle2 = run_server(app2, sio2, "127.0.0.1", 0)
        try:
            assert refused(handle2.url) and refused(handle2.url)
            assert not refused(handle2.url, auth={"token": TOKEN})
        finally:
            handle2.stop()
    finally:
        handle.stop()
