"""The reader wire protocol codec (hardware/reader-protocol.md): framing, CRC, counters, resync."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.reader_protocol import (
    MAX_FRAME_SIZE,
    FrameParser,
    HeartbeatFrame,
    HeartbeatStatus,
    ReadFrame,
    crc16_ccitt_false,
    encode_heartbeat,
    encode_read,
    next_counter,
)

SPEC = Path(__file__).resolve().parents[2] / "hardware" / "reader-protocol.md"

# The worked examples of the spec, byte for byte.
EXAMPLE_SEAT3 = "A5 0D 01 02 01 02 03 00 04 A1 B2 C3 D4 E5 F6 52 8A"
EXAMPLE_SHOE_FACE_UP = "A5 0A 01 01 00 00 00 01 04 A1 B2 C3 29 18"
EXAMPLE_HEARTBEAT = "A5 05 02 01 00 07 00 E6 B1"


def crc_bitwise(data: bytes) -> int:
    """CRC-16/CCITT-FALSE written out bit by bit, independent of the module's table."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def test_crc_check_value_of_the_catalogue() -> None:
    assert crc16_ccitt_false(b"123456789") == 0x29B1
    assert crc_bitwise(b"123456789") == 0x29B1


@pytest.mark.parametrize("example", [EXAMPLE_SEAT3, EXAMPLE_SHOE_FACE_UP, EXAMPLE_HEARTBEAT])
def test_worked_examples_are_in_the_spec_with_a_correct_crc(example: str) -> None:
    assert example in SPEC.read_text(encoding="utf-8")
    raw = bytes.fromhex(example)
    assert raw[0] == 0xA5
    assert raw[1] == len(raw) - 4
    assert crc_bitwise(raw[1:-2]) == int.from_bytes(raw[-2:], "big")


def test_worked_example_seat_3_read() -> None:
    raw = encode_read(2, 3, "04A1B2C3D4E5F6", False, 0x0102)
    assert raw == bytes.fromhex(EXAMPLE_SEAT3)
    assert FrameParser().feed(raw) == [
        ReadFrame(reader=2, antenna=3, uid="04A1B2C3D4E5F6", face_up=False, counter=258)
    ]


def test_worked_example_shoe_card_face_up() -> None:
    raw = encode_read(1, 0, bytes.fromhex("04a1b2c3"), True, 0)
    assert raw == bytes.fromhex(EXAMPLE_SHOE_FACE_UP)
    (frame,) = FrameParser().feed(raw)
    assert frame == ReadFrame(reader=1, antenna=0, uid="04A1B2C3", face_up=True, counter=0)


def test_worked_example_heartbeat() -> None:
    raw = encode_heartbeat(1, 7)
    assert raw == bytes.fromhex(EXAMPLE_HEARTBEAT)
    assert FrameParser().feed(raw) == [HeartbeatFrame(reader=1, counter=7, status=0)]


def test_spec_documents_the_crc_parameters_and_default_zones() -> None:
    spec = SPEC.read_text(encoding="utf-8")
    for fact in ("0x1021", "0xFFFF", "0x29B1", "115200", "`seat:1` .. `seat:10`", "`aside`"):
        assert fact in spec


def test_heartbeat_status_bits_round_trip() -> None:
    status = HeartbeatStatus.ANTENNA_FAULT | HeartbeatStatus.OVERFLOW
    (frame,) = FrameParser().feed(encode_heartbeat(2, 9, status))
    assert isinstance(frame, HeartbeatFrame)
    assert frame.flags == status
    assert HeartbeatStatus.FACE_SENSOR_FAULT not in frame.flags


@pytest.mark.parametrize("uid_len", [4, 7, 10])
def test_frame_size_is_about_twenty_bytes(uid_len: int) -> None:
    raw = encode_read(2, 14, bytes(range(uid_len)), False, 1)
    assert len(raw) == 10 + uid_len
    assert len(raw) <= 20 <= MAX_FRAME_SIZE


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"uid": "04A1B2"}, "3 bytes"),
        ({"uid": bytes(11)}, "11 bytes"),
        ({"uid": "04A1B2C3Z0"}, "not an even-length hex"),
        ({"uid": "04A1B2C"}, "not an even-length hex"),
        ({"reader": 256}, "reader must be"),
        ({"antenna": -1}, "antenna must be"),
        ({"counter": 0x10000}, "counter must be"),
        ({"reader": True}, "reader must be"),
    ],
)
def test_encode_read_rejects_bad_fields_with_a_clear_message(
    kwargs: dict[str, object], message: str
) -> None:
    args: dict[str, object] = {
        "reader": 2,
        "antenna": 1,
        "uid": "04A1B2C3",
        "face_up": False,
        "counter": 1,
    }
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        encode_read(**args)  # type: ignore[arg-type]


def test_garbage_between_frames_is_skipped_and_counted() -> None:
    a = encode_read(2, 1, "04000001", False, 1)
    b = encode_read(2, 2, "04000002", False, 2)
    garbage = b"\x00\xff\x13noise"
    parser = FrameParser()
    frames = parser.feed(garbage + a + garbage + b + garbage)
    assert [f.uid for f in frames if isinstance(f, ReadFrame)] == ["04000001", "04000002"]
    assert parser.bytes_skipped == 3 * len(garbage)
    assert parser.frames_ok == 2
    assert parser.frames_bad == 0
    assert parser.buffered == 0


def test_sof_bytes_in_the_noise_do_not_hide_the_next_frame() -> None:
    # 0xA5 0x20 looks like the start of a 36-byte frame; the good frame behind it must come out
    # at once, without waiting for 36 bytes to arrive.
    good = encode_read(2, 5, "04A5A5A5A5A5A5", True, 3)
    parser = FrameParser()
    assert parser.feed(b"\xa5\x20\xa5" + good) == [
        ReadFrame(reader=2, antenna=5, uid="04A5A5A5A5A5A5", face_up=True, counter=3)
    ]
    assert parser.bytes_skipped == 3
    assert parser.buffered == 0


def test_corrupted_crc_is_counted_and_the_next_frame_still_arrives() -> None:
    bad = bytearray(encode_read(2, 1, "04000001", False, 1))
    bad[-1] ^= 0x40
    good = encode_read(2, 2, "04000002", False, 2)
    parser = FrameParser()
    frames = parser.feed(bytes(bad) + good)
    assert [f.counter for f in frames] == [2]
    assert parser.frames_bad >= 1
    assert parser.bytes_skipped == len(bad)
    assert parser.frames_ok == 1


def test_corrupted_payload_byte_is_caught_by_the_crc() -> None:
    bad = bytearray(encode_read(2, 1, "04000001", False, 1))
    bad[9] ^= 0x01  # one bit of the uid
    parser = FrameParser()
    assert parser.feed(bytes(bad)) == []
    assert parser.frames_bad >= 1
    assert parser.frames_ok == 0


def test_frame_split_across_feeds_is_reassembled() -> None:
    raw = encode_read(2, 11, "04A1B2C3D4E5F6", False, 40)
    parser = FrameParser()
    for byte in raw[:-1]:
        assert parser.feed(bytes((byte,))) == []
    assert parser.buffered == len(raw) - 1
    (frame,) = parser.feed(raw[-1:])
    assert isinstance(frame, ReadFrame)
    assert frame.antenna == 11
    assert parser.bytes_skipped == 0


def test_truncated_frame_then_a_good_frame_across_feeds() -> None:
    # The reader lost power mid-frame: 8 bytes of a frame, then (next feed) a complete frame
    # split over two more feeds. The truncated one is dropped, the good one is not lost.
    cut = encode_read(2, 1, "04000001", False, 5)[:8]
    good = encode_read(2, 2, "04000002", False, 0)
    parser = FrameParser()
    assert parser.feed(cut) == []
    assert parser.feed(good[:6]) == []
    frames = parser.feed(good[6:])
    assert [f.uid for f in frames if isinstance(f, ReadFrame)] == ["04000002"]
    assert parser.frames_bad >= 1
    assert parser.bytes_skipped == len(cut)
    assert parser.buffered == 0


def test_counter_gaps_count_lost_frames_per_reader() -> None:
    parser = FrameParser()
    stream = b"".join(
        [
            encode_read(1, 0, "04000001", False, 10),  # first seen: history unknown
            encode_read(2, 1, "04000002", False, 500),
            encode_read(1, 0, "04000003", False, 11),
            encode_heartbeat(1, 14),  # 12 and 13 lost
            encode_read(2, 1, "04000004", False, 501),
            encode_read(2, 1, "04000005", False, 505),  # 502..504 lost
        ]
    )
    assert len(parser.feed(stream)) == 6
    assert parser.frames_lost == 5
    assert parser.counter_resets == 0


def test_counter_wraps_to_one_and_zero_means_power_on() -> None:
    parser = FrameParser()
    counters = [0xFFFE, 0xFFFF, 1, 2, 0, 1, 3]
    parser.feed(b"".join(encode_heartbeat(1, c) for c in counters))
    assert parser.frames_ok == len(counters)
    assert parser.frames_lost == 1  # 1 -> 3
    assert parser.counter_resets == 1  # the 0
    assert [next_counter(c) for c in (0, 1, 0xFFFE, 0xFFFF)] == [1, 2, 0xFFFF, 1]


def test_counter_going_backwards_is_a_reset_not_a_loss() -> None:
    parser = FrameParser()
    parser.feed(encode_heartbeat(1, 900) + encode_heartbeat(1, 800))
    assert parser.frames_lost == 0
    assert parser.counter_resets == 1


def test_unknown_frame_type_is_skipped_whole_and_its_counter_counts() -> None:
    body = bytes((6, 0x7E, 1, 0, 2, 0xA5, 0xA5))  # LEN 6, TYPE 0x7E, reader 1, counter 2
    unknown = b"\xa5" + body + crc16_ccitt_false(body).to_bytes(2, "big")
    parser = FrameParser()
    frames = parser.feed(encode_heartbeat(1, 1) + unknown + encode_heartbeat(1, 3))
    assert [f.counter for f in frames] == [1, 3]
    assert parser.frames_unknown == 1
    assert parser.frames_lost == 0
    assert parser.frames_bad == 0


def test_known_type_with_the_wrong_length_is_bad() -> None:
    body = bytes((7, 0x02, 1, 0, 2, 0, 0, 0))  # a heartbeat with two extra bytes
    odd = b"\xa5" + body + crc16_ccitt_false(body).to_bytes(2, "big")
    parser = FrameParser()
    assert parser.feed(odd + encode_heartbeat(1, 3)) == [HeartbeatFrame(1, 3, 0)]
    assert parser.frames_bad == 1
    assert parser.bytes_skipped == len(odd)


def test_buffer_is_bounded_whatever_arrives() -> None:
    parser = FrameParser()
    parser.feed(b"\xa5\x20" * 50_000)
    assert parser.buffered < MAX_FRAME_SIZE
    (frame,) = parser.feed(encode_heartbeat(3, 1))
    assert frame == HeartbeatFrame(3, 1, 0)


# --- property: noise between frames never costs a frame ------------------------------------

reads = st.builds(
    lambda reader, antenna, uid, face_up: (reader, antenna, uid, face_up),
    st.integers(0, 255),
    st.integers(0, 255),
    st.binary(min_size=4, max_size=10),
    st.booleans(),
)


@settings(max_examples=300, deadline=None)
@given(
    items=st.lists(st.tuples(reads, st.binary(max_size=40)), max_size=12),
    head=st.binary(max_size=40),
    cuts=st.lists(st.integers(1, 30), max_size=30),
)
def test_noise_interleaved_with_frames_never_loses_a_frame(
    items: list[tuple[tuple[int, int, bytes, bool], bytes]], head: bytes, cuts: list[int]
) -> None:
    stream = bytearray(head)
    expected = []
    for i, ((reader, antenna, uid, face_up), noise) in enumerate(items):
        stream += encode_read(reader, antenna, uid, face_up, i + 1)
        stream += noise
        expected.append(ReadFrame(reader, antenna, uid.hex().upper(), face_up, i + 1))
    parser = FrameParser()
    got = []
    pos = 0
    for size in cuts:  # the serial port hands the bytes over in arbitrary pieces
        got += parser.feed(bytes(stream[pos : pos + size]))
        pos += size
    got += parser.feed(bytes(stream[pos:]))
    # Noise may (with odds of 1 in 2^16) forge an extra frame, but every real one is there,
    # in order.
    real = iter(got)
    assert all(any(frame == g for g in real) for frame in expected)
    assert parser.buffered <= MAX_FRAME_SIZE


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=400), cuts=st.lists(st.integers(0, 50), max_size=20))
def test_parser_never_raises_on_any_bytes(data: bytes, cuts: list[int]) -> None:
    parser = FrameParser()
    pos = 0
    for size in cuts:
        parser.feed(data[pos : pos + size])
        pos += size
    parser.feed(data[pos:])
    assert parser.buffered <= MAX_FRAME_SIZE
    assert parser.bytes_skipped <= len(data)


def test_uid_is_upper_case_hex_without_separators() -> None:
    (frame,) = FrameParser().feed(encode_read(2, 1, "deadbeef0a", False, 1))
    assert isinstance(frame, ReadFrame)
    assert frame.uid == "DEADBEEF0A"
    assert re.fullmatch(r"[0-9A-F]+", frame.uid)
