/* fg_iso15693.h: the ISO/IEC 15693-3 INVENTORY with 16-slot anticollision over an abstract
 * front-end (the PN5180 layer implements it; the host tests and the simulator's model too).
 *
 * ISO/IEC 15693-3 §10.3.1 (Inventory, command 0x01) and §8 / Annex (anticollision): the
 * request carries flags, 0x01, a mask length in bits and the mask value (the uid's lowest
 * bits, least significant byte first). With the Nb_slots flag (request flag bit 6, 0x20)
 * clear there are 16 slots: in slot n answer the tags whose 4 uid bits just above the mask
 * equal n; the reader closes each slot with an EOF. A slot with two or more answers is a
 * collision: the reader asks again with the mask lengthened by 4 bits (the slot number added),
 * one level deeper, until every answer stands alone.
 *
 * Flags (ISO/IEC 15693-3 §7.3.1, Tables 3 and 5): 0x02 high data rate, 0x04 inventory,
 * 0x20 Nb_slots = 1 slot. So 0x26 is ONE slot and 0x06 is 16 slots (issue 29's brief had the
 * two the other way round). The firmware probes with one slot first (an empty antenna or a
 * single tag costs one request, the usual card case) and falls back to 16 slots on a
 * collision.
 *
 * A stack too tall to resolve: the search gives up when it passes the slot budget, the depth
 * limit, its pending-mask stack or the uid capacity; the uids found so far are returned and
 * `unresolved` says some were missed (the heartbeat's COLLISION bit). */
#ifndef FG_ISO15693_H
#define FG_ISO15693_H

#include <stdint.h>
#include "fg_proto.h"

#define FG_ISO_CMD_INVENTORY 0x01u
#define FG_ISO_FLAGS_16_SLOTS 0x06u  /* high data rate | inventory */
#define FG_ISO_FLAGS_1_SLOT 0x26u    /* high data rate | inventory | Nb_slots (1 slot) */
#define FG_ISO_MAX_MASK_BITS 60u     /* 64-bit uid: a 60-bit mask leaves the last 4 bits */
#define FG_ISO_PENDING_MAX 24u       /* masks waiting for their 16-slot round */

typedef enum fg_slot {
    FG_SLOT_EMPTY = 0,      /* no answer */
    FG_SLOT_TAG = 1,        /* one good answer: uid filled (most significant byte first) */
    FG_SLOT_COLLISION = 2,  /* two or more answers at once */
    FG_SLOT_ERROR = 3       /* the front-end failed (timeout, garbage): a fault, not a tag */
} fg_slot_t;

typedef struct fg_frontend {
    void *ctx;
    /* Send INVENTORY with `flags` and the mask (`mask_len` bits of `mask`, least significant
     * byte first) and return what came back in the first slot. */
    fg_slot_t (*request)(void *ctx, uint8_t flags, uint8_t mask_len, const uint8_t *mask,
                         uint8_t *uid);
    /* Close the slot with an EOF and return what came back in the next one. */
    fg_slot_t (*next_slot)(void *ctx, uint8_t *uid);
    uint32_t (*millis)(void *ctx);
} fg_frontend_t;

typedef struct fg_inventory {
    uint8_t (*uid)[FG_UID_LEN]; /* found uids, most significant byte first (E0 ...) */
    uint8_t cap;
    uint8_t n;
    uint8_t unresolved;    /* 1 when some tags may have gone unread */
    uint8_t error;         /* 1 when the front-end failed: the result is not to be used */
    uint16_t slots;        /* slots spent, probe included */
} fg_inventory_t;

/* Run one inventory; `budget_slots` and `budget_ms` bound it, `max_depth` the mask levels
 * (0: the first 16-slot round only). */
void fg_iso_inventory(const fg_frontend_t *fe, fg_inventory_t *inv, uint16_t budget_slots,
                      uint16_t budget_ms, uint8_t max_depth);

/* The 4 uid bits at `mask_len` (the slot a tag answers in); uid most significant byte first. */
uint8_t fg_iso_slot_of(const uint8_t *uid, uint8_t mask_len);
/* Whether the uid's lowest `mask_len` bits equal `mask` (least significant byte first). */
uint8_t fg_iso_matches(const uint8_t *uid, uint8_t mask_len, const uint8_t *mask);

#endif
