"""The chips on the pages, in headless Debian Chromium: the dealer page shows a stack badge with
the chips in front of each seat, their denominations in the seat, the pot zone's and the
counting tray's totals; the touch console shows the acting seat's chips in front beside the call
amount; the public page shows the chips in front and nothing else of the chips."""

from __future__ import annotations

import re
from typing import Any

from display.server import Publisher, ServerHandle
from tests.display.chip_snapshots import (
    DROP,
    FRONT,
    POT,
    STACK_1,
    TRAY_COUNTS,
    TRAY_ZONE,
    chip_snapshot,
)
from tests.display.chromium import BROWSER_MARKS
from tests.display.test_browser import WAIT_MS, log_in, publish

TOKEN = "chips-token"
pytestmark = BROWSER_MARKS


def badges(page: Any) -> dict[int, str]:
    """Each seat's stack badge text, by seat."""
    got = page.locator(".seat").evaluate_all(
        "els => els.map(e => [Number(e.dataset.seat),"
        " (e.querySelector('.chips-front') || {}).textContent || null])"
    )
    return {int(seat): text for seat, text in got}


def numbers_in(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"\d+", text)}


def test_dealer_page_and_console_show_the_chips(
    browser: Any, live: tuple[ServerHandle, Publisher]
) -> None:
    from playwright.sync_api import expect

    handle, publisher = live
    snap = chip_snapshot()
    publish(publisher, snap)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        log_in(page, handle.url, TOKEN)
        expect(page.locator("body")).to_have_attribute(
            "data-last-seq", str(snap["last_seq"]), timeout=WAIT_MS)
        # a badge with the total where the bet zone was read (an empty zone is 0), none where not
        assert {s: (t and t.strip()) for s, t in badges(page).items()} == {
            1: "30", 2: "0", 3: None,
        }
        expect(page.locator('.seat[data-seat="1"] .chip-counts')).to_have_text(
            "1\u00d725 1\u00d75")
        assert page.locator('.seat[data-seat="2"] .chip-counts').count() == 0
        expect(page.locator("#chip-zones .pot-zone")).to_have_text(f"Pot chips {POT}")
        expect(page.locator("#chip-zones .tray-zone")).to_have_text(f"Tray {TRAY_COUNTS}")
        # the badge is drawn as a stack, not bare text
        assert page.locator('.seat[data-seat="1"] .chips-front').evaluate(
            "e => getComputedStyle(e, '::before').content") == '"\u26c1"'

        # the touch console: seat 1 to act, 30 in front, 10 to call
        snap["hand"].update({"phase": "flop", "number": 1, "to_act": 1, "to_call": 10,
                             "current_bet": 40})
        snap["last_seq"] += 1
        publish(publisher, snap)
        page.goto(handle.url + "/dealer/console")
        expect(page.locator("#in-front")).to_have_text(
            "Seat 1 in front: 30 (1\u00d725 1\u00d75) \u00b7 to call 10", timeout=WAIT_MS)
        expect(page.locator("#call")).to_have_text("Call 10")
        snap["hand"]["to_act"] = 3  # never read: said so, not shown as 0
        snap["last_seq"] += 1
        publish(publisher, snap)
        expect(page.locator("#in-front")).to_have_text(
            "Seat 3 in front: not read \u00b7 to call 10", timeout=WAIT_MS)
    finally:
        context.close()
    assert [m for m in errors if "Content Security Policy" in m] == []


def test_public_page_shows_the_chips_in_front_and_nothing_more(
    browser: Any, live: tuple[ServerHandle, Publisher]
) -> None:
    from playwright.sync_api import expect

    handle, publisher = live
    snap = chip_snapshot()
    publish(publisher, snap)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(handle.url + "/")
        expect(page.locator("body")).to_have_attribute(
            "data-last-seq", str(snap["last_seq"]), timeout=WAIT_MS)
        assert badges(page) == {s: (None if n is None else str(n)) for s, n in FRONT.items()}
        assert page.locator(".chip-counts").count() == 0
        assert page.locator("#chip-zones").count() == 0
        text = page.inner_text("body")
        shown = numbers_in(text)
        for hidden in (POT, DROP, TRAY_ZONE, TRAY_COUNTS, STACK_1):
            assert hidden not in shown, f"{hidden} on the public page: {text!r}"
        assert not re.search(r"tray|drop|\u00d7", text, re.I)
    finally:
        page.close()
