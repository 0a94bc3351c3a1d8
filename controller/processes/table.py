"""``feltguard run``: the daemon at a real table.

Wires the configured card readers (pyserial), sensing, the journal, the rules core, the seat
LEDs (gpiozero), the dealer console keys (``[keys]``, ``controller.daemon.dealer_keys``), systemd's
notify protocol (``controller.daemon.systemd``) and the live view, and runs until SIGTERM or Ctrl-C.
It needs no standard input: the typed dealer console (``controller.console.lines``) runs only when
``feltguard run`` is given one (a terminal, or ``--console``). On restart the journal is
checked and replayed, so the table resumes exactly where it stopped (``_resume``).
``open_table`` is the table without its web server; ``run_table`` serves the live view from the
same process (display/live.py: uvicorn on the live server's event loop).
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from controller.config import Config, ConfigError
from controller.console.keypad import Chosen, ChosenCard, nothing_chosen
from controller.console.lines import HELP, parse_command
from controller.daemon.dealer_keys import build_keys
from controller.daemon.segments import Rollover, open_run
from controller.daemon.systemd import Notifier, Service, watchdog_period
from controller.daemon.table_daemon import TableDaemon
from controller.events import Body, EventError, SeatTake, TableSetup
from controller.journal import Journal, JournalError
from controller.rules import Step
from controller.sensing.cards import Sensing
from controller.sensing.chip_clock import start_chip_clock
from controller.sensing.chips import ChipSensing
from controller.sensing.health import HealthMonitor, Watched, chip_reader_name, reader_name
from controller.tags.chipfile import ChipSets, registered_sets, table_chip_sets
from controller.tags.deckfile import Registry, registered_decks, table_registry

if TYPE_CHECKING:
    from controller.security.accounts import Accounts
    from controller.security.audit import AuditLog
    from controller.security.tls import ServedCert

log = logging.getLogger("feltguard.run")


def build_leds(config: Config) -> tuple[Any, Callable[[Mapping[str, Any]], None] | None]:
    """The configured LED driver and the output that shows each snapshot's plan on it."""
    if not config.leds_enabled:
        return None, None
    from controller.daemon.ledplan import led_plan

    factory = None
    if config.led_pin_factory == "mock":
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        factory = MockFactory(pin_class=MockPWMPin)
    elif config.led_pin_factory:
        os.environ["GPIOZERO_PIN_FACTORY"] = config.led_pin_factory  # read at the first device
    leds: Any
    if config.led_driver == "shift_register":
        from drivers.shift_register import ShiftRegisterLeds

        try:
            leds = ShiftRegisterLeds(config.led_shift_register, pin_factory=factory)
        except ValueError as exc:
            raise ConfigError(f"leds.{exc}") from None
    else:
        from drivers.leds import DEFAULT_PIN_MAP_6_SEATS, TableLeds

        try:
            leds = TableLeds(config.led_pins or DEFAULT_PIN_MAP_6_SEATS, pin_factory=factory)
        except ValueError as exc:
            raise ConfigError(f"leds.pins: {exc}") from None
    return leds, lambda snap: leds.show(led_plan(snap))


def _console(daemon: TableDaemon, stdin: TextIO) -> None:
    """Dealer console lines from standard input, until end of input."""
    print("console ready; commands:\n" + HELP, flush=True)
    for line in stdin:
        if not line.strip():
            continue
        try:
            step = daemon.submit(parse_command(line))
        except EventError as exc:
            print(f"? {exc}", flush=True)
            continue
        for finding in step.findings:
            print(f"! {finding.code}: {finding.message}", flush=True)


def _resume(daemon: TableDaemon, setup: TableSetup, registry: Registry | None,
            chip_sets: ChipSets | None = None) -> None:
    """A restart on a journal that holds the table: the journal is the truth. Nothing is set up
    again (the players seated now are the journal's, not the config's first seating); a changed
    set-up or deck file is applied between hands only. A hand in play when the table stopped
    goes on: its cards are still on the felt and the recovered state is exactly the journaled
    one, so the dealer finishes it, or the floor voids it (``ruling void TEXT``)."""
    snap = daemon.last_snapshot
    number = snap["hand"]["number"]
    print(f"resumed from {daemon.journal.path if daemon.journal else '-'} at seq {daemon.seq}, "
          f"hand {number}", flush=True)
    changed: list[Body] = []
    if setup != daemon.state.setup:
        changed.append(setup)
    known = registered_decks(daemon.state.deck)
    if registry is not None and any(known.get(d) != dict(t) for d, t in registry.decks.items()):
        # every deck registered again; the journal's deck in play stays in play if the file
        # still holds it (a rotation by deck.change is not undone by a restart)
        changed.extend(registry.bodies(in_play=daemon.state.deck.deck))
    known_sets = registered_sets(daemon.state.chips.registry)
    if chip_sets is not None and any(known_sets.get(n) != dict(c)
                                     for n, c in chip_sets.chips.items()):
        # likewise the chip sets: the journal's set in play stays in play if the file holds it
        changed.extend(chip_sets.bodies(in_play=daemon.state.chips.registry.in_play or None))
    if daemon.hand_in_play:
        print(f"hand {number} was in play when the table stopped: deal on from where it "
              "stopped, or have the floor void it (ruling void TEXT)", flush=True)
        if changed:
            print("the changed table set-up, deck or chip file is not applied during a hand; "
                  "restart between hands to apply it", flush=True)
        return
    for body in changed:
        daemon.submit(body)


READ_TIMEOUT_S = 0.25
"""How long a card or chip reader's thread blocks for a byte before it looks at the stop."""

# How often sensing looks for tags gone quiet: a tenth of the readers' repeat period would be
# wasted work; a lost card is then reported at most this much after its time-out.
TICK_S = 0.1


def _tick(daemon: TableDaemon, halt: threading.Event) -> None:
    """Sensing's clock: silence is noticed only when someone asks (``Sensing.tick``)."""
    while not halt.wait(TICK_S):
        daemon.tick(time.monotonic())


def _stats_of(reader: Any) -> Callable[[], Any]:
    return lambda: reader.stats


def _health_monitor(config: Config, daemon: TableDaemon, readers: list[Any],
                    chip_readers: Sequence[Any] = ()) -> HealthMonitor:
    """The readers' health watch (controller/sensing/health.py), not started; from the journal's
    states: the card readers and the chip devices (``chip_readers``, one per
    ``[[chip_readers]]``), each under its configured id. Each change it submits is said on the
    console, as the console's own findings are."""
    watched = [Watched(rc.id, reader_name(rc.id, config.antennas), _stats_of(rd))
               for rc, rd in zip(config.readers, readers, strict=True)]
    watched += [Watched(cc.id, chip_reader_name(cc.kind), _stats_of(cd), kind="chip")
                for cc, cd in zip(config.chip_readers, chip_readers, strict=True)]
    h = config.health

    def submit(body: Body) -> Step:
        step = daemon.submit(body)
        for finding in step.findings:
            print(f"! {finding.code}: {finding.message}", flush=True)
        return step

    return HealthMonitor(watched, submit, heartbeat_ms=h["heartbeat_ms"],
                         missed_heartbeats=h["missed_heartbeats"],
                         bad_frames_per_minute=h["bad_frames_per_minute"],
                         incomplete_cycles_per_minute=h["incomplete_cycles_per_minute"],
                         known=daemon.last_snapshot.get("devices", []))


class StartError(Exception):
    """The table could not start: one line for the person who started it."""


# At a stop, how long the relay may take to send what the cardroom has not got yet (systemd's
# stop time-out is longer); the rest goes at the next start.
RELAY_DRAIN_S = 2.0
# How long READY=1 waits for the readers to open: a reader unplugged at boot must not keep the
# table down (it reconnects by itself, and STATUS says it is disconnected).
READY_WAIT_S = 5.0
READY_POLL_S = 0.05  # how often that wait looks at the stop


class RunningTable:
    """An opened table: the daemon over its recovered journal, the readers, sensing's ticker,
    the LEDs, the console keys and the systemd service. ``close()`` (idempotent) stops them in
    reverse and checkpoints and closes the journal."""

    def __init__(self, daemon: TableDaemon, journal: Journal, readers: list[Any], leds: Any,
                 service: Service, keys: Any = None,
                 monitor: HealthMonitor | None = None, relay: Any = None,
                 chip_frames: threading.Event | None = None) -> None:
        self.monitor = monitor
        self.relay = relay  # controller/surveillance/relay.py: the journal's events to the cardroom
        self.daemon = daemon
        self.keys = keys
        self.journal = journal
        self.readers = readers
        self.leds = leds
        self.service = service
        self.halt = threading.Event()
        self._closed = threading.Lock()
        self._done = False
        self.ticker = threading.Thread(target=_tick, args=(daemon, self.halt), daemon=True,
                                       name="sensing-tick")
        self.chip_clock: threading.Thread | None = None
        # set after each chip frame reaches the daemon: the chip clock sleeps while none comes
        self.chip_frames = chip_frames or threading.Event()

    def start(self) -> None:
        for reader in self.readers:
            reader.start()
        if self.monitor is not None:
            self.monitor.start()
        self.ticker.start()
        if self.relay is not None:
            self.relay.start()
        # chip zones settle at their settle time, not at the next scan cycle (sensing/chip_clock.py)
        self.chip_clock = start_chip_clock(self.daemon, self.halt, self.chip_frames)
        self.service.start()

    def journal_health(self) -> dict[str, Any]:
        """The journal as /healthz says it: its last append worked, and the last seq."""
        health = self.daemon.journal_health()
        return {**health, "ok": health["ok"] and not self._done}

    def ready(self, halt: threading.Event | None = None) -> None:
        """READY=1 once the readers are open (or READY_WAIT_S passed): the journal is already
        recovered and the caller's web server listens. A stop (``halt``) ends the wait: a
        table started with a reader unplugged stops at once, not READY_WAIT_S later."""
        deadline = time.monotonic() + READY_WAIT_S
        for reader in self.readers:
            while not reader.connected.is_set():
                left = deadline - time.monotonic()
                if left <= 0 or (halt is not None and halt.is_set()):
                    break
                reader.connected.wait(min(READY_POLL_S, left))
        self.service.ready()

    def close(self) -> None:
        # held for the whole close: a second caller (a signal's stop racing the normal one)
        # returns only once the journal is closed
        with self._closed:
            if self._done:
                return
            self._done = True
            self.service.stopping()
            if self.keys is not None:
                self.keys.close()  # no key press lands after the journal closes
            self.halt.set()  # the ticker stops before the journal closes
            self.chip_frames.set()  # (the chip clock may be asleep waiting for one)
            if self.monitor is not None:
                self.monitor.stop()  # before the readers: their stopping is not an unplug
            for reader in self.readers:
                reader.stop()
            for thread in (self.ticker, self.chip_clock):
                if thread is not None and thread.is_alive():
                    thread.join(5)  # a hung core holds the lock the tick waits on
            if self.leds is not None:
                self.leds.close()
            if self.relay is not None:  # what it has not sent goes at the next start
                self.relay.stop(drain_s=RELAY_DRAIN_S)
            self.daemon.close()  # the checkpoint being written, before the journal closes
            self.journal.checkpoint()
            self.journal.close()


def open_table(config: Config, outputs: Sequence[Callable[[Mapping[str, Any]], None]] = (),
               notify: Notifier | None = None, chosen: Chosen = nothing_chosen) -> RunningTable:
    """Everything but the web server: the journal recovered (or the table set up from the
    config), the LEDs, the readers and sensing's ticker started. StartError for a table that
    cannot start (its one-line reason)."""
    from drivers.card_reader import CardReader
    from drivers.chip_reader import ChipReader

    try:
        registry = table_registry(config)
        chip_sets = table_chip_sets(config)
        leds, led_output = build_leds(config)
    except ConfigError as exc:
        raise StartError(str(exc)) from None
    except Exception as exc:  # gpiozero's BadPinFactory and friends, off a Pi
        raise StartError(f"LEDs: {exc} (set leds.pin_factory = \"mock\" off a Pi)") from None
    try:
        # (a damaged live segment is set aside and the table starts from the best good state
        # the run has: controller/daemon/segments.py)
        daemon = open_run(config.journal_path, lambda journal: TableDaemon(
            journal, sensing=Sensing(dict(config.antennas),
                                     lost_after_s=config.lost_after_ms / 1000),
            chip_sensing=ChipSensing(dict(config.chip_antennas),
                                     settle_s=config.chip_settle_ms / 1000),
            checkpoints_aside=True,
            rollover=(Rollover(config.journal_rollover)
                      if config.journal_rollover != "off" else None)),
            key_path=config.journal_key_file or None, anchors=config.journal_anchor_file or None)
    except JournalError as exc:  # a journal whose chain does not check out is not resumed
        if leds is not None:
            leds.close()
        raise StartError(str(exc)) from None
    assert daemon.journal is not None
    journal = daemon.journal
    if led_output is not None:
        daemon.outputs.append(led_output)
    daemon.outputs.extend(outputs)
    setup = config.table
    if journal.last_seq == 0:
        daemon.submit(setup)
        for p in config.players:
            daemon.submit(SeatTake(seat=p.seat, player=p.name, stack=p.stack))
        for body in registry.bodies() if registry is not None else ():
            daemon.submit(body)  # the deck in play, then each resting deck (idle)
        for chips in chip_sets.bodies() if chip_sets is not None else ():
            daemon.submit(chips)  # the chip set in play, then each other set (idle)
    else:
        _resume(daemon, setup, registry, chip_sets)
    try:
        # the dealer console keys ([keys]), if enabled; exposed/boxed act on the card chosen on
        # the touch console, else on the last card drawn
        keys = build_keys(config, daemon, chosen)
    except ConfigError as exc:  # a key pin gpiozero refuses
        journal.close()
        if leds is not None:
            leds.close()
        raise StartError(str(exc)) from None
    # read_timeout: how soon a reader's thread notices the stop; a frame wakes it at once
    # whatever it is, so a longer one costs no latency and saves an idle table 16 wakes a second
    readers = [CardReader(r.url, daemon.on_read, baudrate=r.baudrate, name=f"reader-{i}",
                          read_timeout=READ_TIMEOUT_S)
               for i, r in enumerate(config.readers)]
    # the chip devices: raw scan cycles into chip sensing, which settles them into chips.zone
    # and tray.counts events (controller/sensing/chips.py); watched by the health monitor
    chip_frames = threading.Event()  # the chip clock's wake-up (sensing/chip_clock.py)

    def on_chips(inventory: Any) -> None:
        daemon.on_chips(inventory)
        chip_frames.set()

    def on_tray(report: Any) -> None:
        daemon.on_tray(report)
        chip_frames.set()

    chip_readers = [ChipReader(c.url, on_chips, on_tray=on_tray, baudrate=c.baudrate,
                               name=f"chips-{i}", read_timeout=READ_TIMEOUT_S)
                    for i, c in enumerate(config.chip_readers)]
    # (STATUS= names every device; each reader's stats say connected, bad frames, heartbeat)
    service = Service(daemon, [*readers, *chip_readers], notify, watchdog_s=watchdog_period())
    daemon.outputs.append(service.on_snapshot)
    relay = None
    if config.central_url:  # the cardroom's copy: off the table's threads, never waited on
        from controller.surveillance.relay import Relay

        relay = Relay(config.journal_path, config.central_access(), config.table_id)
        daemon.outputs.append(relay.poke)
    table = RunningTable(daemon, journal, [*readers, *chip_readers], leds, service, keys,
                         _health_monitor(config, daemon, readers, chip_readers), relay,
                         chip_frames)
    table.start()
    return table


def journal_health(tables: Sequence[RunningTable]) -> dict[str, Any]:
    """/healthz's journal: the table's once it is open (``tables``: the one opened, or none
    yet: then the journal is not open, not ok)."""
    return tables[0].journal_health() if tables else {"ok": False, "last_seq": None}


def served_cert(config: Config, path: str = "") -> ServedCert:
    """The certificate ``run`` will serve, checked (there, readable, its own key's, in date;
    the client CA readable); ConfigError naming the key and how to make one."""
    from controller.security.tls import ServedCert, TlsError, load_cert

    cert, key = config.tls_cert_path(), config.tls_key_path()
    which = "display.tls_cert" if config.tls_cert else "display.tls_cert (default)"
    try:
        if config.client_ca:
            try:
                load_cert(Path(config.client_ca))
            except TlsError as exc:
                raise ConfigError(f"display.client_ca: {exc}") from None
        return ServedCert(cert, key, config.client_ca or None)
    except TlsError as exc:
        hint = ("" if config.tls_cert or cert.exists() else
                f"; make it with: feltguard tls init --config {path or 'FILE'}")
        raise ConfigError(f"{which}: {exc}{hint}") from None


def display_app(config: Config, tables: Sequence[RunningTable] = (),
                on_choose: Callable[[str | None], None] | None = None,
                cert: ServedCert | None = None) -> tuple[Any, Any, Any, str]:
    """The live view's app, its live Socket.IO server (display/live.py), the publisher to feed
    it, and where the dealer finds the login token (for the start-up line). ``tables``: where
    the table will be once opened, for /healthz's journal state. The touch console's inputs
    wait for the table: ``attach_console(app, daemon)`` once ``open_table`` has made it;
    ``on_choose`` hears the card the dealer chooses on it (the hardware exposed/boxed keys act
    on it)."""
    from controller.daemon.console_submit import ConsoleLink
    from display.server import create_app

    accounts, audit = open_accounts(config)
    journal = Path(config.journal_path).resolve()  # the surveillance review reads it
    from controller.daemon.odds_worker import broadcast_odds

    odds = broadcast_odds(config.broadcast_odds, config.broadcast_odds_burns)
    link = ConsoleLink()
    if accounts is not None:
        app, live, publisher = create_app(accounts=accounts, audit=audit, submit=link.submit,
                                          on_choose=on_choose, review_journal=journal,
                                          session_lifetime=timedelta(hours=config.session_hours),
                                          journal_health=lambda: journal_health(tables),
                                          broadcast_delay_s=config.broadcast_delay_s,
                                          broadcast_findings=config.broadcast_findings,
                                          tls_status=cert.status if cert else None,
                                          odds=odds)
        app.extensions["feltguard.console_link"] = link
        return app, live, publisher, f"your own name and password ({len(accounts)} accounts)"
    from display.access import write_token_file

    token = config.dealer_token or secrets.token_urlsafe(12)
    where = "the configured display.dealer_token"
    if not config.dealer_token:
        # never printed (stdout lands in journald): a file only the service user reads,
        # beside the journal (the StateDirectory under systemd)
        path = Path(config.journal_path).resolve().with_name("dealer-token")
        where = f"the token in {write_token_file(token, path)} (mode 0600)"
    # the touch console (/dealer/console): a ruling needs the floor's token, kept like the
    # dealer's (display.floor_token, or a random one in a 0600 file beside the journal)
    floor = config.floor_token or secrets.token_urlsafe(12)
    if not config.floor_token:
        write_token_file(floor, Path(config.journal_path).resolve().with_name("floor-token"))
    app, live, publisher = create_app(dealer_token=token, floor_token=floor, submit=link.submit,
                                      on_choose=on_choose, audit=audit,
                                      review_journal=journal,
                                      session_lifetime=timedelta(hours=config.session_hours),
                                      journal_health=lambda: journal_health(tables),
                                      broadcast_delay_s=config.broadcast_delay_s,
                                      broadcast_findings=config.broadcast_findings,
                                      tls_status=cert.status if cert else None,
                                      odds=odds)
    app.extensions["feltguard.console_link"] = link
    return app, live, publisher, where


def open_accounts(config: Config) -> tuple[Accounts | None, AuditLog]:
    """The table's accounts (None while it has none: the shared dealer and floor tokens admit
    the dealer and the floor, and no surveillance login exists yet) and its audit log.
    StartError, one line, for a file that cannot be used."""
    from controller.journal import JournalError
    from controller.security.accounts import AccountError, Accounts
    from controller.security.audit import AuditError, AuditLog

    accounts: Accounts | None = None
    try:
        if config.accounts_path().exists():
            accounts = Accounts(config.accounts_path())
            if len(accounts) == 0:
                accounts = None
        audit = AuditLog(config.audit_path())
    except (AccountError, AuditError, JournalError, OSError) as exc:
        raise StartError(f"accounts: {exc}") from None
    if accounts is None:
        log.warning("no accounts in %s: the shared dealer token admits the dealer "
                    "(feltguard user add makes personal logins)", config.accounts_path())
    return accounts, audit


def attach_console(app: Any, daemon: TableDaemon) -> None:
    """The touch console's inputs go to this daemon's one submit path from now on."""
    app.extensions["feltguard.console_link"].daemon = daemon


def live_view_line(host: str, port: int, where: str, tls: bool = False) -> str:
    """The start-up line: where to browse (every interface: this machine's addresses, never
    0.0.0.0) and how the dealer logs in."""
    from display.addresses import browse_urls

    urls = browse_urls(host, port, tls=tls)
    return f"live view {'/  '.join(urls)}/   dealer view /dealer (log in with {where})"


CERT_CHECK_S = 3600.0


def watch_cert(cert: ServedCert, halt: threading.Event) -> None:
    """Hourly, on a thread of its own: a renewed certificate is loaded for the next handshake
    (``feltguard tls renew``, no restart), and from 30 days before expiry the log says so once
    a day (``/healthz`` says it at every request)."""
    def watch() -> None:
        said = 0.0
        while not halt.wait(CERT_CHECK_S):
            warning = cert.status()["warning"]
            if warning and time.monotonic() - said > 86400:
                log.warning("%s: %s", cert.cert, warning)
                said = time.monotonic()

    threading.Thread(target=watch, name="cert-watch", daemon=True).start()


def start_console(daemon: TableDaemon, stdin: TextIO | None) -> None:
    """The typed console on ``stdin`` (None: none; under systemd stdin is /dev/null)."""
    if stdin is not None:
        threading.Thread(target=_console, args=(daemon, stdin), daemon=True,
                         name="console").start()


def _files_the_display_makes(config: Config) -> list[Path]:
    """What ``display_app`` writes before the table opens: the token files, and the audit log
    with its key, anchors and SQLite's own files."""
    beside = Path(config.journal_path).resolve()
    audit = config.audit_path()
    return [beside.with_name("dealer-token"), beside.with_name("floor-token"),
            *(Path(f"{audit}{x}") for x in ("", ".key", ".anchors", "-wal", "-shm"))]


def run_table(
    config: Config, stdin: TextIO | None = None, halt: threading.Event | None = None
) -> int:
    """The table in this process, the live view (if ``display.port``) served from it, the typed
    console on ``stdin`` if given, until ``halt``, SIGTERM or Ctrl-C."""
    publisher = app = live = None
    halt = halt or threading.Event()
    if threading.current_thread() is threading.main_thread():
        # systemd's stop, from the first moment: a SIGTERM while the journal is being opened
        # or the live view is starting stops the table cleanly once it is up, never kills it
        # with the journal open (the screens answer before the table is ready)
        signal.signal(signal.SIGTERM, lambda *_: halt.set())
    choice = ChosenCard()
    tables: list[RunningTable] = []
    made = _files_the_display_makes(config)
    before = {p for p in made if os.path.lexists(p)}
    cert = None
    if config.port and config.display_tls:
        try:  # before anything is written (config check has said the same)
            cert = served_cert(config)
        except ConfigError as exc:
            print(f"feltguard run: {exc}", file=sys.stderr)
            return 2
    try:
        if config.port:
            app, live, publisher, where = display_app(config, tables, on_choose=choice.set,
                                                      cert=cert)
        table = open_table(config, [publisher.publish] if publisher is not None else [],
                           chosen=choice)
    except StartError as exc:
        # a table that does not start leaves nothing behind: no token, no empty audit log
        if app is not None:
            from display.server import close_app

            close_app(app)
        for path in made:
            if path not in before:
                path.unlink(missing_ok=True)
        print(f"feltguard run: {exc}", file=sys.stderr)
        return 2
    tables.append(table)
    server = None
    try:
        if app is not None:
            from display.server import run_server

            attach_console(app, table.daemon)

            try:
                server = run_server(app, live, config.host, config.port,
                                    tls=cert.context if cert else None)
            except OSError as exc:  # taken since the start's check, or refused
                print(f"feltguard run: display: cannot serve on {config.host}:{config.port}: "
                      f"{exc.strerror or exc}", file=sys.stderr)
                return 2
            print(live_view_line(config.host, server.port, where, tls=cert is not None),
                  flush=True)
            if cert is not None:
                watch_cert(cert, halt)
        table.ready(halt)
        start_console(table.daemon, stdin)
        # With no console (stdin not a terminal) the table runs until SIGTERM; at a terminal,
        # Ctrl-C stops it.
        with contextlib.suppress(KeyboardInterrupt):
            halt.wait()
    finally:
        table.service.stopping()
        if server is not None:
            server.stop()
        if app is not None:
            from display.server import close_app

            close_app(app)
        table.close()
    return 0
