"""Replay PHH hands through the rules engine and compare the final stacks with the record.

Each hand is played action by action on the hand engine (``controller.rules.HandEngine``: the
variant from the PHH code, the stakes, the starting stacks), and the engine's final stacks are
compared with ``finishing_stacks``. The engine checks every action by the cardroom rules; an
action it refuses is an error naming the hand, the action's number and text, and the rule.

The replay copes with hands written in unusual but legal orders: a hand shown at an all-in
before the rest of the board (or the last stud card) is dealt is shown when the engine says the
betting is over; a show the engine cannot take yet is held back until it can.

Chips and amounts: the engine counts whole chips. A hand whose amounts have decimals
(``1259450.25``) is played in hundredths (the smallest unit written), and its stacks are given
back in the record's unit. A record whose finishing stacks split a chip in halves (``10112.5``
each, as eight pluribus hands do) cannot be matched exactly: the replay reports it as matched
by the odd-chip rule when every difference is half a chip and the chips add up; the rulebooks
give the whole odd chip to one winner (roberts-rules-v11.txt, Section 3, Ties, r.5(a): "In a
button game, the first hand clockwise from the button gets the odd chip").

Online hands (a site's own history turned into PHH, as the HandHQ hands of the PHH dataset are)
are read as a surveillance officer reads them; how PHH writes them becomes what the table did:

- ``pN sm ????`` (a hand not seen at the showdown) is a hand mucked unseen, once the betting is
  over and another hand is shown: the shown hands win what no shown hand beats, as PokerKit
  says. Written again before each later board card of an all-in run-out, it is the same hand,
  whose real cards may come at the end. A showdown where no hand is seen is refused: who won is
  not known. A hand whose cards were dealt known (``d dh p1 9d6d``; iPoker writes the cards
  shown at the showdown there, never a folded hand's) is shown as dealt, not mucked.
- A show after everyone else folded (``p4 sm JsJh`` after the last fold) is allowed and
  changes nothing.
- Unknown starting stacks (``inf``) are played deep (a stack larger than every chip the hand
  bets): each player's net is the result. Where the deep replay breaks as only an all-in
  explains (a board card dealt with betting still due, a show whose betting never ends), the
  stacks matter: the hand is refused with that reason; any other break is an error as usual.
- A history that stops before the hand ends (after the river card, with the river betting still
  due) is incomplete, and says what is due.
- ``winnings`` (what each player took from the pots, after the site's rake) are compared with
  the pots the replay awards when there are no finishing stacks: the implied rake is the pots
  less the winnings; the winners must be the same and nobody's winnings may exceed his share.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path
from typing import Literal

from controller.phh.notation import HandHistory, Number, PhhAction, PhhError
from controller.phh.reader import read_file
from controller.poker.pots import UNCALLED, with_carry
from controller.poker.variants import Variant, phh_variant
from controller.rules import HandEngine, HouseSettings, IllegalAction, Stakes

Status = Literal["matched", "odd_chip", "winnings", "mismatched", "error", "unchecked",
                 "incomplete", "refused"]

_VARIANT_CACHE: dict[str, Variant] = {}


class ReplayError(ValueError):
    """A hand the engine cannot replay: names the hand and, for an action, its number and text.
    ``all_in``: the sign of an all-in the record does not say (a board card dealt, or a hand
    shown, while the replay still has betting due), which only unknown stacks explain."""

    all_in: bool = False


def variant_for(code: str) -> Variant:
    """The engine's game for a PHH variant code (``phh_variant``: a standard code of
    ``PHH_VARIANTS``, or Feltguard's extension ``x:<game>/<structure>``)."""
    game = _VARIANT_CACHE.get(code)
    if game is None:
        try:
            game = phh_variant(code)
        except ValueError:
            raise ReplayError(f"unknown variant {code!r}") from None
        _VARIANT_CACHE[code] = game
    return game


# --- chips ----------------------------------------------------------------------------------------


def _places(value: Number) -> int:
    if isinstance(value, int):
        return 0
    if not value.is_finite():
        raise ReplayError(f"an amount is not finite ({value}): unknown stacks cannot be replayed")
    exponent = value.normalize().as_tuple().exponent
    assert isinstance(exponent, int)
    return max(0, -exponent)


def _scale_of(values: Iterable[Number | None]) -> int:
    places = 0
    for v in values:
        if v is not None and type(v) is not int:
            places = max(places, _places(v))
    return int(10 ** places)


def _stakes_scale(hand: HandHistory) -> int:
    """The unit of the stakes and stacks alone (a replay widens it if an amount needs it)."""
    # Whole chips nearly always. A sum of ints is an int and a sum with a Decimal in it is a
    # Decimal, so one sum() per tuple (a loop in C) tells whether every amount is whole; any
    # other mix (or a sum Decimal refuses, inf - inf) goes the careful way below.
    try:
        total = (sum(hand.starting_stacks) + sum(hand.antes)
                 + sum(hand.blinds_or_straddles or ()) + (hand.bring_in or 0)
                 + (hand.small_bet or 0) + (hand.big_bet or 0) + (hand.min_bet or 0))
    except (TypeError, ArithmeticError):
        total = None
    if type(total) is int:
        return 1
    return _scale_of((*hand.starting_stacks, *hand.antes, *(hand.blinds_or_straddles or ()),
                      hand.bring_in, hand.small_bet, hand.big_bet, hand.min_bet))


def chip_scale(hand: HandHistory) -> int:
    """10**k: the unit the hand's amounts are whole numbers of (1 for chip counts)."""
    return max(_stakes_scale(hand), _scale_of(a.amount for a in hand.actions))


class _Rescale(Exception):
    """An amount is finer than the unit the replay started with: start again in its unit."""


def _chips(value: Number | None, scale: int) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value * scale
    return int(value * scale)


def _unscale(value: int, scale: int) -> Number:
    return value if scale == 1 else Decimal(value) / scale


# --- one hand -------------------------------------------------------------------------------------


def _apply(game: HandEngine, a: PhhAction, scale: int) -> None:
    """One action on the engine (the slow path: used for held-back shows)."""
    code = a.code
    p = a.actor
    if code == "cc":
        game.check_or_call(p)  # type: ignore[arg-type]
    elif code == "f":
        game.fold(p)  # type: ignore[arg-type]
    elif code == "dh":
        game.deal_hole(p, a.cards)  # type: ignore[arg-type]
    elif code == "cbr":
        game.complete_bet_or_raise_to(p, _chips(a.amount, scale))  # type: ignore[arg-type]
    elif code == "db":
        game.deal_board(a.cards)  # type: ignore[arg-type]
    elif code == "sm":
        game.show_or_muck(p, () if a.show_known else a.cards)  # type: ignore[arg-type]
    elif code == "sd":
        game.stand_pat_or_discard(p, a.cards or ())  # type: ignore[arg-type]
    elif code == "pb":
        game.post_bring_in(p)  # type: ignore[arg-type]
    # "" is a no-op (an empty action or a standalone commentary)


_PHH_SETTINGS = HouseSettings.phh()
_STAKES_CACHE: dict[tuple[object, ...], Stakes] = {}


def _stakes(hand: HandHistory, scale: int) -> Stakes:
    key = (scale, hand.antes, hand.blinds_or_straddles, hand.bring_in, hand.small_bet,
           hand.big_bet, hand.min_bet)
    stakes = _STAKES_CACHE.get(key)
    if stakes is None:
        stakes = Stakes(
            antes=tuple(_chips(v, scale) for v in hand.antes),
            blinds_or_straddles=tuple(_chips(v, scale) for v in hand.blinds_or_straddles or ()),
            bring_in=_chips(hand.bring_in, scale),
            small_bet=_chips(hand.small_bet, scale),
            big_bet=_chips(hand.big_bet, scale),
            min_bet=_chips(hand.min_bet, scale),
        )
        if len(_STAKES_CACHE) < 1024:  # a corpus has few distinct stakes
            _STAKES_CACHE[key] = stakes
    return stakes


def house_settings(hand: HandHistory) -> HouseSettings:
    """The house settings a hand is replayed under: the table's own when the hand says them
    (Feltguard's ``_house``: the engine's settings that differ from its defaults, Robert's
    Rules, as ``feltguard phh export`` writes them), else PokerKit's conventions
    (``HouseSettings.phh()``), the ones PHH files are recorded under."""
    house = hand.user.get("_house")
    if house is None:
        return _PHH_SETTINGS
    if not isinstance(house, dict):
        raise ReplayError(f"{hand.label}: _house must be a table of house settings, "
                          f"got {house!r}")
    try:
        settings = HouseSettings(**house)
        # one shared instance per distinct settings: the engine caches its plans by them
        return _HOUSE_CACHE.setdefault(settings, settings)
    except (TypeError, ValueError) as exc:
        raise ReplayError(f"{hand.label}: _house: {exc}") from None


_HOUSE_CACHE: dict[HouseSettings, HouseSettings] = {}


def new_hand(hand: HandHistory, settings: HouseSettings | None = None,
             scale: int | None = None) -> tuple[HandEngine, int]:
    """The engine's hand at its start (forced bets posted) and the chip scale. Without
    ``settings``, the hand's own (``house_settings``)."""
    if scale is None:
        scale = chip_scale(hand)
    stacks: Sequence[Number]
    if scale == 1:
        stacks = hand.starting_stacks  # the engine copies what it keeps
    else:
        stacks = [_chips(v, scale) for v in hand.starting_stacks]
    try:
        game = HandEngine(variant_for(hand.variant), _stakes(hand, scale), stacks,  # type: ignore[arg-type]
                    house_settings(hand) if settings is None else settings)
    except ValueError as exc:
        raise ReplayError(f"{hand.label}: cannot start the hand: {exc}") from None
    return game, scale


@dataclass(frozen=True)
class Played:
    """A hand played to the end of its history. Amounts are in the record's unit.

    ``stacks``: the final stacks (``inf`` where the starting stack is unknown); ``net``: each
    player's final stack less his starting stack; ``over``: the hand ended (else
    ``incomplete`` says what is still due); ``payouts``: once over, each player's share of the
    pots (the uncalled bet given back is not a payout: ``returned``); ``deep``: unknown stacks
    were played deep. A replay without detail (``play``) leaves ``net`` empty."""

    stacks: tuple[Number, ...]
    net: tuple[Number, ...]
    over: bool
    incomplete: str = ""
    payouts: tuple[Number, ...] | None = None
    deep: bool = False
    returned: tuple[Number, ...] | None = None


def play(hand: HandHistory, settings: HouseSettings | None = None) -> tuple[Number, ...]:
    """Replay every action of ``hand``; return the final stacks in the record's unit (``inf``
    where the starting stack is unknown, as PokerKit gives it). Raises ReplayError naming the
    hand and the action the engine refused."""
    return run(hand, settings, detail=False).stacks


def run(hand: HandHistory, settings: HouseSettings | None = None, *,
        detail: bool = True) -> Played:
    """Replay every action of ``hand`` (see ``Played``). Raises ReplayError naming the hand and
    the action the engine refused; a hand with unknown stacks that cannot be played deep raises
    ``Refused`` with the reason. Without ``detail`` (a corpus replay's hot path) the payouts
    are not worked out."""
    deep = _deep_stack(hand)
    played = hand if deep is None else replace(
        hand, starting_stacks=tuple(deep if _unknown(v) else v for v in hand.starting_stacks))
    try:
        try:
            # Most hands count whole chips: start in the unit of the stakes and stacks, and
            # only when an amount is finer than that (1.5 in a game of whole chips) start again.
            return _finish(hand, *_play(played, settings, _stakes_scale(played)), deep, detail)
        except _Rescale:
            return _finish(hand, *_play(played, settings, chip_scale(played)), deep, detail)
    except ReplayError as exc:
        if deep is None or isinstance(exc, Refused) or not exc.all_in:
            raise
        why = str(exc).removeprefix(f"{hand.label}: ")
        raise Refused(f"{hand.label}: refused: the starting stacks are unknown (inf) and "
                      f"played deep the hand breaks at {why}: an all-in made the stacks "
                      "matter") from None


class Refused(ReplayError):
    """A hand the replay will not judge, with its reason (one line)."""


def _unknown(value: object) -> bool:
    return isinstance(value, Decimal) and bool(value.is_infinite())


def _deep_stack(hand: HandHistory) -> int | None:
    """A stack deeper than every chip the hand can bet, for starting stacks written ``inf``
    (unknown: iPoker's histories), or None when every stack is known."""
    if not any(_unknown(v) for v in hand.starting_stacks):
        return None
    total: Number = 0
    for a in hand.actions:
        if a.amount is not None:
            total += a.amount
    total += sum(hand.antes) + sum(hand.blinds_or_straddles or ())
    total += sum(v for v in (hand.bring_in, hand.small_bet, hand.big_bet, hand.min_bet) if v)
    total += sum(v for v in hand.starting_stacks if not _unknown(v))
    return int(10 ** (len(str(int(total))) + 1))


def _finish(hand: HandHistory, game: HandEngine, scale: int, stacks: list[int],
            incomplete: str, deep: int | None, detail: bool) -> Played:
    """The engine's end of the hand, back in the record's unit."""
    if not detail and deep is None:
        final = tuple(stacks) if scale == 1 else tuple(_unscale(v, scale) for v in stacks)
        return Played(final, (), not incomplete, incomplete)
    payouts = returned = None
    if game.is_over and not incomplete:
        shares = [0] * len(stacks)
        back = [0] * len(stacks)
        for award in game.awards:
            into = back if award.hand == UNCALLED else shares
            for seat, chips in award.shares.items():
                into[seat] += chips
        payouts = tuple(_unscale(v, scale) for v in shares)
        returned = tuple(_unscale(v, scale) for v in back)
    final = tuple(_unscale(v, scale) for v in stacks)
    start = hand.starting_stacks
    net = tuple(f - (deep if _unknown(s) else s)  # type: ignore[operator]
                for f, s in zip(final, start, strict=True))
    if deep is not None:
        final = tuple(s if _unknown(s) else f for f, s in zip(final, start, strict=True))
    return Played(final, net, not incomplete, incomplete, payouts, deep is not None, returned)


def _play(hand: HandHistory, settings: HouseSettings | None, scale: int
          ) -> tuple[HandEngine, int, list[int], str]:
    """The hand played: the engine, the scale, the final stacks (in chips of the scale) and,
    for a history that stops before the hand ends, what is still due."""
    game, scale = new_hand(hand, settings, scale)
    held: list[tuple[int, PhhAction]] = []  # shows the engine cannot take yet
    unseen: list[tuple[int, PhhAction]] = []  # "pN sm ????": hands not seen at the showdown
    kills = _kills(hand)
    # The hot loop of a corpus replay: bound methods, the commonest actions first (six hole
    # deals a hand), and an action's number worked out only when a message or a held show
    # needs it.
    check_or_call, fold, deal_hole = game.check_or_call, game.fold, game.deal_hole
    raise_to, deal_board = game.complete_bet_or_raise_to, game.deal_board
    for i, a in enumerate(hand.actions):
        if kills and i in kills:
            _kill(hand, game, kills[i], a)
        code = a.code
        try:
            if code == "dh":
                deal_hole(a.actor, a.cards)  # type: ignore[arg-type]
            elif code == "f":
                fold(a.actor)  # type: ignore[arg-type]
            elif code == "cc":
                check_or_call(a.actor)  # type: ignore[arg-type]
            elif code == "cbr":
                amount = a.amount
                if type(amount) is not int or scale != 1:
                    amount = _exact_chips(amount, scale)  # type: ignore[arg-type]
                raise_to(a.actor, amount)  # type: ignore[arg-type]
            elif code == "db":
                deal_board(a.cards)  # type: ignore[arg-type]
            elif code == "sm" and a.cards and not any(a.cards):
                # a hand not seen: mucked unseen once the showdown is known (_muck_unseen)
                unseen.append((i + 1, a))
                continue
            else:
                _apply(game, a, scale)
        except IllegalAction as exc:
            if code == "sm" and exc.code == "NO_SHOWDOWN_YET":
                held.append((_number(hand, a), a))
                continue
            if code == "sm" and exc.code == "HAND_OVER" and not held:
                continue  # a winner showing after everyone folded: allowed, changes nothing
            raise _refused(hand, _number(hand, a), a, str(exc),
                           all_in=code == "db" and game.actor is not None) from None
        if held and code != "sm" and game.betting_over:
            held = _retry(hand, game, held, scale)
    if kills and len(hand.actions) in kills:
        _kill(hand, game, kills[len(hand.actions)], None)
    if held:
        i, a = held[0]
        raise _refused(hand, i, a, "the betting never ended, so this show never came",
                       all_in=True)
    if unseen and not game.is_over and game.betting_over:
        _muck_unseen(hand, game, unseen, scale)
    stacks = _carried(hand, game, scale)
    return game, scale, stacks, "" if game.is_over else _due(hand, game)


def _muck_unseen(hand: HandHistory, game: HandEngine, unseen: list[tuple[int, PhhAction]],
                 scale: int) -> None:
    """The hands not seen at the showdown are mucked, once every other hand has been shown
    (or mucked): the shown hands then win what no shown hand beats. A hand whose cards were
    dealt known (iPoker writes the cards shown at the showdown in the deal, ``d dh p1 9d6d``,
    and ``sm ????`` at the showdown) is shown first, as dealt. With no hand seen at all, or
    none among the hands that contest a side pot, who won is not known: refused."""
    pending = game.showdown_pending
    players = [p for p in dict.fromkeys(a.actor for _, a in unseen) if p in pending]
    if not players or game.board_needed or set(pending) - set(players):
        return  # something else is still due: the hand is incomplete (_due)
    for p in [p for p in players if game.holes[p] and all(game.holes[p])]:
        players.remove(p)
        if game.is_over:
            return
        try:
            game.show_or_muck(p, ())
        except IllegalAction as exc:
            i, a = next((i, a) for i, a in unseen if a.actor == p)
            raise _refused(hand, i, a, str(exc)) from None
    if game.is_over:
        return
    if not any(game.shown):
        i, a = unseen[-1]
        raise Refused(f"{hand.label}: refused: action {i}: {a.text!r}: no hand was seen at the "
                      "showdown, so who won is not known")
    for pot in game.pots():
        # a side pot that only unseen hands contest: who won it is not known either
        contest = [p for p in pot.eligible if not game.folded[p] and not game.mucked[p]]
        if len(contest) > 1 and not any(game.shown[p] for p in contest):
            i, a = unseen[-1]
            raise Refused(f"{hand.label}: refused: action {i}: {a.text!r}: no hand was seen "
                          f"for a pot of {_num(_unscale(pot.amount, scale))} "
                          f"({_who(set(contest))}), so who won it is not known")
    for p in players:
        if game.is_over:
            break
        try:
            game.show_or_muck(p, None)
        except IllegalAction as exc:
            i, a = next((i, a) for i, a in unseen if a.actor == p)
            raise _refused(hand, i, a, str(exc)) from None


def _due(hand: HandHistory, game: HandEngine) -> str:
    """What a history that stops before the hand ends leaves due (one line)."""
    last = next((a for a in reversed(hand.actions) if a.code), None)
    after = f"after {last.text!r}" if last is not None else "before any action"
    if game.actor is not None:
        return f"the history stops {after} with betting due from p{game.actor + 1}"
    if game.board_needed:
        return f"the history stops {after} with {game.board_needed} board card(s) due"
    pending = game.showdown_pending
    if pending:
        who = ", ".join(f"p{p + 1}" for p in pending)
        return f"the history stops {after} before {who} show or muck"
    return f"the history stops {after} before the hand ends"


def _carried(hand: HandHistory, game: HandEngine, scale: int) -> list[int]:
    """The final stacks with Feltguard's ``_carry_in`` (antes of earlier deals nobody opened,
    draw high's pass and out, RR Section 12 r.14) joining the main pot, as at the table
    (``pots.with_carry``); ``_carry_out`` (what the hand leaves for the next deal) is checked
    against the engine's."""
    carry_in = _amount(hand, "_carry_in", scale)
    carry_out = _amount(hand, "_carry_out", scale)
    stacks = list(game.stacks)
    if not game.is_over:
        return stacks
    awards = game.awards
    if carry_out or game.carry_over:
        if carry_out != carry_in + game.carry_over:
            raise ReplayError(f"{hand.label}: _carry_out is {carry_out // scale} but nobody "
                              f"opened with {(carry_in + game.carry_over) // scale} in antes")
        return stacks
    if carry_in and any(a.winners for a in awards):
        _, after = with_carry(awards, dict(enumerate(stacks)), carry_in, range(len(stacks)))
        stacks = [after[i] for i in range(len(stacks))]
    return stacks


def _amount(hand: HandHistory, key: str, scale: int) -> int:
    value = hand.user.get(key, 0)
    if type(value) is not int or value < 0:
        raise ReplayError(f"{hand.label}: {key} must be a whole number of chips, got {value!r}")
    return value * scale


def _kills(hand: HandHistory) -> dict[int, list[int]]:
    """Feltguard's ``_dead`` field (docs/phh.md, Export): the hands the dealer killed (a wrong
    card count once the deal is played, RR Section 3, Dead Hands, r.1(d)), PHH having no such
    action: action index (from 0) -> players (from 0) killed before it."""
    dead = hand.user.get("_dead")
    if not dead:
        return {}
    out: dict[int, list[int]] = {}
    try:
        for entry in dead:
            player = int(str(entry["player"]).removeprefix("p")) - 1
            out.setdefault(int(entry["before_action"]) - 1, []).append(player)
    except (TypeError, KeyError, ValueError):
        raise ReplayError(f"{hand.label}: _dead must be a list of {{player = \"pN\", "
                          f"before_action = N}}, got {dead!r}") from None
    return out


def _kill(hand: HandHistory, game: HandEngine, players: list[int], a: PhhAction | None) -> None:
    for p in players:
        try:
            game.kill(p)
        except IllegalAction as exc:
            where = f"before {a.text!r}" if a is not None else "after the last action"
            raise ReplayError(f"{hand.label}: _dead p{p + 1} {where}: {exc}") from None


def is_void(hand: HandHistory) -> bool:
    """A hand the table voided (``_outcome = "misdeal"``): every chip goes back to its owner
    (roberts-rules-v11.txt, Section 3, Misdeals), whatever was dealt and bet before."""
    return hand.user.get("_outcome") == "misdeal"


def _number(hand: HandHistory, action: PhhAction) -> int:
    """The action's number in the hand, from 1 (by identity: equal actions recur)."""
    for i, a in enumerate(hand.actions, start=1):
        if a is action:
            return i
    raise AssertionError("the action is not in the hand")  # pragma: no cover


def _exact_chips(amount: Number, scale: int) -> int:
    chips = amount * scale
    if chips != int(chips):
        raise _Rescale
    return int(chips)


def _refused(hand: HandHistory, i: int, a: PhhAction, why: str,
             all_in: bool = False) -> ReplayError:
    error = ReplayError(f"{hand.label}: action {i}: {a.text!r}: {why}")
    error.all_in = all_in
    return error


def _retry(hand: HandHistory, game: HandEngine, held: list[tuple[int, PhhAction]],
           scale: int) -> list[tuple[int, PhhAction]]:
    """The betting is over: the shows held back go in now, in their written order."""
    left = []
    for i, a in held:
        if game.is_over:
            raise _refused(hand, i, a, "the hand ended without a showdown for this show")
        try:
            _apply(game, a, scale)
        except IllegalAction as exc:
            if exc.code != "NO_SHOWDOWN_YET":
                raise _refused(hand, i, a, str(exc)) from None
            left.append((i, a))
    return left


# --- checking against the record ------------------------------------------------------------------


@dataclass(frozen=True)
class HandResult:
    """One hand's replay: how it compares with the record. ``net``: each player's result (the
    replay's final stack less the starting stack); ``rake``: the pots less the ``winnings``
    where those were compared."""

    label: str
    status: Status
    expected: tuple[Number, ...] | None = None
    got: tuple[Number, ...] | None = None
    message: str = ""
    net: tuple[Number, ...] | None = None
    rake: Number | None = None

    def line(self) -> str:
        """One line for a person (mismatches, errors, odd chips, unchecked hands)."""
        if self.status in ("error", "refused", "incomplete"):
            return f"{self.message}"
        got = _fmt(self.got)
        if self.status == "unchecked":
            if self.message:  # played deep: the stacks are unknown, the nets are the result
                return f"{self.label}: {self.message}; net {_fmt(self.net, sign=True)}"
            return f"{self.label}: no finishing_stacks recorded; replayed to {got}"
        if self.status == "winnings":
            return f"{self.label}: {self.message}"
        expected = _fmt(self.expected)
        if self.status == "odd_chip":
            return (f"{self.label}: odd chip: recorded {expected}, replayed {got} (whole "
                    "chips: the odd chip to the first winner clockwise from the button, "
                    "roberts-rules-v11.txt, Section 3, Ties, r.5(a))")
        if self.status == "mismatched":
            if self.message:
                return f"{self.label}: {self.message}"
            return f"{self.label}: expected {expected}, got {got}"
        return f"{self.label}: matched {got}"


def _fmt(values: Sequence[Number] | None, sign: bool = False) -> str:
    if values is None:
        return "-"
    return "[" + ", ".join(("+" if sign and v > 0 else "") + _num(v) for v in values) + "]"


def _num(v: Number) -> str:
    if isinstance(v, Decimal):
        return format(v.normalize(), "f")
    return str(v)


def is_odd_chip_split(expected: Sequence[Number], got: Sequence[Number], scale: int = 1) -> bool:
    """The record splits chips in halves where the replay gave whole chips: every difference is
    half a unit, at players the record gives a half-unit fraction, and the chips add up."""
    if len(expected) != len(got) or sum(expected) != sum(got):
        return False
    half = Decimal(1) / (2 * scale)
    odd = False
    for e, g in zip(expected, got, strict=True):
        d = Decimal(e) - Decimal(g)
        if d == 0:
            continue
        if abs(d) != half or (Decimal(e) * scale) % 1 != Decimal("0.5"):
            return False
        odd = True
    return odd


def check(hand: HandHistory, settings: HouseSettings | None = None) -> HandResult:
    """Replay ``hand`` and compare with its ``finishing_stacks``, or where there are none with
    its ``winnings`` (``compare_winnings``). Never raises on bad input. A void hand
    (``is_void``) is not replayed: every chip goes back, so its finishing stacks must be its
    starting stacks."""
    if is_void(hand):
        got: tuple[Number, ...] = tuple(hand.starting_stacks)
        expected = hand.finishing_stacks
        if expected is None:
            return HandResult(hand.label, "unchecked", None, got)
        status: Status = "matched" if tuple(expected) == got else "mismatched"
        return HandResult(hand.label, status, expected, got)
    try:
        played = run(hand, settings)
    except Refused as exc:
        return HandResult(hand.label, "refused", hand.finishing_stacks, None, str(exc))
    except ReplayError as exc:
        return HandResult(hand.label, "error", hand.finishing_stacks, None, str(exc))
    except (ValueError, TypeError, IndexError, KeyError) as exc:
        # the engine must refuse bad input with IllegalAction; anything else is still reported
        return HandResult(hand.label, "error", hand.finishing_stacks, None,
                          f"{hand.label}: {type(exc).__name__}: {exc}")
    got, net = played.stacks, played.net
    expected = hand.finishing_stacks
    if expected is None:
        if not played.over:
            return HandResult(hand.label, "incomplete", None, got,
                              f"{hand.label}: incomplete: {played.incomplete}", net)
        winnings = hand.optional.get("winnings")
        if winnings and any(winnings) and played.payouts is not None:
            return compare_winnings(hand.label, tuple(winnings), played.payouts, got, net,
                                    played.returned)
        deep = ("the starting stacks are unknown (inf): played deep" if played.deep else "")
        return HandResult(hand.label, "unchecked", None, got, deep, net)
    if len(expected) == len(got) and all(e == g for e, g in zip(expected, got, strict=True)):
        return HandResult(hand.label, "matched", expected, got, net=net)
    if is_odd_chip_split(expected, got, chip_scale(hand)):
        return HandResult(hand.label, "odd_chip", expected, got, net=net)
    return HandResult(hand.label, "mismatched", expected, got, net=net)


def compare_winnings(label: str, winnings: tuple[Number, ...], payouts: tuple[Number, ...],
                     got: tuple[Number, ...], net: tuple[Number, ...],
                     returned: tuple[Number, ...] | None = None) -> HandResult:
    """``winnings`` (what the site paid each player from the pots, after its rake) against the
    replay's ``payouts`` (each player's share of the pots; the uncalled bet given back,
    ``returned``, is not won). They agree when the winners are the same and nobody was paid
    more than his share: the implied rake is the pots less the winnings. A site that counts
    the uncalled part of a blind given back as won (Absolute's walks: the small blind folds, the
    big blind "wins" all 1.5) is compared with the pots and that return together, where the
    winnings are exactly both."""
    if returned and len(returned) == len(payouts) and len(winnings) == len(payouts) and any(
            payouts[i] < w == payouts[i] + returned[i] for i, w in enumerate(winnings)):
        payouts = tuple(p + r for p, r in zip(payouts, returned, strict=True))
    if len(winnings) != len(payouts):
        return HandResult(label, "mismatched", None, got,
                          f"winnings name {len(winnings)} players, the hand has {len(payouts)}",
                          net)
    paid = {i for i, w in enumerate(winnings) if w > 0}
    won = {i for i, v in enumerate(payouts) if v > 0}
    if paid != won:
        return HandResult(label, "mismatched", None, got,
                          f"the winners differ: winnings pay {_who(paid)}, the pots go to "
                          f"{_who(won)} (winnings {_fmt(winnings)}, pots {_fmt(payouts)})", net)
    over = [i for i in sorted(paid) if winnings[i] > payouts[i]]
    if over:
        i = over[0]
        return HandResult(label, "mismatched", None, got,
                          f"p{i + 1}'s winnings {_num(winnings[i])} exceed his share of the pots "
                          f"{_num(payouts[i])} (winnings {_fmt(winnings)}, pots "
                          f"{_fmt(payouts)})", net)
    rake = sum(payouts) - sum(winnings)
    return HandResult(label, "winnings", None, got,
                      f"winnings {_fmt(winnings)} agree with the pots {_fmt(payouts)}, "
                      f"rake {_num(rake)}", net, rake)


def _who(players: set[int]) -> str:
    return ", ".join(f"p{i + 1}" for i in sorted(players)) or "nobody"


# --- many hands -----------------------------------------------------------------------------------


@dataclass
class Summary:
    """Counts over a replay of many hands; ``seconds`` is the replay time, reading excluded.
    ``winnings``: hands without finishing stacks whose ``winnings`` agree with the pots, and
    ``rake`` their implied rake in all; ``incomplete`` and ``refused`` hands are said, not
    failures (the record stops early; unknown stacks that matter)."""

    hands: int = 0
    matched: int = 0
    odd_chip: int = 0
    mismatched: int = 0
    errors: int = 0
    unchecked: int = 0
    winnings: int = 0
    incomplete: int = 0
    refused: int = 0
    rake: Number = 0
    seconds: float = 0.0
    read_seconds: float = 0.0
    results: list[HandResult] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatched and not self.errors

    @property
    def rate(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else 0.0

    def add(self, result: HandResult) -> None:
        self.hands += 1
        self.results.append(result)
        if result.status == "matched":
            self.matched += 1
        elif result.status == "odd_chip":
            self.matched += 1
            self.odd_chip += 1
        elif result.status == "mismatched":
            self.mismatched += 1
        elif result.status == "error":
            self.errors += 1
        elif result.status == "winnings":
            self.winnings += 1
            self.rake += result.rake or 0
        elif result.status == "incomplete":
            self.incomplete += 1
        elif result.status == "refused":
            self.refused += 1
        else:
            self.unchecked += 1

    def line(self) -> str:
        odd = f" ({self.odd_chip} by the odd-chip rule)" if self.odd_chip else ""
        more = ""
        if self.winnings:
            more += (f", {self.winnings} agreeing with their winnings (rake "
                     f"{_num(self.rake)} in all)")
        if self.unchecked:
            more += f", {self.unchecked} without finishing stacks"
        if self.incomplete:
            more += f", {self.incomplete} incomplete"
        if self.refused:
            more += f", {self.refused} refused"
        return (f"{self.hands} hands: {self.matched} matched{odd}, {self.mismatched} mismatched, "
                f"{self.errors} errors{more}; replayed in {self.seconds:.2f} s "
                f"({self.rate:,.0f} hands per second; reading took {self.read_seconds:.2f} s)")


def replay_hands(items: Iterable[HandHistory | PhhError],
                 settings: HouseSettings | None = None) -> Summary:
    """Replay and check each hand; a PhhError (a hand that could not be read) is an error."""
    summary = Summary()
    hands = list(items)
    start = time.perf_counter()
    for item in hands:
        if isinstance(item, PhhError):
            summary.add(HandResult(item.hand or "<hand>", "error", message=str(item)))
        else:
            summary.add(check(item, settings))
    summary.seconds = time.perf_counter() - start
    return summary


def replay_file(path: str | Path, settings: HouseSettings | None = None) -> Summary:
    """Read a ``.phh`` or ``.phhs`` file and replay every hand in it."""
    start = time.perf_counter()
    items = read_file(path)
    read_seconds = time.perf_counter() - start
    summary = replay_hands(items, settings)
    summary.read_seconds = read_seconds
    return summary
