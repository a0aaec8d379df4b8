/*
** sdtw_kernel.cuh -- the subsequence / global DTW kernel of sdtw_cuda.cu:
** a warp owns a piece of the series and a stripe of up to 1,024 query rows,
** R consecutive rows a lane, lane l at column a + t - l (the wavefront of
** paper 002), in pass 1 or as a fix-up run; and the commit of moved borders.
** Included by sdtw_cuda.cu alone (the host code there launches them).
*/
#ifndef WM_DTW_SDTW_KERNEL_CUH
#define WM_DTW_SDTW_KERNEL_CUH

#include <cuda_runtime.h>
#include <math_constants.h>
#include <stdint.h>

#include "dtw/dtw_arith.cuh"

#define FULL 0xffffffffu
#define WARPS_PER_BLOCK 4
#define STRIPE_ROWS 1024
#define CK_FIRST 32 /* stored columns: a + 31, a + 63, ... and b - 1 (as sdtw_cpu.c) */
#define MAX_CK 40
/* Pass 1's plain blocks (below) want many warps a multiprocessor: the
** kernels of up to 8 rows a lane are held to 80-128 registers by the blocks a
** multiprocessor asked of them (4 warps a block), about the fewest whose
** plain loop does not spill. 1,000 queries of 128 in float32 (R = 4) on the
** H100: unbounded, 187 registers (2 blocks), 0.39 s; 80 registers (6 blocks,
** 22 bytes spilled), 0.35 s; 96 (5 blocks, no spill), 0.27 s
** (bench/gpu_dtw_many.sh's variants rebuild with PLAIN_MINB set). */
template <typename T, int R, bool TRACK>
constexpr int plain_min_blocks() {
#ifdef PLAIN_MINB
    return TRACK || R > 8 ? 1 : PLAIN_MINB;
#else
    return TRACK || R > 8 ? 1 : sizeof(T) == 4 ? (R <= 2 ? 6 : 5) : (R <= 2 ? 6 : R == 4 ? 5 : 4);
#endif
}

enum { TOP_FRESH = 0, TOP_GLOBAL = 1, TOP_NONE = 2, TOP_ROW = 3 };

typedef struct {
    const double *x; /* the stripe's rows, padded to 32 R with 0; query
                        q's at x + q * qstride */
    size_t qstride;
    int nq;            /* queries in the launch (same stripe shape) */
    const int *rows_q; /* [nq] real rows of each query's stripe */
    const double *y;   /* the chunk's series */
    int nck;           /* room for stored columns a piece */
    uint64_t n;        /* columns in the chunk */
    uint64_t base;     /* absolute index of the chunk's column 0 */
    uint64_t plen;
    int np;
    int top;             /* TOP_*: what lies above the stripe */
    const double *top_v; /* TOP_ROW: the stripe above's last row [n] */
    const uint64_t *top_s;
    double al0_v; /* above-left of piece 0 (row i0-1, column -1) */
    uint64_t al0_s;
    const double *left0_v; /* piece 0's left border [32 R] (+ q * qstride) */
    const uint64_t *left0_s;
    int emode;        /* 0: pass 1; 1: fix-up */
    uint64_t warm;    /* pass 1: columns run before a piece's first */
    const int *dirty; /* fix-up: the pieces to run again */
    int nd;
    int *changed;   /* fix-up: [nd] the piece's right border moved */
    uint64_t *upto; /* fix-up: [np] columns of the piece replaced */
    double *ck_v;   /* [np][nck][32 R] */
    uint64_t *ck_s;
    double *right_v; /* [np][32 R] committed right borders */
    uint64_t *right_s;
    double *rnext_v; /* [np][32 R] fix-ups' new right borders */
    uint64_t *rnext_s;
    double *bot_v; /* [n] the stripe's last row, or NULL */
    uint64_t *bot_s;
    double *pbest_v; /* [np] best of the last row: value, end */
    uint64_t *pbest_e;
} sd_args_t;

/* A step's kind, as a type: whether every lane is inside the piece. */
template <bool B>
struct step_tag {
    static constexpr bool value = B;
};

__device__ __forceinline__ uint64_t ck_col(uint64_t a, uint64_t b, int k) {
    uint64_t w = (uint64_t)CK_FIRST << k;
    return a + w < b ? a + w - 1 : b - 1;
}

template <typename T, int R, bool TRACK, bool SQ>
__global__ void __launch_bounds__(WARPS_PER_BLOCK * 32, (plain_min_blocks<T, R, TRACK>()))
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
    __shared__ T xs_all[WARPS_PER_BLOCK][R * 32];
    T *xs = xs_all[wib];
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
    T h[R];
    uint64_t hs[TRACK ? R : 1];
    const double *lv = A.emode ? A.right_v + (size_t)(gp - 1) * 32 * R
                               : (p == 0 ? A.left0_v + q * A.qstride : NULL);
    const uint64_t *ls = !TRACK    ? NULL
                         : A.emode ? A.right_s + (size_t)(gp - 1) * 32 * R
                                   : (p == 0 ? A.left0_s + q * A.qstride : NULL);
#pragma unroll
    for (int r = 0; r < R; r++) {
        h[r] = lv ? lv[row0 + r] : CUDART_INF;
        if (TRACK) hs[r] = ls ? ls[row0 + r] : 0;
    }
    /* above-left of lane 0: row i0-1 at column a-1 */
    const int top = A.top;
    T al_v;
    uint64_t al_s = 0;
    if (p == 0) {
        al_v = A.al0_v;
        al_s = A.al0_s;
    } else if (top == TOP_FRESH) {
        al_v = 0.0;
        al_s = A.base + a0 - 1;
    } else if (top == TOP_ROW) {
        al_v = A.top_v[a0 - 1];
        if (TRACK) al_s = A.top_s[a0 - 1];
    } else al_v = CUDART_INF;
    /* the diagonal of each lane's first cell: the lane above's left border */
    T dg_v = __shfl_up_sync(FULL, h[R - 1], 1);
    uint64_t dg_s = TRACK ? __shfl_up_sync(FULL, hs[R - 1], 1) : 0;
    if (lane == 0) {
        dg_v = al_v;
        dg_s = al_s;
    }

    const int lb = (rows - 1) / R, rb = (rows - 1) % R; /* the stripe's last row */
    T best_v = CUDART_INF;
    uint64_t best_e = ~0ull;
    int k_next = 0; /* this lane's next stored column */
    uint64_t ck_next = ck_col(a, b, 0);
    uint32_t lost = 0; /* fix-up: bit k = equal to pass 1 at stored column k */
    const uint64_t prior = A.emode ? A.upto[gp] : 0; /* columns earlier rounds replaced */
    uint64_t done = w;
    int wk = 0; /* fix-up: the stored column the warp checks next */
    uint64_t w_ck = ck_col(a, b, 0);
    bool moved = false; /* fix-up: the right border changed */
    T yv = 0.0;         /* the sample of this lane's column */
    T stage_y = 0.0, stage_t = 0.0;
    uint64_t stage_ts = 0;
    const uint64_t steps = wr + 31;
    /* One step from hi (the lane's rows at its previous column) into ho:
    ** two register sets used in turn, so that no value is copied. Returns
    ** true when a fix-up may stop. */
    auto step = [&](auto steady, T(&hi)[R], uint64_t(&hsi)[TRACK ? R : 1], T(&ho)[R],
                    uint64_t(&hso)[TRACK ? R : 1], uint64_t t) -> bool {
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
        T y_in = __shfl_sync(FULL, stage_y, sl);
        T up_top = 0.0;
        uint64_t up_top_s = A.base + a0 + t;
        if (top == TOP_ROW) {
            up_top = __shfl_sync(FULL, stage_t, sl);
            if (TRACK) up_top_s = __shfl_sync(FULL, stage_ts, sl);
        } else if (top != TOP_FRESH) {
            up_top = CUDART_INF;
        }
        T y_prev = __shfl_up_sync(FULL, yv, 1);
        T up_v = __shfl_up_sync(FULL, hi[R - 1], 1);
        uint64_t up_s = TRACK ? __shfl_up_sync(FULL, hsi[R - 1], 1) : 0;
        if (lane == 0) {
            yv = y_in;
            up_v = up_top;
            up_s = up_top_s;
        } else yv = y_prev;
        const uint64_t c = a0 + t - lane; /* this lane's column (when active) */
        /* steady: a step where every lane is inside the piece, known at
        ** compile time (no per-row merge of an inactive lane's values) */
        const bool active = decltype(steady)::value || (t >= (uint64_t)lane && t - lane < wr);
        const T nd_v = up_v; /* next step's diagonal */
        const uint64_t nd_s = up_s;
        if (active) {
            T d_v = dg_v;
            uint64_t d_s = dg_s;
            T u_v = up_v;
            uint64_t u_s = up_s;
#pragma unroll
            for (int r = 0; r < R; r++) {
                const T cst = dtw_cell_cost<SQ>(xs[r * 32 + lane], yv);
                const T l_v = hi[r];
                if (TRACK) {
                    const uint64_t l_s = hsi[r];
                    T bv;
                    uint64_t bs;
                    dtw_cell_tracked(d_v, d_s, u_v, u_s, l_v, l_s, cst, bv, bs);
                    d_v = l_v;
                    d_s = l_s;
                    u_v = bv;
                    u_s = bs;
                    ho[r] = bv;
                    hso[r] = bs;
                } else {
                    T mn = dtw_min3(d_v, l_v, u_v);
                    d_v = l_v;
                    u_v = dtw_add(mn, cst);
                    ho[r] = u_v;
                }
            }
            /* the stripe's last row: the bottom row out */
            if (lane == lb && c >= a) {
                T v = ho[R - 1];
                uint64_t s = TRACK ? hso[R - 1] : 0;
                if (rb != R - 1) { /* (a stripe whose rows fill its lanes skips this) */
#pragma unroll
                    for (int r = 0; r < R; r++)
                        if (r == rb) {
                            v = ho[r];
                            if (TRACK) s = hso[r];
                        }
                }
                if (A.bot_v) { /* a fix-up's cells are the true ones: they replace */
                    A.bot_v[c] = v;
                    if (TRACK) A.bot_s[c] = s;
                }
                if (v < best_v) {
                    best_v = v;
                    best_e = A.base + c + 1;
                }
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
                        if (ho[r] != A.ck_v[o + r] || (TRACK && hso[r] != A.ck_s[o + r]))
                            same = false;
                        if (c == b - 1) { /* the end: this run's column is the right border */
                            size_t o2 = (size_t)gp * 32 * R + row0 + r;
                            A.rnext_v[o2] = ho[r];
                            if (TRACK) A.rnext_s[o2] = hso[r];
                            if (ho[r] != A.right_v[o2] || (TRACK && hso[r] != A.right_s[o2]))
                                moved = true;
                        }
                    }
                    if (same) lost |= 1u << k_next;
                }
                k_next++;
                ck_next = c == b - 1 ? ~0ull : ck_col(a, b, k_next);
            }
        } else {
#pragma unroll
            for (int r = 0; r < R; r++) { /* not at the piece yet, or past it: keep */
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
    /* Pass 1's plain blocks: 32 steps from a multiple of 32 where every lane
    ** is inside the piece and past its early columns, no lane meets a stored
    ** column, nothing comes from a stripe above and no bottom row is written.
    ** Then a step is its cells and little else: the query rows sit in
    ** registers; each lane reads its sample from a window of 64 in shared
    ** memory (one load, where the general step shuffles twice and selects);
    ** the bottom cells are folded into the block's minimum only, and in the
    ** rare block that betters the piece's best the 32 steps run again from
    ** the saved state to find the first step that reached it. Short queries
    ** (R <= 8 rows a lane) gain most: there the general step's bookkeeping
    ** (64-bit columns, the stored-column and bottom-row tests) cost as much as
    ** the cells (1,000 queries of 128 ran at 0.72 T cells/s). Taller stripes
    ** keep the general step (their registers are spent). The same operations
    ** in the same order: the same bits. */
    constexpr bool PLAIN = !TRACK && R <= 8;
    const bool plain_ok = PLAIN && !A.emode && top != TOP_ROW && !A.bot_v;
    const uint64_t plain_from = 31 + (a - a0); /* from here every lane's column is >= a */
    __shared__ T ys_all[WARPS_PER_BLOCK][64];
    T *ys = ys_all[wib];
    T xr[R];
    if (PLAIN) {
#pragma unroll
        for (int r = 0; r < R; r++) xr[r] = xs[r * 32 + lane];
    }
    const T up_plain = top == TOP_FRESH ? (T)0.0 : (T)CUDART_INF;
    /* one step of a plain block: lane l at column a0 + t0 + k - l, whose
    ** sample is ys[32 + k - l]; returns its bottom cell (row rb) */
    auto plain_step = [&](int k, T(&hh)[R], T &y, T &dg) -> T {
        T up = __shfl_up_sync(FULL, hh[R - 1], 1);
        if (lane == 0) up = up_plain;
        y = ys[32 + k - lane];
        T d_v = dg, u_v = up;
#pragma unroll
        for (int r = 0; r < R; r++) {
            const T cst = dtw_cell_cost<SQ>(xr[r], y);
            const T l_v = hh[r];
            const T mn = dtw_min3(d_v, l_v, u_v);
            d_v = l_v;
            u_v = dtw_add(mn, cst);
            hh[r] = u_v;
        }
        dg = up;
        T v = hh[R - 1];
        if (rb != R - 1) {
#pragma unroll
            for (int r = 0; r < R; r++)
                if (r == rb) v = hh[r];
        }
        return v;
    };
    auto plain_block = [&](uint64_t t0) {
        __syncwarp(); /* the previous block's reads are done */
        ys[lane] = A.y[a0 + t0 - 32 + lane];
        ys[32 + lane] = A.y[a0 + t0 + lane];
        __syncwarp();
        T h0[R];
#pragma unroll
        for (int r = 0; r < R; r++) h0[r] = h[r];
        const T y0 = yv, dg0 = dg_v;
        T bb_v = CUDART_INF;
#pragma unroll
        for (int k = 0; k < 32; k++) bb_v = dtw_min(bb_v, plain_step(k, h, yv, dg_v));
        /* the block betters the best so far: run it again for the first step
        ** that reached its minimum (the leftmost end, as the general step) */
        if (__any_sync(FULL, lane == lb && bb_v < best_v)) {
            T y = y0, dg = dg0;
            int kk = 32;
#pragma unroll 1
            for (int k = 0; k < 32; k++) {
                T v = plain_step(k, h0, y, dg);
                if (v == bb_v && kk == 32) kk = k;
            }
            if (lane == lb && bb_v < best_v) {
                best_v = bb_v;
                best_e = A.base + a0 + t0 + (uint64_t)kk - (uint64_t)lane + 1;
            }
        }
    };
    T h2[R];
    uint64_t hs2[TRACK ? R : 1];
    /* two steps a turn (h, then h2): the skewed start (some lanes not in the
    ** piece yet), the steady middle (every lane in: t >= 31 and t < wr), the
    ** skewed end */
    const step_tag<false> edge;
    const step_tag<true> middle;
    uint64_t t = 0;
    bool stop = false;
    for (; t < steps && t < 32 && !stop; t += 2)
        stop = step(edge, h, hs, h2, hs2, t) || t + 1 >= steps || step(edge, h2, hs2, h, hs, t + 1);
    while (t + 1 < wr && !stop) {
        /* (every lane reaches the vote: the terms before it are the warp's) */
        if (plain_ok && (t & 31) == 0 && t + 32 <= wr && t >= plain_from &&
            !__any_sync(FULL, ck_next <= a0 + t + 31 - lane)) {
            plain_block(t); /* 32 steps in place: the state stays in h */
            t += 32;
            continue;
        }
        stop = step(middle, h, hs, h2, hs2, t) || step(middle, h2, hs2, h, hs, t + 1);
        t += 2;
    }
    for (; t < steps && !stop; t += 2)
        stop = step(edge, h, hs, h2, hs2, t) || t + 1 >= steps || step(edge, h2, hs2, h, hs, t + 1);
    /* the piece's best bottom cell: the smallest value, then the leftmost end */
    if (A.pbest_v) {
        T bv = best_v;
        uint64_t be = best_e;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            T ov = __shfl_xor_sync(FULL, bv, o);
            uint64_t oe = __shfl_xor_sync(FULL, be, o);
            if (ov < bv || (ov == bv && oe < be)) {
                bv = ov;
                be = oe;
            }
        }
        if (lane == 0) {
            if (!A.emode || bv < A.pbest_v[gp] ||
                (bv == A.pbest_v[gp] && bv != CUDART_INF && be < A.pbest_e[gp])) {
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

#endif
