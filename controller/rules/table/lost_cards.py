"""Cards that leave the table: a lost ``zone.leave`` (sensing read the tag nowhere in time).

Two irregularities, for every family (research/irregularities.md §1.D; the observability matrix
§3.2 marks both "A (heuristic)": the antennas cannot see the floor, only the silence):

- from ``shoe``: a card drawn that no zone read, dealt off the table (DOWNCARD_DEALT_OFF_TABLE).
  "A downcard dealt off the table is an exposed card" (roberts-rules-v11.txt, Section 3,
  Irregularities, r.12; at stud Section 8 r.11, which the finding cites there). The game's own
  exposed-card rule then governs it, through the one implementation of it (``procedure.exposed``,
  the dealer's exposed key): a board game's hole card is ruled at once; at stud and draw the card
  is marked face up and ruled as a card dealt face up when it is read in the seat.
- from a seat: a hole card of a live hand that no other zone read (PLAYER_DROPS_CARDS_ON_FLOOR,
  Section 3, Irregularities, r.14: the player must still play it; the house setting
  ``dropped_cards`` gives WSOP's floor discretion). Read back in the seat, it is in play again
  and nothing more is raised.

Any other lost leave is an ordinary leave (a card a remedy sends back into the stub is not read
going there). A void hand (waiting for ``misdeal.declared``) raises nothing: its cards are being
gathered. Outside a hand the table layer does not ask. Pure: no I/O.
"""

from __future__ import annotations

from controller.events import SHOE_ZONE
from controller.poker.records import replace
from controller.poker.variants import JOKER
from controller.rules import procedure
from controller.rules.findings import CATALOGUE, Finding, make_finding
from controller.rules.procedure import POST_DEAL, RETURN, GameHand, expected, is_void, zone_name

OFF_TABLE = "DOWNCARD_DEALT_OFF_TABLE"
DROPPED = "PLAYER_DROPS_CARDS_ON_FLOOR"


def leave(h: GameHand, uid: str, zone: str, lost: bool, seq: int
          ) -> tuple[GameHand, list[Finding]]:
    """A ``zone.leave``; ``lost``: no other zone read the card."""
    if not lost:
        return procedure.leave(h, uid, zone), []
    if zone == SHOE_ZONE:
        return _off_table(h, uid, seq)
    out = _dropped(h, uid, zone, seq)
    return procedure.leave(h, uid, zone), out


def _off_table(h: GameHand, uid: str, seq: int) -> tuple[GameHand, list[Finding]]:
    landing = _in_flight(h, uid)
    if landing is None:
        return h, []
    card, where = landing
    seat = int(where[5:]) if where.startswith("seat:") else None
    family = h.family
    if seat is None:
        then = (f"Put it in {zone_name(where)}, where it was going, and deal on."
                if where else "Put it where it was going, face up; call the floor if that "
                "is not clear.")
    elif family == "board":
        then = (f"Put it face up in front of seat {seat}; the exposed-card finding raised with "
                "this one gives the rest of the remedy.")
    else:
        then = (f"Put it face up on seat {seat}'s antenna: the monitor rules it as a card dealt "
                f"face up to seat {seat} when it is read there.")
    f = make_finding(OFF_TABLE, seq, seats=[seat] if seat else [], cards=[card], fill={
        "where": zone_name(where) if where else "the table", "game": h.variant.name,
        "then": then})
    if family == "stud":
        # "A card dealt off the table is treated as an exposed card." (Section 8, r.11)
        f = replace(f, rule=CATALOGUE[OFF_TABLE].rules[1])
    out = [f]
    if seat is not None:
        h, more = procedure.exposed(h, uid, "dealer", seq)
        out += more
    return h, out


def _in_flight(h: GameHand, uid: str) -> tuple[str, str] | None:
    """(card, the zone it was due to, "" if the monitor cannot tell) for a card drawn in this
    hand, judged by the monitor and read in no zone yet; None for anything else."""
    if is_void(h):
        return None
    d = h.deal
    if d is not None:
        c = d.cards.get(uid)
        if (d.off or c is None or c.judged or c.zone is not None or c.card is None
                or uid in h.jokers or any(b[0] == uid for b in d.boxed)):
            return None
        if c.n < d.hole_total:
            return c.card, f"seat:{d.target(c.n)}"
        m = d.slot(c.n)
        where = POST_DEAL[m][0] if d.remedy is None and 0 <= m < len(POST_DEAL) else ""
        return c.card, where
    s = h.cards.get(uid)
    if h.off or s is None or s.judged or s.zone is not None or s.card in (None, JOKER):
        return None
    assert s.card is not None
    if s.n != h.draws - 1:
        return s.card, ""  # cards drawn since: the slot it was due to has moved on
    slot = expected(h)
    if slot.kind == "seat":
        return s.card, f"seat:{slot.seat}"
    return s.card, slot.kind if slot.kind in ("burn", "board") else ""


def _dropped(h: GameHand, uid: str, zone: str, seq: int) -> list[Finding]:
    if not zone.startswith("seat:") or is_void(h):
        return []
    seat = int(zone[5:])
    if seat not in h.live:
        return []  # a folded hand's cards are the dealer's to gather
    d = h.deal
    if d is not None:
        c = d.cards.get(uid)
        if c is None or c.zone != zone or c.home != zone or c.card is None:
            return []
        rem = d.remedy
        if rem is not None and any(s.kind == RETURN and (s.uid == uid or s.from_zone == zone)
                                   for s in rem.steps):
            return []  # the remedy sends it back into the stub
        card = c.card
    else:
        s = h.cards.get(uid)
        if s is None or s.zone != zone or s.seat != seat or not s.fed or s.card is None:
            return []
        card = s.card
    return [make_finding(DROPPED, seq, seats=[seat], cards=[card],
                         setting=h.rules.dropped_cards)]
