"""``feltguard chips enrol`` through the real ChipReader on a pty, the simulated chip reader
(drivers/simulated_chip_reader.py) scanning the enrolment antenna as the device does."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.cli import main
from controller.tags.chipfile import load_chip_sets
from drivers.simulated_chip_reader import SimulatedChipReader
from tests.test_deck_cli import Command, _refusal

SETTLE = "0.3"
WHITE = [f"E0040150AA{i:06X}" for i in range(20)]  # the house set's chips of 1
RED = [f"E0040150BB{i:06X}" for i in range(15)]  # of 5
OLD = [f"E0040150CC{i:06X}" for i in range(12)]  # the old set's chips of 25


@pytest.fixture
def device(tmp_path: Path) -> Iterator[SimulatedChipReader]:
    with SimulatedChipReader(tmp_path / "feltchips", antennas=(1, 2), cycle_ms=50) as sim:
        yield sim


def enrol(device: SimulatedChipReader, output: Path, set_id: str, denomination: int,
          uids: list[str], *more: str, timeout: str = "20") -> Command:
    """Run ``chips enrol``; once the reader is open, build ``uids`` on antenna 1 a few chips a
    scan cycle (as hands lay a stack down) and scan on until the command is done."""
    cmd = Command(["chips", "enrol", "--set", set_id, "--denomination", str(denomination),
                   "--reader", str(device.link_path), "--settle", SETTLE, "--timeout", timeout,
                   "-o", str(output), *more])
    assert cmd.out.wait_for("put them on the antenna"), cmd.out.text
    device.build(1, uids, per_cycle=3)
    device.start_scanning()
    return cmd


def finish(device: SimulatedChipReader, cmd: Command) -> int | None:
    status = cmd.wait()
    device.stop_scanning()
    device.remove(1)  # the chips are taken off the antenna
    return status


def test_enrol_two_denominations_into_a_new_file_then_a_third_into_another_set(
        device: SimulatedChipReader, tmp_path: Path) -> None:
    out = tmp_path / "chips.json"
    device.place(2, [OLD[0]])  # another antenna's chips are not the enrolment's
    cmd = enrol(device, out, "house", 1, WHITE, "--colour", "white")
    assert finish(device, cmd) == 0, cmd.out.text
    assert f"set house: 20 chips of 1 enrolled in {out}" in cmd.out.text
    assert "set house: 1 (white) x 20: 20 chips worth 20" in cmd.out.text

    cmd = enrol(device, out, "house", 5, RED, "--colour", "red")
    assert finish(device, cmd) == 0, cmd.out.text
    assert "set house: 15 chips of 5 enrolled" in cmd.out.text
    assert "set house: 1 (white) x 20, 5 (red) x 15: 35 chips worth 95" in cmd.out.text

    cmd = enrol(device, out, "old", 25, OLD)
    assert finish(device, cmd) == 0, cmd.out.text
    assert "set old: 25 x 12: 12 chips worth 300 (sets: house, old; in play at start: house)" \
        in cmd.out.text

    sets = load_chip_sets(str(out))  # the file the table loads: `[chips] file`
    assert sets.in_play == "house" and list(sets.chips) == ["house", "old"]
    assert sets.chips["house"] == {**dict.fromkeys(WHITE, 1), **dict.fromkeys(RED, 5)}
    assert sets.colours["house"] == {1: "white", 5: "red"}
    assert sets.chips["old"] == dict.fromkeys(OLD, 25) and sets.colours["old"] == {}
    [first, *_] = sets.bodies()
    assert first.set == "house" and len(first.chips) == 35


def test_a_denomination_enrolled_in_two_batches_keeps_the_chips_left_on_the_antenna(
        device: SimulatedChipReader, tmp_path: Path) -> None:
    out = tmp_path / "chips.json"
    cmd = enrol(device, out, "house", 1, WHITE[:10], "--colour", "white")
    assert finish(device, cmd) == 0, cmd.out.text
    device.place(1, WHITE[8:10])  # two of the first batch left on the antenna
    cmd = enrol(device, out, "house", 1, WHITE[10:])  # the colour stays the set's
    assert finish(device, cmd) == 0, cmd.out.text
    assert "set house: 10 chips of 1 enrolled" in cmd.out.text
    assert "(2 read were enrolled already)" in cmd.out.text
    sets = load_chip_sets(str(out))
    assert sets.chips["house"] == dict.fromkeys(WHITE, 1) and sets.colours["house"] == {1: "white"}


@pytest.fixture
def house(tmp_path: Path) -> Path:
    path = tmp_path / "chips.json"
    path.write_text(json.dumps({"in_play": "house", "sets": {
        "house": {"colours": {"1": "white"}, "chips": dict.fromkeys(WHITE, 1)},
        "old": {"chips": dict.fromkeys(OLD, 25)}}}))
    return path


def test_a_tag_of_this_set_under_another_denomination_is_refused_and_the_file_kept(
        device: SimulatedChipReader, house: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = house.read_bytes()
    cmd = enrol(device, house, "house", 5, [*RED, WHITE[3]])  # a chip of 1 left among the 5s
    assert finish(device, cmd) == 2, cmd.out.text
    assert _refusal(capsys) == (f"feltguard chips enrol: set house denomination 5 refused, "
                                f"{house} unchanged: tag {WHITE[3]} is a chip of 1 in this set, "
                                "enrolled already: take it off the antenna")
    assert house.read_bytes() == before


def test_a_tag_of_another_set_is_refused(device: SimulatedChipReader, house: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    before = house.read_bytes()
    cmd = enrol(device, house, "house", 25, [*OLD[:2], "E0040150DD000001"])
    assert finish(device, cmd) == 2, cmd.out.text
    assert _refusal(capsys).endswith(f"tag {OLD[0]} is a chip of 25 of set old, enrolled "
                                     "already: take it off the antenna (1 more tags read are "
                                     "enrolled already)")
    assert house.read_bytes() == before


def test_an_empty_antenna_at_the_timeout_is_refused(
        device: SimulatedChipReader, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "chips.json"
    cmd = enrol(device, out, "house", 1, [], timeout="1.5")
    assert finish(device, cmd) == 2
    assert _refusal(capsys) == (f"feltguard chips enrol: set house denomination 1 refused, {out} "
                                f"unchanged: antenna 1 of {device.link_path} read no chip in "
                                "1.5 s: put the chips on it")
    assert not out.exists()


def test_an_antenna_the_reader_does_not_have_is_named(
        device: SimulatedChipReader, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "chips.json"
    cmd = enrol(device, out, "house", 1, [], "--antenna", "7", timeout="1")
    assert finish(device, cmd) == 2
    assert _refusal(capsys).endswith(f"antenna 7 of {device.link_path} reported nothing in 1 s "
                                     "(it reports antennas 1, 2)")
    assert not out.exists()


def test_bad_input_is_refused_before_reading(
        tmp_path: Path, house: Path, capsys: pytest.CaptureFixture[str]) -> None:
    link = str(tmp_path / "no-reader")
    before = house.read_bytes()
    base = ["chips", "enrol", "--set", "house", "--reader", link, "-o", str(house)]
    # a colour clashing with the set's colour for the denomination, or another's colour
    assert main([*base, "--denomination", "1", "--colour", "blue"]) == 2
    assert _refusal(capsys) == (f"feltguard chips enrol: set house denomination 1 refused, "
                                f"{house} unchanged: set house has colour white for "
                                "denomination 1, not blue (leave --colour out, or give white)")
    assert main([*base, "--denomination", "5", "--colour", "White"]) == 2
    assert _refusal(capsys).endswith("colour White is denomination 1's in set house: one colour, "
                                     "two denominations")
    # an unreadable reader
    assert main([*base, "--denomination", "5"]) == 2
    assert _refusal(capsys).startswith(f"feltguard chips enrol: {link}: cannot open the "
                                       "reader: ")
    # a bad denomination: argparse's one line
    for bad in ("0", "five", "-5"):
        with pytest.raises(SystemExit) as exc:
            main([*base, "--denomination", bad])
        assert exc.value.code == 2
        assert "argument --denomination: must be a whole number" in _refusal(capsys)
    # a bad chip-set file, and an output that cannot be written
    broken = tmp_path / "broken.json"
    broken.write_text('{"sets": {"house": {"chips": {"04C1A2B3": 0}}}}')
    assert main(["chips", "enrol", "--set", "house", "--denomination", "5", "--reader", link,
                 "-o", str(broken)]) == 2
    assert _refusal(capsys) == (f"feltguard chips enrol: -o: {broken}: set house: uid "
                                "04C1A2B3: denomination 0 is not a whole number of the table's "
                                "money, 1 or more")
    assert main(["chips", "enrol", "--set", "house", "--denomination", "5", "--reader", link,
                 "-o", str(tmp_path)]) == 2
    assert _refusal(capsys) == f"feltguard chips enrol: {tmp_path}: is a directory"
    assert house.read_bytes() == before


def test_chips_still_moving_at_the_timeout_are_refused(
        device: SimulatedChipReader, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "chips.json"
    many = [f"E0040150EE{i:06X}" for i in range(200)]
    cmd = Command(["chips", "enrol", "--set", "house", "--denomination", "1", "--reader",
                   str(device.link_path), "--settle", SETTLE, "--timeout", "1", "-o", str(out)])
    assert cmd.out.wait_for("put them on the antenna"), cmd.out.text
    device.build(1, many, per_cycle=1)  # a chip a cycle: never still for the settle time
    device.start_scanning()
    assert finish(device, cmd) == 2
    line = _refusal(capsys)
    assert line.startswith(f"feltguard chips enrol: set house denomination 1 refused, {out} "
                           "unchanged: the "), line
    assert line.endswith(" chips on antenna 1 were still moving after 1 s (still for 0.3 s is "
                         "needed)"), line
    assert not out.exists()


def test_a_reader_unplugged_during_the_enrolment_is_named(
        device: SimulatedChipReader, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "chips.json"
    cmd = enrol(device, out, "house", 1, [])
    device.stop_scanning()
    device.unplug()
    assert finish(device, cmd) == 2
    assert _refusal(capsys).startswith(f"feltguard chips enrol: {device.link_path}: the reader "
                                       "went away during the enrolment: ")
    assert not out.exists()


def test_a_counting_tray_has_no_tags_to_enrol(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "chips.json"
    with SimulatedChipReader(tmp_path / "tray", reader_id=4, kind="tray", cycle_ms=50) as tray:
        tray.set_tray([(0, 5, 20)])
        cmd = enrol(tray, out, "house", 5, [], timeout="1")
        assert finish(tray, cmd) == 2
    assert _refusal(capsys).endswith(f"{tray.link_path} is a counting tray: its chips carry no "
                                     "tag to enrol")
    assert not out.exists()
