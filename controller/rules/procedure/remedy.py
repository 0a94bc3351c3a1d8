"""The moves a remedy calls for, in one shape for every game, and the finding when one is missed.

A finding whose remedy fixes the next cards leaves the moves it calls for: the card to put in a
zone (a named card, or the next card off the shoe), a card to return to the stub, the stub to
reshuffle. The board procedure (``board_deal.py``) and the stud and draw procedure
(``stud_draw.py``) keep them as ``Step`` values, check each card that moves against them, and
raise one finding when a card goes elsewhere: REMEDY_NOT_FOLLOWED (roberts-rules-v11.txt,
Section 3, Irregularities, r.16: "subsequent cards dealt should be those that would have come
if no error had occurred"; the remedy of the earlier finding named them). Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from controller.rules.findings import Finding, make_finding

PUT = "put"  # a card is read in a zone (uid "": the next card off the shoe)
RETURN = "return"  # a card goes back into the stub (zone.leave; a stub shuffle also gathers it)
SHUFFLE = "shuffle"  # the stub is reshuffled (shuffle.done during the hand)

# The betting round each count of complete rounds leaves behind (board games: a card that must
# wait for the flop betting is drawn once two rounds are complete).
STREET_BEFORE = {1: "preflop", 2: "flop", 3: "turn"}


def zone_name(zone: str) -> str:
    """A zone as the dealer says it: "seat 3", "the burn"."""
    return f"seat {zone[5:]}" if zone.startswith("seat:") else f"the {zone}"


@dataclass(frozen=True)
class Step:
    """One move a remedy calls for."""

    kind: str  # PUT, RETURN or SHUFFLE
    zone: str = ""  # PUT: where the card is read
    uid: str = ""  # the card ("" for PUT: the next card off the shoe)
    name: str = ""  # the card's name, for people
    rounds: int = 0  # PUT from the shoe: betting rounds that must be complete when it is drawn
    # "One of the cards in this zone" (the floor or a scramble picks which): the first card that
    # leaves the zone (RETURN) or moves from it to ``zone`` (PUT) makes the move, and a later
    # step of the same ``from_zone`` is then that card.
    from_zone: str = ""
    face_up: bool | None = None  # PUT: which way up the card must come (None: either)
    # Where the moves of several findings queue one after another (stud and draw), each step
    # names its finding ("<CODE> (seq N)"); board games keep one remedy at a time, which does.
    after: str = ""
    text: str = ""  # what the rule says to do, where it words the move itself
    # The step may come before the steps of the same finding listed ahead of it: the rulebooks
    # leave the order open, and either order ends in the same cards.
    any_order: bool = False

    def fits(self, uid: str, zone: str, face_up: bool) -> bool:
        """Is a card ``uid`` read in ``zone`` this PUT move?"""
        return (self.kind == PUT and self.zone == zone and (not self.uid or self.uid == uid)
                and (self.face_up is None or self.face_up == face_up))

    def says(self) -> str:
        if self.text:
            return self.text
        if self.kind == SHUFFLE:
            return "reshuffle the stub and cut"
        if self.kind == RETURN and self.from_zone and not self.uid:
            return f"one card of the {self.from_zone} off it (picked at random)"
        if self.kind == RETURN:
            return f"{self.name} back into the stub"
        if self.from_zone and not self.uid:
            return f"one card of the {self.from_zone} (picked at random) to the {self.zone}"
        where = zone_name(self.zone)
        if self.uid:
            return f"{self.name} to {where}"
        after = f" after the {STREET_BEFORE[self.rounds]} betting" if self.rounds else ""
        return f"the next card off the shoe to {where}{after}"


def wanted(steps: Sequence[Step]) -> str:
    """The moves still due, as the dealer reads them."""
    return ", then ".join(s.says() for s in steps) or "nothing more"


def not_followed(seq: int, detail: str, after: str, want: str, *, cards: Sequence[str] = (),
                 seats: Sequence[int] = (), message: str = "") -> Finding:
    """REMEDY_NOT_FOLLOWED: a card (or a player) did not do what the remedy of ``after`` said
    (roberts-rules-v11.txt, Section 3, Irregularities, r.16)."""
    return make_finding("REMEDY_NOT_FOLLOWED", seq, seats=list(seats), cards=list(cards),
                        fill={"detail": detail, "after": after, "wanted": want},
                        message=message)


def went_to(name: str, zone: str, face_up: bool = False) -> str:
    """The usual detail: where the card went (face up, where that is the fault)."""
    up = " face up" if face_up and zone.startswith("seat:") else ""
    return f"{name} went to {zone_name(zone)}{up}."
