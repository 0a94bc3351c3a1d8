"""The dealer's inputs as events: console lines typed at a terminal and the console keys."""
