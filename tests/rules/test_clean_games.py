"""Clean games: random legal hands of every game family play to the end without a complaint.

A hand is dealt from a shuffled deck and every decision is a random choice among the actions the
engine's own legal-action queries offer (fold, check/call, a complete/bet/raise between the
minimum and the maximum, the draw, the showdown). Each hand must finish without IllegalAction,
settled, with every chip accounted for. ``play_random`` is also the driver of the PokerKit
differential test (test_engine_phh.py)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.poker.variants import ROTATIONS, VARIANTS, Variant
from controller.rules.engine.hand import Hand, HouseSettings, Stakes


class Dealer:
    """A shuffled deck; when it runs out the discards are shuffled in (WSOP Section 12 r.10)."""

    def __init__(self, variant: Variant, rng: random.Random) -> None:
        self.rng = rng
        self.stub = list(variant.deck_cards)
        rng.shuffle(self.stub)
        self.discards: list[str] = []

    def take(self, k: int) -> list[str]:
        if len(self.stub) < k:
            self.rng.shuffle(self.discards)
            self.stub.extend(self.discards)
            self.discards = []
        out = self.stub[:k]
        del self.stub[:k]
        return out


def stakes_for(variant: Variant, n: int, rng: random.Random) -> Stakes:
    ante = rng.choice([0, 0, 1, 5])
    if variant.forced == "antes_bring_in":
        return Stakes(antes=(max(ante, 1),) * n, bring_in=rng.choice([0, 2, 5]), small_bet=10,
                      big_bet=20, min_bet=10)
    if variant.forced == "antes":
        return Stakes(antes=(max(ante, 1),) * n, small_bet=10, big_bet=20, min_bet=10)
    if variant.id == "short_deck":
        return Stakes(antes=(max(ante, 1),) * n, blinds_or_straddles=(0,) * (n - 1) + (10,),
                      small_bet=10, big_bet=20, min_bet=10)
    blinds: tuple[int, ...] = (5, 10)
    if n > 3 and variant.structure in ("no", "pot") and rng.random() < 0.2:
        blinds = (5, 10, 20)  # a straddle
    return Stakes(antes=(ante,) * n, blinds_or_straddles=blinds, small_bet=10, big_bet=20,
                  min_bet=10)


def act(hand: Hand, rng: random.Random) -> tuple[str, ...]:
    """One random legal betting action for the actor; returns it in PHH words."""
    p = hand.actor
    assert p is not None
    options = []
    if hand.can_post_bring_in(p):
        options.append("pb")
    if hand.can_fold(p) and (hand.checking_or_calling_amount() or 0) > 0:
        options.append("f")
    if hand.can_check_or_call(p):
        options += ["cc", "cc"]
    if hand.can_complete_bet_or_raise(p):
        options.append("cbr")
    choice = rng.choice(options)
    if choice == "pb":
        hand.post_bring_in(p)
        return (f"p{p + 1}", "pb")
    if choice == "f":
        hand.fold(p)
        return (f"p{p + 1}", "f")
    if choice == "cc":
        hand.check_or_call(p)
        return (f"p{p + 1}", "cc")
    lo = hand.min_completion_betting_or_raising_to()
    hi = hand.max_completion_betting_or_raising_to()
    assert lo is not None and hi is not None and lo <= hi
    amount = rng.choice([lo, hi, rng.randint(lo, hi)])
    if not hand.can_complete_bet_or_raise_to(amount):
        amount = lo
    hand.complete_bet_or_raise_to(p, amount)
    return (f"p{p + 1}", "cbr", str(amount))


def play_random(
    variant: Variant,
    n: int,
    seed: int,
    hs: HouseSettings | None = None,
    stacks: list[int] | None = None,
    muck_rate: float = 0.2,
) -> tuple[Hand, list[str], Stakes]:
    """Deal and play one random legal hand; returns it with its actions in PHH notation."""
    rng = random.Random(seed)
    if stacks is None:
        stacks = [rng.choice([30, 200, 1000, 5000]) for _ in range(n)]
    stakes = stakes_for(variant, n, rng)
    hand = Hand(variant, stakes, stacks, hs)
    dealer = Dealer(variant, rng)
    actions: list[str] = []
    for _ in range(2000):
        if hand.is_over:
            return hand, actions, stakes
        d = hand.discarder
        if d is not None:
            held = [c for c in hand.holes[d] if c is not None]
            street = variant.streets[hand.street]
            k = (rng.randint(0, min(variant.max_draw, len(held))) if street.draw
                 else street.discard)
            out = rng.sample(held, k)
            hand.stand_pat_or_discard(d, out)
            dealer.discards.extend(out)
            actions.append(f"p{d + 1} sd {''.join(out)}".rstrip())
            continue
        needy = [i for i in range(n) if hand.hole_needed(i)]
        if needy and variant.forced == "antes_bring_in" and (
            len(dealer.stub) < sum(hand.hole_needed(i) for i in needy)
            and all(len(hand.holes[i]) == 6 for i in needy)
        ):
            # not enough cards for seventh street: a common card (RR Section 8 r.15)
            cards = dealer.take(1)
            hand.deal_board(cards)
            actions.append(f"d db {''.join(cards)}")
            continue
        if needy:
            i = needy[0]
            cards = dealer.take(hand.hole_needed(i))
            hand.deal_hole(i, cards)
            actions.append(f"d dh p{i + 1} {''.join(cards)}")
            continue
        if hand.board_needed:
            cards = dealer.take(hand.board_needed)
            hand.deal_board(cards)
            actions.append(f"d db {''.join(cards)}")
            continue
        if hand.actor is not None:
            actions.append(" ".join(act(hand, rng)))
            continue
        pending = hand.showdown_pending
        assert pending, f"stuck: {actions}"
        p = pending[0]
        if len(pending) > 1 and rng.random() < muck_rate:
            hand.show_or_muck(p, None)
            actions.append(f"p{p + 1} sm")
        else:
            shown = list(hand.holes[p])
            hand.show_or_muck(p, shown)
            actions.append(f"p{p + 1} sm {''.join(c or '??' for c in shown)}")
    raise AssertionError(f"hand did not end: {actions}")


def check_settled(hand: Hand) -> None:
    assert hand.is_over
    assert hand.actor is None
    assert sum(hand.stacks) + hand.carry_over == sum(hand.starting_stacks)
    assert all(chips >= 0 for chips in hand.stacks)
    awarded = sum(a.amount for a in hand.awards)
    assert awarded + hand.carry_over == hand.pot
    for award in hand.awards:
        assert sum(award.shares.values()) == award.amount
        assert set(award.winners) <= set(award.eligible) | set(award.shares)


FAMILIES = {
    "flop": ["nlhe", "flhe", "plhe", "omaha", "omaha8", "omaha5", "pineapple",
             "crazy_pineapple", "lazy_pineapple", "short_deck"],
    "stud": ["stud", "razz", "stud8"],
    "draw": ["draw5", "draw5_jacks", "draw5_joker", "a5_lowball", "27_single", "27_triple",
             "badugi"],
}

_SETTINGS = settings(max_examples=150, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow])


def _check_family(family: str, seed: int, k: int, n: int, structure: str | None) -> None:
    vid = FAMILIES[family][k % len(FAMILIES[family])]
    variant = VARIANTS[vid]
    if structure is not None:
        variant = variant.with_structure(structure)
    n = min(n, variant.max_players)
    hand, _, _ = play_random(variant, n, seed)
    check_settled(hand)


@_SETTINGS
@given(seed=st.integers(0, 2**32), k=st.integers(0, 20), n=st.integers(2, 9),
       structure=st.sampled_from([None, "fixed", "pot", "no", "spread"]))
def test_clean_flop_games(seed: int, k: int, n: int, structure: str | None) -> None:
    _check_family("flop", seed, k, n, structure)


@_SETTINGS
@given(seed=st.integers(0, 2**32), k=st.integers(0, 20), n=st.integers(2, 8),
       structure=st.sampled_from([None, None, "no", "pot"]))
def test_clean_stud_games(seed: int, k: int, n: int, structure: str | None) -> None:
    _check_family("stud", seed, k, n, structure)


@_SETTINGS
@given(seed=st.integers(0, 2**32), k=st.integers(0, 20), n=st.integers(2, 6),
       structure=st.sampled_from([None, None, "no", "pot"]))
def test_clean_draw_games(seed: int, k: int, n: int, structure: str | None) -> None:
    _check_family("draw", seed, k, n, structure)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 8))
def test_clean_horse_rotation(seed: int, n: int) -> None:
    """A HORSE orbit per game: each hand of the rotation plays clean."""
    horse = ROTATIONS["horse"]
    for hand_number in range(0, 5 * n, n):
        hand, _, _ = play_random(horse.game_at(hand_number, n), n, seed + hand_number)
        check_settled(hand)
