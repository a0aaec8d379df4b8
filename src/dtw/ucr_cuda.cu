/*
** ucr_cuda.cu -- ucr mode's best window on the GPU (top 1): every window
** series[s, s + L), z-normalised on its own, against the z-normalised query
** within the band; the smallest distance, then the smallest s, as
** wm_dtw_ucr_cpu gives it, to the bit.
**
** The CPU's cascade prunes window by window against the best so far; here
** every window's lower bound is computed at once and the windows are ranked
** by it:
**   1. each window's mean and sd, as wm_dtw_znorm computes them (two
**      passes, sums left to right, one thread a window: the same bits);
**   2. each window's bound: LB_Kim's first and last cells, and with L = m
**      LB_Keogh (each window sample against the query's envelope), the
**      larger of the two;
**   3. the windows sorted by their bound (CUB's radix sort);
**   4. the exact DTW (matrix_cuda.cu's pair kernel, each window normalised
**      on the fly, abandoned once a front of its wavefront is over the cut)
**      of batches of windows in that order, doubling, until the next bound
**      exceeds ucr_cut(best) (ucr.h: the threshold raised by more than the
**      bound's rounding). A window whose distance equals the best
**      has a bound at most its distance, so it is never skipped: ties keep
**      the leftmost window. With max_distance, the best starts there.
**      With L = m and a band, the series' envelope of the band's radius
**      (raw max / min, made once a call where it fits in memory) gives each
**      window its LB_Keogh EC terms, a row each: their total drops the
**      window before its DTW, and their sums from each row to the end bound
**      the rest of a path beside the columns' (matrix_launch.cuh).
** The series is read where a resident target holds it (wm_dtw_many_target),
** else copied once a call, in pieces on a second stream while the windows
** of the pieces already there are ranked (copy_and_rank).
*/
#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <math_constants.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_common.cuh"
#include "dtw/dtw_cuda_cache.cuh"
#include "dtw/matrix_launch.cuh"
#include "dtw/sdtw_cuda.h"
#include "dtw/ucr.h"

#define UCR_THREADS 256
#define UCR_FIRST_BATCH 4096u
#define UCR_MAX_BATCH (1u << 20)
/* A copied series comes in this many pieces, each at least this many
** samples (8 MB), its windows ranked while the next piece is copied. */
#define UCR_COPY_PIECES 16u
#define UCR_COPY_MIN_PIECE ((uint64_t)1 << 20)
/* The series' envelope costs n (2r + 1) reads: made for radii up to this.
** (UCR Suite bands are 5-10 % of queries of hundreds to thousands.) */
#define UCR_ENV_MAX_RADIUS 256

/* Each window's mean and population sd, operation for operation as
** wm_dtw_znorm (this file is built with -fmad=false), windows [s0, s1). */
__global__ void ucr_stats_kernel(const double *y, uint64_t s0, uint64_t s1, uint64_t L,
                                 double *mean, double *sd) {
    for (uint64_t s = s0 + blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; s < s1;
         s += (uint64_t)gridDim.x * blockDim.x) {
        const double *x = y + s;
        double sum = 0.0;
        for (uint64_t j = 0; j < L; j++) sum = __dadd_rn(sum, x[j]);
        const double mu = __ddiv_rn(sum, (double)L);
        double ss = 0.0;
        for (uint64_t j = 0; j < L; j++) {
            const double d = __dsub_rn(x[j], mu);
            ss = __dadd_rn(ss, __dmul_rn(d, d));
        }
        mean[s] = mu;
        sd[s] = __dsqrt_rn(__ddiv_rn(ss, (double)L));
    }
}

__device__ __forceinline__ double ucr_cost(bool sq, double a, double b) {
    const double d = __dsub_rn(a, b);
    return sq ? __dmul_rn(d, d) : fabs(d);
}

__device__ __forceinline__ double ucr_zn(double v, double mu, double sd) {
    return sd > 0.0 ? __ddiv_rn(__dsub_rn(v, mu), sd) : 0.0;
}

/* Each window's bound and its start (the sort's values), windows [s0, s1). */
__global__ void ucr_bound_kernel(const double *y, uint64_t s0, uint64_t s1, uint64_t L,
                                 const double *mean, const double *sd, const double *q, uint64_t m,
                                 const double *up, const double *lo, bool sq, double *lb,
                                 uint32_t *idx) {
    for (uint64_t s = s0 + blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; s < s1;
         s += (uint64_t)gridDim.x * blockDim.x) {
        const double *x = y + s;
        const double mu = mean[s], sdv = sd[s];
        /* LB_Kim: the first cell and the last (one cell when m = L = 1) */
        double kim = ucr_cost(sq, q[0], ucr_zn(x[0], mu, sdv));
        if (m > 1 || L > 1) kim = __dadd_rn(kim, ucr_cost(sq, q[m - 1], ucr_zn(x[L - 1], mu, sdv)));
        double b = kim;
        if (up) { /* LB_Keogh, L = m: column j is matched with rows within the band */
            double k = 0.0;
            for (uint64_t j = 0; j < L; j++) {
                const double z = ucr_zn(x[j], mu, sdv);
                const double t = z > up[j]   ? ucr_cost(sq, z, up[j])
                                 : z < lo[j] ? ucr_cost(sq, z, lo[j])
                                             : 0.0;
                k = __dadd_rn(k, t);
            }
            b = k > b ? k : b;
        }
        lb[s] = b;
        idx[s] = (uint32_t)s;
    }
}

/* up[p] / lo[p]: the max / min of y[p - r, p + r] clipped to the series,
** raw samples (any window's normalised envelope is their normalised
** values: normalising is monotonic). */
__global__ void ucr_series_env_kernel(const double *y, uint64_t n, uint64_t r, double *up,
                                      double *lo) {
    for (uint64_t p = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; p < n;
         p += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t a = p > r ? p - r : 0, b = p + r < n - 1 ? p + r : n - 1;
        double hi = y[a], lw = y[a];
        for (uint64_t j = a + 1; j <= b; j++) {
            const double v = y[j];
            hi = v > hi ? v : hi;
            lw = v < lw ? v : lw;
        }
        up[p] = hi;
        lo[p] = lw;
    }
}

static unsigned grid_for(uint64_t n) {
    uint64_t g = (n + UCR_THREADS - 1) / UCR_THREADS;
    return (unsigned)(g > 65535u * 16u ? 65535u * 16u : (g ? g : 1));
}

typedef struct {
    wm_cu_buf_t *b;
    const double *y;         /* the series on the device */
    const double *copy_from; /* the host's series when it is to be copied, else NULL */
    double *mean, *sd, *lb, *lb_sorted;
    const double *s_up, *s_lo; /* the series' envelope (EC), or NULL */
    uint32_t *idx, *idx_sorted;
} ucr_dev_t;

/* Device buffers, and the query and its envelope on the device; the
** series where a resident target holds it, else its buffer (copied by
** ucr_rank). */
static wm_status ucr_setup(wm_context_t *cx, const ucr_query_t *uq, const double *series,
                           uint64_t n, uint32_t nw, ucr_dev_t *d, cudaStream_t S) {
    wm_cu_buf_t *b = d->b;
    const uint64_t m = uq->m;
    wm_status st = WM_OK;
    d->y = (const double *)wm_cuda_target_view(cx, (const uint8_t *)series, n * sizeof(double));
    if (!d->y) {
        if ((st = wm_cu_dev_reserve(cx, &b[WM_DTW_UCR_SERIES], n * sizeof(double))) != WM_OK)
            return st;
        d->y = (const double *)b[WM_DTW_UCR_SERIES].p;
        d->copy_from = series;
    }
    uint64_t off[2] = { 0, m };
    if ((st = wm_cu_dev_reserve(cx, &b[WM_DTW_MX_SIG], m * sizeof(double))) != WM_OK ||
        (st = wm_cu_dev_reserve(cx, &b[WM_DTW_MX_OFF], sizeof off)) != WM_OK ||
        (st = wm_cu_dev_reserve(cx, &b[WM_DTW_UCR_ENV], 2 * m * sizeof(double))) != WM_OK ||
        (st = wm_cu_dev_reserve(cx, &b[WM_DTW_UCR_STATS], 2 * (size_t)nw * sizeof(double))) !=
            WM_OK ||
        (st = wm_cu_dev_reserve(cx, &b[WM_DTW_UCR_LB], 2 * (size_t)nw * sizeof(double))) != WM_OK ||
        (st = wm_cu_dev_reserve(cx, &b[WM_DTW_UCR_IDX], 2 * (size_t)nw * sizeof(uint32_t))) !=
            WM_OK ||
        (st = wm_cu_dev_reserve(cx, &b[WM_DTW_MX_OUT], UCR_MAX_BATCH * sizeof(double))) != WM_OK)
        return st;
    WM_CU(cx, cudaMemcpyAsync(b[WM_DTW_MX_SIG].p, uq->q, m * sizeof(double), cudaMemcpyHostToDevice,
                              S));
    WM_CU(cx, cudaMemcpyAsync(b[WM_DTW_MX_OFF].p, off, sizeof off, cudaMemcpyHostToDevice, S));
    if (uq->up) {
        double *env = (double *)b[WM_DTW_UCR_ENV].p;
        WM_CU(cx, cudaMemcpyAsync(env, uq->up, m * sizeof(double), cudaMemcpyHostToDevice, S));
        WM_CU(cx, cudaMemcpyAsync(env + m, uq->lo, m * sizeof(double), cudaMemcpyHostToDevice, S));
    }
    d->mean = (double *)b[WM_DTW_UCR_STATS].p;
    d->sd = d->mean + nw;
    d->lb = (double *)b[WM_DTW_UCR_LB].p;
    d->lb_sorted = d->lb + nw;
    d->idx = (uint32_t *)b[WM_DTW_UCR_IDX].p;
    d->idx_sorted = d->idx + nw;
    /* the series' envelope for LB_Keogh EC, where the band is narrow and
    ** it takes at most a quarter of the free memory; else none */
    size_t free_b = 0, total_b = 0;
    const size_t env_b = 2 * n * sizeof(double);
    const uint64_t limit = cx->tuning.gpu_alloc_limit;
    if (cx->tuning.dtw_ucr_ec >= 0 && uq->up && uq->r >= 0 && uq->r <= UCR_ENV_MAX_RADIUS &&
        (!limit || env_b <= limit) &&
        (b[WM_DTW_UCR_SENV].cap >= env_b ||
         (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess && env_b <= free_b / 4)) &&
        wm_cu_dev_reserve(cx, &b[WM_DTW_UCR_SENV], env_b) == WM_OK) {
        double *env = (double *)b[WM_DTW_UCR_SENV].p; /* made by ucr_rank */
        d->s_up = env;
        d->s_lo = env + n;
    }
    cudaGetLastError();                  /* a failed cudaMemGetInfo leaves nothing behind */
    WM_CU(cx, cudaStreamSynchronize(S)); /* the host's query and offsets were copied */
    return WM_OK;
}

/* Windows [s0, s1): statistics, then bounds, on S. */
static void rank_windows(const ucr_query_t *uq, const ucr_dev_t *d, uint64_t s0, uint64_t s1,
                         cudaStream_t S) {
    const double *env = (const double *)d->b[WM_DTW_UCR_ENV].p;
    ucr_stats_kernel<<<grid_for(s1 - s0), UCR_THREADS, 0, S>>>(d->y, s0, s1, uq->len, d->mean,
                                                               d->sd);
    ucr_bound_kernel<<<grid_for(s1 - s0), UCR_THREADS, 0, S>>>(
        d->y, s0, s1, uq->len, d->mean, d->sd, (const double *)d->b[WM_DTW_MX_SIG].p, uq->m,
        uq->up ? env : NULL, uq->up ? env + uq->m : NULL, uq->cost == WM_DTW_SQUARED, d->lb,
        d->idx);
}

/* A series to be copied comes in pieces on a second stream (C), and S ranks
** each piece's windows while the next is copied: the copy from pageable
** memory (12-20 ms for 80 MB on the H100 host) runs beside the statistics and
** bounds (22 ms at m = 1,000; BENCHMARKS.md section 20g) instead of before
** them. One event serves every piece: S's wait takes the record made before
** it. Windows [0, *done) are ranked on return. */
static wm_status copy_and_rank(wm_context_t *cx, const ucr_query_t *uq, uint64_t n, uint32_t nw,
                               const ucr_dev_t *d, cudaStream_t S, uint64_t *done) {
    const cudaStream_t C = cx->cuda->stream[1];
    uint64_t piece = (n + UCR_COPY_PIECES - 1) / UCR_COPY_PIECES;
    if (piece < UCR_COPY_MIN_PIECE) piece = UCR_COPY_MIN_PIECE;
    if (cx->tuning.dtw_ucr_piece) piece = cx->tuning.dtw_ucr_piece;
    cudaEvent_t ev;
    WM_CU(cx, cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    cudaError_t e = cudaSuccess;
    for (uint64_t a = 0; a < n && e == cudaSuccess; a += piece) {
        const uint64_t b = n - a < piece ? n : a + piece;
        e = cudaMemcpyAsync((double *)d->y + a, d->copy_from + a, (b - a) * sizeof(double),
                            cudaMemcpyHostToDevice, C);
        if (e == cudaSuccess) e = cudaEventRecord(ev, C);
        if (e == cudaSuccess) e = cudaStreamWaitEvent(S, ev, 0);
        /* the windows whose samples have all arrived */
        const uint64_t w = b < uq->len ? 0 : b - uq->len + 1 < nw ? b - uq->len + 1 : nw;
        if (e == cudaSuccess && w > *done) {
            rank_windows(uq, d, *done, w, S);
            *done = w;
            e = cudaGetLastError();
        }
    }
    cudaEventDestroy(ev); /* released once its last record has completed */
    if (e != cudaSuccess) return wm_cuda_fail(cx, e, "the series' copy");
    return WM_OK;
}

/* Every window's statistics and bound, sorted by the bound; the series'
** envelope where there is room for it. */
static wm_status ucr_rank(wm_context_t *cx, const ucr_query_t *uq, uint64_t n, uint32_t nw,
                          ucr_dev_t *d, cudaStream_t S) {
    uint64_t done = 0;
    if (d->copy_from) {
        wm_status st = copy_and_rank(cx, uq, n, nw, d, S, &done);
        if (st != WM_OK) return st;
    }
    if (done < nw) rank_windows(uq, d, done, nw, S);
    if (d->s_up)
        ucr_series_env_kernel<<<grid_for(n), UCR_THREADS, 0, S>>>(
            d->y, n, (uint64_t)uq->r, (double *)d->s_up, (double *)d->s_lo);
    WM_CU(cx, cudaGetLastError());
    size_t temp = 0;
    WM_CU(cx, cub::DeviceRadixSort::SortPairs(NULL, temp, d->lb, d->lb_sorted, d->idx,
                                              d->idx_sorted, (int)nw, 0, 64, S));
    wm_status st = wm_cu_dev_reserve(cx, &d->b[WM_DTW_UCR_SORT], temp ? temp : 1);
    if (st != WM_OK) return st;
    WM_CU(cx, cub::DeviceRadixSort::SortPairs(d->b[WM_DTW_UCR_SORT].p, temp, d->lb, d->lb_sorted,
                                              d->idx, d->idx_sorted, (int)nw, 0, 64, S));
    return WM_OK;
}

extern "C" wm_status wm_dtw_ucr_cuda(wm_context_t *cx, const double *qz, size_t m,
                                     const double *series, uint64_t n, const wm_dtw_opts_t *o,
                                     double *best, uint64_t *start) {
    *best = INFINITY;
    *start = UINT64_MAX;
    ucr_query_t uq;
    if (ucr_query_init(&uq, qz, m, o) != 0) return WM_NOMEM;
    const uint64_t L = uq.len;
    if (!(o->max_distance >= 0.0) || L == 0 || L > n || n - L + 1 > UINT32_MAX) {
        ucr_query_free(&uq);
        return WM_OK;
    }
    const uint32_t nw = (uint32_t)(n - L + 1);
    const cudaStream_t S = cx->cuda->stream[0];
    ucr_dev_t d;
    memset(&d, 0, sizeof d);
    d.b = wm_dtw_cuda_mx_bufs(cx);
    double *h_lb = NULL, *h_dist = NULL;
    uint32_t *h_idx = NULL;
    wm_status st = d.b ? WM_OK : WM_NOMEM;
    const int timing = cx->tuning.timing;
    if (st == WM_OK) st = ucr_setup(cx, &uq, series, n, nw, &d, S);
    double t0 = timing ? wm_now() : 0;
    if (st == WM_OK) st = ucr_rank(cx, &uq, n, nw, &d, S);
    if (timing && st == WM_OK) {
        cudaError_t e = cudaStreamSynchronize(S);
        if (e != cudaSuccess) st = wm_cuda_fail(cx, e, "ucr bounds");
        cx->stats.dtw_ucr_rank_s += wm_now() - t0;
        t0 = wm_now();
    }
    h_lb = (double *)malloc(UCR_MAX_BATCH * sizeof *h_lb);
    h_dist = (double *)malloc(UCR_MAX_BATCH * sizeof *h_dist);
    h_idx = (uint32_t *)malloc(UCR_MAX_BATCH * sizeof *h_idx);
    if (st == WM_OK && (!h_lb || !h_dist || !h_idx)) st = WM_NOMEM;

    /* batches in bound order until the next bound is over the cut */
    double thr = o->max_distance, bd = INFINITY;
    uint64_t bs = UINT64_MAX;
    uint32_t pos = 0, batch = UCR_FIRST_BATCH;
    while (st == WM_OK && pos < nw) {
        uint32_t cnt = nw - pos < batch ? nw - pos : batch;
        cudaError_t e = cudaMemcpyAsync(h_lb, d.lb_sorted + pos, cnt * sizeof(double),
                                        cudaMemcpyDeviceToHost, S);
        if (e == cudaSuccess) e = cudaStreamSynchronize(S);
        if (e != cudaSuccess) {
            st = wm_cuda_fail(cx, e, "ucr bounds");
            break;
        }
        const double cut = ucr_cut(thr, uq.slack);
        if (h_lb[0] > cut) break;                     /* sorted: every bound left is over the cut */
        while (cnt > 1 && h_lb[cnt - 1] > cut) cnt--; /* the batch's tail too */
        mx_args_t A;
        memset(&A, 0, sizeof A);
        A.sig = (const double *)d.b[WM_DTW_MX_SIG].p;
        A.off = (const uint64_t *)d.b[WM_DTW_MX_OFF].p;
        A.np = cnt;
        A.dist = (double *)d.b[WM_DTW_MX_OUT].p;
        A.wins = d.idx_sorted + pos;
        A.series = d.y;
        A.win_mean = d.mean;
        A.win_sd = d.sd;
        A.win_len = L;
        A.m_rows = m;
        A.abandon = cut < INFINITY; /* a window surely over the cut stops early */
        A.cut = cut;
        if (uq.up) { /* L = m: the rest of a path is bounded by LB_Keogh's terms */
            A.env_up = (const double *)d.b[WM_DTW_UCR_ENV].p;
            A.env_lo = A.env_up + m;
            A.ser_up = d.s_up;
            A.ser_lo = d.s_lo;
        }
        st = wm_dtw_mx_windows(cx, &A, uq.r, uq.cost == WM_DTW_SQUARED, S);
        if (st != WM_OK) break;
        e = cudaMemcpyAsync(h_dist, A.dist, cnt * sizeof(double), cudaMemcpyDeviceToHost, S);
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(h_idx, d.idx_sorted + pos, cnt * sizeof(uint32_t),
                                cudaMemcpyDeviceToHost, S);
        if (e == cudaSuccess) e = cudaStreamSynchronize(S);
        if (e != cudaSuccess) {
            st = wm_cuda_fail(cx, e, "ucr windows");
            break;
        }
        for (uint32_t k = 0; k < cnt; k++) {
            double v = h_dist[k];
            if (!(v <= o->max_distance)) continue;
            if (v < bd || (v == bd && h_idx[k] < bs)) {
                bd = v;
                bs = h_idx[k];
            }
        }
        if (bs != UINT64_MAX) thr = bd;
        pos += cnt;
        cx->stats.dtw_ucr_windows += cnt;
        cx->stats.dtw_ucr_batches++;
        if (batch < UCR_MAX_BATCH) batch *= 2;
    }
    if (timing) cx->stats.dtw_ucr_dtw_s += wm_now() - t0;
    if (st == WM_OK) {
        *best = bd;
        *start = bs;
    }
    free(h_lb);
    free(h_dist);
    free(h_idx);
    ucr_query_free(&uq);
    cx->stats.dtw_gpu_calls++;
    return st;
}
