"""The dealer's touch console's inputs: who may send what, before anything reaches the table.

The console page (`/console`, display/static/console.html) sends each tap as a Socket.IO `input`
event on the `/dealer` namespace carrying one table event body as JSON (docs/events.md), and a
card chosen for the hardware keys as a `choose` event. The page is never trusted:

- only a socket admitted as the dealer (a role that may ``SEND_INPUT``:
controller/security/accounts.py)
  may send inputs;
- only the event types a dealer console key or betting entry makes (``CONSOLE_TYPES``) pass:
  card reads, deck set-up and seating come from the readers and the config, never the page;
- a `floor.ruling`, and the tournament's `tournament.level` and `tournament.players` (the
  level clock and the players left in the event, as the floor counts them), also need the
  floor's credential in the same message (``FLOOR_TYPES``; a login whose role may ``RULE``: the
  floor's own name and password, or the floor token on a table without accounts): the floor
  types it on the tablet for each such input, and a wrong one counts against the login rate
  limit like a wrong dealer login. Each is stamped with the floor login that made it
  (``ruled_by``), for the journal and the review;
- the body itself is parsed and validated by the shell's ``submit`` callback (the runner wires it
  to ``controller.events.parse_event`` and ``TableDaemon.submit``: journal first, then apply),
  whose refusal reason comes back to the page as the acknowledgement.

Every answer is a small dict the page shows: ``{"ok": bool, "reason": str, "findings": [...]}``.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from controller.security.accounts import RULE, SEND_INPUT, may
from display.access import Authenticator, Identity, LoginLimiter

__all__ = ["CONSOLE_TYPES", "FLOOR_TYPES", "ChooseHook", "ConsoleInputs", "Submit"]

log = logging.getLogger(__name__)

# submit(body_json) -> (accepted, the refusal reason or "", the findings the event raised as
# the dealer payload shows them: code, severity, title, message)
Submit = Callable[[str], tuple[bool, str, list[dict[str, Any]]]]
ChooseHook = Callable[[str | None], None]

# What the dealer's console may send: the console keys and betting entries of docs/events.md.
CONSOLE_TYPES = frozenset({
    "action", "hand.start", "shuffle.done", "hand.end", "misdeal.declared", "undo",
    "attention.called", "game.choose", "card.exposed", "card.boxed", "card.flashed",
    "card.kept", "draw.query", "floor.ruling", "tournament.level", "tournament.players",
})
# The inputs only the floor may make, each with what its refusal calls it.
FLOOR_TYPES: Mapping[str, str] = MappingProxyType({
    "floor.ruling": "a ruling",
    "tournament.level": "a tournament level",
    "tournament.players": "a count of the players left",
})

# A body is one short JSON object; a ruling's text is at most 500 characters (docs/events.md).
MAX_BODY = 4096
# A card name as the dealer payload writes it ("As", "Td"; "Xx" the joker).
_RANKS, _SUITS = "23456789TJQKA", "cdhs"


def _refused(reason: str) -> dict[str, Any]:
    return {"ok": False, "reason": reason, "findings": []}


def _card_name(value: Any) -> bool:
    return isinstance(value, str) and (value == "Xx" or (
        len(value) == 2 and value[0] in _RANKS and value[1] in _SUITS))


class ConsoleInputs:
    """The `/dealer` namespace's `input` and `choose` handlers, apart from the Socket.IO server,
    so the rules of who may send what are plain functions of (identity, message, client
    address)."""

    def __init__(self, submit: Submit | None, *, floor: Authenticator | None,
                 limiter: LoginLimiter, on_choose: ChooseHook | None = None) -> None:
        self._submit = submit
        self._floor = floor
        self._limiter = limiter
        self._on_choose = on_choose
        self._lock = threading.Lock()
        self._chosen: str | None = None

    @property
    def chosen_card(self) -> str | None:
        """The card the dealer last tapped as chosen (the hardware exposed/boxed keys act on it),
        or None."""
        return self._chosen

    def choose(self, identity: Identity | None, data: Any) -> dict[str, Any]:
        """A card chosen on the page (``{"card": "As"}``; ``"last"``: the last card drawn;
        ``{"card": null}`` clears it)."""
        if not may(identity, SEND_INPUT):
            return _refused("only the dealer's console may choose a card")
        card = data.get("card") if isinstance(data, Mapping) else None
        if card is not None and card != "last" and not _card_name(card):
            return _refused("card: a card name such as As, \"last\" (the last card drawn), "
                            "or null")
        with self._lock:
            self._chosen = card
        if self._on_choose is not None:
            try:
                self._on_choose(card)
            except Exception:  # a broken hook must not break the console
                log.exception("the chosen-card hook failed")
        return {"ok": True, "reason": "", "findings": [], "chosen": card}

    def input(self, identity: Identity | None, data: Any, client: str) -> dict[str, Any]:
        """One input: `data` is the body as a JSON string, or ``{"body": "<json>", "floor":
        {"user": "...", "password": "..."}}`` for a ruling or a tournament input
        (``{"token": "..."}`` without accounts). Returns the acknowledgement the page shows."""
        if not may(identity, SEND_INPUT):
            return _refused("only the dealer's console may send inputs")
        if self._submit is None:
            return _refused("this server takes no inputs (no table is attached)")
        floor_creds: Any = None
        if isinstance(data, Mapping):
            floor_creds, data = data.get("floor"), data.get("body")
        if not isinstance(data, str) or len(data) > MAX_BODY:
            return _refused(f"an input is one event body as a JSON string (at most {MAX_BODY} "
                            "characters)")
        try:
            body = json.loads(data)
        except ValueError:
            return _refused("the input is not valid JSON")
        kind = body.get("type") if isinstance(body, dict) else None
        if not isinstance(kind, str) or kind not in CONSOLE_TYPES:
            return _refused(f"{kind!r} is not a console input; one of "
                            f"{', '.join(sorted(CONSOLE_TYPES))}")
        if "seq" in body or "ts" in body:
            return _refused("the daemon numbers and stamps events; send no seq or ts")
        if kind.startswith("card.") and "uid" in body:
            # the dealer names the card it sees (or "last"); tags are the readers' business
            return _refused("a card key names the card (\"card\": \"As\" or \"last\"), "
                            "never a tag uid")
        if kind in FLOOR_TYPES:
            ruler = self._floor_check(floor_creds, client, FLOOR_TYPES[kind])
            if isinstance(ruler, str):
                return _refused(ruler)
            # who ruled or set it, from the login that was checked: never the page's word
            data = json.dumps({**body, "ruled_by": ruler.name})
        ok, reason, findings = self._submit(data)
        return {"ok": ok, "reason": reason, "findings": findings}

    def _floor_check(self, creds: Any, client: str, what: str) -> Identity | str:
        """The floor login in the message of a floor input (``what``: a ruling, a tournament
        level, ...), or the refusal's reason."""
        if self._floor is None:
            return f"no floor login is configured: {what} is refused"
        if self._limiter.retry_after(client) > 0:
            log.warning("refused %s from %s: too many failed logins", what, client)
            return "too many failed logins: try again later"
        who = self._floor(creds if isinstance(creds, Mapping) else {})
        if who is None or not may(who, RULE):
            if creds is not None:
                self._limiter.failed(client)
            log.warning("refused %s from %s: no floor login", what, client)
            return f"{what} needs the floor's login"
        return who
