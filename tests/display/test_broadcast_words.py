"""What the broadcast and the public table say, in words: the badge of a delayed broadcast says
it is delayed, never live; a pot line puts a colon between a pot's name and its amount; an
uncalled bet goes back to its owner and is never a pot; a result says who won how much (each
winner's share of a split pot); the findings stay off the broadcast unless the house puts them on
air, and then the payload carries them, not only the page; every page has an icon of its own.

Payload and config tests run everywhere; the browser tests (headless Debian Chromium, fed by the
real display server) are skipped where /usr/bin/chromium is absent.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.cli.main import build_parser
from controller.config import ConfigError, from_mapping
from display.payloads import broadcast_payload, dealer_payload, table_payload
from display.server import (
    BROADCAST,
    TABLE,
    Publisher,
    ServerHandle,
    close_app,
    create_app,
    run_server,
)
from tests.display.chromium import needs_chromium
from tests.display.layout_snapshots import UNCALLED, awarded, side_pots, ten_seats
from tests.display.test_browser import WAIT_MS, publish

TOKEN = "words-token"
DELAY_S = 0.5  # short: the test waits for each state, it never times one
PAGES = Path(__file__).resolve().parents[2] / "display"

POT_LINES = ["Main pot: 255", "Side pot 1: 180", "Side pot 2: 160"]
UNCALLED_LINE = "Uncalled 617 \u2192 back to seat 4 (Dee)"
RESULT_LINES = [
    "617 returned to Dee (uncalled)",
    "Dee wins 160 \u00b7 Straight, ace high",
    "Ann wins 90, Dee wins 90 \u00b7 Straight, ace high",
    "Ann wins 128, Dee wins 127 \u00b7 Straight, ace high",
]


# -- the payloads ---------------------------------------------------------------------------


def test_the_broadcast_payload_carries_no_findings_by_default() -> None:
    snap = ten_seats()
    assert snap["findings"] and table_payload(snap)["findings"]
    assert "findings" not in broadcast_payload(snap, 30)
    assert "findings" not in broadcast_payload(snap, 30, table_payload(snap))
    # nothing of them is left in the text either (the flashed card's code and title)
    text = repr(broadcast_payload(snap, 30))
    assert "CARD_FLASHED_BY_DEALER" not in text and "flashed" not in text


def test_the_broadcast_payload_carries_the_public_findings_when_set() -> None:
    snap = ten_seats()
    on_air = broadcast_payload(snap, 30, findings=True)
    assert on_air["findings"] == table_payload(snap)["findings"]
    assert set(on_air["findings"][0]) == {"code", "seq", "severity", "title", "seats"}


def test_the_publisher_keeps_the_findings_off_the_broadcast_unless_told() -> None:
    for on_air in (False, True):
        app, _live, publisher = create_app(dealer_token=TOKEN, broadcast_delay_s=0,
                                           broadcast_findings=on_air)
        try:
            assert ("findings" in publisher.latest(BROADCAST)) is on_air  # before any state
            publisher.publish(ten_seats())
            assert publisher.flush()
            assert ("findings" in publisher.latest(BROADCAST)) is on_air
            assert publisher.latest(TABLE)["findings"]  # the public table keeps them
        finally:
            close_app(app)


def test_the_uncalled_bet_reaches_every_view_that_has_the_pots() -> None:
    snap = side_pots()
    for payload in (table_payload(snap), broadcast_payload(snap, 30), dealer_payload(snap)):
        assert payload["hand"]["uncalled"] == UNCALLED
        assert [p["amount"] for p in payload["hand"]["pots"]] == [255, 180, 160]
    assert table_payload(awarded())["hand"]["uncalled"] is None


@pytest.mark.parametrize("bad", [None, 617, "617", [4, 617], {"seat": 4},
                                 {"seat": "4", "amount": 617}, {"seat": 4, "amount": 6.5},
                                 {"seat": True, "amount": 617}, {"seat": 4, "amount": 0}])
def test_a_malformed_uncalled_bet_is_none(bad: Any) -> None:
    snap = side_pots()
    snap["hand"]["uncalled"] = bad
    assert table_payload(snap)["hand"]["uncalled"] is None
    assert dealer_payload(snap)["hand"]["uncalled"] is None


def test_a_snapshot_without_the_key_has_no_uncalled_bet() -> None:
    snap = side_pots()
    del snap["hand"]["uncalled"]
    assert table_payload(snap)["hand"]["uncalled"] is None


# -- the setting ----------------------------------------------------------------------------


def test_the_findings_are_off_air_unless_the_config_says_so() -> None:
    assert from_mapping({}).broadcast_findings is False
    assert from_mapping({"broadcast": {"findings": True}}).broadcast_findings is True
    assert from_mapping({"broadcast": {"findings": False}}).broadcast_findings is False
    with pytest.raises(ConfigError, match=r"^broadcast\.findings: must be bool, got 'yes'$"):
        from_mapping({"broadcast": {"findings": "yes"}})


def test_the_simulator_takes_the_same_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    import controller.processes.sim as sim

    got: list[Any] = []
    monkeypatch.setattr(sim, "run_simulation", lambda opts: got.append(opts) or 0)
    for argv, on_air in ((["sim", "--no-web"], False),
                         (["sim", "--no-web", "--broadcast-findings"], True)):
        args: argparse.Namespace = build_parser().parse_args([*argv, "--journal",
                                                               str(Path("/tmp/unused.sqlite"))])
        assert args.func(args) == 0
        assert got.pop().broadcast_findings is on_air


def test_every_page_has_an_icon_so_the_browser_asks_for_no_favicon() -> None:
    for page in ("templates/view.html", "templates/login.html", "templates/refused.html",
                 "static/dealer.html", "static/console.html"):
        html = (PAGES / page).read_text(encoding="utf-8")
        assert '<link rel="icon" href="data:' in html, page


def test_the_broadcast_page_knows_its_delay_and_whether_it_shows_findings() -> None:
    app, _live, _publisher = create_app(dealer_token=TOKEN, broadcast_delay_s=1800)
    try:
        html = app.test_client().get("/broadcast").get_data(as_text=True)
        assert 'data-delay="1800.0"' in html and 'id="findings"' not in html
        assert 'id="findings"' in app.test_client().get("/").get_data(as_text=True)
    finally:
        close_app(app)


# -- the pages ------------------------------------------------------------------------------


def served(findings: bool) -> Iterator[tuple[ServerHandle, Publisher]]:
    app, live, publisher = create_app(dealer_token=TOKEN, broadcast_delay_s=DELAY_S,
                                      broadcast_findings=findings)
    handle = run_server(app, live, "127.0.0.1", 0)
    try:
        yield handle, publisher
    finally:
        handle.stop()
        close_app(app)


@pytest.fixture
def off_air() -> Iterator[tuple[ServerHandle, Publisher]]:
    yield from served(False)


@pytest.fixture
def on_air() -> Iterator[tuple[ServerHandle, Publisher]]:
    yield from served(True)


def drawn(page: Any, snap: dict[str, Any]) -> None:
    from playwright.sync_api import expect

    expect(page.locator("body")).to_have_attribute("data-last-seq", str(snap["last_seq"]),
                                                   timeout=WAIT_MS)


def texts(page: Any, selector: str) -> list[str]:
    return [str(t) for t in page.locator(selector).all_inner_texts()]


@pytest.mark.browser
@needs_chromium
def test_the_broadcast_says_it_is_delayed_and_who_won_what(
        browser: Any, off_air: tuple[ServerHandle, Publisher]) -> None:
    from playwright.sync_api import expect

    handle, publisher = off_air
    broadcast, table = browser.new_page(), browser.new_page()
    try:
        broadcast.goto(handle.url + "/broadcast")
        table.goto(handle.url + "/")
        expect(broadcast.locator("#status")).to_have_text("delayed 0.5 s", timeout=WAIT_MS)
        assert broadcast.locator("#status").get_attribute("class") == "status delayed"
        expect(table.locator("#status")).to_have_text("live", timeout=WAIT_MS)
        assert broadcast.locator("link[rel=icon]").count() == 1

        snap = ten_seats()
        publish(publisher, snap)
        for page in (broadcast, table):
            drawn(page, snap)
        assert texts(broadcast, "#pots > *") == ["Pot: 45"]
        # off air: no findings panel on the broadcast (its payload has none: above)
        assert broadcast.locator("#panel, .finding").count() == 0
        assert texts(table, "#findings .title") == ["Hole card flashed by the dealer"]

        snap = side_pots()
        publish(publisher, snap)
        for page in (broadcast, table):
            drawn(page, snap)
            assert texts(page, "#pots .pot") == POT_LINES
            assert texts(page, "#pots .uncalled") == [UNCALLED_LINE]
        # the badge still says how late the broadcast is, never that it is live
        assert broadcast.locator("#status").inner_text() == "delayed 0.5 s"

        snap = awarded()
        publish(publisher, snap)
        for page in (broadcast, table):
            drawn(page, snap)
            assert texts(page, "#results .result") == RESULT_LINES
            assert texts(page, "#pots > *") == []
    finally:
        broadcast.close()
        table.close()


@pytest.mark.browser
@needs_chromium
def test_a_house_may_put_the_findings_on_air(
        browser: Any, on_air: tuple[ServerHandle, Publisher]) -> None:
    handle, publisher = on_air
    page = browser.new_page()
    try:
        page.goto(handle.url + "/broadcast")
        snap = ten_seats()
        publish(publisher, snap)
        drawn(page, snap)
        assert texts(page, "#findings .title") == ["Hole card flashed by the dealer"]
        assert page.locator("#findings .message").count() == 0  # titles only, as in public
    finally:
        page.close()
