"""The chip protocol codec (hardware/chip-protocol.md): frames, the shared framing, reassembly."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.chip_protocol import (
    CHIP_FRAMES,
    CHIP_MAX_LEN,
    MAX_TUBES,
    ChipInventory,
    ChipStatus,
    InventoryAssembler,
    InventoryPart,
    TrayFrame,
    encode_chip_heartbeat,
    encode_inventory_part,
    encode_tray,
    inventory_parts,
)
from drivers.reader_protocol import (
    FrameParser,
    HeartbeatFrame,
    ReadFrame,
    crc16_ccitt_false,
    encode_read,
)
from tests.drivers.test_reader_protocol import crc_bitwise

SPEC = Path(__file__).resolve().parents[2] / "hardware" / "chip-protocol.md"

EXAMPLE_TWO_CHIPS = (
    "A5 1B 10 03 00 10 01 01 02 00 01 08 E0 04 01 50 12 34 56 78 08 E0 04 01 50 12 34 56 79 44 29"
)
EXAMPLE_EMPTY = "A5 09 10 03 00 11 0B 01 02 00 01 E4 92"
EXAMPLE_TRAY = (
    "A5 1A 11 04 00 05 03 01 00 00 00 01 00 14 02 00 00 00 05 00 28 03 00 00 00 19 00 12 53 65"
)
EXAMPLE_HEARTBEAT = "A5 05 02 03 00 07 08 8A D1"


@pytest.mark.parametrize(
    "example", [EXAMPLE_TWO_CHIPS, EXAMPLE_EMPTY, EXAMPLE_TRAY, EXAMPLE_HEARTBEAT]
)
def test_worked_examples_are_in_the_spec_with_a_correct_crc(example: str) -> None:
    assert example in SPEC.read_text(encoding="utf-8")
    raw = bytes.fromhex(example)
    assert raw[0] == 0xA5 and raw[1] == len(raw) - 4
    assert crc_bitwise(raw[1:-2]) == int.from_bytes(raw[-2:], "big")


def test_worked_example_two_chips() -> None:
    uids = ["E004015012345678", "E004015012345679"]
    raw = encode_inventory_part(3, 1, 0x0102, 0, 1, uids, 0x0010)
    assert raw == bytes.fromhex(EXAMPLE_TWO_CHIPS)
    assert FrameParser(CHIP_FRAMES).feed(raw) == [
        InventoryPart(reader=3, counter=16, antenna=1, cycle=258, part=0, parts=1,
                      uids=tuple(uids))
    ]


def test_worked_example_empty_inventory() -> None:
    raw = encode_inventory_part(3, 11, 0x0102, 0, 1, [], 0x0011)
    assert raw == bytes.fromhex(EXAMPLE_EMPTY)
    (part,) = FrameParser(CHIP_FRAMES).feed(raw)
    assert part == InventoryPart(3, 17, 11, 258, 0, 1, ())
    inventory = InventoryAssembler().add(part, 1.5)  # type: ignore[arg-type]
    assert inventory == ChipInventory(reader=3, antenna=11, cycle=258, uids=(), t=1.5)


def test_worked_example_tray_and_heartbeat() -> None:
    tubes = ((1, 1, 20), (2, 5, 40), (3, 25, 18))
    raw = encode_tray(4, tubes, 5)
    assert raw == bytes.fromhex(EXAMPLE_TRAY)
    beat = encode_chip_heartbeat(3, 7, ChipStatus.COLLISION)
    assert beat == bytes.fromhex(EXAMPLE_HEARTBEAT)
    tray, hb = FrameParser(CHIP_FRAMES).feed(raw + beat)
    assert tray == TrayFrame(reader=4, counter=5, tubes=tubes)
    assert hb == HeartbeatFrame(reader=3, counter=7, status=0x08)


def test_the_card_parser_is_unchanged_and_the_two_tables_keep_to_their_own_types() -> None:
    card = encode_read(2, 3, "04A1B2C3D4E5F6", False, 1)
    chip = encode_inventory_part(3, 1, 0, 0, 1, ["E004015012345678"], 2)
    # A card frame on a chip port: good CRC, unknown type, skipped whole.
    parser = FrameParser(CHIP_FRAMES)
    assert parser.feed(card + chip) == [InventoryPart(3, 2, 1, 0, 0, 1, ("E004015012345678",))]
    assert (parser.frames_unknown, parser.frames_bad, parser.bytes_skipped) == (1, 0, len(card))
    # A short chip frame on a card port: unknown there too; the card frame still arrives.
    cards = FrameParser()
    assert cards.feed(chip + card) == [ReadFrame(2, 3, "04A1B2C3D4E5F6", False, 1)]
    assert cards.frames_unknown == 1 and cards.max_frame_size == 36
    # A chip frame longer than the card protocol's LEN 32 is never a card frame: bad, skipped.
    five = [f"E0040150123456{i:02X}" for i in range(5)]
    long_chip = encode_inventory_part(3, 1, 0, 0, 1, five, 3)
    assert long_chip[1] > 32
    cards = FrameParser()
    assert cards.feed(long_chip + card) == [ReadFrame(2, 3, "04A1B2C3D4E5F6", False, 1)]
    assert cards.frames_bad >= 1 and cards.frames_ok == 1
    assert FrameParser(CHIP_FRAMES).max_frame_size == CHIP_MAX_LEN + 4 == 132


def test_inventory_parts_fill_frames_and_an_empty_inventory_is_one_empty_part() -> None:
    assert inventory_parts([]) == [()]
    uids = [f"E0040150123456{i:02X}" for i in range(30)]
    parts = inventory_parts(uids)
    assert [len(p) for p in parts] == [13, 13, 4]
    frames = [encode_inventory_part(3, 12, 9, i, len(parts), p, i) for i, p in enumerate(parts)]
    assert max(len(f) for f in frames) <= CHIP_MAX_LEN + 4
    with pytest.raises(ValueError, match="at most 128"):
        encode_inventory_part(3, 12, 9, 0, 1, uids[:14], 0)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: encode_inventory_part(3, 1, 0, 1, 1, [], 0), "part must be"),
        (lambda: encode_inventory_part(3, 1, 0x10000, 0, 1, [], 0), "cycle must be"),
        (lambda: encode_inventory_part(3, 1, 0, 0, 0, [], 0), "parts must be"),
        (lambda: encode_inventory_part(3, 1, 0, 0, 1, ["E004"], 0), "2 bytes"),
        (lambda: encode_tray(4, [], 0), "1..17 tubes"),
        (lambda: encode_tray(4, [(1, 0, 3)], 0), "denomination must be"),
        (lambda: encode_tray(4, [(1, 5, 3), (1, 5, 4)], 0), "once a frame"),
        (lambda: encode_tray(4, [(1, 5, 0x10000)], 0), "count must be"),
        (lambda: encode_chip_heartbeat(256, 0), "reader must be"),
    ],
)
def test_encoders_refuse_bad_fields_with_a_clear_message(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]


def _framed(body: bytes) -> bytes:
    head = bytes((len(body),)) + body
    return b"\xa5" + head + crc16_ccitt_false(head).to_bytes(2, "big")


@pytest.mark.parametrize(
    "body",
    [
        bytes((0x10, 3, 0, 1, 1, 0, 0, 0, 0)),  # PARTS 0
        bytes((0x10, 3, 0, 1, 1, 0, 0, 2, 2)),  # PART 2 of 2
        bytes((0x10, 3, 0, 1, 1, 0, 0, 0, 1, 8, 1, 2, 3)),  # an entry cut short
        bytes((0x10, 3, 0, 1, 1, 0, 0, 0, 1, 3, 1, 2, 3)),  # a 3-byte uid
        bytes((0x11, 4, 0, 1, 0)),  # a tray of no tubes
        bytes((0x11, 4, 0, 1, 2, 1, 0, 0, 0, 5, 0, 1)),  # TUBES 2, one tube sent
        bytes((0x11, 4, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1)),  # denomination 0
        bytes((0x02, 3, 0, 1, 0, 0)),  # a heartbeat one byte long
    ],
)
def test_a_good_crc_on_a_malformed_chip_frame_is_a_bad_frame(body: bytes) -> None:
    parser = FrameParser(CHIP_FRAMES)
    good = encode_chip_heartbeat(3, 2)
    assert parser.feed(_framed(body) + good) == [HeartbeatFrame(3, 2, 0)]
    assert parser.frames_bad == 1 and parser.frames_ok == 1


def test_garbage_and_corruption_are_counted_skipped_and_resynchronised() -> None:
    a = encode_inventory_part(3, 1, 5, 0, 1, ["E004015012345678"], 1)
    bad = bytearray(encode_inventory_part(3, 2, 5, 0, 1, ["E004015012345679"], 2))
    bad[12] ^= 0x10  # one bit of the uid
    b = encode_inventory_part(3, 3, 5, 0, 1, [], 3)
    noise = b"\x00\xa5\x7f\xff\xa5"  # an SOF claiming a 131-byte frame among the noise
    parser = FrameParser(CHIP_FRAMES)
    frames = parser.feed(noise + a + bytes(bad) + b)
    assert [f.antenna for f in frames if isinstance(f, InventoryPart)] == [1, 3]
    assert parser.frames_bad >= 2
    assert parser.bytes_skipped == len(noise) + len(bad)
    assert parser.buffered == 0


def _parts(antenna: int, cycle: int, uids: list[str], counter: int = 0) -> list[InventoryPart]:
    chunks = inventory_parts(uids)
    return [InventoryPart(3, counter + i, antenna, cycle, i, len(chunks),
                          tuple(u.hex().upper() for u in c)) for i, c in enumerate(chunks)]


UIDS = [f"E00401501234{i:04X}" for i in range(40)]


def test_parts_come_together_into_one_inventory_per_cycle() -> None:
    assembler = InventoryAssembler()
    parts = _parts(11, 7, UIDS)
    assert len(parts) == 4
    got = [assembler.add(p, float(i)) for i, p in enumerate(parts)]
    assert got[:3] == [None, None, None]
    assert got[3] == ChipInventory(3, 11, 7, tuple(UIDS), 3.0)
    assert assembler.incomplete_cycles == 0 and assembler.in_progress == 0


@pytest.mark.parametrize("missing", [0, 1, 3])
def test_a_cycle_with_a_missing_part_is_dropped_and_counted_once(missing: int) -> None:
    assembler = InventoryAssembler()
    parts = _parts(11, 7, UIDS)
    del parts[missing]
    assert [assembler.add(p, 0.0) for p in parts] == [None] * 3
    # The next cycle is whole and arrives; the broken one was counted once, whichever part.
    (nxt,) = _parts(11, 8, UIDS[:2])
    assert assembler.add(nxt, 1.0) == ChipInventory(3, 11, 8, tuple(UIDS[:2]), 1.0)
    assert assembler.incomplete_cycles == 1


def test_antennas_are_assembled_apart_and_a_reset_counts_what_was_in_progress() -> None:
    assembler = InventoryAssembler()
    pot, seat = _parts(11, 1, UIDS), _parts(1, 1, UIDS[:20])
    assert assembler.add(pot[0], 0) is None
    assert assembler.add(seat[0], 0) is None
    assert assembler.add(seat[1], 0) == ChipInventory(3, 1, 1, tuple(UIDS[:20]), 0)
    assert assembler.in_progress == 1
    assembler.reset()
    assert assembler.incomplete_cycles == 1
    assert assembler.add(pot[1], 0) is None  # the rest of a cycle cut by the reset
    assert assembler.incomplete_cycles == 2


def test_a_uid_repeated_in_one_cycle_is_one_chip() -> None:
    (part,) = _parts(1, 0, [UIDS[0], UIDS[1], UIDS[0]])
    inventory = InventoryAssembler().add(part, 0)
    assert inventory is not None and inventory.uids == (UIDS[0], UIDS[1])


# --- properties ---------------------------------------------------------------------------

uid = st.binary(min_size=4, max_size=10)


@settings(max_examples=200, deadline=None)
@given(
    inventories=st.lists(
        st.tuples(st.integers(0, 255), st.lists(uid, max_size=60, unique=True)), max_size=6
    ),
    noise=st.lists(st.binary(max_size=30), min_size=7, max_size=7),
    cuts=st.lists(st.integers(1, 40), max_size=40),
    cycle=st.integers(0, 0xFFFF),
    reader=st.integers(0, 255),
)
def test_inventories_round_trip_through_noise_and_any_cuts(
    inventories: list[tuple[int, list[bytes]]],
    noise: list[bytes],
    cuts: list[int],
    cycle: int,
    reader: int,
) -> None:
    stream = bytearray(noise[0])
    counter = 0
    for i, (antenna, uids) in enumerate(inventories):
        parts = inventory_parts(uids)
        for index, chunk in enumerate(parts):
            stream += encode_inventory_part(
                reader, antenna, cycle, index, len(parts), chunk, counter)
            counter += 1
        stream += noise[i + 1]
    parser = FrameParser(CHIP_FRAMES)
    frames = []
    pos = 0
    for size in cuts:
        frames += parser.feed(bytes(stream[pos : pos + size]))
        pos += size
    frames += parser.feed(bytes(stream[pos:]))
    assembler = InventoryAssembler()
    got = [inv for f in frames if isinstance(f, InventoryPart)
           for inv in [assembler.add(f, 0.0)] if inv is not None]
    expected = [(reader, a, cycle, tuple(u.hex().upper() for u in uids)) for a, uids in inventories]
    # Noise may forge a frame (odds 1 in 2^16), never hide one: every inventory is there.
    it = iter((g.reader, g.antenna, g.cycle, g.uids) for g in got)
    assert all(any(e == g for g in it) for e in expected)


@settings(max_examples=200, deadline=None)
@given(
    tubes=st.lists(
        st.tuples(st.integers(1, 2**32 - 1), st.integers(0, 0xFFFF)),
        min_size=1, max_size=MAX_TUBES,
    ),
    reader=st.integers(0, 255),
    counter=st.integers(0, 0xFFFF),
    status=st.integers(0, 255),
)
def test_tray_counts_and_heartbeats_round_trip(
    tubes: list[tuple[int, int]], reader: int, counter: int, status: int
) -> None:
    numbered = tuple((i, d, c) for i, (d, c) in enumerate(tubes))
    frames = FrameParser(CHIP_FRAMES).feed(
        encode_tray(reader, numbered, counter) + encode_chip_heartbeat(reader, counter, status))
    assert frames == [TrayFrame(reader, counter, numbered), HeartbeatFrame(reader, counter, status)]


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=600), cuts=st.lists(st.integers(0, 80), max_size=20))
def test_the_chip_parser_never_raises_on_any_bytes(data: bytes, cuts: list[int]) -> None:
    parser = FrameParser(CHIP_FRAMES)
    pos = 0
    for size in cuts:
        parser.feed(data[pos : pos + size])
        pos += size
    parser.feed(data[pos:])
    assert parser.buffered <= parser.max_frame_size
    assert parser.bytes_skipped <= len(data)
