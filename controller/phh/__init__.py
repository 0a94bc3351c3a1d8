"""PHH (Poker Hand History) in and out: read and write ``.phh``/``.phhs`` files, replay them
through the rules engine, and export the hands the live table played (docs/phh.md)."""

from controller.phh.notation import HandHistory, PhhAction, PhhError, format_action, parse_action
from controller.phh.reader import load, load_all, loads, loads_all, read_file, read_text

__all__ = [
    "HandHistory",
    "PhhAction",
    "PhhError",
    "format_action",
    "load",
    "load_all",
    "loads",
    "loads_all",
    "parse_action",
    "read_file",
    "read_text",
]
