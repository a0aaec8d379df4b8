/*
** plan.c -- the one ownership planner (see plan.h for the rule): cutting
** [from, to) into parts, finding the part that owns an end, and walking the
** records a part meets.
**
** No allocation and no 128-bit arithmetic: every product below is bounded by
** the plan's length (a part index is < n, so index * part size <= to - from),
** and sums are written as "room left > step ? add : clip", so offsets up to
** UINT64_MAX never wrap.
*/
#include "core/plan.h"

#include <assert.h>

wm_plan_t wm_plan_even(uint64_t from, uint64_t to, uint64_t n) {
    assert(from <= to && n >= 1);
    /* n = 0 would divide by zero below; one part is the harmless reading. */
    if (n == 0) n = 1;
    wm_plan_t p = { from, to, n, 0 };
    return p;
}

wm_plan_t wm_plan_sized(uint64_t from, uint64_t to, uint64_t size) {
    assert(from <= to && size >= 1);
    if (size == 0) size = 1;
    uint64_t len = to - from;
    /* ceil(len / size) without len + size - 1, which may wrap. */
    wm_plan_t p = { from, to, len / size + (len % size != 0), size };
    return p;
}

void wm_plan_part(const wm_plan_t *p, uint64_t i, uint64_t *lo, uint64_t *hi) {
    assert(i < p->n);
    uint64_t len = p->to - p->from;
    if (p->size) {
        /* i < ceil(len / size), so i * size <= len - 1. */
        *lo = p->from + i * p->size;
        *hi = p->to - *lo > p->size ? *lo + p->size : p->to;
        return;
    }
    /* Even: the first r parts have q + 1 bytes, the others q. Before part i
    ** lie i * q + min(i, r) bytes, at most len since i < n. */
    uint64_t q = len / p->n, r = len % p->n;
    *lo = p->from + q * i + (i < r ? i : r);
    *hi = *lo + q + (i < r);
}

uint64_t wm_plan_owner(const wm_plan_t *p, uint64_t e) {
    assert(p->from < e && e <= p->to);
    uint64_t x = e - 1 - p->from; /* the end's last byte, from the plan's start */
    if (p->size) return x / p->size;
    uint64_t len = p->to - p->from, q = len / p->n, r = len % p->n;
    /* The r long parts fill [0, r * (q + 1)); r * (q + 1) <= len. */
    uint64_t long_bytes = r * (q + 1);
    if (x < long_bytes) return x / (q + 1);
    /* Past them, q >= 1: had q been 0, the long parts would fill all of len. */
    return r + (x - long_bytes) / q;
}

size_t wm_plan_record_of_end(const uint64_t *rs, size_t n_rec, uint64_t e) {
    assert(n_rec >= 1 && 0 < e && e <= rs[n_rec]);
    /* The last record that starts before e: rs[0] = 0 < e, so one exists,
    ** and the next one starts at or after e, so it holds e. An empty record
    ** never qualifies (its start is the next one's). */
    size_t a = 0, b = n_rec; /* rs[a] < e; the answer is in [a, b) */
    while (b - a > 1) {
        size_t mid = a + (b - a) / 2;
        if (rs[mid] < e) a = mid;
        else b = mid;
    }
    return a;
}

size_t wm_plan_first_record(const uint64_t *rs, size_t n_rec, uint64_t lo) {
    /* The first record that ends after lo (rs[r + 1] > lo), n_rec if none:
    ** it holds end lo + 1. Records before it end by lo and hold no end of a
    ** part that starts at lo. */
    size_t a = 0, b = n_rec; /* the answer is in [a, b] */
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (rs[mid + 1] > lo) b = mid;
        else a = mid + 1;
    }
    return a;
}

int wm_plan_next_piece(const uint64_t *rs, size_t n_rec, uint64_t halo, uint64_t lo, uint64_t hi,
                       size_t *r, wm_piece_t *piece) {
    /* A record that starts at or after hi holds only ends > hi, and so do
    ** all after it: the walk stops there. */
    for (; *r < n_rec && rs[*r] < hi; (*r)++) {
        uint64_t begin = rs[*r], end = rs[*r + 1];
        uint64_t own_from = begin > lo ? begin : lo;
        uint64_t own_to = end < hi ? end : hi;
        if (own_to <= own_from) continue; /* empty, or all its ends are <= lo */
        piece->rec = *r;
        piece->own_from = own_from;
        piece->own_to = own_to;
        piece->scan_from = wm_plan_scan_from(begin, own_from, halo);
        (*r)++;
        return 1;
    }
    return 0;
}
