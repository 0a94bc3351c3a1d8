"""The central service's web: the review of every table from the central store, behind the
surveillance login, each hand opened audited with its table; a dealer is refused."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from argon2 import PasswordHasher

from controller.events import iter_scenario
from controller.journal import Journal, StoredEvent
from controller.processes.cardroom_web import cardroom_app
from controller.security.accounts import Accounts
from controller.security.audit import AuditLog
from controller.surveillance.central_store import CentralStore

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
FAST = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


def relayed(tmp_path: Path, store: CentralStore, table: str, scenario: str) -> list[str]:
    """A table's journal of ``scenario``, in the store as the collector would put it; the
    journal's lines."""
    path = tmp_path / f"{table}.sqlite"
    with Journal(path) as journal:
        for event in iter_scenario(SCENARIOS / scenario):
            journal.append(event)
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT seq, ts, type, line, prev, hash FROM events ORDER BY seq")
        events = [StoredEvent(*r) for r in rows]
    assert store.add(table, events) == (len(events), 0)
    return [e.line for e in events]


@pytest.fixture
def site(tmp_path):
    store = CentralStore(tmp_path / "central.sqlite")
    lines = {"t1": relayed(tmp_path, store, "t1", "flop_premature.jsonl"),
             "t2": relayed(tmp_path, store, "t2", "floor_ruling_stand.jsonl")}
    accounts = Accounts(tmp_path / "accounts.sqlite", create=True, hasher=FAST)
    accounts.add("sam", "surveillance", "surveillance-pw-1")
    accounts.add("dee", "dealer", "dealer-password-1")
    audit = AuditLog(tmp_path / "audit.sqlite")
    app = cardroom_app(store, accounts, audit)
    yield app, audit, lines
    app.extensions["feltguard.review"].close()
    audit.close()
    store.close()


def log_in(app, user: str, password: str):
    client = app.test_client()
    r = client.post("/login", data={"user": user, "password": password, "next": "/"})
    assert r.status_code == 303
    return client


def test_surveillance_reviews_every_table_from_the_store(site):
    app, audit, lines = site
    assert b'<form id="login"' in app.test_client().get("/").data
    sam = log_in(app, "sam", "surveillance-pw-1")
    page = sam.get("/").data.decode()
    for table in ("t1", "t2"):
        assert f'<a href="/t/{table}/review">review</a>' in page
    assert sam.get("/t/t1/review").status_code == 200  # the same page as at a table
    for table in ("t1", "t2"):
        hands = sam.get(f"/t/{table}/review/api/hands").get_json()
        assert hands["total"] >= 1
        number = hands["hands"][0]["number"]
        steps = sam.get(f"/t/{table}/review/api/hand/{number}").get_json()
        assert steps["steps"]
        exported = sam.get(f"/t/{table}/review/hand/{number}.jsonl").data.decode().splitlines()
        assert exported and all(line in lines[table] for line in exported)
    t1 = sam.get("/t/t1/review/api/hands").get_json()["hands"][0]
    assert "FLOP_PREMATURE" in t1["codes"]
    assert sam.get("/t/t9/review/api/hands").status_code == 404
    viewed = [(e.who, e.action, e.subject) for e in audit.entries() if e.action != "login"]
    assert ("sam", "view_hand", f"table t1 hand {t1['number']}") in viewed
    assert any(a == "export_hand" and s.startswith("table t2 hand ") for _, a, s in viewed)
    health = app.test_client().get("/healthz").get_json()
    assert [(t["table"], t["problems"]) for t in health["tables"]] == [("t1", []), ("t2", [])]


def test_a_dealer_is_refused_the_cardroom(site):
    app, audit, _ = site
    dee = log_in(app, "dee", "dealer-password-1")
    assert dee.get("/").status_code == 403
    assert dee.get("/t/t1/review/api/hands").status_code == 403
    assert dee.get("/t/t1/review").status_code == 403
    refused = [e.subject for e in audit.entries() if e.action == "refused"]
    assert refused == ["/", "/t/t1/review/api/hands", "/t/t1/review"]


def test_the_service_serves_its_pages_as_a_table_does(tmp_path, caplog):
    """``serve_cardroom``: the same serving as a table's pages (display/live.py
    ``serve_pages``); the tables' list over real HTTP, the request log without its query."""
    import logging
    import urllib.request

    from controller.processes.cardroom_web import serve_cardroom

    store = CentralStore(tmp_path / "central.sqlite")
    relayed(tmp_path, store, "t1", "flop_premature.jsonl")
    accounts = Accounts(tmp_path / "accounts.sqlite", create=True, hasher=FAST)
    audit = AuditLog(tmp_path / "audit.sqlite")
    caplog.set_level(logging.INFO, logger="uvicorn.access")
    server = serve_cardroom(store, "127.0.0.1", 0, accounts, audit)
    try:
        with urllib.request.urlopen(f"{server.url}/healthz", timeout=10) as r:
            assert r.status == 200 and b'"table":"t1"' in r.read().replace(b" ", b"")
        with urllib.request.urlopen(f"{server.url}/?seat=3", timeout=10) as r:
            assert r.url.endswith("/") and b'<form id="login"' in r.read()
    finally:
        server.stop()
        audit.close()
        store.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "uvicorn.access"]
    assert any('"GET /? HTTP/1.1" 303' in line for line in lines), lines
    assert not any("seat=3" in line for line in lines)


def test_the_review_over_https_requires_a_client_certificate_from_the_cardroom_ca(tmp_path):
    """``feltguard surveillance --tls-cert --tls-key --client-ca``: the cardroom's screens over
    HTTPS, each presenting a certificate the cardroom's authority issued (mutual TLS); a client
    without one gets no page."""
    import http.client
    import ssl

    from controller.processes.cardroom_web import serve_cardroom
    from controller.security import tls

    folder = tls.init_folder(tmp_path / "pki", hosts=["localhost"], name="cardroom").folder
    tls.issue_client(folder.path, "screen-1")
    store = CentralStore(tmp_path / "central.sqlite")
    relayed(tmp_path, store, "t1", "flop_premature.jsonl")
    accounts = Accounts(tmp_path / "accounts.sqlite", create=True, hasher=FAST)
    audit = AuditLog(tmp_path / "audit.sqlite")
    cert = tls.ServedCert(folder.server_cert, folder.server_key, client_ca=folder.ca_cert)
    server = serve_cardroom(store, "127.0.0.1", 0, accounts, audit, cert=cert)
    try:
        assert server.url.startswith("https://")
        screen = tls.client_context(folder.ca_cert, folder.client_cert("screen-1"),
                                    folder.client_key("screen-1"))
        conn = http.client.HTTPSConnection("localhost", server.handle.port, context=screen,
                                           timeout=10)
        conn.request("GET", "/healthz")
        response = conn.getresponse()
        body = response.read()
        assert response.status == 200 and b'"t1"' in body
        assert response.getheader("Strict-Transport-Security")
        stranger = http.client.HTTPSConnection("localhost", server.handle.port,
                                               context=tls.client_context(folder.ca_cert),
                                               timeout=10)
        with pytest.raises((ssl.SSLError, ConnectionError)):
            stranger.request("GET", "/healthz")
            stranger.getresponse().read()
    finally:
        server.stop()
        audit.close()
        store.close()


def test_the_service_refuses_to_serve_the_review_in_clear_off_this_machine(tmp_path, capsys):
    from controller.cli.main import main

    code = main(["surveillance", "--redis", "redis://127.0.0.1:1/0", "--store",
                 str(tmp_path / "c.sqlite"), "--accounts", str(tmp_path / "a.sqlite"),
                 "--host", "0.0.0.0"])
    assert code == 2
    [line] = capsys.readouterr().err.splitlines()
    assert "--host 0.0.0.0: the review is served over HTTPS off this machine" in line
