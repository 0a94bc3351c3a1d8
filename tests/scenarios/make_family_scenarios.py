"""Writes the stud, draw and board scenarios (``stud_*.jsonl``, ``draw_*.jsonl``,
``board_{kind}_{game}.jsonl``) from the simulated dealer of those games, one per mistake kind
and family.

    .venv/bin/python tests/scenarios/make_family_scenarios.py [stud] [draw] [board]

(the families named, or every family).

Each file is the first hand of a fresh simulated dealer (``SimDealer(game=...)``) making that
mistake (the seed is searched until the hand holds it; files written before the stud and draw
dealer was merged into it name ``GameDealer`` and its seed). The ``# expect:`` lines come from
the dealer's truth (code, seats, cards: what it did), the code's rule, and a remedy phrase
naming the seat or card (``PHRASE``: the fixed words of the catalogue's remedy template with
the truth's seats and cards), never from the monitor; the generator refuses to write a scenario
the rules core does not meet (findings, rule or remedy phrase), so a regression shows here and
in ``tests/rules/test_scenarios.py``.

The board scenarios (``BOARD``) cover every mistake kind of ``controller/sim/mistakes.py`` that
the dealer makes at a board game (the board kinds and those of every family), each at one board
game other than no-limit hold'em (whose scenarios are written by hand), the games taken in turn
(``controller/poker/variants.py`` order) so that each gets several; the profile is the default
(Robert's Rules). A kind the floor notices only after the misdeal cut-off is dealt at a table
whose alert is not the attention call (setting ``attention_on_alert`` false).
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
from controller.poker.variants import VARIANTS, family  # noqa: E402
from controller.rules import apply, initial_state  # noqa: E402
from controller.rules.findings.catalogue import CATALOGUE  # noqa: E402
from controller.sim import SimDealer, expand  # noqa: E402
from controller.sim.mistakes import BOARD as BOARD_FAMILY  # noqa: E402
from controller.sim.mistakes import KINDS, mistakes_for  # noqa: E402
from controller.sim.moves import Mistake  # noqa: E402


def _street(m: Mistake) -> str:
    """The street of a board burn mistake, from its kind (``extra_burn_river``: river)."""
    return m.kind.rsplit("_", 1)[1]


def _board_burn(m: Mistake) -> str:
    """BURN_MISSING_OR_EXTRA: the fix names the card (draw: it is the burn; board: a missing
    burn's card moves to the burn, an extra burn's second card is the street's card)."""
    if m.kind.startswith("draw_"):
        return f"{m.cards[0]} is the burn"
    if "extra_burn" in m.kind:
        return f"{m.cards[0]} is the proper {_street(m)} card"
    return f"move {m.cards[0]} to the burn"


def _seats(m: Mistake) -> str:
    return ", ".join(str(s) for s in m.seats)


def _cards(m: Mistake) -> str:
    return ", ".join(m.cards)


# what the remedy must say, from the truth
PHRASE: dict[str, Callable[[Mistake], str]] = {
    "FOREIGN_BACK_CARD_IN_PLAY": lambda m: f"is {m.cards[0]} of deck sim-idle",
    "CARDS_THROWN_INTO_ANOTHER_HAND": lambda m: (f"{m.cards[0]} of seat {m.seats[0]} went into "
                                                 f"the hand of seat {m.seats[1]}"),
    "UNPROTECTED_HAND_KILLED_OR_FOULED": lambda m: f"of seat {m.seats[0]}, a live hand",
    "STUD_ONE_HOLECARD_EXPOSED": lambda m: f"Deal seat {m.seats[0]}'s third card face down",
    "STUD_BOTH_HOLECARDS_EXPOSED": lambda m: f"Give seat {m.seats[0]} its ante back",
    # stud: the exposed down card left face up; board: the card the remedy did not place
    "REMEDY_NOT_FOLLOWED": lambda m: (f"{m.cards[0]} was dealt face up to seat {m.seats[0]}"
                                      if m.seats else m.cards[0]),
    "STUD_WRONG_LOWCARD_DESIGNATED": lambda m: f"seat {m.seats[1]} must bring it in",
    "STUD_BURN_ERROR": lambda m: m.cards[0],
    "STUD_PREMATURE_STREET": lambda m: f"{m.cards[0]} was dealt for",
    "STUD_FINAL_CARD_FACEUP": lambda m: f"Seat {m.seats[0]}'s last card {m.cards[0]} was dealt",
    "MISDEAL_FIRST_CARD_WRONG_POSITION": lambda m: m.cards[0],
    "MISDEAL_CARD_OUT_OF_SEQUENCE": lambda m: m.cards[0],
    "MISDEAL_FIRST_OR_SECOND_CARD_EXPOSED": lambda m: m.cards[0],
    # the seat it was going to, when the deal names one (a board game after the deal: none)
    "JOKER_IN_NON_JOKER_GAME": lambda m: "the next card off the deck goes to"
    + (f" seat {m.seats[0]}" if m.seats else ""),
    "DUPLICATE_CARD": lambda m: f"two different tags carry {m.cards[0]}",
    "DRAW_AFTER_HAND_END": lambda m: m.cards[0] if m.cards else "",
    "DRAW_PREDRAW_EXPOSED_CARD": lambda m: f"{m.cards[0]}",
    "DRAW_EXPOSED_ON_DRAW": lambda m: f"Put {m.cards[0]} in the muck",
    "DRAW_FIVE_CARDS_RULE": lambda m: f"Seat {m.seats[0]} was dealt five consecutive cards",
    "DRAW_SHORT_HAND_PREDRAW": lambda m: "the button may receive its missing card now",
    "DRAW_WRONG_COUNT_AFTER_DRAW": lambda m: f"Seat {m.seats[0]}'s hand is fouled",
    "BURN_MISSING_OR_EXTRA": _board_burn,
    # board games
    "UNKNOWN_TAG": lambda m: "is not in the registered deck",
    "BOXED_CARD_SINGLE": lambda m: f"{m.cards[0]} was found face up in the deck",
    "MUCKED_HAND_RETRIEVAL": lambda m: f"Seat {m.seats[0]}'s cards {_cards(m)} were read in the "
    "muck",
    "MISDEAL_LOCKOUT": lambda m: f"(to seat {m.seats[0]}), was exposed",
    "MISDEAL_INCORRECT_CARD_COUNT": lambda m: f"can no longer reach seat(s) {_seats(m)}",
    "EXTRA_CARD_SINGLE_BECOMES_BURN": lambda m: f"Take {m.cards[0]} back; it is not part of "
    f"seat {m.seats[0]}'s hand",
    "MISDEAL_TWO_OR_MORE_EXTRA_CARDS": lambda m: f"Extra cards {_cards(m)} went to seat(s) "
    f"{_seats(m)}",
    "HOLECARD_EXPOSED_SINGLE_REPLACE": lambda m: f"seat {m.seats[0]} may not keep {m.cards[0]}",
    "FLOP_BURN_ERROR": lambda m: (f"{m.cards[0]} is the proper first flop card"
                                  if m.kind.startswith("extra_burn") else
                                  f"move {m.cards[0]} to the burn"),
    "FLOP_TOO_MANY_CARDS": lambda m: f"The flop has {len(m.cards)} cards: {_cards(m)}",
    "FLOP_PREMATURE": lambda m: f"Card {m.cards[0]} left the shoe while the preflop betting",
    "TURN_PREMATURE": lambda m: f"Card {m.cards[0]} left the shoe while the flop betting",
    "RIVER_PREMATURE": lambda m: f"Card {m.cards[0]} left the shoe while the turn betting",
    "HAND_WRONG_CARD_COUNT_DEAD": lambda m: f"Seat(s) {_seats(m)}: the hand is dead",
    "MISDEAL_BUTTON_OUT_OF_POSITION": lambda m: f"it belongs on seat {m.seats[1]} this hand",
}
# (game, kind) per family; the common kinds once per family
STUD = [("stud", k) for k in (
    "stud_downcard_exposed", "stud_both_downcards_exposed", "stud_exposed_remedy_ignored",
    "stud_burn_missing", "stud_burn_extra", "stud_premature_street", "stud_final_card_faceup",
    "stud_final_card_exposed_key",
    "first_card_wrong_seat", "card_out_of_sequence", "seat_passed_over_dealt_next",
    "joker_dealt", "duplicate_card", "draw_after_hand_end", "foreign_card", "cards_thrown",
    "hand_killed_unprotected")] + [
    ("razz", "stud_wrong_bring_in"), ("stud8", "stud_burn_missing")]
DRAW = [("27_triple", k) for k in (
    "draw_first_card_exposed", "draw_exposed_on_draw", "draw_five_consecutive",
    "draw_button_short", "draw_wrong_count", "draw_burn_missing", "first_card_wrong_seat",
    "card_out_of_sequence", "seat_passed_over_dealt_next", "joker_dealt", "duplicate_card",
    "draw_after_hand_end", "button_not_moved", "foreign_card", "cards_thrown",
    "hand_killed_unprotected")] + [
    ("draw5", "draw_predraw_exposed"), ("a5_lowball", "draw_predraw_exposed"),
    ("badugi", "draw_exposed_on_draw")]
# every kind the dealer makes at a board game, at the board games other than nlhe in turn
BOARD_GAMES = [g for g, v in VARIANTS.items() if family(v) == BOARD_FAMILY and g != "nlhe"]


def _board_cases() -> list[tuple[str, str]]:
    cases: list[tuple[str, str]] = []
    turn = 0
    for kind in (k for k, v in KINDS.items() if BOARD_FAMILY in v.families):
        # the next game in turn whose dealer makes it (none: the kind is left out)
        for _ in BOARD_GAMES:
            game = BOARD_GAMES[turn % len(BOARD_GAMES)]
            turn += 1
            if kind in mistakes_for(VARIANTS[game]):
                cases.append((game, kind))
                break
    return cases


BOARD = _board_cases()


def _hand(game: str, kind: str) -> tuple[list[Event], list[Mistake], int] | None:
    for seed in range(200):
        d = SimDealer(random.Random(seed), seats=4, game=game,
                      attention_on_alert=not KINDS[kind].late)
        steps = d.next_hand(kind)
        if not d.truth or {m.kind for m in d.truth} != {kind}:
            continue
        events = [Event(i, 0, body) for i, body in
                  enumerate((b for s in steps for b in expand(s)), start=1)]
        return events, list(d.truth), seed
    return None


def _check(events: list[Event], truth: list[Mistake]) -> str:
    state, got, found = initial_state(), [], []
    for e in events:
        step = apply(state, e)
        state = step.state
        got += [(f.code, list(f.seats), list(f.cards)) for f in step.findings]
        found += step.findings
    want = [(m.expected_code, list(m.seats), list(m.cards)) for m in truth]
    if got != want:
        return f"core {got} != truth {want}"
    for f, m in zip(found, truth, strict=True):
        rule = CATALOGUE[m.expected_code].rules[0]
        if (f.rule.file, f.rule.section, f.rule.rule) != (rule.file, rule.section, rule.rule):
            return f"{f.code}: the core cites {f.rule}, the catalogue {rule}"
        phrase, remedy = PHRASE[m.expected_code](m), " ".join(f.remedy)
        if phrase not in remedy:
            return f"{f.code}: remedy lacks {phrase!r}: {remedy}"
    return ""


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
             f"(SimDealer seed {seed}, 4 seats; tests/scenarios/make_family_scenarios.py)."]
    if KINDS[kind].late:
        lines.append("# The table's alert is not the attention call (setting attention_on_alert "
                     "false): the floor notices the error after the misdeal cut-off "
                     "(roberts-rules-v11.txt, Section 3, Misdeals, r.1).")
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


# --- scenarios derived from a dealer's hand, or dealt here -------------------------------------

Obj = dict[str, object]


def _objs(events: list[Event]) -> list[Obj]:
    out = []
    for e in events:
        obj = e.to_json()
        obj.pop("seq")
        obj.pop("ts")
        out.append(obj)
    return out


def _run(objs: list[Obj]) -> list[tuple[str, list[int], list[str]]]:
    from controller.events import parse_event

    state, got = initial_state(), []
    for i, obj in enumerate(objs, start=1):
        step = apply(state, parse_event({**obj, "seq": i, "ts": 0}))
        state = step.state
        got += [(f.code, list(f.seats), list(f.cards)) for f in step.findings]
    return got


def _emit(name: str, story: list[str], want: list[tuple[str, list[int], list[str], str]],
          objs: list[Obj]) -> str:
    got = _run(objs)
    if got != [(c, s, k) for c, s, k, _ in want]:
        return f"{name}: core {got} != wanted {[(c, s, k) for c, s, k, _ in want]}"
    lines = [f"# {line}" for line in story]
    for code, seats, cards, phrase in want:
        rule = CATALOGUE[code].rules[0]
        lines.append(f"# {code}: {rule}.")
        lines.append("# expect: " + json.dumps({
            "code": code, "seats": seats, "cards": cards,
            "rule": {"file": rule.file, "section": rule.section, "rule": rule.rule},
            "remedy_has": [phrase] if phrase else []}))
    lines += [json.dumps(o, separators=(",", ":")) for o in objs]
    (HERE / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return ""


def tournament_exposure() -> str:
    """The same exposed down card in a tournament: a misdeal (RR Section 8 r.1, Section 15
    r.32); the floor declares it."""
    found = _hand("stud", "stud_downcard_exposed")
    assert found is not None
    events, truth, seed = found
    objs = _objs(events)
    objs[0]["settings"] = {"tournament": True, "straddle": "none"}
    m = truth[0]
    cut = next(i for i, o in enumerate(objs) if o.get("type") == "shoe.draw" and o.get("face_up")
               and o["uid"] not in [x.get("uid") for x in objs[:i]])
    objs = [*objs[:cut + 2], {"type": "misdeal.declared"}]
    return _emit("stud_tournament_downcard_exposed",
                 [f"stud tournament (setting tournament: true): seat {m.seats[0]}'s down card "
                  f"{m.cards[0]} dealt face up; the floor declares the misdeal (SimDealer seed "
                  f"{seed}, tests/scenarios/make_family_scenarios.py)."],
                 [("STUD_EXPOSED_HOLECARD_TOURNAMENT_MISDEAL", list(m.seats), list(m.cards),
                   f"Seat {m.seats[0]}'s down card {m.cards[0]} was dealt face up")], objs)


def _next_card(objs: list[Obj], after: int, tags: dict[str, str]) -> str:
    i = next(k for k in range(after, len(objs)) if objs[k].get("type") == "shoe.draw")
    return tags[str(objs[i]["uid"])]


def _tags(objs: list[Obj]) -> dict[str, str]:
    reg = next(o for o in objs if o.get("type") == "deck.register")
    tags = reg["tags"]
    assert isinstance(tags, dict)
    return {str(k): str(v) for k, v in tags.items()}


def remedy_ignored(game: str, kind: str, move_to: str, name: str, story: str,
                   count_code: str) -> str:
    """A dealer's hand with the remedy's move of a card left out: the next card off the shoe
    is REMEDY_NOT_FOLLOWED, and the card left in a seat makes that hand's count wrong at the
    showdown (``count_code``)."""
    found = _hand(game, kind)
    assert found is not None
    events, truth, seed = found
    objs = _objs(events)
    tags = _tags(objs)
    m = truth[0]
    # the remedy's move: the mistaken card itself (draw), else the first card moved there
    moves = [i for i, o in enumerate(objs) if o.get("type") == "zone.read"
             and o.get("zone") == move_to and objs[i - 1].get("type") == "zone.leave"]
    own = [i for i in moves if tags[str(objs[i]["uid"])] == m.cards[0]]
    k = (own or moves)[0]
    uid = objs[k]["uid"]
    seat = int(str(next(o["zone"] for o in reversed(objs[:k - 1]) if o.get("uid") == uid
                        and o.get("type") == "zone.read"))[5:])
    del objs[k - 1:k + 1]  # its zone.leave and zone.read
    nxt = _next_card(objs, k - 1, tags)
    phrase = (f"Seat {seat}'s hand is fouled" if count_code == "DRAW_WRONG_COUNT_AFTER_DRAW"
              else f"Seat {seat} holds 8 cards")
    return _emit(name, [story.format(card=m.cards[0], seat=m.seats[0] if m.seats else "-",
                                     seed=seed)],
                 [(m.expected_code, list(m.seats), list(m.cards), PHRASE[m.expected_code](m)),
                  ("REMEDY_NOT_FOLLOWED", [], [nxt], f"{nxt} went to"),
                  (count_code, [seat], [], phrase)], objs)


class _Book:
    """A hand dealt by the book, card by card, the players calling (events as objects)."""

    def __init__(self, game: str, seats: int, seed: int) -> None:
        from controller.poker.cards import FULL_DECK

        self.objs: list[Obj] = [{"type": "table.setup", "game": game, "seats": max(seats, 6),
                                 "small_blind": 1, "big_blind": 2, "ante": 1, "bring_in": 1,
                                 "small_bet": 2, "big_bet": 4, "profile": "roberts"}]
        self.objs += [{"type": "seat.take", "seat": n, "player": f"P{n}", "stack": 200}
                      for n in range(1, seats + 1)]
        self.tags = {f"T{c}": c for c in FULL_DECK}
        self.objs.append({"type": "deck.register", "deck": "book", "tags": self.tags})
        self.stub = list(self.tags)
        random.Random(seed).shuffle(self.stub)
        self.objs += [{"type": "hand.start"}, {"type": "shuffle.done"}]

    def snap(self) -> dict[str, object]:
        from controller.events import parse_event
        from controller.rules import snapshot

        state = initial_state()
        for i, obj in enumerate(self.objs, start=1):
            state = apply(state, parse_event({**obj, "seq": i, "ts": 0})).state
        return snapshot(state)

    def card(self, zone: str, up: bool = False, uid: str | None = None) -> str:
        uid = uid or self.stub.pop()
        self.objs += [{"type": "shoe.draw", "uid": uid, "face_up": up},
                      {"type": "zone.read", "uid": uid, "zone": zone}]
        return uid

    def posts(self) -> None:
        hand = self.snap()["hand"]
        assert isinstance(hand, dict)
        for p in hand["posts"]:
            self.objs.append({"type": "action", "seat": p["seat"], "kind": "post",
                              "amount": p["amount"], "blind": p["kind"]})

    def bet_round(self, kind: str = "call") -> None:
        while True:
            hand = self.snap()["hand"]
            assert isinstance(hand, dict)
            seat = hand["to_act"]
            if seat is None:
                return
            act: Obj = {"type": "action", "seat": seat, "kind": kind}
            if "bring-in" in str(hand["expect"]) or (
                    hand["phase"] == "third" and not hand["current_bet"]):
                act = {"type": "action", "seat": seat, "kind": "post", "blind": "bring_in",
                       "amount": 1}
            self.objs.append(act)


def stud_insufficient_cards() -> str:
    """Eight players all to seventh street: 8 x 6 cards and 3 burns leave one card for eight
    players (RR Section 8 r.15): the monitor says so before seventh street; the dealer mixes the
    last card with the burns, burns and turns a common card."""
    b = _Book("stud", 8, 5)
    b.posts()
    for up in (False, False, True):
        for seat in range(1, 9):
            b.card(f"seat:{seat}", up)
    b.bet_round()
    burns = []
    for _street in range(3):
        burns.append(b.card("burn"))
        for seat in range(1, 9):
            b.card(f"seat:{seat}", True)
        b.bet_round()
    b.objs.append({"type": "shuffle.done"})  # the last card and the burns, scrambled
    b.card("burn", uid=burns[0])
    b.card("board", True, uid=burns[1])
    b.bet_round()
    b.objs.append({"type": "hand.end"})
    return _emit("stud_insufficient_cards",
                 ["stud, eight players all to seventh street: one card left for eight; a common "
                  "card (roberts-rules-v11.txt, Section 8, r.15). Dealt by the book in "
                  "tests/scenarios/make_family_scenarios.py."],
                 [("STUD_INSUFFICIENT_CARDS", list(range(1, 9)), [],
                   "1 cards are left for 8 players")], b.objs)


def stud_allin_final_faceup() -> str:
    """Seat 2 is all-in by fifth street; its seventh-street card comes face up: it keeps it, the
    others get theirs face down (roberts-rules-v11.txt, Section 8, r.16)."""
    b = _Book("stud", 3, 9)
    b.objs[2]["stack"] = 6  # seat 2: all-in calling on fifth street
    b.posts()
    for up in (False, False, True):
        for seat in range(1, 4):
            b.card(f"seat:{seat}", up)
    b.bet_round()
    for street in range(4):
        b.card("burn")
        for seat in range(1, 4):
            b.card(f"seat:{seat}", street < 3 or seat == 2)
        hand = b.snap()["hand"]
        assert isinstance(hand, dict)
        if hand["to_act"] is not None:
            b.objs.append({"type": "action", "seat": hand["to_act"], "kind": "bet",
                           "amount": 2 if street == 0 else 4})
            b.bet_round()
    b.objs.append({"type": "hand.end"})
    return _emit("stud_allin_final_faceup",
                 ["stud, three players: seat 2 all-in on fifth street gets its last card face "
                  "up. Dealt by the book in tests/scenarios/make_family_scenarios.py."],
                 [("STUD_ALLIN_FINAL_CARD_FACEUP", [2], [_seventh(b.objs, 2)],
                   "Seat 2 keeps it")], b.objs)


def _seventh(objs: list[Obj], seat: int) -> str:
    reads = [o for o in objs if o.get("type") == "zone.read" and o.get("zone") == f"seat:{seat}"]
    return str(reads[-1]["uid"])[1:]


def draw_deck_exhausted() -> str:
    """Six players each drawing four on the first draw of triple draw: 30 + a burn + 20 cards
    leave one for the last player's four (WSOP Section 12 Badugi r.10; JPN Five Card Draw)."""
    b = _Book("27_triple", 6, 7)
    b.posts()
    hand = b.snap()["hand"]
    assert isinstance(hand, dict)
    order = list(hand["dealt_in"])
    held: dict[int, list[str]] = {s: [] for s in order}
    for _ in range(5):
        for seat in order:
            held[seat].append(b.card(f"seat:{seat}"))
    b.bet_round()
    muck: list[str] = []
    for k, seat in enumerate(order):
        b.objs.append({"type": "action", "seat": seat, "kind": "draw", "amount": 4})
        for uid in held[seat][:4]:
            b.objs += [{"type": "zone.leave", "uid": uid, "zone": f"seat:{seat}"},
                       {"type": "zone.read", "uid": uid, "zone": "muck"}]
        muck += held[seat][:4] if k < len(order) - 1 else []
        if k == 0:
            b.card("burn")
        if k < len(order) - 1:
            for _ in range(4):
                b.card(f"seat:{seat}")
        else:
            b.card(f"seat:{seat}")  # the stub's last card, then the reshuffled discards
            b.objs.append({"type": "shuffle.done"})
            for uid in muck[:3]:
                b.card(f"seat:{seat}", uid=uid)
    hand = b.snap()["hand"]
    assert isinstance(hand, dict)
    b.objs.append({"type": "action", "seat": hand["to_act"], "kind": "bet", "amount": 2})
    b.bet_round("fold")  # everybody else folds to the bet: the hand ends
    b.objs.append({"type": "hand.end"})
    return _emit("draw_deck_exhausted",
                 ["2-7 triple draw, six players each drawing four: the stub runs out for the last "
                  "player; the earlier discards are shuffled to complete the draw. Dealt by the "
                  "book in tests/scenarios/make_family_scenarios.py."],
                 [("DRAW_DECK_EXHAUSTED", [order[-1]], [],
                   f"seat {order[-1]} asks for 4")], b.objs)


def _stud_remedy_ignored() -> str:
    return remedy_ignored("stud", "stud_premature_street", "aside", "stud_remedy_not_followed",
                          "stud: the premature {card} is left where it fell instead of being set "
                          "aside: that seat ends with eight cards (SimDealer seed {seed}).",
                          "STUD_HAND_CARD_COUNT")


def _draw_remedy_ignored() -> str:
    return remedy_ignored("27_triple", "draw_exposed_on_draw", "muck", "draw_remedy_not_followed",
                          "2-7 triple draw: {card} exposed on the draw to seat {seat} is not put "
                          "in the muck; the draw goes on; seat {seat} ends with six cards "
                          "(SimDealer seed {seed}).", "DRAW_WRONG_COUNT_AFTER_DRAW")


# each family: its dealer's hands, then the scenarios derived from them or dealt by the book
FAMILIES: dict[str, tuple[list[tuple[str, str]], list[Callable[[], str]]]] = {
    "stud": (STUD, [tournament_exposure, stud_insufficient_cards, stud_allin_final_faceup,
                    _stud_remedy_ignored]),
    "draw": (DRAW, [draw_deck_exhausted, _draw_remedy_ignored]),
    "board": (BOARD, []),
}


def main(argv: list[str]) -> int:
    """Write the families named (``stud``, ``draw``, ``board``; none named: every family)."""
    unknown = [a for a in argv if a not in FAMILIES]
    if unknown:
        print(f"unknown family {unknown}; one of {', '.join(FAMILIES)}")
        return 2
    problems = []
    for fam in argv or list(FAMILIES):
        cases, others = FAMILIES[fam]
        problems += [p for game, kind in cases if (p := write(fam, game, kind))]
        problems += [p for make in others if (p := make())]
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
