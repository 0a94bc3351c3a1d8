"""``feltguard sim``: a whole simulated table, dealt through the real driver path.

The simulated dealer (``controller.sim.dealer``) decides what physically happens, hand after
hand, sometimes making a mistake. Its card movements become wire-protocol frames written into a
simulated reader's pty; the real ``CardReader`` driver reads them, sensing turns them into table
events, and the daemon journals and applies them exactly as at a real table. Console inputs
(new hand, betting actions, award pots) go to the daemon as the dealer console would send them.
LEDs run on gpiozero's mock pins; the live view is the real display server.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import random
import secrets
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.daemon import TableDaemon
from controller.events import Body
from controller.journal import Journal
from controller.sensing import DEFAULT_ANTENNAS, SHOE
from controller.sim.dealer import CardMove, SimDealer, expand
from controller.sim.games_dealer import DRAW_GAMES, STUD_GAMES, GameDealer
from drivers.card_reader import CardReader
from drivers.simulated_reader import SimulatedReader

log = logging.getLogger("feltguard.sim")

# Where each zone's antenna is (the inverse of the default antenna map).
ANTENNA_OF: dict[str, tuple[int, int]] = {zone: key for key, zone in DEFAULT_ANTENNAS.items()}


@dataclass
class SimOptions:
    hands: int = 0  # 0: until stopped
    mistake_rate: float = 0.2
    seed: int | None = None
    pace: float = 0.35  # seconds between the dealer's moves
    web: bool = True
    host: str = "127.0.0.1"
    port: int = 5000
    journal_path: str | None = None
    dealer_token: str | None = None
    truth_path: str | None = None  # JSON Lines: each mistake the dealer made
    seat_changes: float = 0.0  # chance per hand of a seat change before it (away/back, leave, join)
    seats: int = 6
    game: str = "nlhe"  # nlhe, or a stud or draw game (controller/sim/games_dealer.py)
    leds: bool = True
    event_timeout: float = 5.0  # how long to wait for a frame to come through the driver
    extra_outputs: list[Callable[[Mapping[str, Any]], None]] = field(default_factory=list)


class SimulatedTable:
    """A running simulated table: reader pty, real driver, daemon, outputs."""

    def __init__(self, opts: SimOptions, workdir: Path) -> None:
        self.opts = opts
        self.rng = random.Random(opts.seed)
        self.dealer: SimDealer | GameDealer
        if opts.game in STUD_GAMES + DRAW_GAMES:
            # the stud and draw games: every player stays; no seat changes
            self.dealer = GameDealer(opts.game, self.rng, seats=opts.seats,
                                     mistake_rate=opts.mistake_rate)
        elif opts.game == "nlhe":
            self.dealer = SimDealer(self.rng, seats=opts.seats, mistake_rate=opts.mistake_rate,
                                    seat_changes=opts.seat_changes)
        else:
            raise ValueError(f"--game {opts.game!r}: one of nlhe, "
                             f"{', '.join(STUD_GAMES + DRAW_GAMES)}")
        journal_path = Path(opts.journal_path) if opts.journal_path else workdir / "journal.sqlite"
        self.journal = Journal(journal_path)
        outputs: list[Callable[[Mapping[str, Any]], None]] = list(opts.extra_outputs)
        self.leds: Any = None
        if opts.leds:
            from gpiozero.pins.mock import MockFactory, MockPWMPin

            from controller.ledplan import led_plan
            from drivers.leds import DEFAULT_PIN_MAP_6_SEATS, TableLeds

            self.pin_factory = MockFactory(pin_class=MockPWMPin)
            self.leds = TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=self.pin_factory)
            leds = self.leds
            outputs.append(lambda snap: leds.show(led_plan(snap)))
        self.publisher: Any = None
        self.server: Any = None
        self.dealer_token = opts.dealer_token or secrets.token_urlsafe(12)
        if opts.web:
            from display.server import create_app, run_server

            app, sio, self.publisher = create_app(dealer_token=self.dealer_token)
            outputs.append(self.publisher.publish)
            self.server = run_server(app, sio, opts.host, opts.port)
        self.daemon = TableDaemon(self.journal, outputs)
        self.link = workdir / "shoe"
        self.shoe = SimulatedReader(str(self.link))
        self.reader = CardReader(str(self.link), self.daemon.on_read, name="sim-shoe")
        self.reader.start()
        if not self.reader.connected.wait(5):
            raise RuntimeError("the card reader did not open the simulated shoe")
        self._halt = threading.Event()

    # -- playing ------------------------------------------------------------------------------

    def _play(self, step: CardMove | Body) -> None:
        expected = len(expand(step))
        target = self.daemon.events_applied + expected
        if isinstance(step, CardMove):
            if step.from_shoe:
                reader, antenna = ANTENNA_OF[SHOE]
                self.shoe.send_read(reader, antenna, step.uid, step.face_up)
            reader, antenna = ANTENNA_OF[step.zone]
            self.shoe.send_read(reader, antenna, step.uid, False)
            ok = self.daemon.wait_until(lambda: self.daemon.events_applied >= target,
                                        self.opts.event_timeout)
            if not ok:
                log.warning("card %s: frames did not come through in %.1fs (reader stats %s)",
                            step.uid, self.opts.event_timeout, self.reader.stats)
        else:
            self.daemon.submit(step)

    def play_hand(self) -> None:
        for step in self.dealer.next_hand():
            if self._halt.is_set():
                return
            self._play(step)
            if self.opts.pace:
                self._halt.wait(self.opts.pace)

    def run(self) -> None:
        played = 0
        while not self._halt.is_set() and (self.opts.hands == 0 or played < self.opts.hands):
            self.play_hand()
            played += 1

    def stop(self) -> None:
        self._halt.set()

    def close(self) -> None:
        self._halt.set()
        self.reader.stop(2)
        self.shoe.close()
        if self.leds is not None:
            self.leds.close()
        if self.server is not None:
            self.server.stop()
        self.journal.checkpoint()
        self.journal.close()


@contextlib.contextmanager
def simulated_table(opts: SimOptions) -> Iterator[SimulatedTable]:
    with tempfile.TemporaryDirectory(prefix="feltguard-sim-") as tmp:
        table = SimulatedTable(opts, Path(tmp))
        try:
            yield table
        finally:
            table.close()


def write_truth(truth: Iterable[Any], path: str) -> None:
    """The dealer's mistakes, one JSON object per line (hand, kind, expected code, seats, cards)."""
    with open(path, "w", encoding="utf-8") as fh:
        for m in truth:
            fh.write(json.dumps(dataclasses.asdict(m)) + "\n")


def run_simulation(opts: SimOptions) -> int:
    with simulated_table(opts) as table:
        if opts.web:
            base = f"http://{opts.host}:{table.server.port}"
            print(f"Feltguard simulated table\n  public view {base}/")
            print(f"  dealer view {base}/dealer?token={table.dealer_token}")
        print(f"journal: {table.journal.path}   mistakes: {opts.mistake_rate:.0%} of hands  "
              "(Ctrl-C to stop)", flush=True)
        started = time.monotonic()
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, lambda *_: table.stop())  # stop cleanly, journal intact
        with contextlib.suppress(KeyboardInterrupt):
            table.run()
        n = len(table.dealer.truth)
        if opts.truth_path:
            write_truth(table.dealer.truth, opts.truth_path)
        print(f"\n{table.daemon.seq} events in {time.monotonic() - started:.1f}s; "
              f"the dealer made {n} mistake(s); reader {table.reader.stats}")
    return 0
