/*
** mwarp.cuh -- the skeleton of the set kernels that read the text straight
** into registers (qgram_dna.cu, qgram_bytes.cu), beside mkernel.cuh's,
** which stages tiles in shared memory behind barriers.
**
** A warp owns chunks of WM_MW_CHUNK bytes, one at a time, and takes a
** chunk 512 bytes a step: one 16-byte load a lane, the next step's already
** in flight. Lane i holds the ends at + 1 .. at + 16 (at = the step's start
** + 16 i) and gets what it needs of the bytes before its own (a scanner's
** two-word "carry") from lane i - 1 by a shuffle; lane 0 from lane 31 of
** the step before, or at a chunk's start from the 16 bytes before the chunk,
** which every lane decodes alike (one load). Only the set's tables sit in
** shared memory, copied in once by persistent blocks.
**
** Order, as mkernel.cuh's contract: a chunk's steps run in order and lane i's
** ends precede lane i + 1's, so a chunk's hits come out in end order; the
** chunk is the tile of WM_MM_COUNT / WM_MM_WRITE (block_counts has one entry
** a chunk), and WRITE puts each step's hits at the chunk's offset plus a
** warp-wide prefix sum. Where a scanner knows every candidate end to be one
** string (`exact`), WRITE stages the step's hits in shared memory and the
** warp writes them 32 consecutive hits at a time. Where ends must be
** visited (the strings looked up), the step's candidates go into the same
** stage and the warp visits them 32 at a time, each lane taking its
** candidate's bytes from the lane that holds them: a lane with many
** candidates no longer keeps the others waiting (a DNA stretch of a mixed
** text makes half its ends candidates of short signatures). Listing so
** counts each candidate's strings into the stage's second half, scans the
** counts into offsets, and visits again to write.
**
** A Scanner provides:
**   lane_t                                 what a lane knows of its 16 bytes
**   static const int min_blocks;           blocks an SM should hold (registers)
**   uint32_t tables;                       bytes of shared memory for its tables
**   bool sums, exact;                      (see below; host-side fields)
**   static const bool may_be_exact;        whether exact can be set at all
**   void setup(uint8_t *s) const;          copy the tables in (all threads)
**   lane_t decode(uint4 v, const uint8_t *s) const;
**   uint2 carry(const lane_t &) const;     what the next lane needs
**   uint2 nothing() const;                 the carry before the batch
**   uint32_t ok(const lane_t &, uint2 up) const;
**       bit 15 - j: end j's string could lie inside the batch's bytes
**   uint32_t sum(const lane_t &, uint2 up, uint32_t ok, const uint8_t *s) const;
**       (sums) the matches ending at the ok ends, counted from a table
**   lane_t from(const lane_t &, int lane) const;  that lane's (a shuffle)
**   uint32_t hits(const lane_t &, uint2 up, uint32_t ok, const uint8_t *s) const;
**       bit 15 - j: some string may end at end j (ok ends only); bit 31 - j:
**       a flag for end j that visit gets back
**   template <class E> void visit(const lane_t &, uint2 up, uint32_t j, uint64_t e,
**       uint32_t flag, const wm_cu_mtext_t &, const uint8_t *s, E &) const;
**       put(e, uid) for each string ending at end j
**   (exact) uint32_t keep(uint2 carry) const;    what key() needs of a lane
**   (exact) uint32_t key(uint32_t up, uint32_t mine, uint32_t j) const;
**       end j's string as 16 bits, from the lane's keep() and the lane before's
**   (exact) uint32_t uid(uint32_t key, const uint8_t *s) const;
**
** One pass (WM_MM_LIST, exact scanners): a warp takes the next chunk of
** WM_CU_LIST_CHUNK bytes (2 KiB) by a ticket and keeps each step's hits and keep()
** in registers; its count goes out at once and the counts of the chunks
** before are looked back over (decoupled look-back: the chunks taken before
** it publish theirs without waiting), then the hits are written as WRITE
** writes them. The text is read and every end looked up once, where COUNT
** then WRITE did both twice; dense sets write more bytes of hits than they
** read, so the second pass had cost a third of the listing.
*/
#ifndef WM_MULTI_MWARP_CUH
#define WM_MULTI_MWARP_CUH

#include "multi/mkernel.cuh"

#define WM_MW_THREADS 512
#define WM_MW_WARPS (WM_MW_THREADS / 32)
#define WM_MW_SEG 512u                /* bytes a warp takes a step: 16 a lane */
#define WM_MW_CHUNK (32u * WM_MW_SEG) /* bytes a warp owns at once */
#define WM_MW_FULL 0xffffffffu
/* A warp's stage, in words: a step's candidates or hits, and for listing
** through visits their offsets too. Only what a kernel uses is allocated:
** shared memory taken from L1 slows the lookups that go through it. */
#define WM_MW_STAGE_WORDS(MODE, EXACT)                                                             \
    ((MODE) == WM_MM_WRITE && !(EXACT) ? 2 * WM_MW_SEG : WM_MW_SEG)

struct wm_mw_emit_uid {
    unsigned long long *counts;
    __device__ void put(uint64_t, uint32_t u) { atomicAdd(counts + u, 1ull); }
};

/* The set bits of a 16-bit mask, bit 15 - j for j = 0, 1, ... */
#define WM_MW_EACH(j, mask)                                                                        \
    for (uint32_t wm_h_ = (mask), j; wm_h_ && (j = __clz(wm_h_) - 16, 1); wm_h_ &= ~(0x8000u >> j))

/* Bit 15 - j set for the ends at + j + 1 with at + j in [own_from, n). */
__device__ __forceinline__ uint32_t wm_mw_own(uint64_t at, uint64_t own_from, uint64_t n) {
    if (at >= own_from && at + 16 <= n) return 0xffffu;
    uint64_t lo = own_from > at ? own_from - at : 0, hi = n > at ? n - at : 0;
    if (lo > 16) lo = 16;
    if (hi > 16) hi = 16;
    return hi > lo ? ((1u << (hi - lo)) - 1) << (16 - hi) : 0;
}

/* A warp-wide inclusive prefix sum. */
__device__ __forceinline__ uint32_t wm_mw_scan(uint32_t x, uint32_t lane) {
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        uint32_t y = __shfl_up_sync(WM_MW_FULL, x, d);
        if ((int)lane >= d) x += y;
    }
    return x;
}

/* A step's lane state from its 16 bytes v, and the carry of the lane
** before into up (lane 0: prev, the step before's lane 31, which prev then
** becomes); mine_c: the lane's own carry. */
template <class S>
__device__ __forceinline__ typename S::lane_t wm_mw_take(const S &sc, uint4 v, const uint8_t *smem,
                                                         uint32_t lane, uint2 &prev, uint2 &up,
                                                         uint2 &mine_c) {
    typename S::lane_t cur = sc.decode(v, smem);
    mine_c = sc.carry(cur);
    up.x = __shfl_up_sync(WM_MW_FULL, mine_c.x, 1);
    up.y = __shfl_up_sync(WM_MW_FULL, mine_c.y, 1);
    if (lane == 0) up = prev;
    prev.x = __shfl_sync(WM_MW_FULL, mine_c.x, 31);
    prev.y = __shfl_sync(WM_MW_FULL, mine_c.y, 31);
    return cur;
}

/* What to do with each queued candidate i (wm_mw_queued): put its strings
** into one emitter (counting), count them into cnt[i], or write them at
** off[i] (listing, once the counts are scanned). */
template <class E>
struct wm_mw_into {
    E &emit;
    template <class S>
    __device__ void at(const S &sc, const typename S::lane_t &l, uint2 u, uint32_t j, uint64_t e,
                       uint32_t flag, const wm_cu_mtext_t &t, const uint8_t *s, uint32_t) {
        sc.visit(l, u, j, e, flag, t, s, emit);
    }
};
struct wm_mw_count_each {
    uint32_t *cnt;
    template <class S>
    __device__ void at(const S &sc, const typename S::lane_t &l, uint2 u, uint32_t j, uint64_t e,
                       uint32_t flag, const wm_cu_mtext_t &t, const uint8_t *s, uint32_t i) {
        wm_emit_count ec = { 0 };
        sc.visit(l, u, j, e, flag, t, s, ec);
        cnt[i] = ec.n;
    }
};
struct wm_mw_write_each {
    const uint32_t *off;
    wm_mhit32_t *hits;
    template <class S>
    __device__ void at(const S &sc, const typename S::lane_t &l, uint2 u, uint32_t j, uint64_t e,
                       uint32_t flag, const wm_cu_mtext_t &t, const uint8_t *s, uint32_t i) {
        wm_emit_write w = { hits + off[i] };
        sc.visit(l, u, j, e, flag, t, s, w);
    }
};

/* Queue the candidate ends of the warp's step in end order, (flag, the
** end's place in the step) at the lanes' prefix sums; returns how many. */
__device__ __forceinline__ uint32_t wm_mw_queue(uint32_t hits, uint32_t lane, uint32_t *stage) {
    uint32_t mine = __popc(hits & 0xffffu), incl = wm_mw_scan(mine, lane);
    uint32_t k = incl - mine;
    WM_MW_EACH(j, hits & 0xffffu) stage[k++] = (hits >> (31 - j) & 1) << 9 | (16 * lane + j);
    __syncwarp();
    return __shfl_sync(WM_MW_FULL, incl, 31);
}

/* The n queued candidates, 32 at a time wherever they lie: each lane takes
** one and gets its owner's bytes by shuffles, so a lane with many
** candidates no longer keeps the others waiting (a DNA stretch of a mixed
** text makes half its ends candidates of short signatures). */
template <class S, class P>
__device__ __forceinline__ void wm_mw_queued(const S &sc, const typename S::lane_t &cur, uint2 up,
                                             uint32_t n, uint64_t at, const wm_cu_mtext_t &t,
                                             const uint8_t *s, uint32_t lane, const uint32_t *stage,
                                             P &pol) {
    uint64_t step = at - 16 * lane;
    for (uint32_t b = 0; b < n; b += 32) {
        uint32_t i = b + lane, c = i < n ? stage[i] : 0, place = c & 511;
        typename S::lane_t l = sc.from(cur, place >> 4);
        uint2 u = make_uint2(__shfl_sync(WM_MW_FULL, up.x, place >> 4),
                             __shfl_sync(WM_MW_FULL, up.y, place >> 4));
        if (i < n) pol.at(sc, l, u, place & 15, step + place + 1, c >> 9, t, s, i);
    }
    __syncwarp(); /* the queue is read before the next step fills it */
}

/* Every candidate of the step into one emitter (the counting modes). */
template <class S, class E>
__device__ __forceinline__ void wm_mw_visit_warp(const S &sc, const typename S::lane_t &cur,
                                                 uint2 up, uint32_t hits, uint64_t at,
                                                 const wm_cu_mtext_t &t, const uint8_t *s,
                                                 uint32_t lane, uint32_t *stage, E &emit) {
    uint32_t n = wm_mw_queue(hits, lane, stage);
    wm_mw_into<E> pol = { emit };
    if (n) wm_mw_queued(sc, cur, up, n, at, t, s, lane, stage, pol);
}

/* Write a step's hits after the `before` its chunk already wrote, in end
** order; returns the step's hits. The queued candidates are counted one
** each, the counts scanned into offsets (the second half of the warp's
** stage), and the candidates visited again to write. */
template <class S>
__device__ __forceinline__ uint32_t wm_mw_write_queued(const S &sc, const typename S::lane_t &cur,
                                                       uint2 up, uint32_t hits, uint64_t at,
                                                       const wm_cu_mtext_t &t,
                                                       const wm_cu_mout_t &o,
                                                       unsigned long long before, const uint8_t *s,
                                                       uint32_t lane, uint32_t *stage) {
    uint32_t n = wm_mw_queue(hits, lane, stage), *cnt = stage + WM_MW_SEG;
    if (n == 0) return 0;
    wm_mw_count_each counting = { cnt };
    wm_mw_queued(sc, cur, up, n, at, t, s, lane, stage, counting);
    uint32_t run = 0; /* exclusive offsets in place, 32 at a time */
    for (uint32_t b = 0; b < n; b += 32) {
        uint32_t i = b + lane, x = i < n ? cnt[i] : 0, incl = wm_mw_scan(x, lane);
        if (i < n) cnt[i] = run + incl - x;
        run += __shfl_sync(WM_MW_FULL, incl, 31);
    }
    __syncwarp();
    wm_mw_write_each writing = { cnt, o.hits + before };
    wm_mw_queued(sc, cur, up, n, at, t, s, lane, stage, writing);
    return run;
}

/* Exact scanners (one string a candidate): write a step's hits after the
** `before` its chunk already wrote; returns the step's hits. */
template <class S>
__device__ __forceinline__ uint32_t wm_mw_write(const S &sc, const typename S::lane_t &cur,
                                                uint2 up, uint32_t hits, uint64_t at,
                                                const wm_cu_mout_t &o, unsigned long long before,
                                                const uint8_t *s, uint32_t lane, uint32_t *stage) {
    uint32_t mine = __popc(hits & 0xffffu), incl = wm_mw_scan(mine, lane);
    uint32_t step_hits = __shfl_sync(WM_MW_FULL, incl, 31);
    /* (the end's place in the step, the key) at the lane's prefix sum, then
    ** 32 consecutive hits a store: a lane writing its own would scatter
    ** 8-byte stores over the step's range */
    uint32_t k = incl - mine;
    uint32_t kup = sc.keep(up), kmine = sc.keep(sc.carry(cur));
    WM_MW_EACH(j, hits & 0xffffu) stage[k++] = (16 * lane + j) << 16 | sc.key(kup, kmine, j);
    __syncwarp();
    uint64_t step = at - 16 * lane;
    for (uint32_t i = lane; i < step_hits; i += 32) {
        uint32_t e = stage[i];
        *(uint2 *)(o.hits + before + i) =
            make_uint2((uint32_t)step + (e >> 16) + 1, sc.uid(e & 0xffffu, s));
    }
    __syncwarp(); /* the stage is read before the next step fills it */
    return step_hits;
}

template <class S, int MODE, int SUMS, int EXACT>
__global__ void __launch_bounds__(WM_MW_THREADS, S::min_blocks)
    wm_mw_kernel(S sc, wm_cu_mtext_t t, wm_cu_mout_t o, uint64_t n_chunks) {
    extern __shared__ __align__(16) uint8_t smem[];
    sc.setup(smem);
    __syncthreads();
    uint32_t *stage = (uint32_t *)(smem + ((sc.tables + 15) & ~15u)) +
                      (threadIdx.x / 32) * WM_MW_STAGE_WORDS(MODE, EXACT);
    const uint32_t lane = threadIdx.x & 31;
    const uint64_t n = t.n;
    unsigned long long total = 0;
    uint64_t warps = (uint64_t)gridDim.x * WM_MW_WARPS;
    for (uint64_t chunk = (uint64_t)blockIdx.x * WM_MW_WARPS + threadIdx.x / 32; chunk < n_chunks;
         chunk += warps) {
        uint64_t c0 = chunk * WM_MW_CHUNK, c1 = c0 + WM_MW_CHUNK < n ? c0 + WM_MW_CHUNK : n;
        uint2 prev = c0 > 0 ? sc.carry(sc.decode(__ldg((const uint4 *)(t.text + c0 - 16)), smem))
                            : sc.nothing();
        unsigned long long before = MODE == WM_MM_WRITE ? o.block_off[chunk] : 0;
        uint32_t found = 0; /* COUNT: this lane's hits in the chunk */
        uint64_t at = c0 + 16 * lane;
        uint4 v = make_uint4(0, 0, 0, 0);
        if (at < n) v = __ldg((const uint4 *)(t.text + at));
        for (uint64_t step = c0; step < c1; step += WM_MW_SEG, at += WM_MW_SEG) {
            uint4 next = make_uint4(0, 0, 0, 0);
            if (at + WM_MW_SEG < n && step + WM_MW_SEG < c1)
                next = __ldg((const uint4 *)(t.text + at + WM_MW_SEG));
            uint2 up, mine_c;
            typename S::lane_t cur = wm_mw_take(sc, v, smem, lane, prev, up, mine_c);
            v = next;
            uint32_t ok = sc.ok(cur, up) & wm_mw_own(at, t.own_from, n);
            uint32_t hits = SUMS ? 0 : sc.hits(cur, up, ok, smem);
            if (SUMS) {
                total += sc.sum(cur, up, ok, smem);
            } else if (MODE == WM_MM_WRITE && EXACT) {
                before += wm_mw_write(sc, cur, up, hits, at, o, before, smem, lane, stage);
            } else if (MODE == WM_MM_WRITE) {
                before +=
                    wm_mw_write_queued(sc, cur, up, hits, at, t, o, before, smem, lane, stage);
            } else if (MODE == WM_MM_COUNT && EXACT) {
                found += __popc(hits & 0xffffu);
            } else if (MODE == WM_MM_COUNT) {
                wm_emit_count ec = { 0 };
                wm_mw_visit_warp(sc, cur, up, hits, at, t, smem, lane, stage, ec);
                found += ec.n;
            } else if (MODE == WM_MM_TOTAL) {
                wm_emit_total et = { 0, sc.p.umult };
                wm_mw_visit_warp(sc, cur, up, hits, at, t, smem, lane, stage, et);
                total += et.n;
            } else if (EXACT) {
                WM_MW_EACH(j, hits & 0xffffu)
                atomicAdd(o.uid_counts +
                              sc.uid(sc.key(sc.keep(up), sc.keep(sc.carry(cur)), j), smem),
                          1ull);
            } else {
                wm_mw_emit_uid eu = { o.uid_counts };
                wm_mw_visit_warp(sc, cur, up, hits, at, t, smem, lane, stage, eu);
            }
        }
        if (MODE == WM_MM_COUNT) {
            unsigned long long sum = found;
#pragma unroll
            for (int d = 16; d > 0; d >>= 1) sum += __shfl_down_sync(WM_MW_FULL, sum, d);
            if (lane == 0) o.block_counts[chunk] = sum;
        }
    }
    if (MODE == WM_MM_TOTAL) {
#pragma unroll
        for (int d = 16; d > 0; d >>= 1) total += __shfl_down_sync(WM_MW_FULL, total, d);
        if (lane == 0 && total) atomicAdd(o.total, total);
    }
}

/* ---- one pass: WM_MM_LIST ---------------------------------------------------- */

#define WM_MW_LSTEPS (WM_CU_LIST_CHUNK / WM_MW_SEG) /* a chunk's steps, kept in registers */
#ifndef WM_MW_LIST_BLOCKS
#define WM_MW_LIST_BLOCKS 3 /* blocks an SM holds: 40 registers a thread, no spills at 4 steps */
#endif

/* Chunk c's count out, and the hits of the chunks before it in: their
** status words 32 at a time, newest first, until one holds an inclusive
** count. Every chunk before c took its ticket earlier and publishes its
** count without waiting on anything, so the spin ends. */
__device__ __forceinline__ unsigned long long
wm_mw_look_back(unsigned long long *status, uint64_t c, unsigned long long count, uint32_t lane) {
    volatile unsigned long long *st = status;
    if (lane == 0) st[c] = (c == 0 ? WM_CU_LIST_INC : WM_CU_LIST_AGG) | count;
    unsigned long long before = 0;
    for (int64_t at = (int64_t)c - 1; at >= 0; at -= 32) {
        int64_t i = at - (int64_t)lane;
        unsigned long long v;
        do v = i >= 0 ? st[i] : WM_CU_LIST_INC; /* before chunk 0: nothing */
        while (!__all_sync(WM_MW_FULL, v >> 62 != 0));
        uint32_t inc = __ballot_sync(WM_MW_FULL, v >> 62 == 2);
        uint32_t stop = inc ? __ffs(inc) - 1 : 31; /* the newest inclusive one */
        unsigned long long x = lane <= stop ? v & WM_CU_LIST_VALUE : 0;
#pragma unroll
        for (int d = 16; d > 0; d >>= 1) x += __shfl_xor_sync(WM_MW_FULL, x, d);
        before += x;
        if (inc) break;
    }
    if (lane == 0 && c > 0) st[c] = WM_CU_LIST_INC | (before + count);
    return before;
}

template <class S>
__global__ void __launch_bounds__(WM_MW_THREADS, WM_MW_LIST_BLOCKS)
    wm_mw_list_kernel(S sc, wm_cu_mtext_t t, wm_cu_mout_t o, uint64_t n_chunks) {
    extern __shared__ __align__(16) uint8_t smem[];
    sc.setup(smem);
    __syncthreads();
    uint32_t *stage =
        (uint32_t *)(smem + ((sc.tables + 15) & ~15u)) + (threadIdx.x / 32) * WM_MW_SEG;
    const uint32_t lane = threadIdx.x & 31;
    const uint64_t n = t.n;
    for (;;) {
        uint32_t ticket = 0;
        if (lane == 0) ticket = atomicAdd(o.ticket, 1u);
        uint64_t chunk = __shfl_sync(WM_MW_FULL, ticket, 0);
        if (chunk >= n_chunks) break;
        uint64_t c0 = chunk * WM_CU_LIST_CHUNK;
        uint2 prev = c0 > 0 ? sc.carry(sc.decode(__ldg((const uint4 *)(t.text + c0 - 16)), smem))
                            : sc.nothing();
        uint32_t kept_in = sc.keep(prev); /* lane 0's up at the chunk's first step */
        uint32_t kept[WM_MW_LSTEPS], hm[WM_MW_LSTEPS], found = 0;
        uint64_t at = c0 + 16 * lane;
        uint4 v = make_uint4(0, 0, 0, 0);
        if (at < n) v = __ldg((const uint4 *)(t.text + at));
#pragma unroll
        for (int s = 0; s < WM_MW_LSTEPS; s++, at += WM_MW_SEG) {
            uint4 next = make_uint4(0, 0, 0, 0);
            if (s + 1 < WM_MW_LSTEPS && at + WM_MW_SEG < n)
                next = __ldg((const uint4 *)(t.text + at + WM_MW_SEG));
            uint2 up, mine_c;
            typename S::lane_t cur = wm_mw_take(sc, v, smem, lane, prev, up, mine_c);
            v = next;
            uint32_t ok = sc.ok(cur, up) & wm_mw_own(at, t.own_from, n);
            hm[s] = sc.hits(cur, up, ok, smem) & 0xffffu;
            kept[s] = sc.keep(mine_c);
            found += __popc(hm[s]);
        }
        unsigned long long sum = found;
#pragma unroll
        for (int d = 16; d > 0; d >>= 1) sum += __shfl_xor_sync(WM_MW_FULL, sum, d);
        unsigned long long before = wm_mw_look_back(o.status, chunk, sum, lane);
        if (sum == 0) continue;
#pragma unroll
        for (int s = 0; s < WM_MW_LSTEPS; s++) {
            uint32_t last = __shfl_sync(WM_MW_FULL, s ? kept[s - 1] : kept_in, 31);
            uint32_t kup = __shfl_up_sync(WM_MW_FULL, kept[s], 1);
            if (s == 0 && lane == 0) kup = kept_in;
            else if (lane == 0) kup = last;
            uint32_t mine = __popc(hm[s]), incl = wm_mw_scan(mine, lane);
            uint32_t step_hits = __shfl_sync(WM_MW_FULL, incl, 31);
            if (step_hits == 0) continue;
            uint32_t k = incl - mine;
            WM_MW_EACH(j, hm[s]) stage[k++] = (16 * lane + j) << 16 | sc.key(kup, kept[s], j);
            __syncwarp();
            uint32_t step = (uint32_t)c0 + s * WM_MW_SEG; /* batches span under 4 GiB */
            for (uint32_t i = lane; i < step_hits; i += 32) {
                uint32_t e = stage[i];
                if (before + i < o.cap)
                    *(uint2 *)(o.hits + before + i) =
                        make_uint2(step + (e >> 16) + 1, sc.uid(e & 0xffffu, smem));
            }
            __syncwarp(); /* the stage is read before the next step fills it */
            before += step_hits;
        }
    }
}

template <class S, int MODE, int SUMS, int EXACT>
static cudaError_t wm_mw_launch_one(const S &sc, const wm_cu_mtext_t &t, const wm_cu_mout_t &o,
                                    cudaStream_t s, uint64_t n_chunks) {
    size_t smem = (sc.tables + 15) & ~(size_t)15;
    if (!SUMS) smem += (size_t)WM_MW_WARPS * WM_MW_STAGE_WORDS(MODE, EXACT) * sizeof(uint32_t);
    const void *k = (const void *)wm_mw_kernel<S, MODE, SUMS, EXACT>;
    int dev = 0, sms = 1, occ = 1;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess) e = wm_cu_allow_smem(k, smem);
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, wm_mw_kernel<S, MODE, SUMS, EXACT>,
                                                          WM_MW_THREADS, smem);
    if (e != cudaSuccess) return e;
    uint64_t grid = (uint64_t)sms * (occ > 0 ? occ : 1);
    uint64_t need = (n_chunks + WM_MW_WARPS - 1) / WM_MW_WARPS;
    if (grid > need) grid = need;
    wm_mw_kernel<S, MODE, SUMS, EXACT>
        <<<(unsigned)grid, WM_MW_THREADS, smem, s>>>(sc, t, o, n_chunks);
    /* a launch that failed must not pass for a batch without matches */
    return cudaGetLastError();
}

/* The one pass over a batch: exact scanners only (else
** cudaErrorNotSupported), o.status and o.ticket zeroed for
** ceil(n / WM_CU_LIST_CHUNK) chunks. */
template <class S>
static cudaError_t wm_mw_launch_list(const S &sc, const wm_cu_mtext_t &t, const wm_cu_mout_t &o,
                                     cudaStream_t s) {
    if (!S::may_be_exact || !sc.exact) return cudaErrorNotSupported;
    uint64_t n_chunks = (t.n + WM_CU_LIST_CHUNK - 1) / WM_CU_LIST_CHUNK;
    if (n_chunks == 0) return cudaSuccess;
    size_t smem = ((sc.tables + 15) & ~(size_t)15) + (size_t)WM_MW_WARPS * WM_MW_SEG * 4;
    const void *k = (const void *)wm_mw_list_kernel<S>;
    int dev = 0, sms = 1, occ = 1;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess) e = wm_cu_allow_smem(k, smem);
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, wm_mw_list_kernel<S>, WM_MW_THREADS,
                                                          smem);
    if (e != cudaSuccess) return e;
    /* blocks an SM holds, the chunks taken by tickets: a look-back waits
    ** only on chunks whose warps took theirs first and are running */
    uint64_t grid = (uint64_t)sms * (occ > 0 ? occ : 1);
    uint64_t need = (n_chunks + WM_MW_WARPS - 1) / WM_MW_WARPS;
    if (grid > need) grid = need;
    wm_mw_list_kernel<S><<<(unsigned)grid, WM_MW_THREADS, smem, s>>>(sc, t, o, n_chunks);
    return cudaGetLastError();
}

/* Launch one mode of a Scanner over a batch (mode < 0: only size it; the
** text must be 16-byte aligned); *blocks = chunks. With SUMS, TOTAL counts
** from the scanner's sum(). */
template <class S, int SUMS>
static cudaError_t wm_mw_launch(const S &sc, int mode, const wm_cu_mtext_t &t,
                                const wm_cu_mout_t &o, cudaStream_t s, uint64_t *blocks) {
    uint64_t n_chunks = (t.n + WM_MW_CHUNK - 1) / WM_MW_CHUNK;
    *blocks = n_chunks;
    if (mode == WM_MM_LIST) return wm_mw_launch_list(sc, t, o, s);
    if (n_chunks == 0 || mode < 0) return cudaSuccess;
    if (mode == WM_MM_TOTAL)
        return wm_mw_launch_one<S, WM_MM_TOTAL, SUMS, 0>(sc, t, o, s, n_chunks);
    /* exact scanners count and write without visits: their own kernels */
    if (S::may_be_exact && sc.exact) {
        switch (mode) {
        case WM_MM_COUNT: return wm_mw_launch_one<S, WM_MM_COUNT, 0, 1>(sc, t, o, s, n_chunks);
        case WM_MM_WRITE: return wm_mw_launch_one<S, WM_MM_WRITE, 0, 1>(sc, t, o, s, n_chunks);
        default: return wm_mw_launch_one<S, WM_MM_UID, 0, 1>(sc, t, o, s, n_chunks);
        }
    }
    switch (mode) {
    case WM_MM_COUNT: return wm_mw_launch_one<S, WM_MM_COUNT, 0, 0>(sc, t, o, s, n_chunks);
    case WM_MM_WRITE: return wm_mw_launch_one<S, WM_MM_WRITE, 0, 0>(sc, t, o, s, n_chunks);
    default: return wm_mw_launch_one<S, WM_MM_UID, 0, 0>(sc, t, o, s, n_chunks);
    }
}

#endif
