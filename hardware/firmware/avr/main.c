/* main.c: the reader firmware on the ATmega1284P (7.3728 MHz, 3.3 V): the pins of the board
 * (hardware/reader-board.md's pin map), a 1 ms tick, USART0 sending the frame queue by
 * interrupt, the SPI master for the PN5180, the role straps and the EEPROM reader id. The
 * behaviour itself is the portable core's (core/fg_app.c); this file is the shell around it.
 *
 * Between scans the CPU sleeps (idle mode: the timer, the UART and the pin-change interrupts
 * still wake it), so a waiting reader draws little and simavr runs it in real time. A
 * watchdog (1 s) backs up the bounded waits: a firmware that stops looping is reset. */
#include <stdint.h>
#include <avr/io.h>
#include <avr/interrupt.h>
#include <avr/sleep.h>
#include <avr/eeprom.h>
#include <avr/wdt.h>

#include "../core/fg_app.h"

/* Pin map (fw-common, hardware/reader-board.md). */
#define NSS_BIT PB4
#define RESET_BIT PB2
#define BUSY_BIT PB3
#define IRQ_BIT PB1
#define MUX_MASK 0x0Fu      /* PC0..PC3: channel */
#define MUX_ENABLE_BIT PC4
#define FACE_UP_BIT PA0
#define FACE_PRESENT_BIT PA1
#define STRAP_A_BIT PA2
#define STRAP_B_BIT PA3
#define LED_GREEN_BIT PA4
#define LED_AMBER_BIT PA5
#define LED_BLUE_BIT PA6

/* 115200 baud from 7.3728 MHz: 7372800 / 16 / 115200 = 4 exactly, UBRR = 3, U2X = 0. */
#define UBRR_115200 3u
/* The 1 ms tick: timer 1 in CTC mode at F_CPU, 7373 cycles = 1.0000271 ms (27 ppm, inside
 * the crystal's own tolerance; 7372.8 is not a whole count). */
#define TICK_TOP 7372u
/* EEPROM byte 0: the reader id; 0x00 or 0xFF (erased) keep the role's default. */
#define EE_READER_ID ((const uint8_t *)0)

static volatile uint32_t ms_now;
static uint8_t queue_buf[3072];
static fg_queue_t queue;
static fg_pn5180_t pn;
static fg_app_t app;

ISR(TIMER1_COMPA_vect)
{
    ms_now++;
}

/* BUSY or IRQ changed: nothing to do but wake the CPU from its idle sleep. */
EMPTY_INTERRUPT(PCINT1_vect);

ISR(USART0_UDRE_vect)
{
    int16_t b = fg_queue_pop(&queue);
    if (b < 0)
        UCSR0B &= (uint8_t)~(1u << UDRIE0); /* empty: stop until the next kick */
    else
        UDR0 = (uint8_t)b;
}

static uint32_t millis(void *ctx)
{
    (void)ctx;
    uint32_t t;
    uint8_t sreg = SREG;
    cli();
    t = ms_now;
    SREG = sreg;
    return t;
}

static void idle(void *ctx)
{
    (void)ctx;
    wdt_reset();
    set_sleep_mode(SLEEP_MODE_IDLE);
    sleep_enable();
    sei();
    sleep_cpu();
    sleep_disable();
}

static void nss(void *ctx, uint8_t high)
{
    (void)ctx;
    if (high)
        PORTB |= (uint8_t)(1u << NSS_BIT);
    else
        PORTB &= (uint8_t)~(1u << NSS_BIT);
}

static uint8_t xfer(void *ctx, uint8_t out)
{
    (void)ctx;
    SPDR = out;
    /* One byte at F_CPU/4 takes 4.3 us; a SPIF that never comes would be a dead SPI block,
     * which the watchdog answers. */
    while (!(SPSR & (1u << SPIF)))
        ;
    return SPDR;
}

static uint8_t busy(void *ctx)
{
    (void)ctx;
    return (PINB >> BUSY_BIT) & 1u;
}

static uint8_t irq(void *ctx)
{
    (void)ctx;
    return (PINB >> IRQ_BIT) & 1u;
}

static void reset(void *ctx, uint8_t high)
{
    (void)ctx;
    if (high)
        PORTB |= (uint8_t)(1u << RESET_BIT);
    else
        PORTB &= (uint8_t)~(1u << RESET_BIT);
}

static void select(void *ctx, uint8_t antenna)
{
    (void)ctx;
    PORTC = (uint8_t)((PORTC & ~(MUX_MASK | (1u << MUX_ENABLE_BIT))) | (antenna & MUX_MASK) |
                      (1u << MUX_ENABLE_BIT));
}

static uint8_t face_up(void *ctx)
{
    (void)ctx;
    return (PINA >> FACE_UP_BIT) & 1u;
}

static uint8_t face_present(void *ctx)
{
    (void)ctx;
    return (PINA >> FACE_PRESENT_BIT) & 1u;
}

static void led(void *ctx, uint8_t which, uint8_t on)
{
    (void)ctx;
    uint8_t bit = which == FG_LED_GREEN ? LED_GREEN_BIT
                : which == FG_LED_AMBER ? LED_AMBER_BIT : LED_BLUE_BIT;
    if (on)
        PORTA |= (uint8_t)(1u << bit);
    else
        PORTA &= (uint8_t)~(1u << bit);
}

static void kick(void *ctx)
{
    (void)ctx;
    UCSR0B |= (uint8_t)(1u << UDRIE0);
}

static const fg_pn5180_hal_t pn_hal = {NULL, nss, xfer, busy, irq, reset, millis, idle};
static const fg_board_t board = {NULL, select, face_up, face_present, led, millis, kick};

static void setup(void)
{
    /* PC2..PC5 are the JTAG pins: with JTAG on (the factory fuse), PC2..PC4 would not drive
     * the multiplexer. JTD written twice within four cycles turns it off whatever the fuse. */
    MCUCR = (uint8_t)(1u << JTD);
    MCUCR = (uint8_t)(1u << JTD);
    /* Port A: PA0, PA1 inputs without pull-ups (the sensor board drives them; the reader
     * board's pull-down makes PA1 low when it is unplugged), PA2, PA3 strap inputs with
     * pull-ups, PA4..PA6 LEDs. */
    DDRA = (uint8_t)((1u << LED_GREEN_BIT) | (1u << LED_AMBER_BIT) | (1u << LED_BLUE_BIT));
    PORTA = (uint8_t)((1u << STRAP_A_BIT) | (1u << STRAP_B_BIT));
    /* Port B: NSS (high), RESET_N (high), MOSI, SCK outputs; MISO, BUSY, IRQ inputs. SS must
     * be an output for the SPI to stay master. */
    DDRB = (uint8_t)((1u << NSS_BIT) | (1u << RESET_BIT) | (1u << PB5) | (1u << PB7));
    PORTB = (uint8_t)((1u << NSS_BIT) | (1u << RESET_BIT));
    /* Port C: the multiplexer, disabled. */
    DDRC = (uint8_t)(MUX_MASK | (1u << MUX_ENABLE_BIT));
    PORTC = 0;
    /* SPI master, mode 0, MSB first, F_CPU/4 (1.84 MHz; the PN5180 takes up to 7 MHz). */
    SPCR = (uint8_t)((1u << SPE) | (1u << MSTR));
    SPSR = 0;
    /* USART0 115200 8N1, transmit only (the protocol is one-way). */
    UBRR0H = 0;
    UBRR0L = UBRR_115200;
    UCSR0A = 0;
    UCSR0C = (uint8_t)((1u << UCSZ01) | (1u << UCSZ00));
    UCSR0B = (uint8_t)(1u << TXEN0);
    /* The 1 ms tick. */
    TCCR1A = 0;
    TCCR1B = (uint8_t)((1u << WGM12) | (1u << CS10));
    OCR1A = TICK_TOP;
    TIMSK1 = (uint8_t)(1u << OCIE1A);
    /* BUSY (PCINT11) and IRQ (PCINT9) wake the CPU. */
    PCMSK1 = (uint8_t)((1u << PCINT9) | (1u << PCINT11));
    PCICR = (uint8_t)(1u << PCIE1);
}

int main(void)
{
    wdt_enable(WDTO_1S);
    setup();
    /* The straps settle through their pull-ups before they are read. */
    for (volatile uint16_t i = 0; i < 200; i++)
        ;
    uint8_t pins = PINA;
    fg_role_t role = fg_role_from_straps((pins >> STRAP_A_BIT) & 1u, (pins >> STRAP_B_BIT) & 1u);
    uint8_t id = eeprom_read_byte(EE_READER_ID);
    if (id == 0xFFu)
        id = 0;
    fg_queue_init(&queue, queue_buf, sizeof queue_buf);
    fg_pn_init(&pn, &pn_hal);
    fg_app_init(&app, role, id, &board, &pn, &queue);
    sei();
    for (;;) {
        wdt_reset();
        if (fg_app_poll(&app))
            idle(NULL);
    }
}
