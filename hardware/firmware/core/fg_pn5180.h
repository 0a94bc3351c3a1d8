/* fg_pn5180.h: the NXP PN5180 host-interface command layer over an abstract SPI/GPIO HAL, and
 * the ISO 15693 front-end (fg_frontend_t) built on it.
 *
 * References: NXP PN5180 datasheet (PN5180A0xx, rev. 3.x), §11.4 "Host interface" (the SPI
 * frame and the BUSY handshake), §11.4.2 "Host interface commands" (the command bytes below),
 * §11.5 / the register table (the addresses below). Register values travel least significant
 * byte first. Where a bit position was not at hand when this was written it says so beside
 * the constant; each such choice is made once, here.
 *
 * Every wait is bounded: a front-end that stops answering (BUSY stuck, no IRQ) is FG_PN_DEAD;
 * answers that make no sense (register bits that cannot be set, a reply of the wrong length,
 * a uid that is not ISO 15693's) are FG_PN_GARBAGE. Neither ever becomes a tag. */
#ifndef FG_PN5180_H
#define FG_PN5180_H

#include <stdint.h>
#include "fg_iso15693.h"

/* Host interface commands (datasheet §11.4.2). */
#define PN_CMD_WRITE_REGISTER 0x00u          /* reg, value[4] */
#define PN_CMD_WRITE_REGISTER_OR_MASK 0x01u  /* reg, mask[4] */
#define PN_CMD_WRITE_REGISTER_AND_MASK 0x02u /* reg, mask[4] */
#define PN_CMD_READ_REGISTER 0x04u           /* reg; then 4 bytes are read */
#define PN_CMD_SEND_DATA 0x09u               /* valid bits in last byte (0 = 8), data... */
#define PN_CMD_READ_DATA 0x0Au               /* 0x00; then the received bytes are read */
#define PN_CMD_LOAD_RF_CONFIG 0x11u          /* tx config, rx config */
#define PN_CMD_RF_ON 0x16u                   /* 0x00 */
#define PN_CMD_RF_OFF 0x17u                  /* 0x00 */

/* Registers (datasheet register table). */
#define PN_REG_SYSTEM_CONFIG 0x00u  /* bits 0..2 COMMAND: 0 idle, 3 transceive */
#define PN_REG_IRQ_ENABLE 0x01u
#define PN_REG_IRQ_STATUS 0x02u
#define PN_REG_IRQ_CLEAR 0x03u
#define PN_REG_TIMER1_RELOAD 0x0Cu
#define PN_REG_TIMER1_CONFIG 0x0Fu
#define PN_REG_RX_STATUS 0x13u      /* bits 0..8 bytes received, 16 integrity error,
                                       17 protocol error, 18 collision */
#define PN_REG_TX_CONFIG 0x18u
#define PN_REG_RF_STATUS 0x1Du

/* IRQ_STATUS bits (datasheet IRQ_STATUS table). */
#define PN_IRQ_RX (1ul << 0)          /* end of reception */
#define PN_IRQ_TX (1ul << 1)          /* end of transmission */
#define PN_IRQ_IDLE (1ul << 2)        /* set after reset and when a command ends */
#define PN_IRQ_TX_RFOFF (1ul << 8)    /* our field went off */
#define PN_IRQ_TX_RFON (1ul << 9)     /* our field came on */
/* Not at hand: the timer IRQ positions are taken as TIMER0 10, TIMER1 11, TIMER2 12. */
#define PN_IRQ_TIMER1 (1ul << 11)     /* the RX timeout ran out: nobody answered */
#define PN_IRQ_GENERAL_ERROR (1ul << 17)
/* IRQ_STATUS has 20 defined bits (0..19); a 1 above them is not the PN5180 talking. */
#define PN_IRQ_DEFINED 0x000FFFFFul
#define PN_IRQ_WANTED (PN_IRQ_RX | PN_IRQ_TIMER1 | PN_IRQ_GENERAL_ERROR)

#define PN_RX_BYTES_MASK 0x1FFul
#define PN_RX_INTEGRITY_ERROR (1ul << 16)
#define PN_RX_PROTOCOL_ERROR (1ul << 17)
#define PN_RX_COLLISION (1ul << 18)

/* LOAD_RF_CONFIG for ISO 15693 (datasheet, RF configuration table): TX 0x0D "ISO 15693
 * ASK100 26 kbit/s", RX 0x8D "ISO 15693 26 kbit/s". */
#define PN_RF_TX_ISO15693 0x0Du
#define PN_RF_RX_ISO15693 0x8Du
/* To close a 16-slot inventory's slot, the next SEND_DATA sends only an EOF: TX_CONFIG with
 * its data-enable and last-bits fields cleared (the mask NXP's ISO 15693 inventory examples
 * write; the field names were not at hand). */
#define PN_TX_CONFIG_EOF_ONLY_AND 0xFFFFFB3Ful
/* TIMER1 as the reply timeout of a slot, started at the end of our transmission: a slot with
 * no answer ends with TIMER1's IRQ. ISO/IEC 15693-3 §9.1: a tag answers within t1 = 4352/fc
 * (320.9 us) and its SOF takes 75.5 us at the high data rate, so 0.5 ms of silence is an
 * empty slot. Not at hand: TIMER1_CONFIG's bit layout; the value below (enable, start on TX end,
 * stop on RX SOF, 1.695 MHz prescaler) must be checked on the bench. */
#define PN_TIMER1_RELOAD_500US 848ul
#define PN_TIMER1_CONFIG_RX_TIMEOUT 0x00100801ul

/* ISO 15693 reply to INVENTORY: flags, DSFID, uid (8 bytes, least significant first);
 * the PN5180 strips the CRC (ISO/IEC 15693-3 §10.3.1). */
#define PN_ISO_INVENTORY_REPLY 10u
#define PN_ISO_UID_MSB 0xE0u        /* ISO/IEC 15693-3 §4.1: every uid's top byte */
#define PN_ISO_FLAG_ERROR 0x01u     /* response flag bit 1 */

/* Bounded waits, ms (the HAL's clock ticks in ms, so each may last up to 1 ms longer). */
#define PN_BUSY_TIMEOUT_MS 5u       /* a register command ends in microseconds */
#define PN_REPLY_TIMEOUT_MS 25u     /* an ISO 15693 slot ends in under 10 ms */
#define PN_RFON_TIMEOUT_MS 5u
#define PN_RESET_BOOT_MS 5u         /* the PN5180 is ready 2.5 ms after RESET_N rises */
#define PN_FIELD_GUARD_MS 1u        /* tags power up within 1 ms of the field */

typedef enum fg_pn_fault {
    FG_PN_OK = 0,
    FG_PN_DEAD = 1,     /* BUSY or IRQ never came: the front-end does not answer */
    FG_PN_GARBAGE = 2,  /* it answered with something the PN5180 cannot send */
    FG_PN_ANTENNA = 3   /* the field did not come up on this antenna (open or shorted) */
} fg_pn_fault_t;

typedef struct fg_pn5180_hal {
    void *ctx;
    void (*nss)(void *ctx, uint8_t high);
    uint8_t (*xfer)(void *ctx, uint8_t out);   /* one SPI byte out, one in */
    uint8_t (*busy)(void *ctx);
    uint8_t (*irq)(void *ctx);
    void (*reset)(void *ctx, uint8_t high);    /* RESET_N */
    uint32_t (*millis)(void *ctx);
    void (*idle)(void *ctx);                   /* sleep until something may have changed */
} fg_pn5180_hal_t;

typedef struct fg_pn5180 {
    const fg_pn5180_hal_t *hal;
    uint8_t fault;            /* fg_pn_fault_t of the last operation */
    uint32_t tx_config;       /* TX_CONFIG as LOAD_RF_CONFIG left it */
    uint8_t eof_only;         /* TX_CONFIG is set to send only EOFs */
    uint8_t configured;       /* the reply timer is set and TX_CONFIG known, since the reset */
    uint16_t deaths, garbage; /* counters, for the debug console and the tests */
    /* Called while a wait sleeps: the app keeps its heartbeat going through a long
     * inventory (a frame can be queued at any time; the RF does not care). */
    void (*on_idle)(void *arg);
    void *on_idle_arg;
} fg_pn5180_t;

void fg_pn_init(fg_pn5180_t *pn, const fg_pn5180_hal_t *hal);
/* Pulse RESET_N, wait for the boot and check the chip answers sensibly. */
fg_pn_fault_t fg_pn_reset(fg_pn5180_t *pn);
/* Field on for the antenna the multiplexer selects: ISO 15693 RF config, IRQs, the reply
 * timer, RF_ON and the check that the field came up; then the tags' power-up guard time. */
fg_pn_fault_t fg_pn_field_on(fg_pn5180_t *pn);
fg_pn_fault_t fg_pn_field_off(fg_pn5180_t *pn);

/* Raw commands (each returns 0 on a fault, recorded in pn->fault). */
uint8_t fg_pn_write_reg(fg_pn5180_t *pn, uint8_t cmd, uint8_t reg, uint32_t value);
uint8_t fg_pn_read_reg(fg_pn5180_t *pn, uint8_t reg, uint32_t *value);
uint8_t fg_pn_send_data(fg_pn5180_t *pn, const uint8_t *data, uint8_t n);
uint8_t fg_pn_read_data(fg_pn5180_t *pn, uint8_t *data, uint8_t n);

/* The ISO 15693 front-end over this PN5180 (ctx = the fg_pn5180_t). */
void fg_pn_frontend(fg_pn5180_t *pn, fg_frontend_t *fe);

#endif
