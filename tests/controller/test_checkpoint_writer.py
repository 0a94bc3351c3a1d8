"""Checkpoints made off the thread that journals and drives the LEDs
(controller/daemon/checkpoint_writer.py, ``TableDaemon(checkpoints_aside=True)`` as ``run`` and
``sim`` have it): the state's text is made on the writer's thread, never on the submitting one;
every hand's end still leaves a checkpoint that checks out once the daemon is closed, and a
restart from it is the full replay; a write that fails is logged and counted, and the next one
is still written."""

from __future__ import annotations

import logging
import random
import threading
from pathlib import Path

import pytest

import controller.daemon.table_daemon as table_daemon
from controller.daemon.checkpoint_writer import CheckpointWriter
from controller.daemon.table_daemon import TableDaemon
from controller.events import EventError, HandEnd, MisdealDeclared
from controller.guard import guarded_apply
from controller.journal import Journal, check, read_events
from controller.rules import initial_state, state_from_text
from controller.sim import SimDealer, expand


def _deal(daemon: TableDaemon, hands: int, seed: int = 3) -> int:
    """``hands`` hands of dealer's choice through the daemon; how many ended (checkpoints)."""
    dealer = SimDealer(random.Random(seed), mistake_rate=0.1, game="dealers_choice")
    ends = 0
    for _ in range(hands):
        for step in dealer.next_hand():
            for body in expand(step):
                try:
                    daemon.submit(body)
                except EventError:
                    continue
                ends += isinstance(body, HandEnd | MisdealDeclared)
        dealer.truth.clear()
    return ends


def test_the_text_is_made_on_the_writers_thread(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[str] = []
    real = table_daemon.state_to_text

    def encode(state):  # type: ignore[no-untyped-def]
        threads.append(threading.current_thread().name)
        return real(state)

    monkeypatch.setattr(table_daemon, "state_to_text", encode)
    with Journal(tmp_path / "j.sqlite") as journal:
        daemon = TableDaemon(journal, checkpoints_aside=True)
        assert _deal(daemon, 4) >= 4
        daemon.close()
        assert daemon.checkpoints is not None and daemon.checkpoints.failed == 0
    assert threads and set(threads) == {"checkpoint-writer"}


def test_every_hand_end_keeps_a_checkpoint_and_a_restart_from_it_is_the_full_replay(
        tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        daemon = TableDaemon(journal, checkpoints_aside=True)
        ends = _deal(daemon, 6)
        writer = daemon.checkpoints
        assert writer is not None
        daemon.close()
        kept = [cp for cp in journal.checkpoints() if cp.problem is None]
        # each hand's end was written, or replaced by a newer one asked while it waited
        assert len(kept) + writer.replaced == ends and len(kept) >= 1
        newest = state_from_text(kept[0].text)
    assert check(path).ok  # every checkpoint's HMAC and anchor check out
    full = initial_state()
    for event in read_events(path):
        full = guarded_apply(full, event).step.state
        if event.seq == kept[0].seq:
            assert newest == full
    with Journal(path) as journal:
        again = TableDaemon(journal)
        assert again.restart is not None and again.restart["from"] == "checkpoint"
        assert again.state == full


def test_a_failed_write_is_logged_and_the_next_one_is_written(
        caplog: pytest.LogCaptureFixture) -> None:
    stored: list[object] = []
    fail = [True]

    def store(row: object) -> None:
        if fail.pop(0) if fail else False:
            raise OSError("disk full")
        stored.append(row)

    writer = CheckpointWriter(lambda state: f"text {state}", lambda text, at: (at, text), store)
    with caplog.at_level(logging.ERROR, logger="feltguard.daemon"):
        writer.keep("one", (1, "a"))
        assert writer.flush(5)
        writer.keep("two", (2, "b"))
        writer.close(5)
    assert writer.failed == 1 and writer.written == 1
    assert stored == [((2, "b"), "text two")]
    assert "the state at seq 1 was not kept as a checkpoint" in caplog.text
    with pytest.raises(RuntimeError):
        writer.keep("three", (3, "c"))
