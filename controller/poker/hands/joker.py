"""The joker in high draw poker (the "bug"): it plays as an ace, or completes a straight, a flush
or a straight flush, and five aces is the best hand.

The rule (roberts-rules-v11.txt Section 12 Draw High, The Joker: "2. The joker may be used only as
an ace, or to complete a straight, flush, or straight flush. (Thus it is not a completely wild
card.) 3. If the joker is used to make a flush, it will be the highest card of the flush not
present in the hand. 4. Five aces is the best possible hand (four aces and joker)."; Glossary,
JOKER: "In high, it is used for aces, straights, and flushes."; jamies-poker-notes.md, Wild
Cards: "A bug (often a joker) can only act as an ace unless it is used to complete a royal-flush,
straight-flush, flush or straight. When wild cards are used, the highest possible hand is
five-of-a-kind, which beats a royal flush.").

Values use the ``evaluate`` layout, plus category 9 for five aces above the straight flush.
"""

from __future__ import annotations

from controller.poker.hands.evaluate import (
    FLUSH_TABLE,
    MASK_SHIFT,
    RANK_KEY,
    RANK_TABLE,
    STRAIGHT,
    STRAIGHT_HIGH,
    SUIT_COUNT_SHIFT,
)

FIVE_ACES = 9
FIVE_ACES_VALUE = FIVE_ACES << 20
_ACE_POW = 5**12


def joker_high_value(code: int) -> int:
    """Best high hand of 4-6 real cards (``CARD_CODES`` sum ``code``) plus the joker.

    Three readings of the joker are tried and the best kept: an ace (RR Section 12, The Joker
    r.2); any rank that completes a straight; any card of a suit held four or more times, which
    completes a flush or straight flush (the best such card is the highest one missing from the
    suit, as r.3 says, unless a lower one makes a straight flush)."""
    key = code & RANK_KEY
    if key // _ACE_POW % 5 == 4:
        return FIVE_ACES_VALUE  # r.4: four aces and the joker
    best = RANK_TABLE[key + _ACE_POW]
    masks = [code >> (MASK_SHIFT + 16 * s) & 0x1FFF for s in range(4)]
    ranks = masks[0] | masks[1] | masks[2] | masks[3]
    missing = ~ranks & 0x1FFF
    top = -1
    while missing:
        bit = missing & -missing
        high = STRAIGHT_HIGH[ranks | bit]
        if high > top:
            top = high
        missing ^= bit
    if top >= 0:
        straight = STRAIGHT << 20 | top << 16
        if straight > best:
            best = straight
    for s in range(4):
        if code >> (SUIT_COUNT_SHIFT + 4 * s) & 15 < 4:
            continue
        mask = masks[s]
        free = ~mask & 0x1FFF
        while free:
            bit = free & -free
            value = FLUSH_TABLE[mask | bit]
            if value > best:
                best = value
            free ^= bit
    return best
