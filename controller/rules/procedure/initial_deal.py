"""How a card of the initial deal that reaches the wrong place is ruled, in every game.

The misdeal list is the same for the board games, stud and draw (roberts-rules-v11.txt,
Section 3, Misdeals, r.2; Section 8 for stud; Section 11 r.1 and Section 12 r.3 for draw), so the
ruling is made here once and each procedure (``board_deal.py``; ``stud_draw.py`` for stud and
draw) only keeps its own books afterwards: which card is dead, which seat is owed one. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from controller.rules.findings import Finding, make_finding
from controller.rules.procedure.remedy import zone_name

# The lowball misdeal list keeps "Cards have been dealt to an empty seat" where WSOP's general
# list does not (WSOP Section 11 Lowball r.2(h); badugi uses it, Section 12 Badugi r.3): the
# house setting empty_seat_cards = killed_except_lowball (research/irregularities.md D-04).
LOWBALL_MISDEALS = frozenset({"a5_lowball", "27_single", "27_triple", "badugi"})

MISSED_BLIND = "MISSED_BLIND_PLAYER_DEALT_IN"
KILLED = "CARD_TO_EMPTY_SEAT_KILLED"


@dataclass(frozen=True)
class WrongPlace:
    """The ruling on one card of the initial deal that did not go to the seat due it."""

    code: str
    seats: tuple[int, ...]
    fill: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    setting: str = ""

    def finding(self, seq: int, card: str) -> Finding:
        return make_finding(self.code, seq, seats=list(self.seats), cards=[card],
                            fill=dict(self.fill), setting=self.setting)


def wrong_place(*, first: bool, due: int, zone: str, dealt_in: Collection[int],
                owes: Mapping[int, str], why: Mapping[int, str], empty_seat: str,
                lowball: bool) -> WrongPlace:
    """The card due to seat ``due`` went to ``zone`` instead (``first``: it was the first card
    of the deal). ``dealt_in``: the seats in the hand; ``owes``: the seats out of it that owe
    missed blinds; ``why``: why each other seat is out; ``empty_seat``: the house setting
    empty_seat_cards; ``lowball``: the game keeps the lowball misdeal list."""
    landed = int(zone[5:]) if zone.startswith("seat:") and zone[5:].isdigit() else None
    fill: dict[str, object] = {"expected": due, "landed": zone_name(zone)}
    if landed is not None and landed not in dealt_in:
        reason = why.get(landed, "an empty seat")
        if landed in owes:
            # A player owing missed blinds dealt in without posting: not a misdeal
            # (roberts-rules-v11.txt, Section 4, Rules for Using Blinds, r.11).
            return WrongPlace(MISSED_BLIND, (landed,), MappingProxyType(
                {**fill, "owes": owes[landed]}))
        killed = empty_seat == "killed_except_lowball"
        if killed and not lowball:
            # WSOP's misdeal list (Section 3 Misdeals r.1) has no card dealt to an empty seat
            # (research D-04): the card is dead and the deal goes on; the next card is still
            # due to the seat this one was due to.
            return WrongPlace(KILLED, (landed,), MappingProxyType({**fill, "why": reason}))
        # RR Section 3, Misdeals, r.2(i): "Cards have been dealt to an empty seat or a player
        # not entitled to a hand."
        return WrongPlace("MISDEAL_DEALT_TO_EMPTY_OR_INELIGIBLE_SEAT", (landed,),
                          MappingProxyType({**fill, "why": reason}),
                          setting="killed_except_lowball" if killed else "")
    seats = (due,) if landed is None else (due, landed)
    if first:
        # RR Section 3, Misdeals, r.2(h): "The first card was dealt to the wrong position."
        return WrongPlace("MISDEAL_FIRST_CARD_WRONG_POSITION", seats, MappingProxyType(fill))
    # RR Section 3, Misdeals, r.2(f): "Any card has been dealt out of the proper sequence."
    return WrongPlace("MISDEAL_CARD_OUT_OF_SEQUENCE", seats, MappingProxyType(fill))


def passed_over(*, due: int, zone: str, counts: Mapping[int, int], size: int,
                complete: bool) -> WrongPlace:
    """The card due to seat ``due`` went to ``zone``, the next seat, and the next card did not
    go to ``due`` (two cards swapped is the sequence, ``wrong_place``). Ruled when the round of
    dealing is complete (``complete``: the dealer has moved on to the betting or the board, or
    every card of the round is out), from each seat's count then (``counts``: seat -> cards
    held; ``size``: a starting hand): a count can only be judged once the round is over, since
    the seat may yet get its card in proper sequence (roberts-rules-v11.txt, Section 3, Misdeals,
    r.2(e), "except the top card may be dealt if it goes to the player in proper sequence").

    - ``due`` holds no card: it was dealt out (r.2(j));
    - some seat holds too few: an incorrect number of cards (r.2(e));
    - every count is right (or the round was stopped before it was complete, when no count can
      be judged): the card was dealt out of the proper sequence (r.2(f))."""
    fill: dict[str, object] = {"expected": due, "landed": zone_name(zone)}
    landed = int(zone[5:]) if zone.startswith("seat:") and zone[5:].isdigit() else None
    if complete:
        if counts.get(due, 0) == 0:
            # RR Section 3, Misdeals, r.2(j): "A player has been dealt out who is entitled to a
            # hand."
            return WrongPlace("MISDEAL_ENTITLED_PLAYER_DEALT_OUT", (due,), MappingProxyType(
                {**fill, "seat": due, "landed": zone[5:] if landed is not None else zone}))
        short = tuple(s for s, k in sorted(counts.items()) if k < size)
        if short:
            held = "; ".join(f"seat {s} holds {counts[s]}" for s in short)
            # RR Section 3, Misdeals, r.2(e): "An incorrect number of cards has been dealt to a
            # player"
            return WrongPlace("MISDEAL_INCORRECT_CARD_COUNT", short, MappingProxyType({
                **fill, "detail": f"Seat {due} was passed over: its card went to "
                                  f"{zone_name(zone)}. The round of dealing is over and {held} "
                                  f"of the {size} card(s) of a starting hand."}))
    # RR Section 3, Misdeals, r.2(f): "Any card has been dealt out of the proper sequence."
    return WrongPlace("MISDEAL_CARD_OUT_OF_SEQUENCE", (due,) if landed is None else (due, landed),
                      MappingProxyType(fill))
