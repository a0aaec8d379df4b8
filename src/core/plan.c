/*
** plan.c -- the ownership planner (plan.h). Temporary: replaced by h-plan.
*/
#include "core/plan.h"

wm_plan_t wm_plan_even(uint64_t from, uint64_t to, uint64_t n) {
    wm_plan_t p = {from, to, to > from ? n : 0, 0};
    return p;
}

wm_plan_t wm_plan_sized(uint64_t from, uint64_t to, uint64_t size) {
    wm_plan_t p = {from, to, to > from ? (to - from - 1) / size + 1 : 0, size};
    return p;
}

void wm_plan_part(const wm_plan_t *p, uint64_t i, uint64_t *lo, uint64_t *hi) {
    uint64_t len = p->to - p->from;
    if (p->size) {
        *lo = p->from + i * p->size;
        *hi = len - i * p->size > p->size ? *lo + p->size : p->to;
        return;
    }
    uint64_t q = len / p->n, r = len % p->n;
    *lo = p->from + q * i + (i < r ? i : r);
    *hi = *lo + q + (i < r);
}

uint64_t wm_plan_owner(const wm_plan_t *p, uint64_t e) {
    uint64_t b = e - 1 - p->from;           /* the last byte, relative */
    if (p->size) return b / p->size;
    uint64_t len = p->to - p->from, q = len / p->n, r = len % p->n;
    if (b < r * (q + 1)) return b / (q + 1);
    return r + (b - r * (q + 1)) / q;
}

size_t wm_plan_record_of_end(const uint64_t *rs, size_t n_rec, uint64_t e) {
    size_t lo = 0, hi = n_rec;                /* answer in [lo, hi) */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (rs[mid] < e) lo = mid; else hi = mid;
    }
    return lo;
}

size_t wm_plan_first_record(const uint64_t *rs, size_t n_rec, uint64_t lo) {
    return wm_plan_record_of_end(rs, n_rec, lo + 1);
}

int wm_plan_next_piece(const uint64_t *rs, size_t n_rec, uint64_t halo, uint64_t lo, uint64_t hi,
                       size_t *r, wm_piece_t *piece) {
    for (; *r < n_rec && rs[*r] < hi; (*r)++) {
        uint64_t rb = rs[*r], re = rs[*r + 1];
        uint64_t own_from = lo > rb ? lo : rb, own_to = hi < re ? hi : re;
        if (own_to <= own_from) continue;
        piece->rec = *r;
        piece->own_from = own_from;
        piece->own_to = own_to;
        piece->scan_from = wm_plan_scan_from(rb, own_from, halo);
        (*r)++;
        return 1;
    }
    return 0;
}
