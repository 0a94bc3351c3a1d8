"""The dealer console keys as table events: which key makes which event body.

Pure: no pins, no threads. The hardware keys (``drivers.console_keys``) call back with a key's
name; ``body_for`` reads the key's console line with the typed console's own parser
(``controller.console.lines``), so a key press is the same event as its line, journaled, replayed
and judged like any other input (docs/events.md, Dealer console
keys):

    new_hand      hand.start (the plan's button)          hand
    shuffle_done  shuffle.done                            shuffle
    exposed       card.exposed by the dealer              exposed CARD|last
    boxed         card.boxed                              boxed CARD|last
    attention     attention.called by the dealer          attention
    misdeal       misdeal.declared      (long press)      misdeal
    undo          undo                  (long press)      undo
    award         hand.end (award the pots)               end

``exposed`` and ``boxed`` name the card chosen on the touch console when one is chosen, else
"the last card drawn" (``last``), which the rules core resolves through the deck registry.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from controller.console.lines import parse_command
from controller.events import LAST_CARD, Body

KEYS: tuple[str, ...] = ("new_hand", "shuffle_done", "exposed", "boxed", "attention",
                         "misdeal", "undo", "award")
"""Every key of the dealer's console, in the order of the config and the wiring table."""

LONG_PRESS: frozenset[str] = frozenset({"misdeal", "undo"})
"""The destructive keys: they act only when held (``keys.hold_ms``), so a key brushed while
dealing voids no hand and reverts no event."""

DEFAULT_PINS: dict[str, str] = {
    "new_hand": "GPIO5", "shuffle_done": "GPIO6", "exposed": "GPIO13", "boxed": "GPIO19",
    "attention": "GPIO26", "misdeal": "GPIO16", "undo": "GPIO20", "award": "GPIO21",
}
"""BCM pins of the keys when the config names none (hardware/keys.md): clear of the 10-seat
LED chain's SPI0 pins, of I2C (GPIO2/3, fixed pull-ups) and of the UART (GPIO14/15)."""

Chosen = Callable[[], str | None]
"""Where the card keys learn the card chosen on the touch console (None: nothing chosen)."""


class ChosenCard:
    """The card chosen on the touch console, shared with the keys: the console's ``on_choose``
    sets it (from a Socket.IO thread), a card key reads it (from gpiozero's)."""

    def __init__(self) -> None:
        self._card: str | None = None
        self._lock = threading.Lock()

    def set(self, card: str | None) -> None:
        with self._lock:
            self._card = card

    def __call__(self) -> str | None:
        with self._lock:
            return self._card


def nothing_chosen() -> str | None:
    """The default chooser: no card chosen, the card keys act on the last card drawn."""
    return None


# The console line each key stands for: a key press is that line, read by the typed console's
# own parser (controller/console/lines.py), so keys and lines can never mean different events.
KEY_LINES: dict[str, str] = {
    "new_hand": "hand", "shuffle_done": "shuffle", "exposed": "exposed {card}",
    "boxed": "boxed {card}", "attention": "attention", "misdeal": "misdeal", "undo": "undo",
    "award": "end",
}


def body_for(key: str, chosen: str | None = None) -> Body:
    """The event body key ``key`` makes; ``chosen`` is the card chosen on the touch console
    (``"As"``), if any: the card keys act on it, else on the last card drawn. An unknown key
    is a ValueError naming it; a chosen card that is no card, the console's EventError."""
    line = KEY_LINES.get(key)
    if line is None:
        raise ValueError(f"unknown key {key!r} (known: {', '.join(KEYS)})")
    return parse_command(line.format(card=chosen or LAST_CARD))
