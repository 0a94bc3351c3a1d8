"""``feltguard udev-rules --config FILE``: the udev rules that name every configured reader.

One rule per ``[[readers]]`` entry and per ``[[chip_readers]]`` entry with a ``serial`` (a chip
device without one gets none), matched by its USB adapter's vendor, product and serial number
(two identical adapters differ only in their serial; research/ecosystem.md §5.3), giving it
the stable name its ``url`` opens (``/dev/SYMLINK``), the ``dialout`` group the service user is
in, the systemd device tag, and ModemManager's hands off (it would probe a new serial port).
One more rule lowers every FTDI adapter's latency timer from 16 ms to 1 ms, so a card frame
reaches the daemon in about a millisecond (DESIGN.md, "Durability and latency"). The values
come from ``udevadm info -a -n /dev/ttyUSB0 | grep -E 'idVendor|idProduct|serial'``.
``hardware/99-feltguard.rules`` is this command's output for the example in its header
(tests/test_udev.py holds it to that).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from controller.config import ChipReaderConfig, Config, ConfigError, ReaderConfig, load

HEADER = """\
# udev rules for the Feltguard readers, written by `feltguard udev-rules --config {config}`
# from its [[readers]] and [[chip_readers]] entries (serial, vendor, product, symlink; a chip
# reader without a serial gets no rule). Each reader's USB serial adapter gets the stable name
# its url opens, the dialout group and the systemd device tag; ModemManager leaves it alone.
# The last rule lowers every FTDI adapter's latency timer from 16 ms to 1 ms (DESIGN.md,
# Durability and latency).
# Install: feltguard udev-rules --config {config} | sudo tee /etc/udev/rules.d/99-feltguard.rules
#          sudo udevadm control --reload && sudo udevadm trigger
"""

LATENCY_RULE = ('ACTION=="add", SUBSYSTEM=="usb-serial", DRIVER=="ftdi_sio", '
                'ATTR{latency_timer}="1"')


def rules(config: Config, config_name: str) -> str:
    """The rules file for ``config``; ConfigError naming the reader key that is missing."""
    devices: list[tuple[str, ReaderConfig | ChipReaderConfig]] = [
        (f"readers[{i}]", r) for i, r in enumerate(config.readers)]
    devices += [(f"chip_readers[{i}]", c) for i, c in enumerate(config.chip_readers) if c.serial]
    if not devices:
        raise ConfigError("readers: no [[readers]] entry, nor a [[chip_readers]] entry with a "
                          "serial, to write a rule for")
    lines = [HEADER.format(config=config_name).rstrip("\n")]
    for where, r in devices:
        for key in ("serial", "symlink"):
            if not getattr(r, key):
                raise ConfigError(f"{where}.{key}: missing (udev-rules needs the adapter's "
                                  "serial number and the name to give it)")
        lines.append(f"# {where}: {r.url}")
        lines.append(
            f'SUBSYSTEM=="tty", ATTRS{{idVendor}}=="{r.vendor}", '
            f'ATTRS{{idProduct}}=="{r.product}", ATTRS{{serial}}=="{r.serial}", '
            f'SYMLINK+="{r.symlink}", GROUP="dialout", MODE="0660", TAG+="systemd", '
            'ENV{ID_MM_DEVICE_IGNORE}="1"')
    lines.append(LATENCY_RULE)
    return "\n".join(lines) + "\n"


def cmd_udev_rules(args: argparse.Namespace) -> int:
    try:
        config = load(args.config)  # its errors name the file already
        text = rules(config, args.config)
    except ConfigError as exc:
        where = "" if str(exc).startswith(args.config) else f"{args.config}: "
        print(f"feltguard udev-rules: {where}{exc}".replace("\n", "\\n"), file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


def add_udev_parser(sub: Any) -> None:
    """``feltguard udev-rules`` on the command line's subparsers."""
    p = sub.add_parser("udev-rules", help="print udev rules naming every configured reader by "
                       "its USB serial number (at install)")
    p.add_argument("--config", required=True, help="table configuration (TOML)")
    p.set_defaults(func=cmd_udev_rules)
