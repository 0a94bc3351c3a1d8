"""The end of a hand: ``hand.end`` awards the pots (``pots.settle``) when betting is over and hands
the stacks to ``blinds.finish_hand`` (obligations met, blinds missed, busts); a misdeal
(``misdeal.declared``) voids the hand and returns every chip; a mixed game's next game chosen."""

from __future__ import annotations

from controller.events import (
    GameChoose,
)
from controller.poker.pots import with_carry
from controller.poker.records import replace
from controller.rules import chips as chip_rules
from controller.rules import procedure
from controller.rules.findings import make_finding
from controller.rules.table import blinds, mixed, seating
from controller.rules.table.kernel import hand_in_play, out_of_place, with_findings
from controller.rules.table.seating import SeatingError
from controller.rules.table.state import Hand, Step, TableState

# Findings after which "all action is void and all chips in the pot are returned to the players
# who wagered them" (roberts-rules-v11.txt, Section 3, Irregularities, r.3 a card of another
# deck, r.4 two cards of the same rank and suit): not subject to the misdeal cut-off.
VOIDS_ALL_ACTION = frozenset({"DUPLICATE_CARD", "UNKNOWN_TAG", "CARD_NOT_IN_GAME_DECK",
                              "FOREIGN_BACK_CARD_IN_PLAY", "FOREIGN_BACK_CARD_IN_STUB"})


def hand_end(state: TableState, seq: int) -> Step:
    h = state.hand
    if h is None or not h.in_play:
        return out_of_place(state, seq, "There is no hand in progress to award.")
    if procedure.is_void(h.game) and any(f.code in VOIDS_ALL_ACTION for f in state.findings):
        # The award key on a hand whose action is void awards nothing: every chip goes back to
        # whoever wagered it, as at a misdeal (RR Section 3, Irregularities, r.3-4), with no
        # separate misdeal key needed. A floor ruling that the hand stands clears the void.
        return misdeal(state, seq)
    return _game_end(state, h, h.game, seq)


def _game_end(state: TableState, h: Hand, g: procedure.GameHand, seq: int) -> Step:
    """``hand.end``: the procedure's last checks, then the engine settles the pots; the
    seating layer carries the stacks on."""
    g, out, awards, stacks, problem = procedure.end(g, seq)
    h = replace(h, game=g)
    carry = state.carry
    if not problem and g.eng.carry_over and not awards:
        carry += g.eng.carry_over  # nobody opened: the antes stay for the next deal
    elif not problem and carry and awards:
        awards, stacks = with_carry(awards, stacks, carry, g.seats)
        carry = 0
    if problem:
        detail = f"{problem[:1].upper()}{problem[1:]}."
        f = make_finding("SHOWDOWN_INCOMPLETE", seq, fill={"detail": detail}, message=detail)
        out.append(f)
        return Step(with_findings(replace(state, hand=h), out), tuple(out))
    table = state.seating
    if h.plan is not None:
        forced = sum(p.amount for p in h.plan.posts)
        results = tuple(seating.PotResult(winners=a.winners, amount=a.amount,
                                          beyond_blinds=max(a.amount - forced, 0))
                        for a in awards if a.winners)
        after = {s: v for s, v in stacks.items() if s in table.seats}
        try:
            table = blinds.finish_hand(table, h.plan, after, pots=results)
        except SeatingError as exc:  # pragma: no cover - the plan is the table's own
            detail = f"The seating layer refused the hand's end: {exc}."
            out.append(make_finding("EVENT_OUT_OF_PLACE", seq, fill={"detail": detail},
                                    message=detail))
    h = replace(h, phase="complete", showdown=g.live if len(g.live) > 1 else ())
    if awards and "pot" in state.chips.zones:
        # the chips of the hand followed to the winners (chips/pot.py)
        award, told = chip_rules.open_award(state.chips, awards, state.setup.rake_percent,
                                            state.setup.rake_cap, seq)
        h = replace(h, bets=replace(h.bets, award=award))
        out.extend(told)
    new = replace(state, hand=h, seating=table, results=awards, shuffled=False, carry=carry,
                  mix=mixed.completed(state.mix))
    return Step(with_findings(new, out), tuple(out), awards)


def misdeal(state: TableState, seq: int) -> Step:
    h = state.hand
    if h is None or not h.in_play:
        return out_of_place(state, seq, "There is no hand in progress to declare a misdeal in.")
    g, out = procedure.moving_on(h.game)
    # The hand is void: every chip goes back to its owner (RR Section 3, Misdeals; Glossary,
    # MISDEAL: "the cards to be reshuffled and a new hand to be dealt").
    # The seating layer's stacks were never touched during the hand: the void hand leaves them
    # as they were, and the redeal re-plays the same plan.
    h = replace(h, game=g, phase="misdeal", showdown=())
    new = replace(state, hand=h, redeal=True, shuffled=False)
    return Step(with_findings(new, out), tuple(out))


def choose(state: TableState, body: GameChoose, seq: int) -> Step:
    """Dealer's choice: the dealer names the next hand's game (JPN Dealer's Choice)."""
    if hand_in_play(state):
        return out_of_place(state, seq, "The next game is named between hands.")
    got = mixed.choose(state.mix, body.game, body.structure)
    if isinstance(got, str):
        return out_of_place(state, seq, got)
    return Step(replace(state, mix=got))
