"""The dealer's touch console in headless Debian Chromium, playing whole hands from the tablet.

A real table behind it: a TableDaemon with its journal in a real SQLite file, sensing, the
display server with the console's submit path wired as ``feltguard run`` wires it
(``controller.daemon.console_submit``). Every card arrives as a tag read through ``daemon.on_read``
(the card reader's callback: sensing makes the shoe draws and zone reads); every dealer input
is a tap on the page. Only the table's set-up (the config's job in ``feltguard run``) is
submitted by the test.

Each hand replays a recorded scenario (tests/scenarios): its reads go to the daemon, its dealer
events become taps, and the journal must then hold the scenario's events and findings. On the
page, each finding shows its remedy steps, and the move the monitor expects now is highlighted
and advances as the cards are dealt. Refusals: an out-of-turn action shows the core's reason, a
ruling without the floor's login is refused, the public namespace cannot send inputs. At a
tournament table the floor sets the level and the players left from the tablet, with its login.

Skipped where /usr/bin/chromium is absent (as tests/display/test_browser.py).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from controller.daemon.console_submit import console_submit
from controller.daemon.table_daemon import TableDaemon
from controller.events import (
    Action,
    DeckRegister,
    DrawQuery,
    Event,
    HandStart,
    SeatTake,
    TableSetup,
    TournamentSetup,
    read_scenario,
)
from controller.journal import Journal, read_events, read_findings
from controller.rules import apply, initial_state
from controller.sensing.cards import Sensing
from display.server import ServerHandle, create_app, run_server
from drivers.card_reader import TagRead
from tests.display.chromium import BROWSER_MARKS
from tests.display.test_browser import WAIT_MS

TOKEN = "console-token"
FLOOR = "floor-token-7"
SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"

# reader 1 antenna 0: the shoe; reader 2: the felt
ANTENNAS = {(1, 0): "shoe", **{(2, n): f"seat:{n}" for n in range(1, 11)},
            (2, 11): "board", (2, 12): "burn", (2, 13): "muck", (2, 14): "aside"}
ANTENNA_OF = {zone: key for key, zone in ANTENNAS.items()}
SETUP = (TableSetup, SeatTake, DeckRegister)

pytestmark = BROWSER_MARKS



@dataclass
class Table:
    daemon: TableDaemon
    journal: Path
    handle: ServerHandle
    chosen: list[str | None] = field(default_factory=list)
    clock: float = 1000.0

    def read(self, zone: str, uid: str, face_up: bool = False) -> None:
        """A tag read as the card reader reports it (each read a second after the last, so
        sensing's shoe debounce never merges two draws)."""
        self.clock += 1.0
        reader, antenna = ANTENNA_OF[zone]
        self.daemon.on_read(TagRead(reader, antenna, uid, face_up, 0, self.clock))


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    daemon = TableDaemon(journal, sensing=Sensing(dict(ANTENNAS)))
    chosen: list[str | None] = []
    app, live, publisher = create_app(dealer_token=TOKEN, floor_token=FLOOR,
                                      submit=console_submit(daemon), on_choose=chosen.append)
    daemon.outputs.append(publisher.publish)
    handle = run_server(app, live, "127.0.0.1", 0)
    try:
        yield Table(daemon, path, handle, chosen)
    finally:
        handle.stop()
        journal.close()


def log_in(page: Any, table: Table) -> None:
    """Open the console page and log in as the dealer through its form."""
    from playwright.sync_api import expect

    page.goto(table.handle.url + "/dealer/console")
    page.locator("#token").fill(TOKEN)
    page.locator("#login button[type=submit]").click()
    expect(page.locator("#status")).to_have_text("live", timeout=WAIT_MS)


def small_controls(page: Any, controls: str, width: int | None = None) -> list[str]:
    """The controls a finger cannot hit: under 44 CSS px either way (WCAG 2.5.5), or with
    ``width``, reaching past the screen's right edge."""
    return list(page.locator(controls).evaluate_all(
        """(els, width) => els.map(e => [e.id || e.textContent.trim(), e.getBoundingClientRect()])
                    .filter(([, r]) => r.width < 44 || r.height < 44
                                       || (width !== null && r.right > width))
                    .map(([name, r]) => name + ' ' + r.width + 'x' + r.height)""", width))


@pytest.fixture
def console(browser: Any, table: Table) -> Iterator[Any]:
    """The console page on a tablet-sized screen, logged in through the form."""
    context = browser.new_context(viewport={"width": 820, "height": 1180}, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error"
            and not m.text.startswith("Failed to load resource") else None)
    missing: list[str] = []  # the browser's own favicon request is the only 404 allowed
    page.on("response", lambda r: missing.append(r.url) if r.status >= 400
            and not r.url.endswith("/favicon.ico") else None)
    log_in(page, table)
    assert page.url == table.handle.url + "/dealer/console"
    try:
        yield page
    finally:
        context.close()
    assert errors == []  # no CSP violation, no script error
    assert missing == []


def until(predicate: Any, timeout: float = WAIT_MS / 1000) -> bool:
    """Poll a condition set by the server's threads (the chosen-card hook)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def synced(page: Any, table: Table) -> None:
    from playwright.sync_api import expect

    expect(page.locator("body")).to_have_attribute(
        "data-last-seq", str(table.daemon.seq), timeout=WAIT_MS)


def acks(page: Any) -> int:
    return int(page.locator("body").get_attribute("data-acks") or 0)


def tap(page: Any, table: Table, selector: str) -> dict[str, str]:
    """Tap a control and wait for the daemon's acknowledgement on the page; returns it."""
    from playwright.sync_api import expect

    before = acks(page)
    page.locator(selector).tap()
    expect(page.locator("body")).to_have_attribute("data-acks", str(before + 1), timeout=WAIT_MS)
    synced(page, table)
    ack = page.locator("#ack")
    return {"kind": ack.get_attribute("class") or "", "text": ack.inner_text()}


def seat_for(page: Any, seat: int) -> None:
    """Make `seat` the acting seat on the page (tap it unless it is the seat to act)."""
    btn = page.locator(f'#seat-pick [data-seat="{seat}"]')
    if btn.get_attribute("aria-checked") != "true":
        btn.tap()


def dealer_input(page: Any, table: Table, body: Any) -> dict[str, str]:
    """The taps a dealer makes for one dealer event of a scenario."""
    kind = body.TYPE
    if kind == "hand.start":
        return tap(page, table, "#new-hand")
    if kind == "shuffle.done":
        return tap(page, table, "#shuffle")
    if kind == "hand.end":
        return tap(page, table, "#award")
    if kind == "misdeal.declared":
        return tap(page, table, "#misdeal")
    if kind.startswith("card."):
        # the dealer taps the card by its face (never a uid), then the key
        card = table.daemon.state.deck.card_of(body.uid)
        page.locator(f'#cards .card[data-card="{card}"]').first.tap()
        assert page.locator("#chosen").inner_text().startswith("chosen:")
        if hasattr(body, "by"):
            page.locator("#by-player").set_checked(body.by == "player")
        return tap(page, table, f"#{kind.removeprefix('card.')}")
    assert isinstance(body, Action), f"no console tap for {kind}"
    if body.kind == "post":  # the post due, pre-filled from the hand plan
        due = table.daemon.last_snapshot["hand"]["post_due"]
        assert (due["seat"], due["amount"]) == (body.seat, body.amount)
        return tap(page, table, "#post")
    seat_for(page, body.seat)
    if body.kind in ("bet", "raise"):
        page.locator("#clear").tap()
        for digit in str(body.amount):
            page.locator("#keypad .digit", has_text=digit).tap()
        return tap(page, table, f"#{body.kind}")
    if body.kind == "draw":
        return tap(page, table, f'#draw-keys [data-draw="{body.amount}"]')
    return tap(page, table, f"#{body.kind}")


def play(page: Any, table: Table, events: list[Event]) -> list[str]:
    """Play `events` at the table: set-up submitted, reads through on_read, the rest tapped.
    Checks each finding's remedy and the highlighted move on the page as the hand goes; returns
    the moves seen highlighted, in order."""
    highlighted: list[str] = []
    shown: set[tuple[str, int]] = set()
    for i, ev in enumerate(events):
        b = ev.body
        if isinstance(b, SETUP):
            table.daemon.submit(b)
            continue
        if b.TYPE == "shoe.draw":
            table.read("shoe", b.uid, b.face_up)
        elif b.TYPE == "zone.leave":
            # sensing reports a card leaving a zone when the felt reads it elsewhere
            nxt = events[i + 1].body
            assert nxt.TYPE == "zone.read" and nxt.uid == b.uid and not b.lost
            continue
        elif b.TYPE == "zone.read":
            table.read(b.zone, b.uid)
        else:
            dealer_input(page, table, b)
        snap = table.daemon.last_snapshot
        for f in snap["findings"]:
            if (f["code"], f["seq"]) in shown:
                continue
            shown.add((f["code"], f["seq"]))
            synced(page, table)
            item = page.locator(f'#findings li[data-code="{f["code"]}"][data-seq="{f["seq"]}"]')
            assert item.locator("ol.remedy li").all_inner_texts() == f["remedy"]
            assert f["rule"]["file"] in item.locator(".rule").inner_text()
        now = snap["hand"]["remedy_now"]
        if now is not None and (not highlighted or highlighted[-1] != now["move"]):
            synced(page, table)
            assert page.locator("#findings .move.now").all_inner_texts() == [now["move"]]
            highlighted.append(now["move"])
        elif now is None and highlighted:
            synced(page, table)
            assert page.locator("#findings .move.now").count() == 0
    return highlighted


def expected(events: list[Event]) -> list[tuple[int, str]]:
    """(seq, code) of the findings the pure core raises for these events, numbered as the
    daemon numbers them (the scenario's own set-up events included)."""
    state, out = initial_state(), []
    for n, ev in enumerate(events, start=1):
        step = apply(state, replace(ev, seq=n))
        state = step.state
        out += [(f.seq, f.code) for f in step.findings]
    return out


def check_journal(table: Table, events: list[Event]) -> None:
    """The journal holds the scenario's events (each tap and read once, in order) and findings."""
    journaled = list(read_events(table.journal))
    assert len(journaled) == len(events)
    for got, want in zip(journaled, events, strict=True):
        g, w = got.body, want.body
        assert g.TYPE == w.TYPE, (got, want)
        if isinstance(w, Action):
            assert (g.seat, g.kind, g.amount) == (w.seat, w.kind, w.amount)
        elif w.TYPE in ("shoe.draw", "zone.read", "zone.leave"):
            assert g == w
        elif w.TYPE.startswith("card."):  # the page named the card; the daemon found its tag
            assert g.uid == w.uid and g.card
    found = [(f.seq, f.code) for f in read_findings(table.journal)]
    assert found == expected(events)


def scenario(name: str) -> list[Event]:
    events = read_scenario(SCENARIOS / name)
    # the console's New hand names no button: the first hand's button is then the same seat
    return [replace(e, body=HandStart()) if isinstance(e.body, HandStart) else e
            for e in events]


def test_holdem_hand_exposed_card_remedy_followed(console: Any, table: Table) -> None:
    """No-limit hold'em: seat 3's second card leaves the shoe face up
    (HOLECARD_EXPOSED_SINGLE_REPLACE, roberts-rules-v11.txt Section 5, Holdem, r.1): the page
    shows the remedy and highlights the replacement to seat 3, then the exposed card to the
    burn; the hand is played to the award from the tablet."""
    events = scenario("remedy_exposed_card_replaced.jsonl")
    moves = play(console, table, events)
    assert moves == ["the next card off the shoe to seat 3", "7s to the burn"]
    check_journal(table, events)
    assert ("HOLECARD_EXPOSED_SINGLE_REPLACE" in
            console.locator("#findings .finding").first.get_attribute("data-code"))
    assert table.daemon.last_snapshot["hand"]["phase"] == "complete"
    console.screenshot(path="/tmp/feltguard-console-holdem.png", full_page=True)


def test_stud_hand_premature_street_remedy_followed(console: Any, table: Table) -> None:
    """Seven-card stud: a card of the next street dealt before the betting ended
    (STUD_PREMATURE_STREET, roberts-rules-v11.txt Section 8 r.14): the page follows the remedy's
    moves one by one; the bring-in and the antes are posted with the one-tap post."""
    events = scenario("stud_stud_premature_street.jsonl")
    moves = play(console, table, events)
    assert len(moves) >= 2 and len(set(moves)) == len(moves)
    check_journal(table, events)
    assert [f["code"] for f in table.daemon.last_snapshot["findings"]] == ["STUD_PREMATURE_STREET"]
    console.screenshot(path="/tmp/feltguard-console-stud.png", full_page=True)


def test_draw_hand_request_out_of_turn_and_exposed_draw_card(console: Any, table: Table) -> None:
    """Deuce-to-seven triple draw: seat 4 asks for a card before seat 2 has drawn (the core
    does not take it, ACTION_NOT_AVAILABLE, RR Section 11 r.9: in turn; the page says why),
    then a card exposed on the draw (DRAW_EXPOSED_ON_DRAW, roberts-rules-v11.txt Section 11)
    with its remedy followed."""
    events = scenario("draw_draw_exposed_on_draw.jsonl")
    first_draw = next(i for i, e in enumerate(events)
                      if isinstance(e.body, Action) and e.body.kind == "draw")
    out_of_turn = Event(0, 0, Action(seat=4, kind="draw", amount=1))
    events = [*events[:first_draw], out_of_turn, *events[first_draw:]]
    play(console, table, events[:first_draw])
    assert table.daemon.last_snapshot["hand"]["to_draw"] == 2
    seat_for(console, 4)
    ack = tap(console, table, '#draw-keys [data-draw="1"]')
    assert ack == {"kind": "finding", "text": "ACTION_NOT_AVAILABLE: Seat 4 asked for 1 card(s): "
                   "seat 2 draws next."}
    # seat 2 asks for one card; another player asks how many it drew: the page shows the answer
    play(console, table, events[first_draw + 1:first_draw + 2])
    seat_for(console, 2)
    ack = tap(console, table, "#draw-query")
    assert ack["kind"] == "ok"
    assert "seat 2 drew 1" in console.locator("#expect").inner_text()
    query = Event(0, 0, DrawQuery(seat=2))
    events = [*events[:first_draw + 2], query, *events[first_draw + 2:]]
    moves = play(console, table, events[first_draw + 3:])
    assert moves  # the exposed card's remedy move was highlighted, then made
    check_journal(table, events)
    codes = [f["code"] for f in table.daemon.last_snapshot["findings"]]
    assert "DRAW_EXPOSED_ON_DRAW" in codes
    console.screenshot(path="/tmp/feltguard-console-draw.png", full_page=True)


def test_holdem_first_card_exposed_by_a_tap_is_a_misdeal(console: Any, table: Table) -> None:
    """Pot-limit hold'em: the dealer taps the first card dealt and the Exposed key
    (MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED, roberts-rules-v11.txt Section 3, Misdeals, r.2(a)),
    then Misdeal: the key goes to the journal with the card's tag, and
    the hook for the hardware keys heard the chosen card."""
    events = scenario("board_first_or_second_exposed_key_plhe.jsonl")
    play(console, table, events)
    check_journal(table, events)
    key = next(e for e in read_events(table.journal) if e.type == "card.exposed")
    assert key.body.card == table.chosen[-1] == table.daemon.state.deck.card_of(key.body.uid)
    codes = [code for _, code in expected(events)]
    assert codes and all(c.startswith("MISDEAL") for c in codes)
    assert console.locator("#findings .finding.misdeal").count() >= 1


def test_stud_final_card_exposed_by_a_tap(console: Any, table: Table) -> None:
    """Seven-card stud: the dealer exposes the final down card and says so with the card tapped
    on the page (STUD_FINAL_CARD_FACEUP, roberts-rules-v11.txt Section 8, r.17); the hand is
    played to the award from the tablet."""
    events = scenario("stud_stud_final_card_exposed_key.jsonl")
    play(console, table, events)
    check_journal(table, events)
    assert "STUD_FINAL_CARD_FACEUP" in [f["code"] for f in table.daemon.last_snapshot["findings"]]


def test_refusals_out_of_turn_ruling_without_floor_and_public_namespace(
    console: Any, table: Table, browser: Any
) -> None:
    events = scenario("remedy_exposed_card_replaced.jsonl")
    # the hand up to the first betting decision
    first_bet = next(i for i, e in enumerate(events)
                     if isinstance(e.body, Action) and e.body.kind == "call")
    # a card key before any card is drawn names no card: refused, with the core's reason
    first_card = next(i for i, e in enumerate(events) if e.body.TYPE == "shoe.draw")
    play(console, table, events[:first_card])
    console.locator("#last").tap()
    seq = table.daemon.seq
    ack = tap(console, table, "#exposed")
    assert ack == {"kind": "refused", "text": "Refused: No card has been drawn this hand for the "
                   "exposed key to name."}
    assert table.daemon.seq == seq and until(lambda: table.chosen == ["last"])
    console.locator("#last").tap()  # tapped again: cleared
    assert until(lambda: table.chosen == ["last", None])
    play(console, table, events[first_card:first_bet])
    h = table.daemon.last_snapshot["hand"]
    assert h["to_act"] == 4
    # the amounts on the page are the core's
    assert console.locator("#call").inner_text() == f"Call {h['to_call']}"
    assert console.locator("#set-max").inner_text() == f"Max {h['max_raise_to']}"
    assert console.locator("#allin").inner_text() == f"All in {h['all_in_to']}"

    # out of turn: seat 1 calls while seat 4 is to act
    seat_for(console, 1)
    ack = tap(console, table, "#call")
    assert ack["kind"] == "finding" and "while seat 4 was to act" in ack["text"]
    assert table.daemon.last_snapshot["hand"]["to_act"] == 4  # not applied

    # a ruling without the floor's token is refused and never journaled
    seq = table.daemon.seq
    console.locator("#ruling-text").fill("the hand stands")
    ack = tap(console, table, "#ruling button[type=submit]")
    assert ack == {"kind": "refused", "text": "Refused: a ruling needs the floor's login"}
    console.locator("#ruling-text").fill("the hand stands")
    console.locator("#floor-token").fill("not-the-floor")
    ack = tap(console, table, "#ruling button[type=submit]")
    assert ack["kind"] == "refused" and table.daemon.seq == seq
    assert [e.type for e in read_events(table.journal)].count("floor.ruling") == 0
    # with the floor's token it is recorded, and the token field is emptied
    console.locator("#ruling-text").fill("the hand stands")
    console.locator("#floor-token").fill(FLOOR)
    ack = tap(console, table, "#ruling button[type=submit]")
    assert ack["kind"] == "finding" and ack["text"].startswith("FLOOR_RULING")
    assert console.locator("#floor-token").input_value() == ""
    assert list(read_events(table.journal))[-1].type == "floor.ruling"

    # an input the vocabulary refuses never reaches the journal; its reason is shown
    seq = table.daemon.seq
    console.locator("#game-id").fill("pinochle")
    ack = tap(console, table, "#choose-game button[type=submit]")
    assert ack["kind"] == "refused" and "pinochle" in ack["text"]
    assert table.daemon.seq == seq

    # undo: the last event (the ruling) is reverted, journaled as an undo
    ack = tap(console, table, "#undo")
    assert ack["kind"] != "refused" and list(read_events(table.journal))[-1].type == "undo"
    seq = table.daemon.seq

    # the public namespace cannot send inputs
    public = browser.new_page()
    try:
        public.goto(table.handle.url + "/")
        public.wait_for_function("() => document.getElementById('status').textContent === 'live'",
                                 timeout=WAIT_MS)
        reply = public.evaluate("""() => new Promise(resolve => {
            const s = io('/table', {transports: ['websocket']});
            s.on('connect', () => s.emit('input', JSON.stringify({type: 'hand.end'}),
                                         r => { s.close(); resolve(r); }));
        })""")
    finally:
        public.close()
    assert reply == {"ok": False, "reason": "the public view cannot send inputs", "findings": []}
    assert table.daemon.seq == seq


@pytest.mark.parametrize("width, height", [(820, 1180), (1180, 820)], ids=["portrait",
                                                                          "landscape"])
def test_tablet_layout_touch_targets(browser: Any, table: Table, width: int, height: int) -> None:
    """Portrait and landscape: nothing wider than the screen, and every control a finger can
    hit (at least 44 CSS px each way: WCAG 2.5.5) with a hand dealt and a finding shown."""
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    page = context.new_page()
    try:
        log_in(page, table)
        events = scenario("remedy_exposed_card_replaced.jsonl")
        first_bet = next(i for i, e in enumerate(events)
                         if isinstance(e.body, Action) and e.body.kind == "call")
        play(page, table, events[:first_bet])
        assert page.locator("#findings .finding").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # a checkbox is hit through its label
        controls = "button:visible, input:visible:not([type=checkbox]), select:visible, label.by"
        assert small_controls(page, controls) == []
        page.screenshot(path=f"/tmp/feltguard-console-{width}x{height}.png", full_page=True)
    finally:
        context.close()


def test_board_hole_card_exposed_by_a_tap_remedy_followed(console: Any, table: Table) -> None:
    """Crazy Pineapple: the dealer taps an exposed hole card and the Exposed key
    (HOLECARD_EXPOSED_SINGLE_REPLACE, roberts-rules-v11.txt Section 5, Holdem, r.1); the page
    highlights the replacement, then the exposed card to the burn, as they are dealt."""
    events = scenario("board_hole_card_exposed_key_crazy_pineapple.jsonl")
    moves = play(console, table, events)
    assert len(moves) == 2 and moves[-1].endswith("to the burn")
    check_journal(table, events)
    codes = [f["code"] for f in table.daemon.last_snapshot["findings"]]
    assert codes == ["HOLECARD_EXPOSED_SINGLE_REPLACE"]


def tournament_table(table: Table, players: int = 40) -> None:
    """A three-handed tda-tournament table with a two-level schedule and the event's entrants
    (the config's and the director's set-up: submitted, not tapped)."""
    table.daemon.submit(TableSetup(seats=3, profile="tda-tournament"))
    for seat in (1, 2, 3):
        table.daemon.submit(SeatTake(seat=seat, player=f"P{seat}", stack=1000))
    table.daemon.submit(TournamentSetup(levels=({"small_blind": 25, "big_blind": 50},
                                                {"small_blind": 50, "big_blind": 100}),
                                        players=players))


def floor_entry(page: Any, table: Table, form: str, value: str, login: str) -> dict[str, str]:
    """The floor types a number and its login into the tournament part, and sends it."""
    page.locator(f"#{form} input").fill(value)
    page.locator("#floor-token").fill(login)
    return tap(page, table, f"#{form} button[type=submit]")


def test_tournament_level_and_players_left_from_the_floor(console: Any, table: Table) -> None:
    """At a tournament table the floor part shows the level in force and the players left, and
    sets each with the floor's login (tournament.level; tournament.players, RR Section 15 r.23
    decides by it when a fixed-limit heads-up hand raises without a cap); a wrong login or none
    is refused with its reason and never journaled, and the secret field is emptied each time."""
    from playwright.sync_api import expect

    tournament_table(table)
    synced(console, table)
    expect(console.locator("#tournament")).to_be_visible()
    now = console.locator("#tournament-now")
    expect(now).to_have_text("level 1 \u00b7 40 players left")

    ack = floor_entry(console, table, "tournament-level", "2", FLOOR)
    assert ack == {"kind": "ok", "text": "level 2 \u2713"}
    assert table.daemon.last_snapshot["hand"]["level"] == 2
    assert console.locator("#floor-token").input_value() == ""
    expect(now).to_have_attribute("data-level", "2")

    ack = floor_entry(console, table, "tournament-players", "12", FLOOR)
    assert ack == {"kind": "ok", "text": "players left 12 \u2713"}
    assert table.daemon.last_snapshot["hand"]["players_left"] == 12
    expect(now).to_have_text("level 2 \u00b7 12 players left")

    # a wrong login, then none: refused with the reason, nothing journaled, nothing changed
    seq = table.daemon.seq
    ack = floor_entry(console, table, "tournament-players", "9", "not-the-floor")
    assert ack == {"kind": "refused",
                   "text": "Refused: a count of the players left needs the floor's login"}
    ack = floor_entry(console, table, "tournament-level", "1", "")
    assert ack == {"kind": "refused", "text": "Refused: a tournament level needs the floor's login"}
    # the dealer's own token is not the floor's
    ack = floor_entry(console, table, "tournament-level", "1", TOKEN)
    assert ack["kind"] == "refused"
    assert table.daemon.seq == seq
    hand = table.daemon.last_snapshot["hand"]
    assert (hand["level"], hand["players_left"]) == (2, 12)
    # a count below the players with chips here is the core's to refuse: shown as its finding
    ack = floor_entry(console, table, "tournament-players", "2", FLOOR)
    assert ack["kind"] == "finding" and ack["text"].startswith("EVENT_OUT_OF_PLACE")
    assert table.daemon.last_snapshot["hand"]["players_left"] == 12
    # an empty field sends nothing
    seq = table.daemon.seq
    console.locator("#players-value").fill("")
    ack = tap(console, table, "#tournament-players button[type=submit]")
    assert ack == {"kind": "refused", "text": "Refused: type the players left first"}
    assert table.daemon.seq == seq
    journaled = [e.type for e in read_events(table.journal)]
    assert journaled.count("tournament.level") == 1
    assert journaled.count("tournament.players") == 2  # the one the core refused is journaled


def test_a_cash_table_has_no_tournament_part(console: Any, table: Table) -> None:
    from playwright.sync_api import expect

    table.daemon.submit(TableSetup(seats=3))
    synced(console, table)
    assert table.daemon.last_snapshot["hand"]["level"] is None
    expect(console.locator("#tournament")).to_be_hidden()
    expect(console.locator("#ruling")).to_be_visible()


@pytest.mark.parametrize("width, height", [(390, 844), (820, 1180), (1180, 820)],
                         ids=["phone", "portrait", "landscape"])
def test_tournament_part_fits_phone_and_tablet(browser: Any, table: Table, width: int,
                                               height: int) -> None:
    """The floor part with the tournament entries shown: nothing wider than the screen, each of
    its controls at least 44 CSS px each way (WCAG 2.5.5), as test_tablet_layout_touch_targets."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    page = context.new_page()
    try:
        log_in(page, table)
        tournament_table(table, players=1234)
        synced(page, table)
        expect(page.locator("#tournament")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert small_controls(page, "#floor button:visible, #floor input:visible, "
                              "#floor select:visible", width) == []
        page.locator("#floor").screenshot(
            path=f"/tmp/feltguard-console-tournament-{width}x{height}.png")
    finally:
        context.close()
