"""The broadcast page in headless Debian Chromium: it shows every seat's hole cards, but only the
secure delay after they were dealt; until then it shows the table as it was (here: waiting for
a hand). The public table page, open beside it, never shows them. CSP-clean.

Skipped where /usr/bin/chromium is absent (tests/display/chromium.py).
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from display.server import create_app, run_server
from tests.display.chromium import BROWSER_MARKS
from tests.display.snapshots import HOLE, short_hand

pytestmark = BROWSER_MARKS

DELAY_S = 2.0
WAIT_MS = 10_000


def test_a_hole_card_appears_on_the_broadcast_only_after_the_delay(
    browser: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    app, live, publisher = create_app(dealer_token="t", broadcast_delay_s=DELAY_S)
    handle = run_server(app, live, "127.0.0.1", 0)
    broadcast, table = browser.new_page(), browser.new_page()
    console: list[str] = []
    for page in (broadcast, table):
        page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    try:
        broadcast.goto(handle.url + "/broadcast")
        table.goto(handle.url + "/")
        expect(table.locator("#status")).to_have_text("live", timeout=WAIT_MS)
        # the broadcast's badge says how late it runs, never "live"
        expect(broadcast.locator("#status")).to_have_text("delayed 2 s", timeout=WAIT_MS)
        expect(broadcast.locator("#hand-info")).to_have_text("waiting for a hand")

        dealt = next(s for s in short_hand() if all(len(x["hole"]) == 2 for x in s["seats"]))
        seq = str(dealt["last_seq"])
        ace = f'.seat[data-seat="1"] .hole .card.face[data-card="{HOLE[1][0]}"]'
        t = threading.Thread(target=publisher.publish, args=(dealt,))  # the reader's thread
        published = time.monotonic()
        t.start()
        t.join(5)

        # the public page has the deal at once, as backs
        expect(table.locator("body")).to_have_attribute("data-last-seq", seq, timeout=WAIT_MS)
        assert table.locator(".seat .hole .card.face").count() == 0
        # halfway through the delay the broadcast still shows the table as it was
        time.sleep(max(0.0, DELAY_S / 2 - (time.monotonic() - published)))
        assert broadcast.locator(ace).count() == 0
        assert broadcast.locator("body").get_attribute("data-last-seq") == ""
        # then the deal, every hole card face up, not before the delay
        expect(broadcast.locator(ace)).to_have_count(1, timeout=WAIT_MS)
        assert time.monotonic() - published >= DELAY_S
        assert broadcast.locator("body").get_attribute("data-last-seq") == seq
        for seat, cards in HOLE.items():
            faces = broadcast.locator(f'.seat[data-seat="{seat}"] .hole .card.face')
            assert faces.evaluate_all("els => els.map(e => e.dataset.card)") == cards
        assert table.locator(".seat .hole .card.face").count() == 0
        broadcast.screenshot(path=str(tmp_path / "broadcast.png"), full_page=True)
    finally:
        broadcast.close()
        table.close()
        handle.stop()
    assert [m for m in console if "Content Security Policy" in m] == []
