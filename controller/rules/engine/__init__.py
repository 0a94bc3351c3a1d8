"""The hand engine: one hand of any game (``controller.poker.variants``) played by the cardroom
betting rules: the forced bets, the betting and its raise rules, the streets, the draw and the
discards, the showdown and the settlement of the pots.

This ``__init__`` is the wing's face: the procedure monitor (and, through ``controller.rules``,
the PHH replay and the simulated players) imports these names, never the modules below. ``Hand``
is one class composed of one part per concern:

- ``hand.py``: ``Hand`` itself (its slots, the constructor and the forced bets, ``replay``,
  ``copy``, every public query);
- ``stakes.py``: ``Stakes``, ``HouseSettings``, the plan of a variant and the forced-bet layout;
- ``state.py``: ``IllegalAction``, the phases of a street, the hand's attributes, declared once;
- ``cards.py``: dealing, the draw and the Pineapple discards, the card checks;
- ``betting.py``: the betting actions and the raise rules (bounds, caps, reopening, openers);
- ``streets.py``: the street transitions and who opens each round;
- ``showdown.py``: show or muck, the settlement (the uncalled bet, pots, odd chips) and the hand
  strengths.
"""

from controller.rules.engine.hand import Hand, HouseSettings, IllegalAction, Stakes

__all__ = ["Hand", "HouseSettings", "IllegalAction", "Stakes"]
