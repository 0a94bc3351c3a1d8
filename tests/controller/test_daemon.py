"""The daemon as the last line of defence: a core fault is journaled as CORE_FAULT, the event is
skipped and the table goes on, recovery on such a journal comes back up; nothing a replay could
not read back is ever journaled; the chain head is anchored at every hand's end."""

from __future__ import annotations

import json
import sqlite3

import pytest

import controller.guard as guard_module
from controller.daemon.table_daemon import TableDaemon
from controller.events import (
    Action,
    DeckRegister,
    EventError,
    HandEnd,
    HandStart,
    SeatTake,
    ShoeDraw,
    ShuffleDone,
    TableSetup,
    ZoneRead,
)
from controller.guard import fault_digest
from controller.journal import Journal, JournalError, anchor_path_for, check, read_findings
from controller.rules import apply as real_apply

TAGS = {"T1": "As", "T2": "Kd", "T3": "Qh", "T4": "Jc", "T5": "Tc", "T6": "9c"}

# The sequence that made StopIteration escape the core (issue 9): a card read in the burn before
# the deal was complete, the shoe reshuffled, a card read on the board.
POISON = [
    SeatTake(seat=3, player="A", stack=100),
    SeatTake(seat=1, player="B", stack=100),
    DeckRegister(deck="d", tags=TAGS),
    HandStart(button=1),
    ShoeDraw(uid="T1", face_up=False),
    ShoeDraw(uid="T2", face_up=False),
    ShoeDraw(uid="T3", face_up=False),
    ShoeDraw(uid="T4", face_up=False),
    ZoneRead(uid="T5", zone="burn"),
    ShuffleDone(),
    ZoneRead(uid="T6", zone="board"),
]


@pytest.fixture
def broken_core(monkeypatch):
    """A core whose apply raises on the board read, as the real one did before its fix: the
    daemon must not depend on the core being right."""

    def apply(state, event):
        if isinstance(event.body, ZoneRead) and event.body.zone == "board":
            next(iter(()))  # StopIteration, as escaped from dealing._add_tail
        return real_apply(state, event)

    monkeypatch.setattr(guard_module, "apply", apply)


def test_a_core_fault_is_journaled_skipped_and_the_table_goes_on(tmp_path, broken_core):
    path = tmp_path / "j.sqlite"
    seen = []
    with Journal(path) as journal:
        daemon = TableDaemon(journal, outputs=[seen.append])
        for body in POISON:
            step = daemon.submit(body)
        assert [f.code for f in step.findings] == ["CORE_FAULT"]
        fault = step.findings[0]
        assert fault.severity == "error"
        assert "StopIteration" in fault.message and "zone.read (seq 11)" in fault.message
        assert fault.rule.file == "roberts-rules-v11.txt"
        assert daemon.core_faults == 1 and daemon.seq == 11
        assert len(seen) == 11  # every output still got a snapshot
        before = daemon.last_snapshot
        step = daemon.submit(Action(seat=3, kind="call"))  # the table goes on
        assert daemon.seq == 12 and daemon.core_faults == 1
        assert daemon.last_snapshot["last_seq"] == 12 and before["last_seq"] == 10
    journaled = next(f for f in read_findings(path) if f.code == "CORE_FAULT")
    assert journaled.seq == 11 and journaled.data == fault.to_json()


def test_recovery_on_a_journal_holding_a_faulting_event_comes_back_up(tmp_path, broken_core):
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        first = TableDaemon(journal)
        for body in POISON:
            first.submit(body)
        first.submit(Action(seat=3, kind="call"))
        expected = first.last_snapshot
    with Journal(path) as journal:
        again = TableDaemon(journal)  # before the fix this raised, so the table stayed down
        assert again.seq == 12 and again.recovered == 12 and again.core_faults == 1
        assert again.last_snapshot == expected
        again.submit(Action(seat=1, kind="check"))
        assert again.seq == 13


def test_the_fault_digest_names_the_site_not_the_values():
    def fail(x):
        raise ValueError(x)

    digests = set()
    for value in ("a", "b"):
        try:
            fail(value)
        except ValueError as exc:
            digests.add(fault_digest(exc))
    assert len(digests) == 1 and len(next(iter(digests))) == 12


@pytest.mark.parametrize("body", [
    TableSetup(seats=11),
    SeatTake(seat=0, player="A", stack=10),
    Action(seat=1, kind="teleport"),
])
def test_a_body_a_replay_could_not_read_back_is_refused_before_the_journal(tmp_path, body):
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        daemon = TableDaemon(journal)
        daemon.submit(TableSetup())
        with pytest.raises(EventError):
            daemon.submit(body)
        assert journal.last_seq == 1 and daemon.seq == 1
        daemon.submit(SeatTake(seat=1, player="A", stack=10))
        assert daemon.seq == 2  # no gap: the refused body took no number
    assert check(path).ok


def test_every_hand_end_anchors_the_chain_head(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        daemon = TableDaemon(journal)
        for body in (TableSetup(), SeatTake(seat=1, player="A", stack=10),
                     SeatTake(seat=2, player="B", stack=10), HandStart(button=1), HandEnd()):
            daemon.submit(body)
    lines = [json.loads(x) for x in anchor_path_for(path).read_text().splitlines()]
    assert [(a["why"], a["seq"]) for a in lines] == [
        ("open", 0), ("hand", 4), ("hand", 5), ("close", 5)]


def test_a_tampered_journal_is_not_resumed(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        daemon = TableDaemon(journal)
        daemon.submit(TableSetup())
        daemon.submit(SeatTake(seat=1, player="A", stack=10))
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER events_no_update")
    db.execute("UPDATE events SET line = replace(line, '10', '9999') WHERE seq = 2")
    db.commit()
    db.close()
    with Journal(path) as journal, pytest.raises(JournalError, match="not resumed"):
        TableDaemon(journal)
