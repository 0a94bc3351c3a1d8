/* test_proto.c: CRC-16/CCITT-FALSE, the frames byte for byte against the worked examples of
 * hardware/reader-protocol.md and hardware/chip-protocol.md, the frame counter, the queue. */
#include "fg_test.h"
#include "../core/fg_proto.h"

static int same(const uint8_t *got, uint8_t n, const char *hex)
{
    unsigned char want[200];
    int m = fg_hex(hex, want);
    if (m != n || memcmp(got, want, (size_t)n)) {
        printf("    got ");
        for (int i = 0; i < n; i++) printf("%02X ", got[i]);
        printf("\n    want %s\n", hex);
        return 0;
    }
    return 1;
}

int main(void)
{
    uint8_t f[FG_MAX_FRAME];
    uint8_t n;

    CHECK(fg_crc16((const uint8_t *)"123456789", 9, 0xFFFF) == 0x29B1, "check value");
    SAY("CRC-16/CCITT-FALSE check value 0x29B1");

    static const uint8_t uid7[] = {0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6};
    n = fg_frame_read(f, 2, 0x0102, 3, 0, uid7, 7);
    CHECK(same(f, n, "A5 0D 01 02 01 02 03 00 04 A1 B2 C3 D4 E5 F6 52 8A"), "read example 1");
    n = fg_frame_read(f, 1, 0, 0, FG_FLAG_FACE_UP, uid7, 4);
    CHECK(same(f, n, "A5 0A 01 01 00 00 00 01 04 A1 B2 C3 29 18"), "read example 2");
    n = fg_frame_heartbeat(f, 1, 7, 0);
    CHECK(same(f, n, "A5 05 02 01 00 07 00 E6 B1"), "heartbeat example");
    SAY("reader-protocol.md's three worked examples, byte for byte");

    static const uint8_t chips[2][8] = {{0xE0, 0x04, 0x01, 0x50, 0x12, 0x34, 0x56, 0x78},
                                        {0xE0, 0x04, 0x01, 0x50, 0x12, 0x34, 0x56, 0x79}};
    n = fg_frame_inventory(f, 3, 0x0010, 1, 0x0102, 0, 1, chips, 2);
    CHECK(same(f, n, "A5 1B 10 03 00 10 01 01 02 00 01 08 E0 04 01 50 12 34 56 78 08 E0 04 01 "
                     "50 12 34 56 79 44 29"), "inventory example");
    n = fg_frame_inventory(f, 3, 0x0011, 11, 0x0102, 0, 1, chips, 0);
    CHECK(same(f, n, "A5 09 10 03 00 11 0B 01 02 00 01 E4 92"), "empty inventory example");
    n = fg_frame_heartbeat(f, 3, 7, 0x08);
    CHECK(same(f, n, "A5 05 02 03 00 07 08 8A D1"), "chip heartbeat example");
    SAY("chip-protocol.md's worked examples (inventory, empty inventory, heartbeat)");

    /* a full part: 13 uids make LEN 126 <= 128; 14 do not fit a frame */
    uint8_t many[14][8];
    for (int i = 0; i < 14; i++) { memcpy(many[i], chips[0], 8); many[i][7] = (uint8_t)i; }
    n = fg_frame_inventory(f, 3, 1, 1, 0, 0, 2, (const uint8_t(*)[8])many, 13);
    CHECK(n == 130 && f[1] == 126, "13 uids: %u bytes, LEN %u", n, f[1]);
    CHECK(fg_frame_inventory(f, 3, 1, 1, 0, 0, 2, (const uint8_t(*)[8])many, 14) == 0, "14");
    CHECK(fg_frame_inventory(f, 3, 1, 1, 0, 2, 2, (const uint8_t(*)[8])many, 1) == 0, "part");
    CHECK(fg_frame_read(f, 1, 0, 0, 0, uid7, 3) == 0 && fg_frame_read(f, 1, 0, 0, 0, uid7, 11) == 0,
          "uid 3 or 11 bytes");
    CHECK(fg_inventory_parts(0) == 1 && fg_inventory_parts(13) == 1 &&
          fg_inventory_parts(14) == 2 && fg_inventory_parts(128) == 10, "parts");
    n = fg_frame_read(f, 2, 5, 9, 0xFF, uid7, 7);
    CHECK(f[7] == FG_FLAG_FACE_UP, "reserved FLAGS bits are sent 0");
    /* the CRC over LEN..PAYLOAD of every frame checks out when recomputed */
    CHECK(((fg_crc16(f + 1, (uint16_t)(n - 3), 0xFFFF) >> 8) == f[n - 2]), "crc hi");
    SAY("a part holds 13 uids; bad arguments build no frame; reserved bits are 0");

    CHECK(fg_counter_next(0) == 1 && fg_counter_next(1) == 2, "counter");
    CHECK(fg_counter_next(0xFFFE) == 0xFFFF && fg_counter_next(0xFFFF) == 1, "wrap to 1");
    SAY("the counter goes 0, 1, ... 0xFFFF, then 1 (never 0 again)");

    uint8_t buf[32];
    fg_queue_t q;
    fg_queue_init(&q, buf, sizeof buf);
    n = fg_frame_heartbeat(f, 1, 7, 0);
    CHECK(fg_queue_push(&q, f, n, 0) && fg_queue_push(&q, f, n, 0) && fg_queue_push(&q, f, n, 0),
          "three heartbeats fit in 32 bytes");
    CHECK(!fg_queue_push(&q, f, n, 0) && q.dropped == 1 && q.used == 27, "the 4th is dropped whole");
    for (int i = 0; i < 9; i++)
        CHECK(fg_queue_pop(&q) == f[i], "byte %d", i);
    CHECK(fg_queue_push(&q, f, n, 0), "room again after one frame went out (wraps)");
    CHECK(!fg_queue_push(&q, f, n, 1), "reserve: a frame that would leave too little room");
    int count = 0;
    while (fg_queue_pop(&q) >= 0) count++;
    CHECK(count == 27, "27 bytes out, got %d", count);
    CHECK(fg_queue_take_overflow(&q) == 2 && fg_queue_take_overflow(&q) == 0, "overflow count");
    SAY("the queue takes whole frames only, counts what it drops, keeps a reserve, wraps");

    DONE("test_proto");
}
