"""The simulator harness (hardware/firmware/sim/): the real firmware.elf on a simulated
ATmega1284P at 7.3728 MHz with the PN5180 model on its SPI bus, USART0 on a pty. Here: its
command language (each command answers ``ok`` or one error line) and the raw bytes on the pty,
parsed by the project's own FrameParser: heartbeats from power-on (counter 0) and, for a tag
placed on an antenna, read frames; nothing but good frames."""

from __future__ import annotations

import time
from pathlib import Path

import serial

from drivers.reader_protocol import FrameParser, HeartbeatFrame, ReadFrame
from tests.firmware.harness import Harness


def _frames(port: serial.Serial, parser: FrameParser, until: float) -> list:
    got = []
    while time.monotonic() < until:
        got += parser.feed(port.read(256))
    return got


def test_the_harness_answers_each_command_and_bad_ones_with_one_error_line(
        sim_build: Path, tmp_path: Path) -> None:
    link = tmp_path / "felt"
    with Harness(sim_build, "felt", link) as sim:
        assert Path(sim.pty).exists() and Path(link).resolve() == Path(sim.pty)
        for command in ("place 3 E00401A0B1C2D3E4", "lift 3 E00401A0B1C2D3E4", "stack 5 20",
                        "clear 5", "faceup 1", "facesensor 0", "antenna_fault 4 1",
                        "antenna_fault 4 0", "frontend dead", "frontend alive", "garbage on",
                        "garbage off"):
            assert sim.send(command) == "ok", command
        for bad in ("place 16 E00401A0B1C2D3E4", "place 3 E004", "lift 3 E00401A0B1C2D3E4",
                    "faceup 2", "frontend asleep", "juggle"):
            answer = sim.send(bad)
            assert answer.startswith("error: ") and "\n" not in answer, (bad, answer)
        assert sim.send("faceup 1") == "ok"  # still answering after the errors
    assert not link.exists()


def test_the_firmware_in_the_simulator_sends_heartbeats_and_reads(sim_build: Path) -> None:
    with Harness(sim_build, "felt") as sim:
        port = serial.Serial(sim.pty, 115200, timeout=0.05)
        parser = FrameParser()
        sim.ok("place 7 E00401A0B1C2D3E4")
        frames = _frames(port, parser, time.monotonic() + 2.5)
        port.close()
        stats = sim.stats()
    beats = [f for f in frames if isinstance(f, HeartbeatFrame)]
    reads = [f for f in frames if isinstance(f, ReadFrame)]
    assert len(beats) >= 3 and all(b.reader == 2 and b.status == 0 for b in beats)
    assert reads and {(r.reader, r.antenna, r.uid, r.face_up) for r in reads} == \
        {(2, 7, "E00401A0B1C2D3E4", False)}
    counters = [f.counter for f in frames]
    assert counters == list(range(counters[0], counters[0] + len(counters)))
    assert parser.frames_bad == 0 and parser.frames_lost == 0
    # every felt antenna (1..14) was scanned, none other
    assert {int(a.split(":")[0]) for a in stats["scans"].split(",")} == set(range(1, 15))
