"""The monitor scored against the simulated dealer's truth: the mistakes the dealer made, those
the rules core caught (same table, same hand, same code) and the findings it raised, per
(family, code). One matcher for ``bench.monitor`` (recall and precision over every game) and
``feltguard sim`` (its summary, and its exit status for CI).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from controller.sim.moves import Mistake


@dataclass
class Tally:
    """Counts per (family, code): mistakes made, caught, findings raised; the kinds behind each
    code; the hands dealt per game."""

    made: Counter[tuple[str, str]] = field(default_factory=Counter)
    caught: Counter[tuple[str, str]] = field(default_factory=Counter)
    raised: Counter[tuple[str, str]] = field(default_factory=Counter)
    kinds: dict[str, set[str]] = field(default_factory=dict)
    hands: Counter[str] = field(default_factory=Counter)


def score(found: Counter[tuple[int, str]], truth: Sequence[Mistake], fam_of: dict[int, str],
          tally: Tally) -> Tally:
    """Findings (hand, code) of one table against its dealer's truth, added to ``tally``."""
    want: Counter[tuple[int, str]] = Counter((m.hand, m.expected_code) for m in truth)
    for (hand, code), n in want.items():
        tally.made[(fam_of.get(hand, "?"), code)] += n
    for (hand, code), n in found.items():
        key = (fam_of.get(hand, "?"), code)
        tally.raised[key] += n
        tally.caught[key] += min(n, want.get((hand, code), 0))
    for m in truth:
        tally.kinds.setdefault(m.expected_code, set()).add(m.kind)
    return tally


def rows(tally: Tally, by: str) -> dict[str, tuple[int, int, int]]:
    """(made, caught, raised) per code (``by="code"``) or per family (``by="family"``)."""
    out: dict[str, list[int]] = {}
    for counter, i in ((tally.made, 0), (tally.caught, 1), (tally.raised, 2)):
        for (fam, code), n in counter.items():
            out.setdefault(code if by == "code" else fam, [0, 0, 0])[i] += n
    return {k: (v[0], v[1], v[2]) for k, v in out.items()}


def uncaught(tally: Tally) -> dict[str, int]:
    """Per code, the mistakes the core did not catch (codes with none are left out)."""
    return {code: m - c for code, (m, c, _) in sorted(rows(tally, "code").items()) if m > c}


# ``feltguard sim``'s exit status (docs: README, Commands): 0 every mistake made was caught,
# 1 a mistake went uncaught (a false alarm alone is reported, not failed: the dealer's truth
# names only the mistakes it made).
EXIT_ALL_CAUGHT = 0
EXIT_UNCAUGHT = 1


def exit_status(tally: Tally) -> int:
    """What a CI run of the simulator exits with, given its scored tally."""
    return EXIT_UNCAUGHT if uncaught(tally) else EXIT_ALL_CAUGHT


class RunningScore:
    """A live table scored hand by hand (``feltguard sim``): the findings the daemon raises
    (``finding``, from any thread) and, once the dealer has dealt a hand to its end, its truth
    (``hand_dealt``). A hand is scored when the next one has been dealt (a finding raised after
    a hand's end, before the next hand starts, still belongs to it) or at ``settle()``; only
    hands not yet scored are kept, so a table that runs for weeks holds a few counters."""

    def __init__(self) -> None:
        self.tally = Tally()
        self._lock = threading.Lock()
        self._found: Counter[tuple[int, str]] = Counter()
        self._dealt: dict[int, tuple[str, list[Mistake]]] = {}  # hand -> family, truth

    def finding(self, hand: int, code: str) -> None:
        with self._lock:
            self._found[(hand, code)] += 1

    def hand_dealt(self, hand: int, family: str, truth: Sequence[Mistake]) -> None:
        with self._lock:
            self._dealt[hand] = (family, list(truth))
            self._settle(below=hand)

    def settle(self) -> None:
        """Score every hand dealt to its end (at the end of a run). Findings of a hand the run
        stopped in the middle of are dropped: its truth was never complete."""
        with self._lock:
            self._settle(below=max(self._dealt, default=0) + 1)

    def _settle(self, below: int) -> None:
        hands = sorted({h for h in self._dealt if h < below}
                       | {h for h, _ in self._found if h < below})
        if not hands:
            return
        found: Counter[tuple[int, str]] = Counter()
        truth: list[Mistake] = []
        fam_of: dict[int, str] = {}
        for h in hands:
            fam, mistakes = self._dealt.pop(h, ("?", []))
            fam_of[h] = fam
            truth += mistakes
        for key in [k for k in self._found if k[0] < below]:
            found[key] = self._found.pop(key)
        score(found, truth, fam_of, self.tally)
