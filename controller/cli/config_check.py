"""``feltguard config check FILE``: a table's configuration checked as ``feltguard run`` will
read it, and what it sets up on one screen.

Exit 0 with the summary (game, stakes, house rules, seats and players, readers, antennas, LEDs,
the address the live view listens on, journal, deck, chips), or exit 2 with one line on
standard error naming the file and the bad key (``table.toml: table.seats: must be 2..10, got
12``). Checked beyond the parser's own checks, as ``run`` checks them before starting anything:
the deck file, the chip-set file, the LED pin map, that gpiozero finds GPIO pins here for the
LEDs and keys (the pin factory is made and closed, no pin is claimed) and that the display host
resolves. Nothing else is opened or started: the check may run beside the daemon (the port it
holds, the readers it holds are not tried).
"""

from __future__ import annotations

import argparse
import socket
from pathlib import Path
from typing import Any, TextIO

from controller.config import Config, ConfigError, load
from controller.events import TableSetup
from controller.journal import anchor_path_for, key_path_for
from controller.sensing.cards import DEFAULT_ANTENNAS


def check(path: str) -> Config:
    """The config at ``path`` with everything ``run`` checks before starting; ConfigError
    names the key."""
    config = load(path)
    try:
        from controller.tags.deckfile import table_registry

        table_registry(config)  # every deck a full deck of the table's game
        from controller.tags.chipfile import table_chip_sets

        table_chip_sets(config)  # no uid in two sets, every denomination a whole unit
        if config.leds_enabled and config.led_driver == "gpio" and config.led_pins is not None:
            from drivers.leds import validate_pin_map  # imports gpiozero: only here

            try:
                validate_pin_map(config.led_pins)
            except ValueError as exc:
                raise ConfigError(f"leds.pins: {exc}") from None
        pins_problem(config)
        if config.port:
            try:
                socket.getaddrinfo(config.host, config.port, type=socket.SOCK_STREAM)
            except (socket.gaierror, UnicodeError) as exc:
                problem = getattr(exc, "strerror", None) or exc
                raise ConfigError(f"display.host: cannot resolve {config.host!r}: "
                                  f"{problem}") from None
        if config.port and config.display_tls:
            from controller.processes.table import served_cert

            served_cert(config, path)
        check_central(config)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    return config


def check_central(config: Config) -> str:
    """[central]'s files as the relay will read them (the password file 0600 and one line,
    the CA a certificate, the client certificate the key's, not expired): ConfigError names
    the key. Returns a one-line warning, or "", when the user is not the table's own
    (``table-<table>``): the surveillance service refuses entries relayed as another table."""
    if not config.central_url:
        return ""
    from controller.security.tls import TlsError, check_pair, load_cert
    from controller.surveillance.access import AccessError, table_user

    access = config.central_access()
    try:
        access.check_files()
        if access.ca_file:
            load_cert(Path(access.ca_file))
        if access.cert_file:
            check_pair(access.cert_file, access.key_file)
    except AccessError as exc:
        raise ConfigError(str(exc)) from None
    except TlsError as exc:
        text = str(exc)
        key = ("central.tls_key" if access.key_file and text.startswith(access.key_file) else
               "central.tls_cert" if access.cert_file and text.startswith(access.cert_file)
               else "central.ca_file")
        raise ConfigError(f"{key}: {exc}") from None
    own = table_user(config.table_id)
    if access.user != own:
        return (f"warning: central.user {access.user!r} is not {own!r}, the user of table "
                f"{config.table_id}: the surveillance service refuses entries relayed as "
                "another table")
    return ""


def _central(config: Config) -> list[str]:
    if not config.central_url:
        return ["none: the journal stays on this table (central.url)"]
    access = config.central_access()
    login = (f"as {access.user} (password in {access.password_file})" if access.password_file
             else "without a login (Redis's default user)")
    lines = [f"{access.shown()} as table {config.table_id}, {login}"]
    if access.tls:
        client = (f", client certificate {access.cert_file}" if access.cert_file
                  else ", no client certificate")
        lines.append(f"TLS verified against {access.ca_file}{client}")
    warning = check_central(config)
    return [*lines, warning] if warning else lines


def pins_problem(config: Config) -> None:
    """ConfigError naming the setting when gpiozero gives the LEDs or the dealer keys no pins
    on this machine (off a Pi, its default factory falls back four times and fails at start):
    ``run`` would refuse, so the check does, before anything is written."""
    from drivers.pin_factory import pin_factory_problem

    for section, wanted, factory in (("leds", config.leds_enabled, config.led_pin_factory),
                                     ("keys", config.keys.enabled, config.keys.pin_factory)):
        problem = pin_factory_problem(factory) if wanted else None
        if problem:
            which = factory or "gpiozero's default factory"
            raise ConfigError(f"{section}.pin_factory: no GPIO pins on this machine with "
                              f"{which} (set {section}.pin_factory = \"mock\" for a desk test, "
                              f"or {section}.enabled = false): {problem}")


def _game(table: TableSetup) -> str:
    from controller.poker.variants import ROTATIONS, structure_name, table_game

    rot = ROTATIONS.get(table.game)
    if rot is not None:
        return f"{rot.name} ({table.game}), each game at its own structure"
    v = table_game(table.game, table.structure)
    usual = "" if table.structure else " (its usual)"
    return f"{v.name} ({table.game}), {structure_name(v.structure)}{usual}"


def _stakes(table: TableSetup) -> str:
    parts = [f"blinds {table.small_blind}/{table.big_blind}"]
    for name, value in (("ante", table.ante), ("bring-in", table.bring_in),
                        ("small bet", table.small_bet), ("big bet", table.big_bet)):
        if value:
            parts.append(f"{name} {value}")
    return ", ".join(parts)


def _leds(config: Config) -> str:
    if not config.leds_enabled:
        return "off"
    factory = config.led_pin_factory or "gpiozero's default (lgpio on a Pi)"
    if config.led_driver == "shift_register":
        from drivers.shift_register import validate_shift_register

        sr = validate_shift_register(config.led_shift_register)
        board = (f"74HCT595 chain, {sr.seats} seats: data GPIO{sr.data}, clock GPIO{sr.clock}, "
                 f"latch GPIO{sr.latch}, enable "
                 f"{'tied to GND' if sr.enable is None else f'GPIO{sr.enable}'}")
    else:
        from drivers.leds import DEFAULT_PIN_MAP_6_SEATS, validate_pin_map

        pins = validate_pin_map(config.led_pins or DEFAULT_PIN_MAP_6_SEATS)
        which = "the 6-seat board's default map" if config.led_pins is None else "[leds.pins]"
        board = f"one pin per LED, {len(pins)} pins ({which})"
    return f"{board}; pin factory {factory}"


def _keys(config: Config) -> str:
    keys = config.keys
    if not keys.enabled:
        return "off"
    wired = [k for k, pin in keys.pins.items() if pin != ""]
    factory = keys.pin_factory or "gpiozero's default"
    return (f"{len(wired)} keys, {'pull-up' if keys.pull_up else 'pull-down'}, debounce "
            f"{keys.bounce_ms} ms, misdeal and undo held {keys.hold_ms} ms; pin factory {factory}")


def _display(config: Config) -> list[str]:
    if not config.port:
        return ["off (display.port = 0)"]
    from display.addresses import ANY_HOST, browse_urls

    reach = ("every interface: the table's network reaches it" if config.host in ANY_HOST
             else "this address only")
    urls = "  ".join(f"{u}/" for u in browse_urls(config.host, config.port,
                                                   tls=config.display_tls))
    token = ("display.dealer_token" if config.dealer_token
             else "a random token, in a 0600 file beside the journal")
    public = "a public table" if config.broadcast_public else "not public"
    if config.display_tls:
        from controller.processes.table import served_cert

        try:
            served = served_cert(config).served  # (``check`` has refused a bad one)
        except ConfigError as exc:  # (a summary of a config not checked)
            https = [f"HTTPS: not ready: {exc}"]
        else:
            https = [f"HTTPS: {config.tls_cert_path()} ({', '.join(served.hosts)}), expires "
                     f"{served.not_after:%Y-%m-%d} ({int(served.days_left())} days)"
                     + ("; a client certificate from display.client_ca asked of every screen"
                        if config.client_ca else "")]
            if served.warning():
                https.append(f"WARNING: {served.warning()}")
    else:
        https = ["plain HTTP on this machine only (display.tls = false: a TLS proxy serves it)"]
    return [f"listens on {config.host}:{config.port} ({reach})", *https, f"browse {urls}",
            f"dealer login: {token}",
            f"broadcast /broadcast: every hole card {config.broadcast_delay_s:g} s late ({public})"]


def _journal(config: Config) -> list[str]:
    path = Path(config.journal_path).resolve()
    if path.exists():
        state = "exists: the table resumes from it"
    elif path.parent.is_dir():
        state = "new"
    else:
        state = f"new; its folder {path.parent} does not exist yet"
    key = Path(config.journal_key_file).resolve() if config.journal_key_file else \
        key_path_for(path)
    anchors = Path(config.journal_anchor_file).resolve() if config.journal_anchor_file else \
        anchor_path_for(path)
    every = config.journal_rollover  # (docs/segments.md)
    segments = ("one file, never rolled over" if every == "off" else
                "a new segment at the first hand's end of each day" if every == "day" else
                f"a new segment every {every} hands")
    return [f"{path} ({state})", f"key {key}{'' if key.exists() else ' (created at start)'}",
            f"anchors {anchors}", segments]


def _decks(config: Config) -> str:
    from controller.tags.deckfile import table_registry

    registry = table_registry(config)  # (checked already by ``check``)
    if registry is None:
        return "none registered at start"
    resting = [d for d in registry.decks if d != registry.in_play]
    return (f"{config.deck_file}: {registry.in_play} in play"
            + (f", resting {', '.join(resting)}" if resting else ""))


def _chips(config: Config) -> str:
    from controller.sensing.chips import DEFAULT_CHIP_ANTENNAS
    from controller.tags.chipfile import table_chip_sets

    sets = table_chip_sets(config)  # (checked already by ``check``)
    named = ("none registered at start" if sets is None else
             f"{config.chips_file}: {sets.in_play} in play"
             + "".join(f", {s} known" for s in sets.chips if s != sets.in_play))
    changed = sum(1 for k, z in config.chip_antennas.items()
                  if DEFAULT_CHIP_ANTENNAS.get(k) != z)
    return (f"{named}; {len(config.chip_antennas)} chip antennas, "
            + (f"{changed} changed from the defaults" if changed else "the defaults")
            + f"; settled after {config.chip_settle_ms} ms still")


def summary(config: Config) -> list[str]:
    """What the config sets up, a line per subject."""
    from controller.poker.house_rules import DEFAULT_PROFILE

    table = config.table
    settings = ", ".join(f"{k} = {v!r}" for k, v in table.settings.items())
    players = ", ".join(f"seat {p.seat} {p.name} {p.stack}" for p in config.players)
    readers = ", ".join(f"{r.url} at {r.baudrate} baud" for r in config.readers)
    chips = ", ".join(f"{c.kind} {c.url} at {c.baudrate} baud, a cycle every {c.cycle_ms} ms "
                      f"(reader {c.id})" for c in config.chip_readers)
    changed = sum(1 for k, z in config.antennas.items() if DEFAULT_ANTENNAS.get(k) != z)
    rows = [
        ("game", _game(table)),
        ("stakes", _stakes(table)),
        ("house rules", f"profile {table.profile}"
         + (" (the default)" if table.profile == DEFAULT_PROFILE else "")
         + (f"; settings {settings}" if settings else "")),
        ("seats", f"{table.seats}; players at set-up: {players or 'none'}"),
        ("readers", readers or "none (no card is read)"),
        ("chip readers", chips or "none"),
        ("antennas", f"{len(config.antennas)} mapped, "
         + (f"{changed} changed from the defaults" if changed else "the defaults")
         + f"; a tag unread for {config.lost_after_ms} ms has left the felt"),
        ("LEDs", _leds(config)),
        ("keys", _keys(config)),
        ("deck", _decks(config)),
        ("chips", _chips(config)),
    ]
    lines = [f"  {name:<13}{text}" for name, text in rows]
    for name, more in (("display", _display(config)), ("journal", _journal(config)),
                       ("central", _central(config))):
        lines += [f"  {name if i == 0 else '':<13}{line}" for i, line in enumerate(more)]
    return lines


def cmd_config_check(args: argparse.Namespace, out: TextIO | None = None) -> int:
    import sys

    from controller.cli.common import fail

    out = out or sys.stdout
    try:
        config = check(args.file)
    except ConfigError as exc:
        return fail("config check", str(exc))
    out.write(f"{args.file}: ok\n" + "\n".join(summary(config)) + "\n")
    return 0


def add_config_parser(sub: Any) -> None:
    """``feltguard config check FILE``."""
    from controller.cli.common import text

    p = sub.add_parser("config", help="a table's configuration file")
    commands = p.add_subparsers(dest="config_command", required=True)
    c = commands.add_parser("check", help="check a table's configuration and show what it sets "
                            "up (exit 0), or name the bad key (exit 2)")
    c.add_argument("file", type=text("a file"), help="table configuration (TOML; every key: "
                   "hardware/table.example.toml)")
    c.set_defaults(func=cmd_config_check)
