/*
** matrix_cuda.cu -- a chunk of a distance matrix on the GPU: a warp a pair,
** the global DP of the pair's shorter signal (rows) against the longer
** (columns) as paper 002's wavefront (sdtw_kernel.cuh's scheme, without
** pieces: a warp runs the whole pair).
**
** Lane l holds R consecutive rows of a stripe of 32 R rows in registers and
** runs column t - l at step t; its first row's upper neighbour is lane l-1's
** last row one step earlier (one shuffle). A signal longer than 32 R rows
** runs in stripes, each reading the one above's last row from the warp's
** scratch in global memory (two rows a warp, used in turn). R comes from the
** row signal's length (and the band: a banded stripe runs only the columns
** its rows' band reaches, so short stripes skip most of a narrow band's
** matrix), so the pairs of a chunk are sorted into one launch per R; a
** launch is a grid that fills the GPU once, each warp taking every W-th pair
** of its list.
**
** Arithmetic is float64 or float32 (mx->f32) with the CPU's exact
** operations (sub, abs or mul, min, add, each rounded once: dtw_arith.cuh;
** -fmad=false), cells outside the band +inf, as wm_dtw_global_banded on the
** CPU: the same bits. Signals, scratch rows and distances stay doubles (a
** float32 value is a float in a double); samples are rounded as read.
*/
#include <cuda_runtime.h>
#include <math_constants.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_common.cuh"
#include "dtw/dtw_arith.cuh"
#include "dtw/dtw_cuda_cache.cuh"
#include "dtw/matrix.h"
#include "dtw/matrix_launch.cuh"

#define MX_FULL 0xffffffffu
#define MX_WARPS 4          /* warps a block */
#define MX_STRIPE_ROWS 1024 /* at most 32 rows a lane */
#define MX_SCRATCH_MAX ((size_t)1 << 30)

/* Rows a lane: few shapes (each a kernel), close enough that a signal pads
** its last lane by under a third. */
static const int R_CLASS[] = { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32 };
#define N_CLASS ((int)(sizeof R_CLASS / sizeof R_CLASS[0]))

/* Lane l gets the sum of v over lanes l .. 31. */
__device__ __forceinline__ double warp_suffix_sum(double v, int lane) {
    for (int o = 1; o < 32; o <<= 1) {
        const double u = __shfl_down_sync(MX_FULL, v, o);
        if (lane + o < 32) v = __dadd_rn(v, u);
    }
    return v;
}

/* Lane l gets the least v of lanes l .. 31. */
__device__ __forceinline__ double warp_suffix_min(double v, int lane) {
    for (int o = 1; o < 32; o <<= 1) {
        const double u = __shfl_down_sync(MX_FULL, v, o);
        if (lane + o < 32) v = u < v ? u : v;
    }
    return v;
}

/* Window mode (WIN: ucr's windows, abandoned against a cut) is its own
** set of kernels, so that its bounds' registers do not cost the matrices'
** kernels their occupancy. Blocks an SM keeps of WIN's shapes of up to 4
** rows a lane: MX_UCR_MIN_BLOCKS (1: what ptxas chooses) */
#ifndef MX_UCR_MIN_BLOCKS
#define MX_UCR_MIN_BLOCKS 1
#endif
#define MX_MIN_BLOCKS(WIN, R) ((WIN) && (R) <= 4 ? MX_UCR_MIN_BLOCKS : 1)

template <typename T, int R, bool SQ, bool BAND, bool WIN>
__global__ void __launch_bounds__(MX_WARPS * 32, MX_MIN_BLOCKS(WIN, R)) mx_kernel(mx_args_t A) {
    const int lane = threadIdx.x & 31;
    const int wib = threadIdx.x >> 5;
    const uint32_t gw = blockIdx.x * MX_WARPS + wib, nw = gridDim.x * MX_WARPS;
    __shared__ T xs_all[MX_WARPS][R * 32];
    T *xs = xs_all[wib]; /* row r of lane l at xs[r * 32 + l]: a step hits 32 banks */
    double *rowbuf[2] = { A.scratch + (size_t)gw * A.scratch_stride,
                          A.scratch + (size_t)gw * A.scratch_stride + A.scratch_n };
    /* Abandoning (window mode): suf[c] bounds what a path pays from column
    ** c on (the window's LB_Keogh terms of columns c .. n - 1, or 0
    ** without the envelope); bp[c], after a stripe, the least a path that
    ** crosses its bottom row at a column >= c can cost (suffix minima of
    ** the row's values plus suf) */
    const bool ab = WIN && A.abandon, ec = ab && A.env_up && A.ser_up;
    double *suf = A.scratch + (size_t)gw * A.scratch_stride + 2 * A.scratch_n;
    double *bp = suf + A.win_len + 1;
    double *sufr = bp + A.win_len + 1; /* with ec: the rows' EC terms from each row on */
    const uint64_t SR = 32 * R;

    for (uint32_t k = gw; k < A.np; k += nw) {
        /* a pair of signals, or (window mode) signal 0 against the window
        ** of the series at wins[k], normalised on the fly */
        const uint32_t ps = WIN ? 0 : A.pr[2 * k], qs = WIN ? 0 : A.pr[2 * k + 1];
        const uint64_t ws = WIN ? A.wins[k] : 0;
        const double *x = A.sig + A.off[ps];
        const double *y = WIN ? A.series + ws : A.sig + A.off[qs];
        const double w_mean = WIN ? A.win_mean[ws] : 0.0, w_sd = WIN ? A.win_sd[ws] : 1.0;
        const uint64_t m = A.off[ps + 1] - A.off[ps];
        const uint64_t n = WIN ? A.win_len : A.off[qs + 1] - A.off[qs];
        /* the band: cell (i, c) when lo <= c - i <= hi */
        const int64_t lo = BAND ? -(A.band + (m > n ? (int64_t)(m - n) : 0)) : 0;
        const int64_t hi = BAND ? A.band + (n > m ? (int64_t)(n - m) : 0) : 0;
        const int S = (int)((m + SR - 1) / SR);
        T corner = CUDART_INF;
        bool abandoned = false;
        if (ab) {
            /* 32 consecutive columns at a time from the end, a lane each
            ** (coalesced): the sum to the block's end, plus the blocks
            ** after it (carry) */
            double carry = 0.0;
            for (int64_t base = (int64_t)((n - 1) / 32) * 32; base >= 0; base -= 32) {
                const uint64_t c = (uint64_t)base + lane;
                double t = 0.0;
                if (A.env_up && c < n) {
                    const double z = w_sd > 0.0 ? __ddiv_rn(__dsub_rn(y[c], w_mean), w_sd) : 0.0;
                    const double up = A.env_up[c], lo = A.env_lo[c];
                    t = z > up   ? (double)dtw_cell_cost<SQ>(z, up)
                        : z < lo ? (double)dtw_cell_cost<SQ>(z, lo)
                                 : 0.0;
                }
                const double v = __dadd_rn(warp_suffix_sum(t, lane), carry);
                if (c < n) suf[c] = v;
                carry = __shfl_sync(MX_FULL, v, 0);
            }
            if (lane == 0) suf[n] = 0.0;
            __syncwarp();
        }
        if (ec) {
            /* LB_Keogh EC by rows, as suf by columns: row i's term is the
            ** query sample against the window's envelope at i (the series'
            ** max / min within the band, normalised: normalising is
            ** monotonic), no more than any cell of row i in the band costs */
            double carry = 0.0;
            for (int64_t base = (int64_t)((m - 1) / 32) * 32; base >= 0; base -= 32) {
                const uint64_t i = (uint64_t)base + lane;
                double t = 0.0;
                if (i < m) {
                    const double q = x[i];
                    const double u =
                        w_sd > 0.0 ? __ddiv_rn(__dsub_rn(A.ser_up[ws + i], w_mean), w_sd) : 0.0;
                    if (q > u) {
                        t = dtw_cell_cost<SQ>(q, u);
                    } else {
                        const double l =
                            w_sd > 0.0 ? __ddiv_rn(__dsub_rn(A.ser_lo[ws + i], w_mean), w_sd) : 0.0;
                        if (q < l) t = dtw_cell_cost<SQ>(q, l);
                    }
                }
                const double v = __dadd_rn(warp_suffix_sum(t, lane), carry);
                if (i < m) sufr[i] = v;
                carry = __shfl_sync(MX_FULL, v, 0);
            }
            if (lane == 0) sufr[m] = 0.0;
            __syncwarp();
            abandoned = carry > A.cut; /* the whole of it: over the cut, no DTW at all */
        }

        for (int s = 0; s < S && !abandoned; s++) {
            const uint64_t i0 = (uint64_t)s * SR;
            const int rows = (int)(m - i0 < SR ? m - i0 : SR);
            __syncwarp();
            for (int i = lane; i < R * 32; i += 32)
                xs[(i % R) * 32 + i / R] = i < rows ? x[i0 + i] : 0.0;
            __syncwarp();
            const double *top_in = s > 0 ? rowbuf[(s - 1) & 1] : NULL;
            double *top_out = s + 1 < S ? rowbuf[s & 1] : NULL;
            const int lb = (rows - 1) / R, rb = (rows - 1) % R; /* the stripe's last row */
            const int64_t row0 = (int64_t)i0 + lane * R;
            /* the stripe's columns: those in the band of one of its rows
            ** (all without a band); the row above holds cells up to its own
            ** band's end, +inf beyond */
            int64_t cf = 0, cl = (int64_t)n - 1, above = (int64_t)n - 1;
            if (BAND) {
                cf = (int64_t)i0 + lo > 0 ? (int64_t)i0 + lo : 0;
                cl = (int64_t)i0 + rows - 1 + hi < cl ? (int64_t)i0 + rows - 1 + hi : cl;
                above = (int64_t)i0 - 1 + hi < above ? (int64_t)i0 - 1 + hi : above;
            }
            const uint64_t cb = (uint64_t)cf, wn = (uint64_t)(cl - cf + 1);

            /* column cb - 1 is +inf in every row of the stripe (the border,
            ** or outside the band); the diagonal of lane 0's first cell is
            ** the row above at cb - 1: d[0][0] = 0 above the first stripe */
            T h[R], h2[R];
#pragma unroll
            for (int r = 0; r < R; r++) h[r] = CUDART_INF;
            T dg_v = CUDART_INF;
            if (lane == 0) dg_v = s == 0 ? 0.0 : cb > 0 ? top_in[cb - 1] : CUDART_INF;
            T yv = 0.0, stage_y = 0.0, stage_t = CUDART_INF;
            double bmin = CUDART_INF;    /* abandoning: this lane's least bottom cell + suf */
            int64_t bdone = (int64_t)cb; /* the bottom row's columns folded into bmin */

            auto step = [&](T(&hi_)[R], T(&ho)[R], uint64_t t) {
                /* every 32 steps the warp loads the next 32 samples (and the
                ** stripe above's cells) for lane 0, which takes one a step */
                if ((t & 31) == 0) {
                    uint64_t c = cb + t + lane;
                    double yc = c <= (uint64_t)cl ? y[c] : 0.0;
                    if (WIN) /* as wm_dtw_znorm and ucr_z: the same bits */
                        yc = w_sd > 0.0 ? __ddiv_rn(__dsub_rn(yc, w_mean), w_sd) : 0.0;
                    stage_y = (T)yc; /* float32: the sample rounded */
                    if (top_in) stage_t = (int64_t)c <= above ? top_in[c] : CUDART_INF;
                }
                const int sl = (int)(t & 31);
                const T y_in = __shfl_sync(MX_FULL, stage_y, sl);
                const T t_in = __shfl_sync(MX_FULL, stage_t, sl);
                const T y_prev = __shfl_up_sync(MX_FULL, yv, 1);
                T up_v = __shfl_up_sync(MX_FULL, hi_[R - 1], 1);
                if (lane == 0) {
                    yv = y_in;
                    up_v = top_in ? t_in : CUDART_INF;
                } else {
                    yv = y_prev;
                }
                const uint64_t c = cb + t - lane;
                const bool active = t >= (uint64_t)lane && t - lane < wn;
                const T nd_v = up_v; /* the next step's diagonal */
                if (active) {
                    /* the lane's rows in the band at column c: r in [rlo,
                    ** rlo + span], tested per cell as one unsigned compare */
                    int32_t rlo = 0, span = R;
                    if (BAND) {
                        const int64_t d0 = (int64_t)c - row0;
                        int64_t a_ = d0 - hi, b_ = d0 - lo;
                        if (a_ < 0) a_ = 0;
                        if (b_ > R - 1) b_ = R - 1;
                        rlo = a_ <= b_ ? (int32_t)a_ : R;
                        span = a_ <= b_ ? (int32_t)(b_ - a_) : 0;
                    }
                    T d_v = dg_v, u_v = up_v;
#pragma unroll
                    for (int r = 0; r < R; r++) {
                        const T cst = dtw_cell_cost<SQ>(xs[r * 32 + lane], yv);
                        const T l_v = hi_[r];
                        const T mn = dtw_min(dtw_min(d_v, l_v), u_v);
                        d_v = l_v;
                        T v = dtw_add(mn, cst);
                        if (BAND && (uint32_t)(r - rlo) > (uint32_t)span) v = CUDART_INF;
                        u_v = v;
                        ho[r] = v;
                    }
                    if (top_out && lane == 31) top_out[c] = ho[R - 1];
                    if (!top_out && lane == lb && c == n - 1) {
#pragma unroll
                        for (int r = 0; r < R; r++)
                            if (r == rb) corner = ho[r];
                    }
                } else {
#pragma unroll
                    for (int r = 0; r < R; r++) ho[r] = hi_[r];
                }
                dg_v = nd_v;
            };
            const uint64_t steps = wn + 31;
            for (uint64_t t = 0; t < steps; t += 2) {
                step(h, h2, t);
                if (t + 1 >= steps) break;
                step(h2, h, t + 1);
                /* Early abandoning (window mode, with a cut): a path from the
                ** first cell to the last leaves the part of the matrix made so
                ** far through a cell of one of two consecutive fronts (lane l
                ** at column t - l; a diagonal step across a lane border can
                ** skip one front, not two), through this stripe's bottom row
                ** (to the stripe below), or it enters this stripe from the one
                ** above past lane 0's front. Values never fall along a path and
                ** the columns after a cell cost at least their suf, so the
                ** least of those bounds the distance. Over the cut: the pair
                ** is out, its distance +inf. Padding rows of the last stripe
                ** only add cells to the fronts: the least stays a bound. */
                if (ab && ((t + 2) & 31) == 0) {
                    T mn = CUDART_INF;
#pragma unroll
                    for (int r = 0; r < R; r++) {
                        mn = h[r] < mn ? h[r] : mn;
                        mn = h2[r] < mn ? h2[r] : mn;
                    }
                    /* and the rest: every column after h's (h2's is one before) */
                    int64_t ix = (int64_t)cb + (int64_t)t + 2 - lane;
                    ix = ix < 0 ? 0 : ix > (int64_t)n ? (int64_t)n : ix;
                    double rest = suf[ix];
                    if (ec) { /* and every row below the lane's */
                        const int64_t ir = row0 + R < (int64_t)m ? row0 + R : (int64_t)m;
                        rest = sufr[ir] > rest ? sufr[ir] : rest;
                    }
                    double b = __dadd_rn((double)mn, rest);
                    if (top_out) {
                        /* a path may leave the stripe downwards from a
                        ** bottom cell made so far: fold the columns lane 31
                        ** made since the last test (32 at most) */
                        __syncwarp();
                        /* with ec: what a path pays for the rows below */
                        const double kb = ec ? sufr[i0 + rows] : 0.0;
                        const int64_t c31 = (int64_t)cb + (int64_t)t + 1 - 31,
                                      last = (int64_t)(cb + wn) - 1, top = c31 < last ? c31 : last;
                        const int64_t c = bdone + lane;
                        if (c <= top) {
                            const double v =
                                __dadd_rn(top_out[c], suf[c + 1] > kb ? suf[c + 1] : kb);
                            bmin = v < bmin ? v : bmin;
                        }
                        if (top + 1 > bdone) bdone = top + 1;
                        b = bmin < b ? bmin : b;
                    }
                    if (s > 0) { /* or enter it from above past lane 0's front */
                        int64_t c0 = (int64_t)cb + (int64_t)t + 1;
                        c0 = c0 > (int64_t)n ? (int64_t)n : c0;
                        b = bp[c0] < b ? bp[c0] : b;
                    }
#pragma unroll
                    for (int o = 16; o > 0; o >>= 1) {
                        const double v = __shfl_xor_sync(MX_FULL, b, o);
                        b = v < b ? v : b;
                    }
                    if (b > A.cut) {
                        abandoned = true;
                        break;
                    }
                }
            }
            if (abandoned) break;
            /* A stripe's end: every path crosses its bottom row at some
            ** column c and then pays at least suf[c + 1] (and with ec the
            ** rows below); bp for the next stripe's tests (its suffix
            ** minima), and bp[0] the pair's bound now. */
            if (ab && top_out) {
                __syncwarp();                                 /* lane 31's row */
                const double kb = ec ? sufr[i0 + rows] : 0.0; /* the rows below */
                /* suffix minima, 32 consecutive columns at a time from the
                ** end (coalesced), as suf */
                double all = CUDART_INF;
                for (int64_t base = (int64_t)((n - 1) / 32) * 32; base >= 0; base -= 32) {
                    const uint64_t c = (uint64_t)base + lane;
                    double v = CUDART_INF;
                    if (c >= cb && c < cb + wn)
                        v = __dadd_rn(top_out[c], suf[c + 1] > kb ? suf[c + 1] : kb);
                    v = warp_suffix_min(v, lane);
                    v = all < v ? all : v;
                    if (c < n) bp[c] = v;
                    all = __shfl_sync(MX_FULL, v, 0);
                }
                if (lane == 0) bp[n] = CUDART_INF;
                __syncwarp();
                if (all > A.cut) {
                    abandoned = true;
                    break;
                }
            }
        }
        corner = __shfl_sync(MX_FULL, corner, (int)((m - 1) % SR) / R);
        if (abandoned) corner = CUDART_INF;
        if (lane == 0) A.dist[A.place ? A.place[k] : k] = corner;
    }
}

typedef void (*mx_fn)(mx_args_t);

template <typename T, bool SQ, bool BAND, bool WIN>
static mx_fn kernel_r(int R) {
    switch (R) {
    case 1: return mx_kernel<T, 1, SQ, BAND, WIN>;
    case 2: return mx_kernel<T, 2, SQ, BAND, WIN>;
    case 3: return mx_kernel<T, 3, SQ, BAND, WIN>;
    case 4: return mx_kernel<T, 4, SQ, BAND, WIN>;
    case 6: return mx_kernel<T, 6, SQ, BAND, WIN>;
    case 8: return mx_kernel<T, 8, SQ, BAND, WIN>;
    case 12: return mx_kernel<T, 12, SQ, BAND, WIN>;
    case 16: return mx_kernel<T, 16, SQ, BAND, WIN>;
    case 24: return mx_kernel<T, 24, SQ, BAND, WIN>;
    default: return mx_kernel<T, 32, SQ, BAND, WIN>;
    }
}

template <typename T, bool WIN>
static mx_fn kernel_t(int R, bool sq, bool band) {
    if (sq) return band ? kernel_r<T, true, true, WIN>(R) : kernel_r<T, true, false, WIN>(R);
    return band ? kernel_r<T, false, true, WIN>(R) : kernel_r<T, false, false, WIN>(R);
}

/* The kernel of R rows a lane, cost, band and precision (pairs of signals). */
static mx_fn kernel_of(int R, bool sq, bool band, bool f32) {
    return f32 ? kernel_t<float, false>(R, sq, band) : kernel_t<double, false>(R, sq, band);
}

/* The shape of a row signal of m samples: its class (an index of R_CLASS).
** Up to 1,024 rows one stripe; longer ones the fewest stripes of the
** smallest R that holds them. */
static int class_of(uint64_t m) {
    uint64_t stripes = (m + MX_STRIPE_ROWS - 1) / MX_STRIPE_ROWS;
    uint64_t need = (m + 32 * stripes - 1) / (32 * stripes);
    int c = 0;
    while (c + 1 < N_CLASS && (uint64_t)R_CLASS[c] < need) c++;
    return c;
}

/* The lane shape of a pair: without a band, the one stripe (or the fewest)
** of its row signal; with one, the shape of the least time by a model of the
** kernel: a step costs about 25 instructions of shuffles and bookkeeping and
** 13 a masked cell, a stripe about 9,000 more (its loads before the first
** step; fitted to the 1,000 x 500 runs of BENCHMARKS.md section 20, where
** R = 2 took 0.145 s and R = 4 0.111 s at radius 50). Short stripes run only
** the columns their rows' band reaches, tall ones fewer stripes. */
static int class_for(uint64_t m, uint64_t n, int64_t band) {
    int top = class_of(m);
    if (band < 0) return top;
    uint64_t w = 2 * (uint64_t)band + 1 + (m > n ? m - n : n - m);
    int best = top;
    double best_cost = 0;
    for (int c = 0; c <= top; c++) {
        uint64_t sr = 32 * (uint64_t)R_CLASS[c], stripes = (m + sr - 1) / sr;
        uint64_t cols = sr + w - 1 < n ? sr + w - 1 : n;
        double cost = (double)stripes * ((double)(cols + 31) * (25.0 + 13.0 * R_CLASS[c]) + 9000.0);
        if (c == 0 || cost < best_cost) {
            best = c;
            best_cost = cost;
        }
    }
    return best;
}

/* The signals, back to back, and their offsets, onto the device. */
static wm_status upload_signals(wm_context_t *cx, const wm_dtw_mx_t *mx, wm_cu_buf_t *b,
                                cudaStream_t S) {
    uint64_t *off = (uint64_t *)malloc((mx->n_sig + 1) * sizeof *off);
    if (!off) return WM_NOMEM;
    off[0] = 0;
    for (size_t s = 0; s < mx->n_sig; s++) off[s + 1] = off[s] + mx->len[s];
    double *all = (double *)malloc(off[mx->n_sig] * sizeof *all);
    wm_status st = all ? WM_OK : WM_NOMEM;
    if (st == WM_OK)
        for (size_t s = 0; s < mx->n_sig; s++)
            memcpy(all + off[s], mx->sig[s], mx->len[s] * sizeof *all);
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &b[WM_DTW_MX_SIG], off[mx->n_sig] * sizeof *all);
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &b[WM_DTW_MX_OFF], (mx->n_sig + 1) * sizeof *off);
    cudaError_t e = cudaSuccess;
    if (st == WM_OK)
        e = cudaMemcpyAsync(b[WM_DTW_MX_SIG].p, all, off[mx->n_sig] * sizeof *all,
                            cudaMemcpyHostToDevice, S);
    if (st == WM_OK && e == cudaSuccess)
        e = cudaMemcpyAsync(b[WM_DTW_MX_OFF].p, off, (mx->n_sig + 1) * sizeof *off,
                            cudaMemcpyHostToDevice, S);
    if (st == WM_OK && e == cudaSuccess) e = cudaStreamSynchronize(S);
    if (st == WM_OK && e != cudaSuccess) st = wm_cuda_fail(cx, e, "uploading the signals");
    free(all);
    free(off);
    return st;
}

/* Warps of kernel k that the whole GPU holds at once. */
static uint32_t resident_warps(mx_fn k, int sm) {
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, MX_WARPS * 32, 0) !=
            cudaSuccess ||
        blocks < 1) {
        cudaGetLastError();
        blocks = 2;
    }
    return (uint32_t)sm * blocks * MX_WARPS;
}

extern "C" wm_status wm_dtw_mx_cuda(wm_context_t *cx, const wm_dtw_mx_t *mx, int upload,
                                    double *dist) {
    const cudaStream_t S = cx->cuda->stream[0];
    wm_cu_buf_t *b = wm_dtw_cuda_mx_bufs(cx);
    if (!b) return WM_NOMEM;
    wm_status st = WM_OK;
    if (upload && (st = upload_signals(cx, mx, b, S)) != WM_OK) return st;

    /* the pairs sorted by class (counting sort, stable), with their places;
    ** the widest column of the pairs that need stripes sizes the scratch */
    const size_t np = mx->np;
    size_t count[N_CLASS + 1] = { 0 };
    uint64_t scratch_n = 1;
    uint32_t *host = (uint32_t *)malloc(3 * np * sizeof *host);
    unsigned char *cls = (unsigned char *)malloc(np);
    if (!host || !cls) {
        free(host);
        free(cls);
        return WM_NOMEM;
    }
    for (size_t k = 0; k < np; k++) {
        uint64_t m = mx->len[mx->pr[2 * k]], n = mx->len[mx->pr[2 * k + 1]];
        int c = class_for(m, n, mx->band);
        cls[k] = (unsigned char)c;
        count[c + 1]++;
        if (m > 32 * (uint64_t)R_CLASS[c] && n > scratch_n) scratch_n = n;
    }
    for (int c = 0; c < N_CLASS; c++) count[c + 1] += count[c];
    size_t first[N_CLASS];
    memcpy(first, count, sizeof first);
    for (size_t k = 0; k < np; k++) {
        size_t at = first[cls[k]]++;
        host[2 * at] = mx->pr[2 * k];
        host[2 * at + 1] = mx->pr[2 * k + 1];
        host[2 * np + at] = (uint32_t)k;
    }
    free(cls);

    const int sm = cx->cuda->sm_count;
    const bool sq = mx->cost == WM_DTW_SQUARED, band = mx->band >= 0, f32 = mx->f32 != 0;
    uint32_t max_warps = 0;
    for (int c = 0; c < N_CLASS; c++) {
        uint32_t w = resident_warps(kernel_of(R_CLASS[c], sq, band, f32), sm);
        if (w > max_warps) max_warps = w;
    }
    /* scratch: two rows a warp, within MX_SCRATCH_MAX (fewer warps else) */
    uint64_t per_warp = 2 * scratch_n * sizeof(double);
    uint32_t warps_cap = (uint32_t)(MX_SCRATCH_MAX / per_warp);
    if (warps_cap < MX_WARPS) warps_cap = MX_WARPS;
    warps_cap -= warps_cap % MX_WARPS;
    if (max_warps > warps_cap) max_warps = warps_cap;

    cudaError_t e = cudaSuccess;
    st = wm_cu_dev_reserve(cx, &b[WM_DTW_MX_PAIR], 3 * np * sizeof(uint32_t));
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &b[WM_DTW_MX_OUT], np * sizeof(double));
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &b[WM_DTW_MX_SCRATCH], max_warps * per_warp);
    if (st == WM_OK)
        e = cudaMemcpyAsync(b[WM_DTW_MX_PAIR].p, host, 3 * np * sizeof(uint32_t),
                            cudaMemcpyHostToDevice, S);
    const uint32_t *dpr = (const uint32_t *)b[WM_DTW_MX_PAIR].p;
    for (int c = 0; c < N_CLASS && st == WM_OK && e == cudaSuccess; c++) {
        size_t lo = count[c], cnt = count[c + 1] - count[c];
        if (!cnt) continue;
        mx_fn k = kernel_of(R_CLASS[c], sq, band, f32);
        uint32_t warps = resident_warps(k, sm);
        if (warps > max_warps) warps = max_warps;
        uint32_t need = (uint32_t)((cnt + MX_WARPS - 1) / MX_WARPS) * MX_WARPS;
        if (warps > need) warps = need;
        mx_args_t A;
        memset(&A, 0, sizeof A);
        A.sig = (const double *)b[WM_DTW_MX_SIG].p;
        A.off = (const uint64_t *)b[WM_DTW_MX_OFF].p;
        A.pr = dpr + 2 * lo;
        A.place = dpr + 2 * np + lo;
        A.np = (uint32_t)cnt;
        A.band = mx->band;
        A.dist = (double *)b[WM_DTW_MX_OUT].p;
        A.scratch = (double *)b[WM_DTW_MX_SCRATCH].p;
        A.scratch_n = scratch_n;
        A.scratch_stride = 2 * scratch_n;
        k<<<warps / MX_WARPS, MX_WARPS * 32, 0, S>>>(A);
        e = cudaGetLastError();
    }
    if (st == WM_OK && e == cudaSuccess)
        e = cudaMemcpyAsync(dist, b[WM_DTW_MX_OUT].p, np * sizeof(double), cudaMemcpyDeviceToHost,
                            S);
    if (st == WM_OK && e == cudaSuccess) e = cudaStreamSynchronize(S);
    if (st == WM_OK && e != cudaSuccess) st = wm_cuda_fail(cx, e, "the dtw matrix");
    free(host);
    return st;
}

extern "C" wm_status wm_dtw_mx_windows(wm_context_t *cx, mx_args_t *A, int64_t band, bool sq,
                                       cudaStream_t S) {
    const uint64_t m = A->m_rows, n = A->win_len;
    int c = class_for(m, n, band);
    for (int t = 0; t < N_CLASS; t++) /* tuning: the caller's shape */
        if (R_CLASS[t] == cx->tuning.dtw_ucr_rows) c = t;
    const int R = R_CLASS[c];
    mx_fn k = kernel_t<double, true>(R, sq, band >= 0); /* ucr: float64 only */
    uint32_t warps = resident_warps(k, cx->cuda->sm_count);
    uint32_t need = (uint32_t)((A->np + MX_WARPS - 1) / MX_WARPS) * MX_WARPS;
    if (warps > need) warps = need;
    A->scratch_n = m > 32 * (uint64_t)R ? n : 1;
    if (!A->abandon) A->env_up = A->env_lo = NULL;
    if (!A->env_up) A->ser_up = A->ser_lo = NULL;
    A->scratch_stride =
        2 * A->scratch_n + (A->abandon ? 2 * (n + 1) + m + 1 : 0); /* suf, bp, sufr */
    uint64_t per_warp = A->scratch_stride * sizeof(double);
    uint32_t cap = (uint32_t)(MX_SCRATCH_MAX / per_warp);
    if (cap < MX_WARPS) cap = MX_WARPS;
    cap -= cap % MX_WARPS;
    if (warps > cap) warps = cap;
    wm_cu_buf_t *b = wm_dtw_cuda_mx_bufs(cx);
    if (!b) return WM_NOMEM;
    wm_status st = wm_cu_dev_reserve(cx, &b[WM_DTW_MX_SCRATCH], warps * per_warp);
    if (st != WM_OK) return st;
    A->scratch = (double *)b[WM_DTW_MX_SCRATCH].p;
    A->band = band;
    k<<<warps / MX_WARPS, MX_WARPS * 32, 0, S>>>(*A);
    WM_CU(cx, cudaGetLastError());
    return WM_OK;
}
