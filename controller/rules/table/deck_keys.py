"""The deck-fault key (``deck.fault``): what the dealer or floor reports of the shuffle, the cut,
the cut card and the stub, which the antennas cannot see (research/irregularities.md §3.2: "not
RFID-observable"). Judged against where the deal stands: before the first card the fault is put
right before dealing; once cards are out, the complaint window of RRH Section 3 r.4 ("before
the player has looked at his hand or betting action has started") decides; a fouled stub is
played out (RR Section 3, Irregularities, r.17). Pure: no I/O.
"""

from __future__ import annotations

from controller.rules.findings import Finding, make_finding

CODES = {
    "shuffle_insufficient": "SHUFFLE_INSUFFICIENT",
    "cut_missing": "CUT_MISSING_OR_BY_WRONG_PLAYER",
    "cut_wrong_player": "CUT_MISSING_OR_BY_WRONG_PLAYER",
    "bottom_card_exposed": "BOTTOM_CARD_UNPROTECTED",
    "stub_fouled": "DECK_STUB_FOULED",
}
# What puts each fault right before the deal (the books' own words: RRH Section 3 r.1-3).
_FIX = {
    "shuffle_insufficient": "shuffle the deck again (at least four riffles) and have it cut",
    "cut_missing": "have the deck cut",
    "cut_wrong_player": "have the deck cut by the player the house names (RRH: the player on "
                        "the dealer's right; TDA: the player to the left of the button)",
    "bottom_card_exposed": "deal with the cut card under the deck",
}


def deck_fault(kind: str, cutter: int | None, seq: int, *, cards_out: int, acted: bool,
               expect: str) -> Finding | str:
    """The finding for a deck fault, or (a string) why the key is out of place. ``cards_out``:
    cards off the shoe in the hand under way (0 between hands or before the deal); ``acted``:
    a voluntary betting action has been taken; ``expect``: what the deal expects next."""
    code = CODES[kind]
    if kind == "stub_fouled":
        if not cards_out:
            return ("No card of a deal is out: a deck dropped before the deal is simply "
                    "shuffled again (shuffle.done), there is no stub to reconstitute.")
        return make_finding(code, seq, fill={"cards_out": cards_out,
                                             "expect": expect or "the deal goes on"})
    fix = _FIX[kind]
    if not cards_out:
        when = f"No card is out yet: {fix} before dealing."
    elif not acted:
        when = ("Cards are out but no betting action has started: a player who has not looked "
                "at his hand may still complain. The rulebooks give no remedy for it: call the "
                "floor (a redeal is a misdeal: floor.ruling void); otherwise the hand is "
                f"played on, and before the next deal {fix}.")
    else:
        when = ("Betting action has started: a complaint is too late and the hand is played "
                f"on; before the next deal {fix}.")
    what = (f"seat {cutter} cut the deck, not the player the house names" if cutter is not None
            else "the deck was cut by the wrong player" if kind == "cut_wrong_player"
            else "the deck was not cut")
    return make_finding(code, seq, seats=[cutter] if cutter is not None else [],
                        fill={"when": when, "what": what})
