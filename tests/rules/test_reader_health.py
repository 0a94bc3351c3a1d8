"""The rules core turns each reader.health change into a finding and keeps the device states
(controller/rules/table/devices.py): offline, silent, fault, noisy, restored; across hands and
undo."""

from __future__ import annotations

from controller.events import Event, HandStart, ReaderHealth, SeatTake, Undo, parse_event
from controller.rules import apply, initial_state, snapshot
from controller.rules.findings.catalogue import CATALOGUE
from controller.rules.table import Step, TableState


def run(bodies: list[object], state: TableState | None = None) -> tuple[TableState, list[Step]]:
    state = state or initial_state()
    steps = []
    for body in bodies:
        step = apply(state, Event(state.last_seq + 1, 1_000 * (state.last_seq + 1), body))  # type: ignore[arg-type]
        steps.append(step)
        state = step.state
    return state, steps


def codes(step: Step) -> list[str]:
    return [f.code for f in step.findings]


def test_each_change_of_state_raises_its_finding_and_ok_restores() -> None:
    state, steps = run([
        ReaderHealth(reader=1, name="shoe", state="ok"),
        ReaderHealth(reader=1, name="shoe", state="offline", detail="port gone"),
        ReaderHealth(reader=1, name="shoe", state="offline", detail="still gone"),
        ReaderHealth(reader=1, name="shoe", state="ok"),
        ReaderHealth(reader=2, name="felt", state="silent", detail="no heartbeat for 2.1 s"),
        ReaderHealth(reader=2, name="felt", state="noisy", detail="40 bad frames in 60 s"),
        ReaderHealth(reader=2, name="felt", state="fault", detail="an antenna is open"),
    ])
    assert [codes(s) for s in steps] == [
        [], ["READER_OFFLINE"], [], ["READER_RESTORED"], ["READER_SILENT"], ["READER_NOISY"],
        ["READER_FAULT"],
    ]
    offline = steps[1].findings[0]
    assert offline.severity == "error"
    assert offline.message == ("The shoe reader (reader 1) is offline: cards dealt now are not "
                               "seen. Stop dealing until it is back.")
    assert offline.rule.file == "DESIGN.md" and offline.rule.section == "Data flows one way"
    assert len(offline.remedy) == 3
    restored = steps[3].findings[0]
    assert "it was offline since journal seq 2" in restored.message
    assert steps[5].findings[0].severity == "warning"
    # the repeat of a state keeps when it began
    snap = snapshot(state)
    assert snap["devices"] == [
        {"reader": 1, "name": "shoe", "state": "ok", "since": 4000, "since_seq": 4,
         "antenna": None, "detail": "", "code": None},
        {"reader": 2, "name": "felt", "state": "fault", "since": 7000, "since_seq": 7,
         "antenna": None, "detail": "an antenna is open", "code": "READER_FAULT"},
    ]
    assert "an antenna is open" in snap["findings"][-1]["message"]


def test_a_repeat_keeps_since_and_a_first_ok_is_silent() -> None:
    state, steps = run([ReaderHealth(reader=1, state="offline"),
                        ReaderHealth(reader=1, state="offline", detail="x")])
    assert codes(steps[1]) == []
    assert snapshot(state)["devices"][0]["since_seq"] == 1
    assert snapshot(state)["devices"][0]["detail"] == "x"


def test_a_new_hand_with_a_reader_down_is_told_again() -> None:
    state, _ = run([SeatTake(seat=1, player="A", stack=100),
                    SeatTake(seat=2, player="B", stack=100),
                    ReaderHealth(reader=1, name="shoe", state="offline")])
    state, steps = run([HandStart()], state)
    assert "READER_OFFLINE" in codes(steps[0])
    assert "READER_OFFLINE" in [f["code"] for f in snapshot(state)["findings"]]


def test_undo_never_takes_back_a_device_report() -> None:
    state, _ = run([SeatTake(seat=1, player="A", stack=100)])
    state, steps = run([ReaderHealth(reader=1, name="shoe", state="offline"), Undo()], state)
    # the undo took back the seat, not the reader report, and the reader is still offline
    assert codes(steps[1]) == ["EVENT_UNDONE"]
    assert "seat.take" in steps[1].findings[0].message
    assert snapshot(state)["devices"][0]["state"] == "offline"
    assert snapshot(state)["seats"] == []
    # nor the finding it raised
    assert [f["code"] for f in snapshot(state)["findings"]] == ["READER_OFFLINE", "EVENT_UNDONE"]


def test_the_event_parses_and_refuses_bad_values() -> None:
    ev = parse_event({"type": "reader.health", "seq": 1, "reader": 2, "state": "fault",
                      "antenna": 0, "detail": "antenna fault"})
    assert ev.body == ReaderHealth(reader=2, state="fault", antenna=0, detail="antenna fault")
    for bad, word in (({"state": "broken"}, "state"), ({"reader": 300}, "reader"),
                      ({"antenna": -1}, "antenna")):
        try:
            parse_event({"type": "reader.health", "reader": 1, "state": "ok", **bad})
        except ValueError as exc:
            assert f"'{word}'" in str(exc)
        else:
            raise AssertionError(f"{bad} was taken")


def test_every_device_code_is_in_the_catalogue_with_steps() -> None:
    for code in ("READER_OFFLINE", "READER_SILENT", "READER_FAULT", "READER_NOISY",
                 "READER_RESTORED"):
        entry = CATALOGUE[code]
        assert entry.remedy and not entry.catalogue


def test_chip_devices_are_named_as_the_dealer_knows_them() -> None:
    from controller.rules.table.devices import CHIP_READER, COUNTING_TRAY

    _, steps = run([
        ReaderHealth(reader=3, name=CHIP_READER, state="offline", detail="port gone"),
        ReaderHealth(reader=4, name=COUNTING_TRAY, state="fault",
                     detail="a tube sensor or multiplexer channel does not answer"),
        ReaderHealth(reader=3, name=CHIP_READER, state="ok"),
    ])
    offline, fault, back = (s.findings[0] for s in steps)
    assert offline.message == ("The chip reader (reader 3) is offline: chips moved now are not "
                               "seen. Stop dealing until it is back.")
    assert offline.rule.file == "DESIGN.md"
    assert fault.message.startswith("The counting tray (reader 4) reports a fault: a tube "
                                    "sensor")
    assert fault.remedy[1] == ("Check the tray's tube sensors and their cable at the tray; "
                               "nothing jammed in a tube.")
    assert back.message.startswith("The chip reader (reader 3) is back (it was offline")
    # a card reader keeps its words
    _, (shoe,) = run([ReaderHealth(reader=1, name="shoe", state="fault", detail="x")])
    assert shoe.findings[0].remedy[1] == ("Check the antenna leads and the shoe's face sensor "
                                          "at the reader; nothing metal on the felt over the "
                                          "antennas.")
