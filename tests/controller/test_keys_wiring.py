"""hardware/keys.md's pin table is the config's default key pins, on the header pins gpiozero's
board data gives them."""

from __future__ import annotations

import re
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from controller.console.keypad import DEFAULT_PINS, LONG_PRESS

WIRING_DOC = Path(__file__).resolve().parents[2] / "hardware" / "keys.md"


def test_the_wiring_table_is_the_default_pin_map() -> None:
    doc = WIRING_DOC.read_text(encoding="utf-8")
    rows = re.findall(r"^\|\s*([a-z_]+)\s*\|\s*GPIO(\d+)\s*\|\s*(\d+)\s*\|\s*([a-z ]+?)\s*\|",
                      doc, re.M)
    assert {key: f"GPIO{bcm}" for key, bcm, _, _ in rows} == DEFAULT_PINS
    assert {key for key, _, _, acts in rows if acts == "long press"} == LONG_PRESS
    factory = MockFactory()
    try:
        header = factory.board_info.headers["J8"].pins
        for key, bcm, physical, _ in rows:
            assert f"GPIO{bcm}" in header[int(physical)].names, key
        grounds = re.search(r"Ground: header pins ([\d, and]+)", doc)
        assert grounds is not None
        for pin in re.findall(r"\d+", grounds.group(1)):
            assert "GND" in header[int(pin)].names, pin
    finally:
        factory.close()
