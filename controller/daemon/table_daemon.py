"""The table daemon: the one place that owns the table state.

Everything that happens at the table arrives here as an event body, from the card reader thread
(through sensing), from the dealer console or from the simulated dealer. ``submit`` checks the
body the way a replay will parse it (so nothing the journal could not replay is ever written),
numbers it, stamps it with the wall clock (the rules core has none), commits it to the journal,
applies it to the rules core and pushes the new snapshot to every output (LEDs, display), in
that order and under one lock, so outputs see snapshots in event order.

The rules core never raises (its fuzz in the suite and in ``bench.fuzz`` holds it to that). The
daemon still guards it, as the last line of defence of a live table: if applying an event fails
anyway, the event stays journaled, the state stays as it was before it, a ``CORE_FAULT`` finding
with the traceback's digest is journaled and shown, and the table goes on. Recovery and replay
go through the same guard (``controller.guard.guarded_apply``), so a journal holding such an
event still brings the table back up, to the same state.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from controller.daemon.checkpoint_writer import CheckpointWriter
from controller.daemon.segments import Rollover
from controller.events import (
    CARD_KEYS,
    Body,
    Event,
    EventError,
    FloorRuling,
    HandEnd,
    HandStart,
    MisdealDeclared,
    parse_event,
)
from controller.guard import guarded_apply
from controller.journal import Journal, JournalError, check, read_events, run_gaps
from controller.rules import (
    CheckpointError,
    Step,
    TableState,
    ViewMemo,
    initial_state,
    resolve_card_key,
    snapshot,
    state_from_text,
    state_to_text,
)
from controller.sensing.cards import Sensing, TagReadLike
from controller.sensing.chips import ChipInventoryLike, ChipSensing, TrayCountsLike

log = logging.getLogger("feltguard.daemon")

Output = Callable[[Mapping[str, Any]], None]

# Events after which a hand may have ended (awarded, misdealt, voided) or a new one begun: the
# chain head is anchored outside the journal then (controller/journal.py).
_ANCHOR_AFTER = (HandEnd, MisdealDeclared, FloorRuling, HandStart)
# After a hand's end (awarded or misdealt), and at least every this many events (a hand that
# goes on and on, a long spell of set-up), the state is kept as a checkpoint in the journal:
# a restart loads it and replays only what came after (docs/checkpoints.md).
_CHECKPOINT_AFTER = (HandEnd, MisdealDeclared)
CHECKPOINT_EVERY = 2000


def checked(event: Event) -> Event:
    """``event`` as a replay will read it back, or EventError: the journal only ever holds events
    that parse, so it always replays."""
    return parse_event(event.to_json())


class TableDaemon:
    def __init__(
        self,
        journal: Journal | None = None,
        outputs: Iterable[Output] = (),
        sensing: Sensing | None = None,
        clock: Callable[[], float] = time.time,
        chip_sensing: ChipSensing | None = None,
        *,
        checkpoints_aside: bool = False,
        rollover: Rollover | None = None,
    ) -> None:
        self.journal = journal
        self.outputs = list(outputs)
        self.sensing = sensing or Sensing()
        self.chip_sensing = chip_sensing or ChipSensing()
        # which chip is which denomination: the core's registry as it stands (read under the
        # lock, as on_chips settles under it)
        self.chip_sensing.denomination_of = self._denomination_of
        self._clock = clock
        self._cond = threading.Condition(threading.RLock())
        self.state: TableState = initial_state()
        self.seq = 0
        self.events_applied = 0
        # the events card sensing made (reads and lost tags) and the daemon applied: what a
        # card's frames became, counted apart from events any other source submits meanwhile
        self.card_events_applied = 0
        self.output_errors = 0
        self.core_faults = 0
        self.rejected_reads = 0  # reads that made no valid event (on_read)
        self.recovered = 0  # events replayed from the journal at start
        # how the start went (/healthz's journal.restart, the log): from which checkpoint, how
        # many events replayed after it, and how many checkpoints were passed over and why
        self.restart: dict[str, Any] | None = None
        self._since_checkpoint = 0
        # When the applying path last ran (time.monotonic): every submit and sensing tick sets
        # it, under the lock; the systemd watchdog asks for it (heartbeat,
        # controller/daemon/systemd.py)
        self.beat = time.monotonic()
        self.journal_error: str | None = None  # the last append's failure, if it failed
        # each snapshot built from the last one where the state did not change (ViewMemo): a
        # card read changes a seat and the hand, not the table's other parts
        self._view = ViewMemo()
        self.last_snapshot: Mapping[str, Any] = snapshot(self.state, self._view)
        if journal is not None and journal.last_seq:
            self._recover(journal)
            # the zones as the journal left them: a restart reports only what changed since
            self.chip_sensing.restore({z: c.uids for z, c in self.state.chips.zones.items()})
        # ``checkpoints_aside`` (feltguard run, sim): each checkpoint's text is made on a thread
        # of its own, not on the one that journals and drives the LEDs (checkpoint_writer.py);
        # else here, after the outputs (tests and tools that read the journal at once)
        self.checkpoints: CheckpointWriter | None = None
        if journal is not None and checkpoints_aside:
            self.checkpoints = CheckpointWriter(state_to_text, journal.pack_state,
                                                self._store_state)
        # the journal's segment boundary (docs/segments.md): None, one file forever
        self.rollover = rollover
        if rollover is not None and journal is not None:
            rollover.opened(journal)

    def _recover(self, journal: Journal) -> None:
        """Crash recovery: the journal is the truth. The state comes from the newest checkpoint
        that checks out (its HMAC, its place in the chain, its anchor, a text this code reads),
        then the events after it are checked and replayed; with none, the whole journal is.
        Each checkpoint passed over is said in the log and counted in ``restart``. A journal
        whose chain does not check out is not resumed (JournalError): its events cannot be
        trusted to be the table's."""
        start, passed = 0, []
        for cp in journal.checkpoints():
            problem = cp.problem
            if problem is None:
                try:
                    state = state_from_text(cp.text)
                except CheckpointError as exc:
                    problem = str(exc)
            if problem is not None:
                log.warning("the checkpoint at seq %d is passed over: %s", cp.seq, problem)
                passed.append(cp.seq)
                continue
            verdict = journal.check_since(cp.seq, cp.hash)
            if not verdict.ok:
                raise JournalError(f"{journal.path}: {verdict.problem}; not resumed "
                                   "(feltguard verify says more)")
            self.state, self.seq, start = state, cp.seq, cp.seq
            break
        else:
            # the events and anchors: a checkpoint that failed its check was passed over above
            verdict = check(journal.path, key_path=journal.key_path, anchors=journal.anchor_path,
                            checkpoints=False)
            if not verdict.ok:
                raise JournalError(f"{journal.path}: {verdict.problem}; not resumed "
                                   "(feltguard verify says more)")
        for event in read_events(journal.path, after=start):
            applied = guarded_apply(self.state, event, view=False)  # (the last one's below)
            if applied.fault is not None:
                self.core_faults += 1  # journaled when it happened; skipped again, as then
            self.state = applied.step.state
            self.seq = event.seq
            self.recovered += 1
        self.last_snapshot = snapshot(self.state, self._view)
        self.restart = {"from": "checkpoint" if start else "the whole journal",
                        "checkpoint_seq": start or None, "replayed": self.recovered,
                        "checkpoints_passed_over": len(passed)}
        # a run's missing segments (by their names: none is opened) do not stop a restart from
        # the live segment's checkpoint, but are said (docs/segments.md)
        gaps = run_gaps(journal.path)
        if gaps:  # (seq ranges only: /healthz shows them, and it shows no path)
            self.restart["gaps"] = [[gap.first, gap.last] for gap in gaps]
            for gap in gaps:
                log.warning("%s: %s", journal.path, gap)
        if start:
            log.info("resumed %s at seq %d from its checkpoint at seq %d, %d events replayed "
                     "after it", journal.path, self.seq, start, self.recovered)
        else:
            log.info("recovered %d events from %s%s", self.seq, journal.path,
                     f" ({len(passed)} checkpoints passed over)" if passed else "")

    def journal_health(self) -> dict[str, Any]:
        """The journal as /healthz says it: whether its last append worked, the last seq, and
        how the table started (``restart``: None for a new journal)."""
        return {"ok": self.journal_error is None, "last_seq": self.seq, "restart": self.restart}

    @property
    def hand_in_play(self) -> bool:
        """Whether the state holds a hand that has started and not ended."""
        hand = self.last_snapshot.get("hand", {})
        return bool(hand.get("number")) and hand.get("phase") not in (
            "idle", "complete", "misdeal")

    def submit(self, body: Body, ts: int | None = None) -> Step:
        """Journal and apply one event. Raises EventError, before anything is journaled, for a
        body a replay could not read back, or a card key whose card is not in play."""
        with self._cond:
            if isinstance(body, CARD_KEYS) and not body.uid:
                # the dealer names the card (or "last"): the core says which tag that is now,
                # and the journal holds the key with its tag (a key that names none is refused)
                named = resolve_card_key(self.state, body)
                if isinstance(named, str):
                    raise EventError(named)
                body = named
            event = checked(Event(self.seq + 1,
                                  int(self._clock() * 1000) if ts is None else ts, body))
            if self.journal is not None:
                try:
                    self.journal.append(event)  # committed before it is applied
                except Exception as exc:  # said on /healthz (journal.ok) until one succeeds
                    self.journal_error = f"{type(exc).__name__}: {exc}"
                    raise
                self.journal_error = None
            self.seq = event.seq  # (after the append: a refused append leaves no gap)
            applied = guarded_apply(self.state, event, memo=self._view)
            step = applied.step
            if applied.fault is not None:
                self.core_faults += 1
            self.state = step.state
            if isinstance(event.body, HandStart):
                self.sensing.new_hand()
            snap = applied.snap
            self.last_snapshot = snap
            hand = int(snap.get("hand", {}).get("number", 0))
            if self.journal is not None:
                if step.findings or step.results:
                    self.journal.record_findings(hand, step.findings)
                    self.journal.record_results(hand, event.seq, step.results)
                if isinstance(event.body, _ANCHOR_AFTER):
                    self.journal.anchor("hand", hand)
                self._since_checkpoint += 1
            for output in self.outputs:
                try:
                    output(snap)
                except Exception:  # an output must never stop the table
                    self.output_errors += 1
                    log.exception("output %r failed", output)
            # after the LEDs and screens have the state: a hand's end waits on no checkpoint
            if self.journal is not None and (isinstance(event.body, _CHECKPOINT_AFTER)
                                             or self._since_checkpoint >= CHECKPOINT_EVERY):
                self._keep_state(hand)
            self._roll(event)
            self.events_applied += 1
            self.beat = time.monotonic()
            self._cond.notify_all()
            return step

    def _keep_state(self, hand: int) -> None:
        """The state as a checkpoint in the journal (docs/checkpoints.md), here or on the
        writer's thread. A failure to keep one is logged and costs only a longer restart: the
        events are journaled already."""
        assert self.journal is not None
        try:
            if self.checkpoints is not None:
                point = self.journal.state_point(hand)  # anchored now, written aside
                if point is not None:
                    self.checkpoints.keep(self.state, point)
            else:
                self.journal.save_state(state_to_text(self.state), hand)
        except Exception:  # (a full disk, a checkpoint the codec cannot write)
            log.exception("the state after seq %d was not kept as a checkpoint", self.seq)
            return
        self._since_checkpoint = 0

    def _store_state(self, row: Any) -> None:
        # the writer's thread: the insert under the lock every journal write is made under
        with self._cond:
            assert self.journal is not None
            self.journal.store_state(row)

    def close(self, timeout: float = 10.0) -> None:
        """Write the checkpoints still being made (before the journal closes)."""
        if self.checkpoints is not None:
            self.checkpoints.close(timeout)

    def _roll(self, event: Event) -> None:
        """After a hand's end (its checkpoint kept): seal the live segment and open the next
        one when the operator's boundary has passed (docs/segments.md). A rollover held back
        (another process reading, a full disk) is logged and tried at the next hand's end: the
        events are journaled in the live segment either way."""
        if (self.rollover is None or self.journal is None
                or not isinstance(event.body, _CHECKPOINT_AFTER) or not self.rollover.due()):
            return
        first = self.journal.first_seq
        try:
            sealed = self.journal.rollover(state_to_text(self.state))
        except Exception:
            log.exception("the journal did not roll over after seq %d", self.seq)
            return
        if sealed is None:
            log.warning("the journal's rollover after seq %d was held back (a reader in "
                        "another process); tried again at the next hand's end", self.seq)
            return
        self.rollover.rolled()
        log.info("journal rolled over: seq %d..%d sealed as %s; the live segment follows on "
                 "at seq %d", first, self.seq, sealed.name, self.seq + 1)

    def on_read(self, read: TagReadLike) -> None:
        """Card reader callback (reader thread): sensing, then submit each resulting event. A
        read that makes no valid event (a uid no event may carry) is counted and dropped: the
        reader thread must go on."""
        with self._cond:
            self.card_events_applied += self._submit_sensed(self.sensing.on_read(read), "read")

    def on_chips(self, inventory: ChipInventoryLike) -> None:
        """Chip reader callback (reader thread): one antenna's scan cycle; each zone it settles
        is submitted as a ``chips.zone`` (controller/sensing/chips.py)."""
        with self._cond:
            self._submit_sensed(self.chip_sensing.on_inventory(inventory), "chip inventory")

    def on_tray(self, report: TrayCountsLike) -> None:
        """Counting tray callback: its counts, once settled, as a ``tray.counts``."""
        with self._cond:
            self._submit_sensed(self.chip_sensing.on_tray(report), "tray counts")

    def tick(self, now: float) -> None:
        """Periodic call (``now``: the readers' monotonic clock) so sensing can notice silence:
        a tag no longer read becomes a lost ``zone.leave``, submitted like any read's event;
        a chip zone still for the settle time between two scan cycles settles."""
        with self._cond:
            self.card_events_applied += self._submit_sensed(self.sensing.tick(now),
                                                            "lost-tag event")
            self._submit_sensed(self.chip_sensing.tick(now), "chip zone")
            self.beat = time.monotonic()

    def chip_due(self, now: float) -> float | None:
        """When chip sensing next settles something (``ChipSensing.next_due``), under the lock."""
        with self._cond:
            return self.chip_sensing.next_due(now)

    def settle_chips(self, now: float) -> None:
        """Chip sensing's settle clock (``controller/sensing/chip_clock.py``): what is still for the
        settle time at ``now`` settles, and each zone it settles is submitted."""
        with self._cond:
            self._submit_sensed(self.chip_sensing.tick(now), "chip zone")

    def _denomination_of(self, uid: str) -> int | None:
        return self.state.chips.registry.denomination_of(uid)

    def heartbeat(self, timeout: float) -> float | None:
        """When the applying path last ran (``beat``), read under the daemon's lock; None if the
        lock is not free within ``timeout``: a core hung inside ``submit`` holds it, and then
        the watchdog must not ping (controller/daemon/systemd.py)."""
        if not self._cond.acquire(timeout=timeout):
            return None
        try:
            return self.beat
        finally:
            self._cond.release()

    def _submit_sensed(self, bodies: Iterable[Body], what: str) -> int:
        """Submit each sensed body; the number applied (a body no event may carry is dropped)."""
        applied = 0
        for body in bodies:
            try:
                self.submit(body)
            except EventError as exc:
                self.rejected_reads += 1
                log.warning("%s dropped: %s", what, exc)
            else:
                applied += 1
        return applied

    def wait_until(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Block until ``predicate()`` holds after some event, or the timeout passes."""
        with self._cond:
            return self._cond.wait_for(predicate, timeout)
