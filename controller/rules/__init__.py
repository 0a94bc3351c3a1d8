"""The rules core: pure (state, event) -> (state, findings, pots) for every game the table deals.

This module is the core's only face: code outside ``controller/rules`` imports these names and
nothing below them (an import-linter contract, ``core-face``, holds it). Inside, five wings, each
with its own face: ``table`` (the live table), ``chips``, ``procedure`` (the procedure monitor),
``engine`` (the hand engine) and ``findings`` (docs/architecture.md).

    from controller.rules import TableState, Step, initial_state, apply, snapshot
    step = apply(state, event)   # pure; never raises on any event sequence
    step.state, step.findings, step.results
    snapshot(state) -> dict      # docs/snapshot.md
    snapshot(state, memo)        # the same, built only where the state changed (ViewMemo)
    make_finding(code, seq, ...) # a catalogue finding (the daemon's CORE_FAULT)
    resolve_card_key(state, body) # a card key named by card -> with its tag, or why not

What plays or reads a hand outside the live table (the PHH replay, the simulated dealer's
players) uses the hand engine through ``HandEngine``, ``Stakes``, ``HouseSettings`` and
``IllegalAction``, the procedure monitor's hand through ``GameHand``, and the misdeal cut-off
through ``cutoff_passed``. The readers' health monitor names the chip devices ``CHIP_READER`` and
``COUNTING_TRAY``, as the core's findings do.
"""

from controller.poker.pots import PotAward
from controller.rules.chips import wager_in_front
from controller.rules.engine import Hand as HandEngine
from controller.rules.engine import HouseSettings, IllegalAction, Stakes
from controller.rules.findings import CATALOGUE, Citation, Finding, make_finding
from controller.rules.procedure import GameHand
from controller.rules.table import (
    CHECKPOINT_VERSION,
    CHIP_READER,
    COUNTING_TRAY,
    CheckpointError,
    Step,
    TableState,
    ViewMemo,
    apply,
    cutoff_passed,
    initial_state,
    resolve_card_key,
    snapshot,
    state_from_text,
    state_to_text,
)

__all__ = [
    "CATALOGUE",
    "CHECKPOINT_VERSION",
    "CHIP_READER",
    "COUNTING_TRAY",
    "CheckpointError",
    "Citation",
    "Finding",
    "GameHand",
    "HandEngine",
    "HouseSettings",
    "IllegalAction",
    "PotAward",
    "Stakes",
    "Step",
    "TableState",
    "ViewMemo",
    "apply",
    "cutoff_passed",
    "initial_state",
    "make_finding",
    "resolve_card_key",
    "snapshot",
    "state_from_text",
    "state_to_text",
    "wager_in_front",
]
