/* test_policy.c: the per-antenna debounce and repeat policy, the roles' straps, the scan
 * schedule and which status bits each role sends. */
#include "fg_test.h"
#include "../core/fg_tags.h"
#include "../core/fg_schedule.h"

int main(void)
{
    fg_tags_t t;
    uint8_t send[8], untracked = 0;
    uint8_t a[1][8] = {{0xE0, 4, 1, 2, 3, 4, 5, 6}};
    uint8_t ab[2][8] = {{0xE0, 4, 1, 2, 3, 4, 5, 6}, {0xE0, 4, 1, 2, 3, 4, 5, 7}};
    fg_tags_init(&t, FG_REPEAT_MS, FG_GONE_AFTER);

    CHECK(fg_tags_scan(&t, 3, (const uint8_t(*)[8])a, 1, 1000, send, &untracked) == 1 && send[0],
          "arrival is reported at once");
    fg_tags_sent(&t, 3, a[0], 1000);
    CHECK(fg_tags_scan(&t, 3, (const uint8_t(*)[8])a, 1, 1140, send, &untracked) == 0, "no repeat before 250 ms");
    CHECK(fg_tags_scan(&t, 3, (const uint8_t(*)[8])a, 1, 1250, send, &untracked) == 1, "repeat at 250 ms");
    fg_tags_sent(&t, 3, a[0], 1250);
    SAY("a read on arrival, then one every 250 ms while the tag stays");

    /* missed twice (RF dip): still present, so no new arrival and the repeat goes on */
    CHECK(fg_tags_scan(&t, 3, NULL, 0, 1300, send, &untracked) == 0, "no read due");
    CHECK(fg_tags_scan(&t, 3, NULL, 0, 1350, send, &untracked) == 0, "no read due");
    CHECK(fg_tags_present(&t, 3) == 1, "two misses: still present");
    CHECK(fg_tags_scan(&t, 3, (const uint8_t(*)[8])a, 1, 1400, send, &untracked) == 0,
          "seen again within 250 ms of its last read: not a new arrival");
    /* a scan of another antenna does not count as a miss here */
    CHECK(fg_tags_scan(&t, 4, NULL, 0, 1410, send, &untracked) == 0 && fg_tags_present(&t, 3) == 1, "no read due");
    for (int i = 0; i < 3; i++)
        fg_tags_scan(&t, 3, NULL, 0, (uint32_t)(1450 + 50 * i), send, &untracked);
    CHECK(fg_tags_present(&t, 3) == 0, "three misses in a row: gone");
    CHECK(fg_tags_scan(&t, 3, (const uint8_t(*)[8])a, 1, 1600, send, &untracked) == 1, "back: arrival again");
    SAY("debounce: a tag missed by up to 2 scans of its antenna stays; 3 in a row is gone");

    CHECK(fg_tags_scan(&t, 3, (const uint8_t(*)[8])ab, 2, 1610, send, &untracked) == 1 &&
          !send[0] && send[1], "the second card of a seat: only it is new");
    CHECK(fg_tags_scan(&t, 5, (const uint8_t(*)[8])ab, 1, 1620, send, &untracked) == 1 && send[0],
          "the same tag on another antenna is an arrival there");
    SAY("per antenna: each tag of a zone on its own, the same tag on two antennas twice");

    fg_tags_init(&t, FG_REPEAT_MS, FG_GONE_AFTER);
    uint8_t many[FG_TAGS_MAX + 2][8];
    uint8_t sendm[FG_TAGS_MAX + 2];
    for (int i = 0; i < (int)FG_TAGS_MAX + 2; i++) { memcpy(many[i], a[0], 8); many[i][7] = (uint8_t)i; }
    untracked = 0;
    CHECK(fg_tags_scan(&t, 13, (const uint8_t(*)[8])many, FG_TAGS_MAX + 2, 0, sendm, &untracked) ==
          FG_TAGS_MAX + 2 && untracked == 2, "a full table still reports every tag, and counts");
    fg_tags_init(&t, 0, FG_GONE_AFTER);
    fg_tags_scan(&t, 1, (const uint8_t(*)[8])a, 1, 0, send, &untracked);
    CHECK(fg_tags_scan(&t, 1, (const uint8_t(*)[8])a, 1, 5000, send, &untracked) == 0, "repeat 0: arrival only");
    SAY("a full table reports and counts; repeat 0 reports arrivals only");

    CHECK(fg_role_from_straps(0, 0) == FG_ROLE_SHOE && fg_role_from_straps(0, 1) == FG_ROLE_FELT &&
          fg_role_from_straps(1, 0) == FG_ROLE_CHIP && fg_role_from_straps(1, 1) == FG_ROLE_NONE,
          "straps");
    fg_schedule_t s;
    fg_schedule_for(FG_ROLE_SHOE, 0, &s);
    CHECK(s.reader_id == 1 && s.n_antennas == 1 && s.antenna[0] == 0 && !s.inventories &&
          s.slot_ms == FG_SHOE_SLOT_MS, "shoe");
    CHECK(s.status_mask == 0x0F, "shoe sends bits 0..3");
    fg_schedule_for(FG_ROLE_FELT, 0, &s);
    CHECK(s.reader_id == 2 && s.n_antennas == 14 && s.antenna[0] == 1 && s.antenna[13] == 14 &&
          s.status_mask == 0x0D, "felt: antennas 1..14, no face sensor bit");
    fg_schedule_for(FG_ROLE_CHIP, 0, &s);
    CHECK(s.reader_id == 3 && s.n_antennas == 13 && s.channel[12] == 13 && s.inventories &&
          s.cycle_ms == 250 && s.status_mask == 0x1F, "chip: channels 1..13, 250 ms cycles");
    CHECK(s.antenna[0] == 1 && s.antenna[9] == 10 && s.antenna[10] == 21 && s.antenna[11] == 22 &&
          s.antenna[12] == 23, "chip ids: bets 1..10, pot 21, tray 22, drop 23");
    fg_schedule_for(FG_ROLE_CHIP, 7, &s);
    CHECK(s.reader_id == 7, "EEPROM id overrides the role's");
    fg_schedule_for(FG_ROLE_NONE, 0, &s);
    CHECK(s.n_antennas == 0 && s.status_mask == FG_ST_ANTENNA_FAULT, "no role: nothing scanned");
    SAY("straps 00 shoe, 01 felt, 10 chip, 11 none; each role's channels, antenna ids, timing, "
        "reader ids, bits");

    DONE("test_policy");
}
