/*
** pigeonhole.c -- search within k errors on the CPU, filtered: cut the
** pattern into k + 1 pieces; an occurrence with at most k errors leaves at
** least one piece untouched, so it contains that piece exactly, and then it
** ends within k of where the piece's place in the pattern says. The SIMD
** literal filter (litfilter.c) finds the pieces at memory speed; the bit-
** parallel kernel (bitap or Myers) then runs only over those windows of end
** positions, each with its halo, so the results are the kernel's own, exact.
** Where the pieces are short or frequent enough that the windows would cover
** much of the text, the caller scans the whole span instead.
*/
#include <stdlib.h>

#include "search/litfilter.h"

#define PIECE_MIN 8   /* shorter pieces occur too often to filter with */
#define SPAN_MIN 4096 /* small spans: scanning them costs less */

typedef struct {
    uint64_t a, b; /* ends a..b (inclusive) */
} window_t;

static int by_start(const void *x, const void *y) {
    const window_t *p = x, *q = y;
    return p->a < q->a ? -1 : p->a > q->a;
}

int wm_pigeonhole_scan(const wm_pat_t *pat, int strand, wm_cpu_scan_fn verify, const uint8_t *text,
                       uint64_t scan_from, uint64_t own_from, uint64_t to, wm_hitvec_t *out) {
    const wm_strand_t *st = &pat->strand[strand];
    const size_t m = pat->m, nw = pat->n_words;
    const uint32_t k = pat->k;
    const size_t L = m / (k + 1);
    if (k == 0 || L < PIECE_MIN || to - own_from < SPAN_MIN) return 1;
    const int64_t spread = pat->metric == WM_METRIC_EDIT ? (int64_t)k : 0;
    const uint64_t halo = wm_pat_halo(pat), span = to - own_from;

    wm_hitvec_t pieces = { 0 };
    window_t *win = NULL;
    size_t n_win = 0, cap = 0;
    uint64_t cost = 0;
    int rc = 0;
    for (uint32_t i = 0; i <= k && rc == 0; i++) {
        size_t off = (size_t)i * L, len = i < k ? L : m - (size_t)k * L;
        wm_litfilter_t f;
        wm_litfilter_make(st, nw, off, len, &f);
        if (f.n < 2 || to - scan_from < len) {
            rc = 1;
            break;
        }
        uint64_t s0 = scan_from, s1 = to - len + 1;
        pieces.n = 0;
        int64_t r = wm_litfilter_scan(st, nw, &f, text, s0, s1, strand, &pieces);
        if (r < 0) {
            rc = -1;
            break;
        }
        if ((uint64_t)r + 16 <= s1) {
            rc = 1;
            break;
        }                                           /* dense: not worth it */
        for (uint64_t q = (uint64_t)r; q < s1; q++) /* the last few starts */
            if (wm_litfilter_check(st, nw, &f, text + q) && wm_hitvec_push(&pieces, q + len, 0, 0))
                rc = -1;
        for (size_t h = 0; h < pieces.n && rc == 0; h++) {
            /* where the pattern would start with this piece in place */
            int64_t base = (int64_t)(pieces.a[h].end - len) - (int64_t)off;
            int64_t a = base + (int64_t)m - spread, b = base + (int64_t)m + spread;
            if (a < (int64_t)own_from + 1) a = (int64_t)own_from + 1;
            if (b > (int64_t)to) b = (int64_t)to;
            if (a > b) continue;
            if (n_win == cap) {
                size_t nc = cap ? 2 * cap : 256;
                window_t *nw_ = realloc(win, nc * sizeof *win);
                if (!nw_) {
                    rc = -1;
                    break;
                }
                win = nw_;
                cap = nc;
            }
            win[n_win].a = (uint64_t)a;
            win[n_win].b = (uint64_t)b;
            n_win++;
            cost += (uint64_t)(b - a + 1) + halo;
            if (cost > span / 4) rc = 1; /* windows too dense */
        }
    }
    wm_hitvec_free(&pieces);
    if (rc != 0) {
        free(win);
        return rc;
    }

    /* Merge windows closer than a halo (scanning the gap costs less than
    ** scanning the halo twice) and verify each, in order. */
    if (n_win > 1) qsort(win, n_win, sizeof *win, by_start);
    for (size_t i = 0; i < n_win && rc == 0;) {
        uint64_t a = win[i].a, b = win[i].b;
        for (i++; i < n_win && win[i].a <= b + halo + 1; i++)
            if (win[i].b > b) b = win[i].b;
        uint64_t own = a - 1;
        uint64_t from = own > scan_from + halo ? own - halo : scan_from;
        if (verify(pat, strand, text, from, own, b, out)) rc = -1;
    }
    free(win);
    return rc;
}
