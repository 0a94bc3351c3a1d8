"""The review and the audit log fit the screens floor staff carry: a phone (390x844), a small
tablet (768x1024) and a laptop (1280x800), in Debian's chromium (Playwright).

Two simulated journals (``feltguard sim``'s dealer, written to real journals): a 10-seat no-limit
hold'em table whose hands go all in with side pots, split pots and an uncalled bet, and a 6-seat
stud table. Each served as ``feltguard run`` serves it (``create_app`` with accounts, the audit
log and the review), logged in as surveillance. At each size: the document never scrolls
sideways (``scrollWidth <= innerWidth``), on the hand list and on a hand at every one of its
events, and on ``/audit``; at 1280 no cell of the hand list is cut off and the dates stay on one
line; an event reads as words, its JSON on demand. Screenshots go to ``$FELTGUARD_ARTIFACTS``
(else build/screens/), named review-<case>-<W>x<H>.png and audit-<W>x<H>.png, for a person to
look at. Skipped where /usr/bin/chromium is absent."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher

from controller.events import Event
from controller.journal import Journal, create_key
from controller.poker.pots import UNCALLED
from controller.security.accounts import Accounts
from controller.security.audit import AuditLog
from controller.sim import SimDealer, expand
from controller.surveillance.review import Review
from display.server import close_app, create_app, run_server
from tests.display.chromium import BROWSER_MARKS

pytestmark = BROWSER_MARKS

REPO = Path(__file__).resolve().parents[2]
SIZES = [(390, 844), (768, 1024), (1280, 800)]
T0 = 1_767_225_600_000  # 2026-01-01 00:00 UTC, in ms
PASSWORD = "surveillance-pw-333"


def artifacts() -> Path:
    """Where the screenshots go: ``$FELTGUARD_ARTIFACTS``, else build/screens/ (git-ignored)."""
    folder = Path(os.environ.get("FELTGUARD_ARTIFACTS") or REPO / "build" / "screens")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def sim_journal(path: Path, game: str, seats: int, hands: int, seed: int) -> None:
    """``hands`` hands of ``game`` dealt by the simulated dealer (a mistake in a quarter of
    them), written to the journal at ``path`` one event every half second."""
    dealer = SimDealer(random.Random(seed), seats=seats, mistake_rate=0.25, game=game)
    seq = 0
    with Journal(path, checkpoint_every=None) as journal:
        for _ in range(hands):
            for step in dealer.next_hand():
                for body in expand(step):
                    seq += 1
                    journal.append(Event(seq, T0 + seq * 500, body))


@dataclass
class Table:
    url: str
    hand: int  # the hand the page opens: side pots and an uncalled bet where there are any


def _pots(review: Review, number: int) -> tuple[int, int]:
    """(uncalled bets returned, pots won) in hand ``number``."""
    pots = review.hand(number).pots
    uncalled = sum(1 for p in pots if p.get("hand") == UNCALLED)
    return uncalled, len(pots) - uncalled


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Table]]:
    folder = tmp_path_factory.mktemp("review-layout")
    accounts = Accounts(folder / "accounts.sqlite", create=True,
                        hasher=PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))
    accounts.add("sam", "surveillance", PASSWORD)
    audit = AuditLog(folder / "audit.sqlite", create_key(folder / "audit.key"))
    # the audit page's longest lines: a cardroom table's hand, a refused review address
    audit.record("sam", "surveillance", "view_hand", "table main-floor-12 hand 123456",
                 "2001:db8:85a3::8a2e:370:7334")
    audit.record("dee", "dealer", "refused", "/t/main-floor-12/review/api/hand/123456?x=1",
                 "192.168.100.200")
    served: list[tuple[Any, Any]] = []
    found: dict[str, Table] = {}
    try:
        for case, game, seats, seed in (("sidepots", "nlhe", 10, 2), ("stud", "stud", 6, 1)):
            journal = folder / f"{case}.sqlite"
            sim_journal(journal, game, seats, hands=12, seed=seed)
            review = Review(journal)
            hands = [h.number for h in review.refresh().hands]
            # the hand with an uncalled bet and the most pots
            best = max(hands, key=lambda n: (min(_pots(review, n)[0], 1), _pots(review, n)[1]))
            uncalled, won = _pots(review, best)
            assert uncalled == 1 and won >= (3 if case == "sidepots" else 1), (case, best)
            app, live, _ = create_app(accounts=accounts, audit=audit, review_journal=journal)
            handle = run_server(app, live, "127.0.0.1", 0)
            served.append((handle, app))
            found[case] = Table(handle.url, best)
        yield found
    finally:
        for handle, app in served:
            handle.stop()
            close_app(app)
        audit.close()


def _page(browser: Any, url: str, size: tuple[int, int]) -> tuple[Any, Any, list[str]]:
    """A logged-in page at ``size``, and the problems it meets (script errors, 404s)."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    # log in by the form's POST, so no login page (not this page's) is drawn in the browser
    answer = context.request.post(f"{url}/login", form={
        "user": "sam", "password": PASSWORD, "next": "/review"})
    assert answer.ok, answer.status
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}")
            if r.status >= 400 else None)
    return context, page, problems


def _width(page: Any) -> int:
    return int(page.evaluate("() => document.documentElement.scrollWidth"))


def _shot(page: Any, name: str, size: tuple[int, int]) -> None:
    page.screenshot(path=str(artifacts() / f"{name}-{size[0]}x{size[1]}.png"), full_page=True)


# Each cell of the hand list, and each finding code in it, that is cut off: wider than its box,
# or out of the list's visible box (a list that scrolls sideways hides its last columns). The
# column heads count where they are shown (a narrow screen keeps them for screen readers only).
CUT_CELLS = """() => {
  const box = document.getElementById('hands').parentElement.getBoundingClientRect();
  const heads = document.querySelector('#hands thead').getBoundingClientRect().height > 1;
  const cut = [];
  document.querySelectorAll((heads ? '#hands th, ' : '') + '#hands td, #hands .code')
    .forEach((node) => {
    if (!node.getClientRects().length) return;  // not shown (an empty cell on a narrow screen)
    const r = node.getBoundingClientRect();
    if (node.scrollWidth > node.clientWidth + 1 || r.right > box.right + 1 || r.left < box.left - 1)
      cut.push(node.tagName + ' ' + JSON.stringify(node.textContent) + ' ' + node.scrollWidth +
               '>' + node.clientWidth + ' right ' + Math.round(r.right) + '>' + box.right);
  });
  return cut;
}"""

# The lines each date of the hand list takes (distinct line tops of its text).
DATE_LINES = """() => Array.from(document.querySelectorAll('#hands tbody td:nth-child(2)'))
  .map((td) => {
    const range = document.createRange();
    range.selectNodeContents(td);
    return new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size;
  })"""

# The widest the document gets at any event of the hand (each shown by the slider).
WIDEST_STEP = """() => {
  const range = document.getElementById('step-range');
  let widest = 0, at = -1;
  for (let i = 0; i <= Number(range.max); i++) {
    range.value = String(i);
    range.dispatchEvent(new Event('input'));
    const w = document.documentElement.scrollWidth;
    if (w > widest) { widest = w; at = i; }
  }
  return [widest, at];
}"""


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_hand_list_fits_and_nothing_in_it_is_cut(browser: Any, tables: dict[str, Table],
                                                      size: tuple[int, int]) -> None:
    context, page, problems = _page(browser, tables["sidepots"].url, size)
    try:
        page.goto(f"{tables['sidepots'].url}/review")
        page.locator("#hands tbody tr").first.wait_for()
        page.locator("#timeline li").first.wait_for()
        width = _width(page)
        _shot(page, "review-list", size)
        print(f"review-list {size[0]}x{size[1]}: document {width} px")
        assert width <= size[0]
        assert page.evaluate(CUT_CELLS) == []
        if size[0] >= 1280:
            assert set(page.evaluate(DATE_LINES)) == {1}
        assert problems == []
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("case", ["sidepots", "stud"])
def test_a_hand_fits_at_every_event_and_reads_as_words(
        browser: Any, tables: dict[str, Table], case: str, size: tuple[int, int]) -> None:
    table = tables[case]
    context, page, problems = _page(browser, table.url, size)
    try:
        page.goto(f"{table.url}/review")
        row = page.locator(f'#hands tbody tr[data-hand="{table.hand}"]')
        row.wait_for()
        row.click()
        page.locator("#hand-view").wait_for(state="visible")
        page.wait_for_function("() => document.getElementById('step-pos').textContent !== ''")
        widest, at = page.evaluate(WIDEST_STEP)  # leaves the hand at its last event
        _shot(page, f"review-{case}", size)
        print(f"review-{case} {size[0]}x{size[1]}: document {widest} px at its widest "
              f"(event {at + 1})")
        assert widest <= size[0], f"event {at + 1} is {widest} px wide"
        # the event in words; its JSON only on demand
        words = page.locator("#event .event-words").text_content() or ""
        assert words and not words.lstrip().startswith("{")
        raw = page.locator("#event details")
        assert raw.count() == 1 and raw.get_attribute("open") is None
        assert (raw.locator("pre").text_content() or "").startswith('{"seq":')
        # the result per pot, the uncalled bet returned apart
        pots = page.locator("#hand-pots li").all_text_contents()
        assert any(p.startswith("Main pot: ") for p in pots), pots
        assert any(p.startswith("Uncalled bet returned: ") for p in pots), pots
        if case == "sidepots":
            assert any(p.startswith("Side pot 1: ") for p in pots), pots
        assert problems == []
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_audit_page_fits(browser: Any, tables: dict[str, Table],
                             size: tuple[int, int]) -> None:
    context, page, problems = _page(browser, tables["stud"].url, size)
    try:
        page.goto(f"{tables['stud'].url}/audit")
        page.locator("#audit tbody tr").first.wait_for()
        width = _width(page)
        _shot(page, "audit", size)
        print(f"audit {size[0]}x{size[1]}: document {width} px")
        assert width <= size[0]
        assert problems == []
    finally:
        context.close()
