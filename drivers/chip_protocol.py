"""The chip devices' wire protocol: a pure codec, no I/O (hardware/chip-protocol.md).

Chip devices speak the card readers' protocol v1 (hardware/reader-protocol.md) with frame types of
their own: the same SOF, LEN, TYPE, READER, COUNTER, CRC-16/CCITT-FALSE, resynchronisation and
counter rules, parsed by the one ``FrameParser`` of ``drivers.reader_protocol`` with the chip
devices' ``FrameTable`` (``CHIP_FRAMES``: LEN up to 128, so a frame carries a part of an
inventory). This module holds:

- the frames: ``InventoryPart`` (TYPE 0x10, an RFID chip reader's antenna inventory, or a part of
  it), ``TrayFrame`` (TYPE 0x11, a counting tray's per-tube counts) and the shared heartbeat with
  ``ChipStatus`` bits;
- their encoders (the simulated twin and the tests use them), ``inventory_parts`` to split an
  inventory into parts that fit a frame;
- ``InventoryAssembler``: the parts of one antenna's scan cycle put back together into one
  ``ChipInventory``; a cycle whose parts do not all arrive is dropped and counted.

The driver reports raw cycles; settling a stack that is still being built over several cycles
is the sensing layer's job (controller/), not this module's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntFlag

from drivers.reader_protocol import (
    FRAME_HEARTBEAT,
    MAX_UID_BYTES,
    MIN_UID_BYTES,
    FrameTable,
    HeartbeatFrame,
    decode_heartbeat,
    encode_heartbeat,
    frame_bytes,
    uid_bytes,
)

__all__ = [
    "CHIP_FRAMES",
    "CHIP_MAX_LEN",
    "DEVICE_KINDS",
    "FRAME_INVENTORY",
    "FRAME_TRAY",
    "MAX_TUBES",
    "ChipFrame",
    "ChipInventory",
    "ChipStatus",
    "InventoryAssembler",
    "InventoryPart",
    "TrayCounts",
    "TrayFrame",
    "encode_chip_heartbeat",
    "encode_inventory_part",
    "encode_tray",
    "inventory_parts",
]

FRAME_INVENTORY = 0x10
FRAME_TRAY = 0x11

DEVICE_KINDS = ("rfid", "tray")
"""The two kinds of chip device: an RFID chip reader (inventories) and a counting tray."""

CHIP_MAX_LEN = 128
"""The largest LEN of a chip device's frame (132 bytes on the wire; the card protocol's is 32)."""

_HEADER_LEN = 4  # TYPE + READER + COUNTER, as in the card protocol
_INVENTORY_FIXED = 5  # ANTENNA, CYCLE(2), PART, PARTS; then the entries
_TUBE_SIZE = 7  # TUBE, DENOMINATION(4), COUNT(2)
_TRAY_FIXED = 1  # TUBES; then the tubes
MAX_TUBES = (CHIP_MAX_LEN - _HEADER_LEN - _TRAY_FIXED) // _TUBE_SIZE  # 17
MAX_PARTS = 255
CYCLE_MODULUS = 0x10000  # scan cycles count 0..0xFFFF and wrap to 0
MAX_DENOMINATION = 0xFFFFFFFF
MAX_COUNT = 0xFFFF


class ChipStatus(IntFlag):
    """Status bits of a chip device's heartbeat (bits 5..7 reserved, sent 0, ignored)."""

    OK = 0
    ANTENNA_FAULT = 0x01  # an antenna is open or shorted: chips on it are not seen
    SENSOR_FAULT = 0x02  # a tray's tube sensor (or a multiplexer channel) does not answer
    OVERFLOW = 0x04  # the device dropped frames from its own queue since the last heartbeat
    COLLISION = 0x08  # unresolved anticollision since the last heartbeat: chips may be unread
    CYCLE_OVERRUN = 0x10  # a scan cycle took longer than the device's cycle time


@dataclass(frozen=True, slots=True)
class InventoryPart:
    """One frame of an antenna's inventory: part ``part`` of ``parts`` of scan ``cycle``."""

    reader: int
    counter: int
    antenna: int
    cycle: int
    part: int
    parts: int
    uids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TrayFrame:
    """A counting tray's report: ``(tube, denomination, count)`` for each tube."""

    reader: int
    counter: int
    tubes: tuple[tuple[int, int, int], ...]


ChipFrame = InventoryPart | TrayFrame | HeartbeatFrame


@dataclass(frozen=True, slots=True)
class ChipInventory:
    """Every chip ``antenna`` of ``reader`` saw in scan ``cycle`` (upper-case hex uids, in the
    order sent, each once; empty when the zone is empty). ``t``: ``time.monotonic()`` when the
    cycle's last part arrived."""

    reader: int
    antenna: int
    cycle: int
    uids: tuple[str, ...]
    t: float


@dataclass(frozen=True, slots=True)
class TrayCounts:
    """A counting tray's ``(tube, denomination, count)`` per tube; ``t`` as for inventories."""

    reader: int
    tubes: tuple[tuple[int, int, int], ...]
    t: float

    @property
    def total(self) -> int:
        """The tray's value: the sum of denomination times count over the tubes."""
        return sum(denomination * count for _, denomination, count in self.tubes)


# --- decoding ------------------------------------------------------------------------------


def _decode_inventory(reader: int, counter: int, payload: bytes) -> InventoryPart | None:
    if len(payload) < _INVENTORY_FIXED:
        return None
    antenna = payload[0]
    cycle = (payload[1] << 8) | payload[2]
    part, parts = payload[3], payload[4]
    if parts == 0 or part >= parts:
        return None
    uids: list[str] = []
    pos = _INVENTORY_FIXED
    while pos < len(payload):
        size = payload[pos]
        if not MIN_UID_BYTES <= size <= MAX_UID_BYTES or pos + 1 + size > len(payload):
            return None  # an entry that does not fit: the frame is bad, never half-read
        uids.append(payload[pos + 1 : pos + 1 + size].hex().upper())
        pos += 1 + size
    return InventoryPart(reader, counter, antenna, cycle, part, parts, tuple(uids))


def _decode_tray(reader: int, counter: int, payload: bytes) -> TrayFrame | None:
    if not payload or payload[0] == 0 or len(payload) != _TRAY_FIXED + _TUBE_SIZE * payload[0]:
        return None
    tubes = []
    for pos in range(_TRAY_FIXED, len(payload), _TUBE_SIZE):
        tube = payload[pos]
        denomination = int.from_bytes(payload[pos + 1 : pos + 5], "big")
        count = int.from_bytes(payload[pos + 5 : pos + 7], "big")
        if denomination == 0:
            return None
        tubes.append((tube, denomination, count))
    if len({tube for tube, _, _ in tubes}) != len(tubes):
        return None  # one tube reported twice
    return TrayFrame(reader, counter, tuple(tubes))


CHIP_FRAMES: FrameTable[ChipFrame] = FrameTable(
    name="chip",
    max_len=CHIP_MAX_LEN,
    decoders={
        FRAME_HEARTBEAT: decode_heartbeat,
        FRAME_INVENTORY: _decode_inventory,
        FRAME_TRAY: _decode_tray,
    },
)
"""The chip devices' frames (hardware/chip-protocol.md): ``FrameParser(CHIP_FRAMES)``."""


# --- encoding ------------------------------------------------------------------------------


def _check(name: str, value: int, hi: int, lo: int = 0) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"{name} must be an integer {lo}..{hi}, got {value!r}")


def _head(kind: int, reader: int, counter: int) -> bytes:
    _check("reader", reader, 0xFF)
    _check("counter", counter, 0xFFFF)
    return bytes((kind, reader)) + counter.to_bytes(2, "big")


def _entries(uids: tuple[bytes, ...]) -> bytes:
    return b"".join(bytes((len(raw),)) + raw for raw in uids)


def inventory_parts(uids: Sequence[str | bytes]) -> list[tuple[bytes, ...]]:
    """Split an inventory into parts that each fit one frame (in order; at least one part, so an
    empty inventory is one empty part). Raises ValueError on a bad uid or too many chips."""
    room = CHIP_MAX_LEN - _HEADER_LEN - _INVENTORY_FIXED
    parts: list[tuple[bytes, ...]] = []
    current: list[bytes] = []
    used = 0
    for uid in uids:
        raw = uid_bytes(uid)
        if used + 1 + len(raw) > room:
            parts.append(tuple(current))
            current, used = [], 0
        current.append(raw)
        used += 1 + len(raw)
    parts.append(tuple(current))
    if len(parts) > MAX_PARTS:
        raise ValueError(f"an inventory of {len(uids)} chips needs {len(parts)} parts; "
                         f"a cycle has at most {MAX_PARTS}")
    return parts


def encode_inventory_part(
    reader: int,
    antenna: int,
    cycle: int,
    part: int,
    parts: int,
    uids: Sequence[str | bytes],
    counter: int,
) -> bytes:
    """One inventory frame (TYPE 0x10): part ``part`` of ``parts`` of ``antenna``'s inventory
    in scan ``cycle``; ``uids`` must fit one frame (``inventory_parts`` splits them)."""
    _check("antenna", antenna, 0xFF)
    _check("cycle", cycle, CYCLE_MODULUS - 1)
    _check("parts", parts, MAX_PARTS, 1)
    _check("part", part, parts - 1)
    body = (_head(FRAME_INVENTORY, reader, counter) + bytes((antenna,))
            + cycle.to_bytes(2, "big") + bytes((part, parts))
            + _entries(tuple(uid_bytes(u) for u in uids)))
    if len(body) > CHIP_MAX_LEN:
        raise ValueError(f"{len(uids)} uids make LEN {len(body)}; a chip frame holds at most "
                         f"{CHIP_MAX_LEN} (split the inventory with inventory_parts)")
    return frame_bytes(body)


def encode_tray(
    reader: int, tubes: Sequence[tuple[int, int, int]],
    counter: int,
) -> bytes:
    """One tray-counts frame (TYPE 0x11): ``(tube, denomination, count)`` for 1..17 tubes."""
    if not 1 <= len(tubes) <= MAX_TUBES:
        raise ValueError(f"a tray frame carries 1..{MAX_TUBES} tubes, got {len(tubes)}")
    if len({t[0] for t in tubes}) != len(tubes):
        raise ValueError("each tube may be reported once a frame")
    body = bytearray(_head(FRAME_TRAY, reader, counter) + bytes((len(tubes),)))
    for tube, denomination, count in tubes:
        _check("tube", tube, 0xFF)
        _check("denomination", denomination, MAX_DENOMINATION, 1)
        _check("count", count, MAX_COUNT)
        body += bytes((tube,)) + denomination.to_bytes(4, "big") + count.to_bytes(2, "big")
    return frame_bytes(bytes(body))


def encode_chip_heartbeat(reader: int, counter: int, status: int = 0) -> bytes:
    """A chip device's heartbeat: the card protocol's frame (TYPE 0x02), ``ChipStatus`` bits."""
    return encode_heartbeat(reader, counter, int(status))


# --- reassembly ----------------------------------------------------------------------------


@dataclass(slots=True)
class _Pending:
    cycle: int
    parts: int
    uids: list[str] = field(default_factory=list)
    next_part: int = 0
    broken: bool = False  # a part went missing: the rest of this cycle is ignored


class InventoryAssembler:
    """Puts each antenna's inventory parts back together, one ``ChipInventory`` per full cycle.

    Parts of one antenna's cycle come in order (0, 1, ... PARTS-1) on one line, so a part that is
    not the next one due, a part of another cycle before the last part came, or a cycle that
    starts at a part other than 0, means a part was lost: that cycle is dropped whole and
    counted once in ``incomplete_cycles`` (its later parts are ignored). ``reset()`` drops the
    cycles in progress (the port was reopened) and counts them too. Pure: time comes in ``t``.
    """

    def __init__(self) -> None:
        self._pending: dict[tuple[int, int], _Pending] = {}
        self.incomplete_cycles = 0
        self.inventories = 0

    def add(self, part: InventoryPart, t: float) -> ChipInventory | None:
        """Take one part; return the antenna's inventory when this part completes its cycle."""
        key = (part.reader, part.antenna)
        pending = self._pending.get(key)
        if pending is not None and pending.cycle != part.cycle:
            if not pending.broken:
                self.incomplete_cycles += 1  # its last part never came
            pending = None
        if pending is None:
            pending = _Pending(part.cycle, part.parts)
            self._pending[key] = pending
            if part.part != 0:  # the cycle's first part was lost
                pending.broken = True
                self.incomplete_cycles += 1
                return None
        if pending.broken:
            return None
        if part.part != pending.next_part or part.parts != pending.parts:
            pending.broken = True
            self.incomplete_cycles += 1
            return None
        pending.uids.extend(part.uids)
        pending.next_part += 1
        if pending.next_part < pending.parts:
            return None
        del self._pending[key]
        self.inventories += 1
        # A uid listed twice in one cycle (a firmware fault) is still one chip.
        return ChipInventory(part.reader, part.antenna, part.cycle,
                             tuple(dict.fromkeys(pending.uids)), t)

    @property
    def in_progress(self) -> int:
        """Antennas whose current cycle is still waiting for parts."""
        return sum(1 for p in self._pending.values() if not p.broken)

    def reset(self) -> None:
        """Forget the cycles in progress (the line was cut): each counts as incomplete."""
        self.incomplete_cycles += self.in_progress
        self._pending.clear()
