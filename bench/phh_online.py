"""Online hands (the HandHQ hands of the PHH dataset): our replay against PokerKit, per site.

Run as ``.venv/bin/python -m bench.phh_online DIR`` (every ``.phh``/``.phhs`` under DIR; the
data is not in this repository: take a sample of files from the public dataset into a folder of
your own). Each hand is checked as ``feltguard phh replay`` checks it
(``controller.phh.replay.check``) and replayed by PokerKit (its ``HandHistory``, iterated to the
last state). Printed per site (the ``venue`` field, else the file's name):

- hands tried; replayed to the end (by us);
- agreeing with PokerKit's final stacks (hands we both finished with known stacks; PokerKit
  cannot finish a hand with unknown ``inf`` stacks to a number, so those are not compared);
- agreeing with ``winnings`` less rake (hands with winnings recorded), and the rake in all;
- every remaining class (why a hand was not replayed to the end, or disagrees), its count and
  one example line.

Then each side's replay time per hand (min/median/max) and the ratio of the medians; the bench
asserts nothing about speed (``bench.replay`` times the pluribus corpus).
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from controller.phh import HandHistory, read_file
from controller.phh.notation import PhhError
from controller.phh.replay import HandResult, check

_CODE = re.compile(r"': ([A-Z_]{4,}): ")


@dataclass
class Site:
    """One site's counts; ``classes``: class -> (count, one example line)."""

    hands: int = 0
    to_end: int = 0
    pk_compared: int = 0
    pk_agree: int = 0
    pk_unfinished: int = 0
    with_winnings: int = 0
    winnings_agree: int = 0
    rake: Decimal = Decimal(0)
    classes: dict[str, list[Any]] = field(default_factory=dict)

    def note(self, name: str, line: str) -> None:
        entry = self.classes.setdefault(name, [0, line])
        entry[0] += 1


def _class_of(result: HandResult) -> str | None:
    """Why a hand was not replayed to the end, or disagrees with its record (None: it did not)."""
    msg = result.message
    if result.status == "error":
        m = _CODE.search(msg)
        return f"error {m.group(1)}" if m else "error"
    if result.status == "refused":
        if "no hand was seen" in msg:
            return "refused: no hand seen at the showdown"
        return "refused: unknown stacks (inf) and an all-in"
    if result.status == "incomplete":
        return "incomplete history"
    if result.status == "mismatched":
        if "winners differ" in msg:
            return "winnings: the winners differ"
        if "exceed" in msg:
            return "winnings: more than the pots allow"
        return "finishing stacks differ"
    return None


def _pokerkit(text: str) -> list[Any]:
    """PokerKit's final state of each hand of a file (None where it raises)."""
    import pokerkit

    out: list[Any] = []
    for hh in pokerkit.HandHistory.loads_all(text):
        try:
            state = None
            for state in hh:  # noqa: B007 - the last state is the result
                pass
            out.append(state)
        except Exception as exc:  # PokerKit refusing a hand is a result here
            out.append(exc)
    return out


def _num(v: Any) -> Decimal:
    return Decimal(str(v))


def run(paths: Sequence[Path]) -> tuple[dict[str, Site], list[float], list[float]]:
    sites: dict[str, Site] = {}
    ours_t: list[float] = []
    theirs_t: list[float] = []
    for path in paths:
        items = read_file(path)
        start = time.perf_counter()
        states = _pokerkit(path.read_text(encoding="utf-8"))
        pk_time = (time.perf_counter() - start) / max(1, len(states))
        # a hand that cannot be read counts at its file's site (the venue of the others)
        venue = next((str(h.optional.get("venue")) for h in items
                      if isinstance(h, HandHistory) and h.optional.get("venue")), path.stem)
        for n, item in enumerate(items):
            if isinstance(item, PhhError):
                site = sites.setdefault(venue, Site())
                site.hands += 1
                site.note("not read (refused by the reader)", str(item))
                continue
            site = sites.setdefault(str(item.optional.get("venue") or path.stem), Site())
            site.hands += 1
            start = time.perf_counter()
            result = check(item)
            ours_t.append(time.perf_counter() - start)
            theirs_t.append(pk_time)
            _count(site, item, result, states[n] if n < len(states) else None)
    return sites, ours_t, theirs_t


def _count(site: Site, hand: HandHistory, result: HandResult, state: Any) -> None:
    if result.status in ("matched", "odd_chip", "winnings", "unchecked") or (
            result.status == "mismatched" and result.got is not None):
        site.to_end += 1
    name = _class_of(result)
    if name:
        site.note(name, result.line())
    winnings = hand.optional.get("winnings")
    if winnings and any(winnings) and result.status in ("winnings", "mismatched"):
        site.with_winnings += 1
        if result.status == "winnings":
            site.winnings_agree += 1
            site.rake += _num(result.rake)
    if result.got is None or result.status == "incomplete":
        return
    if any(_num(v).is_infinite() for v in result.got):
        return  # unknown stacks: PokerKit gives inf, nothing to compare
    if state is None or isinstance(state, Exception) or state.status:
        site.pk_unfinished += 1
        site.note("PokerKit did not finish it", f"{result.label}: PokerKit: "
                  f"{state if isinstance(state, Exception) else 'still in progress'}")
        return
    site.pk_compared += 1
    theirs = [_num(v) for v in state.stacks]
    ours = [_num(v) for v in result.got]
    if theirs == ours:
        site.pk_agree += 1
        return
    line = (f"{result.label}: ours {list(map(str, result.got))}, PokerKit's "
            f"{list(map(str, theirs))}")
    if _whole_unit_split(ours, theirs):
        site.note("final stacks differ from PokerKit's: a tied pot PokerKit splits in whole "
                  "units, we to the cent", line)
    else:
        site.note("final stacks differ from PokerKit's", line)


def _whole_unit_split(ours: list[Decimal], theirs: list[Decimal]) -> bool:
    """A tied pot of an odd number of whole units in a game played in cents: PokerKit splits
    it in whole units (its odd chip is one unit: 24 and 23 of a 47 pot, when the blinds and
    bets are written whole), we split it to the cent (23.50 each). The chips are the same and
    nobody differs by a whole unit or more."""
    diff = [o - t for o, t in zip(ours, theirs, strict=True)]
    return (sum(diff) == 0 and all(abs(d) < 1 for d in diff)
            and any(o != o.to_integral_value() for o in ours))


def _spread(values: list[float]) -> str:
    if not values:
        return "-"
    us = [v * 1e6 for v in values]
    return f"{min(us):.0f} / {statistics.median(us):.0f} / {max(us):.0f} µs"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a folder of .phh/.phhs files (searched deep)")
    args = parser.parse_args(argv)
    try:
        import pokerkit  # noqa: F401
    except ImportError:
        print("PokerKit is not installed: nothing to compare with")
        return 0
    if not args.folder.is_dir():
        print(f"{args.folder}: not a folder")
        return 2
    paths = sorted(p for p in args.folder.rglob("*") if p.suffix in (".phh", ".phhs"))
    if not paths:
        print(f"{args.folder}: no .phh or .phhs files in it")
        return 2
    sites, ours, theirs = run(paths)
    print("| site | hands | replayed to the end | = PokerKit (compared) | = winnings less rake "
          "(with winnings) | rake in all |")
    print("| --- | --- | --- | --- | --- | --- |")
    total = Site()
    for name, s in sorted(sites.items()):
        print(f"| {name} | {s.hands} | {s.to_end} | {s.pk_agree} ({s.pk_compared}) | "
              f"{s.winnings_agree} ({s.with_winnings}) | {s.rake} |")
        for k in ("hands", "to_end", "pk_agree", "pk_compared", "winnings_agree",
                  "with_winnings", "rake"):
            setattr(total, k, getattr(total, k) + getattr(s, k))
    print(f"| all | {total.hands} | {total.to_end} | {total.pk_agree} ({total.pk_compared}) | "
          f"{total.winnings_agree} ({total.with_winnings}) | {total.rake} |")
    print()
    print("| site | class | hands | example |")
    print("| --- | --- | --- | --- |")
    counts: Counter[str] = Counter()
    for name, s in sorted(sites.items()):
        for cls, (count, line) in sorted(s.classes.items()):
            counts[cls] += count
            print(f"| {name} | {cls} | {count} | `{line}` |")
    print()
    print(f"replay time per hand, min / median / max: ours {_spread(ours)}; PokerKit "
          f"{_spread(theirs)} (its file's time over its hands)")
    if ours and theirs:
        print(f"ratio of the medians (PokerKit / ours): "
              f"{statistics.median(theirs) / statistics.median(ours):.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
