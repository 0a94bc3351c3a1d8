/* fg_proto.c: frames, CRC, counter and the frame queue (see fg_proto.h). */
#include "fg_proto.h"

/* The UART interrupt pops while the main loop pushes: `used` is the one field both write,
 * so its reads and updates are made atomic where the platform needs it (the AVR build
 * defines these with SREG and cli; on the host nothing runs concurrently). */
#ifndef FG_ATOMIC_BEGIN
#define FG_ATOMIC_BEGIN()
#define FG_ATOMIC_END()
#endif

uint16_t fg_crc16(const uint8_t *data, uint16_t n, uint16_t crc)
{
    /* Bitwise: 256 bytes of table would cost flash for a few hundred bytes a second. */
    while (n--) {
        crc ^= (uint16_t)((uint16_t)*data++ << 8);
        for (uint8_t bit = 0; bit < 8; bit++)
            crc = (crc & 0x8000u) ? (uint16_t)((crc << 1) ^ 0x1021u) : (uint16_t)(crc << 1);
    }
    return crc;
}

uint16_t fg_counter_next(uint16_t counter)
{
    return counter == 0xFFFFu ? 1u : (uint16_t)(counter + 1u);
}

/* SOF, LEN and the header; the caller appends the payload, then fg_finish adds the CRC. */
static uint8_t fg_head(uint8_t *out, uint8_t type, uint8_t reader, uint16_t counter)
{
    out[0] = FG_SOF;
    out[1] = 0; /* LEN, set by fg_finish */
    out[2] = type;
    out[3] = reader;
    out[4] = (uint8_t)(counter >> 8);
    out[5] = (uint8_t)counter;
    return 6;
}

static uint8_t fg_finish(uint8_t *out, uint8_t end)
{
    out[1] = (uint8_t)(end - 2);           /* TYPE .. end of PAYLOAD */
    uint16_t crc = fg_crc16(out + 1, (uint16_t)(end - 1), 0xFFFFu); /* LEN .. PAYLOAD */
    out[end] = (uint8_t)(crc >> 8);        /* high byte first */
    out[end + 1] = (uint8_t)crc;
    return (uint8_t)(end + 2);
}

uint8_t fg_frame_read(uint8_t *out, uint8_t reader, uint16_t counter, uint8_t antenna,
                      uint8_t flags, const uint8_t *uid, uint8_t uid_len)
{
    if (uid_len < 4 || uid_len > 10)
        return 0; /* the read frame carries 4..10 uid bytes */
    uint8_t pos = fg_head(out, FG_FRAME_READ, reader, counter);
    out[pos++] = antenna;
    out[pos++] = (uint8_t)(flags & FG_FLAG_FACE_UP); /* reserved bits sent 0 */
    for (uint8_t i = 0; i < uid_len; i++)
        out[pos++] = uid[i];
    return fg_finish(out, pos);
}

uint8_t fg_frame_heartbeat(uint8_t *out, uint8_t reader, uint16_t counter, uint8_t status)
{
    uint8_t pos = fg_head(out, FG_FRAME_HEARTBEAT, reader, counter);
    out[pos++] = status;
    return fg_finish(out, pos);
}

uint8_t fg_frame_inventory(uint8_t *out, uint8_t reader, uint16_t counter, uint8_t antenna,
                           uint16_t cycle, uint8_t part, uint8_t parts,
                           const uint8_t (*uids)[FG_UID_LEN], uint8_t n)
{
    if (parts == 0 || part >= parts || n > FG_UIDS_PER_PART)
        return 0;
    uint8_t pos = fg_head(out, FG_FRAME_INVENTORY, reader, counter);
    out[pos++] = antenna;
    out[pos++] = (uint8_t)(cycle >> 8);
    out[pos++] = (uint8_t)cycle;
    out[pos++] = part;
    out[pos++] = parts;
    for (uint8_t i = 0; i < n; i++) {
        out[pos++] = FG_UID_LEN; /* ULEN */
        for (uint8_t j = 0; j < FG_UID_LEN; j++)
            out[pos++] = uids[i][j];
    }
    return fg_finish(out, pos);
}

uint8_t fg_inventory_parts(uint16_t n)
{
    return n == 0 ? 1u : (uint8_t)((n + FG_UIDS_PER_PART - 1u) / FG_UIDS_PER_PART);
}

void fg_queue_init(fg_queue_t *q, uint8_t *buf, uint16_t size)
{
    q->buf = buf;
    q->size = size;
    q->head = q->tail = q->used = 0;
    q->dropped = 0;
}

uint16_t fg_queue_free(const fg_queue_t *q)
{
    uint16_t used;
    FG_ATOMIC_BEGIN();
    used = q->used;
    FG_ATOMIC_END();
    return (uint16_t)(q->size - used);
}

uint8_t fg_queue_push(fg_queue_t *q, const uint8_t *frame, uint16_t len, uint16_t reserve)
{
    if (len == 0)
        return 0;
    if ((uint32_t)len + reserve > fg_queue_free(q)) {
        if (q->dropped != 0xFFFFu)
            q->dropped++;
        return 0;
    }
    /* The bytes go in beyond `used`, where the interrupt does not look; then, at once, the
     * whole frame becomes visible to it. */
    for (uint16_t i = 0; i < len; i++) {
        q->buf[q->head] = frame[i];
        q->head = (uint16_t)(q->head + 1u == q->size ? 0u : q->head + 1u);
    }
    FG_ATOMIC_BEGIN();
    q->used = (uint16_t)(q->used + len);
    FG_ATOMIC_END();
    return 1;
}

int16_t fg_queue_pop(fg_queue_t *q)
{
    if (q->used == 0)
        return -1;
    uint8_t byte = q->buf[q->tail];
    q->tail = (uint16_t)(q->tail + 1u == q->size ? 0u : q->tail + 1u);
    q->used--;
    return byte;
}

uint16_t fg_queue_take_overflow(fg_queue_t *q)
{
    uint16_t n = q->dropped;
    q->dropped = 0;
    return n;
}
