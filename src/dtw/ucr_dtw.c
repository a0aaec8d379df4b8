/*
** ucr_dtw.c -- the DTW of the query and one normalised window (a row per
** query sample), within the band, abandoned early.
**
** The values are the contract's to the bit: d[0][0] = 0, the borders and
** cells outside the band +inf, each cell min(left, up, diagonal) + cost,
** rounded once. Only the decision to stop early uses bounds: after row i
** every path still has to cross rows i+1.. and the columns right of row i's
** band, so (row minimum) + (bound of those) above the cut means the final
** value is above the threshold (ucr_cut covers the rounding).
**
** Speed: a cell waits for its left neighbour (a min and an add, ~8 cycles),
** so one row at a time runs at the latency of that chain. Rows go in strips
** of UCR_STRIP, row k of the strip one column behind row k - 1: the strip's
** cells of one step depend only on the step before, giving UCR_STRIP
** independent chains. Each row's buffer holds its band plus +inf on both
** sides, which is all the row below reads.
*/
#include <math.h>
#include <stdint.h>

#include "dtw/ucr.h"

#define S UCR_STRIP

typedef struct {
    int64_t r, ex_lo, ex_hi; /* radius (-1 none); the band's widening each side */
    size_t L;
} band_t;

/* Row i's band, 0-based columns [*lo, *hi] (warpmatch.h's definition). */
static inline void band_of(const band_t *b, size_t i, size_t *lo, size_t *hi) {
    *lo = 0;
    *hi = b->L - 1;
    if (b->r < 0) return;
    int64_t a = (int64_t)i - b->r - b->ex_lo, c = (int64_t)i + b->r + b->ex_hi;
    if (a > 0) *lo = (size_t)a;
    if (c < (int64_t)b->L - 1) *hi = (size_t)c;
}

/* One cell from its up, diagonal and left values. up and diagonal first:
** only the last min and the add wait on the left cell. */
static inline double cell(wm_dtw_cost_t c, double up, double diag, double left, double qi,
                          double zj) {
    double best = up < diag ? up : diag;
    best = left < best ? left : best;
    return best + wm_dtw_cost(c, qi, zj);
}

/* One row's cells lo..hi; arrays indexed by column + 1 (0 is the border).
** Returns the row's smallest value. */
static inline double dtw_row(wm_dtw_cost_t c, double qi, const double *z, const double *prev,
                             double *cur, size_t lo, size_t hi) {
    double left = INFINITY, rmin = INFINITY;
    cur[lo] = INFINITY; /* left of the band (or the border d[i][0]) */
    for (size_t j = lo + 1; j <= hi + 1; j++) {
        left = cell(c, prev[j], prev[j - 1], left, qi, z[j - 1]);
        cur[j] = left;
        rmin = left < rmin ? left : rmin;
    }
    return rmin;
}

/* Rows q[0..S) of a strip into out[0..S), row k at column t - k in step t.
** prev: the row above the strip. Writes each row's smallest value to rmin. */
static inline void dtw_strip(wm_dtw_cost_t c, const double *q, const double *z, const double *prev,
                             double *const out[S], const size_t lo[S], const size_t hi[S], size_t L,
                             double rmin[S]) {
    const double *above[S];
    double left[S];
    size_t a = 0, b = SIZE_MAX; /* the steps in which every row is in its band */
    for (int k = 0; k < S; k++) {
        above[k] = k ? out[k - 1] : prev;
        left[k] = rmin[k] = INFINITY;
        out[k][lo[k]] = INFINITY; /* read before the strip reaches it */
        if (hi[k] + 2 <= L) out[k][hi[k] + 2] = INFINITY;
        if (lo[k] + (size_t)k > a) a = lo[k] + (size_t)k;
        if (hi[k] + (size_t)k < b) b = hi[k] + (size_t)k;
    }
    size_t t0 = lo[0], t1 = hi[S - 1] + S - 1;
    if (a > b) a = b = t1 + 1; /* no full steps: everything checked */
    for (size_t t = t0; t <= t1; t++) {
        if (t == a) { /* the middle, no band checks */
            for (; t <= b; t++)
                for (int k = 0; k < S; k++) {
                    size_t j = t - (size_t)k;
                    double v = cell(c, above[k][j + 1], above[k][j], left[k], q[k], z[j]);
                    out[k][j + 1] = left[k] = v;
                    rmin[k] = v < rmin[k] ? v : rmin[k];
                }
            if (t > t1) break;
        }
        for (int k = 0; k < S; k++) {
            size_t j = t - (size_t)k;
            if (t < (size_t)k || j < lo[k] || j > hi[k]) continue;
            double v = cell(c, above[k][j + 1], above[k][j], left[k], q[k], z[j]);
            out[k][j + 1] = left[k] = v;
            rmin[k] = v < rmin[k] ? v : rmin[k];
        }
    }
}

/* The bound on what is left after row i (band ends at column hi). */
static inline double rest_after(const double *cb_rows, const double *cb_cols, size_t i, size_t hi) {
    double rest = 0.0;
    if (cb_rows && cb_rows[i + 1] > rest) rest = cb_rows[i + 1];
    if (cb_cols && cb_cols[hi + 1] > rest) rest = cb_cols[hi + 1];
    return rest;
}

static double dtw_rows(wm_dtw_cost_t c, const ucr_query_t *uq, const double *z,
                       const double *cb_rows, const double *cb_cols, double cut, double *buf) {
    size_t m = uq->m, L = uq->len;
    band_t bd = { uq->r, m > L ? (int64_t)(m - L) : 0, L > m ? (int64_t)(L - m) : 0, L };
    double *rows[S + 1];
    for (int k = 0; k <= S; k++) rows[k] = buf + (size_t)k * (L + 1);
    double *prev = rows[S];
    prev[0] = 0.0;
    for (size_t j = 1; j <= L; j++) prev[j] = INFINITY;
    size_t i = 0;
    for (; i + S <= m; i += S) {
        double *out[S], rmin[S];
        size_t lo[S], hi[S];
        for (int k = 0, n = 0; k <= S; k++) /* the S buffers that are not prev */
            if (rows[k] != prev) out[n++] = rows[k];
        for (int k = 0; k < S; k++) band_of(&bd, i + (size_t)k, &lo[k], &hi[k]);
        if (c == WM_DTW_SQUARED)
            dtw_strip(WM_DTW_SQUARED, uq->q + i, z, prev, out, lo, hi, L, rmin);
        else dtw_strip(WM_DTW_ABS, uq->q + i, z, prev, out, lo, hi, L, rmin);
        for (int k = 0; k < S; k++)
            if (rmin[k] + rest_after(cb_rows, cb_cols, i + (size_t)k, hi[k]) > cut) return INFINITY;
        prev = out[S - 1];
    }
    for (; i < m; i++) {
        double *cur = rows[prev == rows[0] ? 1 : 0];
        size_t lo, hi;
        band_of(&bd, i, &lo, &hi);
        double rmin = c == WM_DTW_SQUARED ? dtw_row(WM_DTW_SQUARED, uq->q[i], z, prev, cur, lo, hi)
                                          : dtw_row(WM_DTW_ABS, uq->q[i], z, prev, cur, lo, hi);
        if (hi + 2 <= L) cur[hi + 2] = INFINITY; /* the next row reads up to hi + 1 */
        if (rmin + rest_after(cb_rows, cb_cols, i, hi) > cut) return INFINITY;
        prev = cur;
    }
    return prev[L];
}

double ucr_dtw(const ucr_query_t *uq, const double *z, const double *cb_rows, const double *cb_cols,
               double cut, double *buf) {
    return dtw_rows(uq->cost, uq, z, cb_rows, cb_cols, cut, buf);
}
