"""``python -m bench.review_index``: the surveillance review's first request, with its index
kept with the journal (warm: ``<journal>.review.sqlite`` beside it) against without (cold: the
whole journal replayed), issue 28 item 3 (docs/review.md, "The index kept with the journal").

The journal (default 10^5 events) is dealt by the simulated dealer of dealer's choice through
the daemon, as ``bench.restart`` builds its journals (``--keep DIR`` builds it once). Each
request is timed in a fresh process, as the review's worker process starts: from before the
process is started to the hand list answered (``Review.hands_page``), imports included.

- cold: the sidecar removed first, so the whole journal is replayed (and the sidecar written:
  that is part of a first request's cost now);
- warm: the sidecar as the cold request left it, the journal unchanged (events the table
  added since cost what they cost in a running review: ``Review.stats``, docs/review.md).

``--repeat`` (default 3) runs each, interleaved; printed min / median / max seconds, the events
each replayed, and the ratio of the medians (cold / warm is the peer's figure over ours).

    python -m bench.review_index [--events 100000] [--repeat 3] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.restart import build

CHILD = r"""
import json, sys
from controller.surveillance.review import Query, Review
review = Review(sys.argv[1])
page = review.hands_page(Query(limit=100))
print(json.dumps({"replayed": review.stats.events, "hands": review.stats.hands,
                  "last_seq": page["last_seq"]}))
"""


def first_request(journal: Path) -> tuple[float, dict[str, int]]:
    """Seconds from before a fresh process's start to its first hand list; what it replayed."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD, str(journal)], capture_output=True,
                          text=True, check=False, timeout=3600)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    got: dict[str, int] = json.loads(done.stdout.splitlines()[-1])
    return wall, got


def _remove_sidecar(journal: Path) -> None:
    from controller.surveillance.review_store import sidecar_path

    for suffix in ("", "-wal", "-shm"):
        Path(f"{sidecar_path(journal)}{suffix}").unlink(missing_ok=True)


def _fmt(xs: list[float]) -> str:
    return f"{min(xs):8.3f} / {statistics.median(xs):8.3f} / {max(xs):8.3f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.review_index",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", default=None, help="build the journal in this folder (once)")
    args = parser.parse_args(argv)
    if args.events < 1000 or args.repeat < 1:
        parser.error("--events at least 1000, --repeat at least 1")
    from controller.surveillance.review_store import sidecar_path

    tmp = None
    if args.keep:
        folder = Path(args.keep)
        folder.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="feltguard-bench-review-")
        folder = Path(tmp.name)
    full = folder / f"review-{args.events}.sqlite"
    if not full.exists():
        build(full, args.events)
    runs: dict[str, list[float]] = {"cold": [], "warm": []}
    replayed: dict[str, int] = {}
    size = 0
    for _ in range(args.repeat):  # interleaved: the same machine state for each
        _remove_sidecar(full)
        wall, got = first_request(full)
        runs["cold"].append(wall)
        replayed["cold"], hands = got["replayed"], got["hands"]
        size = sidecar_path(full).stat().st_size
        wall, got = first_request(full)
        runs["warm"].append(wall)
        replayed["warm"] = got["replayed"]
    print(f"the review's first request (a fresh process: start -> the hand list), a journal of "
          f"{args.events} events, {hands} hands; seconds min / median / max, {args.repeat} runs")
    for name, xs in runs.items():
        print(f"  {name:<14} {_fmt(xs)}   replayed {replayed[name]:>7} events")
    cold, warm = statistics.median(runs["cold"]), statistics.median(runs["warm"])
    print(f"  cold / warm (medians): {cold / warm:.1f}; the sidecar: {size / 1e6:.1f} MB")
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
