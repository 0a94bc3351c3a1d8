"""The simulated dealer (``controller.sim.dealer``): hands as they physically happen, with
mistakes at a chosen rate and the truth about each one."""

from controller.sim.dealer import MISTAKES, CardMove, Mistake, SimDealer, expand

__all__ = ["MISTAKES", "CardMove", "Mistake", "SimDealer", "expand"]
