/*
** global.c -- the global edit distance of the whole query and a whole
** target, by Myers' bit-vector DP over the query's blocks.
**
** Global means the top row is not free: D[0][j] = j, so every column enters
** its first block with a horizontal delta of +1, and the first column is
** D[i][0] = i (all vertical deltas +1). Similar strings are the common case,
** so the DP is Ukkonen-banded: with a bound k, column j computes only the
** blocks holding rows j + dlo .. j + dhi, where every cell of an alignment
** of cost <= k lies. The bound starts at |m - n| + 64 and grows until the
** answer fits in it (cigar.c widens its first split the same way).
*/
#include <stdlib.h>

#include "align/align.h"
#include "align/bv.h"

static inline size_t blk(uint64_t row) { return row ? (size_t)((row - 1) / 64) : 0; }  /* block holding DP row */

static inline uint64_t band_row(int64_t j, int64_t d, uint64_t L) {
    int64_t r = j + d;
    return r < 0 ? 0 : (uint64_t)r > L ? L : (uint64_t)r;
}

/* D[m][n] computed within band k (k >= |m - n|). Rows left above the band
** keep growing by one a column and rows first entered below start one more
** than the row above: both are costs of real alignments, so the result is
** always the cost of some alignment, and exact when it is <= k. */
static uint64_t banded(const wm_aq_t *aq, const uint8_t *y, uint64_t n, uint64_t k,
                       uint64_t *pv, uint64_t *mv) {
    size_t W = aq->n_words;
    uint64_t m = aq->m;
    int64_t s = (int64_t)m - (int64_t)n, kk = (int64_t)k;
    int64_t dlo = s - kk > -kk ? s - kk : -kk, dhi = s + kk < kk ? s + kk : kk;
    size_t fb = blk(band_row(0, dlo, m)), lb = blk(band_row(0, dhi, m));
    uint64_t top = 64 * (uint64_t)fb;                /* the value at row 64 * fb */
    for (size_t w = fb; w <= lb; w++) { pv[w] = ~0ull; mv[w] = 0; }
    for (uint64_t j = 1; j <= n; j++) {
        size_t nlb = blk(band_row((int64_t)j, dhi, m)), nfb = blk(band_row((int64_t)j, dlo, m));
        for (; lb < nlb; lb++) { pv[lb + 1] = ~0ull; mv[lb + 1] = 0; }
        for (; fb < nfb; fb++)
            top += (uint64_t)((int64_t)__builtin_popcountll(pv[fb]) - __builtin_popcountll(mv[fb]));
        const uint64_t *eq = aq->peq + (size_t)aq->code[y[j - 1]] * W;
        int h = 1;                                   /* D[0][j] - D[0][j-1] */
        for (size_t w = fb; w <= lb; w++) h = wm_bv_step(&pv[w], &mv[w], eq[w], h);
        top++;
    }
    /* row m is in the band of column n, so in blocks fb .. W - 1 */
    uint64_t v = top;
    for (uint64_t r = 64 * (uint64_t)fb; r < m; r++)
        v += (uint64_t)(int64_t)wm_bv_vdelta(pv[r / 64], mv[r / 64], (unsigned)(r % 64));
    return v;
}

/* Returns UINT64_MAX only when the 2 * ceil(m / 64) words of Pv/Mv cannot be
** had. */
uint64_t wm_global_distance(const wm_aq_t *aq, const uint8_t *y, uint64_t n) {
    uint64_t m = aq->m;
    if (m == 0) return n;
    if (n == 0) return m;
    uint64_t *pv = malloc(2 * aq->n_words * sizeof *pv);
    if (!pv) return UINT64_MAX;
    /* a result above the band is a real alignment's cost, so a band that
    ** wide is the last one needed; a band of m + n is the whole matrix */
    uint64_t k = (m > n ? m - n : n - m) + 64, d;
    for (;;) {
        if (k > m + n) k = m + n;
        d = banded(aq, y, n, k, pv, pv + aq->n_words);
        if (d <= k) break;
        k = d <= 4 * k ? d : 4 * k;
    }
    free(pv);
    return d;
}
