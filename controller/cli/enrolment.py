"""What ``feltguard deck`` and ``feltguard chips`` share to enrol tags through a reader: the
reader opened (or one line saying why not), the reader's and the output file's options, and
the id a deck or chip set is enrolled under."""

from __future__ import annotations

import argparse
import logging
import os
import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from controller.cli.common import text, whole, writable_problem
from controller.config import ConfigError

T = TypeVar("T")

# A reader that does not open within this long is an error, not a silent empty pass.
CONNECT_S = 5.0


class PassError(Exception):
    """The reader could not be read: one line naming its URL."""


class OutputError(Exception):
    """The file an enrolment adds to cannot be written, or what it holds cannot be read: one
    line naming it."""


def read_output(path: str, load: Callable[..., T]) -> T | None:
    """What the enrolment's output file holds now (``load(path, label="-o")``), or None when it
    does not exist yet; OutputError, before any reader is opened, when it could not be written
    or does not load."""
    problem = writable_problem(path)
    if problem:
        raise OutputError(f"{path}: {problem}")
    if not os.path.exists(path):
        return None
    try:
        return load(path, label="-o")
    except ConfigError as exc:
        raise OutputError(str(exc)) from None


class _Stats(Protocol):
    last_error: str | None


class Reader(Protocol):
    """What enrolment uses of a driver (``CardReader``, ``ChipReader``)."""

    @property
    def connected(self) -> Any: ...  # a threading.Event

    @property
    def stats(self) -> _Stats: ...


def await_open(reader: Reader, url: str, connect_s: float = CONNECT_S) -> None:
    """Wait until the started ``reader`` is open; PassError at its first failure to open (the
    first is enough to say so) or after ``connect_s`` seconds with no answer."""
    opened = time.monotonic() + connect_s
    while not reader.connected.wait(0.02):
        error = reader.stats.last_error
        if error or time.monotonic() > opened:
            raise PassError(f"{url}: cannot open the reader: {error or 'no answer'}")


def check_still_open(reader: Reader, url: str, during: str) -> None:
    """PassError if the reader went away ``during`` the pass or the enrolment."""
    if not reader.connected.is_set():
        raise PassError(f"{url}: the reader went away during the {during}: "
                        f"{reader.stats.last_error or 'disconnected'}")


def quiet_driver(args: argparse.Namespace, logger: str) -> None:
    """The driver's own log lines (connected, retrying) are for the daemon's journal; at the
    terminal the command says what happened, in one line on an error (``-v`` shows them)."""
    if not getattr(args, "verbose", False):
        logging.getLogger(logger).setLevel(logging.ERROR)


def deck_id(text: str) -> str:
    """An argparse type: a deck or chip-set id as the registry and the console's ``deck ID``
    take it."""
    from controller.tags.deckfile import DECK_ID_RE

    if not DECK_ID_RE.fullmatch(text):
        raise argparse.ArgumentTypeError(f"must be one word of letters, digits, '_', '.' or '-' "
                                         f"(at most 32), got {text!r}")
    return text


def add_reader_options(p: argparse.ArgumentParser, reader_help: str) -> None:
    """``--reader URL`` and ``--baudrate B``: the reader enrolled through."""
    p.add_argument("--reader", required=True, metavar="URL",
                   type=text("a device or pyserial URL"), help=reader_help)
    p.add_argument("--baudrate", type=whole(1), default=115200, metavar="B",
                   help="default 115200")


def add_output_option(p: argparse.ArgumentParser, what: str) -> None:
    """``-o FILE``: the file the enrolment is added to."""
    p.add_argument("-o", "--output", required=True, type=text("a file"), metavar="FILE",
                   help=f"the {what} (JSON), created or added to")
