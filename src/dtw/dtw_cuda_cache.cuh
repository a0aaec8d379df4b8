/*
** dtw_cuda_cache.cuh -- the device buffers the dtw family keeps in its slot
** of the context's cache between calls (grown, never shrunk): the
** subsequence DP's (sdtw_cuda.cu, which owns the slot) and the distance
** matrix's (matrix_cuda.cu), ucr mode's (ucr_cuda.cu) and the start
** windows' (sdtw_window_cuda.cu), listed here.
*/
#ifndef WM_DTW_DTW_CUDA_CACHE_CUH
#define WM_DTW_DTW_CUDA_CACHE_CUH

#include "cuda/device.cuh"

enum {
    WM_DTW_MX_SIG,     /* the signals back to back */
    WM_DTW_MX_OFF,     /* where each starts, and the end */
    WM_DTW_MX_PAIR,    /* a chunk's pairs by lane shape, then their places */
    WM_DTW_MX_OUT,     /* a chunk's distances */
    WM_DTW_MX_SCRATCH, /* the last row of a stripe, two a warp */
    WM_DTW_UCR_SERIES, /* ucr_cuda.cu: the series (when not a resident target) */
    WM_DTW_UCR_STATS,  /* each window's mean, then its sd */
    WM_DTW_UCR_ENV,    /* the query's envelope: up, then lo */
    WM_DTW_UCR_LB,     /* each window's bound, then sorted */
    WM_DTW_UCR_IDX,    /* each window's start, then sorted by its bound */
    WM_DTW_UCR_SORT,   /* the sort's temporary storage */
    WM_DTW_UCR_SENV,   /* the series' envelope of the band's radius: up, then lo */
    WM_DTW_WIN_X,      /* sdtw_window_cuda.cu: the query */
    WM_DTW_WIN_Y,      /* the window (when not a resident target's) */
    WM_DTW_WIN_OUT,    /* the corner's value and start */
    WM_DTW_MX_BUFS
};

/* The matrix's buffers ([WM_DTW_MX_BUFS]) in cx's dtw cache; NULL out of
** host memory. */
wm_cu_buf_t *wm_dtw_cuda_mx_bufs(wm_context_t *cx);

#endif
