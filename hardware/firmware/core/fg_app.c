/* fg_app.c: the reader's behaviour (see fg_app.h). */
#include "fg_app.h"

#include <string.h>

static uint8_t fg_due(uint32_t now, uint32_t at)
{
    return (int32_t)(now - at) >= 0;
}

static void fg_keep_beating(void *arg);

void fg_app_init(fg_app_t *app, fg_role_t role, uint8_t reader_id, const fg_board_t *board,
                 fg_pn5180_t *pn, fg_queue_t *q)
{
    memset(app, 0, sizeof *app);
    fg_schedule_for(role, reader_id, &app->s);
    app->board = board;
    app->pn = pn;
    app->q = q;
    fg_pn_frontend(pn, &app->fe);
    pn->on_idle = fg_keep_beating;
    pn->on_idle_arg = app;
    fg_tags_init(&app->tags, FG_REPEAT_MS, FG_GONE_AFTER);
    app->inv.uid = app->inv_uid;
    app->inv.cap = FG_INV_MAX;
}

uint8_t fg_app_status(const fg_app_t *app)
{
    uint8_t st = app->sticky;
    if (app->antenna_faults || app->fe_down || app->s.role == FG_ROLE_NONE)
        st |= FG_ST_ANTENNA_FAULT;
    if (app->s.role == FG_ROLE_SHOE && !app->board->face_present(app->board->ctx))
        st |= FG_ST_FACE_SENSOR_FAULT;
    if (app->q->dropped)
        st |= FG_ST_OVERFLOW;
    return (uint8_t)(st & app->s.status_mask);
}

/* Queue one built frame with the current counter; the counter moves only for a frame queued,
 * so the counters on the wire stay consecutive. `reserve` keeps room for the heartbeat. */
static uint8_t fg_emit(fg_app_t *app, const uint8_t *frame, uint8_t len, uint16_t reserve)
{
    if (!len || !fg_queue_push(app->q, frame, len, reserve))
        return 0;
    app->counter = fg_counter_next(app->counter);
    app->board->kick(app->board->ctx);
    return 1;
}

static void fg_heartbeat(fg_app_t *app, uint32_t now)
{
    uint8_t frame[FG_HEARTBEAT_SIZE];
    uint8_t st = fg_app_status(app);
    fg_queue_take_overflow(app->q);
    app->sticky = 0;
    fg_emit(app, frame, fg_frame_heartbeat(frame, app->s.reader_id, app->counter, st), 0);
    app->green ^= 1u;
    const fg_board_t *b = app->board;
    b->led(b->ctx, FG_LED_GREEN, app->green);
    b->led(b->ctx, FG_LED_AMBER, (st & (FG_ST_ANTENNA_FAULT | FG_ST_FACE_SENSOR_FAULT)) != 0);
    app->next_heartbeat += FG_HEARTBEAT_MS;
    if (fg_due(now, app->next_heartbeat)) /* far behind (a long stall): no burst of beats */
        app->next_heartbeat = now + FG_HEARTBEAT_MS;
}

/* The heartbeat, from inside a long inventory's waits too. */
static void fg_keep_beating(void *arg)
{
    fg_app_t *app = arg;
    uint32_t now = app->board->millis(app->board->ctx);
    if (app->started && fg_due(now, app->next_heartbeat))
        fg_heartbeat(app, now);
}

static void fg_front_end_down(fg_app_t *app, uint32_t now)
{
    app->fe_down = 1;
    app->next_retry = now + FG_RETRY_MS;
    /* What the tags were is unknown now: when the front-end is back, each tag is new. */
    fg_tags_init(&app->tags, FG_REPEAT_MS, FG_GONE_AFTER);
}

static void fg_send_reads(fg_app_t *app, uint8_t antenna, uint32_t now)
{
    uint8_t send[FG_INV_MAX];
    uint8_t untracked = 0;
    uint8_t flags = 0;
    const fg_board_t *b = app->board;
    if (app->s.role == FG_ROLE_SHOE && b->face_present(b->ctx) && b->face_up(b->ctx))
        flags = FG_FLAG_FACE_UP; /* with the sensor unplugged FACE_UP is 0, and says so */
    if (!fg_tags_scan(&app->tags, antenna, (const uint8_t(*)[FG_UID_LEN])app->inv.uid,
                      app->inv.n, now, send, &untracked))
        return;
    if (untracked)
        app->sticky |= FG_ST_OVERFLOW;
    for (uint8_t i = 0; i < app->inv.n; i++) {
        if (!send[i])
            continue;
        uint8_t frame[FG_CARD_MAX_LEN + 4u];
        uint8_t len = fg_frame_read(frame, app->s.reader_id, app->counter, antenna, flags,
                                    app->inv.uid[i], FG_UID_LEN);
        if (fg_emit(app, frame, len, FG_HEARTBEAT_SIZE))
            fg_tags_sent(&app->tags, antenna, app->inv.uid[i], now);
        app->last_read = now;
        b->led(b->ctx, FG_LED_BLUE, 1);
    }
}

/* An antenna's inventory goes out whole or not at all: a part missing would make the host
 * drop the cycle anyway, and a heartbeat must still fit behind it. */
static void fg_send_inventory(fg_app_t *app, uint8_t antenna)
{
    uint8_t parts = fg_inventory_parts(app->inv.n);
    uint16_t bytes = (uint16_t)(parts * 13u + app->inv.n * (1u + FG_UID_LEN));
    if ((uint32_t)bytes + FG_HEARTBEAT_SIZE > fg_queue_free(app->q)) {
        app->q->dropped++;
        return;
    }
    for (uint8_t part = 0; part < parts; part++) {
        uint8_t frame[FG_MAX_FRAME];
        uint16_t first = (uint16_t)(part * FG_UIDS_PER_PART);
        uint16_t left = (uint16_t)(app->inv.n - first);
        uint8_t n = (uint8_t)(left < FG_UIDS_PER_PART ? left : FG_UIDS_PER_PART);
        uint8_t len = fg_frame_inventory(frame, app->s.reader_id, app->counter, antenna,
                                         app->cycle, part, parts,
                                         (const uint8_t(*)[FG_UID_LEN])app->inv.uid + first, n);
        fg_emit(app, frame, len, FG_HEARTBEAT_SIZE);
    }
    if (app->inv.n) {
        app->last_read = app->board->millis(app->board->ctx);
        app->board->led(app->board->ctx, FG_LED_BLUE, 1);
    }
}

/* Select, field on, inventory, field off; then the frames. `i` indexes the schedule. */
static void fg_scan(fg_app_t *app, uint8_t i)
{
    const fg_board_t *b = app->board;
    uint8_t antenna = app->s.antenna[i], channel = app->s.channel[i];
    uint16_t bit = (uint16_t)(1u << (channel & 15u));
    b->select(b->ctx, channel);
    fg_pn_fault_t f = fg_pn_field_on(app->pn);
    uint32_t now = b->millis(b->ctx);
    if (f == FG_PN_ANTENNA) {
        /* Nothing is sent for it: an empty inventory would say its chips were taken. */
        app->antenna_faults |= bit;
        return;
    }
    if (f != FG_PN_OK) {
        fg_front_end_down(app, now);
        return;
    }
    app->antenna_faults &= (uint16_t)~bit;
    if (app->s.inventories)
        fg_iso_inventory(&app->fe, &app->inv, FG_CHIP_BUDGET_SLOTS, FG_CHIP_BUDGET_MS,
                         FG_MAX_DEPTH);
    else
        fg_iso_inventory(&app->fe, &app->inv, FG_CARD_BUDGET_SLOTS, FG_CARD_BUDGET_MS,
                         FG_MAX_DEPTH);
    uint8_t err = app->inv.error;
    if (fg_pn_field_off(app->pn) != FG_PN_OK)
        err = 1;
    now = b->millis(b->ctx);
    if (err) { /* a failed inventory is no inventory: none of it is sent */
        fg_front_end_down(app, now);
        return;
    }
    app->scans[channel & 15u]++;
    if (app->inv.unresolved)
        app->sticky |= FG_ST_COLLISION;
    if (app->s.inventories)
        fg_send_inventory(app, antenna);
    else
        fg_send_reads(app, antenna, now);
}

uint32_t fg_app_poll(fg_app_t *app)
{
    const fg_board_t *b = app->board;
    uint32_t now = b->millis(b->ctx);
    if (!app->started) {
        app->started = 1;
        app->next_heartbeat = now;          /* the first frame, counter 0, says "powered on" */
        app->next_slot = app->cycle_start = now;
        app->next_retry = now;              /* reset the front-end before the first scan */
    }
    if (fg_due(now, app->next_heartbeat))
        fg_heartbeat(app, now);
    if (app->last_read && (uint32_t)(now - app->last_read) >= FG_READ_LED_MS) {
        app->last_read = 0;
        b->led(b->ctx, FG_LED_BLUE, 0);
    }
    if (app->s.role == FG_ROLE_NONE || !app->s.n_antennas)
        return (uint32_t)(app->next_heartbeat - now);
    if (app->fe_down || !app->fe_ready) {
        if (!fg_due(now, app->next_retry))
            return (uint32_t)(app->next_retry - now);
        if (fg_pn_reset(app->pn) != FG_PN_OK) {
            fg_front_end_down(app, b->millis(b->ctx));
            return 0;
        }
        app->fe_down = 0;
        app->fe_ready = 1;
        app->slot = 0;
        app->next_slot = app->cycle_start = b->millis(b->ctx);
        return 0;
    }
    if (app->s.inventories) {
        /* chip role: the antennas back to back from the cycle's start, then wait for the next */
        if (app->slot == 0 && !fg_due(now, app->next_slot))
            return (uint32_t)(app->next_slot - now);
        if (app->slot == 0)
            app->cycle_start = now;
        fg_scan(app, app->slot);
        if (app->fe_down) {
            /* The cycle is cut short: its number is spent, so the antennas already sent are
             * never sent again under it. */
            if (app->slot)
                app->cycle++;
            return 0;
        }
        if (++app->slot == app->s.n_antennas) {
            app->slot = 0;
            app->cycle++;
            app->next_slot = app->cycle_start + app->s.cycle_ms;
            now = b->millis(b->ctx);
            if (fg_due(now, app->next_slot) && now != app->next_slot) {
                app->sticky |= FG_ST_CYCLE_OVERRUN;
                app->next_slot = now;
            }
        }
        return 0;
    }
    /* card roles: an antenna every slot_ms, in turn */
    if (!fg_due(now, app->next_slot))
        return (uint32_t)(app->next_slot - now);
    fg_scan(app, app->slot);
    app->slot = (uint8_t)((app->slot + 1u) % app->s.n_antennas);
    app->next_slot += app->s.slot_ms;
    now = b->millis(b->ctx);
    if (fg_due(now, app->next_slot))
        app->next_slot = now; /* behind: scan on at once, never in a burst to catch up */
    return 0;
}
