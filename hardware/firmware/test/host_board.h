/* host_board.h: the firmware's HAL on the host, wired to the PN5180 model
 * (sim/pn5180_model.c) with a virtual clock. Each SPI byte costs 4.4 us (1.8 MHz SPI), each
 * pin poll 1 us, and idle() jumps to the next thing that can happen (the model's next pin
 * change or the next ms tick), so a test runs seconds of reader time in milliseconds,
 * deterministically. Include in one test program only. */
#ifndef HOST_BOARD_H
#define HOST_BOARD_H

#include "../core/fg_app.h"
#include "../sim/pn5180_model.h"

typedef struct host {
    pn_model_t m;
    uint64_t us;           /* the virtual clock */
    uint8_t face_up, face_present;
    uint8_t led[3];
    uint32_t kicks;
} host_t;

static void h_tick(host_t *h, uint64_t dt)
{
    h->us += dt;
    pnm_advance(&h->m, h->us);
}

static void h_nss(void *c, uint8_t high) { host_t *h = c; h_tick(h, 1); pnm_nss(&h->m, high); }
static uint8_t h_xfer(void *c, uint8_t out) { host_t *h = c; h_tick(h, 4); return pnm_xfer(&h->m, out); }
static uint8_t h_busy(void *c) { host_t *h = c; h_tick(h, 1); return h->m.busy; }
static uint8_t h_irq(void *c) { host_t *h = c; h_tick(h, 1); return h->m.irq; }
static void h_reset(void *c, uint8_t high) { host_t *h = c; h_tick(h, 1); pnm_reset(&h->m, high); }
static uint32_t h_millis(void *c) { host_t *h = c; return (uint32_t)(h->us / 1000u); }
static void h_idle(void *c)
{
    host_t *h = c;
    uint64_t tick = (h->us / 1000u + 1u) * 1000u;
    uint64_t next = pnm_next_event(&h->m);
    h_tick(h, (next < tick && next > h->us ? next : tick) - h->us);
}
static void h_select(void *c, uint8_t antenna) { host_t *h = c; pnm_select(&h->m, antenna, 1); }
static uint8_t h_face_up(void *c) { return ((host_t *)c)->face_up; }
static uint8_t h_face_present(void *c) { return ((host_t *)c)->face_present; }
static void h_led(void *c, uint8_t led, uint8_t on) { ((host_t *)c)->led[led] = on; }
static void h_kick(void *c) { ((host_t *)c)->kicks++; }

static void host_init(host_t *h, fg_pn5180_hal_t *hal, fg_board_t *board, uint32_t seed)
{
    memset(h, 0, sizeof *h);
    pnm_init(&h->m, seed);
    h->face_present = 1;
    *hal = (fg_pn5180_hal_t){h, h_nss, h_xfer, h_busy, h_irq, h_reset, h_millis, h_idle};
    *board = (fg_board_t){h, h_select, h_face_up, h_face_present, h_led, h_millis, h_kick};
}

#endif
