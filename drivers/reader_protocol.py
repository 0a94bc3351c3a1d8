"""The card-reader wire protocol: a pure codec, no I/O.

The card shoe and the felt antenna multiplexer both speak this protocol over a serial line
(115200 baud 8N1). ``hardware/reader-protocol.md`` is the specification; this module is its
reference implementation:

- ``encode_read`` and ``encode_heartbeat`` build frames (the simulated reader and the tests use
  them; the real readers' firmware does the same in C);
- ``FrameParser.feed(bytes) -> list[Frame]`` turns an arbitrary byte stream, cut anywhere and
  mixed with line noise, back into frames, counting what it had to throw away.

The framing (SOF, LEN, CRC, resynchronisation, frame counters) is shared by every Feltguard
serial device; what differs per kind of device is its ``FrameTable``: the largest LEN its frames
may have and a decoder per frame TYPE. ``CARD_FRAMES`` is the card readers' table (the default);
``drivers.chip_protocol.CHIP_FRAMES`` the chip devices' (hardware/chip-protocol.md).

Frame layout (all multi-byte integers big-endian)::

    SOF  LEN  TYPE  READER  COUNTER(2)  PAYLOAD(LEN-4)  CRC(2)
    A5   ..   ..    ..      .. ..       ..              .. ..

``LEN`` counts TYPE through the end of PAYLOAD. The CRC is CRC-16/CCITT-FALSE over LEN through
the end of PAYLOAD. There is no byte stuffing: the parser resynchronises on length + CRC.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import IntFlag
from typing import Generic, TypeVar, overload

__all__ = [
    "CARD_FRAMES",
    "FRAME_HEARTBEAT",
    "FRAME_READ",
    "MAX_FRAME_SIZE",
    "MAX_UID_BYTES",
    "MIN_UID_BYTES",
    "SOF",
    "Frame",
    "FrameParser",
    "FrameTable",
    "HeartbeatFrame",
    "HeartbeatStatus",
    "ReadFrame",
    "crc16_ccitt_false",
    "decode_heartbeat",
    "encode_heartbeat",
    "encode_read",
    "frame_bytes",
    "next_counter",
    "uid_bytes",
]

SOF = 0xA5
"""Start-of-frame byte. It may also occur inside a frame; only length + CRC make a frame."""

FRAME_READ = 0x01
FRAME_HEARTBEAT = 0x02

MIN_UID_BYTES = 4  # ISO 14443 single-size uid (MIFARE Classic)
MAX_UID_BYTES = 10  # ISO 14443 triple-size uid

# LEN counts TYPE, READER, COUNTER(2) and the payload.
_HEADER_LEN = 4  # TYPE + READER + COUNTER
_READ_FIXED = 2  # ANTENNA + FLAGS, then the uid
_READ_LEN_MIN = _HEADER_LEN + _READ_FIXED + MIN_UID_BYTES  # 10
_READ_LEN_MAX = _HEADER_LEN + _READ_FIXED + MAX_UID_BYTES  # 16
_HEARTBEAT_LEN = _HEADER_LEN + 1  # + STATUS
# Any LEN in this range is framed and CRC-checked, so that a future frame type is skipped whole
# (counted in frames_unknown) instead of being taken for noise.
MIN_LEN = _HEADER_LEN + 1
MAX_LEN = 32
_OVERHEAD = 4  # SOF + LEN + CRC(2)
MAX_FRAME_SIZE = MAX_LEN + _OVERHEAD

FLAG_FACE_UP = 0x01

COUNTER_MODULUS = 0x10000
"""Counters run 0 (first frame after power-on), 1, 2, ... 0xFFFF, then wrap to 1 (never 0 again)."""

# Hard bound on the parser's buffer. After every feed() the buffer holds less than one frame;
# this only matters inside one huge feed() call and keeps memory bounded whatever arrives.
MAX_BUFFER = 4096


def _make_crc_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_CRC_TABLE = _make_crc_table()


def crc16_ccitt_false(data: bytes | bytearray | memoryview, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, xorout 0 (check 0x29B1)."""
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _CRC_TABLE[((crc >> 8) ^ byte) & 0xFF]
    return crc


class HeartbeatStatus(IntFlag):
    """Status bits of a heartbeat frame (bits 4..7 are reserved, sent as 0, ignored)."""

    OK = 0
    ANTENNA_FAULT = 0x01  # an antenna of this reader is open or shorted
    FACE_SENSOR_FAULT = 0x02  # the shoe's face-up sensor is not answering: face_up is unreliable
    OVERFLOW = 0x04  # the reader dropped reads from its own queue since the last heartbeat
    COLLISION = 0x08  # unresolved multi-tag collisions since the last heartbeat


@dataclass(frozen=True, slots=True)
class ReadFrame:
    """A tag read: ``uid`` (upper-case hex) seen by ``antenna`` of ``reader``."""

    reader: int
    antenna: int
    uid: str
    face_up: bool
    counter: int


@dataclass(frozen=True, slots=True)
class HeartbeatFrame:
    """The reader is alive; ``status`` carries ``HeartbeatStatus`` bits."""

    reader: int
    counter: int
    status: int

    @property
    def flags(self) -> HeartbeatStatus:
        return HeartbeatStatus(self.status & 0x0F)


Frame = ReadFrame | HeartbeatFrame

_HEX_UID = re.compile(r"[0-9A-Fa-f]+")


def uid_bytes(uid: bytes | bytearray | str) -> bytes:
    """A tag uid as bytes, from bytes or a hex string (``"04A1B2C3"``); checks 4..10 bytes."""
    if isinstance(uid, str):
        if len(uid) % 2 or not _HEX_UID.fullmatch(uid):
            raise ValueError(f"uid {uid!r} is not an even-length hex string")
        raw = bytes.fromhex(uid)
    elif isinstance(uid, bytes | bytearray):
        raw = bytes(uid)
    else:
        raise TypeError(f"uid must be bytes or a hex string, not {type(uid).__name__}")
    if not MIN_UID_BYTES <= len(raw) <= MAX_UID_BYTES:
        raise ValueError(
            f"uid {raw.hex().upper()} has {len(raw)} bytes;"
            f" tags have {MIN_UID_BYTES}..{MAX_UID_BYTES}"
        )
    return raw


def _check_byte(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 0xFF:
        raise ValueError(f"{name} must be an integer 0..255, got {value!r}")


def _check_counter(counter: int) -> None:
    if isinstance(counter, bool) or not isinstance(counter, int) or not 0 <= counter <= 0xFFFF:
        raise ValueError(f"counter must be an integer 0..65535, got {counter!r}")


def frame_bytes(body: bytes) -> bytes:
    """SOF, LEN, ``body`` (TYPE through the end of PAYLOAD) and its CRC: one whole frame."""
    head = bytes((len(body),)) + body
    return bytes((SOF,)) + head + crc16_ccitt_false(head).to_bytes(2, "big")


def encode_read(
    reader: int, antenna: int, uid: bytes | bytearray | str, face_up: bool, counter: int
) -> bytes:
    """One read frame (14..20 bytes): ``uid`` seen at ``antenna`` of ``reader``."""
    _check_byte("reader", reader)
    _check_byte("antenna", antenna)
    _check_counter(counter)
    raw = uid_bytes(uid)
    flags = FLAG_FACE_UP if face_up else 0
    body = bytes((FRAME_READ, reader)) + counter.to_bytes(2, "big") + bytes((antenna, flags)) + raw
    return frame_bytes(body)


def encode_heartbeat(reader: int, counter: int, status: int = 0) -> bytes:
    """One heartbeat frame (9 bytes) with ``HeartbeatStatus`` bits in ``status``."""
    _check_byte("reader", reader)
    _check_byte("status", int(status))
    _check_counter(counter)
    body = bytes((FRAME_HEARTBEAT, reader)) + counter.to_bytes(2, "big") + bytes((int(status),))
    return frame_bytes(body)


def next_counter(counter: int) -> int:
    """The counter after ``counter``: 0xFFFF wraps to 1, because 0 means 'just powered on'."""
    return 1 if counter >= 0xFFFF else counter + 1


F = TypeVar("F")


@dataclass(frozen=True, slots=True)
class FrameTable(Generic[F]):
    """What one kind of device sends: the largest LEN of its frames and a decoder per TYPE.

    Any LEN in ``MIN_LEN..max_len`` is framed and CRC-checked; a good frame whose TYPE is not in
    ``decoders`` is skipped whole and counted in ``frames_unknown``.
    """

    name: str
    max_len: int
    # TYPE -> decoder: (reader, counter, payload) -> the frame, or None when the payload does not
    # fit the type (a good CRC but the wrong length or contents: counted in frames_bad).
    decoders: Mapping[int, Callable[[int, int, bytes], F | None]]

    def __post_init__(self) -> None:
        if not MIN_LEN <= self.max_len <= 0xFF:
            raise ValueError(f"max_len must be {MIN_LEN}..255, got {self.max_len}")


def _decode_read(reader: int, counter: int, payload: bytes) -> ReadFrame | None:
    if not _READ_LEN_MIN <= len(payload) + _HEADER_LEN <= _READ_LEN_MAX:
        return None
    return ReadFrame(
        reader=reader,
        antenna=payload[0],
        uid=payload[2:].hex().upper(),
        face_up=bool(payload[1] & FLAG_FACE_UP),
        counter=counter,
    )


def decode_heartbeat(reader: int, counter: int, payload: bytes) -> HeartbeatFrame | None:
    """The heartbeat decoder every device's table shares (TYPE 0x02, one STATUS byte)."""
    if len(payload) + _HEADER_LEN != _HEARTBEAT_LEN:
        return None
    return HeartbeatFrame(reader=reader, counter=counter, status=payload[0])


CARD_FRAMES: FrameTable[Frame] = FrameTable(
    name="card",
    max_len=MAX_LEN,
    decoders={FRAME_READ: _decode_read, FRAME_HEARTBEAT: decode_heartbeat},
)
"""The card readers' frames (hardware/reader-protocol.md): reads and heartbeats, LEN 5..32."""


class FrameParser(Generic[F]):
    """Turns a byte stream into frames; never raises on any input.

    ``FrameParser()`` parses the card readers' frames (``CARD_FRAMES``); ``FrameParser(table)``
    another kind of device's, with the same framing, CRC, resynchronisation and counters.

    Resynchronisation rule (documented in hardware/reader-protocol.md): a candidate frame starts
    at an SOF byte. It is accepted only if LEN is in range and the CRC matches. When it fails,
    only the SOF byte is dropped and the search resumes at the next byte, so a good frame that
    starts inside a bad one's claimed span is still found. A candidate still waiting for bytes is
    given up early if a complete good frame already follows it in the buffer, so noise before the
    last frame of a burst cannot hold that frame back.

    Counters (cumulative):
      frames_ok       good frames of a known type (reads and heartbeats)
      frames_bad      candidates rejected: LEN out of range, CRC mismatch, a known type with the
                      wrong length, or a truncated frame overtaken by a good one
      frames_unknown  good CRC but a frame type this version does not know (skipped whole)
      bytes_skipped   bytes that were not part of a good frame of a known type
      frames_lost     frames missing according to each reader's counter
      counter_resets  a reader's counter restarted (0 = power-on) or went backwards
    """

    @overload
    def __init__(self: FrameParser[Frame]) -> None: ...

    @overload
    def __init__(self, table: FrameTable[F]) -> None: ...

    def __init__(self, table: FrameTable[F] | None = None) -> None:
        self.table: FrameTable[F] = table if table is not None else CARD_FRAMES  # type: ignore[assignment]
        self._max_len = self.table.max_len
        self._buf = bytearray()
        self._last_counter: dict[int, int] = {}
        self.frames_ok = 0
        self.frames_bad = 0
        self.frames_unknown = 0
        self.bytes_skipped = 0
        self.frames_lost = 0
        self.counter_resets = 0

    @property
    def max_frame_size(self) -> int:
        """The longest frame of this parser's table, in bytes."""
        return self._max_len + _OVERHEAD

    @property
    def buffered(self) -> int:
        """Bytes held back waiting for the rest of a frame."""
        return len(self._buf)

    def clear(self) -> None:
        """Drop any partial frame (e.g. after the port was reopened); counted as skipped."""
        self.bytes_skipped += len(self._buf)
        self._buf.clear()

    def feed(self, data: bytes | bytearray | memoryview) -> list[F]:
        """Add bytes; return the complete good frames they finish, in stream order."""
        frames: list[F] = []
        view = memoryview(data)
        # Process in slices so the buffer never grows past MAX_BUFFER, whatever one call brings.
        for start in range(0, len(view), MAX_BUFFER // 2):
            self._buf += view[start : start + MAX_BUFFER // 2]
            self._scan(frames)
        return frames

    def _scan(self, out: list[F]) -> None:
        buf = self._buf
        pos = 0
        end = len(buf)
        while pos < end:
            if buf[pos] != SOF:
                nxt = buf.find(SOF, pos)
                skip_to = end if nxt < 0 else nxt
                self.bytes_skipped += skip_to - pos
                pos = skip_to
                continue
            status = self._candidate(buf, pos, end)
            if status > 0:  # good frame of `status` bytes
                frame = self._decode(buf, pos)
                if frame is None:  # good CRC, but not a frame this version can use
                    self.bytes_skipped += status
                else:
                    out.append(frame)
                pos += status
            elif status == 0:  # incomplete: wait, unless a complete good frame follows
                if self._good_frame_after(buf, pos + 1, end):
                    self.frames_bad += 1
                    self.bytes_skipped += 1
                    pos += 1
                    continue
                break
            else:  # bad candidate: drop only the SOF, look again from the next byte
                self.frames_bad += 1
                self.bytes_skipped += 1
                pos += 1
        del buf[:pos]

    def _candidate(self, buf: bytearray, pos: int, end: int) -> int:
        """Size of the good frame at ``pos``; 0 if more bytes are needed; -1 if it is bad."""
        if pos + 1 >= end:
            return 0
        length = buf[pos + 1]
        if not MIN_LEN <= length <= self._max_len:
            return -1
        size = length + _OVERHEAD
        if pos + size > end:
            return 0
        body_end = pos + 2 + length
        crc = (buf[body_end] << 8) | buf[body_end + 1]
        if crc16_ccitt_false(memoryview(buf)[pos + 1 : body_end]) != crc:
            return -1
        return size

    def _good_frame_after(self, buf: bytearray, start: int, end: int) -> bool:
        pos = buf.find(SOF, start, end)
        while pos >= 0:
            if self._candidate(buf, pos, end) > 0:
                return True
            pos = buf.find(SOF, pos + 1, end)
        return False

    def _decode(self, buf: bytearray, pos: int) -> F | None:
        length = buf[pos + 1]
        kind = buf[pos + 2]
        reader = buf[pos + 3]
        counter = (buf[pos + 4] << 8) | buf[pos + 5]
        payload = bytes(buf[pos + 6 : pos + 2 + length])
        decoder = self.table.decoders.get(kind)
        frame: F | None
        if decoder is None:
            frame = None
            self.frames_unknown += 1
        else:
            frame = decoder(reader, counter, payload)
            if frame is None:  # a known type with the wrong length or contents
                self.frames_bad += 1
                return None
        self._track_counter(reader, counter)
        if frame is not None:
            self.frames_ok += 1
        return frame

    def _track_counter(self, reader: int, counter: int) -> None:
        last = self._last_counter.get(reader)
        self._last_counter[reader] = counter
        if last is None:
            return  # first frame we see from this reader: its history is unknown
        if counter == 0:
            self.counter_resets += 1  # the reader powered on again
            return
        # The wrap goes 0xFFFF -> 1, so distances are taken modulo 0xFFFF over 1..0xFFFF.
        delta = (counter - last) % (COUNTER_MODULUS - 1) if last else counter
        if delta == 0 or delta >= COUNTER_MODULUS // 2:
            self.counter_resets += 1  # repeated or backwards: not a loss we can count
        else:
            self.frames_lost += delta - 1
