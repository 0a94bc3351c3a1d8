/* pn5180_model.h: a PN5180 front-end and the ISO 15693 tags in front of it, modelled at the
 * pins: SPI bytes in and out, NSS, BUSY, IRQ and RESET_N, and the RF multiplexer's channel.
 *
 * Plain C99 with no simavr in it, so the same model serves the simulator harness (sim.c wires
 * it to the simulated ATmega1284P's pins) and the host unit tests (hardware/firmware/test/).
 * It implements the commands and registers the firmware uses (fg_pn5180.h), with the BUSY
 * handshake, IRQ_STATUS/IRQ_ENABLE driving the IRQ line, and INVENTORY replies with real slot
 * behaviour: in each slot, the tags on the selected antenna whose uid bits match answer; none is
 * an empty slot (TIMER1's reply timeout), one a good reply, two or more a collision.
 * Timings are the air's (ISO/IEC 15693-2 at 26.48 kbit/s) so the simulated scan rate is real.
 *
 * Faults: `dead` holds BUSY high and MISO at 0xFF (a chip that stopped answering), `garbage`
 * puts random bytes on MISO, an antenna fault makes RF_ON fail on that channel. */
#ifndef PN5180_MODEL_H
#define PN5180_MODEL_H

#include <stdint.h>

#define PNM_MAX_TAGS 512
#define PNM_NO_EVENT UINT64_MAX

typedef struct pnm_tag {
    uint8_t uid[8]; /* most significant byte first (E0 ...) */
    uint8_t antenna;
} pnm_tag_t;

typedef struct pn_model {
    pnm_tag_t tag[PNM_MAX_TAGS];
    int ntags;
    uint16_t antenna_fault;   /* a bit per multiplexer channel */
    uint8_t dead, garbage;
    uint8_t mux, mux_enabled;

    /* pins */
    uint8_t nss, reset_n, busy, irq;
    /* the host interface */
    uint8_t frame[64];
    int flen;
    uint8_t reply[64];        /* what the next frame clocks out (a READ_* answer) */
    int reply_len, reply_pos;
    uint8_t reading;          /* the next frame is the answer of a READ_* */
    uint32_t reg[0x40];
    uint8_t rf_on;
    /* the air */
    uint8_t inv_active, inv_16, inv_slot, inv_mask_len;
    uint8_t inv_mask[8];
    uint8_t rx[16];
    int rx_len;
    uint32_t rx_status;
    /* time, in microseconds */
    uint64_t now;
    uint64_t busy_until;      /* BUSY falls then */
    uint64_t air_until;       /* the slot's IRQ rises then */
    uint32_t air_irq;         /* the IRQ_STATUS bits it sets */
    uint32_t rng;
    /* what it saw, for the tests and the scan-rate figure */
    uint32_t requests, slots, commands, rf_ons;
} pn_model_t;

void pnm_init(pn_model_t *m, uint32_t seed);
/* Pins from the MCU. Each returns nothing; read the model's pins after. */
void pnm_nss(pn_model_t *m, uint8_t level);
void pnm_reset(pn_model_t *m, uint8_t level);
uint8_t pnm_xfer(pn_model_t *m, uint8_t mosi); /* one SPI byte: MOSI in, MISO out */
void pnm_select(pn_model_t *m, uint8_t channel, uint8_t enabled);
/* Move the model's clock to `now_us` and update BUSY and IRQ. */
void pnm_advance(pn_model_t *m, uint64_t now_us);
/* When BUSY or IRQ will next change by itself (PNM_NO_EVENT: not on its own). */
uint64_t pnm_next_event(const pn_model_t *m);

/* The world: tags placed and lifted (0 ok, -1 bad argument or full), faults. */
int pnm_place(pn_model_t *m, uint8_t antenna, const uint8_t uid[8]);
int pnm_lift(pn_model_t *m, uint8_t antenna, const uint8_t uid[8]);
int pnm_parse_uid(const char *hex, uint8_t uid[8]);

#endif
