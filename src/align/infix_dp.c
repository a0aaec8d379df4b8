/*
** infix_dp.c -- Sellers' DP for the best ends of an infix alignment, one
** column of m + 1 cells at a time: the CPU half of the `wavefront`
** algorithm, the plain O(mn) reference the paper's CPU column is.
**
** With a limit k, Ukkonen's cutoff: rows below the last one within k in the
** previous column, plus one, are not computed. A cell above k can never be
** the minimum that makes a cell within k, so giving the first uncomputed row
** k + 1 keeps every value within k exact.
*/
#include <stdlib.h>

#include "align/align.h"

int wm_infix_dp_scan(const wm_aq_t *aq, const uint8_t *t, uint64_t scan_from, uint64_t own_from,
                     uint64_t to, int64_t limit, int64_t report_le, wm_endvec_t *ends,
                     wm_best_t *best) {
    const size_t m = aq->m;
    uint32_t *col = malloc((m + 1) * sizeof *col);
    uint16_t *qc = malloc(m * sizeof *qc);
    if (!col || !qc) {
        free(col);
        free(qc);
        return -1;
    }
    for (size_t i = 0; i < m; i++) qc[i] = aq->code[aq->q[i]];
    for (size_t i = 0; i <= m; i++) col[i] = (uint32_t)i; /* a fresh first column */
    const unsigned other = aq->n_codes;                   /* matches nothing */
    uint64_t keep = limit < 0 ? UINT64_MAX : (uint64_t)limit;
    size_t lact = keep < m ? (size_t)keep : m; /* last row within the limit */
    int rc = 0;

    for (uint64_t j = scan_from; j < to; j++) {
        unsigned c = aq->code[t[j]];
        size_t top = lact < m ? lact + 1 : m;
        if (lact < m) col[top] = (uint32_t)keep + 1; /* above the limit */
        uint32_t diag = col[0];                      /* D[i-1][j-1] */
        /* col[0] stays 0: the top row is free in an infix alignment */
        for (size_t i = 1; i <= top; i++) {
            uint32_t up = col[i - 1] + 1, left = col[i] + 1;
            uint32_t sub = diag + (qc[i - 1] == c && c != other ? 0u : 1u);
            diag = col[i];
            uint32_t v = up < left ? up : left;
            col[i] = v < sub ? v : sub;
        }
        if (top > lact && col[top] <= keep) lact = top;
        else
            while (lact > 0 && col[lact] > keep) lact--;
        uint64_t e = j + 1, d = col[m];
        if (lact < m || e <= own_from || d > keep) continue;
        wm_best_take(best, d, e);
        if (ends && (int64_t)d <= report_le && wm_endvec_push(ends, e)) {
            rc = -1;
            break;
        }
    }
    free(col);
    free(qc);
    return rc;
}
