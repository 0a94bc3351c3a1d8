"""Chips in the rules core: the zones' settled chips, betting read from them, the pot's chips
and the ledger between hands."""
