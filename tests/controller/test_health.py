"""The readers' health monitor (controller/sensing/health.py) on a stepped clock: each state, the
order of precedence, one submission per change, the start-up grace and the journal's known states.
(The same monitor over a real pty reader and a real journal: tests/test_reader_health_e2e.py.)"""

from __future__ import annotations

from dataclasses import dataclass, replace

from controller.config import ConfigError, from_mapping
from controller.events import Body, ReaderHealth
from controller.sensing.cards import DEFAULT_ANTENNAS
from controller.sensing.health import HealthMonitor, Watched, reader_name


@dataclass(frozen=True)
class Stats:
    """The fields of drivers.card_reader.ReaderStats the monitor reads."""

    connected: bool = True
    frames_bad: int = 0
    last_heartbeat: float | None = None
    last_error: str | None = None
    last_status: int = 0


class Bench:
    def __init__(self, **kw: object) -> None:
        self.now = 100.0
        self.stats = Stats()
        self.sent: list[Body] = []
        self.monitor = HealthMonitor([Watched(1, "shoe", lambda: self.stats)], self.sent.append,
                                     clock=lambda: self.now, **kw)  # type: ignore[arg-type]

    def at(self, now: float, **change: object) -> list[str]:
        self.now = now
        self.stats = replace(self.stats, **change)  # type: ignore[arg-type]
        return [b.state for b in self.monitor.poll() if isinstance(b, ReaderHealth)]


def test_states_in_order_and_one_event_per_change() -> None:
    b = Bench()
    assert b.at(100.1, last_heartbeat=100.05) == ["ok"]  # an ok is told even at start-up
    assert b.at(100.6, last_heartbeat=100.55) == []  # the same state: nothing
    assert b.at(102.2) == ["silent"]  # 1.65 s since the last heartbeat > 3 x 0.5 s
    assert b.at(102.3) == []
    assert b.at(102.4, connected=False, last_error="SerialException: gone") == ["offline"]
    assert b.sent[-1] == ReaderHealth(reader=1, state="offline", name="shoe",
                                      detail="SerialException: gone")
    # back: the heartbeat from before the unplug does not count; one fresh heartbeat is ok
    assert b.at(103.0, connected=True) == []
    assert b.at(103.2, last_heartbeat=103.1) == ["ok"]
    assert b.at(103.7, last_heartbeat=103.6, last_status=0x01) == ["fault"]
    assert "antenna" in b.sent[-1].detail  # type: ignore[union-attr]
    assert b.at(104.2, last_heartbeat=104.1, last_status=0) == ["ok"]


def test_reconnected_without_heartbeats_is_silent_after_the_limit() -> None:
    b = Bench()
    b.at(100.1, last_heartbeat=100.0)
    b.at(100.2, connected=False)
    assert b.at(100.3, connected=True) == []
    assert b.at(101.9) == ["silent"]  # 1.6 s after the port came back, no heartbeat


def test_noisy_over_the_trailing_minute() -> None:
    b = Bench(bad_frames_per_minute=10)
    hb = 100.0
    b.at(100.1, last_heartbeat=hb)
    assert b.at(110.0, last_heartbeat=109.9, frames_bad=10) == []  # 10 is the limit, not above
    assert b.at(120.0, last_heartbeat=119.9, frames_bad=11) == ["noisy"]
    assert "11 bad frames" in b.sent[-1].detail  # type: ignore[union-attr]
    assert b.at(150.0, last_heartbeat=149.9) == []  # the minute back to 90 holds all 11
    # the minute back to 110 holds one: the ten before 110 have aged out
    assert b.at(170.0, last_heartbeat=169.9) == ["ok"]


def test_start_up_grace_and_known_states() -> None:
    b = Bench()
    assert b.at(100.5, connected=False) == []  # ports still opening
    assert b.at(101.6) == ["offline"]
    known = Bench(known=[{"reader": 1, "state": "offline"}])
    assert known.at(101.6, connected=False) == []  # the journal says so already
    assert known.at(101.7, connected=True) == []  # reopened: waiting for a heartbeat
    assert known.at(101.8, last_heartbeat=101.75) == ["ok"]


def test_a_failed_submit_is_tried_again() -> None:
    calls: list[Body] = []

    def submit(body: Body) -> None:
        calls.append(body)
        if len(calls) == 1:
            raise OSError("disk full")

    m = HealthMonitor([Watched(1, "shoe", lambda: Stats(connected=False))], submit,
                      clock=lambda: 200.0)
    m._started = 0.0
    assert m.poll() == []
    assert m.submit_errors == 1
    assert [b.state for b in m.poll() if isinstance(b, ReaderHealth)] == ["offline"]


def test_reader_names_and_config() -> None:
    assert reader_name(1, DEFAULT_ANTENNAS) == "shoe"
    assert reader_name(2, DEFAULT_ANTENNAS) == "felt"
    assert reader_name(9, DEFAULT_ANTENNAS) == ""
    cfg = from_mapping({"health": {"heartbeat_ms": 250, "bad_frames_per_minute": 5},
                        "readers": [{"url": "/dev/a"}, {"url": "/dev/b", "id": 7}]})
    assert cfg.health == {"heartbeat_ms": 250, "missed_heartbeats": 3, "bad_frames_per_minute": 5,
                          "incomplete_cycles_per_minute": 20}
    assert [r.id for r in cfg.readers] == [1, 7]
    for raw, key in (({"health": {"heartbeat_ms": 0}}, "health.heartbeat_ms"),
                     ({"health": {"missed_heartbeats": True}}, "health.missed_heartbeats"),
                     ({"health": {"bad_frames": 3}}, "health.bad_frames"),
                     ({"readers": [{"url": "a", "id": 256}]}, "readers[0].id")):
        try:
            from_mapping(raw)
        except ConfigError as exc:
            assert str(exc).startswith(key + ":"), exc
        else:
            raise AssertionError(f"{raw} was taken")


@dataclass(frozen=True)
class ChipStats(Stats):
    """What the monitor reads of drivers.chip_reader.ChipReaderStats: a card reader's fields
    and the scan cycles dropped for a missing part."""

    incomplete_cycles: int = 0


def test_a_chip_device_faults_on_its_own_bits_and_is_noisy_on_lost_cycles() -> None:
    from controller.sensing.health import chip_reader_name

    now = [100.0]
    stats = [ChipStats()]
    sent: list[Body] = []
    m = HealthMonitor([Watched(3, chip_reader_name("rfid"), lambda: stats[0], kind="chip"),
                       Watched(4, chip_reader_name("tray"), lambda: stats[0], kind="chip")],
                      sent.append, clock=lambda: now[0], incomplete_cycles_per_minute=10)

    def at(t: float, **change: object) -> list[tuple[int, str, str]]:
        now[0] = t
        stats[0] = replace(stats[0], **change)  # type: ignore[arg-type]
        return [(b.reader, b.state, b.name) for b in m.poll() if isinstance(b, ReaderHealth)]

    assert at(100.1, last_heartbeat=100.05) == [(3, "ok", "chip"), (4, "ok", "counting tray")]
    # bit 1 of a chip device is SENSOR_FAULT (hardware/chip-protocol.md), not a face sensor
    at(100.6, last_heartbeat=100.55)  # past the start-up grace (1.5 s) below
    assert at(102.0, last_heartbeat=101.95, last_status=0x02) == [
        (3, "fault", "chip"), (4, "fault", "counting tray")]
    assert "a tube sensor or multiplexer channel does not answer" in sent[-1].detail  # type: ignore[union-attr]
    assert "face" not in sent[-1].detail  # type: ignore[union-attr]
    # COLLISION (0x08), OVERFLOW, CYCLE_OVERRUN: a cycle may have missed chips; not a fault
    assert [s for _, s, _ in at(102.5, last_heartbeat=102.45, last_status=0x1C)] == ["ok", "ok"]
    assert at(110.0, last_heartbeat=109.95, last_status=0, incomplete_cycles=10) == []  # the limit
    assert [s for _, s, _ in at(120.0, last_heartbeat=119.95, incomplete_cycles=11)] == [
        "noisy", "noisy"]
    assert sent[-1].detail == ("11 scan cycles lost for a missing part in the last minute "  # type: ignore[union-attr]
                               "(limit 10)")
    # a minute later with no more lost: ok again
    assert [s for _, s, _ in at(181.0, last_heartbeat=180.95)] == ["ok", "ok"]


def test_a_card_reader_is_never_noisy_for_incomplete_cycles() -> None:
    b = Bench()
    b.at(100.1, last_heartbeat=100.05)
    b.monitor.readers[0].kind = "card"
    assert b.at(110.0, last_heartbeat=109.95) == []
    # a card reader's FACE_SENSOR_FAULT keeps its own words
    assert b.at(110.5, last_heartbeat=110.45, last_status=0x02) == ["fault"]
    assert "face-up sensor" in b.sent[-1].detail  # type: ignore[union-attr]


def test_a_chip_reader_whose_collisions_go_on_is_unresolved() -> None:
    """COLLISION in one heartbeat is a cycle that may have missed chips (the settle time takes
    it); in three heartbeats in a row (1 s at 500 ms) a stack too tall to resolve lies on an
    antenna: ``unresolved``, and ok again once a heartbeat comes without it. A card reader's
    COLLISION is never judged."""
    now = [100.0]
    stats = [ChipStats()]
    sent: list[Body] = []
    m = HealthMonitor([Watched(3, "chip", lambda: stats[0], kind="chip")], sent.append,
                      clock=lambda: now[0])

    def at(t: float, **change: object) -> list[str]:
        now[0] = t
        stats[0] = replace(stats[0], **change)  # type: ignore[arg-type]
        return [b.state for b in m.poll() if isinstance(b, ReaderHealth)]

    assert at(100.1, last_heartbeat=100.05) == ["ok"]
    at(101.6, last_heartbeat=101.55)  # past the start-up grace
    assert at(102.1, last_heartbeat=102.05, last_status=0x08) == []  # the first
    assert at(102.6, last_heartbeat=102.55, last_status=0x18) == []  # the second
    assert at(103.0, last_heartbeat=102.55) == []  # no new heartbeat yet: still the second
    assert at(103.1, last_heartbeat=103.05, last_status=0x08) == ["unresolved"]  # the third
    assert sent[-1].detail == ("its anticollision has left chips unread in every heartbeat "  # type: ignore[union-attr]
                               "for 1.0 s")
    assert at(103.6, last_heartbeat=103.55) == []  # the same state: said once
    assert at(104.1, last_heartbeat=104.05, last_status=0) == ["ok"]
    # collisions that stop between heartbeats start the count again
    for t in (105.05, 106.05, 107.05):
        assert at(t - 0.45, last_heartbeat=t - 0.5, last_status=0x08) == []
        assert at(t + 0.05, last_heartbeat=t, last_status=0) == []
    # an antenna fault is louder than the collisions
    assert at(108.1, last_heartbeat=108.05, last_status=0x09) == ["fault"]

    b = Bench()  # a card reader: its COLLISION bit says a cycle, never a state
    b.at(100.1, last_heartbeat=100.05)
    assert [b.at(100.1 + i, last_heartbeat=100.05 + i, last_status=0x08) for i in range(1, 5)] \
        == [[], [], [], []]
