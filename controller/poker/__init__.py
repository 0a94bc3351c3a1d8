"""Pure poker data, below everything else: cards and the deck registry, games as data
(variants), house rules, pots, and hand strength (``hands``). No table, no events, no I/O."""
