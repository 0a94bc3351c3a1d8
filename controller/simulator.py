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
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from controller.daemon import TableDaemon
from controller.events import Body, FloorRuling
from controller.journal import Journal
from controller.sensing import DEFAULT_ANTENNAS, SHOE
from controller.sim.dealer import CardMove, SimDealer, expand
from drivers.card_reader import CardReader
from drivers.simulated_reader import SimulatedReader

log = logging.getLogger("feltguard.sim")

# The floor's ruling on a hand a crash interrupted (SimulatedTable._resume).
VOID_TEXT = ("Table fault: the controller stopped during this hand and its cards were gathered; "
             "the hand is void (RR Section 3, Irregularities, r.3-4) and is dealt again.")

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
    game: str = "nlhe"  # any game of controller/sim/games.py (a variant, horse, dealers_choice)
    structure: str = ""  # limit, pot-limit, no-limit, spread ("": the game's usual one)
    leds: bool = True
    event_timeout: float = 5.0  # how long to wait for a frame to come through the driver
    extra_outputs: list[Callable[[Mapping[str, Any]], None]] = field(default_factory=list)


class SimulatedTable:
    """A running simulated table: reader pty, real driver, daemon, outputs.

    On a journal that already holds a table (``--journal`` after a crash or a stop), the table
    resumes where the journal left it instead of being set up again: the recovered state is
    the truth, a hand the crash interrupted is void (``_resume``), and the dealer deals on from
    the recovered stacks, button and deck."""

    def __init__(self, opts: SimOptions, workdir: Path) -> None:
        self.opts = opts
        self.rng = random.Random(opts.seed)
        # one simulated dealer for every game; ValueError names a game, structure or table size
        # it does not deal
        self.dealer = SimDealer(self.rng, seats=opts.seats, mistake_rate=opts.mistake_rate,
                                seat_changes=opts.seat_changes, game=opts.game,
                                structure=opts.structure)
        journal_path = Path(opts.journal_path) if opts.journal_path else workdir / "journal.sqlite"
        self.journal = Journal(journal_path)
        try:
            self.daemon = TableDaemon(self.journal)
            self.resumed = self.daemon.recovered > 0
            if self.resumed:
                self._check_resumable()
        except BaseException:
            self.journal.close()
            raise
        self.mistakes_made = 0  # streamed to the truth file, not kept (a table runs for weeks)
        self._truth: TextIO | None = None
        if opts.truth_path:
            self._truth = open(opts.truth_path, "a" if self.resumed else "w",  # noqa: SIM115
                               encoding="utf-8")
        outputs = self.daemon.outputs
        outputs.extend(opts.extra_outputs)
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
        # The token is typed into the dealer page's login form; it is never printed (stdout
        # lands in journald) but kept in a file only its owner reads, in the run's folder.
        self.token_file: Path | None = None
        if opts.web:
            from display.access import write_token_file
            from display.server import create_app, run_server

            if not opts.dealer_token:
                self.token_file = write_token_file(self.dealer_token, workdir / "dealer-token")
            app, sio, self.publisher = create_app(dealer_token=self.dealer_token)
            outputs.append(self.publisher.publish)
            self.server = run_server(app, sio, opts.host, opts.port)
        self.link = workdir / "shoe"
        self.shoe = SimulatedReader(str(self.link))
        self.reader = CardReader(str(self.link), self.daemon.on_read, name="sim-shoe")
        self.reader.start()
        if not self.reader.connected.wait(5):
            raise RuntimeError("the card reader did not open the simulated shoe")
        self._halt = threading.Event()
        self.voided: int | None = None  # the hand a crash interrupted, voided on resuming
        if self.resumed:
            self._resume()

    # -- resuming -------------------------------------------------------------------------------

    def _check_resumable(self) -> None:
        """The recovered table must be the one these options deal: same game, same seats."""
        table = self.daemon.last_snapshot.get("table", {})
        game, seats = table.get("mixed") or table.get("game"), table.get("seats")
        if (game, seats) != (self.opts.game, self.opts.seats):
            raise ValueError(f"{self.journal.path}: holds a {game} table of {seats} seats; "
                             f"continue it with --game {game} --seats {seats}, or start a new "
                             "journal")

    def _resume(self) -> None:
        """Deal on from the recovered table. A hand in play when the last run stopped cannot be
        finished: the simulated dealer that held its cards is gone, as if the table's cards had
        been gathered. The floor voids it, every chip going back to the player who put it in,
        as the rulebooks do when a hand cannot go on as dealt (RR Section 3, Irregularities,
        r.3-4: "all action is void and all chips in the pot are returned"; Section 2,
        Decision-Making, r.2: the shift supervisor's decision is final)."""
        if self.daemon.hand_in_play:
            self.voided = int(self.daemon.last_snapshot["hand"]["number"])
            self.daemon.submit(FloorRuling(text=VOID_TEXT, outcome="void"))
        tags = dict(self.daemon.state.deck.tags) or None
        self.dealer.resume(self.daemon.state, tags)
        log.info("resumed at seq %d, hand %d%s", self.daemon.seq,
                 self.daemon.last_snapshot["hand"]["number"],
                 f" (hand {self.voided} void)" if self.voided else "")

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
        steps = self.dealer.next_hand()
        for step in steps:
            if self._halt.is_set():
                return
            self._play(step)
            if self.opts.pace:
                self._halt.wait(self.opts.pace)
        self._record_truth()

    def _record_truth(self) -> None:
        """The mistakes of the hand just dealt to its end, appended to the truth file and
        flushed (a crash keeps every finished hand's truth), then dropped from memory."""
        truth = self.dealer.truth
        self.mistakes_made += len(truth)
        if self._truth is not None and truth:
            for m in truth:
                self._truth.write(json.dumps(dataclasses.asdict(m)) + "\n")
            self._truth.flush()
        truth.clear()

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
        if self._truth is not None:
            self._truth.close()


@contextlib.contextmanager
def simulated_table(opts: SimOptions) -> Iterator[SimulatedTable]:
    with tempfile.TemporaryDirectory(prefix="feltguard-sim-") as tmp:
        table = SimulatedTable(opts, Path(tmp))
        try:
            yield table
        finally:
            table.close()


def run_simulation(opts: SimOptions) -> int:
    with simulated_table(opts) as table:
        if opts.web:
            base = f"http://{opts.host}:{table.server.port}"
            print(f"Feltguard simulated table\n  public view {base}/")
            where = (f"the token in {table.token_file} (mode 0600)" if table.token_file
                     else "the token given by --dealer-token")
            print(f"  dealer view {base}/dealer  (log in with {where})")
        if table.resumed:
            hand = table.daemon.last_snapshot["hand"]["number"]
            void = f"; hand {table.voided} was in play and is void" if table.voided else ""
            print(f"resumed the table of {table.journal.path} at seq {table.daemon.seq}, "
                  f"hand {hand}{void}", flush=True)
        print(f"journal: {table.journal.path}   mistakes: {opts.mistake_rate:.0%} of hands  "
              "(Ctrl-C to stop)", flush=True)
        started = time.monotonic()
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, lambda *_: table.stop())  # stop cleanly, journal intact
        with contextlib.suppress(KeyboardInterrupt):
            table.run()
        n = table.mistakes_made
        print(f"\n{table.daemon.seq} events in {time.monotonic() - started:.1f}s; "
              f"the dealer made {n} mistake(s); reader {table.reader.stats}")
    return 0
