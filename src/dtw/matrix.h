/*
** matrix.h -- distance matrices (wm_dtw_matrix, matrix.c): global DTW of
** many pairs of whole signals, a pair at a time on a CPU thread or a warp
** of the GPU (matrix_cuda.cu).
**
** matrix.c checks the signals, normalises them when asked and cuts the
** matrix into chunks of pairs; each chunk is a list of (row signal, column
** signal) pairs over one array of signals, the row signal being the
** shorter (DTW is symmetric to the bit, so either way gives the same
** distance, and the GPU holds the rows in registers).
*/
#ifndef WM_DTW_MATRIX_H
#define WM_DTW_MATRIX_H

#include "dtw/sdtw.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The signals of a matrix call and one chunk of its pairs. */
typedef struct {
    const double *const *sig; /* the a's, then the b's (none when a x a) */
    const size_t *len;        /* the length of each */
    size_t n_sig;
    wm_dtw_cost_t cost;
    int64_t band;       /* radius; < 0: none */
    const uint32_t *pr; /* [np][2]: row signal, column signal */
    size_t np;          /* pairs in this chunk */
    uint64_t max_len;   /* the longest signal */
    wm_simd_isa_t simd; /* the CPU strips' widest set */
    int band_strips;    /* tuning.dtw_band_strips */
    int f32;            /* float32 arithmetic (opts.precision) */
} wm_dtw_mx_t;

/* The distance of one pair on the calling thread; col: scratch of at least
** the row signal's length, strip: WM_SDTW_SIMD_SCRATCH doubles. The same bits
** as the GPU and as wm_dtw's global mode. */
double wm_dtw_mx_pair(const wm_dtw_mx_t *mx, uint32_t row, uint32_t col_sig, double *col,
                      double *strip);

/* The GPU's run (matrix_cuda.cu, the `matrix` entry of sdtw_cuda.h's
** table): dist[k] = the distance of pair k of mx. upload: copy the signals
** first (the chunk is the call's first); later chunks find them still on the
** device. Errors: WM_DEVICE, WM_DEVICE_NOMEM. */
wm_status wm_dtw_mx_cuda(wm_context_t *cx, const wm_dtw_mx_t *mx, int upload, double *dist);

#ifdef __cplusplus
}
#endif
#endif /* WM_DTW_MATRIX_H */
