/*
** qgram_bytes.cu -- byte sets on the GPU through the index by 4 and by 8
** bytes that the CPU scans (qgram_bytes.c, issue 23 item 2): strings of 4..7
** bytes are keyed by their last 4, longer ones by their last 8, each side
** with a bitmap and buckets of (key, uid, length).
**
** One q for a signature set is its shortest length, and keyed by 4 bytes
** the long strings' common endings make long buckets and nearly every end a
** candidate: the general kernel (qgram.cu) ran 10,000 signatures at 5 GB/s,
** and auto took PFAC's walks (21 GB/s). Here, on mwarp.cuh's skeleton, a
** lane holds its 16 bytes (folded) and the 8 before them from the lane
** before, so the 8 bytes ending at each of its ends are one 64-bit funnel
** shift; two multiplicative hashes of them (as the CPU's) probe both
** bitmaps, in shared memory where they fit (else through L1 and L2), and
** only where a bit is set is the bucket searched: a short string's key is
** the whole string, a long one's head is compared byte by byte.
*/
#include "multi/mcuda.h"
#include "multi/mwarp.cuh"

#define QB_K0 0x9E3779B1u /* qgram_bytes.h's hashes */
#define QB_K1 0x85EBCA77u

/* Shared memory the fold table and the bitmaps may take: what is left of
** 227 KiB for one block beside the skeleton's stages (32 KiB, listing 64). */
#define QB_SMEM_MAX(mode) ((mode) == WM_MM_WRITE ? 160u << 10 : 192u << 10)

struct qgram_bytes_scanner {
    typedef uint4 lane_t; /* a lane's 16 bytes, folded */
    static const bool may_be_exact = false;
    static const int min_blocks = 1; /* the bitmaps take most of shared memory */
    wm_cu_mplan_t p;
    uint32_t tables;
    bool exact;
    uint32_t bm_at[2]; /* a side's bitmap in shared memory from this byte; 0: global */

    __device__ void setup(uint8_t *s) const {
        for (uint32_t i = threadIdx.x; i < 64; i += blockDim.x)
            ((uint32_t *)s)[i] = ((const uint32_t *)p.fold)[i];
        for (int d = 0; d < 2; d++) {
            if (!bm_at[d]) continue;
            uint32_t words = (1u << p.qb_bitmap_bits[d]) / 32;
            for (uint32_t i = threadIdx.x; i < words; i += blockDim.x)
                ((uint32_t *)(s + bm_at[d]))[i] = __ldg(p.qb_bitmap[d] + i);
        }
    }
    __device__ uint32_t fold_word(uint32_t w, const uint8_t *s) const {
        if (p.qb_fold == 1) { /* A-Z to a-z, four bytes at once */
            uint32_t up = __vcmpgeu4(w, 0x41414141u) & __vcmpleu4(w, 0x5a5a5a5au);
            return w | (up & 0x20202020u);
        }
        return (uint32_t)s[w & 0xff] | (uint32_t)s[(w >> 8) & 0xff] << 8 |
               (uint32_t)s[(w >> 16) & 0xff] << 16 | (uint32_t)s[w >> 24] << 24;
    }
    __device__ lane_t decode(uint4 v, const uint8_t *s) const {
        if (p.qb_fold == 0) return v;
        return make_uint4(fold_word(v.x, s), fold_word(v.y, s), fold_word(v.z, s),
                          fold_word(v.w, s));
    }
    __device__ uint2 carry(const lane_t &l) const { return make_uint2(l.z, l.w); }
    __device__ lane_t from(const lane_t &l, int lane) const {
        return make_uint4(__shfl_sync(WM_MW_FULL, l.x, lane), __shfl_sync(WM_MW_FULL, l.y, lane),
                          __shfl_sync(WM_MW_FULL, l.z, lane), __shfl_sync(WM_MW_FULL, l.w, lane));
    }
    __device__ uint2 nothing() const { return make_uint2(0, 0); }
    /* The 8 bytes that end with byte j of the lane, little-endian (the
    ** earliest lowest), as the CPU's code. */
    __device__ uint64_t code(const lane_t &l, uint2 up, uint32_t j) const {
        uint64_t u = (uint64_t)up.y << 32 | up.x, a = (uint64_t)l.y << 32 | l.x,
                 b = (uint64_t)l.w << 32 | l.z;
        if (j >= 8) {
            u = a;
            a = b;
            j -= 8;
        }
        return j == 7 ? a : u >> (8 * (j + 1)) | a << (56 - 8 * j);
    }
    __device__ bool probe(int d, uint32_t h, const uint8_t *s) const {
        uint32_t bit = h >> (32 - p.qb_bitmap_bits[d]);
        uint32_t w = bm_at[d] ? ((const uint32_t *)(s + bm_at[d]))[bit >> 5]
                              : __ldg(p.qb_bitmap[d] + (bit >> 5));
        return (w >> (bit & 31)) & 1;
    }
    __device__ uint32_t ok(const lane_t &, uint2) const { return 0xffffu; }
    __device__ uint32_t sum(const lane_t &, uint2, uint32_t, const uint8_t *) const { return 0; }
    /* bit 15 - j: a side's bitmap has end j; bit 31 - j: side 1's has */
    __device__ uint32_t hits(const lane_t &l, uint2 up, uint32_t ok, const uint8_t *s) const {
        uint32_t h0 = 0, h1 = 0;
#pragma unroll
        for (uint32_t j = 0; j < 16; j++) {
            uint64_t c = code(l, up, j);
            uint32_t lo = (uint32_t)c, hi = (uint32_t)(c >> 32);
            if (p.qb_n[0]) h0 |= (uint32_t)probe(0, hi * QB_K0, s) << (15 - j);
            if (p.qb_n[1]) h1 |= (uint32_t)probe(1, lo * QB_K1 + hi * QB_K0, s) << (15 - j);
        }
        return ((h0 | h1) & ok) | (h1 & ok) << 16;
    }
    /* The buckets for the end e (local, exclusive) of the sides whose
    ** bitmaps have it (side 1: the flag; side 0 asked again where the flag
    ** is set), as the CPU's wm_qgb_bucket0 / 1: the bytes before the batch
    ** are not the text's. */
    template <class E>
    __device__ void visit(const lane_t &l, uint2 up, uint32_t j, uint64_t e, uint32_t side1,
                          const wm_cu_mtext_t &t, const uint8_t *s, E &emit) const {
        uint64_t c = code(l, up, j);
        uint32_t lo = (uint32_t)c, hi = (uint32_t)(c >> 32);
        if (p.qb_n[0] && (!side1 || probe(0, hi * QB_K0, s))) {
            uint32_t h = hi * QB_K0, k = h >> (32 - p.qb_bucket_bits[0]);
            for (uint32_t x = __ldg(p.qb_off[0] + k), xe = __ldg(p.qb_off[0] + k + 1); x < xe;
                 x++) {
                const wm_qg_ent_t *en = p.qb_ent[0] + x;
                uint32_t len = __ldg(&en->len);
                if (e >= len && c >> (64 - 8 * len) == __ldg(&en->key))
                    emit.put(e, __ldg(&en->uid));
            }
        }
        if (side1) {
            uint32_t h = lo * QB_K1 + hi * QB_K0, k = h >> (32 - p.qb_bucket_bits[1]);
            for (uint32_t x = __ldg(p.qb_off[1] + k), xe = __ldg(p.qb_off[1] + k + 1); x < xe;
                 x++) {
                const wm_qg_ent_t *en = p.qb_ent[1] + x;
                uint32_t len = __ldg(&en->len), u = __ldg(&en->uid);
                if (c != __ldg(&en->key) || e < len) continue;
                const uint8_t *str = p.ubytes + __ldg(p.uoff + u), *tx = t.text + e - len;
                uint32_t i = 0, n = len - 8;
                while (i < n && __ldg(p.fold + tx[i]) == __ldg(str + i)) i++;
                if (i == n) emit.put(e, u);
            }
        }
    }
    __device__ uint32_t keep(uint2) const { return 0; }
    __device__ uint32_t key(uint32_t, uint32_t, uint32_t) const { return 0; }
    __device__ uint32_t uid(uint32_t, const uint8_t *) const { return 0; }
};

int wm_cu_qgram_bytes_fits(const wm_cu_mplan_t *p, const wm_cu_mtext_t *t) {
    return (p->qb_n[0] || p->qb_n[1]) && ((uintptr_t)t->text & 15) == 0;
}

cudaError_t wm_cu_qgram_bytes_launch(const wm_cu_mplan_t *p, int mode, const wm_cu_mtext_t *t,
                                     const wm_cu_mout_t *o, cudaStream_t s, uint64_t *blocks) {
    qgram_bytes_scanner sc;
    sc.p = *p;
    sc.exact = false;
    sc.tables = 256;
    for (int d = 0; d < 2; d++) { /* side 0's is the smaller: it goes first */
        uint32_t bytes = p->qb_n[d] ? (1u << p->qb_bitmap_bits[d]) / 8 : 0;
        sc.bm_at[d] = 0;
        if (bytes && sc.tables + bytes <= QB_SMEM_MAX(mode)) {
            sc.bm_at[d] = sc.tables;
            sc.tables += bytes;
        }
    }
    return wm_mw_launch<qgram_bytes_scanner, 0>(sc, mode, *t, *o, s, blocks);
}
