"""A hold'em hand dealt with the dealer console keys: the keys on gpiozero mock pins, built from
a ``[keys]`` config by ``build_keys``, a TableDaemon journaling into a real SQLite file, cards
arriving as reader reads (``daemon.on_read``, the card reader's callback). The betting actions,
which have no keys, are submitted as the touch console submits them."""

from __future__ import annotations

import io
import sqlite3
import threading
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.config import from_mapping, load
from controller.daemon.dealer_keys import build_keys
from controller.daemon.table_daemon import TableDaemon
from controller.events import Action, ActionKind, DeckRegister, SeatTake, TableSetup
from controller.journal import Journal, JournalError, read_events, read_findings
from controller.processes.table import run_table
from drivers.card_reader import TagRead
from drivers.console_keys import ConsoleKeys
from tests.drivers.conftest import wait_until
from tests.run_harness import table_config

BOUNCE_S, HOLD_S = 0.005, 0.2
KEYS_TOML = f"""
[leds]
enabled = false
[keys]
enabled = true
pin_factory = "mock"
bounce_ms = {int(BOUNCE_S * 1000)}
hold_ms = {int(HOLD_S * 1000)}
"""
RANKS, SUITS = "23456789TJQKA", "cdhs"
DECK = {f"T{r}{s}": f"{r}{s}" for s in SUITS for r in RANKS}  # uid "TAs" carries As
SHOE, BOARD, BURN = (1, 0), (2, 11), (2, 12)


def seat(n: int) -> tuple[int, int]:
    return (2, n)  # the felt reader's antenna n is seat n (hardware/reader-protocol.md)


class Table:
    """Four players at a 6-seat no-limit hold'em table, the keys wired to its daemon."""

    def __init__(self, tmp_path: Path) -> None:
        self.path = tmp_path / "journal.sqlite"
        self.journal = Journal(self.path)
        self.daemon = TableDaemon(self.journal)
        self.daemon.submit(TableSetup(game="nlhe", seats=6, small_blind=1, big_blind=2))
        for n, name in ((1, "Ann"), (2, "Bob"), (3, "Cyd"), (4, "Dee")):
            self.daemon.submit(SeatTake(seat=n, player=name, stack=200))
        self.daemon.submit(DeckRegister(deck="red-1", tags=DECK))
        self.chosen: str | None = None
        keys = build_keys(from_mapping(tomllib.loads(KEYS_TOML)), self.daemon,
                          lambda: self.chosen)
        assert isinstance(keys, ConsoleKeys)
        self.keys = keys

    def press(self, key: str) -> None:
        """Press and release ``key``: held past the bounce time, released before the hold."""
        pin = self.keys.button(key).pin
        before = self.daemon.seq
        pin.drive_low()  # pulled up: pressed is low
        time.sleep(BOUNCE_S * 4)
        pin.drive_high()
        time.sleep(BOUNCE_S * 4)
        assert self.daemon.seq == before + 1, f"{key} made no event"

    def hold(self, key: str) -> None:
        """Hold ``key`` until it acts (the destructive keys act on a long press)."""
        pin = self.keys.button(key).pin
        before = self.daemon.seq
        pin.drive_low()
        assert self.daemon.wait_until(lambda: self.daemon.seq > before, HOLD_S * 20)
        pin.drive_high()
        time.sleep(BOUNCE_S * 4)

    def brush(self, key: str) -> None:
        """Touch ``key`` and let go at once: a destructive key must do nothing."""
        pin = self.keys.button(key).pin
        before = self.daemon.seq
        pin.drive_low()
        time.sleep(BOUNCE_S * 4)
        pin.drive_high()
        time.sleep(HOLD_S * 2)
        assert self.daemon.seq == before, f"a brushed {key} made an event"

    def read(self, uid: str, where: tuple[int, int], face_up: bool = False) -> None:
        self.daemon.on_read(TagRead(where[0], where[1], uid, face_up, 0, time.monotonic()))

    def deal(self, uid: str, where: tuple[int, int]) -> None:
        """A card drawn from the shoe and read where it lands."""
        self.read(uid, SHOE)
        self.read(uid, where)

    def act(self, seat_no: int, kind: ActionKind, amount: int | None = None) -> None:
        step = self.daemon.submit(Action(seat=seat_no, kind=kind, amount=amount))
        assert step.findings == (), step.findings

    def close(self) -> None:
        self.keys.close()
        self.journal.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    try:
        yield t
    finally:
        t.close()


def test_config_mock_keys_are_pinned_where_the_config_says(table: Table) -> None:
    assert table.keys.keys == ("new_hand", "shuffle_done", "exposed", "boxed", "attention",
                               "misdeal", "undo", "award")
    assert table.keys.pin("misdeal") == 16 and str(table.keys.button("misdeal").pin) == "GPIO16"


def test_a_holdem_hand_dealt_with_the_keys(table: Table, capsys) -> None:
    table.press("new_hand")
    table.press("shuffle_done")
    table.act(2, "post", 1)
    table.act(3, "post", 2)
    # the deal, from seat 2 round to the button (seat 1), twice
    for uid, n in (("T2c", 2), ("T7d", 3), ("TJh", 4), ("TAs", 1), ("T2d", 2), ("T7s", 3)):
        table.deal(uid, seat(n))
    # the dealer turns seat 3's second card over while pitching it: the exposed-card key, no
    # card chosen on the touch console, acts on the last card drawn
    assert read_findings(table.path) == []
    table.press("exposed")
    [finding] = read_findings(table.path)
    assert finding.code == "HOLECARD_EXPOSED_SINGLE_REPLACE"
    assert finding.data["seats"] == [3] and finding.data["cards"] == ["7s"]
    [drawn] = [e.seq for e in read_events(table.path)
               if e.type == "shoe.draw" and e.body.uid == "T7s"]
    assert finding.seq == drawn  # the finding names the card's draw from the shoe
    rule = finding.data["rule"]
    assert (rule["file"], rule["section"], rule["rule"]) == ("roberts-rules-v11.txt",
                                                             "Section 5, Holdem", "1")
    assert "! HOLECARD_EXPOSED_SINGLE_REPLACE" in capsys.readouterr().out
    # the remedy: the deal goes on, seat 3 gets the next card, the exposed card is the burn
    table.deal("TJs", seat(4))
    table.deal("TAc", seat(1))
    table.deal("TTd", seat(3))
    table.read("T7s", BURN)
    for n, kind in ((4, "call"), (1, "call"), (2, "call"), (3, "check")):
        table.act(n, kind)
    for uid in ("T8h", "T9h", "TKd"):  # the flop, its burn already down
        table.deal(uid, BOARD)
    for street in (("T4h", "T5s"), ("T6h", "TQs")):
        for n in (2, 3, 4, 1):
            table.act(n, "check")
        table.deal(street[0], BURN)
        table.deal(street[1], BOARD)
    for n in (2, 3, 4, 1):
        table.act(n, "check")
    table.press("award")

    events = list(read_events(table.path))
    keyed = [e.type for e in events if e.type in ("hand.start", "shuffle.done", "card.exposed",
                                                   "hand.end")]
    assert keyed == ["hand.start", "shuffle.done", "card.exposed", "hand.end"]
    [exposed] = [e for e in events if e.type == "card.exposed"]
    # journaled with the tag the key resolved to: the last card drawn, seat 3's 7s
    assert (exposed.body.uid, exposed.body.by) == ("T7s", "dealer")
    # the exposed card was the only irregularity, and its remedy was followed
    assert [f.code for f in read_findings(table.path)] == ["HOLECARD_EXPOSED_SINGLE_REPLACE"]
    snap = table.daemon.last_snapshot
    assert snap["hand"]["phase"] == "complete"
    stacks = {s["seat"]: s["stack"] for s in snap["seats"]}
    assert stacks == {1: 206, 2: 198, 3: 198, 4: 198}  # aces win the 8-chip pot


def test_the_exposed_key_names_the_card_chosen_on_the_touch_console(table: Table) -> None:
    table.press("new_hand")
    table.press("shuffle_done")
    table.act(2, "post", 1)
    table.act(3, "post", 2)
    table.deal("T2c", seat(2))
    table.deal("T7d", seat(3))
    table.deal("TJh", seat(4))
    table.chosen = "2c"  # tapped on the touch console: seat 2's first card was seen
    table.press("exposed")
    [event] = [e for e in read_events(table.path) if e.type == "card.exposed"]
    assert (event.body.card, event.body.uid) == ("2c", "T2c")
    [finding] = read_findings(table.path)
    assert finding.code == "MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED"
    assert finding.data["cards"] == ["2c"]


def test_the_destructive_keys_need_a_long_press(table: Table) -> None:
    table.press("new_hand")
    table.press("shuffle_done")
    table.act(2, "post", 1)
    table.act(3, "post", 2)
    table.deal("T2c", seat(2))
    table.deal("T7d", seat(3))
    table.press("attention")  # nothing held: attention changes nothing, but is journaled
    table.brush("misdeal")
    table.brush("undo")
    assert table.daemon.last_snapshot["hand"]["phase"] != "misdeal"
    table.hold("undo")  # reverts the attention call
    table.hold("misdeal")
    assert table.daemon.last_snapshot["hand"]["phase"] == "misdeal"
    types = [e.type for e in read_events(table.path)]
    assert types[-5:] == ["shoe.draw", "zone.read", "attention.called", "undo",
                          "misdeal.declared"]
    assert [f.code for f in read_findings(table.path)] == ["EVENT_UNDONE"]
    assert table.keys.presses == {"new_hand": 1, "shuffle_done": 1, "exposed": 0, "boxed": 0,
                                  "attention": 1, "misdeal": 1, "undo": 1, "award": 0}


def test_run_stops_with_one_line_on_a_key_pin_gpiozero_refuses(tmp_path: Path, capsys) -> None:
    """``feltguard run`` builds the keys; a pin the board refuses (GPIO2 carries a fixed
    pull-up, so a pull-down key cannot use it) stops it with the key named, not a traceback."""
    keys = '[keys]\nenabled = true\npin_factory = "mock"\npull_up = false\nboxed = "GPIO2"\n'
    config = load(table_config(tmp_path, extra=keys))
    codes: list[int] = []  # run off the main thread, as the other run tests: no SIGTERM hook
    runner = threading.Thread(
        target=lambda: codes.append(run_table(config, io.StringIO(""), threading.Event())))
    runner.start()
    runner.join(10)
    assert codes == [2]
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("feltguard run: keys.boxed: GPIO2: ")


def test_run_with_keys_runs_and_stops_cleanly(tmp_path: Path) -> None:
    keys = '[keys]\nenabled = true\npin_factory = "mock"\n'
    config = load(table_config(tmp_path, extra=keys))
    halt = threading.Event()
    runner = threading.Thread(target=run_table, args=(config, io.StringIO("hand 1\n"), halt))
    runner.start()
    journal = tmp_path / "journal.sqlite"

    def started() -> bool:
        try:
            return "hand.start" in [e.type for e in read_events(journal)]
        except (OSError, JournalError, sqlite3.Error):
            return False

    try:
        assert wait_until(started)
    finally:
        halt.set()
        runner.join(10)
    assert not runner.is_alive()


def test_a_card_key_that_names_no_card_is_one_line_and_nothing_journaled(table: Table,
                                                                          capsys) -> None:
    table.press("new_hand")
    table.press("shuffle_done")
    before = table.daemon.seq
    pin = table.keys.button("exposed").pin
    pin.drive_low()  # no card drawn yet: "the last card drawn" names nothing
    time.sleep(BOUNCE_S * 4)
    pin.drive_high()
    assert table.daemon.seq == before
    assert table.keys.presses["exposed"] == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("? exposed: ")
    assert [e.type for e in read_events(table.path)][-1] == "shuffle.done"
