"""The pages of each game family in headless Debian Chromium, fed through the real display server.

Omaha high-low (board, four hole cards), seven-card stud and deuce-to-seven triple draw
(tests/display/family_snapshots.py) are published one snapshot at a time. The public page must
show what lies face up on the felt (Omaha's board, stud upcards with their identity, the draw
counts), every face-down card as a back, no board places in stud and draw, and no identity of a
face-down card anywhere in its text or its DOM. The dealer page shows every card, the stud down
cards apart from the upcards.

Skipped where /usr/bin/chromium is absent (`apt-get install chromium`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from display.server import Publisher, ServerHandle
from tests.display.chromium import BROWSER_MARKS
from tests.display.family_snapshots import (
    BRING_IN,
    DRAW_HANDS,
    DRAW_STRAY,
    DRAW_TABLED,
    EXPOSED_UP,
    OMAHA_HOLE,
    OMAHA_TABLED,
    STUD_DOWN,
    STUD_TABLED,
    STUD_UP,
    draw_hand,
    hidden_at,
    omaha8_hand,
    stud_exposed_hand,
    stud_hand,
)
from tests.display.test_browser import (
    WAIT_MS,
    log_in,
    publish,
    renderings,
    visible_cards,
)

TOKEN = "family-token"

pytestmark = BROWSER_MARKS

Snapshot = dict[str, Any]



@pytest.fixture
def table_page(browser: Any, live: tuple[ServerHandle, Publisher]) -> Iterator[Any]:
    """The public page, live."""
    from playwright.sync_api import expect

    handle, _ = live
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(handle.url + "/")
        expect(page.locator("#status")).to_have_text("live", timeout=WAIT_MS)
        yield page
    finally:
        page.close()


def show(page: Any, publisher: Publisher, snap: Snapshot) -> None:
    """Publish `snap` and wait until the page has drawn it."""
    from playwright.sync_api import expect

    publish(publisher, snap)
    expect(page.locator("body")).to_have_attribute(
        "data-last-seq", str(snap["last_seq"]), timeout=WAIT_MS
    )


def assert_no_hidden_card(page: Any, snap: Snapshot) -> None:
    """DOM leak scan: no face-down card's face, name or code in the page's text or markup."""
    text = re.sub(r"\s+", "", page.inner_text("body"))
    dom = page.content()
    hidden = hidden_at(snap)
    assert hidden
    for card in hidden:
        face, tooltip, token = renderings(card)
        assert face not in text, f"{card} visible at seq {snap['last_seq']}"
        assert tooltip not in dom and not token.search(dom), (
            f"{card} in the DOM at seq {snap['last_seq']}"
        )


def seat(page: Any, n: int, selector: str = "") -> Any:
    return page.locator(f'.seat[data-seat="{n}"] {selector}'.strip())


def test_public_omaha_page_shows_the_board_and_four_backs_a_seat(
    table_page: Any, live: tuple[ServerHandle, Publisher], tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    page, (_, publisher) = table_page, live
    for snap in omaha8_hand():
        show(page, publisher, snap)
        assert_no_hidden_card(page, snap)
        board = snap["hand"]["board"]
        assert visible_cards(page, "#board .card") == board
        assert page.locator("#board .slot").count() == 5 - len(board)
        if snap["last_seq"] == 10:  # dealing, one card at a time from seat 2
            for n, held in ((1, 1), (2, 2), (3, 2), (4, 1)):
                assert seat(page, n, ".hole .card.back").count() == held
                assert seat(page, n, ".hole .slot").count() == 4 - held
        if snap["last_seq"] == 20:
            for n in (1, 2, 3, 4):
                assert seat(page, n, ".hole .card.back").count() == 4
                assert seat(page, n, ".hole .slot").count() == 0
    expect(page.locator("#game")).to_have_text("Omaha high-low eight-or-better")
    assert page.locator("body").get_attribute("data-family") == "board"
    for n in OMAHA_TABLED:
        assert visible_cards(page, f'.seat[data-seat="{n}"] .hole .card') == OMAHA_HOLE[n]
    for n in (2, 4):  # folded, never tabled
        assert seat(page, n, ".hole .card").count() == 0
    expect(page.locator("#results")).to_contain_text("8-4-3-2-A low")
    page.screenshot(path=str(tmp_path / "omaha8.png"), full_page=True)


def test_public_stud_page_shows_upcards_and_down_cards_as_backs(
    table_page: Any, live: tuple[ServerHandle, Publisher], tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    page, (_, publisher) = table_page, live
    for snap in stud_hand():
        show(page, publisher, snap)
        assert_no_hidden_card(page, snap)
        assert page.locator("#board .card, #board .slot, #seats .slot").count() == 0
        assert page.locator("#board").is_hidden()
        tabled = set(snap["hand"]["showdown"])
        text = re.sub(r"\s+", "", page.inner_text("body"))
        for s in snap["seats"]:
            n, held = s["seat"], s["hole"]
            if s["folded"] or n in tabled:
                continue
            ups = [c for c in STUD_UP[n] if c in held]
            assert visible_cards(page, f'.seat[data-seat="{n}"] .hole .up .card.face') == ups
            for card in ups:  # the upcard's face is on the page for everyone to read
                assert renderings(card)[0] in text
            face_down = len([c for c in held if c in STUD_DOWN[n]])
            assert seat(page, n, ".hole .down .card.back").count() == face_down
            assert seat(page, n, ".hole .down .card.face").count() == 0
        if snap["last_seq"] == 20:  # the bring-in
            expect(seat(page, BRING_IN, ".bet")).to_have_text("1")
            assert page.locator(".seat.to-act").get_attribute("data-seat") == "3"
            expect(page.locator("#hand-info")).to_contain_text("third street")
    expect(page.locator("#game")).to_have_text("Seven-card stud")
    expect(page.locator("#stakes")).to_have_text("ante 1")  # no blinds in stud
    for n in STUD_TABLED:
        downs = visible_cards(page, f'.seat[data-seat="{n}"] .hole .down .card.face')
        assert downs == STUD_DOWN[n]
        assert visible_cards(page, f'.seat[data-seat="{n}"] .hole .up .card.face') == STUD_UP[n]
    expect(page.locator("#results")).to_contain_text("Pair of tens")
    page.screenshot(path=str(tmp_path / "stud.png"), full_page=True)

    # Hand 2: seat 2's down card (7d) was exposed and lies face up; its third card (Tc) was
    # dealt down: a back, never named.
    for snap in stud_exposed_hand():
        show(page, publisher, snap)
        assert_no_hidden_card(page, snap)
        held = snap["seats"][1]["hole"]
        ups = [c for c in EXPOSED_UP[2] if c in held]
        assert ups[0] == "7d"
        assert visible_cards(page, '.seat[data-seat="2"] .hole .up .card.face') == ups
        assert seat(page, 2, ".hole .down .card.back").count() == len(held) - len(ups) == 2
        assert seat(page, 2, ".hole .down .card.face").count() == 0
        assert seat(page, 1, ".hole .up .card.face").count() == len(held) - 2


def test_public_draw_page_shows_the_draw_counts_and_backs(
    table_page: Any, live: tuple[ServerHandle, Publisher], tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    page, (_, publisher) = table_page, live
    for snap in draw_hand():
        show(page, publisher, snap)
        assert_no_hidden_card(page, snap)
        assert page.locator("#board .card, #board .slot").count() == 0
        tabled = set(snap["hand"]["showdown"])
        for s in snap["seats"]:
            n = s["seat"]
            counts = seat(page, n, ".draws .draw").evaluate_all(
                "els => els.map(e => Number(e.dataset.count))"
            )
            # the draw under way, while it may be told (RR Section 11 r.13)
            want = [] if s["drawn_now"] is None else [s["drawn_now"]]
            assert counts == want, (n, snap["last_seq"])
            if not s["folded"] and n not in tabled:
                assert seat(page, n, ".hole .card.back").count() == len(s["hole"])
                assert seat(page, n, ".hole .card.face").count() == 0
        if snap["last_seq"] == 10:  # dealing: seat 3 has two of its five cards
            assert seat(page, 3, ".hole .card.back").count() == 2
            assert seat(page, 3, ".hole .slot").count() == 3
        if snap["last_seq"] == 50:
            # the third draw's counts only: the earlier ones had action after them
            expect(seat(page, 1, ".draws")).to_have_text(re.compile(r"^\s*drew\s*pat\s*$"))
            expect(seat(page, 3, ".draws")).to_have_text(re.compile(r"^\s*drew\s*1\s*$"))
    expect(page.locator("#game")).to_have_text("Deuce-to-seven triple draw")
    for n in DRAW_TABLED:
        assert visible_cards(page, f'.seat[data-seat="{n}"] .hole .card') == DRAW_HANDS[n][3]
    assert seat(page, 3, ".hole .card.face").count() == 0  # mucked, not tabled
    page.screenshot(path=str(tmp_path / "draw.png"), full_page=True)


def test_dealer_page_lays_out_each_family(
    browser: Any, live: tuple[ServerHandle, Publisher], tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    handle, publisher = live
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        log_in(page, handle.url, TOKEN)
        expect(page.locator("#status")).to_have_text("live", timeout=WAIT_MS)

        show(page, publisher, omaha8_hand()[1])
        for n, hole in OMAHA_HOLE.items():
            assert visible_cards(page, f'.seat[data-seat="{n}"] .hole .card.face') == hole
        assert page.locator("#board .slot").count() == 5

        seventh = stud_hand()[4]
        show(page, publisher, seventh)
        expect(page.locator("#game")).to_have_text("Seven-card stud")
        for s in seventh["seats"]:
            n, held = s["seat"], s["hole"]
            downs = visible_cards(page, f'.seat[data-seat="{n}"] .hole .down .card.face')
            ups = visible_cards(page, f'.seat[data-seat="{n}"] .hole .up .card.face')
            assert downs == [c for c in STUD_DOWN[n] if c in held]
            assert ups == [c for c in STUD_UP[n] if c in held]
        assert page.locator("#board .card, #board .slot").count() == 0
        assert page.locator(".hole .card.back").count() == 0
        page.screenshot(path=str(tmp_path / "dealer-stud.png"), full_page=True)

        stray = draw_hand()[2]
        show(page, publisher, stray)
        # the dealer sees the card read in the middle (no board places around it)
        assert visible_cards(page, "#board .card") == [DRAW_STRAY]
        assert page.locator("#board .slot").count() == 0
        show(page, publisher, draw_hand()[4])
        for s in draw_hand()[4]["seats"]:
            n = s["seat"]
            assert visible_cards(page, f'.seat[data-seat="{n}"] .hole .card.face') == s["hole"]
            counts = seat(page, n, ".draws .draw").evaluate_all(
                "els => els.map(e => Number(e.dataset.count))"
            )
            assert counts == s["drawn"]
        page.screenshot(path=str(tmp_path / "dealer-draw.png"), full_page=True)
    finally:
        context.close()
