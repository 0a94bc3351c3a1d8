/* fg_tags.c: debounce and repeat policy (see fg_tags.h). */
#include "fg_tags.h"

#include <string.h>

void fg_tags_init(fg_tags_t *t, uint16_t repeat_ms, uint8_t gone_after)
{
    memset(t, 0, sizeof *t);
    t->repeat_ms = repeat_ms;
    t->gone_after = gone_after ? gone_after : 1u;
}

static int16_t fg_tags_find(const fg_tags_t *t, uint8_t antenna, const uint8_t *uid)
{
    for (uint8_t i = 0; i < t->n; i++)
        if (t->tag[i].antenna == antenna && memcmp(t->tag[i].uid, uid, FG_UID_LEN) == 0)
            return i;
    return -1;
}

uint8_t fg_tags_scan(fg_tags_t *t, uint8_t antenna, const uint8_t (*seen)[FG_UID_LEN],
                     uint8_t n, uint32_t now, uint8_t *send, uint8_t *untracked)
{
    uint8_t due = 0;
    for (uint8_t i = 0; i < t->n; i++)
        t->tag[i].seen = 0;
    for (uint8_t k = 0; k < n; k++) {
        int16_t i = fg_tags_find(t, antenna, seen[k]);
        send[k] = 0;
        if (i < 0) { /* arrival: report at once */
            send[k] = 1;
            due++;
            if (t->n < FG_TAGS_MAX) {
                fg_tag_t *tag = &t->tag[t->n++];
                memcpy(tag->uid, seen[k], FG_UID_LEN);
                tag->antenna = antenna;
                tag->misses = 0;
                tag->seen = 1;
                tag->last_sent = now; /* fg_tags_sent confirms */
            } else {
                (*untracked)++;
            }
            continue;
        }
        fg_tag_t *tag = &t->tag[i];
        tag->seen = 1;
        tag->misses = 0;
        if (t->repeat_ms && (uint32_t)(now - tag->last_sent) >= t->repeat_ms) {
            send[k] = 1;
            due++;
        }
    }
    /* Tags of this antenna the scan missed: gone after gone_after misses in a row. */
    for (uint8_t i = 0; i < t->n;) {
        fg_tag_t *tag = &t->tag[i];
        if (tag->antenna == antenna && !tag->seen && ++tag->misses >= t->gone_after) {
            t->tag[i] = t->tag[--t->n];
            continue;
        }
        i++;
    }
    return due;
}

void fg_tags_sent(fg_tags_t *t, uint8_t antenna, const uint8_t *uid, uint32_t now)
{
    int16_t i = fg_tags_find(t, antenna, uid);
    if (i >= 0)
        t->tag[i].last_sent = now;
}

uint8_t fg_tags_present(const fg_tags_t *t, uint8_t antenna)
{
    uint8_t n = 0;
    for (uint8_t i = 0; i < t->n; i++)
        n += t->tag[i].antenna == antenna;
    return n;
}
