/* fg_pn5180.c: PN5180 commands with the BUSY handshake, and the ISO 15693 front-end
 * (see fg_pn5180.h for the references). */
#include "fg_pn5180.h"

#include <string.h>

#define PN_SPIN 24u /* polls before the wait starts sleeping between polls */

/* Wait until `pin` reads `level`, at most `timeout_ms`. */
static uint8_t fg_pn_wait(fg_pn5180_t *pn, uint8_t (*pin)(void *), uint8_t level,
                          uint16_t timeout_ms)
{
    const fg_pn5180_hal_t *h = pn->hal;
    for (uint8_t i = 0; i < PN_SPIN; i++)
        if ((pin(h->ctx) ? 1u : 0u) == level)
            return 1;
    uint32_t start = h->millis(h->ctx);
    for (;;) {
        if ((pin(h->ctx) ? 1u : 0u) == level)
            return 1;
        /* +1: the clock ticks in whole ms, so a wait never ends early */
        if ((uint32_t)(h->millis(h->ctx) - start) > timeout_ms)
            return 0;
        if (pn->on_idle)
            pn->on_idle(pn->on_idle_arg);
        h->idle(h->ctx);
    }
}

static uint8_t fg_pn_dead(fg_pn5180_t *pn)
{
    pn->fault = FG_PN_DEAD;
    pn->deaths++;
    pn->hal->nss(pn->hal->ctx, 1);
    return 0;
}

static uint8_t fg_pn_garbage(fg_pn5180_t *pn)
{
    pn->fault = FG_PN_GARBAGE;
    pn->garbage++;
    return 0;
}

/* One SPI frame with the BUSY handshake (datasheet §11.4.1): wait for BUSY low, NSS low, the
 * bytes, wait for BUSY high (the PN5180 took the frame), NSS high, wait for BUSY low (it is
 * done). `in` (may be NULL) receives the bytes clocked in. BUSY that does not rise within the
 * spin is not a fault by itself (the frame's end is the NSS edge for SEND_DATA); BUSY that
 * does not fall is. */
static uint8_t fg_pn_frame(fg_pn5180_t *pn, const uint8_t *out, uint8_t *in, uint8_t n)
{
    const fg_pn5180_hal_t *h = pn->hal;
    if (!fg_pn_wait(pn, h->busy, 0, PN_BUSY_TIMEOUT_MS))
        return fg_pn_dead(pn);
    h->nss(h->ctx, 0);
    for (uint8_t i = 0; i < n; i++) {
        uint8_t b = h->xfer(h->ctx, out ? out[i] : 0xFFu);
        if (in)
            in[i] = b;
    }
    for (uint8_t i = 0; i < PN_SPIN && !h->busy(h->ctx); i++)
        ;
    h->nss(h->ctx, 1);
    if (!fg_pn_wait(pn, h->busy, 0, PN_BUSY_TIMEOUT_MS))
        return fg_pn_dead(pn);
    return 1;
}

void fg_pn_init(fg_pn5180_t *pn, const fg_pn5180_hal_t *hal)
{
    memset(pn, 0, sizeof *pn);
    pn->hal = hal;
    hal->nss(hal->ctx, 1);
    hal->reset(hal->ctx, 1);
}

uint8_t fg_pn_write_reg(fg_pn5180_t *pn, uint8_t cmd, uint8_t reg, uint32_t value)
{
    uint8_t f[6] = {cmd, reg, (uint8_t)value, (uint8_t)(value >> 8), (uint8_t)(value >> 16),
                    (uint8_t)(value >> 24)};
    return fg_pn_frame(pn, f, NULL, sizeof f);
}

uint8_t fg_pn_read_reg(fg_pn5180_t *pn, uint8_t reg, uint32_t *value)
{
    uint8_t f[2] = {PN_CMD_READ_REGISTER, reg};
    uint8_t v[4];
    if (!fg_pn_frame(pn, f, NULL, 2) || !fg_pn_frame(pn, NULL, v, 4))
        return 0;
    *value = (uint32_t)v[0] | ((uint32_t)v[1] << 8) | ((uint32_t)v[2] << 16) |
             ((uint32_t)v[3] << 24);
    return 1;
}

uint8_t fg_pn_send_data(fg_pn5180_t *pn, const uint8_t *data, uint8_t n)
{
    uint8_t f[2 + 12];
    if (n > 12)
        return 0;
    f[0] = PN_CMD_SEND_DATA;
    f[1] = 0; /* all 8 bits of the last byte are valid */
    if (n)
        memcpy(f + 2, data, n);
    return fg_pn_frame(pn, f, NULL, (uint8_t)(n + 2u));
}

uint8_t fg_pn_read_data(fg_pn5180_t *pn, uint8_t *data, uint8_t n)
{
    uint8_t f[2] = {PN_CMD_READ_DATA, 0x00};
    return fg_pn_frame(pn, f, NULL, 2) && fg_pn_frame(pn, NULL, data, n);
}

static uint8_t fg_pn_cmd2(fg_pn5180_t *pn, uint8_t cmd, uint8_t a, uint8_t b, uint8_t n)
{
    uint8_t f[3] = {cmd, a, b};
    return fg_pn_frame(pn, f, NULL, n);
}

/* IRQ_STATUS, checked: a bit the PN5180 does not have means the bytes are not its. */
static uint8_t fg_pn_irq_status(fg_pn5180_t *pn, uint32_t *irq)
{
    if (!fg_pn_read_reg(pn, PN_REG_IRQ_STATUS, irq))
        return 0;
    if (*irq & ~PN_IRQ_DEFINED)
        return fg_pn_garbage(pn);
    return 1;
}

fg_pn_fault_t fg_pn_reset(fg_pn5180_t *pn)
{
    const fg_pn5180_hal_t *h = pn->hal;
    uint32_t irq = 0, check = 0;
    pn->fault = FG_PN_OK;
    pn->eof_only = 0;
    pn->configured = 0;
    h->nss(h->ctx, 1);
    h->reset(h->ctx, 0);
    uint32_t start = h->millis(h->ctx);
    while ((uint32_t)(h->millis(h->ctx) - start) < 2u) /* RESET_N low >= 10 us */
        h->idle(h->ctx);
    h->reset(h->ctx, 1);
    if (!fg_pn_wait(pn, h->busy, 0, PN_RESET_BOOT_MS)) {
        fg_pn_dead(pn);
        return FG_PN_DEAD;
    }
    /* After a reset the PN5180 says IDLE in IRQ_STATUS; then our IRQ mask must read back
     * exactly as written: two checks that the bytes on MISO are the chip's. */
    if (!fg_pn_irq_status(pn, &irq))
        return (fg_pn_fault_t)pn->fault;
    if (!(irq & PN_IRQ_IDLE)) {
        fg_pn_garbage(pn);
        return FG_PN_GARBAGE;
    }
    if (!fg_pn_write_reg(pn, PN_CMD_WRITE_REGISTER, PN_REG_IRQ_ENABLE, PN_IRQ_WANTED) ||
        !fg_pn_read_reg(pn, PN_REG_IRQ_ENABLE, &check))
        return (fg_pn_fault_t)pn->fault;
    if (check != PN_IRQ_WANTED) {
        fg_pn_garbage(pn);
        return FG_PN_GARBAGE;
    }
    return FG_PN_OK;
}

fg_pn_fault_t fg_pn_field_on(fg_pn5180_t *pn)
{
    const fg_pn5180_hal_t *h = pn->hal;
    uint32_t irq = 0, check = 0;
    pn->fault = FG_PN_OK;
    if (!fg_pn_cmd2(pn, PN_CMD_LOAD_RF_CONFIG, PN_RF_TX_ISO15693, PN_RF_RX_ISO15693, 3) ||
        !fg_pn_read_reg(pn, PN_REG_IRQ_ENABLE, &check))
        return (fg_pn_fault_t)pn->fault;
    if (check != PN_IRQ_WANTED) { /* the mask we wrote at reset must still be there */
        fg_pn_garbage(pn);
        return FG_PN_GARBAGE;
    }
    pn->eof_only = 0;
    /* Once after each reset: the RF configuration's TX_CONFIG (the same every time for the one
     * configuration) and the reply timer (LOAD_RF_CONFIG does not touch the timers: an
     * assumption, kept here). Every antenna costs SPI time; these need not be redone. */
    if (!pn->configured) {
        if (!fg_pn_read_reg(pn, PN_REG_TX_CONFIG, &pn->tx_config) ||
            !fg_pn_write_reg(pn, PN_CMD_WRITE_REGISTER, PN_REG_TIMER1_RELOAD,
                             PN_TIMER1_RELOAD_500US) ||
            !fg_pn_write_reg(pn, PN_CMD_WRITE_REGISTER, PN_REG_TIMER1_CONFIG,
                             PN_TIMER1_CONFIG_RX_TIMEOUT))
            return (fg_pn_fault_t)pn->fault;
        pn->configured = 1;
    }
    if (!fg_pn_write_reg(pn, PN_CMD_WRITE_REGISTER, PN_REG_IRQ_CLEAR, PN_IRQ_DEFINED) ||
        !fg_pn_cmd2(pn, PN_CMD_RF_ON, 0x00, 0, 2))
        return (fg_pn_fault_t)pn->fault;
    /* The field is up when TX_RFON is set; an open or shorted antenna trips the driver
     * instead (GENERAL_ERROR) or never brings the field up. */
    uint32_t start = h->millis(h->ctx);
    for (;;) {
        if (!fg_pn_irq_status(pn, &irq))
            return (fg_pn_fault_t)pn->fault;
        if (irq & PN_IRQ_GENERAL_ERROR)
            break;
        if (irq & PN_IRQ_TX_RFON) {
            start = h->millis(h->ctx);
            while ((uint32_t)(h->millis(h->ctx) - start) < PN_FIELD_GUARD_MS + 1u)
                h->idle(h->ctx);
            return FG_PN_OK;
        }
        if ((uint32_t)(h->millis(h->ctx) - start) > PN_RFON_TIMEOUT_MS)
            break;
        h->idle(h->ctx);
    }
    if (fg_pn_field_off(pn) == FG_PN_OK)
        pn->fault = FG_PN_ANTENNA; /* the chip answers; the antenna is what failed */
    return (fg_pn_fault_t)pn->fault;
}

fg_pn_fault_t fg_pn_field_off(fg_pn5180_t *pn)
{
    pn->fault = FG_PN_OK;
    fg_pn_cmd2(pn, PN_CMD_RF_OFF, 0x00, 0, 2);
    return (fg_pn_fault_t)pn->fault;
}

/* --- the ISO 15693 front-end ------------------------------------------------------------ */

/* Idle, then transceive, and clear the IRQs: the state a SEND_DATA starts from. */
static uint8_t fg_pn_transceive_ready(fg_pn5180_t *pn)
{
    return fg_pn_write_reg(pn, PN_CMD_WRITE_REGISTER_AND_MASK, PN_REG_SYSTEM_CONFIG,
                           0xFFFFFFF8ul) &&
           fg_pn_write_reg(pn, PN_CMD_WRITE_REGISTER_OR_MASK, PN_REG_SYSTEM_CONFIG, 0x3ul) &&
           fg_pn_write_reg(pn, PN_CMD_WRITE_REGISTER, PN_REG_IRQ_CLEAR, PN_IRQ_DEFINED);
}

/* What came back in the slot just opened: wait for the IRQ line, then read the reason. */
static fg_slot_t fg_pn_slot(fg_pn5180_t *pn, uint8_t *uid)
{
    uint32_t irq = 0, rx = 0;
    uint8_t reply[PN_ISO_INVENTORY_REPLY];
    if (!fg_pn_wait(pn, pn->hal->irq, 1, PN_REPLY_TIMEOUT_MS)) {
        fg_pn_dead(pn);
        return FG_SLOT_ERROR;
    }
    if (!fg_pn_irq_status(pn, &irq))
        return FG_SLOT_ERROR;
    if (irq & PN_IRQ_GENERAL_ERROR) {
        fg_pn_garbage(pn);
        return FG_SLOT_ERROR;
    }
    if (!(irq & PN_IRQ_RX)) {
        if (irq & PN_IRQ_TIMER1)
            return FG_SLOT_EMPTY; /* nobody answered within the reply timeout */
        fg_pn_garbage(pn);        /* the IRQ line rose for nothing we enabled */
        return FG_SLOT_ERROR;
    }
    if (!fg_pn_read_reg(pn, PN_REG_RX_STATUS, &rx))
        return FG_SLOT_ERROR;
    /* ISO 15693's Manchester coding shows two tags as a collision; a CRC or framing error in
     * an inventory slot is also two tags talking at once, in practice. */
    if (rx & (PN_RX_COLLISION | PN_RX_INTEGRITY_ERROR | PN_RX_PROTOCOL_ERROR))
        return FG_SLOT_COLLISION;
    if ((rx & PN_RX_BYTES_MASK) != PN_ISO_INVENTORY_REPLY) {
        fg_pn_garbage(pn);
        return FG_SLOT_ERROR;
    }
    if (!fg_pn_read_data(pn, reply, PN_ISO_INVENTORY_REPLY))
        return FG_SLOT_ERROR;
    if ((reply[0] & PN_ISO_FLAG_ERROR) || reply[2 + 7] != PN_ISO_UID_MSB) {
        fg_pn_garbage(pn); /* not an inventory reply: never a tag */
        return FG_SLOT_ERROR;
    }
    for (uint8_t i = 0; i < FG_UID_LEN; i++)
        uid[i] = reply[2 + 7 - i]; /* the air sends the uid least significant byte first */
    return FG_SLOT_TAG;
}

static fg_slot_t fg_pn_fe_request(void *ctx, uint8_t flags, uint8_t mask_len,
                                  const uint8_t *mask, uint8_t *uid)
{
    fg_pn5180_t *pn = ctx;
    uint8_t req[3 + FG_UID_LEN];
    uint8_t n = 0;
    pn->fault = FG_PN_OK;
    if (pn->eof_only) { /* the last round closed its slots with EOFs: data on again */
        if (!fg_pn_write_reg(pn, PN_CMD_WRITE_REGISTER, PN_REG_TX_CONFIG, pn->tx_config))
            return FG_SLOT_ERROR;
        pn->eof_only = 0;
    }
    if (!fg_pn_transceive_ready(pn))
        return FG_SLOT_ERROR;
    req[n++] = flags;
    req[n++] = FG_ISO_CMD_INVENTORY;
    req[n++] = mask_len;
    for (uint8_t i = 0; i < (uint8_t)((mask_len + 7u) / 8u); i++)
        req[n++] = mask[i];
    if (!fg_pn_send_data(pn, req, n))
        return FG_SLOT_ERROR;
    return fg_pn_slot(pn, uid);
}

static fg_slot_t fg_pn_fe_next(void *ctx, uint8_t *uid)
{
    fg_pn5180_t *pn = ctx;
    pn->fault = FG_PN_OK;
    if (!pn->eof_only) {
        if (!fg_pn_write_reg(pn, PN_CMD_WRITE_REGISTER_AND_MASK, PN_REG_TX_CONFIG,
                             PN_TX_CONFIG_EOF_ONLY_AND))
            return FG_SLOT_ERROR;
        pn->eof_only = 1;
    }
    /* Still in transceive (after a reception the PN5180 waits to transmit again): clearing
     * the IRQs is all the next slot needs, which halves a slot's SPI traffic. */
    if (!fg_pn_write_reg(pn, PN_CMD_WRITE_REGISTER, PN_REG_IRQ_CLEAR, PN_IRQ_DEFINED) ||
        !fg_pn_send_data(pn, NULL, 0))
        return FG_SLOT_ERROR;
    return fg_pn_slot(pn, uid);
}

static uint32_t fg_pn_fe_millis(void *ctx)
{
    fg_pn5180_t *pn = ctx;
    return pn->hal->millis(pn->hal->ctx);
}

void fg_pn_frontend(fg_pn5180_t *pn, fg_frontend_t *fe)
{
    fe->ctx = pn;
    fe->request = fg_pn_fe_request;
    fe->next_slot = fg_pn_fe_next;
    fe->millis = fg_pn_fe_millis;
}
