/*
** trace.h -- whole-window DPs: the canonical warping path of a match, and
** the banded global DP.
*/
#ifndef WM_DTW_TRACE_H
#define WM_DTW_TRACE_H

#include "dtw/sdtw.h"

/* The canonical path (include/warpmatch.h) of the DP of y[0, n) against
** x[0, m) with `top` above row 1 (FRESH: the window of a subsequence match;
** GLOBAL: a whole pair) and band (< 0: none). Series indices are reported
** as col0 + column; f32: the float32 DP (sdtw.h's job.f32). *path_out (2 * *len_out values) is the caller's to free.
** Errors: WM_NOMEM, WM_UNSUPPORTED (more than 2^33 cells; cx says so). */
wm_status wm_dtw_trace(wm_context_t *cx, const double *x, size_t m, const double *y, uint64_t n,
                       uint64_t col0, wm_sdtw_top_t top, int64_t band, wm_dtw_cost_t cost, int f32,
                       uint64_t **path_out, uint64_t *len_out);

/* d[m][n] of the global DP restricted to the band (< 0: the whole matrix);
** col is scratch of m doubles. */
double wm_dtw_global_banded(const double *x, size_t m, const double *y, uint64_t n, int64_t band,
                            wm_dtw_cost_t cost, int f32, double *col);

#endif
