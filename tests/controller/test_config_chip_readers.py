"""``[[chip_readers]]`` (hardware/chip-protocol.md): parsed into Config, every bad value named."""

from __future__ import annotations

import pytest

from controller.cli.config_check import summary
from controller.config import ChipReaderConfig, ConfigError, from_mapping, load


def test_chip_readers_are_parsed_with_their_defaults(tmp_path) -> None:
    p = tmp_path / "table.toml"
    p.write_text("""
[[readers]]
url = "/dev/pokershoe"

[[chip_readers]]
url = "/dev/feltchips"

[[chip_readers]]
url = "/dev/chiptray"
kind = "tray"
serial = "FGTRAY01"
product = "6015"
symlink = "chiptray"
baudrate = 9600
cycle_ms = 1000
""")
    config = load(p)
    assert config.chip_readers == (
        ChipReaderConfig("/dev/feltchips", 115200, 250, "rfid", id=3),
        ChipReaderConfig("/dev/chiptray", 9600, 1000, "tray", serial="FGTRAY01",
                         product="6015", symlink="chiptray", id=4),  # 3, 4, ... in file order
    )
    assert from_mapping({}).chip_readers == ()
    lines = "\n".join(summary(config))
    assert "chip readers rfid /dev/feltchips at 115200 baud, a cycle every 250 ms (reader 3)" \
        in lines
    assert "tray /dev/chiptray at 9600 baud, a cycle every 1000 ms (reader 4)" in lines
    assert "chip readers none" in "\n".join(summary(from_mapping({})))


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"chip_readers": {"url": "x"}}, r"^chip_readers: must be an array of tables"),
        ({"chip_readers": ["x"]}, r"^chip_readers\[0\]: must be a table"),
        ({"chip_readers": [{"kind": "rfid"}]}, r"^chip_readers\[0\]\.url: missing"),
        ({"chip_readers": [{"url": ""}]}, r"^chip_readers\[0\]\.url: must not be empty"),
        ({"chip_readers": [{"url": 5}]}, r"^chip_readers\[0\]\.url: must be str"),
        ({"chip_readers": [{"url": "loop://", "baudrate": 0}]},
         r"^chip_readers\[0\]\.baudrate: must be 1\.\."),
        ({"chip_readers": [{"url": "loop://", "cycle_ms": 20}]},
         r"^chip_readers\[0\]\.cycle_ms: must be 50\.\.10000, got 20"),
        ({"chip_readers": [{"url": "loop://", "cycle_ms": 2.5}]},
         r"^chip_readers\[0\]\.cycle_ms: must be int"),
        ({"chip_readers": [{"url": "loop://", "kind": "scale"}]},
         r"^chip_readers\[0\]\.kind: must be one of rfid, tray, got 'scale'"),
        ({"chip_readers": [{"url": "loop://", "ident": 3}]},
         r"^chip_readers\[0\]\.ident: unknown key \(known: baudrate, cycle_ms, id, kind, "
         r"product, serial, symlink, url, vendor\)"),
        ({"chip_readers": [{"url": "loop://", "id": 256}]},
         r"^chip_readers\[0\]\.id: must be 0\.\.255, got 256"),
        ({"chip_readers": [{"url": "/dev/x", "serial": 'A"B'}]},
         r"^chip_readers\[0\]\.serial: must be letters, digits"),
        ({"chip_readers": [{"url": "/dev/ttyUSB1", "symlink": "feltchips"}]},
         r"^chip_readers\[0\]\.symlink: udev names the reader /dev/feltchips, but its url is"),
        # one id, one device, across card and chip readers
        ({"readers": [{"url": "/dev/a"}, {"url": "/dev/b"}, {"url": "/dev/c"}],
          "chip_readers": [{"url": "/dev/d"}]},
         r"^chip_readers\[0\]\.id: 3 is also readers\[2\]\.id \(each reader needs its own: "
         r"set chip_readers\[0\]\.id\)"),
        ({"readers": [{"url": "/dev/a", "id": 5}], "chip_readers": [{"url": "/dev/d", "id": 5}]},
         r"^chip_readers\[0\]\.id: 5 is also readers\[0\]\.id"),
        ({"chip_readers": [{"url": "/dev/d", "id": 4}, {"url": "/dev/e"}]},
         r"^chip_readers\[1\]\.id: 4 is also chip_readers\[0\]\.id"),
        ({"chip_readers": [{"url": "/dev/a"}, {"url": "/dev/a"}]},
         r"^chip_readers\[1\]\.url: /dev/a is also chip_readers\[0\]\.url"),
        ({"readers": [{"url": "/dev/a"}], "chip_readers": [{"url": "/dev/a"}]},
         r"^chip_readers\[0\]\.url: /dev/a is also readers\[0\]\.url"),
    ],
)
def test_a_bad_chip_reader_names_its_key(raw: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        from_mapping(raw)
