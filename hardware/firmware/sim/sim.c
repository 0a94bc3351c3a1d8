/* sim.c: the reader firmware's simulator harness. It loads firmware.elf into a simulated
 * ATmega1284P at 7.3728 MHz (libsimavr), bridges USART0 to a pseudo-terminal, and puts a
 * PN5180 (pn5180_model.c) with its tags on the SPI bus and the BUSY, IRQ, NSS and RESET_N
 * lines, behind the RF multiplexer on PC0..PC4, with the face-up sensor on PA0/PA1 and the
 * role straps on PA2/PA3 (the pin map of hardware/reader-board.md).
 *
 *   feltguard-reader-sim firmware.elf [--role shoe|felt|chip] [--link PATH] [--seed N]
 *
 * The first line on stdout is the pty's path (the slave; --link also symlinks it at PATH, as
 * the drivers' pty twins do). Then it reads commands on stdin, one a line, and answers each
 * with "ok ..." or one "error: ..." line. ANT is the multiplexer channel, 0..15: for the shoe
 * and the felt it is the antenna id; the chip board sends channels 11, 12, 13 as ids 21, 22, 23
 * (core/fg_schedule.h).
 *   place ANT UID        a tag (16 hex digits, E0...) put on antenna ANT
 *   lift ANT UID         taken off
 *   stack ANT N [FIRST]  N tags put on ANT at once (uids E00401 + 10 hex digits from FIRST)
 *   clear ANT            every tag off ANT
 *   move SRC DST         every tag on SRC moved to DST in one instant (chips pushed to the pot)
 *   faceup 0|1           the shoe's face-up sensor's output (PA0)
 *   facesensor 0|1       the sensor plugged in (PA1)
 *   antenna_fault ANT 0|1  the antenna open (RF_ON fails on its channel)
 *   frontend dead|alive  the PN5180 stops answering (BUSY stuck, MISO 0xFF) or comes back
 *   garbage on|off       random bytes on MISO
 *   stats                "ok t_ms=... scans=A:N,... requests=... slots=..." (the scan rate)
 *   quit
 * Simulated time is paced to the wall clock (never ahead of it), so the firmware's 500 ms
 * heartbeat is 500 ms for the host reading the pty. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <sim_avr.h>
#include <sim_elf.h>
#include <sim_irq.h>
#include <sim_io.h>
#include <sim_cycle_timers.h>
#include <sim_time.h>
#include <avr_ioport.h>
#include <avr_uart.h>
#include <avr_spi.h>

#include "pn5180_model.h"

#define F_CPU 7372800u

static avr_t *avr;
static pn_model_t model;
static int pty_master = -1;
static avr_irq_t *pin_busy, *pin_irq, *pin_face_up, *pin_face_present, *spi_in;
static uint8_t mux_bits, mux_enable;
static uint32_t scans[16];
static uint32_t last_rf_ons;
static unsigned long bytes_dropped, bytes_sent;
static unsigned long spi_bytes;
static avr_cycle_count_t spi_last, spi_gap_min = ~(avr_cycle_count_t)0;
static uint8_t port_a; /* what drives PA0..PA3 from outside: the sensor and the straps */
/* Our answers; simavr's own messages go to stderr (fd 1 is pointed there). */
static FILE *out;

static uint64_t now_us(void)
{
    return avr_cycles_to_usec(avr, avr->cycle);
}

static avr_cycle_count_t model_timer(avr_t *a, avr_cycle_count_t when, void *param);

/* After anything the model did: its pins to the AVR, and a timer for its next change. */
static void sync_model(void)
{
    pnm_advance(&model, now_us());
    avr_raise_irq(pin_busy, model.busy);
    avr_raise_irq(pin_irq, model.irq);
    if (model.rf_ons != last_rf_ons) { /* an antenna scan begins: count it for the scan rate */
        last_rf_ons = model.rf_ons;
        scans[model.mux & 15u]++;
    }
    avr_cycle_timer_cancel(avr, model_timer, NULL);
    uint64_t next = pnm_next_event(&model);
    if (next != PNM_NO_EVENT) {
        uint64_t now = now_us();
        uint32_t dt = next > now ? (uint32_t)(next - now) : 1u;
        avr_cycle_timer_register_usec(avr, dt, model_timer, NULL);
    }
}

static avr_cycle_count_t model_timer(avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)a; (void)when; (void)param;
    /* re-registered by sync_model if there is more to come */
    pnm_advance(&model, now_us());
    avr_raise_irq(pin_busy, model.busy);
    avr_raise_irq(pin_irq, model.irq);
    uint64_t next = pnm_next_event(&model);
    if (next == PNM_NO_EVENT)
        return 0;
    uint64_t now = now_us();
    return avr->cycle + avr_usec_to_cycles(avr, next > now ? (uint32_t)(next - now) : 1u);
}

static void on_spi(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq; (void)param;
    spi_bytes++;
    if (spi_last && avr->cycle - spi_last < spi_gap_min)
        spi_gap_min = avr->cycle - spi_last; /* the shortest byte-to-byte time: the bus speed */
    spi_last = avr->cycle;
    pnm_advance(&model, now_us());
    uint8_t miso = pnm_xfer(&model, (uint8_t)value);
    avr_raise_irq(spi_in, miso);
    sync_model();
}

static void on_nss(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq; (void)param;
    pnm_advance(&model, now_us());
    pnm_nss(&model, (uint8_t)value);
    sync_model();
}

static void on_reset(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq; (void)param;
    pnm_advance(&model, now_us());
    pnm_reset(&model, (uint8_t)value);
    sync_model();
}

static void on_mux(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    uintptr_t bit = (uintptr_t)param;
    if (bit == 4)
        mux_enable = value ? 1 : 0;
    else
        mux_bits = (uint8_t)((mux_bits & ~(1u << bit)) | ((value ? 1u : 0u) << bit));
    pnm_select(&model, mux_bits, mux_enable);
}

static void on_uart(avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq; (void)param;
    uint8_t b = (uint8_t)value;
    if (write(pty_master, &b, 1) == 1)
        bytes_sent++;
    else
        bytes_dropped++; /* nobody reads the line: the byte is lost, as on a wire */
}

/* simavr's own sleep would usleep; the main loop paces instead, sleeping or running. */
static void no_sleep(avr_t *a, avr_cycle_count_t howlong)
{
    (void)a; (void)howlong;
}

/* The sensor and strap lines are driven from outside (no pull-up of the AVR's can override
 * them): simavr's "external" state of port A, and the pins' values now. */
static void drive_port_a(void)
{
    avr_ioport_external_t ext = {.name = 'A', .mask = 0x0F, .value = port_a};
    avr_ioctl(avr, AVR_IOCTL_IOPORT_SET_EXTERNAL('A'), &ext);
    avr_raise_irq(pin_face_up, port_a & 1u);
    avr_raise_irq(pin_face_present, (port_a >> 1) & 1u);
}

static int parse_ant(const char *s, uint8_t *ant)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < 0 || v > 15)
        return -1;
    *ant = (uint8_t)v;
    return 0;
}

static void answer(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void answer(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(out, fmt, ap);
    va_end(ap);
    fputc('\n', out);
    fflush(out);
}

static void command(char *line)
{
    char *argv[6] = {0};
    int argc = 0;
    for (char *tok = strtok(line, " \t\r\n"); tok && argc < 6; tok = strtok(NULL, " \t\r\n"))
        argv[argc++] = tok;
    if (!argc)
        return;
    const char *c = argv[0];
    uint8_t ant, uid[8];
    if ((!strcmp(c, "place") || !strcmp(c, "lift")) && argc == 3) {
        if (parse_ant(argv[1], &ant) || pnm_parse_uid(argv[2], uid))
            return answer("error: %s ANT UID: ANT 0..15, UID 16 hex digits", c);
        if (!strcmp(c, "place"))
            return pnm_place(&model, ant, uid) ? answer("error: the model holds %d tags at most",
                                                        PNM_MAX_TAGS) : answer("ok");
        return pnm_lift(&model, ant, uid) ? answer("error: no tag %s on antenna %u", argv[2], ant)
                                          : answer("ok");
    }
    if (!strcmp(c, "stack") && (argc == 3 || argc == 4)) {
        char *end;
        long n = strtol(argv[2], &end, 10);
        unsigned long long first = argc == 4 ? strtoull(argv[3], NULL, 16) : 0x1000ull;
        if (parse_ant(argv[1], &ant) || *end || n < 1 || n > PNM_MAX_TAGS)
            return answer("error: stack ANT N [FIRST]: ANT 0..15, N 1..%d", PNM_MAX_TAGS);
        for (long i = 0; i < n; i++) {
            unsigned long long v = 0xE004010000000000ull | ((first + (unsigned long long)i *
                                                              2654435761ull) & 0xFFFFFFFFFFull);
            for (int k = 0; k < 8; k++)
                uid[k] = (uint8_t)(v >> (56 - 8 * k));
            if (pnm_place(&model, ant, uid))
                return answer("error: the model holds %d tags at most", PNM_MAX_TAGS);
        }
        return answer("ok");
    }
    if (!strcmp(c, "clear") && argc == 2) {
        if (parse_ant(argv[1], &ant))
            return answer("error: clear ANT: ANT 0..15");
        for (int i = model.ntags - 1; i >= 0; i--)
            if (model.tag[i].antenna == ant)
                model.tag[i] = model.tag[--model.ntags];
        return answer("ok");
    }
    if (!strcmp(c, "move") && argc == 3) {
        uint8_t dst;
        if (parse_ant(argv[1], &ant) || parse_ant(argv[2], &dst))
            return answer("error: move SRC DST: 0..15 each");
        for (int i = 0; i < model.ntags; i++)
            if (model.tag[i].antenna == ant)
                model.tag[i].antenna = dst;
        return answer("ok");
    }
    if ((!strcmp(c, "faceup") || !strcmp(c, "facesensor")) && argc == 2 &&
        (!strcmp(argv[1], "0") || !strcmp(argv[1], "1"))) {
        uint8_t bit = !strcmp(c, "faceup") ? 0 : 1;
        port_a = (uint8_t)((port_a & ~(1u << bit)) | ((argv[1][0] == '1') << bit));
        drive_port_a();
        return answer("ok");
    }
    if (!strcmp(c, "antenna_fault") && argc == 3 && !parse_ant(argv[1], &ant) &&
        (!strcmp(argv[2], "0") || !strcmp(argv[2], "1"))) {
        if (argv[2][0] == '1')
            model.antenna_fault |= (uint16_t)(1u << ant);
        else
            model.antenna_fault &= (uint16_t)~(1u << ant);
        return answer("ok");
    }
    if (!strcmp(c, "frontend") && argc == 2 && (!strcmp(argv[1], "dead") || !strcmp(argv[1], "alive"))) {
        model.dead = !strcmp(argv[1], "dead");
        sync_model();
        return answer("ok");
    }
    if (!strcmp(c, "garbage") && argc == 2 && (!strcmp(argv[1], "on") || !strcmp(argv[1], "off"))) {
        model.garbage = !strcmp(argv[1], "on");
        return answer("ok");
    }
    if (!strcmp(c, "stats") && argc == 1) {
        char buf[512];
        int n = 0;
        for (int a = 0; a < 16; a++)
            if (scans[a])
                n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%d:%u", n ? "," : "", a, scans[a]);
        buf[n] = 0;
        return answer("ok t_ms=%llu scans=%s requests=%u slots=%u bytes_sent=%lu "
                      "bytes_dropped=%lu spi_bytes=%lu spi_byte_us=%.1f",
                      (unsigned long long)(now_us() / 1000u), n ? buf : "-", model.requests,
                      model.slots, bytes_sent, bytes_dropped, spi_bytes,
                      spi_bytes > 1 ? (double)spi_gap_min * 1e6 / F_CPU : 0.0);
    }
    if (!strcmp(c, "quit"))
        exit(0);
    answer("error: unknown command or arguments: %s (place, lift, stack, clear, move, faceup, "
           "facesensor, antenna_fault, frontend, garbage, stats, quit)", c);
}

static void read_stdin(void)
{
    static char line[256];
    static size_t len;
    fd_set fds;
    struct timeval tv = {0, 0};
    FD_ZERO(&fds);
    FD_SET(0, &fds);
    if (select(1, &fds, NULL, NULL, &tv) <= 0)
        return;
    char buf[256];
    ssize_t n = read(0, buf, sizeof buf);
    if (n == 0)
        exit(0); /* stdin closed: the test is done with us */
    for (ssize_t i = 0; i < n; i++) {
        if (buf[i] == '\n') {
            line[len] = 0;
            command(line);
            len = 0;
        } else if (len < sizeof line - 1) {
            line[len++] = buf[i];
        }
    }
}

static uint64_t wall_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static void usage(void)
{
    fprintf(stderr, "usage: feltguard-reader-sim firmware.elf [--role shoe|felt|chip] "
                    "[--link PATH] [--seed N]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *elf = NULL, *link_path = NULL, *role = "felt";
    out = fdopen(dup(1), "w");
    dup2(2, 1);
    uint32_t seed = 29;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--role") && i + 1 < argc) role = argv[++i];
        else if (!strcmp(argv[i], "--link") && i + 1 < argc) link_path = argv[++i];
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (argv[i][0] != '-' && !elf) elf = argv[i];
        else usage();
    }
    uint8_t strap_a, strap_b; /* (PA2 << 1) | PA3: 00 shoe, 01 felt, 10 chip */
    if (!strcmp(role, "shoe")) { strap_a = 0; strap_b = 0; }
    else if (!strcmp(role, "felt")) { strap_a = 0; strap_b = 1; }
    else if (!strcmp(role, "chip")) { strap_a = 1; strap_b = 0; }
    else { fprintf(stderr, "error: --role must be shoe, felt or chip, not %s\n", role); return 2; }
    if (!elf) usage();

    elf_firmware_t fw;
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(elf, &fw)) {
        fprintf(stderr, "error: cannot read %s as an AVR ELF image\n", elf);
        return 1;
    }
    avr = avr_make_mcu_by_name("atmega1284p");
    if (!avr) {
        fprintf(stderr, "error: this simavr does not model the atmega1284p\n");
        return 1;
    }
    avr_init(avr);
    avr->log = 0;
    avr->frequency = F_CPU;
    avr_load_firmware(avr, &fw);
    avr->frequency = F_CPU;
    avr->sleep = no_sleep;
    avr->log = 0;

    /* the pty */
    int slave;
    char name[128];
    if (openpty(&pty_master, &slave, name, NULL, NULL)) {
        fprintf(stderr, "error: openpty: %s\n", strerror(errno));
        return 1;
    }
    struct termios t;
    tcgetattr(pty_master, &t);
    cfmakeraw(&t);
    tcsetattr(pty_master, TCSANOW, &t);
    tcgetattr(slave, &t);
    cfmakeraw(&t);
    tcsetattr(slave, TCSANOW, &t);
    fcntl(pty_master, F_SETFL, fcntl(pty_master, F_GETFL) | O_NONBLOCK);
    /* the slave stays open here too, so the line never hangs up between readers */
    if (link_path) {
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s.%d.tmp", link_path, (int)getpid());
        unlink(tmp);
        if (symlink(name, tmp) || rename(tmp, link_path)) {
            fprintf(stderr, "error: cannot link %s: %s\n", link_path, strerror(errno));
            return 1;
        }
    }
    answer("%s", name);

    /* the UART: bytes to the pty, not to simavr's console */
    uint32_t flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    flags &= ~(uint32_t)AVR_UART_FLAG_STDIO;
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                            on_uart, NULL);
    /* the SPI bus and the PN5180's lines */
    spi_in = avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_OUTPUT),
                            on_spi, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), IOPORT_IRQ_PIN4),
                            on_nss, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), IOPORT_IRQ_PIN2),
                            on_reset, NULL);
    pin_busy = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), IOPORT_IRQ_PIN3);
    pin_irq = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), IOPORT_IRQ_PIN1);
    for (uintptr_t bit = 0; bit <= 4; bit++)
        avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('C'), (int)bit),
                                on_mux, (void *)bit);
    /* the sensor and the straps */
    pin_face_up = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('A'), IOPORT_IRQ_PIN0);
    pin_face_present = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('A'), IOPORT_IRQ_PIN1);
    port_a = (uint8_t)(0x02u | (strap_a << 2) | (strap_b << 3)); /* sensor plugged, face down */
    drive_port_a();
    avr_raise_irq(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('A'), IOPORT_IRQ_PIN2), strap_a);
    avr_raise_irq(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('A'), IOPORT_IRQ_PIN3), strap_b);

    pnm_init(&model, seed);
    sync_model();

    uint64_t wall0 = wall_us();
    uint64_t next_input = 0;
    for (;;) {
        for (int i = 0; i < 2000; i++) {
            int state = avr_run(avr);
            if (state == cpu_Done || state == cpu_Crashed) {
                fprintf(stderr, "error: the firmware stopped (state %d) at %llu us\n", state,
                        (unsigned long long)now_us());
                return 1;
            }
        }
        uint64_t sim = now_us(), wall = wall_us() - wall0;
        if (sim > wall + 500)
            usleep((useconds_t)(sim - wall));
        if (sim >= next_input || wall >= next_input) {
            read_stdin();
            next_input = sim + 2000;
        }
    }
}
