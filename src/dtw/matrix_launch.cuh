/*
** matrix_launch.cuh -- the arguments of the pair kernel of matrix_cuda.cu
** (a warp a pair, the global DP of a row signal against a column signal),
** and its launch for windows of a series (ucr_cuda.cu): signal 0 against
** series[s, s + L) for each s of a list, each window z-normalised on the fly
** with its mean and sd as wm_dtw_znorm gives them.
*/
#ifndef WM_DTW_MATRIX_LAUNCH_CUH
#define WM_DTW_MATRIX_LAUNCH_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "core/internal.h"

typedef struct {
    const double *sig;     /* every signal back to back */
    const uint64_t *off;   /* [n_sig + 1] */
    const uint32_t *pr;    /* [np][2] this launch's pairs: row signal, column signal */
    const uint32_t *place; /* [np] each pair's index in dist (NULL: k) */
    uint32_t np;
    int64_t band;
    double *dist;
    double *scratch; /* [warps][scratch_stride]: two rows of scratch_n, then suf, bp, sufr */
    uint64_t scratch_n, scratch_stride;
    /* window mode (wins not NULL): pair k is signal 0 (m_rows samples)
    ** against series[wins[k], wins[k] + win_len), normalised with
    ** win_mean / win_sd at that start */
    const uint32_t *wins;
    const double *series;
    const double *win_mean, *win_sd;
    uint64_t win_len, m_rows;
    /* abandon: a pair whose distance is surely over cut stops early with
    ** +inf: a pair of one stripe when its two fronts show it, a pair of
    ** stripes at a stripe's end, by its bottom row */
    int abandon;
    double cut;
    /* with abandon, window mode and win_len == m_rows: the query's envelope
    ** (ucr.h's up, lo). Each window's LB_Keogh terms, summed from each
    ** column to the end (suf, win_len + 1 in the warp's scratch after its
    ** rows), bound the rest of any path from a column on, as the CPU's
    ** cascade bounds it; NULL: no such bound */
    const double *env_up, *env_lo;
    /* with env_up, optionally: the series' envelope of radius band (raw
    ** max / min around each sample). Each window's LB_Keogh EC terms (query
    ** row i against the window's envelope at i), summed from each row to the
    ** end (sufr, m_rows + 1 in the scratch after bp), drop a window whose
    ** total is over the cut before its DTW and bound the rest of a path
    ** beside suf: a path from row i on pays both; NULL: no row bound */
    const double *ser_up, *ser_lo;
} mx_args_t;

/* Launch the windows of A (wins, np, dist, sig/off holding the query as
** signal 0, m_rows its length; env_up / env_lo or NULL) on stream S with
** band radius band (< 0: none); the lane shape from the pair kernel's cost
** model, the scratch from the context's matrix buffers. Errors:
** WM_DEVICE_NOMEM, WM_DEVICE. */
extern "C" wm_status wm_dtw_mx_windows(wm_context_t *cx, mx_args_t *A, int64_t band, bool sq,
                                       cudaStream_t S);

#endif
