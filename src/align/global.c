/*
** global.c -- the global edit distance of the whole query and a whole
** target, by Myers' bit-vector DP over the query's blocks.
**
** Global means the top row is not free: D[0][j] = j, so every column enters
** its first block with a horizontal delta of +1, and the first column is
** D[i][0] = i (all vertical deltas +1). Similar strings are the common case,
** so the DP is banded by a bound k, two ways (as edlib does):
**   - diagonals: every cell of an alignment of cost <= k lies on diagonals
**     dlo .. dhi, so column j never computes blocks outside rows
**     j + dlo .. j + dhi;
**   - scores (Ukkonen's cutoff): a block whose every cell is above k (its
**     bottom score >= k + 64) is dropped from either end of the column
**     (looked for every 8th column), and
**     the block below the last is added only while the last block's bottom
**     is within k + 1. Cells of value <= k are always computed exactly
**     (their best predecessor is <= k too, so it was kept), hence the
**     answer is exact when <= k.
** The bound starts at |m - n| + 64 and doubles until the answer fits (a pass
** that reaches row m returns a real alignment's cost, which bounds the next
** k). The traceback's sweeps (traceback.c) prune by the same rules
** (band.h), on the diagonal band of the distance d.
*/
#include <stdlib.h>

#include "align/align.h"
#include "align/band.h"
#include "align/bv.h"

/* D[m][n] when it is <= k; otherwise some value > k (an alignment's cost
** when the pass reached row m, else k + 1, as early as a column shows that
** nothing is left within k). pv, mv, sc: ceil(m / 64) words each; sc[w] is
** the score at block w's bottom row. */
static uint64_t banded(const wm_aq_t *aq, const uint8_t *y, uint64_t n, uint64_t k, uint64_t *pv,
                       uint64_t *mv, uint64_t *sc) {
    size_t W = aq->n_words;
    uint64_t m = aq->m;
    int64_t s = (int64_t)m - (int64_t)n, kk = (int64_t)k;
    int64_t dlo = s - kk > -kk ? s - kk : -kk, dhi = s + kk < kk ? s + kk : kk;
    size_t fb = 0, lb = wm_blk(wm_band_row(0, dhi, m));
    uint64_t top = 0; /* D[64 fb][j] */
    for (size_t w = 0; w <= lb; w++) {
        pv[w] = ~0ull;
        mv[w] = 0;
        sc[w] = 64 * (uint64_t)(w + 1);
    }
    for (uint64_t j = 1; j <= n; j++) {
        /* the diagonal band's ends for this column */
        size_t dfb = wm_blk(wm_band_row((int64_t)j, dlo, m)),
               dlb = wm_blk(wm_band_row((int64_t)j, dhi, m));
        while (fb < dfb && fb < lb) top = sc[fb++];
        if (lb > dlb && dlb >= fb) lb = dlb;
        const uint64_t *eq = aq->peq + (size_t)aq->code[y[j - 1]] * W;
        int h = 1; /* rows above fb grow by one */
        for (size_t w = fb; w <= lb; w++) {
            h = wm_bv_step(&pv[w], &mv[w], eq[w], h);
            sc[w] += (uint64_t)(int64_t)h;
        }
        /* A block below joins in this same column (band.h), entering with
        ** its previous column at one more a row than the row above. */
        while (lb < dlb) {
            uint64_t prev = sc[lb] - (uint64_t)(int64_t)h, best = sc[lb] < prev ? sc[lb] : prev;
            if (!wm_band_joins(best, lb, m, n, j, k)) break;
            lb++;
            pv[lb] = ~0ull;
            mv[lb] = 0;
            sc[lb] = prev + 64;
            h = wm_bv_step(&pv[lb], &mv[lb], eq[lb], h);
            sc[lb] += (uint64_t)(int64_t)h;
        }
        top++;
        /* drop the blocks none of whose cells can be on an alignment within k,
        ** every 8th column: a block kept longer is only more work (a wider
        ** band keeps every cell <= k exact), and the tests each column cost
        ** more than the steps they saved (1 kb pairs, 13-15% faster on one
        ** core; BENCHMARKS.md 33b) */
        if ((j & 7) == 0) {
            while (lb > fb && wm_band_drops_last(sc[lb], lb, m, n, j, k)) lb--;
            while (fb < lb && wm_band_drops_first(sc[fb], fb, m, n, j, k)) top = sc[fb++];
        }
    }
    size_t mb = wm_blk(m);
    if (lb < mb) return k + 1; /* row m was above k at the end */
    uint64_t v = mb == fb ? top : sc[mb - 1];
    unsigned r = (unsigned)((m - 1) % 64);
    uint64_t mask = r == 63 ? ~0ull : (2ull << r) - 1;
    return v + (uint64_t)((int64_t)__builtin_popcountll(pv[mb] & mask) -
                          __builtin_popcountll(mv[mb] & mask));
}

/* Columns from .. to - 1 of a whole DP (as full_words) from its blocks
** pv, mv and score D[m][from]; returns D[m][to]. */
static inline uint64_t columns_on(const wm_aq_t *aq, const uint8_t *y, uint64_t from, uint64_t to,
                                  const size_t W, uint64_t *pv, uint64_t *mv, uint64_t score) {
    unsigned last = (unsigned)((aq->m - 1) % 64);
    for (uint64_t j = from; j < to; j++) {
        const uint64_t *eq = aq->peq + (size_t)aq->code[y[j]] * W;
        int h = 1; /* the top row is not free */
        for (size_t w = 0; w < W; w++)
            h = wm_bv_step_row(&pv[w], &mv[w], eq[w], h, w + 1 == W ? last : 63);
        score += (uint64_t)(int64_t)h;
    }
    return score;
}

/* The whole DP of a query of W <= 4 words, unbanded: for reads the band of
** the first pass covers every block anyway (k starts at |m - n| + 64), and
** its bookkeeping costs more than the steps it would save. The blocks live
** in registers; the score is D[m][j], kept by the bottom row's delta. */
static inline uint64_t full_words(const wm_aq_t *aq, const uint8_t *y, uint64_t n, const size_t W) {
    uint64_t pv[4] = { ~0ull, ~0ull, ~0ull, ~0ull }, mv[4] = { 0, 0, 0, 0 };
    return columns_on(aq, y, 0, n, W, pv, mv, aq->m);
}

static uint64_t full_small(const wm_aq_t *aq, const uint8_t *y, uint64_t n) {
    switch (aq->n_words) { /* a constant W: the loop over blocks unrolls */
    case 1: return full_words(aq, y, n, 1);
    case 2: return full_words(aq, y, n, 2);
    case 3: return full_words(aq, y, n, 3);
    default: return full_words(aq, y, n, 4);
    }
}

/* Two pairs' whole DPs, as full_words, in one loop: each step's carries
** chain through its column's blocks and on to the next column, so one
** pair leaves most of the core idle; two independent chains fill it. Both
** queries have W words; the longer target's tail runs alone. */
static inline void full_words2(const wm_aq_t *a, const uint8_t *ya, uint64_t na, const wm_aq_t *b,
                               const uint8_t *yb, uint64_t nb, const size_t W, uint64_t *da,
                               uint64_t *db) {
    uint64_t pa[4] = { ~0ull, ~0ull, ~0ull, ~0ull }, ma[4] = { 0, 0, 0, 0 };
    uint64_t pb[4] = { ~0ull, ~0ull, ~0ull, ~0ull }, mb[4] = { 0, 0, 0, 0 };
    uint64_t sa = a->m, sb = b->m, n = na < nb ? na : nb;
    unsigned la = (unsigned)((a->m - 1) % 64), lb = (unsigned)((b->m - 1) % 64);
    for (uint64_t j = 0; j < n; j++) {
        const uint64_t *ea = a->peq + (size_t)a->code[ya[j]] * W;
        const uint64_t *eb = b->peq + (size_t)b->code[yb[j]] * W;
        int ha = 1, hb = 1;
        for (size_t w = 0; w < W; w++) {
            ha = wm_bv_step_row(&pa[w], &ma[w], ea[w], ha, w + 1 == W ? la : 63);
            hb = wm_bv_step_row(&pb[w], &mb[w], eb[w], hb, w + 1 == W ? lb : 63);
        }
        sa += (uint64_t)(int64_t)ha;
        sb += (uint64_t)(int64_t)hb;
    }
    *da = columns_on(a, ya, n, na, W, pa, ma, sa);
    *db = columns_on(b, yb, n, nb, W, pb, mb, sb);
}

int wm_global_distance2(const wm_aq_t *a, const uint8_t *ya, uint64_t na, const wm_aq_t *b,
                        const uint8_t *yb, uint64_t nb, uint64_t *da, uint64_t *db) {
    if (a->m == 0 || b->m == 0 || na == 0 || nb == 0 || a->n_words != b->n_words || a->n_words > 4)
        return 0;
    switch (a->n_words) { /* a constant W: the loop over blocks unrolls */
    case 1: full_words2(a, ya, na, b, yb, nb, 1, da, db); break;
    case 2: full_words2(a, ya, na, b, yb, nb, 2, da, db); break;
    case 3: full_words2(a, ya, na, b, yb, nb, 3, da, db); break;
    default: full_words2(a, ya, na, b, yb, nb, 4, da, db); break;
    }
    return 1;
}

/* Returns UINT64_MAX only when the 2 * ceil(m / 64) words of Pv/Mv cannot be
** had. */
uint64_t wm_global_distance(const wm_aq_t *aq, const uint8_t *y, uint64_t n, int64_t limit) {
    uint64_t m = aq->m;
    if (m == 0) return n;
    if (n == 0) return m;
    uint64_t diff = m > n ? m - n : n - m;
    if (limit >= 0 && diff > (uint64_t)limit) return diff; /* no band holds it */
    /* a query of at most 4 words with no bound: the first band, |m - n| + 64
    ** wide, would hold nearly every block of every column anyway */
    if (limit < 0 && aq->n_words <= 4) return full_small(aq, y, n);
    uint64_t *pv = malloc(3 * aq->n_words * sizeof *pv);
    if (!pv) return UINT64_MAX;
    /* a result above the band that is a real alignment's cost bounds the
    ** answer, so it is the last k needed; m + n holds every alignment */
    uint64_t k = limit >= 0 ? (uint64_t)limit : diff + 64, d;
    for (;;) {
        if (k > m + n) k = m + n;
        d = banded(aq, y, n, k, pv, pv + aq->n_words, pv + 2 * aq->n_words);
        if (d <= k || limit >= 0 || k == m + n) break;
        k = d > k + 1 && d <= 2 * k ? d : 2 * k;
    }
    free(pv);
    return d;
}
