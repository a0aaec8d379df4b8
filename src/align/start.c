/*
** start.c -- turning the end of an infix alignment into its start.
**
** The scans give an end e and its distance d, the smallest over all starts.
** The contract asks for the largest start s with edit(query, t[s, e)) == d
** (the shortest substring). Aligning the reversed query against t read
** backwards from e, anchored at e (D[0][c] = c: no free start in the reversed
** text), column c holds edit(query, t[e - c, e)) in its bottom row, so the
** first c whose bottom row reaches d gives s = e - c. No optimal alignment is
** longer than m + d, so c stops there (or at e). Same method as
** src/core/resolve.c, on any number of 64-row blocks.
*/
#include <stdlib.h>

#include "align/align.h"
#include "align/band.h"
#include "align/bv.h"

/* Only rows i with |i - c| <= d are computed (Ukkonen's band): every cell of
** an alignment of cost d lies there. Rows left above grow by one a column and
** rows first entered below start one more than the row above; both are costs
** of real alignments, so each value is an upper bound and a bottom row equal
** to d is exact. Cost O((m + d) * d / 64) word steps.
**
** Returns UINT64_MAX only when memory runs out (the reversed query's match
** masks and two words of Pv/Mv per block). Should d be below every distance
** (a caller's bug), the largest start of the best distance seen is given. */
uint64_t wm_align_start(const wm_aq_t *aq, const uint8_t *t, uint64_t end, uint64_t d) {
    size_t m = aq->m, W = aq->n_words;
    if (m == 0 || d >= m) return end; /* c = 0: D[m][0] = m */
    uint64_t cmax = (uint64_t)m + d;
    if (cmax > end) cmax = end;

    size_t rows = (size_t)aq->n_codes + 1;
    uint64_t *peq = malloc((rows + 2) * W * sizeof *peq);
    if (!peq) return UINT64_MAX;
    uint64_t *pv = peq + rows * W, *mv = pv + W;
    wm_aq_peq_fill(aq, aq->q, m, 1, peq);

    unsigned last = (unsigned)((m - 1) % 64);
    size_t fb = 0, lb = wm_blk(d); /* rows 0 .. d of column 0 */
    uint64_t top = 0;              /* the value at row 64 * fb */
    for (size_t w = 0; w <= lb; w++) {
        pv[w] = ~0ull;
        mv[w] = 0;
    }
    int have_bottom = 0;
    uint64_t score = m, best = m, best_c = 0;
    for (uint64_t c = 1; c <= cmax; c++) {
        size_t nlb = wm_blk(c + d < m ? c + d : m), nfb = wm_blk(c > d ? c - d : 0);
        for (; lb < nlb; lb++) {
            pv[lb + 1] = ~0ull;
            mv[lb + 1] = 0;
        }
        for (; fb < nfb; fb++)
            top += (uint64_t)((int64_t)__builtin_popcountll(pv[fb]) - __builtin_popcountll(mv[fb]));
        const uint64_t *eq = peq + (size_t)aq->code[t[end - c]] * W;
        int h = 1; /* anchored: D[0][c] = c */
        for (size_t w = fb; w < lb; w++) h = wm_bv_step(&pv[w], &mv[w], eq[w], h);
        h = wm_bv_step_row(&pv[lb], &mv[lb], eq[lb], h, lb + 1 == W ? last : 63);
        top++;
        if (lb + 1 < W) continue; /* row m not reached yet */
        if (have_bottom) {
            score += (uint64_t)(int64_t)h;
        } else {
            /* row m entered the computed blocks: its value, once */
            score = top;
            for (size_t r = 64 * fb; r < m; r++)
                score +=
                    (uint64_t)(int64_t)wm_bv_vdelta(pv[r / 64], mv[r / 64], (unsigned)(r % 64));
            have_bottom = 1;
        }
        if (score < best) {
            best = score;
            best_c = c;
            if (best <= d) break;
        }
    }
    free(peq);
    return end - best_c;
}
