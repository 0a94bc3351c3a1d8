"""Table configuration: a TOML file for ``feltguard run``; an embedded default for ``sim``.

Every key is checked; a bad or unknown key raises ConfigError naming it (``table.seats: must be
2..10, got 12``), so a typo never silently falls back to a default.

Every section and key, commented: ``hardware/table.example.toml`` (all keys optional; a test holds
it to ``accepted_keys()``). ``feltguard config check FILE`` checks a file and summarises it.
"""

from __future__ import annotations

import re
import tomllib
import typing
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from controller.console.keypad import DEFAULT_PINS, KEYS
from controller.events import INT_MAX, EventError, SeatTake, TableSetup, validate_body
from controller.journal import ROLLOVER_DEFAULT, parse_rollover
from controller.poker.house_rules import PROFILES, SettingsError, setting_names, settings_for
from controller.poker.variants import game_problem
from controller.sensing.cards import DEFAULT_ANTENNAS, DEFAULT_LOST_AFTER_S, parse_antenna_map
from controller.sensing.chips import (
    DEFAULT_CHIP_ANTENNAS,
    DEFAULT_SETTLE_MS,
    SETTLE_MS,
    parse_chip_antenna_map,
)
from controller.surveillance.access import CONFIG_NAMES, AccessError, RedisAccess, table_user
from controller.surveillance.streams import table_id
from drivers.chip_protocol import DEVICE_KINDS

LED_DRIVERS = ("gpio", "shift_register")
# Keys that were settings once: a config that still has one is told why it is gone, not that
# the key is unknown.
RETIRED_KEYS = {
    # gunicorn or Werkzeug served the live view in threading mode; now uvicorn does, always
    ("display", "server"): "no longer a setting: the live view is served by uvicorn in the "
                           "daemon's own process (display/live.py); remove the key",
}
# sensing.lost_after_ms: above the readers' 250 ms repeat (with room for one missed repeat), at
# most a minute.
LOST_AFTER_MS = (500, 60_000)


class ConfigError(ValueError):
    """A bad configuration; the message starts with the offending key."""


@dataclass(frozen=True)
class PlayerConfig:
    seat: int
    name: str
    stack: int


@dataclass(frozen=True)
class ReaderConfig:
    url: str
    baudrate: int = 115200
    # The USB adapter, for `feltguard udev-rules` (controller/cli/udev.py); "" when not given.
    serial: str = ""
    vendor: str = "0403"
    product: str = "6001"
    symlink: str = ""
    id: int = 1  # the reader id of its frames (hardware/reader-protocol.md)


@dataclass(frozen=True)
class ChipReaderConfig:
    """One ``[[chip_readers]]`` table: a chip device (hardware/chip-protocol.md), opened by
    ``feltguard run``; its scan cycles go to chip sensing (controller/sensing/chips.py)."""

    url: str
    baudrate: int = 115200
    cycle_ms: int = 250  # the device's scan cycle (rfid) or report period (tray)
    kind: str = "rfid"  # DEVICE_KINDS: "rfid" (tagged chips) | "tray" (a counting tray)
    # The USB adapter, for `feltguard udev-rules`, as ReaderConfig's; "" when not given.
    serial: str = ""
    vendor: str = "0403"
    product: str = "6001"
    symlink: str = ""
    # the reader id of its frames, its health reported under it (controller/sensing/health.py);
    # default 3, 4, ... in file order, unique across card and chip readers
    id: int = 3


# chip_readers.cycle_ms: a scan of every antenna takes tens of milliseconds; above ten seconds
# a bet would wait too long to be seen.
CHIP_CYCLE_MS = (50, 10_000)


# [health]: (default, lowest, highest) of each key (controller/sensing/health.py, docs/events.md).
HEALTH_KEYS = {
    "heartbeat_ms": (500, 50, 60_000),
    "missed_heartbeats": (3, 1, 100),
    "bad_frames_per_minute": (20, 1, 1_000_000),
    # a chip device's scan cycles dropped for a missing part (hardware/chip-protocol.md)
    "incomplete_cycles_per_minute": (20, 1, 1_000_000),
}


# keys.bounce_ms and keys.hold_ms (milliseconds): a debounce longer than half a second would eat
# real presses; a hold under a tenth of a second is no guard against a brushed key.
KEY_BOUNCE_MS = (0, 500)
KEY_HOLD_MS = (100, 10_000)


@dataclass(frozen=True)
class KeysConfig:
    """The ``[keys]`` section: the dealer console keys (controller/daemon/dealer_keys.py)."""

    enabled: bool = False
    pin_factory: str = ""  # "" gpiozero's default, "mock" the twin
    pull_up: bool = True
    bounce_ms: int = 20
    hold_ms: int = 1000
    pins: Mapping[str, str | int] = field(default_factory=lambda: dict(DEFAULT_PINS))


@dataclass(frozen=True)
class Config:
    # [table]: the game, stakes, house rules and rake, as the table.setup event that
    # `feltguard run` journals (the house's rake of each pot: docs/chip-betting.md)
    table: TableSetup = field(default_factory=TableSetup)
    players: tuple[PlayerConfig, ...] = ()
    readers: tuple[ReaderConfig, ...] = ()
    chip_readers: tuple[ChipReaderConfig, ...] = ()
    antennas: Mapping[tuple[int, int], str] = field(default_factory=lambda: dict(DEFAULT_ANTENNAS))
    lost_after_ms: int = int(DEFAULT_LOST_AFTER_S * 1000)
    leds_enabled: bool = True
    led_pin_factory: str = ""
    led_pins: Mapping[str, Any] | None = None
    led_driver: str = "gpio"
    led_shift_register: Mapping[str, Any] = field(default_factory=dict)
    # Every interface: the dealer's tablet must reach the table; safe behind the dealer's login
    # and the public view's whitelist (docs/display.md, "Where it listens").
    host: str = "0.0.0.0"
    port: int = 5000
    dealer_token: str = ""
    floor_token: str = ""
    # [display] HTTPS (controller/security/tls.py, docs/security.md "TLS"): on, unless a TLS
    # proxy on this machine serves the table (then only on a loopback host)
    display_tls: bool = True
    tls_cert: str = ""  # "": tls/server.pem beside the journal (feltguard tls init --config)
    tls_key: str = ""  # "": tls/server.key beside the journal
    client_ca: str = ""  # "": no client certificate asked; else every screen presents one
    # [broadcast]: the /broadcast view's secure delay (docs/security.md); 0 only when not public
    broadcast_delay_s: float = 1800.0
    broadcast_public: bool = True
    broadcast_findings: bool = False  # the irregularity findings on the stream: off air
    broadcast_odds: bool = True  # each hand's odds on /broadcast (docs/display.md, The odds)
    broadcast_odds_burns: bool = False  # the burns among the odds' known dead cards
    journal_path: str = "feltguard-journal.sqlite"
    journal_key_file: str = ""  # "": beside the journal (controller.journal.key_path_for)
    journal_anchor_file: str = ""  # "": beside the journal (controller.journal.anchor_path_for)
    # when the journal rolls over to a new segment (docs/segments.md): "off", "day", N hands
    journal_rollover: str | int = ROLLOVER_DEFAULT
    # per-user logins (controller/security/accounts.py), the audit log (.../security/audit.py)
    accounts_file: str = ""  # "": accounts.sqlite beside the journal
    audit_file: str = ""  # "": audit.sqlite beside the journal
    session_hours: int = 12
    # the cardroom's surveillance (controller/surveillance/relay.py): "" relays nothing
    central_url: str = ""
    table_id: str = "table"
    # its login there (controller/surveillance/access.py): "" user: table-<table id>
    central_user: str = ""
    central_password_file: str = ""
    central_ca_file: str = ""
    central_tls_cert: str = ""
    central_tls_key: str = ""
    deck_file: str = ""
    # chips (issue 13): the chip antennas' zones, the settle time, the chip-set file
    chip_antennas: Mapping[tuple[int, int], str] = field(
        default_factory=lambda: dict(DEFAULT_CHIP_ANTENNAS))
    chip_settle_ms: int = DEFAULT_SETTLE_MS
    chips_file: str = ""
    keys: KeysConfig = field(default_factory=KeysConfig)
    health: Mapping[str, int] = field(
        default_factory=lambda: {k: v[0] for k, v in HEALTH_KEYS.items()})

    def accounts_path(self) -> Path:
        """The accounts file: ``[accounts] file``, or accounts.sqlite beside the journal."""
        return Path(self.accounts_file) if self.accounts_file else \
            Path(self.journal_path).resolve().with_name("accounts.sqlite")

    def tls_folder(self) -> Path:
        """Where ``feltguard tls init --config`` writes: ``tls`` beside the journal."""
        return Path(self.journal_path).resolve().with_name("tls")

    def tls_cert_path(self) -> Path:
        """The server certificate: ``[display] tls_cert``, or tls/server.pem beside the
        journal."""
        return Path(self.tls_cert) if self.tls_cert else self.tls_folder() / "server.pem"

    def tls_key_path(self) -> Path:
        """Its key: ``[display] tls_key``, or tls/server.key beside the journal."""
        return Path(self.tls_key) if self.tls_key else self.tls_folder() / "server.key"

    def central_access(self) -> RedisAccess:
        """The relay's login to the cardroom's Redis; its files are read at each connection."""
        return RedisAccess(self.central_url, user=self.central_user or table_user(self.table_id),
                           password_file=self.central_password_file,
                           ca_file=self.central_ca_file, cert_file=self.central_tls_cert,
                           key_file=self.central_tls_key, names=CONFIG_NAMES)

    def audit_path(self) -> Path:
        """The audit log: ``[accounts] audit_file``, or audit.sqlite beside the journal."""
        return Path(self.audit_file) if self.audit_file else \
            Path(self.journal_path).resolve().with_name("audit.sqlite")


def _table_kinds() -> dict[str, type]:
    """Each field of the table.setup event, in its order, with the kind the ``[table]`` key of
    that name is checked as: int, str, or dict (a TOML table, for a Mapping field)."""
    hints = typing.get_type_hints(TableSetup)
    kinds: dict[str, type] = {}
    for f in fields(TableSetup):
        hint = hints[f.name]
        kind = dict if typing.get_origin(hint) is Mapping else hint
        if kind not in (int, str, dict):  # a new kind of field needs a check of its own here
            raise TypeError(f"TableSetup.{f.name}: the [table] section cannot check a {hint}")
        kinds[f.name] = kind
    return kinds


# [table]: a key for each field of the table.setup event (controller/events.py TableSetup), which
# the config holds as Config.table: a new field of the event is a new key, checked by its kind.
TABLE_KINDS = _table_kinds()
TABLE_BOUNDS = {"rake_percent": (0, 100)}  # a percentage; any other int is 0..INT_MAX
TABLE_MAY_BE_EMPTY = frozenset({"structure"})  # "": the game's usual structure

_SECTIONS = {
    "table": set(TABLE_KINDS),
    "players": None,
    "readers": None,
    "chip_readers": None,
    "antennas": None,
    "sensing": {"lost_after_ms"},
    "leds": {"enabled", "pin_factory", "pins", "driver", "shift_register"},
    "display": {"host", "port", "dealer_token", "floor_token", "tls", "tls_cert", "tls_key",
                "client_ca"},
    "broadcast": {"delay_s", "public", "findings", "odds", "odds_burns"},
    "journal": {"path", "key_file", "anchor_file", "rollover"},
    "accounts": {"file", "audit_file", "session_hours"},
    "central": {"url", "table", "user", "password_file", "ca_file", "tls_cert", "tls_key"},
    "deck": {"file"},
    "chip_antennas": None,
    "chip_sensing": {"settle_ms"},
    "chips": {"file"},
    "keys": {"enabled", "pin_factory", "pull_up", "bounce_ms", "hold_ms", *KEYS},
    "health": set(HEALTH_KEYS),
}
# The keys of each table of an array of tables ([[players]], [[readers]], [[chip_readers]]).
ARRAY_KEYS: dict[str, tuple[str, ...]] = {
    "players": ("seat", "name", "stack"),
    "readers": ("url", "baudrate", "id", "serial", "vendor", "product", "symlink"),
    "chip_readers": ("url", "baudrate", "cycle_ms", "kind", "id", "serial", "vendor", "product",
                     "symlink"),
}


def accepted_keys() -> dict[str, tuple[str, ...] | None]:
    """Every section the parser takes, nested tables dotted (``leds.shift_register``), with its
    keys; None: keys of the operator's choosing, checked by their own parser (``[antennas]``
    "READER:ANTENNA" = zone, ``[leds.pins]`` the pin map of drivers/leds.py). Derived from the
    parser's own tables, so the example config cannot fall behind it (tests/test_config_example)."""
    from drivers.shift_register import DEFAULT_SHIFT_REGISTER  # imports gpiozero: only here

    keys: dict[str, tuple[str, ...] | None] = {
        name: tuple(sorted(k)) if k is not None else ARRAY_KEYS.get(name)
        for name, k in _SECTIONS.items()}
    keys["table.settings"] = setting_names()
    keys["leds.pins"] = None
    keys["leds.shift_register"] = tuple(DEFAULT_SHIFT_REGISTER)
    return keys


def _typed(section: Mapping[str, Any], key: str, kind: type, where: str, *,
           empty: bool = False) -> Any:
    """``section[key]`` if it is a ``kind`` (a str not blank unless ``empty``)."""
    value = section[key]
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if not ok:
        raise ConfigError(f"{where}.{key}: must be {kind.__name__}, got {value!r}")
    if kind is str and not empty and not value.strip():
        raise ConfigError(f"{where}.{key}: must not be empty")
    return value


def _int_in(section: Mapping[str, Any], key: str, where: str, lo: int, hi: int = INT_MAX) -> int:
    value: int = _typed(section, key, int, where)
    if not lo <= value <= hi:
        raise ConfigError(f"{where}.{key}: must be {lo}..{hi}, got {value}")
    return value


def from_mapping(raw: Mapping[str, Any]) -> Config:
    """Validate a decoded TOML document into a Config."""
    for name in raw:
        if name not in _SECTIONS:
            raise ConfigError(f"{name}: unknown section (known: {', '.join(sorted(_SECTIONS))})")
    kw: dict[str, Any] = {}
    for name, keys in _SECTIONS.items():
        sec = raw.get(name)
        if sec is None or keys is None:
            continue
        if not isinstance(sec, Mapping):
            raise ConfigError(f"{name}: must be a table")
        for key in sec:
            if (name, key) in RETIRED_KEYS:
                raise ConfigError(f"{name}.{key}: {RETIRED_KEYS[name, key]}")
            if key not in keys:
                raise ConfigError(f"{name}.{key}: unknown key (known: {', '.join(sorted(keys))})")

    kw["table"] = _table(raw.get("table", {}))
    seats = kw["table"].seats

    players = []
    raw_players = raw.get("players", [])
    if not isinstance(raw_players, list):
        raise ConfigError("players: must be an array of tables ([[players]])")
    for i, p in enumerate(raw_players):
        where = f"players[{i}]"
        if not isinstance(p, Mapping):
            raise ConfigError(f"{where}: must be a table")
        for key in p:
            if key not in ARRAY_KEYS["players"]:
                raise ConfigError(f"{where}.{key}: unknown key (known: name, seat, stack)")
        for key in ARRAY_KEYS["players"]:
            if key not in p:
                raise ConfigError(f"{where}.{key}: missing")
        seat = _typed(p, "seat", int, where)
        if not 1 <= seat <= seats:
            raise ConfigError(f"{where}.seat: must be 1..{seats}, got {seat}")
        # a player sits down with chips (the rules core refuses a seat.take without any)
        players.append(PlayerConfig(seat, _typed(p, "name", str, where),
                                    _int_in(p, "stack", where, 1)))
    if len({p.seat for p in players}) != len(players):
        raise ConfigError("players: two players in one seat")
    kw["players"] = tuple(players)

    readers = []
    for i, where, r in _device_tables(raw.get("readers", []), "readers"):
        baud = _int_in(r, "baudrate", where, 1) if "baudrate" in r else 115200
        rid = _int_in(r, "id", where, 0, 255) if "id" in r else i + 1
        readers.append(ReaderConfig(_typed(r, "url", str, where), baud, **_usb_keys(r, where),
                                    id=rid))
    if len({r.id for r in readers}) != len(readers):
        raise ConfigError("readers: two readers with one id (set readers[N].id)")
    kw["readers"] = tuple(readers)
    kw["chip_readers"] = _chip_readers(raw.get("chip_readers", []), readers)

    if "antennas" in raw:
        if not isinstance(raw["antennas"], Mapping):
            raise ConfigError("antennas: must be a table")
        try:
            kw["antennas"] = {**DEFAULT_ANTENNAS, **parse_antenna_map(raw["antennas"])}
        except ValueError as exc:
            raise ConfigError(str(exc)) from None

    sensing = raw.get("sensing", {})
    if "lost_after_ms" in sensing:
        kw["lost_after_ms"] = _int_in(sensing, "lost_after_ms", "sensing", *LOST_AFTER_MS)

    leds = raw.get("leds", {})
    if "enabled" in leds:
        kw["leds_enabled"] = _typed(leds, "enabled", bool, "leds")
    if "pin_factory" in leds:
        kw["led_pin_factory"] = _typed(leds, "pin_factory", str, "leds", empty=True)
        if kw["led_pin_factory"] not in ("", "mock", "lgpio", "rpigpio", "pigpio", "native"):
            raise ConfigError(f"leds.pin_factory: unknown factory {kw['led_pin_factory']!r}")
    if "pins" in leds:
        kw["led_pins"] = _typed(leds, "pins", dict, "leds")
    if "driver" in leds:
        kw["led_driver"] = _typed(leds, "driver", str, "leds")
        if kw["led_driver"] not in LED_DRIVERS:
            known = ", ".join(LED_DRIVERS)
            raise ConfigError(f"leds.driver: unknown driver {kw['led_driver']!r} (known: {known})")
    if "shift_register" in leds:
        kw["led_shift_register"] = _typed(leds, "shift_register", dict, "leds")
        from drivers.shift_register import validate_shift_register  # imports gpiozero: only here

        try:
            validate_shift_register(kw["led_shift_register"])
        except ValueError as exc:
            raise ConfigError(f"leds.{exc}") from None

    display = raw.get("display", {})
    if "host" in display:
        kw["host"] = _typed(display, "host", str, "display")
    if "port" in display:
        port = _typed(display, "port", int, "display")
        if not 0 <= port <= 65535:
            raise ConfigError(f"display.port: must be 0..65535, got {port}")
        kw["port"] = port
    if "dealer_token" in display:  # "": a random token
        kw["dealer_token"] = _typed(display, "dealer_token", str, "display", empty=True)
    if "floor_token" in display:  # "": a random token
        kw["floor_token"] = _typed(display, "floor_token", str, "display", empty=True)
    _display_tls(display, kw)

    _broadcast(raw.get("broadcast", {}), kw)

    journal = raw.get("journal", {})
    if "path" in journal:
        kw["journal_path"] = _typed(journal, "path", str, "journal")
    for key in ("key_file", "anchor_file"):  # "": beside the journal
        if key in journal:
            kw[f"journal_{key}"] = _typed(journal, key, str, "journal", empty=True)
    if "rollover" in journal:
        try:
            kw["journal_rollover"] = parse_rollover(journal["rollover"])
        except ValueError as exc:
            raise ConfigError(f"journal.rollover: {exc}") from None
    accounts = raw.get("accounts", {})
    for key, field_name in (("file", "accounts_file"), ("audit_file", "audit_file")):
        if key in accounts:  # "": beside the journal
            kw[field_name] = _typed(accounts, key, str, "accounts", empty=True)
    if "session_hours" in accounts:  # a dealer's shift at most a day
        kw["session_hours"] = _int_in(accounts, "session_hours", "accounts", 1, 24)
    _central(raw.get("central", {}), kw)
    deck = raw.get("deck", {})
    if "file" in deck:
        kw["deck_file"] = _typed(deck, "file", str, "deck", empty=True)  # "": no deck file
    _chips(raw, kw)
    if "keys" in raw:
        kw["keys"] = _keys(raw["keys"])
    health = raw.get("health", {})
    kw["health"] = {key: _int_in(health, key, "health", lo, hi) if key in health else default
                    for key, (default, lo, hi) in HEALTH_KEYS.items()}
    config = Config(**kw)
    _check_events(config)
    if config.keys.enabled:
        _check_key_pins(config)
    return config


def _central(central: Mapping[str, Any], kw: dict[str, Any]) -> None:
    """[central]: the cardroom's Redis and the table's login there. The settings are checked
    here (no password in the URL, TLS off this machine, the CA with rediss://); the files are
    read by the relay at each connection and by ``feltguard config check``."""
    if "url" in central:  # "": no relay
        kw["central_url"] = _typed(central, "url", str, "central", empty=True)
    if "table" in central:
        try:
            kw["table_id"] = table_id(_typed(central, "table", str, "central"))
        except ValueError as exc:
            raise ConfigError(f"central.table: {str(exc).removeprefix('table id ')}") from None
    for key in ("user", "password_file", "ca_file", "tls_cert", "tls_key"):
        if key in central:  # "": the default (the user) or none
            kw[f"central_{key}"] = _typed(central, key, str, "central", empty=True)
    if kw.get("central_url"):
        access = RedisAccess(kw["central_url"],
                             user=kw.get("central_user") or table_user(kw.get("table_id", "table")),
                             password_file=kw.get("central_password_file", ""),
                             ca_file=kw.get("central_ca_file", ""),
                             cert_file=kw.get("central_tls_cert", ""),
                             key_file=kw.get("central_tls_key", ""), names=CONFIG_NAMES)
        try:
            access.check()
        except AccessError as exc:
            raise ConfigError(str(exc)) from None


def _table_keys(table: Mapping[str, Any], kind: type, last: Collection[str] = ()) -> list[str]:
    """The keys of ``kind`` in ``table``, in the table.setup event's order but those in ``last``
    after the others: the order a file with several bad keys has always been told of them."""
    given = [key for key, k in TABLE_KINDS.items() if k is kind and key in table]
    return [key for key in given if key not in last] + [key for key in given if key in last]


def _table(table: Mapping[str, Any]) -> TableSetup:
    """The ``[table]`` section as the table.setup event it journals: each key checked by its
    kind, then the game, the house rules, the seats and the blinds together."""
    kw: dict[str, Any] = {}
    for key in _table_keys(table, int, TABLE_BOUNDS):
        kw[key] = _int_in(table, key, "table", *TABLE_BOUNDS.get(key, (0,)))
    for key in _table_keys(table, str, TABLE_MAY_BE_EMPTY):
        kw[key] = _typed(table, key, str, "table", empty=key in TABLE_MAY_BE_EMPTY)
    setup = TableSetup(**kw)
    _check_game(setup.game, setup.structure)
    for key in _table_keys(table, dict):
        kw[key] = dict(_typed(table, key, dict, "table"))
    setup = TableSetup(**kw)
    try:  # the house-rules profile and any single-setting overrides (docs/house-rules.md)
        settings_for(setup.profile, setup.settings)
    except SettingsError as exc:
        key = "table.settings" if setup.profile in PROFILES else "table.profile"
        raise ConfigError(f"{key}: {exc}") from None
    if not 2 <= setup.seats <= 10:
        raise ConfigError(f"table.seats: must be 2..10, got {setup.seats}")
    sb, bb = setup.small_blind, setup.big_blind
    if not (0 <= sb <= bb and bb > 0):
        raise ConfigError(f"table.big_blind: blinds must satisfy 0 <= small <= big, got {sb}/{bb}")
    return setup


# A delay longer than a day is a typo (seconds meant as minutes twice over), not a broadcast.
BROADCAST_DELAY_MAX_S = 86_400


LOOPBACK_HOSTS = ("127.0.0.1", "::1", "localhost")


def _display_tls(display: Mapping[str, Any], kw: dict[str, Any]) -> None:
    """[display] tls, tls_cert, tls_key, client_ca. Plain HTTP only on a loopback host: the
    dealer's password, the session cookie and every hole card would cross the network in clear
    (docs/security.md); a house with a TLS proxy on the table's machine listens on loopback."""
    if "tls" in display:
        kw["display_tls"] = _typed(display, "tls", bool, "display")
    for key in ("tls_cert", "tls_key", "client_ca"):
        if key in display:
            kw[key] = _typed(display, key, str, "display", empty=True)
    host = kw.get("host", "0.0.0.0")
    if not kw.get("display_tls", True) and host not in LOOPBACK_HOSTS:
        raise ConfigError(f"display.tls: false serves plain HTTP, which only a loopback host "
                          f"may (display.host = \"127.0.0.1\", a TLS proxy in front); got "
                          f"display.host = {host!r}")
    if bool(kw.get("tls_cert")) != bool(kw.get("tls_key")):
        raise ConfigError("display.tls_cert and display.tls_key: give both (a cardroom's own "
                          "certificate and its key) or neither (feltguard tls init's)")


def _broadcast(section: Mapping[str, Any], kw: dict[str, Any]) -> None:
    """[broadcast] delay_s, public and findings. A public table's broadcast must be delayed:
    ``delay_s = 0`` shows hole cards live, so it is refused unless ``public = false``.
    ``findings`` puts the irregularity findings on the stream (off by default: a house decides
    whether its dealers' mistakes go on air). ``odds`` (on by default) puts each live hand's
    chance to win on the broadcast, computed in a worker process; ``odds_burns`` counts the
    burned cards among the known dead cards (off: a viewer never sees the burns, so odds that
    count them could not be checked on screen)."""
    for key in ("odds", "odds_burns"):
        if key in section:
            kw[f"broadcast_{key}"] = _typed(section, key, bool, "broadcast")
    if "public" in section:
        kw["broadcast_public"] = _typed(section, "public", bool, "broadcast")
    if "findings" in section:
        kw["broadcast_findings"] = _typed(section, "findings", bool, "broadcast")
    if "delay_s" in section:
        delay = section["delay_s"]
        if isinstance(delay, bool) or not isinstance(delay, int | float) or delay != delay:
            raise ConfigError(f"broadcast.delay_s: must be a number of seconds, got {delay!r}")
        if not 0 <= delay <= BROADCAST_DELAY_MAX_S:
            raise ConfigError(f"broadcast.delay_s: must be 0..{BROADCAST_DELAY_MAX_S} seconds, "
                              f"got {delay}")
        kw["broadcast_delay_s"] = float(delay)
    if kw.get("broadcast_delay_s", 1) == 0 and kw.get("broadcast_public", True):
        raise ConfigError("broadcast.delay_s: 0 would show hole cards live; a public table "
                          "needs a delay (set broadcast.public = false if it is not public)")


def _chips(raw: Mapping[str, Any], kw: dict[str, Any]) -> None:
    """[chip_antennas] over the defaults, [chip_sensing] settle_ms, [chips] file. A card
    antenna of [antennas] keeps its key: a default chip antenna on it is dropped, a chip
    antenna given on it is an error (one antenna cannot be read for cards and for chips)."""
    given: dict[tuple[int, int], str] = {}
    if "chip_antennas" in raw:
        if not isinstance(raw["chip_antennas"], Mapping):
            raise ConfigError("chip_antennas: must be a table")
        try:
            given = parse_chip_antenna_map(raw["chip_antennas"])
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
    cards = kw.get("antennas", DEFAULT_ANTENNAS)
    both = sorted(set(given) & set(cards))
    if both:
        r, a = both[0]
        raise ConfigError(f"chip_antennas.{r}:{a}: is also a card antenna ({cards[(r, a)]})")
    kw["chip_antennas"] = {**{k: z for k, z in DEFAULT_CHIP_ANTENNAS.items() if k not in cards},
                           **given}
    sensing = raw.get("chip_sensing", {})
    if "settle_ms" in sensing:
        kw["chip_settle_ms"] = _int_in(sensing, "settle_ms", "chip_sensing", *SETTLE_MS)
    else:
        # Three scan cycles of the slowest RFID chip reader (controller/sensing/chips.py: a
        # stack pushed in one motion is read whole within two; the third says it stopped),
        # never less than the default: at the readers' usual 250 ms, 750 ms. A settle shorter
        # than a cycle would settle a stack read halfway (the reference firmware's boards
        # scan 13 antennas in 250 ms: hardware/firmware/README.md).
        cycles = [r.cycle_ms for r in kw.get("chip_readers", ()) if r.kind == "rfid"]
        if cycles:
            kw["chip_settle_ms"] = min(max(DEFAULT_SETTLE_MS, 3 * max(cycles)), SETTLE_MS[1])
    chips = raw.get("chips", {})
    if "file" in chips:
        kw["chips_file"] = _typed(chips, "file", str, "chips", empty=True)  # "": no chip file


# What udev matches and names (udev's own syntax has no escapes: a quote would end the value).
_USB_ID = re.compile(r"[0-9a-f]{4}")
_USB_SERIAL = re.compile(r"[A-Za-z0-9._-]{1,64}")
_SYMLINK = re.compile(r"[A-Za-z0-9._-]{1,64}")


def _usb_keys(r: Mapping[str, Any], where: str) -> dict[str, str]:
    """A reader's USB adapter keys (serial, vendor, product, symlink), each checked as udev
    will read it; a symlink must be the device the reader's url opens."""
    out: dict[str, str] = {}
    for key, pattern, what in (("serial", _USB_SERIAL, "letters, digits, '.', '_' or '-'"),
                               ("vendor", _USB_ID, "4 lower-case hex digits (idVendor)"),
                               ("product", _USB_ID, "4 lower-case hex digits (idProduct)"),
                               ("symlink", _SYMLINK, "a name under /dev (no '/')")):
        if key in r:
            value = _typed(r, key, str, where)
            if not pattern.fullmatch(value):
                raise ConfigError(f"{where}.{key}: must be {what}, got {value!r}")
            out[key] = value
    if "symlink" in out and r.get("url") != f"/dev/{out['symlink']}":
        raise ConfigError(f"{where}.symlink: udev names the reader /dev/{out['symlink']}, "
                          f"but its url is {r.get('url')!r}")
    return out


def _device_tables(raw: Any, name: str) -> list[tuple[int, str, Mapping[str, Any]]]:
    """The tables of ``[[readers]]`` or ``[[chip_readers]]`` as (index, where, table): an array
    of tables, each with its known keys only and a ``url``."""
    if not isinstance(raw, list):
        raise ConfigError(f"{name}: must be an array of tables ([[{name}]])")
    out = []
    for i, r in enumerate(raw):
        where = f"{name}[{i}]"
        if not isinstance(r, Mapping):
            raise ConfigError(f"{where}: must be a table")
        for key in r:
            if key not in ARRAY_KEYS[name]:
                raise ConfigError(f"{where}.{key}: unknown key (known: "
                                  f"{', '.join(sorted(ARRAY_KEYS[name]))})")
        if "url" not in r:
            raise ConfigError(f"{where}.url: missing")
        out.append((i, where, r))
    return out


def _chip_readers(raw: Any, readers: list[ReaderConfig]) -> tuple[ChipReaderConfig, ...]:
    """The ``[[chip_readers]]`` tables (hardware/chip-protocol.md), each key checked."""
    taken = {r.url: f"readers[{i}]" for i, r in enumerate(readers)}
    ids = {r.id: f"readers[{i}]" for i, r in enumerate(readers)}
    out = []
    for i, where, r in _device_tables(raw, "chip_readers"):
        chip = ChipReaderConfig(
            url=_typed(r, "url", str, where),
            baudrate=_int_in(r, "baudrate", where, 1) if "baudrate" in r else 115200,
            cycle_ms=_int_in(r, "cycle_ms", where, *CHIP_CYCLE_MS) if "cycle_ms" in r else 250,
            kind=_typed(r, "kind", str, where) if "kind" in r else "rfid",
            **_usb_keys(r, where),
            id=_int_in(r, "id", where, 0, 255) if "id" in r else i + 3)
        if chip.id in ids:  # one id, one device: health and zones go by the reader id
            raise ConfigError(f"{where}.id: {chip.id} is also {ids[chip.id]}.id (each reader "
                              f"needs its own: set {where}.id)")
        ids[chip.id] = where
        if chip.kind not in DEVICE_KINDS:
            raise ConfigError(f"{where}.kind: must be one of {', '.join(DEVICE_KINDS)}, "
                              f"got {chip.kind!r}")
        if chip.url in taken:  # each port is opened exclusively, by one driver
            raise ConfigError(f"{where}.url: {chip.url} is also {taken[chip.url]}.url")
        taken[chip.url] = where
        out.append(chip)
    return tuple(out)


def _keys(keys: Mapping[str, Any]) -> KeysConfig:
    """The ``[keys]`` section (keys already known to be ones of ``_SECTIONS``)."""
    kw: dict[str, Any] = {}
    for key in ("enabled", "pull_up"):
        if key in keys:
            kw[key] = _typed(keys, key, bool, "keys")
    if "pin_factory" in keys:
        kw["pin_factory"] = _typed(keys, "pin_factory", str, "keys", empty=True)
        if kw["pin_factory"] not in ("", "mock"):
            raise ConfigError(f"keys.pin_factory: must be \"\" or \"mock\", "
                              f"got {kw['pin_factory']!r}")
    if "bounce_ms" in keys:
        kw["bounce_ms"] = _int_in(keys, "bounce_ms", "keys", *KEY_BOUNCE_MS)
    if "hold_ms" in keys:
        kw["hold_ms"] = _int_in(keys, "hold_ms", "keys", *KEY_HOLD_MS)
    if kw.get("hold_ms", 1000) <= kw.get("bounce_ms", 20):
        raise ConfigError(f"keys.hold_ms: must be longer than keys.bounce_ms "
                          f"({kw.get('bounce_ms', 20)}), got {kw.get('hold_ms', 1000)}")
    pins: dict[str, str | int] = dict(DEFAULT_PINS)
    for name in KEYS:
        if name in keys:
            value = keys[name]
            if isinstance(value, bool) or not isinstance(value, str | int):
                raise ConfigError(f"keys.{name}: must be a pin like \"GPIO17\" or \"\", "
                                  f"got {value!r}")
            pins[name] = value
    from drivers.console_keys import validate_key_pins  # imports gpiozero: only here

    try:
        validate_key_pins(pins)
    except ValueError as exc:
        raise ConfigError(f"keys.{exc}") from None
    return KeysConfig(pins=pins, **kw)


def _check_key_pins(config: Config) -> None:
    """A key on a pin the LEDs drive would read the LED, and the LED short through the key."""
    from drivers.console_keys import validate_key_pins

    led_pins: dict[int, str] = {}
    hint = ""
    if config.leds_enabled and config.led_driver == "shift_register":
        from drivers.shift_register import validate_shift_register

        chain = validate_shift_register(config.led_shift_register)
        for line in ("data", "clock", "latch", "enable"):
            number = getattr(chain, line)
            if number is not None:
                led_pins[number] = f"leds.shift_register.{line}"
    elif config.leds_enabled:
        from drivers.leds import DEFAULT_PIN_MAP_6_SEATS, validate_pin_map

        try:
            wired = validate_pin_map(config.led_pins or DEFAULT_PIN_MAP_6_SEATS)
        except ValueError as exc:
            raise ConfigError(f"leds.pins: {exc}") from None
        if not config.led_pins:
            hint = " (the default 6-seat LED map uses every free pin: hardware/keys.md)"
        for (seat, role), number in wired.items():
            led_pins[number] = f"leds seat {seat} {role}" if seat else f"leds {role}"
    for name, number in validate_key_pins(config.keys.pins).items():
        if number in led_pins:
            raise ConfigError(f"keys.{name}: GPIO{number} is also the LED pin of "
                              f"{led_pins[number]}{hint}")


def _check_game(game: str, structure: str) -> None:
    """An unknown game or structure names its key."""
    problem = game_problem(game, structure)
    if problem is not None:
        raise ConfigError(f"table.{problem[0]}: {problem[1]}")


def _check_events(config: Config) -> None:
    """The table.setup and seat.take events ``feltguard run`` journals from this config must be
    ones the event parser takes back (else the journal would not replay): checked here, by the
    parser's own rules, before anything is journaled."""
    try:
        validate_body(config.table)
    except EventError as exc:
        raise ConfigError(f"table: {exc}") from None
    for i, p in enumerate(config.players):
        try:
            validate_body(SeatTake(seat=p.seat, player=p.name, stack=p.stack))
        except EventError as exc:
            raise ConfigError(f"players[{i}]: {exc}") from None


def load(path: str | Path) -> Config:
    """Read and validate a TOML config file."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read: {exc.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ConfigError(f"{p}: not UTF-8 text (byte 0x{data[exc.start]:02x} on line {line}; "
                          "TOML files are UTF-8)") from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p}: not valid TOML: {exc}") from None
    try:
        return from_mapping(raw)
    except ConfigError as exc:
        raise ConfigError(f"{p}: {exc}") from None
