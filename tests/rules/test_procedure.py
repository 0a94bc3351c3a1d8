"""The procedure monitor of the stud and draw families (controller/rules/procedure.py)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from controller.events import Event, ShoeDraw, ZoneRead
from controller.rules import apply, initial_state, snapshot
from controller.rules.catalogue_games import GAME_ENTRIES
from controller.rules.engine import Hand, Stakes
from controller.rules.variants import VARIANTS
from controller.sim import GameDealer, expand
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
    d = GameDealer(game, random.Random(seed), seats=4)
    state, seq, states = initial_state(), 0, []
    for step in d.next_hand():
        for body in expand(step):
            seq += 1
            state = apply(state, Event(seq, 0, body)).state
            states.append(state)
            if seq == stop:
                return states
    return states


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
        states = _play_until(game, 10_000, seed=8)
        before = [json.dumps(snapshot(s), sort_keys=True) for s in states]
        again = [json.dumps(snapshot(s), sort_keys=True) for s in states]
        assert before == again
        last = states[-1]
        probe = apply(last, Event(10**6, 0, ShoeDraw(uid="no-such-tag")))
        probe = apply(probe.state, Event(10**6 + 1, 0, ZoneRead(uid="no-such-tag", zone="board")))
        assert json.dumps(snapshot(last), sort_keys=True) == before[-1]


def test_an_engine_copy_is_independent() -> None:
    h = Hand(VARIANTS["stud"], Stakes(antes=(1, 1, 1), bring_in=1, small_bet=2, big_bet=4),
             [50, 50, 50])
    c = h.copy()
    c.deal_hole(0, ["As"])
    assert h.holes[0] == [] and c.holes[0] == ["As"]
    assert h.hole_needed(0) == 3 and c.hole_needed(0) == 2
