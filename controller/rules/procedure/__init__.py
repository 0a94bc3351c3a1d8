"""The procedure monitor: every game's dealing procedure card by card, on the hand engine, with
the remedies a finding calls for.

The table layer hands the monitor each card off the shoe, zone read, dealer key and console
action of a hand; the monitor answers the hand's new frozen state (``GameHand``) and the findings.
This ``__init__`` is the wing's face (the rest of the core imports these names, never the
modules below); ``monitor.py`` is the interface and the dispatch. Behind it, by idea:

- ``game_hand.py``: the hand as the monitor knows it, on the engine's command log;
- the board games: ``board_deal.py`` (the dealing procedure; its ``Deal`` and expected sequence
  in ``board_state.py``, the initial deal's irregularities in ``board_hole_cards.py``, the flop,
  turn and river's and the remedies followed in ``board_streets.py``) and ``board.py`` (the glue
  to the engine's betting);
- stud and draw: ``stud_draw.py`` (the card judging they share), ``stud_family.py`` and
  ``draw_family.py`` (each family's own rules);
- every game: ``betting.py`` (the console's actions), ``dead_hands.py`` (the dealer's kill, a
  hand fouled by a card's move), ``waiting_for.py`` (what comes next, in words),
  ``initial_deal.py`` (a card of the initial deal in the wrong place) and ``remedy.py`` (the moves
  a remedy calls for).

Here are the names the other wings use (``draw`` is the monitor's card off the shoe; the draw
family's own rules are ``draw_family.py``, the stud family's ``stud_family.py``).
"""

from controller.rules.procedure.betting import action
from controller.rules.procedure.board_state import POST_DEAL
from controller.rules.procedure.dead_hands import kill, unprotected
from controller.rules.procedure.draw_family import drawn_answer
from controller.rules.procedure.game_hand import (
    POST_NAMES,
    RAISE,
    GameHand,
    expected,
    is_void,
    restored,
)
from controller.rules.procedure.monitor import (
    betting_over,
    boxed,
    cards_out,
    current_bet,
    dealt_cards,
    draw,
    end,
    exposed,
    first_command,
    leave,
    moving_on,
    read,
    restake,
    seen,
    set_void,
    stand,
    start,
    starting_hands_out,
    stub_shuffled,
)
from controller.rules.procedure.remedy import RETURN, zone_name
from controller.rules.procedure.stud_family import kept
from controller.rules.procedure.waiting_for import expectation, remedy_due

__all__ = [
    "POST_DEAL",
    "POST_NAMES",
    "RAISE",
    "RETURN",
    "GameHand",
    "action",
    "betting_over",
    "boxed",
    "cards_out",
    "current_bet",
    "dealt_cards",
    "draw",
    "drawn_answer",
    "end",
    "expectation",
    "expected",
    "exposed",
    "first_command",
    "is_void",
    "kept",
    "kill",
    "leave",
    "moving_on",
    "read",
    "remedy_due",
    "restake",
    "restored",
    "seen",
    "set_void",
    "stand",
    "start",
    "starting_hands_out",
    "stub_shuffled",
    "unprotected",
    "zone_name",
]
