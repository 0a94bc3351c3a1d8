"""The rules core: pure (state, event) -> (state, findings, pots) for a no-limit hold'em table.

The only names used from outside (docs/architecture.md):

    from controller.rules import TableState, Step, initial_state, apply, snapshot
    step = apply(state, event)   # pure; never raises on any event sequence
    step.state, step.findings, step.results
    snapshot(state) -> dict      # docs/snapshot.md
    make_finding(code, seq, ...) # a catalogue finding (the daemon's CORE_FAULT)
    resolve_card_key(state, body) # a card key named by card -> with its tag, or why not
"""

from controller.poker.pots import PotAward
from controller.rules.findings.catalogue import make_finding
from controller.rules.findings.finding import Citation, Finding
from controller.rules.table.live import Step, TableState, apply, initial_state, resolve_card_key
from controller.rules.table.view import snapshot

__all__ = [
    "Citation",
    "Finding",
    "PotAward",
    "Step",
    "TableState",
    "apply",
    "initial_state",
    "make_finding",
    "resolve_card_key",
    "snapshot",
]
