/* test_iso.c: the ISO 15693 INVENTORY and 16-slot anticollision over a front-end fake that
 * answers as tags do: the slot rule is written again here, independently of the firmware's. */
#include "fg_test.h"
#include "../core/fg_iso15693.h"

#include <stdlib.h>

typedef struct fake {
    uint8_t uid[600][8];
    int n;
    uint8_t sixteen, mask_len, slot, mask[8];
    int fail_after; /* slots until the front-end fails (-1 never) */
    uint32_t ms;
    int requests, one_slot_requests;
} fake_t;

static uint8_t nib(const uint8_t *uid, int bit) /* bits counted from the uid's lsb */
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = (v << 8) | uid[i];
    return (uint8_t)((v >> bit) & 0xF);
}

static fg_slot_t answer(fake_t *f, uint8_t *out)
{
    int hits = 0, first = -1;
    f->ms++; /* a slot takes about a millisecond */
    if (f->fail_after == 0) return FG_SLOT_ERROR;
    if (f->fail_after > 0) f->fail_after--;
    for (int i = 0; i < f->n; i++) {
        int ok = 1;
        for (int b = 0; b < f->mask_len && ok; b += 4)
            ok = nib(f->uid[i], b) == ((f->mask[b / 8] >> (b % 8)) & 0xF);
        if (ok && f->sixteen) ok = nib(f->uid[i], f->mask_len) == f->slot;
        if (ok) { hits++; if (first < 0) first = i; }
    }
    if (hits == 0) return FG_SLOT_EMPTY;
    if (hits > 1) return FG_SLOT_COLLISION;
    memcpy(out, f->uid[first], 8);
    return FG_SLOT_TAG;
}

static fg_slot_t req(void *c, uint8_t flags, uint8_t mask_len, const uint8_t *mask, uint8_t *uid)
{
    fake_t *f = c;
    f->requests++;
    f->sixteen = !(flags & 0x20);
    if (!f->sixteen) f->one_slot_requests++;
    if ((flags & 0x06) != 0x06) return FG_SLOT_ERROR; /* inventory + high data rate always */
    f->mask_len = mask_len;
    f->slot = 0;
    memset(f->mask, 0, 8);
    if (mask_len) memcpy(f->mask, mask, (size_t)(mask_len + 7) / 8);
    return answer(f, uid);
}

static fg_slot_t next(void *c, uint8_t *uid)
{
    fake_t *f = c;
    if (!f->sixteen || f->slot >= 15) return FG_SLOT_ERROR; /* no slot to go to */
    f->slot++;
    return answer(f, uid);
}

static uint32_t ms(void *c) { return ((fake_t *)c)->ms; }

static fake_t F;
static uint8_t found[FG_ISO_PENDING_MAX * 16 + 600][8];

static void add(uint64_t v)
{
    for (int i = 0; i < 8; i++) F.uid[F.n][i] = (uint8_t)(v >> (56 - 8 * i));
    F.n++;
}

static int all_found(const fg_inventory_t *inv)
{
    if (inv->n != F.n) return 0;
    for (int i = 0; i < F.n; i++) {
        int hit = 0;
        for (int j = 0; j < inv->n && !hit; j++) hit = !memcmp(F.uid[i], inv->uid[j], 8);
        if (!hit) return 0;
    }
    return 1;
}

static int only_real(const fg_inventory_t *inv)
{
    for (int j = 0; j < inv->n; j++) {
        int hit = 0;
        for (int i = 0; i < F.n && !hit; i++) hit = !memcmp(F.uid[i], inv->uid[j], 8);
        if (!hit) return 0;
    }
    return 1;
}

static void run(fg_inventory_t *inv, uint8_t cap, uint16_t slots, uint16_t budget_ms, uint8_t depth)
{
    fg_frontend_t fe = {&F, req, next, ms};
    inv->uid = found;
    inv->cap = cap;
    F.requests = F.one_slot_requests = 0;
    fg_iso_inventory(&fe, inv, slots, budget_ms, depth);
}

int main(void)
{
    fg_inventory_t inv;
    uint8_t u[8] = {0xE0, 0x04, 0x01, 0x50, 0x12, 0x34, 0x56, 0x78};

    CHECK(fg_iso_slot_of(u, 0) == 0x8 && fg_iso_slot_of(u, 4) == 0x7 && fg_iso_slot_of(u, 8) == 0x6 &&
          fg_iso_slot_of(u, 60) == 0xE, "slot nibbles from the lsb");
    uint8_t m[8] = {0x78, 0x06};
    CHECK(fg_iso_matches(u, 12, m) && !fg_iso_matches(u, 16, m) && fg_iso_matches(u, 0, m), "mask");
    SAY("slot numbers and masks count the uid's bits from its least significant end");

    F.fail_after = -1;
    run(&inv, 128, 400, 1000, 15);
    CHECK(inv.n == 0 && !inv.unresolved && !inv.error && F.requests == 1 && inv.slots == 1,
          "empty antenna: one 1-slot request");
    add(0xE004015012345678ull);
    run(&inv, 128, 400, 1000, 15);
    CHECK(all_found(&inv) && F.requests == 1 && F.one_slot_requests == 1, "one tag: one request");
    add(0xE004015012345679ull);
    run(&inv, 128, 400, 1000, 15);
    CHECK(all_found(&inv) && !inv.unresolved && inv.slots == 17, "two tags: probe + 16 slots (%u)", inv.slots);
    SAY("1-slot probe first; a collision there opens 16 slots (flags 0x26, then 0x06)");

    /* the same lowest 12 bits: they collide three levels deep */
    F.n = 0;
    add(0xE004015000000ABCull);
    add(0xE004015011111ABCull);
    add(0xE004015022222ABCull);
    run(&inv, 128, 400, 1000, 15);
    CHECK(all_found(&inv) && !inv.unresolved, "deep collisions resolve (%u found)", inv.n);
    SAY("tags alike in their lowest 12 bits: resolved by masks 4, 8, 12, 16 bits long");

    srand(29);
    int stacks_ok = 0, total = 0;
    for (int round = 0; round < 200; round++) {
        F.n = 0;
        int want = 2 + rand() % 80;
        for (int i = 0; i < want; i++)
            add(0xE004010000000000ull | (((uint64_t)rand() << 20) ^ (uint64_t)rand()));
        run(&inv, 128, 2000, 60000, 15);
        total++;
        stacks_ok += all_found(&inv) && !inv.unresolved && !inv.error;
    }
    CHECK(stacks_ok == total, "%d of %d random stacks of 2..81 tags resolved", stacks_ok, total);
    SAY("%d random stacks of 2..81 chips: every uid found, each once", total);

    /* A tall stack: a budget too small for it. What is returned is real; the rest is unresolved. */
    F.n = 0;
    for (int i = 0; i < 300; i++) add(0xE004010000000000ull | (uint64_t)(i * 2654435761u));
    run(&inv, 128, 400, 160, 4);
    CHECK(inv.unresolved && !inv.error && inv.n > 0 && only_real(&inv),
          "300 tags: %u found, unresolved %u", inv.n, inv.unresolved);
    CHECK(inv.slots <= 400 && F.ms <= 100000, "the budget bounds it");
    F.n = 0;
    for (int i = 0; i < 140; i++) add(0xE004010000000000ull | (uint64_t)(i * 2654435761u));
    run(&inv, 128, 5000, 60000, 15);
    CHECK(inv.unresolved && inv.n == 128 && only_real(&inv), "more tags than room: 128 kept, unresolved");
    F.n = 0;
    for (int i = 0; i < 17; i++) add(0xE004010000000000ull | (uint64_t)i << 4); /* same lowest nibble */
    run(&inv, 128, 400, 1000, 0);
    CHECK(inv.unresolved && inv.n == 0, "depth limit 0: a collision in the first round stays one");
    F.ms = 0;
    run(&inv, 128, 4000, 5, 15);
    CHECK(inv.unresolved, "a time budget of 5 ms stops it");
    SAY("a stack too tall for the slot or time budget, the depth or the room: COLLISION, and "
        "only real uids come back");

    F.n = 0;
    for (int i = 0; i < 20; i++) add(0xE004010000000000ull | (uint64_t)(i * 2654435761u));
    F.fail_after = 5;
    run(&inv, 128, 400, 1000, 15);
    CHECK(inv.error, "a front-end failing mid-inventory: error, result not to be used");
    F.fail_after = 0;
    run(&inv, 128, 400, 1000, 15);
    CHECK(inv.error && inv.n == 0, "failing at once");
    SAY("a front-end error ends the inventory as an error");

    DONE("test_iso");
}
