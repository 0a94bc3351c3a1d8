"""The broadcast overlay (`GET /broadcast/overlay`) in headless Debian Chromium at 1920x1080, fed
through the real display server with real odds: the four spots issue 30 asks for
(tests/display/overlay_snapshots.py), each valued by controller.poker.odds as the worker would
(``figure(spot, first=False)``), synchronously, so the figure is on the state when it goes on air.

For each: what a viewer must see (names, cards, the share as the page rounds it, the hand
labels, outs, the split halves, the board, the pot, the game and stakes, the seat to act), a
transparent page, nothing outside the 1920x1080 frame, no tiny type, no CSP error. Then a rough
Monte Carlo figure (no number), no figure (no bar), and the secure delay over the overlay.

Each spot is screenshotted into tmp_path with its transparency kept; with
FELTGUARD_WRITE_DOCS_IMG=1 also into docs/img/overlay-NAME.png (the screenshots of
docs/display.md). Skipped where /usr/bin/chromium is absent (tests/display/chromium.py).
"""

from __future__ import annotations

import math
import os
import struct
import threading
import time
import zlib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from controller.poker.equity import equity
from controller.poker.odds import Spot, block, figure, spot_of
from controller.poker.variants import VARIANTS
from display.payloads import broadcast_payload
from display.server import ServerHandle, close_app, create_app, run_server
from tests.display.chromium import BROWSER_MARKS
from tests.display.overlay_snapshots import FULL_TABLES, SCENARIOS, Snapshot

pytestmark = BROWSER_MARKS

WAIT_MS = 15_000
FRAME = (1920, 1080)
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
SMALLEST_TYPE_PX = 22  # read on a television across a room


class SyncOdds:
    """The broadcast's odds source (display.server ``OddsSource``), valued on the spot it is
    asked for with the worker's own code: ``figure(spot, first=False)``. ``value`` may put a
    different valuation in its place; ``ready=False`` is the moment before any figure."""

    def __init__(self, value: Callable[[Spot], dict[str, Any]] | None = None,
                 ready: bool = True) -> None:
        self.value = value or (lambda spot: figure(spot, first=False)[0])
        self.ready = ready
        self.figures: dict[Spot, dict[str, Any]] = {}
        self.closed = False

    def request(self, snapshot: Mapping[str, Any]) -> Spot | None:
        spot = spot_of(snapshot)
        if spot is not None and self.ready and spot not in self.figures:
            self.figures[spot] = self.value(spot)
        return spot

    def figure(self, spot: Any) -> dict[str, Any] | None:
        return self.figures.get(spot)

    def subscribe(self, listener: Callable[[Any], None]) -> None:
        pass  # every figure is there before its state goes on air: none arrives later

    def close(self) -> None:
        self.closed = True


def percent(x: float) -> str:
    """The share as overlay.js writes it (Math.round, with <1% and >99%)."""
    if x <= 0:
        return "0%"
    if x >= 1:
        return "100%"
    p = math.floor(x * 100 + 0.5)
    return "<1%" if p == 0 else ">99%" if p == 100 else f"{p}%"


def chips(n: int) -> str:
    return f"{n:,}"


def serve(odds: SyncOdds, delay_s: float = 0) -> tuple[Any, ServerHandle, Any]:
    app, live, publisher = create_app(dealer_token="t", broadcast_delay_s=delay_s, odds=odds)
    return app, run_server(app, live, "127.0.0.1", 0), publisher


@pytest.fixture
def overlay(browser: Any) -> Iterator[Callable[..., tuple[Any, Any, list[str]]]]:
    """Open the overlay at 1920x1080 on a fresh server: returns (page, publisher, errors)."""
    opened: list[tuple[Any, Any, ServerHandle]] = []

    def open_(odds: SyncOdds, delay_s: float = 0,
              size: tuple[int, int] = FRAME) -> tuple[Any, Any, list[str]]:
        from playwright.sync_api import expect

        app, handle, publisher = serve(odds, delay_s)
        page = browser.new_page(viewport={"width": size[0], "height": size[1]})
        opened.append((page, app, handle))
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(handle.url + "/broadcast/overlay")
        expect(page.locator("#status")).to_have_class("live", timeout=WAIT_MS)
        return page, publisher, errors

    yield open_
    for page, app, handle in opened:
        page.close()
        handle.stop()
        close_app(app)


def publish(page: Any, publisher: Any, snap: Snapshot) -> None:
    from playwright.sync_api import expect

    publisher.publish(snap)
    expect(page.locator("body")).to_have_attribute("data-last-seq", str(snap["last_seq"]),
                                                   timeout=WAIT_MS)


def texts(page: Any, selector: str) -> list[str]:
    return [t.strip() for t in page.locator(selector).all_inner_texts()]


def cards(page: Any, selector: str) -> list[str]:
    return list(page.locator(selector).evaluate_all("els => els.map(e => e.dataset.card)"))


def corner_alpha(png: bytes) -> int:
    """The alpha of a PNG's top-left pixel (8-bit RGBA): whatever the row's filter, the first
    pixel of the first row is stored as it is (every predictor there is zero)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat, header = 8, b"", b""
    while at < len(png):
        (size,) = struct.unpack(">I", png[at:at + 4])
        kind, data = png[at + 4:at + 8], png[at + 8:at + 8 + size]
        if kind == b"IHDR":
            header = data
        elif kind == b"IDAT":
            idat += data
        at += 12 + size
    assert header[8:10] == b"\x08\x06", "an 8-bit RGBA picture (the transparency kept)"
    raw = zlib.decompress(idat)
    return raw[1 + 3]  # the filter byte, then R, G, B, A


def frame_problems(page: Any, size: tuple[int, int] = FRAME) -> dict[str, Any]:
    """Whatever a 1920x1080 source would lose or a viewer could not read: an element drawn
    outside the frame (or outside its player's panel), a scroll, text under the smallest size, a
    background on the page."""
    return page.evaluate(
        """([w, h, smallest]) => {
          const out = {outside: [], tiny: [], scroll: [document.documentElement.scrollWidth,
                       document.documentElement.scrollHeight],
                       backgrounds: [document.documentElement, document.body].map(
                         e => getComputedStyle(e).backgroundColor)};
          for (const e of document.body.querySelectorAll('*')) {
            const r = e.getBoundingClientRect();
            if (!r.width || !r.height || e.tagName === 'SCRIPT') continue;
            if (r.left < 0 || r.top < 0 || r.right > w + 0.5 || r.bottom > h + 0.5) {
              out.outside.push([e.id || e.className, r.left, r.top, r.right, r.bottom]);
            }
            // and what a player's panel holds lies in the panel
            const panel = e.parentElement && e.parentElement.closest('.player');
            if (panel) {
              const p = panel.getBoundingClientRect();
              if (r.left < p.left - 0.5 || r.top < p.top - 0.5 || r.right > p.right + 0.5
                  || r.bottom > p.bottom + 0.5) {
                out.outside.push([e.className, e.textContent, 'outside its panel']);
              }
            }
            const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
            if (own && parseFloat(getComputedStyle(e).fontSize) < smallest) {
              out.tiny.push([e.className, e.textContent, getComputedStyle(e).fontSize]);
            }
          }
          return out;
        }""",
        [size[0], size[1], SMALLEST_TYPE_PX],
    )


def check_what_a_viewer_sees(page: Any, snap: Snapshot, fig: dict[str, Any]) -> None:
    from playwright.sync_api import expect

    payload = broadcast_payload(snap, 0)
    table, hand = payload["table"], payload["hand"]
    assert page.locator("#game").inner_text() == VARIANTS[table["game"]].name
    stakes = page.locator("#stakes").inner_text()
    if table["family"] == "stud":
        assert stakes == f"Ante {table['ante']}"
    else:
        assert stakes == f"Blinds {chips(table['small_blind'])}/{chips(table['big_blind'])}"
    assert page.locator("body").get_attribute("data-game") == table["game"]
    assert page.locator("#pot").inner_text() == "Pot " + chips(
        sum(p["amount"] for p in hand["pots"]))
    if table["family"] == "board":
        assert cards(page, "#board .card") == hand["board"]
    else:
        assert page.locator("#board .card").count() == 0

    live = [s for s in payload["seats"] if s["in_hand"] and not s["folded"]]
    gone = [s for s in payload["seats"] if s not in live]
    assert [int(x) for x in page.locator(".player").evaluate_all(
        "els => els.map(e => e.dataset.seat)")] == [s["seat"] for s in live]
    rows = {row["seat"]: row for row in fig["seats"]}
    for s in live:
        box = f'.player[data-seat="{s["seat"]}"]'
        row = rows[s["seat"]]
        assert page.locator(box + " .name").inner_text() == s["player"]
        assert cards(page, box + " .card.face") == s["hole"]
        if s["all_in"] and not s["stack"]:
            assert page.locator(box + " .tag.allin").inner_text() == "ALL IN"
            assert page.locator(box + " .stack").count() == 0
        else:
            assert page.locator(box + " .stack .amount").inner_text() == chips(s["stack"])
        if table["family"] == "draw":  # the draw under way, as the table may tell it
            held, slots = len(s["hole"]), table["hole_slots"]
            note = (f"Drawing {slots - held}" if held < slots
                    else "" if not s["drawn"] else "Stands pat" if s["drawn"][-1] == 0
                    else f"Drew {s['drawn'][-1]}")
            assert texts(page, box + " .draw") == ([note] if note else [])
            assert page.locator(box + " .card.slot").count() == slots - held
        if s["bet"]:
            assert page.locator(box + " .bet").inner_text() == f"Bet {chips(s['bet'])}"
        assert page.locator(box + " .pct").inner_text() == percent(row["equity"])
        width = page.locator(box + " .fill").evaluate("e => e.style.width")
        assert float(width.rstrip("%")) == pytest.approx(row["equity"] * 100, abs=0.06)
        assert texts(page, box + " .label") == [label for label in row["labels"] if label]
        if row["outs"] is None:
            assert page.locator(box + " .outs").count() == 0
        else:
            assert page.locator(box + " .outs").inner_text() == (
                f"{row['outs']} out" + ("" if row["outs"] == 1 else "s"))
        if fig["split"]:
            assert page.locator(box + " .halves").inner_text() == (
                f"{percent(row['high'])} high \u00b7 {percent(row['low'])} low")
        else:
            assert page.locator(box + " .halves").count() == 0
        if table["family"] == "stud":  # every card face up, the upcards marked
            assert cards(page, box + " .card.up") == s["up"]
            assert cards(page, box + " .card.down") == [c for c in s["hole"]
                                                        if c not in s["up"]]
    for s in gone:  # folded or sitting out: off the lower third, their cards nowhere
        assert page.locator(f'.player[data-seat="{s["seat"]}"]').count() == 0
        for c in s["hole"]:
            assert page.locator(f'.card[data-card="{c}"]').count() == 0
    acting = page.locator(".player.to-act")
    if hand["to_act"] is None:
        assert acting.count() == 0
    else:
        assert acting.get_attribute("data-seat") == str(hand["to_act"])
        assert page.locator(".player.to-act .tag.act").inner_text() == "TO ACT"
    if fig["assumes_draws"]:
        expect(page.locator("#assumes")).to_have_text("Odds assume the draws declared")
    else:
        expect(page.locator("#assumes")).to_be_hidden()
    # the connection is a dot, never words over the picture
    assert page.locator("#status").inner_text() == ""


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_the_overlay_shows_each_spot_readable_in_a_transparent_1920x1080_frame(
    overlay: Callable[..., tuple[Any, Any, list[str]]], tmp_path: Path, name: str
) -> None:
    snap = SCENARIOS[name]()
    odds = SyncOdds()
    page, publisher, errors = overlay(odds)
    publish(page, publisher, snap)
    spot = spot_of(snap)
    assert spot is not None
    fig = odds.figures[spot]
    assert fig["shown"], "an exact figure (or a fine one) is on screen"
    check_what_a_viewer_sees(page, snap, fig)

    problems = frame_problems(page)
    assert problems["backgrounds"] == ["rgba(0, 0, 0, 0)"] * 2, "the page is transparent"
    assert problems["outside"] == [], "everything lies in the 1920x1080 frame"
    assert problems["scroll"] == list(FRAME)
    assert problems["tiny"] == [], f"no type under {SMALLEST_TYPE_PX} px"

    png = page.screenshot(path=str(tmp_path / f"overlay-{name}.png"), omit_background=True)
    assert corner_alpha(png) == 0, "the picture shows through where no panel is"
    if os.environ.get("FELTGUARD_WRITE_DOCS_IMG") == "1":
        DOCS_IMG.mkdir(parents=True, exist_ok=True)
        (DOCS_IMG / f"overlay-{name}.png").write_bytes(png)
    assert [m for m in errors if "Content Security Policy" in m] == []
    assert errors == []


def test_a_rough_figure_shows_no_number_and_no_figure_shows_no_bar(
    overlay: Callable[..., tuple[Any, Any, list[str]]]
) -> None:
    from playwright.sync_api import expect

    snap = SCENARIOS["omaha8-split"]()
    # a Monte Carlo figure of a few hundred run-outs: its margin is more than a point
    rough = SyncOdds(lambda spot: block(
        spot, equity(spot.game, spot.hands, spot.board, spot.dead, exact=False, samples=200),
        None, False))
    page, publisher, errors = overlay(rough)
    publish(page, publisher, snap)
    fig = next(iter(rough.figures.values()))
    assert fig["method"] == "monte carlo" and not fig["shown"]
    assert page.locator("body").get_attribute("data-equity") == "rough"
    for row in fig["seats"]:
        box = f'.player[data-seat="{row["seat"]}"]'
        assert page.locator(box + " .odds.pending .pct").inner_text() == "\u2026"
        assert page.locator(box + " .fill").evaluate("e => e.style.width") == ""
        assert page.locator(box + " .halves").count() == 0
        assert texts(page, box + " .label") == [label for label in row["labels"] if label]
    assert errors == []

    none = SyncOdds(ready=False)  # the state goes on air before its first figure
    page, publisher, errors = overlay(none)
    publish(page, publisher, snap)
    assert page.locator("body").get_attribute("data-equity") == "none"
    assert page.locator(".player").count() == 3
    assert page.locator(".odds, .bar, .pct, .label, .outs").count() == 0
    expect(page.locator("#assumes")).to_be_hidden()
    assert errors == []


def test_the_secure_delay_governs_the_overlay(
    overlay: Callable[..., tuple[Any, Any, list[str]]]
) -> None:
    from playwright.sync_api import expect

    delay = 2.0
    snap = SCENARIOS["holdem-allin"]()
    page, publisher, errors = overlay(SyncOdds(), delay_s=delay)
    t = threading.Thread(target=publisher.publish, args=(snap,))  # the reader's thread
    published = time.monotonic()
    t.start()
    t.join(5)
    time.sleep(max(0.0, delay / 2 - (time.monotonic() - published)))
    # halfway through the delay: no card, no odds, no pot
    assert page.locator(".card, .pct, #pot:not(:empty)").count() == 0
    expect(page.locator(".player .pct").first).to_be_visible(timeout=WAIT_MS)
    assert time.monotonic() - published >= delay
    assert cards(page, '.player[data-seat="1"] .card') == ["As", "Ah"]
    assert errors == []


def test_the_hand_over_says_who_won_and_a_smaller_source_gets_the_frame_scaled(
    overlay: Callable[..., tuple[Any, Any, list[str]]], tmp_path: Path
) -> None:
    snap = SCENARIOS["holdem-allin"]()
    snap["hand"].update(phase="complete", board=["Kh", "7s", "2s", "Ad", "9d"], pots=[])
    snap["results"] = [
        {"amount": 4_550, "eligible": [1, 3, 5], "winners": [1], "shares": {"1": 4_550},
         "hand": "Three of a kind, aces"},
        {"amount": 1_800, "eligible": [3, 5], "winners": [3], "shares": {"3": 1_800},
         "hand": "Three of a kind, kings"},
    ]
    size = (1280, 720)  # a 720p source: the 1920x1080 layout, scaled by two thirds
    page, publisher, errors = overlay(SyncOdds(), size=size)
    publish(page, publisher, snap)
    assert texts(page, "#results .result") == [
        "Maria Ortega-Villanueva wins 4,550 \u00b7 Three of a kind, aces",
        "Jin Park wins 1,800 \u00b7 Three of a kind, kings",
    ]
    assert page.locator("#pot-box").is_hidden()  # the pots are awarded
    assert cards(page, "#board .card") == snap["hand"]["board"]
    problems = frame_problems(page, size)
    assert problems["outside"] == []  # (the layout box stays 1920x1080; nothing scrolls)
    page.screenshot(path=str(tmp_path / "overlay-hand-over-1280x720.png"), omit_background=True)
    box = page.locator("#frame").bounding_box()
    assert (box["width"], box["height"]) == pytest.approx(size, abs=1)
    assert errors == []


@pytest.mark.parametrize("name", list(FULL_TABLES))
def test_a_full_table_fits_in_two_rows_and_nothing_covers_anything(
    overlay: Callable[..., tuple[Any, Any, list[str]]], tmp_path: Path, name: str
) -> None:
    snap = FULL_TABLES[name]()
    odds = SyncOdds()
    page, publisher, errors = overlay(odds)
    publish(page, publisher, snap)
    fig = odds.figures[spot_of(snap)]  # type: ignore[index]
    check_what_a_viewer_sees(page, snap, fig)
    assert page.locator("#players").get_attribute("data-rows") == "2"
    problems = frame_problems(page)
    assert problems["outside"] == [] and problems["scroll"] == list(FRAME)
    assert problems["tiny"] == []
    shown = page.locator("#bug, #board, #pot-box, .player").all()
    boxes = [b for b in (x.bounding_box() for x in shown) if b is not None]
    assert len(boxes) >= 2 + len(snap["seats"])  # the bug, the pot, a panel a player

    def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
        return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
                and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])

    assert not [(i, j) for i, a in enumerate(boxes) for j, b in enumerate(boxes)
                if i < j and overlap(a, b)]
    page.screenshot(path=str(tmp_path / f"overlay-{name}.png"), omit_background=True)
    assert errors == []
