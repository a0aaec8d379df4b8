/*
** qgram_dna.cu -- the q-gram index of a DNA set with q <= 8 at the device's
** memory speed (issue 23, item 2).
**
** The general kernel (qgram.cu) stages tiles of text in shared memory behind
** barriers and looks up every byte's symbol in a table; it counted 1 GiB at
** 0.38 TB/s. Here nothing but the set's table sits in shared memory:
**   - a warp reads 512 bytes with one 16-byte load a lane, straight from
**     global memory into registers, the next 512 already in flight;
**   - a lane turns its 16 bytes into 16 two-bit codes in one word by
**     arithmetic ((c >> 1 ^ c >> 2) & 3 is the code of A C G T in either
**     case) and checks with two byte permutes that all were bases; a word
**     that holds anything else (N, U, a byte the set's fold does not take)
**     goes through the symbol table instead;
**   - the 8 symbols before its first end come from the lane before
**     (a shuffle), so the code of every end is one funnel shift of two
**     words, and one shared-memory load answers it.
** The table: for counting a set whose strings are all q long, the number
** of matches of each code (4^q bytes, one load, one add an end); otherwise
** a bitmap of the codes some string ends with (4^q bits), and where it is
** set the strings are looked up: through a code -> uid table when every
** code is one string, else the buckets (qgram_verify.cuh).
**
** Order. A warp owns chunks of QD_CHUNK bytes, one at a time; its segments
** run in order and lane i's ends precede lane i + 1's, so a chunk's hits
** come out in end order. Listing counts hits per chunk (WM_MM_COUNT), the
** caller scans the counts, and WM_MM_WRITE puts each segment's hits at the
** chunk's offset plus a warp-wide prefix sum: a list in end order, no sort.
*/
#include "multi/mcuda.h"
#include "multi/qgram_verify.cuh"

#define QD_THREADS 512
#define QD_WARPS (QD_THREADS / 32)
#define QD_SEG 512u             /* bytes a warp takes a step: 16 a lane */
#define QD_CHUNK (32u * QD_SEG) /* bytes a warp owns at once */
#define QD_FULL 0xffffffffu

typedef struct {
    wm_cu_mplan_t p;
    uint32_t counts;    /* the table is matches per code (u8), else a bitmap */
    uint32_t cmask;     /* 4^q - 1 */
    uint32_t tab_words; /* 32-bit words of the table */
} qd_args_t;

/* Four text bytes (byte 0 first) as four 2-bit codes in one byte, the first
** in the top bits; bad gets bit 3 - k when byte k is no base. */
__device__ __forceinline__ uint32_t qd_word(uint32_t w, uint32_t fast, const uint8_t *s_sym,
                                            uint32_t &bad) {
    uint32_t t = ((w >> 1) ^ (w >> 2)) & 0x03030303u;
    /* the byte each code stands for, to see that w holds nothing else */
    uint32_t x = t | (t >> 4);
    uint32_t sel = __byte_perm(x, 0, 0x4420); /* nibble k = code of byte k */
    uint32_t canon = __byte_perm(fast == 2 ? 0x74676361u : 0x54474341u, 0, sel);
    uint32_t seen = fast == 2 ? (w | 0x20202020u) : w;
    if (fast && seen == canon) {
        bad = 0;
        /* codes at bits 0, 8, 16, 24 to bits 30, 28, 26, 24: no carries */
        return (t * 0x40100401u) >> 24;
    }
    uint32_t packed = 0;
    bad = 0;
#pragma unroll
    for (int k = 0; k < 4; k++) {
        uint32_t a = s_sym[(w >> (8 * k)) & 0xffu];
        packed = packed << 2 | (a & 3u);
        bad = bad << 1 | (a >= 4u);
    }
    return packed;
}

/* 16 bytes: the codes with byte 0's in bits 31-30, and bit 15 - k of *bad
** set when byte k is no base. */
__device__ __forceinline__ uint32_t qd_decode(uint4 v, uint32_t fast, const uint8_t *s_sym,
                                              uint32_t *bad) {
    uint32_t b0, b1, b2, b3;
    uint32_t c = qd_word(v.x, fast, s_sym, b0) << 24 | qd_word(v.y, fast, s_sym, b1) << 16 |
                 qd_word(v.z, fast, s_sym, b2) << 8 | qd_word(v.w, fast, s_sym, b3);
    *bad = b0 << 12 | b1 << 8 | b2 << 4 | b3;
    return c;
}

/* The code of the q-gram ending at byte j of a lane's 16, from the lane's
** codes (low word) and the 16 before them (high word). */
__device__ __forceinline__ uint32_t qd_code(uint64_t c, uint32_t j, uint32_t cmask) {
    return (uint32_t)(c >> (30 - 2 * j)) & cmask;
}

/* Reporting: put(e, uid) as mkernel.cuh's emitters, one per mode. */
struct qd_emit_uid {
    unsigned long long *counts;
    __device__ void put(uint64_t, uint32_t u) { atomicAdd(counts + u, 1ull); }
};

/* The hits of a lane's ends in `hits` (bit 15 - j: end j's q-gram is in the
** bitmap): one each when every code is one string, else what the buckets
** hold. */
__device__ __forceinline__ uint32_t qd_hits(const wm_cu_mplan_t &p, const wm_cu_mtext_t &t,
                                            uint64_t c, uint32_t cmask, uint64_t at,
                                            uint32_t hits) {
    if (p.code_uid) return __popc(hits);
    wm_emit_count ec = { 0 };
    for (uint32_t h = hits; h; h &= ~(0x8000u >> (__clz(h) - 16))) {
        uint32_t j = __clz(h) - 16;
        wm_cu_qgram_verify(p, t, at + j + 1, qd_code(c, j, cmask), ec);
    }
    return ec.n;
}

/* Write a segment's hits, `mine` of them this lane's, after the `before`
** the warp's chunk already wrote; returns the segment's hits. When every
** code is one string the lanes first put their hits (the end's place in
** the segment, the code) in the warp's stage in shared memory at their
** prefix sum, then the warp writes them out 32 consecutive hits at a time:
** one 512-byte store, where a lane writing its own hits would scatter
** 16-byte stores over the segment's range. */
__device__ __forceinline__ uint32_t qd_write(const wm_cu_mplan_t &p, const wm_cu_mtext_t &t,
                                             const wm_cu_mout_t &o, uint64_t c, uint32_t cmask,
                                             uint64_t at, uint32_t hits, uint32_t mine,
                                             unsigned long long before, uint32_t lane,
                                             uint32_t *stage) {
    uint32_t incl = mine;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        uint32_t y = __shfl_up_sync(QD_FULL, incl, d);
        if ((int)lane >= d) incl += y;
    }
    uint32_t seg_hits = __shfl_sync(QD_FULL, incl, 31);
    if (!p.code_uid) {
        wm_emit_write w = { o.hits + before + (incl - mine), o.base };
        for (uint32_t h = hits; h; h &= ~(0x8000u >> (__clz(h) - 16))) {
            uint32_t j = __clz(h) - 16;
            wm_cu_qgram_verify(p, t, at + j + 1, qd_code(c, j, cmask), w);
        }
        return seg_hits;
    }
    uint32_t k = incl - mine;
    for (uint32_t h = hits; h; h &= ~(0x8000u >> (__clz(h) - 16))) {
        uint32_t j = __clz(h) - 16;
        stage[k++] = (16 * lane + j) << 16 | qd_code(c, j, cmask);
    }
    __syncwarp();
    uint64_t seg = at - 16 * lane;
    for (uint32_t i = lane; i < seg_hits; i += 32) {
        uint32_t e = stage[i];
        wm_mhit_t hit;
        hit.end = o.base + seg + (e >> 16) + 1;
        hit.uid = __ldg(p.code_uid + (e & 0xffffu));
        hit.pad_ = 0;
        o.hits[before + i] = hit;
    }
    __syncwarp(); /* the stage is read before the next segment fills it */
    return seg_hits;
}

/* TOTAL from the bitmap (multiplicities too large for the u8 table) and
** per-string counts: every string of a hit looked up. */
template <int MODE>
__device__ __forceinline__ void qd_lookup(const wm_cu_mplan_t &p, const wm_cu_mtext_t &t,
                                          const wm_cu_mout_t &o, uint64_t c, uint32_t cmask,
                                          uint64_t at, uint32_t hits, unsigned long long *total) {
    for (uint32_t h = hits; h; h &= ~(0x8000u >> (__clz(h) - 16))) {
        uint32_t j = __clz(h) - 16, x = qd_code(c, j, cmask);
        if (MODE == WM_MM_TOTAL) {
            wm_emit_total et = { 0, p.umult };
            wm_cu_qgram_verify(p, t, at + j + 1, x, et);
            *total += et.n;
        } else if (p.code_uid) {
            atomicAdd(o.uid_counts + __ldg(p.code_uid + x), 1ull);
        } else {
            qd_emit_uid eu = { o.uid_counts };
            wm_cu_qgram_verify(p, t, at + j + 1, x, eu);
        }
    }
}

template <int MODE, int COUNTS>
__global__ void __launch_bounds__(QD_THREADS)
    qd_kernel(qd_args_t a, wm_cu_mtext_t t, wm_cu_mout_t o, uint64_t n_chunks) {
    extern __shared__ __align__(16) uint8_t smem[];
    const wm_cu_mplan_t &p = a.p;
    uint8_t *s_sym = smem;
    uint32_t *s_tab = (uint32_t *)(smem + 256);
    for (uint32_t i = threadIdx.x; i < 64; i += QD_THREADS)
        ((uint32_t *)s_sym)[i] = ((const uint32_t *)p.sym)[i];
    const uint32_t *tab = COUNTS ? (const uint32_t *)p.code_mult : p.bitmap;
    for (uint32_t i = threadIdx.x; i < a.tab_words; i += QD_THREADS) s_tab[i] = __ldg(tab + i);
    __syncthreads();
    const uint8_t *s_cm = (const uint8_t *)s_tab;
    /* WRITE: a stage of one segment's hits per warp (qd_write) */
    uint32_t *s_stage = s_tab + ((a.tab_words + 3) & ~3u);

    const uint32_t lane = threadIdx.x & 31, q = p.q, cmask = a.cmask, fast = p.qg_fast;
    const uint64_t n = t.n, own_from = t.own_from;
    /* the bad-byte bits a lane's ends look at: its 16 and the q - 1 before */
    const uint32_t window = (1u << (15 + q)) - 1;
    unsigned long long total = 0;
    uint64_t warps = (uint64_t)gridDim.x * QD_WARPS;
    for (uint64_t chunk = (uint64_t)blockIdx.x * QD_WARPS + threadIdx.x / 32; chunk < n_chunks;
         chunk += warps) {
        uint64_t c0 = chunk * QD_CHUNK, c1 = c0 + QD_CHUNK < n ? c0 + QD_CHUNK : n;
        /* the 16 bytes before the chunk (every lane the same: one load);
        ** before the batch nothing is a base */
        uint32_t prev = 0, prev_bad = 0xffffu;
        if (c0 > 0)
            prev = qd_decode(__ldg((const uint4 *)(t.text + c0 - 16)), fast, s_sym, &prev_bad);
        unsigned long long before = 0; /* WRITE: hits of this chunk so far */
        uint32_t found = 0;            /* COUNT: this lane's hits in the chunk */
        if (MODE == WM_MM_WRITE) before = o.block_off[chunk];
        uint64_t at = c0 + 16 * lane;
        uint4 v = make_uint4(0, 0, 0, 0);
        if (at < n) v = __ldg((const uint4 *)(t.text + at));
        for (uint64_t seg = c0; seg < c1; seg += QD_SEG, at += QD_SEG) {
            uint4 next = make_uint4(0, 0, 0, 0);
            if (at + QD_SEG < n && seg + QD_SEG < c1)
                next = __ldg((const uint4 *)(t.text + at + QD_SEG));
            uint32_t bad, codes = qd_decode(v, fast, s_sym, &bad);
            uint32_t up = __shfl_up_sync(QD_FULL, codes, 1),
                     up_bad = __shfl_up_sync(QD_FULL, bad, 1);
            if (lane == 0) {
                up = prev;
                up_bad = prev_bad;
            }
            prev = __shfl_sync(QD_FULL, codes, 31);
            prev_bad = __shfl_sync(QD_FULL, bad, 31);
            v = next;
            uint64_t c = (uint64_t)up << 32 | codes;
            /* ok: bit 15 - j when end j is owned and its q-gram all bases */
            uint32_t ok = 0xffffu, bw = up_bad << 16 | bad;
            if (bw & window) {
                uint32_t spread = bw;
                for (uint32_t i = 1; i < q; i++) spread |= bw >> i;
                ok = ~spread & 0xffffu;
            }
            if (at < own_from || at + 16 > n) {
                uint64_t jlo = own_from > at ? own_from - at : 0, jhi = n > at ? n - at : 0;
                if (jlo > 16) jlo = 16;
                if (jhi > 16) jhi = 16;
                uint32_t own = jhi > jlo ? ((1u << (jhi - jlo)) - 1) << (16 - jhi) : 0;
                ok &= own;
            }
            if (MODE == WM_MM_TOTAL && COUNTS) {
                uint32_t sum = 0;
                if (ok == 0xffffu) {
#pragma unroll
                    for (uint32_t j = 0; j < 16; j++) sum += s_cm[qd_code(c, j, cmask)];
                } else {
#pragma unroll
                    for (uint32_t j = 0; j < 16; j++)
                        if ((ok >> (15 - j)) & 1) sum += s_cm[qd_code(c, j, cmask)];
                }
                total += sum;
            } else {
                uint32_t hits = 0;
#pragma unroll
                for (uint32_t j = 0; j < 16; j++) {
                    uint32_t x = qd_code(c, j, cmask);
                    hits |= ((s_tab[x >> 5] >> (x & 31)) & 1u) << (15 - j);
                }
                hits &= ok;
                if (MODE == WM_MM_COUNT || MODE == WM_MM_WRITE) {
                    uint32_t mine = qd_hits(p, t, c, cmask, at, hits);
                    if (MODE == WM_MM_COUNT) found += mine;
                    else
                        before += qd_write(p, t, o, c, cmask, at, hits, mine, before, lane,
                                           s_stage + (threadIdx.x / 32) * QD_SEG);
                } else {
                    qd_lookup<MODE>(p, t, o, c, cmask, at, hits, &total);
                }
            }
        }
        if (MODE == WM_MM_COUNT) {
            unsigned long long sum = found;
#pragma unroll
            for (int d = 16; d > 0; d >>= 1) sum += __shfl_down_sync(QD_FULL, sum, d);
            if (lane == 0) o.block_counts[chunk] = sum;
        }
    }
    if (MODE == WM_MM_TOTAL) {
#pragma unroll
        for (int d = 16; d > 0; d >>= 1) total += __shfl_down_sync(QD_FULL, total, d);
        if (lane == 0 && total) atomicAdd(o.total, total);
    }
}

int wm_cu_qgram_dna_fits(const wm_cu_mplan_t *p, const wm_cu_mtext_t *t) {
    /* 16-byte loads need an aligned text (every batch buffer is) */
    return p->qg_dna && p->qg_direct && p->q <= 8 && ((uintptr_t)t->text & 15) == 0;
}

template <int MODE, int COUNTS>
static cudaError_t qd_launch(const qd_args_t &a, const wm_cu_mtext_t &t, const wm_cu_mout_t &o,
                             cudaStream_t s, uint64_t n_chunks) {
    size_t smem = 256 + (size_t)((a.tab_words + 3) & ~3u) * 4;
    if (MODE == WM_MM_WRITE) smem += (size_t)QD_THREADS * 16 * 4; /* the stage: 16 ends a lane */
    const void *k = (const void *)qd_kernel<MODE, COUNTS>;
    int dev = 0, sms = 1, occ = 1;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess) e = wm_cu_allow_smem(k, smem);
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, qd_kernel<MODE, COUNTS>, QD_THREADS,
                                                          smem);
    if (e != cudaSuccess) return e;
    uint64_t grid = (uint64_t)sms * (occ > 0 ? occ : 1);
    uint64_t need = (n_chunks + QD_WARPS - 1) / QD_WARPS;
    if (grid > need) grid = need;
    qd_kernel<MODE, COUNTS><<<(unsigned)grid, QD_THREADS, smem, s>>>(a, t, o, n_chunks);
    /* a launch that failed must not pass for a batch without matches */
    return cudaGetLastError();
}

cudaError_t wm_cu_qgram_dna_launch(const wm_cu_mplan_t *p, int mode, const wm_cu_mtext_t *t,
                                   const wm_cu_mout_t *o, cudaStream_t s, uint64_t *blocks) {
    uint64_t n_chunks = (t->n + QD_CHUNK - 1) / QD_CHUNK;
    *blocks = n_chunks;
    if (n_chunks == 0 || mode < 0) return cudaSuccess; /* mode < 0: only size it */
    qd_args_t a;
    a.p = *p;
    a.cmask = (1u << (2 * p->q)) - 1;
    a.counts = mode == WM_MM_TOTAL && p->code_mult != NULL;
    uint32_t codes = 1u << (2 * p->q);
    a.tab_words = a.counts ? codes / 4 : (codes + 31) / 32;
    switch (mode) {
    case WM_MM_TOTAL:
        return a.counts ? qd_launch<WM_MM_TOTAL, 1>(a, *t, *o, s, n_chunks)
                        : qd_launch<WM_MM_TOTAL, 0>(a, *t, *o, s, n_chunks);
    case WM_MM_COUNT: return qd_launch<WM_MM_COUNT, 0>(a, *t, *o, s, n_chunks);
    case WM_MM_WRITE: return qd_launch<WM_MM_WRITE, 0>(a, *t, *o, s, n_chunks);
    default: return qd_launch<WM_MM_UID, 0>(a, *t, *o, s, n_chunks);
    }
}
