"""The pages over HTTPS in Debian's Chromium, trusting only the table's authority.

No certificate error is ignored (no ``ignore_https_errors``, no ``--ignore-certificate-errors``):
Chromium on Linux trusts the authorities of the NSS database in ``$HOME/.pki/nssdb``, so each
test gives it a fresh home whose database holds the table's ``ca.pem`` and nothing else
(``certutil``, Debian's libnss3-tools). The same Chromium with an empty database is refused the
page, which proves the trust comes from that authority alone.

- The dealer logs in on the touch console at ``https://``, deals a whole hold'em hand from it
  (every tap journaled, the cards on the page) and the dealer view shows the hole cards; the
  session cookie is ``Secure``; every socket is ``wss://``.
- A simulated table (``feltguard sim --tls``, its demo logins): the public page and the
  broadcast get their states over ``wss://``, and surveillance opens a hand in the review.

Skipped where /usr/bin/chromium or certutil is absent.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.daemon.console_submit import console_submit
from controller.daemon.table_daemon import TableDaemon
from controller.journal import Journal
from controller.security import tls
from controller.sensing.cards import Sensing
from display.server import close_app, create_app, run_server
from tests.display.chromium import ARGS, BROWSER_MARKS, CHROMIUM
from tests.display.test_browser import WAIT_MS
from tests.display.test_browser_console import (
    ANTENNAS,
    FLOOR,
    TOKEN,
    Table,
    check_journal,
    play,
    scenario,
)
from tests.sim_demo import demo_passwords, read_head, served_port, start_sim

CERTUTIL = shutil.which("certutil")
REPO = Path(__file__).resolve().parents[2]
pytestmark = [*BROWSER_MARKS, pytest.mark.skipif(
    CERTUTIL is None, reason="certutil is missing: apt-get install libnss3-tools to run the "
                             "HTTPS browser tests")]


def nss_home(home: Path, ca: Path | None) -> Path:
    """A home whose NSS database trusts ``ca`` only (None: nothing)."""
    db = home / ".pki" / "nssdb"
    db.mkdir(parents=True)
    assert CERTUTIL is not None
    subprocess.run([CERTUTIL, "-d", f"sql:{db}", "-N", "--empty-password"], check=True,
                   capture_output=True)
    if ca is not None:
        subprocess.run([CERTUTIL, "-d", f"sql:{db}", "-A", "-n", "feltguard-test-ca", "-t",
                        "C,,", "-i", str(ca)], check=True, capture_output=True)
    return home


def chromium(p: Any, home: Path) -> Any:
    return p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS,
                             env={**os.environ, "HOME": str(home)})


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> tls.TlsFolder:
    return tls.init_folder(tmp_path_factory.mktemp("pki") / "tls",
                           hosts=["localhost", "127.0.0.1"]).folder


@pytest.fixture(scope="module")
def playwright() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def trusting(playwright: Any, pki: tls.TlsFolder,
             tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Chromium trusting the table's authority and nothing else."""
    browser = chromium(playwright, nss_home(tmp_path_factory.mktemp("home"), pki.ca_cert))
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture
def table(tmp_path: Path, pki: tls.TlsFolder) -> Iterator[Table]:
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    daemon = TableDaemon(journal, sensing=Sensing(dict(ANTENNAS)))
    app, live, publisher = create_app(dealer_token=TOKEN, floor_token=FLOOR,
                                      submit=console_submit(daemon))
    daemon.outputs.append(publisher.publish)
    handle = run_server(app, live, "127.0.0.1", 0,
                        tls=tls.server_context(pki.server_cert, pki.server_key))
    try:
        yield Table(daemon, path, handle)
    finally:
        handle.stop()
        close_app(app)
        journal.close()


def _sockets(page: Any, urls: list[str] | None = None) -> list[str]:
    """The URLs of the WebSockets ``page`` opens, appended to ``urls`` as they open."""
    urls = [] if urls is None else urls
    page.on("websocket", lambda ws: urls.append(ws.url))
    return urls


def test_the_dealer_logs_in_deals_a_hand_on_the_console_and_sees_the_cards(
        trusting: Any, table: Table) -> None:
    from playwright.sync_api import expect

    base = f"https://localhost:{table.handle.port}"
    context = trusting.new_context(viewport={"width": 820, "height": 1180}, has_touch=True)
    page = context.new_page()
    sockets = _sockets(page)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(base + "/dealer/console")
    page.locator("#token").fill(TOKEN)
    page.locator("#login button[type=submit]").click()
    expect(page.locator("#status")).to_have_text("live", timeout=WAIT_MS)
    [cookie] = [c for c in context.cookies() if c["name"] == "feltguard_session"]
    assert cookie["secure"] and cookie["httpOnly"]

    events = scenario("remedy_exposed_card_replaced.jsonl")
    play(page, table, events)
    check_journal(table, events)  # every tap went over wss:// into the journal
    assert page.locator("#cards .card").count() > 0

    dealer = context.new_page()
    _sockets(dealer, sockets)
    dealer.goto(base + "/dealer")  # the login cookie from the console
    hole = [c for s in table.daemon.last_snapshot["seats"] for c in s.get("hole", [])]
    assert hole
    expect(dealer.locator("body")).to_contain_text(re.compile(re.escape(hole[0][0])),
                                                   timeout=WAIT_MS)
    expect(dealer.locator("#status")).to_have_text("live", timeout=WAIT_MS)
    context.close()
    assert sockets and all(u.startswith("wss://") for u in sockets), sockets
    assert not any(u.startswith(("http://", "ws://")) for u in requests + sockets)


def test_a_chromium_that_does_not_trust_the_authority_is_refused(
        playwright: Any, table: Table, tmp_path: Path) -> None:
    from playwright.sync_api import Error

    browser = chromium(playwright, nss_home(tmp_path / "home", None))
    try:
        page = browser.new_page()
        with pytest.raises(Error, match="ERR_CERT_AUTHORITY_INVALID"):
            page.goto(f"https://localhost:{table.handle.port}/")
    finally:
        browser.close()


@pytest.fixture
def sim(tmp_path: Path, pki: tls.TlsFolder) -> Iterator[tuple[str, dict[str, str]]]:
    """``feltguard sim --tls`` with the test's authority: its base URL and demo passwords."""
    folder = tmp_path / "tls"
    shutil.copytree(pki.path, folder)
    proc = start_sim(["--tls", "--tls-dir", str(folder), "--port", "0", "--pace", "0.05",
                      "--seed", "4", "--broadcast-delay", "1",
                      "--journal", str(tmp_path / "sim.sqlite")], tmp_path)
    try:
        head = read_head(proc)
        yield f"https://localhost:{served_port(head)}", demo_passwords(head)
    finally:
        proc.terminate()
        proc.wait(30)


def test_the_public_page_and_broadcast_over_wss_and_the_review_over_https(
        trusting: Any, sim: tuple[str, dict[str, str]]) -> None:
    from playwright.sync_api import expect

    base, passwords = sim
    context = trusting.new_context()
    sockets: list[str] = []
    for n, path in enumerate(("/", "/broadcast"), start=1):
        page = context.new_page()
        _sockets(page, sockets)
        page.goto(base + path)
        expect(page.locator("#status")).to_have_text(re.compile("live|delayed"),
                                                     timeout=WAIT_MS)
        expect(page.locator("body")).to_have_attribute("data-last-seq", re.compile(r"[1-9]"),
                                                       timeout=WAIT_MS)
        # the page long-polls first, then upgrades its transport to a WebSocket
        deadline = time.monotonic() + WAIT_MS / 1000
        while len(sockets) < n and time.monotonic() < deadline:
            page.wait_for_timeout(100)
    review = context.new_page()
    review.goto(base + "/review")  # the login form, then the review
    review.locator("#user").fill("surveillance")
    review.locator("#password").fill(passwords["surveillance"])
    review.locator("#login button[type=submit]").click()
    review.wait_for_url(base + "/review", timeout=WAIT_MS)
    expect(review.locator("#hands tbody tr").first).to_be_visible(timeout=30_000)
    context.close()
    assert len(sockets) >= 2 and all(u.startswith("wss://") for u in sockets), sockets
