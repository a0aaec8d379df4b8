/*
** infix_bv.c -- the best ends of an infix alignment on the CPU by Myers'
** bit-vector DP over ceil(m / 64) words a column, pruned by Ukkonen's cutoff.
**
** The cutoff: only rows that can still hold a value <= limit are computed.
** Blocks 0..last are active; every cell of a block below `last` is known to
** exceed the limit, which is all the cells at or under the limit need to be
** exact (a value above the limit can never be the minimum that makes a
** value at or under it). The band grows by at most one row a column
** (D[i][j] >= D[i-1][j-1]), so block last+1 joins when the bottom of block
** last is within the limit; it joins as the largest column its neighbour
** allows (each row one more than the one above), which overestimates cells
** that are all above the limit anyway. A block leaves when its bottom is at
** least limit + 64: then every row of it is above the limit.
**
** When the caller only wants the best end (ends == NULL), the limit also
** shrinks to the best distance found so far: a later end matters only if it
** is at least as good. That is what makes a read that does occur in a long
** target cheap to place: once found, the band narrows to its distance.
*/
#include <stdlib.h>
#include <string.h>

#include "align/align.h"
#include "align/bv.h"

/* Rows of block b: 64, or what is left of the query in the last one. */
static inline uint64_t block_rows(const wm_aq_t *aq, size_t b) {
    return b + 1 < aq->n_words ? 64 : aq->m - 64 * b;
}

/* m <= 64: one word, no band bookkeeping (the whole column is one block). */
static int scan_one_word(const wm_aq_t *aq, const uint8_t *t, uint64_t scan_from, uint64_t own_from,
                         uint64_t to, int64_t limit, int64_t report_le, wm_endvec_t *ends,
                         wm_best_t *best) {
    const uint64_t *peq = aq->peq;
    const uint16_t *code = aq->code;
    unsigned row = (unsigned)(aq->m - 1);
    uint64_t pv = ~0ull, mv = 0, score = aq->m;
    uint64_t keep = limit < 0 ? UINT64_MAX : (uint64_t)limit;
    for (uint64_t j = scan_from; j < to; j++) {
        score += wm_bv_step_row(&pv, &mv, peq[code[t[j]]], 0, row);
        uint64_t e = j + 1;
        if (e <= own_from || score > keep) continue;
        wm_best_take(best, score, e);
        if (ends && (int64_t)score <= report_le && wm_endvec_push(ends, e)) return -1;
    }
    return 0;
}

int wm_infix_bv_scan(const wm_aq_t *aq, const uint8_t *t, uint64_t scan_from, uint64_t own_from,
                     uint64_t to, int64_t limit, int64_t report_le, wm_endvec_t *ends,
                     wm_best_t *best) {
    if (aq->n_words == 1)
        return scan_one_word(aq, t, scan_from, own_from, to, limit, report_le, ends, best);

    const size_t W = aq->n_words;
    const uint64_t m = aq->m;
    const unsigned bottom_row = (unsigned)((m - 1) % 64);
    uint64_t *pv = malloc(W * 3 * sizeof *pv);
    if (!pv) return -1;
    uint64_t *mv = pv + W, *score = pv + 2 * W; /* score[b]: the bottom row of block b */

    /* The fresh first column: D[i] = i. */
    for (size_t b = 0; b < W; b++) {
        pv[b] = ~0ull;
        mv[b] = 0;
        score[b] = 64 * b + block_rows(aq, b);
    }
    uint64_t lim = (limit < 0 || (uint64_t)limit >= m) ? m : (uint64_t)limit;
    if (!ends && best->d < lim) lim = best->d;
    size_t last = W - 1; /* block b's top row is 64b */
    if (lim / 64 < last) last = (size_t)(lim / 64);

    const uint64_t *peq = aq->peq;
    const uint16_t *code = aq->code;
    for (uint64_t j = scan_from; j < to; j++) {
        const uint64_t *eq = peq + (size_t)code[t[j]] * W;
        int h = 0;
        for (size_t b = 0; b < last; b++) {
            h = wm_bv_step(&pv[b], &mv[b], eq[b], h);
            score[b] += (uint64_t)(int64_t)h;
        }
        h = wm_bv_step_row(&pv[last], &mv[last], eq[last], h, last == W - 1 ? bottom_row : 63);
        score[last] += (uint64_t)(int64_t)h;

        uint64_t e = j + 1;
        if (last == W - 1 && score[last] <= lim && e > own_from) {
            uint64_t d = score[last];
            wm_best_take(best, d, e);
            if (ends && (int64_t)d <= report_le && wm_endvec_push(ends, e)) {
                free(pv);
                return -1;
            }
            if (!ends && d < lim) lim = d;
        }

        /* The band for the next column: drop the blocks now wholly above the
        ** limit, then let the band grow by one block if its bottom is within
        ** it (both can happen in one column: a match that starts right where
        ** another ended). */
        while (last > 0 && score[last] >= lim + 64) last--;
        if (last < W - 1 && score[last] <= lim) {
            last++;
            pv[last] = ~0ull;
            mv[last] = 0;
            score[last] = score[last - 1] + block_rows(aq, last);
        }
    }
    free(pv);
    return 0;
}
