/*
** radix.c -- a stable LSD radix sort of records that start with a 64-bit
** key: a set's seeds at compile time (by key code: 10^7 of them, where qsort
** took most of a compile) and a chunk's seeds found in the text (by pattern,
** strand and end: a chromosome's repeats give millions); and, on the pool's
** threads, the GPU path's hits as the host finishes them (gpu_finish.c: ten
** million a batch, where the two sorts on one thread were 38% of the
** host's half). And matches put in wm_search's order by their keys, for the
** CPU's chunks and the GPU path's segments alike.
*/
#include <stdlib.h>
#include <string.h>

#include "setk/setk.h"

/* Digits of 16 bits for the large sorts; the serial sorts of fewer
** records than 2^16 (a segment's matches) take 11, whose counts (2,048)
** cost less to clear and sum than the records to move. */
#define DIGIT_BITS 16
#define DIGITS (1u << DIGIT_BITS)
#define SMALL_DIGIT_BITS 11

static uint64_t key_of(const unsigned char *rec) {
    uint64_t k;
    memcpy(&k, rec, sizeof k);
    return k;
}

/* Move records [lo, hi) of from to their places in to by the digit at
** shift, count[d] being where the next record of digit d goes. */
#define SCATTER(bytes)                                                                             \
    for (size_t i = lo; i < hi; i++) {                                                             \
        size_t at = count[(key_of(from + i * (bytes)) >> shift) & mask]++;                         \
        memcpy(to + at * (bytes), from + i * (bytes), (bytes));                                    \
    }

static void scatter(const unsigned char *from, unsigned char *to, size_t lo, size_t hi, size_t size,
                    unsigned shift, uint64_t mask, size_t *count) {
    /* the records' own sizes spelled out: a copy of a constant size is a
    ** few moves, one of a variable size a call of memmove */
    switch (size) {
    case 8: SCATTER(8); break;
    case 16: SCATTER(16); break;
    case 24: SCATTER(24); break;
    default: SCATTER(size); break;
    }
}

unsigned wm_setk_bits_for(uint64_t most) {
    unsigned b = 1;
    while (b < 64 && (most >> b) != 0) b++;
    return b;
}

/* The passes over the key's bits [lo_bit, hi_bit). */
static int serial_sort(void *a, size_t n, size_t size, unsigned lo_bit, unsigned hi_bit) {
    if (n < 2) return 0;
    unsigned bits = n < DIGITS ? SMALL_DIGIT_BITS : DIGIT_BITS;
    size_t digits = (size_t)1 << bits;
    uint64_t mask = digits - 1;
    unsigned char *tmp = malloc(n * size);
    size_t *count = malloc((digits + 1) * sizeof *count);
    if (!tmp || !count) {
        free(tmp);
        free(count);
        return -1;
    }
    unsigned char *from = a, *to = tmp;
    for (unsigned shift = lo_bit; shift < hi_bit; shift += bits) {
        memset(count, 0, (digits + 1) * sizeof *count);
        for (size_t i = 0; i < n; i++) count[((key_of(from + i * size) >> shift) & mask) + 1]++;
        if (count[((key_of(from) >> shift) & mask) + 1] == n) continue; /* one digit */
        for (size_t d = 0; d < digits; d++) count[d + 1] += count[d];
        scatter(from, to, 0, n, size, shift, mask, count);
        unsigned char *t = from;
        from = to;
        to = t;
    }
    if (from != a) memcpy(a, from, n * size);
    free(tmp);
    free(count);
    return 0;
}

int wm_setk_radix_sort(void *a, size_t n, size_t size, unsigned key_bits) {
    return serial_sort(a, n, size, 0, key_bits);
}

/* The parallel sort: each pass counts the digits of every slice of the
** records (a slice a thread), lays out where each (digit, slice) goes --
** digit by digit, slices in order within a digit, so the sort stays
** stable -- and scatters the slices at once. */
typedef struct {
    const unsigned char *from;
    unsigned char *to;
    size_t n, size, slices;
    unsigned shift;
    size_t *count; /* slices x DIGITS: a slice's digit counts, then where they go */
} par_t;

static void par_range(const par_t *p, size_t i, size_t *lo, size_t *hi) {
    *lo = p->n / p->slices * i + (i < p->n % p->slices ? i : p->n % p->slices);
    *hi = *lo + p->n / p->slices + (i < p->n % p->slices);
}

static void par_count(void *arg, size_t i, int tid) {
    (void)tid;
    const par_t *p = arg;
    size_t lo, hi, *c = p->count + i * DIGITS;
    par_range(p, i, &lo, &hi);
    memset(c, 0, DIGITS * sizeof *c);
    for (size_t x = lo; x < hi; x++)
        c[(key_of(p->from + x * p->size) >> p->shift) & (DIGITS - 1)]++;
}

static void par_scatter(void *arg, size_t i, int tid) {
    (void)tid;
    const par_t *p = arg;
    size_t lo, hi;
    par_range(p, i, &lo, &hi);
    scatter(p->from, p->to, lo, hi, p->size, p->shift, DIGITS - 1, p->count + i * DIGITS);
}

int wm_setk_radix_sort_on(wm_pool_t *pool, void *a, size_t n, size_t size, unsigned key_bits) {
    return wm_setk_radix_sort_bits_on(pool, a, n, size, 0, key_bits);
}

int wm_setk_radix_sort_bits_on(wm_pool_t *pool, void *a, size_t n, size_t size, unsigned lo_bit,
                               unsigned hi_bit) {
    size_t slices = pool ? (size_t)wm_pool_size(pool) : 1;
    if (slices < 2 || n < WM_SETK_PAR_SORT_MIN) return serial_sort(a, n, size, lo_bit, hi_bit);
    par_t p = { a, malloc(n * size), n, size, slices, 0, malloc(slices * DIGITS * sizeof(size_t)) };
    unsigned char *tmp = p.to;
    if (!p.to || !p.count) {
        free(p.to);
        free(p.count);
        return -1;
    }
    for (p.shift = lo_bit; p.shift < hi_bit; p.shift += DIGIT_BITS) {
        wm_pool_for(pool, slices, par_count, &p);
        size_t d0 = (key_of(p.from) >> p.shift) & (DIGITS - 1), of_d0 = 0;
        for (size_t i = 0; i < slices; i++) of_d0 += p.count[i * DIGITS + d0];
        if (of_d0 == n) continue; /* one digit */
        size_t run = 0;
        for (size_t d = 0; d < DIGITS; d++)
            for (size_t i = 0; i < slices; i++) {
                size_t c = p.count[i * DIGITS + d];
                p.count[i * DIGITS + d] = run;
                run += c;
            }
        wm_pool_for(pool, slices, par_scatter, &p);
        unsigned char *t = (unsigned char *)p.from;
        p.from = p.to;
        p.to = t;
    }
    if (p.from != a) memcpy(a, p.from, n * size);
    free(tmp);
    free(p.count);
    return 0;
}

static int by_match(const void *x, const void *y) {
    const wm_match_t *p = x, *q = y;
    if (p->record != q->record) return p->record < q->record ? -1 : 1;
    if (p->end != q->end) return p->end < q->end ? -1 : 1;
    if (p->pattern != q->pattern) return p->pattern < q->pattern ? -1 : 1;
    return p->strand < q->strand ? -1 : p->strand > q->strand;
}

int wm_setk_sort_matches(wm_matchvec_t *v, const uint64_t *rs, uint64_t lo, uint64_t hi,
                         unsigned pat_bits) {
    unsigned bits = wm_setk_bits_for(hi - lo) + pat_bits + 1;
    if (v->n < 4096 || bits > 64) {
        if (v->n > 1) qsort(v->a, v->n, sizeof *v->a, by_match);
        return 0;
    }
    wm_setk_keyed_t *o = malloc(v->n * sizeof *o); /* a match's key and its place */
    wm_match_t *to = malloc(v->n * sizeof *to);
    int rc = o && to ? 0 : -1;
    for (size_t x = 0; rc == 0 && x < v->n; x++) {
        const wm_match_t *m = &v->a[x];
        uint64_t end = rs[m->record] + m->end - lo; /* in [1, hi - lo] */
        o[x].key = (end << pat_bits | m->pattern) << 1 | m->strand;
        o[x].at = x;
    }
    if (rc == 0) rc = wm_setk_radix_sort(o, v->n, sizeof *o, bits);
    for (size_t x = 0; rc == 0 && x < v->n; x++) to[x] = v->a[o[x].at];
    free(o);
    if (rc == 0) {
        free(v->a);
        v->a = to;
        v->cap = v->n;
    } else {
        free(to);
    }
    return rc;
}
