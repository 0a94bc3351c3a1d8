"""The AVR image: ``make -C hardware/firmware`` builds firmware.elf and firmware.hex with
avr-gcc -mmcu=atmega1284p -Os, and ``avr-size`` puts it under the part's limits with a stated
margin.

The margins (hardware/firmware/README.md, "Size"): the program (.text + .data) uses at most
half of the 128 KiB flash; the static data (.data + .bss: the 3 KiB frame queue, the tag table,
an antenna's 128-uid inventory) plus a 2 KiB stack allowance uses at most three quarters of the
16 KiB SRAM. The deepest call chain (fg_scan -> fg_iso_inventory -> the PN5180 layer -> the
heartbeat from inside a wait, plus an interrupt) needs under 1 KiB by avr-gcc -fstack-usage,
so the allowance is twice that.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

FLASH = 128 * 1024
SRAM = 16 * 1024
STACK_ALLOWANCE = 2048


def _avr_size(elf: Path) -> tuple[int, int]:
    proc = subprocess.run(["avr-size", "-C", "--mcu=atmega1284p", str(elf)],
                          capture_output=True, text=True, check=True)
    print(proc.stdout)
    program = re.search(r"Program:\s+(\d+) bytes", proc.stdout)
    data = re.search(r"Data:\s+(\d+) bytes", proc.stdout)
    assert program and data, proc.stdout
    return int(program.group(1)), int(data.group(1))


def test_the_image_fits_the_atmega1284p_with_margin(firmware_build: Path) -> None:
    elf = firmware_build / "firmware.elf"
    hexfile = firmware_build / "firmware.hex"
    assert elf.stat().st_size > 0 and hexfile.read_text().startswith(":")
    program, data = _avr_size(elf)
    assert 2000 < program <= FLASH // 2, f"program {program} bytes of {FLASH}"
    assert data > 1000 and data + STACK_ALLOWANCE <= SRAM * 3 // 4, \
        f"data {data} + stack {STACK_ALLOWANCE} bytes of {SRAM}"
    # the image is for this part: avr-gcc's device note in the ELF names it
    assert b"atmega1284p" in elf.read_bytes()
