/* pn5180_model.c: the PN5180 and its tags (see pn5180_model.h). */
#include "pn5180_model.h"

#include <string.h>

/* The registers and bits, as the firmware's command layer names them (fg_pn5180.h). */
#define R_SYSTEM_CONFIG 0x00
#define R_IRQ_ENABLE 0x01
#define R_IRQ_STATUS 0x02
#define R_IRQ_CLEAR 0x03
#define R_RX_STATUS 0x13
#define R_TX_CONFIG 0x18
#define I_RX (1u << 0)
#define I_TX (1u << 1)
#define I_IDLE (1u << 2)
#define I_TX_RFOFF (1u << 8)
#define I_TX_RFON (1u << 9)
#define I_TIMER1 (1u << 11)
#define I_GENERAL_ERROR (1u << 17)
#define TX_DATA_ENABLE (1u << 10)
#define TX_CONFIG_ISO15693 0x000004C8u /* what LOAD_RF_CONFIG leaves: data on */

/* Times in microseconds. ISO/IEC 15693-2: reader to tag 1-out-of-4 at 26.48 kbit/s, 302 us a
 * byte; tag to reader at the high data rate, 26.48 kbit/s, 302 us a byte; t1 = 320.9 us. */
#define T_BYTE_UP 302u
#define T_BYTE_DOWN 302u
#define T_SOF_EOF 150u
#define T_T1 321u
#define T_EOF 40u          /* the reader's EOF alone: 2 bit times of 1-out-of-4 */
#define T_EMPTY_SLOT 500u  /* TIMER1's reply timeout */
#define T_REGISTER 5u      /* a register command's BUSY time */
#define T_RF_CONFIG 60u
#define T_RF_ON 100u
#define T_BOOT 2500u

static uint32_t pnm_rand(pn_model_t *m)
{
    uint32_t x = m->rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return m->rng = x ? x : 0x9E3779B9u;
}

static void pnm_pins(pn_model_t *m)
{
    if (m->dead) {
        m->busy = 1;
        m->irq = 0;
        return;
    }
    if (!m->reset_n) {
        m->busy = 1;
        m->irq = 0;
        return;
    }
    if (m->busy && m->now >= m->busy_until && m->nss)
        m->busy = 0;
    if (m->air_irq && m->now >= m->air_until) {
        m->reg[R_IRQ_STATUS] |= m->air_irq;
        m->air_irq = 0;
    }
    m->irq = (m->reg[R_IRQ_STATUS] & m->reg[R_IRQ_ENABLE]) != 0;
}

void pnm_init(pn_model_t *m, uint32_t seed)
{
    memset(m, 0, sizeof *m);
    m->rng = seed ? seed : 1u;
    m->nss = 1;
    m->reset_n = 1;
    m->reg[R_IRQ_STATUS] = I_IDLE;
    pnm_pins(m);
}

void pnm_advance(pn_model_t *m, uint64_t now_us)
{
    if (now_us > m->now)
        m->now = now_us;
    pnm_pins(m);
}

uint64_t pnm_next_event(const pn_model_t *m)
{
    uint64_t next = PNM_NO_EVENT;
    if (m->dead || !m->reset_n)
        return next;
    if (m->busy && m->nss && m->busy_until > m->now)
        next = m->busy_until;
    if (m->air_irq && m->air_until < next)
        next = m->air_until > m->now ? m->air_until : m->now;
    return next;
}

void pnm_select(pn_model_t *m, uint8_t channel, uint8_t enabled)
{
    if (channel != m->mux || enabled != m->mux_enabled)
        m->inv_active = 0; /* another antenna: the tags in the field changed */
    m->mux = channel & 15u;
    m->mux_enabled = enabled;
}

static int pnm_uid_eq(const uint8_t *a, const uint8_t *b)
{
    return memcmp(a, b, 8) == 0;
}

int pnm_place(pn_model_t *m, uint8_t antenna, const uint8_t uid[8])
{
    for (int i = 0; i < m->ntags; i++)
        if (m->tag[i].antenna == antenna && pnm_uid_eq(m->tag[i].uid, uid))
            return 0;
    if (m->ntags == PNM_MAX_TAGS)
        return -1;
    memcpy(m->tag[m->ntags].uid, uid, 8);
    m->tag[m->ntags++].antenna = antenna;
    return 0;
}

int pnm_lift(pn_model_t *m, uint8_t antenna, const uint8_t uid[8])
{
    for (int i = 0; i < m->ntags; i++)
        if (m->tag[i].antenna == antenna && pnm_uid_eq(m->tag[i].uid, uid)) {
            m->tag[i] = m->tag[--m->ntags];
            return 0;
        }
    return -1;
}

int pnm_parse_uid(const char *hex, uint8_t uid[8])
{
    for (int i = 0; i < 16; i++) {
        char c = hex[i];
        int v = c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10
              : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (v < 0)
            return -1;
        uid[i / 2] = (uint8_t)(i % 2 ? (uid[i / 2] | v) : (v << 4));
    }
    return hex[16] == 0 || hex[16] == '\n' || hex[16] == ' ' ? 0 : -1;
}

/* The 4 uid bits at `bit` (uid most significant byte first): the firmware's fg_iso_slot_of,
 * written again here so the model does not borrow the code it checks. */
static uint8_t pnm_nibble(const uint8_t *uid, uint8_t bit)
{
    uint8_t byte = uid[7 - bit / 8];
    return (uint8_t)(bit % 8 ? byte >> 4 : byte & 0x0F);
}

/* Who answers in the current slot; sets the reply and when the slot's IRQ rises. */
static void pnm_slot(pn_model_t *m, uint32_t tx_us)
{
    int n = 0, first = -1;
    m->slots++;
    if (m->rf_on && m->mux_enabled)
        for (int i = 0; i < m->ntags; i++) {
            const pnm_tag_t *t = &m->tag[i];
            if (t->antenna != m->mux)
                continue;
            int match = 1;
            for (uint8_t bit = 0; bit < m->inv_mask_len && match; bit += 4) {
                uint8_t want = (uint8_t)(bit % 8 ? m->inv_mask[bit / 8] >> 4
                                                 : m->inv_mask[bit / 8] & 0x0F);
                match = pnm_nibble(t->uid, bit) == want;
            }
            if (match && m->inv_16)
                match = pnm_nibble(t->uid, m->inv_mask_len) == m->inv_slot;
            if (match) {
                if (first < 0)
                    first = i;
                n++;
            }
        }
    m->rx_len = 0;
    m->rx_status = 0;
    if (n == 0) {
        m->air_irq = I_TX | I_TIMER1;
        m->air_until = m->now + tx_us + T_EMPTY_SLOT;
        return;
    }
    /* flags, DSFID, uid least significant byte first (ISO/IEC 15693-3 §10.3.1) */
    m->rx[0] = 0x00;
    m->rx[1] = 0x00;
    for (int i = 0; i < 8; i++)
        m->rx[2 + i] = m->tag[first].uid[7 - i];
    m->rx_len = 10;
    m->rx_status = 10;
    if (n > 1) { /* the answers overlap: Manchester sees the collision */
        m->rx_status |= 1u << 18;
        for (int i = 0; i < 10; i++)
            m->rx[i] ^= (uint8_t)pnm_rand(m);
    }
    m->air_irq = I_TX | I_RX;
    m->air_until = m->now + tx_us + T_T1 + 2 * T_SOF_EOF + 12u * T_BYTE_DOWN;
}

static void pnm_send_data(pn_model_t *m, const uint8_t *d, int n)
{
    if (!m->rf_on || (m->reg[R_SYSTEM_CONFIG] & 7u) != 3u) {
        m->reg[R_IRQ_STATUS] |= I_GENERAL_ERROR; /* no field or not transceiving */
        return;
    }
    if (!(m->reg[R_TX_CONFIG] & TX_DATA_ENABLE)) { /* an EOF alone closes the slot */
        if (m->inv_active && m->inv_16 && m->inv_slot < 15) {
            m->inv_slot++;
            pnm_slot(m, T_EOF);
        } else {
            m->inv_active = 0;
            m->air_irq = I_TX | I_TIMER1;
            m->air_until = m->now + T_EOF + T_EMPTY_SLOT;
        }
        return;
    }
    uint32_t tx = T_SOF_EOF + (uint32_t)(n + 2) * T_BYTE_UP; /* + the CRC the PN5180 adds */
    if (n >= 3 && d[1] == 0x01 && d[2] <= 64 && n >= 3 + (d[2] + 7) / 8) {
        m->requests++;
        m->inv_active = 1;
        m->inv_16 = !(d[0] & 0x20);
        m->inv_slot = 0;
        m->inv_mask_len = d[2];
        memset(m->inv_mask, 0, sizeof m->inv_mask);
        memcpy(m->inv_mask, d + 3, (size_t)(d[2] + 7) / 8);
        pnm_slot(m, tx);
        return;
    }
    m->inv_active = 0; /* not an inventory: no tag here answers it */
    m->air_irq = I_TX | I_TIMER1;
    m->air_until = m->now + tx + T_EMPTY_SLOT;
}

static uint32_t pnm_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void pnm_answer32(pn_model_t *m, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        m->reply[i] = (uint8_t)(v >> (8 * i));
    m->reply_len = 4;
    m->reading = 1;
}

/* A whole command frame came in (NSS rose). */
static void pnm_command(pn_model_t *m)
{
    const uint8_t *f = m->frame;
    uint32_t busy = T_REGISTER;
    m->commands++;
    if (m->reading) { /* that frame only clocked out an answer */
        m->reading = 0;
        m->busy = 1;
        m->busy_until = m->now + 1;
        return;
    }
    if (m->flen < 2)
        return;
    uint8_t reg = f[1] & 0x3F;
    switch (f[0]) {
    case 0x00:
    case 0x01:
    case 0x02:
        if (m->flen < 6)
            break;
        if (f[0] == 0x00 && f[1] == R_IRQ_CLEAR)
            m->reg[R_IRQ_STATUS] &= ~pnm_le32(f + 2);
        else if (f[0] == 0x00)
            m->reg[reg] = pnm_le32(f + 2);
        else if (f[0] == 0x01)
            m->reg[reg] |= pnm_le32(f + 2);
        else
            m->reg[reg] &= pnm_le32(f + 2);
        break;
    case 0x04:
        pnm_answer32(m, f[1] == R_RX_STATUS ? m->rx_status : m->reg[reg]);
        break;
    case 0x0A:
        memcpy(m->reply, m->rx, sizeof m->rx);
        m->reply_len = m->rx_len;
        m->reading = 1;
        break;
    case 0x09:
        pnm_send_data(m, f + 2, m->flen - 2);
        break;
    case 0x11:
        m->reg[R_TX_CONFIG] = TX_CONFIG_ISO15693;
        busy = T_RF_CONFIG;
        break;
    case 0x16:
        m->rf_ons++;
        busy = T_RF_ON;
        if (!m->mux_enabled || (m->antenna_fault & (1u << m->mux))) {
            m->reg[R_IRQ_STATUS] |= I_GENERAL_ERROR; /* the driver trips: no field */
        } else {
            m->rf_on = 1;
            m->reg[R_IRQ_STATUS] |= I_TX_RFON;
        }
        break;
    case 0x17:
        m->rf_on = 0;
        m->inv_active = 0; /* the tags lose power */
        m->reg[R_IRQ_STATUS] |= I_TX_RFOFF;
        break;
    default:
        break;
    }
    m->busy = 1; /* taken: BUSY stays up until the command is done */
    m->busy_until = m->now + busy;
}

/* The length at which a command frame is whole, for BUSY's rising edge. */
static int pnm_frame_len(const pn_model_t *m)
{
    if (m->reading)
        return m->reply_len > 0 ? m->reply_len : 1;
    switch (m->frame[0]) {
    case 0x00: case 0x01: case 0x02: return 6;
    case 0x11: return 3;
    default: return 2;
    }
}

void pnm_nss(pn_model_t *m, uint8_t level)
{
    level = level ? 1 : 0;
    if (level == m->nss)
        return;
    m->nss = level;
    if (!m->dead && m->reset_n) {
        if (!level) {
            m->flen = 0;
            m->reply_pos = 0;
        } else {
            pnm_command(m);
        }
    }
    pnm_pins(m);
}

void pnm_reset(pn_model_t *m, uint8_t level)
{
    level = level ? 1 : 0;
    if (level == m->reset_n)
        return;
    m->reset_n = level;
    if (!level) {
        memset(m->reg, 0, sizeof m->reg);
        m->rf_on = m->inv_active = m->reading = 0;
        m->air_irq = 0;
        m->rx_len = 0;
        m->rx_status = 0;
    } else {
        m->reg[R_IRQ_STATUS] = I_IDLE;
        m->busy = 1;
        m->busy_until = m->now + T_BOOT;
    }
    pnm_pins(m);
}

uint8_t pnm_xfer(pn_model_t *m, uint8_t mosi)
{
    uint8_t miso = 0xFF;
    if (m->dead || !m->reset_n || m->nss)
        return 0xFF;
    if (m->reading)
        miso = m->reply_pos < m->reply_len ? m->reply[m->reply_pos] : 0x00;
    m->reply_pos++;
    if (m->flen < (int)sizeof m->frame)
        m->frame[m->flen++] = mosi;
    if (m->flen == pnm_frame_len(m)) { /* the frame is whole: BUSY goes up */
        m->busy = 1;
        m->busy_until = UINT64_MAX;
    }
    if (m->garbage)
        miso = (uint8_t)pnm_rand(m);
    return miso;
}
