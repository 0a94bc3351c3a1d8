"""``feltguard udev-rules``: one rule per configured reader (card readers, and chip readers with
a serial), by its USB serial number; the shipped hardware/99-feltguard.rules is the command's
output for the example below."""

from __future__ import annotations

import subprocess
import sys

import pytest

from controller.cli.udev import rules
from controller.config import ConfigError, from_mapping, load
from tests.conftest import REPO

# The table of hardware/INSTALL.md: the shoe and the felt antennas, each on its own FTDI adapter.
EXAMPLE = """
[[readers]]
url = "/dev/pokershoe"
serial = "FGSHOE01"
symlink = "pokershoe"

[[readers]]
url = "/dev/feltreader"
serial = "FGFELT01"
vendor = "0403"
product = "6015"
symlink = "feltreader"

[[chip_readers]]
url = "/dev/feltchips"
serial = "FGCHIP01"
symlink = "feltchips"

[[chip_readers]]
url = "/dev/ttyACM0"
kind = "tray"
"""


def test_the_shipped_rules_are_the_generated_ones(tmp_path):
    (tmp_path / "table.toml").write_text(EXAMPLE)
    text = rules(load(tmp_path / "table.toml"), "/etc/feltguard/table.toml")
    assert (REPO / "hardware" / "99-feltguard.rules").read_text() == text
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    # a rule per card reader, one for the chip reader with a serial (the tray has none), and
    # the FTDI latency timer
    assert len(lines) == 4
    assert 'ATTRS{serial}=="FGSHOE01", SYMLINK+="pokershoe"' in lines[0]
    assert 'ATTRS{idProduct}=="6015", ATTRS{serial}=="FGFELT01", SYMLINK+="feltreader"' \
        in lines[1]
    assert 'ATTRS{idProduct}=="6001", ATTRS{serial}=="FGCHIP01", SYMLINK+="feltchips"' \
        in lines[2]
    assert all('GROUP="dialout", MODE="0660"' in line for line in lines[:3])
    assert 'ATTR{latency_timer}="1"' in lines[3]
    assert "# chip_readers[0]: /dev/feltchips" in text and "ttyACM0" not in text


def test_the_command_prints_the_rules_and_names_a_missing_key(tmp_path):
    config = tmp_path / "table.toml"
    config.write_text(EXAMPLE)
    cmd = [sys.executable, "-m", "controller.cli", "udev-rules", "--config", str(config)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == rules(load(config), str(config))
    config.write_text('[[readers]]\nurl = "/dev/pokershoe"\nsymlink = "pokershoe"\n')
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=REPO)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (f"feltguard udev-rules: {config}: readers[0].serial: missing "
                           "(udev-rules needs the adapter's serial number and the name to give "
                           "it)\n")


@pytest.mark.parametrize("reader, message", [
    ({"url": "/dev/x", "serial": 'A"B'}, r"readers\[0\].serial: must be letters, digits"),
    ({"url": "/dev/x", "vendor": "403"}, r"readers\[0\].vendor: must be 4 lower-case hex"),
    ({"url": "/dev/x", "product": "60O1"}, r"readers\[0\].product: must be 4 lower-case hex"),
    ({"url": "/dev/x", "symlink": "a/b"}, r"readers\[0\].symlink: must be a name under /dev"),
    ({"url": "/dev/ttyUSB0", "symlink": "pokershoe"},
     r"readers\[0\].symlink: udev names the reader /dev/pokershoe, but its url is '/dev/ttyUSB0'"),
    ({"url": "/dev/x", "serial": 7}, r"readers\[0\].serial: must be str"),
])
def test_bad_usb_keys_name_the_key(reader, message):
    with pytest.raises(ConfigError, match=message):
        from_mapping({"readers": [reader]})


def test_no_readers_no_rules():
    with pytest.raises(ConfigError, match="readers: no"):
        rules(from_mapping({}), "table.toml")


def test_chip_readers_only_and_a_chip_reader_missing_its_symlink(tmp_path):
    config = from_mapping({"chip_readers": [{"url": "/dev/chiptray", "kind": "tray",
                                             "serial": "FGTRAY01", "product": "6015",
                                             "symlink": "chiptray"}]})
    text = rules(config, "table.toml")
    assert next(line for line in text.splitlines() if not line.startswith("#")) == (
        'SUBSYSTEM=="tty", ATTRS{idVendor}=="0403", ATTRS{idProduct}=="6015", '
        'ATTRS{serial}=="FGTRAY01", SYMLINK+="chiptray", GROUP="dialout", MODE="0660", '
        'TAG+="systemd", ENV{ID_MM_DEVICE_IGNORE}="1"')
    with pytest.raises(ConfigError, match=r"^chip_readers\[0\]\.symlink: missing \(udev-rules"):
        rules(from_mapping({"chip_readers": [{"url": "/dev/x", "serial": "FGCHIP01"}]}),
              "table.toml")
    # a chip reader without a serial is no device to write a rule for
    with pytest.raises(ConfigError, match=r"^readers: no \[\[readers\]\] entry, nor a"):
        rules(from_mapping({"chip_readers": [{"url": "/dev/x"}]}), "table.toml")
