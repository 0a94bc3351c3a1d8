"""Mixed games at the live table: which game each hand is dealt at.

A table is set up for one game (a variant of ``variants.py`` at a structure) or for a mixed game
(``variants.ROTATIONS``):

- HORSE, a fixed rotation (JPN HORSE: hold'em, Omaha high-low, razz, stud, stud high-low, all at
  limit). The books do not say when the game changes. Cardrooms change it after an orbit: as
  many hands as there are players (``Rotation.interval`` "orbit"; games-and-rankings.md §6
  gap 6, NOT IN THE RULEBOOKS). The orbit is counted in completed hands (a misdeal's redeal is
  the same hand) and sized by the players dealt into the first hand of that game's round. The
  stud games have no button (RR Section 8 r.2): the button waits where the last flop game left
  it and moves on with the next one.
- Dealer's choice (JPN Dealer's Choice: "the game is chosen from a predetermined list"): the
  dealer names the game before each hand (``game.choose``); a hand started without a choice is
  refused, so no hand is ever dealt at a game nobody named. A misdeal's redeal keeps the game.

Pure: ``Mix`` is frozen; each function returns a new one.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.poker.records import replace
from controller.poker.variants import ROTATIONS, Variant, table_game


@dataclass(frozen=True)
class Mix:
    """Where a mixed game stands. ``rotation`` "" is a single-game table."""

    rotation: str = ""
    index: int = 0  # HORSE: the rotation's game now
    played: int = 0  # HORSE: hands of it completed in this round
    orbit: int = 0  # HORSE: hands in this round (0: sized at its first hand)
    chosen: tuple[str, str] | None = None  # dealer's choice: (game, structure) named


def new_mix(game: str) -> Mix:
    return Mix(rotation=game if game in ROTATIONS else "")


def next_game(mix: Mix, game: str, structure: str) -> tuple[Mix, Variant] | str:
    """The game of the next (new) hand at a table set up for ``game`` at ``structure``, and
    the mix with that hand's round begun; a str says why no hand can be dealt."""
    if not mix.rotation:
        try:
            return mix, table_game(game, structure)
        except ValueError as exc:  # pragma: no cover - table.setup checked it
            return str(exc)
    rot = ROTATIONS[mix.rotation]
    if rot.dealers_choice:
        if mix.chosen is None:
            names = ", ".join(g for g, _ in rot.games)
            return (f"Dealer's choice: the dealer names the game of the next hand first "
                    f"(game.choose: one of {names})")
        return mix, table_game(*mix.chosen)
    if mix.orbit and mix.played >= mix.orbit:
        mix = replace(mix, index=(mix.index + 1) % len(rot.games), played=0, orbit=0)
    vid, internal = rot.games[mix.index]
    return mix, table_game(vid).with_structure(internal)


def dealt(mix: Mix, players: int) -> Mix:
    """A hand of the round was dealt to ``players``: its first hand sizes the orbit."""
    if mix.rotation and not mix.orbit and not ROTATIONS[mix.rotation].dealers_choice:
        return replace(mix, orbit=max(players, 1))
    return mix


def completed(mix: Mix) -> Mix:
    """A hand was completed (the pots awarded): it counts toward the orbit; a dealer's choice
    is spent."""
    if not mix.rotation:
        return mix
    return replace(mix, played=mix.played + 1, chosen=None)


def choose(mix: Mix, game: str, structure: str) -> Mix | str:
    """Dealer's choice: the dealer names the next hand's game; a str says why it is refused."""
    if not mix.rotation or not ROTATIONS[mix.rotation].dealers_choice:
        return "The game is chosen only at a dealer's choice table."
    rot = ROTATIONS[mix.rotation]
    if game not in (g for g, _ in rot.games):
        return f"{game!r} is not one of the dealer's choices: {', '.join(g for g, _ in rot.games)}"
    try:
        table_game(game, structure)
    except ValueError as exc:
        return f"{str(exc)[:1].upper()}{str(exc)[1:]}"
    return replace(mix, chosen=(game, structure))
