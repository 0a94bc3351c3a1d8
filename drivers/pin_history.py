"""A bound on the state history gpiozero's mock pins record.

``MockPin`` appends a ``PinState`` to its ``states`` list on every change and never drops one,
so on a simulated table (``feltguard sim``, ``feltguard run`` with ``pin_factory = "mock"``)
the LED pins grew by about 9 KB per hand: the activity light toggles with every card, and the
shift-register clock pin changes 176 times a frame. A table runs for weeks.

The LED drivers call ``trim_history(pin)`` just before writing a pin, so a pin keeps its last
``PIN_HISTORY`` changes plus whatever the current ``show`` writes: a test that reads a pin's
history after a ``show`` still sees that ``show`` whole, and the history stays a list, so
``assert_states`` and ``clear_states`` work as before. Real pins have no ``states``: a no-op.
"""

from __future__ import annotations

__all__ = ["PIN_HISTORY", "trim_history"]

PIN_HISTORY = 32
"""Changes a mock pin keeps before the write in progress (tests look at a handful)."""


def trim_history(pin: object, keep: int = PIN_HISTORY) -> None:
    """Drop all but the last ``keep`` recorded states of a gpiozero mock pin, in place."""
    states = getattr(pin, "states", None)
    if isinstance(states, list) and len(states) > keep:
        del states[: len(states) - keep]
