/* fg_schedule.h: the board's role, the fixed scan schedule per role and the heartbeat's status
 * bits per role. Portable C99.
 *
 * Roles are read at power-on from the straps PA2, PA3 (fw pin map): the value
 * (PA2 << 1) | PA3, pulled up, a jumper to ground = 0: 00 shoe, 01 felt, 10 chip; 11 (no jumper
 * fitted) is no role: the board scans nothing and says so with ANTENNA_FAULT in its heartbeat.
 *
 * The schedule, per role (hardware/firmware/README.md, "Scan schedule"):
 *   shoe  antenna 0 (the shoe's mouth), a scan every FG_SHOE_SLOT_MS
 *   felt  antennas 1..14 in turn (seat 1..10, board, burn, muck, aside), one every
 *         FG_FELT_SLOT_MS, so each antenna every 14 x FG_FELT_SLOT_MS
 *   chip  multiplexer channels 1..13 back to back once a cycle, a cycle every FG_CHIP_CYCLE_MS
 *         (chip-protocol.md: cycle_ms, default 250): antenna ids 1..10 (the bet zones of seats
 *         1..10), 21 (pot), 22 (tray), 23 (drop): the chip sensing's default map
 *         (controller/sensing/chips.py). The seats' stacks (11..20) need channels a second
 *         board gives.
 * For the card roles the antenna id is the RF multiplexer channel (PC0..PC3), 0..15. */
#ifndef FG_SCHEDULE_H
#define FG_SCHEDULE_H

#include <stdint.h>

typedef enum fg_role { FG_ROLE_SHOE = 0, FG_ROLE_FELT = 1, FG_ROLE_CHIP = 2, FG_ROLE_NONE = 3 } fg_role_t;

#define FG_SHOE_SLOT_MS 10u
#define FG_FELT_SLOT_MS 10u
#define FG_CHIP_CYCLE_MS 250u
#define FG_HEARTBEAT_MS 500u

/* Heartbeat STATUS bits: card devices (reader-protocol.md) ... */
#define FG_ST_ANTENNA_FAULT 0x01u
#define FG_ST_FACE_SENSOR_FAULT 0x02u  /* shoe only */
#define FG_ST_OVERFLOW 0x04u
#define FG_ST_COLLISION 0x08u
/* ... and chip devices (chip-protocol.md): the same positions for bits 0, 2, 3, plus: */
#define FG_ST_SENSOR_FAULT 0x02u       /* chip: a multiplexer channel does not answer */
#define FG_ST_CYCLE_OVERRUN 0x10u      /* chip only */

typedef struct fg_schedule {
    fg_role_t role;
    uint8_t reader_id;       /* default by role: shoe 1, felt 2, chip 3 (chip-protocol.md) */
    uint8_t n_antennas;
    uint8_t antenna[16];     /* the antenna id each scan's frames carry */
    uint8_t channel[16];     /* the multiplexer channel (0..15) of each */
    uint16_t slot_ms;        /* card roles: from one antenna's scan start to the next's */
    uint16_t cycle_ms;       /* chip role: from one cycle's start to the next's */
    uint8_t inventories;     /* 1: chip frames (whole inventories); 0: card read frames */
    uint8_t status_mask;     /* the STATUS bits this role may send */
} fg_schedule_t;

fg_role_t fg_role_from_straps(uint8_t pa2, uint8_t pa3);
/* The schedule of `role`; `reader_id` 0 keeps the role's default id. */
void fg_schedule_for(fg_role_t role, uint8_t reader_id, fg_schedule_t *s);

#endif
