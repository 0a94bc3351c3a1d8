"""The deck at the live table: a card of another registered deck in a hand, a deck change, and a
deck read through and counted (``deck.audit``, ``controller.poker.deck_count``)."""

from __future__ import annotations

from typing import Literal

from controller.events import (
    DeckAudit,
    DeckChange,
    ZoneLeave,
)
from controller.poker.deck_count import count_deck
from controller.poker.house_rules import Settings
from controller.poker.records import replace
from controller.rules import procedure
from controller.rules.findings import Finding, make_finding
from controller.rules.table.cutoff import cutoff_passed
from controller.rules.table.kernel import (
    CardBody,
    hand_in_play,
    out_of_place,
    voided,
    with_findings,
)
from controller.rules.table.state import Hand, Step, TableState


def _substantial(settings: Settings, h: Hand, book: Literal["wsop", "tda"]) -> bool:
    """Substantial action by ``book``'s own test (the misdeal cut-off's)."""
    return cutoff_passed(replace(settings, misdeal_cutoff=book), h)


def foreign_card(state: TableState, h: Hand, body: CardBody, foreign: tuple[str, str] | None,
                 seq: int) -> Step:
    """A tag of another deck the table registered: a card with a different back (RR Section 3,
    Irregularities, r.3: "all action is void and all chips in the pot are returned to the
    respective bettors"; AZW: "unless substantial action has occurred", the ``foreign_card``
    setting). Raised once, where the card is first seen; the procedure monitor never counts it
    (it is not a card of this deal), so the hand waits for the award key or the misdeal key,
    which give every chip back (``VOIDS_ALL_ACTION``)."""
    if foreign is None or body.uid in h.foreign or isinstance(body, ZoneLeave):
        return Step(state)
    other, card = foreign
    rule = state.settings.foreign_card
    stands = rule == "tda" and _substantial(state.settings, h, "tda")
    zone = getattr(body, "zone", "")
    seats = [int(zone[5:])] if zone.startswith("seat:") else []
    f = make_finding(
        "FOREIGN_BACK_CARD_IN_PLAY", seq, seats=seats, cards=[card],
        setting="tda" if rule == "tda" else "",
        fill={"uid": body.uid, "foreign": other, "deck": state.deck.deck or "none",
              "stands": ("Substantial action has occurred: all action stands; the floor rules "
                         "on the hand that holds the card." if stands else
                         "No substantial action has occurred: all action is void, every chip "
                         "goes back to the player who wagered it.")},
        message=f"Tag {body.uid} is {card} of deck {other}: a card with a different back.")
    g = procedure.stand(h.game) if stands else voided(h.game, f.code)
    h = replace(h, game=g, foreign=(*h.foreign, body.uid))
    return Step(with_findings(replace(state, hand=h), [f]), (f,))


def deck_change(state: TableState, body: DeckChange, seq: int) -> Step:
    """A resting deck of the rotation put in play between hands (RR Section 2, House Policies,
    r.22: "A new deck must be used for at least a full round ... before it may be changed ...
    unless a deck is defective or damaged"; the core does not count the round, the floor
    decides when). The one in play before rests, so a card of it in a later hand is a card with
    a different back (FOREIGN_BACK_CARD_IN_PLAY), not an unknown tag. During a hand the cards
    out are the deck in play's: a change then is refused (EVENT_OUT_OF_PLACE)."""
    if hand_in_play(state):
        return out_of_place(state, seq, f"The deck cannot be changed to {body.deck} during a "
                            "hand: change decks between hands.")
    reg = state.deck
    if body.deck == reg.deck:
        return out_of_place(state, seq, f"Deck {body.deck} is already in play.")
    changed = reg.change_to(body.deck)
    if changed is None:
        resting = ", ".join(reg.resting()) or "none"
        return out_of_place(state, seq, f"Deck {body.deck} is not a registered resting deck "
                            f"of this table (resting: {resting}).")
    return Step(replace(state, deck=changed))


def audit(state: TableState, body: DeckAudit, seq: int) -> Step:
    """The deck read through the shoe: between hands the whole deck, during a hand the stub
    (the cards out on the felt count as present). Cards missing "does not invalidate the
    results of a hand" (RR Section 3, Irregularities, r.10); a card of another deck in the stub
    leaves "all action stands" (r.3; WSOP: only after substantial action, the ``foreign_card``
    setting)."""
    reg = state.deck
    if not len(reg):
        return out_of_place(state, seq, "No deck is registered to audit.")
    h = state.hand if hand_in_play(state) else None
    felt = procedure.seen(h.game) if h is not None else frozenset()
    count = count_deck(reg, body.uids, present=felt)
    out: list[Finding] = []
    if count.missing:
        cards = list(dict.fromkeys(reg.tags[u] for u in count.missing))
        out.append(make_finding("MISSING_CARDS_FROM_DECK", seq, cards=cards, fill={
            "count": len(count.missing), "size": len(reg), "deck": reg.deck or "none"}))
    if count.foreign or count.unknown:
        known = count.foreign
        names = [f"{c} of deck {d} (tag {u})" for u, d, c in known]
        names += [f"tag {u} of no registered deck" for u in count.unknown]
        void = (h is not None and state.settings.foreign_card == "wsop"
                and not _substantial(state.settings, h, "wsop"))
        f = make_finding(
            "FOREIGN_BACK_CARD_IN_STUB", seq, cards=[c for _, _, c in known],
            setting="wsop" if state.settings.foreign_card == "wsop" else "",
            fill={"foreign": "; ".join(names),
                  "stands": ("No substantial action has taken place: all action is void, every "
                             "chip goes back to the player who wagered it." if void else
                             "All action stands: substantial action has taken place, and the "
                             "card is taken out before it can appear in a hand or on the "
                             "board." if h is not None else "All action stands.")})
        out.append(f)
        if void and h is not None:
            state = replace(state, hand=replace(h, game=voided(h.game, f.code)))
    return Step(with_findings(state, out), tuple(out))
