"""The pages in headless Debian Chromium: the public felt shows the board as it comes and no hole
card before the showdown; the dealer logs in through the form (no token in any URL the page
visits, the session cookie out of the script's reach) and sees the findings; logout ends it.

Skipped where /usr/bin/chromium is absent (`apt-get install chromium`; never `playwright
install`). Flags from research/ecosystem.md §4.
"""

from __future__ import annotations

import copy
import json
import re
import threading
import urllib.request
from pathlib import Path
from typing import Any

from display.server import SESSION_COOKIE, Publisher, ServerHandle
from tests.display.chromium import BROWSER_MARKS
from tests.display.snapshots import (
    HOLE,
    MISDEAL_FINDING,
    TABLED,
    hole_cards_hidden_at,
    misdeal_hand,
    short_hand,
)

WAIT_MS = 10_000
TOKEN = "browser-token"
SUIT_SYMBOL = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
SUIT_NAME = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}

pytestmark = BROWSER_MARKS




def log_in(page: Any, base: str, token: str) -> None:
    """Log in as a dealer does: open /dealer, type the token into the form, submit."""
    page.goto(base + "/dealer")
    page.locator("#token").fill(token)
    page.locator("#login button[type=submit]").click()


def record_urls(page: Any) -> list[str]:
    """Every URL the page requests from now on, WebSocket connections included."""
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url))
    page.on("websocket", lambda ws: urls.append(ws.url))
    return urls


def publish(publisher: Publisher, snap: dict[str, Any]) -> None:
    # a copy: the core hands out a new snapshot per event and never changes one once published
    # (Publisher.publish), while the tests edit theirs in place between publishes
    # on a thread of its own, as the reader thread does
    t = threading.Thread(target=publisher.publish, args=(copy.deepcopy(snap),))
    t.start()
    t.join(5)


def renderings(card: str) -> tuple[str, str, re.Pattern[str]]:
    """How a card could show on the page: face text, tooltip, and its code as a DOM token."""
    rank = "10" if card[0] == "T" else card[0]
    return (
        rank + SUIT_SYMBOL[card[1]],
        f"{rank} of {SUIT_NAME[card[1]]}",
        re.compile(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])"),
    )


def visible_cards(page: Any, selector: str) -> list[str]:
    cards = page.locator(selector).evaluate_all("els => els.map(e => e.dataset.card)")
    return [str(c) for c in cards]


def test_public_table_page_shows_the_hand_without_leaking(
    browser: Any, live: tuple[ServerHandle, Publisher], tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    handle, publisher = live
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    console: list[str] = []
    page.on("console", lambda msg: console.append(msg.text) if msg.type == "error" else None)
    try:
        page.goto(handle.url + "/")
        expect(page.locator("#status")).to_have_text("live", timeout=WAIT_MS)

        for snap in short_hand():
            publish(publisher, snap)
            expect(page.locator("body")).to_have_attribute(
                "data-last-seq", str(snap["last_seq"]), timeout=WAIT_MS
            )
            assert visible_cards(page, "#board .card") == snap["hand"]["board"]

            text = re.sub(r"\s+", "", page.inner_text("body"))
            dom = page.content()
            for card in hole_cards_hidden_at(snap):
                face, tooltip, token = renderings(card)
                assert face not in text, f"{card} visible at seq {snap['last_seq']}"
                assert tooltip not in dom and not token.search(dom), (
                    f"{card} in the DOM at seq {snap['last_seq']}"
                )

            if snap["last_seq"] == 17:  # dealt: every seat holds two cards face down
                for seat in (1, 2, 3, 4):
                    backs = page.locator(f'.seat[data-seat="{seat}"] .hole .card.back')
                    assert backs.count() == 2
                assert page.locator(".seat.to-act").get_attribute("data-seat") == "4"
                assert page.locator('.seat[data-seat="1"] .marker.button').count() == 1
                assert page.locator("#findings .finding .title").all_inner_texts() == [
                    "Hole card flashed by the dealer"
                ]

        for seat in TABLED:
            assert visible_cards(page, f'.seat[data-seat="{seat}"] .hole .card') == HOLE[seat]
        for seat in (2, 4):
            assert page.locator(f'.seat[data-seat="{seat}"] .hole .card').count() == 0
        expect(page.locator("#results")).to_contain_text("Pair of aces")
        assert page.locator("body").get_attribute("data-transport") == "websocket"
        # once upgraded, the page's WebSocket had its states written straight to it
        # (display/direct_frames.py), as /healthz counts them
        with urllib.request.urlopen(handle.url + "/healthz", timeout=5) as r:
            assert json.load(r)["fan_out"]["direct"] > 0

        page.screenshot(path=str(tmp_path / "table.png"), full_page=True)
        page.screenshot(path="/tmp/feltguard-table.png", full_page=True)
    finally:
        page.close()
    assert [m for m in console if "Content Security Policy" in m] == []


def test_dealer_logs_in_through_the_form_and_sees_the_findings(
    browser: Any, live: tuple[ServerHandle, Publisher], tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    handle, publisher = live
    snaps = short_hand()
    publish(publisher, snaps[6])  # the turn: two findings, hole cards dealt

    # A token in a URL is never accepted: the page lands on the login form, the token gone.
    bad = browser.new_page()
    bad_urls = record_urls(bad)
    typed = f"{handle.url}/dealer?token={TOKEN}"
    try:
        bad.goto(typed)
        expect(bad.locator("#login")).to_be_visible(timeout=WAIT_MS)
        assert bad.url == handle.url + "/dealer"
        assert bad.context.cookies() == []
        # A wrong token: refused, with a message, and still no cookie and no table.
        bad.locator("#token").fill("wrong")
        bad.locator("#login button[type=submit]").click()
        expect(bad.locator("#login-error")).to_have_text("Wrong token.", timeout=WAIT_MS)
        assert bad.context.cookies() == [] and bad.locator(".seat").count() == 0
    finally:
        bad.close()
    assert [u for u in bad_urls if TOKEN in u] == [typed]  # only the address typed above

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    urls = record_urls(page)
    console: list[str] = []
    page.on("console", lambda msg: console.append(msg.text) if msg.type == "error" else None)
    try:
        log_in(page, handle.url, TOKEN)
        expect(page.locator("#status")).to_have_text("live", timeout=WAIT_MS)
        assert page.url == handle.url + "/dealer"
        [cookie] = page.context.cookies()
        assert cookie["name"] == SESSION_COOKIE and TOKEN not in cookie["value"]
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and cookie["path"] == "/"
        assert page.evaluate("document.cookie") == ""  # out of any script's reach
        # Straight to WebSocket: no polling URL carries the Engine.IO session id.
        assert page.locator("body").get_attribute("data-transport") == "websocket"
        expect(page.locator("body")).to_have_attribute("data-last-seq", "34", timeout=WAIT_MS)
        assert visible_cards(page, '.seat[data-seat="4"] .hole .card') == HOLE[4]
        findings = page.locator("#findings .finding")
        assert findings.first.get_attribute("data-code") == "BURN_MISSING_OR_EXTRA"  # newest first
        expect(findings.first.locator(".rule")).to_have_text(
            "roberts-rules-v11.txt, Section 3, Irregularities, rule 16"
        )
        assert findings.first.locator(".remedy li").count() == 2
        expect(page.locator("#expect")).to_contain_text("seat 3 to act")

        for snap in misdeal_hand():
            publish(publisher, snap)
        expect(page.locator("body")).to_have_attribute("data-last-seq", "52", timeout=WAIT_MS)
        misdeal = page.locator("#findings .finding.misdeal")
        expect(misdeal.locator(".message")).to_have_text(MISDEAL_FINDING["message"])
        colour = misdeal.evaluate("e => getComputedStyle(e).borderLeftColor")
        assert colour == "rgb(198, 40, 40)"  # misdeals in red
        page.screenshot(path=str(tmp_path / "dealer.png"), full_page=True)
        page.screenshot(path="/tmp/feltguard-dealer.png", full_page=True)

        # A second screen of the same login; logging out on the first closes both.
        other = context.new_page()
        urls_other = record_urls(other)
        other.goto(handle.url + "/dealer")
        expect(other.locator("#status")).to_have_text("live", timeout=WAIT_MS)
        page.locator("#logout button").click()
        expect(page.locator("#login")).to_be_visible(timeout=WAIT_MS)
        assert page.context.cookies() == []
        expect(other.locator("#status")).to_have_text("unauthorized", timeout=WAIT_MS)
        expect(other.locator("#relogin")).to_be_visible()
        assert other.locator("#relogin").get_attribute("href") == "/dealer"
        urls += urls_other
    finally:
        context.close()
    assert urls, "no request recorded"
    for url in urls:
        assert TOKEN not in url, url
        assert "sid=" not in url, url
    assert [m for m in console if "Content Security Policy" in m] == []
