/* fg_schedule.c: roles, schedules and status masks (see fg_schedule.h). */
#include "fg_schedule.h"

#include <string.h>

fg_role_t fg_role_from_straps(uint8_t pa2, uint8_t pa3)
{
    return (fg_role_t)(((pa2 ? 1u : 0u) << 1) | (pa3 ? 1u : 0u));
}

void fg_schedule_for(fg_role_t role, uint8_t reader_id, fg_schedule_t *s)
{
    memset(s, 0, sizeof *s);
    s->role = role;
    switch (role) {
    case FG_ROLE_SHOE:
        s->reader_id = 1;
        s->n_antennas = 1;
        s->antenna[0] = s->channel[0] = 0;
        s->slot_ms = FG_SHOE_SLOT_MS;
        s->status_mask = FG_ST_ANTENNA_FAULT | FG_ST_FACE_SENSOR_FAULT | FG_ST_OVERFLOW |
                         FG_ST_COLLISION;
        break;
    case FG_ROLE_FELT:
        s->reader_id = 2;
        s->n_antennas = 14;
        for (uint8_t i = 0; i < 14; i++)
            s->antenna[i] = s->channel[i] = (uint8_t)(i + 1u);
        s->slot_ms = FG_FELT_SLOT_MS;
        s->status_mask = FG_ST_ANTENNA_FAULT | FG_ST_OVERFLOW | FG_ST_COLLISION;
        break;
    case FG_ROLE_CHIP:
        s->reader_id = 3;
        s->n_antennas = 13;
        for (uint8_t i = 0; i < 13; i++) {
            s->channel[i] = (uint8_t)(i + 1u);
            s->antenna[i] = (uint8_t)(i < 10 ? i + 1u : i + 11u); /* 11, 12, 13 -> 21, 22, 23 */
        }
        s->cycle_ms = FG_CHIP_CYCLE_MS;
        s->inventories = 1;
        s->status_mask = FG_ST_ANTENNA_FAULT | FG_ST_SENSOR_FAULT | FG_ST_OVERFLOW |
                         FG_ST_COLLISION | FG_ST_CYCLE_OVERRUN;
        break;
    default:
        s->role = FG_ROLE_NONE;
        s->reader_id = 0;
        s->status_mask = FG_ST_ANTENNA_FAULT;
        break;
    }
    if (reader_id)
        s->reader_id = reader_id;
}
