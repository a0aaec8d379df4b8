/*
** test_radix.c -- the radix sorts of src/setk/radix.c, serial and on a
** pool's threads, against a stable sort by comparison (qsort on the key,
** then the record's first place).
**
** Records of 16, 24 and 40 bytes (a key, then the record's number and
** filler derived from it, so a record moved whole is seen whole), counts
** around the parallel sort's threshold and past it (0, 1, 2, 1,000,
** WM_SETK_PAR_SORT_MIN - 1 / + 0 / + 1, 200,000), keys of 1 to 64 bits,
** and key sets that leave whole passes with one digit (all equal, a few
** values, only high bits varying); pools of 1 to 5 threads and none. And
** wm_setk_radix_sort_bits_on, by the key's bits [lo, hi) alone, lo drawn
** below hi: records equal there keep their order, whatever the bits below.
** Every output is the reference, record for record.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "harness.h"
#include "rng.h"
#include "setk/setk.h"

typedef struct {
    uint64_t key, at; /* the masked key, the record's first place */
} ref_t;

static int by_key_then_place(const void *a, const void *b) {
    const ref_t *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* Record i: key, i, then filler bytes made from i. */
static void fill(unsigned char *rec, size_t size, uint64_t key, uint64_t i) {
    memcpy(rec, &key, 8);
    memcpy(rec + 8, &i, 8);
    for (size_t b = 16; b < size; b++) rec[b] = (unsigned char)(i * 131 + b);
}

/* The keys of one case: kind 0 random, 1 all equal, 2 a few values, 3 only
** bits at and above 32 vary (the low passes see one digit). */
static uint64_t key_for(int kind, unsigned bits) {
    uint64_t mask = bits < 64 ? ((uint64_t)1 << bits) - 1 : ~(uint64_t)0, k;
    switch (kind) {
    case 1: k = 0x5a5a5a5a5a5a5a5aull; break;
    case 2: k = below(5) * 0x0101010101010101ull; break;
    case 3: k = rnd() & ~(uint64_t)0xffffffff; break;
    default: k = rnd(); break;
    }
    return k & mask;
}

/* lo > 0: sorted by bits [lo, bits) of the key only (bits_on). */
static void one_case(wm_pool_t *pool, size_t n, size_t size, unsigned bits, int kind, unsigned lo) {
    unsigned char *a = xmalloc(n * size + 1);
    ref_t *r = xmalloc((n + 1) * sizeof *r);
    for (size_t i = 0; i < n; i++) {
        uint64_t key = key_for(kind, bits);
        fill(a + i * size, size, key, i);
        r[i].key = key >> lo; /* what the sort orders by */
        r[i].at = i;
    }
    qsort(r, n, sizeof *r, by_key_then_place);
    int rc = lo > 0 ? wm_setk_radix_sort_bits_on(pool, a, n, size, lo, bits)
             : pool ? wm_setk_radix_sort_on(pool, a, n, size, bits)
                    : wm_setk_radix_sort(a, n, size, bits);
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++) {
        unsigned char want[40];
        uint64_t key, place;
        memcpy(&place, a + i * size + 8, 8);
        memcpy(&key, a + i * size, 8);
        fill(want, size, key, r[i].at);
        if (place != r[i].at || key >> lo != r[i].key || memcmp(want, a + i * size, size)) bad = i;
    }
    CHECK(rc == 0 && bad == n,
          "%s, %d threads: %zu records of %zu bytes, key bits [%u, %u), keys of kind %d: rc %d, "
          "first wrong record %zu",
          pool ? "on the pool" : "serial", pool ? wm_pool_size(pool) : 1, n, size, lo, bits, kind,
          rc, bad);
    free(a);
    free(r);
}

int main(int argc, char **argv) {
    test_settings(argc, argv, 20261127, NULL, NULL);
    g_rng = g_seed;
    const size_t ns[] = {
        0,     1, 2, 1000, WM_SETK_PAR_SORT_MIN - 1, WM_SETK_PAR_SORT_MIN, WM_SETK_PAR_SORT_MIN + 1,
        200000
    };
    const size_t sizes[] = { 16, 24, 40 };
    const unsigned bits[] = { 1, 7, 16, 17, 33, 48, 57, 64 };
    wm_pool_t *pools[6] = { NULL };
    for (int t = 1; t <= 5; t++) pools[t] = wm_pool_new(t);
    for (size_t a = 0; a < N_OF(ns); a++)
        for (size_t b = 0; b < N_OF(sizes); b++)
            for (size_t c = 0; c < N_OF(bits); c++)
                for (int kind = 0; kind < 4; kind++) {
                    /* the serial sort, and the pools in turn */
                    int t = (int)((a + b + c + (size_t)kind) % 6);
                    one_case(pools[t], ns[a], sizes[b], bits[c], kind, 0);
                    if (t != 0 && ns[a] >= WM_SETK_PAR_SORT_MIN)
                        one_case(NULL, ns[a], sizes[b], bits[c], kind, 0);
                    if (bits[c] > 1) /* by the high bits alone */
                        one_case(pools[t], ns[a], sizes[b], bits[c], kind,
                                 1 + (unsigned)below(bits[c] - 1));
                }
    for (int t = 1; t <= 5; t++) wm_pool_free(pools[t]);
    return test_finish();
}
