"""The games the simulated table deals, the table sizes it deals each at, and its stakes.

Every game of ``controller/poker/variants.py`` and both mixed games (``ROTATIONS``: HORSE and
dealer's choice). A table seats from two players up to the fewest of: the game's most players
(``Variant.max_players``), the ten seats of a table, and what its deck holds:

- board games: every starting hand, the five board cards and three burns, with four cards to
  spare for the dealer's mistakes (an extra card, a fourth flop card, a replacement);
- stud: seven cards to each player and four burns, so that seventh street never runs short
  (RR Section 8 r.15, the common card, is the monitor's STUD_INSUFFICIENT_CARDS, not a clean
  hand's);
- draw games: every starting hand and a burn (the draws take what the stub holds: a player
  draws fewer cards rather than the deck running out);
- a mixed game: the smallest of its games.
"""

from __future__ import annotations

from controller.poker.variants import GAME_IDS, ROTATIONS, VARIANTS, Variant, family
from controller.sim.moves import NAMES

SIM_GAMES: tuple[str, ...] = GAME_IDS
"""Every game ``feltguard sim --game`` deals: each variant, then the mixed games."""

STRUCTURE_CHOICES: tuple[str, ...] = ("limit", "pot-limit", "no-limit", "spread")

_BOARD_SPARE = 4  # cards a board mistake may take beyond a clean hand's


def games_of(game: str) -> tuple[Variant, ...]:
    """The variants a table of ``game`` deals (a mixed game: each game of its rotation)."""
    rot = ROTATIONS.get(game)
    if rot is None:
        return (VARIANTS[game],)
    return tuple(VARIANTS[vid].with_structure(structure) for vid, structure in rot.games)


def _most_players(v: Variant) -> int:
    cards = sum(1 for c in v.deck_cards if c != "Xx")
    fam = family(v)
    starting = len(v.streets[0].hole)
    if fam == "board":
        fits = (cards - v.board_cards - 3 - _BOARD_SPARE) // starting
    elif fam == "stud":
        burns = sum(st.burn for st in v.streets)
        fits = (cards - burns) // v.hole_cards
    else:
        fits = (len(v.deck_cards) - 1) // starting
    return min(v.max_players, len(NAMES), fits)


def sim_seats(game: str) -> tuple[int, int]:
    """The table sizes (fewest, most) the simulated dealer deals ``game`` at."""
    if game not in SIM_GAMES:
        raise ValueError(f"unknown game {game!r}; one of {', '.join(SIM_GAMES)}")
    return 2, min(_most_players(v) for v in games_of(game))


def uses_antes(game: str) -> bool:
    """Does the table ante (stud; draw high; a mixed game, for its stud and draw-high hands)?"""
    return any(v.forced in ("antes_bring_in", "antes") for v in games_of(game))


def deck_cards(game: str) -> tuple[str, ...]:
    """The cards of the table's deck, the joker left out (it is registered as its own tag):
    a mixed game's deck holds every card any of its games deals."""
    seen: dict[str, None] = {}
    for v in games_of(game):
        for c in v.deck_cards:
            if c != "Xx":
                seen.setdefault(c, None)
    return tuple(seen)
