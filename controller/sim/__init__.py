"""The simulated dealer (``controller.sim.dealer``): hands of every game as they physically
happen, with mistakes at a chosen rate and the truth about each one."""

from controller.sim.dealer import MISTAKES, SimDealer
from controller.sim.games import SIM_GAMES, sim_seats
from controller.sim.moves import CardMove, Mistake, expand

__all__ = ["MISTAKES", "SIM_GAMES", "CardMove", "Mistake", "SimDealer", "expand", "sim_seats"]
