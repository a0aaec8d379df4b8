/*
** ucr.h -- the pieces of ucr mode (the UCR Suite, Rakthanmanon et al. 2012)
** that src/dtw/ucr*.c share, and that the unit test and the benchmark call
** one by one: the query prepared once, per-window statistics, the lower
** bounds (ucr_bounds.c), the early-abandoning DTW (ucr_dtw.c) and the search
** with its pruning counts (ucr.c).
**
** Exactness. wm_dtw_ucr_cpu promises the bits of a brute force, so:
**   - every bound sees the window exactly as wm_dtw_znorm normalises it:
**     ucr_stats reproduces its mean and sd bit for bit (two passes, sums
**     left to right; no running sums, whose drift would change the bits),
**     and ucr_z divides as it does;
**   - a bound is a sum of costs, each no larger than the cost of a distinct
**     cell on every warping path, but added in another order than the DTW
**     adds them (reordered, or as a row minimum plus a suffix), so in
**     floating point it can come out a few ulps above the DTW it bounds.
**     A window is dropped only when its bound exceeds ucr_cut(threshold),
**     the threshold raised by more than that rounding (see ucr_cut); a
**     window whose distance equals the threshold is never dropped, so ties
**     keep the leftmost window.
*/
#ifndef WM_DTW_UCR_H
#define WM_DTW_UCR_H

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "dtw/dtw.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The query as every window meets it. */
typedef struct {
    const double *q; /* z-normalised query, m samples (the caller's) */
    size_t m;
    size_t len; /* L, the window length */
    int64_t r;  /* band radius, clamped to [0, max(m, L)]; -1 = none */
    wm_dtw_cost_t cost;
    double slack; /* ucr_cut's factor for this m and L */
    /* L == m only (LB_Keogh): the query's envelope of radius r (the whole
    ** query when there is no band) and its indices by |q| descending, the
    ** order in which bound terms are added (big ones first abandon soonest). */
    double *up, *lo;
    size_t *order;
} ucr_query_t;

/* Fills uq for qz (kept by pointer), m, o->length, o->window, o->cost.
** Returns 0, or -1 out of memory. */
int ucr_query_init(ucr_query_t *uq, const double *qz, size_t m, const wm_dtw_opts_t *o);
void ucr_query_free(ucr_query_t *uq);

/* The threshold a bound must exceed for a window to be dropped: thr raised
** by the worst rounding of a sum of at most m + L + 1 non-negative terms
** added in two different orders (relative (m + L) * 2^-53 each way, taken
** four times over), plus DBL_MIN for terms that underflow. +inf stays +inf. */
static inline double ucr_cut(double thr, double slack) { return thr * slack + DBL_MIN; }

/* Window sample x normalised as wm_dtw_znorm does it with this mean and sd. */
static inline double ucr_z(double x, double mean, double sd) {
    return sd > 0.0 ? (x - mean) / sd : 0.0;
}

/* The mean and sd wm_dtw_znorm computes for x[0, len) (bit for bit). */
void ucr_stats(const double *x, size_t len, double *mean, double *sd);
/* The same for the 8 windows x + k, k = 0..7, in one sweep (SIMD lanes). */
#define UCR_LANES 8
void ucr_stats8(const double *x, size_t len, double mean[UCR_LANES], double sd[UCR_LANES]);

/* up[i] / lo[i] = max / min of x[i - r, i + r] (clipped to [0, n)). dq_a and
** dq_b: n indices of scratch each. */
void ucr_envelope(const double *x, size_t n, size_t r, double *up, double *lo, size_t *dq_a,
                  size_t *dq_b);

/* ---- lower bounds of the DTW of uq and the window x[0, L) (raw samples,
** normalised on the fly with mean, sd). Each returns its sum as soon as it
** exceeds cut (a partial sum, still a bound), else the whole sum. ---------- */

/* LB_Kim, the UCR Suite's hierarchy: the first and the last cell, then the
** cheapest cell of the 2nd and of the 2nd-last anti-layer, then the 3rd (as
** many layers as stay apart for short inputs). Any L. */
double ucr_lb_kim(const ucr_query_t *uq, const double *x, double mean, double sd, double cut);
/* LB_Keogh EQ (L == m): each window sample against the query's envelope.
** terms[j] gets column j's term (all of them when the sum stays <= cut). */
double ucr_lb_keogh_eq(const ucr_query_t *uq, const double *x, double mean, double sd, double cut,
                       double *terms);
/* LB_Keogh EC (L == m): each query sample against the window's envelope,
** given raw as xu / xl (any envelope at least as wide as radius r inside
** the window: a wider one only loosens the bound). terms[i] gets row i's. */
double ucr_lb_keogh_ec(const ucr_query_t *uq, const double *xu, const double *xl, double mean,
                       double sd, double cut, double *terms);

/* The banded DTW of uq->q and the normalised window z[0, L), as wm_dtw's
** contract defines it, abandoned (returning +inf) once some row's smallest
** cell plus a bound on the rest exceeds cut. The rest after row i is the
** larger of cb_rows[i + 1] (a suffix sum of per-row terms) and
** cb_cols[hi + 1] (of per-column terms; hi is the last column of row i's
** band); either may be NULL (no bound but 0). buf: UCR_DTW_BUF(L) doubles.
** Rows are computed UCR_STRIP at a time (see ucr_dtw.c). */
#define UCR_STRIP 4
#define UCR_DTW_BUF(L) ((size_t)(UCR_STRIP + 1) * ((size_t)(L) + 1))
double ucr_dtw(const ucr_query_t *uq, const double *z, const double *cb_rows, const double *cb_cols,
               double cut, double *buf);

/* ---- the search ------------------------------------------------------------ */

/* What became of the windows (summed over threads). Each window is counted
** once: dropped by the first bound that exceeded the cut, abandoned during
** its DTW, or computed to the end. The split depends on the thread count
** (threads share the best so far); the results do not. */
typedef struct {
    uint64_t windows, kim, keogh_eq, keogh_ec, dtw_abandoned, dtw_full;
} ucr_counts_t;

/* wm_dtw_ucr_cpu, adding its counts to *counts when not NULL. */
wm_status ucr_search(wm_context_t *cx, const double *qz, size_t m, const double *series, uint64_t n,
                     const wm_dtw_opts_t *o, wm_dtw_candvec_t *out, ucr_counts_t *counts);

#ifdef __cplusplus
}
#endif
#endif /* WM_DTW_UCR_H */
