"""The live pages laid out on a phone, a small tablet and a laptop, in headless Debian Chromium.

The public table (/), the broadcast (/broadcast), the dealer page (/dealer) and the touch console
(/dealer/console), at 390x844, 768x1024 and 1280x800, are each fed the states that crowd a screen
most (tests/display/layout_snapshots.py: side pots with an uncalled bet, the pots awarded, ten
seats, seven-card stud on seventh street) through the real display server. On each:

- nothing is wider than the screen (``document.documentElement.scrollWidth``), and every seat,
  board card and pot or result line lies on it;
- no two seat boxes overlap, nor a seat and a board card or a pot or result line;
- every control of the header lies inside the header bar and on the screen;
- the cards in front of the seats stay legible (at least 24x34 px), and stud's are as large
  as hold'em's at a table of as many seats;
- on the console, no two of its seat or card keys overlap;
- no request fails (the favicon included).

Each state is saved as a screenshot, ``<page>-<case>-<W>x<H>.png``, with the measurements of the
page at that size as ``layout-<page>-<W>x<H>.json``, in $FELTGUARD_ARTIFACTS or else
<repo>/build/screens/: what a person looks at when a layout changes.

Skipped where /usr/bin/chromium is absent (tests/display/chromium.py).
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from display.server import Publisher, ServerHandle, close_app, create_app, run_server
from tests.display.chromium import BROWSER_MARKS
from tests.display.layout_snapshots import CASES
from tests.display.test_browser import WAIT_MS, publish

pytestmark = BROWSER_MARKS

TOKEN = "layout-token"
PAGES = {"table": "/", "broadcast": "/broadcast", "dealer": "/dealer",
         "console": "/dealer/console"}
SIZES = [(390, 844), (768, 1024), (1280, 800)]
# The smallest a card in front of a seat may be drawn and still be read across a table (px).
MIN_CARD_W, MIN_CARD_H = 24, 34
SLACK = 1.0  # px: boxes that only touch (a shared border) do not overlap

Box = tuple[float, float, float, float]  # left, top, right, bottom (CSS px of the viewport)

# What the page lays out, as boxes: the seats, the board's places, each pot or result line (the
# box of its text, not of its block), the header and its controls, the console's keys.
MEASURE = """() => {
  const box = e => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const shown = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const all = s => [...document.querySelectorAll(s)].filter(shown);
  const text = e => { const r = document.createRange(); r.selectNodeContents(e); return box(r); };
  const header = document.querySelector("header");
  const controls = [...header.querySelectorAll(":scope > *, :scope > form > *")]
    .filter(e => e.tagName !== "FORM").filter(shown);
  return {
    width: document.documentElement.scrollWidth,
    header: box(header),
    controls: controls.map(e => ({name: e.id || e.tagName.toLowerCase(), box: box(e)})),
    seats: all("#seats .seat").map(e => ({seat: e.dataset.seat, box: box(e)})),
    board: all("#board .card, #board .slot").map(box),
    lines: all("#pots > *, #results > *").map(e => ({text: e.textContent, box: text(e)})),
    cards: all("#seats .seat .card").map(e => [e.getBoundingClientRect().width,
                                               e.getBoundingClientRect().height]),
    keys: all("#seat-pick .key, #card-seats .key, #card-board .key").map(box),
  };
}"""


def artefacts() -> Path:
    """Where the screenshots go: $FELTGUARD_ARTIFACTS, else <repo>/build/screens/."""
    where = os.environ.get("FELTGUARD_ARTIFACTS")
    path = Path(where) if where else Path(__file__).resolve().parents[2] / "build" / "screens"
    path.mkdir(parents=True, exist_ok=True)
    return path


def overlap(a: Box, b: Box) -> bool:
    return (a[0] < b[2] - SLACK and b[0] < a[2] - SLACK
            and a[1] < b[3] - SLACK and b[1] < a[3] - SLACK)


def inside(inner: Box, outer: Box) -> bool:
    return (inner[0] >= outer[0] - SLACK and inner[2] <= outer[2] + SLACK
            and inner[1] >= outer[1] - SLACK and inner[3] <= outer[3] + SLACK)


def on_screen(b: Box, width: int) -> bool:
    return b[0] >= -SLACK and b[2] <= width + SLACK


def judge(m: dict[str, Any], width: int) -> dict[str, Any]:
    """The measurements of one state, and what is wrong with them."""
    seats = [s["box"] for s in m["seats"]]
    lines = [line["box"] for line in m["lines"]]
    things = seats + m["board"] + lines
    return {
        "document_width": m["width"],
        "seat_overlaps": sum(overlap(a, b) for a, b in itertools.combinations(seats, 2)),
        "seat_board_overlaps": sum(overlap(s, b) for s in seats for b in m["board"]),
        "seat_line_overlaps": sum(overlap(s, b) for s in seats for b in lines),
        "off_screen": sum(not on_screen(b, width) for b in things),
        "header_out": [c["name"] for c in m["controls"]
                       if not inside(c["box"], m["header"]) or not on_screen(c["box"], width)],
        "key_overlaps": sum(overlap(a, b) for a, b in itertools.combinations(m["keys"], 2)),
        "keys_off_screen": sum(not on_screen(b, width) for b in m["keys"]),
        "small_cards": sum(w < MIN_CARD_W or h < MIN_CARD_H for w, h in m["cards"]),
        "card_height": max((h for _, h in m["cards"]), default=0.0),
        "lines": [line["text"] for line in m["lines"]],
    }


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[ServerHandle, Publisher]]:
    """One server for the module (broadcast delay 0: each state at once); the tests number
    their states from one counter, so a page never mistakes an older state for the one sent."""
    app, live, publisher = create_app(dealer_token=TOKEN, broadcast_delay_s=0)
    handle = run_server(app, live, "127.0.0.1", 0)
    try:
        yield handle, publisher
    finally:
        handle.stop()
        close_app(app)


_seq = itertools.count(1000)


def show(page: Any, publisher: Publisher, snap: dict[str, Any]) -> None:
    """Publish `snap` under a fresh seq and wait until the page has drawn it."""
    from playwright.sync_api import expect

    snap = {**snap, "last_seq": next(_seq)}
    publish(publisher, snap)
    expect(page.locator("body")).to_have_attribute(
        "data-last-seq", str(snap["last_seq"]), timeout=WAIT_MS)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("name", list(PAGES))
def test_the_page_fits_the_screen(browser: Any, server: tuple[ServerHandle, Publisher],
                                  name: str, size: tuple[int, int]) -> None:
    from playwright.sync_api import expect

    handle, publisher = server
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height},
                                  has_touch=width < 1000)
    page = context.new_page()
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400
            else None)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error"
            and not m.text.startswith("Failed to load resource") else None)
    out = artefacts()
    report: dict[str, Any] = {}
    try:
        page.goto(handle.url + PAGES[name])
        if name in ("dealer", "console"):
            page.locator("#token").fill(TOKEN)
            page.locator("#login button[type=submit]").click()
        expect(page.locator("#status")).not_to_have_text("connecting", timeout=WAIT_MS)
        for case, build in CASES.items():
            show(page, publisher, build())
            page.screenshot(path=str(out / f"{name}-{case}-{width}x{height}.png"),
                            full_page=True)
            report[case] = judge(page.evaluate(MEASURE), width)
    finally:
        context.close()
    report["failed_requests"] = failed
    (out / f"layout-{name}-{width}x{height}.json").write_text(json.dumps(report, indent=1))

    problems = []
    for case in CASES:
        got = report[case]
        for key in ("seat_overlaps", "seat_board_overlaps", "seat_line_overlaps", "off_screen",
                    "key_overlaps", "keys_off_screen", "small_cards"):
            if got[key]:
                problems.append(f"{case}: {key} {got[key]}")
        if got["document_width"] > width:
            problems.append(f"{case}: document {got['document_width']} px wide")
        if got["header_out"]:
            problems.append(f"{case}: out of the header bar {got['header_out']}")
    if name != "console":
        # stud's cards as large as hold'em's at a table of as many seats (seven to ten)
        stud, holdem = report["stud"]["card_height"], report["tenseats"]["card_height"]
        if stud < 0.95 * holdem:
            problems.append(f"stud cards {stud:.0f} px high, hold'em's {holdem:.0f}")
    assert problems == [], problems
    assert failed == []
    assert errors == []
