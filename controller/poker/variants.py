"""Games as data: every poker form the rulebooks describe, as a declarative ``Variant``.

A variant says what the deck is, what happens on each street (cards dealt down or up, board cards,
the burn, a draw or a Pineapple discard, whether there is a betting round and who opens it, small
or big bet in fixed limit), the betting structure, the forced bets, the hand rankings and how the
pot is split. The hand engine (``controller/rules/engine/hand.py``) reads only this data; there is
no per-game flow anywhere. The rulebooks behind each definition are cited in its ``citations`` and
in docs/games.md, which also lists every choice made where the books are silent.

File names in citations are the rulebooks in ``shared/rulebooks/``: RR = roberts-rules-v11.txt,
RRH = roberts-rules-home.txt, WSOP = wsop-2009-live-action-rules.md, JPN = jamies-poker-notes.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from controller.poker.cards import FULL_DECK, RANKS, SUITS
from controller.poker.records import replace

# --- vocabulary ---------------------------------------------------------------------------------

STRUCTURES = ("fixed", "pot", "no", "spread")
"""Betting structures: fixed limit, pot limit, no limit, spread limit (RR Section 14 intro;
button-blinds-betting.md §2.1)."""

STRUCTURE_NAMES: Mapping[str, str] = MappingProxyType({
    "limit": "fixed", "pot-limit": "pot", "no-limit": "no", "spread": "spread"})
"""The structures as a table's set-up names them -> ``STRUCTURES``."""

DECKS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        # 52 cards in stud, hold'em and Omaha (RR Glossary, DECK)
        "standard": FULL_DECK,
        # six-plus hold'em: "the twos, threes, fours and fives removed" (JPN Six Plus Hold'em)
        "short": tuple(r + s for s in SUITS for r in RANKS[4:]),
        # 53 cards with the joker, "used in ace-to-five lowball and draw high" (RR Glossary)
        "joker": (*FULL_DECK, "Xx"),
    }
)

JOKER = "Xx"

OPENERS = (
    "blinds",  # first player left of the blinds (or left of the button when nobody posts one)
    "button",  # first active player left of the button
    "low_card",  # stud bring-in: lowest upcard by suit, ace high (RR Section 8 r.2, Section 10 r.4)
    "high_card",  # razz bring-in: highest upcard by suit, ace low (RR Section 9 r.2)
    "high_board",  # stud later streets: best hand showing (RR Section 8 r.2)
    "low_board",  # razz later streets: lowest hand showing (RR Section 9 r.2)
    "draw_opener",  # draw high after the draw: the opener, or next clockwise (RR Section 12)
)

LOW_RANKINGS = frozenset(
    {"ace_five_low", "ace_five_low_joker", "deuce_seven_low", "low8", "badugi"}
)
"""Rankings where the lowest hand wins: stud odd chips go by the lowest card by suit for them
(RR Section 3, Ties r.5(b))."""


@dataclass(frozen=True)
class Street:
    """One street: the cards dealt on it, then the draw or discard, then the betting round.

    ``hole`` lists the hole cards each player receives, one flag per card: True = dealt face up
    (stud upcards). ``discard_first`` puts a Pineapple discard before this street's cards
    (Crazy Pineapple discards before the turn); otherwise the discard follows the cards."""

    name: str
    hole: tuple[bool, ...] = ()
    board: int = 0
    burn: bool = False
    draw: bool = False  # discard and replace, in turn (draw games)
    discard: int = 0  # discard exactly this many hole cards, not replaced (Pineapple)
    discard_first: bool = False
    betting: bool = True
    opener: str = "button"
    big_bet: bool = False  # fixed limit: the upper limit applies on this street

    def __post_init__(self) -> None:
        if self.opener not in OPENERS:
            raise ValueError(f"street {self.name}: unknown opener {self.opener!r}")
        if self.board < 0 or self.discard < 0:
            raise ValueError(f"street {self.name}: negative card count")


@dataclass(frozen=True)
class Variant:
    """One poker form, as data. ``rankings`` has one entry (the best hand by it wins the whole
    pot) or two (high-low split: half to each; when the second, the low, has no qualifying hand
    the first scoops: RR Section 7 r.2, Section 10 intro). ``hand`` says how hole and board
    cards make a hand: "any" (best five of all the player's cards and the board) or "omaha"
    (exactly two hole cards and three board cards: RR Section 6, Section 7)."""

    id: str
    name: str
    streets: tuple[Street, ...]
    structure: str
    rankings: tuple[str, ...] = ("high",)
    deck: str = "standard"
    hand: str = "any"
    forced: str = "blinds"  # "blinds", "antes_bring_in", "antes" (ante-only button game)
    button: bool = True  # a button game (odd chip from the button) or a stud game (by suit)
    max_draw: int = 0  # cards a player may draw on one draw round (0: no draw)
    openers: str = ""  # "" (anything opens) or "jacks" (jacks or better to open)
    pass_and_out: bool = False  # nobody opens the first round: the deal ends, antes carry over
    check_raise: bool = True  # limit ace-to-five lowball forbids it (RR Section 11 A-5 r.2)
    open_pair_option: bool = False  # stud: an open pair on fourth street allows the big bet
    max_players: int = 10
    citations: tuple[str, ...] = ()
    # The structures the game is dealt at in cardrooms (``structure`` first); a table set up for
    # another is refused. NOT IN THE RULEBOOKS as a list: RR Section 14 gives no-limit and
    # pot-limit rules for any game and Section 11 for lowball; the rest is cardroom practice.
    played_at: tuple[str, ...] = ()
    _betting_rounds: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.structure not in STRUCTURES:
            raise ValueError(f"{self.id}: unknown betting structure {self.structure!r}")
        if self.deck not in DECKS:
            raise ValueError(f"{self.id}: unknown deck {self.deck!r}")
        if self.hand not in ("any", "omaha"):
            raise ValueError(f"{self.id}: unknown hand rule {self.hand!r}")
        if not 1 <= len(self.rankings) <= 2:
            raise ValueError(f"{self.id}: one ranking, or two for high-low split")
        if not self.streets:
            raise ValueError(f"{self.id}: a game needs at least one street")
        object.__setattr__(self, "_betting_rounds", sum(s.betting for s in self.streets))

    @property
    def betting_rounds(self) -> int:
        return self._betting_rounds

    @property
    def structures(self) -> tuple[str, ...]:
        """The structures the game is dealt at (its usual one first)."""
        return self.played_at or (self.structure,)

    @property
    def hole_cards(self) -> int:
        """Cards each player holds at the showdown (after any Pineapple discard)."""
        return sum(len(s.hole) - s.discard for s in self.streets)

    @property
    def board_cards(self) -> int:
        return sum(s.board for s in self.streets)

    @property
    def draws(self) -> int:
        return sum(s.draw for s in self.streets)

    @property
    def split(self) -> bool:
        return len(self.rankings) == 2

    @property
    def deck_cards(self) -> tuple[str, ...]:
        return DECKS[self.deck]

    def with_structure(self, structure: str) -> Variant:
        """The same game under another betting structure ("fixed", "pot", "no", "spread")."""
        if structure not in STRUCTURES:
            raise ValueError(f"unknown betting structure {structure!r}; one of {STRUCTURES}")
        if structure == self.structure:
            return self
        # A-5 lowball forbids check-raise only at limit (RR Section 11 NL/PL Lowball r.5: at
        # no-limit and pot-limit "Check-raise is allowed").
        check_raise = self.check_raise or structure in ("pot", "no")
        return replace(self, structure=structure, check_raise=check_raise)


def family(v: Variant) -> str:
    """The game's family, as the table lays it out: "board" (community cards: hold'em, Omaha,
    the Pineapples, short deck), "stud" (up and down cards per seat, no board) or "draw"."""
    if v.max_draw:
        return "draw"
    if any(st.board for st in v.streets):
        return "board"
    return "stud"


# --- street building blocks ---------------------------------------------------------------------


def _flop_streets(hole: int, *, discard_pre: int = 0, discard_turn: int = 0,
                  discard_end: int = 0) -> tuple[Street, ...]:
    """Hold'em-type streets: hole cards, flop of three, turn, river, each board round after a
    burn (RR Section 5 intro; AZ How to Deal, Burning Cards). Preflop the action starts left of
    the blinds, afterwards with the first active player left of the button (RR Section 4
    intro). Fixed limit: small bet preflop and on the flop, big bet on the turn and river (JPN
    Texas Hold'em)."""
    streets = [
        Street("preflop", hole=(False,) * hole, discard=discard_pre, opener="blinds"),
        Street("flop", board=3, burn=True),
        Street("turn", board=1, burn=True, big_bet=True, discard=discard_turn,
               discard_first=bool(discard_turn)),
        Street("river", board=1, burn=True, big_bet=True),
    ]
    if discard_end:
        # Lazy Pineapple: the discard comes "after the river bet just before showdown"
        streets.append(Street("discard", discard=discard_end, betting=False))
    return tuple(streets)


def _stud_streets(first: str, later: str) -> tuple[Street, ...]:
    """Seven-card stud streets: two down and one up, three more up, the last down; a burn
    before fourth to seventh street; small bet on third and fourth, big bet from fifth
    (RR Section 8 intro; JPN Seven Card Stud)."""
    return (
        Street("third", hole=(False, False, True), opener=first),
        Street("fourth", hole=(True,), burn=True, opener=later),
        Street("fifth", hole=(True,), burn=True, opener=later, big_bet=True),
        Street("sixth", hole=(True,), burn=True, opener=later, big_bet=True),
        Street("seventh", hole=(False,), burn=True, opener=later, big_bet=True),
    )


def _draw_streets(hole: int, draws: int, after_draw: str = "button",
                  big_from: int = 1) -> tuple[Street, ...]:
    """Draw streets: the deal, a betting round, then for each draw a burn, the draw in turn and
    a betting round. ``big_from``: the first betting round (0-based) at the upper limit."""
    streets = [Street("predraw", hole=(False,) * hole, opener="blinds")]
    for k in range(1, draws + 1):
        streets.append(Street(f"draw{k}", burn=True, draw=True, opener=after_draw,
                              big_bet=k >= big_from))
    return tuple(streets)


_RR5 = "RR Section 5 Holdem (intro; rules 1-9)"
_RR4 = "RR Section 4 Button and Blind Use (intro: first to act; rule 9: the blind's option)"

_GAMES: tuple[Variant, ...] = (
    Variant(
        "flhe", "Limit hold'em", _flop_streets(2), "fixed",
        citations=(_RR5, _RR4, "JPN Texas Hold'em (small bet preflop and flop, big bet turn "
                   "and river)"),
    ),
    Variant(
        "nlhe", "No-limit hold'em", _flop_streets(2), "no",
        citations=(_RR5, _RR4, "RR Section 14 No-Limit rules 2-4"),
    ),
    Variant(
        "plhe", "Pot-limit hold'em", _flop_streets(2), "pot",
        citations=(_RR5, _RR4, "RR Section 14 Pot-Limit rules 1-5"),
    ),
    Variant(
        "omaha", "Omaha", _flop_streets(4), "pot", hand="omaha",
        citations=("RR Section 6 Omaha (exactly two holecards with three boardcards)",
                   "JPN Omaha (typically played pot-limit)"),
    ),
    Variant(
        "omaha8", "Omaha high-low eight-or-better", _flop_streets(4), "fixed",
        rankings=("high", "low8"), hand="omaha",
        citations=("RR Section 7 Omaha High-Low Split rules 1-3",
                   "RR Section 3 Ties rule 5(c) (odd chip to the high hand)"),
    ),
    Variant(
        "omaha5", "Five-card Omaha", _flop_streets(5), "pot", hand="omaha",
        citations=("JPN Five Card Omaha",),
    ),
    Variant(
        "pineapple", "Pineapple", _flop_streets(3, discard_pre=1), "fixed",
        citations=("JPN Pineapple (discard one before the preflop bet, from under the gun)",),
    ),
    Variant(
        "crazy_pineapple", "Crazy Pineapple", _flop_streets(3, discard_turn=1), "fixed",
        citations=("JPN Pineapple, Crazy Pineapple (discard after the flop bet, before the "
                   "turn, beginning left of the dealer)",),
    ),
    Variant(
        "lazy_pineapple", "Lazy Pineapple", _flop_streets(3, discard_end=1), "fixed",
        citations=("JPN Pineapple, Lazy Pineapple (discard after the river bet, before the "
                   "showdown)",),
    ),
    Variant(
        "short_deck", "Six-plus hold'em (short deck)", _flop_streets(2), "no",
        rankings=("short_deck",), deck="short",
        citations=("JPN Six Plus Hold'em (36 cards; one blind posted by the dealer; antes; "
                   "a flush beats a full house; A-6-7-8-9 straight)",),
    ),
    Variant(
        "stud", "Seven-card stud", _stud_streets("low_card", "high_board"), "fixed",
        forced="antes_bring_in", button=False, open_pair_option=True, max_players=8,
        citations=("RR Section 8 Seven-Card Stud (intro; rules 2-7)",
                   "JPN Seven Card Stud (suit order clubs, diamonds, hearts, spades; aces high "
                   "for the bring-in)"),
    ),
    Variant(
        "razz", "Razz", _stud_streets("high_card", "low_board"), "fixed",
        rankings=("ace_five_low",), forced="antes_bring_in", button=False, max_players=8,
        citations=("RR Section 9 Razz (intro; rules 1-3)", "JPN Razz"),
    ),
    Variant(
        "stud8", "Seven-card stud high-low eight-or-better",
        _stud_streets("low_card", "high_board"), "fixed",
        rankings=("high", "low8"), forced="antes_bring_in", button=False, max_players=8,
        citations=("RR Section 10 Seven-Card Stud High-Low Split (intro; rules 3-9)",),
    ),
    Variant(
        "draw5", "Five-card draw (high)", _draw_streets(5, 1, "draw_opener"), "fixed",
        forced="antes", max_draw=5, pass_and_out=True,
        citations=("RR Section 12 Draw High (intro; rules 1-5, 12-14)",
                   "RR Section 11 Lowball rule 10 (up to four consecutive cards)"),
    ),
    Variant(
        "draw5_jacks", "Five-card draw, jacks or better to open",
        _draw_streets(5, 1, "draw_opener"), "fixed",
        forced="antes", max_draw=5, openers="jacks", pass_and_out=True,
        citations=("RRH Section 12 Jacks-or-Better rules 1-4",
                   "WSOP Section 13 Draw High"),
    ),
    Variant(
        "draw5_joker", "Five-card draw with the joker", _draw_streets(5, 1, "draw_opener"),
        "fixed", rankings=("high_joker",), deck="joker", forced="antes", max_draw=5,
        pass_and_out=True,
        citations=("RR Section 12 The Joker rules 1-4 (aces, straights, flushes only)",),
    ),
    Variant(
        "a5_lowball", "Ace-to-five lowball (with the joker)", _draw_streets(5, 1), "fixed",
        rankings=("ace_five_low_joker",), deck="joker", max_draw=5, check_raise=False,
        citations=("RR Section 11 Lowball (intro; rules 2, 10)",
                   "RR Section 11 Ace-to-Five Lowball rules 1-2 (joker assumed in use; no "
                   "check-raise at limit)"),
    ),
    Variant(
        "27_single", "Deuce-to-seven lowball, single draw", _draw_streets(5, 1), "no",
        rankings=("deuce_seven_low",), max_draw=5,
        citations=("RR Section 11 Deuce-to-Seven Lowball rules 1-4",
                   "RR Section 11 No-Limit and Pot-Limit Lowball rules 1-5"),
    ),
    Variant(
        "27_triple", "Deuce-to-seven triple draw", _draw_streets(5, 3, big_from=2), "fixed",
        rankings=("deuce_seven_low",), max_draw=5, max_players=6,
        citations=("JPN 2-7 Triple Draw", "RR Section 11 Deuce-to-Seven Lowball rule 1"),
    ),
    Variant(
        "badugi", "Badugi", _draw_streets(4, 3, big_from=2), "fixed",
        rankings=("badugi",), max_draw=4, max_players=8,
        citations=("WSOP Section 12 Badugi rules 1-11", "JPN Badugi (small bet on the first "
                   "two rounds, big bet on the last two)"),
    ),
)

# Where each game is dealt (``Variant.played_at``): hold'em at every structure (RR Section 14;
# spread limit: RR Glossary, SPREAD LIMIT); Omaha pot-limit first (JPN Omaha), limit and no-limit
# too; lowball at limit, no-limit and pot-limit (RR Section 11, No-Limit and Pot-Limit Lowball);
# stud and draw high at limit and spread limit (RR Section 8 intro; Section 12); the rest at its
# usual structure and pot limit (cardroom practice, NOT IN THE RULEBOOKS).
_PLAYED_AT: Mapping[str, tuple[str, ...]] = {
    "flhe": ("fixed", "no", "pot", "spread"), "nlhe": ("no", "pot", "fixed", "spread"),
    "plhe": ("pot", "no", "fixed", "spread"),
    "omaha": ("pot", "fixed", "no"), "omaha8": ("fixed", "pot"), "omaha5": ("pot",),
    "pineapple": ("fixed", "pot", "no"), "crazy_pineapple": ("fixed", "pot", "no"),
    "lazy_pineapple": ("fixed", "pot", "no"), "short_deck": ("no", "pot"),
    "stud": ("fixed", "spread"), "razz": ("fixed", "spread"), "stud8": ("fixed", "spread"),
    "draw5": ("fixed", "spread"), "draw5_jacks": ("fixed", "spread"),
    "draw5_joker": ("fixed", "spread"),
    "a5_lowball": ("fixed", "no", "pot"), "27_single": ("no", "pot", "fixed"),
    "27_triple": ("fixed", "pot"), "badugi": ("fixed", "pot"),
}
_GAMES = tuple(replace(v, played_at=_PLAYED_AT[v.id]) for v in _GAMES)

VARIANTS: Mapping[str, Variant] = MappingProxyType({v.id: v for v in _GAMES})
"""Every game by id; each with its usual betting structure (``with_structure`` for another)."""

PHH_VARIANTS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        "FT": ("flhe", "fixed"),
        "NT": ("nlhe", "no"),
        "NS": ("short_deck", "no"),
        "PO": ("omaha", "pot"),
        "FO/8": ("omaha8", "fixed"),
        "F7S": ("stud", "fixed"),
        "F7S/8": ("stud8", "fixed"),
        "FR": ("razz", "fixed"),
        "N2L1D": ("27_single", "no"),
        "F2L3D": ("27_triple", "fixed"),
        "FB": ("badugi", "fixed"),
    }
)
"""The eleven standard PHH variant codes -> (variant id, betting structure)."""


def variant(variant_id: str, structure: str | None = None) -> Variant:
    """The game ``variant_id``, under ``structure`` if given; ValueError names the known ids."""
    game = VARIANTS.get(variant_id)
    if game is None:
        raise ValueError(f"unknown game {variant_id!r}; known: {', '.join(sorted(VARIANTS))}")
    return game if structure is None else game.with_structure(structure)


def table_game(game: str, structure: str = "") -> Variant:
    """The game a table is set up for: a variant id of ``VARIANTS`` under a structure as a
    table names it (``STRUCTURE_NAMES``: "limit", "pot-limit", "no-limit", "spread"; "" for
    the game's usual one). ValueError names an unknown game, an unknown structure, or a
    structure the game is not dealt at."""
    v = VARIANTS.get(game)
    if v is None:
        raise ValueError(f"unknown game {game!r}; one of {', '.join(GAME_IDS)}")
    if not structure:
        return v
    internal = STRUCTURE_NAMES.get(structure)
    if internal is None:
        raise ValueError(f"unknown betting structure {structure!r}; one of "
                         f"{', '.join(STRUCTURE_NAMES)}")
    if internal not in v.structures:
        names = {b: a for a, b in STRUCTURE_NAMES.items()}
        played = ", ".join(names[x] for x in v.structures)
        raise ValueError(f"{v.name} is not dealt at {structure}; it is dealt at {played}")
    return v.with_structure(internal)


def game_problem(game: str, structure: str, *, mixed: bool = True) -> tuple[str, str] | None:
    """What is wrong with a table's ``game`` at ``structure`` (``table_game``; with ``mixed``, a
    mixed game of ``ROTATIONS`` too): (the field at fault, "game" or "structure"; the message),
    or None when the table can be set up so."""
    rot = ROTATIONS.get(game) if mixed else None
    if rot is not None:
        if structure:
            return "structure", (f"{rot.name} deals each game at its own structure, not "
                                 f"{structure!r}")
        return None
    try:
        table_game(game, structure)
    except ValueError as exc:
        return ("game" if str(exc).startswith("unknown game") else "structure"), str(exc)
    return None


def first_game(game: str, structure: str) -> Variant | None:
    """The game of a table's first hand: the game set up, a fixed rotation's first game, or
    None for the dealer's choice (named hand by hand) or a game ``game_problem`` refuses."""
    rot = ROTATIONS.get(game)
    try:
        if rot is None:
            return table_game(game, structure)
        if rot.dealers_choice:
            return None
        return table_game(rot.games[0][0]).with_structure(rot.games[0][1])
    except ValueError:
        return None


def structure_name(structure: str) -> str:
    """A ``STRUCTURES`` value as a table names it ("fixed" -> "limit")."""
    return next((a for a, b in STRUCTURE_NAMES.items() if b == structure), structure)


PHH_EXTENSION_PREFIX = "x:"
"""Feltguard's extension of PHH's variant codes, for a game PHH has no code for:
``x:<variant id>/<structure>`` (``x:omaha5/pot``, ``x:a5_lowball/fixed``; docs/phh.md)."""


def phh_variant(code: str) -> Variant:
    """The game a PHH variant code stands for, under its betting structure: one of the eleven
    standard codes (``PHH_VARIANTS``) or an extension code (``PHH_EXTENSION_PREFIX``)."""
    entry = PHH_VARIANTS.get(code)
    if entry is None and code.startswith(PHH_EXTENSION_PREFIX):
        vid, _, structure = code[len(PHH_EXTENSION_PREFIX):].partition("/")
        if vid in VARIANTS and structure in VARIANTS[vid].structures:
            entry = (vid, structure)
    if entry is None:
        raise ValueError(f"unknown PHH variant {code!r}; known: {', '.join(PHH_VARIANTS)}, "
                         f"or {PHH_EXTENSION_PREFIX}<game>/<structure> for the other games")
    return variant(*entry)


def _as_played(v: Variant) -> Variant:
    """The game without its names: what is dealt and how it is bet."""
    return replace(v, id="", name="", citations=(), played_at=())


def phh_code(v: Variant) -> str:
    """The PHH variant code of a game: the standard code of ``PHH_VARIANTS`` whose game is
    dealt and bet the same (limit hold'em under any id is ``FT``), else the extension code
    ``x:<id>/<structure>``."""
    played = _as_played(v)
    for code, entry in PHH_VARIANTS.items():
        if _as_played(variant(*entry)) == played:
            return code
    return f"{PHH_EXTENSION_PREFIX}{v.id}/{v.structure}"


# --- mixed games ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rotation:
    """A mixed game: a fixed rotation of games (HORSE) or the dealer's choice from a list.

    Rotation interval (NOT IN THE RULEBOOKS; games-and-rankings.md §6 gap 6): "orbit" changes
    the game after every player has dealt one hand (as many hands as players, major cardroom
    practice), "hands" after ``hands`` hands. For dealer's choice the button picks one of
    ``games`` each hand (JPN Dealer's Choice)."""

    id: str
    name: str
    games: tuple[tuple[str, str], ...]  # (variant id, structure)
    dealers_choice: bool = False
    interval: str = "orbit"
    hands: int = 0
    citations: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for vid, structure in self.games:
            variant(vid, structure)  # raises for an unknown game or structure
        if self.interval not in ("orbit", "hands"):
            raise ValueError(f"{self.id}: interval is 'orbit' or 'hands', got {self.interval!r}")
        if self.interval == "hands" and self.hands < 1:
            raise ValueError(f"{self.id}: a rotation every N hands needs hands >= 1")

    def every(self, hands: int) -> Rotation:
        """The same rotation, changing game every ``hands`` hands."""
        return replace(self, interval="hands", hands=hands)

    def game_at(self, hand_number: int, players: int) -> Variant:
        """The game of the ``hand_number``-th hand (0-based) of the rotation at a table of
        ``players`` players."""
        if self.dealers_choice:
            raise ValueError(f"{self.id}: the dealer chooses the game; use choose()")
        if hand_number < 0 or players < 2:
            raise ValueError("hand_number must be >= 0 and players >= 2")
        length = players if self.interval == "orbit" else self.hands
        return variant(*self.games[(hand_number // length) % len(self.games)])

    def choose(self, variant_id: str) -> Variant:
        """Dealer's choice: the game the dealer named, if it is on the list."""
        for vid, structure in self.games:
            if vid == variant_id:
                return variant(vid, structure)
        names = ", ".join(vid for vid, _ in self.games)
        raise ValueError(f"{variant_id!r} is not one of the dealer's choices: {names}")


ROTATIONS: Mapping[str, Rotation] = MappingProxyType(
    {
        "horse": Rotation(
            "horse", "HORSE",
            (("flhe", "fixed"), ("omaha8", "fixed"), ("razz", "fixed"), ("stud", "fixed"),
             ("stud8", "fixed")),
            citations=("JPN HORSE (hold'em, Omaha hi/lo, razz, seven card stud, stud hi/lo "
                       "eight or better)",),
        ),
        "dealers_choice": Rotation(
            "dealers_choice", "Dealer's choice",
            tuple((v.id, v.structure) for v in _GAMES),
            dealers_choice=True,
            citations=("JPN Dealer's Choice (the game is chosen from a predetermined list)",),
        ),
    }
)


GAME_IDS: tuple[str, ...] = (*VARIANTS, *ROTATIONS)
"""Every game a table can be set up for: each variant, and each mixed game (a rotation)."""
