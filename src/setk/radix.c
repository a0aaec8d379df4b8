/*
** radix.c -- a stable LSD radix sort of records that start with a 64-bit
** key: a set's seeds at compile time (by key code: 10^7 of them, where qsort
** took most of a compile) and a chunk's seeds found in the text (by pattern,
** strand and end: a chromosome's repeats give millions).
*/
#include <stdlib.h>
#include <string.h>

#include "setk/setk.h"

#define DIGIT_BITS 16
#define DIGITS (1u << DIGIT_BITS)

static uint64_t key_of(const unsigned char *rec) {
    uint64_t k;
    memcpy(&k, rec, sizeof k);
    return k;
}

/* Move every record of from to its place in to by the digit at shift. */
#define SCATTER(bytes)                                                                             \
    for (size_t i = 0; i < n; i++) {                                                               \
        size_t at = count[(key_of(from + i * (bytes)) >> shift) & (DIGITS - 1)]++;                 \
        memcpy(to + at * (bytes), from + i * (bytes), (bytes));                                    \
    }

unsigned wm_setk_bits_for(uint64_t most) {
    unsigned b = 1;
    while (b < 64 && (most >> b) != 0) b++;
    return b;
}

int wm_setk_radix_sort(void *a, size_t n, size_t size, unsigned key_bits) {
    if (n < 2) return 0;
    unsigned char *tmp = malloc(n * size);
    size_t *count = malloc((DIGITS + 1) * sizeof *count);
    if (!tmp || !count) {
        free(tmp);
        free(count);
        return -1;
    }
    unsigned char *from = a, *to = tmp;
    for (unsigned shift = 0; shift < key_bits; shift += DIGIT_BITS) {
        memset(count, 0, (DIGITS + 1) * sizeof *count);
        for (size_t i = 0; i < n; i++)
            count[((key_of(from + i * size) >> shift) & (DIGITS - 1)) + 1]++;
        if (count[((key_of(from) >> shift) & (DIGITS - 1)) + 1] == n) continue; /* one digit */
        for (size_t d = 0; d < DIGITS; d++) count[d + 1] += count[d];
        /* the records' own sizes spelled out: a copy of a constant size is
        ** a few moves, one of a variable size a call of memmove */
        switch (size) {
        case 16: SCATTER(16); break;
        case 24: SCATTER(24); break;
        default: SCATTER(size); break;
        }
        unsigned char *t = from;
        from = to;
        to = t;
    }
    if (from != a) memcpy(a, from, n * size);
    free(tmp);
    free(count);
    return 0;
}
