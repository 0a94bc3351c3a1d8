"""The broadcast's odds, computed in a process of their own, never on the daemon's thread.

A spot's figure costs from a millisecond (hold'em on the turn) to a second or more (Omaha/8 before
the flop, finely) of pure Python. On a thread of the daemon's process that work would hold the
interpreter's lock against the thread that journals and drives the LEDs, and a card's LED would
wait for it. So the odds run in a child process (``multiprocessing``, spawned: the daemon has
threads, and a fork of a threaded process can inherit a held lock) and the daemon's side only
puts a spot on a queue and reads figures back on a thread of its own. The child runs at the
lowest CPU priority (SCHED_IDLE): the table's own work always goes first, and a figure waits.

The order of work in the child, for a live broadcast:
1. the newest spot asked first, with the quick figure: exact when that fits about 0.15 s
   (controller/poker/odds.py ``FIRST_BUDGET``), else Monte Carlo pieces of ``CHUNK`` run-outs
   for 0.15 s (``QUICK_S``), timed here;
2. then any older spot still waiting, newest first;
3. then, while nothing new is asked, the fine figure of each spot whose quick one was Monte
   Carlo: exact where about a second allows, else more pieces, pooled, to 20,000 run-outs. A
   piece takes at most about 0.1 s, and a newer spot is looked for between pieces. The fine
   figure is sent when it first is fine enough for the screen (a margin under a point) and
   when it is done.
A spot already asked is never asked again (the same cards, the same figure).

``request(snapshot)`` is called by the display's loop for every state (the Publisher), returns the
spot (the key of its figure) at once; ``figure(spot)`` is the best figure yet, or None; each
listener given to ``subscribe`` is called with the spot whenever a figure for it arrives (on the
reader thread: hand it to your own loop). The figures are kept for the last ``max_kept`` spots,
enough for the broadcast's delay at a busy table (about 30 spots a hand).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from controller.poker.equity import DEFAULT_SAMPLES, EXACT_BUDGET, Equity
from controller.poker.odds import (
    FIRST_BUDGET,
    QUICK_S,
    SHOW_MARGIN,
    Spot,
    block,
    chunk,
    merge,
    spot_of,
)
from controller.poker.outs import outs

__all__ = ["MAX_KEPT", "OddsWorker", "broadcast_odds"]

log = logging.getLogger("feltguard.odds")

MAX_KEPT = 5000
"""Spots whose figures are kept: 30 minutes of a busy table's states (60 hands of about 30 spots
each is 1,800), at about 1 KB each."""

_MAX_WAITING = 2000  # spots the child holds unvalued before it drops the oldest


def _lowest_priority() -> None:
    """The child yields every CPU to anything else that wants it: Linux's SCHED_IDLE policy
    (allowed without privileges), else the lowest nice. On a machine with few cores the odds
    would otherwise take CPU time the daemon's thread needs the moment a card arrives."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        with contextlib.suppress(OSError):
            os.nice(19)


@dataclass
class _Work:
    """A spot whose figure is being made in pieces (odds.py ``chunk``, ``merge``)."""

    spot: Spot
    eq: Equity | None = None  # the pieces so far, pooled
    k: int = 0  # the next piece
    outs: tuple[int | None, ...] | None = None
    shown: bool = False  # a figure fine enough for the screen was sent
    tried_exact: bool = False  # the fine figure's exact count was tried (``EXACT_BUDGET``)


def _final(eq: Equity) -> bool:
    return eq.method == "exact" or eq.deals >= DEFAULT_SAMPLES


def _send(results: Any, work: _Work) -> None:
    assert work.eq is not None
    out = block(work.spot, work.eq, work.outs, _final(work.eq))
    work.shown = out["shown"]
    results.put((work.spot, out, ""))


def _quick(work: _Work, quick_s: float, clock: Callable[[], float]) -> None:
    """The first figure: exact when it fits ``FIRST_BUDGET``, else Monte Carlo pieces for
    ``quick_s`` (or until ``DEFAULT_SAMPLES``)."""
    deadline = clock() + quick_s
    work.outs = outs(work.spot.game, work.spot.hands, work.spot.board, work.spot.dead)
    while True:
        # the first piece is the whole exact figure where that fits the quick budget
        piece = chunk(work.spot, work.k, budget=FIRST_BUDGET if work.k == 0 else 0)
        work.k += 1
        work.eq = piece if work.eq is None else merge(work.eq, piece)
        if _final(work.eq) or clock() >= deadline:
            return


def _refine(work: _Work) -> None:
    """One step of the fine figure: the whole exact figure where ``EXACT_BUDGET`` allows (tried
    once, at the first step), else one more Monte Carlo piece, pooled."""
    assert work.eq is not None
    piece = chunk(work.spot, work.k, budget=0 if work.tried_exact else EXACT_BUDGET)
    work.tried_exact = True
    work.k += 1
    work.eq = piece if piece.method == "exact" else merge(work.eq, piece)


def _serve(requests: Any, results: Any, quick_s: float = QUICK_S,
           clock: Callable[[], float] = time.perf_counter) -> None:
    """The child: value spots as the module's docstring orders them, until a None arrives."""
    _lowest_priority()
    waiting: list[Spot] = []
    refining: list[_Work] = []
    while True:
        got: list[Spot | None] = []
        try:
            got.append(requests.get(block=not waiting and not refining))
            while True:
                got.append(requests.get_nowait())
        except queue.Empty:
            pass
        except (EOFError, OSError):
            return  # the daemon is gone
        if None in got:
            return
        waiting.extend(s for s in got if s is not None)
        del waiting[:-_MAX_WAITING]
        work = _Work(waiting.pop()) if waiting else refining[-1]
        try:
            if work.eq is None:
                _quick(work, quick_s, clock)
                _send(results, work)
                if not _final(work.eq):  # type: ignore[arg-type]
                    refining.append(work)
                    del refining[:-_MAX_WAITING]
                continue
            _refine(work)
        except ValueError as e:  # a spot equity refuses (a deck too short for the hands, ...)
            results.put((work.spot, None, str(e)))
            if work in refining:
                refining.remove(work)
            continue
        except Exception as e:  # never let one spot stop the odds
            log.exception("odds for %s failed", work.spot)
            results.put((work.spot, None, f"{type(e).__name__}: {e}"))
            if work in refining:
                refining.remove(work)
            continue
        assert work.eq is not None
        if _final(work.eq) or (not work.shown and work.eq.margin < SHOW_MARGIN):
            _send(results, work)  # final, or first fine enough for the screen
        if _final(work.eq):
            refining.remove(work)


class OddsWorker:
    """The daemon's side of the odds process (the module's docstring)."""

    def __init__(self, *, burns_known: bool = False, max_kept: int = MAX_KEPT) -> None:
        self.burns_known = burns_known
        self._max = max_kept
        ctx = multiprocessing.get_context("spawn")
        self._requests: Any = ctx.Queue()
        self._results: Any = ctx.Queue()
        self._proc = ctx.Process(target=_serve, args=(self._requests, self._results),
                                 name="feltguard-odds", daemon=True)
        self._lock = threading.Lock()
        self._figures: OrderedDict[Spot, dict[str, Any] | None] = OrderedDict()
        self._listeners: list[Callable[[Spot], None]] = []
        self._reader = threading.Thread(target=self._read, name="odds-results", daemon=True)
        self.asked = 0
        self.valued = 0
        self.refused = 0
        self._closed = False

    def start(self) -> OddsWorker:
        self._proc.start()
        self._reader.start()
        return self

    def subscribe(self, listener: Callable[[Spot], None]) -> None:
        self._listeners.append(listener)

    def request(self, snapshot: Mapping[str, Any]) -> Spot | None:
        """The spot of a snapshot, asked of the child unless asked before; None when the state
        has nothing to value. Never blocks (the queue's feeder thread does the sending)."""
        spot = spot_of(snapshot, burns_known=self.burns_known)
        if spot is None:
            return None
        with self._lock:
            if spot in self._figures:
                self._figures.move_to_end(spot)
                return spot
            self._figures[spot] = None
            while len(self._figures) > self._max:
                self._figures.popitem(last=False)
            self.asked += 1
        if not self._closed:
            self._requests.put(spot)
        return spot

    def figure(self, spot: Any) -> dict[str, Any] | None:
        """The best figure of a spot so far (None: not yet, refused, or long forgotten)."""
        with self._lock:
            return self._figures.get(spot)

    def close(self, timeout: float = 0.3) -> None:
        """Stop the child and the reader, quickly: the odds are disposable, and a table's stop
        must not wait on them. The child is asked to stop, then killed after ``timeout`` (at
        SCHED_IDLE on a busy machine it may not get the CPU to read the request)."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(Exception):
            self._requests.put(None)
        if self._proc.pid is not None:
            self._proc.join(timeout)
            if self._proc.is_alive():
                self._proc.kill()
                self._proc.join(1.0)
        # neither queue's feeder thread may hold up the process's exit on a full pipe
        self._requests.cancel_join_thread()
        with contextlib.suppress(Exception):
            self._results.put(None)  # wakes the reader
        self._results.cancel_join_thread()
        if self._reader.is_alive():
            self._reader.join(timeout)

    def _read(self) -> None:
        while True:
            try:
                item = self._results.get()
            except (EOFError, OSError):
                return
            if item is None:
                return
            spot, out, error = item
            with self._lock:
                if spot not in self._figures:
                    continue  # forgotten meanwhile
                if out is None:
                    self.refused += 1
                    log.debug("no odds for this state: %s", error)
                    continue
                self._figures[spot] = out
                self.valued += 1
            for listener in self._listeners:
                try:
                    listener(spot)
                except Exception:
                    log.exception("an odds listener failed")


def broadcast_odds(enabled: bool, burns_known: bool = False) -> OddsWorker | None:
    """The broadcast's odds worker, started, or None when ``[broadcast] odds`` is off. The
    Publisher that is given it closes it (display/server.py)."""
    return OddsWorker(burns_known=burns_known).start() if enabled else None
