"""The readers' health on the display: the dealer payload's ``devices``, ``/healthz`` (public:
overall ok / degraded / down, each reader's state, the journal's; no detail), and the dealer
page's banner in headless Debian Chromium ("SHOE READER OFFLINE")."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from controller.events import Event, ReaderHealth
from controller.rules import apply, initial_state, snapshot
from display.payloads import dealer_payload, table_payload
from display.server import Publisher, ServerHandle, create_app
from tests.display.chromium import needs_chromium
from tests.display.snapshots import short_hand
from tests.display.test_browser import WAIT_MS, log_in, publish

TOKEN = "health-token"


def with_readers(*reports: ReaderHealth) -> dict[str, Any]:
    """A snapshot of a hand (tests/display/snapshots.py) whose ``devices`` are what the rules
    core makes of these reader.health events."""
    state = initial_state()
    for i, body in enumerate(reports, start=1):
        state = apply(state, Event(i, 1_000 * i, body)).state
    return {**copy.deepcopy(short_hand()[-1]), "devices": snapshot(state)["devices"]}


def test_dealer_payload_carries_every_device_and_the_public_one_none() -> None:
    snap = with_readers(ReaderHealth(reader=1, name="shoe", state="offline", detail="gone"),
                        ReaderHealth(reader=2, name="felt", state="noisy", detail="30 bad"))
    assert dealer_payload(snap)["devices"] == snap["devices"]
    assert "devices" not in table_payload(snap)
    junk = {**snap, "devices": [{"reader": 1, "state": "melted"}, "x", {"state": "ok"}]}
    assert [(d["reader"], d["state"]) for d in dealer_payload(junk)["devices"]] == [
        (1, "offline")]  # an unknown state fails loud, a device without an id is dropped


@pytest.mark.parametrize(
    ("states", "journal_ok", "status"),
    [
        ((), True, "ok"),
        (("ok", "ok"), True, "ok"),
        (("ok", "noisy"), True, "degraded"),
        (("noisy", "offline"), True, "down"),
        (("silent",), True, "down"),
        (("fault",), True, "down"),
        (("ok",), False, "down"),
    ],
)
def test_healthz_overall_status(states: tuple[str, ...], journal_ok: bool, status: str) -> None:
    app, _, publisher = create_app(dealer_token=TOKEN, journal_health=lambda: {
        "ok": journal_ok, "last_seq": 9, "error": "/var/lib/feltguard: disk full"})
    snap = with_readers(*(ReaderHealth(reader=i, name="felt", state=s, detail="secret-ish")
                          for i, s in enumerate(states, start=1)))
    publisher.publish(snap)
    got = app.test_client().get("/healthz").get_json()
    assert got["status"] == status
    assert [r["state"] for r in got["readers"]] == list(states)
    assert got["journal"] == {"ok": journal_ok, "last_seq": 9}  # whitelisted: no path, no error
    assert "secret-ish" not in str(got) and "disk full" not in str(got)


@pytest.mark.browser
@needs_chromium
def test_dealer_page_banner_says_which_reader_is_down(
        browser: Any, live: tuple[ServerHandle, Publisher]) -> None:
    from playwright.sync_api import expect

    handle, publisher = live
    publish(publisher, with_readers(ReaderHealth(reader=1, name="shoe", state="offline",
                                                 detail="SerialException: gone")))
    page = browser.new_page()
    try:
        log_in(page, handle.url, TOKEN)
        banner = page.locator("#devices .device.offline")
        expect(banner).to_contain_text("SHOE READER OFFLINE", timeout=WAIT_MS)
        expect(page.locator("#devices")).to_be_visible()
        publish(publisher, with_readers(ReaderHealth(reader=1, name="shoe", state="ok")))
        expect(page.locator("#devices")).to_be_hidden(timeout=WAIT_MS)
        # the chip devices, named as the core names them (a counting tray is no "reader")
        publish(publisher, with_readers(
            ReaderHealth(reader=3, name="chip", state="silent"),
            ReaderHealth(reader=4, name="counting tray", state="offline")))
        expect(page.locator('#devices .device[data-reader="3"]')).to_contain_text(
            "CHIP READER SILENT", timeout=WAIT_MS)
        expect(page.locator('#devices .device[data-reader="4"]')).to_contain_text(
            "COUNTING TRAY OFFLINE", timeout=WAIT_MS)
    finally:
        page.close()
