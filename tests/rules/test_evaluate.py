"""Tests of the high-hand evaluator: rulebook ranking examples, names, bad input, and differential
checks against two independent evaluators (treys and PokerKit) on random seven-card hands."""

from __future__ import annotations

import random
from itertools import combinations, pairwise

import pytest

from controller.poker.cards import FULL_DECK
from controller.poker.hands.evaluate import (
    CARD_CODES,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    ONE_PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    hand_category,
    hand_code,
    hand_name,
    hand_value,
    hand_value_ints,
    value_of_code,
)


def v(text: str) -> int:
    return hand_value(text.split())


# --- categories (jamies-poker-notes.md, Poker-Hand Rankings; RR Glossary) -----------------------

CATEGORY_EXAMPLES = [
    ("As Ks Qs Js Ts", STRAIGHT_FLUSH, "Royal flush"),
    ("9h 8h 7h 6h 5h", STRAIGHT_FLUSH, "Straight flush, nine high"),
    ("5d 4d 3d 2d Ad", STRAIGHT_FLUSH, "Straight flush, five high"),
    ("9c 9d 9h 9s Ah", FOUR_OF_A_KIND, "Four of a kind, nines, ace kicker"),
    ("Kc Kd Kh 7s 7d", FULL_HOUSE, "Full house, kings full of sevens"),
    ("Ah Jh 8h 4h 2h", FLUSH, "Flush, ace high (A-J-8-4-2)"),
    ("Tc 9d 8h 7s 6c", STRAIGHT, "Straight, ten high"),
    ("Ac Kd Qh Js Tc", STRAIGHT, "Straight, ace high"),
    ("5c 4d 3h 2s Ac", STRAIGHT, "Straight, five high"),
    ("7c 7d 7h Ks 2c", THREE_OF_A_KIND, "Three of a kind, sevens, kickers K-2"),
    ("Ac Ad 8h 8s Kc", TWO_PAIR, "Two pair, aces and eights, king kicker"),
    ("Jc Jd Ah 9s 4c", ONE_PAIR, "One pair, jacks, kickers A-9-4"),
    ("Ac Kd 9h 7s 4c", HIGH_CARD, "High card, ace high (A-K-9-7-4)"),
    ("6c 6d 6h 6s 2c", FOUR_OF_A_KIND, "Four of a kind, sixes, two kicker"),
]


@pytest.mark.parametrize(("cards", "category", "name"), CATEGORY_EXAMPLES)
def test_category_and_name(cards: str, category: int, name: str) -> None:
    value = v(cards)
    assert hand_category(value) == category
    assert hand_name(value) == name


def test_categories_rank_in_rulebook_order() -> None:
    # JPN Poker-Hand Rankings table: straight flush > quads > full house > flush > straight >
    # trips > two pair > pair > high card
    values = [v(cards) for cards, _, _ in CATEGORY_EXAMPLES[:-1]]
    categories = [hand_category(x) for x in values]
    assert categories == sorted(categories, reverse=True)
    worst_of_better = {}
    best_of_worse = {}
    for x in values:
        c = hand_category(x)
        worst_of_better[c] = min(worst_of_better.get(c, x), x)
        best_of_worse[c] = max(best_of_worse.get(c, x), x)
    for c in range(HIGH_CARD, STRAIGHT_FLUSH):
        assert best_of_worse[c] < worst_of_better[c + 1]


def test_royal_flush_ties_and_beats_king_high_straight_flush() -> None:
    # JPN: "For royal-flush, it will always be a tie."
    assert v("As Ks Qs Js Ts") == v("Ah Kh Qh Jh Th")
    assert v("As Ks Qs Js Ts") > v("Ks Qs Js Ts 9s")


# --- straights: the ace is high or low, no wrap-around (JPN Poker-Hand Rankings) -------------


def test_wheel_is_the_lowest_straight() -> None:
    wheel = v("5c 4d 3h 2s Ac")
    assert hand_category(wheel) == STRAIGHT
    assert wheel < v("6c 5d 4h 3s 2c")
    assert wheel > v("Ac Ad Kh Ks Qc")  # any straight beats two pair


def test_ace_high_straight_is_the_highest_straight() -> None:
    assert v("Ac Kd Qh Js Tc") > v("Kc Qd Jh Ts 9c")


def test_no_wrap_around_straight() -> None:
    assert hand_category(v("Kc Ad 2h 3s 4c")) == HIGH_CARD
    assert hand_category(v("Qc Kd Ah 2s 3c")) == HIGH_CARD


def test_seven_cards_pick_the_highest_straight() -> None:
    assert hand_name(v("Ac 2d 3h 4s 5c 6d 7h")) == "Straight, seven high"


def test_steel_wheel_beats_quads() -> None:
    assert v("Ah 2h 3h 4h 5h Kc Kd") > v("Kc Kd Kh Ks Ah")


# --- kickers and tie-breaks (JPN tie-break list; AZ The Showdown r.5) --------------------------


def test_pair_kicker_decides() -> None:
    # PN Poker Terms: "You and your opponent have a pair of aces, but your queen-kicker wins"
    board = "Ac 9d 7h 4s 2c"
    assert hand_value(["Ad", "Qh", *board.split()]) > hand_value(["Ah", "Jh", *board.split()])


def test_kickers_beyond_the_fifth_card_do_not_count() -> None:
    # the best five cards only: the sixth and seventh cards never break a tie
    assert v("Ac Ad Kh Qs Jc 3d 2h") == v("Ah As Kd Qc Jd 5c 4s")


def test_two_pair_compares_top_pair_then_second_then_kicker() -> None:
    assert v("Ac Ad 3h 3s 2c") > v("Kc Kd Qh Qs Ac")
    assert v("Jc Jd 9h 9s 2c") > v("Jh Js 8h 8s Ac")
    assert v("Jc Jd 9h 9s 4c") > v("Jh Js 9c 9d 3c")


def test_three_pairs_play_two_and_the_best_kicker() -> None:
    # with three pairs the third pair's rank can be the kicker
    assert hand_name(v("Ac Ad Kh Ks Qc Qd 2h")) == "Two pair, aces and kings, queen kicker"
    assert v("Ac Ad Kh Ks 2c 2d Qh") == v("Ah As Kc Kd Qs 3c 4d")


def test_full_house_compares_trips_then_pair() -> None:
    assert v("3c 3d 3h 2s 2c") > v("2h 2d 2s Ac Ad")
    assert v("Kc Kd Kh 7s 7c") > v("Ks Kd Kh 6s 6c")


def test_two_trips_make_a_full_house_with_the_higher_trips() -> None:
    assert hand_name(v("9c 9d 9h 5s 5c 5d Ah")) == "Full house, nines full of fives"


def test_quads_kicker_from_seven_cards() -> None:
    assert hand_name(v("9c 9d 9h 9s 2c 2d Kh")) == "Four of a kind, nines, king kicker"


def test_flush_compares_every_card() -> None:
    assert v("Ah Jh 8h 4h 3h") > v("As Js 8s 4s 2s")
    assert v("Ah Jh 8h 4h 3h") == v("As Js 8s 4s 3s")  # suits never break a tie (RR Ties r.1)


def test_flush_uses_its_best_five_of_six_suited_cards() -> None:
    assert hand_name(v("Ah Jh 8h 4h 3h 2h Kc")) == "Flush, ace high (A-J-8-4-3)"


def test_flush_beats_straight_in_the_same_seven_cards() -> None:
    assert hand_category(v("9h 8h 7c 6h 5d 2h Kh")) == FLUSH


def test_board_plays() -> None:
    # RR Section 5 Holdem: "A player may even use all of the boardcards and no personal cards to
    # form a hand (play the board)." Two players both playing the board tie.
    board = ["Ts", "Js", "Qd", "Kc", "Ah"]
    assert hand_value(["2c", "3d", *board]) == hand_value(["4h", "5h", *board]) == hand_value(board)


def test_board_plays_unless_a_hole_card_improves_it() -> None:
    board = ["Kc", "Kd", "8h", "8s", "4c"]
    plays_board = hand_value(["2c", "3d", *board])
    assert plays_board == hand_value(["3c", "2h", *board])
    assert hand_value(["Ac", "2d", *board]) > plays_board  # the ace is a better kicker


def test_five_six_and_seven_cards() -> None:
    five = ["Ac", "Kd", "9h", "7s", "4c"]
    assert hand_value(five) == hand_value([*five, "2c"]) == hand_value([*five, "2c", "3d"])


# --- the int API ---------------------------------------------------------------------------


def test_codes_add_board_and_hole() -> None:
    board = hand_code(["Ts", "Js", "Qd", "2c", "3h"])
    hole = hand_code(["As", "Ks"])
    assert value_of_code(board + hole) == v("Ts Js Qd 2c 3h As Ks")
    assert hand_value_ints(
        CARD_CODES[c] for c in ["Ts", "Js", "Qd", "2c", "3h", "As", "Ks"]
    ) == value_of_code(board + hole)


def test_every_five_card_hand_class() -> None:
    # all 2,598,960 hands are too many for a unit test; the 1,287 rank sets of one suit plus the
    # same rank sets off-suit cover every flush and high-card class, and all pairs-and-better come
    # from the rank table; there are exactly 7,462 distinct five-card hand values.
    from controller.poker.hands import evaluate

    assert len(evaluate._VALID_VALUES) == 7462
    suited = {v(" ".join(f"{'23456789TJQKA'[r]}s" for r in ranks)) for ranks in
              combinations(range(13), 5)}  # fmt: skip
    assert len(suited) == 1287
    assert {hand_category(x) for x in suited} == {FLUSH, STRAIGHT_FLUSH}


def test_every_value_has_its_own_name() -> None:
    # a name carries every card that breaks ties, so two hands share a name exactly when they tie
    from controller.poker.hands import evaluate

    names = {hand_name(value) for value in evaluate._VALID_VALUES}
    assert len(names) == len(evaluate._VALID_VALUES)


# --- bad input: a clear error, never a crash ----------------------------------------------


@pytest.mark.parametrize(
    "cards",
    [
        ["As", "Ks", "Qs", "Js"],  # too few
        ["As", "Ks", "Qs", "Js", "Ts", "9s", "8s", "7s"],  # too many
        ["As", "Ks", "Qs", "Js", "1s"],
        ["As", "Ks", "Qs", "Js", "as"],
        ["As", "Ks", "Qs", "Js", "Tx"],
        ["As", "Ks", "Qs", "Js", ""],
        ["As", "Ks", "Qs", "Js", None],
        ["As", "Ks", "Qs", "Js", 12],
        ["As", "As", "Qs", "Js", "Ts"],  # the same card twice
        "AsKsQsJsTs",
        None,
        123,
        {"As", "Ks", "Qs", "Js", "Ts"},  # a set has no order; still refused clearly
    ],
)
def test_bad_hands_raise_value_error(cards: object) -> None:
    with pytest.raises(ValueError):
        hand_value(cards)  # type: ignore[arg-type]


def test_duplicate_error_names_the_card() -> None:
    with pytest.raises(ValueError, match="Qs"):
        hand_value(["As", "Qs", "Qs", "Js", "Ts"])


@pytest.mark.parametrize("value", [-1, 0, 1, 9 << 20, 10**30, "x", 1.5])
def test_not_a_value(value: object) -> None:
    with pytest.raises(ValueError):
        hand_name(value)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        hand_category(value)  # type: ignore[arg-type]


# --- differential tests against independent evaluators --------------------------------------


def _random_hands(n: int, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    return [rng.sample(FULL_DECK, 7) for _ in range(n)]


def test_agrees_with_treys_on_20000_random_seven_card_hands() -> None:
    treys = pytest.importorskip("treys")
    evaluator = treys.Evaluator()
    to_treys = {card: treys.Card.new(card) for card in FULL_DECK}
    ours: dict[int, int] = {}  # our value -> treys value (treys: 1 is best, 7462 worst)
    disagreements = []
    for hand in _random_hands(20_000, seed=20240611):
        value = hand_value(hand)
        theirs = evaluator.evaluate(
            [to_treys[c] for c in hand[:2]], [to_treys[c] for c in hand[2:]]
        )
        if ours.setdefault(value, theirs) != theirs:
            disagreements.append((hand, "tie class"))
        rank_class = evaluator.get_rank_class(theirs)  # 0 royal, 1 straight flush .. 9 high card
        if hand_category(value) != (STRAIGHT_FLUSH if rank_class <= 1 else 9 - rank_class):
            disagreements.append((hand, "category"))
    # same ordering of every pair of hands: sorted by our value, treys' must strictly fall
    pairs = sorted(ours.items())
    for (v1, t1), (v2, t2) in pairwise(pairs):
        if not t1 > t2:
            disagreements.append(((v1, v2), "order"))
    assert disagreements == []
    assert len(ours) > 3000  # the sample really spans thousands of hand classes


def test_agrees_with_pokerkit_on_2000_random_seven_card_hands() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    labels = list(pokerkit.lookups.Label)  # HIGH_CARD .. STRAIGHT_FLUSH
    ours: dict[int, int] = {}  # our value -> PokerKit's ordinal (higher is better)
    disagreements = []
    for hand in _random_hands(2_000, seed=7):
        value = hand_value(hand)
        theirs = pokerkit.StandardHighHand.from_game("".join(hand[:2]), "".join(hand[2:]))
        if ours.setdefault(value, theirs.entry.index) != theirs.entry.index:
            disagreements.append((hand, "tie class"))
        if labels.index(theirs.entry.label) != hand_category(value):
            disagreements.append((hand, "category"))
    pairs = sorted(ours.items())
    for (v1, i1), (v2, i2) in pairwise(pairs):
        if not i1 < i2:
            disagreements.append(((v1, v2), "order"))
    assert disagreements == []
