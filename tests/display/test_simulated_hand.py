"""The display during a hand the simulated dealer really played, through the real rules core.

A Socket.IO client on each namespace, and both pages in headless Chromium (the dealer's after
logging in through its form), watch every snapshot of the hand: the board comes card by card,
the public never gets a hole card before the showdown, the dealer gets every one, the tabled
hands show once they are tabled, and no URL the dealer's page visits holds the token.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from display.server import DEALER, TABLE, Publisher, ServerHandle
from tests.display.chromium import needs_chromium
from tests.display.simulated import hand_to_showdown, hidden_hole_cards
from tests.display.test_browser import (
    WAIT_MS,
    log_in,
    publish,
    record_urls,
    renderings,
    visible_cards,
)
from tests.display.test_server import Listener, publish_from_thread

TOKEN = "sim-token"



@pytest.fixture(scope="module")
def hand() -> list[dict[str, Any]]:
    return hand_to_showdown(seed=1)


def test_clients_on_both_namespaces_during_a_simulated_hand(
    live: tuple[ServerHandle, Publisher], hand: list[dict[str, Any]]
) -> None:
    handle, publisher = live
    public = Listener(handle.url, TABLE)
    dealer = Listener(handle.url, DEALER, auth={"token": TOKEN})
    try:
        public.next(), dealer.next()  # greetings
        got_public, got_dealer = [], []
        # One event at a time, as a hand goes (python-engineio's polling client refuses a poll
        # holding more than 16 packets; a burst of 77 is not what a table sends anyway).
        for snap in hand:
            publish_from_thread(publisher, [snap])
            got_public.append(public.next())
            got_dealer.append(dealer.next())
    finally:
        public.close()
        dealer.close()
    assert [p["last_seq"] for p in got_public] == [s["last_seq"] for s in hand]
    showdown_at = next(i for i, s in enumerate(hand) if s["hand"]["showdown"])
    for snap, payload in zip(hand, got_public, strict=True):
        text = json.dumps(payload)
        for card in hidden_hole_cards(snap):
            assert not re.search(rf"\b{card}\b", text), f"{card} leaked at seq {snap['last_seq']}"
    assert showdown_at > 0 and any(hidden_hole_cards(s) for s in hand[:showdown_at])
    # The dealer sees every hole card as soon as it is read.
    for snap, payload in zip(hand, got_dealer, strict=True):
        assert {s["seat"]: s["hole"] for s in payload["seats"]} == {
            s["seat"]: s["hole"] for s in snap["seats"]
        }
    last = hand[-1]
    tabled = {s["seat"]: s["hole"] for s in got_public[-1]["seats"] if s["hole"]}
    assert tabled == {
        s["seat"]: s["hole"] for s in last["seats"] if s["seat"] in last["hand"]["showdown"]
    }


@pytest.mark.browser
@needs_chromium
def test_both_pages_during_a_simulated_hand(
    browser: Any, live: tuple[ServerHandle, Publisher], hand: list[dict[str, Any]],
    tmp_path: Any
) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    handle, publisher = live
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    dealer = browser.new_page(viewport={"width": 1280, "height": 800})
    dealer_urls = record_urls(dealer)
    try:
        page.goto(handle.url + "/")
        log_in(dealer, handle.url, TOKEN)
        for screen in (page, dealer):
            sync_api.expect(screen.locator("#status")).to_have_text("live", timeout=WAIT_MS)
        boards_seen = set()
        for snap in hand:
            publish(publisher, snap)
            for screen in (page, dealer):
                sync_api.expect(screen.locator("body")).to_have_attribute(
                    "data-last-seq", str(snap["last_seq"]), timeout=WAIT_MS
                )
            board = visible_cards(page, "#board .card")
            assert board == snap["hand"]["board"]
            boards_seen.add(len(board))
            text = re.sub(r"\s+", "", page.inner_text("body"))
            dom = page.content()
            for card in hidden_hole_cards(snap):
                face, tooltip, token = renderings(card)
                assert face not in text, f"{card} visible at seq {snap['last_seq']}"
                assert tooltip not in dom and not token.search(dom), card
            # The dealer's page shows every hole card as soon as it is read.
            for seat in snap["seats"]:
                shown = visible_cards(dealer, f'.seat[data-seat="{seat["seat"]}"] .hole .card')
                assert shown == seat["hole"], (seat["seat"], snap["last_seq"])
        assert {0, 3, 4, 5} <= boards_seen  # the board came as flop, turn and river
        last = hand[-1]
        for seat in last["hand"]["showdown"]:
            hole = next(s["hole"] for s in last["seats"] if s["seat"] == seat)
            assert visible_cards(page, f'.seat[data-seat="{seat}"] .hole .card') == hole
        page.screenshot(path=str(tmp_path / "simulated.png"), full_page=True)
        dealer.screenshot(path=str(tmp_path / "simulated-dealer.png"), full_page=True)
    finally:  # (the browser is the module's: close only this test's pages)
        page.close()
        dealer.close()
    assert dealer_urls and not [u for u in dealer_urls if TOKEN in u or "sid=" in u]
