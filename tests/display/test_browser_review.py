"""The surveillance review in Debian's chromium (Playwright): a simulated session's journal with a
premature flop; logged in as surveillance, the officer searches by the finding's code, opens the
hand, steps to the finding, reads its rule and remedy and status, and downloads the hand as PHH
and as JSON Lines. Logged in as a dealer, the same page is refused.

The app is a small Flask app with the review blueprint (display/review.py) and a test login that
puts a role in a signed session cookie: the blueprint sees only the ``identity`` callable, as it
will behind create_app's per-user login. Skipped where /usr/bin/chromium is absent."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, redirect, session
from flask.typing import ResponseReturnValue

from controller.journal import create_key, read_events
from controller.security.accounts import Identity
from controller.security.audit import AuditLog, read_audit
from controller.surveillance.review import Review
from display.live import serve_pages
from display.review import STATIC, review_blueprint
from tests.controller.review_journal import PREMATURE_HAND, simulated_journal
from tests.display.chromium import BROWSER_MARKS

pytestmark = BROWSER_MARKS

def _utc(ms: int) -> str:
    """A datetime-local field's value for a time in ms (whole seconds, down)."""
    return datetime.fromtimestamp(ms // 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S")


PEOPLE = {"surveillance": Identity("sam", "surveillance"), "dealer": Identity("dee", "dealer")}


def _app(journal: Path, audit: AuditLog) -> Flask:
    app = Flask("review-browser", static_folder=str(STATIC))
    app.secret_key = "test only"

    def identity() -> Identity | None:
        return PEOPLE.get(str(session.get("who", "")))

    def login_form(after: str) -> ResponseReturnValue:
        return f'<!doctype html><h1 id="login">Log in</h1><p id="next">{after}</p>', 200

    @app.get("/test-login/<role>")
    def test_login(role: str) -> ResponseReturnValue:
        session["who"] = role
        return redirect("/review", code=303)

    app.register_blueprint(review_blueprint(journal, identity=identity, audit=audit,
                                            login_form=login_form))
    return app


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, Path]]:
    folder = tmp_path_factory.mktemp("review-browser")
    journal = folder / "table.sqlite"
    simulated_journal(journal)
    audit_path = folder / "audit.sqlite"
    audit = AuditLog(audit_path, create_key(folder / "audit.key"))
    app = _app(journal, audit)
    handle = serve_pages(app, "127.0.0.1", 0)  # as a table and the cardroom serve their pages
    try:
        yield handle.url, journal, audit_path
    finally:
        handle.stop()
        app.extensions["feltguard.review"].close()
        audit.close()


def test_surveillance_finds_the_premature_flop_steps_to_it_and_exports_it(
        browser: Any, site: tuple[str, Path, Path]) -> None:
    url, journal, audit_path = site
    context = browser.new_context(accept_downloads=True)
    page = context.new_page()
    problems: list[str] = []
    # a failed load is judged by its address below: the browser's own favicon request (the
    # app has none) comes whenever the browser gets to it, and is the only 404 allowed
    page.on("console", lambda m: problems.append(m.text) if m.type == "error"
            and not m.text.startswith("Failed to load resource") else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}")
            if r.status == 404 and not r.url.endswith("/favicon.ico") else None)
    try:
        page.goto(f"{url}/review")
        assert page.locator("#login").text_content() == "Log in"  # nobody logged in yet
        page.goto(f"{url}/test-login/surveillance")
        rows = page.locator("#hands tbody tr")
        rows.first.wait_for()
        assert rows.count() == 12
        assert rows.first.get_attribute("data-hand") == "12"  # newest first

        # by time: the window of the premature flop's hand (typed in UTC, as shown)
        hand = Review(journal).hand(PREMATURE_HAND)
        page.fill("#q-since", _utc(hand.start_ts))
        page.fill("#q-until", _utc(hand.end_ts))
        page.click("#q-go")
        page.wait_for_function("() => document.querySelectorAll('#hands tbody tr').length === 1")
        assert rows.first.get_attribute("data-hand") == str(PREMATURE_HAND)
        page.fill("#q-since", "")
        page.fill("#q-until", "")

        page.fill("#q-code", "FLOP_PREMATURE")
        page.click("#q-go")
        page.wait_for_function("() => document.querySelectorAll('#hands tbody tr').length === 1")
        assert rows.first.get_attribute("data-hand") == str(PREMATURE_HAND)
        assert "FLOP_PREMATURE" in (rows.first.text_content() or "")

        rows.first.click()
        page.locator("#hand-view").wait_for(state="visible")
        assert page.locator("#hand-title").text_content() == f"Hand {PREMATURE_HAND}"
        assert page.locator("#step-pos").text_content().startswith("event 1 of ")
        assert page.locator("#event").text_content().count('"type":"hand.start"') == 1

        finding = page.locator('#step-findings li[data-code="FLOP_PREMATURE"]')
        for _ in range(10):  # jump finding by finding until the premature flop
            if finding.count():
                break
            page.click("#step-finding")
        assert finding.count() == 1
        rule = finding.locator(".rule").text_content() or ""
        assert rule.startswith("Rule: roberts-rules-v11.txt, Section 5, Holdem")
        remedy = finding.locator(".remedy li").all_text_contents()
        assert remedy and any("preflop betting" in step for step in remedy)
        # open at the event that raised it; remedied later (the monitor saw its last move)
        assert (finding.locator(".status-badge").text_content() or "").startswith(
            "open here \u00b7 remedied at seq ")
        final = page.locator('#hand-findings li[data-code="FLOP_PREMATURE"] .status-badge')
        assert (final.text_content() or "").startswith("remedied at seq ")
        # at that event the monitor waits for the remedy's moves, and the cards are shown
        assert "FLOP_PREMATURE" in (page.locator("#remedy-due").text_content() or "")
        assert page.locator("#seat-table tbody tr").count() == 4
        assert page.locator("#seat-table .card.face").count() == 8  # every hole card
        assert page.locator("#event").get_attribute("class") == "event raised"
        assert page.locator("#cards tbody tr").count() >= 9
        assert page.locator("#health li").count() >= 1

        with page.expect_download() as got:
            page.click("#export-phh")
        phh = Path(got.value.path()).read_text("utf-8")
        assert got.value.suggested_filename == f"hand-{PREMATURE_HAND}.phh"
        assert f"hand = {PREMATURE_HAND}" in phh and 'variant = "NT"' in phh
        assert "FLOP_PREMATURE" in phh  # the _findings field names it

        with page.expect_download() as got:
            page.click("#export-jsonl")
        lines = Path(got.value.path()).read_text("utf-8").splitlines()
        assert got.value.suggested_filename == f"hand-{PREMATURE_HAND}.jsonl"
        first, last = json.loads(lines[0])["seq"], json.loads(lines[-1])["seq"]
        want = [e.to_line() for e in read_events(journal, after=first - 1) if e.seq <= last]
        assert lines == want and json.loads(lines[0])["type"] == "hand.start"

        timeline = page.locator("#timeline li")
        assert timeline.count() == 1 and "FLOP_PREMATURE" in (timeline.first.text_content()
                                                              or "")
        assert problems == []  # no CSP violation, no script error
    finally:
        context.close()
    audit = [(e.who, e.action, e.subject) for e in read_audit(audit_path)]
    subject = f"hand {PREMATURE_HAND}"
    assert ("sam", "view_hand", subject) in audit
    assert audit.count(("sam", "export_hand", subject)) == 2


def test_a_dealer_is_refused_the_same_page(browser: Any, site: tuple[str, Path, Path]) -> None:
    url, _, audit_path = site
    context = browser.new_context()
    page = context.new_page()
    try:
        response = page.goto(f"{url}/test-login/dealer")
        assert response is not None and response.status == 403
        assert "Forbidden" in (page.text_content("body") or "")
        assert page.locator("#hands").count() == 0
        api = page.request.get(f"{url}/review/api/hand/{PREMATURE_HAND}")
        assert api.status == 403
    finally:
        context.close()
    refused = [e for e in read_audit(audit_path) if e.action == "refused"]
    assert [(e.who, e.role, e.subject) for e in refused][-2:] == [
        ("dee", "dealer", "/review"), ("dee", "dealer", f"/review/api/hand/{PREMATURE_HAND}")]
