"""The touch console's inputs into the daemon: one event body as JSON in, the daemon's answer out.

The display server (display/console_inputs.py) decides who may send what; this is the shell's
side, the one submit path: the body is parsed and validated exactly as the journal will read it
back (``controller.events.parse_event``), then ``TableDaemon.submit`` journals it first and
applies it. A body the vocabulary refuses is never journaled, and its EventError's one line is
the answer the page shows; the findings the event raised come back with it (an action out of
turn is journaled and refused by the rules core as OOT_ACTION, which says so).
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable
from typing import Any

from controller.daemon.table_daemon import TableDaemon
from controller.events import EventError, parse_event
from controller.journal import JournalError

__all__ = ["ConsoleLink", "console_submit"]

log = logging.getLogger("feltguard.console")


class ConsoleLink:
    """The submit callback for a server built before its table (``feltguard run`` makes the
    live view first, then opens the table with the publisher as an output): inputs that come
    before ``daemon`` is set are refused, "the table is not open yet"."""

    def __init__(self) -> None:
        self.daemon: TableDaemon | None = None

    def submit(self, body_json: str) -> tuple[bool, str, list[dict[str, Any]]]:
        daemon = self.daemon
        if daemon is None:
            return False, "the table is not open yet", []
        return console_submit(daemon)(body_json)


def console_submit(daemon: TableDaemon) -> Callable[[str], tuple[bool, str, list[dict[str, Any]]]]:
    """``submit(body_json) -> (ok, reason, findings)`` for ``display.server.create_app``."""

    def submit(body_json: str) -> tuple[bool, str, list[dict[str, Any]]]:
        try:
            obj = json.loads(body_json)
            if isinstance(obj, dict) and ("seq" in obj or "ts" in obj):
                raise EventError("the daemon numbers and stamps events; send no seq or ts")
            step = daemon.submit(parse_event(obj).body)
        except ValueError as exc:  # EventError, and JSON that does not decode
            return False, str(exc).splitlines()[0] if str(exc) else "refused", []
        except (JournalError, sqlite3.Error) as exc:  # not applied: the page must know it
            log.error("a console input was not journaled: %s", exc)
            return False, f"not recorded: {exc}".splitlines()[0], []
        return True, "", [{"code": f.code, "severity": f.severity, "title": f.title,
                           "message": f.message} for f in step.findings]

    return submit
