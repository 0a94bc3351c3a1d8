"""The dealer console as text: one key press or betting action per line.

``feltguard run`` reads these lines on standard input at a terminal (or with ``--console``); the
hardware keys are these lines too (``controller.console.keypad.KEY_LINES``), and the touch console
sends the same events (docs/events.md):

    hand [BUTTON]        new hand (button seat optional)
    shuffle              shuffle done
    post SEAT AMOUNT [KIND]   post a forced bet (KIND: small_blind, big_blind, straddle, kill,
                         ante, missed_small, missed_big, new_player)
    straddle SEAT AMOUNT a live straddle
    bet SEAT AMOUNT      bet (total on this street)
    raise SEAT AMOUNT    raise to AMOUNT
    call SEAT | check SEAT | fold SEAT | allin SEAT
    exposed CARD [dealer|player]   CARD: a card (As, Td), last (the last card drawn) or
                         a tag uid; a card not in play is refused with the reason
    flashed CARD [dealer|player]   a card partly exposed
    boxed CARD           a card found face up in the deck (or the card just drawn)
    kept CARD            the player looked at the card or mixed it in (stud: a premature
                         final down card it must keep)
    attention [dealer|player|floor]   attention called to an error (the misdeal cut-off)
    game ID [STRUCTURE]  dealer's choice: the next hand's game (e.g. game omaha8 pot-limit)
    ruling stand|void [CODE] TEXT...  the floor's ruling (CODE: the finding it rules on)
    undo                 revert the last event
    misdeal              misdeal declared
    end                  award the pots
    sit SEAT NAME STACK [post]   a player sits down (post: a big blind now, not wait)
    leave SEAT           the player leaves
    away SEAT | back SEAT [post] | move SEAT TO   presence and seat changes
    draw SEAT=CARD ...   the high-card draw for the button (e.g. draw 1=Kh 2=As)
    level N              the tournament level clock moved to level N
    players N            the tournament director's count: N players left in the event
                         (fixed limit: heads-up raising is capped until the last two)
    race start | race end [SEAT=STACK ...]   the colour-up chip race
    fault KIND [CUTTER]  a deck fault (KIND: shuffle_insufficient, cut_missing,
                         cut_wrong_player, bottom_card_exposed, stub_fouled)
    drew SEAT [BY]       a player (BY) asks how many cards SEAT drew
    deck ID              between hands: put the resting registered deck ID in play
    {"type": ...}        any event of the vocabulary as JSON
"""

from __future__ import annotations

from typing import Any

from controller.events import (
    ATTENTION_BY,
    LAST_CARD,
    TAG_CARD_RE,
    Action,
    AttentionCalled,
    Body,
    ButtonDraw,
    CardBoxed,
    CardExposed,
    CardFlashed,
    CardKept,
    ChipRaceEnd,
    ChipRaceStart,
    DeckChange,
    DeckFault,
    DrawQuery,
    EventError,
    FloorRuling,
    GameChoose,
    HandEnd,
    HandStart,
    LevelUp,
    MisdealDeclared,
    PlayerAway,
    PlayerBack,
    SeatChange,
    SeatLeave,
    SeatTake,
    ShuffleDone,
    TournamentPlayers,
    Undo,
    parse_line,
    validate_body,
)

HELP = __doc__.split("\n\n", 2)[2] if __doc__ else ""


def _int(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise EventError(f"{what} must be a whole number, got {word!r}") from None


def _pairs(args: list[str], usage: str, kind: type) -> dict[int, Any]:
    """SEAT=VALUE words -> {seat: value}."""
    out: dict[int, Any] = {}
    for word in args:
        seat, sep, value = word.partition("=")
        if not sep or not value:
            raise EventError(f"usage: {usage}")
        out[_int(seat, "seat")] = _int(value, "stack") if kind is int else value
    return out


def parse_command(line: str) -> Body:
    """One console line -> an event body; EventError says what is wrong."""
    body = _parse(line)
    validate_body(body)
    return body


def _named(word: str) -> dict[str, str]:
    """A card key's target: a card by name (``As``, ``as``, ``AS``; the joker ``Xx``), ``last``
    (the last card drawn), or a tag uid as a reader reports it (hex). The core resolves a name
    to its tag (``rules.card_keys``)."""
    if word.lower() == LAST_CARD:
        return {"card": LAST_CARD}
    if len(word) == 2:
        name = word[0].upper() + word[1].lower()
        if not TAG_CARD_RE.fullmatch(name):
            raise EventError(f"{word!r} is not a card: a rank (2-9, T, J, Q, K, A) and a suit "
                             "(c, d, h, s), e.g. As or Td")
        return {"card": name}
    return {"uid": word}


def _parse(line: str) -> Body:
    text = line.strip()
    if text.startswith("{"):  # the journal's own line reader: one set of JSON errors
        return parse_line(text).body
    words = text.split()
    if not words:
        raise EventError("empty command")
    cmd, args = words[0].lower(), words[1:]
    if cmd == "hand":
        return HandStart(button=_int(args[0], "button") if args else None)
    if cmd == "shuffle":
        return ShuffleDone()
    if cmd == "misdeal":
        return MisdealDeclared()
    if cmd == "undo":
        if args:
            raise EventError("usage: undo")
        return Undo()
    if cmd in ("flashed", "boxed"):
        if cmd == "boxed" and len(args) != 1:
            raise EventError("usage: boxed CARD")
        if not args or len(args) > 2 or (len(args) == 2 and args[1] not in ("dealer", "player")):
            raise EventError("usage: flashed CARD [dealer|player]")
        if cmd == "boxed":
            return CardBoxed(**_named(args[0]))
        return CardFlashed(**_named(args[0]), by="player" if args[1:] == ["player"] else "dealer")
    if cmd == "kept":
        if len(args) != 1:
            raise EventError("usage: kept CARD")
        return CardKept(**_named(args[0]))
    if cmd == "ruling":
        if len(args) < 2 or args[0] not in ("stand", "void"):
            raise EventError("usage: ruling stand|void [CODE] TEXT...")
        code = args[1] if args[1].isupper() and len(args) > 2 else None
        text = " ".join(args[2:] if code else args[1:])
        return FloorRuling(text=text, code=code, outcome=args[0])
    if cmd == "attention":
        if len(args) > 1 or (args and args[0] not in ATTENTION_BY):
            raise EventError("usage: attention [dealer|player|floor]")
        return AttentionCalled(by=args[0] if args else "dealer")
    if cmd == "end":
        return HandEnd()
    if cmd == "game":
        if not 1 <= len(args) <= 2:
            raise EventError("usage: game ID [STRUCTURE]")
        return GameChoose(game=args[0], structure=args[1] if len(args) > 1 else "")
    if cmd == "post" and len(args) == 3:
        return Action(seat=_int(args[0], "seat"), kind="post", amount=_int(args[1], "amount"),
                      blind=args[2])
    if cmd == "straddle":
        if len(args) != 2:
            raise EventError("usage: straddle SEAT AMOUNT")
        return Action(seat=_int(args[0], "seat"), kind="post", amount=_int(args[1], "amount"),
                      blind="straddle")
    if cmd in ("post", "bet", "raise"):
        if len(args) != 2:
            raise EventError(f"usage: {cmd} SEAT AMOUNT")
        return Action(seat=_int(args[0], "seat"), kind=cmd, amount=_int(args[1], "amount"))
    if cmd in ("call", "check", "fold", "allin"):
        if len(args) != 1:
            raise EventError(f"usage: {cmd} SEAT")
        return Action(seat=_int(args[0], "seat"), kind=cmd)
    if cmd == "exposed":
        if not args or len(args) > 2 or (len(args) == 2 and args[1] not in ("dealer", "player")):
            raise EventError("usage: exposed CARD [dealer|player]")
        return CardExposed(**_named(args[0]), by="player" if args[1:] == ["player"] else "dealer")
    if cmd == "sit":
        if len(args) not in (3, 4) or args[3:] not in ([], ["post"]):
            raise EventError("usage: sit SEAT NAME STACK [post]")
        return SeatTake(seat=_int(args[0], "seat"), player=args[1], stack=_int(args[2], "stack"),
                        post=args[3:] == ["post"])
    if cmd in ("away", "back"):
        if len(args) not in (1, 2) or (cmd == "away" and len(args) == 2) or \
                args[1:] not in ([], ["post"]):
            raise EventError("usage: away SEAT | back SEAT [post]")
        seat = _int(args[0], "seat")
        return PlayerAway(seat=seat) if cmd == "away" else PlayerBack(seat=seat,
                                                                      post=args[1:] == ["post"])
    if cmd == "move":
        if len(args) != 2:
            raise EventError("usage: move SEAT TO")
        return SeatChange(seat=_int(args[0], "seat"), to=_int(args[1], "to"))
    if cmd == "draw":
        return ButtonDraw(cards=_pairs(args, "draw SEAT=CARD ...", str))
    if cmd == "level":
        if len(args) != 1:
            raise EventError("usage: level N")
        return LevelUp(level=_int(args[0], "level"))
    if cmd == "players":
        if len(args) != 1:
            raise EventError("usage: players N")
        return TournamentPlayers(remaining=_int(args[0], "remaining"))
    if cmd == "race":
        if args[:1] == ["start"] and len(args) == 1:
            return ChipRaceStart()
        if args[:1] == ["end"]:
            return ChipRaceEnd(stacks=_pairs(args[1:], "race end [SEAT=STACK ...]", int))
        raise EventError("usage: race start | race end [SEAT=STACK ...]")
    if cmd == "fault":
        if len(args) not in (1, 2):
            raise EventError("usage: fault KIND [CUTTER]")
        return DeckFault(kind=args[0], cutter=_int(args[1], "cutter") if len(args) > 1 else None)
    if cmd == "drew":
        if len(args) not in (1, 2):
            raise EventError("usage: drew SEAT [BY]")
        return DrawQuery(seat=_int(args[0], "seat"),
                         asked_by=_int(args[1], "asked_by") if len(args) > 1 else None)
    if cmd == "deck":
        if len(args) != 1:
            raise EventError("usage: deck ID")
        return DeckChange(deck=args[0])
    if cmd == "leave":
        if len(args) != 1:
            raise EventError("usage: leave SEAT")
        return SeatLeave(seat=_int(args[0], "seat"))
    raise EventError(f"unknown command {cmd!r}; try: hand, shuffle, post, straddle, bet, raise, "
                     "call, check, fold, allin, exposed, flashed, boxed, attention, ruling, undo, "
                     "misdeal, end, game, sit, leave, away, back, move, draw, level, players, "
                     "race, fault, drew, deck")
