"""The simulated dealer (``controller.sim.dealer``): hands of every game as they physically
happen, with mistakes at a chosen rate and the truth about each one.

The names below are loaded at their first use (PEP 562): ``feltguard``'s parser reads the
games list from ``controller.sim.games`` at every start, ``feltguard run`` included, and the
dealer itself is only for ``sim`` and the benches.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (for the type checker: the same names, loaded eagerly)
    from controller.sim.dealer import MISTAKES, SimDealer
    from controller.sim.games import SIM_GAMES, sim_seats
    from controller.sim.moves import CardMove, Mistake, expand

__all__ = ["MISTAKES", "SIM_GAMES", "CardMove", "Mistake", "SimDealer", "expand", "sim_seats"]

_WHERE = {"MISTAKES": "dealer", "SimDealer": "dealer", "SIM_GAMES": "games",
          "sim_seats": "games", "CardMove": "moves", "Mistake": "moves", "expand": "moves"}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"controller.sim.{module}"), name)
