/* fg_app.h: the reader's whole behaviour, portable: the scan schedule, the front-end's
 * faults and recovery, the debounce, the frames and the heartbeat. The AVR shell
 * (hardware/firmware/avr/) gives it a clock, the pins and the UART; the host tests give it
 * fakes. Nothing here blocks for longer than one antenna's bounded inventory. */
#ifndef FG_APP_H
#define FG_APP_H

#include <stdint.h>
#include "fg_proto.h"
#include "fg_tags.h"
#include "fg_schedule.h"
#include "fg_iso15693.h"
#include "fg_pn5180.h"

#define FG_INV_MAX 128u           /* uids one antenna's inventory holds (a 128-chip stack) */
/* Budgets of one antenna's inventory. A slot with a reply takes ~4.5 ms of air, an empty one
 * ~1.2 ms (ISO/IEC 15693-2 at 26.48 kbit/s); n tags take about 2n slots. */
#define FG_CARD_BUDGET_SLOTS 200u /* a card zone: a muck of 40 cards in ~80 slots, ~200 ms */
#define FG_CARD_BUDGET_MS 250u
#define FG_CHIP_BUDGET_SLOTS 400u /* a chip zone: a stack of 60 chips in ~130 slots, ~330 ms */
#define FG_CHIP_BUDGET_MS 400u
#define FG_MAX_DEPTH 4u           /* 16^5 leaves: deeper than this is not a stack, it's noise */
#define FG_RETRY_MS 500u          /* a dead front-end is reset and tried again this often */
#define FG_READ_LED_MS 100u

enum { FG_LED_GREEN = 0, FG_LED_AMBER = 1, FG_LED_BLUE = 2 };

typedef struct fg_board {
    void *ctx;
    void (*select)(void *ctx, uint8_t antenna);  /* RF multiplexer channel, enabled */
    uint8_t (*face_up)(void *ctx);               /* PA0 */
    uint8_t (*face_present)(void *ctx);          /* PA1 */
    void (*led)(void *ctx, uint8_t led, uint8_t on);
    uint32_t (*millis)(void *ctx);
    void (*kick)(void *ctx);                     /* frames were queued: start sending */
} fg_board_t;

typedef struct fg_app {
    fg_schedule_t s;
    const fg_board_t *board;
    fg_pn5180_t *pn;
    fg_frontend_t fe;
    fg_queue_t *q;
    uint16_t counter;          /* the next frame's counter */
    uint8_t sticky;            /* OVERFLOW, COLLISION, CYCLE_OVERRUN since the last heartbeat */
    uint16_t antenna_faults;   /* a bit per channel whose field did not come up */
    uint8_t fe_down;           /* the front-end is dead or talking garbage */
    uint8_t fe_ready;          /* reset and checked since power-on */
    uint8_t started;
    uint8_t slot;              /* index into s.antenna of the next antenna to scan */
    uint8_t green;
    uint16_t cycle;            /* chip role: the scan cycle number */
    uint32_t next_heartbeat, next_slot, next_retry, cycle_start, last_read;
    uint32_t scans[16];        /* inventories done per channel (the scan rate) */
    fg_tags_t tags;
    fg_inventory_t inv;
    uint8_t inv_uid[FG_INV_MAX][FG_UID_LEN];
} fg_app_t;

void fg_app_init(fg_app_t *app, fg_role_t role, uint8_t reader_id, const fg_board_t *board,
                 fg_pn5180_t *pn, fg_queue_t *q);
/* Do whatever is due now; returns the ms until something is next due (0: call again). */
uint32_t fg_app_poll(fg_app_t *app);
/* The STATUS byte the next heartbeat would carry (its since-the-last bits included). */
uint8_t fg_app_status(const fg_app_t *app);

#endif
