"""Fixtures for the reader firmware's tests (hardware/firmware/): its host-built C unit tests,
the avr-gcc image and the simulator harness, each built once per session into a tmp dir.

When a tool is missing the tests that need it skip with a one-line reason; ``make tools``
installs the Debian packages (gcc-avr, avr-libc, binutils-avr, simavr, libsimavr-dev,
libelf-dev) when run as root.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import REPO

FIRMWARE = REPO / "hardware" / "firmware"
CORE_TESTS = ("test_proto", "test_policy", "test_iso", "test_pn5180", "test_app")
CFLAGS = ("-std=c99", "-Wall", "-Wextra", "-Werror", "-O1", "-g")


def _need(tool: str) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} not installed (make tools installs it as root)")


@pytest.fixture(scope="session")
def core_tests(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each host unit test program, built with the system gcc from the portable core."""
    _need("gcc")
    out = tmp_path_factory.mktemp("firmware-core")
    sources = sorted(str(p) for p in (FIRMWARE / "core").glob("*.c"))
    model = str(FIRMWARE / "sim" / "pn5180_model.c")
    built = {}
    for name in CORE_TESTS:
        exe = out / name
        proc = subprocess.run(["gcc", *CFLAGS, "-o", str(exe),
                               str(FIRMWARE / "test" / f"{name}.c"), *sources, model],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr[-3000:]
        built[name] = exe
    return built


@pytest.fixture(scope="session")
def firmware_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``make -C hardware/firmware`` into a tmp dir: firmware.elf and firmware.hex."""
    for tool in ("avr-gcc", "avr-objcopy", "avr-size", "make"):
        _need(tool)
    out = tmp_path_factory.mktemp("firmware-avr")
    proc = subprocess.run(["make", "-s", "-C", str(FIRMWARE), f"BUILD={out}", "all"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    return out


@pytest.fixture(scope="session")
def sim_build(firmware_build: Path) -> Path:
    """The simulator harness (``make -C hardware/firmware sim``), beside the image; returns
    the build dir (firmware.elf and feltguard-reader-sim)."""
    for header in ("/usr/include/simavr/sim_avr.h", "/usr/include/libelf.h"):
        if not Path(header).exists():
            pytest.skip(f"{header} missing (libsimavr-dev / libelf-dev: make tools installs it)")
    proc = subprocess.run(["make", "-s", "-C", str(FIRMWARE), f"BUILD={firmware_build}", "sim"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    return firmware_build
