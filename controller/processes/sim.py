"""``feltguard sim``: a whole simulated table, dealt through the real driver path.

The simulated dealer (``controller.sim.dealer``) decides what physically happens, hand after
hand, sometimes making a mistake. Its card movements become wire-protocol frames written into a
simulated reader's pty; the real ``CardReader`` driver reads them, sensing turns them into table
events, and the daemon journals and applies them exactly as at a real table. Console inputs
(new hand, betting actions, award pots) go to the daemon as the dealer console would send them.
LEDs run on gpiozero's mock pins; the live view is the real display server.

With ``chips`` on (``feltguard sim --chips``) the table reads its chips too: the players bet
with chips and the dealer scoops and pushes them (``controller/sim/chip_dealer.py``); each
motion goes to a simulated chip reader's pty (``drivers/simulated_chip_reader.py``, scanning at
``chip_cycle_ms``), the real ``ChipReader`` reads its inventories and the daemon's chip sensing
settles them (``chip_settle_s``) into ``chips.zone`` events, from which the rules core reads the
betting: the wiring of ``feltguard run`` (controller/processes/table.py), chip sensing's settle
clock included (``controller/sensing/chip_clock.py``). The dealer waits for each motion's zones to
reach the journal before its next move. At ``chip_mistake_rate`` a hand holds a chip mistake
(``controller/sim/chip_mistakes.py``) instead of a dealing one.

As it deals, the table says what happens: each finding as the daemon raises it, a line per hand,
and at the end the dealer's mistakes against those the rules core caught (``controller.sim.score``,
the matcher of ``bench.monitor``); ``run_simulation`` returns 1 when a mistake went uncaught.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import random
import secrets
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from controller.daemon.odds_worker import broadcast_odds
from controller.daemon.segments import Rollover, open_run
from controller.daemon.table_daemon import TableDaemon
from controller.events import Body, FloorRuling
from controller.journal import anchor_path_for, key_path_for, sealed_segments
from controller.poker.variants import family
from controller.sensing.cards import DEFAULT_ANTENNAS, SHOE
from controller.sensing.chip_clock import start_chip_clock
from controller.sensing.chips import DEFAULT_CHIP_ANTENNAS, ChipSensing
from controller.sensing.health import HealthMonitor, Watched, chip_reader_name, reader_name
from controller.sim.chip_moves import ChipMove
from controller.sim.chip_table import on_antenna
from controller.sim.dealer import CardMove, SimDealer, expand
from controller.sim.score import RunningScore, Tally, exit_status, rows, uncaught
from drivers.card_reader import CardReader, ReaderStats
from drivers.chip_reader import ChipReader, ChipReaderStats
from drivers.simulated_chip_reader import SimulatedChipReader
from drivers.simulated_reader import SimulatedReader

log = logging.getLogger("feltguard.sim")

# The floor's ruling on a hand a crash interrupted (SimulatedTable._resume).
VOID_TEXT = ("Table fault: the controller stopped during this hand and its cards were gathered; "
             "the hand is void (RR Section 3, Irregularities, r.3-4) and is dealt again.")

# Where each zone's antenna is (the inverse of the default antenna map).
ANTENNA_OF: dict[str, tuple[int, int]] = {zone: key for key, zone in DEFAULT_ANTENNAS.items()}
# Where each chip zone's antenna is on the chip reader (controller/sensing/chips.py).
CHIP_ANTENNA_OF: dict[str, tuple[int, int]] = {
    zone: key for key, zone in DEFAULT_CHIP_ANTENNAS.items()}

# The simulated chip reader's scan cycle and the chip sensing's settle time (shorter than a real
# table's 100 ms and 300 ms: the dealer waits for each motion to settle).
CHIP_CYCLE_MS = 40
CHIP_SETTLE_S = 0.1


# The demo's logins file, in the run's folder (``demo_accounts``).
DEMO_LOGINS = "demo-logins"

# The twins' heartbeat, as a real reader's (hardware/reader-protocol.md), and how many may go
# missing before the demo calls a reader silent: generous, a desk is not a table.
SIM_HEARTBEAT_S = 0.5
SIM_MISSED_HEARTBEATS = 20

# The dealer's pause between moves when someone watches the live view.
VIEW_PACE = 0.35


@dataclass
class SimOptions:
    hands: int = 0  # 0: until stopped
    mistake_rate: float = 0.2
    seed: int | None = None
    pace: float | None = None  # seconds between the dealer's moves (None: ``delay``)
    web: bool = True
    host: str = "127.0.0.1"
    port: int = 5000
    journal_path: str | None = None  # None: a throwaway one (`feltguard sim` always names one)
    rollover_hands: int = 0  # a new journal segment every N hands (0: one file; docs/segments.md)
    dealer_token: str | None = None
    # per-user logins (controller/security/accounts.py): no tokens then
    accounts_path: str | None = None
    # Redis of the cardroom's surveillance (controller/surveillance/relay.py)
    central_url: str | None = None
    table_id: str = "sim"  # this table's name there
    # its login there, as RedisAccess takes it (user, password_file, ca_file, cert_file,
    # key_file: controller/surveillance/access.py); no user: table-<table_id>
    central_login: Mapping[str, str] = field(default_factory=dict)
    central_drain_s: float = 10.0  # at the end, how long to wait for the relay to catch up
    truth_path: str | None = None  # JSON Lines: each mistake the dealer made
    seat_changes: float = 0.0  # chance per hand of a seat change before it (away/back, leave, join)
    seats: int = 6
    game: str = "nlhe"  # any game of controller/sim/games.py (a variant, horse, dealers_choice)
    structure: str = ""  # limit, pot-limit, no-limit, spread ("": the game's usual one)
    leds: bool = True
    event_timeout: float = 5.0  # how long to wait for a frame to come through the driver
    extra_outputs: list[Callable[[Mapping[str, Any]], None]] = field(default_factory=list)
    out: TextIO | None = None  # each finding as raised and a line per hand (None: silent)
    chips: bool = False  # the players bet with chips, read by a simulated chip reader
    chips_console: bool = False  # the dealer also enters each chip action at the console
    chip_mistake_rate: float = 0.2  # chance per hand (without a dealing mistake) of a chip one
    chip_cycle_ms: int = CHIP_CYCLE_MS
    chip_settle_s: float = CHIP_SETTLE_S
    pin_factory: Any = None  # the LEDs' gpiozero pin factory (None: mock pins)
    # /broadcast's delay: short, a demo on this machine deals simulated cards to nobody's table
    broadcast_delay_s: float = 30.0
    broadcast_findings: bool = False  # the findings on /broadcast too ([broadcast] findings)
    odds: bool = False  # each hand's odds on /broadcast ([broadcast] odds: a worker process)
    log_path: str | None = None  # where the log lines go instead of the terminal (said at start)
    # HTTPS (controller/security/tls.py): always off loopback, as a table serves; on loopback
    # only when asked (the newcomer's demo opens with no certificate warning)
    tls: bool = False
    tls_dir: str | None = None  # the authority and certificate to use or make (None: the run's)

    @property
    def serves_https(self) -> bool:
        from controller.config import LOOPBACK_HOSTS

        return self.web and (self.tls or self.host not in LOOPBACK_HOSTS)

    @property
    def delay(self) -> float:
        """The pause between the dealer's moves: ``pace`` when given; else a pace a person can
        follow on the live view, and none without a view (nobody watches: deal at full speed)."""
        if self.pace is not None:
            return self.pace
        return VIEW_PACE if self.web else 0.0


def central_access(opts: SimOptions) -> Any:
    """The simulated table's login to the cardroom's Redis (a RedisAccess naming the --central
    options), as a table's [central] section makes it."""
    from controller.surveillance.access import SIM_NAMES, RedisAccess, table_user

    login = {**opts.central_login}
    login["user"] = login.get("user") or table_user(opts.table_id)
    return RedisAccess(opts.central_url or "", **login, names=SIM_NAMES)


class FindingWatch:
    """An output of the daemon: each finding as it is raised, scored (``RunningScore``) and
    printed. The snapshot's ``findings`` are the current hand's, only ever appended to until
    the next hand starts (docs/snapshot.md); a CORE_FAULT leaves the state, and so the
    snapshot, as it was, and is seen by the daemon's count of them."""

    def __init__(self, daemon: TableDaemon, scorer: RunningScore, out: TextIO | None) -> None:
        self.daemon, self.scorer, self.out = daemon, scorer, out
        snap = daemon.last_snapshot  # a resumed table's findings were raised before this run
        self.hand = int(snap["hand"]["number"])
        self.seen = len(snap["findings"])
        self.faults = daemon.core_faults

    def __call__(self, snap: Mapping[str, Any]) -> None:
        hand = int(snap["hand"]["number"])
        if hand != self.hand:
            self.hand, self.seen = hand, 0
        findings = snap["findings"]
        for f in findings[self.seen:]:
            self._raised(hand, f["code"], f["seats"], f["message"])
        self.seen = len(findings)
        if self.daemon.core_faults > self.faults:
            self.faults = self.daemon.core_faults
            self._raised(hand, "CORE_FAULT", [], "the rules core failed on an event (see the "
                         "log); the table goes on")

    def _raised(self, hand: int, code: str, seats: list[int], message: str) -> None:
        self.scorer.finding(hand, code)
        if self.out is not None:
            where = f"seats {','.join(map(str, seats))}" if seats else "table"
            text = " ".join(message.split())  # one line, whatever the message holds
            self.out.write(f"  ! hand {hand} {code} ({where}): {text}\n")
            self.out.flush()


def hand_line(snap: Mapping[str, Any], findings: int) -> str:
    """One line for a hand dealt to its end: number, game, button, board, result, findings."""
    hand, table = snap["hand"], snap["table"]
    parts = [f"hand {hand['number']:>4}", f"{table['game']:<10}"]
    if hand["button"]:
        parts.append(f"button {hand['button']:>2}")
    if hand["board"]:
        parts.append("board " + " ".join(hand["board"]))
    if hand["phase"] == "complete":
        pots = [p for p in snap["results"] if p["hand"] != "uncalled bet returned"]
        won: dict[str, tuple[int, str]] = {}  # seat -> its shares of every pot, its hand
        for pot in pots:
            for seat, chips in pot["shares"].items():
                total, name = won.get(str(seat), (0, ""))
                won[str(seat)] = (total + int(chips), name or pot["hand"])
        parts.append("won: " + ", ".join(f"seat {seat} {chips}" + (f" ({name})" if name else "")
                                         for seat, (chips, name) in won.items()))
    else:
        parts.append(hand["phase"])  # a misdeal: the hand is dealt again
    parts.append(f"findings {findings}")
    return "  ".join(parts)


def reader_line(stats: ReaderStats) -> str:
    """The card reader's health for a person: frames, losses, reconnects."""
    state = "connected" if stats.connected else "disconnected"
    line = (f"reader {state}: {stats.frames_ok} frames ok, {stats.frames_bad} bad, "
            f"{stats.frames_unknown} unknown, {stats.frames_lost} lost, {stats.bytes_skipped} "
            f"bytes skipped, {stats.reconnects} reconnects, {stats.callback_errors} callback "
            "errors")
    return line + (f"; last error: {stats.last_error}" if stats.last_error else "")


def chip_reader_line(stats: ChipReaderStats) -> str:
    """The chip reader's health for a person: frames, scan cycles, losses, reconnects."""
    state = "connected" if stats.connected else "disconnected"
    return (f"chip reader {state}: {stats.frames_ok} frames ok, {stats.frames_bad} bad, "
            f"{stats.inventories} inventories, {stats.incomplete_cycles} incomplete cycles, "
            f"{stats.frames_lost} lost, {stats.reconnects} reconnects")


def stacks_line(errors: list[tuple[int, int, int, int]]) -> str:
    """The players' chips against the table's stacks after every hand."""
    if not errors:
        return "stacks: every player's chips equal the table's stack after every hand"
    shown = "; ".join(f"hand {h} seat {s}: chips {c}, table {t}" for h, s, c, t in errors[:5])
    return f"STACKS DIFFER {len(errors)} time(s): {shown}"


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
                                structure=opts.structure, chips=opts.chips,
                                chip_mistake_rate=opts.chip_mistake_rate,
                                chips_console=opts.chips_console)
        journal_path = Path(opts.journal_path) if opts.journal_path else workdir / "journal.sqlite"
        sensing = ChipSensing(dict(DEFAULT_CHIP_ANTENNAS), settle_s=opts.chip_settle_s)
        rollover = Rollover(opts.rollover_hands) if opts.rollover_hands else None
        # (a damaged live segment set aside, the table from the best good state: segments.py)
        self.daemon = open_run(journal_path, lambda journal: TableDaemon(
            journal, chip_sensing=sensing, checkpoints_aside=True, rollover=rollover))
        assert self.daemon.journal is not None
        self.journal = self.daemon.journal
        try:
            self.resumed = self.daemon.restart is not None  # (from a checkpoint or a replay)
            if self.resumed:
                self._check_resumable()
        except BaseException:
            self.journal.close()
            raise
        self.mistakes_made = 0  # streamed to the truth file, not kept (a table runs for weeks)
        self.hands_dealt = 0
        self.score = RunningScore()
        self._truth: TextIO | None = None
        if opts.truth_path:
            self._truth = open(opts.truth_path, "a" if self.resumed else "w",  # noqa: SIM115
                               encoding="utf-8")
        outputs = self.daemon.outputs
        outputs.extend(opts.extra_outputs)
        self.relay: Any = None
        if opts.central_url:  # the journal's events to the cardroom, off the table's threads
            from controller.surveillance.relay import Relay

            self.relay = Relay(journal_path, central_access(opts), opts.table_id).start()
            outputs.append(self.relay.poke)
        self.leds: Any = None
        if opts.leds:
            from gpiozero.pins.mock import MockFactory, MockPWMPin

            from controller.daemon.ledplan import led_plan
            from drivers.leds import DEFAULT_PIN_MAP_6_SEATS, TableLeds

            self.pin_factory = opts.pin_factory or MockFactory(pin_class=MockPWMPin)
            self.leds = TableLeds(DEFAULT_PIN_MAP_6_SEATS, pin_factory=self.pin_factory)
            leds = self.leds
            outputs.append(lambda snap: leds.show(led_plan(snap)))
        self.publisher: Any = None
        self.server: Any = None
        self.dealer_token = opts.dealer_token
        # Who logs in with what: never printed (stdout lands in journald), kept in files only
        # their owner reads: the demo's passwords (one account per role), or the accounts given.
        self.logins_file: Path | None = None
        self.accounts: Any = None
        self.cert: Any = None  # the ServedCert when serving HTTPS
        self.tls_folder: Path | None = None
        if opts.serves_https:
            self.cert = self._cert(workdir)
        if opts.web:
            from display.server import create_app, run_server

            health = self.daemon.journal_health
            if opts.dealer_token:  # the one shared dealer token (no review, no audit login)
                app, live, self.publisher = create_app(
                    dealer_token=opts.dealer_token, review_journal=journal_path,
                    broadcast_delay_s=opts.broadcast_delay_s, journal_health=health,
                    broadcast_findings=opts.broadcast_findings,
                    tls_status=self.cert.status if self.cert else None,
                    odds=broadcast_odds(opts.odds, False))
            else:
                if opts.accounts_path:
                    accounts_path = Path(opts.accounts_path)
                else:
                    accounts_path = workdir / "accounts.sqlite"
                    self.logins_file = demo_accounts(accounts_path, workdir / DEMO_LOGINS)
                app, live, self.publisher = self._accounts_app(accounts_path)
            outputs.append(self.publisher.publish)
            self.app = app
            self.server = run_server(app, live, opts.host, opts.port,
                                     tls=self.cert.context if self.cert else None)
        self.link = workdir / "shoe"
        self.shoe = SimulatedReader(str(self.link))
        self.reader = CardReader(str(self.link), self.daemon.on_read, name="sim-shoe")
        self.reader.start()
        if not self.reader.connected.wait(5):
            raise RuntimeError("the card reader did not open the simulated shoe")
        self.chip_device: SimulatedChipReader | None = None
        self.chip_reader: ChipReader | None = None
        self.chip_clock: threading.Thread | None = None
        self._chip_halt = threading.Event()
        if opts.chips:
            self._open_chip_reader(workdir / "chips")
        self.monitor: HealthMonitor | None = None
        if opts.web:
            self.monitor = self._watch_readers()
        self._halt = threading.Event()
        self.voided: int | None = None  # the hand a crash interrupted, voided on resuming
        if self.resumed:
            self._resume()
        # from here on (the floor's void of a crashed hand is this table's doing, not the
        # dealer's: neither printed nor scored)
        self.watch = FindingWatch(self.daemon, self.score, opts.out)
        self.daemon.outputs.append(self.watch)

    def _watch_readers(self) -> HealthMonitor:
        """The readers' health, as ``feltguard run`` watches a table's
        (controller/sensing/health.py): the twins send heartbeats like real readers, and each
        reader's state is journaled, so /healthz and the review describe the table that runs.
        Only with the live view: nobody reads health without it, and a run for a score (CI,
        ``--no-web``) journals the dealer's events alone. The silence limit is a demo's, not a
        table's: a simulated table on a busy desk is not a reader gone quiet."""
        self.shoe.start_heartbeats(SIM_HEARTBEAT_S)
        stats = self.reader
        watched = [Watched(self.shoe.reader_id, reader_name(self.shoe.reader_id,
                                                            DEFAULT_ANTENNAS),
                           lambda: stats.stats)]
        device, chips = self.chip_device, self.chip_reader
        if device is not None and chips is not None:
            device.start_heartbeats(SIM_HEARTBEAT_S)
            watched.append(Watched(device.reader_id, chip_reader_name(device.kind),
                                   lambda: chips.stats, kind="chip"))
        monitor = HealthMonitor(watched, self.daemon.submit,
                                heartbeat_ms=int(SIM_HEARTBEAT_S * 1000),
                                missed_heartbeats=SIM_MISSED_HEARTBEATS,
                                known=self.daemon.last_snapshot.get("devices", []))
        monitor.start()
        return monitor

    def _cert(self, workdir: Path) -> Any:
        """The certificate to serve: ``tls_dir``'s, made there (an authority and a server
        certificate for this machine's names and the host given) when it has none; TlsError
        (a ValueError, one line) when it cannot be used."""
        from controller.security import tls

        folder = tls.TlsFolder(Path(self.opts.tls_dir) if self.opts.tls_dir else workdir / "tls")
        if not folder.ca_cert.exists():
            extra = [] if self.opts.host in ("0.0.0.0", "::", "") else [self.opts.host]
            tls.init_folder(folder.path, hosts=[*tls.default_hosts(), *extra])
        self.tls_folder = folder.path
        return tls.ServedCert(folder.server_cert, folder.server_key, ca=folder.ca_cert)

    def _accounts_app(self, path: Path) -> Any:
        """The live view with per-user logins from the accounts file at ``path``, its audit log
        beside it."""
        from controller.security.accounts import Accounts
        from controller.security.audit import AuditLog
        from display.server import create_app

        self.accounts = Accounts(path)
        audit = AuditLog(path.with_name("audit.sqlite"))
        return create_app(accounts=self.accounts, audit=audit, review_journal=self.journal.path,
                          broadcast_delay_s=self.opts.broadcast_delay_s,
                          journal_health=self.daemon.journal_health,
                          broadcast_findings=self.opts.broadcast_findings,
                          tls_status=self.cert.status if self.cert else None,
                          odds=broadcast_odds(self.opts.odds, False))

    def _open_chip_reader(self, link: Path) -> None:
        """The chip reader's pty twin (an antenna under each seat's bet zone, the pot and the
        tray) and the real driver reading it into the daemon, as ``feltguard run`` wires a
        ``[[chip_readers]]`` device."""
        zones = [f"bet:{n}" for n in range(1, self.opts.seats + 1)] + ["pot", "tray"]
        antennas = [CHIP_ANTENNA_OF[z][1] for z in zones]
        self.chip_device = SimulatedChipReader(link, antennas=antennas,
                                               cycle_ms=self.opts.chip_cycle_ms)
        self.chip_reader = ChipReader(str(link), self.daemon.on_chips,
                                      on_tray=self.daemon.on_tray, name="sim-chips")
        self.chip_reader.start()
        if not self.chip_reader.connected.wait(5):
            raise RuntimeError("the chip reader did not open the simulated chip reader")
        # a resumed table: the chips lie where the journal last saw them
        for zone, content in self.daemon.state.chips.zones.items():
            if zone in zones:
                self.chip_device.place(CHIP_ANTENNA_OF[zone][1], content.uids)
        self.chip_device.start_scanning()  # only once the driver reads: its open flushes input
        # zones settle at their settle time, not at the next scan cycle
        # (controller/sensing/chip_clock.py)
        self.chip_clock = start_chip_clock(self.daemon, self._chip_halt)

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

    def _play(self, step: CardMove | ChipMove | Body) -> None:
        # the card's own events, not the daemon's whole count: a reader's health change (or any
        # other source) journaled meanwhile must not let the next move go before this card's
        expected = len(expand(step))
        target = self.daemon.card_events_applied + expected
        if isinstance(step, ChipMove):
            self._move_chips(step)
        elif isinstance(step, CardMove):
            if step.from_shoe:
                reader, antenna = ANTENNA_OF[SHOE]
                self.shoe.send_read(reader, antenna, step.uid, step.face_up)
            reader, antenna = ANTENNA_OF[step.zone]
            self.shoe.send_read(reader, antenna, step.uid, False)
            ok = self.daemon.wait_until(lambda: self.daemon.card_events_applied >= target,
                                        self.opts.event_timeout)
            if not ok:
                log.warning("card %s: frames did not come through in %.1fs (reader stats %s)",
                            step.uid, self.opts.event_timeout, self.reader.stats)
        else:
            self.daemon.submit(step)

    def _move_chips(self, step: ChipMove) -> None:
        """The motion on the chip reader's antennas; then wait until sensing has settled every
        zone it changed and the daemon has applied it (the next move may depend on it)."""
        device = self.chip_device
        if device is None or not step.events:
            return

        def antenna(holder: str) -> int | None:
            return CHIP_ANTENNA_OF[holder][1] if on_antenna(holder) else None

        device.shift((antenna(src), antenna(dst), uids) for uids, src, dst in step.moves)
        want = {body.zone: set(body.uids) for body in step.events}

        def settled() -> bool:
            zones = self.daemon.state.chips.zones
            return all(z in zones and set(zones[z].uids) == u for z, u in want.items())

        timeout = self.opts.event_timeout + 10 * self.opts.chip_settle_s
        if not self.daemon.wait_until(settled, timeout):
            stats = self.chip_reader.stats if self.chip_reader is not None else None
            log.warning("chips (%s): zones %s did not settle in %.1fs (chip reader stats %s)",
                        step.why, sorted(want), timeout, stats)

    def play_hand(self) -> None:
        steps = self.dealer.next_hand()
        for step in steps:
            if self._halt.is_set():
                return
            self._play(step)
            if self.opts.delay:
                self._halt.wait(self.opts.delay)
        snap = self.daemon.last_snapshot
        hand = self.dealer.hand
        fam = family(self.dealer.state.hand.game.variant) if self.dealer.state.hand else "?"
        self.score.hand_dealt(hand, fam, self.dealer.truth)
        self.hands_dealt += 1
        if self.opts.out is not None:
            self.opts.out.write(hand_line(snap, len(snap["findings"])) + "\n")
            self.opts.out.flush()
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
        if self.monitor is not None:
            self.monitor.stop()  # before the readers: their stopping is not an unplug
        self.reader.stop(2)
        self.shoe.close()
        self._chip_halt.set()
        if self.chip_clock is not None:
            self.chip_clock.join(2)
        if self.chip_reader is not None:
            self.chip_reader.stop(2)
        if self.chip_device is not None:
            self.chip_device.close()
        if self.leds is not None:
            self.leds.close()
        if self.server is not None:
            self.server.stop()
            from display.server import close_app

            close_app(self.app)
        if self.relay is not None:
            from controller.surveillance.streams import safe_url

            got = self.relay.stop(drain_s=self.opts.central_drain_s)
            if got.forwarded < got.journaled:
                log.warning("the relay to %s is %d events behind: they go at the next start",
                            safe_url(self.opts.central_url or ""),
                            got.journaled - got.forwarded)
        self.daemon.close()  # the checkpoint being written, before the journal closes
        self.journal.checkpoint()
        self.journal.close()
        if self._truth is not None:
            self._truth.close()


def demo_accounts(path: Path, logins: Path) -> Path:
    """A demo account for each role at ``path`` (controller/security/accounts.py), each named
    after its role with a random password; the names and passwords go to ``logins``, mode 0600
    (returned). Both live in the run's own folder and go with it."""
    from controller.security.accounts import ROLES, Accounts
    from display.access import write_token_file

    accounts = Accounts(path, create=True)
    lines = ["# Feltguard demo logins: this run only (gone when the demo stops)",
             f"# {'user':<14}password"]
    for role in ROLES:
        password = secrets.token_urlsafe(12)
        accounts.add(role, role, password)
        lines.append(f"{role:<16}{password}")
    return write_token_file("\n".join(lines), logins)


def new_journal_name(folder: Path, now: float | None = None) -> Path:
    """Where ``feltguard sim`` keeps its journal by default: ``feltguard-sim-YYYYmmdd-HHMMSS
    .sqlite`` in ``folder`` (its key and anchors beside it), a new file each run (``-2``, ...
    after a name taken: a second run never deals on from another's table)."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    n = 1
    while True:
        path = folder / f"feltguard-sim-{stamp}{f'-{n}' if n > 1 else ''}.sqlite"
        if not any(p.exists() for p in (path, key_path_for(path), anchor_path_for(path))):
            return path
        n += 1


@contextlib.contextmanager
def simulated_table(opts: SimOptions) -> Iterator[SimulatedTable]:
    with tempfile.TemporaryDirectory(prefix="feltguard-sim-") as tmp:
        table = SimulatedTable(opts, Path(tmp))
        try:
            yield table
        finally:
            table.close()


def run_simulation(opts: SimOptions) -> int:
    """Deal until ``opts.hands`` are dealt (or Ctrl-C, SIGTERM), saying what happens; then the
    summary. Returns the exit status (``controller.sim.score.exit_status``): 0 when every
    mistake the dealer made was caught, 1 when one went uncaught."""
    opts = dataclasses.replace(opts, out=opts.out or sys.stdout)
    out = opts.out
    assert out is not None
    with simulated_table(opts) as table:
        if opts.web:
            for line in page_lines(opts, table):
                print(line, file=out)
        if table.resumed:
            hand = table.daemon.last_snapshot["hand"]["number"]
            void = f"; hand {table.voided} was in play and is void" if table.voided else ""
            print(f"resumed the table of {table.journal.path} at seq {table.daemon.seq}, "
                  f"hand {hand}{void}", file=out)
        if opts.log_path:
            print(f"log lines (logins, refusals, warnings): {opts.log_path}", file=out)
        print(f"journal: {table.journal.path}   mistakes: {opts.mistake_rate:.0%} of hands  "
              "(Ctrl-C to stop)", file=out, flush=True)
        started = time.monotonic()
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, lambda *_: table.stop())  # stop cleanly, journal intact
        with contextlib.suppress(KeyboardInterrupt):
            table.run()
        took = time.monotonic() - started
        table.score.settle()
        stats = table.reader.stats
        chip_stats = table.chip_reader.stats if table.chip_reader is not None else None
    print(f"\n{table.hands_dealt} hands, {table.daemon.seq} events in {took:.1f}s", file=out)
    print_score(table.score.tally, out)
    print(reader_line(stats), file=out)
    if chip_stats is not None and table.dealer.chips is not None:
        print(chip_reader_line(chip_stats), file=out)
        print(stacks_line(table.dealer.chips.stack_errors), file=out)
    if opts.journal_path:  # kept (without one, a temporary journal went with its folder)
        path = table.journal.path
        cli = feltguard_command()
        sealed = len(sealed_segments(path))
        beside = f", and {sealed} sealed segment(s)" if sealed else ""
        print(f"journal kept: {path} (its .key and .anchors beside it{beside})\n"
              f"  review: {cli} replay {path}\n  check:  {cli} verify {path}", file=out)
    status = exit_status(table.score.tally)
    out.flush()
    return status


def feltguard_command() -> str:
    """How to run ``feltguard`` from this shell: the plain name when it is on the PATH and is
    this installation, else the installation's own script (``.venv/bin/feltguard`` from the
    repository), else the module."""
    script = Path(sys.executable).parent / "feltguard"
    found = shutil.which("feltguard")
    if found is not None and script.exists() and Path(found).resolve() == script.resolve():
        return "feltguard"
    if script.exists():
        with contextlib.suppress(ValueError):  # under this folder: the shorter path
            return str(script.relative_to(Path.cwd()))
        return str(script)
    return f"{sys.executable} -m controller.cli"


def page_lines(opts: SimOptions, table: SimulatedTable) -> list[str]:
    """Every page the demo serves, with who may open it, and how each role logs in."""
    from display.addresses import browse_urls

    urls = browse_urls(opts.host, table.server.port, tls=table.cert is not None)
    base = urls[0]
    if table.accounts is None:  # the shared token: the dealer's pages only
        who = {"dealer": "the token given by --dealer-token",
               "review": "personal logins only: --accounts FILE",
               "audit": "personal logins only: --accounts FILE"}
    else:
        who = {"dealer": "dealer, floor, surveillance", "review": "surveillance",
               "audit": "surveillance, admin"}
    pages = [
        ("public view", "/", "anyone; hole cards once shown"),
        ("broadcast", "/broadcast",
         f"anyone; every hole card, {opts.broadcast_delay_s:g} s late"),
        ("dealer view", "/dealer", who["dealer"]),
        ("touch console", "/dealer/console", "dealer; read only: the sim deals"),
        ("review", "/review", who["review"]),
        ("audit log", "/audit", who["audit"]),
        ("health", "/healthz", "anyone; readers and journal, JSON"),
    ]
    lines = ["Feltguard simulated table"]
    for name, path, note in pages:
        lines.append(f"  {name:<14}{base + path:<38}({note})")
    lines += [f"  {'':<14}(also {url}/)" for url in urls[1:]]
    if table.logins_file is not None:
        lines.append(f"  {'logins':<14}a demo account per role, named after it (dealer, floor, "
                     "surveillance, admin);")
        lines.append(f"  {'':<14}passwords in {table.logins_file}")
        lines.append(f"  {'':<14}(mode 0600; gone when the demo stops)")
    elif table.accounts is not None:
        lines.append(f"  {'logins':<14}your name and password: {len(table.accounts)} accounts "
                     f"in {opts.accounts_path}")
    if table.cert is not None and table.tls_folder is not None:
        from controller.security.tls import TlsFolder, fingerprint, load_cert

        ca = TlsFolder(table.tls_folder).ca_cert
        kept = "kept" if opts.tls_dir else "gone when the demo stops; --tls-dir DIR keeps it"
        lines.append(f"  {'HTTPS':<14}on each screen, trust the authority {ca}")
        lines.append(f"  {'':<14}SHA-256 {fingerprint(load_cert(ca))}")
        lines.append(f"  {'':<14}({kept})")
    return lines


def print_score(tally: Tally, out: TextIO) -> None:
    """The dealer's mistakes against those caught, per code; what went uncaught; false alarms."""
    per_code = rows(tally, "code")
    made = sum(m for m, _, _ in per_code.values())
    caught = sum(c for _, c, _ in per_code.values())
    alarms = {code: r - c for code, (_, c, r) in sorted(per_code.items()) if r > c}
    print(f"mistakes: the dealer made {made}, the table caught {caught}"
          + (f"; {sum(alarms.values())} finding(s) with no mistake behind them" if alarms
             else ""), file=out)
    for code, (m, c, _) in sorted(per_code.items()):
        if m:
            print(f"  {code:<44} made {m:>3}  caught {c:>3}", file=out)
    for code, n in alarms.items():
        print(f"  {code:<44} raised {n:>3} with no mistake behind it", file=out)
    missed = uncaught(tally)
    if missed:
        print("UNCAUGHT: " + ", ".join(f"{code} x{n}" for code, n in missed.items())
              + f" (exit status {exit_status(tally)})", file=out)
