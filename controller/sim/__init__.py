"""The simulated dealer (``controller.sim.dealer``): hands as they physically happen, with
mistakes at a chosen rate and the truth about each one."""

from controller.sim.dealer import MISTAKES, CardMove, Mistake, SimDealer, expand
from controller.sim.games_dealer import GameDealer

__all__ = ["MISTAKES", "CardMove", "GameDealer", "Mistake", "SimDealer", "expand"]
