"""Role payloads: what each Socket.IO namespace may see of a table snapshot.

The rules core's snapshot (docs/snapshot.md) holds everything, hole cards included. These pure
functions build the per-role views from it by WHITELIST: each payload is a fresh dict into which
named keys are copied; nothing is ever deleted from a copy of the snapshot, so a key the core adds
later stays out of every view until someone names it here on purpose (DESIGN.md, Security).

- `table_payload` is the public view (`/table` namespace, the broadcast screen): the game and its
  family, stakes, pots, stacks and bets, how many cards each seat holds face down, and a seat's
  hole cards only once the seat is in `hand.showdown` (its hand is tabled). What lies face up on
  the felt is public too, family by family (`table.family`): the board in board games, each
  seat's upcards in stud, the number of cards each seat drew in draw games. Findings carry only
  code, seq, severity, title and seats: a finding's message, cards and remedy may name hole cards.
  Each seat's chips in front (`chips_in_front`, the settled total of its bet zone) are public:
  they lie on the felt in everyone's sight. The antennas' pot, tray and drop readings are not.
- `broadcast_payload` is the delayed broadcast view (`/broadcast` namespace, shown only after the
  secure delay, display/delay.py): the public view plus every seat's hole cards, as a TV
  broadcast shows them, and the findings only when the house puts them on air. Nothing else
  private: no finding detail, no `hand.expect`, no burns, no device or chip-zone readings.
- `dealer_payload` is the dealer's view (`/dealer` namespace): every documented key, hole cards
  (in stud split into down and up cards), each finding in full and `hand.expect`.

Incremental (`PayloadMemo`): the core's incremental snapshot keeps every part an event did not
change as the same object (docs/snapshot.md, "Incremental"). Given a memo, each payload part
(a seat, the findings, the results, the table, the devices, the chip zones) is built again only
when a snapshot part it is built from is not the same object as last time; else the last one is
reused. The payload is the same, key for key, as without the memo.

Both tolerate a malformed snapshot: a field of the wrong type is replaced by its empty value
(None, 0, [] or ""), an entry that is not an object is skipped, and any doubt about whether a
seat's hand is tabled keeps its hole cards out of the public view (fail closed). Only a snapshot
that is not a dict at all is refused, with a TypeError.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, TypeVar

__all__ = ["PayloadMemo", "broadcast_payload", "dealer_payload", "devices", "table_payload"]

Payload = dict[str, Any]
T = TypeVar("T")


class PayloadMemo:
    """The payload parts last built, each with the snapshot parts it was built from: reused
    while those are the same objects (the module's docstring). One entry per part's name, so
    its memory does not grow; used by one thread (the display's loop)."""

    def __init__(self) -> None:
        self._parts: dict[Any, tuple[tuple[Any, ...], Any]] = {}

    def part(self, name: Any, sources: tuple[Any, ...], build: Callable[[], T]) -> T:
        kept = self._parts.get(name)
        if kept is not None and len(kept[0]) == len(sources) and all(
                map(operator.is_, kept[0], sources)):
            return kept[1]  # type: ignore[no-any-return]
        value = build()
        self._parts[name] = (sources, value)
        return value


class _NoMemo(PayloadMemo):
    def part(self, name: Any, sources: tuple[Any, ...], build: Callable[[], T]) -> T:
        return build()


_NO_MEMO = _NoMemo()

# The keys each role may see. Sub-objects are listed separately below.
_TABLE_KEYS_PUBLIC = ("game", "name", "seats", "small_blind", "big_blind", "ante")
_TABLE_KEYS_DEALER = (*_TABLE_KEYS_PUBLIC, "profile")

# How a game lies on the felt (docs/snapshot.md, `table.family`).
FAMILIES = ("board", "stud", "draw")

# A deck holds at most 53 cards (52 and a joker): a larger `table.hole_cards` is malformed. The
# pages lay out that many places per seat, so an absurd count must not reach them.
_MAX_HOLE_SLOTS = 53


def _int(value: Any) -> int | None:
    """An int (bools are not counts or seats), else None."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


def _count(value: Any) -> int:
    n = _int(value)
    return n if n is not None else 0


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _bool(value: Any) -> bool:
    return value is True


def _ints(value: Any) -> list[int]:
    if not isinstance(value, list | tuple):
        return []
    return [n for n in (_int(v) for v in value) if n is not None]


def _strs(value: Any) -> list[str]:
    if not isinstance(value, list | tuple):
        return []
    return [v for v in value if isinstance(v, str)]


def _obj(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _objs(value: Any) -> list[Mapping[str, Any]]:
    if not isinstance(value, list | tuple):
        return []
    return [v for v in value if isinstance(v, Mapping)]


def _scalar(value: Any) -> str | int | float | bool | None:
    """A JSON scalar, else None (stakes and table settings are scalars)."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return None


def _shares(value: Any) -> dict[str, int]:
    # JSON object keys are strings: {"4": 12}. Seats given as ints are accepted and converted.
    out: dict[str, int] = {}
    for seat, chips in _obj(value).items():
        n = _int(chips)
        if n is not None and isinstance(seat, str | int) and not isinstance(seat, bool):
            out[str(seat)] = n
    return out


def _pots(value: Any) -> list[Payload]:
    return [
        {"amount": _count(p.get("amount")), "eligible": _ints(p.get("eligible"))}
        for p in _objs(value)
    ]


def _uncalled(value: Any) -> Payload | None:
    """The part of a bet nobody can call any more (``hand.uncalled``), going back to its owner:
    not a pot. None unless both its seat and a positive amount are ints."""
    bet = _obj(value)
    seat, amount = _int(bet.get("seat")), _int(bet.get("amount"))
    return None if seat is None or amount is None or amount <= 0 else {"seat": seat,
                                                                        "amount": amount}


def _results(value: Any) -> list[Payload]:
    return [
        {
            "amount": _count(r.get("amount")),
            "eligible": _ints(r.get("eligible")),
            "winners": _ints(r.get("winners")),
            "shares": _shares(r.get("shares")),
            "hand": _str(r.get("hand")),
        }
        for r in _objs(value)
    ]


def _family(snapshot: Mapping[str, Any]) -> str:
    """The game's family: "board", "stud" or "draw". A snapshot without one is from before the
    core named families, when every table was hold'em: "board". Anything else is "" (unknown):
    neither a board, nor upcards, nor draws are shown for it."""
    table = _obj(snapshot.get("table"))
    if "family" not in table:
        return "board"
    family = table.get("family")
    return family if family in FAMILIES else ""


def _hole_slots(table: Mapping[str, Any]) -> int:
    """Hole-card places per seat: the snapshot's `table.hole_cards` (the cards each seat is dealt
    in the game). Missing or malformed: 0 (no empty places are drawn), except in a snapshot
    without `family`, from before the core named families and hole cards: hold'em, 2."""
    n = _int(table.get("hole_cards"))
    if n is not None and 0 <= n <= _MAX_HOLE_SLOTS:
        return n
    return 2 if "family" not in table else 0


def _table(snapshot: Mapping[str, Any], keys: tuple[str, ...]) -> Payload:
    table = _obj(snapshot.get("table"))
    out: Payload = {key: _scalar(table.get(key)) for key in keys}
    out["family"] = _family(snapshot)
    out["hole_slots"] = _hole_slots(table)
    return out


def _require_dict(snapshot: Any) -> Mapping[str, Any]:
    if not isinstance(snapshot, Mapping):
        kind = type(snapshot).__name__
        raise TypeError(f"a snapshot must be a dict (docs/snapshot.md), got {kind}")
    return snapshot


def _seat_chips(s: Mapping[str, Any], seat: int) -> Payload:
    """A seat's keys every role sees: who sits there and the chips (no card)."""
    return {
        "seat": seat,
        "player": _str(s.get("player")),
        "stack": _count(s.get("stack")),
        "bet": _count(s.get("bet")),
        "in_hand": _bool(s.get("in_hand")),
        "folded": _bool(s.get("folded")),
        "all_in": _bool(s.get("all_in")),
        # the settled total of the seat's bet zone as the chip antennas read it; null while that
        # zone was never read. Public: the chips lie in front of the seat, in everyone's sight
        "chips_in_front": _int(s.get("chips_in_front")),
    }


# The chip zones the dealer sees apart from the seats' (docs/snapshot.md `chips`): the pot, the
# chip tray and the drop box slot as the antennas read them. Stack zones and tag uids stay out.
CHIP_ZONES_DEALER = ("pot", "tray", "drop")


def _chip_counts(value: Any) -> dict[str, int]:
    """Denomination -> count (JSON keys are strings), counts that are not ints dropped."""
    out: dict[str, int] = {}
    for denom, n in _obj(value).items():
        count = _int(n)
        if isinstance(denom, str) and count is not None:
            out[denom] = count
    return out


def _chip_zone(value: Any) -> Payload | None:
    """A zone's settled reading: `total`, `counts`, `seq`; null when the zone was never read."""
    zone = _obj(value)
    if not zone:
        return None
    return {"total": _count(zone.get("total")), "counts": _chip_counts(zone.get("counts")),
            "seq": _int(zone.get("seq"))}


def _finding_public(f: Mapping[str, Any]) -> Payload:
    """A finding's keys every role sees: no message, card, rule or remedy."""
    return {
        "code": _str(f.get("code")),
        "seq": _int(f.get("seq")),
        "severity": _str(f.get("severity")),
        "title": _str(f.get("title")),
        "seats": _ints(f.get("seats")),
    }


def _hand_public(hand: Mapping[str, Any]) -> Payload:
    """The hand's keys every role sees (the public ones, in order; the tabled seats apart)."""
    return {
        "number": _count(hand.get("number")),
        "phase": _str(hand.get("phase")) or "idle",
        "button": _int(hand.get("button")),
        "small_blind": _int(hand.get("small_blind")),
        "big_blind": _int(hand.get("big_blind")),
        "to_act": _int(hand.get("to_act")),
        "board": _strs(hand.get("board")),
        "pots": _pots(hand.get("pots")),
        "uncalled": _uncalled(hand.get("uncalled")),
        "draw_answer": _draw_answer(hand.get("draw_answer")),
    }


def _drawn_now(s: Mapping[str, Any]) -> list[int]:
    n = _int(s.get("drawn_now"))
    return [] if n is None else [n]


def _draw_answer(value: Any) -> Payload | None:
    """The last draw question answered (``hand.draw_answer``): public, as said at the table."""
    answer = _obj(value)
    seat, drawn = _int(answer.get("seat")), _int(answer.get("drawn"))
    return None if seat is None or drawn is None else {"seat": seat, "drawn": drawn}


def _seat_public(s: Mapping[str, Any], seat: int, shown: bool, family: str) -> Payload:
    """A seat in the public view (``table_payload``)."""
    hole = _strs(s.get("hole"))
    # stud: the cards lying face up on the felt (the core reports each card's face, so an
    # exposed down card is among them and a card dealt down by a remedy is not): public,
    # only cards the seat holds, once each
    up: list[str] = []
    if family == "stud":
        for card in _strs(s.get("up")):
            if card in hole and card not in up:
                up.append(card)
    return {
        **_seat_chips(s, seat),
        "hole_count": len(hole),
        "down_count": len(hole) - len(up),
        "shown": shown,
        "hole": list(hole) if shown else [],
        "up": up,
        # draw games: the count of the draw under way, only while the rules let the
        # table tell it (RR Section 11 r.13: never after action after the draw)
        "drawn": _drawn_now(s) if family == "draw" else [],
    }


def table_payload(snapshot: Mapping[str, Any], memo: PayloadMemo = _NO_MEMO) -> Payload:
    """The public view of a snapshot (the `/table` namespace). Never holds a hole card of a seat
    that is not in `hand.showdown`, nor a finding's message, cards, rule or remedy.

    Per family: `hand.board` only in board games; a seat's `up` (stud upcards, the cards it
    holds face up) only in stud; `drawn` only in draw games: the cards the seat drew on the draw
    under way, while the table may still say (RR Section 11 r.13), else empty.
    `down_count` is how many of the seat's cards lie face down: drawn as backs, never named."""
    snap = _require_dict(snapshot)
    hand = _obj(snap.get("hand"))
    family = _family(snap)
    tabled = set(_ints(hand.get("showdown")))
    seats: list[Payload] = []
    for i, s in enumerate(_objs(snap.get("seats"))):
        seat = _int(s.get("seat"))
        if seat is None:
            continue  # a seat without a number cannot be placed, and cannot be proven tabled
        shown = seat in tabled
        seats.append(memo.part(("table seat", i), (s, shown, family),
                               partial(_seat_public, s, seat, shown, family)))
    findings = memo.part("table findings", (snap.get("findings"),), lambda: [
        _finding_public(f) for f in _objs(snap.get("findings"))])
    public_hand = memo.part("hand public", (hand,), partial(_hand_public, hand))
    if family != "board":
        # Stud and draw tables have no board. Their `hand.board` is every card read in the
        # board zone, so at a draw table it can be a card dropped there face down; a stud
        # common card (RR Section 8 r.15) cannot be told from such a card yet.
        public_hand = {**public_hand, "board": []}
    return {
        "role": "table",
        "last_seq": _int(snap.get("last_seq")),
        "table": memo.part("table table", (snap.get("table"),),
                           lambda: _table(snap, _TABLE_KEYS_PUBLIC)),
        "hand": {
            **public_hand,
            "showdown": sorted(tabled),
        },
        "seats": seats,
        "findings": findings,
        "results": memo.part("table results", (snap.get("results"),),
                             lambda: _results(snap.get("results"))),
    }


def broadcast_payload(snapshot: Mapping[str, Any], delay_s: float = 0.0,
                      public: Payload | None = None, *, findings: bool = False) -> Payload:
    """The broadcast view of a snapshot (the `/broadcast` namespace, sent only after the secure
    delay): `table_payload` with every seat's hole cards in `hole` (in the order dealt), tabled
    or not, as a broadcast's hole-card cameras show them. `shown` still says whether the seat
    tabled its hand. Everything else is the public view's, key for key: no finding detail, no
    `hand.expect`, no burn or deck, no reader or chip-zone reading.

    `findings`: whether the irregularity findings go on air (`[broadcast] findings`). Off (the
    default), the payload has no `findings` key at all: a house that keeps them off the stream
    sends the stream nothing of them, not a list a page would hide.

    `public`: the snapshot's `table_payload`, where the caller has built it already (the
    Publisher, for the state it sends to `/table` too). It is not changed: the seats that
    differ are copies."""
    if public is None:
        public = table_payload(snapshot)
    holes: dict[int, list[str]] = {}
    for s in _objs(_require_dict(snapshot).get("seats")):
        seat = _int(s.get("seat"))
        if seat is not None and seat not in holes:
            holes[seat] = _strs(s.get("hole"))
    return {
        **{key: value for key, value in public.items() if findings or key != "findings"},
        "role": "broadcast",
        "seats": [{**seat, "hole": holes.get(seat["seat"], [])} for seat in public["seats"]],
        "delay_s": float(delay_s),
    }


def _citation(value: Any) -> Payload:
    rule = _obj(value)
    out: Payload = {key: _str(rule.get(key)) for key in ("file", "section", "rule")}
    if isinstance(rule.get("text"), str):
        out["text"] = rule["text"]
    return out


def _posts(value: Any) -> list[Payload]:
    """The hand plan's forced posts (``hand.posts``): the console pre-fills the next one due."""
    return [{"seat": _int(p.get("seat")), "kind": _str(p.get("kind")),
             "amount": _count(p.get("amount")), "live": _bool(p.get("live"))}
            for p in _objs(value) if _int(p.get("seat")) is not None]


def _post_due(value: Any) -> Payload | None:
    post = _obj(value)
    seat = _int(post.get("seat"))
    return None if seat is None else {"seat": seat, "kind": _str(post.get("kind")),
                                      "amount": _count(post.get("amount"))}


def _remedy_now(value: Any) -> Payload | None:
    now = _obj(value)
    after, move = _str(now.get("after")), _str(now.get("move"))
    return {"after": after, "move": move} if move else None


READER_STATES = ("ok", "noisy", "unresolved", "fault", "silent", "offline")


def devices(value: Any) -> list[Payload]:
    """The card readers' health (docs/snapshot.md, ``devices``): whitelisted, each state one of
    READER_STATES (anything else is shown as ``offline``: fail loud, never quiet)."""
    out: list[Payload] = []
    for d in _objs(value):
        reader = _int(d.get("reader"))
        if reader is None:
            continue
        state = d.get("state")
        out.append({"reader": reader, "name": _str(d.get("name")),
                    "state": state if state in READER_STATES else "offline",
                    "since": _int(d.get("since")), "since_seq": _int(d.get("since_seq")),
                    "antenna": _int(d.get("antenna")), "detail": _str(d.get("detail")),
                    "code": d.get("code") if isinstance(d.get("code"), str) else None})
    return out


def dealer_payload(snapshot: Mapping[str, Any], memo: PayloadMemo = _NO_MEMO) -> Payload:
    """The dealer's view of a snapshot (the `/dealer` namespace): every key of docs/snapshot.md,
    hole cards (`hole`; in stud also `down` and `up` apart), `hand.expect`, the board of every
    family (a stud common card), each finding in full (message, cards, rule, remedy), each seat's
    chip counts in front, the pot, tray and drop zones and the counting tray's counts."""
    snap = _require_dict(snapshot)
    hand = _obj(snap.get("hand"))
    chips = _obj(snap.get("chips"))
    seats: list[Payload] = []
    for i, s in enumerate(_objs(snap.get("seats"))):
        seat = _int(s.get("seat"))
        if seat is None:
            continue
        zone = chips.get(f"bet:{seat}")
        seats.append(memo.part(("dealer seat", i), (s, zone),
                               partial(_seat_dealer, s, seat, zone)))
    findings = memo.part("dealer findings", (snap.get("findings"),), lambda: [
        {
            **_finding_public(f),
            "message": _str(f.get("message")),
            "cards": _strs(f.get("cards")),
            "rule": _citation(f.get("rule")),
            "remedy": _strs(f.get("remedy")),
            "remedy_due": _strs(f.get("remedy_due")),
        }
        for f in _objs(snap.get("findings"))
    ])
    return {
        "role": "dealer",
        "last_seq": _int(snap.get("last_seq")),
        "table": memo.part("dealer table", (snap.get("table"),),
                           lambda: _table(snap, _TABLE_KEYS_DEALER)),
        "hand": {
            # (built once for the dealer's and the public view of the same snapshot)
            **memo.part("hand public", (hand,), partial(_hand_public, hand)),
            "burns": _count(hand.get("burns")),
            "current_bet": _count(hand.get("current_bet")),
            "min_raise_to": _count(hand.get("min_raise_to")),
            "expect": _str(hand.get("expect")),
            "showdown": _ints(hand.get("showdown")),
            "cards_seen": _count(hand.get("cards_seen")),
            # the touch console's controls: the engine's amounts, never computed by the page
            "can_raise": _bool(hand.get("can_raise")),
            "to_call": _count(hand.get("to_call")),
            "max_raise_to": _count(hand.get("max_raise_to")),
            "all_in_to": _count(hand.get("all_in_to")),
            "posts": _posts(hand.get("posts")),
            "remedy_now": _remedy_now(hand.get("remedy_now")),
            "post_due": _post_due(hand.get("post_due")),
            "to_draw": _int(hand.get("to_draw")),
            # tournament (the console's floor part): the level in force and the players left in
            # the event as told; null at a cash table
            "level": _int(hand.get("level")),
            "players_left": _int(hand.get("players_left")),
        },
        "seats": seats,
        "findings": findings,
        "results": memo.part("dealer results", (snap.get("results"),),
                             lambda: _results(snap.get("results"))),
        "devices": memo.part("devices", (snap.get("devices"),),
                             lambda: devices(snap.get("devices"))),
        # the antennas' pot, tray and drop readings, and the counting tray's last report
        "chips": memo.part("chips", (snap.get("chips"),), lambda: {
            zone: _chip_zone(chips.get(zone)) for zone in CHIP_ZONES_DEALER}),
        "tray_counts": memo.part("tray", (snap.get("tray_counts"),),
                                 lambda: _chip_zone(snap.get("tray_counts"))),
    }


def _seat_dealer(s: Mapping[str, Any], seat: int, zone: Any) -> Payload:
    """A seat in the dealer's view (``dealer_payload``); ``zone``: its bet zone's reading."""
    hole = _strs(s.get("hole"))
    up = _strs(s.get("up"))
    return {
        **_seat_chips(s, seat),
        "hole_count": len(hole),
        "hole": hole,
        "up": up,
        # stud: the cards the seat holds face down, in the order dealt
        "down": [c for c in hole if c not in up],
        "drawn": _ints(s.get("drawn")),
        "drawn_now": _int(s.get("drawn_now")),
        # the denominations of the chips in front (the seat's `bet:N` zone)
        "chip_counts": _chip_counts(_obj(zone).get("counts")),
    }
