/* fg_iso15693.c: INVENTORY and the 16-slot anticollision (see fg_iso15693.h). */
#include "fg_iso15693.h"

#include <string.h>

typedef struct fg_mask {
    uint8_t len;
    uint8_t value[FG_UID_LEN]; /* least significant byte first */
} fg_mask_t;

uint8_t fg_iso_slot_of(const uint8_t *uid, uint8_t mask_len)
{
    /* uid[7] holds bits 0..7 (uid is most significant byte first) */
    uint8_t byte = uid[FG_UID_LEN - 1u - mask_len / 8u];
    return (uint8_t)((mask_len % 8u) ? (byte >> 4) : (byte & 0x0Fu));
}

uint8_t fg_iso_matches(const uint8_t *uid, uint8_t mask_len, const uint8_t *mask)
{
    for (uint8_t bit = 0; bit < mask_len; bit = (uint8_t)(bit + 4u)) {
        uint8_t want = (uint8_t)((bit % 8u) ? (mask[bit / 8u] >> 4) : (mask[bit / 8u] & 0x0Fu));
        if (fg_iso_slot_of(uid, bit) != want)
            return 0;
    }
    return 1;
}

static void fg_add(fg_inventory_t *inv, const uint8_t *uid)
{
    for (uint8_t i = 0; i < inv->n; i++)
        if (memcmp(inv->uid[i], uid, FG_UID_LEN) == 0)
            return; /* one tag answering twice (e.g. in the probe and again) is one tag */
    if (inv->n < inv->cap)
        memcpy(inv->uid[inv->n++], uid, FG_UID_LEN);
    else
        inv->unresolved = 1; /* more tags than room: the rest go unread */
}

void fg_iso_inventory(const fg_frontend_t *fe, fg_inventory_t *inv, uint16_t budget_slots,
                      uint16_t budget_ms, uint8_t max_depth)
{
    fg_mask_t pending[FG_ISO_PENDING_MAX];
    uint8_t npending = 0;
    uint8_t uid[FG_UID_LEN];
    uint32_t start = fe->millis(fe->ctx);

    inv->n = 0;
    inv->unresolved = 0;
    inv->error = 0;
    inv->slots = 1;

    /* The one-slot probe: an empty antenna or a lone tag is done in one request. */
    fg_slot_t r = fe->request(fe->ctx, FG_ISO_FLAGS_1_SLOT, 0, NULL, uid);
    if (r == FG_SLOT_ERROR) {
        inv->error = 1;
        return;
    }
    if (r == FG_SLOT_TAG)
        fg_add(inv, uid);
    if (r != FG_SLOT_COLLISION)
        return;

    memset(&pending[0], 0, sizeof pending[0]);
    npending = 1;
    while (npending) {
        fg_mask_t m = pending[--npending]; /* depth first: the stack stays small */
        for (uint8_t slot = 0; slot < 16u; slot++) {
            if (inv->slots >= budget_slots ||
                (uint32_t)(fe->millis(fe->ctx) - start) >= budget_ms) {
                inv->unresolved = 1; /* out of time: this round and the pending ones are lost */
                return;
            }
            inv->slots++;
            r = slot == 0 ? fe->request(fe->ctx, FG_ISO_FLAGS_16_SLOTS, m.len, m.value, uid)
                          : fe->next_slot(fe->ctx, uid);
            if (r == FG_SLOT_ERROR) {
                inv->error = 1;
                return;
            }
            if (r == FG_SLOT_TAG) {
                fg_add(inv, uid);
            } else if (r == FG_SLOT_COLLISION) {
                uint8_t deeper = (uint8_t)(m.len + 4u);
                if (deeper > FG_ISO_MAX_MASK_BITS || deeper / 4u > max_depth ||
                    npending == FG_ISO_PENDING_MAX) {
                    inv->unresolved = 1;
                    continue;
                }
                fg_mask_t *d = &pending[npending++];
                *d = m;
                d->len = deeper;
                d->value[m.len / 8u] |= (uint8_t)(slot << ((m.len % 8u) ? 4 : 0));
            }
        }
    }
}
