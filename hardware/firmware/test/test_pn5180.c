/* test_pn5180.c: the PN5180 command layer and its ISO 15693 front-end, run against the PN5180
 * model (sim/pn5180_model.c) on a virtual clock: the byte frames of each command, the BUSY
 * handshake, inventories of real tags, and the faults: a dead front-end is a bounded fault,
 * garbage is a fault and never a tag, an antenna that will not carry a field is an antenna
 * fault. */
#include "fg_test.h"
#include "host_board.h"

static host_t H;
static fg_pn5180_hal_t HAL;
static fg_board_t BOARD;
static fg_pn5180_t PN;
static uint8_t found[128][8];

static uint64_t uid_u64(const uint8_t *u)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = (v << 8) | u[i];
    return v;
}

static void place(uint8_t antenna, uint64_t v)
{
    uint8_t u[8];
    for (int i = 0; i < 8; i++) u[i] = (uint8_t)(v >> (56 - 8 * i));
    pnm_place(&H.m, antenna, u);
}

static int inventory(uint8_t antenna, fg_inventory_t *inv)
{
    fg_frontend_t fe;
    fg_pn_frontend(&PN, &fe);
    inv->uid = found;
    inv->cap = 128;
    pnm_select(&H.m, antenna, 1);
    if (fg_pn_field_on(&PN) != FG_PN_OK) return -1;
    fg_iso_inventory(&fe, inv, FG_CHIP_BUDGET_SLOTS, FG_CHIP_BUDGET_MS, FG_MAX_DEPTH);
    fg_pn_field_off(&PN);
    return inv->error ? -2 : 0;
}

int main(void)
{
    fg_inventory_t inv;
    uint32_t v = 0;
    uint64_t t0;
    host_init(&H, &HAL, &BOARD, 7);
    fg_pn_init(&PN, &HAL);

    CHECK(fg_pn_reset(&PN) == FG_PN_OK, "reset: the model boots, says IDLE, keeps the IRQ mask");
    CHECK(H.m.reg[0x01] == PN_IRQ_WANTED, "IRQ_ENABLE written");
    CHECK(fg_pn_write_reg(&PN, PN_CMD_WRITE_REGISTER, 0x20, 0x11223344ul) &&
          fg_pn_read_reg(&PN, 0x20, &v) && v == 0x11223344ul, "register round trip LSB first");
    CHECK(H.m.frame[0] == 0xFF && H.m.commands > 3, "a read's second frame clocks out 0xFF");
    CHECK(fg_pn_write_reg(&PN, PN_CMD_WRITE_REGISTER_OR_MASK, 0x20, 0x80ul) &&
          fg_pn_write_reg(&PN, PN_CMD_WRITE_REGISTER_AND_MASK, 0x20, 0xFFFFFF00ul) &&
          fg_pn_read_reg(&PN, 0x20, &v) && v == 0x11223300ul, "OR and AND masks");
    SAY("reset, WRITE_REGISTER(_OR/_AND_MASK), READ_REGISTER with the BUSY handshake");

    CHECK(inventory(1, &inv) == 0 && inv.n == 0, "empty antenna");
    place(1, 0xE004015012345678ull);
    CHECK(inventory(1, &inv) == 0 && inv.n == 1 && uid_u64(found[0]) == 0xE004015012345678ull,
          "one tag, uid most significant byte first");
    CHECK(inventory(2, &inv) == 0 && inv.n == 0, "the tag is on antenna 1, not 2: physical");
    for (uint64_t i = 1; i <= 30; i++) place(5, 0xE004015000000000ull | (i * 0x9E3779B1ull & 0xFFFFFFFull));
    t0 = H.us;
    CHECK(inventory(5, &inv) == 0 && inv.n == 30 && !inv.unresolved, "30 chips on antenna 5: %u", inv.n);
    SAY("INVENTORY through the PN5180: empty, one tag, 30 chips (%u slots, %.0f ms), only the "
        "selected antenna answers", inv.slots, (double)(H.us - t0) / 1000.0);
    t0 = H.us;
    inventory(1, &inv);
    uint64_t one = H.us - t0;
    CHECK(one > 2000 && one < 20000, "a lone card's inventory takes %llu us", (unsigned long long)one);
    SAY("a lone card's scan (field on, probe, field off) takes %.1f ms of air and SPI time",
        (double)one / 1000.0);

    for (int i = 0; i < 300; i++) place(9, 0xE004010000000000ull | (uint64_t)(i * 2654435761u));
    CHECK(inventory(9, &inv) == 0 && inv.unresolved && inv.n > 0, "tall stack: unresolved, %u read", inv.n);
    SAY("a 300-chip stack: %u read within the budget, the rest unresolved (COLLISION)", inv.n);

    H.m.antenna_fault = 1u << 3;
    pnm_select(&H.m, 3, 1);
    CHECK(fg_pn_field_on(&PN) == FG_PN_ANTENNA, "antenna 3 will not carry a field");
    pnm_select(&H.m, 1, 1);
    CHECK(fg_pn_field_on(&PN) == FG_PN_OK && fg_pn_field_off(&PN) == FG_PN_OK, "antenna 1 still fine");
    SAY("an open or shorted antenna is FG_PN_ANTENNA; the others go on");

    H.m.dead = 1;
    pnm_advance(&H.m, H.us);
    t0 = H.us;
    CHECK(inventory(1, &inv) != 0 && PN.fault == FG_PN_DEAD, "dead: a fault");
    CHECK(H.us - t0 < 20000, "and it took %llu us, not forever", (unsigned long long)(H.us - t0));
    CHECK(fg_pn_reset(&PN) == FG_PN_DEAD, "a reset does not bring it back while dead");
    H.m.dead = 0;
    pnm_advance(&H.m, H.us);
    CHECK(fg_pn_reset(&PN) == FG_PN_OK && inventory(1, &inv) == 0 && inv.n == 1, "back after a reset");
    SAY("a dead front-end is a fault within %d ms, and a reset brings it back", PN_BUSY_TIMEOUT_MS + 1);

    /* Garbage on MISO: thousands of tries, never a tag, always a fault. */
    H.m.garbage = 1;
    int tags = 0, faults = 0, tries = 3000;
    for (int i = 0; i < tries; i++) {
        int r = inventory((uint8_t)(i % 2 ? 1 : 2), &inv);
        if (r == 0 && inv.n) tags++;
        if (r != 0) faults++;
        if (i % 50 == 0) fg_pn_reset(&PN);
    }
    CHECK(tags == 0, "garbage gave %d tags", tags);
    CHECK(faults == tries, "garbage: %d of %d scans a fault", faults, tries);
    H.m.garbage = 0;
    CHECK(fg_pn_reset(&PN) == FG_PN_OK && inventory(1, &inv) == 0 && inv.n == 1, "clean again");
    SAY("%d scans with random bytes on MISO: %d faults, %d tags", tries, faults, tags);

    DONE("test_pn5180");
}
