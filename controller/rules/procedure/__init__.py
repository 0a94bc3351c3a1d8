"""The procedure monitor: every game's dealing procedure card by card, on the hand engine, with
the remedies a finding calls for."""
