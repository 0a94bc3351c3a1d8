"""The dealer console as text: one key press or betting action per line.

Until the table has a hardware console (a later driver), ``feltguard run`` reads these lines on
standard input; they are the same events the console keys produce (docs/events.md):

    hand [BUTTON]        new hand (button seat optional)
    shuffle              shuffle done
    post SEAT AMOUNT     post a blind
    bet SEAT AMOUNT      bet (total on this street)
    raise SEAT AMOUNT    raise to AMOUNT
    call SEAT | check SEAT | fold SEAT | allin SEAT
    exposed UID [dealer|player]
    misdeal              misdeal declared
    end                  award the pots
    sit SEAT NAME STACK  a player sits down
    leave SEAT           the player leaves
    {"type": ...}        any event of the vocabulary as JSON
"""

from __future__ import annotations

import json

from controller.events import (
    Action,
    Body,
    CardExposed,
    EventError,
    HandEnd,
    HandStart,
    MisdealDeclared,
    SeatLeave,
    SeatTake,
    ShuffleDone,
    parse_event,
    validate_body,
)

HELP = __doc__.split("\n\n", 2)[2] if __doc__ else ""


def _int(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise EventError(f"{what} must be a whole number, got {word!r}") from None


def parse_command(line: str) -> Body:
    """One console line -> an event body; EventError says what is wrong."""
    body = _parse(line)
    validate_body(body)
    return body


def _parse(line: str) -> Body:
    text = line.strip()
    if text.startswith("{"):
        try:
            return parse_event(json.loads(text)).body
        except json.JSONDecodeError as exc:
            raise EventError(f"not valid JSON: {exc.msg}") from None
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
    if cmd == "end":
        return HandEnd()
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
            raise EventError("usage: exposed UID [dealer|player]")
        return CardExposed(uid=args[0], by="player" if args[1:] == ["player"] else "dealer")
    if cmd == "sit":
        if len(args) != 3:
            raise EventError("usage: sit SEAT NAME STACK")
        return SeatTake(seat=_int(args[0], "seat"), player=args[1], stack=_int(args[2], "stack"))
    if cmd == "leave":
        if len(args) != 1:
            raise EventError("usage: leave SEAT")
        return SeatLeave(seat=_int(args[0], "seat"))
    raise EventError(f"unknown command {cmd!r}; try: hand, shuffle, post, bet, raise, call, "
                     "check, fold, allin, exposed, misdeal, end, sit, leave")
