"""The dealer console keys wired to the daemon: ``feltguard run``'s hardware console.

``build_keys(config, daemon, chosen)`` builds the configured keys (``drivers.console_keys``, the
``[keys]`` section of controller/config.py) and makes each key press one event through the
daemon's one submit path (journal first, then the rules core, then the outputs), exactly as the
typed console does: the body is ``controller.console.keypad.body_for``'s, a refused event is one
``? key: reason`` line and each finding it raises one ``! CODE: message`` line on standard
output. ``misdeal`` and ``undo`` act on a long press only (``keypad.LONG_PRESS``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from controller.config import Config, ConfigError
from controller.console.keypad import LONG_PRESS, Chosen, body_for, nothing_chosen
from controller.events import EventError

if TYPE_CHECKING:
    from controller.daemon.table_daemon import TableDaemon
    from drivers.console_keys import ConsoleKeys

log = logging.getLogger("feltguard.keys")


def build_keys(config: Config, daemon: TableDaemon,
               chosen: Chosen = nothing_chosen) -> ConsoleKeys | None:
    """The configured keys, each submitting its event to ``daemon``; None when ``keys.enabled``
    is false. ``chosen`` gives the card chosen on the touch console (None: the last card drawn).
    A pin gpiozero cannot use is a ConfigError naming the key; the caller closes the keys."""
    keys = config.keys
    if not keys.enabled:
        return None
    from gpiozero.exc import BadPinFactory

    from drivers.console_keys import ConsoleKeys, mock_factory

    def press(key: str) -> None:
        """One key press (gpiozero's thread): one event, its findings printed."""
        try:
            body = body_for(key, chosen())
            step = daemon.submit(body)
        except EventError as exc:
            print(f"? {key}: {exc}", flush=True)
            return
        log.info("key %s: %s", key, body.TYPE)
        for finding in step.findings:
            print(f"! {finding.code}: {finding.message}", flush=True)

    try:
        return ConsoleKeys(
            keys.pins, press, long_press=LONG_PRESS, pull_up=keys.pull_up,
            bounce_s=keys.bounce_ms / 1000 or None, hold_s=keys.hold_ms / 1000,
            pin_factory=mock_factory() if keys.pin_factory == "mock" else None)
    except BadPinFactory as exc:
        raise ConfigError(f"keys.pin_factory: {exc} (set keys.pin_factory = \"mock\" off a "
                          "Pi)") from None
    except ValueError as exc:
        raise ConfigError(f"keys.{exc}") from None
