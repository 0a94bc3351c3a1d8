"""The deck file of ``feltguard run`` (``[deck] file = ...``): a JSON object of tag uid -> card.

Read once at start-up and turned into the ``deck.register`` event the daemon journals.
"""

from __future__ import annotations

import json
from pathlib import Path

from controller.config import ConfigError
from controller.events import DeckRegister


def load_deck(path: str) -> DeckRegister:
    try:
        tags = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"deck.file: cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(f"deck.file: {path} is not valid JSON: {exc.msg}") from None
    if not isinstance(tags, dict):
        raise ConfigError(f"deck.file: {path} must hold an object of uid -> card")
    return DeckRegister(deck=Path(path).stem, tags=tags)
