/* test_app.c: the whole reader (fg_app) on the host: the scan schedule, the PN5180 layer and
 * the PN5180 model on a virtual clock, its frames parsed back by a decoder written here from
 * the protocol documents. Shoe, felt and chip roles; every fault as a status bit. */
#include "fg_test.h"
#include "host_board.h"

typedef struct rec {
    uint8_t type, reader, antenna, flags, status, part, parts, n;
    uint16_t counter, cycle;
    uint8_t uid[13][8];
    uint32_t ms;
} rec_t;

static host_t H;
static fg_pn5180_hal_t HAL;
static fg_board_t BOARD;
static fg_pn5180_t PN;
static fg_app_t APP;
static fg_queue_t Q;
static uint8_t QBUF[3072];
static rec_t R[4000];
static int NR, BAD;
static uint8_t drain = 1;

/* An independent decoder: SOF, LEN, CRC (bit by bit), then the fields. */
static uint16_t crc_bits(const uint8_t *p, int n)
{
    uint16_t c = 0xFFFF;
    for (int i = 0; i < n; i++)
        for (int b = 7; b >= 0; b--) {
            int in = (p[i] >> b) & 1, top = c >> 15;
            c = (uint16_t)(c << 1);
            if (in ^ top) c ^= 0x1021;
        }
    return c;
}

static void take(void)
{
    static uint8_t buf[256];
    static int len;
    int b;
    while ((b = fg_queue_pop(&Q)) >= 0) {
        buf[len++] = (uint8_t)b;
        if (buf[0] != 0xA5) { BAD++; len = 0; continue; }
        if (len < 2 || len < buf[1] + 4) continue;
        int L = buf[1];
        uint16_t crc = (uint16_t)(buf[L + 2] << 8 | buf[L + 3]);
        if (crc != crc_bits(buf + 1, L + 1) || NR == 4000) { BAD++; len = 0; continue; }
        rec_t *r = &R[NR++];
        memset(r, 0, sizeof *r);
        r->type = buf[2]; r->reader = buf[3]; r->counter = (uint16_t)(buf[4] << 8 | buf[5]);
        r->ms = (uint32_t)(H.us / 1000);
        if (r->type == 0x02) r->status = buf[6];
        if (r->type == 0x01) { r->antenna = buf[6]; r->flags = buf[7]; r->n = 1; memcpy(r->uid[0], buf + 8, 8); }
        if (r->type == 0x10) {
            r->antenna = buf[6]; r->cycle = (uint16_t)(buf[7] << 8 | buf[8]);
            r->part = buf[9]; r->parts = buf[10];
            for (int p = 11; p < L + 2; p += 9) memcpy(r->uid[r->n++], buf + p + 1, 8);
        }
        len = 0;
    }
}

static void start(fg_role_t role)
{
    host_init(&H, &HAL, &BOARD, 11);
    fg_pn_init(&PN, &HAL);
    fg_queue_init(&Q, QBUF, sizeof QBUF);
    fg_app_init(&APP, role, 0, &BOARD, &PN, &Q);
    NR = BAD = 0;
    drain = 1;
}

static void run_ms(uint32_t ms)
{
    uint64_t end = H.us + (uint64_t)ms * 1000u;
    while (H.us < end) {
        uint32_t wait = fg_app_poll(&APP);
        if (drain) take();
        if (wait) h_idle(&H);
    }
}

static uint64_t u64(const uint8_t *u) { uint64_t v = 0; for (int i = 0; i < 8; i++) v = v << 8 | u[i]; return v; }
static void put(uint8_t ant, uint64_t v)
{
    uint8_t u[8];
    for (int i = 0; i < 8; i++) u[i] = (uint8_t)(v >> (56 - 8 * i));
    pnm_place(&H.m, ant, u);
}
static void lift(uint8_t ant, uint64_t v)
{
    uint8_t u[8];
    for (int i = 0; i < 8; i++) u[i] = (uint8_t)(v >> (56 - 8 * i));
    pnm_lift(&H.m, ant, u);
}

static int count(int from, uint8_t type, int antenna, uint64_t uid)
{
    int n = 0;
    for (int i = from; i < NR; i++)
        if (R[i].type == type && (antenna < 0 || R[i].antenna == antenna) &&
            (!uid || (R[i].n && u64(R[i].uid[0]) == uid)))
            n++;
    return n;
}

static uint8_t last_status(void)
{
    for (int i = NR - 1; i >= 0; i--) if (R[i].type == 2) return R[i].status;
    return 0xFF;
}

static int counters_good(void)
{
    if (!NR || R[0].counter != 0) return 0;
    for (int i = 1; i < NR; i++) if (R[i].counter != R[i - 1].counter + 1) return 0;
    return 1;
}

static const uint64_t CARD = 0xE00401A0B1C2D3E4ull, CARD2 = 0xE00401A0B1C2D3F5ull;

int main(void)
{
    /* --- the shoe ------------------------------------------------------------------------ */
    start(FG_ROLE_SHOE);
    run_ms(50);
    CHECK(NR >= 1 && R[0].type == 2 && R[0].counter == 0 && R[0].reader == 1 && R[0].status == 0,
          "power-on: a heartbeat from reader 1 with counter 0");
    H.face_up = 1;
    put(0, CARD);
    int mark = NR;
    run_ms(3000);
    int reads = count(mark, 1, 0, CARD);
    CHECK(reads >= 11 && reads <= 13, "a card held 3 s at the mouth: %d reads (every 250 ms)", reads);
    int first = -1;
    for (int i = mark; i < NR && first < 0; i++) if (R[i].type == 1) first = i;
    CHECK(first >= 0 && R[first].flags == 1 && R[first].ms - 50 <= 20, "read face up within %u ms",
          first >= 0 ? R[first].ms - 50 : 0);
    int beats = count(0, 2, -1, 0);
    CHECK(beats >= 6 && beats <= 8, "3.05 s: %d heartbeats (every 500 ms)", beats);
    CHECK(counters_good() && BAD == 0, "counters 0, 1, 2, ... with no gap; every frame good");
    SAY("shoe: heartbeat at power-on (counter 0); a card face up read within %u ms, then every "
        "250 ms (%d reads in 3 s); %d heartbeats", R[first].ms - 50, reads, beats);
    lift(0, CARD);
    run_ms(100);
    mark = NR;
    run_ms(1000);
    CHECK(count(mark, 1, -1, 0) == 0, "lifted: no more reads");
    H.face_present = 0;
    put(0, CARD2);
    run_ms(1100);
    CHECK(last_status() == FG_ST_FACE_SENSOR_FAULT, "sensor unplugged: FACE_SENSOR_FAULT (%02X)", last_status());
    for (int i = mark; i < NR; i++) if (R[i].type == 1) CHECK(R[i].flags == 0, "face-up unreliable: 0");
    H.face_present = 1;
    run_ms(1100);
    CHECK(last_status() == 0, "sensor back: clear");
    SAY("shoe: lifted card stops its reads; face-up sensor unplugged = FACE_SENSOR_FAULT, FACE_UP 0");

    /* --- the felt ------------------------------------------------------------------------ */
    start(FG_ROLE_FELT);
    put(7, CARD);
    put(7, CARD2);
    put(12, 0xE004010000000012ull);
    run_ms(1000);
    CHECK(count(0, 1, 7, CARD) >= 3 && count(0, 1, 7, CARD2) >= 3 && count(0, 1, 12, 0) >= 3,
          "two cards on seat 7, one on the burn");
    CHECK(count(0, 1, 3, 0) == 0 && R[0].reader == 2, "nothing elsewhere; reader 2");
    for (int i = 0; i < NR; i++) if (R[i].type == 1) CHECK(R[i].flags == 0, "felt: face down");
    SAY("felt: two hole cards on one antenna and a burn card, each read on its own antenna");
    H.m.antenna_fault = 1u << 4;
    run_ms(1100);
    CHECK(last_status() == FG_ST_ANTENNA_FAULT, "antenna 4 open: ANTENNA_FAULT (%02X)", last_status());
    mark = NR;
    run_ms(600);
    CHECK(count(mark, 1, 7, CARD) >= 2, "the other antennas go on: %d", count(mark, 1, 7, CARD));
    H.m.antenna_fault = 0;
    run_ms(2100);
    CHECK(last_status() == 0, "antenna 4 back: clear");
    SAY("felt: an antenna fault is ANTENNA_FAULT while it lasts; the others keep reading");

    /* the front-end dies: heartbeats go on with the fault, no read; then it comes back */
    H.m.dead = 1;
    run_ms(300);
    mark = NR;
    run_ms(2000);
    CHECK(count(mark, 1, -1, 0) == 0, "no read from a dead front-end");
    CHECK(count(mark, 2, -1, 0) >= 3 && last_status() == FG_ST_ANTENNA_FAULT,
          "dead: heartbeats go on, ANTENNA_FAULT");
    H.m.dead = 0;
    mark = NR;
    run_ms(1500);
    CHECK(count(mark, 1, 7, CARD) >= 1 && last_status() == 0, "alive again: reads, fault clear");
    SAY("felt: a dead front-end = ANTENNA_FAULT with heartbeats every 500 ms; reset and back");

    /* garbage: a fault, never a card */
    H.m.garbage = 1;
    mark = NR;
    run_ms(5000);
    int wrong = 0;
    for (int i = mark; i < NR; i++)
        if (R[i].type == 1 && u64(R[i].uid[0]) != CARD && u64(R[i].uid[0]) != CARD2 &&
            u64(R[i].uid[0]) != 0xE004010000000012ull) wrong++;
    CHECK(wrong == 0 && count(mark, 1, -1, 0) == 0, "garbage: %d reads", count(mark, 1, -1, 0));
    CHECK(last_status() == FG_ST_ANTENNA_FAULT && PN.garbage > 0, "garbage: ANTENNA_FAULT");
    H.m.garbage = 0;
    run_ms(1500);
    CHECK(last_status() == 0, "clean: clear");
    SAY("felt: 5 s of garbage from the front-end: %u faults, 0 reads; clear after", PN.garbage);

    /* the queue full (nobody drains the UART): OVERFLOW, and frames dropped whole */
    drain = 0;
    for (uint64_t i = 0; i < 30; i++) put(13, 0xE004010000000100ull + i * 17);
    run_ms(4000);
    drain = 1;
    mark = NR;
    run_ms(1100);
    int overflowed = 0;
    for (int i = mark; i < NR; i++) overflowed += R[i].type == 2 && (R[i].status & FG_ST_OVERFLOW);
    CHECK(overflowed >= 1, "overflow bit after a stall");
    for (uint64_t i = 0; i < 30; i++) lift(13, 0xE004010000000100ull + i * 17);
    run_ms(1100);
    CHECK(!(last_status() & FG_ST_OVERFLOW) && BAD == 0, "then clear; no torn frame");
    SAY("felt: a stalled line fills the queue: OVERFLOW once, no frame torn");

    /* --- the chip reader ----------------------------------------------------------------- */
    start(FG_ROLE_CHIP);
    put(1, 0xE004015012345678ull);
    put(1, 0xE004015012345679ull);
    for (uint64_t i = 0; i < 20; i++) put(11, 0xE004015000000000ull + i * 0x1357);
    run_ms(2000);
    int cycles = 0, ok = 1, lastcycle = -1;
    for (int i = 0; i < NR; i++) {
        if (R[i].type != 0x10) continue;
        if (R[i].antenna == 1 && R[i].part == 0) {
            cycles++;
            ok &= R[i].parts == 1 && R[i].n == 2;
            ok &= lastcycle < 0 || R[i].cycle == lastcycle + 1;
            lastcycle = R[i].cycle;
        }
        if (R[i].antenna == 21) ok &= R[i].parts == 2 && (R[i].part == 0 ? R[i].n == 13 : R[i].n == 7);
        if (R[i].antenna == 5) ok &= R[i].n == 0 && R[i].parts == 1;
    }
    CHECK(ok && cycles >= 4 && R[0].reader == 3, "cycles %d, each antenna's inventory whole", cycles);
    CHECK(count(0, 0x10, 23, 0) == cycles || count(0, 0x10, 23, 0) == cycles - 1, "all 13 antennas a cycle");
    CHECK(count(0, 0x10, 11, 0) == 0, "channel 11 is the pot, id 21");
    CHECK(BAD == 0 && counters_good(), "good frames, consecutive counters");
    SAY("chip: every antenna every cycle (%d cycles in 2 s), 2 chips, 20 chips in 2 parts (the "
        "pot: channel 11, id 21), empties; cycle numbers consecutive", cycles);
    for (int i = 0; i < 300; i++) put(2, 0xE004010000000000ull | (uint64_t)(i * 2654435761u));
    run_ms(3000);
    CHECK(last_status() & FG_ST_COLLISION, "a 300-chip stack: COLLISION (%02X)", last_status());
    int partial = 0;
    for (int i = NR - 1; i >= 0; i--) if (R[i].type == 0x10 && R[i].antenna == 2 && R[i].part == 0) { partial = R[i].parts; break; }
    CHECK(partial >= 1, "its partial inventory is still sent");
    SAY("chip: a tall stack is COLLISION (and CYCLE_OVERRUN: %s), what was read is sent",
        last_status() & FG_ST_CYCLE_OVERRUN ? "yes" : "no");
    H.m.antenna_fault = 1u << 6;
    run_ms(1500);
    CHECK(last_status() & FG_ST_ANTENNA_FAULT, "chip antenna fault");
    mark = NR;
    run_ms(1000);
    CHECK(count(mark, 0x10, 6, 0) == 0 && count(mark, 0x10, 1, 0) >= 1,
          "nothing sent for the faulty antenna (an empty one would say its chips left)");
    SAY("chip: an antenna fault is ANTENNA_FAULT; no inventory for it, the others go on");

    start(FG_ROLE_NONE);
    run_ms(1100);
    CHECK(R[0].reader == 0 && last_status() == FG_ST_ANTENNA_FAULT && count(0, 2, -1, 0) >= 2, "none");
    SAY("no role strapped: heartbeats from reader 0 with ANTENNA_FAULT, nothing scanned");

    DONE("test_app");
}
