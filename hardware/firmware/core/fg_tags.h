/* fg_tags.h: the card readers' per-antenna debounce and repeat policy
 * (hardware/reader-protocol.md, "Reporting policy"): a read frame when a tag arrives on an
 * antenna, repeated every FG_REPEAT_MS while it stays. A tag missed by up to
 * FG_GONE_AFTER - 1 scans of its antenna in a row (an RF dip, a budget cut short) is still
 * present: it is not announced again as a new arrival when it is seen next, and its repeats
 * go on. Only a tag actually seen in a scan is ever reported. Portable C99. */
#ifndef FG_TAGS_H
#define FG_TAGS_H

#include <stdint.h>
#include "fg_proto.h"

#define FG_TAGS_MAX 64u       /* tags tracked over all antennas (a muck of 40 cards fits) */
#define FG_REPEAT_MS 250u     /* the protocol's repeat period */
#define FG_GONE_AFTER 3u      /* scans of its antenna a tag may miss and still be present */

typedef struct fg_tag {
    uint8_t uid[FG_UID_LEN];
    uint8_t antenna;
    uint8_t misses;        /* scans of its antenna in a row that did not see it */
    uint8_t seen;          /* seen in the scan being applied */
    uint32_t last_sent;    /* ms of its last read frame */
} fg_tag_t;

typedef struct fg_tags {
    fg_tag_t tag[FG_TAGS_MAX];
    uint8_t n;
    uint16_t repeat_ms;    /* 0: a read on arrival only */
    uint8_t gone_after;
} fg_tags_t;

void fg_tags_init(fg_tags_t *t, uint16_t repeat_ms, uint8_t gone_after);

/* Apply one scan of `antenna` that saw `seen[0..n)` at `now` (ms). Sets send[i] = 1 for each
 * uid a read frame is due for now (arrival or repeat) and returns how many; the caller sends
 * them and calls fg_tags_sent for each one sent. `*untracked` counts uids the table had no
 * room for (each still gets its read: a card is never silently ignored). */
uint8_t fg_tags_scan(fg_tags_t *t, uint8_t antenna, const uint8_t (*seen)[FG_UID_LEN],
                     uint8_t n, uint32_t now, uint8_t *send, uint8_t *untracked);
void fg_tags_sent(fg_tags_t *t, uint8_t antenna, const uint8_t *uid, uint32_t now);
/* Tags currently present on `antenna`. */
uint8_t fg_tags_present(const fg_tags_t *t, uint8_t antenna);

#endif
