"""The review blueprint (display/review.py): who may open it (nobody logged in: the login form;
a dealer: 403 and an audit entry; surveillance: the page, audited per hand), its JSON, its
exports, and bad input answered in one line, never a 500."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.journal import create_key
from controller.security.accounts import Identity
from controller.security.audit import AuditLog, read_audit
from display.review import STATIC, review_blueprint
from tests.controller.review_journal import PREMATURE_HAND, simulated_journal

SURVEILLANCE = Identity("sam", "surveillance")
DEALER = Identity("dee", "dealer")


@dataclass
class Site:
    app: Flask
    client: FlaskClient
    audit_path: Path
    who: list[Identity | None]  # who the next request is
    seen: int = 0  # audit entries before the test began

    def as_(self, person: Identity | None) -> FlaskClient:
        self.who[0] = person
        return self.client

    def audit(self) -> list[tuple[str, str, str, str]]:
        """The audit entries the test made."""
        return [(e.who, e.role, e.action, e.subject)
                for e in read_audit(self.audit_path)[self.seen:]]

    def close(self) -> None:
        self.app.extensions["feltguard.review"].close()  # its worker process


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("review-bp") / "table.sqlite"
    simulated_journal(path)
    return path


def make_site(journal: Path, folder: Path) -> Site:
    who: list[Identity | None] = [None]
    audit_path = folder / "audit.sqlite"
    audit = AuditLog(audit_path, create_key(folder / "audit.key"))
    # the app's static folder serves review.js and the stylesheets, as create_app's does
    app = Flask("review-test", static_folder=str(STATIC))
    app.register_blueprint(review_blueprint(
        journal, identity=lambda: who[0], audit=audit,
        login_form=lambda after: (f"LOGIN FORM next={after}", 200)))
    app.extensions["feltguard.review.audit"] = audit
    return Site(app, app.test_client(), audit_path, who)


@pytest.fixture(scope="module")
def shared_site(journal: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    s = make_site(journal, tmp_path_factory.mktemp("site"))
    yield s
    s.close()


@pytest.fixture
def site(shared_site: Site) -> Site:
    """The module's site (one review worker process for the module), its audit log read from
    where this test begins."""
    shared_site.seen = len(read_audit(shared_site.audit_path))
    return shared_site


ROUTES = ["/review", "/review/api/hands", "/review/api/findings",
          f"/review/api/hand/{PREMATURE_HAND}", f"/review/hand/{PREMATURE_HAND}.phh",
          f"/review/hand/{PREMATURE_HAND}.jsonl"]


@pytest.mark.parametrize("path", ROUTES)
def test_nobody_logged_in_gets_the_login_form(site: Site, path: str) -> None:
    r = site.as_(None).get(path)
    back = "/review" if path.startswith("/review/api/") else path
    assert r.status_code == 200 and r.text == f"LOGIN FORM next={back}"
    assert r.headers["Cache-Control"] == "no-store"
    assert site.audit() == []  # no name to audit: nothing opened


@pytest.mark.parametrize("path", ROUTES)
def test_a_dealer_is_refused_and_the_refusal_audited(site: Site, path: str) -> None:
    r = site.as_(DEALER).get(path)
    assert r.status_code == 403
    assert "may not review hands" in r.text and "Ah" not in r.text
    assert site.audit() == [("dee", "dealer", "refused", path)]


def test_surveillance_opens_the_page(site: Site) -> None:
    r = site.as_(SURVEILLANCE).get("/review")
    assert r.status_code == 200 and 'src="/static/review.js"' in r.text
    assert r.headers["Cache-Control"] == "no-store"
    assert "script-src 'self'" in r.headers["Content-Security-Policy"]
    assert "<script>" not in r.text and "style=" not in r.text  # CSP: nothing inline
    assert site.client.get("/static/review.js").status_code == 200
    assert site.audit() == []  # the list of hands is not a hand


def test_surveillance_searches_and_opens_a_hand_audited(site: Site) -> None:
    c = site.as_(SURVEILLANCE)
    r = c.get("/review/api/hands?code=flop_premature")
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    body = r.get_json()
    assert body["total"] == 1 and body["hands"][0]["number"] == PREMATURE_HAND
    assert body["hands"][0]["codes"] == sorted(body["hands"][0]["codes"])
    r = c.get(f"/review/api/hand/{PREMATURE_HAND}")
    assert r.status_code == 200
    hand = r.get_json()
    assert hand["hand"]["number"] == PREMATURE_HAND and hand["steps"]
    assert any(s["seats"][0]["hole"] for s in hand["steps"])  # surveillance sees hole cards
    assert site.audit() == [("sam", "surveillance", "view_hand", f"hand {PREMATURE_HAND}")]
    timeline = c.get("/review/api/findings?code=FLOP_PREMATURE").get_json()
    assert timeline["total"] == 1
    (f,) = timeline["findings"]
    assert f["hand"] == PREMATURE_HAND and f["status"] == "remedied" and "ts" in f


def test_exports_are_attachments_and_audited(site: Site, journal: Path) -> None:
    c = site.as_(SURVEILLANCE)
    r = c.get(f"/review/hand/{PREMATURE_HAND}.phh")
    assert r.status_code == 200
    assert r.headers["Content-Disposition"] == f'attachment; filename="hand-{PREMATURE_HAND}.phh"'
    assert f"hand = {PREMATURE_HAND}" in r.text and 'variant = "NT"' in r.text
    r = c.get(f"/review/hand/{PREMATURE_HAND}.jsonl")
    assert r.headers["Content-Disposition"] == \
        f'attachment; filename="hand-{PREMATURE_HAND}.jsonl"'
    lines = [json.loads(line) for line in r.text.splitlines()]
    assert lines[0]["type"] == "hand.start" and all("seq" in x and "ts" in x for x in lines)
    assert site.audit() == [("sam", "surveillance", "export_hand", f"hand {PREMATURE_HAND}")] * 2


@pytest.mark.parametrize(("path", "status", "error"), [
    ("/review/api/hand/99", 404, "hand 99: not in the journal"),
    ("/review/api/hand/0", 400, "hand: a hand number is needed, not '0'"),
    ("/review/api/hand/x1", 400, "hand: a hand number is needed, not 'x1'"),
    ("/review/hand/-3.phh", 400, "hand: a hand number is needed, not '-3'"),
    ("/review/api/hands?seat=eleven", 400, "seat: a whole number 1..10 is needed, not 'eleven'"),
    ("/review/api/findings?until=soon", 400,
     "until: not a time (milliseconds or ISO 8601): 'soon'"),
    ("/review?x=1", 400, "the review page takes no parameters"),
])
def test_bad_requests_are_one_line_errors(site: Site, path: str, status: int,
                                          error: str) -> None:
    r = site.as_(SURVEILLANCE).get(path)
    assert r.status_code == status and r.get_json() == {"error": error}
    assert site.audit() == []  # nothing was opened


def test_an_unreadable_journal_is_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.sqlite"
    broken.write_bytes(b"SQLite format 3\x00" + b"\x00" * 100)
    s = make_site(broken, tmp_path)
    try:
        r = s.as_(SURVEILLANCE).get("/review/api/hands")
    finally:
        s.close()
    assert r.status_code == 503
    assert r.get_json()["error"].startswith("the journal cannot be read: ")
    assert "\n" not in r.get_json()["error"]


def test_a_hand_is_not_shown_when_its_view_cannot_be_audited(journal: Path,
                                                            tmp_path: Path) -> None:
    s = make_site(journal, tmp_path)
    audit = s.app.extensions["feltguard.review.audit"]
    audit.close()  # the audit log is gone: every write fails
    try:
        c = s.as_(SURVEILLANCE)
        for path in (f"/review/api/hand/{PREMATURE_HAND}", f"/review/hand/{PREMATURE_HAND}.phh"):
            r = c.get(path)
            assert r.status_code == 503 and r.get_json() == {
                "error": "the audit log cannot be written, so the hand is not shown"}
        assert c.get("/review/api/hands").status_code == 200  # the list is not a hand
    finally:
        s.close()


@pytest.fixture
def fuzz_site(site: Site) -> Site:
    site.who[0] = SURVEILLANCE
    return site


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(endpoint=st.sampled_from(["hands", "findings"]),
       params=st.lists(st.tuples(st.sampled_from(["since", "until", "seat", "player", "code",
                                                  "game", "limit", "offset", "x", "seat[]"]),
                                 st.text(max_size=40)), max_size=4))
def test_garbage_queries_are_400_in_one_line_never_500(fuzz_site: Site, endpoint: str,
                                                       params: list[tuple[str, str]]) -> None:
    r = fuzz_site.client.get(f"/review/api/{endpoint}", query_string=params)
    assert r.status_code in (200, 400), r.text
    body = r.get_json()
    if r.status_code == 400:
        assert set(body) == {"error"} and body["error"] and "\n" not in body["error"]
    else:
        assert "total" in body
