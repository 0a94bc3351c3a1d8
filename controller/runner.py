"""``feltguard run``: the daemon at a real table.

Wires the configured card readers (pyserial), sensing, the journal, the rules core, the seat
LEDs (gpiozero), the dealer console keys (``[keys]``, controller/dealer_keys.py) and the live
view, then reads dealer console lines on standard input (``controller.console``) until end of
input or Ctrl-C. On restart the journal is checked and
replayed, so the table resumes exactly where it stopped (``_resume``).
"""

from __future__ import annotations

import logging
import os
import secrets
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TextIO

from controller.config import Config, ConfigError
from controller.console import HELP, parse_command
from controller.daemon import TableDaemon
from controller.dealer_keys import build_keys
from controller.deckfile import load_deck
from controller.events import Body, DeckRegister, EventError, SeatTake, TableSetup
from controller.journal import Journal, JournalError
from controller.sensing import Sensing

log = logging.getLogger("feltguard.run")


def build_leds(config: Config) -> tuple[Any, Callable[[Mapping[str, Any]], None] | None]:
    """The configured LED driver and the output that shows each snapshot's plan on it."""
    if not config.leds_enabled:
        return None, None
    from controller.ledplan import led_plan

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


def _resume(daemon: TableDaemon, setup: TableSetup, deck: DeckRegister | None) -> None:
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
    if deck is not None and dict(deck.tags) != dict(daemon.state.deck.tags):
        changed.append(deck)
    if daemon.hand_in_play:
        print(f"hand {number} was in play when the table stopped: deal on from where it "
              "stopped, or have the floor void it (ruling void TEXT)", flush=True)
        if changed:
            print("the changed table set-up or deck file is not applied during a hand; "
                  "restart between hands to apply it", flush=True)
        return
    for body in changed:
        daemon.submit(body)


# How often sensing looks for tags gone quiet: a tenth of the readers' repeat period would be
# wasted work; a lost card is then reported at most this much after its time-out.
TICK_S = 0.1


def _tick(daemon: TableDaemon, halt: threading.Event) -> None:
    """Sensing's clock: silence is noticed only when someone asks (``Sensing.tick``)."""
    while not halt.wait(TICK_S):
        daemon.tick(time.monotonic())


def run_table(
    config: Config, stdin: TextIO = sys.stdin, halt: threading.Event | None = None
) -> int:
    from drivers.card_reader import CardReader

    try:
        deck = load_deck(config.deck_file) if config.deck_file else None
        leds, led_output = build_leds(config)
    except ConfigError as exc:
        print(f"feltguard run: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # gpiozero's BadPinFactory and friends, off a Pi
        print(f"feltguard run: LEDs: {exc} (set leds.pin_factory = \"mock\" off a Pi)",
              file=sys.stderr)
        return 2
    try:
        journal = Journal(config.journal_path, key_path=config.journal_key_file or None,
                          anchors=config.journal_anchor_file or None)
    except JournalError as exc:
        print(f"feltguard run: {exc}", file=sys.stderr)
        if leds is not None:
            leds.close()
        return 2
    try:
        daemon = TableDaemon(journal, sensing=Sensing(
            dict(config.antennas), lost_after_s=config.lost_after_ms / 1000))
    except JournalError as exc:  # a journal whose chain does not check out is not resumed
        print(f"feltguard run: {exc}", file=sys.stderr)
        journal.close()
        if leds is not None:
            leds.close()
        return 2
    if led_output is not None:
        daemon.outputs.append(led_output)
    server = None
    if config.port:
        from display.access import write_token_file
        from display.server import create_app, run_server

        token = config.dealer_token or secrets.token_urlsafe(12)
        where = "the configured display.dealer_token"
        if not config.dealer_token:
            # never printed (stdout lands in journald): a file only the service user reads,
            # beside the journal (the StateDirectory under systemd)
            path = Path(config.journal_path).resolve().with_name("dealer-token")
            where = f"the token in {write_token_file(token, path)} (mode 0600)"
        app, sio, publisher = create_app(dealer_token=token)
        daemon.outputs.append(publisher.publish)
        server = run_server(app, sio, config.host, config.port)
        print(f"live view http://{config.host}:{server.port}/   dealer view /dealer "
              f"(log in with {where})", flush=True)
    setup = config.table_setup()
    if journal.last_seq == 0:
        daemon.submit(setup)
        for p in config.players:
            daemon.submit(SeatTake(seat=p.seat, player=p.name, stack=p.stack))
        if deck is not None:
            daemon.submit(deck)
    else:
        _resume(daemon, setup, deck)
    readers = [CardReader(r.url, daemon.on_read, baudrate=r.baudrate, name=f"reader-{i}")
               for i, r in enumerate(config.readers)]
    for reader in readers:
        reader.start()
    halt = halt or threading.Event()
    ticker = threading.Thread(target=_tick, args=(daemon, halt), daemon=True, name="sensing-tick")
    ticker.start()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda *_: halt.set())  # systemd stop
    keys = None
    status = 0
    try:
        keys = build_keys(config, daemon)  # the hardware console keys ([keys]), if enabled
        console = threading.Thread(target=_console, args=(daemon, stdin), daemon=True,
                                   name="console")
        console.start()
        # Under systemd stdin is /dev/null: the console ends at once and the table runs on
        # until SIGTERM; at a terminal, Ctrl-C stops it.
        halt.wait()
    except ConfigError as exc:  # a key pin gpiozero refuses
        print(f"feltguard run: {exc}", file=sys.stderr)
        status = 2
    except KeyboardInterrupt:
        pass
    finally:
        halt.set()  # a Ctrl-C: the ticker stops too, before the journal closes
        if keys is not None:
            keys.close()  # no key press lands after the journal closes
        for reader in readers:
            reader.stop()
        ticker.join()
        if leds is not None:
            leds.close()
        if server is not None:
            server.stop()
        journal.checkpoint()
        journal.close()
    return status
