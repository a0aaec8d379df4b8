/*
** dtw.h -- what the files of src/dtw share: the cost and band of a cell,
** z-normalisation, the candidate list every mode fills and the choice of
** non-overlapping matches from it, and the entry points of each engine.
**
** The public contract (ranking, ties, the band, z-normalisation) is written
** once, in include/warpmatch.h; the code here follows it to the bit.
*/
#ifndef WM_DTW_DTW_H
#define WM_DTW_DTW_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "core/internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The family (dtw.c): its GPU table is sdtw_cuda.h's wm_dtw_gpu_t. */
extern const wm_family_t wm_dtw_family;

/* The cost of one cell. Kept out of line of any fused multiply-add: the
** files that use it are compiled with -ffp-contract=off (and the GPU uses
** __dmul_rn / __dadd_rn), so every backend rounds the same way. */
static inline double wm_dtw_cost(wm_dtw_cost_t c, double x, double y) {
    double d = x - y;
    return c == WM_DTW_SQUARED ? d * d : fabs(d);
}

/* float32 (opts.precision) through doubles, for the warping path's DP
** (trace.c): a float32 +, - or * of two floats is the double operation
** rounded to float (53 >= 2 * 24 + 2 bits, so the double rounding is
** innocuous: Figueroa, "When is double rounding innocuous?", 1995), and min
** and abs are exact in both; so one body in doubles runs both precisions, a
** value of the float32 DP being the float in a double. The hot loops (the
** scalar tile, the banded DP, the SIMD strips, the GPU) compute in float
** itself: rounding each operation costs 1.4-3.8x there. */
static inline double wm_dtw_r32(double v) { return (double)(float)v; }
static inline double wm_dtw_cost_p(wm_dtw_cost_t c, int f32, double x, double y) {
    if (!f32) return wm_dtw_cost(c, x, y);
    double d = wm_dtw_r32(wm_dtw_r32(x) - wm_dtw_r32(y));
    return c == WM_DTW_SQUARED ? wm_dtw_r32(d * d) : fabs(d);
}
static inline double wm_dtw_add_p(int f32, double a, double b) {
    return f32 ? wm_dtw_r32(a + b) : a + b;
}

/* The Sakoe-Chiba band of radius r (< 0: none) for an m x n matrix, 0-based
** cell (i, j): i - r - max(0, m - n) <= j <= i + r + max(0, n - m). */
static inline int wm_dtw_in_band(int64_t r, uint64_t m, uint64_t n, uint64_t i, uint64_t j) {
    if (r < 0) return 1;
    int64_t lo = (int64_t)i - r - (m > n ? (int64_t)(m - n) : 0);
    int64_t hi = (int64_t)i + r + (n > m ? (int64_t)(n - m) : 0);
    return (int64_t)j >= lo && (int64_t)j <= hi;
}

/* out[i] = (in[i] - mean) / sd, mean and population sd in two passes (sums
** left to right); sd == 0 gives zeros. in and out may be the same array. */
void wm_dtw_znorm(const double *in, uint64_t n, double *out);

/* The checks every entry point makes: the options (mode, cost, window,
** max_distance), and that every sample is finite; the message names the
** first bad one as "<who> sample N is NaN" (who: "series", "query",
** "query 3:", "a[3]:"). WM_OK or WM_INVALID. */
wm_status wm_dtw_check_opts(wm_context_t *cx, const wm_dtw_opts_t *o);
wm_status wm_dtw_check_finite(wm_context_t *cx, const double *v, uint64_t n, const char *who);
/* float32: every sample must round to a finite float (|v| below FLT_MAX's
** rounding edge); the message names the first that does not. */
wm_status wm_dtw_check_f32(wm_context_t *cx, const double *v, uint64_t n, const char *who);

/* One possible match: series[start, end) at this distance. */
typedef struct {
    double distance;
    uint64_t start, end;
} wm_dtw_cand_t;

typedef struct {
    wm_dtw_cand_t *a;
    size_t n, cap;
} wm_dtw_candvec_t;

int wm_dtw_candvec_push(wm_dtw_candvec_t *v, double distance, uint64_t start, uint64_t end);
void wm_dtw_candvec_free(wm_dtw_candvec_t *v);

/* Rank order: smaller distance, then smaller end, then larger start. */
int wm_dtw_cand_better(const wm_dtw_cand_t *a, const wm_dtw_cand_t *b);

/* Choose from c[0, n) (any order; reordered in place) the matches opts
** asks for: those with distance <= max_distance, taken in rank order,
** skipping any that overlaps one already taken ([s1, e1) and [s2, e2)
** overlap when s1 < e2 and s2 < e1), at most `top` of them (0 = no limit).
** The chosen ones end up in c[0, *n_out): in rank order when top > 0, in
** series order (by start) when top = 0. Returns 0, or -1 out of memory. */
int wm_dtw_select(wm_dtw_cand_t *c, size_t n, uint64_t top, double max_distance,
                  uint64_t series_len, size_t *n_out);

/* ---- ucr mode (src/dtw/ucr.c, CPU only) -------------------------------------
** Every window series[s, s + L) (L = o->length, or m when 0; L <= n), z-normalised
** with wm_dtw_znorm, against the z-normalised query (the caller passes it
** already normalised in qz), DTW with cost o->cost and band o->window
** (wm_dtw_in_band with m rows and L columns; no band when < 0), d[0][0] = 0
** as in global mode. Pushes onto out a candidate (distance, s, s + L) for
** every window that might be chosen by wm_dtw_select(top, max_distance):
**   - top == 1: at least the best window (smallest distance, then smallest
**     s), with its exact distance;
**   - otherwise: every window with distance <= max_distance (all windows
**     when max_distance is +inf), each with its exact distance.
** Windows are pruned with LB_Kim (first and last points) and LB_Keogh (query
** envelope against the window, and the window's envelope against the query;
** when L == m) and early-abandoned DTW, against the best so far (top == 1) or
** max_distance: a window is dropped only when its bound is strictly above
** the threshold, so ties keep the leftmost window. Runs on cx's pool.
** Returns WM_OK or WM_NOMEM. */
wm_status wm_dtw_ucr_cpu(wm_context_t *cx, const double *qz, size_t m, const double *series,
                         uint64_t n, const wm_dtw_opts_t *o, wm_dtw_candvec_t *out);

#ifdef __cplusplus
}
#endif
#endif /* WM_DTW_DTW_H */
