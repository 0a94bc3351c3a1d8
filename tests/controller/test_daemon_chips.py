"""The daemon's chip path: a chip reader's inventories through chip sensing and the one submit
path into a real SQLite journal (journal first, then the core), the zones restored from the
journal at a restart so only changes are reported."""

from __future__ import annotations

from controller.daemon.table_daemon import TableDaemon
from controller.events import ChipsRegister, SeatTake, TableSetup
from controller.journal import Journal, read_events
from controller.sensing.chips import ChipSensing
from tests.controller.test_chip_sensing import Inv, Tray

HOUSE = {"04C1000001": 5, "04C1000002": 25}


def _feed(daemon: TableDaemon, antenna: int, uids: tuple[str, ...], start: int,
          count: int) -> None:
    for n in range(start, start + count):
        daemon.on_chips(Inv(3, antenna, n, uids, n * 0.1))


def test_settled_chips_are_journaled_and_applied_and_a_restart_reports_only_changes(tmp_path):
    path = tmp_path / "journal.sqlite"
    with Journal(path) as journal:
        daemon = TableDaemon(journal, chip_sensing=ChipSensing(settle_s=0.3))
        for body in (TableSetup(), SeatTake(seat=1, player="Ann", stack=200),
                     ChipsRegister(set="house", chips=HOUSE)):
            daemon.submit(body)
        _feed(daemon, 1, ("04C1000001",), 0, 1)
        _feed(daemon, 1, ("04C1000001", "04C1000002"), 1, 6)  # settles at the 4th of these
        daemon.on_tray(Tray(4, ((1, 5, 40),), 0.0))
        daemon.tick(0.35)  # the tray's time is up, but it was not heard within it: nothing
        for n in range(1, 5):
            daemon.on_tray(Tray(4, ((1, 5, 40),), n * 0.1))
        assert daemon.last_snapshot["seats"][0]["chips_in_front"] == 30
        assert daemon.last_snapshot["tray_counts"]["total"] == 200
    events = list(read_events(path))
    assert [e.type for e in events][3:] == ["chips.zone", "tray.counts"]
    assert events[3].body.total == 30
    assert events[3].body.added == ("04C1000001", "04C1000002")

    with Journal(path) as journal:  # restarted: the same stack lying there is no news
        daemon = TableDaemon(journal, chip_sensing=ChipSensing(settle_s=0.3))
        assert daemon.chip_sensing.zones()["bet:1"] == set(HOUSE)
        _feed(daemon, 1, ("04C1000001", "04C1000002"), 100, 6)
        assert daemon.seq == 5
        _feed(daemon, 1, ("04C1000002",), 106, 5)  # the 5 taken back
        assert daemon.seq == 6
    last = list(read_events(path))[-1].body
    assert (last.zone, last.total, last.removed) == ("bet:1", 25, ("04C1000001",))


def test_a_bet_read_from_the_chips_moves_the_action_and_the_to_act_light(tmp_path):
    """Issue 13 item 6: the betting inferred from the chips drives the live view and the LEDs
    as a console action would. Heads-up hold'em: the blinds and the button's raise are chips
    settling in the bet zones (antenna N is seat N's bet zone); each settles into the action,
    and the to-act light moves with it."""
    from controller.daemon.ledplan import led_plan
    from controller.events import DeckRegister, HandStart, ShoeDraw, ShuffleDone, ZoneRead

    chips = {f"04C2{i:06d}": 1 for i in range(12)}
    uids = sorted(chips)
    cards = ["2c", "3h", "5s", "2d"]
    with Journal(tmp_path / "journal.sqlite") as journal:
        daemon = TableDaemon(journal, chip_sensing=ChipSensing(settle_s=0.3))
        for body in (TableSetup(seats=2), SeatTake(seat=1, player="Ann", stack=100),
                     SeatTake(seat=2, player="Bob", stack=100),
                     ChipsRegister(set="ones", chips=chips),
                     DeckRegister(deck="d", tags={f"T{c}": c for c in cards}),
                     HandStart(button=1), ShuffleDone()):
            assert not daemon.submit(body).findings
        clock = [0]

        def settle(antenna: int, held: tuple[str, ...]) -> None:
            for _ in range(5):  # five cycles of 0.1 s: settled at the fourth
                clock[0] += 1
                daemon.on_chips(Inv(3, antenna, clock[0], held, clock[0] * 0.1))

        settle(1, tuple(uids[:1]))  # heads-up the button posts the small blind
        settle(2, tuple(uids[1:3]))  # the big blind
        for card, seat in zip(cards, (2, 1, 2, 1), strict=True):
            daemon.submit(ShoeDraw(uid=f"T{card}", face_up=False))
            daemon.submit(ZoneRead(uid=f"T{card}", zone=f"seat:{seat}"))
        assert led_plan(daemon.last_snapshot).to_act == 1
        settle(1, tuple(uids[:6]))  # the button raises to 6 with chips
        snap = daemon.last_snapshot
        assert snap["hand"]["current_bet"] == 6 and snap["findings"] == []
        assert led_plan(snap).to_act == 2
        settle(2, tuple(uids[1:3]) + tuple(uids[6:10]))  # the big blind calls with chips
        assert daemon.last_snapshot["hand"]["to_act"] is None  # the round is over
    types = [e.type for e in read_events(tmp_path / "journal.sqlite")]
    assert "action" not in types  # every action came from the chips


def test_the_to_act_light_waits_the_settle_time_from_the_bets_own_frame_read(tmp_path):
    """Issue 26 item 10, through the daemon: a busy reader thread read a scan cycle's frames
    8 ms apart, the raise's frame after the unchanged big blind's. The settle clock
    (``settle_chips``) must not move the action before the settle time has passed since the
    raise's own frame was read."""
    from controller.daemon.ledplan import led_plan
    from controller.events import DeckRegister, HandStart, ShoeDraw, ShuffleDone, ZoneRead

    chips = {f"04C2{i:06d}": 1 for i in range(8)}
    uids = sorted(chips)
    cards = ["2c", "3h", "5s", "2d"]
    with Journal(tmp_path / "journal.sqlite") as journal:
        daemon = TableDaemon(journal, chip_sensing=ChipSensing(settle_s=0.1))
        for body in (TableSetup(seats=2), SeatTake(seat=1, player="Ann", stack=100),
                     SeatTake(seat=2, player="Bob", stack=100),
                     ChipsRegister(set="ones", chips=chips),
                     DeckRegister(deck="d", tags={f"T{c}": c for c in cards}),
                     HandStart(button=1), ShuffleDone()):
            assert not daemon.submit(body).findings
        blinds = {1: tuple(uids[:1]), 2: tuple(uids[1:3])}
        for n in range(4):  # the blinds, read in cycles of 40 ms until settled
            for antenna in (2, 1):
                daemon.on_chips(Inv(3, antenna, n, blinds[antenna], n * 0.04))
        for card, seat in zip(cards, (2, 1, 2, 1), strict=True):
            daemon.submit(ShoeDraw(uid=f"T{card}", face_up=False))
            daemon.submit(ZoneRead(uid=f"T{card}", zone=f"seat:{seat}"))
        assert led_plan(daemon.last_snapshot).to_act == 1
        t = 0.2  # the button raises to 6: its frame read 8 ms after the cycle's first
        daemon.on_chips(Inv(3, 2, 5, blinds[2], t))
        daemon.on_chips(Inv(3, 1, 5, tuple(uids[:6]), t + 0.008))
        daemon.settle_chips(t + 0.1)  # 100 ms after the cycle's first frame: too soon
        assert led_plan(daemon.last_snapshot).to_act == 1
        daemon.settle_chips(t + 0.108)  # 100 ms after the raise's own frame was read
        snap = daemon.last_snapshot
        assert snap["hand"]["current_bet"] == 6 and led_plan(snap).to_act == 2
