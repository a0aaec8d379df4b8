/*
** radix.c -- a stable LSD radix sort of records that start with a 64-bit
** key: a set's seeds at compile time (by key code: 10^7 of them, where qsort
** took most of a compile) and a chunk's seeds found in the text (by pattern,
** strand and end: a chromosome's repeats give millions).
*/
#include <stdlib.h>
#include <string.h>

#include "setk/setk.h"

static uint64_t key_of(const unsigned char *rec) {
    uint64_t k;
    memcpy(&k, rec, sizeof k);
    return k;
}

int wm_setk_radix_sort(void *a, size_t n, size_t size, unsigned key_bits) {
    if (n < 2) return 0;
    unsigned char *tmp = malloc(n * size);
    size_t *count = malloc(65537 * sizeof *count);
    if (!tmp || !count) {
        free(tmp);
        free(count);
        return -1;
    }
    unsigned char *from = a, *to = tmp;
    for (unsigned shift = 0; shift < key_bits; shift += 16) {
        memset(count, 0, 65537 * sizeof *count);
        for (size_t i = 0; i < n; i++) count[((key_of(from + i * size) >> shift) & 0xffff) + 1]++;
        if (count[((key_of(from) >> shift) & 0xffff) + 1] == n) continue; /* one digit here */
        for (size_t d = 0; d < 65536; d++) count[d + 1] += count[d];
        for (size_t i = 0; i < n; i++) {
            size_t at = count[(key_of(from + i * size) >> shift) & 0xffff]++;
            memcpy(to + at * size, from + i * size, size);
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
