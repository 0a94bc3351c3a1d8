"""The procedure monitor of the stud and draw families (controller/rules/procedure/monitor.py)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from controller.events import CardExposed, Event, ShoeDraw, ZoneLeave, ZoneRead
from controller.poker.variants import VARIANTS
from controller.rules import apply, initial_state, snapshot
from controller.rules.engine.hand import Hand, Stakes
from controller.rules.findings.games import GAME_ENTRIES
from controller.sim import SimDealer, expand
from display.payloads import table_payload

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
# codes of the hold'em catalogue that the stud and draw families raise too
SHARED = ("MISDEAL_FIRST_CARD_WRONG_POSITION", "MISDEAL_CARD_OUT_OF_SEQUENCE", "DUPLICATE_CARD",
          "DRAW_AFTER_HAND_END", "JOKER_IN_NON_JOKER_GAME", "REMEDY_NOT_FOLLOWED")


def _codes(prefix: str) -> set[str]:
    out = set()
    for p in SCENARIOS.glob(f"{prefix}_*.jsonl"):
        for line in p.read_text(encoding="utf-8").splitlines():
            if line.startswith("# expect:"):
                out.add(json.loads(line[len("# expect:"):]).get("code"))
    return out


def test_every_family_code_has_a_scenario_in_its_family() -> None:
    stud, draw = _codes("stud"), _codes("draw")
    for e in GAME_ENTRIES:
        if e.code.startswith("STUD_"):
            assert e.code in stud, e.code
        elif e.code.startswith("DRAW_"):
            assert e.code in draw, e.code
    for code in SHARED:
        assert code in stud and code in draw, code
    assert "MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED" in draw
    assert "BURN_MISSING_OR_EXTRA" in draw


def _play_until(game: str, stop: int, seed: int = 3) -> list:
    d = SimDealer(random.Random(seed), seats=4, game=game)
    state, seq, states = initial_state(), 0, []
    for step in d.next_hand():
        for body in expand(step):
            seq += 1
            state = apply(state, Event(seq, 0, body)).state
            states.append(state)
            if seq == stop:
                return states
    return states


def _keyed(game: str, nth_read: int, zone_prefix: str = "seat:") -> tuple[list, str]:
    """A clean hand of ``game`` with the dealer's exposed key pressed right after the
    ``nth_read`` zone read of a card in a seat: the findings, and that card."""
    d = SimDealer(random.Random(2), seats=4, game=game)
    bodies = [b for step in d.next_hand() for b in expand(step)]
    reads = [i for i, b in enumerate(bodies) if isinstance(b, ZoneRead)
             and b.zone.startswith(zone_prefix)]
    at = reads[nth_read]
    uid = bodies[at].uid
    bodies.insert(at + 1, CardExposed(uid=uid, by="dealer"))
    state, found = initial_state(), []
    for seq, body in enumerate(bodies, start=1):
        step = apply(state, Event(seq, 0, body))
        state = step.state
        found += list(step.findings)
    return found, d.tags[uid]


def test_the_dealers_exposed_key_on_a_stud_down_card() -> None:
    found, card = _keyed("stud", 5)  # second pass (4 seats): a down card
    assert [(f.code, list(f.cards)) for f in found][:1] == [("STUD_ONE_HOLECARD_EXPOSED",
                                                              [card])]


def test_the_dealers_exposed_key_on_a_draw_card_of_the_deal() -> None:
    found, card = _keyed("draw5", 6)  # a later card of the deal: draw high keeps it
    assert [(f.code, list(f.cards)) for f in found] == [("DRAW_PREDRAW_EXPOSED_CARD", [card])]
    assert "must take" in " ".join(found[0].remedy)
    first, card = _keyed("draw5", 0)
    # a misdeal: the hand is void (the clean dealer then awards nothing: SHOWDOWN_INCOMPLETE)
    assert [(f.code, list(f.cards)) for f in first] == [
        ("MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED", [card]), ("SHOWDOWN_INCOMPLETE", [])]


def test_stud_upcards_are_public_and_down_cards_are_not() -> None:
    states = _play_until("stud", 10_000)
    mid = next(s for s in states if s.phase == "fifth")
    snap = snapshot(mid)
    pub = table_payload(snap)
    for seat, p in zip(snap["seats"], pub["seats"], strict=True):
        if seat["in_hand"] and not seat["folded"]:
            assert len(seat["up"]) >= 2 and set(seat["up"]) < set(seat["hole"])
            assert p["up"] == seat["up"] and p["hole"] == []  # the down cards stay private
            assert p["hole_count"] == len(seat["hole"])


def test_applying_stud_and_draw_events_never_changes_an_earlier_state() -> None:
    for game in ("razz", "badugi"):
        d = SimDealer(random.Random(8), seats=4, game=game)
        state, states, seen = initial_state(), [], []
        for seq, body in enumerate((b for s in d.next_hand() for b in expand(s)), start=1):
            state = apply(state, Event(seq, 0, body)).state
            states.append(state)
            seen.append(json.dumps(snapshot(state), sort_keys=True))  # as it was then
        probe = apply(state, Event(10**6, 0, ShoeDraw(uid="no-such-tag")))
        apply(probe.state, Event(10**6 + 1, 0, ZoneRead(uid="no-such-tag", zone="board")))
        # every later event (and the probe) left each earlier state as it was
        assert [json.dumps(snapshot(s), sort_keys=True) for s in states] == seen


def test_an_engine_copy_is_independent() -> None:
    h = Hand(VARIANTS["stud"], Stakes(antes=(1, 1, 1), bring_in=1, small_bet=2, big_bet=4),
             [50, 50, 50])
    c = h.copy()
    c.deal_hole(0, ["As"])
    assert h.holes[0] == [] and c.holes[0] == ["As"]
    assert h.hole_needed(0) == 3 and c.hole_needed(0) == 2


def _with_profile(game: str, kind: str, profile: str, keep) -> tuple[list, list]:
    """The first dealer hand making ``kind`` that ``keep(truth)`` accepts, replayed at a table
    of ``profile``: (findings, truth)."""
    from controller.events import TableSetup

    for seed in range(300):
        d = SimDealer(random.Random(seed), seats=4, game=game)
        bodies = [b for step in d.next_hand(kind) for b in expand(step)]
        if not d.truth or d.truth[0].kind != kind or not keep(d.truth, bodies, d):
            continue
        bodies = [TableSetup(**{**b.__dict__, "profile": profile})
                  if isinstance(b, TableSetup) else b for b in bodies]
        state, found = initial_state(), []
        for seq, body in enumerate(bodies, start=1):
            step = apply(state, Event(seq, 0, body))
            state = step.state
            found += list(step.findings)
        return found, d.truth
    raise AssertionError("no such hand")


def test_a5_exposed_six_is_taken_under_roberts_and_replaced_under_wsop() -> None:
    def six_or_seven(truth, bodies, d):
        return truth[0].cards[0][0] in "67"

    rr, truth = _with_profile("a5_lowball", "draw_predraw_exposed", "roberts", six_or_seven)
    assert rr[0].code == "DRAW_PREDRAW_EXPOSED_CARD"
    assert f"must take {truth[0].cards[0]}" in " ".join(rr[0].remedy)
    wsop, _ = _with_profile("a5_lowball", "draw_predraw_exposed", "wsop-2009", six_or_seven)
    assert "is replaced once the deal is complete" in " ".join(wsop[0].remedy)
    # the dealer (following Robert's) lets the player keep it: under WSOP that is not followed
    assert "REMEDY_NOT_FOLLOWED" in [f.code for f in wsop]


def test_a5_exposed_card_replaced_then_burned_in_either_order() -> None:
    """Issue 11: an ace-to-five card exposed on the deal that must be replaced: the replacement
    comes, and "this first exposed card is used as the burncard" (RR Section 11 Ace-to-Five
    r.3). The simulated dealer deals the replacement first; the same hand with the exposed card
    burned first ends in the same cards, and both raise only the exposed card, and settle."""
    from controller.events import HandEnd

    for seed in range(300):
        d = SimDealer(random.Random(seed), seats=4, game="a5_lowball")
        bodies = [b for step in d.next_hand("draw_predraw_exposed") for b in expand(step)]
        if not d.truth or d.truth[0].cards[0][0] in "A234567":
            continue  # a card the player must take: no replacement
        burn = next(i for i, b in enumerate(bodies) if isinstance(b, ZoneRead)
                    and b.zone == "burn" and not isinstance(bodies[i - 1], ShoeDraw))
        # the replacement (drawn, read in the seat), then the exposed card off the seat, to
        # the burn
        assert isinstance(bodies[burn - 3], ShoeDraw) and isinstance(bodies[burn - 1], ZoneLeave)
        swapped = [*bodies[:burn - 3], *bodies[burn - 1:burn + 1], *bodies[burn - 3:burn - 1],
                   *bodies[burn + 1:]]
        for order in (bodies, swapped):
            state, found, awarded = initial_state(), [], False
            for seq, body in enumerate(order, start=1):
                step = apply(state, Event(seq, 0, body))
                state = step.state
                found += [f.code for f in step.findings]
                awarded = awarded or (isinstance(body, HandEnd) and bool(step.results))
            assert found == ["DRAW_PREDRAW_EXPOSED_CARD"]
            assert awarded
        return
    raise AssertionError("no such hand")


def test_stud_last_card_up_first_of_three_rest_down_under_roberts_up_under_wsop() -> None:
    def first_of_three(truth, bodies, d):
        seat = truth[0].seats[0]
        seventh = [b for b in bodies if isinstance(b, ShoeDraw)][-3:]  # the last three cards
        return len(seventh) == 3 and seventh[0].face_up and seat == min(
            int(b.zone[5:]) for b in bodies[-12:] if isinstance(b, ZoneRead)
            and b.zone.startswith("seat:"))

    rr, _ = _with_profile("stud", "stud_final_card_faceup", "roberts", first_of_three)
    assert [f.code for f in rr] == ["STUD_FINAL_CARD_FACEUP"]
    assert "remaining last cards face down" in " ".join(rr[0].remedy)
    wsop, _ = _with_profile("stud", "stud_final_card_faceup", "wsop-2009", first_of_three)
    assert wsop[0].code == "STUD_FINAL_CARD_FACEUP"
    assert "remaining last cards face up" in " ".join(wsop[0].remedy)
    assert "REMEDY_NOT_FOLLOWED" in [f.code for f in wsop]  # the dealer dealt them down


def test_stud_last_card_turned_up_by_the_dealers_key_as_if_dealt_up() -> None:
    """Issue 11: the dealer's exposed key on a seventh-street card is the last card dealt face
    up (RR Section 8 r.16-17; WSOP Section 8 r.17 differs), with the other last cards expected
    face down (RR) or face up (WSOP) when it was the first of three."""
    def first_of_three(truth, bodies, d):
        draws = [b for b in bodies if isinstance(b, ShoeDraw)][-3:]
        keyed = [b for b in bodies if isinstance(b, CardExposed)]
        return len(draws) == 3 and len(keyed) == 1 and keyed[0].uid == draws[0].uid

    rr, truth = _with_profile("stud", "stud_final_card_exposed_key", "roberts", first_of_three)
    assert [(f.code, f.seats, f.cards) for f in rr] == [
        ("STUD_FINAL_CARD_FACEUP", truth[0].seats, truth[0].cards)]
    assert "remaining last cards face down" in " ".join(rr[0].remedy)
    wsop, _ = _with_profile("stud", "stud_final_card_exposed_key", "wsop-2009", first_of_three)
    assert wsop[0].code == "STUD_FINAL_CARD_FACEUP"
    assert "remaining last cards face up" in " ".join(wsop[0].remedy)
    assert "REMEDY_NOT_FOLLOWED" in [f.code for f in wsop]  # the dealer dealt them down


def test_draw_high_antes_nobody_opens_carry_to_the_next_pot() -> None:
    """RR Section 12 r.14: a deal nobody opens keeps its antes for the next; they join that
    deal's main pot and no chip is lost."""
    from controller.events import Action, DeckRegister, HandEnd, HandStart, SeatTake, TableSetup
    from controller.poker.cards import FULL_DECK
    from controller.rules.procedure import expected

    state, seq = initial_state(), 0

    def ev(body):
        nonlocal state, seq
        seq += 1
        step = apply(state, Event(seq, 0, body))
        state = step.state
        assert step.findings == (), [f.code for f in step.findings]
        return step

    ev(TableSetup(game="draw5", seats=6, ante=1, small_bet=2, big_bet=4))
    for n in (1, 2, 3):
        ev(SeatTake(seat=n, player=f"P{n}", stack=100))
    ev(DeckRegister(deck="d", tags={f"T{c}": c for c in FULL_DECK}))
    stub = [f"T{c}" for c in FULL_DECK]
    random.Random(4).shuffle(stub)

    def deal_and_act(opener: bool) -> None:
        ev(HandStart())
        for p in snapshot(state)["hand"]["posts"]:
            ev(Action(seat=p["seat"], kind="post", amount=p["amount"], blind="ante"))
        deck = list(stub)
        while True:
            g = state.hand.game
            slot = expected(g)
            if slot.kind == "seat":
                uid = deck.pop()
                ev(ShoeDraw(uid=uid))
                ev(ZoneRead(uid=uid, zone=f"seat:{slot.seat}"))
                continue
            to_act = g.to_act
            if to_act is None:
                break
            if opener:
                ev(Action(seat=to_act, kind="bet", amount=2))
                while state.hand.game.to_act is not None:
                    ev(Action(seat=state.hand.game.to_act, kind="fold"))
                break
            ev(Action(seat=to_act, kind="check"))

    deal_and_act(opener=False)
    step = ev(HandEnd())
    assert step.results == () and state.carry == 3
    assert sum(s.stack for s in state.seats.values()) == 297
    deal_and_act(opener=True)
    step = ev(HandEnd())
    *uncalled, main = step.results  # the opener's uncalled bet goes back first
    assert [a.amount for a in uncalled] == [2]
    assert main.amount == 3 + 3  # this deal's antes and the carried ones
    assert sum(main.shares.values()) == 6
    assert state.carry == 0 and sum(s.stack for s in state.seats.values()) == 300
