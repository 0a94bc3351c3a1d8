/* fg_test.h: the host unit tests' few macros. Each test program counts its checks, prints
 * every failure with its line, then one summary line "NAME: N checks, F failed" that
 * tests/firmware/test_core.py reads; it exits 1 if any check failed. */
#ifndef FG_TEST_H
#define FG_TEST_H

#include <stdio.h>
#include <string.h>

static int fg_checks, fg_failed;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        fg_checks++;                                                         \
        if (!(cond)) {                                                       \
            fg_failed++;                                                     \
            printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);           \
            printf(__VA_ARGS__);                                             \
            printf("\n");                                                    \
        }                                                                    \
    } while (0)

/* What a group of checks was about, printed as it passes. */
#define SAY(...) do { printf("  "); printf(__VA_ARGS__); printf("\n"); } while (0)

#define DONE(name)                                                           \
    do {                                                                     \
        printf("%s: %d checks, %d failed\n", name, fg_checks, fg_failed);    \
        return fg_failed ? 1 : 0;                                            \
    } while (0)

static inline int fg_hex(const char *hex, unsigned char *out)
{
    int n = 0;
    while (*hex) {
        if (*hex == ' ') { hex++; continue; }
        unsigned v;
        if (sscanf(hex, "%2x", &v) != 1) return -1;
        out[n++] = (unsigned char)v;
        hex += 2;
    }
    return n;
}

#endif
