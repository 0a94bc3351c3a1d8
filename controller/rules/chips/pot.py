"""The pot's chips followed by their tags: chips leaving or entering the pot during a hand, and
the award pushed to the winners (issue 13, item 5).

Pure. Chip sensing settles a zone that gained chips before the zone they left
(``controller/sensing/chips.py``), so when the pot's content changes, a chip that left it is
already listed where it went, and a chip that came is still listed where it came from.

During a hand the pot only grows, from the bet zones (the dealer's scoop) and the players'
stacks (antes put straight in). A chip leaving it for the tray or the drop is skimmed
(CHIP_POT_SKIM); one leaving for a seat's zone, or for no zone at all, and one coming from the
tray, is a pot moving without a reason (CHIP_POT_UNEXPLAINED).

At ``hand.end`` every chip of the hand (in the pot or a bet zone) is recorded with its
denomination (``Award``), and where each one lands next is followed: a seat's bet or stack zone
pays that seat; the tray or the drop is the house's (the rake, up to the table's schedule:
``table.setup``'s ``rake_percent`` and ``rake_cap``). When the pot is empty (or at the next
``hand.start``) each seat's chips received are judged against the core's award (its shares of
the pots, an uncalled bet returned included): paid to a seat with no share
(CHIP_AWARD_WRONG_SEAT), more than its share (CHIP_AWARD_OVER), and a shortfall that neither
a wrong seat nor the tray explains (CHIP_AWARD_SHORT). Chips to the tray beyond the rake are a
skim. The award is judged only where the hand's chips make its pot: a table whose pot is not
read, or whose chips in the middle do not add up to the pot the engine built, is told so once
(CHIP_POT_UNEXPLAINED) and its award is not judged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from controller.events import ChipsZone
from controller.poker.pots import PotAward
from controller.poker.records import replace
from controller.rules.chips.zones import Chips, zone_seat
from controller.rules.findings import Finding, make_finding

HOUSE_ZONES = ("tray", "drop")


@dataclass(frozen=True)
class Award:
    """The chips of a hand as they were at ``hand.end`` and where each has gone since."""

    chips: Mapping[str, int]  # uid -> denomination
    holder: Mapping[str, str]  # uid -> the zone it was last seen come into
    due: Mapping[int, int]  # seat -> chips due from the award
    rake: int  # the most the house may take from this hand's pots
    # chips still where they were at hand.end (a bet not yet scooped or pushed)
    unmoved: frozenset[str] = frozenset()
    judged: bool = False


@dataclass(frozen=True)
class Judged:
    """An award judged: the findings, the chips the house took (legit rake and skim), and the
    legit rake each winner paid (the core's stacks are cut by it)."""

    findings: tuple[Finding, ...]
    to_house: int
    rake_paid: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))


def _where(chips: Chips, uid: str, besides: str) -> str | None:
    """The zone (other than ``besides``) whose settled content lists the chip."""
    for name, z in chips.zones.items():
        if name != besides and uid in z.uids:
            return name
    return None


def pot_during_hand(before: Chips, after: Chips, body: ChipsZone, seq: int
                    ) -> tuple[int, tuple[Finding, ...]]:
    """The pot settled during a hand: chips that left it or came from the tray. Returns the
    chips that went to the house (for the ledger) and the findings."""
    old = before.zones.get("pot")
    was = set(old.uids) if old is not None else set()
    now = set(body.uids)
    reg = after.registry
    out: list[Finding] = []
    skimmed: dict[str, int] = {}
    strayed: dict[str, int] = {}  # where they went -> chips
    for uid in sorted(was - now):
        d = reg.denomination_of(uid) or 0
        dest = _where(after, uid, "pot")
        if dest in HOUSE_ZONES:
            skimmed[dest] = skimmed.get(dest, 0) + d
        else:
            seat = zone_seat(dest) if dest is not None else None
            to = (f"to seat {seat}" if seat is not None else "out of sight" if dest is None
                  else f"to the {dest}")
            strayed[to] = strayed.get(to, 0) + d
    came = [uid for uid in sorted(now - was) if _where(after, uid, "pot") in HOUSE_ZONES]
    house = sum(skimmed.values())
    if skimmed:
        out.append(make_finding("CHIP_POT_SKIM", seq, fill={
            "amount": house, "where": " and ".join(f"the {z}" for z in sorted(skimmed)),
            "when": "during the hand", "allowed": 0}))
    if strayed or came:
        parts = []
        if strayed:
            parts.append("chips left the pot during the hand: " + ", ".join(
                f"{n} {to}" for to, n in strayed.items()))
        if came:
            total = sum(reg.denomination_of(u) or 0 for u in came)
            parts.append(f"{total} in chips came into the pot from the tray")
        detail = "; ".join(parts)
        out.append(make_finding("CHIP_POT_UNEXPLAINED", seq, fill={
            "detail": detail[:1].upper() + detail[1:] + "."}))
    return house, tuple(out)


def rake_allowed(pot: int, percent: int, cap: int) -> int:
    """The house's rake of a pot by the table's schedule: ``percent`` of it, rounded down, at
    most ``cap`` (0: no cap)."""
    r = pot * percent // 100
    return min(r, cap) if cap else r


def open_award(chips: Chips, awards: Sequence[PotAward], percent: int, cap: int, seq: int
               ) -> tuple[Award | None, tuple[Finding, ...]]:
    """The award to follow from ``hand.end``: every chip in the pot or a bet zone. None (with
    the reason, when the chips do not make the pot) where it cannot be judged."""
    if "pot" not in chips.zones:
        return None, ()
    due: dict[int, int] = {}
    for a in awards:
        for seat, n in a.shares.items():
            due[seat] = due.get(seat, 0) + n
    pot = sum(due.values())
    reg = chips.registry
    held: dict[str, int] = {}
    holder: dict[str, str] = {}
    for name, z in chips.zones.items():
        if name == "pot" or name.startswith("bet:"):
            for uid in z.uids:
                d = reg.denomination_of(uid)
                if d is not None:
                    held[uid], holder[uid] = d, name
    total = sum(held.values())
    if total != pot:
        f = make_finding("CHIP_POT_UNEXPLAINED", seq, fill={"detail": (
            f"At the award the pot and the bets in front hold {total} in chips; the hand's "
            f"pots are {pot}. The award is not checked against the chips.")})
        return None, (f,)
    return Award(MappingProxyType(held), MappingProxyType(holder), MappingProxyType(due),
                 rake_allowed(pot, percent, cap), frozenset(held)), ()


def follow(award: Award, body: ChipsZone) -> Award:
    """A zone settled after ``hand.end``: the chips of the hand that came into it are there."""
    came = [u for u in body.added if u in award.chips]
    if not came:
        return award
    return replace(award, holder=MappingProxyType({**award.holder,
                                                   **{u: body.zone for u in came}}),
                   unmoved=award.unmoved - set(came))


def ready(award: Award, chips: Chips) -> bool:
    """The push is over: the pot is empty and no bet of a seat with no share waits to be taken
    to a winner (the next ``hand.start`` judges whatever is left, as it lies)."""
    pot = chips.zones.get("pot")
    if award.judged or pot is None or pot.uids:
        return False
    return not any((seat := zone_seat(award.holder[u])) is not None
                   and award.due.get(seat, 0) == 0 for u in award.unmoved)


def judge(award: Award, seq: int) -> Judged:
    """Each seat's chips received against its share (see the module doc)."""
    got: dict[int, int] = {}
    house = 0
    left = 0
    for uid, zone in award.holder.items():
        d = award.chips[uid]
        seat = zone_seat(zone)
        if seat is not None:
            got[seat] = got.get(seat, 0) + d
        elif zone in HOUSE_ZONES:
            house += d
        elif zone == "pot":
            left += d
    out: list[Finding] = []
    rake = min(house, award.rake)
    if house > award.rake:
        out.append(make_finding("CHIP_POT_SKIM", seq, fill={
            "amount": house - award.rake, "where": "the tray or the drop",
            "when": "at the award", "allowed": award.rake}))
    wrong = {s: n for s, n in sorted(got.items()) if award.due.get(s, 0) == 0}
    short = {s: d - got.get(s, 0) for s, d in sorted(award.due.items()) if got.get(s, 0) < d}
    for s, n in wrong.items():
        owed = ", ".join(f"seat {w} {n2} short" for w, n2 in short.items()) or "nobody"
        out.append(make_finding("CHIP_AWARD_WRONG_SEAT", seq, seats=[s, *short], fill={
            "seat": s, "amount": n, "short": owed}))
    for s, d in sorted(award.due.items()):
        if d and got.get(s, 0) > d:
            out.append(make_finding("CHIP_AWARD_OVER", seq, seats=[s], fill={
                "seat": s, "amount": got[s], "due": d, "over": got[s] - d}))
    unexplained = sum(short.values()) - sum(wrong.values()) - house
    if unexplained > 0:
        seats = list(short)
        named = ", ".join(f"seat {s} got {got.get(s, 0)} of {award.due[s]}" for s in seats)
        where = f"; {left} is still in the pot" if left else ""
        out.append(make_finding("CHIP_AWARD_SHORT", seq, seats=seats, fill={
            "detail": named + where, "amount": unexplained}))
    # the legit rake comes out of the winners' shortfalls (the core's stacks are cut by it)
    paid: dict[int, int] = {}
    todo = rake
    for s, n in short.items():
        if todo <= 0:
            break
        cut = min(n, todo)
        paid[s] = cut
        todo -= cut
    return Judged(tuple(out), house, MappingProxyType(paid))
