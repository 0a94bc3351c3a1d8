"""``feltguard run`` with a chip-set file (``[chips] file``): every set registered at start, the
set in play first and the others idle, journaled before the first hand; a restart with a
changed file registers them again and keeps the journal's set in play."""

from __future__ import annotations

import io
import json
import threading
from functools import partial

from controller.config import load
from controller.journal import read_events
from controller.processes.table import run_table
from controller.rules import apply, initial_state
from tests.run_harness import journal_types, table_config
from tests.test_run_daemon import _wait_for

HOUSE = {"04C1000001": 1, "04C1000002": 5, "04C1000003": 25}
OLD = {"04D0000001": 5}


def _run(config_file, stdin: str, until) -> None:
    halt = threading.Event()
    runner = threading.Thread(target=run_table, args=(load(config_file), io.StringIO(stdin),
                                                      halt))
    runner.start()
    try:
        assert _wait_for(until)
    finally:
        halt.set()
        runner.join(10)
    assert not runner.is_alive()


def test_run_registers_the_chip_sets_at_start_and_again_when_the_file_changes(tmp_path):
    chips = tmp_path / "chips.json"
    chips.write_text(json.dumps({"in_play": "house", "sets": {
        "house": {"chips": HOUSE, "colours": {"25": "green"}}, "old": {"chips": OLD}}}))
    config_file = table_config(tmp_path, seats=2,
                               extra=f'[chips]\nfile = "{chips}"\n')
    journal = tmp_path / "journal.sqlite"
    types = partial(journal_types, journal)

    _run(config_file, "hand\n", lambda: "hand.start" in types())
    events = list(read_events(journal))
    regs = [e.body for e in events if e.type == "chips.register"]
    assert [(b.set, b.idle, dict(b.chips)) for b in regs] == [("house", False, HOUSE),
                                                              ("old", True, OLD)]
    assert dict(regs[0].colours) == {25: "green"}
    order = [e.type for e in events]
    assert order.index("chips.register") < order.index("hand.start")

    # a restart on the same file registers nothing again; a changed file (a chip re-tagged)
    # registers every set again between hands, the journal's set in play first
    _run(config_file, "misdeal\n", lambda: "misdeal.declared" in types())
    assert types().count("chips.register") == 2
    moved = {**{u: d for u, d in HOUSE.items() if u != "04C1000003"}, "04C1000009": 25}
    chips.write_text(json.dumps({"in_play": "old", "sets": {
        "house": {"chips": moved}, "old": {"chips": OLD}}}))
    _run(config_file, "", lambda: types().count("chips.register") == 4)
    state = initial_state()
    for e in read_events(journal):
        state = apply(state, e).state
    reg = state.chips.registry
    assert reg.in_play == "house" and dict(reg.chips) == moved
    assert reg.foreign("04D0000001") == ("old", 5)


def test_run_refuses_a_bad_chip_file_in_one_line(tmp_path, capsys):
    from controller.processes.table import StartError, open_table

    chips = tmp_path / "chips.json"
    chips.write_text(json.dumps({"sets": {"house": {"chips": {"04C1000001": -5}}}}))
    config_file = table_config(tmp_path, seats=2, extra=f'[chips]\nfile = "{chips}"\n')
    try:
        open_table(load(config_file), [], None)
    except StartError as exc:
        assert str(exc).startswith(f"chips.file: {chips}: set house: uid 04C1000001: "
                                   "denomination -5")
    else:  # pragma: no cover
        raise AssertionError("a bad chip file started the table")


def test_chips_through_the_chip_reader_pty_settle_into_the_journal(tmp_path):
    """The whole chip path of ``feltguard run``: the simulated chip reader on a pty speaks the
    chip protocol (hardware/chip-protocol.md), the real ChipReader reads it, chip sensing
    settles the stack built over several scan cycles into one chips.zone per settled content,
    and the core records it: a bet of 31 in front of seat 1, then a chip of no registered set
    (CHIP_UNKNOWN_TAG)."""
    from drivers.simulated_chip_reader import SimulatedChipReader

    chips = tmp_path / "chips.json"
    chips.write_text(json.dumps({"in_play": "house", "sets": {"house": {"chips": HOUSE}}}))
    link = tmp_path / "chips"
    config_file = table_config(
        tmp_path, seats=2,
        extra=(f'[chips]\nfile = "{chips}"\n\n[[chip_readers]]\nurl = "{link}"\n'
               "cycle_ms = 50\n\n[chip_sensing]\nsettle_ms = 500\n"))
    journal = tmp_path / "journal.sqlite"
    types = partial(journal_types, journal)
    halt = threading.Event()
    with SimulatedChipReader(link, antennas=range(1, 24), cycle_ms=50) as device:
        device.start_scanning()
        runner = threading.Thread(target=run_table,
                                  args=(load(config_file), io.StringIO(""), halt))
        runner.start()
        try:
            assert _wait_for(lambda: "chips.register" in types())
            device.build(1, list(HOUSE), per_cycle=1)  # seat 1's bet zone, a chip a cycle
            assert _wait_for(lambda: "chips.zone" in types())
            device.place(1, ["04EE000001"])  # a tag of no registered set
            assert _wait_for(lambda: types().count("chips.zone") == 2)
        finally:
            halt.set()
            runner.join(10)
    assert not runner.is_alive()
    zones = [e.body for e in read_events(journal) if e.type == "chips.zone"]
    assert [(z.zone, z.total, sorted(z.added)) for z in zones] == [
        ("bet:1", 31, sorted(HOUSE)), ("bet:1", 31, ["04EE000001"])]
    state = initial_state()
    codes = []
    for e in read_events(journal):
        step = apply(state, e)
        state = step.state
        codes += [f.code for f in step.findings]
    assert codes.count("CHIP_UNKNOWN_TAG") == 1
