/*
** mkernel.cuh -- what the GPU set algorithms share: the device view of a
** set (the "mplan"), how a kernel reports (the four modes), shared-memory
** staging of the text, and the block skeleton every set kernel runs.
**
** Ownership. The text is cut into tiles of THREADS * P ends; blocks are
** persistent (as many as fit on the GPU at once, tables copied into shared
** memory once) and walk the tiles. In tile b thread t owns the ends
** (lo, lo + P] in batch-local coordinates, lo = (b * THREADS + t) * P, and
** finds every occurrence ending there, in end order. Owned ranges are
** contiguous and ordered by thread, then tile, so writing hits needs no sort:
**   WM_MM_COUNT   per-tile hit counts (to size and place the output),
**   WM_MM_WRITE   count again, block-wide exclusive scan, then write each
**                 hit at tile offset + thread offset: the list comes out
**                 in end order,
**   WM_MM_TOTAL   the number of matches (hits weighted by how many pattern
**                 ids each string stands for), one atomic per block,
**   WM_MM_UID     per-string counts (atomics in global memory).
** Ends <= own_from or > n, and occurrences that would start before the
** batch, are never reported: the batch carries its own halo.
*/
#ifndef WM_MULTI_MKERNEL_CUH
#define WM_MULTI_MKERNEL_CUH

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cuda_runtime.h>
#include <stdint.h>

#include "cuda/cuda_common.cuh"
#include "multi/mset.h"
#include "multi/qgram.h"

/* LIST: COUNT and WRITE in one pass, where a kernel can (mwarp.cuh's exact
** scanners; the others answer cudaErrorNotSupported). */
enum { WM_MM_COUNT = 0, WM_MM_WRITE = 1, WM_MM_TOTAL = 2, WM_MM_UID = 3, WM_MM_LIST = 4 };

/* LIST's chunks: WM_CU_LIST_CHUNK bytes of text each, in the order of a
** ticket; status[c] holds chunk c's count with WM_CU_LIST_AGG, or the count
** of chunks 0..c with WM_CU_LIST_INC (the total, for the last chunk). */
#ifndef WM_CU_LIST_CHUNK
#define WM_CU_LIST_CHUNK 2048u /* 4096 at two blocks an SM: 3-8% slower (H100) */
#endif
#define WM_CU_LIST_AGG (1ull << 62)
#define WM_CU_LIST_INC (2ull << 62)
#define WM_CU_LIST_VALUE (WM_CU_LIST_AGG - 1)

/* The set on the device; which tables are set depends on the algorithm. */
typedef struct {
    const uint8_t *sym;    /* 256: text byte -> symbol */
    const uint8_t *fold;   /* 256: text byte -> folded byte */
    const uint32_t *ulen;  /* per uid: length */
    const uint32_t *umult; /* per uid: pattern ids it stands for */
    const uint8_t *ubytes; /* uid strings, folded */
    const uint64_t *uoff;  /* per uid: offset in ubytes */
    uint32_t n_uniq, min_len, max_len, sigma;
    /* qgram (qgram.h) */
    uint32_t q, qg_dna, qg_direct, bitmap_bits, bucket_bits;
    uint64_t code_mask;
    const uint32_t *bitmap; /* as 32-bit words */
    const uint32_t *bucket_off;
    const uint64_t *entry_code;
    const uint32_t *entry_uid;
    const uint8_t *code_mult;  /* direct, all strings q long: matches per
                                 code (<= 255), or NULL */
    const uint16_t *rank_base; /* direct, all strings q long, q <= 8: per
                                  32-bit word of the bitmap, the codes set
                                  before it; or NULL */
    const uint16_t *rank_uid;  /* the uid of each set code, in code order */
    uint32_t qg_fast;          /* DNA: which bytes qgram_dna.cu decodes by
                                 arithmetic: 1 A C G T, 2 also a c g t,
                                 0 none (every byte through sym) */
    /* byte sets: the index by 4 and by 8 bytes (qgram.h's wm_qg_side_t),
    ** side 0 the strings of 4..7 bytes, side 1 the longer; qb_n[0] =
    ** qb_n[1] = 0 when the plan has none */
    uint32_t qb_n[2], qb_bitmap_bits[2], qb_bucket_bits[2];
    const uint32_t *qb_bitmap[2], *qb_off[2];
    const wm_qg_ent_t *qb_ent[2];
    uint32_t qb_fold; /* 0: fold is the identity, 1: A-Z to a-z only, 2: other */
    /* tries (trie.h) */
    const uint32_t *table; /* full form, or NULL */
    const uint32_t *child_off;
    const uint8_t *label;
    const uint32_t *out;
    const uint32_t *fail;
    const uint32_t *dict;
    const uint8_t *reports;
    uint32_t shift;
    /* Wu-Manber, the paper's tables anchored at pattern ends (mset.h) */
    uint32_t wu_B, wu_Bp, wu_n_hash;
    const uint16_t *wu_shift;
    const uint32_t *wu_hstart, *wu_hlist, *wu_prefix;
} wm_cu_mplan_t;

/* Where a launch reports. */
typedef struct {
    unsigned long long *total;           /* TOTAL */
    unsigned long long *uid_counts;      /* UID */
    unsigned long long *block_counts;    /* COUNT: one per block */
    const unsigned long long *block_off; /* WRITE: exclusive scan of counts */
    wm_mhit32_t *hits;                   /* WRITE, LIST: ends local to the batch */
    unsigned long long *status;          /* LIST: a word a chunk, zeroed */
    unsigned int *ticket;                /* LIST: zeroed */
    unsigned long long cap;              /* LIST: hits that fit (the rest are counted) */
} wm_cu_mout_t;

/* A batch: local bytes [0, n) on the device (readable to n + WM_CU_PAD),
** ends (own_from, n] owned. */
typedef struct {
    const uint8_t *text;
    uint64_t n;
    uint64_t own_from;
} wm_cu_mtext_t;

/* The child of trie state v by symbol a in the compact form (siblings are
** consecutive and sorted by label: trie.h), or 0 when there is none. */
__device__ __forceinline__ uint32_t wm_cu_trie_child(const wm_cu_mplan_t &p, uint32_t v,
                                                     uint32_t a) {
    uint32_t lo = __ldg(p.child_off + v), hi = __ldg(p.child_off + v + 1), end = hi;
    while (lo < hi) {
        uint32_t mid = (lo + hi) >> 1;
        if (__ldg(p.label + mid) < a) lo = mid + 1;
        else hi = mid;
    }
    return lo < end && __ldg(p.label + lo) == a ? lo : 0;
}

/* ---- reporting ---------------------------------------------------------------- */

/* put(end, uid) reports one occurrence; a scanner that knows only how many
** matches end somewhere (not which strings) may call add(n) when
** total_only is set. */
struct wm_emit_count {
    static const bool total_only = false;
    uint32_t n;
    __device__ void put(uint64_t, uint32_t) { n++; }
    __device__ void add(uint32_t) {}
};
struct wm_emit_total {
    static const bool total_only = true;
    unsigned long long n;
    const uint32_t *umult;
    __device__ void put(uint64_t, uint32_t u) { n += __ldg(umult + u); }
    __device__ void add(uint32_t m) { n += m; }
};
struct wm_emit_uid {
    static const bool total_only = false;
    unsigned long long *counts;
    __device__ void put(uint64_t, uint32_t u) { atomicAdd(counts + u, 1ull); }
    __device__ void add(uint32_t) {}
};
struct wm_emit_write {
    static const bool total_only = false;
    wm_mhit32_t *p;
    __device__ void add(uint32_t) {}
    __device__ void put(uint64_t e, uint32_t u) {
        *(uint2 *)p++ = make_uint2((uint32_t)e, u); /* batches span under 4 GiB */
    }
};

/* ---- staging ------------------------------------------------------------------ */

/* Copy local bytes [from, from + len) into smem with 16-byte loads; from and
** len are multiples of 16, from may be negative; bytes outside [0, n) read
** as 0 (the kernels never report an occurrence that uses them). */
__device__ __forceinline__ void wm_cu_stage(uint8_t *smem, const uint8_t *text, uint64_t n,
                                            int64_t from, uint32_t len) {
    uint4 *dst = (uint4 *)smem;
    for (uint32_t i = threadIdx.x; i < len / 16; i += blockDim.x) {
        int64_t at = from + 16 * (int64_t)i;
        uint4 v = make_uint4(0, 0, 0, 0);
        if (at >= 0 && (uint64_t)at + 16 <= n) {
            v = __ldg((const uint4 *)(text + at));
        } else if (at >= 0 && (uint64_t)at < n) {
            uint8_t b[16] = { 0 };
            for (uint64_t j = 0; j < 16 && (uint64_t)at + j < n; j++) b[j] = text[at + j];
            memcpy(&v, b, 16);
        }
        dst[i] = v;
    }
}

/* Local byte j of the batch: from the staged tile when the halo is staged or
** j lies in it (j >= s_base), else from global memory (a halo too long to
** stage). */
__device__ __forceinline__ uint8_t wm_cu_text_at(uint32_t staged, const uint8_t *s_text,
                                                 int64_t s_base, const wm_cu_mtext_t &t,
                                                 uint64_t j) {
    return staged || (int64_t)j >= s_base ? s_text[(int64_t)j - s_base] : t.text[j];
}

/* ---- the skeleton ------------------------------------------------------------ */

/* A Scanner provides:
**   static const uint32_t P;       ends per thread
**   wm_cu_mplan_t p;               the set
**   uint32_t halo;                 bytes needed before an end range
**   uint32_t tables;               bytes of shared memory for its tables
**   __device__ void setup(uint8_t *s_tables) const;   copy them (all threads)
**   template <class E> __device__ void scan(const uint8_t *s_tables, const uint8_t *s_text, int64_t s_base,
**        uint64_t lo, uint64_t hi, const wm_cu_mtext_t &t, E &emit) const;
**     reports every occurrence ending in (lo, hi], in end order; s_text holds
**     local bytes from s_base on (lo - halo() and beyond).
*/
template <class Scanner, int MODE, int THREADS>
__global__ void __launch_bounds__(THREADS)
    wm_cu_mkernel(Scanner sc, wm_cu_mtext_t t, wm_cu_mout_t o, uint64_t n_tiles) {
    extern __shared__ __align__(16) uint8_t smem[];
    const uint32_t P = Scanner::P;
    uint32_t tb = (sc.tables + 15) & ~15u;
    uint8_t *s_text = smem + tb;
    uint32_t halo = (sc.halo + 15) & ~15u;
    /* Persistent blocks: the tables are copied in once, then the block
    ** walks tiles of THREADS * P ends. */
    sc.setup(smem);
    const uint8_t *s_tab = smem;
    typedef cub::BlockReduce<unsigned long long, THREADS> R;
    typedef cub::BlockScan<unsigned long long, THREADS> S;
    __shared__ union {
        typename R::TempStorage reduce;
        typename S::TempStorage scan;
    } tmp;
    wm_emit_total em = { 0, sc.p.umult };
    for (uint64_t tile = blockIdx.x; tile < n_tiles; tile += gridDim.x) {
        uint64_t blk_lo = tile * THREADS * P;
        int64_t s_base = (int64_t)blk_lo - halo;
        __syncthreads(); /* the last tile's readers are done */
        wm_cu_stage(s_text, t.text, t.n, s_base, halo + THREADS * P);
        __syncthreads();
        uint64_t lo = blk_lo + (uint64_t)threadIdx.x * P, hi = lo + P;
        if (hi > t.n) hi = t.n;
        if (lo < t.own_from) lo = hi < t.own_from ? hi : t.own_from;
        if (MODE == WM_MM_TOTAL) {
            if (lo < hi) sc.scan(s_tab, s_text, s_base, lo, hi, t, em);
        } else if (MODE == WM_MM_UID) {
            wm_emit_uid eu = { o.uid_counts };
            if (lo < hi) sc.scan(s_tab, s_text, s_base, lo, hi, t, eu);
        } else {
            wm_emit_count c = { 0 };
            if (lo < hi) sc.scan(s_tab, s_text, s_base, lo, hi, t, c);
            if (MODE == WM_MM_COUNT) {
                unsigned long long sum = R(tmp.reduce).Sum((unsigned long long)c.n);
                if (threadIdx.x == 0) o.block_counts[tile] = sum;
            } else {
                unsigned long long before;
                S(tmp.scan).ExclusiveSum((unsigned long long)c.n, before);
                wm_emit_write w = { o.hits + o.block_off[tile] + before };
                if (c.n && lo < hi) sc.scan(s_tab, s_text, s_base, lo, hi, t, w);
            }
        }
    }
    if (MODE == WM_MM_TOTAL) {
        __syncthreads();
        unsigned long long sum = R(tmp.reduce).Sum(em.n);
        if (threadIdx.x == 0 && sum) atomicAdd(o.total, sum);
    }
}

/* Dynamic shared memory of one block of a Scanner. */
template <class Scanner, int THREADS>
static inline size_t wm_cu_mkernel_smem(const Scanner &sc) {
    return ((sc.tables + 15) & ~(size_t)15) + ((sc.halo + 15) & ~(size_t)15) +
           (size_t)THREADS * Scanner::P;
}

/* Launch one mode of a Scanner's kernel over a batch (mode < 0: nothing). */
template <class Scanner, int THREADS>
static cudaError_t wm_cu_mlaunch(const Scanner &sc, int mode, const wm_cu_mtext_t &t,
                                 const wm_cu_mout_t &o, cudaStream_t st) {
    uint64_t span = (uint64_t)THREADS * Scanner::P;
    uint64_t tiles = (t.n + span - 1) / span;
    if (mode == WM_MM_LIST) return cudaErrorNotSupported;
    if (tiles == 0 || mode < 0) return cudaSuccess; /* mode < 0: only size it */
    size_t smem = wm_cu_mkernel_smem<Scanner, THREADS>(sc);
    int dev = 0, sms = 1, occ = 1;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e != cudaSuccess) return e;
#define WM_MLAUNCH(M)                                                                              \
    do {                                                                                           \
        e = wm_cu_allow_smem((const void *)wm_cu_mkernel<Scanner, M, THREADS>, smem);              \
        if (e == cudaSuccess)                                                                      \
            e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(                                     \
                &occ, wm_cu_mkernel<Scanner, M, THREADS>, THREADS, smem);                          \
        if (e == cudaSuccess) {                                                                    \
            uint64_t grid = (uint64_t)sms * (occ > 0 ? occ : 1);                                   \
            if (grid > tiles) grid = tiles;                                                        \
            wm_cu_mkernel<Scanner, M, THREADS>                                                     \
                <<<(unsigned)grid, THREADS, smem, st>>>(sc, t, o, tiles);                          \
            /* a launch that failed (too much shared memory, say) must not */                      \
            /* pass for a batch without matches */                                                 \
            e = cudaGetLastError();                                                                \
        }                                                                                          \
    } while (0)
    switch (mode) {
    case WM_MM_COUNT: WM_MLAUNCH(WM_MM_COUNT); break;
    case WM_MM_WRITE: WM_MLAUNCH(WM_MM_WRITE); break;
    case WM_MM_TOTAL: WM_MLAUNCH(WM_MM_TOTAL); break;
    default: WM_MLAUNCH(WM_MM_UID); break;
    }
#undef WM_MLAUNCH
    return e == cudaSuccess ? cudaGetLastError() : e;
}

/* Tiles a launch over n local bytes has (the size of block_counts). */
template <class Scanner, int THREADS>
static inline uint64_t wm_cu_mblocks(uint64_t n) {
    uint64_t span = (uint64_t)THREADS * Scanner::P;
    return (n + span - 1) / span;
}

#endif
