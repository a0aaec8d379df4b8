/*
** sdtw_cuda.cu -- the subsequence / global DTW DP on the GPU: paper 002's
** anti-diagonal wavefront, a warp at a time.
**
** A warp owns a piece of the series (columns [a, b)) and a stripe of up to
** 1,024 query rows, R consecutive rows a lane. Lane l runs column a + t - l
** at step t: its first row's upper neighbour is lane l-1's last row, which
** that lane finished one step earlier (one shuffle), and the diagonal is the
** same value one step older. Pieces start from an unknown (+inf) left border
** and are fixed up afterwards exactly as on the CPU (sdtw.h): the piece runs
** again from the left neighbour's right border until its column equals a
** stored pass-1 column, value and start in every row. Stripes of longer queries run one
** after the other, each reading the one above's last row; series longer than
** a chunk stream through chunk by chunk, handing the border column on.
**
** Tuning knobs (environment, for benchmarks; defaults in brackets):
** WM_DTW_GPU_WARPS [what fits the GPU once] and WM_DTW_GPU_MINPIECE [2m] size
** the pieces, WM_DTW_GPU_WARMUP [m] the columns pass 1 runs early,
** WM_DTW_GPU_CHUNK [2^27] the samples a chunk, WM_DTW_GPU_STRIPE [1024; 512]
** the rows a stripe, WM_DTW_GPU_PIN=1 pins the series for its copy, and
** WM_DTW_GPU_TIMING=1 prints the time split on stderr.
**
** Arithmetic is float64 with the CPU's exact operations (sub, abs or mul,
** min, add, each rounded once; this file is built with -fmad=false), so the
** GPU prints the CPU's bits. float32 would change which end wins near ties
** and the printed distances; see BENCHMARKS.md for what float64 costs.
*/
#include <cuda_runtime.h>
#include <math_constants.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>

#include "cuda/cuda_common.cuh"
#include "cuda/state.cuh"
#include "dtw/sdtw_cuda.h"

#define FULL 0xffffffffu
#define WARPS_PER_BLOCK 4
#define STRIPE_ROWS 1024
#define CK_FIRST 32        /* stored columns: a + 31, a + 63, ... and b - 1 (as sdtw_cpu.c) */
#define MAX_CK 40

enum { TOP_FRESH = 0, TOP_GLOBAL = 1, TOP_NONE = 2, TOP_ROW = 3 };

typedef struct {
    const double *x;              /* the stripe's rows, padded to 32 R with 0; query
                                     q's at x + q * qstride                        */
    size_t qstride;
    int nq;                       /* queries in the launch (same stripe shape)     */
    const int *rows_q;            /* [nq] real rows of each query's stripe         */
    const double *y;              /* the chunk's series                             */
    int nck;                      /* room for stored columns a piece                */
    uint64_t n;                   /* columns in the chunk                           */
    uint64_t base;                /* absolute index of the chunk's column 0         */
    uint64_t plen;
    int np;
    int top;                      /* TOP_*: what lies above the stripe              */
    const double *top_v;          /* TOP_ROW: the stripe above's last row [n]       */
    const uint64_t *top_s;
    double al0_v;                 /* above-left of piece 0 (row i0-1, column -1)   */
    uint64_t al0_s;
    const double *left0_v;        /* piece 0's left border [32 R] (+ q * qstride)   */
    const uint64_t *left0_s;
    int emode;                    /* 0: pass 1; 1: fix-up                           */
    uint64_t warm;                /* pass 1: columns run before a piece's first     */
    const int *dirty;             /* fix-up: the pieces to run again                */
    int nd;
    int *changed;                 /* fix-up: [nd] the piece's right border moved    */
    uint64_t *upto;               /* fix-up: [np] columns of the piece replaced     */
    double *ck_v;                 /* [np][nck][32 R]                                 */
    uint64_t *ck_s;
    double *right_v;              /* [np][32 R] committed right borders             */
    uint64_t *right_s;
    double *rnext_v;              /* [np][32 R] fix-ups' new right borders          */
    uint64_t *rnext_s;
    double *bot_v;                /* [n] the stripe's last row, or NULL             */
    uint64_t *bot_s;
    double *pbest_v;              /* [np] best of the last row: value, end          */
    uint64_t *pbest_e;
} sd_args_t;

__device__ __forceinline__ bool better(double v1, uint64_t s1, double v2, uint64_t s2) {
    return v1 < v2 || (v1 == v2 && v1 != CUDART_INF && s1 > s2);
}

template <bool SQ>
__device__ __forceinline__ double cell_cost(double x, double y) {
    double d = __dsub_rn(x, y);
    return SQ ? __dmul_rn(d, d) : fabs(d);
}

__device__ __forceinline__ uint64_t ck_col(uint64_t a, uint64_t b, int k) {
    uint64_t w = (uint64_t)CK_FIRST << k;
    return a + w < b ? a + w - 1 : b - 1;
}

template <int R, bool TRACK, bool SQ>
__global__ void __launch_bounds__(WARPS_PER_BLOCK * 32)
sdtw_kernel(sd_args_t A) {
    const int lane = threadIdx.x & 31;
    const int wib = threadIdx.x >> 5;
    const int wid = blockIdx.x * WARPS_PER_BLOCK + wib;
    const int count = A.emode ? A.nd : A.np * A.nq;
    if (wid >= count) return;
    /* gp: the piece's index over all queries; p within its query */
    const int gp = A.emode ? A.dirty[wid] : wid;
    const int q = gp / A.np, p = gp % A.np;
    /* row r of lane l at xs[r * 32 + l]: a step's reads hit 32 banks */
    __shared__ double xs_all[WARPS_PER_BLOCK][R * 32];
    double *xs = xs_all[wib];
    for (int i = lane; i < R * 32; i += 32) xs[(i % R) * 32 + i / R] = A.x[q * A.qstride + i];
    __syncwarp();
    const int rows = A.rows_q[q];
    const uint64_t a = (uint64_t)p * A.plen;
    const uint64_t b = a + A.plen < A.n ? a + A.plen : A.n;
    const uint64_t w = b - a;
    /* pass 1 starts `warm` columns early (from +inf there), so that by column
    ** a its state is usually the true one already and the fix-up stops at
    ** its first stored column; nothing is output before a */
    const uint64_t a0 = !A.emode && p > 0 ? a - (A.warm < a ? A.warm : a) : a;
    const uint64_t wr = b - a0;
    const int row0 = lane * R;

    /* the left border */
    double h[R];
    uint64_t hs[TRACK ? R : 1];
    const double *lv = A.emode ? A.right_v + (size_t)(gp - 1) * 32 * R
                               : (p == 0 ? A.left0_v + q * A.qstride : NULL);
    const uint64_t *ls = !TRACK ? NULL
                       : A.emode ? A.right_s + (size_t)(gp - 1) * 32 * R
                                 : (p == 0 ? A.left0_s + q * A.qstride : NULL);
#pragma unroll
    for (int r = 0; r < R; r++) {
        h[r] = lv ? lv[row0 + r] : CUDART_INF;
        if (TRACK) hs[r] = ls ? ls[row0 + r] : 0;
    }
    /* above-left of lane 0: row i0-1 at column a-1 */
    const int top = A.top;
    double al_v;
    uint64_t al_s = 0;
    if (p == 0) { al_v = A.al0_v; al_s = A.al0_s; }
    else if (top == TOP_FRESH) { al_v = 0.0; al_s = A.base + a0 - 1; }
    else if (top == TOP_ROW) { al_v = A.top_v[a0 - 1]; if (TRACK) al_s = A.top_s[a0 - 1]; }
    else al_v = CUDART_INF;
    /* the diagonal of each lane's first cell: the lane above's left border */
    double dg_v = __shfl_up_sync(FULL, h[R - 1], 1);
    uint64_t dg_s = TRACK ? __shfl_up_sync(FULL, hs[R - 1], 1) : 0;
    if (lane == 0) { dg_v = al_v; dg_s = al_s; }

    const int lb = (rows - 1) / R, rb = (rows - 1) % R;   /* the stripe's last row */
    double best_v = CUDART_INF;
    uint64_t best_e = ~0ull;
    int k_next = 0;                 /* this lane's next stored column               */
    uint64_t ck_next = ck_col(a, b, 0);
    uint32_t lost = 0;              /* fix-up: bit k = equal to pass 1 at stored column k */
    const uint64_t prior = A.emode ? A.upto[gp] : 0;   /* columns earlier rounds replaced */
    uint64_t done = w;
    int wk = 0;                     /* fix-up: the stored column the warp checks next */
    uint64_t w_ck = ck_col(a, b, 0);
    bool moved = false;             /* fix-up: the right border changed             */
    double yv = 0.0;                /* the sample of this lane's column             */
    double stage_y = 0.0, stage_t = 0.0;
    uint64_t stage_ts = 0;
    const uint64_t steps = wr + 31;
    /* One step from hi (the lane's rows at its previous column) into ho:
    ** two register sets used in turn, so that no value is copied. Returns
    ** true when a fix-up may stop. */
    auto step = [&](double (&hi)[R], uint64_t (&hsi)[TRACK ? R : 1], double (&ho)[R],
                    uint64_t (&hso)[TRACK ? R : 1], uint64_t t) -> bool {
        /* every 32 steps the warp loads the next 32 samples (and top cells)
        ** for lane 0, which takes one a step */
        if ((t & 31) == 0) {
            uint64_t c = a0 + t + lane;
            stage_y = c < b ? A.y[c] : 0.0;
            if (top == TOP_ROW) {
                stage_t = c < b ? A.top_v[c] : CUDART_INF;
                if (TRACK) stage_ts = c < b ? A.top_s[c] : 0;
            }
        }
        const int sl = (int)(t & 31);
        double y_in = __shfl_sync(FULL, stage_y, sl);
        double up_top = 0.0;
        uint64_t up_top_s = A.base + a0 + t;
        if (top == TOP_ROW) {
            up_top = __shfl_sync(FULL, stage_t, sl);
            if (TRACK) up_top_s = __shfl_sync(FULL, stage_ts, sl);
        } else if (top != TOP_FRESH) {
            up_top = CUDART_INF;
        }
        double y_prev = __shfl_up_sync(FULL, yv, 1);
        double up_v = __shfl_up_sync(FULL, hi[R - 1], 1);
        uint64_t up_s = TRACK ? __shfl_up_sync(FULL, hsi[R - 1], 1) : 0;
        if (lane == 0) { yv = y_in; up_v = up_top; up_s = up_top_s; }
        else yv = y_prev;
        const uint64_t c = a0 + t - lane;         /* this lane's column (when active) */
        const bool active = t >= (uint64_t)lane && t - lane < wr;
        const double nd_v = up_v;                 /* next step's diagonal */
        const uint64_t nd_s = up_s;
        if (active) {
            double d_v = dg_v;
            uint64_t d_s = dg_s;
            double u_v = up_v;
            uint64_t u_s = up_s;
#pragma unroll
            for (int r = 0; r < R; r++) {
                const double cst = cell_cost<SQ>(xs[r * 32 + lane], yv);
                const double l_v = hi[r];
                if (TRACK) {
                    const uint64_t l_s = hsi[r];
                    double bv = __dadd_rn(d_v, cst);
                    uint64_t bs = d_s;
                    double tv = __dadd_rn(u_v, cst);
                    if (better(tv, u_s, bv, bs)) { bv = tv; bs = u_s; }
                    tv = __dadd_rn(l_v, cst);
                    if (better(tv, l_s, bv, bs)) { bv = tv; bs = l_s; }
                    d_v = l_v; d_s = l_s;
                    u_v = bv; u_s = bs;
                    ho[r] = bv; hso[r] = bs;
                } else {
                    /* a compare and two selects a min (fmin would add NaN
                    ** handling; no NaN reaches here) */
                    double mn = d_v < l_v ? d_v : l_v;
                    mn = mn < u_v ? mn : u_v;
                    d_v = l_v;
                    u_v = __dadd_rn(mn, cst);
                    ho[r] = u_v;
                }
            }
            /* the stripe's last row: the bottom row out */
            if (lane == lb && c >= a) {
                double v = ho[0];
                uint64_t s = 0;
#pragma unroll
                for (int r = 0; r < R; r++)
                    if (r == rb) { v = ho[r]; if (TRACK) s = hso[r]; }
                if (A.bot_v) {   /* a fix-up's cells are the true ones: they replace */
                    A.bot_v[c] = v;
                    if (TRACK) A.bot_s[c] = s;
                }
                if (v < best_v) { best_v = v; best_e = A.base + c + 1; }
            }
            /* stored columns: pass 1 keeps them, a fix-up compares with them */
            if (c == ck_next) {
                size_t o = ((size_t)gp * A.nck + k_next) * 32 * R + row0;
                if (!A.emode) {
#pragma unroll
                    for (int r = 0; r < R; r++) {
                        A.ck_v[o + r] = ho[r];
                        if (TRACK) A.ck_s[o + r] = hso[r];
                        if (c == b - 1) {
                            A.right_v[(size_t)gp * 32 * R + row0 + r] = ho[r];
                            if (TRACK) A.right_s[(size_t)gp * 32 * R + row0 + r] = hso[r];
                        }
                    }
                } else {
                    /* rows below the query's last are padding: never compared */
                    bool same = true;
#pragma unroll
                    for (int r = 0; r < R; r++) {
                        if (row0 + r >= rows) continue;
                        if (ho[r] != A.ck_v[o + r] || (TRACK && hso[r] != A.ck_s[o + r])) same = false;
                        if (c == b - 1) {   /* the end: this run's column is the right border */
                            size_t o2 = (size_t)gp * 32 * R + row0 + r;
                            A.rnext_v[o2] = ho[r];
                            if (TRACK) A.rnext_s[o2] = hso[r];
                            if (ho[r] != A.right_v[o2] || (TRACK && hso[r] != A.right_s[o2])) moved = true;
                        }
                    }
                    if (same) lost |= 1u << k_next;
                }
                k_next++;
                ck_next = c == b - 1 ? ~0ull : ck_col(a, b, k_next);
            }
        } else {
#pragma unroll
            for (int r = 0; r < R; r++) {   /* not at the piece yet, or past it: keep */
                ho[r] = hi[r];
                if (TRACK) hso[r] = hsi[r];
            }
        }
        dg_v = nd_v;
        dg_s = nd_s;
        /* fix-up: once every lane has passed stored column wk and its column
        ** equals pass 1's there, the rest of the piece is what pass 1 made
        ** (unless an earlier round replaced cells further on) */
        if (A.emode && a0 + t == w_ck + 31) {
            bool all_same = __all_sync(FULL, (lost >> wk) & 1u);
            if (all_same && w_ck != b - 1 && w_ck + 1 - a >= prior) {
                moved = false;
                done = w_ck + 1 - a;
                return true;
            }
            w_ck = w_ck == b - 1 ? ~0ull : ck_col(a, b, ++wk);
        }
        return false;
    };
    double h2[R];
    uint64_t hs2[TRACK ? R : 1];
    for (uint64_t t = 0; t < steps; t += 2) {
        if (step(h, hs, h2, hs2, t) || t + 1 >= steps) break;
        if (step(h2, hs2, h, hs, t + 1)) break;
    }
    /* the piece's best bottom cell: the smallest value, then the leftmost end */
    if (A.pbest_v) {
        double bv = best_v;
        uint64_t be = best_e;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            double ov = __shfl_xor_sync(FULL, bv, o);
            uint64_t oe = __shfl_xor_sync(FULL, be, o);
            if (ov < bv || (ov == bv && oe < be)) { bv = ov; be = oe; }
        }
        if (lane == 0) {
            if (!A.emode || bv < A.pbest_v[gp] || (bv == A.pbest_v[gp] && bv != CUDART_INF && be < A.pbest_e[gp])) {
                A.pbest_v[gp] = bv;
                A.pbest_e[gp] = be;
            }
        }
    }
    if (A.emode) {
        bool any = __any_sync(FULL, moved);
        if (lane == 0) {
            A.changed[wid] = any;
            A.upto[gp] = done > prior ? done : prior;
        }
    }
}

/* After a fix-up round: the right borders that moved become the committed
** ones (one block a fixed-up piece). */
__global__ void commit_kernel(const int *dirty, const int *changed, int nd, int lanes_rows,
                              double *right_v, const double *rnext_v, uint64_t *right_s,
                              const uint64_t *rnext_s) {
    int k = blockIdx.x;
    if (k >= nd || !changed[k]) return;
    size_t o = (size_t)dirty[k] * lanes_rows;
    for (int i = threadIdx.x; i < lanes_rows; i += blockDim.x) {
        right_v[o + i] = rnext_v[o + i];
        if (right_s) right_s[o + i] = rnext_s[o + i];
    }
}

/* ---- host: chunks, stripes, pieces and fix-up rounds ----------------------- */

/* The device buffers of a run, kept in the context between calls (grown,
** never shrunk) so that a run pays no cudaMalloc once warm. */
enum { B_Y, B_X, B_ROWS_V0, B_ROWS_V1, B_FIN_V, B_CK_V, B_RIGHT_V, B_RNEXT_V, B_PBEST_V,
       B_LEFT_V, B_ROWS_S0, B_ROWS_S1, B_FIN_S, B_CK_S, B_RIGHT_S, B_RNEXT_S, B_PBEST_E,
       B_LEFT_S, B_DIRTY, B_CHANGED, B_UPTO, B_QROWS, N_BUFS };
typedef struct {
    void *p[N_BUFS];
    size_t cap[N_BUFS];
} dtw_cache_t;

static void cache_free(void *arg) {
    dtw_cache_t *c = (dtw_cache_t *)arg;
    if (!c) return;
    for (int i = 0; i < N_BUFS; i++) cudaFree(c->p[i]);
    free(c);
}

static dtw_cache_t *cache_of(wm_context_t *cx) {
    if (!cx->cuda->dtw) {
        cx->cuda->dtw = calloc(1, sizeof(dtw_cache_t));
        cx->cuda->dtw_free = cache_free;
    }
    return (dtw_cache_t *)cx->cuda->dtw;
}

/* Buffer `which` of at least `bytes`, into *out. */
template <typename T>
static cudaError_t need(dtw_cache_t *c, int which, size_t bytes, T **out) {
    if (c->cap[which] < bytes) {
        cudaFree(c->p[which]);
        c->p[which] = NULL;
        c->cap[which] = 0;
        cudaError_t e = cudaMalloc(&c->p[which], bytes);
        if (e != cudaSuccess) return e;
        c->cap[which] = bytes;
    }
    *out = (T *)c->p[which];
    return cudaSuccess;
}

typedef struct {
    double *y, *x, *rows_v[2], *fin_v, *ck_v, *right_v, *rnext_v, *pbest_v, *left_v;
    uint64_t *rows_s[2], *fin_s, *ck_s, *right_s, *rnext_s, *pbest_e, *left_s;
    int *dirty, *changed;
    uint64_t *upto;
} dev_bufs_t;

static double wall_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int rows_per_lane(int rows) {
    int r = 1;
    while (r * 32 < rows) r *= 2;
    return r;
}

typedef void (*kernel_fn)(sd_args_t);

template <bool TRACK, bool SQ>
static kernel_fn kernel_r(int R) {
    switch (R) {
    case 1: return sdtw_kernel<1, TRACK, SQ>;
    case 2: return sdtw_kernel<2, TRACK, SQ>;
    case 4: return sdtw_kernel<4, TRACK, SQ>;
    case 8: return sdtw_kernel<8, TRACK, SQ>;
    case 16: return sdtw_kernel<16, TRACK, SQ>;
    default:
        if constexpr (!TRACK) return sdtw_kernel<32, TRACK, SQ>;
        return NULL;
    }
}

static kernel_fn kernel_of(int R, bool sq, bool track) {
    if (track) return sq ? kernel_r<true, true>(R) : kernel_r<true, false>(R);
    return sq ? kernel_r<false, true>(R) : kernel_r<false, false>(R);
}

static cudaError_t launch_any(const sd_args_t &A, int R, bool sq, bool track, int count) {
    dim3 grid((count + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK), block(WARPS_PER_BLOCK * 32);
    kernel_of(R, sq, track)<<<grid, block>>>(A);
    return cudaGetLastError();
}

/* Warps of this kernel that fit on the whole GPU at once. */
static uint64_t resident_warps(int R, bool sq, bool track, int sm) {
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel_of(R, sq, track),
                                                      WARPS_PER_BLOCK * 32, 0) != cudaSuccess || blocks < 1) {
        cudaGetLastError();
        blocks = 3;
    }
    return (uint64_t)sm * blocks * WARPS_PER_BLOCK;
}

static uint64_t env_u64(const char *name, uint64_t dflt) {
    const char *s = getenv(name);
    return s && *s ? strtoull(s, NULL, 10) : dflt;
}

enum { WANT_BEST, WANT_ROW, WANT_CORNER };

/* Run nq jobs on one series (j[q].y, n, cost and top are the same for all).
** nq > 1 only for untracked jobs whose queries fit one stripe and share R,
** with want == WANT_BEST (best[q] each). */
static wm_status sdtw_cuda_run(wm_context_t *cx, const wm_sdtw_job_t *j, int nq, int want,
                               wm_sdtw_best_t *best, double *row_v, uint64_t *row_s,
                               double *corner, uint64_t *corner_s = NULL, int one_piece = 0) {
    size_t m = 0;
    for (int q = 0; q < nq; q++) m = j[q].m > m ? j[q].m : m;
    const uint64_t n = j->n;
    const bool track = j->track != 0, sq = j->cost == WM_DTW_SQUARED;
    /* stripes of 1,024 rows (R = 32 a lane); 512 when starts are tracked,
    ** whose registers would spill at 32 */
    const size_t SR_full = env_u64("WM_DTW_GPU_STRIPE", STRIPE_ROWS);
    const size_t SR = track ? STRIPE_ROWS / 2 : (SR_full == 512 ? 512 : STRIPE_ROWS);
    const int S = (int)((m + SR - 1) / SR);
    const int sm = cx->cuda ? cx->cuda->sm_count : 132;
    /* Pieces: enough warps to fill the GPU once (over all queries), but not
    ** much shorter than the query: a fix-up costs about m columns. */
    uint64_t plen, chunk;
    if (cx->opts.chunk_bytes) {
        plen = cx->opts.chunk_bytes / sizeof(double);
        if (!plen) plen = 1;
        chunk = plen * 64;   /* tests: many chunks as well as many pieces */
    } else {
        chunk = env_u64("WM_DTW_GPU_CHUNK", (uint64_t)1 << 27);
        uint64_t cols = n < chunk ? n : chunk;
        uint64_t warps = env_u64("WM_DTW_GPU_WARPS",
                                 resident_warps(rows_per_lane((int)(m < SR ? m : SR)), sq, track, sm));
        uint64_t per_query = (warps + nq - 1) / nq;
        plen = (cols + per_query - 1) / per_query;
        uint64_t floor_len = env_u64("WM_DTW_GPU_MINPIECE", 2 * (uint64_t)(m < SR ? m : SR));
        if (plen < floor_len) plen = floor_len;
        if (plen < 64) plen = 64;
    }
    /* a start-finding window of a query of one stripe: one piece, no fix-ups
    ** (measured: 3.8 ms against 4.4 for m = 1,024); taller queries keep
    ** their pieces, whose stripes run in parallel warps */
    if (one_piece && !cx->opts.chunk_bytes && n <= chunk && m <= SR) plen = n;
    if (chunk > n) chunk = n;
    const uint64_t np_max = (chunk + plen - 1) / plen;
    const size_t gp_max = (size_t)nq * np_max;
    int nck = 2;
    for (uint64_t w = CK_FIRST; w < plen; w *= 2) nck++;
    const int R_wide = rows_per_lane((int)(m < SR ? m : SR));   /* the widest stripe's R */
    const size_t lanes_rows = 32 * (size_t)R_wide;
    /* query q's rows at q * qstride: stripes of SR rows for one query, 32 R
    ** rows a query in a batch */
    const size_t qstride = nq > 1 ? lanes_rows : (size_t)S * SR;
    const size_t xall = (size_t)nq * qstride;

    dev_bufs_t d;
    memset(&d, 0, sizeof d);
    dtw_cache_t *cache = NULL;
    int registered = 0;
    const int timing = getenv("WM_DTW_GPU_TIMING") != NULL;
    double t_mark[2] = {0, 0}, t0 = timing ? wall_s() : 0, t_h2d = 0, t_pass = 0, t_fix = 0;
    int rounds = 0;
    double *h_left_v = NULL, *h_pbest_v = NULL, *h_x = NULL;
    uint64_t *h_left_s = NULL, *h_pbest_e = NULL;
    int *h_dirty = NULL, *h_changed = NULL, *h_rows = NULL, *d_rows = NULL;
    wm_status st = WM_OK;
    cudaError_t e = cudaSuccess;
#define TRY(call) do { if ((e = (call)) != cudaSuccess) { st = wm_cuda_fail(cx, e, #call); goto out; } } while (0)
    h_x = (double *)calloc(xall, sizeof *h_x);
    h_left_v = (double *)malloc(xall * sizeof *h_left_v);
    h_left_s = (uint64_t *)calloc(xall, sizeof *h_left_s);
    h_pbest_v = (double *)malloc(gp_max * sizeof *h_pbest_v);
    h_pbest_e = (uint64_t *)malloc(gp_max * sizeof *h_pbest_e);
    h_dirty = (int *)malloc(gp_max * sizeof *h_dirty);
    h_changed = (int *)malloc(gp_max * sizeof *h_changed);
    h_rows = (int *)malloc((size_t)nq * sizeof *h_rows);
    if (!h_x || !h_left_v || !h_left_s || !h_pbest_v || !h_pbest_e || !h_dirty || !h_changed || !h_rows) {
        st = WM_NOMEM;
        goto out;
    }
    for (int q = 0; q < nq; q++) memcpy(h_x + q * qstride, j[q].x, j[q].m * sizeof *h_x);
    for (size_t i = 0; i < xall; i++) h_left_v[i] = INFINITY;   /* d[i][0] = +inf */

    if (!cx->cuda || !(cache = cache_of(cx))) {
        st = WM_NOMEM;
        goto out;
    }
    TRY(need(cache, B_Y, chunk * sizeof(double), &d.y));
    TRY(need(cache, B_X, xall * sizeof(double), &d.x));
    TRY(need(cache, B_LEFT_V, xall * sizeof(double), &d.left_v));
    TRY(need(cache, B_QROWS, (size_t)nq * sizeof(int), &d_rows));
    TRY(need(cache, B_CK_V, gp_max * nck * lanes_rows * sizeof(double), &d.ck_v));
    TRY(need(cache, B_RIGHT_V, gp_max * lanes_rows * sizeof(double), &d.right_v));
    TRY(need(cache, B_RNEXT_V, gp_max * lanes_rows * sizeof(double), &d.rnext_v));
    TRY(need(cache, B_PBEST_V, gp_max * sizeof(double), &d.pbest_v));
    TRY(need(cache, B_PBEST_E, gp_max * sizeof(uint64_t), &d.pbest_e));
    TRY(need(cache, B_DIRTY, gp_max * sizeof(int), &d.dirty));
    TRY(need(cache, B_CHANGED, gp_max * sizeof(int), &d.changed));
    TRY(need(cache, B_UPTO, gp_max * sizeof(uint64_t), &d.upto));
    if (S > 1) {
        TRY(need(cache, B_ROWS_V0, chunk * sizeof(double), &d.rows_v[0]));
        TRY(need(cache, B_ROWS_V1, chunk * sizeof(double), &d.rows_v[1]));
        if (track) {
            TRY(need(cache, B_ROWS_S0, chunk * sizeof(uint64_t), &d.rows_s[0]));
            TRY(need(cache, B_ROWS_S1, chunk * sizeof(uint64_t), &d.rows_s[1]));
        }
    }
    if (want == WANT_ROW) {
        TRY(need(cache, B_FIN_V, chunk * sizeof(double), &d.fin_v));
        if (track) TRY(need(cache, B_FIN_S, chunk * sizeof(uint64_t), &d.fin_s));
    }
    if (track) {
        TRY(need(cache, B_LEFT_S, xall * sizeof(uint64_t), &d.left_s));
        TRY(need(cache, B_CK_S, gp_max * nck * lanes_rows * sizeof(uint64_t), &d.ck_s));
        TRY(need(cache, B_RIGHT_S, gp_max * lanes_rows * sizeof(uint64_t), &d.right_s));
        TRY(need(cache, B_RNEXT_S, gp_max * lanes_rows * sizeof(uint64_t), &d.rnext_s));
        TRY(cudaMemcpy(d.left_s, h_left_s, xall * sizeof(uint64_t), cudaMemcpyHostToDevice));
    }
    /* Pinning the series where it lies makes its copy run at the bus's speed
    ** (0.63 ms for 32 MB on the H100 host, against 4.8 ms from pageable
    ** memory), but pinning and unpinning 32 MB cost more than that, and a
    ** caller's buffer cannot stay pinned between calls (it may be freed).
    ** So only on request (WM_DTW_GPU_PIN=1: BENCHMARKS.md shows both). */
    if (n * sizeof(double) >= ((size_t)8 << 20) && getenv("WM_DTW_GPU_PIN")) {
        registered = cudaHostRegister((void *)j->y, n * sizeof(double), cudaHostRegisterDefault) == cudaSuccess;
        if (!registered) cudaGetLastError();
    }
    if (timing) { cudaDeviceSynchronize(); t_mark[0] = wall_s(); }
    TRY(cudaMemcpy(d.left_v, h_left_v, xall * sizeof(double), cudaMemcpyHostToDevice));
    TRY(cudaMemcpy(d.x, h_x, xall * sizeof(double), cudaMemcpyHostToDevice));
    if (best)
        for (int q = 0; q < nq; q++) wm_sdtw_best_init(&best[q]);

    for (uint64_t base = 0; base < n; base += chunk) {
        const uint64_t cn = n - base < chunk ? n - base : chunk;
        const int np = (int)((cn + plen - 1) / plen);
        const int ngp = nq * np;
        double tc = timing ? wall_s() : 0;
        TRY(cudaMemcpy(d.y, j->y + base, cn * sizeof(double), cudaMemcpyHostToDevice));
        if (timing) t_h2d += wall_s() - tc;
        for (int s = 0; s < S; s++) {
            const size_t i0 = (size_t)s * SR;
            for (int q = 0; q < nq; q++)
                h_rows[q] = (int)(j[q].m - i0 < SR ? j[q].m - i0 : SR);
            const int R = rows_per_lane(nq > 1 ? (int)(m < SR ? m : SR) : h_rows[0]);
            const bool last = s == S - 1;
            TRY(cudaMemcpy(d_rows, h_rows, (size_t)nq * sizeof(int), cudaMemcpyHostToDevice));
            sd_args_t A;
            memset(&A, 0, sizeof A);
            A.x = d.x + i0;
            A.qstride = qstride;
            A.nq = nq;
            A.rows_q = d_rows;
            A.y = d.y;
            A.nck = nck;
            A.n = cn;
            A.base = base;
            A.plen = plen;
            A.np = np;
            A.warm = env_u64("WM_DTW_GPU_WARMUP", (uint64_t)(m < SR ? m : SR));
            if (A.warm > plen / 2) A.warm = plen / 2;
            A.top = s > 0 ? TOP_ROW : j->top == WM_SDTW_TOP_FRESH ? TOP_FRESH : TOP_GLOBAL;
            A.top_v = s > 0 ? d.rows_v[(s - 1) & 1] : NULL;
            A.top_s = s > 0 ? d.rows_s[(s - 1) & 1] : NULL;
            /* above-left of piece 0: row i0-1 at column base-1 (the same for
            ** every query of a batch, which has one stripe) */
            if (s > 0) {
                A.al0_v = h_left_v[i0 - 1];
                A.al0_s = h_left_s[i0 - 1];
            } else if (j->top == WM_SDTW_TOP_FRESH) {
                A.al0_v = 0.0;
                A.al0_s = base ? base - 1 : 0;
            } else {
                A.al0_v = base == 0 ? 0.0 : INFINITY;
            }
            A.left0_v = d.left_v + i0;
            A.left0_s = track ? d.left_s + i0 : NULL;
            A.ck_v = d.ck_v;
            A.ck_s = d.ck_s;
            A.right_v = d.right_v;
            A.right_s = d.right_s;
            A.rnext_v = d.rnext_v;
            A.rnext_s = d.rnext_s;
            A.bot_v = !last ? d.rows_v[s & 1] : want == WANT_ROW ? d.fin_v : NULL;
            A.bot_s = !last ? d.rows_s[s & 1] : want == WANT_ROW ? d.fin_s : NULL;
            if (!track) A.bot_s = NULL;
            A.pbest_v = last && want == WANT_BEST ? d.pbest_v : NULL;
            A.pbest_e = last && want == WANT_BEST ? d.pbest_e : NULL;
            A.dirty = d.dirty;
            A.changed = d.changed;
            A.upto = d.upto;
            TRY(cudaMemset(d.upto, 0, (size_t)ngp * sizeof(uint64_t)));
            if (timing) { cudaDeviceSynchronize(); tc = wall_s(); }
            TRY(launch_any(A, R, sq, track, ngp));
            if (timing) { cudaDeviceSynchronize(); t_pass += wall_s() - tc; tc = wall_s(); }
            /* fix-up rounds: piece p from the committed right border of p-1 */
            int nd = 0;
            for (int g = 0; g < ngp; g++)
                if (g % np) h_dirty[nd++] = g;
            A.emode = 1;
            while (nd > 0) {
                TRY(cudaMemcpy(d.dirty, h_dirty, nd * sizeof(int), cudaMemcpyHostToDevice));
                A.nd = nd;
                TRY(launch_any(A, R, sq, track, nd));
                commit_kernel<<<nd, 128>>>(d.dirty, d.changed, nd, 32 * R, d.right_v, d.rnext_v,
                                           track ? d.right_s : NULL, d.rnext_s);
                TRY(cudaGetLastError());
                TRY(cudaMemcpy(h_changed, d.changed, nd * sizeof(int), cudaMemcpyDeviceToHost));
                int next = 0;
                for (int k = 0; k < nd; k++) {
                    int g = h_dirty[k];
                    if (h_changed[k] && (g + 1) % np) h_dirty[next++] = g + 1;
                }
                nd = next;
                rounds++;
            }
            if (timing) t_fix += wall_s() - tc;
            /* each query's rows at the chunk's last column: the next chunk's left */
            TRY(cudaMemcpy2D(d.left_v + i0, qstride * sizeof(double),
                             d.right_v + (size_t)(np - 1) * 32 * R, (size_t)np * 32 * R * sizeof(double),
                             (size_t)32 * R * sizeof(double), nq, cudaMemcpyDeviceToDevice));
            if (track)
                TRY(cudaMemcpy2D(d.left_s + i0, qstride * sizeof(uint64_t),
                                 d.right_s + (size_t)(np - 1) * 32 * R, (size_t)np * 32 * R * sizeof(uint64_t),
                                 (size_t)32 * R * sizeof(uint64_t), nq, cudaMemcpyDeviceToDevice));
            if (last && want == WANT_BEST) {
                TRY(cudaMemcpy(h_pbest_v, d.pbest_v, ngp * sizeof(double), cudaMemcpyDeviceToHost));
                TRY(cudaMemcpy(h_pbest_e, d.pbest_e, ngp * sizeof(uint64_t), cudaMemcpyDeviceToHost));
                for (int g = 0; g < ngp; g++)
                    wm_sdtw_best_offer(&best[g / np], h_pbest_v[g], h_pbest_e[g], 0);
            }
            if (last && want == WANT_ROW) {
                TRY(cudaMemcpy(row_v + base, d.fin_v, cn * sizeof(double), cudaMemcpyDeviceToHost));
                if (track)
                    TRY(cudaMemcpy(row_s + base, d.fin_s, cn * sizeof(uint64_t), cudaMemcpyDeviceToHost));
            }
        }
        TRY(cudaMemcpy(h_left_v, d.left_v, xall * sizeof(double), cudaMemcpyDeviceToHost));
        if (track) TRY(cudaMemcpy(h_left_s, d.left_s, xall * sizeof(uint64_t), cudaMemcpyDeviceToHost));
    }
    if (want == WANT_CORNER) {
        *corner = h_left_v[m - 1];
        if (corner_s) *corner_s = h_left_s[m - 1];
    }
    if (registered) {
        cudaHostUnregister((void *)j->y);
        registered = 0;
    }
    if (timing) {
        t_mark[1] = wall_s();
        fprintf(stderr, "dtw gpu: m %zu n %llu queries %d R-stripes %d plen %llu: setup+pin %.3f ms, "
                "h2d %.3f ms, pass 1 %.3f ms, fix-ups %.3f ms (%d rounds), total (unpin included) %.3f ms\n",
                m, (unsigned long long)n, nq, S, (unsigned long long)plen, (t_mark[0] - t0) * 1e3,
                t_h2d * 1e3, t_pass * 1e3, t_fix * 1e3, rounds, (t_mark[1] - t0) * 1e3);
    }
#undef TRY
out:
    if (registered) cudaHostUnregister((void *)j->y);
    free(h_x);
    free(h_left_v);
    free(h_left_s);
    free(h_pbest_v);
    free(h_pbest_e);
    free(h_dirty);
    free(h_changed);
    free(h_rows);
    return st;
}

extern "C" wm_status wm_sdtw_cuda_best(wm_context_t *cx, const wm_sdtw_job_t *j, wm_sdtw_best_t *best) {
    return sdtw_cuda_run(cx, j, 1, WANT_BEST, best, NULL, NULL, NULL);
}

extern "C" wm_status wm_sdtw_cuda_best_many(wm_context_t *cx, const wm_sdtw_job_t *j, size_t nq,
                                            wm_sdtw_best_t *best) {
    return sdtw_cuda_run(cx, j, (int)nq, WANT_BEST, best, NULL, NULL, NULL);
}

extern "C" wm_status wm_sdtw_cuda_row(wm_context_t *cx, const wm_sdtw_job_t *j, double *row_v,
                                      uint64_t *row_s) {
    return sdtw_cuda_run(cx, j, 1, WANT_ROW, NULL, row_v, row_s, NULL);
}

extern "C" wm_status wm_sdtw_cuda_corner_tracked(wm_context_t *cx, const wm_sdtw_job_t *j,
                                                 double *corner, uint64_t *start) {
    return sdtw_cuda_run(cx, j, 1, WANT_CORNER, NULL, NULL, NULL, corner, start, 1);
}

extern "C" wm_status wm_sdtw_cuda_corner(wm_context_t *cx, const wm_sdtw_job_t *j, double *corner) {
    return sdtw_cuda_run(cx, j, 1, WANT_CORNER, NULL, NULL, NULL, corner);
}
