/*
** global_cuda.cu -- the global edit distance of one long pair on the GPU:
** Myers' bit-vector DP with many warps on one pair.
**
** Layout. The query's 64-row words are cut into stripes of 32, one warp a
** stripe, one word a lane. Lanes are skewed: at iteration it lane l works on
** column J0 + it - l, so lane l's carry (the horizontal delta leaving its
** bottom row) reaches lane l + 1 by one shuffle, just in time for the same
** column. Between stripes the carries of lane 31 go through global memory:
** a ring of 32-column groups (two 32-bit masks, +1 and -1), published with a
** progress counter; the stripe below waits for a group before its first
** column and marks it consumed, and the stripe above waits for the ring to
** have room. So all stripes run at once, a wavefront over the column blocks.
**
** Band. With a bound k (Ukkonen), cells of an alignment of cost <= k lie on
** diagonals dlo .. dhi; word w only works on the columns whose band meets
** its rows. Before its window it keeps its first column (all +1: a valid
** path cost), after it it passes +1 down (rows above the band grow by one a
** column), exactly the upper-bound semantics of the CPU's global.c: the
** result is exact when <= k and otherwise some value > k. The host grows k
** until the answer fits (as the CPU does).
**
** The answer: D[m][n] = n + the sum of every word's vertical deltas in the
** last column (a word above the band at column n keeps the deltas it left
** with: its top and bottom both grew by one a column).
*/
#include <stdlib.h>
#include <string.h>

#include "align/align.h"
#include "core/internal.h"
#include "align/align_cuda.cuh"
#include "cuda/device.cuh"

#define RING_GROUPS 1024u /* 32-column groups in flight between two stripes */

typedef struct {
    const uint64_t *peq; /* 256 rows of W words, by target byte */
    const uint8_t *y;
    uint64_t n;
    uint32_t m, W, stripes;
    int64_t dlo, dhi;
    uint2 *ring;                  /* stripes x RING_GROUPS: lane 31's carries */
    unsigned long long *progress; /* stripes: the last column published */
    unsigned long long *consumed; /* stripes: the last group read by this stripe */
    unsigned long long *score;    /* the sum of the last column's deltas */
    uint64_t ck_S, n_ck;          /* checkpoints at columns c * ck_S, 0 < c < n_ck */
    uint64_t *ck;                 /* [c][W] Pv, then Mv at + n_ck * W; NULL: none */
} gbv_args_t;

/* Checkpoint c of word w: the state the word has at column c * ck_S, the
** CPU traceback's starting points (traceback.c). */
static __device__ __forceinline__ void put_ckpt(const gbv_args_t *a, uint64_t c, uint32_t w,
                                                uint64_t pv, uint64_t mv) {
    a->ck[c * a->W + w] = pv;
    a->ck[(a->n_ck + c) * a->W + w] = mv;
}

static __device__ __forceinline__ int64_t win_lo(const gbv_args_t *a, uint32_t w) {
    int64_t j = 64 * (int64_t)w + 1 - a->dhi;
    return j < 1 ? 1 : j;
}
static __device__ __forceinline__ int64_t win_hi(const gbv_args_t *a, uint32_t w) {
    int64_t j = 64 * (int64_t)w + 64 - a->dlo;
    return j > (int64_t)a->n ? (int64_t)a->n : j;
}

/* Four columns a tick: the warp's bookkeeping (the shuffle, the ring, the
** loop) is paid once for four steps of each lane; a lane's four carries go
** down in one shuffle. Measured on the H100: 150 instructions a column at
** one column a tick, the DP itself is about 20. */
#define TICK 4

static __device__ __forceinline__ int32_t win_lo32(const gbv_args_t *a, uint32_t w) {
    return (int32_t)win_lo(a, w);
}
static __device__ __forceinline__ int32_t win_hi32(const gbv_args_t *a, uint32_t w) {
    return (int32_t)win_hi(a, w);
}

/* The target's four bytes of the tick starting at column cb (cb = 1 mod 4):
** y[cb - 1 .. cb + 2] as one aligned word (the buffer is padded), 0 before
** column 1. */
static __device__ __forceinline__ uint32_t y4_at(const gbv_args_t *a, int32_t cb) {
    return cb >= 1 && cb <= (int32_t)a->n ? __ldg((const uint32_t *)a->y + ((cb - 1) >> 2)) : 0u;
}

static __device__ __forceinline__ unsigned long long ld_volatile(const unsigned long long *p) {
    return *(const volatile unsigned long long *)p;
}

__global__ void __launch_bounds__(128) k_global_bv(gbv_args_t a) {
    const uint32_t lane = threadIdx.x & 31;
    const uint32_t s = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (s >= a.stripes) return; /* whole warps only */
    const uint32_t w = 32 * s + lane;
    const int live = w < a.W;
    const int32_t lo = win_lo32(&a, w), hi = win_hi32(&a, w);
    const int32_t J0 = win_lo32(&a, 32 * s);
    const int32_t last = win_hi32(&a, 32 * s + 31 < a.W ? 32 * s + 31 : a.W - 1);
    const int32_t prod_last = s > 0 ? win_hi32(&a, 32 * s - 1) : 0; /* the stripe above's */
    const int32_t Jb = J0 - ((J0 - 1) & 3); /* ticks start at columns = 1 mod 4 */
    const int32_t ticks = (last - Jb) / TICK + 1 + 31;
    /* lane l works on columns Jb + 4 (tick - l) + q; before its first it holds
    ** its first column, after its last its last */
    const int32_t cfirst = Jb - TICK * (int32_t)lane,
                  clast = Jb + TICK * (ticks - 1 - (int32_t)lane) + TICK - 1;
    uint64_t pv = ~0ull, mv = 0;
    uint32_t gp = 0, gm = 0; /* lane 0: the current group's carries in */
    uint32_t op = 0, om = 0; /* lane 31: the group being collected */
    uint32_t hprev = 0x0f;   /* a lane's carries out: +1 bits | -1 bits << 4 */
    uint2 *ring_in = s > 0 ? a.ring + (size_t)(s - 1) * RING_GROUPS : NULL;
    uint2 *ring_out = a.ring + (size_t)s * RING_GROUPS;
    int64_t next_ck = INT64_MAX; /* the next checkpoint column this lane meets */
    if (a.ck && live) {
        uint64_t c = 1;
        for (; c < a.n_ck && (int64_t)(c * a.ck_S) < cfirst; c++) put_ckpt(&a, c, w, ~0ull, 0);
        if (c < a.n_ck) next_ck = (int64_t)(c * a.ck_S);
    }

    /* masks one tick ahead, target bytes two ticks ahead */
    uint64_t e[TICK], en[TICK];
    uint32_t y4 = y4_at(&a, cfirst);
#pragma unroll
    for (int q = 0; q < TICK; q++) {
        int32_t c = cfirst + q;
        e[q] = live && c >= lo && c <= hi
                   ? __ldg(&a.peq[(size_t)((y4 >> (8 * q)) & 0xff) * a.W + w])
                   : 0ull;
    }
    uint32_t y4n = y4_at(&a, cfirst + TICK);

    for (int32_t t = 0; t < ticks; t++) {
        const int32_t cb = Jb + TICK * (t - (int32_t)lane);
#pragma unroll
        for (int q = 0; q < TICK; q++) {
            int32_t c = cb + TICK + q;
            en[q] = live && c >= lo && c <= hi
                        ? __ldg(&a.peq[(size_t)((y4n >> (8 * q)) & 0xff) * a.W + w])
                        : 0ull;
        }
        const uint32_t y4nn = y4_at(&a, cb + 2 * TICK);

        uint32_t hin = __shfl_up_sync(0xffffffffu, hprev, 1);
        if (lane == 0) {
            hin = 0x0f;
            if (s > 0 && cb <= prod_last) {
                const uint32_t shift = (uint32_t)(cb - 1) & 31;
                if (t == 0 || shift == 0) { /* a new group from the stripe above */
                    const uint64_t g = (uint64_t)(cb - 1) >> 5;
                    int64_t need = (int64_t)(g * 32 + 32);
                    if (need > prod_last) need = prod_last;
                    while ((int64_t)ld_volatile(&a.progress[s - 1]) < need) {}
                    __threadfence();
                    const volatile uint32_t *v =
                        (const volatile uint32_t *)&ring_in[g % RING_GROUPS];
                    gp = v[0];
                    gm = v[1];
                    __threadfence();
                    *(volatile unsigned long long *)&a.consumed[s] = g;
                }
                uint32_t hp = (gp >> shift) & 0xf, hm = (gm >> shift) & 0xf;
                if (cb + TICK - 1 > prod_last) { /* past the stripe above: rows above the band */
                    uint32_t past = (0xfu << (prod_last - cb + 1)) & 0xf;
                    hp |= past;
                    hm &= ~past;
                }
                hin = hp | hm << 4;
            }
        }
        uint32_t hout = 0;
#pragma unroll
        for (int q = 0; q < TICK; q++) {
            const int32_t c = cb + q;
            int h = 1;
            if (live && c >= lo && c <= hi) {
                const uint64_t eq = e[q];
                const uint64_t neg = (hin >> (4 + q)) & 1, pos = (hin >> q) & 1;
                uint64_t xv = eq | mv;
                uint64_t xh = (((eq | neg) & pv) + pv) ^ pv;
                xh |= eq | neg;
                uint64_t ph = mv | ~(xh | pv);
                uint64_t mh = pv & xh;
                h = (int)(ph >> 63) - (int)(mh >> 63);
                ph = (ph << 1) | pos;
                mh = (mh << 1) | neg;
                pv = mh | ~(xv | ph);
                mv = ph & xv;
            }
            hout |= (uint32_t)(h > 0) << q | (uint32_t)(h < 0) << (4 + q);
            if (c == next_ck) {
                put_ckpt(&a, (uint64_t)c / a.ck_S, w, pv, mv);
                next_ck = (uint64_t)c / a.ck_S + 1 < a.n_ck ? next_ck + (int64_t)a.ck_S : INT64_MAX;
            }
        }
        hprev = hout;
#pragma unroll
        for (int q = 0; q < TICK; q++) { e[q] = en[q]; }
        y4n = y4nn;

        if (lane == 31 && s + 1 < a.stripes && cb <= last && cb + TICK - 1 >= J0) {
            const uint32_t shift = (uint32_t)(cb - 1) & 31;
            op |= (hout & 0xf) << shift;
            om |= (hout >> 4) << shift;
            if (shift == 32 - TICK || cb + TICK - 1 >= last) { /* publish the group */
                const uint64_t g = (uint64_t)(cb - 1) >> 5;
                while ((int64_t)ld_volatile(&a.consumed[s + 1]) + (int64_t)RING_GROUPS <=
                       (int64_t)g) {}
                volatile uint32_t *v = (volatile uint32_t *)&ring_out[g % RING_GROUPS];
                v[0] = op;
                v[1] = om;
                __threadfence();
                const int32_t done = cb + TICK - 1 < last ? cb + TICK - 1 : last;
                *(volatile unsigned long long *)&a.progress[s] = (unsigned long long)done;
                op = om = 0;
            }
        }
    }
    if (a.ck && live)
        for (uint64_t c = (uint64_t)(clast + 1) / a.ck_S; c < a.n_ck; c++)
            if ((int64_t)(c * a.ck_S) > clast) put_ckpt(&a, c, w, pv, mv);
    long long dsum = 0;
    if (live) {
        uint64_t keep = w + 1 < a.W || (a.m & 63) == 0 ? ~0ull : (1ull << (a.m & 63)) - 1;
        dsum = (long long)__popcll(pv & keep) - (long long)__popcll(mv & keep);
    }
    for (int o = 16; o > 0; o >>= 1) dsum += __shfl_down_sync(0xffffffffu, dsum, o);
    if (lane == 0) atomicAdd(a.score, (unsigned long long)dsum);
}

/* One banded run: D[m][n] when <= k, else some value > k. */
static wm_status run_band(wm_context_t *cx, gbv_args_t *a, uint64_t m, uint64_t n, uint64_t k,
                          cudaStream_t st, uint64_t *d) {
    int64_t s0 = (int64_t)m - (int64_t)n, kk = (int64_t)k;
    a->dlo = s0 - kk > -kk ? s0 - kk : -kk;
    a->dhi = s0 + kk < kk ? s0 + kk : kk;
    /* consumed[s] starts just before the first group stripe s reads */
    unsigned long long *h = (unsigned long long *)malloc(a->stripes * sizeof *h);
    if (!h) return WM_NOMEM;
    for (uint32_t s = 0; s < a->stripes; s++) {
        int64_t j0 = 64 * (int64_t)(32 * s) + 1 - a->dhi;
        if (j0 < 1) j0 = 1;
        h[s] = (unsigned long long)(((j0 - 1) >> 5) - 1);
    }
    cudaError_t e =
        cudaMemcpyAsync(a->consumed, h, a->stripes * sizeof *h, cudaMemcpyHostToDevice, st);
    if (e == cudaSuccess) e = cudaMemsetAsync(a->progress, 0, a->stripes * sizeof *h, st);
    if (e == cudaSuccess) e = cudaMemsetAsync(a->score, 0, sizeof *a->score, st);
    if (e == cudaSuccess) {
        k_global_bv<<<(a->stripes + 3) / 4, 128, 0, st>>>(*a);
        e = cudaGetLastError();
    }
    unsigned long long sc = 0;
    if (e == cudaSuccess) e = cudaMemcpyAsync(&sc, a->score, sizeof sc, cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess) e = cudaStreamSynchronize(st);
    free(h);
    if (e != cudaSuccess) return wm_cuda_fail(cx, e, "the global bit-vector kernel");
    *d = n + sc; /* sc is the signed sum mod 2^64 */
    return WM_OK;
}

/* The device side of one pair: masks by target byte (256 rows of W words,
** the symbol map folded in), the target, the ring and counters. */
typedef struct {
    gbv_args_t a;
    cudaStream_t st;
} gbv_dev_t;

static wm_status dev_make(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                          gbv_dev_t *g) {
    wm_cuda_state *cs = cx->cuda;
    memset(g, 0, sizeof *g);
    g->st = cs->stream[0];
    gbv_args_t *a = &g->a;
    a->n = n;
    a->m = (uint32_t)aq->m;
    a->W = (uint32_t)aq->n_words;
    a->stripes = (a->W + 31) / 32;
    /* every stripe must be resident at once (they wait on each other) */
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_global_bv, 128, 0);
    if ((uint64_t)per_sm * (uint64_t)cs->sm_count * 4 < a->stripes) {
        wm_context_set_error(cx,
                             "the global bit-vector kernel needs %u warps resident at "
                             "once; this GPU holds %llu",
                             a->stripes, (unsigned long long)per_sm * cs->sm_count * 4);
        return WM_UNSUPPORTED;
    }
    /* the masks, the target (+ whole words of 4) and the ring with its
    ** counters, in buffers the context keeps (g[0..2]) */
    wm_cu_align_bufs_t *B = wm_cu_align_bufs(cx);
    size_t peq_bytes = (size_t)256 * a->W * sizeof(uint64_t);
    size_t ring_bytes = (size_t)a->stripes * RING_GROUPS * sizeof(uint2);
    size_t small_bytes = ring_bytes + (2 * (size_t)a->stripes + 1) * sizeof(unsigned long long);
    uint64_t *h = (uint64_t *)malloc(peq_bytes);
    wm_status st = B && h ? WM_OK : WM_NOMEM;
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &B->g[0], peq_bytes);
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &B->g[1], n + 8);
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &B->g[2], small_bytes);
    if (st != WM_OK) {
        free(h);
        return st;
    }
    for (int b = 0; b < 256; b++)
        memcpy(h + (size_t)b * a->W, aq->peq + (size_t)aq->code[b] * aq->n_words, a->W * sizeof *h);
    uint8_t *d_y = (uint8_t *)B->g[1].p;
    cudaError_t e = cudaMemsetAsync(d_y + n, 0, 8, g->st);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(B->g[0].p, h, peq_bytes, cudaMemcpyHostToDevice, g->st);
    if (e == cudaSuccess) e = cudaMemcpyAsync(d_y, y, n, cudaMemcpyHostToDevice, g->st);
    if (e == cudaSuccess) e = cudaStreamSynchronize(g->st);
    free(h);
    if (e != cudaSuccess) return wm_cuda_fail(cx, e, "the global bit-vector kernel's buffers");
    a->peq = (const uint64_t *)B->g[0].p;
    a->y = d_y;
    a->ring = (uint2 *)B->g[2].p;
    a->progress = (unsigned long long *)((char *)B->g[2].p + ring_bytes);
    a->consumed = a->progress + a->stripes;
    a->score = a->consumed + a->stripes;
    return WM_OK;
}

wm_status wm_cuda_global(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                         int64_t limit, uint64_t *d) {
    uint64_t m = aq->m;
    if (wm_global_trivial(m, n, limit, d)) return WM_OK;
    if (n > WM_CU_GLOBAL_MAX_N) { /* columns are 32-bit in the kernel */
        *d = wm_global_distance(aq, y, n, limit);
        return *d == UINT64_MAX ? WM_NOMEM : WM_OK;
    }
    gbv_dev_t g;
    wm_status rc = dev_make(cx, aq, y, n, &g);
    if (rc != WM_OK) return rc;
    /* Without a limit, the whole matrix in one run: the stripes run side by
    ** side, so the time is the chain of n columns whatever the band, and a
    ** narrow first guess would only add a second run. */
    uint64_t k = limit >= 0 ? (uint64_t)limit : m + n;
    if (k > m + n) k = m + n;
    return run_band(cx, &g.a, m, n, k, g.st, d);
}

wm_status wm_cuda_global_ckpts(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                               uint64_t d, const wm_tb_plan_t *plan, wm_tb_ckpts_t *ck) {
    uint64_t m = aq->m;
    gbv_dev_t g;
    wm_status rc = dev_make(cx, aq, y, n, &g);
    if (rc != WM_OK) return rc;
    size_t W = aq->n_words;
    size_t ck_words = (size_t)plan->n_seg * W * 2;
    uint64_t *h = (uint64_t *)malloc(ck_words * sizeof *h);
    wm_cu_align_bufs_t *B = wm_cu_align_bufs(cx); /* made by dev_make */
    if (!h) rc = WM_NOMEM;
    else rc = wm_cu_dev_reserve(cx, &B->g[3], ck_words * sizeof *h);
    if (rc == WM_OK) g.a.ck = (uint64_t *)B->g[3].p;
    cudaError_t e;
    uint64_t d2 = 0;
    if (rc == WM_OK) {
        g.a.ck_S = plan->S;
        g.a.n_ck = plan->n_seg;
        rc = run_band(cx, &g.a, m, n, d, g.st, &d2);
    }
    if (rc == WM_OK && d2 != d) {
        wm_context_set_error(cx, "internal error: the checkpoint run found distance %llu, not %llu",
                             (unsigned long long)d2, (unsigned long long)d);
        rc = WM_INVALID;
    }
    if (rc == WM_OK) {
        e = cudaMemcpy(h, g.a.ck, ck_words * sizeof *h, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) rc = wm_cuda_fail(cx, e, "copying the checkpoints back");
    }
    /* the band's words of each checkpoint, and the value at its top row:
    ** D[0][c S] plus the deltas of every word above the band */
    for (uint64_t c = 0; rc == WM_OK && c < plan->n_seg; c++) {
        size_t fb = wm_tb_fb(plan, c * plan->S), lb = wm_tb_lb(plan, c * plan->S), nw = lb - fb + 1;
        uint64_t top = c * plan->S;
        for (size_t w = 0; w < fb; w++) {
            uint64_t pv = c ? h[c * W + w] : ~0ull, mv = c ? h[(plan->n_seg + c) * W + w] : 0;
            top += (uint64_t)((int64_t)__builtin_popcountll(pv) - __builtin_popcountll(mv));
        }
        ck->top[c] = top;
        for (size_t w = 0; w < nw; w++) {
            ck->w[ck->off[c] + w] = c ? h[c * W + fb + w] : ~0ull;
            ck->w[ck->off[c] + nw + w] = c ? h[(plan->n_seg + c) * W + fb + w] : 0;
        }
    }
    free(h);
    return rc;
}
