/* fg_proto.h: the wire protocol as the reader builds it (hardware/reader-protocol.md and
 * hardware/chip-protocol.md): CRC-16/CCITT-FALSE, the read, heartbeat and inventory-part frames,
 * the frame counter, and the bounded frame queue the UART drains.
 *
 * Portable C99, no AVR headers: the host unit tests (hardware/firmware/test/) build this very
 * file with the system gcc, the firmware builds it with avr-gcc. */
#ifndef FG_PROTO_H
#define FG_PROTO_H

#include <stdint.h>

#define FG_SOF 0xA5u
#define FG_FRAME_READ 0x01u       /* reader-protocol.md, "Read frame" */
#define FG_FRAME_HEARTBEAT 0x02u  /* reader-protocol.md, "Heartbeat frame" */
#define FG_FRAME_INVENTORY 0x10u  /* chip-protocol.md, "Inventory part" */

#define FG_FLAG_FACE_UP 0x01u     /* read frame FLAGS bit 0 */

#define FG_UID_LEN 8u             /* ISO 15693 uids are 8 bytes (ISO/IEC 15693-3 §4.1) */
#define FG_CARD_MAX_LEN 32u       /* a card device's largest LEN */
#define FG_CHIP_MAX_LEN 128u      /* a chip device's largest LEN */
#define FG_MAX_FRAME (FG_CHIP_MAX_LEN + 4u)   /* SOF, LEN, LEN bytes, CRC(2) */
#define FG_HEARTBEAT_SIZE 9u
/* LEN 9 + entries of 1 + 8 bytes must stay <= 128: 13 uids a part (chip-protocol.md). */
#define FG_UIDS_PER_PART 13u

/* CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, not reflected, xorout 0 (check 0x29B1). */
uint16_t fg_crc16(const uint8_t *data, uint16_t n, uint16_t crc);

/* The counter after `counter`: 0 only at power-on, 0xFFFF wraps to 1 (reader-protocol.md,
 * "Frame counter"). */
uint16_t fg_counter_next(uint16_t counter);

/* Each builder writes one whole frame (SOF .. CRC) into `out` and returns its size in bytes,
 * or 0 when the arguments cannot make a valid frame (nothing is then sent). */
uint8_t fg_frame_read(uint8_t *out, uint8_t reader, uint16_t counter, uint8_t antenna,
                      uint8_t flags, const uint8_t *uid, uint8_t uid_len);
uint8_t fg_frame_heartbeat(uint8_t *out, uint8_t reader, uint16_t counter, uint8_t status);
uint8_t fg_frame_inventory(uint8_t *out, uint8_t reader, uint16_t counter, uint8_t antenna,
                           uint16_t cycle, uint8_t part, uint8_t parts,
                           const uint8_t (*uids)[FG_UID_LEN], uint8_t n);
/* How many parts an inventory of `n` uids takes (an empty one is one empty part). */
uint8_t fg_inventory_parts(uint16_t n);

/* A ring of whole frames waiting for the UART. Only whole frames go in: a frame that does not
 * fit is dropped whole and counted (the heartbeat's OVERFLOW bit). The AVR shell keeps the
 * UART interrupt off while it pushes, so push and pop never run at once. */
typedef struct fg_queue {
    uint8_t *buf;
    uint16_t size;     /* capacity in bytes */
    uint16_t head;     /* next byte to write */
    uint16_t tail;     /* next byte to send */
    uint16_t used;
    uint16_t dropped;  /* frames dropped since the last fg_queue_take_overflow */
} fg_queue_t;

void fg_queue_init(fg_queue_t *q, uint8_t *buf, uint16_t size);
uint16_t fg_queue_free(const fg_queue_t *q);
/* Push `len` bytes if at least `reserve` bytes stay free after them; else drop and count. */
uint8_t fg_queue_push(fg_queue_t *q, const uint8_t *frame, uint16_t len, uint16_t reserve);
/* The next byte to send, or -1 when the queue is empty. */
int16_t fg_queue_pop(fg_queue_t *q);
/* Frames dropped since the last call (and clears the count). */
uint16_t fg_queue_take_overflow(fg_queue_t *q);

#endif
