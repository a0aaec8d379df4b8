/*
** select.c -- which candidates become matches: rank order (distance, then
** the leftmost end, then the largest start), at most `top`, none
** overlapping one taken before.
**
** Taken intervals are disjoint, so "does [s, e) overlap one?" is a lookup
** of the taken interval with the largest start below e, in a sorted array.
** For top > 0 only the best few candidates are ranked: the greedy pass is
** the same on any prefix of the rank order, so a prefix that yields `top`
** matches gives the answer; else the prefix doubles.
*/
#include <stdlib.h>
#include <string.h>

#include "dtw/dtw.h"

int wm_dtw_candvec_push(wm_dtw_candvec_t *v, double distance, uint64_t start, uint64_t end) {
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 64;
        wm_dtw_cand_t *a = realloc(v->a, cap * sizeof *a);
        if (!a) return -1;
        v->a = a;
        v->cap = cap;
    }
    v->a[v->n++] = (wm_dtw_cand_t){ distance, start, end };
    return 0;
}

void wm_dtw_candvec_free(wm_dtw_candvec_t *v) {
    free(v->a);
    memset(v, 0, sizeof *v);
}

int wm_dtw_cand_better(const wm_dtw_cand_t *a, const wm_dtw_cand_t *b) {
    if (a->distance != b->distance) return a->distance < b->distance;
    if (a->end != b->end) return a->end < b->end;
    return a->start > b->start;
}

static int cmp_rank(const void *pa, const void *pb) {
    const wm_dtw_cand_t *a = pa, *b = pb;
    return wm_dtw_cand_better(a, b) ? -1 : wm_dtw_cand_better(b, a) ? 1 : 0;
}

static int cmp_start(const void *pa, const void *pb) {
    const wm_dtw_cand_t *a = pa, *b = pb;
    return a->start < b->start ? -1 : a->start > b->start;
}

/* Move the `k` best of c[0, n) to the front (unordered): quickselect with a
** three-way partition on the rank order. */
static void partial_front(wm_dtw_cand_t *c, size_t n, size_t k) {
    size_t lo = 0, hi = n;
    while (hi - lo > 1) {
        wm_dtw_cand_t pivot = c[lo + (hi - lo) / 2], t;
        size_t lt = lo, i = lo, gt = hi; /* [lo,lt) better, [lt,gt) equal, [gt,hi) worse */
        while (i < gt) {
            if (wm_dtw_cand_better(&c[i], &pivot)) {
                t = c[lt];
                c[lt] = c[i];
                c[i] = t;
                lt++;
                i++;
            } else if (wm_dtw_cand_better(&pivot, &c[i])) {
                gt--;
                t = c[gt];
                c[gt] = c[i];
                c[i] = t;
            } else {
                i++;
            }
        }
        if (k < lt) hi = lt;
        else if (k <= gt) return;
        else lo = gt;
    }
}

/* Greedy over c[0, n) sorted by rank; taken ones go to out (sorted by start
** in `taken`, in pick order in out). Returns the count, or (size_t)-1. */
static size_t greedy(const wm_dtw_cand_t *c, size_t n, uint64_t top, wm_dtw_cand_t *out) {
    size_t cap = 64, nt = 0, picked = 0;
    wm_dtw_cand_t *taken = malloc(cap * sizeof *taken);
    if (!taken) return (size_t)-1;
    for (size_t i = 0; i < n && (top == 0 || picked < top); i++) {
        /* first taken interval with start >= c[i].end; the one before it is
        ** the last that starts below the end: it alone can overlap. */
        size_t lo = 0, hi = nt;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (taken[mid].start < c[i].end) lo = mid + 1;
            else hi = mid;
        }
        if (lo > 0 && taken[lo - 1].end > c[i].start) continue;
        if (nt == cap) {
            wm_dtw_cand_t *t = realloc(taken, 2 * cap * sizeof *t);
            if (!t) {
                free(taken);
                return (size_t)-1;
            }
            taken = t;
            cap *= 2;
        }
        memmove(taken + lo + 1, taken + lo, (nt - lo) * sizeof *taken);
        taken[lo] = c[i];
        nt++;
        out[picked++] = c[i];
    }
    free(taken);
    return picked;
}

int wm_dtw_select(wm_dtw_cand_t *c, size_t n, uint64_t top, double max_distance,
                  uint64_t series_len, size_t *n_out) {
    (void)series_len;
    size_t keep = 0; /* only candidates within max_distance take part */
    for (size_t i = 0; i < n; i++)
        if (c[i].distance <= max_distance) c[keep++] = c[i];
    n = keep;
    *n_out = 0;
    if (n == 0) return 0;
    wm_dtw_cand_t *out = malloc((top && top < n ? top : n) * sizeof *out);
    if (!out) return -1;
    size_t got;
    if (top == 0) {
        qsort(c, n, sizeof *c, cmp_rank);
        got = greedy(c, n, 0, out);
        if (got != (size_t)-1) qsort(out, got, sizeof *out, cmp_start);
    } else {
        size_t prefix = top < n / 64 ? (size_t)top * 64 : n;
        for (;;) {
            if (prefix < n) partial_front(c, n, prefix);
            qsort(c, prefix, sizeof *c, cmp_rank);
            got = greedy(c, prefix, top, out);
            if (got == (size_t)-1 || got == top || prefix == n) break;
            prefix = prefix > n / 2 ? n : prefix * 2;
        }
    }
    if (got == (size_t)-1) {
        free(out);
        return -1;
    }
    memcpy(c, out, got * sizeof *c);
    free(out);
    *n_out = got;
    return 0;
}
