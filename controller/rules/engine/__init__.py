"""The hand engine: one hand of any game played by the cardroom betting rules (stakes, state,
cards, betting, streets, showdown)."""
