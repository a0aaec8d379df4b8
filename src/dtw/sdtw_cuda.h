/*
** sdtw_cuda.h -- dtw's GPU table: the GPU runs of the subsequence / global
** DP (sdtw_cuda.cu), the same results as wm_sdtw_cpu. A context on a GPU has
** the table (wm_dtw_gpu); a build without CUDA has none.
*/
#ifndef WM_DTW_SDTW_CUDA_H
#define WM_DTW_SDTW_CUDA_H

#include "dtw/matrix.h"
#include "dtw/sdtw.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The rows a GPU lane holds for a query of m samples (1 .. 32), and the
** longest query one batch takes. */
#define WM_SDTW_CUDA_BATCH_MAX_M 1024
static inline int wm_sdtw_cuda_lane_rows(size_t m) {
    int r = 1;
    while ((size_t)r * 32 < m) r *= 2;
    return r;
}

/*   best: the best bottom-row cell of an untracked job (value and end; no
**     start).
**   best_many: best for nq untracked jobs on the same series in one set of
**     launches; every query has at most WM_SDTW_CUDA_BATCH_MAX_M samples and
**     the same wm_sdtw_cuda_lane_rows.
**   row: the whole bottom row of a tracked job: values and starts, n of each.
**   corner_tracked: d[m][n] of a tracked job and its start (labels count
**     from j->y).
**   corner: d[m][n] of an untracked global job.
**   matrix: a chunk of a distance matrix's pairs (matrix.h).
**   ucr_best: ucr mode's best window (top 1) for the z-normalised query qz:
**     *best its distance and *start its start, the smallest distance and
**     then the smallest start, as wm_dtw_ucr_cpu chooses it; *start =
**     UINT64_MAX when no window is within o->max_distance. The windows must
**     number at most UINT32_MAX.
**   free_cache: the device buffers kept in the dtw family's cache slot. */
typedef struct {
    wm_status (*best)(wm_context_t *cx, const wm_sdtw_job_t *j, wm_sdtw_best_t *best);
    wm_status (*best_many)(wm_context_t *cx, const wm_sdtw_job_t *j, size_t nq,
                           wm_sdtw_best_t *best);
    wm_status (*row)(wm_context_t *cx, const wm_sdtw_job_t *j, double *row_v, uint64_t *row_s);
    wm_status (*corner_tracked)(wm_context_t *cx, const wm_sdtw_job_t *j, double *corner,
                                uint64_t *start);
    wm_status (*corner)(wm_context_t *cx, const wm_sdtw_job_t *j, double *corner);
    wm_status (*matrix)(wm_context_t *cx, const wm_dtw_mx_t *mx, int upload, double *dist);
    wm_status (*ucr_best)(wm_context_t *cx, const double *qz, size_t m, const double *series,
                          uint64_t n, const wm_dtw_opts_t *o, double *best, uint64_t *start);
    void (*free_cache)(void *cache);
} wm_dtw_gpu_t;
extern const wm_dtw_gpu_t wm_dtw_gpu_cuda;
wm_status wm_dtw_ucr_cuda(wm_context_t *cx, const double *qz, size_t m, const double *series,
                          uint64_t n, const wm_dtw_opts_t *o, double *best, uint64_t *start);

/* corner_tracked of a short window (sdtw_window_cuda.cu): one block, its
** warps a pipeline over the rows. _fits: the job is one it takes (a fresh
** top, starts tracked, m <= 4,096, n <= 2^22). */
int wm_sdtw_window_fits(const wm_sdtw_job_t *j);
wm_status wm_sdtw_window_cuda(wm_context_t *cx, const wm_sdtw_job_t *j, double *corner,
                              uint64_t *start);

/* The GPU table of cx, or NULL: run on the CPU. */
static inline const wm_dtw_gpu_t *wm_dtw_gpu(const wm_context_t *cx) {
    return (const wm_dtw_gpu_t *)wm_context_gpu(cx, &wm_dtw_family);
}

#ifdef __cplusplus
}
#endif
#endif
