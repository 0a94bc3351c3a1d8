"""Whether gpiozero can drive pins on this machine with a given pin factory, asked before the
table starts: ``feltguard config check`` and ``feltguard run`` refuse a config whose LEDs or keys
would fail, naming the setting, before anything is written (off a Pi, gpiozero's default chain
falls back four times and then raises).

The probe makes the factory and closes it again; it claims no pin, so it may run beside a
daemon that holds the pins."""

from __future__ import annotations

import os
import warnings
from typing import Any


def pin_factory_problem(name: str) -> str | None:
    """Why gpiozero gives no pins here with factory ``name`` ("": its default chain, or
    ``$GPIOZERO_PIN_FACTORY`` as at run time; "mock": the twin, always there), or None."""
    if name == "mock":
        return None
    from gpiozero import Device

    saved = os.environ.get("GPIOZERO_PIN_FACTORY")
    if name:
        os.environ["GPIOZERO_PIN_FACTORY"] = name  # as ``feltguard run`` sets it
    factory: Any = None
    try:
        with warnings.catch_warnings(record=True) as fallbacks:
            warnings.simplefilter("always")
            try:
                factory = Device._default_pin_factory()
            except Exception as exc:  # BadPinFactory, ImportError, OSError: all say "no pins"
                tried = "; ".join(str(w.message) for w in fallbacks
                                  if "Falling back" in str(w.message))
                return f"{exc}" + (f" ({tried})" if tried else "")
    finally:
        if name:
            if saved is None:
                os.environ.pop("GPIOZERO_PIN_FACTORY", None)
            else:
                os.environ["GPIOZERO_PIN_FACTORY"] = saved
        if factory is not None:
            factory.close()
    return None
