/*
** sdtw_window_cuda.cu -- the corner (value and start) of one short window's
** tracked DP on the GPU: wm_sdtw_find_start's windows, where the start of
** the best match is read (sdtw.h).
**
** The window is m rows by w columns, about 1.25 m, a few million cells: far
** too few to cut into pieces, and one warp going through its stripes in turn
** runs m w / 32 dependent rows (1.1 ms a stripe of 512 rows for m = 1,024,
** half of a whole 4 M-sample call). Here one block runs it as a pipeline:
** warp k holds rows [32 R k, 32 R (k + 1)), R a lane, and runs the wavefront
** of sdtw_kernel.cuh (lane l at column t - l) two phases of 32 steps behind
** warp k - 1, whose last row it reads through a ring in shared memory; each
** phase ends at a block barrier. The latency falls to about w + 64 m / (32 R)
** steps of R rows. The cell is sdtw_kernel.cuh's tracked cell, operation for
** operation (dtw_arith.cuh), so the corner has the CPU's bits.
*/
#include <cuda_runtime.h>
#include <math_constants.h>
#include <stdint.h>
#include <string.h>

#include "cuda/cuda_common.cuh"
#include "dtw/dtw_arith.cuh"
#include "dtw/dtw_cuda_cache.cuh"
#include "dtw/sdtw_cuda.h"

#define WIN_FULL 0xffffffffu
#define WIN_WARPS 32 /* at most, a block */
#define WIN_RING 128 /* columns of a warp's last row in the ring: 4 phases */
#define WIN_MAX_R                                                                                  \
    4 /* rows a lane: 1,024 threads have 64 registers each, and R = 8
                       ** spills its values and starts; taller queries take the
                       ** pieces of sdtw_cuda.cu */

typedef struct {
    const double *x; /* the query, m samples */
    int m;
    const double *y; /* the window, w samples */
    uint32_t w;
    double *out_v; /* the corner: value and start (counted from y) */
    uint64_t *out_s;
} win_args_t;

template <typename T, int R, bool SQ>
__global__ void __launch_bounds__(WIN_WARPS * 32) win_kernel(win_args_t A) {
    extern __shared__ uint64_t win_smem[];
    const int lane = threadIdx.x & 31, k = threadIdx.x >> 5, nw = blockDim.x >> 5;
    /* the ring of warp k's last row: [nw - 1][WIN_RING] starts, then values */
    uint64_t *ring_s = win_smem;
    T *ring_v = (T *)(win_smem + (size_t)(nw - 1) * WIN_RING);
    const int row0 = (k * 32 + lane) * R;
    T x[R], h[R];
    uint64_t hs[R];
#pragma unroll
    for (int r = 0; r < R; r++) {
        x[r] = row0 + r < A.m ? (T)A.x[row0 + r] : (T)0;
        h[r] = (T)CUDART_INF; /* column -1: outside the window */
        hs[r] = 0;
    }
    /* the diagonal of lane 0's first cell: row 0 (fresh, a start here) above
    ** warp 0; column -1 (+inf) for the others */
    T dg_v = k == 0 ? (T)0 : (T)CUDART_INF;
    uint64_t dg_s = 0;
    T yv = 0, stage = 0;
    const uint32_t w = A.w, steps = w + 31;
    const uint32_t phases = (steps + 31) / 32 + 2 * (nw - 1);
    for (uint32_t P = 0; P < phases; P++) {
        const int64_t t0 = ((int64_t)P - 2 * k) * 32; /* this warp's first step */
        if (t0 >= 0 && t0 < steps) {
            /* the phase's 32 samples, lane l's at t0 + l */
            stage = t0 + lane < w ? (T)A.y[t0 + lane] : (T)0;
            for (int i = 0; i < 32; i++) {
                const uint32_t t = (uint32_t)t0 + i;
                if (t >= steps) break;
                const T y_in = __shfl_sync(WIN_FULL, stage, i);
                const T y_prev = __shfl_up_sync(WIN_FULL, yv, 1);
                T up_v = __shfl_up_sync(WIN_FULL, h[R - 1], 1);
                uint64_t up_s = __shfl_up_sync(WIN_FULL, hs[R - 1], 1);
                if (lane == 0) {
                    yv = y_in;
                    if (k == 0) { /* row 0: a path may start at this column */
                        up_v = 0;
                        up_s = t;
                    } else { /* warp k - 1's last row at this column */
                        up_v = ring_v[(k - 1) * WIN_RING + t % WIN_RING];
                        up_s = ring_s[(k - 1) * WIN_RING + t % WIN_RING];
                    }
                } else {
                    yv = y_prev;
                }
                const T nd_v = up_v; /* the next step's diagonal */
                const uint64_t nd_s = up_s;
                if (t >= (uint32_t)lane && t - lane < w) {
                    T d_v = dg_v, u_v = up_v;
                    uint64_t d_s = dg_s, u_s = up_s;
#pragma unroll
                    for (int r = 0; r < R; r++) {
                        const T cst = dtw_cell_cost<SQ>(x[r], yv);
                        const T l_v = h[r];
                        const uint64_t l_s = hs[r];
                        T bv;
                        uint64_t bs;
                        dtw_cell_tracked(d_v, d_s, u_v, u_s, l_v, l_s, cst, bv, bs);
                        d_v = l_v;
                        d_s = l_s;
                        u_v = bv;
                        u_s = bs;
                        h[r] = bv;
                        hs[r] = bs;
                    }
                    if (lane == 31 && k + 1 < nw) { /* column t - 31 for warp k + 1 */
                        ring_v[k * WIN_RING + (t - 31) % WIN_RING] = h[R - 1];
                        ring_s[k * WIN_RING + (t - 31) % WIN_RING] = hs[R - 1];
                    }
                }
                dg_v = nd_v;
                dg_s = nd_s;
            }
        }
        __syncthreads();
    }
    /* the corner: row m - 1 at column w - 1, which its lane ran last */
    const int last = A.m - 1;
    if (k == last / (32 * R) && lane == (last / R) % 32) {
#pragma unroll
        for (int r = 0; r < R; r++)
            if (r == last % R) {
                *A.out_v = (double)h[r];
                *A.out_s = hs[r];
            }
    }
}

typedef void (*win_fn)(win_args_t);

template <typename T, bool SQ>
static win_fn win_r(int R) {
    switch (R) {
    case 1: return win_kernel<T, 1, SQ>;
    case 2: return win_kernel<T, 2, SQ>;
    default: return win_kernel<T, 4, SQ>;
    }
}

static win_fn win_of(int R, bool sq, bool f32) {
    if (f32) return sq ? win_r<float, true>(R) : win_r<float, false>(R);
    return sq ? win_r<double, true>(R) : win_r<double, false>(R);
}

extern "C" int wm_sdtw_window_fits(const wm_sdtw_job_t *j) {
    return j->top == WM_SDTW_TOP_FRESH && j->track && j->m <= (size_t)WIN_WARPS * 32 * WIN_MAX_R &&
           j->n <= ((uint64_t)1 << 22);
}

extern "C" wm_status wm_sdtw_window_cuda(wm_context_t *cx, const wm_sdtw_job_t *j, double *corner,
                                         uint64_t *start) {
    const cudaStream_t S = cx->cuda->stream[0];
    wm_cu_buf_t *b = wm_dtw_cuda_mx_bufs(cx);
    if (!b) return WM_NOMEM;
    /* R rows a lane (the tuning's, 4 by default: a step's shuffles and
    ** bookkeeping then serve four cells, and the pipeline is m / 128 warps
    ** deep), more when the query needs them */
    int R = cx->tuning.dtw_window_rows == 1 || cx->tuning.dtw_window_rows == 2
                ? cx->tuning.dtw_window_rows
                : WIN_MAX_R;
    while ((size_t)R * 32 * WIN_WARPS < j->m) R *= 2;
    const int nw = (int)((j->m + 32 * (size_t)R - 1) / (32 * (size_t)R));
    /* the window's samples: the resident series' own when it is one */
    const double *y =
        (const double *)wm_cuda_target_view(cx, (const uint8_t *)j->y, j->n * sizeof(double));
    wm_status st = wm_cu_dev_reserve(cx, &b[WM_DTW_WIN_X], j->m * sizeof(double));
    if (st == WM_OK && !y) st = wm_cu_dev_reserve(cx, &b[WM_DTW_WIN_Y], j->n * sizeof(double));
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &b[WM_DTW_WIN_OUT], 2 * sizeof(uint64_t));
    if (st != WM_OK) return st;
    WM_CU(cx, cudaMemcpyAsync(b[WM_DTW_WIN_X].p, j->x, j->m * sizeof(double),
                              cudaMemcpyHostToDevice, S));
    if (!y) {
        WM_CU(cx, cudaMemcpyAsync(b[WM_DTW_WIN_Y].p, j->y, j->n * sizeof(double),
                                  cudaMemcpyHostToDevice, S));
        y = (const double *)b[WM_DTW_WIN_Y].p;
    }
    win_args_t A;
    A.x = (const double *)b[WM_DTW_WIN_X].p;
    A.m = (int)j->m;
    A.y = y;
    A.w = (uint32_t)j->n;
    A.out_v = (double *)b[WM_DTW_WIN_OUT].p;
    A.out_s = (uint64_t *)b[WM_DTW_WIN_OUT].p + 1;
    const bool f32 = j->f32 != 0;
    const size_t smem = (size_t)(nw - 1) * WIN_RING * (sizeof(uint64_t) + (f32 ? 4 : 8));
    win_fn fn = win_of(R, j->cost == WM_DTW_SQUARED, f32);
    WM_CU(cx, cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    fn<<<1, nw * 32, smem, S>>>(A);
    WM_CU(cx, cudaGetLastError());
    uint64_t out[2];
    WM_CU(cx, cudaMemcpyAsync(out, b[WM_DTW_WIN_OUT].p, sizeof out, cudaMemcpyDeviceToHost, S));
    WM_CU(cx, cudaStreamSynchronize(S));
    memcpy(corner, &out[0], sizeof *corner);
    *start = out[1];
    return WM_OK;
}
