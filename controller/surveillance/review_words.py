"""The surveillance review in words: a journal event as a sentence the officer reads ("A♠ to
seat 3 Ann (hole)", "seat 2 Bob bets 200"), and a hand's result as it adds up (each winner's
shares summed, an uncalled bet returned apart from the winnings) and pot by pot (main pot, side
pot N, uncalled bet returned, each with its amount and who took it).

Pure: plain event dicts (``Event.to_json()``) and snapshots in, text out. The raw event stays
beside the words on the page (docs/review.md), so the words may leave detail out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from controller.poker.pots import UNCALLED

__all__ = ["card_name", "event_words", "pot_lines", "result_words"]

Names = Mapping[int, str]

_SUITS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}


def card_name(card: str) -> str:
    """``As`` -> ``A♠``, ``Td`` -> ``10♦``, the joker ``Xx`` -> ``joker``; anything else as is
    (an unknown tag is ``tag UID``)."""
    if card == "Xx":
        return "joker"
    if len(card) == 2 and card[1] in _SUITS and card[0] in "23456789TJQKA":
        return ("10" if card[0] == "T" else card[0]) + _SUITS[card[1]]
    return card


def chips(n: Any) -> str:
    """An amount with thousands separators (``1,216``); anything not a whole number as is."""
    return f"{n:,}" if isinstance(n, int) and not isinstance(n, bool) else str(n)


def seat_words(seat: Any, names: Names) -> str:
    """``seat 3 Ann`` (``seat 3`` when nobody sits there)."""
    name = names.get(seat, "") if isinstance(seat, int) else ""
    return f"seat {seat} {name}".strip()


# --- a hand's result -------------------------------------------------------------------------


def _shares(pot: Mapping[str, Any]) -> dict[int, int]:
    """Who took how many chips of a pot (``PotAward.to_json``'s ``shares``, seat keys as text)."""
    return {int(seat): int(n) for seat, n in (pot.get("shares") or {}).items()}


def result_words(pots: Sequence[Mapping[str, Any]], names: Names) -> str:
    """What each seat took from the hand, each winner's shares of every pot summed, biggest
    first: ``1,216 to seat 4 Dee``; then each uncalled bet returned, which is the bettor's own
    chips coming back and no winning: ``617 returned to seat 3 Cyd (uncalled)``."""
    won: dict[int, int] = {}
    returned: dict[int, int] = {}
    for pot in pots:
        into = returned if pot.get("hand") == UNCALLED else won
        for seat, n in _shares(pot).items():
            into[seat] = into.get(seat, 0) + n
    parts = [f"{chips(n)} to {seat_words(s, names)}"
             for s, n in sorted(won.items(), key=lambda sn: (-sn[1], sn[0]))]
    parts += [f"{chips(n)} returned to {seat_words(s, names)} (uncalled)"
              for s, n in sorted(returned.items())]
    return "; ".join(parts)


def pot_lines(pots: Sequence[Mapping[str, Any]], names: Names) -> list[dict[str, Any]]:
    """Each pot of the hand as the hand page lists it: main pot first, then the side pots from
    the lowest level up (side pot 1, 2...), then the uncalled bet returned; each ``{"pot",
    "amount", "shares": [{"seat", "player", "chips"}], "hand", "text"}``.

    The core awards (``HandSummary.pots``, the snapshot's ``results``) in the order they are
    paid: the uncalled bet returned first, then the side pots from the highest level, the main
    pot last (controller/poker/pots.py ``settle``, the engine's ``Hand.awards``)."""
    uncalled = [p for p in pots if p.get("hand") == UNCALLED]
    won = [p for p in pots if p.get("hand") != UNCALLED][::-1]  # main pot first
    labelled = [("Main pot" if k == 0 else f"Side pot {k}", p) for k, p in enumerate(won)]
    labelled += [("Uncalled bet returned", p) for p in uncalled]
    lines = []
    for label, pot in labelled:
        shares = _shares(pot)
        amount = chips(pot.get("amount", 0))
        if pot.get("hand") == UNCALLED:
            hand = ""
            text = f"{label}: {amount} to " + ", ".join(seat_words(s, names) for s in shares)
        else:
            hand = str(pot.get("hand") or "")
            if len(shares) == 1:
                taken = f"{amount} to {seat_words(next(iter(shares)), names)}"
            else:  # a split pot: each share
                taken = f"{amount}, split " + ", ".join(
                    f"{chips(n)} to {seat_words(s, names)}" for s, n in shares.items())
            text = f"{label}: {taken}" + (f" ({hand})" if hand else "")
        lines.append({"pot": label, "amount": pot.get("amount", 0), "hand": hand, "text": text,
                      "shares": [{"seat": s, "player": names.get(s, ""), "chips": n}
                                 for s, n in shares.items()]})
    return lines


# --- an event ----------------------------------------------------------------------------------


def _zone(zone: str, names: Names) -> str:
    """A card zone (``seat:3``, ``board``...) or a chip zone (``bet:3``, ``stack:3``, ``pot``...)
    as words."""
    kind, _, n = zone.partition(":")
    if n.isdigit():
        seat = seat_words(int(n), names)
        return {"seat": seat, "bet": f"{seat}'s bet", "stack": f"{seat}'s stack"}.get(kind, zone)
    return {"board": "the board", "burn": "the burn", "muck": "the muck", "shoe": "the shoe",
            "aside": "the cards set aside", "pot": "the pot", "tray": "the tray",
            "drop": "the drop"}.get(zone, zone)


def _read(e: Mapping[str, Any], card: str, snap: Mapping[str, Any], names: Names) -> str:
    zone = str(e.get("zone", ""))
    if zone.startswith("seat:"):
        # a stud upcard lies face up: the seat's ``up`` lists it once it is read there
        seat: Mapping[str, Any] = next(
            (s for s in snap.get("seats", []) if f"seat:{s.get('seat')}" == zone), {})
        up = card in (seat.get("up") or ())
        return f"{card_name(card)} to {_zone(zone, names)} ({'up' if up else 'hole'})"
    verb = {"burn": "burned", "muck": "to the muck", "aside": "set aside",
            "board": "to the board"}.get(zone)
    return f"{card_name(card)} {verb}" if verb else f"{card_name(card)} read in {zone}"


_BLINDS = {"small_blind": "small blind", "big_blind": "big blind", "bring_in": "bring-in",
           "missed_small": "missed small blind, dead", "missed_big": "missed big blind",
           "new_player": "new player's post"}


def _action(e: Mapping[str, Any], names: Names) -> str:
    who, kind, amount = seat_words(e.get("seat"), names), e.get("kind"), e.get("amount")
    if kind == "post":
        blind = e.get("blind")
        return f"{who} posts {chips(amount)}" + (
            f" ({_BLINDS.get(str(blind), str(blind).replace('_', ' '))})" if blind else "")
    if kind == "bet":
        return f"{who} bets {chips(amount)}"
    if kind == "raise":
        if amount is None:  # TDA #45: declared with no amount; the seat's chips make it
            return f"{who} raises (the amount from the chips)"
        return f"{who} raises to {chips(amount)}"
    if kind == "draw":
        return f"{who} stands pat" if amount == 0 else f"{who} draws {chips(amount)}"
    if kind == "allin":
        return f"{who} goes all in"
    if kind in ("call", "check", "fold"):
        return f"{who} {kind}s"
    return f"{who}: {kind}" + (f" {chips(amount)}" if amount is not None else "")


def _setup(e: Mapping[str, Any], snap: Mapping[str, Any]) -> str:
    name = (snap.get("table") or {}).get("name") or e.get("game")
    text = f"table set up: {name}, {e.get('seats')} seats, blinds " \
           f"{chips(e.get('small_blind'))}/{chips(e.get('big_blind'))}"
    return text + (f", ante {chips(e.get('ante'))}" if e.get("ante") else "")


def _seat_take(e: Mapping[str, Any], names: Names) -> str:
    seat = e.get("seat")
    if isinstance(seat, int) and names.get(seat) == e.get("player"):
        return f"{seat_words(seat, names)} re-buys for {chips(e.get('stack'))}"
    return f"seat {seat}: {e.get('player')} sits down with {chips(e.get('stack'))}" + (
        ", posting to be dealt in" if e.get("post") else "")


def _set_by(e: Mapping[str, Any]) -> str:
    """Who entered a tournament input at the touch console (its floor login), or ""."""
    return f" (set by the floor: {e['ruled_by']})" if e.get("ruled_by") else ""


def _card_key(e: Mapping[str, Any], card: str, what: str) -> str:
    by = f" by the {e['by']}" if e.get("by") else ""
    return f"{card_name(card)} {what}{by}"


_Words = Callable[[Mapping[str, Any], str, Mapping[str, Any], Names], str]

_WORDS: dict[str, _Words] = {
    "table.setup": lambda e, c, s, n: _setup(e, s),
    "game.choose": lambda e, c, s, n: f"dealer's choice: the next hand is {e.get('game')}"
    + (f" ({e['structure']})" if e.get("structure") else ""),
    "seat.take": lambda e, c, s, n: _seat_take(e, n),
    "seat.leave": lambda e, c, s, n: f"{seat_words(e.get('seat'), n)} leaves the table",
    "player.away": lambda e, c, s, n: f"{seat_words(e.get('seat'), n)} steps away",
    "player.back": lambda e, c, s, n: f"{seat_words(e.get('seat'), n)} is back"
    + (", posting the missed blinds" if e.get("post") else ""),
    "seat.change": lambda e, c, s, n: f"{seat_words(e.get('seat'), n)} moves to seat "
    f"{e.get('to')}",
    "button.draw": lambda e, c, s, n: "draw for the button: " + ", ".join(
        f"seat {seat} {card_name(str(card))}" for seat, card in (e.get("cards") or {}).items()),
    "tournament.setup": lambda e, c, s, n: f"tournament: {len(e.get('levels') or [])} levels"
    + (f", {e['players']} entrants" if e.get("players") else ""),
    "tournament.level": lambda e, c, s, n: f"tournament level {e.get('level')}"
    + _set_by(e),
    "tournament.players": lambda e, c, s, n: f"tournament: {e.get('remaining')} players left "
    "in the event" + _set_by(e),
    "chiprace.start": lambda e, c, s, n: "chip race starts",
    "chiprace.end": lambda e, c, s, n: "chip race over",
    "deck.register": lambda e, c, s, n: f"deck {e.get('deck')} registered "
    f"({len(e.get('tags') or {})} cards)" + (", resting" if e.get("idle") else ", in play"),
    "deck.audit": lambda e, c, s, n: f"deck read through the shoe: {len(e.get('uids') or [])} "
    "tags",
    "deck.change": lambda e, c, s, n: f"deck {e.get('deck')} into play",
    "hand.start": lambda e, c, s, n: f"hand {(s.get('hand') or {}).get('number')} starts"
    + (f", button at seat {(s.get('hand') or {}).get('button')}"
       if (s.get("hand") or {}).get("button") else ""),
    "shuffle.done": lambda e, c, s, n: "shuffle done",
    "shoe.draw": lambda e, c, s, n: f"{card_name(c)} leaves the shoe"
    + (" face up" if e.get("face_up") else ""),
    "zone.read": lambda e, c, s, n: _read(e, c, s, n),
    "zone.leave": lambda e, c, s, n: f"{card_name(c)} leaves {_zone(str(e.get('zone')), n)}"
    + (", read nowhere else (lost)" if e.get("lost") else ""),
    "card.exposed": lambda e, c, s, n: _card_key(e, c, "exposed"),
    "card.flashed": lambda e, c, s, n: _card_key(e, c, "flashed"),
    "card.boxed": lambda e, c, s, n: f"{card_name(c)} found boxed (face up in the deck)",
    "card.kept": lambda e, c, s, n: f"{card_name(c)} kept by the player",
    "floor.ruling": lambda e, c, s, n: f"floor ruling ({e.get('outcome', 'stand')})"
    + (f" on {e['code']}" if e.get("code") else "") + f": {e.get('text', '')}",
    "undo": lambda e, c, s, n: "the last event taken back (undo)",
    "attention.called": lambda e, c, s, n: f"attention called by the {e.get('by', 'dealer')}",
    "misdeal.declared": lambda e, c, s, n: "misdeal declared",
    "action": lambda e, c, s, n: _action(e, n),
    "hand.end": lambda e, c, s, n: "pots awarded" + (
        f": {result_words(s.get('results') or [], n)}" if s.get("results") else ""),
    "deck.fault": lambda e, c, s, n: "deck fault: " + str(e.get("kind", "")).replace("_", " ")
    + (f" (cut by seat {e['cutter']})" if e.get("cutter") else ""),
    "draw.query": lambda e, c, s, n: (f"seat {e['asked_by']} asks" if e.get("asked_by")
                                      else "asked") + " how many cards "
    f"{seat_words(e.get('seat'), n)} drew",
    "reader.health": lambda e, c, s, n: f"reader {e.get('reader')}"
    + (f" ({e['name']})" if e.get("name") else "") + f": {e.get('state')}"
    + (f", {e['detail']}" if e.get("detail") else ""),
    "chips.register": lambda e, c, s, n: f"chip set {e.get('set')} registered "
    f"({len(e.get('chips') or {})} chips)" + (", resting" if e.get("idle") else ", in play"),
    "chips.zone": lambda e, c, s, n: f"chips in {_zone(str(e.get('zone')), n)}: "
    f"{chips(e.get('total'))}",
    "tray.counts": lambda e, c, s, n: "tray counted: " + ", ".join(
        f"{k} \u00d7 {v}" for k, v in (e.get("counts") or {}).items()),
}


def event_words(event: Mapping[str, Any], snap: Mapping[str, Any], names: Names,
                card: str | None = None) -> str:
    """The event in words. ``snap`` is the table after it, ``names`` each seat's player as the
    event found them (a player who leaves is still named), ``card`` the card its tag is (the
    deck's name for it, or ``tag UID``). A type without words of its own is its name and
    fields."""
    c = card or str(event.get("card") or event.get("uid") or "")
    words = _WORDS.get(str(event.get("type")))
    if words is not None:
        return words(event, c, snap, names)
    fields = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("seq", "ts", "type"))
    return f"{event.get('type')}" + (f": {fields}" if fields else "")
