/*
** sdtw_cuda.h -- the GPU runs of the subsequence / global DP (sdtw_cuda.cu);
** without CUDA they say so (sdtw_cuda_stub.c). Same results as wm_sdtw_cpu.
*/
#ifndef WM_DTW_SDTW_CUDA_H
#define WM_DTW_SDTW_CUDA_H

#include "dtw/sdtw.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The best bottom-row cell of an untracked job (value and end; no start). */
wm_status wm_sdtw_cuda_best(wm_context_t *cx, const wm_sdtw_job_t *j, wm_sdtw_best_t *best);
/* wm_sdtw_cuda_best for nq untracked jobs on the same series in one set of
** launches; every query has at most 1,024 samples and the same
** wm_sdtw_cuda_lanes_rows. */
wm_status wm_sdtw_cuda_best_many(wm_context_t *cx, const wm_sdtw_job_t *j, size_t nq,
                                 wm_sdtw_best_t *best);
/* The rows a GPU lane holds for a query of m samples (1 .. 32), and the
** longest query one batch takes. */
#define WM_SDTW_CUDA_BATCH_MAX_M 1024
static inline int wm_sdtw_cuda_lane_rows(size_t m) {
    int r = 1;
    while ((size_t)r * 32 < m) r *= 2;
    return r;
}
/* The whole bottom row of a tracked job: values and starts, n of each. */
wm_status wm_sdtw_cuda_row(wm_context_t *cx, const wm_sdtw_job_t *j, double *row_v, uint64_t *row_s);
/* d[m][n] of a tracked job and its start (labels count from j->y). */
wm_status wm_sdtw_cuda_corner_tracked(wm_context_t *cx, const wm_sdtw_job_t *j, double *corner,
                                      uint64_t *start);
/* d[m][n] of an untracked global job. */
wm_status wm_sdtw_cuda_corner(wm_context_t *cx, const wm_sdtw_job_t *j, double *corner);

#ifdef __cplusplus
}
#endif
#endif
