/*
** global_cuda.cu -- the global edit distance of one long pair on the GPU:
** Myers' bit-vector DP with many warps on one pair.
**
** Layout. The query's 64-row words are cut into stripes of 32, one warp a
** stripe, one word a lane. Lanes are skewed: at iteration it lane l works on
** column J0 + it - l, so lane l's carry (the horizontal delta leaving its
** bottom row) reaches lane l + 1 by one shuffle, just in time for the same
** column. Between stripes the carries of lane 31 go through global memory:
** a ring of 16-column groups, each slot one 64-bit word that holds the
** group's +1 and -1 masks and its number as a tag, so one relaxed store
** publishes it and one load tells whether it is there: no fence and no
** counter on the way (the fences and the counter polls of the first ring
** cost about 750 cycles a 4-column tick: one 10 kb pair took 2.40 ms
** with them, 1.39 ms without). The stripe below
** starts LAG_GROUPS behind and loads each group one group before it needs
** it, so the load's latency is hidden; it reports what it has read every
** PUBLISH_EVERY groups, and the stripe above waits only when the ring is
** full. So all stripes run at once, a wavefront over the column blocks.
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
**
** From both ends (run_meet). Without a bound, one pair's time is the chain
** of its n columns. A forward run of the query and a backward run of both
** reversed go at once on two streams, each over about half the matrix,
** and meet where every path from (0, 0) to (m, n) crosses: on a stair
** (each word ending 8 columns before the word above, so the words that
** start late in the pipeline do less; "the stair" below), or at the
** middle column (the forward run's last column D[i][mid], the backward
** run's the distance of x[i, m) to y[mid, n): D[m][n] is the least sum
** over i, Hirschberg's).
*/
#include <stdlib.h>
#include <string.h>

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cuda/functional>

#include "align/align.h"
#include "core/internal.h"
#include "align/align_cuda.cuh"
#include "cuda/device.cuh"

#define GROUP 16u          /* columns a ring slot carries */
#ifndef WM_GBV_RING_GROUPS /* a test build sets a few, to make the ring wrap and fill */
#define WM_GBV_RING_GROUPS 2048u
#endif
#define RING_GROUPS ((unsigned)WM_GBV_RING_GROUPS) /* slots between two stripes */
#define LAG_GROUPS 2u /* how far a stripe starts behind the one above */
/* groups between two reports of what was read: the stripe above may run
** RING_GROUPS past the last report, which must take it past the LAG_GROUPS
** the stripe below waits for, or both wait for ever */
#define PUBLISH_EVERY (RING_GROUPS >= 256u ? 64u : 1u)
static_assert(RING_GROUPS > PUBLISH_EVERY + LAG_GROUPS, "the ring must outrun a report");

typedef struct {
    const uint64_t *peq;  /* n_codes + 1 rows of W words, by symbol */
    const uint16_t *code; /* 256: byte -> symbol */
    const uint8_t *y;     /* the target; with dna, its codes (k_codes) */
    uint64_t n;
    uint32_t m, W, stripes;
    uint16_t dna;     /* the host's choice of kernel: 4 symbols (and N) */
    uint16_t ck_full; /* the band is every word at every checkpoint: c at 2 W c */
    int64_t dlo, dhi;
    unsigned long long *ring;     /* stripes x RING_GROUPS tagged slots: lane 31's carries */
    unsigned long long *consumed; /* stripes: every group below it has been read */
    unsigned long long *score;    /* the sum of the last column's deltas */
    uint64_t ck_S, n_ck;          /* checkpoints at columns c * ck_S, 0 < c < n_ck; without
                                     CK (run_meet's stair): word w ends at column ck_S - 8 w
                                     when ck_S, and word 0's first n_ck rows are padding */
    uint64_t *ck;                 /* the band's words of each, as wm_tb_ckpts_t's w; NULL: none */
    const uint64_t *ck_off;       /* n_ck: where checkpoint c starts in ck (its off[c]) */
    long long *ck_fin;            /* W: each word's deltas at its last column; without CK,
                                     with ck set: the last column's Pv then Mv into ck (W
                                     words each), for run_meet, and with the stair the
                                     bottom row's carries of its last 8 columns (W more) */
} gbv_args_t; /* 128 bytes: a larger parameter made ptxas read it through a pointer (6% slower) */

/* The band's query blocks at column j (traceback.c's wm_tb_fb / wm_tb_lb,
** for the band of d that this run has too). */
static __device__ __forceinline__ uint64_t band_blk(uint64_t m, int64_t j, int64_t dd) {
    int64_t r = j + dd;
    uint64_t row = r < 0 ? 0 : (uint64_t)r > m ? m : (uint64_t)r;
    return row ? (row - 1) / 64 : 0;
}

/* Checkpoint c of word w: the state the word has at column c * ck_S, the
** CPU traceback's starting points (traceback.c), written where the host
** wants it when the word lies in that column's band: only the band comes
** back (3 MB for a 1 Mb pair at 1%, not 134). The words above it are past
** their windows there, so their deltas are those they end with (ck_fin),
** from which the host sums the value at the band's top. A run without a
** bound (ck_full) needs neither the band nor the offsets: one lane stores a
** checkpoint each tick while its warp waits, so it is kept short. */
static __device__ __forceinline__ void put_ckpt(const gbv_args_t *a, uint64_t c, uint32_t w,
                                                uint64_t pv, uint64_t mv) {
    if (a->ck_full) {
        uint64_t *at = a->ck + 2 * (uint64_t)a->W * c + w;
        at[0] = pv;
        at[a->W] = mv;
        return;
    }
    const int64_t j = (int64_t)(c * a->ck_S);
    const uint64_t fb = band_blk(a->m, j, a->dlo), lb = band_blk(a->m, j, a->dhi);
    if (w < fb || w > lb) return;
    const uint64_t at = a->ck_off[c] + (w - fb);
    a->ck[at] = pv;
    a->ck[at + (lb - fb + 1)] = mv;
}

static __device__ __forceinline__ int64_t win_lo(const gbv_args_t *a, uint32_t w) {
    int64_t j = 64 * (int64_t)w + 1 - a->dhi;
    return j < 1 ? 1 : j;
}
/* top: a stair's first word's last column (0: none), each word below
** ending 8 columns before the one above (run_meet) */
static __device__ __forceinline__ int64_t win_hi(const gbv_args_t *a, uint32_t w, int64_t top) {
    int64_t j = 64 * (int64_t)w + 64 - a->dlo;
    if (top && top - 8 * (int64_t)w < j) j = top - 8 * (int64_t)w;
    return j > (int64_t)a->n ? (int64_t)a->n : j;
}

/* Eight columns a tick: the warp's bookkeeping (the shuffle, the ring, the
** loop, the window test) is paid once for eight steps of each lane, and a
** lane's eight carries go down in one shuffle. Measured on the H100 (ncu,
** m = n = 10,000): four columns a tick with masks from global memory
** issued 83 instructions a column, one every 3 cycles (one warp a
** scheduler, the DP's chain of dependent steps); the DP itself is 27. */
#define TICK 8

static __device__ __forceinline__ int32_t win_lo32(const gbv_args_t *a, uint32_t w) {
    return (int32_t)win_lo(a, w);
}
static __device__ __forceinline__ int32_t win_hi32(const gbv_args_t *a, uint32_t w, int64_t top) {
    return (int32_t)win_hi(a, w, top);
}
/* The first column of stripe s's ticks (= 1 mod TICK). */
static __device__ __forceinline__ int32_t tick_base(const gbv_args_t *a, uint32_t s) {
    const int32_t J0 = win_lo32(a, 32 * s);
    return J0 - ((J0 - 1) & (TICK - 1));
}

/* The target's eight bytes of the tick starting at column cb (= 1 mod 8):
** y[cb - 1 .. cb + 6] as one aligned 8-byte load (the buffer is padded), 0
** outside columns 1..n. */
static __device__ __forceinline__ uint2 y8_at(const gbv_args_t *a, int32_t cb) {
    return cb >= 1 && cb <= (int32_t)a->n ? __ldg((const uint2 *)a->y + ((cb - 1) >> 3))
                                          : make_uint2(0, 0);
}
static __device__ __forceinline__ uint32_t byte_at(uint2 v, int q) {
    return ((q < 4 ? v.x : v.y) >> (8 * (q & 3))) & 0xffu;
}

/* Relaxed 64-bit loads and stores through L2: a slot is one word, so its
** tag and its masks are seen together or not at all. */
static __device__ __forceinline__ unsigned long long ld_slot(const unsigned long long *p) {
    return *(const volatile unsigned long long *)p;
}
static __device__ __forceinline__ void st_slot(unsigned long long *p, unsigned long long v) {
    *(volatile unsigned long long *)p = v;
}
/* Group g's slot, tagged g + 1 (the ring is zeroed before each run). */
static __device__ __forceinline__ unsigned long long slot_wait(const unsigned long long *ring,
                                                               int64_t g, unsigned long long v) {
    while ((v >> 32) != (unsigned long long)(g + 1)) v = ld_slot(&ring[g % RING_GROUPS]);
    return v;
}

/* One column of Myers' step on a 64-row word: pos / neg, the carry in
** (+1 / -1); the carry out is shifted into the low bit of rp / rm (one
** funnel shift each, where setting bit q took two), so after a tick's
** eight steps the first column's carry is bit 7 (tick_out turns them
** round). */
static __device__ __forceinline__ void bv_step(uint64_t eq, uint64_t pos, uint64_t neg,
                                               uint64_t &pv, uint64_t &mv, uint32_t &rp,
                                               uint32_t &rm) {
    const uint64_t x = eq | neg, xv = eq | mv;
    const uint64_t xh = (((x & pv) + pv) ^ pv) | x;
    uint64_t ph = mv | ~(xh | pv), mh = pv & xh;
    rp = __funnelshift_l((uint32_t)(ph >> 32), rp, 1);
    rm = __funnelshift_l((uint32_t)(mh >> 32), rm, 1);
    ph = (ph << 1) | pos;
    mh = (mh << 1) | neg;
    pv = mh | ~(xv | ph);
    mv = ph & xv;
}

/* A tick's carries out, gathered last column first (bv_step), as bits 0..7
** in column order. */
static __device__ __forceinline__ uint32_t tick_out(uint32_t r) { return __brev(r) >> 24; }

/* CK: write the traceback's checkpoints; DNA: the masks of the warp's words
** for the four bases and N live in shared memory (one conflict-free load a
** column) and the target is already codes (dev_make: no lookup of the
** symbol a column), bytes read them from the table in global memory (257
** rows: too big to stage). Both are specialisations, so the distance run
** pays no per-column test. */
template <int CK, int DNA>
__global__ void __launch_bounds__(128) k_global_bv(gbv_args_t a) {
    __shared__ uint16_t code[256];
    __shared__ uint64_t dna_eq[DNA ? 4 : 1][DNA ? 5 : 1][32]; /* [warp][symbol][lane] */
    if (!DNA)
        for (uint32_t i = threadIdx.x; i < 256; i += blockDim.x) code[i] = a.code[i];
    __syncthreads();
    const uint32_t lane = threadIdx.x & 31, wib = DNA ? threadIdx.x >> 5 : 0;
    const uint32_t s = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    if (s >= a.stripes) return; /* whole warps only */
    const uint32_t w = 32 * s + lane;
    const int live = w < a.W;
    if (DNA) {
#pragma unroll
        for (int c = 0; c < 5; c++)
            dna_eq[wib][c][lane] = live && c < 4 ? a.peq[(size_t)c * a.W + w] : 0;
        __syncwarp();
    }
    const int64_t top = CK ? 0 : (int64_t)a.ck_S; /* the stair (run_meet), or none */
    const int32_t lo = win_lo32(&a, w), hi = win_hi32(&a, w, top);
    const int32_t J0 = win_lo32(&a, 32 * s);
    const int32_t first = win_hi32(&a, 32 * s, top);
    const int32_t last = win_hi32(&a, 32 * s + 31 < a.W ? 32 * s + 31 : a.W - 1, top);
    const int32_t prod_last = s > 0 ? win_hi32(&a, 32 * s - 1, top) : 0; /* the stripe above's */
    const int32_t Jb = tick_base(&a, s);
    /* lane l ends l ticks after its column: the last live lane last in a
    ** band, all at once on a stair (its columns fall 8 a word) */
    const int32_t live_lanes = a.W - 32 * s < 32 ? (int32_t)(a.W - 32 * s) : 32;
    const int32_t t_first = (first - Jb) / TICK + 1, t_last = (last - Jb) / TICK + live_lanes;
    const int32_t ticks = t_first > t_last ? t_first : t_last;
    /* lane l works on columns Jb + 8 (tick - l) + q, from cfirst on; before
    ** its first it holds its first column, after its last its last */
    const int32_t cfirst = Jb - TICK * (int32_t)lane;
    uint64_t pv = ~0ull, mv = 0;
    /* a stair's padding rows (the backward run's, above its query: its
    ** words then end where the forward run's do) match nothing and start
    ** at vertical delta 0, so they pass the top row's +1 down unchanged */
    if (!CK && w == 0 && a.n_ck) pv = ~0ull << a.n_ck;
    uint32_t tail = 0;       /* a stair's lane: the bottom row's carries of its last 8 columns */
    uint32_t gp = 0, gm = 0; /* lane 0: the current group's carries in */
    uint32_t op = 0, om = 0; /* lane 31: the group being collected */
    uint32_t hprev = 0xff;   /* a lane's carries out: +1 bits | -1 bits << 8 */
    const unsigned long long *ring_in = s > 0 ? a.ring + (size_t)(s - 1) * RING_GROUPS : NULL;
    unsigned long long *ring_out = a.ring + (size_t)s * RING_GROUPS;
    /* lane 0: the next group's slot, loaded a group early */
    unsigned long long pre = 0;
    int64_t pre_g = -1;
    const int64_t g_in_last = prod_last >= 1 ? (int64_t)(prod_last - 1) / GROUP : -1;
    /* lane 31: groups from `room` on would overwrite what the stripe below
    ** has not read (it starts at its own first tick's group) */
    int64_t room = 0;
    if (s + 1 < a.stripes) room = (int64_t)(tick_base(&a, s + 1) - 1) / GROUP + RING_GROUPS;
    /* the next checkpoint this lane meets, and its column: ck_S is a multiple
    ** of TICK (the host sees to it) and ticks start at 1 mod TICK, so a
    ** checkpoint is always a tick's last column, tested once a tick */
    uint64_t ck_c = 1;
    int32_t next_ck = INT32_MAX; /* columns are under INT32_MAX - 64 */
    if (CK && live) {
        for (; ck_c < a.n_ck && (int64_t)(ck_c * a.ck_S) < cfirst; ck_c++)
            put_ckpt(&a, ck_c, w, ~0ull, 0);
        if (ck_c < a.n_ck) next_ck = (int32_t)(ck_c * a.ck_S);
    }
    /* The masks of a tick's columns, whatever the window (the DP skips the
    ** columns outside it); a dead lane's are 0 (DNA) or any. */
#define EQ_OF(b)                                                                                   \
    (DNA ? dna_eq[wib][(b)][lane] : __ldg(&a.peq[(size_t)code[(b)] * a.W + (live ? w : 0)]))

    /* masks one tick ahead, target bytes two ticks ahead */
    uint64_t e[TICK], en[TICK];
    {
        const uint2 y8 = y8_at(&a, cfirst);
#pragma unroll
        for (int q = 0; q < TICK; q++) e[q] = EQ_OF(byte_at(y8, q));
    }
    uint2 y8n = y8_at(&a, cfirst + TICK);

    for (int32_t t = 0; t < ticks; t++) {
        const int32_t cb = Jb + TICK * (t - (int32_t)lane);
#pragma unroll
        for (int q = 0; q < TICK; q++) en[q] = EQ_OF(byte_at(y8n, q));
        const uint2 y8nn = y8_at(&a, cb + 2 * TICK);

        uint32_t hin = __shfl_up_sync(0xffffffffu, hprev, 1);
        if (lane == 0) {
            hin = 0xff;
            if (s > 0 && cb <= prod_last) {
                const uint32_t shift = (uint32_t)(cb - 1) & (GROUP - 1);
                if (t == 0 || shift == 0) { /* a new group from the stripe above */
                    const int64_t g = (int64_t)(cb - 1) / GROUP;
                    if (t == 0) { /* start LAG_GROUPS behind it */
                        const int64_t ahead =
                            g + LAG_GROUPS < g_in_last ? g + LAG_GROUPS : g_in_last;
                        slot_wait(ring_in, ahead, 0);
                    }
                    if (pre_g != g) pre = ld_slot(&ring_in[g % RING_GROUPS]);
                    pre = slot_wait(ring_in, g, pre);
                    gp = (uint32_t)pre & 0xffffu;
                    gm = (uint32_t)(pre >> 16) & 0xffffu;
                    if (g % PUBLISH_EVERY == 0) st_slot(&a.consumed[s], (unsigned long long)g);
                    if (g < g_in_last) { /* the next one, a group early */
                        pre = ld_slot(&ring_in[(g + 1) % RING_GROUPS]);
                        pre_g = g + 1;
                    }
                }
                uint32_t hp = (gp >> shift) & 0xffu, hm = (gm >> shift) & 0xffu;
                if (cb + TICK - 1 > prod_last) { /* past the stripe above: rows above the band */
                    uint32_t past = (0xffu << (prod_last - cb + 1)) & 0xffu;
                    hp |= past;
                    hm &= ~past;
                }
                hin = hp | hm << 8;
            }
        }
        uint32_t rp = 0, rm = 0;
        if (!live || (cb >= lo && cb + TICK - 1 <= hi)) { /* the whole tick in the window */
#pragma unroll
            for (int q = 0; q < TICK; q++)
                bv_step(e[q], (hin >> q) & 1, (hin >> (8 + q)) & 1, pv, mv, rp, rm);
        } else {
#pragma unroll
            for (int q = 0; q < TICK; q++) {
                const int32_t c = cb + q;
                if (c >= lo && c <= hi)
                    bv_step(e[q], (hin >> q) & 1, (hin >> (8 + q)) & 1, pv, mv, rp, rm);
                else {
                    rp = rp << 1 | 1; /* outside its window a word passes +1 down */
                    rm <<= 1;
                }
            }
        }
        const uint32_t hp = tick_out(rp), hm = tick_out(rm);
        if (CK && cb + (TICK - 1) == next_ck) {
            put_ckpt(&a, ck_c, w, pv, mv);
            next_ck = ++ck_c < a.n_ck ? next_ck + (int32_t)a.ck_S : INT32_MAX;
        }
        const uint32_t hout = hp | hm << 8;
        if (top && cb <= hi && hi <= cb + TICK - 1) { /* the tick of the lane's last column */
            const uint32_t q = (uint32_t)(hi - cb);   /* columns cb - 8 .. cb + 7: bits 0..15 */
            const uint32_t P = (hp << 8 | (hprev & 0xffu)) >> (q + 1);
            const uint32_t M = (hm << 8 | hprev >> 8) >> (q + 1);
            tail = (P & 0xffu) | (M & 0xffu) << 8;
        }
        hprev = hout;
#pragma unroll
        for (int q = 0; q < TICK; q++) e[q] = en[q];
        y8n = y8nn;

        if (lane == 31 && s + 1 < a.stripes && cb <= last && cb + TICK - 1 >= J0) {
            const uint32_t shift = (uint32_t)(cb - 1) & (GROUP - 1);
            op |= hp << shift;
            om |= hm << shift;
            if (shift == GROUP - TICK || cb + TICK - 1 >= last) { /* publish the group */
                const int64_t g = (int64_t)(cb - 1) / GROUP;
                while (g >= room) { /* the ring is full: wait for the stripe below */
                    const int64_t r = (int64_t)ld_slot(&a.consumed[s + 1]) + RING_GROUPS;
                    if (r > room) room = r;
                }
                st_slot(&ring_out[g % RING_GROUPS],
                        (unsigned long long)(g + 1) << 32 | (unsigned long long)(om << 16 | op));
                op = om = 0;
            }
        }
    }
#undef EQ_OF
    if (CK && live) { /* the checkpoints after its last column */
        for (; ck_c < a.n_ck; ck_c++) put_ckpt(&a, ck_c, w, pv, mv);
        a.ck_fin[w] = (long long)__popcll(pv) - (long long)__popcll(mv);
    }
    if (!CK && a.ck && live) { /* the last column, for run_meet */
        a.ck[w] = pv;
        a.ck[a.W + w] = mv;
        if (top) a.ck[2 * (size_t)a.W + w] = tail;
    }
    long long dsum = 0;
    if (live) {
        uint64_t keep = w + 1 < a.W || (a.m & 63) == 0 ? ~0ull : (1ull << (a.m & 63)) - 1;
        dsum = (long long)__popcll(pv & keep) - (long long)__popcll(mv & keep);
    }
    for (int o = 16; o > 0; o >>= 1) dsum += __shfl_down_sync(0xffffffffu, dsum, o);
    if (lane == 0) atomicAdd(a.score, (unsigned long long)dsum);
}

/* The bytes of the ring, the read reports and the score, zeroed before each
** run (a slot's tag must not survive from the run before). */
static size_t small_bytes(uint32_t stripes) {
    return ((size_t)stripes * (RING_GROUPS + 1) + 1) * sizeof(unsigned long long);
}

/* A banded run's launch on st, the ring zeroed first; ck_kernel: the
** checkpoints' kernel (else a.ck, if set, takes the last column). */
static cudaError_t launch_band(gbv_args_t *a, uint64_t m, uint64_t n, uint64_t k, int ck_kernel,
                               cudaStream_t st) {
    int64_t s0 = (int64_t)m - (int64_t)n, kk = (int64_t)k;
    a->dlo = s0 - kk > -kk ? s0 - kk : -kk;
    a->dhi = s0 + kk < kk ? s0 + kk : kk;
    cudaError_t e = cudaMemsetAsync(a->ring, 0, small_bytes(a->stripes), st);
    if (e != cudaSuccess) return e;
    const unsigned blocks = (a->stripes + 3) / 4;
    if (a->dna) {
        if (ck_kernel) k_global_bv<1, 1><<<blocks, 128, 0, st>>>(*a);
        else k_global_bv<0, 1><<<blocks, 128, 0, st>>>(*a);
    } else {
        if (ck_kernel) k_global_bv<1, 0><<<blocks, 128, 0, st>>>(*a);
        else k_global_bv<0, 0><<<blocks, 128, 0, st>>>(*a);
    }
    return cudaGetLastError();
}

/* One banded run: D[m][n] when <= k, else some value > k. */
static wm_status run_band(wm_context_t *cx, gbv_args_t *a, uint64_t m, uint64_t n, uint64_t k,
                          cudaStream_t st, uint64_t *d) {
    cudaError_t e = launch_band(a, m, n, k, a->ck != NULL, st);
    unsigned long long sc = 0;
    if (e == cudaSuccess) e = cudaMemcpyAsync(&sc, a->score, sizeof sc, cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess) e = cudaStreamSynchronize(st);
    if (e != cudaSuccess) return wm_cuda_fail(cx, e, "the global bit-vector kernel");
    *d = n + sc; /* sc is the signed sum mod 2^64 */
    return WM_OK;
}

/* A DNA target's bytes turned into their codes in place (0..4), so the
** kernel reads a column's masks without a lookup of its symbol. */
__global__ void __launch_bounds__(256) k_codes(uint8_t *y, uint64_t n, const uint16_t *code) {
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        y[i] = (uint8_t)code[y[i]];
}

/* The longest target staged with the tables (dev_make). */
#define STAGE_Y_MAX ((uint64_t)64 << 10) /* test_global_diff runs both sides of it */

/* The device side of one pair: masks by target byte (256 rows of W words,
** the symbol map folded in), the target, the ring and counters. */
typedef struct {
    gbv_args_t a;
    cudaStream_t st;
    uint64_t resident; /* warps this GPU holds at once: every stripe of a run must be */
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
    a->dna = aq->n_codes == 4;
    wm_cu_align_bufs_t *B = wm_cu_align_bufs(cx);
    if (!B) return WM_NOMEM;
    int per_sm = B->gbv_per_sm[a->dna]; /* asked once a context: each ask costs host time */
    if (!per_sm) {
        int per_sm_ck = 0;
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_sm, a->dna ? k_global_bv<0, 1> : k_global_bv<0, 0>, 128, 0);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_sm_ck, a->dna ? k_global_bv<1, 1> : k_global_bv<1, 0>, 128, 0);
        if (per_sm_ck < per_sm) per_sm = per_sm_ck;
        B->gbv_per_sm[a->dna] = per_sm;
    }
    g->resident = (uint64_t)per_sm * (uint64_t)cs->sm_count * 4;
    if (g->resident < a->stripes) {
        wm_context_set_error(cx,
                             "the global bit-vector kernel needs %u warps resident at "
                             "once; this GPU holds %llu",
                             a->stripes, (unsigned long long)per_sm * cs->sm_count * 4);
        return WM_UNSUPPORTED;
    }
    /* the symbol map and the query's masks by symbol (5 rows for DNA, not
    ** 256 by byte: a 10 kb query uploads 6 KB, not 320), staged pinned in
    ** h[6], and after them a target of up to STAGE_Y_MAX bytes (+ 8 zero
    ** bytes: whole 8-byte loads), one copy for all (a pageable copy is a
    ** staging of its own in the driver); a longer target from where it
    ** is into g[1]; the ring with its reports and the score in g[2]:
    ** buffers the context keeps */
    const size_t code_bytes = 256 * sizeof(uint16_t);
    const size_t tab_bytes = code_bytes + (size_t)(aq->n_codes + 1) * a->W * sizeof(uint64_t);
    const int stage_y = n <= STAGE_Y_MAX;
    const size_t up = stage_y ? tab_bytes + n + 8 : tab_bytes; /* tab_bytes: a multiple of 8 */
    B->kept.valid = 0; /* this run writes over what a keeping run left */
    wm_status st = wm_cu_host_reserve(cx, &B->h[6], up);
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &B->g[0], up);
    if (st == WM_OK && !stage_y) st = wm_cu_dev_reserve(cx, &B->g[1], n + 8);
    if (st == WM_OK) st = wm_cu_dev_reserve(cx, &B->g[2], small_bytes(a->stripes));
    if (st != WM_OK) return st;
    uint8_t *h = (uint8_t *)B->h[6].p;
    memcpy(h, aq->code, code_bytes);
    memcpy(h + code_bytes, aq->peq, tab_bytes - code_bytes);
    uint8_t *d_y = stage_y ? (uint8_t *)B->g[0].p + tab_bytes : (uint8_t *)B->g[1].p;
    if (stage_y) {
        memcpy(h + tab_bytes, y, n);
        memset(h + tab_bytes + n, 0, 8);
    }
    /* no wait here: the kernel follows on the same stream, and run_band
    ** waits for it before anyone writes h[6] again */
    cudaError_t e = cudaMemcpyAsync(B->g[0].p, h, up, cudaMemcpyHostToDevice, g->st);
    if (e == cudaSuccess && !stage_y) e = cudaMemsetAsync(d_y + n, 0, 8, g->st);
    if (e == cudaSuccess && !stage_y) e = cudaMemcpyAsync(d_y, y, n, cudaMemcpyHostToDevice, g->st);
    if (e == cudaSuccess && a->dna) {
        const uint64_t blocks = (n + 255) / 256;
        k_codes<<<(unsigned)(blocks < 1024 ? blocks : 1024), 256, 0, g->st>>>(
            d_y, n, (const uint16_t *)B->g[0].p);
        e = cudaGetLastError();
    }
    if (e != cudaSuccess) return wm_cuda_fail(cx, e, "the global bit-vector kernel's buffers");
    a->code = (const uint16_t *)B->g[0].p;
    a->peq = (const uint64_t *)((char *)B->g[0].p + code_bytes);
    a->y = d_y;
    a->ring = (unsigned long long *)B->g[2].p;
    a->consumed = a->ring + (size_t)a->stripes * RING_GROUPS;
    a->score = a->consumed + a->stripes;
    return WM_OK;
}

/* Where checkpoint c of a layout starts: the band's words of column c S
** (lay's band, lay's S), Pv then Mv. off gets n_seg entries; returns the
** words of all of them. */
static size_t layout_offsets(const wm_tb_plan_t *lay, uint64_t *off) {
    size_t at = 0;
    for (uint64_t c = 0; c < lay->n_seg; c++) {
        if (off) off[c] = at;
        at += 2 * (wm_tb_lb(lay, c * lay->S) - wm_tb_fb(lay, c * lay->S) + 1);
    }
    return at;
}

/* One run of band k writing checkpoints every lay->S columns of that band
** (lay: the plan of distance k) into g[3]: the words, then each word's
** deltas at its last column (fin), then the offsets. The kernel tests for
** a checkpoint once a tick, at a tick's last column. */
static wm_status run_ckpts(wm_context_t *cx, gbv_dev_t *g, const wm_tb_plan_t *lay, uint64_t k,
                           uint64_t *d, size_t *words) {
    if (lay->n_seg > 1 && lay->S % TICK != 0) {
        wm_context_set_error(cx,
                             "internal error: checkpoints every %llu columns, not a multiple "
                             "of %d",
                             (unsigned long long)lay->S, TICK);
        return WM_INVALID;
    }
    const size_t W = g->a.W, n_ck = lay->n_seg;
    uint64_t *off = (uint64_t *)malloc(n_ck * sizeof *off);
    if (!off) return WM_NOMEM;
    *words = layout_offsets(lay, off);
    wm_cu_align_bufs_t *B = wm_cu_align_bufs(cx); /* made by dev_make */
    wm_status rc = wm_cu_dev_reserve(cx, &B->g[3], (*words + W + n_ck) * sizeof(uint64_t));
    if (rc == WM_OK) {
        g->a.ck = (uint64_t *)B->g[3].p;
        g->a.ck_fin = (long long *)(g->a.ck + *words);
        g->a.ck_off = (const uint64_t *)(g->a.ck + *words + W);
        g->a.ck_S = lay->S;
        g->a.n_ck = n_ck;
        g->a.ck_full = *words == 2 * W * n_ck; /* every checkpoint holds every word */
        cudaError_t e = cudaMemcpyAsync((void *)g->a.ck_off, off, n_ck * sizeof(uint64_t),
                                        cudaMemcpyHostToDevice, g->st);
        if (e != cudaSuccess) rc = wm_cuda_fail(cx, e, "the checkpoints' offsets");
    }
    if (rc == WM_OK) rc = run_band(cx, &g->a, lay->m, lay->n, k, g->st, d);
    free(off); /* the run waited for the copy */
    return rc;
}

/* The value at each checkpoint's top row from the words above its band:
** D[0][c S] = c S plus the deltas of every word above band c's first (a
** word above a band is past its window there, so its deltas are those it
** ends with, fin; fb grows with c: one running sum). The plan's first
** checkpoint, column 0 (D[i][0] = i), is set here. part: what each
** checkpoint adds from words inside the run's band (the gather), or NULL. */
static void ckpt_tops(const wm_tb_plan_t *plan, const wm_tb_plan_t *lay, const long long *fin,
                      const long long *part, wm_tb_ckpts_t *ck) {
    const uint64_t S = plan->S;
    long long above = 0;
    size_t summed = 0;
    for (uint64_t c = 0; c < plan->n_seg; c++) {
        if (c == 0) {
            const size_t fb = wm_tb_fb(plan, 0), nw = wm_tb_lb(plan, 0) - fb + 1;
            ck->top[0] = 64 * (uint64_t)fb;
            for (size_t w = 0; w < nw; w++) {
                ck->w[ck->off[0] + w] = ~0ull;
                ck->w[ck->off[0] + nw + w] = 0;
            }
            continue;
        }
        for (const size_t fb = wm_tb_fb(lay, c * S); summed < fb; summed++) above += fin[summed];
        ck->top[c] = c * S + (uint64_t)(above + (part ? part[c] : 0));
    }
}

/* Checkpoints of the plan (band d, every S columns) from a run that kept
** band k's every S_keep columns (S a multiple of S_keep, d <= k, so the
** plan's band lies inside the run's): one block a checkpoint copies the
** plan's words, and sums the deltas of the run's words above the plan's
** band into part[c]. */
typedef struct {
    const uint64_t *kept, *kept_off; /* the run's layout */
    uint64_t m, S, step;             /* plan checkpoint c is the run's c * step */
    int64_t run_dlo, run_dhi, dlo, dhi;
    const uint64_t *off; /* the plan's offsets */
    uint64_t *out;
    unsigned long long *part;
} gather_args_t;

__global__ void __launch_bounds__(256) k_gather_ckpts(gather_args_t g) {
    const uint64_t c = blockIdx.x + 1; /* checkpoint 0 is the host's */
    const int64_t j = (int64_t)(c * g.S);
    const uint64_t rfb = band_blk(g.m, j, g.run_dlo), rlb = band_blk(g.m, j, g.run_dhi);
    const uint64_t fb = band_blk(g.m, j, g.dlo), lb = band_blk(g.m, j, g.dhi);
    const uint64_t rnw = rlb - rfb + 1, nw = lb - fb + 1;
    const uint64_t *src = g.kept + g.kept_off[c * g.step];
    uint64_t *dst = g.out + g.off[c];
    long long sum = 0;
    for (uint64_t w = rfb + threadIdx.x; w <= lb; w += blockDim.x) {
        const uint64_t pv = src[w - rfb], mv = src[rnw + w - rfb];
        if (w >= fb) {
            dst[w - fb] = pv;
            dst[nw + w - fb] = mv;
        } else sum += (long long)__popcll(pv) - (long long)__popcll(mv);
    }
    for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
    if ((threadIdx.x & 31) == 0 && sum != 0) atomicAdd(&g.part[c], (unsigned long long)sum);
}

static wm_status gather_kept(wm_context_t *cx, const wm_tb_plan_t *plan, wm_tb_ckpts_t *ck) {
    wm_cu_align_bufs_t *B = wm_cu_align_bufs(cx);
    const wm_cu_gbv_kept_t *K = &B->kept;
    const size_t n_ck = plan->n_seg, W = K->W;
    const size_t words = layout_offsets(plan, NULL);
    long long *part = (long long *)calloc(n_ck, sizeof *part);
    long long *fin = (long long *)malloc(W * sizeof *fin);
    wm_status rc = part && fin ? WM_OK : WM_NOMEM;
    if (rc == WM_OK) rc = wm_cu_dev_reserve(cx, &B->g[7], (words + 2 * n_ck) * sizeof(uint64_t));
    cudaStream_t st = cx->cuda->stream[0];
    cudaError_t e = cudaSuccess;
    if (rc == WM_OK && n_ck > 1) {
        gather_args_t g;
        g.kept = (const uint64_t *)B->g[3].p;
        g.kept_off = g.kept + K->words + W;
        g.m = plan->m;
        g.S = plan->S;
        g.step = plan->S / K->lay.S;
        g.run_dlo = K->lay.dlo;
        g.run_dhi = K->lay.dhi;
        g.dlo = plan->dlo;
        g.dhi = plan->dhi;
        g.out = (uint64_t *)B->g[7].p;
        g.part = (unsigned long long *)(g.out + words);
        g.off = g.out + words + n_ck;
        e = cudaMemcpyAsync((void *)g.off, ck->off, n_ck * sizeof(uint64_t), cudaMemcpyHostToDevice,
                            st);
        if (e == cudaSuccess) e = cudaMemsetAsync(g.part, 0, n_ck * sizeof(uint64_t), st);
        if (e == cudaSuccess) {
            k_gather_ckpts<<<(unsigned)(n_ck - 1), 256, 0, st>>>(g);
            e = cudaGetLastError();
        }
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(ck->w, g.out, words * sizeof *ck->w, cudaMemcpyDeviceToHost, st);
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(part, g.part, n_ck * sizeof *part, cudaMemcpyDeviceToHost, st);
    }
    if (rc == WM_OK && e == cudaSuccess)
        e = cudaMemcpyAsync(fin, (const char *)B->g[3].p + K->words * sizeof(uint64_t),
                            W * sizeof *fin, cudaMemcpyDeviceToHost, st);
    if (rc == WM_OK && e == cudaSuccess) e = cudaStreamSynchronize(st);
    if (rc == WM_OK && e != cudaSuccess) rc = wm_cuda_fail(cx, e, "gathering the checkpoints");
    if (rc == WM_OK) ckpt_tops(plan, &K->lay, fin, part, ck);
    free(part);
    free(fin);
    return rc;
}

/* ---- one pair from both ends ------------------------------------------------ */

#define MEET_MIN_N 2048 /* tuning.global_meet_min's default */
#define MEET_THREADS 512

/* The score at row i of a run's last column (W words of Pv, then of Mv;
** pre[w]: the deltas of the words above w), less the column's D[0]. */
static __device__ __forceinline__ long long meet_row(const uint64_t *X, const long long *pre,
                                                     uint32_t W, uint64_t i) {
    if (i == 0) return 0;
    const uint64_t w = (i - 1) >> 6, r = (i - 1) & 63;
    const uint64_t mask = r == 63 ? ~0ull : (2ull << r) - 1;
    return pre[w] + __popcll(X[w] & mask) - __popcll(X[W + w] & mask);
}

/* The meet kernels' one block: a scan of the runs' words, then the least
** over the frontier. */
typedef cub::BlockScan<long long, MEET_THREADS> scan_t;
typedef cub::BlockReduce<unsigned long long, MEET_THREADS> reduce_t;
typedef union {
    scan_t::TempStorage scan;
    reduce_t::TempStorage reduce;
} meet_tmp_t;

/* D[m][n] from the two runs' last columns (F forward, over fn columns; G
** backward, over gn): the least over i of F[i] + G[m - i]. One block: each
** run's words summed by a scan a chunk at a time (pre: 2 W), then the rows. */
__global__ void __launch_bounds__(MEET_THREADS)
    k_meet(const uint64_t *F, const uint64_t *G, uint32_t W, uint64_t m, uint64_t fn, uint64_t gn,
           long long *pre, unsigned long long *out) {
    __shared__ meet_tmp_t tmp;
    for (int side = 0; side < 2; side++) {
        const uint64_t *X = side ? G : F;
        long long carry = 0; /* the same in every thread */
        for (uint32_t base = 0; base < W; base += MEET_THREADS) {
            const uint32_t w = base + threadIdx.x;
            long long v = w < W ? (long long)__popcll(X[w]) - (long long)__popcll(X[W + w]) : 0;
            long long before = 0, total = 0;
            scan_t(tmp.scan).ExclusiveSum(v, before, total);
            if (w < W) pre[(size_t)side * W + w] = carry + before;
            carry += total;
            __syncthreads(); /* tmp again */
        }
    }
    unsigned long long best = ~0ull;
    /* the runs' words are in L2 (other SMs wrote them): four rows' loads in
    ** flight a thread, not one (12.8 us for a 10 kb pair on 256 threads one
    ** row at a time, 9.2 us so; an H200) */
#pragma unroll 4
    for (uint64_t i = threadIdx.x; i <= m; i += MEET_THREADS) {
        const long long f = (long long)fn + meet_row(F, pre, W, i);
        const long long g = (long long)gn + meet_row(G, pre + W, W, m - i);
        const unsigned long long v = (unsigned long long)(f + g);
        best = v < best ? v : best;
    }
    best = reduce_t(tmp.reduce).Reduce(best, cuda::minimum<unsigned long long>());
    if (threadIdx.x == 0) *out = best;
}

/* ---- the stair --------------------------------------------------------------
** Each run's word a ends 8 columns before word a - 1, so every lane of a
** run ends at one tick: the late words (the pipeline's fill) do less. The
** forward run's word a (rows 64 a + 1 .. 64 a + 64) ends at column
** c_a = H - 8 a; the backward run, whose query has p = 64 W - m padding
** rows on top (so its words hold the forward words' rows: its word b is
** forward word W - 1 - b), ends its word for rows of word a at reversed
** column n - c_a. The forward run's frontier (each word's last column,
** and its bottom row over its last 8 columns: the next word's 8 columns
** fewer) is crossed by every path from (0, 0) to (m, n); the backward run
** knows the distance to (m, n) from every node on it: its words' last
** columns (one row lower: the backward node of row i is "before x[i + 1]")
** and its bottom rows' last 8 columns. So D[m][n] is the least of
** F + B over that frontier. Each side's word value at its top row comes
** from a scan of (its column's deltas) - (its bottom row's last 8 deltas).
** H is chosen so that both runs end at once; a run needs its last word's
** columns >= 8 (so H >= 8 W and n - H >= 8). */

/* The deltas of a tail's last t columns (bits 8 - t .. 7 of its +1 and -1
** bytes). */
static __device__ __forceinline__ long long tail_last(uint64_t tail, uint32_t t) {
    const uint32_t sh = 8 - t;
    return (long long)__popc((uint32_t)(tail & 0xffu) >> sh) -
           (long long)__popc((uint32_t)(tail >> 8 & 0xffu) >> sh);
}
static __device__ __forceinline__ uint64_t low_bits(uint32_t k) {
    return k >= 64 ? ~0ull : (1ull << k) - 1;
}
static __device__ __forceinline__ long long word_sum(const uint64_t *X, uint32_t W, uint64_t w,
                                                     uint64_t mask) {
    return (long long)__popcll(X[w] & mask) - (long long)__popcll(X[W + w] & mask);
}

/* F, G: each run's Pv, Mv and tails (3 W words); pre: 2 W. */
__global__ void __launch_bounds__(MEET_THREADS)
    k_meet_stair(const uint64_t *F, const uint64_t *G, uint32_t W, uint64_t m, uint64_t n,
                 uint64_t H, long long *pre, unsigned long long *out) {
    __shared__ meet_tmp_t tmp;
    const uint64_t keep_last = (m & 63) ? (1ull << (m & 63)) - 1 : ~0ull; /* F's last word */
    /* each word's value at its top row and column: F from F[0][H] = H, the
    ** backward run from B'[0][n - H + 8 (W - 1)] (its first word's column) */
    for (int side = 0; side < 2; side++) {
        const uint64_t *X = side ? G : F;
        long long carry = side ? (long long)(n - H + 8 * (uint64_t)(W - 1)) : (long long)H;
        for (uint32_t base = 0; base < W; base += MEET_THREADS) {
            const uint32_t w = base + threadIdx.x;
            long long v = 0;
            if (w < W) {
                const uint64_t mask = !side && w == W - 1 ? keep_last : ~0ull;
                v = word_sum(X, W, w, mask) - tail_last(X[2 * (size_t)W + w], 8);
            }
            long long before = 0, total = 0;
            scan_t(tmp.scan).ExclusiveSum(v, before, total);
            if (w < W) pre[(size_t)side * W + w] = carry + before;
            carry += total;
            __syncthreads(); /* tmp again */
        }
    }
    const long long *Ftop = pre, *Gtop = pre + W;
    unsigned long long best = ~0ull;
    /* the columns: row i of forward word a = (i - 1) / 64, its k-th row; in
    ** the backward run the same node is word b = W - 1 - a's (64 - k)-th row
    ** (row 0: below the backward run's last word) */
#pragma unroll 4
    for (uint64_t i = threadIdx.x; i <= m; i += MEET_THREADS) {
        long long f, g;
        if (i == 0) {
            f = (long long)H;
            g = Gtop[W - 1] + word_sum(G, W, W - 1, ~0ull);
        } else {
            const uint64_t a = (i - 1) >> 6, b = W - 1 - a;
            const uint32_t k = (uint32_t)((i - 1) & 63) + 1;
            f = Ftop[a] + word_sum(F, W, a, low_bits(k));
            g = Gtop[b] + word_sum(G, W, b, low_bits(64 - k));
        }
        const unsigned long long v = (unsigned long long)(f + g);
        best = v < best ? v : best;
    }
    /* the steps: the bottom row of forward word a < W - 1 (the top of the
    ** backward run's word b = W - 1 - a, the bottom of its word b - 1) over
    ** columns c_a - t, t = 0..8 */
    for (uint64_t x = threadIdx.x; x < 9 * (uint64_t)(W - 1); x += MEET_THREADS) {
        const uint64_t a = x / 9, b = W - 1 - a;
        const uint32_t t = (uint32_t)(x % 9);
        const long long f = Ftop[a] + word_sum(F, W, a, ~0ull) - tail_last(F[2 * (size_t)W + a], t);
        const long long g =
            Gtop[b - 1] + word_sum(G, W, b - 1, ~0ull) - tail_last(G[2 * (size_t)W + b - 1], 8 - t);
        const unsigned long long v = (unsigned long long)(f + g);
        best = v < best ? v : best;
    }
    best = reduce_t(tmp.reduce).Reduce(best, cuda::minimum<unsigned long long>());
    if (threadIdx.x == 0) *out = best;
}

/* The backward run's inputs, made on the device from the forward run's
** (no host work between the two launches): the target's last nb symbols
** reversed (codes for DNA, as k_codes left them), zero-padded to ybytes,
** and the query's masks reversed. Bit i of a reversed row is bit m - 1 - i
** of the forward row, so the whole 64 W-bit row reversed (words in turn,
** each bit-reversed) holds it at bit i + p, p = 64 W - m (the forward last
** word's unused bits, zero): shifted down by r = p it is the reversed
** query; with r = 0 its first p rows are padding (the stair's). */
__global__ void __launch_bounds__(256)
    k_back_prep(const uint64_t *peq, uint32_t rows, uint32_t W, uint32_t r, const uint8_t *y,
                uint64_t n, uint64_t nb, uint64_t ybytes, uint64_t *rpeq, uint8_t *ry) {
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t start = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    for (uint64_t k = start; k < ybytes; k += stride) ry[k] = k < nb ? y[n - 1 - k] : 0;
    for (uint64_t i = start; i < (uint64_t)rows * W; i += stride) {
        const uint64_t c = i / W, w = i % W;
        const uint64_t *row = peq + c * W;
        const uint64_t lo = __brevll(row[W - 1 - w]);
        const uint64_t hi = w + 1 < W ? __brevll(row[W - 2 - w]) : 0;
        rpeq[i] = r ? lo >> r | hi << (64 - r) : lo;
    }
}

/* D[m][n] without a bound from both ends (the file's head): the forward run
** on g (dev_make's: the query's masks and the whole target) on stream 0,
** the backward one on stream 1 from g[8] (the reversed masks and target,
** which k_back_prep makes there once the forward run's are up; the symbol
** map is the forward run's). On a stair where both runs' last words reach
** column 8 (n >= 16 W + 8 or so), else cut at column n / 2. Returns
** WM_UNSUPPORTED, having done nothing, when both runs' stripes do not fit
** the GPU at once or its buffers do not fit its memory (the single run
** needs neither). */
static wm_status run_meet(wm_context_t *cx, const wm_aq_t *aq, uint64_t n, gbv_dev_t *g,
                          uint64_t *d) {
    const uint64_t m = aq->m;
    gbv_args_t af = g->a, ab = g->a;
    if (g->resident < 2 * (uint64_t)af.stripes) return WM_UNSUPPORTED;
    const size_t W = af.W;
    const uint32_t p = (uint32_t)(64 * W - m);
    /* the stair's top: both runs' ticks even (H + H' = n + 8 (W - 1)), a
    ** multiple of 8, each run's last word at column 8 or more */
    uint64_t H = (n + 8 * (W - 1)) / 2 / 8 * 8;
    const int stair = !cx->tuning.global_meet_cut && 8 * W <= H && H + 8 <= n;
    const uint64_t mid = stair ? 0 : n / 2;
    const uint64_t nb = stair ? n : n - mid;      /* the backward run's target */
    wm_cu_align_bufs_t *B = wm_cu_align_bufs(cx); /* made by dev_make */
    const uint32_t rows = aq->n_codes + 1;
    const size_t peq_bytes = (size_t)rows * W * sizeof(uint64_t);
    const size_t ybytes = (nb + 8 + 7) & ~(size_t)7; /* whole 8-byte loads, zeros after */
    const size_t ring_at = peq_bytes + ybytes, words_at = ring_at + small_bytes(af.stripes);
    const size_t total = words_at + (8 * W + 1) * sizeof(uint64_t); /* F, G, pre, out */
    wm_status rc = wm_cu_dev_reserve(cx, &B->g[8], total);
    if (rc == WM_DEVICE_NOMEM) { /* the single run needs none of it */
        cx->errmsg[0] = 0;
        return WM_UNSUPPORTED;
    }
    if (rc != WM_OK) return rc;
    uint8_t *dev = (uint8_t *)B->g[8].p;
    uint64_t *words = (uint64_t *)(dev + words_at);
    unsigned long long *out = (unsigned long long *)(words + 8 * W);
    af.ck = words; /* F: Pv, Mv (and the stair's tails) */
    ab.peq = (const uint64_t *)dev;
    ab.y = dev + peq_bytes;
    ab.ring = (unsigned long long *)(dev + ring_at);
    ab.consumed = ab.ring + (size_t)ab.stripes * RING_GROUPS;
    ab.score = ab.consumed + ab.stripes;
    ab.ck = words + 3 * W; /* G */
    if (stair) {
        af.ck_S = H;
        ab.ck_S = n - H + 8 * (W - 1);
        ab.n_ck = p; /* padding rows on top: its words are the forward run's */
    } else {
        af.n = mid;
        ab.n = nb;
    }
    cudaStream_t s1 = cx->cuda->stream[1];
    cudaEvent_t up = NULL, back_done = NULL;
    cudaError_t e = cudaEventCreateWithFlags(&up, cudaEventDisableTiming);
    if (e == cudaSuccess) e = cudaEventCreateWithFlags(&back_done, cudaEventDisableTiming);
    if (e == cudaSuccess) e = cudaEventRecord(up, g->st); /* dev_make's uploads */
    if (e == cudaSuccess) e = cudaStreamWaitEvent(s1, up, 0);
    if (e == cudaSuccess) {
        const uint64_t work = ybytes > rows * W ? ybytes : rows * W;
        const uint64_t blocks = (work + 255) / 256;
        k_back_prep<<<(unsigned)(blocks < 1024 ? blocks : 1024), 256, 0, s1>>>(
            af.peq, rows, (uint32_t)W, stair ? 0 : p, af.y, n, nb, ybytes, (uint64_t *)dev,
            dev + peq_bytes);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) e = launch_band(&ab, m, ab.n, m + ab.n, 0, s1);
    if (e == cudaSuccess) e = cudaEventRecord(back_done, s1);
    if (e == cudaSuccess) e = launch_band(&af, m, af.n, m + af.n, 0, g->st);
    if (e == cudaSuccess) e = cudaStreamWaitEvent(g->st, back_done, 0);
    if (e == cudaSuccess) {
        long long *pre = (long long *)(words + 6 * W);
        if (stair)
            k_meet_stair<<<1, MEET_THREADS, 0, g->st>>>(words, words + 3 * W, (uint32_t)W, m, n, H,
                                                        pre, out);
        else
            k_meet<<<1, MEET_THREADS, 0, g->st>>>(words, words + 3 * W, (uint32_t)W, m, mid, nb,
                                                  pre, out);
        e = cudaGetLastError();
    }
    unsigned long long best = 0;
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(&best, out, sizeof best, cudaMemcpyDeviceToHost, g->st);
    if (e == cudaSuccess) e = cudaStreamSynchronize(g->st);
    if (up) cudaEventDestroy(up);
    if (back_done) cudaEventDestroy(back_done);
    if (e != cudaSuccess) {
        /* a failed launch may leave the other stream's run behind */
        cudaStreamSynchronize(s1);
        return wm_cuda_fail(cx, e, "the global bit-vector kernel from both ends");
    }
    *d = best;
    cx->stats.global_gpu_meets++;
    if (stair) cx->stats.global_gpu_stairs++;
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
    const uint64_t meet_min = cx->tuning.global_meet_min ? cx->tuning.global_meet_min : MEET_MIN_N;
    if (k == m + n && n >= 2 && n >= meet_min) {
        rc = run_meet(cx, aq, n, &g, d);
        if (rc != WM_UNSUPPORTED) return rc;
    }
    return run_band(cx, &g.a, m, n, k, g.st, d);
}

/* The most device memory a kept run's checkpoints may take. */
#define KEEP_MAX_BYTES ((uint64_t)1 << 30)

wm_status wm_cuda_global_keep(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                              int64_t limit, uint64_t *S_keep, uint64_t *d) {
    const uint64_t m = aq->m;
    *S_keep = 0;
    wm_cu_align_bufs_t *B = wm_cu_align_bufs(cx);
    if (!B) return WM_NOMEM;
    B->kept.valid = 0;
    if (wm_global_trivial(m, n, limit, d) || n > WM_CU_GLOBAL_MAX_N)
        return wm_cuda_global(cx, aq, y, n, limit, d);
    gbv_dev_t g;
    wm_status rc = dev_make(cx, aq, y, n, &g);
    if (rc != WM_OK) return rc;
    uint64_t k = limit >= 0 ? (uint64_t)limit : m + n;
    if (k > m + n) k = m + n;
    /* The run's band every S columns, S the least multiple of the tick (at
    ** least 64) whose layout fits the budget: a quarter of the free memory,
    ** at most KEEP_MAX_BYTES. Past it, or past gpu_alloc_limit, the plain
    ** run: its CIGAR takes the second pass. */
    size_t free_b = 0, total_b = 0;
    uint64_t budget = cudaMemGetInfo(&free_b, &total_b) == cudaSuccess ? free_b / 4 : 0;
    if (budget > KEEP_MAX_BYTES) budget = KEEP_MAX_BYTES;
    if (cx->tuning.gpu_alloc_limit && budget > cx->tuning.gpu_alloc_limit)
        budget = cx->tuning.gpu_alloc_limit;
    wm_tb_plan_t lay;
    wm_tb_plan(&lay, m, n, k, aq->n_words, 1);
    uint64_t S = budget ? n * 16 * (uint64_t)lay.band_words / budget + 1 : n;
    S = S < 64 ? 64 : (S + TICK - 1) / TICK * TICK;
    size_t words = 0;
    for (;; S *= 2) {
        lay.S = S < n ? S : n;
        lay.n_seg = (n + lay.S - 1) / lay.S;
        words = layout_offsets(&lay, NULL);
        if ((words + aq->n_words + lay.n_seg) * sizeof(uint64_t) <= budget || S >= n) break;
    }
    if ((words + aq->n_words + lay.n_seg) * sizeof(uint64_t) > budget || lay.S % TICK != 0)
        return run_band(cx, &g.a, m, n, k, g.st, d);
    rc = run_ckpts(cx, &g, &lay, k, d, &words);
    if (rc != WM_OK) return rc;
    wm_cu_gbv_kept_t *K = &B->kept;
    K->aq = aq;
    K->y = y;
    K->k = k;
    K->W = aq->n_words;
    K->lay = lay;
    K->words = words;
    K->valid = 1;
    *S_keep = lay.S;
    return WM_OK;
}

wm_status wm_cuda_global_ckpts(wm_context_t *cx, const wm_aq_t *aq, const uint8_t *y, uint64_t n,
                               uint64_t d, const wm_tb_plan_t *plan, wm_tb_ckpts_t *ck) {
    static_assert(sizeof(size_t) == sizeof(uint64_t), "the offsets go up as they are");
    wm_cu_align_bufs_t *B = wm_cu_align_bufs(cx);
    if (!B) return WM_NOMEM;
    const wm_cu_gbv_kept_t *K = &B->kept;
    if (K->valid && K->aq == aq && K->y == y && K->lay.n == n && K->lay.m == plan->m && d <= K->k &&
        plan->S % K->lay.S == 0) { /* the distance's run kept them */
        const double t0 = wm_now();
        wm_status rc = gather_kept(cx, plan, ck);
        B->kept.valid = 0;
        if (cx->tuning.timing) {
            cx->stats.global_gpu_ckpts_copy_s += wm_now() - t0;
            cx->stats.global_gpu_ckpts_kept++;
        }
        return rc;
    }
    gbv_dev_t g;
    wm_status rc = dev_make(cx, aq, y, n, &g);
    if (rc != WM_OK) return rc;
    const size_t W = aq->n_words;
    size_t words = 0;
    uint64_t d2 = 0;
    rc = run_ckpts(cx, &g, plan, d, &d2, &words);
    if (rc == WM_OK && d2 != d) {
        wm_context_set_error(cx, "internal error: the checkpoint run found distance %llu, not %llu",
                             (unsigned long long)d2, (unsigned long long)d);
        rc = WM_INVALID;
    }
    long long *fin = (long long *)malloc(W * sizeof *fin);
    if (rc == WM_OK && !fin) rc = WM_NOMEM;
    const double t_copy = wm_now();
    cudaError_t e = cudaSuccess;
    if (rc == WM_OK) e = cudaMemcpy(ck->w, g.a.ck, words * sizeof *ck->w, cudaMemcpyDeviceToHost);
    if (rc == WM_OK && e == cudaSuccess)
        e = cudaMemcpy(fin, g.a.ck_fin, W * sizeof *fin, cudaMemcpyDeviceToHost);
    if (rc == WM_OK && e != cudaSuccess) rc = wm_cuda_fail(cx, e, "copying the checkpoints back");
    if (rc == WM_OK) ckpt_tops(plan, plan, fin, NULL, ck);
    free(fin);
    if (cx->tuning.timing) cx->stats.global_gpu_ckpts_copy_s += wm_now() - t_copy;
    return rc;
}
