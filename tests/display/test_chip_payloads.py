"""The chips in the role payloads (docs/display.md, "Chips"): every seat's chips in front are
public; the dealer also sees their denominations, the pot, tray and drop zones and the counting
tray; no payload carries a tag uid or a stack zone."""

from __future__ import annotations

import json

from display.payloads import CHIP_ZONES_DEALER, dealer_payload, table_payload
from tests.display.chip_snapshots import (
    DROP,
    FRONT,
    FRONT_COUNTS,
    HOUSE,
    POT,
    STACK_1,
    TRAY_COUNTS,
    TRAY_ZONE,
    chip_snapshot,
)
from tests.display.test_payloads import PUBLIC_SEAT, PUBLIC_TOP


def test_the_public_payload_shows_each_seats_chips_in_front_and_nothing_else_of_the_chips() -> None:
    snap = chip_snapshot()
    pub = table_payload(snap)
    assert set(pub) == PUBLIC_TOP  # no `chips`, `chip_sets` or `tray_counts`
    assert all(set(s) == PUBLIC_SEAT for s in pub["seats"])
    assert {s["seat"]: s["chips_in_front"] for s in pub["seats"]} == FRONT
    text = json.dumps(pub)
    for secret in ("tray", "drop", "uids", "counts", "stack:1", "bet:1", *HOUSE):
        assert f'"{secret}"' not in text, secret
    numbers = {v for v in _numbers(pub)}
    for total in (POT, DROP, TRAY_ZONE, TRAY_COUNTS):
        assert total not in numbers, total


def test_the_dealer_payload_shows_the_chips_in_front_with_counts_the_pot_and_the_tray() -> None:
    snap = chip_snapshot()
    dealer = dealer_payload(snap)
    seats = {s["seat"]: s for s in dealer["seats"]}
    assert {n: s["chips_in_front"] for n, s in seats.items()} == FRONT
    assert {n: s["chip_counts"] for n, s in seats.items()} == FRONT_COUNTS
    assert dealer["chips"] == {
        "pot": {"total": POT, "counts": {"1": 2, "5": 3}, "seq": snap["chips"]["pot"]["seq"]},
        "tray": {"total": TRAY_ZONE, "counts": {"25": 16}, "seq": snap["chips"]["tray"]["seq"]},
        "drop": {"total": DROP, "counts": {"25": 2}, "seq": snap["chips"]["drop"]["seq"]},
    }
    assert tuple(dealer["chips"]) == CHIP_ZONES_DEALER
    assert dealer["tray_counts"] == snap["tray_counts"]
    assert dealer["tray_counts"]["total"] == TRAY_COUNTS
    text = json.dumps(dealer)
    # tag uids and the stack zones are in no view yet (docs/display.md)
    assert '"uids"' not in text and '"stack:1"' not in text
    assert not any(f'"{uid}"' in text for uid in HOUSE)
    assert STACK_1 not in {c for s in seats.values() for c in s["chip_counts"].values()}


def test_a_table_without_chip_sensors_shows_null_chips() -> None:
    snap = chip_snapshot()
    for key in ("chips", "tray_counts", "chip_sets"):
        del snap[key]
    for s in snap["seats"]:
        del s["chips_in_front"]
    dealer, pub = dealer_payload(snap), table_payload(snap)
    assert dealer["chips"] == {"pot": None, "tray": None, "drop": None}
    assert dealer["tray_counts"] is None
    assert all(s["chips_in_front"] is None and s["chip_counts"] == {} for s in dealer["seats"])
    assert all(s["chips_in_front"] is None for s in pub["seats"])


def test_malformed_chips_fail_closed_and_never_raise() -> None:
    snap = chip_snapshot()
    snap["seats"][0]["chips_in_front"] = "30"
    snap["seats"][1]["chips_in_front"] = True
    snap["chips"]["bet:3"] = {"total": 5, "counts": {"5": "one", "25": 1, "x": None}}
    snap["chips"]["pot"] = ["not", "a", "zone"]
    snap["chips"]["drop"] = {"total": "50", "counts": "lots", "seq": 1.5}
    snap["tray_counts"] = "full"
    dealer = dealer_payload(snap)
    seats = {s["seat"]: s for s in dealer["seats"]}
    assert seats[1]["chips_in_front"] is None and seats[2]["chips_in_front"] is None
    assert seats[3]["chip_counts"] == {"25": 1}
    assert dealer["chips"]["pot"] is None
    assert dealer["chips"]["drop"] == {"total": 0, "counts": {}, "seq": None}
    assert dealer["tray_counts"] is None
    assert [s["chips_in_front"] for s in table_payload(snap)["seats"]] == [None, None, None]
    snap["chips"] = "everything"
    assert dealer_payload(snap)["chips"] == {"pot": None, "tray": None, "drop": None}
    json.dumps(table_payload(snap))


def _numbers(value: object) -> list[int]:
    """Every int in a JSON value (bools aside)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, dict):
        return [n for v in value.values() for n in _numbers(v)]
    if isinstance(value, list):
        return [n for v in value for n in _numbers(v)]
    return []
