"""Writes the stud and draw scenarios (``stud_*.jsonl``, ``draw_*.jsonl``) from the simulated
dealer of those games, one per mistake kind and family.

    .venv/bin/python tests/scenarios/make_family_scenarios.py

Each file is the first hand of a fresh ``GameDealer`` making that mistake (the seed is searched
until the hand holds it). The ``# expect:`` lines come from the dealer's truth (code, seats,
cards: what it did), the code's rule, and a remedy phrase naming the seat or card, never from
the monitor; the generator refuses to write a scenario the rules core does not meet, so a
regression shows here and in ``tests/rules/test_scenarios.py``.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from controller.events import Event  # noqa: E402
from controller.rules import apply, initial_state  # noqa: E402
from controller.rules.catalogue import CATALOGUE  # noqa: E402
from controller.sim import GameDealer, expand  # noqa: E402
from controller.sim.dealer import Mistake  # noqa: E402

# what the remedy must say, from the truth
PHRASE: dict[str, Callable[[Mistake], str]] = {
    "STUD_ONE_HOLECARD_EXPOSED": lambda m: f"Deal seat {m.seats[0]}'s third card face down",
    "STUD_BOTH_HOLECARDS_EXPOSED": lambda m: f"Give seat {m.seats[0]} its ante back",
    "REMEDY_NOT_FOLLOWED": lambda m: f"{m.cards[0]} was dealt face up to seat {m.seats[0]}",
    "STUD_WRONG_LOWCARD_DESIGNATED": lambda m: f"seat {m.seats[1]} must bring it in",
    "STUD_BURN_ERROR": lambda m: m.cards[0],
    "STUD_PREMATURE_STREET": lambda m: f"{m.cards[0]} was dealt for",
    "STUD_FINAL_CARD_FACEUP": lambda m: f"Seat {m.seats[0]}'s last card {m.cards[0]} was dealt",
    "MISDEAL_FIRST_CARD_WRONG_POSITION": lambda m: m.cards[0],
    "MISDEAL_CARD_OUT_OF_SEQUENCE": lambda m: m.cards[0],
    "MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED": lambda m: m.cards[0],
    "JOKER_IN_NON_JOKER_GAME": lambda m: f"the next card off the deck goes to seat {m.seats[0]}",
    "DUPLICATE_CARD": lambda m: f"two different tags carry {m.cards[0]}",
    "DRAW_AFTER_HAND_END": lambda m: m.cards[0] if m.cards else "",
    "DRAW_PREDRAW_EXPOSED_CARD": lambda m: f"{m.cards[0]}",
    "DRAW_EXPOSED_ON_DRAW": lambda m: f"Put {m.cards[0]} in the muck",
    "DRAW_FIVE_CARDS_RULE": lambda m: f"Seat {m.seats[0]} was dealt five consecutive cards",
    "DRAW_SHORT_HAND_PREDRAW": lambda m: "the button may receive its missing card now",
    "DRAW_WRONG_COUNT_AFTER_DRAW": lambda m: f"Seat {m.seats[0]}'s hand is fouled",
    "BURN_MISSING_OR_EXTRA": lambda m: f"{m.cards[0]} is the burn",
}
# (game, kind) per family; the common kinds once per family
STUD = [("stud", k) for k in (
    "stud_downcard_exposed", "stud_both_downcards_exposed", "stud_exposed_remedy_ignored",
    "stud_burn_missing", "stud_burn_extra", "stud_premature_street", "stud_final_card_faceup",
    "first_card_wrong_seat", "card_out_of_sequence", "joker_dealt", "duplicate_card",
    "draw_after_hand_end")] + [("razz", "stud_wrong_bring_in"), ("stud8", "stud_burn_missing")]
DRAW = [("27_triple", k) for k in (
    "draw_first_card_exposed", "draw_exposed_on_draw", "draw_five_consecutive",
    "draw_button_short", "draw_wrong_count", "draw_burn_missing", "first_card_wrong_seat",
    "card_out_of_sequence", "joker_dealt", "duplicate_card", "draw_after_hand_end")] + [
    ("draw5", "draw_predraw_exposed"), ("a5_lowball", "draw_predraw_exposed"),
    ("badugi", "draw_exposed_on_draw")]


def _hand(game: str, kind: str) -> tuple[list[Event], list[Mistake], int] | None:
    for seed in range(200):
        d = GameDealer(game, random.Random(seed), seats=4)
        steps = d.next_hand(kind)
        if not d.truth or {m.kind for m in d.truth} != {kind}:
            continue
        events = [Event(i, 0, body) for i, body in
                  enumerate((b for s in steps for b in expand(s)), start=1)]
        return events, list(d.truth), seed
    return None


def _check(events: list[Event], truth: list[Mistake]) -> str:
    state, got = initial_state(), []
    for e in events:
        step = apply(state, e)
        state = step.state
        got += [(f.code, list(f.seats), list(f.cards)) for f in step.findings]
    want = [(m.expected_code, list(m.seats), list(m.cards)) for m in truth]
    return "" if got == want else f"core {got} != truth {want}"


def write(family: str, game: str, kind: str) -> str:
    found = _hand(game, kind)
    if found is None:
        return f"{game} {kind}: no seed makes it"
    events, truth, seed = found
    problem = _check(events, truth)
    if problem:
        return f"{game} {kind}: {problem}"
    name = f"{family}_{kind}" + ("" if game in ("stud", "27_triple") else f"_{game}")
    lines = [f"# {family} family, {game}: the simulated dealer's mistake {kind!r} "
             f"(GameDealer seed {seed}, 4 seats; tests/scenarios/make_family_scenarios.py)."]
    for m in truth:
        rule = CATALOGUE[m.expected_code].rules[0]
        lines.append(f"# {m.expected_code}: {rule}.")
    for m in truth:
        rule = CATALOGUE[m.expected_code].rules[0]
        phrase = PHRASE[m.expected_code](m)
        lines.append("# expect: " + json.dumps({
            "code": m.expected_code, "seats": list(m.seats), "cards": list(m.cards),
            "rule": {"file": rule.file, "section": rule.section, "rule": rule.rule},
            "remedy_has": [phrase] if phrase else []}))
    body = {e.seq: e.to_json() for e in events}
    for e in events:
        obj = body[e.seq]
        obj.pop("seq")
        obj.pop("ts")
        lines.append(json.dumps(obj, separators=(",", ":")))
    (HERE / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return ""


def main() -> int:
    problems = [p for fam, cases in (("stud", STUD), ("draw", DRAW)) for game, kind in cases
                if (p := write(fam, game, kind))]
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
