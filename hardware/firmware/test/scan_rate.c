/* scan_rate.c: the firmware core's scan rate on the host's virtual clock with the part's real
 * SPI speed (host_board.h: 4 us a byte at 1.8 MHz, the PN5180 model's air timings), beside the
 * simulator's figure (simavr 1.6 takes 100 us for every SPI byte whatever the clock, so its
 * scan rate is lower than the board's). Used by bench/firmware_scan.py.
 *
 *   scan_rate shoe|felt|chip [seconds]
 * prints "scans CH:N,..." (inventories per channel over the seconds), "arrival_ms A,B,..."
 * (cards: a card placed at 16 phases of the schedule, ms to its read frame) and "cycle_ms X"
 * (chips: the mean scan cycle). The loads are bench/firmware_scan.py's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host_board.h"

static host_t H;
static fg_pn5180_hal_t HAL;
static fg_board_t BOARD;
static fg_pn5180_t PN;
static fg_app_t APP;
static fg_queue_t Q;
static uint8_t QBUF[3072];

static void put(uint8_t ch, uint64_t v)
{
    uint8_t u[8];
    for (int i = 0; i < 8; i++) u[i] = (uint8_t)(v >> (56 - 8 * i));
    pnm_place(&H.m, ch, u);
}

/* Run until `until_us`; with `uid` set, stop at the first read frame carrying it. */
static int run(uint64_t until_us, uint64_t uid)
{
    while (H.us < until_us) {
        uint32_t wait = fg_app_poll(&APP);
        int b;
        static uint8_t f[140];
        static int n;
        while ((b = fg_queue_pop(&Q)) >= 0) {
            f[n++] = (uint8_t)b;
            if (n >= 2 && n == f[1] + 4) {
                if (uid && f[2] == 0x01) {
                    uint64_t v = 0;
                    for (int i = 0; i < 8; i++) v = v << 8 | f[8 + i];
                    if (v == uid) { n = 0; return 1; }
                }
                n = 0;
            }
        }
        if (wait) h_idle(&H);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: scan_rate shoe|felt|chip [seconds]\n"); return 2; }
    fg_role_t role = !strcmp(argv[1], "shoe") ? FG_ROLE_SHOE : !strcmp(argv[1], "felt")
                   ? FG_ROLE_FELT : FG_ROLE_CHIP;
    double seconds = argc > 2 ? atof(argv[2]) : 10.0;
    host_init(&H, &HAL, &BOARD, 5);
    fg_pn_init(&PN, &HAL);
    fg_queue_init(&Q, QBUF, sizeof QBUF);
    fg_app_init(&APP, role, 0, &BOARD, &PN, &Q);
    if (role == FG_ROLE_SHOE) {
        put(0, 0xE00401A0B1C20001ull);
    } else if (role == FG_ROLE_FELT) {
        for (uint64_t a = 1; a <= 10; a++) put((uint8_t)a, 0xE00401A0B1C20000ull | a);
        put(1, 0xE00401A0B1C20101ull);
        for (uint64_t n = 0; n < 5; n++) put(11, 0xE00401A0B1C20200ull + n);
    } else {
        for (uint64_t a = 1; a <= 3; a++)
            for (uint64_t n = 0; n < 5; n++) put((uint8_t)a, 0xE004010000000000ull | (a << 8 | n) * 2654435761ull);
        for (uint64_t n = 0; n < 12; n++) put(11, 0xE004010000000000ull | (0xF000 + n) * 2654435761ull);
    }
    run(1000000, 0); /* settle in */
    uint32_t before[16];
    memcpy(before, APP.scans, sizeof before);
    uint16_t cycle0 = APP.cycle;
    uint64_t t0 = H.us;
    run(H.us + (uint64_t)(seconds * 1e6), 0);
    double dt = (double)(H.us - t0) / 1e6;
    printf("scans ");
    for (int ch = 0, first = 1; ch < 16; ch++)
        if (APP.scans[ch] - before[ch]) {
            printf("%s%d:%.2f", first ? "" : ",", ch, (APP.scans[ch] - before[ch]) / dt);
            first = 0;
        }
    printf("\n");
    if (role == FG_ROLE_CHIP) {
        printf("cycle_ms %.1f\n", dt * 1000.0 / (uint16_t)(APP.cycle - cycle0));
        return 0;
    }
    uint8_t ch = role == FG_ROLE_SHOE ? 0 : 5;
    printf("arrival_ms ");
    for (int k = 0; k < 16; k++) {
        uint64_t uid = 0xE00401A0B1C30000ull + (uint64_t)k;
        run(H.us + 137000u + (uint64_t)k * 7919u, 0); /* a different phase each time */
        uint64_t placed = H.us;
        put(ch, uid);
        run(H.us + 5000000u, uid);
        printf("%s%.1f", k ? "," : "", (double)(H.us - placed) / 1000.0);
        uint8_t u[8];
        for (int i = 0; i < 8; i++) u[i] = (uint8_t)(uid >> (56 - 8 * i));
        pnm_lift(&H.m, ch, u);
    }
    printf("\n");
    return 0;
}
